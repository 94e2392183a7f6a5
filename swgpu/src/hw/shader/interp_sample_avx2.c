/* SPDX-License-Identifier: MIT */
/*
 * The fast sampling path's quad filter on AVX2: two quads per 8-lane
 * vector (interp_sample_fast.h). Every operation is the SSE2 quad
 * path's, lane for lane (the same floor: by truncation where the float
 * weights use the fraction, vroundps where only integers come of it,
 * which differs in the sign of a zero alone; the same wraps,
 * the texels' codes, the weighted sums from 0 in the same order, the
 * level blend, the division by 255 and the clamp), so the results are
 * the same bits. 8-bit UNORM LINEAR in fixed point (the default,
 * smp_sub8) is integer SIMD here (level8_fixed): the same exact
 * integers the float forms compute, so the same bits too. This file
 * alone is compiled with -mavx2 -mfma -ffp-contract=off: every product
 * and sum is rounded on its own, as in the SSE2 form, and the one
 * explicit FMA form (store_values) computes the SSE2 form's correctly
 * rounded quotient exactly; it only runs when smp_have_avx2() said so.
 * Texels are loaded by scalar loads, not gathers (load4x64).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "interp_sample_fast.h"

#if defined(__AVX2__)
#include <immintrin.h>

static inline __m256
floor8(__m256 v)
{
	__m256 t = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(v));

	return _mm256_sub_ps(t, _mm256_and_ps(_mm256_cmp_ps(t, v, _CMP_GT_OQ),
	                                      _mm256_set1_ps(1.0f)));
}

/* smp_unnorm_clamp on eight lanes. */
static inline __m256
unnorm8(__m256 u)
{
	const __m256 abs_mask = _mm256_castsi256_ps(
		_mm256_set1_epi32(0x7fffffff));
	const __m256 fin = _mm256_cmp_ps(_mm256_and_ps(u, abs_mask),
	                                 _mm256_set1_ps(INFINITY),
	                                 _CMP_LT_OQ);

	u = _mm256_and_ps(u, fin);
	return _mm256_min_ps(_mm256_max_ps(u, _mm256_set1_ps(-1e9f)),
	                     _mm256_set1_ps(1e9f));
}

/* REPEAT on a power-of-two size, else CLAMP_TO_EDGE (quad_mode_ok). */
static inline __m256i
wrap8(__m256i i, int32_t n, uint32_t mode)
{
	const __m256i top = _mm256_set1_epi32(n - 1);

	if (mode == 0)
		return _mm256_and_si256(i, top);
	return _mm256_min_epi32(_mm256_max_epi32(i, _mm256_setzero_si256()),
	                        top);
}

/* The texels at byte offsets off of the level, channel c in out[c]
 * (fi->vec: G at byte 1, A at 3, R and B at 0 and 2 either way). */
static inline void
decode8(const struct fast_img *fi, __m256i v, __m256 out[4])
{
	const __m256i ff = _mm256_set1_epi32(0xff);
	const __m256i lo = _mm256_and_si256(v, ff);
	const __m256i hi = _mm256_and_si256(_mm256_srli_epi32(v, 16), ff);

	out[0] = _mm256_cvtepi32_ps(fi->bgra ? hi : lo);
	out[1] = _mm256_cvtepi32_ps(_mm256_and_si256(
		_mm256_srli_epi32(v, 8), ff));
	out[2] = _mm256_cvtepi32_ps(fi->bgra ? lo : hi);
	out[3] = _mm256_cvtepi32_ps(_mm256_srli_epi32(v, 24));
}

/*
 * Texel loads: scalar loads put together in a vector, not vpgatherdd /
 * vpgatherdq, which cost more than the loads they stand for on the
 * AMD family 1Ah CPU this was measured on (gfx_scene +3.5 and +7 % in
 * two paired runs, less than a heap layout alone moves it: see
 * docs/PERFORMANCE.md, "The sampler without gathers, ..."). Offsets are
 * bytes from texel (0, 0), never negative.
 */
