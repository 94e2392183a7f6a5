#version 450
// 16-bit floats (Float16, 16-bit storage): arithmetic rounded to nearest
// even at half precision (overflow to inf, denormals, NaN), comparisons,
// conversions to/from float, double and integers, GLSL functions,
// vectors, bitcasts, half arrays and vectors in a storage buffer and a
// push constant. One lane per input pair; every lane writes NOUT words.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };
layout(set = 0, binding = 2) buffer S { f16vec3 v[]; };
layout(push_constant) uniform P { float16_t k; } pc;
const int NOUT = 12;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	float16_t x = a[i], y = a[(i * 5u + 2u) & 255u];
	uint base = i * NOUT;

	o[base + 0] = uint(float16BitsToUint16(x + y)) |
	              uint(float16BitsToUint16(x * y)) << 16;
	o[base + 1] = uint(float16BitsToUint16(x - y)) |
	              uint(float16BitsToUint16(x / y)) << 16;
	o[base + 2] = uint(float16BitsToUint16(-x)) |
	              uint(float16BitsToUint16(abs(y))) << 16;
	o[base + 3] = uint(x < y) | uint(x <= y) << 1 | uint(x == y) << 2 |
	              uint(x != y) << 3 | uint(isnan(x)) << 4 |
	              uint(isinf(x)) << 5;
	o[base + 4] = floatBitsToUint(float(x));
	o[base + 5] = uint(float16BitsToUint16(float16_t(float(y) * 3.0))) |
	              uint(float16BitsToUint16(float16_t(double(x)))) << 16;
	o[base + 6] = uint(int(clamp(x, float16_t(-1000.0), float16_t(1000.0))));
	o[base + 7] = uint(float16BitsToUint16(float16_t(int(i) - 128))) |
	              uint(float16BitsToUint16(min(x, y))) << 16;
	o[base + 8] = uint(float16BitsToUint16(floor(x))) |
	              uint(float16BitsToUint16(x * pc.k)) << 16;
	f16vec2 p = f16vec2(x, y) * float16_t(2.0);
	o[base + 9] = packFloat2x16(p);
	o[base + 10] = uint(float16BitsToUint16(sqrt(abs(x))));
	o[base + 11] = uint(float16BitsToUint16(dot(f16vec2(x, y),
	                                              f16vec2(y, x))));
	v[i] = f16vec3(x, y, x + y);
}
