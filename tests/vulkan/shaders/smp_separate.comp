#version 450
// Separate texture2D and sampler descriptors combined in the shader: a
// written sampler, an immutable sampler, and a combined image sampler
// whose sampler is immutable. Three results per query (x, y, lod).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1) uniform sampler s;
layout(set = 0, binding = 2) uniform sampler imm;
layout(set = 0, binding = 3) uniform sampler2D cimm;
layout(set = 0, binding = 4) readonly buffer I { vec4 q[]; };
layout(set = 0, binding = 5) writeonly buffer O { vec4 r[]; };
layout(push_constant) uniform P { uint n; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= n)
		return;
	vec4 c = q[i];
	r[3 * i + 0] = textureLod(sampler2D(t, s), c.xy, c.z);
	r[3 * i + 1] = textureLod(sampler2D(t, imm), c.xy, c.z);
	r[3 * i + 2] = textureLod(cimm, c.xy, c.z);
}
