#version 450
// An FFT-style kernel's storage: the buffer is declared as a fixed-size
// array sized to the data, vec2 data[1 << 24] (128 MiB). Each invocation
// writes one element spread over the whole array (the last one
// included) and copies it, and one of a uniform block's 4096 vec4s, to
// the output.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { vec2 data[1 << 24]; };
layout(set = 0, binding = 1) buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform Table { vec4 t[4096]; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint k = i == 0u ? (1u << 24) - 1u : (i * 40503u) & ((1u << 24) - 1u);
	data[k] = vec2(float(k), -float(i));
	o[i] = vec4(data[k], t[i & 4095u].zw);
}
