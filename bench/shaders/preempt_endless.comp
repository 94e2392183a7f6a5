#version 450
// bench_preempt: a workgroup that runs until the host says stop.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer F { uint started; uint stop; } f;
void main()
{
	if (gl_LocalInvocationIndex == 0u)
		atomicExchange(f.started, 1u);
	while (atomicAdd(f.stop, 0u) == 0u) {
	}
}
