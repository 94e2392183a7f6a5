#version 450
// Samples a texture: the engine offers storage images and texel buffers
// but no texture sampling, so creation must fail with a message.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main()
{
	o[0] = textureLod(tex, vec2(0.5), 0.0);
}
