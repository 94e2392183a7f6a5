#version 460
// discard (OpKill or OpTerminateInvocation): the lane ends; its store
// after the discard never happens. Every lane (helpers too) counts
// itself first: helpers' atomics must do nothing.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B { uint count; uint seen[]; };
void main()
{
	uint lane = uint(gl_FragCoord.x) + 8u * uint(gl_FragCoord.y);
	atomicAdd(count, 1u);
	if (v < 0.0)
		discard;
	seen[lane] = 1u + (gl_HelperInvocation ? 100u : 0u);
	o = vec4(v);
}
