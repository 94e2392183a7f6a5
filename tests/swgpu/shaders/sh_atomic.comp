#version 450
// Atomics under contention: every invocation of every group hits the
// same words of a storage buffer, and a shared counter per group.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer C {
	uint count;
	uint sub;
	int smin;
	int smax;
	uint umin;
	uint umax;
	uint andv;
	uint orv;
	uint xorv;
	uint xchg;
	uint cas;
	uint inc;
} c;
layout(set = 0, binding = 1) writeonly buffer S { uint per_group[]; };
layout(set = 0, binding = 2) writeonly buffer R { uint ret[]; };
shared uint local_count;
void main()
{
	uint g = gl_GlobalInvocationID.x;
	int sg = int(g) - 5000;
	if (gl_LocalInvocationIndex == 0u)
		local_count = 0u;
	barrier();
	ret[g] = atomicAdd(c.count, 1u);
	atomicAdd(c.sub, uint(-2));
	atomicMin(c.smin, sg);
	atomicMax(c.smax, sg);
	atomicMin(c.umin, g + 7u);
	atomicMax(c.umax, g * 3u);
	atomicAnd(c.andv, ~(1u << (g & 31u)) | 0x80000000u);
	atomicOr(c.orv, 1u << (g % 31u));
	atomicXor(c.xorv, g);
	atomicExchange(c.xchg, 42u);
	atomicCompSwap(c.cas, g, g + 1u);
	atomicAdd(local_count, 2u);
	barrier();
	if (gl_LocalInvocationIndex == 0u)
		per_group[gl_WorkGroupID.x] = atomicAdd(local_count, 0u);
}
