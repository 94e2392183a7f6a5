#version 450
// A workgroup that never ends: it spins on a storage-buffer word nobody
// changes (atomic reads, so the load is repeated). On swgpu the watchdog
// ends it (device lost); the test writes go only on drivers without one.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer F {
	uint go;
	uint started;
	uint finished;
} f;
void main()
{
	atomicExchange(f.started, 1u);
	while (atomicAdd(f.go, 0u) == 0u) {
	}
	atomicExchange(f.finished, 1u);
}
