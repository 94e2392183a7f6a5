#version 450
// shaderSubgroupExtendedTypes: subgroup arithmetic and broadcasts on 8-,
// 16- and 64-bit integers and half floats; signed exclusive scans
// (whose first lane is the narrow type's identity).
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
	uint i = gl_SubgroupInvocationID;
	uint8_t a = uint8_t(i * 37u + 200u);
	int16_t b = int16_t(int(i) * 1000 - 16000);
	uint64_t c = (uint64_t(i) << 33) | uint64_t(i);
	float16_t f = float16_t(float(i) * 0.5);
	uint base = gl_LocalInvocationID.x * 11u;
	o[base + 0u] = uint(subgroupAdd(a));
	o[base + 1u] = uint(int(subgroupMin(b)) + 65536);
	o[base + 2u] = uint(int(subgroupMax(b)) + 65536);
	uint64_t s = subgroupAdd(c);
	o[base + 3u] = uint(s);
	o[base + 4u] = uint(s >> 32);
	o[base + 5u] = uint(float(subgroupAdd(f)) * 2.0);
	o[base + 6u] = uint(subgroupBroadcast(a, 3u));
	o[base + 7u] = uint(int(subgroupInclusiveAdd(b)) & 0xffff);
	o[base + 8u] = gl_SubgroupSize;
	/* exclusive scans: lane 0 gets the narrow type's identity */
	o[base + 9u] = uint(int(subgroupExclusiveMax(b)) + 65536);
	o[base + 10u] = uint(int(subgroupExclusiveMin(int8_t(int(i) - 100))) +
	                     256);
}
