// SPDX-License-Identifier: MIT
// Escape-time Mandelbrot: one invocation per pixel of a w x w image
// over [-2.5, 1.5) x [-2, 2): c = (x * scale - 2.5, y * scale - 2.0),
// scale = 4 / w (a power of two for the power-of-two sizes used), z <- z^2 + c until |z|^2 > 4 or max_iter iterations; the
// iteration count is the pixel. Every float operation is `precise`
// (SPIR-V NoContraction): no driver may fuse a multiply and an add into
// an FMA, so the counts equal a host computation with the same IEEE
// single-precision operations, bit for bit.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) writeonly buffer Out { uint count[]; };
layout(push_constant) uniform Params {
	uint w;
	uint max_iter;
	float scale;
} p;

void main()
{
	uvec2 px = gl_GlobalInvocationID.xy;
	precise float cx = float(px.x) * p.scale - 2.5;
	precise float cy = float(px.y) * p.scale - 2.0;
	precise float zx = 0.0;
	precise float zy = 0.0;
	uint i = 0u;

	while (i < p.max_iter) {
		precise float x2 = zx * zx;
		precise float y2 = zy * zy;
		precise float r2 = x2 + y2;
		if (r2 > 4.0)
			break;
		precise float xy = zx * zy;
		zy = xy + xy + cy;
		zx = x2 - y2 + cx;
		i++;
	}
	count[px.y * p.w + px.x] = i;
}
