#version 450
// bench_preempt: one workgroup of 64 lanes with 1 KiB of shared memory
// and a loop of n steps (push constant), a barrier every step: the state
// a preemption saves and restores (registers, pc, masks, shared memory).
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; } pc;
layout(set = 0, binding = 0) buffer O { uint o[]; };
shared uint sh[256];
void main()
{
	uint l = gl_LocalInvocationIndex;
	uint x = l;
	for (uint i = 0u; i < pc.n; i++) {
		x = x * 1664525u + 1013904223u;
		sh[(l * 4u + (i & 3u)) & 255u] = x;
		barrier();
		x ^= sh[(l * 4u + 5u) & 255u] >> 3;
		barrier();
	}
	o[l] = x;
}
