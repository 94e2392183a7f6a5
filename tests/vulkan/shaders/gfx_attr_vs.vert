#version 450
// SPDX-License-Identifier: MIT
// One point per vertex at pixel (pc.row position), colour = the
// attribute at location 1 mapped by pc.scale/bias (e.g. SNORM -1..1 to
// 0..1).
layout(push_constant) uniform PC {
	vec2 size;
	vec2 pad;
	vec4 scale;
	vec4 bias;
} pc;
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 attr;
layout(location = 0) flat out vec4 v_color;

void main()
{
	gl_Position = vec4(pos / pc.size * 2.0 - 1.0, 0.0, 1.0);
	gl_PointSize = 1.0;
	v_color = attr * pc.scale + pc.bias;
}
