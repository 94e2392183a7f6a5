#version 450
// Storage images and texel buffers through views (test_icd_views.c): a
// 2D-array view at mip 1 / layer 1 of an RGBA8 image, R32_UINT atomics
// through a view of a mutable RGBA8 image, a 3D R32F view of mip 1, an
// R16_UINT uniform texel buffer and an R32_SINT storage texel buffer at
// offsets, and the sizes the views report.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2DArray src;
layout(set = 0, binding = 1, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 2, r32f) uniform writeonly image3D vol;
layout(set = 0, binding = 3) uniform usamplerBuffer utb;
layout(set = 0, binding = 4, r32i) uniform writeonly iimageBuffer stb;
layout(set = 0, binding = 5) buffer O {
	uvec4 sizes[2];
	uint texels[32];
	uint fetched[32];
};
void main()
{
	ivec3 p = ivec3(gl_GlobalInvocationID);
	uint i = gl_LocalInvocationIndex;

	texels[i] = packUnorm4x8(imageLoad(src, p));
	imageAtomicAdd(counts, p.xy / 2, 1u + uint(p.z));
	if (p.x < 2 && p.y < 2)
		imageStore(vol, p, vec4(float(p.x + 10 * p.y + 100 * p.z)));
	fetched[i] = texelFetch(utb, int(i)).x;
	if (i < 16u)
		imageStore(stb, int(i), ivec4(-int(i) - 1));
	if (i == 0u) {
		sizes[0] = uvec4(imageSize(src), textureSize(utb));
		sizes[1] = uvec4(imageSize(vol), imageSize(stb));
	}
}
