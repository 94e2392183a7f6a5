/* SPDX-License-Identifier: MIT */
/*
 * The fast sampling path's fixed-point LINEAR filter and NEAREST on
 * AVX-512: four quads per 16-lane vector (interp_sample_fast.h). It is
 * interp_sample_avx2.c's level8 / level8_fixed / store_values widened:
 * the byte shuffles, pmaddubsw and pmaddwd work within 128-bit lanes,
 * so each 128-bit lane of a 512-bit vector holds what one 128-bit half
 * of the AVX2 form holds, for lanes 4k..4k+3 instead of two halves; the
 * float steps (unnorm, floor, fractions, level blend, the division and
 * clamp) are the same operations lane for lane. So the results are the
 * same bits as the AVX2 and SSE2 forms (test_shader_sample_fixed
 * test_four_quads_avx512 compares them). Compiled alone with
 * -mavx512f -mavx512bw -mfma -ffp-contract=off; only runs when
 * smp_have_avx512() said so.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "interp_sample_fast.h"

#if defined(__AVX512F__) && defined(__AVX512BW__)
#include <immintrin.h>

/* smp_unnorm_clamp on sixteen lanes (unnorm8's operations). */
static inline __m512
unnorm16(__m512 u)
{
	/* |u| by an integer AND (the float one is AVX-512DQ) */
	const __m512 abs_u = _mm512_castsi512_ps(_mm512_and_si512(
		_mm512_castps_si512(u), _mm512_set1_epi32(0x7fffffff)));
	const __mmask16 fin = _mm512_cmp_ps_mask(
		abs_u, _mm512_set1_ps(INFINITY), _CMP_LT_OQ);

	u = _mm512_maskz_mov_ps(fin, u);
	return _mm512_min_ps(_mm512_max_ps(u, _mm512_set1_ps(-1e9f)),
	                     _mm512_set1_ps(1e9f));
}

/* REPEAT on a power-of-two size, else CLAMP_TO_EDGE (quad_mode_ok). */
static inline __m512i
wrap16(__m512i i, int32_t n, uint32_t mode)
{
	const __m512i top = _mm512_set1_epi32(n - 1);

	if (mode == 0)
		return _mm512_and_si512(i, top);
	return _mm512_min_epi32(_mm512_max_epi32(i, _mm512_setzero_si512()),
	                        top);
}

/* Texels by scalar loads (interp_sample_avx2.c load4x64's reason),
 * put together in registers: through a stack array, the vector load
 * waited for eight stores to forward. */
static inline __m128i
load2x64(const uint8_t *base, uint32_t a, uint32_t b)
{
	return _mm_castpd_si128(_mm_loadh_pd(
		_mm_castsi128_pd(_mm_loadl_epi64((const void *)(base + a))),
		(const double *)(const void *)(base + b)));
}

