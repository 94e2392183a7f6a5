#version 450
// 64-bit values in memory layouts: std140 uniform block, std430 storage
// block with mixed 32/64-bit members and 3/4-component 64-bit vectors,
// dynamic component indexing, read-modify-write of a storage block.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform U {
	uint a;
	uint64_t b;
	i64vec2 c;
	u64vec3 d;
	uint e;
} u;
layout(set = 0, binding = 1) buffer S {
	uint x;
	int64_t y;
	u64vec3 z[2];
	uint q;
	i64vec4 w;
} s;
layout(set = 0, binding = 2) buffer O { uint64_t o[]; };
layout(constant_id = 3) const int64_t SPEC = -0x100000002l;
const int64_t SPEC2 = (SPEC * 3l + 1l) >> 1;  // OpSpecConstantOp on 64 bits
const bool SPECB = SPEC < 0l;
const int SPEC32 = int(SPEC);

void main()
{
	o[0] = u.b;
	o[1] = uint64_t(u.c.y);
	o[2] = u.d.x;
	o[3] = u.d.y;
	o[4] = u.d.z;
	o[5] = u.d[u.a];
	o[6] = uint64_t(u.e);
	o[7] = s.z[1].z + s.z[0].x;
	u64vec3 t = s.z[u.a & 1u];
	o[8] = t[u.a];
	o[9] = (t + 1ul)[u.a];      // OpVectorExtractDynamic
	o[10] = uint64_t(SPEC);
	o[11] = uint64_t(SPEC2);
	o[12] = SPECB ? 1ul : 2ul;
	o[13] = uint64_t(SPEC32);
	i64vec4 w = s.w;
	w[u.a] = -5l;
	s.w = w;
	s.y = s.y * 2l + int64_t(s.x) + int64_t(s.q);
	s.z[0] = s.z[1].zyx;
}
