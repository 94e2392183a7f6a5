#version 450
// SPDX-License-Identifier: MIT
// Division and remainder by zero (and INT_MIN / -1) on some lanes: the
// results of those lanes are undefined, but the dispatch must complete
// and every other lane, and the rest of each lane's work, must be right.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	int x = a[i], y = b[i];

	o[i * 6u + 0u] = x / y;
	o[i * 6u + 1u] = int(uint(x) / uint(y));
	o[i * 6u + 2u] = int(uint(x) % uint(y));
	o[i * 6u + 3u] = x % y;
	o[i * 6u + 4u] = floatBitsToInt(float(x) / float(y));
	o[i * 6u + 5u] = x + 1; // after the divisions: always checked
}