static inline __m512i
load8x64(const uint8_t *base, __m256i o)
{
	uint32_t off[8];

	_mm256_storeu_si256((__m256i *)(void *)off, o);
	const __m256i lo = _mm256_inserti128_si256(
		_mm256_castsi128_si256(load2x64(base, off[0], off[1])),
		load2x64(base, off[2], off[3]), 1);
	const __m256i hi = _mm256_inserti128_si256(
		_mm256_castsi128_si256(load2x64(base, off[4], off[5])),
		load2x64(base, off[6], off[7]), 1);
	return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

static inline __m128i
load4x32(const uint8_t *base, const uint32_t *off)
{
	int v0, v1, v2, v3;

	memcpy(&v0, base + off[0], 4);
	memcpy(&v1, base + off[1], 4);
	memcpy(&v2, base + off[2], 4);
	memcpy(&v3, base + off[3], 4);
	return _mm_insert_epi32(_mm_insert_epi32(_mm_insert_epi32(
		_mm_cvtsi32_si128(v0), v1, 1), v2, 2), v3, 3);
}

static inline __m512i
load16x32(const uint8_t *base, __m512i o)
{
	uint32_t off[16];

	_mm512_storeu_si512(off, o);
	const __m256i lo = _mm256_inserti128_si256(
		_mm256_castsi128_si256(load4x32(base, off)),
		load4x32(base, off + 4), 1);
	const __m256i hi = _mm256_inserti128_si256(
		_mm256_castsi128_si256(load4x32(base, off + 8)),
		load4x32(base, off + 12), 1);
	return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

static inline __m512i
sub8_16(__m512 frac)
{
	return _mm512_min_epi32(_mm512_cvttps_epi32(_mm512_mul_ps(
		                        frac, _mm512_set1_ps((float)SMP_SUB_ONE))),
	                        _mm512_set1_epi32(SMP_SUB_ONE - 1));
}

/* interp_sample_avx2.c's pshufb controls, one per 128-bit lane. */
#define REP16_4(a, b) a, a + 1, b, b + 1, a, a + 1, b, b + 1, \
                      a, a + 1, b, b + 1, a, a + 1, b, b + 1
#define X4(...) __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__
static const int8_t rep16_tab[2][64] __attribute__((aligned(64))) = {
	{ X4(REP16_4(0, 4)) },
	{ X4(REP16_4(8, 12)) },
};
#undef REP16_4
#define PAIR_HALF(r, b) r, r + 4, r + 8, r + 12, 1, 5, 9, 13, \
                        b, b + 4, b + 8, b + 12, 3, 7, 11, 15
#define T0HI_HALF(r, b) Z, r, Z, r + 8, Z, 1, Z, 9, \
                        Z, b, Z, b + 8, Z, 3, Z, 11
#define Z (-128)
static const int8_t fixed_pair[2][64] __attribute__((aligned(64))) = {
	{ X4(PAIR_HALF(0, 2)) },
	{ X4(PAIR_HALF(2, 0)) },
};
static const int8_t fixed_t0hi[2][64] __attribute__((aligned(64))) = {
	{ X4(T0HI_HALF(0, 2)) },
	{ X4(T0HI_HALF(2, 0)) },
};
#undef Z
#undef PAIR_HALF
#undef T0HI_HALF
#undef X4

static inline __m512i
tab(const int8_t *t)
{
	return _mm512_load_si512((const void *)t);
}

/*
 * level8_fixed on sixteen lanes: group A is lanes (4k, 4k + 1) and
 * group B lanes (4k + 2, 4k + 3) of each 128-bit lane k, so that one
 * 64-bit unpack of the groups' sums gives each channel in lane order.
 */
static inline __attribute__((always_inline)) void
level16(const struct fast_img *fi, const struct fast_level *lv, __m512 S,
        __m512 T, __m512 out[4])
{
	const __m512 U = unnorm16(_mm512_mul_ps(S, _mm512_set1_ps(lv->fw)));
	const __m512 V = unnorm16(_mm512_mul_ps(T, _mm512_set1_ps(lv->fh)));
	const __m512 half = _mm512_set1_ps(0.5f);
	const __m512 FU = _mm512_sub_ps(U, half), FV = _mm512_sub_ps(V, half);
	/* vroundps's floor: the fixed path's choice (interp_sample_avx2.c) */
	const __m512 FLU = _mm512_roundscale_ps(
		FU, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
	const __m512 FLV = _mm512_roundscale_ps(
		FV, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
	const __m512 FX = _mm512_sub_ps(FU, FLU), FY = _mm512_sub_ps(FV, FLV);
	const __m512i I0 = _mm512_cvttps_epi32(FLU);
	const __m512i J0 = _mm512_cvttps_epi32(FLV);
	const __m512i inc = _mm512_set1_epi32(1);
	const __m512i x0 = wrap16(I0, lv->w, fi->addr[0]);
	const __m512i x1 = wrap16(_mm512_add_epi32(I0, inc), lv->w,
	                          fi->addr[0]);
	const __m512i y0 = wrap16(J0, lv->h, fi->addr[1]);
	const __m512i y1 = wrap16(_mm512_add_epi32(J0, inc), lv->h,
	                          fi->addr[1]);
	const __m512i pitch = _mm512_set1_epi32((int)lv->row_pitch);
	const __m512i x4 = _mm512_slli_epi32(x0, 2);
	const __m512i off[2] = {
		_mm512_add_epi32(_mm512_mullo_epi32(y0, pitch), x4),
		_mm512_add_epi32(_mm512_mullo_epi32(y1, pitch), x4) };
	const __m512i fx = sub8_16(FX), fy = sub8_16(FY);
	const __m512i one = _mm512_set1_epi32(SMP_SUB_ONE);
	const __m512i wx = _mm512_or_si512(
		_mm512_and_si512(_mm512_sub_epi32(one, fx),
		                 _mm512_set1_epi32(0xff)),
		_mm512_slli_epi32(fx, 8));
	const __m512i wy = _mm512_or_si512(_mm512_sub_epi32(one, fy),
	                                   _mm512_slli_epi32(fy, 16));
	const __m512i wxg[2] = { _mm512_shuffle_epi8(wx, tab(rep16_tab[0])),
	                         _mm512_shuffle_epi8(wx, tab(rep16_tab[1])) };
	const __m512i wyg[2] = {
		_mm512_shuffle_epi32(wy, _MM_SHUFFLE(1, 0, 1, 0)),
		_mm512_shuffle_epi32(wy, _MM_SHUFFLE(3, 2, 3, 2)) };
	const __mmask16 fx0m = _mm512_cmpeq_epi32_mask(
		fx, _mm512_setzero_si512());
	const __m512i fx0 = _mm512_maskz_mov_epi32(fx0m, _mm512_set1_epi32(-1));
	__m512i unit[2][2];     /* [row][group] */

	if (fi->pairs && _mm512_cmpeq_epi32_mask(
		x1, _mm512_add_epi32(x0, inc)) == 0xffff) {
		const __m512i ab = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13,
		                                     2, 3, 6, 7, 10, 11, 14,
		                                     15);

		for (uint32_t r = 0; r < 2; r++) {
			const __m512i o = _mm512_permutexvar_epi32(ab, off[r]);

			unit[r][0] = load8x64(lv->base,
			                      _mm512_castsi512_si256(o));
			unit[r][1] = load8x64(lv->base,
			                      _mm512_extracti64x4_epi64(o, 1));
		}
	} else {
		const __m512i dx = _mm512_slli_epi32(_mm512_sub_epi32(x1, x0),
		                                     2);

		for (uint32_t r = 0; r < 2; r++) {
			const __m512i t0 = load16x32(lv->base, off[r]);
			const __m512i t1 = load16x32(
				lv->base, _mm512_add_epi32(off[r], dx));

			unit[r][0] = _mm512_unpacklo_epi32(t0, t1);
			unit[r][1] = _mm512_unpackhi_epi32(t0, t1);
		}
	}
	const __m512i pair = tab(fixed_pair[fi->bgra]);
	const __m512i t0hi = tab(fixed_t0hi[fi->bgra]);
	const __m512i flip = _mm512_set1_epi8((char)0x80);
	__m512i xs[2][2];

	for (uint32_t r = 0; r < 2; r++)
		for (uint32_t g = 0; g < 2; g++) {
			const __m512i t = _mm512_xor_si512(unit[r][g], flip);

			xs[r][g] = _mm512_maddubs_epi16(
				wxg[g], _mm512_shuffle_epi8(t, pair));
			if (fx0m)
				xs[r][g] = _mm512_add_epi16(xs[r][g],
					_mm512_and_si512(
						_mm512_shuffle_epi8(t, t0hi),
						_mm512_shuffle_epi8(
							fx0,
							tab(rep16_tab[g]))));
		}
	__m512i rg[2], ba[2];

	for (uint32_t g = 0; g < 2; g++) {
		rg[g] = _mm512_madd_epi16(_mm512_unpacklo_epi16(xs[0][g],
		                                                xs[1][g]),
		                          wyg[g]);
		ba[g] = _mm512_madd_epi16(_mm512_unpackhi_epi16(xs[0][g],
		                                                xs[1][g]),
		                          wyg[g]);
	}
	const __m512i bias = _mm512_set1_epi32(1 << 23);
	const __m512i ch[4] = { _mm512_unpacklo_epi64(rg[0], rg[1]),
	                        _mm512_unpackhi_epi64(rg[0], rg[1]),
	                        _mm512_unpacklo_epi64(ba[0], ba[1]),
	                        _mm512_unpackhi_epi64(ba[0], ba[1]) };

	for (uint32_t c = 0; c < 4; c++)
		out[c] = _mm512_cvtepi32_ps(_mm512_add_epi32(ch[c], bias));
}

/* NEAREST of sixteen lanes on the texels' codes (level8's !linear
 * path and decode8). */
static inline void
nearest16(const struct fast_img *fi, const struct fast_level *lv, __m512 S,
          __m512 T, __m512 out[4])
{
	const __m512 U = unnorm16(_mm512_mul_ps(S, _mm512_set1_ps(lv->fw)));
	const __m512 V = unnorm16(_mm512_mul_ps(T, _mm512_set1_ps(lv->fh)));
	const __m512i x = wrap16(_mm512_cvttps_epi32(_mm512_roundscale_ps(
		                         U, _MM_FROUND_TO_NEG_INF |
		                            _MM_FROUND_NO_EXC)),
	                         lv->w, fi->addr[0]);
	const __m512i y = wrap16(_mm512_cvttps_epi32(_mm512_roundscale_ps(
		                         V, _MM_FROUND_TO_NEG_INF |
		                            _MM_FROUND_NO_EXC)),
	                         lv->h, fi->addr[1]);
	const __m512i v = load16x32(lv->base, _mm512_add_epi32(
		_mm512_mullo_epi32(y, _mm512_set1_epi32((int)lv->row_pitch)),
		_mm512_slli_epi32(x, 2)));
	const __m512i ff = _mm512_set1_epi32(0xff);
	const __m512i lo = _mm512_and_si512(v, ff);
	const __m512i hi = _mm512_and_si512(_mm512_srli_epi32(v, 16), ff);

	out[0] = _mm512_cvtepi32_ps(fi->bgra ? hi : lo);
	out[1] = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(v, 8),
	                                             ff));
	out[2] = _mm512_cvtepi32_ps(fi->bgra ? lo : hi);
	out[3] = _mm512_cvtepi32_ps(_mm512_srli_epi32(v, 24));
}

/* interp_sample_avx2.c store_values on sixteen lanes. */
static inline void
store16(const __m512 res[4], float scale, float *out, size_t stride)
{
	const __m512 inv_k = _mm512_set1_ps(255.0f / scale);
	const __m512 d = _mm512_set1_ps(255.0f);
	const __m512 r = _mm512_set1_ps(1.0f / 255.0f);
	const __m512 tiny = _mm512_set1_ps(0x1p-100f);
	const bool fma = smp_fma_div;

	for (uint32_t c = 0; c < 4; c++) {
		const __mmask16 bad =
			_mm512_cmp_ps_mask(res[c], tiny, _CMP_LT_OQ) &
			_mm512_cmp_ps_mask(res[c], _mm512_setzero_ps(),
			                   _CMP_NEQ_UQ);
		__m512 q;

		if (!fma || bad) {
			q = _mm512_div_ps(res[c], _mm512_set1_ps(scale));
		} else {
			const __m512 y = _mm512_mul_ps(res[c], inv_k);
			const __m512 q0 = _mm512_mul_ps(y, r);

			q = _mm512_fmadd_ps(_mm512_fnmadd_ps(q0, d, y), r, q0);
		}
		_mm512_storeu_ps(out + c * stride,
		                 _mm512_min_ps(q, _mm512_set1_ps(1.0f)));
	}
}

/* Each quad's weight broadcast to its four lanes. */
static inline __m512
per_quad(const float w[4])
{
	return _mm512_permutexvar_ps(
		_mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3,
		                  3),
		_mm512_castps128_ps512(_mm_loadu_ps(w)));
}

