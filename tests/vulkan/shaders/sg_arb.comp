#version 450
// SPDX-License-Identifier: MIT
// GL_ARB_shader_ballot and GL_ARB_shader_group_vote, which become
// SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote instructions
// (VK_EXT_shader_subgroup_ballot, VK_EXT_shader_subgroup_vote).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
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
	o[b + 4u] = uint(ballotARB((x & 1u) != 0u));
	o[b + 5u] = readInvocationARB(x, 0u);
	o[b + 6u] = readFirstInvocationARB(x);
	o[b + 7u] = uint(anyInvocationARB(x == 7u));
	o[b + 8u] = uint(allInvocationsARB(x < 1000u));
	o[b + 9u] = uint(allInvocationsEqualARB(x < 500u));
	o[b + 10u] = gl_SubGroupSizeARB;
	o[b + 11u] = gl_SubGroupInvocationARB;
	o[b + 12u] = uint(gl_SubGroupLtMaskARB);
}
