#version 450
// Each workgroup spins n LCG steps, then stores its result: a dispatch
// whose length is set by n and the group count, and that keeps finishing
// workgroups (progress for the watchdog) the whole time. The store is an
// atomic exchange because the host polls o[] while the dispatch runs (a
// plain store would race with that atomic load; ThreadSanitizer says so).
layout(local_size_x = 1) in;
layout(push_constant) uniform P { uint n; } pc;
layout(set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
	uint x = gl_WorkGroupID.x;
	for (uint i = 0u; i < pc.n; i++)
		x = x * 1664525u + 1013904223u;
	atomicExchange(o[gl_WorkGroupID.x], x);
}
