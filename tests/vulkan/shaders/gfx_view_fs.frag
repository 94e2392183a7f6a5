#version 460
// SPDX-License-Identifier: MIT
// Multiview: a colour that depends on ViewIndex, in whole RGBA8 steps
// (exact on every driver): (15 + 60v, 200 - 40v, 7, 255) / 255.
#extension GL_EXT_multiview : require
layout(location = 0) out vec4 o_color;

void main()
{
	int v = int(gl_ViewIndex);
	o_color = vec4(float(15 + 60 * v), float(200 - 40 * v), 7.0, 255.0) /
	          255.0;
}
