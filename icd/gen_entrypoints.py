#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate the swgpu ICD's entry points and struct helpers from vk.xml.

Inputs: vk.xml (the Khronos registry) and icd/extensions.txt (the one table
of what swgpu offers; gen_registry.py reads both). Outputs, all in the
build tree:

  icd_entrypoints.h  prototypes icd_<Name> of every core 1.0-1.3 command and
                     every command of a candidate extension, the extension
                     indices, extension sets and the lookup API
  icd_entrypoints.c  name -> function tables per dispatch level (global,
                     instance, physical device, device), each name with the
                     core version and the extension clauses that provide
                     it; the candidate extension property arrays, their
                     dependencies and feature gates; a WEAK default
                     definition of every icd_<Name> that fails loudly (real
                     implementations are ordinary strong definitions)
  icd_structs.h/.c   feature/property pNext-chain helpers (gen_structs.py)

Only the Python standard library is used.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_registry import Registry  # noqa: E402
from gen_structs import gen_structs  # noqa: E402


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


H_API = """#define ICD_EXT_SET_WORDS %(words)d
/* A set of extensions of one kind, bit i = index i. */
struct icd_ext_set {
	uint64_t w[ICD_EXT_SET_WORDS];
};

static inline bool
icd_ext_set_has(const struct icd_ext_set *s, unsigned i)
{
	return (s->w[i / 64] >> (i %% 64)) & 1;
}

static inline void
icd_ext_set_add(struct icd_ext_set *s, unsigned i)
{
	s->w[i / 64] |= UINT64_C(1) << (i %% 64);
}

enum icd_dispatch_level {
	ICD_LEVEL_GLOBAL,
	ICD_LEVEL_INSTANCE,       /* first parameter VkInstance */
	ICD_LEVEL_PHYSICAL_DEVICE,/* first parameter VkPhysicalDevice */
	ICD_LEVEL_DEVICE,         /* VkDevice, VkQueue, VkCommandBuffer */
};

enum icd_ext_kind { ICD_EXT_NONE, ICD_EXT_INSTANCE, ICD_EXT_DEVICE };

/* One way an extension provides a command (a require block of vk.xml):
 * extension ext, and also ext2 (unless ICD_EXT_NONE) and a core version
 * of at least min_version (unless 0) — e.g.
 * vkCmdPushDescriptorSetWithTemplateKHR is VK_KHR_push_descriptor with
 * Vulkan 1.1, or with VK_KHR_descriptor_update_template. */
struct icd_ep_clause {
	uint8_t kind, kind2;      /* enum icd_ext_kind */
	uint16_t ext, ext2;       /* ICD_INSTANCE_EXT_* / ICD_DEVICE_EXT_* */
	uint32_t min_version;     /* VK_MAKE_API_VERSION, 0: any */
};

struct icd_entrypoint {
	const char *name;
	PFN_vkVoidFunction func;
	/* VK_MAKE_API_VERSION of the core version that has this name, 0 if
	 * only extensions provide it. */
	uint32_t core_version;
	uint32_t nclauses;
	const struct icd_ep_clause *clauses;
};

/* Look a command name up in the table of one level; NULL if absent. */
const struct icd_entrypoint *
icd_entrypoint_lookup(enum icd_dispatch_level level, const char *name);

/* Whether a clause holds for the enabled instance and device extension
 * sets (dev may be NULL: no device extension) and an API version. */
bool icd_ep_clause_holds(const struct icd_ep_clause *c,
                         const struct icd_ext_set *inst,
                         const struct icd_ext_set *dev, uint32_t api);

/* The candidate device extensions this physical device supports: every
 * gate feature on (as vkGetPhysicalDeviceFeatures2 reports it) and every
 * extension it requires supported. */
void icd_device_extensions_supported(VkPhysicalDevice pd,
                                     struct icd_ext_set *out);

/* The feature structs of candidate extensions outside core 1.3: sType,
 * number of VkBool32 features after the header, name. */
struct icd_ext_feature_struct {
	VkStructureType type;
	uint32_t count;
	const char *name;
};
extern const struct icd_ext_feature_struct icd_ext_feature_structs[];
extern const uint32_t icd_ext_feature_struct_count;

/* Index of an extension in icd_instance_extensions /
 * icd_device_extensions, or -1. */
int icd_instance_extension_index(const char *name);
int icd_device_extension_index(const char *name);
"""


