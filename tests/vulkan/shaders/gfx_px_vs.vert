#version 450
// SPDX-License-Identifier: MIT
// Vertices in pixel coordinates (x, y) and depth z; colour flat. Each
// instance moves by pc.offset. PointSize 1 for point topologies.
layout(push_constant) uniform PC {
	vec2 size;
	vec2 offset;
} pc;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) flat out vec4 v_color;

void main()
{
	vec2 p = pos.xy + pc.offset * float(gl_InstanceIndex);
	gl_Position = vec4(p / pc.size * 2.0 - 1.0, pos.z, 1.0);
	gl_PointSize = 1.0;
	v_color = color;
}
