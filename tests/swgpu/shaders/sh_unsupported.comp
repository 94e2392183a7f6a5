#version 450
// SPDX-License-Identifier: MIT
// A sparse image load (capability SparseResidency), which the engine
// does not offer (no sparse residency), so creation must fail with a
// message.
#extension GL_ARB_sparse_texture2 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D img;
layout(set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
void main()
{
	vec4 v;
	int r = sparseImageLoadARB(img, ivec2(gl_LocalInvocationIndex, 0), v);
	o[gl_LocalInvocationIndex] = sparseTexelsResidentARB(r) ? v : vec4(0.0);
}
