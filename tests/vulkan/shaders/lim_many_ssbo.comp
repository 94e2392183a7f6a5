#version 450
// SPDX-License-Identifier: MIT
// As many storage buffers as a stage may use, in one binding array sized
// by a specialization constant: workgroup g writes buffer g (a
// dynamically uniform index).
layout(local_size_x = 64) in;
layout(constant_id = 0) const int N = 1;
layout(set = 0, binding = 0) buffer B { uint v[64]; } b[N];
void main()
{
	uint g = gl_WorkGroupID.x;
	b[g].v[gl_LocalInvocationIndex] = g * 1000u + gl_LocalInvocationIndex;
}
