#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Descriptor arrays indexed per invocation (dynamic, non-uniform).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[3];
layout(set = 0, binding = 3) buffer C { uint count[4]; } c;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint k = i % 3u;
	uint x = bufs[nonuniformEXT(k)].v[i];
	bufs[nonuniformEXT((k + 1u) % 3u)].v[i + 64u] = x * 10u + k;
	atomicAdd(bufs[nonuniformEXT(k)].v[200], 1u);
	atomicAdd(c.count[k], 1u);
}