void
smp_four_quads_avx512(const struct fast_img *fi,
                      const struct fast_level *lv_lo,
                      const struct fast_level *lv_hi, bool linear,
                      const float S16[16], const float T16[16],
                      const float blend_lo[4], const float blend_hi[4],
                      float *out, size_t stride)
{
	const __m512 S = _mm512_loadu_ps(S16), T = _mm512_loadu_ps(T16);
	__m512 res[4];

	if (linear)
		level16(fi, lv_lo, S, T, res);
	else
		nearest16(fi, lv_lo, S, T, res);
	if (lv_hi) {
		const __m512 a = per_quad(blend_lo), b = per_quad(blend_hi);
		__m512 res2[4];

		if (linear)
			level16(fi, lv_hi, S, T, res2);
		else
			nearest16(fi, lv_hi, S, T, res2);
		for (uint32_t c = 0; c < 4; c++)
			res[c] = _mm512_add_ps(_mm512_mul_ps(a, res[c]),
			                       _mm512_mul_ps(b, res2[c]));
	}
	store16(res, smp_codes_scale(linear, 2), out, stride);
}
/* lod_log2_4 (interp_sample_fast.c) on sixteen lanes: the same
 * operations; a lane that is not a positive normal finite float takes
 * smp_log2 itself. */
