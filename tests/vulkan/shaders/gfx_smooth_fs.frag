#version 450
// SPDX-License-Identifier: MIT
// Perspective-correct colour in RGB, or (push constant) the
// noperspective one.
layout(push_constant) uniform PC {
	layout(offset = 8) int linear;
} pc;
layout(location = 0) in vec4 v_color;
layout(location = 1) noperspective in vec4 v_linear;
layout(location = 0) out vec4 o;

void main()
{
	o = pc.linear != 0 ? v_linear : v_color;
}