static inline __m256i
load4x64(const uint8_t *base, __m128i o)
{
	const uint64_t o01 = (uint64_t)_mm_cvtsi128_si64(o);
	const uint64_t o23 = (uint64_t)_mm_extract_epi64(o, 1);
	long long a, b, c, d;

	memcpy(&a, base + (uint32_t)o01, 8);
	memcpy(&b, base + (o01 >> 32), 8);
	memcpy(&c, base + (uint32_t)o23, 8);
	memcpy(&d, base + (o23 >> 32), 8);
	return _mm256_setr_epi64x(a, b, c, d);
}

static inline __m128i
load4x32(const uint8_t *base, __m128i o)
{
	const uint64_t o01 = (uint64_t)_mm_cvtsi128_si64(o);
	const uint64_t o23 = (uint64_t)_mm_extract_epi64(o, 1);
	int a, b, c, d;

	memcpy(&a, base + (uint32_t)o01, 4);
	memcpy(&b, base + (o01 >> 32), 4);
	memcpy(&c, base + (uint32_t)o23, 4);
	memcpy(&d, base + (o23 >> 32), 4);
	return _mm_setr_epi32(a, b, c, d);
}

/* Whole texels at byte offsets off of the level. */
static inline __m256i
fetch8(const struct fast_level *lv, __m256i off)
{
	return _mm256_setr_m128i(
		load4x32(lv->base, _mm256_castsi256_si128(off)),
		load4x32(lv->base, _mm256_extracti128_si256(off, 1)));
}

/*
 * Texels (x, y) and (x + 1, y) of the eight lanes at byte offsets off of
 * (x, y), when every lane's x + 1 is its next texel in the row (no wrap
 * or clamp between them, so the 8 bytes are inside the level): one
 * 8-byte load per lane instead of two 4-byte ones, the same texels.
 */
static inline void
fetch8_pairs(const struct fast_level *lv, __m256i off, __m256i *t0,
             __m256i *t1)
{
	const __m256i even_odd = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
	/* lanes 0..3, then 4..7: (x, x + 1) per 64-bit element,
	 * regrouped as [x of 4 lanes | x + 1 of 4 lanes] */
	const __m256i a = _mm256_permutevar8x32_epi32(
		load4x64(lv->base, _mm256_castsi256_si128(off)), even_odd);
	const __m256i b = _mm256_permutevar8x32_epi32(
		load4x64(lv->base, _mm256_extracti128_si256(off, 1)),
		even_odd);

	*t0 = _mm256_permute2x128_si256(a, b, 0x20);
	*t1 = _mm256_permute2x128_si256(a, b, 0x31);
}

static inline __m256i
offset8(const struct fast_level *lv, __m256i x, __m256i y)
{
	return _mm256_add_epi32(_mm256_mullo_epi32(
		                        y, _mm256_set1_epi32((int)lv->row_pitch)),
	                        _mm256_slli_epi32(x, 2));
}

/* smp_sub8 of eight lanes' fractions. */
static inline __m256i
sub8_8(__m256 frac)
{
	return _mm256_min_epi32(_mm256_cvttps_epi32(_mm256_mul_ps(
		                        frac, _mm256_set1_ps((float)SMP_SUB_ONE))),
	                        _mm256_set1_epi32(SMP_SUB_ONE - 1));
}

/* pshufb controls that repeat the low 16 bits of 32-bit lanes (k,
 * k + 1) of each 128-bit half four times: k = 0, then k = 2. */
#define REP16_4(a, b) a, a + 1, b, b + 1, a, a + 1, b, b + 1, \
                      a, a + 1, b, b + 1, a, a + 1, b, b + 1
static const int8_t rep16_tab[2][32] __attribute__((aligned(32))) = {
	{ REP16_4(0, 4), REP16_4(0, 4) },
	{ REP16_4(8, 12), REP16_4(8, 12) },
};
#undef REP16_4

/* k = 0 or 2 */
static inline __m256i
rep16(int k)
{
	return _mm256_load_si256(
		(const __m256i *)(const void *)rep16_tab[k >> 1]);
}

