#version 450
// SPDX-License-Identifier: MIT
// Multisampled storage images (test_vk_msaa_storage): one invocation
// per texel of an 8 x 4 image, one workgroup per (layer, sample). Phase
// 0: imageAtomicAdd of the texel's code to that sample of src (returns
// the cleared value) and imageSamples; phase 1: imageLoad that sample of
// src, imageStore 2 v + 1 to the same sample of dst; phase 2: imageLoad
// of dst. Codes are unique per (layer, sample, y, x), so a sample read
// or written in another's place shows.
#extension GL_ARB_shader_texture_image_samples : require
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMSArray src;
layout(set = 0, binding = 1, r32ui) uniform uimage2DMSArray dst;
layout(set = 0, binding = 2) buffer O { uint v[]; };
layout(push_constant) uniform P { uint phase; uint S; uint n; } pc;

void main()
{
	int s = int(gl_WorkGroupID.z % pc.S);
	int layer = int(gl_WorkGroupID.z / pc.S);
	ivec3 p = ivec3(gl_LocalInvocationID.xy, layer);
	uint i = gl_WorkGroupID.z * 32u + gl_LocalInvocationIndex;

	if (pc.phase == 0u) {
		v[i] = imageAtomicAdd(src, p, s, i + 1u);
		v[pc.n + i] = uint(imageSamples(src));
	} else if (pc.phase == 1u) {
		uint a = imageLoad(src, p, s).x;
		imageStore(dst, p, s, uvec4(2u * a + 1u));
	} else {
		v[2u * pc.n + i] = imageLoad(dst, p, s).x;
	}
}
