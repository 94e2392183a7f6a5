#version 450
// SPDX-License-Identifier: MIT
// Dual-source blending: colour index 0 is the vertex colour, index 1 its
// reverse (b, g, r, 1 - a).
layout(location = 0) flat in vec4 v_color;
layout(location = 0, index = 0) out vec4 o0;
layout(location = 0, index = 1) out vec4 o1;

void main()
{
	o0 = v_color;
	o1 = vec4(v_color.bgr, 1.0 - v_color.a);
}
