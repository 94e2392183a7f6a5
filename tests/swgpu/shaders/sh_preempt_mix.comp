#version 450
// Workgroups whose result depends on every step of a divergent loop, on
// shared memory and on barriers between rounds (test_api_preempt_wg.c has
// the same computation on the host): stopped and resumed anywhere, they
// must give the same bits.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; uint seed; } pc;
layout(set = 0, binding = 0) buffer O { uint o[]; };
shared uint sh[64];
void main()
{
	uint l = gl_LocalInvocationIndex;
	uint g = gl_WorkGroupID.x;
	uint x = g * 64u + l + pc.seed;
	uint iters = pc.n + ((x * 2654435761u) >> 27);
	for (uint i = 0u; i < iters; i++) {
		x = x * 1664525u + 1013904223u;
		if ((x & 3u) == 0u)
			x ^= x >> 7;
	}
	sh[l] = x;
	barrier();
	for (uint r = 0u; r < 4u; r++) {
		uint y = sh[(l + r * 7u + 1u) & 63u];
		barrier();
		uint k = y & 7u;
		for (uint j = 0u; j < k; j++)
			y = y * 747796405u + 2891336453u;
		sh[l] = y ^ x;
		barrier();
	}
	o[g * 64u + l] = sh[l] + x;
}
