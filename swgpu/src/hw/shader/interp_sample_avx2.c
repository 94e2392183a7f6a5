/* SPDX-License-Identifier: MIT */
/*
 * The fast sampling path's quad filter on AVX2: two quads per 8-lane
 * vector (interp_sample_fast.h). Every operation is the SSE2 quad
 * path's, lane for lane (the same floor by truncation, the same wraps,
 * the texels' codes, the weighted sums from 0 in the same order, the
 * level blend, the division by 255 and the clamp), so the results are
 * the same bits. This file alone is compiled with -mavx2 (no -mfma:
 * every product and sum is rounded on its own, as in the SSE2 form);
 * it only runs when smp_have_avx2() said so.
 */
#include <stdlib.h>

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

/* Whole texels at byte offsets off of the level. */
static inline __m256i
fetch8(const struct fast_level *lv, __m256i off)
{
	return _mm256_i32gather_epi32((const int *)lv->base, off, 1);
}

/*
 * Texels (x, y) and (x + 1, y) of the eight lanes at byte offsets off of
 * (x, y), when every lane's x + 1 is its next texel in the row (no wrap
 * or clamp between them, so the 8 bytes are inside the level): one
 * 8-byte load per lane instead of two 4-byte ones (half the gathered
 * elements, which are most of the filter's time), the same texels.
 */
static inline void
fetch8_pairs(const struct fast_level *lv, __m256i off, __m256i *t0,
             __m256i *t1)
{
	const long long *base = (const long long *)(const void *)lv->base;
	const __m256i even_odd = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
	/* lanes 0..3, then 4..7: (x, x + 1) per 64-bit element,
	 * regrouped as [x of 4 lanes | x + 1 of 4 lanes] */
	const __m256i a = _mm256_permutevar8x32_epi32(
		_mm256_i32gather_epi64(base, _mm256_castsi256_si128(off), 1),
		even_odd);
	const __m256i b = _mm256_permutevar8x32_epi32(
		_mm256_i32gather_epi64(base, _mm256_extracti128_si256(off, 1),
		                       1),
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

static void
level8(const struct fast_img *fi, const struct fast_level *lv, __m256 S,
       __m256 T, bool linear, __m256 out[4])
{
	const __m256 U = unnorm8(_mm256_mul_ps(S, _mm256_set1_ps(lv->fw)));
	const __m256 V = unnorm8(_mm256_mul_ps(T, _mm256_set1_ps(lv->fh)));

	if (!linear) {
		const __m256i x = wrap8(_mm256_cvttps_epi32(floor8(U)), lv->w,
		                        fi->addr[0]);
		const __m256i y = wrap8(_mm256_cvttps_epi32(floor8(V)), lv->h,
		                        fi->addr[1]);
		decode8(fi, fetch8(lv, offset8(lv, x, y)), out);
		return;
	}
	const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
	const __m256 FU = _mm256_sub_ps(U, half), FV = _mm256_sub_ps(V, half);
	const __m256 FLU = floor8(FU), FLV = floor8(FV);
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

void
smp_two_quads_avx2(const struct fast_img *fi, const struct fast_level *lv_lo,
                   const struct fast_level *lv_hi, bool linear,
                   const float S8[8], const float T8[8],
                   const float blend_lo[2], const float blend_hi[2],
                   float out[4][8])
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
	for (uint32_t c = 0; c < 4; c++)
		_mm256_storeu_ps(out[c], _mm256_min_ps(
			_mm256_div_ps(res[c], _mm256_set1_ps(255.0f)),
			_mm256_set1_ps(1.0f)));
}
#else
void
smp_two_quads_avx2(const struct fast_img *fi, const struct fast_level *lv_lo,
                   const struct fast_level *lv_hi, bool linear,
                   const float S8[8], const float T8[8],
                   const float blend_lo[2], const float blend_hi[2],
                   float out[4][8])
{
	(void)fi, (void)lv_lo, (void)lv_hi, (void)linear, (void)S8, (void)T8;
	(void)blend_lo, (void)blend_hi, (void)out;
	abort();        /* never called: smp_have_avx2() is false */
}
#endif
