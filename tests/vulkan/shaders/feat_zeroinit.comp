#version 450
// Zero-initialized shared memory (VK_KHR_zero_initialize_workgroup_memory,
// GL_EXT_null_initializer): every workgroup sees zeros, even after an
// earlier group on the same thread wrote the memory.
#extension GL_EXT_null_initializer : require
layout(local_size_x = 64) in;
shared uint s[64] = {};
layout(set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
	uint i = gl_LocalInvocationID.x;
	uint seen = s[(i + 1) & 63u];   // before anyone writes: must be 0
	barrier();
	s[i] = 0xdead0000u | gl_WorkGroupID.x;
	barrier();
	o[gl_GlobalInvocationID.x] = seen + (s[63u - i] & 0xffffu);
}
