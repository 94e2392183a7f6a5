#version 450
// SPDX-License-Identifier: MIT
// Subgroup basics: ids, sizes, elect, subgroup barrier.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint b = i * 16u;

	o[b + 0u] = gl_SubgroupID;
	o[b + 1u] = gl_SubgroupInvocationID;
	o[b + 2u] = gl_SubgroupSize;
	o[b + 3u] = gl_NumSubgroups;
	o[b + 4u] = subgroupElect() ? 1u : 0u;
	subgroupBarrier();
	o[b + 5u] = 1u;
}
