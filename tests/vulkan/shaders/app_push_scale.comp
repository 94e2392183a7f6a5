#version 450
// out[i] = in[i] * 3 + 1, both buffers pushed (VK_KHR_push_descriptor),
// compiled for Vulkan 1.0 (SPIR-V 1.0) like an application written
// against Vulkan 1.0 + extensions.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer I { uint v[]; } src;
layout(set = 0, binding = 1) writeonly buffer O { uint v[]; } dst;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	dst.v[i] = src.v[i] * 3u + 1u;
}
