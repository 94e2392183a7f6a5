#version 450
// SPDX-License-Identifier: MIT
// Vertices in pixel coordinates (x, y, z, w: perspective), colour
// interpolated (perspective-correct).
layout(push_constant) uniform PC {
	vec2 size;
} pc;
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
layout(location = 1) noperspective out vec4 v_linear;

void main()
{
	gl_Position = vec4((pos.xy / pc.size * 2.0 - 1.0) * pos.w, pos.z, pos.w);
	v_color = color;
	v_linear = color;
}
