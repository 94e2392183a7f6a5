#version 450
// SPDX-License-Identifier: MIT
// Subgroup ballots and broadcasts.
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i];
	uint b = i * 16u;
	uvec4 bal = subgroupBallot((x & 1u) != 0u);

	o[b + 0u] = gl_SubgroupID;
	o[b + 1u] = gl_SubgroupInvocationID;
	o[b + 2u] = gl_SubgroupSize;
	o[b + 4u] = subgroupBallotBitCount(bal);
	o[b + 5u] = subgroupBallotBitExtract(bal, gl_SubgroupInvocationID) ?
	            1u : 0u;
	o[b + 6u] = subgroupBroadcastFirst(x);
	o[b + 7u] = subgroupBroadcast(x, 0u);
	o[b + 8u] = subgroupBallotExclusiveBitCount(bal);
	o[b + 9u] = subgroupInverseBallot(bal) ? 1u : 0u;
}
