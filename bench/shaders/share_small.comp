#version 450
// The interactive device's small dispatch of the share figures: 4096
// invocations, each writes one word the host checks.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint seed; } pc;
layout(set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	o[i] = (i * 2654435761u) ^ pc.seed;
}
