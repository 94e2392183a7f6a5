#version 450
// SPDX-License-Identifier: MIT
// compute_collatz: per invocation, the Collatz stopping time of one start
// value and the Fibonacci number F(start % 64) modulo 2^32. The workgroup
// size is a specialization constant.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Steps { uint steps[]; };
layout(set = 0, binding = 1) buffer Fib { uint fib[]; };

layout(push_constant) uniform Range {
	uint first;  // start value of invocation 0
	uint count;
	uint max_steps;
} pc;

uint collatz(uint x)
{
	uint n = 0u;
	while (x != 1u && n < pc.max_steps) {
		x = (x & 1u) != 0u ? 3u * x + 1u : x >> 1;
		n++;
	}
	return n;
}

uint fibonacci(uint k)
{
	uint a = 0u, b = 1u;
	for (uint i = 0u; i < k; i++) {
		uint t = a + b; // wraps modulo 2^32 past F(47)
		a = b;
		b = t;
	}
	return a;
}

void main()
{
	uint i = gl_GlobalInvocationID.x;

	if (i >= pc.count)
		return;
	steps[i] = collatz(pc.first + i);
	fib[i] = fibonacci((pc.first + i) % 64u);
}
