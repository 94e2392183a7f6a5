#version 460
// A stencil reference export needs StencilExportEXT, which the engine
// does not offer: creation fails with a message.
#extension GL_ARB_shader_stencil_export : require
layout(location = 0) out vec4 o;
void main()
{
	gl_FragStencilRefARB = 1;
	o = vec4(1.0);
}
