#version 450
#extension GL_KHR_shader_subgroup_clustered : require
// A clustered subgroup reduction (capability GroupNonUniformClustered),
// which the engine does not offer, so creation must fail with a message.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
	o[gl_LocalInvocationIndex] =
		subgroupClusteredAdd(gl_LocalInvocationIndex, 4u);
}
