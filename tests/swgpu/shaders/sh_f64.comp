#version 450
// Uses doubles: the engine does not support Float64, creation must fail.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer O { double o[]; };
void main()
{
	o[0] = o[1] * 2.0lf;
}
