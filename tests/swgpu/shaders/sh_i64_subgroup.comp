#version 450
// 64-bit subgroup arithmetic (shaderSubgroupExtendedTypes): a reduction
// and an inclusive scan whose sums carry into the high word.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer O { uint64_t o[]; };
void main()
{
	uint i = gl_LocalInvocationIndex;
	uint64_t v = o[i];
	o[i] = subgroupAdd(v);
	o[32u + i] = subgroupInclusiveAdd(v);
	o[64u + i] = uint64_t(subgroupMin(int64_t(v) - 0x100000000l));
}
