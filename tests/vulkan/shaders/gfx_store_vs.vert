#version 450
// SPDX-License-Identifier: MIT
// gfx_px_vs that also stores (vertexPipelineStoresAndAtomics): each
// vertex writes its index + 1 and counts itself atomically.
layout(push_constant) uniform PC {
	vec2 size;
} pc;
layout(set = 0, binding = 0) buffer B {
	uint fragments;
	uint vertices;
	uint written[];
} b;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) flat out vec4 v_color;

void main()
{
	gl_Position = vec4(pos.xy / pc.size * 2.0 - 1.0, pos.z, 1.0);
	v_color = color;
	b.written[gl_VertexIndex] = uint(gl_VertexIndex) + 1u;
	atomicAdd(b.vertices, 1u);
}
