#version 450
// SPDX-License-Identifier: MIT
// gfx_msaa_fill: the push-constant colour (gfx_fill's).
layout(push_constant) uniform PC {
	vec4 color;
} pc;
layout(location = 0) out vec4 o;

void main()
{
	o = pc.color;
}
