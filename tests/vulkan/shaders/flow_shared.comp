#version 450
// SPDX-License-Identifier: MIT
// Workgroup shared memory and barriers: a reversal through shared
// memory, a tree reduction with a barrier per level under divergent
// guards, and a neighbour exchange after lanes took lane-dependent
// paths (the barrier sits after the reconvergence point).
layout(local_size_x = 128) in;

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

shared uint rev[128];
shared uint red[128];
shared uint res[128];

void main()
{
	uint l = gl_LocalInvocationID.x;
	uint g = gl_WorkGroupID.x;
	uint x = a[g * 128u + l];
	uint r = 0u;

	rev[l] = x;
	red[l] = x & 0xffffu;
	barrier();
	o[(g * 128u + l) * 3u + 0u] = rev[127u - l];

	for (uint s = 64u; s > 0u; s >>= 1) {
		if (l < s)
			red[l] += red[l + s];
		memoryBarrierShared();
		barrier();
	}

	if (l % 3u == 0u) {
		for (uint k = 0u; k < x % 13u; k++)
			r += k * l;
	} else if (l % 3u == 1u) {
		uint t = x;
		while (t > 1u)
			t >>= 2;
		r = t + 1000u;
	} else {
		r = red[0] ^ l;
	}
	res[l] = r;
	barrier();
	o[(g * 128u + l) * 3u + 1u] = red[0];
	o[(g * 128u + l) * 3u + 2u] = res[(l + 1u) % 128u] +
	                              res[(l + 127u) % 128u];
}
