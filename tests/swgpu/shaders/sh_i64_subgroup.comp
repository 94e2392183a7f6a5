#version 450
// 64-bit subgroup arithmetic (shaderSubgroupExtendedTypes): a reduction
// and an inclusive scan whose sums carry into the high word, a clustered
// reduction (clusters of 4), moves of both words (quad swap, broadcast,
// shuffle xor), AllEqual comparing both words; double reductions, a
// scan and a clustered maximum.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer O { uint64_t o[]; };
void main()
{
	uint i = gl_LocalInvocationIndex;
	uint64_t v = o[i];
	o[i] = subgroupAdd(v);
	o[32u + i] = subgroupInclusiveAdd(v);
	o[64u + i] = uint64_t(subgroupMin(int64_t(v) - 0x100000000l));
	o[96u + i] = subgroupClusteredAdd(v, 4u);
	o[128u + i] = subgroupQuadSwapDiagonal(v);
	o[160u + i] = subgroupBroadcast(v, 5u);
	o[192u + i] = subgroupShuffleXor(v, 7u);
	/* equal low words, different high words: not all equal */
	o[224u + i] = uint64_t(subgroupAllEqual(v & 0xffffffff00000000ul)) |
	              uint64_t(subgroupAllEqual(v | 0xffffffff00000000ul |
	                                        0xfffffffful)) << 1;
	double d = double(i) * 0.5 + 1.0;
	o[256u + i] = doubleBitsToUint64(subgroupAdd(d));
	o[288u + i] = doubleBitsToUint64(subgroupExclusiveMin(-d));
	o[320u + i] = doubleBitsToUint64(subgroupClusteredMax(d, 8u));
	o[352u + i] = doubleBitsToUint64(subgroupMul(i < 4u ? d : 1.0));
}
