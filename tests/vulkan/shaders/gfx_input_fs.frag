#version 450
// SPDX-License-Identifier: MIT
// Reads the input attachment at the fragment's pixel and writes its
// complement; pc.mode 1 writes the input's depth (a second input) as
// grey instead.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput color_in;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInput depth_in;
layout(push_constant) uniform PC {
	layout(offset = 16) int mode;
} pc;
layout(location = 0) out vec4 o;

void main()
{
	if (pc.mode == 1) {
		float d = subpassLoad(depth_in).r;
		o = vec4(d, d, d, 1.0);
	} else {
		o = vec4(1.0) - subpassLoad(color_in);
	}
}
