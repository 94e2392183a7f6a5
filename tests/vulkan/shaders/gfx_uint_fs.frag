#version 450
// SPDX-License-Identifier: MIT
// An integer colour: the vertex colour times 255.
layout(location = 0) flat in vec4 v_color;
layout(location = 0) out uvec4 o;

void main()
{
	o = uvec4(round(v_color * 255.0));
}
