#version 450
// SPDX-License-Identifier: MIT
// Counts its fragments atomically (fragmentStoresAndAtomics); helper
// invocations store nothing, so the count is the covered pixels.
layout(set = 0, binding = 0) buffer B {
	uint fragments;
	uint vertices;
	uint written[];
} b;
layout(location = 0) flat in vec4 v_color;
layout(location = 0) out vec4 o;

void main()
{
	atomicAdd(b.fragments, 1u);
	o = v_color;
}
