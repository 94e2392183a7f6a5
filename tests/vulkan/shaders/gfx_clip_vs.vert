#version 450
// SPDX-License-Identifier: MIT
// Vertices in pixel coordinates (x, y, z, w: perspective) with their
// distances: ClipDistance[0..1] = dist.xy, CullDistance[0] = dist.z.
layout(push_constant) uniform PC {
	vec2 size;
} pc;
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 dist;
out gl_PerVertex {
	vec4 gl_Position;
	float gl_ClipDistance[2];
	float gl_CullDistance[1];
};

void main()
{
	gl_Position = vec4((pos.xy / pc.size * 2.0 - 1.0) * pos.w, pos.z, pos.w);
	gl_ClipDistance[0] = dist.x;
	gl_ClipDistance[1] = dist.y;
	gl_CullDistance[0] = dist.z;
}
