#version 450
// SPDX-License-Identifier: MIT
// Doubles (shaderFloat64): arithmetic, GLSL functions, comparisons and
// conversions to/from float and 32/64-bit integers (in range), shared
// memory and push constants.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { double a[]; };
layout(set = 0, binding = 1) readonly buffer B { double b[]; };
layout(set = 0, binding = 2) writeonly buffer O { double o[]; };
layout(set = 0, binding = 3) writeonly buffer W { uint w[]; };
layout(push_constant) uniform P { double k; } pc;
shared double sh[64];

void main()
{
	uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
	double x = a[i], y = b[i];
	uint base = i * 12u;

	o[base + 0u] = x + y;
	o[base + 1u] = x * y - pc.k;
	o[base + 2u] = x / y;
	o[base + 3u] = sqrt(abs(x));
	o[base + 4u] = floor(x) + ceil(y);
	o[base + 5u] = fract(x);
	o[base + 6u] = min(x, y) - max(x, y);
	o[base + 7u] = mod(x, y);
	o[base + 8u] = double(float(x));
	o[base + 9u] = double(int(i) - 77) + double(int64_t(i) << 40);
	sh[l] = x;
	barrier();
	o[base + 10u] = sh[63u - l];
	o[base + 11u] = clamp(x, -10.0lf, 10.0lf);
	w[i * 4u + 0u] = uint(x < y) | uint(x <= y) << 1 | uint(x == y) << 2 |
	                 uint(x != y) << 3 | uint(x > y) << 4;
	w[i * 4u + 1u] = uint(int(trunc(x)));
	w[i * 4u + 2u] = uint(int64_t(y * 1024.0lf) >> 8);
	w[i * 4u + 3u] = floatBitsToUint(float(y));
}
