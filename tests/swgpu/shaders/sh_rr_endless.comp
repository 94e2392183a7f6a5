#version 450
// One workgroup that never ends, counting its loop steps with an atomic
// (the host reads the count while it runs): only the watchdog ends it.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer F { uint started; uint stop; uint spins; } f;
void main()
{
	atomicExchange(f.started, 1u);
	while (atomicAdd(f.stop, 0u) == 0u)
		atomicAdd(f.spins, 1u);
}
