#version 450
// SPDX-License-Identifier: MIT
// compute_reduce, pass 1: inclusive prefix sum of each 256-element block
// in workgroup shared memory (Hillis-Steele, a barrier per step), block
// totals written out for the next level.
layout(local_size_x = 256) in;

layout(set = 0, binding = 0) buffer Data { uint v[]; };

layout(push_constant) uniform Pass {
	uint off;        // first element of this level in v[]
	uint sums_off;   // where the block totals go
	uint n;          // elements at this level
	uint write_sums; // 0 on the last (single-block) level
} pc;

shared uint tmp[256];

void main()
{
	uint l = gl_LocalInvocationID.x;
	uint i = gl_GlobalInvocationID.x;

	tmp[l] = i < pc.n ? v[pc.off + i] : 0u;
	barrier();
	for (uint s = 1u; s < 256u; s <<= 1) {
		uint y = l >= s ? tmp[l - s] : 0u;
		barrier();
		tmp[l] += y;
		barrier();
	}
	if (i < pc.n)
		v[pc.off + i] = tmp[l];
	if (l == 255u && pc.write_sums != 0u)
		v[pc.sums_off + gl_WorkGroupID.x] = tmp[255];
}
