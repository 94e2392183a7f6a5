#version 450
// SPDX-License-Identifier: MIT
// An inline uniform block of 4096 bytes (maxInlineUniformBlockSize on
// swgpu and lavapipe) and a uniform buffer read at the end of its
// range (maxUniformBufferRange, up to 64 MiB here).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform Inline { uvec4 d[256]; } blk;
layout(set = 0, binding = 1) uniform Big { uvec4 d[1 << 22]; } big;
layout(set = 0, binding = 2) buffer O { uvec4 o[4]; };
layout(push_constant) uniform P { uint last; } pc;
void main()
{
	o[0] = blk.d[0];
	o[1] = blk.d[255];
	o[2] = big.d[0];
	o[3] = big.d[pc.last];
}
