#version 450
// A workgroup that runs until the host says so, then a fixed number of
// steps: it can be preempted and resumed (on either compute engine) any
// number of times. Each lane steps its own LCG and counts its steps, so
// the host checks every lane bit for bit (x = LCG^(n + steps)(seed));
// shared memory and a barrier make the lanes' states depend on each
// other at the end.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint steps; } pc;
layout(set = 0, binding = 0) buffer F { uint go; uint started; } f;
layout(set = 0, binding = 1) buffer O { uint o[]; };
shared uint sh[64];
void main()
{
	uint lane = gl_LocalInvocationIndex;
	uint id = gl_GlobalInvocationID.x;
	uint x = id * 7u + 3u;
	uint n = 0u;
	if (lane == 0u)
		atomicAdd(f.started, 1u);
	while (atomicAdd(f.go, 0u) == 0u) {
		x = x * 1664525u + 1013904223u;
		n++;
	}
	for (uint i = 0u; i < pc.steps; i++)
		x = x * 1664525u + 1013904223u;
	sh[lane] = x;
	barrier();
	o[2u * id] = x ^ sh[(lane + 1u) & 63u];
	o[2u * id + 1u] = n;
}
