#version 450
// SPDX-License-Identifier: MIT
// 16-bit floats (shaderFloat16, storageBuffer16BitAccess): arithmetic
// rounded to half precision, conversions to/from float and int, half
// stores.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(set = 0, binding = 2) writeonly buffer H { float16_t h[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	float16_t x = a[i], y = a[255u - i];

	o[i * 4u + 0u] = uint(float16BitsToUint16(x + y)) |
	                 uint(float16BitsToUint16(x * y)) << 16;
	o[i * 4u + 1u] = uint(float16BitsToUint16(x / y)) |
	                 uint(float16BitsToUint16(x - y)) << 16;
	o[i * 4u + 2u] = floatBitsToUint(float(x) * 0.5);
	o[i * 4u + 3u] = uint(int(x)) ^ uint(x < y) << 31;
	h[i] = float16_t(float(y) * 3.0);
}
