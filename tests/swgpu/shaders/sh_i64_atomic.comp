#version 450
// 64-bit atomics (Int64Atomics) on storage buffer words and shared
// memory, under contention from every lane of every workgroup.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer C {
	uint64_t add;       // += 0x100000001 (carries across the words)
	int64_t sub;        // -= i
	int64_t smin, smax;
	uint64_t umin, umax;
	uint64_t or_bits, and_bits, xor_bits;
	uint64_t cas;       // incremented by a compare-exchange loop
	uint64_t xchg;
	uint64_t inc;       // via atomicAdd(.., 1) on a uint64
} c;
layout(set = 0, binding = 1) buffer O { uint64_t old[]; };
layout(set = 0, binding = 2) buffer S { uint64_t sh_out[]; };
shared uint64_t s_sum;
shared int64_t s_min;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint l = gl_LocalInvocationID.x;
	uint64_t v = uint64_t(i) * 0x9e3779b97f4a7c15ul;

	if (l == 0u) {
		s_sum = 0ul;
		s_min = 0x7fffffffffffffffl;
	}
	barrier();
	old[i] = atomicAdd(c.add, 0x100000001ul);
	atomicAdd(c.sub, -int64_t(i));
	atomicMin(c.smin, int64_t(v));
	atomicMax(c.smax, int64_t(v));
	atomicMin(c.umin, v);
	atomicMax(c.umax, v);
	atomicOr(c.or_bits, 1ul << (i & 63u));
	atomicAnd(c.and_bits, ~(1ul << ((i + 7u) & 63u)));
	atomicXor(c.xor_bits, v);
	uint64_t cur = 0ul, prev;  // first guess; the exchange corrects it
	for (;;) {
		prev = atomicCompSwap(c.cas, cur, cur + 0x80000000ul);
		if (prev == cur)
			break;
		cur = prev;
	}
	atomicExchange(c.xchg, v);
	atomicAdd(c.inc, 1ul);
	atomicAdd(s_sum, uint64_t(i) << 31);
	atomicMin(s_min, -int64_t(v >> 2));
	barrier();
	if (l == 0u) {
		sh_out[gl_WorkGroupID.x * 2u] = s_sum;
		sh_out[gl_WorkGroupID.x * 2u + 1u] = uint64_t(s_min);
	}
}
