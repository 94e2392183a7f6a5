#version 460
// SPDX-License-Identifier: MIT
// A full-viewport quad (4 strip vertices from VertexIndex) per instance,
// sent to layer InstanceIndex through viewport InstanceIndex, coloured
// red for instance 0 and green for instance 1.
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) flat out vec4 v_color;

void main()
{
	vec2 p = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 2.0 - 1.0;
	gl_Position = vec4(p, 0.0, 1.0);
	gl_Layer = gl_InstanceIndex;
	gl_ViewportIndex = gl_InstanceIndex;
	v_color = gl_InstanceIndex == 0 ? vec4(1, 0, 0, 1) : vec4(0, 1, 0, 1);
}
