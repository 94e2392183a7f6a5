#version 450
// SPDX-License-Identifier: MIT
// 8- and 16-bit integers (shaderInt8, shaderInt16) with 8/16-bit storage
// buffer, uniform buffer and push constant access: wrap-around, signed
// division and shifts, extension and truncation, byte and short stores.
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { int8_t a8[]; };
layout(set = 0, binding = 1) readonly buffer B { int16_t a16[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(set = 0, binding = 3) writeonly buffer S { uint8_t b8[]; };
layout(set = 0, binding = 4) writeonly buffer T { u16vec2 v16[]; };
layout(push_constant) uniform P { uint8_t p8; int16_t p16; } pc;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	int8_t x = a8[i], y = a8[255u - i];
	int16_t s = a16[i], t = a16[255u - i];
	int8_t yd = y == int8_t(0) ? int8_t(3) : y;
	int16_t td = t == int16_t(0) ? int16_t(5) : t;
	uint base = i * 6u;

	o[base + 0u] = uint(uint8_t(x + y)) | uint(uint8_t(x * y)) << 8 |
	               uint(uint16_t(s * t)) << 16;
	o[base + 1u] = uint(int(x / yd)) & 0xffffu | uint(int(s / td)) << 16;
	o[base + 2u] = uint(int(x >> 2)) ^ uint(int(s >> 3)) << 9;
	o[base + 3u] = uint(x < y) | uint(s < t) << 1 |
	               uint(uint8_t(x) < uint8_t(y)) << 2 |
	               uint(uint16_t(s) < uint16_t(t)) << 3;
	o[base + 4u] = uint(int(x)) + uint(uint16_t(s)) * 3u;
	o[base + 5u] = uint(pc.p8) + uint(int(pc.p16)) +
	               uint(int8_t(s)) * 7u;
	b8[i] = uint8_t(x) + pc.p8;
	v16[i] = u16vec2(uint16_t(s) >> 1, uint16_t(t - s));
}
