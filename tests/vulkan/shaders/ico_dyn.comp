// SPDX-License-Identifier: MIT
// COMPUTE-ICD test: dynamic buffers in two sets (flat dynamic-offset
// order: set 0 binding 0, set 1 binding 0, set 1 binding 1).
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer Src { uint v[16]; } src;
layout(set = 1, binding = 0) uniform Mul { uint mul; } u;
layout(set = 1, binding = 1) writeonly buffer Dst { uint v[16]; } dst;
void main()
{
	uint i = gl_LocalInvocationID.x;
	dst.v[i] = src.v[i] * u.mul;
}
