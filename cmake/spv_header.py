#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn a SPIR-V binary into a C header: const uint32_t <name>[] = {...};
(what glslangValidator --vn writes for GLSL), for SPIR-V assembled from
hand-written .spvasm by spirv-as."""
import struct
import sys

src, dst, name = sys.argv[1:4]
data = open(src, "rb").read()
if len(data) % 4:
    sys.exit("%s: not whole words" % src)
words = struct.unpack("<%dI" % (len(data) // 4), data)
with open(dst, "w") as f:
    f.write("/* Generated from %s by cmake/spv_header.py. */\n" % src)
    f.write("#include <stdint.h>\n")
    f.write("static const uint32_t %s[] = {\n" % name)
    for i in range(0, len(words), 6):
        f.write("\t" + ", ".join("0x%08x" % w for w in words[i:i + 6]) +
                ",\n")
    f.write("};\n")