static inline __m512
log2_16(__m512 x)
{
	const __m512i b = _mm512_castps_si512(x);
	const __mmask16 normal =
		_mm512_cmp_ps_mask(x, _mm512_set1_ps(0x1p-126f), _CMP_GE_OS) &
		_mm512_cmp_ps_mask(x, _mm512_set1_ps(INFINITY), _CMP_LT_OS);
	__m512i e = _mm512_sub_epi32(_mm512_srli_epi32(b, 23),
	                             _mm512_set1_epi32(127));
	__m512 m = _mm512_castsi512_ps(_mm512_or_si512(
		_mm512_and_si512(b, _mm512_set1_epi32(0x7fffff)),
		_mm512_set1_epi32(0x3f800000)));
	const __mmask16 big = _mm512_cmp_ps_mask(m, _mm512_set1_ps(SMP_SQRT2),
	                                         _CMP_GT_OS);

	m = _mm512_mask_mul_ps(m, big, m, _mm512_set1_ps(0.5f));
	e = _mm512_mask_add_epi32(e, big, e, _mm512_set1_epi32(1));
	const __m512 t = _mm512_div_ps(_mm512_sub_ps(m, _mm512_set1_ps(1.0f)),
	                               _mm512_add_ps(m, _mm512_set1_ps(1.0f)));
	const __m512 t2 = _mm512_mul_ps(t, t);
	__m512 p = _mm512_add_ps(_mm512_set1_ps(SMP_LOG2_C5),
	                         _mm512_mul_ps(t2, _mm512_set1_ps(SMP_LOG2_C7)));
	p = _mm512_add_ps(_mm512_set1_ps(SMP_LOG2_C3), _mm512_mul_ps(t2, p));
	p = _mm512_add_ps(_mm512_set1_ps(SMP_LOG2_C1), _mm512_mul_ps(t2, p));
	__m512 r = _mm512_add_ps(_mm512_cvtepi32_ps(e), _mm512_mul_ps(t, p));
	const __mmask16 odd = (__mmask16)~normal;

	if (odd) {
		float v[16], o[16];

		_mm512_storeu_ps(v, x);
		_mm512_storeu_ps(o, r);
		for (int i = 0; i < 16; i++)
			if (odd & (1u << i))
				o[i] = smp_log2(v[i]);
		r = _mm512_loadu_ps(o);
	}
	return r;
}

