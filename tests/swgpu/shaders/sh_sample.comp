#version 450
#extension GL_EXT_samplerless_texture_functions : require
// Sampling in the engine: a combined image sampler and a separate
// texture + sampler pair (descriptor arrays of 2), explicit LOD, size
// and level queries, texelFetch of level 1.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D comb;
layout(set = 0, binding = 1) uniform texture2D tex[2];
layout(set = 0, binding = 2) uniform sampler smp[2];
layout(set = 0, binding = 3) buffer O { vec4 v[16]; ivec4 q[4]; } o;
layout(push_constant) uniform P { vec4 uv[4]; float lod[4]; int ti, si; } p;
void main()
{
	for (int i = 0; i < 4; i++) {
		o.v[i] = textureLod(comb, p.uv[i].xy, p.lod[i]);
		o.v[4 + i] = textureLod(sampler2D(tex[p.ti], smp[p.si]),
		                        p.uv[i].xy, p.lod[i]);
	}
	o.v[8] = texelFetch(comb, ivec2(1, 0), 1);
	o.q[0] = ivec4(textureSize(comb, 0), textureSize(comb, 1));
	o.q[1] = ivec4(textureQueryLevels(comb), textureQueryLevels(tex[1]),
	               0, 0);
}
