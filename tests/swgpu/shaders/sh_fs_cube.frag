#version 460
// Implicit LOD of a cube map: derivatives of the direction moved onto
// the face; textureQueryLod tells the LOD.
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(location = 0) in vec3 dir;
layout(location = 0) out vec4 o;
layout(location = 1) out vec2 q;
void main()
{
	o = texture(cube, dir);
	q = textureQueryLod(cube, dir);
}
