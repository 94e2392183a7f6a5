/* SPDX-License-Identifier: MIT */
/*
 * The fused UNORM kernel of output8_unorm.h, written once over vector
 * macros and included by output8_unorm.c (SSE2, 4 lanes: one quad) and
 * output8_avx2.c (AVX2, 8 lanes: two quads). Blending computes exactly
 * blend_unorm8.c's 8-bit fixed point (the definition for these
 * targets) on 16-bit lanes: sources quantized to bytes and packed like
 * the destination, both widened to one 16-bit lane per channel, each
 * product rounded by unorm8_mul's (t + 128) * 257 >> 16, the result
 * packed back with unsigned saturation (the clamp to 0..255). Without
 * blending the source is rounded exactly (unorm8_encode), as the
 * format encoder does.
 *
 * The includer defines: W (lanes), VF/VI (float/int vectors), LDF,
 * ADDF, SUBF, MULF, MINF, MAXF, SET1F, ZEROF, CVTTF (float -> int,
 * truncating), CVTNF (float -> int, to nearest even), CVTIF (int ->
 * float), CMPGE, CMPLT (all-ones int masks), ADDI, SUBI, ANDI, ORI,
 * ANDNOTI, SLLI, SRLI, SET1I, SET1I64; on 16-bit lanes ADD16, SUB16,
 * MULLO16, MULHI16U (unsigned high half), MIN16, MAX16 (signed),
 * SET1_16, SHUFLO16 / SHUFHI16 (pshuflw / pshufhw); UNPLO8 / UNPHI8
 * (bytes interleaved, per 128-bit lane), PACKUS16 (back, unsigned
 * saturation); LDPX(j, q) and STPX(j, q, v) (the W/4 quads' pixels from
 * q, row 0 then row 1 of each quad), LDROWS(r0, r1) / STROWS(r0, r1, v)
 * (the same for W/4 quads side by side whose rows start at r0, r1),
 * KEEPMASK(j, q) (all-ones in lanes
 * whose pixel stays), KPARTIAL(j, q) (some of those lanes are not
 * written), and KERN(name) (a per-ISA function name); with W 8 also
 * KERN1(name), the 4-lane form's name (a single quad). Defines
 * KERN(quads) and, unless OUT8_KERN_QUADS_ONLY, KERN(run): the whole
 * batch.
 */

/* clamp to [0, 1], NaN -> 0 (max returns its second operand) */
static inline VF
KERN(clamp01)(VF v)
{
	return MINF(MAXF(v, ZEROF()), SET1F(1.0f));
}

/* Lanes l.. of the channel arrays p as packed pixels of 8-bit values
 * quantized as unorm8_quantize (clamp, v * 255 rounded to nearest
 * even). */
static inline VI
KERN(quant_px)(const struct out8_job *j, const float *const p[4],
               uint32_t l)
{
	VI px = SET1I(0);

	for (uint32_t c = 0; c < 4; c++) {
		const VF v = KERN(clamp01)(LDF(p[c] + l));
		px = ORI(px, SLLI(CVTNF(MULF(v, SET1F(255.0f))), j->sh[c]));
	}
	return px;
}

/* ---- 8-bit fixed point on 16-bit lanes (blend_unorm8.c) ----------- *
 * A vector holds W / 2 pixels, one channel a lane, in memory order
 * (alpha is byte 3 of a pixel in RGBA and BGRA alike: lane 3 of every
 * 4; the colour channels share their factors, so their order does not
 * matter). */

/* all-ones in the alpha lanes */
#define AMASK16() SET1I64((long long)0xffff000000000000ull)

/* the pixel's alpha in all four of its lanes */
static inline VI
KERN(bcast_a)(VI x)
{
	return SHUFHI16(SHUFLO16(x, 0xff), 0xff);
}

