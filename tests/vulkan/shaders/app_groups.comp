#version 450
// One bit per workgroup: a dispatch of 2^20 workgroups, in one row (X up
// to 2^31 - 1 on desktop GPUs) or a 1024 x 1024 grid where X stops at
// 65535, marks each of its groups exactly once.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Bits { uint bits[]; };
void main()
{
	uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
	atomicOr(bits[g >> 5], 1u << (g & 31u));
}
