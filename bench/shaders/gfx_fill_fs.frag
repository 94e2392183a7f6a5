#version 450
// SPDX-License-Identifier: MIT
// The pushed colour, blended by the pipeline.
layout(push_constant) uniform PC {
	vec4 color;
} pc;
layout(location = 0) out vec4 o;

void main()
{
	o = pc.color;
}
