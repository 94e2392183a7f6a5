#version 450
// SPDX-License-Identifier: MIT
// Subgroup operations at a required subgroup size (test_vk_subgroup_size):
// built-ins, reductions, scans (bool exclusive scans included), ballots,
// shuffles and quads per subgroup. 12 words per invocation.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer I { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

void main()
{
	uint g = gl_GlobalInvocationID.x;
	uint x = v[g];
	uint k = g * 12u;

	o[k + 0u] = gl_SubgroupSize | (gl_SubgroupInvocationID << 8) |
	            (gl_SubgroupID << 16) | (gl_NumSubgroups << 24);
	o[k + 1u] = subgroupAdd(x);
	o[k + 2u] = subgroupExclusiveAdd(x);
	o[k + 3u] = subgroupBallot((x & 1u) != 0u).x;
	o[k + 4u] = gl_SubgroupLtMask.x;
	o[k + 5u] = subgroupShuffleXor(x, 1u);
	o[k + 6u] = subgroupQuadSwapHorizontal(x);
	o[k + 7u] = subgroupInclusiveAdd(x);
	o[k + 8u] = uint(subgroupExclusiveAnd(x != 30u)) |
	            (uint(subgroupExclusiveOr(x == 30u)) << 1);
	o[k + 9u] = subgroupBallotBitCount(subgroupBallot(true));
	o[k + 10u] = subgroupInclusiveMax(x);
	o[k + 11u] = subgroupBroadcastFirst(x);
}
