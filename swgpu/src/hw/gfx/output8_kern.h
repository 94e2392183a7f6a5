/* SPDX-License-Identifier: MIT */
/*
 * The fused UNORM kernel of output8_unorm.h, written once over vector
 * macros and included by output8_unorm.c (SSE2, 4 lanes: one quad) and
 * output8_avx2.c (AVX2, 8 lanes: two quads). Every lane computes
 * exactly blend.c's float expressions (no FMA: products and sums
 * rounded one by one) and unorm8.h's conversions.
 *
 * The includer defines: W (lanes), VF/VI (float/int vectors), LDF,
 * ADDF, SUBF, MULF, MINF, MAXF, SET1F, ZEROF, CVTTF (float ->
 * int, truncating), CVTIF (int -> float), DECODE (bytes 0..255 in
 * int lanes -> unorm8_decode), CMPGE, CMPLT (all-ones int
 * masks), ADDI, SUBI, ANDI, ORI, ANDNOTI, SLLI, SRLI, SET1I, LDPX(j, q)
 * and STPX(j, q, v) (the W/4 quads' pixels from q, row 0 then row 1 of
 * each quad), KEEPMASK(j, q) (all-ones in lanes whose pixel stays),
 * KPARTIAL(j, q) (some of those lanes are
 * not written), and KERN(name) (a per-ISA function name); with W 8
 * also KERN1(name), the 4-lane form's name (a single quad). Defines
 * KERN(quads) and, unless OUT8_KERN_QUADS_ONLY, KERN(run): the whole
 * batch.
 */

/* Blend factor f of channel c (blend.c's factor()). */
static inline VF
KERN(factor)(uint32_t f, uint32_t c, const VF s[4], const VF s1[4],
             const VF d[4], const VF k[4])
{
	const VF one = SET1F(1.0f);

	switch (f) {
	case 0: return ZEROF();
	case 1: return one;
	case 2: return s[c];
	case 3: return SUBF(one, s[c]);
	case 4: return d[c];
	case 5: return SUBF(one, d[c]);
	case 6: return s[3];
	case 7: return SUBF(one, s[3]);
	case 8: return d[3];
	case 9: return SUBF(one, d[3]);
	case 10: return k[c];
	case 11: return SUBF(one, k[c]);
	case 12: return k[3];
	case 13: return SUBF(one, k[3]);
	case 14:   /* no NaN here: fminf's value */
		return c == 3 ? one : MINF(s[3], SUBF(one, d[3]));
	case 15: return s1[c];
	case 16: return SUBF(one, s1[c]);
	case 17: return s1[3];
	case 18: return SUBF(one, s1[3]);
	default: return ZEROF();
	}
}

/* clamp to [0, 1], NaN -> 0 (max returns its second operand) */
static inline VF
KERN(clamp01)(VF v)
{
	return MINF(MAXF(v, ZEROF()), SET1F(1.0f));
}

/* W lanes from quad q: blend (if on; state bs), round, pack, merge,
 * store. Always inlined: with a constant bs the factor and op switches
 * fold away. */
static inline __attribute__((always_inline)) void
KERN(quads)(const struct out8_job *j, uint32_t q, bool blend,
            const struct swgpu_blend_attachment bs)
{
	const uint32_t l = 4 * q;
	VF o[4];

	if (blend) {
		VF s[4], s1[4], d[4], k[4];
		const VI dpx = LDPX(j, q);
		for (uint32_t c = 0; c < 4; c++) {
			d[c] = DECODE(ANDI(SRLI(dpx, j->sh[c]), SET1I(0xff)));
			s[c] = KERN(clamp01)(LDF(j->src[c] + l));
			s1[c] = j->src1[0] ? KERN(clamp01)(LDF(j->src1[c] + l))
			                   : ZEROF();
			k[c] = SET1F(j->k[c]);
		}
		for (uint32_t c = 0; c < 4; c++) {
			const uint32_t sfc = c < 3 ? bs.src_color
			                           : bs.src_alpha;
			const uint32_t dfc = c < 3 ? bs.dst_color
			                           : bs.dst_alpha;
			const uint32_t op = c < 3 ? bs.color_op : bs.alpha_op;
			const VF sf = KERN(factor)(sfc, c, s, s1, d, k);
			const VF df = KERN(factor)(dfc, c, s, s1, d, k);
			switch (op) {
			case 1:
				o[c] = SUBF(MULF(s[c], sf), MULF(d[c], df));
				break;
			case 2:
				o[c] = SUBF(MULF(d[c], df), MULF(s[c], sf));
				break;
			case 3: o[c] = MINF(s[c], d[c]); break;
			case 4: o[c] = MAXF(s[c], d[c]); break;
			default:
				o[c] = ADDF(MULF(s[c], sf), MULF(d[c], df));
				break;
			}
		}
	} else {
		for (uint32_t c = 0; c < 4; c++)
			o[c] = LDF(j->src[c] + l);
	}

	/* unorm8_encode on every lane and channel */
	VI res = SET1I(0);
	for (uint32_t c = 0; c < 4; c++) {
		const VF v = KERN(clamp01)(o[c]);
		const VF a = MULF(v, SET1F(256.0f));
		const VI ia = CVTTF(a);
		const VF f = SUBF(a, CVTIF(ia));
		const VF half = SET1F(0.5f);
		/* masks are -1: subtract to add one */
		const VI r = ADDI(SUBI(ia, CMPGE(SUBF(f, half), v)),
		                  CMPLT(ADDF(f, half), v));
		res = ORI(res, SLLI(r, j->sh[c]));
	}
	if (KPARTIAL(j, q)) {
		const VI keep = KEEPMASK(j, q);
		res = ORI(ANDNOTI(keep, res), ANDI(keep, LDPX(j, q)));
	}
	STPX(j, q, res);
}

#ifndef OUT8_KERN_QUADS_ONLY
/* The batch with blend state bs: whole quads by the kernel (W / 4 at a
 * time where the next ones are whole too and on other pixels: two quads
 * of a batch are the same pixels or disjoint, being 2x2-aligned, and
 * the same ones go in turn so the second blends over the first), edge
 * quads pixel by pixel. */
static inline __attribute__((always_inline)) void
KERN(run_with)(const struct out8_job *j, bool blend,
               const struct swgpu_blend_attachment bs)
{
	const uint32_t nq = j->nq;

	for (uint32_t q = 0; q < nq; q++) {
		if (!j->qmask[q])
			continue;
		if (!j->whole[q]) {
			out8_quad_scalar(j, q);
			continue;
		}
#if W == 8
		if (q + 1 < nq && j->whole[q + 1] && j->qmask[q + 1] &&
		    j->row[q][0] != j->row[q + 1][0]) {
			KERN(quads)(j, q, blend, bs);
			q++;
			continue;
		}
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
