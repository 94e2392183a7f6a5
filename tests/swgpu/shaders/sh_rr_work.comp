#version 450
// Legitimate long work: every lane steps its own LCG pc.steps times and
// writes the result; lane 0 of each workgroup counts the workgroup done,
// so the host sees how far the dispatch is while it runs.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint steps; } pc;
layout(set = 0, binding = 0) buffer F { uint done; } f;
layout(set = 0, binding = 1) buffer O { uint o[]; };
void main()
{
	uint id = gl_GlobalInvocationID.x;
	uint x = id * 7u + 3u;
	for (uint i = 0u; i < pc.steps; i++)
		x = x * 1664525u + 1013904223u;
	o[id] = x;
	barrier();
	if (gl_LocalInvocationIndex == 0u)
		atomicAdd(f.done, 1u);
}
