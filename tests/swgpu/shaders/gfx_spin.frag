#version 460
// Graphics engine tests: a fragment shader that never ends for the
// colours the test draws (red >= 0), so the watchdog must stop it.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;

void main()
{
	float x = vcol.r;
	while (x > -1.0)
		x = x * 0.5 + 0.25;
	o = vec4(x);
}
