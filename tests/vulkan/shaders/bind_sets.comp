#version 450
// SPDX-License-Identifier: MIT
// Descriptor plumbing: four sets, uniform and storage buffers, dynamic
// storage and uniform buffers (offsets given at bind time), a storage
// buffer bound at an offset with a range (its runtime array length), and
// a full 128-byte push-constant block updated in parts.
layout(local_size_x = 32) in;

layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) uniform Params {
	uvec4 mul_add;
	vec4 f;
	uvec4 arr[2];
} P;
layout(set = 1, binding = 0) writeonly buffer Out { uint o[]; };
layout(set = 2, binding = 0) uniform Salt { uint salt; };
layout(set = 3, binding = 0) readonly buffer Win { uint w[]; };

layout(push_constant) uniform Push {
	uint count;
	int ioff;
	float scale;
	uvec2 pair;
	vec4 v;
	uint tail[20];
} pc;

void main()
{
	uint i = gl_GlobalInvocationID.x;

	if (i >= pc.count)
		return;
	o[i * 4u + 0u] = a[i] * P.mul_add.x + P.mul_add.y + salt;
	o[i * 4u + 1u] = uint(int(i) + pc.ioff) ^ pc.pair.x ^ pc.pair.y;
	o[i * 4u + 2u] = uint(float(i) * pc.scale + pc.v.x + P.f.y) +
	                 pc.tail[i % 20u] + P.arr[i % 2u].z;
	o[i * 4u + 3u] = uint(w.length()) * 1000u + w[i % uint(w.length())];
}
