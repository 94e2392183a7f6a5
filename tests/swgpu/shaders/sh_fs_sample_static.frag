#version 450
// SPDX-License-Identifier: MIT
// A static use of gl_SampleID and gl_SamplePosition that reads neither
// value: the shader must still run once per sample (the spec's "static
// use"), so the translator counts both built-ins as read.
layout(location = 0) out vec4 o;

void main()
{
	gl_SampleID;
	gl_SamplePosition;
	o = vec4(1.0);
}
