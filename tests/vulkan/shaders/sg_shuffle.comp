#version 450
// SPDX-License-Identifier: MIT
// Subgroup shuffles: absolute and xor.
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i];
	uint b = i * 16u;
	uint id = gl_SubgroupInvocationID;

	o[b + 0u] = gl_SubgroupID;
	o[b + 1u] = id;
	o[b + 2u] = gl_SubgroupSize;
	o[b + 4u] = subgroupShuffle(x, 0u);
	o[b + 5u] = subgroupShuffleXor(x, 1u);
	o[b + 6u] = subgroupShuffle(x, gl_SubgroupSize - 1u - id);
}
