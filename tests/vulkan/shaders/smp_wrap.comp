#version 450
// textureLod on a sampler2D only (query: x, y, lod): address modes,
// unnormalized coordinates (lod 0, no other sampling instruction) and
// depth images.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) readonly buffer I { vec4 q[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 r[]; };
layout(push_constant) uniform P { uint n; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i < n)
		r[i] = textureLod(tex, q[i].xy, q[i].z);
}
