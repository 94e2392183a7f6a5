#version 450
// SPDX-License-Identifier: MIT
// 64-bit integers (shaderInt64): arithmetic wrapping modulo 2^64, shifts,
// division, comparisons, conversions to and from 32-bit halves.
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { uint64_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint64_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint64_t o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint64_t x = a[i], y = b[i];
	int64_t sx = int64_t(x), sy = int64_t(y);
	uint64_t yd = y == 0ul ? 7ul : y;
	uint base = i * 10u;

	o[base + 0u] = x + y;
	o[base + 1u] = x * y - x;
	o[base + 2u] = x >> (y & 63ul);
	o[base + 3u] = uint64_t(sx >> int(y & 63ul));
	o[base + 4u] = x / yd;
	o[base + 5u] = x % yd;
	o[base + 6u] = uint64_t(sx < sy) | uint64_t(x < y) << 1;
	o[base + 7u] = packUint2x32(unpackUint2x32(x).yx);
	o[base + 8u] = uint64_t(uint(x)) * uint64_t(uint(y));
	o[base + 9u] = uint64_t(int64_t(int(uint(x))));   // sign-extend
}
