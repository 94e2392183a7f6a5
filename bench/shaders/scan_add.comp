// SPDX-License-Identifier: MIT
// Prefix sum, pass 3: add the inclusive scan of the block totals before
// each 1024-element block (sums[block - 1]) to all its elements.
#version 450
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer Data { uint v[]; };
layout(std430, binding = 1) readonly buffer Sums { uint sums[]; };
layout(push_constant) uniform Params { uint n; } p;

void main()
{
	uint block = gl_WorkGroupID.x;
	uint base = block * 1024u + gl_LocalInvocationID.x;

	if (block == 0u)
		return;
	uint add = sums[block - 1u];
	for (uint k = 0u; k < 4u; k++) {
		uint j = base + k * 256u;
		if (j < p.n)
			v[j] += add;
	}
}
