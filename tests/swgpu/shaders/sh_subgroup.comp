#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// Subgroup operations; results per invocation (16 words each).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer I { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
	uint g = gl_GlobalInvocationID.x;
	uint x = v[g];
	uint k = g * 16u;
	o[k + 0] = gl_SubgroupSize | (gl_SubgroupInvocationID << 8) |
	           (gl_SubgroupID << 16) | (gl_NumSubgroups << 24);
	o[k + 1] = subgroupAdd(x);
	o[k + 2] = subgroupInclusiveAdd(x);
	o[k + 3] = subgroupExclusiveAdd(x);
	o[k + 4] = subgroupMin(x);
	o[k + 5] = subgroupMax(x);
	o[k + 6] = subgroupBroadcast(x, 5u);
	o[k + 7] = subgroupBroadcastFirst(x);
	o[k + 8] = subgroupBallot((x & 1u) != 0u).x;
	o[k + 9] = uint(subgroupElect());
	o[k + 10] = uint(subgroupAll(x < 1000u)) | (uint(subgroupAny(x == 7u)) << 1);
	o[k + 11] = subgroupShuffle(x, (gl_SubgroupInvocationID + 3u) & 31u);
	o[k + 12] = subgroupShuffleXor(x, 1u);
	o[k + 13] = subgroupShuffleDown(x, 1u);
	// divergent: only odd lanes take part
	uint d = 0u;
	if ((gl_SubgroupInvocationID & 1u) == 1u)
		d = subgroupAdd(x) + (uint(subgroupElect()) << 24);
	o[k + 14] = d;
	o[k + 15] = subgroupBallotBitCount(subgroupBallot(x > 50u)) |
	            (subgroupOr(x) << 8);
}
