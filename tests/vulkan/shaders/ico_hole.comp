// SPDX-License-Identifier: MIT
// COMPUTE-ICD test: resources in set 1 with set 0 left empty, and a push
// constant in the last dword of the guaranteed 128 bytes.
#version 450
layout(local_size_x = 64) in;
layout(set = 1, binding = 0) readonly buffer Src { uint v[64]; } src;
layout(set = 1, binding = 1) writeonly buffer Dst { uint v[64]; } dst;
layout(push_constant) uniform Push { layout(offset = 124) uint add; } pc;
void main()
{
	uint i = gl_LocalInvocationID.x;
	dst.v[i] = src.v[i] + pc.add;
}
