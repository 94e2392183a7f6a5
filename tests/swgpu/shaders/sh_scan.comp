#version 450
// Workgroup prefix sum (Hillis-Steele) in shared memory with barriers,
// plus a per-group total written by invocation 0.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint inp[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint outp[]; };
layout(set = 0, binding = 2) writeonly buffer T { uint total[]; };
shared uint tmp[2][256];
void main()
{
	uint l = gl_LocalInvocationID.x;
	uint g = gl_GlobalInvocationID.x;
	uint src = 0u;
	tmp[0][l] = inp[g];
	barrier();
	for (uint off = 1u; off < 256u; off *= 2u) {
		uint v = tmp[src][l];
		if (l >= off)
			v += tmp[src][l - off];
		tmp[1u - src][l] = v;
		barrier();
		src = 1u - src;
	}
	outp[g] = tmp[src][l];
	if (l == 0u)
		total[gl_WorkGroupID.x] = tmp[src][255];
}
