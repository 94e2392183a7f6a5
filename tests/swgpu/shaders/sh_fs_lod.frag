#version 460
#extension GL_ARB_sparse_texture_clamp : require
// Level of detail: implicit (from the quad), with a Bias, from Grad
// derivatives, an explicit Lod, textureQueryLod, projective (the LOD of
// the projected coordinates), MinLod (textureClampARB) and texelFetch
// of a sampled image, a ConstOffset, all on one mipmapped texture.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 g;
layout(location = 2) in float bias;
layout(location = 3) in float lodv;
layout(location = 0) out vec4 o_impl;
layout(location = 1) out vec4 o_bias;
layout(location = 2) out vec4 o_grad;
layout(location = 3) out vec4 o_lod;
layout(location = 4) out vec2 o_query;
layout(location = 5) out vec4 o_proj;
layout(location = 6) out vec4 o_clamp;
layout(location = 7) out vec4 o_fetch;
layout(location = 8) out vec4 o_off;
void main()
{
	o_impl = texture(tex, uv);
	o_bias = texture(tex, uv, bias);
	o_grad = textureGrad(tex, uv, g.xy, g.zw);
	o_lod = textureLod(tex, uv, lodv);
	o_query = textureQueryLod(tex, uv);
	o_proj = textureProj(tex, vec3(uv * 2.0, 2.0));
	o_clamp = textureClampARB(tex, uv, lodv);
	o_fetch = texelFetch(tex, ivec2(1, 1), 1);
	o_off = textureOffset(tex, uv, ivec2(1, -1));
}
