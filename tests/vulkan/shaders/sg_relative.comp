#version 450
// SPDX-License-Identifier: MIT
// Subgroup relative shuffles: up and down.
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i];
	uint b = i * 16u;
	uint id = gl_SubgroupInvocationID;

	o[b + 0u] = gl_SubgroupID;
	o[b + 1u] = id;
	o[b + 2u] = gl_SubgroupSize;
	o[b + 7u] = subgroupShuffleUp(x, 1u);
	o[b + 8u] = subgroupShuffleDown(x, 1u);
}
