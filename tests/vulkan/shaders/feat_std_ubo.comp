#version 450
// uniformBufferStandardLayout: a uniform block in std430 layout (float
// array stride 4, vec3 then float packed in 16 bytes); and
// subgroupBroadcastDynamicId: the lane to broadcast from is a run-time
// (dynamically uniform) value.
#extension GL_EXT_scalar_block_layout : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) uniform U { float a[8]; vec3 v; float w; uint pick; };
layout(set = 0, binding = 1) buffer O { float o[]; };
void main()
{
	uint i = gl_LocalInvocationID.x;
	float x = a[i & 7u] + v.y + w;
	o[i] = subgroupBroadcast(x, pick & (gl_SubgroupSize - 1u)) + float(i);
	if (i == 0u)
		o[32] = float(gl_SubgroupSize);
}
