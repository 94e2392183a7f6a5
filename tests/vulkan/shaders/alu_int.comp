#version 450
// SPDX-License-Identifier: MIT
// Signed and unsigned 32-bit integer arithmetic, scalar; results wrap
// modulo 2^32. Division operands are steered away from the undefined
// cases (x / 0, INT_MIN / -1): those are in alu_divzero.comp.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };

const uint K = 24u;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	int x = a[i], y = b[i];
	uint ux = uint(x), uy = uint(y);
	int yd = (y == 0 || (x == int(0x80000000) && y == -1)) ? 7 : y;
	uint uyd = uy == 0u ? 7u : uy;
	uint base = i * K;

	o[base + 0u] = x + y;
	o[base + 1u] = x - y;
	o[base + 2u] = x * y;
	o[base + 3u] = x / yd;
	o[base + 4u] = -x;
	// GLSL % on negative operands is undefined: use magnitudes.
	o[base + 5u] = (x & 0x7fffffff) % (yd & 0x7fffffff | 1);
	o[base + 6u] = x >> (y & 31);
	o[base + 7u] = x << (y & 31);
	o[base + 8u] = abs(x);
	o[base + 9u] = sign(x);
	o[base + 10u] = min(x, y);
	o[base + 11u] = max(x, y);
	o[base + 12u] = clamp(x, -1000, 1000);
	o[base + 13u] = int(ux + uy);
	o[base + 14u] = int(ux - uy);
	o[base + 15u] = int(ux * uy);
	o[base + 16u] = int(ux / uyd);
	o[base + 17u] = int(ux % uyd);
	o[base + 18u] = int(ux >> (uy & 31u));
	o[base + 19u] = int(min(ux, uy));
	o[base + 20u] = int(max(ux, uy));
	o[base + 21u] = int(clamp(ux, 1000u, 0x80000000u));
	o[base + 22u] = x * 3 + y * -5 - 17;
	o[base + 23u] = ++x + y--;
}
