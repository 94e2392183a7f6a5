#version 450
// SPDX-License-Identifier: MIT
// Clustered subgroup reductions: clusters of 1, 4 and the subgroup
// size; every kind of operation on clusters of 8; and a clustered add
// inside a divergent branch (over the active invocations of each
// cluster only).
#extension GL_KHR_shader_subgroup_clustered : require
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
	o[b + 4u] = subgroupClusteredAdd(x, 1u);
	o[b + 5u] = subgroupClusteredAdd(x, 4u);
	o[b + 6u] = subgroupClusteredMin(x, 8u);
	o[b + 7u] = subgroupClusteredMax(x, 8u);
	o[b + 8u] = subgroupClusteredAnd(x | 0xf0u, 8u);
	o[b + 9u] = subgroupClusteredOr(x, 8u);
	o[b + 10u] = subgroupClusteredXor(x, 8u);
	o[b + 11u] = subgroupClusteredMul(x, 8u);
	o[b + 12u] = uint(subgroupClusteredMin(int(x) - 500, 8u));
	o[b + 13u] = 0xffffffffu;
	if ((x & 1u) != 0u)
		o[b + 13u] = subgroupClusteredAdd(x, 4u);
}
