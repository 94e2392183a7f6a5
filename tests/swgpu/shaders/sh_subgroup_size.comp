#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
// Subgroup operations at whatever subgroup size the shader is created
// with (test_shader_subgroup_size.c runs it at 4..32), and the identities
// of exclusive scans on bools and 8/16-bit integers. 20 words per
// invocation; 48 invocations, so the last subgroup of 32 is partial.
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) readonly buffer I { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
	uint g = gl_GlobalInvocationID.x;
	uint x = v[g];
	uint k = g * 20u;
	o[k + 0] = gl_SubgroupSize | (gl_SubgroupInvocationID << 8) |
	           (gl_SubgroupID << 16) | (gl_NumSubgroups << 24);
	o[k + 1] = subgroupAdd(x);
	o[k + 2] = subgroupExclusiveAdd(x);
	o[k + 3] = subgroupBallot((x & 1u) != 0u).x;
	o[k + 4] = gl_SubgroupGeMask.x;
	o[k + 5] = gl_SubgroupGtMask.x;
	o[k + 6] = subgroupShuffleXor(x, 1u);
	o[k + 7] = subgroupBroadcast(x, 1u);
	o[k + 8] = subgroupQuadSwapDiagonal(x);
	o[k + 9] = subgroupClusteredAdd(x, 4u);
	o[k + 10] = subgroupBallotFindMSB(uvec4(~0u)) |
	            (subgroupBallotBitCount(uvec4(~0u)) << 8) |
	            (subgroupBallotExclusiveBitCount(uvec4(~0u)) << 16);
	o[k + 11] = uint(subgroupExclusiveAnd(x != 30u)) |
	            (uint(subgroupExclusiveOr(x == 30u)) << 1) |
	            (uint(subgroupExclusiveXor(x > 50u)) << 2);
	o[k + 12] = uint(int(subgroupExclusiveMin(int8_t(int(x) - 50))));
	o[k + 13] = uint(int(subgroupExclusiveMax(int8_t(int(x) - 50))));
	o[k + 14] = uint(int(subgroupExclusiveMin(int16_t(int(x) - 50))));
	o[k + 15] = uint(int(subgroupExclusiveMax(int16_t(int(x) - 50))));
	o[k + 16] = uint(subgroupExclusiveMin(uint8_t(x))) |
	            (uint(subgroupExclusiveMax(uint8_t(x))) << 8) |
	            (uint(subgroupExclusiveAnd(uint8_t(x))) << 16);
	o[k + 17] = uint(subgroupExclusiveMin(uint16_t(x))) |
	            (uint(subgroupExclusiveMul(uint16_t(x))) << 16);
	o[k + 18] = subgroupShuffleUp(x, 1u);
	o[k + 19] = gl_SubgroupLeMask.x;
}
