#version 450
// SPDX-License-Identifier: MIT
// Gathers in the engine: each component of a swizzled float image, a
// constant offset, a dynamic offset (ImageGatherExtended), four constant
// offsets (textureGatherOffsets) and an integer image.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D img;
layout(set = 0, binding = 1) uniform usampler2D uimg;
layout(set = 0, binding = 2) buffer O { vec4 v[6]; uvec4 u[2]; } o;
layout(push_constant) uniform P { vec2 uv; ivec2 off; } p;
void main()
{
	o.v[0] = textureGather(img, p.uv, 0);
	o.v[1] = textureGather(img, p.uv, 1);
	o.v[2] = textureGatherOffset(img, p.uv, ivec2(1, 0), 2);
	o.v[3] = textureGatherOffset(img, p.uv, p.off, 2);
	o.v[4] = textureGatherOffsets(img, p.uv, ivec2[4](ivec2(0, 0),
	         ivec2(1, 0), ivec2(2, 1), ivec2(-1, 1)), 2);
	o.u[0] = textureGather(uimg, p.uv, 0);
}