/* Lanes 0, 1 and 2 of each of the sixteen quads of v[0..63], one
 * vector each (quad order). */
static inline void
quad_lanes16(const float *v, __m512 *l0, __m512 *l1, __m512 *l2)
{
	const __m512 z0 = _mm512_loadu_ps(v), z1 = _mm512_loadu_ps(v + 16);
	const __m512 z2 = _mm512_loadu_ps(v + 32), z3 = _mm512_loadu_ps(v + 48);
	const __m512i i01 = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28,
	                                      1, 5, 9, 13, 17, 21, 25, 29);
	const __m512i i23 = _mm512_setr_epi32(2, 6, 10, 14, 18, 22, 26, 30,
	                                      3, 7, 11, 15, 19, 23, 27, 31);
	const __m512i lo = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7,
	                                     16, 17, 18, 19, 20, 21, 22, 23);
	const __m512i hi = _mm512_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15,
	                                     24, 25, 26, 27, 28, 29, 30, 31);
	const __m512 a = _mm512_permutex2var_ps(z0, i01, z1);
	const __m512 b = _mm512_permutex2var_ps(z2, i01, z3);
	const __m512 c = _mm512_permutex2var_ps(z0, i23, z1);
	const __m512 d = _mm512_permutex2var_ps(z2, i23, z3);

	*l0 = _mm512_permutex2var_ps(a, lo, b);
	*l1 = _mm512_permutex2var_ps(a, hi, b);
	*l2 = _mm512_permutex2var_ps(c, lo, d);
}

