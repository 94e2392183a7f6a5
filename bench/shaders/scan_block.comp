// SPDX-License-Identifier: MIT
// Prefix sum, pass 1 (and 2): an inclusive scan of each 1024-element
// block in place, the way a scan is usually written for a GPU
// ("scan-then-propagate"). Each of the 256 invocations scans 4
// consecutive elements in registers; the 256 per-invocation totals are
// scanned in shared memory (Hillis-Steele, log2(256) = 8 barrier-separated
// steps); each invocation adds the total of the invocations before it.
// The block's total goes to sums[block] for the next pass, which runs
// this same shader over the sums (one block covers 1024 sums). uint
// arithmetic (mod 2^32), so the host checks every element exactly.
#version 450
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer Data { uint v[]; };
layout(std430, binding = 1) writeonly buffer Sums { uint sums[]; };
layout(push_constant) uniform Params { uint n; } p;

shared uint part[256];

void main()
{
	uint lid = gl_LocalInvocationID.x;
	uint block = gl_WorkGroupID.x;
	uint base = block * 1024u + lid * 4u;
	uint a[4];
	uint total = 0u;

	for (uint k = 0u; k < 4u; k++) {
		uint j = base + k;
		total += j < p.n ? v[j] : 0u;
		a[k] = total;
	}
	part[lid] = total;
	barrier();
	for (uint off = 1u; off < 256u; off <<= 1) {
		uint left = lid >= off ? part[lid - off] : 0u;
		barrier();
		part[lid] += left;
		barrier();
	}
	uint before = part[lid] - total;
	for (uint k = 0u; k < 4u; k++) {
		uint j = base + k;
		if (j < p.n)
			v[j] = a[k] + before;
	}
	if (lid == 255u)
		sums[block] = part[255];
}
