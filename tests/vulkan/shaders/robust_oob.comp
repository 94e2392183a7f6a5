#version 450
// SPDX-License-Identifier: MIT
// robustBufferAccess: lanes index far outside the bound ranges (up to
// 2^32 - 16 words); loads return 0 or values of the source buffer, stores
// and atomics touch nothing outside the destination buffer's memory, and
// the in-range lanes are exact.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };

layout(push_constant) uniform P { uint in_range; } pc;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint idx = i < pc.in_range ? i :
	           (i % 4u == 0u ? pc.in_range + i :
	            i % 4u == 1u ? 0x40000000u + i :
	            i % 4u == 2u ? 0xfffffff0u : 0x7fffffffu);

	o[i] = src[idx];
	if (i >= pc.in_range) {
		dst[idx] = 0xdead0000u + i;
		atomicAdd(dst[idx], 1u);
	}
}
