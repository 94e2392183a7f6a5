#version 450
// Arrays as large as the buffers holding them (issue 16): a fixed-size
// vec2 array of 2^24 elements (128 MiB) in a storage buffer, a vec4
// array of 2^20 (16 MiB) in a uniform buffer, the same 2^24-element
// block reached through a buffer device address, and a runtime index
// past 4 GiB / stride that must stay out of range (never wrap).
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Big { vec2 data[1 << 24]; };
layout(set = 0, binding = 1) uniform U { vec4 u[1 << 20]; };
layout(set = 0, binding = 2) buffer O { uvec4 o[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer PBig {
	vec2 d[1 << 24];
};
layout(push_constant) uniform P { PBig p; uint far; } pc;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	// Spread over the whole array, first and last element included.
	uint k = i == 1u ? (1u << 24) - 1u : (i * 16411u + 5u) & ((1u << 24) - 1u);
	data[k] = vec2(float(k), 2.0);
	uint j = i == 1u ? (1u << 20) - 1u : (i * 4099u) & ((1u << 20) - 1u);
	o[i].x = floatBitsToUint(u[j].y);
	o[i].y = floatBitsToUint(pc.p.d[k].x);
	// pc.far * 8 bytes is past 4 GiB: out of range, reads 0 (a 32-bit
	// offset would wrap onto data[0], which no invocation writes).
	o[i].z = floatBitsToUint(data[pc.far + i * 0u].y);
	o[i].w = k;
}
