#version 460
// Fragment stage interface: inputs with every interpolation decoration
// the engine offers, the fragment built-in inputs, colour outputs of
// float, signed and unsigned types, FragDepth (depth_greater) and
// SampleMask; the early_fragment_tests mode is off here.
layout(location = 0) in vec4 color;
layout(location = 1) flat in ivec2 fl;
layout(location = 2) noperspective in vec2 np;
layout(location = 3) centroid in float ce;
layout(location = 4) in Inner {
	flat uint k;
	layout(location = 6) vec2 w;
} inner;

layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;
layout(location = 2) out uvec2 o2;
layout(depth_greater) out float gl_FragDepth;

void main()
{
	o0 = color * 2.0 + vec4(gl_FragCoord.xy, gl_FragCoord.z,
	                        gl_FragCoord.w);
	o1 = ivec4(fl, gl_FrontFacing ? 1 : 0, gl_HelperInvocation ? 1 : 0);
	o2 = uvec2(inner.k + 1u, uint(np.x + np.y + ce + inner.w.x +
	                              gl_PointCoord.x * 100.0));
	gl_FragDepth = gl_FragCoord.z + 0.25;
	gl_SampleMask[0] = 5;
}
