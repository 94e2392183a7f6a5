#version 450
// A small, normal dispatch: 64 groups of 64 invocations, each writes a
// value derived from its index and a seed.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer O { uint v[]; } o;
layout(push_constant) uniform P { uint seed; } p;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	o.v[i] = (i * 2654435761u) ^ p.seed;
}
