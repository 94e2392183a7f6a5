#version 450
// SPDX-License-Identifier: MIT
// Comparisons (signed, unsigned, float; ordered) and selects, scalar and
// vector, and boolean logic; each lane writes one bit per predicate plus
// selected values.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint x = a[i], y = b[i];
	int sx = int(x), sy = int(y);
	float fx = float(sx >> 8), fy = float(sy >> 8);
	bool p[18] = bool[18](sx < sy, sx <= sy, sx > sy, sx >= sy, sx == sy,
	                      sx != sy, x < y, x <= y, x > y, x >= y,
	                      fx < fy, fx <= fy, fx > fy, fx >= fy, fx == fy,
	                      fx != fy, (x < y) != (sx < sy),
	                      (x < y) && !(fx > fy) || x == 0u);
	uint mask = 0u;

	for (int k = 0; k < 18; k++)
		mask |= p[k] ? 1u << k : 0u;
	o[i * 4u + 0u] = mask;
	o[i * 4u + 1u] = sx < sy ? x : y;
	bvec4 sel = bvec4(p[0], p[6], p[10], p[14]);
	uvec4 v = mix(uvec4(1u, 2u, 3u, 4u), uvec4(x), sel);
	o[i * 4u + 2u] = v.x + v.y * 3u + v.z * 5u + v.w * 7u;
	o[i * 4u + 3u] = uint(any(sel)) | uint(all(sel)) << 1 |
	                 uint(any(not(sel))) << 2;
}
