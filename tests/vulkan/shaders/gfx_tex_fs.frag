#version 450
// SPDX-License-Identifier: MIT
// Implicit-LOD sampling (pc.mode 0), or depth comparison against
// reference 0.5 through a shadow sampler (pc.mode 1), as grey.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow shadow;
layout(push_constant) uniform PC {
	layout(offset = 8) int mode;
} pc;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o;

void main()
{
	if (pc.mode == 1) {
		float s = texture(shadow, vec3(v_uv, 0.5));
		o = vec4(s, s, s, 1.0);
	} else {
		o = texture(tex, v_uv);
	}
}
