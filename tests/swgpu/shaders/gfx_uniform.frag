#version 460
// Graphics engine tests: an output the same on every lane (push
// constants and arithmetic on them): the uniform-output fast path.
layout(push_constant) uniform PC {
	vec4 color;
	float scale;
} pc;
layout(location = 0) out vec4 o;

void main()
{
	o = clamp(pc.color * pc.scale + vec4(0.0625), 0.0, 1.0);
}
