#version 450
#extension GL_EXT_device_group : require
// SPDX-License-Identifier: MIT
// Compute built-ins in a 3D dispatch: each invocation records what it
// sees at its global position in a 12 x 4 x 4 grid.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;

layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };

void main()
{
	uvec3 g = gl_GlobalInvocationID;
	uint base = (g.x + g.y * 12u + g.z * 48u) * 16u;

	o[base + 0u] = gl_NumWorkGroups.x;
	o[base + 1u] = gl_NumWorkGroups.y;
	o[base + 2u] = gl_NumWorkGroups.z;
	o[base + 3u] = gl_WorkGroupID.x;
	o[base + 4u] = gl_WorkGroupID.y;
	o[base + 5u] = gl_WorkGroupID.z;
	o[base + 6u] = gl_LocalInvocationID.x;
	o[base + 7u] = gl_LocalInvocationID.y;
	o[base + 8u] = gl_LocalInvocationID.z;
	o[base + 9u] = gl_LocalInvocationIndex;
	o[base + 10u] = g.x;
	o[base + 11u] = g.y;
	o[base + 12u] = g.z;
	o[base + 13u] = gl_WorkGroupSize.x * 100u + gl_WorkGroupSize.y * 10u +
	                gl_WorkGroupSize.z;
	// One device per group: DeviceIndex is 0 (slot 14 = 7 + index).
	o[base + 14u] = 7u + uint(gl_DeviceIndex);
}
