#version 460
// Per-sample interpolation needs SampleRateShading, which the engine
// does not offer: creation fails with a message.
layout(location = 0) sample in vec4 c;
layout(location = 0) out vec4 o;
void main()
{
	o = c;
}
