#version 450
// Seamless cube filtering: LINEAR samples at the directions given.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(set = 0, binding = 1) buffer O { vec4 dir[4]; vec4 o[4]; };
void main()
{
	uint i = gl_LocalInvocationID.x;
	o[i] = textureLod(cube, dir[i].xyz, 0.0);
}
