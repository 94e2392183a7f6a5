#version 450
// SPDX-License-Identifier: MIT
// Subgroup arithmetic: reductions and scans, plus a reduction inside a
// divergent branch (over the active invocations only); a boolean
// exclusive AND (true in the first invocation).
#extension GL_KHR_shader_subgroup_arithmetic : require
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
	o[b + 4u] = subgroupAdd(x);
	o[b + 5u] = subgroupInclusiveAdd(x);
	o[b + 6u] = subgroupExclusiveAdd(x);
	o[b + 7u] = subgroupMin(x);
	o[b + 8u] = subgroupMax(x);
	o[b + 9u] = subgroupAnd(x | 0xf0u);
	o[b + 10u] = subgroupOr(x);
	o[b + 11u] = subgroupXor(x);
	o[b + 12u] = uint(subgroupMin(int(x) - 500));
	o[b + 14u] = uint(subgroupExclusiveAnd((x & 1u) != 0u));
	o[b + 13u] = 0xffffffffu;
	if ((x & 1u) != 0u)
		o[b + 13u] = subgroupAdd(x);
}
