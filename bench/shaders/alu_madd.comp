// SPDX-License-Identifier: MIT
// ALU throughput (peak-FLOPS kind, like clpeak's float test): each
// invocation runs `iters` rounds of x = x * a + b on 4 independent vec4
// accumulators (16 independent dependency chains, 32 flops a round:
// 16 multiplies + 16 adds). `precise` forbids contracting them into FMAs,
// so every driver does the same separate IEEE operations and the host can
// reproduce each result bit for bit. The start value depends on the
// invocation index mod 64 only, so the host computes 64 sequences and
// checks every output. a, b and iters are push constants: nothing folds.
#version 450
layout(local_size_x = 256) in;

layout(std430, binding = 0) writeonly buffer Out { float r[]; };
layout(push_constant) uniform Params {
	float a;
	float b;
	uint iters;
} p;

void main()
{
	uint gid = gl_GlobalInvocationID.y * gl_NumWorkGroups.x *
	           gl_WorkGroupSize.x + gl_GlobalInvocationID.x;
	precise float s = float(gid % 64u) * (1.0 / 64.0);
	precise vec4 x0 = vec4(s) + vec4(0.0, 0.25, 0.5, 0.75);
	precise vec4 x1 = x0 + vec4(1.0);
	precise vec4 x2 = x0 + vec4(2.0);
	precise vec4 x3 = x0 + vec4(3.0);

	for (uint i = 0u; i < p.iters; i++) {
		x0 = x0 * p.a + p.b;
		x1 = x1 * p.a + p.b;
		x2 = x2 * p.a + p.b;
		x3 = x3 * p.a + p.b;
	}
	precise vec4 t = (x0 + x1) + (x2 + x3);
	precise float sum = (t.x + t.y) + (t.z + t.w);
	r[gid] = sum;
}
