#version 450
// A 64-bit subgroup reduction (shaderSubgroupExtendedTypes, not offered):
// shader creation must fail cleanly, not compute on half a value.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer O { uint64_t o[]; };
void main()
{
	o[gl_LocalInvocationIndex] = subgroupAdd(o[gl_LocalInvocationIndex]);
}