def gen_header(reg, canons, words):
    h = ["/* SPDX-License-Identifier: MIT */",
         "/* Generated by icd/gen_entrypoints.py from vk.xml — do not "
         "edit. */",
         "#ifndef ICD_ENTRYPOINTS_H\n#define ICD_ENTRYPOINTS_H\n",
         "#include <stdbool.h>\n#include <stdint.h>\n"
         "#include <vulkan/vulkan.h>\n"]
    for kind in ("instance", "device"):
        h.append("enum icd_%s_extension {" % kind)
        for e in reg.offered[kind]:
            h.append("\t%s," % ext_enum(kind, e))
        h.append("\tICD_%s_EXT_COUNT\n};" % kind.upper())
        h.append("/* Candidate %s extensions, indexed by ICD_%s_EXT_*. */"
                 % (kind, kind.upper()))
        h.append("extern const VkExtensionProperties icd_%s_extensions[];"
                 % kind)
        h.append("")
    h.append(H_API % {"words": words})
    h.append("/* Prototypes: one per command, aliases share the core one. */")
    for c in canons:
        guard = reg.protect(c)
        if guard:
            h.append("#ifdef %s" % guard)
        h.append(proto(reg, c) + ";")
        if guard:
            h.append("#endif")
    h.append("\n#endif /* ICD_ENTRYPOINTS_H */")
    return "\n".join(h) + "\n"


def clause_c(reg, clause):
    ext, extra, ver = clause

    def ref(name):
        if not name:
            return "ICD_EXT_NONE", "0"
        kind = reg.kind_of(name)
        return "ICD_EXT_%s" % kind.upper(), ext_enum(kind, name)
    k1, e1 = ref(ext)
    k2, e2 = ref(extra)
    v = "VK_MAKE_API_VERSION(0, %d, %d, 0)" % ver if ver else "0"
    return "{ %s, %s, %s, %s, %s }" % (k1, k2, e1, e2, v)


C_FUNCS = """bool
icd_ep_clause_holds(const struct icd_ep_clause *c,
                    const struct icd_ext_set *inst,
                    const struct icd_ext_set *dev, uint32_t api)
{
	const uint8_t kinds[2] = { c->kind, c->kind2 };
	const uint16_t exts[2] = { c->ext, c->ext2 };

	for (int i = 0; i < 2; i++) {
		const struct icd_ext_set *s =
			kinds[i] == ICD_EXT_INSTANCE ? inst :
			kinds[i] == ICD_EXT_DEVICE ? dev : NULL;
		if (kinds[i] == ICD_EXT_NONE)
			continue;
		if (!s || !icd_ext_set_has(s, exts[i]))
			return false;
	}
	return !c->min_version ||
	       VK_API_VERSION_MAJOR(api) * 1000 + VK_API_VERSION_MINOR(api) >=
	       VK_API_VERSION_MAJOR(c->min_version) * 1000 +
	       VK_API_VERSION_MINOR(c->min_version);
}

static int
icd_entrypoint_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct icd_entrypoint *)elem)->name);
}

static int
icd_ext_index(const VkExtensionProperties *exts, uint32_t n,
              const char *name)
{
	for (uint32_t i = 0; name && i < n; i++)
		if (!strcmp(exts[i].extensionName, name))
			return (int)i;
	return -1;
}

int
icd_instance_extension_index(const char *name)
{
	return icd_ext_index(icd_instance_extensions,
	                     ICD_INSTANCE_EXT_COUNT, name);
}

int
icd_device_extension_index(const char *name)
{
	return icd_ext_index(icd_device_extensions, ICD_DEVICE_EXT_COUNT,
	                     name);
}
"""


def gen_gates(reg):
    """icd_device_extensions_supported(): the gate structs in one
    vkGetPhysicalDeviceFeatures2 chain, each gate tested, then the
    dependencies resolved (an extension whose requirement is out is out
    too, until nothing changes)."""
    structs = []
    for name in reg.offered["device"]:
        g = reg.gates.get(name)
        for s, m in (g.resolved if g else ()):
            if s not in structs and s != "VkPhysicalDeviceFeatures":
                structs.append(s)
    c = ["void\nicd_device_extensions_supported(VkPhysicalDevice pd,\n"
         "                                struct icd_ext_set *out)\n{"]
    c.append("\tVkPhysicalDeviceFeatures2 f2 = {\n\t\t.sType = "
             "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };")
    for i, s in enumerate(structs):
        c.append("\t%s s%d;" % (s, i))
    c.append("\tvoid *next = NULL;\n\tbool again = true;\n")
    for i, s in reversed(list(enumerate(structs))):
        c.append("\tmemset(&s%d, 0, sizeof(s%d));" % (i, i))
        c.append("\ts%d.sType = %s;" % (i, reg.stype(s)))
        c.append("\ts%d.pNext = next;\n\tnext = &s%d;" % (i, i))
    c.append("\tf2.pNext = next;")
    c.append("\ticd_GetPhysicalDeviceFeatures2(pd, &f2);")
    c.append("\tmemset(out, 0, sizeof(*out));")

    def ref(s, m):
        if s == "VkPhysicalDeviceFeatures":
            return "f2.features.%s" % m
        return "s%d.%s" % (structs.index(s), m)
    for name in reg.offered["device"]:
        g = reg.gates.get(name)
        cond = "true"
        if g:
            cond = (" || " if g.op == "|" else " && ").join(
                ref(s, m) for s, m in g.resolved)
        c.append("\tif (%s)\n\t\ticd_ext_set_add(out, %s);" %
                 (cond, ext_enum("device", name)))
    c.append("\twhile (again) {\n\t\tagain = false;")
    for name in reg.offered["device"]:
        deps = [r for r in reg.requires(name)
                if reg.kind_of(r) == "device"]
        if not deps:
            continue
        e = ext_enum("device", name)
        cond = " ||\n\t\t     ".join("!icd_ext_set_has(out, %s)" %
                                     ext_enum("device", r) for r in deps)
        c.append("\t\tif (icd_ext_set_has(out, %s) &&\n\t\t    (%s)) {" %
                 (e, cond))
        c.append("\t\t\tout->w[%s / 64] &= ~(UINT64_C(1) << (%s %% 64));"
                 % (e, e))
        c.append("\t\t\tagain = true;\n\t\t}")
    c.append("\t}\n}\n")
    return "\n".join(c)


