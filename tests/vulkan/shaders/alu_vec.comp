#version 450
// SPDX-License-Identifier: MIT
// Vector and matrix arithmetic (ivec4, uvec4, vec4, mat4, mat2x3) on small
// integers so the float results are exact whatever the evaluation order.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { ivec4 o[]; };

const uint K = 12u;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	ivec4 x = a[i];
	ivec4 y = x.wzyx + ivec4(1, -2, 3, -4);
	uvec4 ux = uvec4(x), uy = uvec4(y);
	vec4 fx = vec4(x), fy = vec4(y);
	mat4 m = mat4(fx, fy, fx.yzwx, fy.zwxy);
	mat2x3 m23 = mat2x3(fx.xyz, fy.xyz);
	uint base = i * K;

	o[base + 0u] = x + y * 3 - (x & y);
	o[base + 1u] = ivec4(ux * uy + (ux >> 3u) ^ uy);
	o[base + 2u] = ivec4(fx * fy - fx * 0.5 * 4.0);
	o[base + 3u] = ivec4(m * fy);
	o[base + 4u] = ivec4(fy * m);
	o[base + 5u] = ivec4((m * transpose(m))[1]);
	o[base + 6u] = ivec4(m23 * fx.zw, dot(fx, fy));
	o[base + 7u] = ivec4(cross(fx.xyz, fy.xyz), dot(x.xy, ivec2(1)));
	o[base + 8u] = ivec4(min(x, y).xy, max(ux, uy).zw);
	o[base + 9u] = ivec4(x.zzxy * 2 + y.wxyw);
	o[base + 10u] = ivec4(lessThan(x, y)) + ivec4(equal(fx, fy)) * 2 +
	                ivec4(greaterThanEqual(ux, uy)) * 4;
	o[base + 11u] = ivec4(abs(x - y).xyz * sign(x).xyz,
	                      int(round(length(vec2(3.0, 4.0) * fx.x))));
}
