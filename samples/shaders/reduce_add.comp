#version 450
// SPDX-License-Identifier: MIT
// compute_reduce, pass 2: add the scanned total of all earlier blocks to
// every element of a block.
layout(local_size_x = 256) in;

layout(set = 0, binding = 0) buffer Data { uint v[]; };

layout(push_constant) uniform Pass {
	uint off;
	uint sums_off;
	uint n;
	uint write_sums; // unused here; same block as the scan pass
} pc;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint g = gl_WorkGroupID.x;

	if (g > 0u && i < pc.n)
		v[pc.off + i] += v[pc.sums_off + g - 1u];
}
