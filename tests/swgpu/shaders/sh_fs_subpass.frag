#version 460
// An input attachment read at the fragment's pixel.
layout(input_attachment_index = 0, set = 0, binding = 0)
	uniform subpassInput att;
layout(location = 0) out vec4 o;
void main()
{
	o = subpassLoad(att) * 2.0;
}
