#version 450
#extension GL_ARB_shader_clock : require
// Reads the shader clock (capability ShaderClockKHR), which the engine
// does not offer, so creation must fail with a message.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer O { uvec2 o[]; };
void main()
{
	o[0] = clock2x32ARB();
}
