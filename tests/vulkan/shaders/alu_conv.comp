#version 450
// SPDX-License-Identifier: MIT
// Conversions and bitcasts: float <-> int/uint (in range: truncation),
// int <-> uint, bool <-> numbers, float bits, half and unorm packing.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) readonly buffer C { uint c[]; };
layout(set = 0, binding = 3) writeonly buffer O { uint o[]; };

const uint K = 16u;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	float f = a[i];   // in (-2^24, 2^24), not NaN
	int s = b[i];     // |s| < 2^24: exact as float
	uint u = c[i];    // any bits
	uint base = i * K;

	o[base + 0u] = uint(int(f));
	o[base + 1u] = uint(abs(f));
	o[base + 2u] = floatBitsToUint(float(s));
	o[base + 3u] = floatBitsToUint(float(uint(abs(s))));
	o[base + 4u] = uint(s);
	o[base + 5u] = uint(int(u));
	o[base + 6u] = floatBitsToUint(uintBitsToFloat(u)); // bits kept
	o[base + 7u] = uint(s < 0) + uint(bool(u)) * 2u;
	o[base + 8u] = floatBitsToUint(float(s > 0));
	o[base + 9u] = packHalf2x16(vec2(float(s & 1023), -0.5));
	o[base + 10u] = floatBitsToUint(unpackHalf2x16(u & 0x7bff7bffu).x);
	o[base + 11u] = floatBitsToUint(unpackHalf2x16(u & 0x7bff7bffu).y);
	o[base + 12u] = packUnorm4x8(vec4(0.0, 1.0, 0.25, 2.0));
	o[base + 13u] = floatBitsToUint(unpackUnorm4x8(u).y * 255.0);
	o[base + 14u] = uint(int(-f));
	o[base + 15u] = floatBitsToUint(float(floatBitsToInt(f) & 0xffff));
}
