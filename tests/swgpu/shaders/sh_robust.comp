#version 450
// Out-of-bounds accesses: indices from push constants run past the
// descriptor's range: loads return 0, stores are dropped.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer D { uint d[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint base; uint store_base; } pc;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	o[i] = d[pc.base + i] + 1u;
	d[pc.store_base + i] = 0xdead0000u + i;
	if (i == 0u)
		o[64] = uint(d.length());
}
