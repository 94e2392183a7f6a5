#version 450
// 8- and 16-bit integers (Int8, Int16, 8/16-bit storage): arithmetic
// wrapping at the type's width, signed division/remainder/shift/compare
// and min/max/abs, division by zero (no trap), conversions between all
// widths (sign and zero extension, truncation), bitcasts that repack
// (pack32/unpack8/pack16/unpack16), byte and short arrays, vectors and
// struct members in storage buffers, a uniform buffer and push
// constants. One lane per input pair; every lane writes NOUT words.
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int8_t a8[]; };
layout(set = 0, binding = 1) readonly buffer B { int16_t a16[]; };
layout(set = 0, binding = 2) buffer O { uint o[]; };
layout(set = 0, binding = 3) buffer S {
	uint8_t b8[256];
	u16vec3 v16[256];
	i8vec4 v8[256];
} st;
layout(set = 0, binding = 4) uniform U { int16_t u16; uint8_t u8; } ub;
layout(push_constant) uniform P { uint8_t p8; int16_t p16; } pc;
const int NOUT = 24;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	int8_t x = a8[i], y = a8[(i * 7u + 3u) & 255u];
	int16_t s = a16[i], t = a16[(i * 5u + 1u) & 255u];
	uint8_t ux = uint8_t(x), uy = uint8_t(y);
	uint16_t us = uint16_t(s), ut = uint16_t(t);
	uint base = i * NOUT;

	o[base + 0] = uint(uint8_t(x + y)) | uint(uint8_t(x * y)) << 8 |
	              uint(uint8_t(x - y)) << 16 | uint(uint8_t(-x)) << 24;
	o[base + 1] = uint(uint16_t(s + t)) | uint(uint16_t(s * t)) << 16;
	o[base + 2] = uint(int(x / (y == int8_t(0) ? int8_t(1) : y))) & 0xffu |
	              uint(int(x % (y == int8_t(0) ? int8_t(3) : y))) << 8 & 0xff00u;
	o[base + 3] = uint(int(s / (t == int16_t(0) ? int16_t(1) : t)));
	o[base + 4] = uint(ux / (uy == uint8_t(0) ? uint8_t(1) : uy)) |
	              uint(us % (ut == uint16_t(0) ? uint16_t(9) : ut)) << 8;
	o[base + 5] = uint(x < y) | uint(x <= y) << 1 | uint(x > y) << 2 |
	              uint(ux < uy) << 3 | uint(s < t) << 4 |
	              uint(us < ut) << 5 | uint(x == y) << 6 |
	              uint(s >= t) << 7;
	o[base + 6] = uint(int(x >> 3)) ^ uint(int(s >> 5)) << 8;
	o[base + 7] = uint(ux >> 3) | uint(us >> 5) << 8;
	o[base + 8] = uint(uint8_t(x << 3)) | uint(uint16_t(s << 7)) << 8;
	o[base + 9] = uint(int(min(x, y))) ^ uint(int(max(s, t))) << 8;
	o[base + 10] = uint(int(abs(x))) ^ uint(int(sign(s))) << 12 ^
	               uint(min(ux, uy)) << 20;
	o[base + 11] = uint(int(clamp(s, int16_t(-100), int16_t(100))));
	o[base + 12] = uint(int(x)) ^ uint(int(s)) << 3;      // sign extension
	o[base + 13] = uint(ux) | uint(us) << 8;              // zero extension
	o[base + 14] = uint(int8_t(s)) | uint(uint8_t(us)) << 8 |
	               uint(int16_t(x)) << 16;               // truncation
	int64_t w = int64_t(s) * int64_t(x);
	o[base + 15] = uint(w) ^ uint(w >> 32);
	o[base + 16] = uint(int16_t(int64_t(i) * 0x12345l));
	o[base + 17] = floatBitsToUint(float(x) + float(us));
	o[base + 18] = uint(int8_t(float(y) * 0.5));
	o[base + 19] = pack32(u8vec4(ux, uy, uint8_t(i), uint8_t(255)));
	u8vec4 up = unpack8(i * 0x01020304u);
	i16vec2 sp = i16vec2(unpack16(i * 0x9e3779b9u));
	o[base + 20] = uint(up.x) + uint(up.w) * 3u + uint(int(sp.y)) * 5u;
	o[base + 21] = uint(int(ub.u16)) + uint(ub.u8) + uint(pc.p8) +
	               uint(int(pc.p16));
	o[base + 22] = uint(~ux) | uint(~us) << 8;
	o[base + 23] = uint(bitCount(x)) | uint(findMSB(s)) << 8 |
	               uint(findLSB(us)) << 16;
	// stores of bytes and shorts next to each other
	st.b8[i] = uint8_t(ux + uint8_t(1));
	st.v16[i] = u16vec3(us, ut, us ^ ut);
	st.v8[i] = i8vec4(x, y, int8_t(-x), int8_t(i));
}
