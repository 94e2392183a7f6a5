#version 460
// Image writes and image atomics from a fragment shader
// (fragmentStoresAndAtomics): helper lanes do neither.
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(location = 0) out vec4 o;
void main()
{
	ivec2 p = ivec2(gl_FragCoord.xy);
	imageAtomicAdd(img, ivec2(0, 2), 1u);
	imageStore(img, p, uvec4(1u + uint(p.x) + 10u * uint(p.y)));
	o = vec4(1.0);
}
