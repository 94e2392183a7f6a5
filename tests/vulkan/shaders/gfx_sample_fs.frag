#version 450
// SPDX-License-Identifier: MIT
// Per-sample shading built-ins with one sample per pixel: (SampleId +
// SamplePosition.x, SamplePosition.y, SampleMaskIn, a Sample-decorated
// input); SampleMask drops the fragments of odd columns.
layout(location = 0) sample in vec4 v_color;
layout(location = 0) out vec4 o;

void main()
{
	o = vec4(float(gl_SampleID) + gl_SamplePosition.x,
	         gl_SamplePosition.y, float(gl_SampleMaskIn[0]), v_color.r);
	gl_SampleMask[0] = (int(gl_FragCoord.x) & 1) != 0 ? 0
	                                                  : gl_SampleMaskIn[0];
}
