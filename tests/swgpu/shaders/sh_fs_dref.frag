#version 460
// Depth comparison in a fragment shader: the 8 compare ops (one sampler
// each), a LINEAR (percentage-closer) sampler, projective, a Dref
// gather.
layout(set = 0, binding = 0) uniform texture2D depth;
layout(set = 0, binding = 1) uniform samplerShadow smp[8];
layout(set = 0, binding = 9) uniform sampler2DShadow pcf;
layout(location = 0) in vec2 uv;
layout(location = 1) in float ref;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
void main()
{
	for (int i = 0; i < 4; i++) {
		o0[i] = texture(sampler2DShadow(depth, smp[i]), vec3(uv, ref));
		o1[i] = texture(sampler2DShadow(depth, smp[4 + i]),
		                vec3(uv, ref));
	}
	o2 = vec4(texture(pcf, vec3(uv, ref)),
	          textureProj(pcf, vec4(uv * 4.0, ref * 4.0, 4.0)),
	          textureLod(pcf, vec3(uv, ref), 0.0), 0.0);
	o3 = textureGather(sampler2DShadow(depth, smp[1]), uv, ref);
}
