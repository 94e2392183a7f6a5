#version 450
// SPDX-License-Identifier: MIT
// Reads each sample of a 4-sample input attachment (subpassLoad with a
// sample index): red = the mask of samples whose red is above one half
// (bit s: sample s), green = the number of such samples x 16.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS ms_in;
layout(location = 0) out vec4 o;

void main()
{
	uint mask = 0u, n = 0u;
	for (int s = 0; s < 4; s++)
		if (subpassLoad(ms_in, s).r > 0.5) {
			mask |= 1u << s;
			n++;
		}
	o = vec4(float(mask) / 255.0, float(n * 16u) / 255.0, 0.0, 1.0);
}
