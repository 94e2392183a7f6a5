#version 450
// A usampler2D (R32_UINT, NEAREST): per query (x, y, lod, mode)
// textureLod or texelFetch; unsigned results.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform usampler2D tex;
layout(set = 0, binding = 1) readonly buffer I { vec4 q[]; };
layout(set = 0, binding = 2) writeonly buffer O { uvec4 r[]; };
layout(push_constant) uniform P { uint n; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= n)
		return;
	vec4 c = q[i];
	if (int(c.w) == 0)
		r[i] = textureLod(tex, c.xy, c.z);
	else
		r[i] = texelFetch(tex, ivec2(c.xy), int(c.z));
}
