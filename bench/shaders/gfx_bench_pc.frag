#version 460
// gfx_raster: a pushed colour.
layout(push_constant) uniform PC {
	vec4 color;
} pc;
layout(location = 0) out vec4 o;

void main()
{
	o = pc.color;
}
