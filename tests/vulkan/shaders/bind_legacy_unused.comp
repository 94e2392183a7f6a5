#version 450
// SPDX-License-Identifier: MIT
// Compiled for Vulkan 1.0 (SPIR-V 1.0, storage buffers as Uniform +
// BufferBlock, like most SPIR-V shipped with applications). It declares
// resources it never uses -- binding 1 of set 0 and a whole set 1 -- that
// the pipeline layout leaves out: Vulkan only requires the layout to cover
// the variables an entry point statically uses (HLSL's unused UAV counter
// buffers in SaschaWillems' computeheadless are the real-world case).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Data { uint v[]; };
layout(set = 0, binding = 1) buffer Unused { uint u[]; };
layout(set = 1, binding = 0) uniform UnusedSet { uint w; };

void main()
{
	uint i = gl_GlobalInvocationID.x;

	v[i] = v[i] * 3u + i;
}
