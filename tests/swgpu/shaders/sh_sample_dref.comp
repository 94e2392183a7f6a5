#version 450
// Depth-compare sampling: not offered by the engine (creation fails).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow sh;
layout(set = 0, binding = 1) buffer O { float o[]; };
void main()
{
	o[0] = textureLod(sh, vec3(0.5, 0.5, 0.5), 0.0);
}
