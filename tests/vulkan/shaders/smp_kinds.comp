#version 450
// Other sampled image kinds, lod 0: per query (x, y, z, mode) a
// sampler2DArray (z = layer), a sampler3D, a samplerCube (xyz =
// direction), or the size of one of them.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2DArray arr;
layout(set = 0, binding = 1) uniform sampler3D vol;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) readonly buffer I { vec4 q[]; };
layout(set = 0, binding = 4) writeonly buffer O { vec4 r[]; };
layout(push_constant) uniform P { uint n; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= n)
		return;
	vec4 c = q[i];
	int mode = int(c.w);
	if (mode == 0)
		r[i] = textureLod(arr, c.xyz, 0.0);
	else if (mode == 1)
		r[i] = textureLod(vol, c.xyz, 0.0);
	else if (mode == 2)
		r[i] = textureLod(cube, c.xyz, 0.0);
	else if (mode == 3)
		r[i] = vec4(vec3(textureSize(arr, 0)), 0.0);
	else if (mode == 4)
		r[i] = vec4(vec3(textureSize(vol, 0)), 0.0);
	else
		r[i] = vec4(vec2(textureSize(cube, 0)), 0.0, 0.0);
}
