/* SPDX-License-Identifier: MIT */
/*
 * Blending on targets whose channels are all 8-bit UNORM (RGBA8, BGRA8,
 * R8, RG8, ...): 8-bit fixed point, the definition for these formats.
 * The SIMD kernels (output8_kern.h: 16-bit lanes) compute the same
 * bytes; test_gfx_output8 checks them against this on every factor and
 * op.
 *
 * The spec's Blending section ("The Framebuffer" chapter) allows it:
 * "Blending computations are treated as if carried out in
 * floating-point, and basic blend operations are performed with a
 * precision and dynamic range no lower than that used to represent
 * destination components." The destination has 8 bits; so do the
 * values here:
 *  - source, dual source and blend constants clamped to [0, 1] and
 *    quantized to 8 bits (unorm8_quantize); the destination is its
 *    bytes;
 *  - every factor is then an 8-bit value: x, 255 - x (ONE_MINUS_*),
 *    0, 255, and SRC_ALPHA_SATURATE min(As, 255 - Ad) (255 for alpha);
 *  - each product x * f / 255 rounded to nearest, exactly (unorm8_mul);
 *  - ADD / SUBTRACT / REVERSE_SUBTRACT of the two products clamped to
 *    0..255; MIN / MAX of source and destination (the factors play no
 *    part).
 * Against the exact real-number blend of the unquantized inputs a
 * channel is off by at most 2.5/255 (a product of two quantized values
 * is within 1 + 0.25/255 before its rounding, the other product's
 * within 0.5, plus two roundings of 0.5); the spec asks for the
 * destination's 8-bit precision, and llvmpipe blends UNORM8 the same
 * way (8-bit values, each product x * y / 255 rounded).
 */
#include "hw/gfx/gfx_internal.h"
#include "hw/gfx/unorm8.h"

static uint32_t
factor8(uint32_t f, uint32_t c, const uint32_t s[4], const uint32_t s1[4],
        const uint32_t d[4], const uint32_t k[4])
{
	switch (f) {
	case 0: return 0;                             /* ZERO */
	case 1: return 255;                           /* ONE */
	case 2: return s[c];                          /* SRC_COLOR */
	case 3: return 255 - s[c];
	case 4: return d[c];                          /* DST_COLOR */
	case 5: return 255 - d[c];
	case 6: return s[3];                          /* SRC_ALPHA */
	case 7: return 255 - s[3];
	case 8: return d[3];                          /* DST_ALPHA */
	case 9: return 255 - d[3];
	case 10: return k[c];                         /* CONSTANT_COLOR */
	case 11: return 255 - k[c];
	case 12: return k[3];                         /* CONSTANT_ALPHA */
	case 13: return 255 - k[3];
	case 14:                                      /* SRC_ALPHA_SATURATE */
		return c == 3 ? 255 : (s[3] < 255 - d[3] ? s[3] : 255 - d[3]);
	case 15: return s1[c];                        /* SRC1_COLOR */
	case 16: return 255 - s1[c];
	case 17: return s1[3];                        /* SRC1_ALPHA */
	case 18: return 255 - s1[3];
	default: return 0;
	}
}

static uint32_t
combine8(uint32_t op, uint32_t s, uint32_t sf, uint32_t d, uint32_t df)
{
	const int32_t a = (int32_t)unorm8_mul(s, sf);
	const int32_t b = (int32_t)unorm8_mul(d, df);
	int32_t r;

	switch (op) {
	case 1: r = a - b; break;                     /* SUBTRACT */
	case 2: r = b - a; break;                     /* REVERSE_SUBTRACT */
	case 3: return s < d ? s : d;                 /* MIN */
	case 4: return s > d ? s : d;                 /* MAX */
	default: r = a + b; break;                    /* ADD */
	}
	return r < 0 ? 0u : r > 255 ? 255u : (uint32_t)r;
}

void
gfx_blend_unorm8(const struct swgpu_blend_attachment *b,
                 const float *blend_const, const float src[4],
                 const float src1[4], const uint8_t dst[4], uint8_t out[4])
{
	uint32_t s[4], s1[4], d[4], k[4];

	for (uint32_t c = 0; c < 4; c++) {
		s[c] = unorm8_quantize(src[c]);
		s1[c] = unorm8_quantize(src1[c]);
		k[c] = unorm8_quantize(blend_const[c]);
		d[c] = dst[c];
	}
	for (uint32_t c = 0; c < 4; c++) {
		const uint32_t sf = c < 3 ? b->src_color : b->src_alpha;
		const uint32_t df = c < 3 ? b->dst_color : b->dst_alpha;
		const uint32_t op = c < 3 ? b->color_op : b->alpha_op;
		out[c] = (uint8_t)combine8(op, s[c],
		                           factor8(sf, c, s, s1, d, k), d[c],
		                           factor8(df, c, s, s1, d, k));
	}
}
