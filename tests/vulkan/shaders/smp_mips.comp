#version 450
// A sampler2D over a mip chain: per query (x, y, lod, mode) one of
// textureLod, texelFetch, or textureSize(lod) with textureQueryLevels.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer I { vec4 q[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 r[]; };
layout(push_constant) uniform P { uint n; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= n)
		return;
	vec4 c = q[i];
	int mode = int(c.w);
	if (mode == 0)
		r[i] = textureLod(tex, c.xy, c.z);
	else if (mode == 1)
		r[i] = texelFetch(tex, ivec2(c.xy), int(c.z));
	else
		r[i] = vec4(vec2(textureSize(tex, int(c.z))),
		            float(textureQueryLevels(tex)), 0.0);
}
