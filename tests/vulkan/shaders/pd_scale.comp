#version 450
// Push descriptors (test_vk_push_descriptor): set 0 is a push set
// (input, params, output), set 1 a normal set (addend):
// out[i] = in[i] * scale + add[i] for i < count.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(set = 0, binding = 1) uniform Params { uint scale; uint count; } params;
layout(set = 0, binding = 2) writeonly buffer Out { uint v[]; } dst;
layout(set = 1, binding = 0) readonly buffer Add { uint v[]; } add;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i < params.count)
		dst.v[i] = src.v[i] * params.scale + add.v[i];
}
