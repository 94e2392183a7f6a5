#version 450
// SPDX-License-Identifier: MIT
// Subgroup votes: all, any, allEqual.
#extension GL_KHR_shader_subgroup_vote : require
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
	o[b + 4u] = subgroupAll(x < 1000u) ? 1u : 0u;
	o[b + 5u] = subgroupAny(x == 7u) ? 1u : 0u;
	o[b + 6u] = subgroupAllEqual(x / 4096u) ? 1u : 0u;
}
