#version 450
// SPDX-License-Identifier: MIT
// test_vk_exit_live: a loop worth compiling; K (a specialization
// constant) makes each pipeline a program of its own.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint K = 1u;

layout(set = 0, binding = 0) buffer B { uint v[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = v[i] + K;

	for (uint n = 0u; n < K % 7u + 3u; n++) {
		x = x * 1664525u + 1013904223u;
		if ((x & 3u) == 0u)
			x ^= x >> 7;
	}
	v[i] = x;
	/* float work for the compiler too; only x is checked */
	vec4 f = vec4(x) * 0.5 + vec4(K);
	v[i + 1024u] = uint(clamp(f.x * f.y - f.z / (f.w + 1.0), 0.0, 1e9));
}
