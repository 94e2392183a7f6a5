#version 450
// A Function array of 2^21 floats: registers per invocation, over the
// engine's limit; creation must fail naming the variable.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer O { float o[]; };
void main()
{
	float scratch[1 << 21];
	for (uint i = 0u; i < 4u; i++)
		scratch[i * 1000u + uint(o[i])] = float(i);
	o[0] = scratch[uint(o[1])];
}
