#version 450
// SPDX-License-Identifier: MIT
// Bit operations: logic, shifts, bitfield*, bitCount, findLSB/MSB,
// extended arithmetic (uaddCarry, usubBorrow, umulExtended,
// imulExtended).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };

const uint K = 24u;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i], y = b[i];
	int sx = int(x);
	int off = int(y & 15u), bits = int((y >> 4) & 15u) + 1;
	uint base = i * K;
	uint hi, lo, carry;
	int shi, slo;

	o[base + 0u] = x & y;
	o[base + 1u] = x | y;
	o[base + 2u] = x ^ y;
	o[base + 3u] = ~x;
	o[base + 4u] = x << (y & 31u);
	o[base + 5u] = x >> (y & 31u);
	o[base + 6u] = bitfieldExtract(x, off, bits);
	o[base + 7u] = uint(bitfieldExtract(sx, off, bits));
	o[base + 8u] = bitfieldInsert(x, y, off, bits);
	o[base + 9u] = bitfieldReverse(x);
	o[base + 10u] = uint(bitCount(x));
	o[base + 11u] = uint(findLSB(x));
	o[base + 12u] = uint(findMSB(x));
	o[base + 13u] = uint(findMSB(sx));
	o[base + 14u] = uaddCarry(x, y, carry);
	o[base + 15u] = carry;
	o[base + 16u] = usubBorrow(x, y, carry);
	o[base + 17u] = carry;
	umulExtended(x, y, hi, lo);
	o[base + 18u] = hi;
	o[base + 19u] = lo;
	imulExtended(sx, int(y), shi, slo);
	o[base + 20u] = uint(shi);
	o[base + 21u] = uint(slo);
	o[base + 22u] = uint(bitfieldExtract(sx, 0, 0)); // count 0: 0
	o[base + 23u] = (x << 1) | (x >> 31);            // rotate
}