/* Factor f (VkBlendFactor); alpha: for the alpha channel. */
static inline VI
KERN(factor16)(uint32_t f, bool alpha, VI s, VI s1, VI d, VI k)
{
	const VI ff = SET1_16(255);

	switch (f) {
	case 0: return SET1I(0);
	case 1: return ff;
	case 2: return s;
	case 3: return SUB16(ff, s);
	case 4: return d;
	case 5: return SUB16(ff, d);
	case 6: return KERN(bcast_a)(s);
	case 7: return SUB16(ff, KERN(bcast_a)(s));
	case 8: return KERN(bcast_a)(d);
	case 9: return SUB16(ff, KERN(bcast_a)(d));
	case 10: return k;
	case 11: return SUB16(ff, k);
	case 12: return KERN(bcast_a)(k);
	case 13: return SUB16(ff, KERN(bcast_a)(k));
	case 14:                    /* SRC_ALPHA_SATURATE */
		return alpha ? ff : MIN16(KERN(bcast_a)(s),
		                          SUB16(ff, KERN(bcast_a)(d)));
	case 15: return s1;
	case 16: return SUB16(ff, s1);
	case 17: return KERN(bcast_a)(s1);
	case 18: return SUB16(ff, KERN(bcast_a)(s1));
	default: return SET1I(0);
	}
}

/* The factor of every lane: colour code fc, alpha code fa. */
static inline VI
KERN(factors16)(uint32_t fc, uint32_t fa, VI s, VI s1, VI d, VI k)
{
	const VI c = KERN(factor16)(fc, false, s, s1, d, k);

	if (fc == fa && fc != 14)
		return c;
	if (fa == 1)    /* lanes hold 0..255: or-ing 255 sets them */
		return ORI(c, ANDI(AMASK16(), SET1_16(255)));
	if (fa == 0)
		return ANDNOTI(AMASK16(), c);
	return ORI(ANDNOTI(AMASK16(), c),
	           ANDI(AMASK16(), KERN(factor16)(fa, true, s, s1, d, k)));
}

/* x * f / 255 rounded to nearest (unorm8_mul); fcode: the factor's
 * code when every lane has it (ZERO and ONE need no multiply), else
 * -1 */
static inline VI
KERN(mul255)(VI x, VI f, int fcode)
{
	if (fcode == 0)
		return SET1I(0);
	if (fcode == 1)
		return x;
	return MULHI16U(ADD16(MULLO16(x, f), SET1_16(128)), SET1_16(257));
}

/* Op on the two products (or MIN / MAX of s and d); lanes may leave
 * 0..255 (ADD up to 510, SUBTRACT below 0): the final unsigned
 * saturating pack clamps them. */
static inline VI
KERN(op16)(uint32_t op, VI s, VI sf, int sfc, VI d, VI df, int dfc)
{
	switch (op) {
	case 1:
		return SUB16(KERN(mul255)(s, sf, sfc),
		             KERN(mul255)(d, df, dfc));
	case 2:
		return SUB16(KERN(mul255)(d, df, dfc),
		             KERN(mul255)(s, sf, sfc));
	case 3: return MIN16(s, d);
	case 4: return MAX16(s, d);
	default:
		return ADD16(KERN(mul255)(s, sf, sfc),
		             KERN(mul255)(d, df, dfc));
	}
}

