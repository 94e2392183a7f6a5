#version 450
// A long, legitimate dispatch: each of its many workgroups spins on a
// flag the host writes for up to 65535 rounds (llvmpipe's own loop
// guard), then counts itself finished. Until the flag, the groups keep
// the dispatch busy one after another, each finishing (progress for the
// watchdog); after it each ends at once.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer F {
	uint go;
	uint started;
	uint finished;
} f;
void main()
{
	atomicExchange(f.started, 1u);
	for (uint a = 0u; a < 65535u && atomicAdd(f.go, 0u) == 0u; a++) {
	}
	atomicAdd(f.finished, 1u);
}
