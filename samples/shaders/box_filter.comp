#version 450
// SPDX-License-Identifier: MIT
// compute_pipeline: a 3x3 box filter over a W x H image of 8-bit gray
// pixels stored one per uint, clamp-to-edge, plus a per-frame bias.
layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform Frame {
	uint width;
	uint height;
	uint bias;
} pc;

void main()
{
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	ivec2 hi = ivec2(pc.width, pc.height) - 1;
	uint sum = 0u;

	if (p.x > hi.x || p.y > hi.y)
		return;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			ivec2 q = clamp(p + ivec2(dx, dy), ivec2(0), hi);
			sum += src[q.y * int(pc.width) + q.x];
		}
	}
	dst[p.y * int(pc.width) + p.x] = sum / 9u + pc.bias;
}
