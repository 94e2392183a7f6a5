#version 450
// 128 KiB of shared memory: over maxComputeSharedMemorySize (64 KiB);
// creation must fail naming the variable.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer O { float o[]; };
shared float tile[1 << 15];
void main()
{
	tile[gl_LocalInvocationIndex * 512u] = o[gl_LocalInvocationIndex];
	barrier();
	o[gl_LocalInvocationIndex] = tile[(63u - gl_LocalInvocationIndex) * 512u];
}
