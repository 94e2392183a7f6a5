#version 450
// SPDX-License-Identifier: MIT
// The distances the vertex stage wrote, interpolated, as a colour:
// ClipDistance[0], ClipDistance[1], CullDistance[0], and ClipDistance
// at the index pc.k (a dynamic index).
layout(push_constant) uniform PC {
	layout(offset = 8) int k;
} pc;
in float gl_ClipDistance[2];
in float gl_CullDistance[1];
layout(location = 0) out vec4 o;

void main()
{
	o = vec4(gl_ClipDistance[0], gl_ClipDistance[1], gl_CullDistance[0],
	         gl_ClipDistance[pc.k]);
}
