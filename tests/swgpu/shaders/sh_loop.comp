#version 450
// Never ends: the dispatch must hit the hang timeout, not hang the engine.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
	uint i = 0u;
	while (o[0] == 0u)
		i++;
	o[1] = i;
}
