// SPDX-License-Identifier: MIT
// COMPUTE-ICD test: dst[i] = src[i] + add for i < n; push constants pushed
// in two pieces (add at 0, n at 16) of one range.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint v[]; } src;
layout(set = 0, binding = 1) writeonly buffer Dst { uint v[]; } dst;
layout(push_constant) uniform Push {
	uint add;
	uint pad0, pad1, pad2;
	uint n;
} pc;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i < pc.n)
		dst.v[i] = src.v[i] + pc.add;
}
