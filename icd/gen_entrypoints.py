#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate the swgpu ICD's entry points and struct helpers from vk.xml.

Inputs: vk.xml (the Khronos registry) and icd/extensions.txt (the one list
of offered extensions). Outputs, all in the build tree:

  icd_entrypoints.h  prototypes icd_<Name> of every core 1.0-1.3 command and
                     every command of an offered extension, the extension
                     indices and the entry-point lookup API
  icd_entrypoints.c  name -> function tables per dispatch level (global,
                     instance, physical device, device), the extension
                     property arrays, and a WEAK default definition of
                     every icd_<Name> that fails loudly; real
                     implementations are ordinary strong definitions
  icd_structs.h/.c   feature/property pNext-chain helpers for every struct
                     that core 1.1-1.3 promoted into the aggregate
                     VkPhysicalDeviceVulkan1{1,2,3}{Features,Properties},
                     plus the block sizes of the plain color formats

Only the Python standard library is used.
"""

import argparse
import re
import sys
import xml.etree.ElementTree as ET

MAX_VERSION = (1, 3)
GLOBAL_COMMANDS = {
    "vkCreateInstance",
    "vkEnumerateInstanceExtensionProperties",
    "vkEnumerateInstanceLayerProperties",
    "vkEnumerateInstanceVersion",
}
AGGREGATES = ("VkPhysicalDeviceVulkan11", "VkPhysicalDeviceVulkan12",
              "VkPhysicalDeviceVulkan13")


def api_ok(el):
    api = el.get("api")
    return api is None or "vulkan" in api.split(",")


def version_of(feature_name):
    m = re.match(r"VK_VERSION_(\d+)_(\d+)$", feature_name)
    return (int(m.group(1)), int(m.group(2))) if m else None


class Registry:
    def __init__(self, path, ext_path):
        self.root = ET.parse(path).getroot()
        self.offered = {"instance": [], "device": []}
        with open(ext_path) as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if not line:
                    continue
                if len(line) != 2 or line[0] not in self.offered:
                    sys.exit("bad line in extensions list: %r" % line)
                self.offered[line[0]].append(line[1])
        self.offered_set = set(self.offered["instance"] +
                               self.offered["device"])
        self._parse_types()
        self._parse_commands()
        self._parse_features()
        self._parse_extensions()

    # ---------------------------------------------------------------- types
    def _parse_types(self):
        self.handles = {}       # name -> dispatchable?
        self.structs = {}       # name -> element
        self.type_alias = {}
        for t in self.root.find("types"):
            if t.tag != "type" or not api_ok(t):
                continue
            cat = t.get("category")
            name = t.get("name") or (t.find("name").text
                                     if t.find("name") is not None else None)
            if t.get("alias"):
                self.type_alias[name] = t.get("alias")
                continue
            if cat == "handle":
                self.handles[name] = (t.find("type").text ==
                                      "VK_DEFINE_HANDLE")
            elif cat == "struct":
                self.structs[name] = t

    def members(self, struct):
        out = []
        for m in self.structs[struct].findall("member"):
            if not api_ok(m):
                continue
            name = m.find("name").text
            typ = m.find("type").text
            text = "".join(m.itertext())
            out.append((name, typ, "[" in text, m.get("values")))
        return out

    def stype(self, struct):
        for name, typ, arr, values in self.members(struct):
            if name == "sType":
                return values
        return None

    # ------------------------------------------------------------- commands
    def _parse_commands(self):
        self.commands = {}      # name -> (ret, [(type, name, decl)])
        self.cmd_alias = {}
        for c in self.root.find("commands"):
            if not api_ok(c):
                continue
            if c.get("alias"):
                self.cmd_alias[c.get("name")] = c.get("alias")
                continue
            proto = c.find("proto")
            name = proto.find("name").text
            ret = "".join(proto.itertext())[: -len(name)].strip()
            params = []
            for p in c.findall("param"):
                if not api_ok(p):
                    continue
                decl = " ".join("".join(p.itertext()).split())
                params.append((p.find("type").text, p.find("name").text,
                               decl))
            self.commands[name] = (ret, params)

    def canonical(self, name):
        while name in self.cmd_alias:
            name = self.cmd_alias[name]
        return name

    # ---------------------------------------------------------- conditions
    def satisfied(self, expr):
        """depends= / requires= expressions: ',' is OR, '+' is AND."""
        if not expr:
            return True
        py = re.sub(r"[A-Za-z0-9_]+", lambda m: str(self._name_ok(
            m.group(0))), expr)
        py = py.replace(",", " or ").replace("+", " and ")
        return eval(py, {"__builtins__": {}})  # noqa: S307 — own tokens

    def _name_ok(self, name):
        v = version_of(name)
        if v:
            return v <= MAX_VERSION
        return name in self.offered_set

    def _block_ok(self, req):
        if not api_ok(req):
            return False
        for attr in ("feature", "extension", "depends"):
            if req.get(attr) and not self.satisfied(req.get(attr)):
                return False
        return True

    # ------------------------------------------------------ features/exts
    def _parse_features(self):
        self.core_cmds = {}     # name -> version tuple
        self.core_types = set()
        for f in self.root.findall("feature"):
            if not api_ok(f):
                continue
            v = version_of(f.get("name"))
            if not v or v > MAX_VERSION:
                continue
            for req in f.findall("require"):
                for c in req.findall("command"):
                    self.core_cmds.setdefault(c.get("name"), v)
                for t in req.findall("type"):
                    self.core_types.add(t.get("name"))

    def _parse_extensions(self):
        self.platforms = {p.get("name"): p.get("protect") for p in
                          self.root.find("platforms")}
        self.ext = {}           # name -> dict
        self.ext_cmds = {}      # command name -> set of extension names
        found = set()
        for e in self.root.find("extensions"):
            name = e.get("name")
            if name not in self.offered_set:
                continue
            found.add(name)
            kind = e.get("type")
            listed = ("instance" if name in self.offered["instance"]
                      else "device")
            if kind != listed:
                sys.exit("%s is a %s extension" % (name, kind))
            # Window-system extensions (platform="xcb", ...) need their
            # platform's types: their prototypes are guarded by the
            # platform's VK_USE_PLATFORM_* macro (see protect()).
            info = {"spec": None, "name_macro": None,
                    "protect": self.platforms.get(e.get("platform"))}
            for req in e.findall("require"):
                for en in req.findall("enum"):
                    n = en.get("name")
                    if n.endswith("_SPEC_VERSION"):
                        info["spec"] = n
                    elif n.endswith("_EXTENSION_NAME"):
                        info["name_macro"] = n
                if not self._block_ok(req):
                    continue
                for c in req.findall("command"):
                    self.ext_cmds.setdefault(c.get("name"), set()).add(name)
            self.ext[name] = info
        missing = self.offered_set - found
        if missing:
            sys.exit("unknown extensions: %s" % ", ".join(sorted(missing)))

    def protect(self, name):
        """The VK_USE_PLATFORM_* macro a command needs, or None: set when
        only window-system extensions provide it (their parameters use the
        platform's types, e.g. xcb_connection_t)."""
        if name in self.core_cmds:
            return None
        guards = {self.ext[e]["protect"]
                  for e in self.ext_cmds.get(name, ())}
        return guards.pop() if len(guards) == 1 else None

    # --------------------------------------------------------------- levels
    def level(self, name):
        if name in GLOBAL_COMMANDS:
            return "global"
        params = self.commands[self.canonical(name)][1]
        first = params[0][0] if params else None
        if first == "VkPhysicalDevice":
            return "physical_device"
        if first in ("VkDevice", "VkQueue", "VkCommandBuffer"):
            return "device"
        return "instance"


# ---------------------------------------------------------------------------
# icd_entrypoints.h / .c
# ---------------------------------------------------------------------------

def ext_enum(kind, name):
    return "ICD_%s_EXT_%s" % (kind.upper(), name[3:])


def proto(reg, canon):
    ret, params = reg.commands[canon]
    args = ", ".join(p[2] for p in params) or "void"
    return "VKAPI_ATTR %s VKAPI_CALL\nicd_%s(%s)" % (ret, canon[2:], args)


def stub_body(reg, canon):
    ret, params = reg.commands[canon]
    short = canon[2:]
    destroy = short.startswith("Destroy") or short.startswith("Free")
    obj = None
    if destroy and params:
        # The object being destroyed: the first handle after the parent
        # (vkDestroyInstance/vkDestroyDevice: the first parameter).
        handles = [p for p in params if p[0] in reg.handles and
                   "*" not in p[2]]
        if len(handles) >= 2:
            obj = handles[1][1]
        elif handles:
            obj = handles[0][1]
    lines = []
    if obj:
        lines.append("\tif (%s == VK_NULL_HANDLE)" % obj)
        lines.append("\t\treturn%s;" % (" VK_SUCCESS" if ret == "VkResult"
                                         else ""))
    if ret == "VkResult":
        lines.append('\treturn icd_unsupported("%s");' % canon)
    elif ret == "void" and short.startswith("Cmd"):
        lines.append('\ticd_cmd_unsupported(%s, "%s");' %
                     (params[0][1], canon))
    elif ret == "void":
        lines.append('\t(void)icd_unsupported("%s");' % canon)
    else:
        lines.append('\t(void)icd_unsupported("%s");' % canon)
        lines.append("\treturn 0;")
    return "\n".join(lines)


def gen_entrypoints(reg, out_h, out_c):
    names = set(reg.core_cmds) | set(reg.ext_cmds)
    # Every exposed name: core or extension, aliases included.
    entries = {}
    for n in names:
        canon = reg.canonical(n)
        if canon not in reg.commands:
            sys.exit("no definition for %s" % n)
        entries[n] = canon
    canons = sorted(set(entries.values()))

    h = []
    h.append("/* SPDX-License-Identifier: MIT */")
    h.append("/* Generated by icd/gen_entrypoints.py from vk.xml — do not "
             "edit. */")
    h.append("#ifndef ICD_ENTRYPOINTS_H\n#define ICD_ENTRYPOINTS_H\n")
    h.append("#include <vulkan/vulkan.h>\n")
    for kind in ("instance", "device"):
        h.append("enum icd_%s_extension {" % kind)
        for e in reg.offered[kind]:
            h.append("\t%s," % ext_enum(kind, e))
        h.append("\tICD_%s_EXT_COUNT\n};" % kind.upper())
        h.append("/* Offered %s extensions, indexed by ICD_%s_EXT_*. */" %
                 (kind, kind.upper()))
        h.append("extern const VkExtensionProperties icd_%s_extensions[];"
                 % kind)
        h.append("")
    h.append("""enum icd_dispatch_level {
	ICD_LEVEL_GLOBAL,
	ICD_LEVEL_INSTANCE,       /* first parameter VkInstance */
	ICD_LEVEL_PHYSICAL_DEVICE,/* first parameter VkPhysicalDevice */
	ICD_LEVEL_DEVICE,         /* VkDevice, VkQueue, VkCommandBuffer */
};

struct icd_entrypoint {
	const char *name;
	PFN_vkVoidFunction func;
	/* VK_MAKE_API_VERSION of the core version that has this name, 0 if
	 * only extensions provide it. */
	uint32_t core_version;
	/* bits (1 << ICD_INSTANCE_EXT_* / ICD_DEVICE_EXT_*) of the offered
	 * instance / device extensions that provide it */
	uint64_t instance_ext_mask;
	uint64_t device_ext_mask;
};

/* Look a command name up in the table of one level; NULL if absent. */
const struct icd_entrypoint *
icd_entrypoint_lookup(enum icd_dispatch_level level, const char *name);
""")
    h.append("/* Prototypes: one per command, aliases share the core one. */")
    for c in canons:
        guard = reg.protect(c)
        if guard:
            h.append("#ifdef %s" % guard)
        h.append(proto(reg, c) + ";")
        if guard:
            h.append("#endif")
    h.append("\n#endif /* ICD_ENTRYPOINTS_H */")
    out_h.write("\n".join(h) + "\n")

    c = []
    c.append("/* SPDX-License-Identifier: MIT */")
    c.append("/* Generated by icd/gen_entrypoints.py from vk.xml — do not "
             "edit. */")
    # This file lists every command, window-system ones included, so it
    # sees every offered platform's types.
    for g in sorted({i["protect"] for i in reg.ext.values()
                     if i["protect"]}):
        c.append("#define %s" % g)
    c.append('#include <stdlib.h>\n#include <string.h>\n')
    c.append('#include "icd.h"\n')
    for kind in ("instance", "device"):
        c.append("const VkExtensionProperties icd_%s_extensions[] = {" %
                 kind)
        for e in reg.offered[kind]:
            info = reg.ext[e]
            c.append("\t[%s] = { %s, %s }," % (ext_enum(kind, e),
                                              info["name_macro"],
                                              info["spec"]))
        if not reg.offered[kind]:
            c.append("\t{ \"\", 0 } /* none offered: keeps C11 happy */")
        c.append("};\n")

    # Weak defaults.
    c.append("""/*
 * Weak defaults: every command exists, and one the device cannot carry out
 * yet fails with a log line instead of succeeding silently. A strong
 * definition anywhere in the ICD replaces the default at link time.
 */
#define ICD_WEAK __attribute__((weak))

ICD_WEAK void
icd_cmd_unsupported(VkCommandBuffer commandBuffer, const char *command)
{
	icd_log("%s is not supported by this device", command);
}
""")
    for cn in canons:
        c.append("ICD_WEAK " + proto(reg, cn) + "\n{\n" +
                 stub_body(reg, cn) + "\n}\n")

    levels = {"global": [], "instance": [], "physical_device": [],
              "device": []}
    for n in sorted(entries):
        levels[reg.level(n)].append(n)
    for lvl, lst in levels.items():
        c.append("static const struct icd_entrypoint icd_%s_table[] = {" %
                 lvl)
        for n in lst:   # sorted by strcmp for bsearch (ASCII names)
            v = reg.core_cmds.get(n)
            ver = ("VK_MAKE_API_VERSION(0, %d, %d, 0)" % v) if v else "0"
            masks = []
            for kind in ("instance", "device"):
                masks.append(" | ".join(
                    "(UINT64_C(1) << %s)" % ext_enum(kind, e)
                    for e in sorted(reg.ext_cmds.get(n, ()))
                    if e in reg.offered[kind]) or "0")
            c.append('\t{ "%s", (PFN_vkVoidFunction)icd_%s, %s,\n\t  %s,\n'
                     '\t  %s },' % (n, entries[n][2:], ver, masks[0],
                                     masks[1]))
        if not lst:
            c.append('\t{ "", NULL, 0, 0, 0 }')
        c.append("};\n")
    c.append("""static int
icd_entrypoint_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct icd_entrypoint *)elem)->name);
}

const struct icd_entrypoint *
icd_entrypoint_lookup(enum icd_dispatch_level level, const char *name)
{
	const struct icd_entrypoint *t;
	size_t n;

	switch (level) {""")
    for lvl, lst in levels.items():
        c.append("\tcase ICD_LEVEL_%s:\n\t\tt = icd_%s_table;\n\t\tn = %d;\n"
                 "\t\tbreak;" % (lvl.upper(), lvl, len(lst)))
    c.append("""\tdefault:
		return NULL;
	}
	if (!name)
		return NULL;
	return bsearch(name, t, n, sizeof(*t), icd_entrypoint_cmp);
}""")
    out_c.write("\n".join(c) + "\n")


# ---------------------------------------------------------------------------
# icd_structs.h / .c
# ---------------------------------------------------------------------------

def chain_structs(reg, extends):
    """Structs extending `extends` that core 1.1-1.3 made part of an
    aggregate (or are the aggregates), with their member mapping."""
    kind = "Features" if extends == "VkPhysicalDeviceFeatures2" else \
        "Properties"
    aggs = [a + kind for a in AGGREGATES]
    agg_members = {a: {m[0] for m in reg.members(a)} for a in aggs}
    out = []
    for name, el in sorted(reg.structs.items()):
        ext = (el.get("structextends") or "").split(",")
        if extends not in ext or name not in reg.core_types:
            continue
        fields = [m for m in reg.members(name)
                  if m[0] not in ("sType", "pNext")]
        if name in aggs:
            out.append((name, reg.stype(name), name, None))
            continue
        for a in aggs:
            mapping = []
            for f in fields:
                alt = "subgroup" + f[0][0].upper() + f[0][1:]
                if f[0] in agg_members[a]:
                    mapping.append((f[0], f[0], f[1]))
                elif alt in agg_members[a]:
                    mapping.append((f[0], alt, f[1]))
                else:
                    break
            else:
                out.append((name, reg.stype(name), a, mapping))
                break
    return out


def agg_field(agg):
    return {"11": "v11", "12": "v12", "13": "v13"}[agg[22:24]]


def gen_structs(reg, out_h, out_c):
    feats = chain_structs(reg, "VkPhysicalDeviceFeatures2")
    props = chain_structs(reg, "VkPhysicalDeviceProperties2")
    h = ["/* SPDX-License-Identifier: MIT */",
         "/* Generated by icd/gen_entrypoints.py from vk.xml — do not "
         "edit. */",
         "#ifndef ICD_STRUCTS_H\n#define ICD_STRUCTS_H\n",
         "#include <stdbool.h>\n#include <vulkan/vulkan.h>\n",
         """/* Every core 1.0-1.3 feature, in the aggregate structs. */
struct icd_features {
	VkPhysicalDeviceFeatures core;
	VkPhysicalDeviceVulkan11Features v11;
	VkPhysicalDeviceVulkan12Features v12;
	VkPhysicalDeviceVulkan13Features v13;
};

/* Every core 1.1-1.3 property outside VkPhysicalDeviceProperties. */
struct icd_properties {
	VkPhysicalDeviceVulkan11Properties v11;
	VkPhysicalDeviceVulkan12Properties v12;
	VkPhysicalDeviceVulkan13Properties v13;
};

/* Fill every struct of a vkGetPhysicalDeviceFeatures2 chain that core
 * promoted (and the aggregates). Returns false if a struct was left
 * untouched (the caller handles or ignores it) — via *unknown. */
void icd_features_write_chain(void *chain, const struct icd_features *f,
                              void (*unknown)(VkBaseOutStructure *s));
void icd_properties_write_chain(void *chain, const struct icd_properties *p,
                                void (*unknown)(VkBaseOutStructure *s));

/* Collect the features a VkDeviceCreateInfo asks for (pEnabledFeatures
 * and every feature struct of its chain) into *out (zeroed first). */
void icd_features_read_chain(const VkPhysicalDeviceFeatures *enabled,
                             const void *chain, struct icd_features *out);

/* Name of the first feature requested but not supported, else NULL. */
const char *icd_features_missing(const struct icd_features *req,
                                 const struct icd_features *sup);

""",
         "#endif /* ICD_STRUCTS_H */"]
    out_h.write("\n".join(h) + "\n")

    c = ["/* SPDX-License-Identifier: MIT */",
         "/* Generated by icd/gen_entrypoints.py from vk.xml — do not "
         "edit. */",
         "#include <string.h>\n",
         '#include "icd_structs.h"\n']

    def write_chain(fn, structs, arg, argtype):
        c.append("void\n%s(void *chain, const %s *%s,\n"
                 "\tvoid (*unknown)(VkBaseOutStructure *s))\n{" %
                 (fn, argtype, arg))
        c.append("\tfor (VkBaseOutStructure *s = chain; s; s = s->pNext) "
                 "{\n\t\tswitch (s->sType) {")
        for name, stype, agg, mapping in structs:
            f = agg_field(agg)
            c.append("\t\tcase %s: {" % stype)
            c.append("\t\t\t%s *d = (void *)s;" % name)
            if mapping is None:
                c.append("\t\t\tvoid *next = d->pNext;")
                c.append("\t\t\t*d = %s->%s;" % (arg, f))
                c.append("\t\t\td->sType = %s;\n\t\t\td->pNext = next;" %
                         stype)
            else:
                for dst, src, typ in mapping:
                    c.append("\t\t\tmemcpy(&d->%s, &%s->%s.%s, "
                             "sizeof(d->%s));" % (dst, arg, f, src, dst))
            c.append("\t\t\tbreak;\n\t\t}")
        c.append("\t\tdefault:\n\t\t\tif (unknown)\n\t\t\t\tunknown(s);\n"
                 "\t\t\tbreak;\n\t\t}\n\t}\n}\n")
        for name, stype, agg, mapping in structs:
            for dst, src, typ in mapping or ():
                c.append("_Static_assert(sizeof(((%s *)0)->%s) == "
                         "sizeof(((%s *)0)->%s), \"%s.%s\");" %
                         (name, dst, agg, src, name, dst))
        c.append("")

    write_chain("icd_features_write_chain", feats, "f",
                "struct icd_features")
    write_chain("icd_properties_write_chain", props, "p",
                "struct icd_properties")

    # read chain: OR every requested VkBool32 into the aggregates
    c.append("void\nicd_features_read_chain(const VkPhysicalDeviceFeatures "
             "*enabled,\n\tconst void *chain, struct icd_features *out)\n{")
    c.append("\tmemset(out, 0, sizeof(*out));")
    core = [m[0] for m in reg.members("VkPhysicalDeviceFeatures")]
    c.append("\tconst VkPhysicalDeviceFeatures *cf[2] = { enabled, NULL };")
    c.append("\tfor (const VkBaseInStructure *s = chain; s; s = s->pNext)")
    c.append("\t\tif (s->sType == "
             "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)")
    c.append("\t\t\tcf[1] = &((const VkPhysicalDeviceFeatures2 *)s)"
             "->features;")
    c.append("\tfor (int i = 0; i < 2; i++) {\n\t\tif (!cf[i])\n"
             "\t\t\tcontinue;")
    for m in core:
        c.append("\t\tout->core.%s |= cf[i]->%s;" % (m, m))
    c.append("\t}")
    c.append("\tfor (const VkBaseInStructure *s = chain; s; s = s->pNext) "
             "{\n\t\tswitch (s->sType) {")
    for name, stype, agg, mapping in feats:
        f = agg_field(agg)
        c.append("\t\tcase %s: {" % stype)
        c.append("\t\t\tconst %s *r = (const void *)s;" % name)
        if mapping is None:
            mapping = [(m[0], m[0], m[1]) for m in reg.members(name)
                       if m[0] not in ("sType", "pNext")]
        for dst, src, typ in mapping:
            if typ == "VkBool32":
                c.append("\t\t\tout->%s.%s |= r->%s;" % (f, src, dst))
        c.append("\t\t\tbreak;\n\t\t}")
    c.append("\t\tdefault:\n\t\t\tbreak;\n\t\t}\n\t}\n}\n")

    c.append("const char *\nicd_features_missing(const struct icd_features "
             "*req,\n\tconst struct icd_features *sup)\n{")
    for m in core:
        c.append("\tif (req->core.%s && !sup->core.%s)\n\t\treturn \"%s\";"
                 % (m, m, m))
    for a in AGGREGATES:
        agg = a + "Features"
        f = agg_field(agg)
        for m in reg.members(agg):
            if m[1] == "VkBool32":
                c.append("\tif (req->%s.%s && !sup->%s.%s)\n"
                         "\t\treturn \"%s\";" % (f, m[0], f, m[0], m[0]))
    c.append("\treturn NULL;\n}\n")

    out_c.write("\n".join(c) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--xml", required=True)
    ap.add_argument("--extensions", required=True)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    reg = Registry(args.xml, args.extensions)
    d = args.out_dir
    with open(d + "/icd_entrypoints.h", "w") as h, \
            open(d + "/icd_entrypoints.c", "w") as c:
        gen_entrypoints(reg, h, c)
    with open(d + "/icd_structs.h", "w") as h, \
            open(d + "/icd_structs.c", "w") as c:
        gen_structs(reg, h, c)


if __name__ == "__main__":
    main()
