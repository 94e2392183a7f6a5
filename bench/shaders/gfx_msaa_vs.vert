#version 450
// SPDX-License-Identifier: MIT
// gfx_msaa_fill: a full-screen triangle, no vertex buffer (gfx_fill's).
void main()
{
	vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
