#version 450
// SPDX-License-Identifier: MIT
// Required subgroup size with full subgroups: every subgroup has exactly
// the size the pipeline asked for, all invocations active.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;

	o[i * 4u + 0u] = gl_SubgroupSize;
	o[i * 4u + 1u] = subgroupAdd(1u);
	o[i * 4u + 2u] = gl_SubgroupInvocationID;
	o[i * 4u + 3u] = gl_SubgroupID;
}
