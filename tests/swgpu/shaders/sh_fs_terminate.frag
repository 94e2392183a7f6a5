#version 460
#extension GL_EXT_terminate_invocation : require
// terminateInvocation (OpTerminateInvocation) ends the lane.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B { uint count; uint seen[]; };
void main()
{
	uint lane = uint(gl_FragCoord.x) + 8u * uint(gl_FragCoord.y);
	if (v < 0.0)
		terminateInvocation;
	seen[lane] = 1u;
	o = vec4(v);
}
