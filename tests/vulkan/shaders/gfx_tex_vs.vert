#version 450
// SPDX-License-Identifier: MIT
// Positions in pixels, a texture coordinate.
layout(push_constant) uniform PC {
	vec2 size;
} pc;
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;

void main()
{
	gl_Position = vec4(pos / pc.size * 2.0 - 1.0, 0.0, 1.0);
	v_uv = uv;
}
