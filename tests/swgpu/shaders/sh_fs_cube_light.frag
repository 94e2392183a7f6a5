#version 400
#extension GL_ARB_separate_shader_objects : enable
#extension GL_ARB_shading_language_420pack : enable
// vkcube's fragment shader (Vulkan-Tools cube.frag): face normal from
// derivatives, Lambert light, times a texture; what ir_opt.c is for.
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 texcoord;
layout(location = 1) in vec3 frag_pos;
layout(location = 0) out vec4 uFragColor;
const vec3 lightDir = vec3(0.424, 0.566, 0.707);
void main()
{
	vec3 dX = dFdx(frag_pos);
	vec3 dY = dFdy(frag_pos);
	vec3 normal = normalize(cross(dX, dY));
	float light = max(0.0, dot(lightDir, normal));
	uFragColor = light * texture(tex, texcoord.xy);
}
