#version 460
// SPDX-License-Identifier: MIT
// A point per draw of a multi-draw: at (DrawIndex % 64, DrawIndex / 64 +
// 8 * InstanceIndex), colour (DrawIndex low byte, DrawIndex high byte,
// VertexIndex, the instanced attribute), each as byte / 255.
layout(push_constant) uniform PC {
	vec2 size;
} pc;
layout(location = 0) in float a_inst;
layout(location = 0) flat out vec4 v_color;

void main()
{
	vec2 p = vec2(gl_DrawID % 64, gl_DrawID / 64 + 8 * gl_InstanceIndex) +
	         0.5;
	gl_Position = vec4(p / pc.size * 2.0 - 1.0, 0.0, 1.0);
	gl_PointSize = 1.0;
	v_color = vec4(float(gl_DrawID & 255), float(gl_DrawID >> 8),
	               float(gl_VertexIndex & 255), a_inst) / 255.0;
}