/* level8_fixed's pshufb controls, RGBA then BGRA (R's byte 0 or 2):
 * each half's two lanes' texel pairs, [R_a R_b G_a G_b B_a B_b A_a
 * A_b] as byte pairs (t0, t1); and t0 alone in the high byte of each
 * 16-bit element (0x80: a zero byte). */
#define PAIR_HALF(r, b) r, r + 4, r + 8, r + 12, 1, 5, 9, 13, \
                        b, b + 4, b + 8, b + 12, 3, 7, 11, 15
#define T0HI_HALF(r, b) Z, r, Z, r + 8, Z, 1, Z, 9, \
                        Z, b, Z, b + 8, Z, 3, Z, 11
#define Z (-128)
static const int8_t fixed_pair[2][32] __attribute__((aligned(32))) = {
	{ PAIR_HALF(0, 2), PAIR_HALF(0, 2) },
	{ PAIR_HALF(2, 0), PAIR_HALF(2, 0) },
};
static const int8_t fixed_t0hi[2][32] __attribute__((aligned(32))) = {
	{ T0HI_HALF(0, 2), T0HI_HALF(0, 2) },
	{ T0HI_HALF(2, 0), T0HI_HALF(2, 0) },
};
#undef Z
#undef PAIR_HALF
#undef T0HI_HALF

/*
 * LINEAR of eight lanes on the codes of 4-byte UNORM texels in fixed
 * point (smp_sub8, interp_sample.h), with integer SIMD: the exact value
 * the float forms compute, as floats in out[c] (codes times 2^16).
 *
 * Layout: a lane's two texels of a row, (x0, y) and (x1, y), are one
 * 8-byte unit (gathered as one when they are neighbours in memory,
 * else interleaved from two gathers); each row's units are split into
 * group A, lanes (0, 1 | 4, 5) in the two 128-bit halves, and group B,
 * lanes (2, 3 | 6, 7). Within a half, a pshufb pairs each channel's two
 * texels per lane, [R_a R_b G_a G_b B_a B_b A_a A_b] as byte pairs, and
 * pmaddubsw multiplies them by the lane's (256 - fx, fx) and adds: the
 * weights are the unsigned operand, the texels the signed one with 128
 * taken off (t ^ 0x80), so X' = (256 - fx)(t0 - 128) + fx (t1 - 128) =
 * X - 32768 lies in [-32768, 32512] (no saturation). A weight 256 does
 * not fit a byte: lanes with fx = 0 get 0 from pmaddubsw and add
 * (t0 - 128) * 256 (the t0 byte placed in the high byte), only when
 * some lane has fx = 0. The rows are then interleaved as 16-bit pairs
 * and pmaddwd weighs them by (256 - fy, fy): Y - 2^23 exactly, in
 * [R_a R_b G_a G_b] and [B_a B_b A_a A_b] 32-bit order, so one 64-bit
 * unpack of groups A and B gives each channel in lane order.
 */
