#version 450
// Doubles (Float64): arithmetic, comparisons (ordered and unordered, with
// NaN), conversions to/from float and 32/64-bit integers (saturating),
// GLSL.std.450 functions, vectors, dot, shared and Function memory, push
// constants, a loop carrying a double. One lane per input pair; every
// lane writes NOUT doubles and NCMP words.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { double a[]; };
layout(set = 0, binding = 1) readonly buffer B { double b[]; };
layout(set = 0, binding = 2) buffer O { double o[]; };
layout(set = 0, binding = 3) buffer W { uint w[]; };
layout(push_constant) uniform P { uint pad; double k; } pc;
shared double sh[64];
const int NOUT = 32;
const int NW = 8;

double
series(double x)
{
	double s = 0.0lf;
	for (int i = 0; i < 8; i++)
		s = s * x + double(i);
	return s;
}

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint l = gl_LocalInvocationID.x;
	double x = a[i], y = b[i];
	uint base = i * NOUT;

	o[base + 0] = x + y;
	o[base + 1] = x - y;
	o[base + 2] = x * y;
	o[base + 3] = x / y;
	o[base + 4] = -x;
	o[base + 5] = abs(x);
	o[base + 6] = floor(x);
	o[base + 7] = ceil(x);
	o[base + 8] = trunc(x);
	o[base + 9] = fract(x);
	o[base + 10] = sqrt(abs(x));
	o[base + 11] = min(x, y);
	o[base + 12] = max(x, y);
	o[base + 13] = clamp(x, -1000.0lf, 1000.0lf);
	o[base + 14] = mix(x, y, 0.25lf);
	o[base + 15] = fma(x, y, pc.k);
	o[base + 16] = sign(x);
	o[base + 17] = roundEven(x);
	o[base + 18] = step(y, x);
	o[base + 19] = mod(x, y);
	o[base + 20] = double(float(x));
	o[base + 21] = double(int(i) - 100);
	o[base + 22] = double(uint(i) * 3000000000u);
	o[base + 23] = double(int64_t(i) * -0x123456789l);
	dvec3 v = dvec3(x, y, pc.k);
	dvec3 u = v * 2.0lf + dvec3(1.0lf, 2.0lf, 3.0lf);
	o[base + 24] = dot(v, u);
	o[base + 25] = u.z;
	sh[l] = x * 3.0lf;
	barrier();
	o[base + 26] = sh[(l + 1) & 63u];
	o[base + 27] = series(1.0lf / 3.0lf) + double(i);
	double arr[4] = double[4](x, y, x + y, x - y);
	o[base + 28] = arr[uint(abs(y)) & 3u];
	o[base + 29] = inversesqrt(4.0lf + abs(x));
	o[base + 30] = packDouble2x32(uvec2(i, 0x40000000u));
	uvec2 bits = unpackDouble2x32(x);
	o[base + 31] = x > 0.0lf ? y : x;

	uint c = uint(x < y) | uint(x <= y) << 1 | uint(x > y) << 2 |
	         uint(x >= y) << 3 | uint(x == y) << 4 | uint(x != y) << 5 |
	         uint(isnan(x)) << 6 | uint(isinf(x)) << 7;
	w[i * NW + 0] = c;
	w[i * NW + 1] = uint(int(x));
	w[i * NW + 2] = uint(x);
	w[i * NW + 3] = floatBitsToUint(float(x));
	w[i * NW + 4] = bits.x ^ bits.y;
	int64_t s64 = int64_t(x);
	uint64_t u64 = uint64_t(y);
	w[i * NW + 5] = uint(s64) ^ uint(s64 >> 32);
	w[i * NW + 6] = uint(u64) ^ uint(u64 >> 32);
	w[i * NW + 7] = uint(!(x < y)) | uint(!(x >= y)) << 1;
}
