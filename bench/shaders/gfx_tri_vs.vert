#version 450
// SPDX-License-Identifier: MIT
// Small triangles: positions in pixels, a flat colour.
layout(push_constant) uniform PC {
	vec2 size;
} pc;
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
layout(location = 0) flat out vec4 v_color;

void main()
{
	gl_Position = vec4(pos / pc.size * 2.0 - 1.0, 0.0, 1.0);
	v_color = color;
}
