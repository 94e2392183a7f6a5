// SPDX-License-Identifier: MIT
// Sum reduction in workgroup shared memory: every invocation adds 8
// strided elements, then a barrier-separated tree halves the 128 partial
// sums down to one per workgroup. uint arithmetic so the host can check
// each workgroup's sum exactly.
#version 450
layout(local_size_x = 128) in;

layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) writeonly buffer Out { uint partial[]; };
layout(push_constant) uniform Params { uint n; } p;

const uint PER_INVOCATION = 8u;
shared uint sums[128];

void main()
{
	uint lid = gl_LocalInvocationID.x;
	uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
	uint base = group * gl_WorkGroupSize.x * PER_INVOCATION + lid;
	uint acc = 0u;

	for (uint k = 0u; k < PER_INVOCATION; k++) {
		uint j = base + k * gl_WorkGroupSize.x;
		if (j < p.n)
			acc += v[j];
	}
	sums[lid] = acc;
	barrier();
	for (uint w = gl_WorkGroupSize.x / 2u; w > 0u; w >>= 1) {
		if (lid < w)
			sums[lid] += sums[lid + w];
		barrier();
	}
	if (lid == 0u)
		partial[group] = sums[0];
}
