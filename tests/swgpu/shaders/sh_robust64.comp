#version 450
// robustBufferAccess2 for 64-bit scalars: a double or uint64 whose 8
// bytes straddle the end of the descriptor's range is out of range as a
// whole: it reads 0 and a store writes neither word.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer D { double d[]; };
layout(set = 0, binding = 1) buffer U { uint64_t u[]; };
layout(set = 0, binding = 2) buffer O { double od[2]; uint64_t ou[2]; };
layout(push_constant) uniform P { uint i; } pc;
void main()
{
	od[0] = d[pc.i - 1u];   // wholly in range
	od[1] = d[pc.i];        // straddles the end
	ou[0] = u[pc.i - 1u];
	ou[1] = u[pc.i];
	d[pc.i] = 1.5lf;        // must write nothing
	u[pc.i] = 0x1111111122222222ul;
}
