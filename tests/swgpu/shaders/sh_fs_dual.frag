#version 460
// Dual-source blending outputs (Location 0, Index 0 and 1), the
// early_fragment_tests mode.
layout(early_fragment_tests) in;
layout(location = 0) in vec4 c;
layout(location = 0, index = 0) out vec4 src0;
layout(location = 0, index = 1) out vec4 src1;
void main()
{
	src0 = c;
	src1 = 1.0 - c;
}
