#version 460
// SPDX-License-Identifier: MIT
// Draw parameters as colour: a point per vertex at (VertexIndex,
// InstanceIndex), colour (VertexIndex, InstanceIndex, DrawIndex,
// BaseVertex + BaseInstance), each as byte / 255.
layout(push_constant) uniform PC {
	vec2 size;
} pc;
layout(location = 0) flat out vec4 v_color;

void main()
{
	vec2 p = vec2(gl_VertexIndex & 63, gl_InstanceIndex & 63) + 0.5;
	gl_Position = vec4(p / pc.size * 2.0 - 1.0, 0.0, 1.0);
	gl_PointSize = 1.0;
	v_color = vec4(float(gl_VertexIndex & 255), float(gl_InstanceIndex & 255),
	               float(gl_DrawID & 255),
	               float((gl_BaseVertex + gl_BaseInstance) & 255)) / 255.0;
}