/* The blend of one vector of pixels' channels. */
static inline __attribute__((always_inline)) VI
KERN(blend16)(const struct swgpu_blend_attachment bs, VI s, VI s1, VI d,
              VI k)
{
	const bool same_op = bs.color_op == bs.alpha_op;

	if (same_op && bs.color_op >= 3)     /* MIN / MAX */
		return KERN(op16)(bs.color_op, s, s, -1, d, d, -1);
	if (same_op) {
		const VI sf = KERN(factors16)(bs.src_color, bs.src_alpha, s,
		                              s1, d, k);
		const VI df = KERN(factors16)(bs.dst_color, bs.dst_alpha, s,
		                              s1, d, k);
		const int sfc = bs.src_color == bs.src_alpha
		                ? (int)bs.src_color : -1;
		const int dfc = bs.dst_color == bs.dst_alpha
		                ? (int)bs.dst_color : -1;
		return KERN(op16)(bs.color_op, s, sf, sfc, d, df, dfc);
	}
	const VI rc = KERN(op16)(
		bs.color_op, s, KERN(factor16)(bs.src_color, false, s, s1, d, k),
		(int)bs.src_color, d,
		KERN(factor16)(bs.dst_color, false, s, s1, d, k),
		(int)bs.dst_color);
	const VI ra = KERN(op16)(
		bs.alpha_op, s, KERN(factor16)(bs.src_alpha, true, s, s1, d, k),
		(int)bs.src_alpha, d,
		KERN(factor16)(bs.dst_alpha, true, s, s1, d, k),
		(int)bs.dst_alpha);
	return ORI(ANDNOTI(AMASK16(), rc), ANDI(AMASK16(), ra));
}
#undef AMASK16

/* The W pixels of lanes l.. as they are to be stored: blended over
 * the destination pixels dp (if blend; state bs) or the source
 * rounded. Always inlined: with a constant bs the factor and op
 * switches fold away. */
static inline __attribute__((always_inline)) VI
KERN(color)(const struct out8_job *j, uint32_t l, VI dp, bool blend,
            const struct swgpu_blend_attachment bs)
{
	VI res;

	if (blend) {
		const VI zero = SET1I(0);
		const VI sp = KERN(quant_px)(j, j->src, l);
		const VI s1p = j->src1[0] ? KERN(quant_px)(j, j->src1, l)
		                          : zero;
		const VI k = UNPLO8(SET1I((int)j->k8), zero);
		const VI lo = KERN(blend16)(bs, UNPLO8(sp, zero),
		                            UNPLO8(s1p, zero),
		                            UNPLO8(dp, zero), k);
		const VI hi = KERN(blend16)(bs, UNPHI8(sp, zero),
		                            UNPHI8(s1p, zero),
		                            UNPHI8(dp, zero), k);
		res = PACKUS16(lo, hi);
	} else {
		/* unorm8_encode (the format encoder's exact rounding) on
		 * every lane and channel */
		res = SET1I(0);
		for (uint32_t c = 0; c < 4; c++) {
			const VF v = KERN(clamp01)(LDF(j->src[c] + l));
			const VF a = MULF(v, SET1F(256.0f));
			const VI ia = CVTTF(a);
			const VF f = SUBF(a, CVTIF(ia));
			const VF half = SET1F(0.5f);
			/* masks are -1: subtract to add one */
			const VI r = ADDI(SUBI(ia, CMPGE(SUBF(f, half), v)),
			                  CMPLT(ADDF(f, half), v));
			res = ORI(res, SLLI(r, j->sh[c]));
		}
	}
	return res;
}

/* W lanes from quad q: colour, merge (partial quads), store. */
static inline __attribute__((always_inline)) void
KERN(quads)(const struct out8_job *j, uint32_t q, bool blend,
            const struct swgpu_blend_attachment bs)
{
	VI res = KERN(color)(j, 4 * q, blend ? LDPX(j, q) : SET1I(0), blend,
	                     bs);

	if (KPARTIAL(j, q)) {
		const VI keep = KEEPMASK(j, q);
		res = ORI(ANDNOTI(keep, res), ANDI(keep, LDPX(j, q)));
	}
	STPX(j, q, res);
}

/* W / 4 whole quads side by side from lane l: their rows start at r0
 * and r1 (2 * W bytes each). */
static inline __attribute__((always_inline)) void
KERN(rows)(const struct out8_job *j, uint32_t l, uint8_t *r0, uint8_t *r1,
           bool blend, const struct swgpu_blend_attachment bs)
{
	STROWS(r0, r1, KERN(color)(j, l, blend ? LDROWS(r0, r1) : SET1I(0),
	                           blend, bs));
}

