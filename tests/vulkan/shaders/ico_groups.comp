// SPDX-License-Identifier: MIT
// COMPUTE-ICD test: each invocation writes (workgroup << 16) |
// (local id << 8) | TAG at its global index; TAG is a specialization
// constant (the local size stays literal: LocalSizeId, which glslang emits
// for local_size_x_id, needs maintenance4). For vkCmdDispatchBase /
// vkCmdDispatchIndirect.
#version 450
layout(local_size_x = 4) in;
layout(constant_id = 0) const uint TAG = 1u;
layout(set = 0, binding = 0) writeonly buffer Dst { uint v[]; } dst;
void main()
{
	uint g = gl_GlobalInvocationID.x;
	dst.v[g] = (gl_WorkGroupID.x << 16) | (gl_LocalInvocationID.x << 8) |
	           TAG;
}
