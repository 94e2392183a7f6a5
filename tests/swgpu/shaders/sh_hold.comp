#version 450
// Holds a dispatch in flight until the host says so: one invocation spins
// on a flag the host writes (an atomic read, so the load is repeated),
// then every invocation writes its result. Used to keep a DISPATCH
// running for as long as a test needs, whatever the machine's speed.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer F { uint go; uint started; uint spins; } f;
layout(set = 0, binding = 1) buffer O { uint o[]; };
void main()
{
	if (gl_LocalInvocationIndex == 0u) {
		uint n = 0u;
		atomicAdd(f.started, 1u);
		while (atomicAdd(f.go, 0u) == 0u)
			n++;
		atomicExchange(f.spins, n + 1u);
	}
	barrier();
	o[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + 1u;
}
