/* SPDX-License-Identifier: MIT */
/*
 * Blending and logic ops (the spec's "Blending" and "Logical Operations").
 *
 * Blending runs in float on values the output stage prepared: for
 * fixed-point targets the source colours and the blend constants are
 * clamped to the format's range ([0, 1] UNORM and sRGB, [-1, 1] SNORM),
 * sRGB destinations are decoded to linear; the result is converted
 * (and sRGB encoded) by the format's encoder.
 */
#include "hw/gfx/gfx_internal.h"

#include <math.h>

static float
factor(uint32_t f, uint32_t c, const float s[4], const float s1[4],
       const float dst[4], const float k[4])
{
	switch (f) {
	case 0: return 0.0f;                          /* ZERO */
	case 1: return 1.0f;                          /* ONE */
	case 2: return s[c];                          /* SRC_COLOR */
	case 3: return 1.0f - s[c];
	case 4: return dst[c];                        /* DST_COLOR */
	case 5: return 1.0f - dst[c];
	case 6: return s[3];                          /* SRC_ALPHA */
	case 7: return 1.0f - s[3];
	case 8: return dst[3];                        /* DST_ALPHA */
	case 9: return 1.0f - dst[3];
	case 10: return k[c];                         /* CONSTANT_COLOR */
	case 11: return 1.0f - k[c];
	case 12: return k[3];                         /* CONSTANT_ALPHA */
	case 13: return 1.0f - k[3];
	case 14:                                      /* SRC_ALPHA_SATURATE */
		return c == 3 ? 1.0f : fminf(s[3], 1.0f - dst[3]);
	case 15: return s1[c];                        /* SRC1_COLOR */
	case 16: return 1.0f - s1[c];
	case 17: return s1[3];                        /* SRC1_ALPHA */
	case 18: return 1.0f - s1[3];
	default: return 0.0f;
	}
}

static float
combine(uint32_t op, float s, float sf, float d, float df)
{
	switch (op) {
	case 1: return s * sf - d * df;               /* SUBTRACT */
	case 2: return d * df - s * sf;               /* REVERSE_SUBTRACT */
	case 3: return fminf(s, d);                   /* MIN */
	case 4: return fmaxf(s, d);                   /* MAX */
	default: return s * sf + d * df;              /* ADD */
	}
}

/* Clamp to the format's range; NaN becomes lo there (as UNORM/SNORM
 * conversion would make it 0 anyway); float targets keep NaN. */
static float
clampf(float v, float lo, float hi)
{
	if (lo == -INFINITY)
		return v;
	return v >= lo ? (v <= hi ? v : hi) : lo;
}

void
gfx_blend(const struct gfx_color_target *rt, const float *blend_const,
          const float src[4], const float src1[4], const float dst[4],
          float out[4])
{
	float s[4], s1[4], k[4];
	const float lo = rt->clamp_lo, hi = rt->clamp_hi;

	for (int c = 0; c < 4; c++) {
		s[c] = clampf(src[c], lo, hi);
		s1[c] = clampf(src1[c], lo, hi);
		k[c] = clampf(blend_const[c], lo, hi);
	}
	for (uint32_t c = 0; c < 4; c++) {
		uint32_t sf = c < 3 ? rt->b.src_color : rt->b.src_alpha;
		uint32_t df = c < 3 ? rt->b.dst_color : rt->b.dst_alpha;
		uint32_t op = c < 3 ? rt->b.color_op : rt->b.alpha_op;
		out[c] = combine(op, s[c], factor(sf, c, s, s1, dst, k),
		                 dst[c], factor(df, c, s, s1, dst, k));
	}
}

uint64_t
gfx_logic_op(uint32_t op, uint64_t s, uint64_t d)
{
	switch (op) {
	case 0: return 0;                 /* CLEAR */
	case 1: return s & d;             /* AND */
	case 2: return s & ~d;            /* AND_REVERSE */
	case 3: return s;                 /* COPY */
	case 4: return ~s & d;            /* AND_INVERTED */
	case 5: return d;                 /* NO_OP */
	case 6: return s ^ d;             /* XOR */
	case 7: return s | d;             /* OR */
	case 8: return ~(s | d);          /* NOR */
	case 9: return ~(s ^ d);          /* EQUIVALENT */
	case 10: return ~d;               /* INVERT */
	case 11: return s | ~d;           /* OR_REVERSE */
	case 12: return ~s;               /* COPY_INVERTED */
	case 13: return ~s | d;           /* OR_INVERTED */
	case 14: return ~(s & d);         /* NAND */
	default: return ~0ull;            /* SET */
	}
}
