#version 450
// Reads a storage image without a format (capability
// StorageImageReadWithoutFormat): the engine does not support it,
// creation must fail.
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform image2D img;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main()
{
	o[0] = imageLoad(img, ivec2(0));
}
