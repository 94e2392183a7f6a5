#version 450
// Uniform buffer (dynamic offset in the test) read into a storage buffer.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
layout(set = 0, binding = 1) uniform U { uvec4 v[4]; } u;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	o[i] = u.v[i % 4u][(i / 4u) % 4u] + i * 1000u;
}
