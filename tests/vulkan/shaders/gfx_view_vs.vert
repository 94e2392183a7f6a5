#version 460
// SPDX-License-Identifier: MIT
// Multiview: a 16x24-pixel quad (4 strip vertices from VertexIndex) on a
// 64x64 target whose place depends on ViewIndex: [4 + 8v, 20 + 8v) x
// [8 + 4v, 32 + 4v) in view v, so a driver that drew every view alike
// (or into the wrong layer) shows it.
#extension GL_EXT_multiview : require

void main()
{
	int v = int(gl_ViewIndex);
	vec2 c = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
	vec2 px = vec2(4 + 8 * v, 8 + 4 * v) + c * vec2(16.0, 24.0);
	gl_Position = vec4(px / 32.0 - 1.0, 0.0, 1.0);
}
