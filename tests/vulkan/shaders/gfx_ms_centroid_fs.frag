#version 450
// SPDX-License-Identifier: MIT
// A Centroid noperspective input holding the pixel coordinates / 64
// (gfx_smooth_vs with the colour (x / 64, y / 64, 0, 1) at each vertex of
// the triangle T): red 1 when the point it was evaluated at lies in T,
// green 1 when it lies in the fragment's pixel (both within rounding).
layout(location = 1) centroid noperspective in vec4 v_linear;
layout(location = 0) out vec4 o;

const vec2 T[3] = vec2[3](vec2(3.3125, 2.125), vec2(60.75, 11.875),
                          vec2(17.25, 58.625));

float orient(vec2 a, vec2 b, vec2 p)
{
	return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

void main()
{
	vec2 p = v_linear.xy * 64.0;
	float e0 = orient(T[0], T[1], p), e1 = orient(T[1], T[2], p);
	float e2 = orient(T[2], T[0], p);
	const float eps = 0.01;
	bool inside = (e0 >= -eps && e1 >= -eps && e2 >= -eps) ||
	              (e0 <= eps && e1 <= eps && e2 <= eps);
	vec2 f = floor(gl_FragCoord.xy);
	bool inpix = all(greaterThanEqual(p, f - 0.001)) &&
	             all(lessThanEqual(p, f + 1.001));
	o = vec4(inside ? 1.0 : 0.0, inpix ? 1.0 : 0.0, 0.0, 1.0);
}
