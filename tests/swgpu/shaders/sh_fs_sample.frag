#version 460
// Per-sample shading (SampleRateShading) with one sample per pixel and
// the distances of the vertex stage as fragment inputs: a
// Sample-decorated input, gl_SampleID, gl_SamplePosition,
// gl_SampleMaskIn; gl_ClipDistance[] read at a constant and a dynamic
// index, gl_CullDistance[] (element 0 never read: the array is still
// one input); interpolateAtOffset / AtCentroid / AtSample of a
// noperspective input.
layout(location = 0) sample in vec4 c;
layout(location = 1) flat in int k;
layout(location = 2) noperspective in float lin;
in float gl_ClipDistance[3];
in float gl_CullDistance[2];
layout(location = 0) out vec4 o;
layout(location = 1) out ivec2 oi;
layout(location = 2) out vec3 oa;

void main()
{
	o = c + vec4(gl_ClipDistance[1], gl_ClipDistance[k],
	             gl_CullDistance[1], 0.0);
	o.w += gl_SamplePosition.x * 10.0 + gl_SamplePosition.y * 100.0;
	oi = ivec2(gl_SampleID, gl_SampleMaskIn[0]);
	oa = vec3(interpolateAtOffset(lin, vec2(0.25, -0.5)),
	          interpolateAtCentroid(lin), interpolateAtSample(lin, 0));
}
