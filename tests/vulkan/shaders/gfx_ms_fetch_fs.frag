#version 450
// SPDX-License-Identifier: MIT
// Fetches every sample of a multisampled texture at the fragment's
// pixel (texelFetch with a sample index): red = the mask of samples whose
// red is above one half (bit s: sample s); green = textureSamples x 16,
// plus 1 when textureSize is the 64x64 of the tests.
layout(set = 0, binding = 0) uniform sampler2DMS ms;
layout(location = 0) out vec4 o;

void main()
{
	ivec2 p = ivec2(gl_FragCoord.xy);
	int n = textureSamples(ms);
	uint mask = 0u;
	for (int s = 0; s < n; s++)
		if (texelFetch(ms, p, s).r > 0.5)
			mask |= 1u << s;
	uint g = uint(n) * 16u + (textureSize(ms) == ivec2(64, 64) ? 1u : 0u);
	o = vec4(float(mask) / 255.0, float(g) / 255.0, 0.0, 1.0);
}
