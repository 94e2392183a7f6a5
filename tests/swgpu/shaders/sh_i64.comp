#version 450
// 64-bit integers (Int64): arithmetic with wrap-around, division edge
// cases, shifts, bit ops, comparisons, conversions to/from 32-bit and
// float, bitcasts to uvec2, composites, shared and Function memory,
// push constants, a loop carrying 64-bit values. One lane per input pair;
// every lane writes NOUT 64-bit results.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int64_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int64_t b[]; };
layout(set = 0, binding = 2) buffer O { int64_t o[]; };
layout(set = 0, binding = 3) buffer F { float f[]; };
layout(push_constant) uniform P { uint pad; uint64_t k; } pc;
shared uint64_t sh[64];
const int NOUT = 41;

int64_t
tri(int64_t n)
{
	int64_t s = 0;
	for (int64_t i = 0; i < (n & 15); i++)
		s += i * 0x100000001l;
	return s;
}

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint l = gl_LocalInvocationID.x;
	int64_t x = a[i], y = b[i];
	uint64_t ux = uint64_t(x), uy = uint64_t(y);
	uint base = i * NOUT;
	int64_t fv[4];

	o[base + 0] = x + y;
	o[base + 1] = x - y;
	o[base + 2] = x * y;
	o[base + 3] = x / y;
	o[base + 4] = int64_t(ux / uy);
	o[base + 5] = x % y;                     // SMod (GLSL %)
	o[base + 6] = int64_t(ux % uy);
	o[base + 7] = x << (uint(y) & 63u);
	o[base + 8] = x >> (uint(y) & 63u);      // arithmetic
	o[base + 9] = int64_t(ux >> (uy & 63ul));
	o[base + 10] = x & y;
	o[base + 11] = x | y;
	o[base + 12] = x ^ y;
	o[base + 13] = ~x;
	o[base + 14] = -x;
	o[base + 15] = (x < y ? 1l : 0l) | (x <= y ? 2l : 0l) |
	               (x > y ? 4l : 0l) | (x >= y ? 8l : 0l) |
	               (x == y ? 16l : 0l) | (x != y ? 32l : 0l) |
	               (ux < uy ? 64l : 0l) | (ux <= uy ? 128l : 0l) |
	               (ux > uy ? 256l : 0l) | (ux >= uy ? 512l : 0l);
	o[base + 16] = int64_t(int(x));          // truncate + sign extend
	o[base + 17] = int64_t(uint(x));         // truncate + zero extend
	o[base + 18] = int64_t(int(y)) * int64_t(uint(x));
	uvec2 w = unpackUint2x32(ux);
	o[base + 19] = int64_t(packUint2x32(uvec2(w.y, w.x)));
	o[base + 20] = min(x, y);
	o[base + 21] = max(x, y);
	o[base + 22] = int64_t(min(ux, uy));
	o[base + 23] = int64_t(max(ux, uy));
	o[base + 24] = abs(x);
	o[base + 25] = clamp(x, -1000l, 1000l);
	o[base + 26] = sign(x);
	i64vec2 v = i64vec2(x, y) * 3l + i64vec2(pc.k);
	o[base + 27] = v.x;
	o[base + 28] = v.y;
	i64vec3 v3 = i64vec3(v.yx, x).zxy;
	o[base + 29] = v3.x ^ v3.y ^ (v3.z << 1);
	// shared memory: neighbour's value
	sh[l] = ux * 7ul;
	barrier();
	o[base + 30] = int64_t(sh[(l + 1u) & 63u]);
	// Function variable, dynamic index
	fv[0] = x; fv[1] = y; fv[2] = x + 1l; fv[3] = y - 1l;
	o[base + 31] = fv[uint(y) & 3u];
	o[base + 32] = tri(x);
	o[base + 33] = int64_t(float(x));
	o[base + 34] = int64_t(uint64_t(float(ux)));
	o[base + 35] = int64_t(f[i * 2u]);
	o[base + 36] = int64_t(uint64_t(f[i * 2u + 1u]));
	o[base + 37] = x > 0l ? y : x;
	o[base + 38] = int64_t(pc.k) + int64_t(i);
	o[base + 39] = 0x123456789abcdef0l + int64_t(uint(x) >> 3);
	o[base + 40] = int64_t(uint(x) >> (uy & 31ul)); // 32-bit by 64-bit
	f[i * 2u] = float(x);
	f[i * 2u + 1u] = float(ux);
}
