#version 450
// SPDX-License-Identifier: MIT
// Two colour outputs: the vertex colour and its complement.
layout(location = 0) flat in vec4 v_color;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
	o0 = v_color;
	o1 = vec4(1.0) - v_color;
}
