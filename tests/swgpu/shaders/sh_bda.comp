#version 450
// Buffer device addresses: atomics and stores through a 64-bit address
// from push constants (PhysicalStorageBuffer64).
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 32) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counter {
	uint n;
	uint hist[4];
	uint ids[];
};
layout(push_constant) uniform P { Counter c; } pc;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	atomicAdd(pc.c.n, 1u);
	atomicAdd(pc.c.hist[i & 3u], i);
	pc.c.ids[i] = i * 3u + 1u;
}
