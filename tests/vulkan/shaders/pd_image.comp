#version 450
// Push descriptors (test_vk_push_descriptor): a pushed R32_UINT storage
// image written from a pushed storage buffer: img(x, y) = in[y * w + x] +
// (x << 16 | y).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D img;
layout(set = 0, binding = 1) readonly buffer In { uint v[]; } src;
void main()
{
	uvec2 p = gl_GlobalInvocationID.xy;
	uint w = uint(imageSize(img).x);
	imageStore(img, ivec2(p), uvec4(src.v[p.y * w + p.x] + (p.x << 16 | p.y)));
}
