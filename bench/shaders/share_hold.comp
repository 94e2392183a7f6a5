#version 450
// The other device's work of the share figures (issue 20 item 7).
// endless: one workgroup that loops until the host writes go (it never
// does while the figure is measured). long: pc.groups workgroups of
// pc.steps LCG steps each (a legitimate dispatch of about a second);
// each writes its result and counts itself done.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint steps; uint endless; } pc;
layout(set = 0, binding = 0) coherent buffer F { uint go; uint started; uint done; } f;
layout(set = 0, binding = 1) buffer O { uint o[]; };
void main()
{
	uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
	if (gl_LocalInvocationIndex == 0u)
		atomicAdd(f.started, 1u);
	if (pc.endless != 0u) {
		if (gl_LocalInvocationIndex == 0u)
			while (atomicAdd(f.go, 0u) == 0u) {
			}
		return;
	}
	uint x = g * 64u + gl_LocalInvocationIndex;
	for (uint i = 0u; i < pc.steps; i++)
		x = x * 1664525u + 1013904223u;
	o[g * 64u + gl_LocalInvocationIndex] = x;
	barrier();
	if (gl_LocalInvocationIndex == 0u)
		atomicAdd(f.done, 1u);
}
