#version 450
// Uses 16-bit floats: the engine does not support Float16, creation must
// fail.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer O { float o[]; };
void main()
{
	float16_t h = float16_t(o[1]);
	o[0] = float(h * h);
}