static inline __attribute__((always_inline)) void
level8_fixed(const struct fast_img *fi, const struct fast_level *lv,
             __m256 FX, __m256 FY, __m256i x0, __m256i x1, __m256i off0,
             __m256i off1, __m256 out[4])
{
	const __m256i fx = sub8_8(FX), fy = sub8_8(FY);
	const __m256i one = _mm256_set1_epi32(SMP_SUB_ONE);
	/* (256 - fx) & 0xff | fx << 8, (256 - fy) | fy << 16 per lane */
	const __m256i wx = _mm256_or_si256(
		_mm256_and_si256(_mm256_sub_epi32(one, fx),
		                 _mm256_set1_epi32(0xff)),
		_mm256_slli_epi32(fx, 8));
	const __m256i wy = _mm256_or_si256(_mm256_sub_epi32(one, fy),
	                                   _mm256_slli_epi32(fy, 16));
	const __m256i wxg[2] = { _mm256_shuffle_epi8(wx, rep16(0)),
	                         _mm256_shuffle_epi8(wx, rep16(2)) };
	const __m256i wyg[2] = {
		_mm256_shuffle_epi32(wy, _MM_SHUFFLE(1, 0, 1, 0)),
		_mm256_shuffle_epi32(wy, _MM_SHUFFLE(3, 2, 3, 2)) };
	const __m256i fx0 = _mm256_cmpeq_epi32(fx, _mm256_setzero_si256());
	const bool any_fx0 = _mm256_movemask_epi8(fx0) != 0;
	const __m256i off[2] = { off0, off1 };
	__m256i unit[2][2];     /* [row][group] */

	if (fi->pairs && _mm256_movemask_epi8(_mm256_cmpeq_epi32(
		x1, _mm256_add_epi32(x0, _mm256_set1_epi32(1)))) == -1) {
		const __m256i ab = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);

		for (uint32_t r = 0; r < 2; r++) {
			const __m256i o = _mm256_permutevar8x32_epi32(off[r],
			                                              ab);

			unit[r][0] = load4x64(lv->base,
			                      _mm256_castsi256_si128(o));
			unit[r][1] = load4x64(lv->base,
			                      _mm256_extracti128_si256(o, 1));
		}
	} else {
		const __m256i dx = _mm256_slli_epi32(_mm256_sub_epi32(x1, x0),
		                                     2);

		for (uint32_t r = 0; r < 2; r++) {
			const __m256i t0 = fetch8(lv, off[r]);
			const __m256i t1 = fetch8(lv, _mm256_add_epi32(off[r],
			                                               dx));

			unit[r][0] = _mm256_unpacklo_epi32(t0, t1);
			unit[r][1] = _mm256_unpackhi_epi32(t0, t1);
		}
	}
	const __m256i pair = _mm256_load_si256(
		(const __m256i *)(const void *)fixed_pair[fi->bgra]);
	const __m256i t0hi = _mm256_load_si256(
		(const __m256i *)(const void *)fixed_t0hi[fi->bgra]);
	const __m256i flip = _mm256_set1_epi8((char)0x80);
	__m256i xs[2][2];

	for (uint32_t r = 0; r < 2; r++)
		for (uint32_t g = 0; g < 2; g++) {
			const __m256i t = _mm256_xor_si256(unit[r][g], flip);

			xs[r][g] = _mm256_maddubs_epi16(
				wxg[g], _mm256_shuffle_epi8(t, pair));
			if (any_fx0)
				xs[r][g] = _mm256_add_epi16(xs[r][g],
					_mm256_and_si256(
						_mm256_shuffle_epi8(t, t0hi),
						_mm256_shuffle_epi8(fx0,
						                    rep16(2 * (int)g))));
		}
	__m256i rg[2], ba[2];

	for (uint32_t g = 0; g < 2; g++) {
		rg[g] = _mm256_madd_epi16(_mm256_unpacklo_epi16(xs[0][g],
		                                                xs[1][g]),
		                          wyg[g]);
		ba[g] = _mm256_madd_epi16(_mm256_unpackhi_epi16(xs[0][g],
		                                                xs[1][g]),
		                          wyg[g]);
	}
	const __m256i bias = _mm256_set1_epi32(1 << 23);
	const __m256i ch[4] = { _mm256_unpacklo_epi64(rg[0], rg[1]),
	                        _mm256_unpackhi_epi64(rg[0], rg[1]),
	                        _mm256_unpacklo_epi64(ba[0], ba[1]),
	                        _mm256_unpackhi_epi64(ba[0], ba[1]) };

	for (uint32_t c = 0; c < 4; c++)
		out[c] = _mm256_cvtepi32_ps(_mm256_add_epi32(ch[c], bias));
}

