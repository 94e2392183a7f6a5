#version 450
// One workgroup that never ends: it says it started (started = 1), then
// loops until stop becomes non-zero, which nobody writes. Only
// preemption inside the workgroup lets other work of its engine run, and
// only the watchdog ends it.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer F { uint started; uint stop; uint spins; } f;
void main()
{
	atomicExchange(f.started, 1u);
	while (atomicAdd(f.stop, 0u) == 0u)
		f.spins += 1u;
}
