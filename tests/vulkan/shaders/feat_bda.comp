#version 450
// SPDX-License-Identifier: MIT
// Buffer device addresses: the shader reaches two buffers through 64-bit
// addresses passed in push constants (PhysicalStorageBuffer64), follows a
// pointer stored in memory, and writes through another.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words {
	uint w[];
};
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node {
	Words data;   // a pointer stored in memory
	uint scale;
};

layout(push_constant) uniform Push {
	Node node;
	Words dst;
	uint count;
} pc;

void main()
{
	uint i = gl_GlobalInvocationID.x;

	if (i < pc.count)
		pc.dst.w[i] = pc.node.data.w[i] * pc.node.scale + i;
}
