#version 450
// SPDX-License-Identifier: MIT
// Structured control flow (loops with break/continue, do-while, switch
// with fall-through, early returns), functions (by value, out, inout),
// composites (structs, arrays, dynamic vector/array/matrix indexing,
// swizzle insert) and access chains into struct arrays in a buffer.
// Everything depends on the lane's data, so lanes diverge.
layout(local_size_x = 64) in;

struct Item {
	uint key;
	uint vals[3];
	uvec2 pos;
};

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Items { Item items[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };

const uint K = 16u;

uint gcd(uint x, uint y)
{
	while (y != 0u) {
		uint t = x % y;
		x = y;
		y = t;
	}
	return x;
}

void minmax(uint x, uint y, out uint lo, out uint hi)
{
	lo = min(x, y);
	hi = max(x, y);
}

void accumulate(inout uint acc, uint v)
{
	acc = acc * 31u + v;
}

uint classify(uint x)
{
	switch (x % 7u) {
	case 0u:
		return 10u;
	case 1u:
	case 2u:
		return 20u + x % 3u;
	case 5u:
		break;
	case 6u:
		x += 1u; // falls through
	default:
		return 40u + x % 5u;
	}
	return 50u;
}

uint nested(uint n)
{
	uint s = 0u;

	for (uint i = 0u; i < n; i++) {
		if (i == 5u)
			continue;
		for (uint j = 0u; j < i; j++) {
			if (j * i > 40u)
				break;
			s += j ^ i;
		}
		if (s > 500u)
			break;
	}
	return s;
}

uint dowhile(uint x)
{
	uint n = 0u;

	do {
		x /= 3u;
		n++;
	} while (x > 0u);
	return n;
}

uint early(uint x)
{
	if ((x & 3u) == 0u)
		return 1u;
	if ((x & 3u) == 1u) {
		if (x > 100u)
			return 2u;
	}
	return 3u;
}

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = a[2u * i], y = a[2u * i + 1u];
	uint base = i * K;
	uint lo, hi, acc = 7u;
	uint arr[8];
	uvec4 v = uvec4(x, y, x ^ y, x + y);
	mat3 m = mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
	Item it;

	o[base + 0u] = gcd(x % 1000u + 1u, y % 1000u + 1u);
	minmax(x, y, lo, hi);
	o[base + 1u] = lo;
	o[base + 2u] = hi;
	for (uint k = 0u; k < x % 17u; k++)
		accumulate(acc, k);
	o[base + 3u] = acc;
	o[base + 4u] = classify(x);
	o[base + 5u] = nested(x % 20u);
	o[base + 6u] = dowhile(x);
	o[base + 7u] = early(x);

	it = items[i];
	it.vals[x % 3u] += 5u;
	it.pos = it.pos.yx;
	items[i] = it;
	items[i].vals[2] += items[i].key;
	o[base + 8u] = it.vals[0] + it.vals[1] * 2u + it.vals[2] * 3u +
	               it.pos.x * 5u;

	for (int k = 0; k < 8; k++)
		arr[k] = x >> k;
	arr[y % 8u] = 12345u;
	o[base + 9u] = arr[y % 8u] + arr[(y + 1u) % 8u];
	o[base + 10u] = v[y % 4u];
	v.xy = v.zw;
	v.w = 9u;
	o[base + 11u] = v.x + v.y * 3u + v.z * 5u + v.w * 7u;
	o[base + 12u] = uint(m[y % 3u][x % 3u]);
	m[x % 3u] = vec3(10.0);
	o[base + 13u] = uint(m[0].x + m[1].y + m[2].z);
	o[base + 14u] = uint(ivec2(int(x % 5u) - 2, 1).x < 0) + (x % 9u == 0u
	                ? 100u : 200u);
	o[base + 15u] = (x & 1u) != 0u ? gcd(y, 12u) : early(y) + 1000u;
}