static inline __attribute__((always_inline)) void
level8(const struct fast_img *fi, const struct fast_level *lv, __m256 S,
       __m256 T, bool linear, __m256 out[4])
{
	const __m256 U = unnorm8(_mm256_mul_ps(S, _mm256_set1_ps(lv->fw)));
	const __m256 V = unnorm8(_mm256_mul_ps(T, _mm256_set1_ps(lv->fh)));

	if (!linear) {
		const __m256i x = wrap8(_mm256_cvttps_epi32(
			_mm256_floor_ps(U)), lv->w, fi->addr[0]);
		const __m256i y = wrap8(_mm256_cvttps_epi32(
			_mm256_floor_ps(V)), lv->h, fi->addr[1]);
		decode8(fi, fetch8(lv, offset8(lv, x, y)), out);
		return;
	}
	const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
	const __m256 FU = _mm256_sub_ps(U, half), FV = _mm256_sub_ps(V, half);
	/* vroundps where only integers come of the floor (the fixed
	 * path: its fractions go through sub8_8, where -0 and +0 give the
	 * same 0); floor8's truncation form, which never gives -0, where
	 * the float weights would carry a zero's sign */
	const __m256 FLU = fi->fixed ? _mm256_floor_ps(FU) : floor8(FU);
	const __m256 FLV = fi->fixed ? _mm256_floor_ps(FV) : floor8(FV);
	const __m256 FX = _mm256_sub_ps(FU, FLU), FY = _mm256_sub_ps(FV, FLV);
	const __m256 GX = _mm256_sub_ps(one, FX), GY = _mm256_sub_ps(one, FY);
	const __m256i I0 = _mm256_cvttps_epi32(FLU);
	const __m256i J0 = _mm256_cvttps_epi32(FLV);
	const __m256i inc = _mm256_set1_epi32(1);
	const __m256i x0 = wrap8(I0, lv->w, fi->addr[0]);
	const __m256i x1 = wrap8(_mm256_add_epi32(I0, inc), lv->w,
	                         fi->addr[0]);
	const __m256i y0 = wrap8(J0, lv->h, fi->addr[1]);
	const __m256i y1 = wrap8(_mm256_add_epi32(J0, inc), lv->h,
	                         fi->addr[1]);
	const __m256i off0 = offset8(lv, x0, y0), off1 = offset8(lv, x0, y1);

	if (fi->fixed) {
		level8_fixed(fi, lv, FX, FY, x0, x1, off0, off1, out);
		return;
	}
	const __m256 w[4] = { _mm256_mul_ps(GX, GY), _mm256_mul_ps(FX, GY),
	                      _mm256_mul_ps(GX, FY), _mm256_mul_ps(FX, FY) };
	__m256i texel[4];

	if (fi->pairs && _mm256_movemask_epi8(_mm256_cmpeq_epi32(
		x1, _mm256_add_epi32(x0, inc))) == -1) {
		fetch8_pairs(lv, off0, &texel[0], &texel[1]);
		fetch8_pairs(lv, off1, &texel[2], &texel[3]);
	} else {
		const __m256i dx = _mm256_slli_epi32(_mm256_sub_epi32(x1, x0),
		                                     2);

		texel[0] = fetch8(lv, off0);
		texel[1] = fetch8(lv, _mm256_add_epi32(off0, dx));
		texel[2] = fetch8(lv, off1);
		texel[3] = fetch8(lv, _mm256_add_epi32(off1, dx));
	}
	/* the sums start from 0 as in the SSE2 form, but 0 + w t is w t
	 * itself: w and the codes are finite and >= 0, so w t is never
	 * -0 (the one value the addition would change) */
	decode8(fi, texel[0], out);
	for (uint32_t c = 0; c < 4; c++)
		out[c] = _mm256_mul_ps(w[0], out[c]);
	for (uint32_t n = 1; n < 4; n++) {
		__m256 t[4];

		decode8(fi, texel[n], t);
		for (uint32_t c = 0; c < 4; c++)
			out[c] = _mm256_add_ps(out[c],
			                       _mm256_mul_ps(w[n], t[c]));
	}
}

