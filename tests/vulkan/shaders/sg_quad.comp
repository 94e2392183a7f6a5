#version 450
// SPDX-License-Identifier: MIT
// Subgroup quad operations: broadcasts of each quad lane, the three
// swaps, and a broadcast with a dynamically uniform index (SPIR-V 1.5+).
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i];
	uint b = i * 16u;

	o[b + 0u] = gl_SubgroupID;
	o[b + 1u] = gl_SubgroupInvocationID;
	o[b + 2u] = gl_SubgroupSize;
	o[b + 4u] = subgroupQuadBroadcast(x, 0u);
	o[b + 5u] = subgroupQuadBroadcast(x, 3u);
	o[b + 6u] = subgroupQuadSwapHorizontal(x);
	o[b + 7u] = subgroupQuadSwapVertical(x);
	o[b + 8u] = subgroupQuadSwapDiagonal(x);
	o[b + 9u] = subgroupQuadBroadcast(x, gl_WorkGroupID.x & 3u);
}
