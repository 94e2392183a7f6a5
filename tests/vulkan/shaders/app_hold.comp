#version 450
// A dispatch that stays in flight until the host lets it go: each of
// its many workgroups spins on a flag the host writes (atomic reads, so
// the load is repeated) for up to 65535 rounds — llvmpipe ends a
// shader's loops there, its guard against endless shaders — then counts
// itself finished. Before the flag, the groups keep the dispatch busy
// one after another (for seconds on any driver); after it each ends at
// once.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer F {
	uint go;
	uint started;
	uint finished;   // workgroups done
	uint spins;
} f;
void main()
{
	uint n = 0u;
	atomicExchange(f.started, 1u);
	for (uint a = 0u; a < 65535u && atomicAdd(f.go, 0u) == 0u; a++)
		n++;
	atomicAdd(f.spins, n);
	atomicAdd(f.finished, 1u);
}
