#version 450
// SPDX-License-Identifier: MIT
// Image atomics beyond R32_UINT images (test_vk_image_atomics): float add
// on an R32_SFLOAT storage image (shaderImageFloat32AtomicAdd), integer
// add and min on R32_UINT / R32_SINT storage texel buffers. 256
// invocations; each float add returns the texel's old value.
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform image2D fimg;      // 4 x 4
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer ubuf; // 16
layout(set = 0, binding = 2, r32i) uniform iimageBuffer ibuf;  // 16
layout(set = 0, binding = 3) writeonly buffer O { float old[]; };
void main()
{
	uint i = gl_GlobalInvocationID.x;

	old[i] = imageAtomicAdd(fimg, ivec2(i % 4u, (i / 4u) % 4u), 0.25);
	imageAtomicAdd(ubuf, int(i % 16u), i);
	imageAtomicMin(ibuf, int(i % 16u), -int(i));
}
