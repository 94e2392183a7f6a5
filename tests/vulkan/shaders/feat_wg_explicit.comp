#version 450
// Workgroup memory in an explicit layout (GL_EXT_shared_memory_block /
// VK_KHR_workgroup_memory_explicit_layout): the three blocks alias the
// same bytes, so words written through one are read back as bytes,
// 16-bit halves and 64-bit values through the others; every workgroup
// starts with zeroed shared memory.
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8) in;
shared A { uint words[8]; uint after; } a;
shared B { uint8_t bytes[32]; } b;
shared C { uint16_t halves[16]; uint64_t big[2]; } c;
layout(set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
	uint i = gl_LocalInvocationID.x;
	uint before = a.after;            // zero: a fresh workgroup
	barrier();
	a.words[i] = 0x04030201u * (i + 1u);
	if (i == 0u)
		a.after = 0xabcdef01u;
	barrier();
	o[i] = uint(b.bytes[4u * i + 1u]);          // second byte of word i
	o[8u + i] = uint(c.halves[2u * i + 1u]);    // high half of word i
	if (i == 0u) {
		o[16] = uint(c.big[0]);                 // a.after (offset 32)
		o[17] = uint(c.big[0] >> 32);           // offset 36: still 0
		o[18] = before;
		b.bytes[3] = uint8_t(0xee);             // top byte of word 0
	}
	barrier();
	if (i == 0u)
		o[19] = a.words[0];
}
