#version 460
#extension GL_EXT_demote_to_helper_invocation : require
// demote (OpDemoteToHelperInvocation): the lane goes on as a helper —
// helperInvocationEXT() turns true (gl_HelperInvocation read before
// keeps its value), its stores after the demote do nothing, its output
// is discarded.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B { uint count; uint seen[]; };
void main()
{
	uint lane = uint(gl_FragCoord.x) + 8u * uint(gl_FragCoord.y);
	bool before = gl_HelperInvocation;
	if (v < 0.0)
		demote;
	bool after = helperInvocationEXT();
	seen[lane] = 1u;
	o = vec4(before ? 1.0 : 0.0, after ? 1.0 : 0.0, v, 1.0);
}
