#version 450
// SPDX-License-Identifier: MIT
// A small kernel for the pipeline-cache test: each pipeline built from a
// cache must still compute this.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;

	o[i] = i * i + 17u;
}
