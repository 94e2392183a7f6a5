#version 450
// Depth-compare sampling in a compute shader (explicit LOD, projective,
// and a gather): the comparison op comes from the sampler.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow sh;
layout(set = 0, binding = 1) buffer O { float o[]; };
void main()
{
	o[0] = textureLod(sh, vec3(0.25, 0.5, 0.5), 0.0);
	o[1] = textureLod(sh, vec3(0.75, 0.5, 0.5), 0.0);
	o[2] = textureProjLod(sh, vec4(0.375, 0.25, 0.25, 0.5), 0.0);
	vec4 g = textureGather(sh, vec2(0.5, 0.5), 0.5);
	o[3] = g.x;
	o[4] = g.y;
	o[5] = g.z;
	o[6] = g.w;
}
