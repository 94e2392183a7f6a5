#version 450
// SPDX-License-Identifier: MIT
// Limits: the largest workgroup the device reports (size from a
// specialization constant) using all the shared memory it reports (words
// from another); every invocation fills its slice, a barrier, then each
// reads a slice written by another invocation.
layout(local_size_x_id = 0) in;

layout(constant_id = 1) const uint WORDS = 1024u;

layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };

shared uint big[WORDS];

void main()
{
	uint l = gl_LocalInvocationID.x;
	uint n = gl_WorkGroupSize.x;
	uint g = gl_WorkGroupID.x;
	uint sum = 0u;

	for (uint k = l; k < WORDS; k += n)
		big[k] = k * 2654435761u + g;
	barrier();
	for (uint k = (l + 1u) % n; k < WORDS; k += n)
		sum += big[k];
	o[g * n + l] = sum;
}
