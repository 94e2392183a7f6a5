#version 450
// SPDX-License-Identifier: MIT
// A signed integer colour: the vertex colour times 100, minus 50.
layout(location = 0) flat in vec4 v_color;
layout(location = 0) out ivec4 o;

void main()
{
	o = ivec4(round(v_color * 100.0)) - 50;
}
