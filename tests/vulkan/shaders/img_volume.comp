#version 450
// A 3D R32F image, a 2D-array RG16UI image view, two R32I storage texel
// buffers (picked per invocation) and an R16UI uniform texel buffer.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0, r32f) uniform image3D vol;
layout(set = 0, binding = 1, rg16ui) uniform uimage2DArray arr;
layout(set = 0, binding = 2, r32i) uniform iimageBuffer tb0;
layout(set = 0, binding = 3, r32i) uniform iimageBuffer tb1;
layout(set = 0, binding = 4) uniform usamplerBuffer ub;
layout(set = 0, binding = 5) buffer O { ivec4 sizes; int fetched[]; };
void main()
{
	ivec3 p = ivec3(gl_GlobalInvocationID);
	imageStore(vol, p, vec4(float(p.x + 10 * p.y + 100 * p.z)));
	imageStore(arr, p, uvec4(p.x + p.y, p.z, 0, 0));
	int i = p.x + 4 * p.y + 16 * p.z;
	if ((i & 1) == 0)
		imageStore(tb0, i / 2, ivec4(-i));
	else
		imageStore(tb1, i / 2, ivec4(-i));
	fetched[i] = int(texelFetch(ub, i).x);
	if (i == 0)
		sizes = ivec4(imageSize(vol).z, imageSize(arr).z,
		              imageSize(tb1), textureSize(ub));
}
