#version 450
// SPDX-License-Identifier: MIT
// Atomics under contention: every invocation of every workgroup hits the
// same few storage-buffer words (add, min/max signed and unsigned,
// and/or/xor, exchange, a compare-and-swap retry loop, a histogram), and
// workgroup shared counters that are folded into the buffer at the end.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Counters {
	uint add;
	uint sum;
	int smin;
	int smax;
	uint umin;
	uint umax;
	uint and_;
	uint or_;
	uint xor_;
	uint cas;
	uint exch;
	uint shared_total;
	uint hist[16];
	uint shared_hist[16];
} c;
layout(set = 0, binding = 1) writeonly buffer Tickets { uint t[]; };
layout(set = 0, binding = 2) writeonly buffer Exch { uint e[]; };

shared uint s_sum;
shared uint s_hist[16];

uint hash(uint x)
{
	x *= 2654435761u;
	return x ^ (x >> 16);
}

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint l = gl_LocalInvocationID.x;
	uint old;

	if (l == 0u)
		s_sum = 0u;
	if (l < 16u)
		s_hist[l] = 0u;
	barrier();

	t[i] = atomicAdd(c.add, 1u);
	atomicAdd(c.sum, i);
	atomicMin(c.smin, int(i) - 8000);
	atomicMax(c.smax, int(i) - 8000);
	atomicMin(c.umin, hash(i));
	atomicMax(c.umax, hash(i));
	atomicAnd(c.and_, ~(1u << (i % 29u)));
	atomicOr(c.or_, 1u << (hash(i) % 32u));
	atomicXor(c.xor_, hash(i));
	e[i] = atomicExchange(c.exch, i + 1u);
	atomicAdd(c.hist[hash(i) % 16u], 1u);
	// Compare-and-swap retry loop; the first read is atomic too, so the
	// shader has no data race (a plain load racing with other
	// workgroups' swaps would be one under the Vulkan memory model).
	old = atomicAdd(c.cas, 0u);
	for (;;) {
		uint seen = atomicCompSwap(c.cas, old, old + 3u);
		if (seen == old)
			break;
		old = seen;
	}

	atomicAdd(s_sum, i & 0xffu);
	atomicAdd(s_hist[i % 16u], 1u);
	barrier();
	if (l == 0u)
		atomicAdd(c.shared_total, s_sum);
	if (l < 16u)
		atomicAdd(c.shared_hist[l], s_hist[l]);
}
