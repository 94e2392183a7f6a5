#version 460
// Graphics engine tests: the interpolated colour.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;

void main()
{
	o = vcol;
}
