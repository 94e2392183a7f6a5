#version 450
// SPDX-License-Identifier: MIT
// Gathers of a sampler2D, per query (x, y, mode, o): mode 0..3
// textureGather of component mode; 4 a constant offset (-3, 2) of
// component 1; 5 four constant offsets of component 2; 6 the dynamic
// offset (o, o - 1) of component 3 (4-6 need ImageGatherExtended).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer I { vec4 q[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 r[]; };
layout(push_constant) uniform P { uint n; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= n)
		return;
	vec4 c = q[i];
	int o = int(c.w);
	switch (int(c.z)) {
	case 0: r[i] = textureGather(tex, c.xy, 0); break;
	case 1: r[i] = textureGather(tex, c.xy, 1); break;
	case 2: r[i] = textureGather(tex, c.xy, 2); break;
	case 3: r[i] = textureGather(tex, c.xy, 3); break;
	case 4: r[i] = textureGatherOffset(tex, c.xy, ivec2(-3, 2), 1); break;
	case 5:
		r[i] = textureGatherOffsets(tex, c.xy, ivec2[4](ivec2(0, 0),
		       ivec2(1, -1), ivec2(-2, 3), ivec2(4, 0)), 2);
		break;
	default:
		r[i] = textureGatherOffset(tex, c.xy, ivec2(o, o - 1), 3);
		break;
	}
}