void
smp_lambdas16_avx512(const float S[64], const float T[64], float width,
                     float height, float lam[16])
{
	__m512 s0, s1, s2, t0, t1, t2;

	quad_lanes16(S, &s0, &s1, &s2);
	quad_lanes16(T, &t0, &t1, &t2);
	const __m512 w = _mm512_set1_ps(width), h = _mm512_set1_ps(height);
	const __m512 mxs = _mm512_mul_ps(_mm512_sub_ps(s1, s0), w);
	const __m512 mxt = _mm512_mul_ps(_mm512_sub_ps(t1, t0), h);
	const __m512 mys = _mm512_mul_ps(_mm512_sub_ps(s2, s0), w);
	const __m512 myt = _mm512_mul_ps(_mm512_sub_ps(t2, t0), h);
	const __m512 zero = _mm512_setzero_ps();
	const __m512 rx = _mm512_add_ps(_mm512_add_ps(zero,
	                                              _mm512_mul_ps(mxs, mxs)),
	                                _mm512_mul_ps(mxt, mxt));
	const __m512 ry = _mm512_add_ps(_mm512_add_ps(zero,
	                                              _mm512_mul_ps(mys, mys)),
	                                _mm512_mul_ps(myt, myt));

	/* vmaxps(a, b) is a > b ? a : b, as _mm_max_ps */
	_mm512_storeu_ps(lam, _mm512_mul_ps(_mm512_set1_ps(0.5f),
	                                    log2_16(_mm512_max_ps(rx, ry))));
}
#else
void
smp_four_quads_avx512(const struct fast_img *fi,
                      const struct fast_level *lv_lo,
                      const struct fast_level *lv_hi, bool linear,
                      const float S16[16], const float T16[16],
                      const float blend_lo[4], const float blend_hi[4],
                      float *out, size_t stride)
{
	(void)fi, (void)lv_lo, (void)lv_hi, (void)linear, (void)S16, (void)T16;
	(void)blend_lo, (void)blend_hi, (void)out, (void)stride;
	abort();        /* never called: smp_have_avx512() is false */
}
void
smp_lambdas16_avx512(const float S[64], const float T[64], float width,
                     float height, float lam[16])
{
	(void)S, (void)T, (void)width, (void)height, (void)lam;
	abort();        /* never called: smp_have_avx512() is false */
}
#endif
