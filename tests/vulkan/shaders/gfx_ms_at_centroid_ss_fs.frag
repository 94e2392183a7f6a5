#version 450
// SPDX-License-Identifier: MIT
// interpolateAtCentroid with sample shading (gfx_smooth_vs, colour (x /
// 64, y / 64, 0, 1) at each vertex of triangle U): the spec lets each
// invocation take any point of its pixel inside the triangle (swgpu: its
// own sample; lavapipe: the centre of a fully covered pixel, else the
// lowest covered sample), so only that is checked, as 1s: red, the point
// lies in the pixel; green, in U (both within rounding); blue, the
// Centroid-decorated copy of the same values agrees.
layout(location = 0) centroid in vec4 v_color;
layout(location = 1) noperspective in vec4 v_linear;
layout(location = 0) out vec4 o;

const vec2 U[3] = vec2[3](vec2(3.31640625, 2.12890625),
                          vec2(60.75390625, 11.87109375),
                          vec2(17.2578125, 58.62890625));

float orient(vec2 a, vec2 b, vec2 p)
{
	return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

void main()
{
	vec2 p = interpolateAtCentroid(v_linear).xy * 64.0;
	vec2 f = floor(gl_FragCoord.xy);
	bool inpix = all(greaterThanEqual(p, f - 0.001)) &&
	             all(lessThanEqual(p, f + 1.001));
	float e0 = orient(U[0], U[1], p), e1 = orient(U[1], U[2], p);
	float e2 = orient(U[2], U[0], p);
	const float eps = 0.01;
	bool inside = (e0 >= -eps && e1 >= -eps && e2 >= -eps) ||
	              (e0 <= eps && e1 <= eps && e2 <= eps);
	bool same = all(lessThan(abs(v_color.xy * 64.0 - p), vec2(0.01)));
	o = vec4(inpix ? 1.0 : 0.0, inside ? 1.0 : 0.0,
	         same ? 1.0 : 0.0, 1.0);
}
