# SPDX-License-Identifier: MIT
"""vk.xml and icd/extensions.txt for the ICD's generators.

Registry reads the Khronos registry (types, commands, core versions,
extensions with their require blocks and promotions) and the one table of
what swgpu offers (extensions.txt), and works out:

  * the candidate extensions: those named in the table, plus every
    extension vk.xml promotes to a core version the table asks for
    ("promoted device 1.3"), minus those it excludes ("without");
  * each candidate's gate: the features that must be on for the device
    to list it (default: the first VkBool32 member of the feature struct
    its require block names, the spec's usual "Feature Requirements"
    rule; "gate" overrides it), evaluated at run time against what
    vkGetPhysicalDeviceFeatures2 reports, so the list cannot claim an
    extension whose feature is off;
  * for every command name of core 1.0-1.3 and of the candidates, the
    clauses that provide it (extension E, plus an extension or a core
    version named by the require block's extension=/feature=
    attributes), so vkGetDeviceProcAddr follows the spec's extension
    interaction rules.

Only the Python standard library is used.
"""

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
    m = re.match(r"VK_VERSION_(\d+)_(\d+)$", feature_name or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


class Gate:
    """Features that must be on: any of `names` (op '|') or all (op '+');
    each name resolved to (struct, member)."""

    def __init__(self, op, names):
        self.op = op
        self.names = names
        self.resolved = []      # (struct name, member name)

    def text(self):
        return self.op.join(self.names)


def merge_supplement(root, path):
    """Adds the <type>s and <extension>s of the registry fragment at
    path (vk_supplement.xml) that root lacks: extensions newer than the
    system's vk.xml. A vk.xml that has them keeps its own."""
    sup = ET.parse(path).getroot()
    types, exts = root.find("types"), root.find("extensions")
    have_types = {t.get("name") or (t.find("name").text
                                    if t.find("name") is not None else None)
                  for t in types}
    have_exts = {e.get("name") for e in exts}
    for t in sup.find("types"):
        if t.get("name") not in have_types:
            types.append(t)
    for e in sup.find("extensions"):
        if e.get("name") not in have_exts:
            exts.append(e)


class Registry:
    def __init__(self, path, ext_path, supplement=None):
        self.root = ET.parse(path).getroot()
        if supplement:
            merge_supplement(self.root, supplement)
        self._parse_types()
        self._parse_commands()
        self._parse_features()
        self._parse_extension_elements()
        self._read_table(ext_path)
        self._parse_extension_commands()
        self._resolve_gates()
        self._check_requires()

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

    def canonical_type(self, name):
        while name in self.type_alias:
            name = self.type_alias[name]
        return name

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

    def is_feature_struct(self, struct):
        el = self.structs.get(struct)
        return el is not None and "VkPhysicalDeviceFeatures2" in (
            el.get("structextends") or "").split(",")

    def bool_members(self, struct):
        return [m[0] for m in self.members(struct) if m[1] == "VkBool32"]

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

    # ---------------------------------------------------------- core
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

    # ---------------------------------------------------------- extensions
    def _parse_extension_elements(self):
        self.ext_el = {}
        for e in self.root.find("extensions"):
            if e.get("supported") == "disabled" or not api_ok(e):
                continue
            self.ext_el[e.get("name")] = e

    def core_promotion(self, name):
        """The core version an extension was promoted to, following
        EXT -> KHR -> core chains; None if it never was."""
        seen = set()
        while name in self.ext_el and name not in seen:
            seen.add(name)
            p = self.ext_el[name].get("promotedto")
            if not p:
                return None
            if version_of(p):
                return version_of(p)
            name = p
        return None

    def feature_struct(self, name):
        """The feature struct an extension's require blocks name, or
        None (aliases resolved to the struct's canonical name)."""
        for req in self.ext_el[name].findall("require"):
            for t in req.findall("type"):
                c = self.canonical_type(t.get("name"))
                if self.is_feature_struct(c):
                    return c
        return None

    def _read_table(self, path):
        """extensions.txt: see the comment at its top."""
        self.offered = {"instance": [], "device": []}
        self.gates = {}         # name -> Gate or None
        promoted = {}           # kind -> version
        without, gate_lines = set(), {}

        def parse_gate(expr, where):
            if expr == "-":
                return None
            op = "+" if "+" in expr else "|"
            names = expr.split(op)
            if any(not re.match(r"^[A-Za-z0-9_]+$", n) for n in names):
                sys.exit("%s: bad gate %r" % (where, expr))
            return Gate(op, names)

        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                words = line.split("#", 1)[0].split()
                where = "%s:%d" % (path, lineno)
                if not words:
                    continue
                if words[0] in ("instance", "device"):
                    if len(words) not in (2, 4) or (
                            len(words) == 4 and words[2] != "gate"):
                        sys.exit("%s: bad line %r" % (where, words))
                    name = words[1]
                    if self.core_promotion(name):
                        sys.exit("%s: %s is promoted to core; it is "
                                 "offered by 'promoted', name it only "
                                 "with 'gate' or 'without'" %
                                 (where, name))
                    self.offered[words[0]].append(name)
                    if len(words) == 4:
                        self.gates[name] = parse_gate(words[3], where)
                elif words[0] == "promoted" and len(words) == 3:
                    v = tuple(int(x) for x in words[2].split("."))
                    if v > MAX_VERSION or words[1] not in self.offered:
                        sys.exit("%s: bad line %r" % (where, words))
                    promoted[words[1]] = v
                elif words[0] == "without" and len(words) == 2:
                    without.add(words[1])
                elif words[0] == "gate" and len(words) == 3:
                    gate_lines[words[1]] = parse_gate(words[2], where)
                else:
                    sys.exit("%s: bad line %r" % (where, words))

        for name in sorted(self.ext_el):
            v = self.core_promotion(name)
            kind = self.ext_el[name].get("type")
            if not v or kind not in promoted or v > promoted[kind]:
                continue
            if name in without:
                continue
            self.offered[kind].append(name)
        for name in list(without) + list(gate_lines):
            if not self.core_promotion(name):
                sys.exit("%s: 'without'/'gate' of %s, which is not "
                         "promoted to core" % (path, name))
        self.gates.update(gate_lines)
        self.without = without
        self.offered_set = set(self.offered["instance"] +
                               self.offered["device"])
        for kind in ("instance", "device"):
            if len(set(self.offered[kind])) != len(self.offered[kind]):
                sys.exit("%s: an extension is listed twice" % path)
            for name in self.offered[kind]:
                if name not in self.ext_el:
                    sys.exit("unknown extension %s" % name)
                if self.ext_el[name].get("type") != kind:
                    sys.exit("%s is a %s extension" %
                             (name, self.ext_el[name].get("type")))
        self.ext = {}
        platforms = {p.get("name"): p.get("protect")
                     for p in self.root.find("platforms")}
        for name in self.offered_set:
            # Window-system extensions (platform="xcb", ...) need their
            # platform's types: their prototypes are guarded by the
            # platform's VK_USE_PLATFORM_* macro (see protect()).
            info = {"spec": None, "name_macro": None,
                    "protect": platforms.get(
                        self.ext_el[name].get("platform"))}
            for req in self.ext_el[name].findall("require"):
                for en in req.findall("enum"):
                    n = en.get("name")
                    if n.endswith("_SPEC_VERSION"):
                        info["spec"] = n
                    elif n.endswith("_EXTENSION_NAME"):
                        info["name_macro"] = n
            self.ext[name] = info

    def protect(self, name):
        """The VK_USE_PLATFORM_* macro a command needs, or None: set when
        only window-system extensions provide it (their parameters use the
        platform's types, e.g. xcb_connection_t)."""
        if name in self.core_cmds:
            return None
        guards = {self.ext[cl[0]]["protect"]
                  for cl in self.clauses.get(name, ())}
        return guards.pop() if len(guards) == 1 else None

    def kind_of(self, name):
        return "instance" if name in self.offered["instance"] else "device"

    def _parse_extension_commands(self):
        """clauses[command] = [(ext, extra ext or None, min version or
        None)], one per require block of a candidate that names it."""
        self.clauses = {}
        for name in sorted(self.offered_set):
            for req in self.ext_el[name].findall("require"):
                if not api_ok(req):
                    continue
                cmds = [c.get("name") for c in req.findall("command")]
                if not cmds:
                    continue
                ver = version_of(req.get("feature"))
                if req.get("feature") and (not ver or ver > MAX_VERSION):
                    continue
                alts = [None]
                if req.get("extension"):
                    alts = []
                    for alt in req.get("extension").split(","):
                        parts = alt.split("+")
                        if len(parts) > 1 or parts[0] not in \
                                self.offered_set:
                            continue    # needs an extension we lack
                        alts.append(parts[0])
                for c in cmds:
                    for extra in alts:
                        cl = self.clauses.setdefault(c, [])
                        # A+B from A's block is B+A from B's: once.
                        if (name, extra, ver) not in cl and \
                                (extra, name, ver) not in cl:
                            cl.append((name, extra, ver))

    # --------------------------------------------------------------- gates
    def _resolve_member(self, ext, member):
        """(struct, member) holding a feature: the extension's own
        feature struct first, then the core aggregates."""
        own = self.feature_struct(ext)
        cands = ([own] if own else []) + [a + "Features"
                                          for a in AGGREGATES] + [
            "VkPhysicalDeviceFeatures"]
        for s in cands:
            if member in self.bool_members(s):
                return (s, member)
        sys.exit("gate of %s: no feature %s in %s" %
                 (ext, member, ", ".join(cands)))

    def _resolve_gates(self):
        for name in sorted(self.offered["device"]):
            if name not in self.gates:
                own = self.feature_struct(name)
                self.gates[name] = (Gate("|", self.bool_members(own)[:1])
                                    if own else None)
            g = self.gates[name]
            if g:
                g.resolved = [self._resolve_member(name, m)
                              for m in g.names]
        for name in self.offered["instance"]:
            if self.gates.get(name):
                sys.exit("%s: instance extensions have no gate" % name)

    def requires(self, name):
        """Extensions a candidate depends on (vk.xml requires=). One
        promoted to a core version the device has is met by that version
        (later registries spell it "VK_KHR_multiview,VK_VERSION_1_1"), as
        the loader and the validation layer take it."""
        r = self.ext_el[name].get("requires") or ""
        return [x for x in r.split(",") if x and not version_of(x) and
                not ((self.core_promotion(x) or (9, 9)) <= MAX_VERSION)]

    def _check_requires(self):
        for name in self.offered_set:
            for r in self.requires(name):
                if r not in self.offered_set:
                    sys.exit("%s requires %s, which is not offered" %
                             (name, r))

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
