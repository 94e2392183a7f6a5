#version 450
// SPDX-License-Identifier: MIT
// Limits: the largest workgroup counts; one invocation per workgroup
// counts itself into a bitmap.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) buffer Bits { uint bits[]; };

void main()
{
	uint id = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x +
	            gl_WorkGroupID.z * gl_NumWorkGroups.x * gl_NumWorkGroups.y;

	atomicOr(bits[id / 32u], 1u << (id % 32u));
}