def gen_ext_feature_structs(reg):
    """The feature structs of candidate extensions outside core 1.3, for
    vkCreateDevice's check (icd_ext_features_missing): every member after
    the header is a VkBool32 feature."""
    out = []
    for name in reg.offered["device"]:
        st = reg.feature_struct(name)
        if not st or st in reg.core_types or st in [o[0] for o in out]:
            continue
        mem = [m for m in reg.members(st) if m[0] not in ("sType",
                                                           "pNext")]
        if any(m[1] != "VkBool32" or m[2] for m in mem):
            sys.exit("%s: not only VkBool32 features" % st)
        out.append((st, reg.stype(st), len(mem)))
    c = ["const struct icd_ext_feature_struct icd_ext_feature_structs[] "
         "= {"]
    for st, stype, n in out:
        c.append('\t{ %s, %d, "%s" },' % (stype, n, st))
    c.append("};")
    c.append("const uint32_t icd_ext_feature_struct_count = %d;\n" %
             len(out))
    return "\n".join(c)


def gen_source(reg, entries, canons):
    c = ["/* SPDX-License-Identifier: MIT */",
         "/* Generated by icd/gen_entrypoints.py from vk.xml — do not "
         "edit. */"]
    # This file lists every command, window-system ones included, so it
    # sees every offered platform's types.
    for g in sorted({i["protect"] for i in reg.ext.values()
                     if i["protect"]}):
        c.append("#define %s" % g)
    c += ['#include <stdlib.h>\n#include <string.h>\n',
          '#include "icd.h"\n']
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
    # The clauses of every name, shared arrays.
    for n in sorted(entries):
        cl = reg.clauses.get(n)
        if cl:
            c.append("static const struct icd_ep_clause icd_cl_%s[] = {" %
                     n)
            for x in cl:
                c.append("\t%s," % clause_c(reg, x))
            c.append("};")
    c.append("")
    for lvl, lst in levels.items():
        c.append("static const struct icd_entrypoint icd_%s_table[] = {" %
                 lvl)
        for n in lst:   # sorted by strcmp for bsearch (ASCII names)
            v = reg.core_cmds.get(n)
            ver = ("VK_MAKE_API_VERSION(0, %d, %d, 0)" % v) if v else "0"
            cl = reg.clauses.get(n)
            c.append('\t{ "%s", (PFN_vkVoidFunction)icd_%s, %s, %d, %s },'
                     % (n, entries[n][2:], ver, len(cl) if cl else 0,
                        "icd_cl_" + n if cl else "NULL"))
        if not lst:
            c.append('\t{ "", NULL, 0, 0, NULL }')
        c.append("};\n")
    c.append(C_FUNCS)
    c.append("""const struct icd_entrypoint *
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
}
""")
    c.append(gen_gates(reg))
    c.append(gen_ext_feature_structs(reg))
    return "\n".join(c) + "\n"


def gen_entrypoints(reg, out_h, out_c):
    names = set(reg.core_cmds) | set(reg.clauses)
    # Every exposed name: core or extension, aliases included.
    entries = {}
    for n in names:
        canon = reg.canonical(n)
        if canon not in reg.commands:
            sys.exit("no definition for %s" % n)
        entries[n] = canon
    canons = sorted(set(entries.values()))
    n = max(len(reg.offered["instance"]), len(reg.offered["device"]), 1)
    out_h.write(gen_header(reg, canons, (n + 63) // 64))
    out_c.write(gen_source(reg, entries, canons))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--xml", required=True)
    ap.add_argument("--extensions", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--supplement",
                    help="registry fragment of newer extensions "
                         "(vk_supplement.xml)")
    args = ap.parse_args()
    reg = Registry(args.xml, args.extensions, args.supplement)
    d = args.out_dir
    with open(d + "/icd_entrypoints.h", "w") as h, \
            open(d + "/icd_entrypoints.c", "w") as c:
        gen_entrypoints(reg, h, c)
    with open(d + "/icd_structs.h", "w") as h, \
            open(d + "/icd_structs.c", "w") as c:
        gen_structs(reg, h, c)


if __name__ == "__main__":
    main()
