#version 450
// SPDX-License-Identifier: MIT
// A multisampled storage image (capability StorageImageMultisample),
// which the engine does not offer, so creation must fail with a message.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2DMS img;
void main()
{
	imageStore(img, ivec2(gl_LocalInvocationIndex, 0), 0, vec4(1.0));
}
