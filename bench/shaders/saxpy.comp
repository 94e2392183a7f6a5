// SPDX-License-Identifier: MIT
// SAXPY, out of place so every run can be checked: z = a * x + y.
// One element per invocation; a 2D grid because 16 M / 128 workgroups
// exceed the 65535 a dimension is guaranteed to hold.
#version 450
layout(local_size_x = 128) in;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Y { float y[]; };
layout(std430, binding = 2) writeonly buffer Z { float z[]; };
layout(push_constant) uniform Params { float a; uint n; } p;

void main()
{
	uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
	uint i = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;

	if (i < p.n)
		z[i] = p.a * x[i] + y[i];
}