#ifndef OUT8_KERN_QUADS_ONLY
/* The batch with blend state bs, piece after piece (batch order: a
 * later quad on the same pixels blends over an earlier one): rows of
 * whole quads W / 4 at a time, other whole quads one by one, quads at
 * the edge of the mapped area pixel by pixel. */
static inline __attribute__((always_inline)) void
KERN(run_with)(const struct out8_job *j, bool blend,
               const struct swgpu_blend_attachment bs)
{
	for (uint32_t i = 0; i < j->npieces; i++) {
		const struct out8_piece *pc = &j->piece[i];
		uint32_t q = pc->q;
		if (pc->n) {    /* a row of whole quads: no per-quad state */
			uint8_t *r0 = pc->r0, *r1 = pc->r0 + j->pitch;
			const uint32_t end = q + pc->n;
			for (; q + W / 4 <= end; q += W / 4) {
				KERN(rows)(j, 4 * q, r0, r1, blend, bs);
				r0 += 2 * W;
				r1 += 2 * W;
			}
#if W == 8
			if (q < end)
				KERN1(rows)(j, 4 * q, r0, r1, blend, bs);
#endif
			continue;
		}
		if (!j->qmask[q])
			continue;
		if (!j->whole[q]) {
			out8_quad_scalar(j, q);
			continue;
		}
#if W == 8
		KERN1(quads)(j, q, blend, bs);
#else
		KERN(quads)(j, q, blend, bs);
#endif
	}
}

#define OUT8_B(sc, dc, oc, sa, da, oa) \
	((struct swgpu_blend_attachment){ .src_color = sc, .dst_color = dc, \
	  .color_op = oc, .src_alpha = sa, .dst_alpha = da, .alpha_op = oa })

/* Common blend states get their own loop (factors known at compile
 * time); the rest the general one. Factors: 0 ZERO, 1 ONE, 6
 * SRC_ALPHA, 7 ONE_MINUS_SRC_ALPHA; op 0 ADD. */
static void KERN(run_noblend)(const struct out8_job *j)
{ KERN(run_with)(j, false, OUT8_B(0, 0, 0, 0, 0, 0)); }
static void KERN(run_alpha_one)(const struct out8_job *j)
{ KERN(run_with)(j, true, OUT8_B(6, 7, 0, 1, 7, 0)); }
static void KERN(run_alpha)(const struct out8_job *j)
{ KERN(run_with)(j, true, OUT8_B(6, 7, 0, 6, 7, 0)); }
static void KERN(run_premul)(const struct out8_job *j)
{ KERN(run_with)(j, true, OUT8_B(1, 7, 0, 1, 7, 0)); }
static void KERN(run_add)(const struct out8_job *j)
{ KERN(run_with)(j, true, OUT8_B(1, 1, 0, 1, 1, 0)); }
static void KERN(run_general)(const struct out8_job *j)
{ KERN(run_with)(j, true, j->b); }

static inline bool
KERN(same_blend)(const struct swgpu_blend_attachment *a,
                 const struct swgpu_blend_attachment b)
{
	return a->src_color == b.src_color && a->dst_color == b.dst_color &&
	       a->color_op == b.color_op && a->src_alpha == b.src_alpha &&
	       a->dst_alpha == b.dst_alpha && a->alpha_op == b.alpha_op;
}

static void
KERN(run)(const struct out8_job *j)
{
	if (!j->blend)
		KERN(run_noblend)(j);
	else if (KERN(same_blend)(&j->b, OUT8_B(6, 7, 0, 1, 7, 0)))
		KERN(run_alpha_one)(j);
	else if (KERN(same_blend)(&j->b, OUT8_B(6, 7, 0, 6, 7, 0)))
		KERN(run_alpha)(j);
	else if (KERN(same_blend)(&j->b, OUT8_B(1, 7, 0, 1, 7, 0)))
		KERN(run_premul)(j);
	else if (KERN(same_blend)(&j->b, OUT8_B(1, 1, 0, 1, 1, 0)))
		KERN(run_add)(j);
	else
		KERN(run_general)(j);
}
#undef OUT8_B
#endif
