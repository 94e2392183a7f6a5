#version 450
// SPDX-License-Identifier: MIT
// interpolateAtCentroid of a noperspective input holding the pixel
// coordinates / 64 (gfx_smooth_vs with the colour (x / 64, y / 64, 0, 1)
// at each vertex): red, green = where in its pixel the value was taken
// (the fraction of the point); blue 1 when the Centroid-decorated copy
// of the same values (v_color: perspective-correct, but every w is 1)
// agrees with it, and interpolateAtCentroid of that copy is the copy.
layout(location = 0) centroid in vec4 v_color;
layout(location = 1) noperspective in vec4 v_linear;
layout(location = 0) out vec4 o;

void main()
{
	vec2 c = interpolateAtCentroid(v_linear).xy * 64.0;
	vec2 f = c - floor(gl_FragCoord.xy);
	bool same = all(lessThan(abs(v_color.xy * 64.0 - c), vec2(0.01))) &&
	            all(lessThan(abs(interpolateAtCentroid(v_color).xy -
	                             v_color.xy), vec2(1e-6)));
	o = vec4(f, same ? 1.0 : 0.0, 1.0);
}