/*
 * The texels' values: sum / scale clamped to 1, scale = 255 k (k = 1, or
 * 2^16 for the fixed-point codes), correctly rounded as vdivps gives it.
 * By default the division is y = sum / k (exact: a power of two, y
 * normal), then y / 255 as the reciprocal product with one FMA
 * correction, which is y / 255 correctly rounded for every finite
 * y >= +0 (checked over all of them, and sum / (255 2^16) for every sum
 * >= 2^-100), without vdivps's latency. A vector with a sum in
 * (0, 2^-100) (it never comes from codes; only a tiny level-blend weight
 * could make one) takes vdivps, as does every vector with
 * SWGPU_SAMPLE_FMA=0 (smp_fma_div).
 */
static inline void
store_values(const __m256 res[4], float scale, float *out, size_t stride)
{
	const __m256 inv_k = _mm256_set1_ps(255.0f / scale);
	const __m256 d = _mm256_set1_ps(255.0f);
	const __m256 r = _mm256_set1_ps(1.0f / 255.0f);
	const __m256 tiny = _mm256_set1_ps(0x1p-100f);
	const __m256 zero = _mm256_setzero_ps();
	const bool fma = smp_fma_div;

	for (uint32_t c = 0; c < 4; c++) {
		const __m256 bad = _mm256_and_ps(
			_mm256_cmp_ps(res[c], tiny, _CMP_LT_OQ),
			_mm256_cmp_ps(res[c], zero, _CMP_NEQ_UQ));
		__m256 q;

		if (!fma || _mm256_movemask_ps(bad)) {
			q = _mm256_div_ps(res[c], _mm256_set1_ps(scale));
		} else {
			const __m256 y = _mm256_mul_ps(res[c], inv_k);
			const __m256 q0 = _mm256_mul_ps(y, r);

			q = _mm256_fmadd_ps(_mm256_fnmadd_ps(q0, d, y), r, q0);
		}
		_mm256_storeu_ps(out + c * stride,
		                 _mm256_min_ps(q, _mm256_set1_ps(1.0f)));
	}
}

void
smp_values_avx2(const float *sums, float scale, float *out, size_t stride)
{
	__m256 res[4];

	for (uint32_t c = 0; c < 4; c++)
		res[c] = _mm256_loadu_ps(sums + 8 * c);
	store_values(res, scale, out, stride);
}

void
smp_two_quads_avx2(const struct fast_img *fi, const struct fast_level *lv_lo,
                   const struct fast_level *lv_hi, bool linear,
                   const float S8[8], const float T8[8],
                   const float blend_lo[2], const float blend_hi[2],
                   float *out, size_t stride)
{
	const __m256 S = _mm256_loadu_ps(S8), T = _mm256_loadu_ps(T8);
	__m256 res[4];

	level8(fi, lv_lo, S, T, linear, res);
	if (lv_hi) {
		const __m256 a = _mm256_setr_m128(_mm_set1_ps(blend_lo[0]),
		                                  _mm_set1_ps(blend_lo[1]));
		const __m256 b = _mm256_setr_m128(_mm_set1_ps(blend_hi[0]),
		                                  _mm_set1_ps(blend_hi[1]));
		__m256 res2[4];

		level8(fi, lv_hi, S, T, linear, res2);
		for (uint32_t c = 0; c < 4; c++)
			res[c] = _mm256_add_ps(_mm256_mul_ps(a, res[c]),
			                       _mm256_mul_ps(b, res2[c]));
	}
	store_values(res, smp_codes_scale(fi->fixed && linear, 2), out, stride);
}
#else
void
smp_two_quads_avx2(const struct fast_img *fi, const struct fast_level *lv_lo,
                   const struct fast_level *lv_hi, bool linear,
                   const float S8[8], const float T8[8],
                   const float blend_lo[2], const float blend_hi[2],
                   float *out, size_t stride)
{
	(void)fi, (void)lv_lo, (void)lv_hi, (void)linear, (void)S8, (void)T8;
	(void)blend_lo, (void)blend_hi, (void)out, (void)stride;
	abort();        /* never called: smp_have_avx2() is false */
}

void
smp_values_avx2(const float *sums, float scale, float *out, size_t stride)
{
	(void)sums, (void)scale, (void)out, (void)stride;
	abort();        /* never called: smp_have_avx2() is false */
}
#endif
