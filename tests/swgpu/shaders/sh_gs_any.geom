#version 460
// A geometry shader: an execution model the engine does not run.
layout(points) in;
layout(points, max_vertices = 1) out;
void main()
{
	gl_Position = gl_in[0].gl_Position;
	EmitVertex();
}
