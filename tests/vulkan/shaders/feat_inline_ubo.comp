#version 450
// Inline uniform block (binding 0, 32 bytes in the descriptor set) read
// into a storage buffer.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform U { uvec4 a; uvec4 b; } u;
layout(set = 0, binding = 1) buffer O { uint o[]; };
void main()
{
	uint i = gl_LocalInvocationID.x;
	o[i] = i < 4u ? u.a[i] : u.b[i - 4u];
}
