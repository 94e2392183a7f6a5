#version 460
// Stores, atomics and image writes from a vertex shader
// (vertexPipelineStoresAndAtomics), with push and specialization
// constants.
layout(set = 0, binding = 0) buffer B { uint count; uint ids[]; };
layout(set = 0, binding = 1, r32ui) uniform uimage2D img;
layout(push_constant) uniform P { uint base; } pc;
layout(constant_id = 0) const uint K = 1;
void main()
{
	uint i = atomicAdd(count, 1u);
	ids[gl_VertexIndex] = uint(gl_VertexIndex) * K + pc.base;
	imageStore(img, ivec2(gl_VertexIndex, 0), uvec4(i + 100u));
	gl_Position = vec4(0.0);
}
