#version 450
// SPDX-License-Identifier: MIT
// The gfx_scene sample: a textured mesh with a model-view-projection
// matrix and a tint (alpha for blending) in push constants.
layout(push_constant) uniform PC {
	mat4 mvp;
	vec4 tint;
} pc;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_tint;

void main()
{
	gl_Position = pc.mvp * vec4(pos, 1.0);
	v_uv = uv;
	v_tint = pc.tint;
}
