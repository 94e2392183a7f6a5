#version 450
// Storage images: load RGBA8 (unorm -> float), store RGBA32F, atomics on
// R32_UINT, sizes, and accesses outside the image (read 0, write nothing).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 3) buffer O { uvec4 sizes; vec4 oob; uint old[]; };
void main()
{
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	vec4 v = imageLoad(src, p);
	imageStore(dst, p, v * 2.0);
	uint prev = imageAtomicAdd(counts, p / 4, 1u);
	atomicMax(old[0], prev);
	if (p == ivec2(0)) {
		sizes = uvec4(imageSize(src), imageSize(dst));
		oob = imageLoad(src, ivec2(16, 0)) + imageLoad(src, ivec2(-1, 3));
		imageStore(dst, ivec2(0, 16), vec4(7.0));
	}
}
