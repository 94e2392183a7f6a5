#version 450
// SPDX-License-Identifier: MIT
layout(location = 0) flat in vec4 v_color;
layout(location = 0) out vec4 o;

void main()
{
	o = v_color;
}
