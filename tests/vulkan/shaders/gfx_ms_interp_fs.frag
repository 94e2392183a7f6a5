#version 450
// SPDX-License-Identifier: MIT
// interpolateAtSample / interpolateAtOffset of a noperspective input
// that holds the pixel coordinates / 64 (gfx_smooth_vs with the colour
// (x / 64, y / 64, 0, 1) at each vertex): the fractions of the positions
// they were evaluated at, in the pixel.
layout(location = 1) noperspective in vec4 v_linear;
layout(location = 0) out vec4 o;

void main()
{
	vec4 s2 = interpolateAtSample(v_linear, 2);
	vec4 off = interpolateAtOffset(v_linear, vec2(-0.25, 0.125));
	o = vec4(fract(s2.x * 64.0), fract(s2.y * 64.0),
	         fract(off.x * 64.0), fract(off.y * 64.0));
}
