#version 450
// Cube array sampling: the face of each major axis, per cube layer.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerCubeArray cubes;
layout(set = 0, binding = 1) buffer O { vec4 o[12]; };
void main()
{
	const vec3 dir[6] = vec3[](vec3(1, 0.2, -0.3), vec3(-1, 0.1, 0.4),
	                           vec3(0.3, 1, 0.2), vec3(-0.2, -1, 0.1),
	                           vec3(0.1, -0.3, 1), vec3(0.4, 0.2, -1));
	for (int l = 0; l < 2; l++)
		for (int f = 0; f < 6; f++)
			o[6 * l + f] = textureLod(cubes, vec4(dir[f], l), 0.0);
}
