/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: the common sample, fast. An IR_IMGSAMPLE whose
 * image and sampler are the same for every lane (no descriptor index
 * registers), of a 2D view with the identity swizzle, of a format whose
 * channels are bytes decoded by table (8-bit UNORM and sRGB,
 * format_byte_tables), with a normalized-coordinate sampler without
 * CLAMP_TO_BORDER, sampled (not gathered, no depth comparison) with an
 * implicit or explicit LOD, runs here instead of interp_sample.c's
 * general per-lane path.
 *
 * The results are bit for bit those of the general path: the same LOD
 * functions (lod_scale, lod_select), the same unnormalization, wrap and
 * floor rules (interp_sample.h), the texels decoded to the same floats
 * (8-bit UNORM: the same codes, smp_codes), and the same float
 * operations in the same order (bilinear weights (1 - fx) (1 - fy),
 * fx (1 - fy), (1 - fx) fy, fx fy summed from 0 in that order, zero
 * weights skipped; 8-bit UNORM LINEAR in fixed point by default, the
 * integer weights of smp_sub8, x then y, every value exact; then the
 * level blend; then smp_codes_value_scaled). What it
 * saves: the level geometry, resolved once per instruction and binding
 * contents (fast_resolve, interp_sample_setup.c, kept per thread)
 * instead of per texel; the LOD, once per quad (implicit LOD uses the quad's
 * coarse derivatives, the same for its four lanes); the per-texel
 * decode through doubles; and the integer division of REPEAT on
 * power-of-two sizes (a mask). Whole quads of 4-byte UNORM texels go
 * four lanes at a time (SSE2), or two quads reading the same levels
 * eight at a time (interp_sample_avx2.c, when the CPU has AVX2), or
 * four sixteen at a time (interp_sample_avx512.c); four whole quads
 * whose levels were selected ahead go to the AVX-512 filter straight
 * from the selection (sel_group), without the per-quad steps.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "interp_sample_fast.h"

/* Index i of an axis of size n wrapped by mode (never a border). */
static inline int32_t
fast_wrap(int32_t i, int32_t n, uint32_t mode)
{
	if (mode == 0 && !(n & (n - 1)))
		return i & (n - 1);     /* REPEAT, power of two */
	return smp_wrap(i, n, mode);
}

static inline const uint8_t *
fast_addr(const struct fast_img *fi, const struct fast_level *lv, int32_t x,
          int32_t y)
{
	return lv->base + (size_t)y * lv->row_pitch + (size_t)x * fi->elem;
}

#if defined(__SSE2__)
typedef __m128 v4f;
#define V4_ZERO() _mm_setzero_ps()
#define V4_SPLAT(f) _mm_set1_ps(f)
#define V4_ADD(a, b) _mm_add_ps(a, b)
#define V4_MUL(a, b) _mm_mul_ps(a, b)
#define V4_STORE(p, v) _mm_storeu_ps(p, v)

/* The texel's four channels in RGBA order: the codes for 8-bit UNORM
 * (smp_codes; the table's (float)(code / 255.0) times 255 is the code
 * for every code, and a missing channel's 0 or 1 gives 0 or 255), else
 * the decoded values. */
static inline v4f
fast_fetch(const struct fast_img *fi, const struct fast_level *lv,
           int32_t x, int32_t y)
{
	const uint8_t *p = fast_addr(fi, lv, x, y);

	if (fi->vec) {
		uint32_t w;

		memcpy(&w, p, 4);
		__m128i b = _mm_cvtsi32_si128((int)w);
		b = _mm_unpacklo_epi8(b, _mm_setzero_si128());
		b = _mm_unpacklo_epi16(b, _mm_setzero_si128());
		if (fi->bgra)
			b = _mm_shuffle_epi32(b, _MM_SHUFFLE(3, 0, 1, 2));
		return _mm_cvtepi32_ps(b);
	}
	const __m128 v = _mm_setr_ps(fi->tab[0][p[fi->byte[0]]],
	                             fi->tab[1][p[fi->byte[1]]],
	                             fi->tab[2][p[fi->byte[2]]],
	                             fi->tab[3][p[fi->byte[3]]]);
	return fi->codes ? _mm_mul_ps(v, _mm_set1_ps(255.0f)) : v;
}
#else
typedef struct { float v[4]; } v4f;

static inline v4f
V4_ZERO(void)
{
	return (v4f){ { 0.0f, 0.0f, 0.0f, 0.0f } };
}

static inline v4f
V4_SPLAT(float f)
{
	return (v4f){ { f, f, f, f } };
}

static inline v4f
V4_ADD(v4f a, v4f b)
{
	for (int c = 0; c < 4; c++)
		a.v[c] += b.v[c];
	return a;
}

static inline v4f
V4_MUL(v4f a, v4f b)
{
	for (int c = 0; c < 4; c++)
		a.v[c] *= b.v[c];
	return a;
}

#define V4_STORE(p, x) memcpy(p, (x).v, 16)

static inline v4f
fast_fetch(const struct fast_img *fi, const struct fast_level *lv,
           int32_t x, int32_t y)
{
	const uint8_t *p = fast_addr(fi, lv, x, y);
	v4f r;

	for (int c = 0; c < 4; c++) {
		r.v[c] = fi->tab[c][p[fi->byte[c]]];
		if (fi->codes)
			r.v[c] *= 255.0f;
	}
	return r;
}
#endif

/* One level at normalized (s, t) plus the texel offset (ox, oy). The
 * decoded channels are finite and >= 0, so adding a zero-weighted
 * texel's +0 changes nothing: the general path's skip is implicit. */
static inline v4f
fast_level_filter(const struct fast_img *fi, const struct fast_level *lv,
                  float s, float t, int32_t ox, int32_t oy, bool linear)
{
	const float u = smp_unnorm_clamp(s * lv->fw);
	const float v = smp_unnorm_clamp(t * lv->fh);

	if (!linear)
		return fast_fetch(fi, lv,
		                  fast_wrap(smp_floor_off(u, ox), lv->w,
		                            fi->addr[0]),
		                  fast_wrap(smp_floor_off(v, oy), lv->h,
		                            fi->addr[1]));
	const float fu = u - 0.5f, flu = floorf(fu);
	const float fv = v - 0.5f, flv = floorf(fv);
	const int32_t i0 = smp_floor_off(flu, ox), j0 = smp_floor_off(flv, oy);
	const float fx = fu - flu, fy = fv - flv;
	const int32_t x0 = fast_wrap(i0, lv->w, fi->addr[0]);
	const int32_t x1 = fast_wrap(i0 + 1, lv->w, fi->addr[0]);
	const int32_t y0 = fast_wrap(j0, lv->h, fi->addr[1]);
	const int32_t y1 = fast_wrap(j0 + 1, lv->h, fi->addr[1]);
	if (fi->fixed) {
		/* smp_sub8's integer weights: every product and sum is an
		 * integer below 2^24, exact */
		const float wx = (float)smp_sub8(fx), wy = (float)smp_sub8(fy);
		const v4f gx = V4_SPLAT((float)SMP_SUB_ONE - wx);
		const v4f r0 = V4_ADD(V4_MUL(gx, fast_fetch(fi, lv, x0, y0)),
		                      V4_MUL(V4_SPLAT(wx),
		                             fast_fetch(fi, lv, x1, y0)));
		const v4f r1 = V4_ADD(V4_MUL(gx, fast_fetch(fi, lv, x0, y1)),
		                      V4_MUL(V4_SPLAT(wx),
		                             fast_fetch(fi, lv, x1, y1)));

		return V4_ADD(V4_MUL(V4_SPLAT((float)SMP_SUB_ONE - wy), r0),
		              V4_MUL(V4_SPLAT(wy), r1));
	}
	const float gx = 1.0f - fx, gy = 1.0f - fy;
	v4f o = V4_MUL(V4_SPLAT(gx * gy), fast_fetch(fi, lv, x0, y0));

	o = V4_ADD(o, V4_MUL(V4_SPLAT(fx * gy), fast_fetch(fi, lv, x1, y0)));
	o = V4_ADD(o, V4_MUL(V4_SPLAT(gx * fy), fast_fetch(fi, lv, x0, y1)));
	return V4_ADD(o, V4_MUL(V4_SPLAT(fx * fy),
	                        fast_fetch(fi, lv, x1, y1)));
}

/* Quads of the widest batch whose LODs are computed ahead. */
#define FAST_LAMBDA_QUADS 64u

/* An instruction's operands and the resolved image. */
struct fast_ctx {
	const lane_t *A, *L;
	lane_t *D;
	uint32_t W;
	bool implicit;
	const struct fast_res *r;
	const struct fast_img *fi;
	/* no texel offsets and the same LOD operands (Bias, MinLod, an
	 * explicit Lod) in every lane: quad_lod checks nothing per quad */
	bool uniform;
	/* lambda_base of every quad (implicit LOD), computed four quads at
	 * a time ahead of the filtering (lod_lambdas), or NULL */
	const float *lam;
	/* with lam and uniform: every quad's levels, selected four quads
	 * at a time (lod_select_quads), or NULL */
	const struct quad_sel *sel;
};

/* lod_select_inline's results the fast path reads, per quad. */
struct quad_sel {
	uint32_t lo[FAST_LAMBDA_QUADS], hi[FAST_LAMBDA_QUADS];
	float delta[FAST_LAMBDA_QUADS];
	uint32_t linear[FAST_LAMBDA_QUADS];     /* all ones or 0 */
};

#define OPND(x, k, lane) ((x)->A[(size_t)(k) * (x)->W + (lane)])

/* lambda_base of lane l: implicit from its quad's coarse derivatives
 * (the quad's first row and column), else the Lod operand. */
static float
fast_lambda_base(const struct fast_ctx *x, uint32_t l)
{
	const uint32_t q = l & ~3u;
	float ddx[3], ddy[3];

	if (!x->implicit)
		return x->L[l].f;
	if (x->lam)
		return x->lam[l >> 2];
	for (uint32_t k = 0; k < 3; k++) {
		ddx[k] = OPND(x, k, q + 1).f - OPND(x, k, q).f;
		ddy[k] = OPND(x, k, q + 2).f - OPND(x, k, q).f;
	}
	return lod_scale(x->r->im, 2, ddx, ddy);
}

/* The levels lane l (its quad's lambda for an implicit LOD) reads. */
static inline void
fast_lod(const struct fast_ctx *x, uint32_t l, struct smp_lod *lod)
{
	if (x->r->lod_fixed) {
		*lod = x->r->lod0;
		return;
	}
	lod_select_inline(&x->r->ls, fast_lambda_base(x, l), OPND(x, 7, l).f,
	                  OPND(x, 8, l).f, lod);
}

#if defined(__SSE2__)
/* smp_log2 of four lanes: the same operations lane for lane; a lane
 * that is not a positive normal finite float (zero derivatives,
 * subnormals, infinities, NaN) takes smp_log2 itself. */
static inline __m128
lod_log2_4(__m128 x)
{
	const __m128i b = _mm_castps_si128(x);
	const __m128 normal = _mm_and_ps(
		_mm_cmpge_ps(x, _mm_set1_ps(0x1p-126f)),
		_mm_cmplt_ps(x, _mm_set1_ps(INFINITY)));
	__m128i e = _mm_sub_epi32(_mm_srli_epi32(b, 23), _mm_set1_epi32(127));
	__m128 m = _mm_castsi128_ps(_mm_or_si128(
		_mm_and_si128(b, _mm_set1_epi32(0x7fffff)),
		_mm_set1_epi32(0x3f800000)));
	const __m128 big = _mm_cmpgt_ps(m, _mm_set1_ps(SMP_SQRT2));

	m = _mm_or_ps(_mm_andnot_ps(big, m),
	              _mm_and_ps(big, _mm_mul_ps(m, _mm_set1_ps(0.5f))));
	e = _mm_sub_epi32(e, _mm_castps_si128(big));    /* +1 where big */
	const __m128 t = _mm_div_ps(_mm_sub_ps(m, _mm_set1_ps(1.0f)),
	                            _mm_add_ps(m, _mm_set1_ps(1.0f)));
	const __m128 t2 = _mm_mul_ps(t, t);
	__m128 p = _mm_add_ps(_mm_set1_ps(SMP_LOG2_C5),
	                      _mm_mul_ps(t2, _mm_set1_ps(SMP_LOG2_C7)));
	p = _mm_add_ps(_mm_set1_ps(SMP_LOG2_C3), _mm_mul_ps(t2, p));
	p = _mm_add_ps(_mm_set1_ps(SMP_LOG2_C1), _mm_mul_ps(t2, p));
	__m128 r = _mm_add_ps(_mm_cvtepi32_ps(e), _mm_mul_ps(t, p));
	const int odd = _mm_movemask_ps(normal) ^ 0xf;

	if (odd) {
		float v[4], o[4];

		_mm_storeu_ps(v, x);
		_mm_storeu_ps(o, r);
		for (int i = 0; i < 4; i++)
			if (odd & (1 << i))
				o[i] = smp_log2(v[i]);
		r = _mm_loadu_ps(o);
	}
	return r;
}

/*
 * fast_lambda_base of every quad of the W lanes, four quads at a time
 * (SWGPU_SAMPLE_LOD4=0: quad by quad): the quads' lanes transposed so
 * that one vector holds lane i of four quads, then lod_scale's
 * operations (derivatives of the quad's first row and column, squared
 * scaled sums from 0, the larger, 0.5 log2) in the same order. Quads
 * without active lanes are computed too (their values are never read).
 */
static void
lod_lambdas(const struct fast_ctx *x, float *lam)
{
	const __m128 w = _mm_set1_ps((float)x->r->im->width);
	const __m128 h = _mm_set1_ps((float)x->r->im->height);

	uint32_t q = 0;

	if (smp_have_avx512())
		for (; q + 64 <= x->W; q += 64)
			smp_lambdas16_avx512(&OPND(x, 0, q).f, &OPND(x, 1, q).f,
			                     (float)x->r->im->width,
			                     (float)x->r->im->height, lam + q / 4);
	for (; q < x->W; q += 16) {
		__m128 s0 = _mm_loadu_ps(&OPND(x, 0, q).f);
		__m128 s1 = _mm_loadu_ps(&OPND(x, 0, q + 4).f);
		__m128 s2 = _mm_loadu_ps(&OPND(x, 0, q + 8).f);
		__m128 s3 = _mm_loadu_ps(&OPND(x, 0, q + 12).f);
		__m128 t0 = _mm_loadu_ps(&OPND(x, 1, q).f);
		__m128 t1 = _mm_loadu_ps(&OPND(x, 1, q + 4).f);
		__m128 t2 = _mm_loadu_ps(&OPND(x, 1, q + 8).f);
		__m128 t3 = _mm_loadu_ps(&OPND(x, 1, q + 12).f);

		_MM_TRANSPOSE4_PS(s0, s1, s2, s3);
		_MM_TRANSPOSE4_PS(t0, t1, t2, t3);
		const __m128 mxs = _mm_mul_ps(_mm_sub_ps(s1, s0), w);
		const __m128 mxt = _mm_mul_ps(_mm_sub_ps(t1, t0), h);
		const __m128 mys = _mm_mul_ps(_mm_sub_ps(s2, s0), w);
		const __m128 myt = _mm_mul_ps(_mm_sub_ps(t2, t0), h);
		const __m128 zero = _mm_setzero_ps();
		const __m128 rx = _mm_add_ps(_mm_add_ps(zero,
		                                        _mm_mul_ps(mxs, mxs)),
		                             _mm_mul_ps(mxt, mxt));
		const __m128 ry = _mm_add_ps(_mm_add_ps(zero,
		                                        _mm_mul_ps(mys, mys)),
		                             _mm_mul_ps(myt, myt));
		/* max_ps(a, b) is a > b ? a : b, lod_scale's choice */
		_mm_storeu_ps(lam + q / 4, _mm_mul_ps(
			_mm_set1_ps(0.5f), lod_log2_4(_mm_max_ps(rx, ry))));
	}
}

/*
 * lod_select_inline for every quad's lambda_base lam[q] when one Bias
 * and one MinLod serve every lane (x->uniform), four quads per SSE
 * vector: the same comparisons and float operations (the bias and
 * minimum LOD once, as lod_select_inline computes them), so the same
 * levels, delta and filter. Normalized coordinates only (the fast
 * path's samplers).
 */
static void
lod_select_quads(const struct fast_ctx *x, const float *lam,
                 struct quad_sel *o)
{
	const struct lod_sampler *ls = &x->r->ls;
	float bias, min_lod;

	lod_bias_min(ls, OPND(x, 7, 0).f, OPND(x, 8, 0).f, &bias, &min_lod);
	const __m128 zero = _mm_setzero_ps(), q = _mm_set1_ps(ls->q);
	const __m128i qi = _mm_set1_epi32((int)ls->qi);
	const __m128i mag = _mm_set1_epi32(ls->mag_linear ? -1 : 0);
	const __m128i min = _mm_set1_epi32(ls->min_linear ? -1 : 0);

	for (uint32_t k = 0; k < x->W / 4; k += 4) {
		__m128 l = _mm_add_ps(_mm_loadu_ps(lam + k),
		                      _mm_set1_ps(bias));

		l = _mm_and_ps(l, _mm_cmpord_ps(l, l));        /* NaN: 0 */
		/* min_ps(a, b) is a < b ? a : b: lambda > max ? max : lambda,
		 * then lambda < min ? min : lambda */
		l = _mm_min_ps(_mm_set1_ps(ls->max_lod), l);
		l = _mm_max_ps(_mm_set1_ps(min_lod), l);
		const __m128i mg = _mm_castps_si128(_mm_cmple_ps(l, zero));
		_mm_storeu_si128((void *)(o->linear + k), _mm_or_si128(
			_mm_and_si128(mg, mag), _mm_andnot_si128(mg, min)));
		/* lambda < 0 ? 0 : lambda > q ? q : lambda */
		const __m128 d = _mm_min_ps(q, _mm_and_ps(
			l, _mm_cmpnlt_ps(l, zero)));
		__m128i lo, hi;
		__m128 delta;

		if (ls->mip_linear) {
			lo = _mm_cvttps_epi32(d);
			hi = _mm_add_epi32(lo, _mm_set1_epi32(1));
			hi = _mm_or_si128(
				_mm_andnot_si128(_mm_cmpgt_epi32(hi, qi), hi),
				_mm_and_si128(_mm_cmpgt_epi32(hi, qi), lo));
			delta = _mm_sub_ps(d, _mm_cvtepi32_ps(lo));
		} else {
			/* d <= 0.5 ? 0 : ceil(d + 0.5) - 1, at most q;
			 * ceil of v in (1, q + 0.5]: trunc(v) + (trunc(v)
			 * < v) */
			const __m128 v = _mm_add_ps(d, _mm_set1_ps(0.5f));
			const __m128 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(v));
			const __m128 c = _mm_add_ps(t, _mm_and_ps(
				_mm_cmplt_ps(t, v), _mm_set1_ps(1.0f)));
			__m128 n = _mm_sub_ps(c, _mm_set1_ps(1.0f));

			n = _mm_and_ps(n, _mm_cmpgt_ps(d, _mm_set1_ps(0.5f)));
			n = _mm_min_ps(q, n);
			lo = hi = _mm_cvttps_epi32(n);
			delta = zero;
		}
		_mm_storeu_si128((void *)(o->lo + k), lo);
		_mm_storeu_si128((void *)(o->hi + k), hi);
		_mm_storeu_ps(o->delta + k, delta);
	}
}

static bool
lod4_enabled(void)
{
	static int on = -1;

	if (__atomic_load_n(&on, __ATOMIC_RELAXED) < 0) {
		const char *e = getenv("SWGPU_SAMPLE_LOD4");

		__atomic_store_n(&on, !(e && e[0] == '0'), __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&on, __ATOMIC_RELAXED) != 0;
}
#endif

/* Lane l alone (any offsets, address modes, per-lane LOD). */
static void
fast_lane(const struct fast_ctx *x, uint32_t l)
{
	struct smp_lod lod;

	fast_lod(x, l, &lod);
	const float s = OPND(x, 0, l).f, t = OPND(x, 1, l).f;
	const int32_t ox = OPND(x, 4, l).i, oy = OPND(x, 5, l).i;
	v4f res = fast_level_filter(x->fi, &x->fi->lv[lod.lo], s, t, ox, oy,
	                            lod.linear);
	float out[4];

	if (lod.delta > 0.0f && lod.hi != lod.lo) {
		v4f res2 = fast_level_filter(x->fi, &x->fi->lv[lod.hi], s, t,
		                             ox, oy, lod.linear);
		res = V4_ADD(V4_MUL(V4_SPLAT(1.0f - lod.delta), res),
		             V4_MUL(V4_SPLAT(lod.delta), res2));
	}
	V4_STORE(out, res);
	const float scale = smp_codes_scale(x->fi->fixed && lod.linear, 2);
	for (uint32_t k = 0; k < 4; k++)
		x->D[(size_t)k * x->W + l].f = x->fi->codes ?
		        smp_codes_value_scaled(out[k], scale) : out[k];
}

#if defined(__SSE2__)
/*
 * A whole quad at once (four lanes per SSE vector): when its lanes share
 * the LOD inputs, have no texel offsets, and both address modes are
 * REPEAT on a power-of-two size or CLAMP_TO_EDGE. The same operations
 * as fast_lane's, lane for lane: floor of a float within +-1e9 by
 * truncation (exact there), the wraps as integer masks.
 */
static inline __m128
floor4(__m128 v)
{
	__m128 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(v));

	return _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, v),
	                                _mm_set1_ps(1.0f)));
}

/* smp_unnorm_clamp on four lanes. */
static inline __m128
unnorm4(__m128 u)
{
	const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	const __m128 fin = _mm_cmplt_ps(_mm_and_ps(u, abs_mask),
	                                _mm_set1_ps(INFINITY));

	u = _mm_and_ps(u, fin);
	return _mm_min_ps(_mm_max_ps(u, _mm_set1_ps(-1e9f)),
	                  _mm_set1_ps(1e9f));
}

static inline __m128i
wrap4(__m128i i, int32_t n, uint32_t mode)
{
	const __m128i top = _mm_set1_epi32(n - 1);

	if (mode == 0)
		return _mm_and_si128(i, top);
	/* CLAMP_TO_EDGE */
	i = _mm_andnot_si128(_mm_srai_epi32(i, 31), i);
	const __m128i gt = _mm_cmpgt_epi32(i, top);
	return _mm_or_si128(_mm_andnot_si128(gt, i), _mm_and_si128(gt, top));
}

static inline bool
quad_mode_ok(uint32_t mode, int32_t n)
{
	return (mode == 0 && !(n & (n - 1))) || mode == 2;
}

/* Texels (x[i], y[i]) of the four lanes, channel c of lane i in
 * lane i of out[c] (the register layout). */
static inline void
quad_fetch(const struct fast_img *fi, const struct fast_level *lv,
           const int32_t x[4], const size_t row[4], __m128 out[4])
{
	uint32_t w[4];

	for (uint32_t i = 0; i < 4; i++)
		memcpy(&w[i], lv->base + row[i] + (size_t)x[i] * 4, 4);
	const __m128i v = _mm_loadu_si128((const void *)w);
	for (uint32_t c = 0; c < 4; c++) {
		__m128i ch = _mm_and_si128(_mm_srl_epi32(v, _mm_cvtsi32_si128(
		                                8 * fi->byte[c])),
		                           _mm_set1_epi32(0xff));
		out[c] = _mm_cvtepi32_ps(ch);   /* codes (fi->vec) */
	}
}

/* smp_sub8 of four lanes' fractions, as floats. */
static inline __m128
quad_sub8(__m128 frac)
{
	const __m128i f = _mm_cvttps_epi32(_mm_mul_ps(
		frac, _mm_set1_ps((float)SMP_SUB_ONE)));
	const __m128i top = _mm_set1_epi32(SMP_SUB_ONE - 1);
	const __m128i gt = _mm_cmpgt_epi32(f, top);

	return _mm_cvtepi32_ps(_mm_or_si128(_mm_andnot_si128(gt, f),
	                                    _mm_and_si128(gt, top)));
}

/* quad_level's LINEAR in fixed point (smp_sub8): x then y with the
 * integer weights, every value an exact integer (fast_level_filter's
 * fixed form, lane for lane). */
static void
quad_fixed(const struct fast_img *fi, const struct fast_level *lv,
           __m128 FX, __m128 FY, const int32_t *const xs[4],
           const size_t *const rs[4], __m128 out[4])
{
	const __m128 one = _mm_set1_ps((float)SMP_SUB_ONE);
	const __m128 wx = quad_sub8(FX), wy = quad_sub8(FY);
	const __m128 gx = _mm_sub_ps(one, wx), gy = _mm_sub_ps(one, wy);
	__m128 t[4][4];

	for (uint32_t n = 0; n < 4; n++)
		quad_fetch(fi, lv, xs[n], rs[n], t[n]);
	for (uint32_t c = 0; c < 4; c++) {
		const __m128 r0 = _mm_add_ps(_mm_mul_ps(gx, t[0][c]),
		                             _mm_mul_ps(wx, t[1][c]));
		const __m128 r1 = _mm_add_ps(_mm_mul_ps(gx, t[2][c]),
		                             _mm_mul_ps(wx, t[3][c]));

		out[c] = _mm_add_ps(_mm_mul_ps(gy, r0), _mm_mul_ps(wy, r1));
	}
}

static void
quad_level(const struct fast_img *fi, const struct fast_level *lv,
           __m128 S, __m128 T, bool linear, __m128 out[4])
{
	const __m128 U = unnorm4(_mm_mul_ps(S, _mm_set1_ps(lv->fw)));
	const __m128 V = unnorm4(_mm_mul_ps(T, _mm_set1_ps(lv->fh)));
	int32_t x0[4], x1[4], y0[4], y1[4];
	size_t r0[4], r1[4];

	if (!linear) {
		_mm_storeu_si128((void *)x0, wrap4(_mm_cvttps_epi32(floor4(U)),
		                                   lv->w, fi->addr[0]));
		_mm_storeu_si128((void *)y0, wrap4(_mm_cvttps_epi32(floor4(V)),
		                                   lv->h, fi->addr[1]));
		for (uint32_t i = 0; i < 4; i++)
			r0[i] = (size_t)y0[i] * lv->row_pitch;
		quad_fetch(fi, lv, x0, r0, out);
		return;
	}
	const __m128 half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
	const __m128 FU = _mm_sub_ps(U, half), FV = _mm_sub_ps(V, half);
	const __m128 FLU = floor4(FU), FLV = floor4(FV);
	const __m128 FX = _mm_sub_ps(FU, FLU), FY = _mm_sub_ps(FV, FLV);
	const __m128 GX = _mm_sub_ps(one, FX), GY = _mm_sub_ps(one, FY);
	const __m128i I0 = _mm_cvttps_epi32(FLU), J0 = _mm_cvttps_epi32(FLV);
	const __m128i inc = _mm_set1_epi32(1);

	_mm_storeu_si128((void *)x0, wrap4(I0, lv->w, fi->addr[0]));
	_mm_storeu_si128((void *)x1, wrap4(_mm_add_epi32(I0, inc), lv->w,
	                                   fi->addr[0]));
	_mm_storeu_si128((void *)y0, wrap4(J0, lv->h, fi->addr[1]));
	_mm_storeu_si128((void *)y1, wrap4(_mm_add_epi32(J0, inc), lv->h,
	                                   fi->addr[1]));
	for (uint32_t i = 0; i < 4; i++) {
		r0[i] = (size_t)y0[i] * lv->row_pitch;
		r1[i] = (size_t)y1[i] * lv->row_pitch;
	}
	const __m128 w[4] = { _mm_mul_ps(GX, GY), _mm_mul_ps(FX, GY),
	                      _mm_mul_ps(GX, FY), _mm_mul_ps(FX, FY) };
	const int32_t *xs[4] = { x0, x1, x0, x1 };
	const size_t *rs[4] = { r0, r0, r1, r1 };

	if (fi->fixed) {
		quad_fixed(fi, lv, FX, FY, xs, rs, out);
		return;
	}
	for (uint32_t c = 0; c < 4; c++)
		out[c] = _mm_setzero_ps();
	for (uint32_t n = 0; n < 4; n++) {
		__m128 t[4];

		quad_fetch(fi, lv, xs[n], rs[n], t);
		for (uint32_t c = 0; c < 4; c++)
			out[c] = _mm_add_ps(out[c], _mm_mul_ps(w[n], t[c]));
	}
}

/* The LOD of quad q (lanes q..q+3, active ones in qm) when the quad
 * path takes it: no texel offsets, the LOD inputs the same in its
 * active lanes; false when it does not fit. */
static inline __attribute__((always_inline)) bool
quad_lod(const struct fast_ctx *x, uint32_t q, uint32_t qm,
         struct smp_lod *lod)
{
	const uint32_t f = (uint32_t)__builtin_ctz(qm);   /* first active */

	if (x->sel) {
		lod->lo = x->sel->lo[q / 4];
		lod->hi = x->sel->hi[q / 4];
		lod->delta = x->sel->delta[q / 4];
		lod->linear = x->sel->linear[q / 4] != 0;
		return true;
	}
	for (uint32_t i = 0; i < 4 && !x->uniform; i++) {
		if (!(qm & (1u << i)))
			continue;
		if (OPND(x, 4, q + i).u || OPND(x, 5, q + i).u)
			return false;
		if (!x->r->lod_fixed &&
		    (OPND(x, 7, q + i).u != OPND(x, 7, q + f).u ||
		     OPND(x, 8, q + i).u != OPND(x, 8, q + f).u ||
		     (!x->implicit && x->L[q + i].u != x->L[q + f].u)))
			return false;
	}
	fast_lod(x, q + f, lod);
	return true;
}

/* The level lod blends into lo, or -1 (none). */
static inline int32_t
quad_hi(const struct smp_lod *lod)
{
	return lod->delta > 0.0f && lod->hi != lod->lo ? (int32_t)lod->hi
	                                               : -1;
}

/* The results of quad q's active lanes (qm). */
static void
quad_store(const struct fast_ctx *x, uint32_t q, uint32_t qm,
           const __m128 res[4])
{
	for (uint32_t c = 0; c < 4; c++) {
		lane_t *dst = x->D + (size_t)c * x->W + q;
		float tmp[4];

		if (qm == 0xf) {
			_mm_storeu_ps(&dst->f, res[c]);
			continue;
		}
		_mm_storeu_ps(tmp, res[c]);
		for (uint32_t i = 0; i < 4; i++)
			if (qm & (1u << i))
				dst[i].f = tmp[i];
	}
}

/* Quad q through the quad path at its LOD (quad_lod). */
static void
fast_quad(const struct fast_ctx *x, uint32_t q, uint32_t qm,
          const struct smp_lod *lod)
{
	const __m128 S = _mm_loadu_ps(&OPND(x, 0, q).f);
	const __m128 T = _mm_loadu_ps(&OPND(x, 1, q).f);
	__m128 res[4];

	quad_level(x->fi, &x->fi->lv[lod->lo], S, T, lod->linear, res);
	if (quad_hi(lod) >= 0) {
		__m128 res2[4];
		const __m128 a = _mm_set1_ps(1.0f - lod->delta);
		const __m128 b = _mm_set1_ps(lod->delta);

		quad_level(x->fi, &x->fi->lv[lod->hi], S, T, lod->linear,
		           res2);
		for (uint32_t c = 0; c < 4; c++)
			res[c] = _mm_add_ps(_mm_mul_ps(a, res[c]),
			                    _mm_mul_ps(b, res2[c]));
	}
	/* smp_codes_value_scaled: the min returns 1.0 where v > 1 as the
	 * scalar form does (no NaN here) */
	const __m128 scale = _mm_set1_ps(smp_codes_scale(
		x->fi->fixed && lod->linear, 2));
	for (uint32_t c = 0; c < 4; c++)
		res[c] = _mm_min_ps(_mm_div_ps(res[c], scale),
		                    _mm_set1_ps(1.0f));
	quad_store(x, q, qm, res);
}

/*
 * Quads q and q + 4 together on AVX2 when they read the same level(s)
 * with the same filter: false (nothing done) otherwise. A quad that
 * does not blend while the other does is blended with weights 1 and 0:
 * 1 * a + 0 * b is a (b finite, a never -0), the same bits.
 */
static bool
fast_two_quads(const struct fast_ctx *x, uint32_t q, uint32_t qm0,
               uint32_t qm1, const struct smp_lod *l0,
               const struct smp_lod *l1)
{
	const int32_t h0 = quad_hi(l0), h1 = quad_hi(l1);
	const int32_t hi = h0 >= 0 ? h0 : h1;

	if (l0->lo != l1->lo || l0->linear != l1->linear ||
	    (h0 >= 0 && h1 >= 0 && h0 != h1))
		return false;
	const float a[2] = { h0 >= 0 ? 1.0f - l0->delta : 1.0f,
	                     h1 >= 0 ? 1.0f - l1->delta : 1.0f };
	const float b[2] = { h0 >= 0 ? l0->delta : 0.0f,
	                     h1 >= 0 ? l1->delta : 0.0f };
	float out[4][8];
	__m128 r0[4], r1[4];

	if (qm0 == 0xf && qm1 == 0xf) {
		/* every lane live: straight into the registers */
		smp_two_quads_avx2(x->fi, &x->fi->lv[l0->lo],
		                   hi >= 0 ? &x->fi->lv[hi] : NULL,
		                   l0->linear, &OPND(x, 0, q).f,
		                   &OPND(x, 1, q).f, a, b, &x->D[q].f, x->W);
		return true;
	}
	smp_two_quads_avx2(x->fi, &x->fi->lv[l0->lo],
	                   hi >= 0 ? &x->fi->lv[hi] : NULL, l0->linear,
	                   &OPND(x, 0, q).f, &OPND(x, 1, q).f, a, b, out[0],
	                   8);
	for (uint32_t c = 0; c < 4; c++) {
		r0[c] = _mm_loadu_ps(&out[c][0]);
		r1[c] = _mm_loadu_ps(&out[c][4]);
	}
	quad_store(x, q, qm0, r0);
	quad_store(x, q + 4, qm1, r1);
	return true;
}

/*
 * Quads q, q + 4, q + 8 and q + 12 together on AVX-512 when all have
 * the same filter (LINEAR only on a fixed-point image) at the same level
 * and blend into the same one, or not at all: false (nothing done)
 * otherwise. Blend weights as fast_two_quads's.
 */
static bool
fast_four_quads(const struct fast_ctx *x, uint32_t q, const uint32_t qm[4],
                const struct smp_lod l[4])
{
	int32_t hi = -1;
	float a[4], b[4];
	bool whole = true;

	for (uint32_t k = 0; k < 4; k++) {
		const int32_t h = quad_hi(&l[k]);

		if (l[k].lo != l[0].lo || l[k].linear != l[0].linear ||
		    (l[k].linear && !x->fi->fixed) ||
		    (h >= 0 && hi >= 0 && h != hi))
			return false;
		if (h >= 0)
			hi = h;
		a[k] = h >= 0 ? 1.0f - l[k].delta : 1.0f;
		b[k] = h >= 0 ? l[k].delta : 0.0f;
		whole = whole && qm[k] == 0xf;
	}
	const struct fast_level *lo = &x->fi->lv[l[0].lo];
	const struct fast_level *lh = hi >= 0 ? &x->fi->lv[hi] : NULL;

	if (whole) {
		/* every lane live: straight into the registers */
		smp_four_quads_avx512(x->fi, lo, lh, l[0].linear,
		                      &OPND(x, 0, q).f, &OPND(x, 1, q).f, a, b,
		                      &x->D[q].f, x->W);
		return true;
	}
	float out[4][16];

	smp_four_quads_avx512(x->fi, lo, lh, l[0].linear, &OPND(x, 0, q).f,
	                      &OPND(x, 1, q).f, a, b, out[0], 16);
	for (uint32_t k = 0; k < 4; k++) {
		__m128 r[4];

		for (uint32_t c = 0; c < 4; c++)
			r[c] = _mm_loadu_ps(&out[c][4 * k]);
		quad_store(x, q + 4 * k, qm[k], r);
	}
	return true;
}
#endif

#if defined(__SSE2__)
/*
 * fast_four_quads's choice for quads q/4 .. q/4 + 3 from the selected
 * levels alone (x->sel), four quads per SSE vector: false when they do
 * not share the level and filter (or LINEAR is not fixed-point), or the
 * quads that blend do not blend into the same level. Otherwise the
 * level lo, the level hi (-1: none) and the blend weights, computed as
 * fast_four_quads computes them (1 - delta, delta; 1 and 0 for a quad
 * that does not blend).
 */
static inline bool
sel_group(const struct fast_ctx *x, uint32_t q, uint32_t *lo, int32_t *hi,
          bool *linear, float a[4], float b[4])
{
	const struct quad_sel *s = x->sel;
	const uint32_t k = q / 4;
	const __m128i lo4 = _mm_loadu_si128((const void *)(s->lo + k));
	const __m128i hi4 = _mm_loadu_si128((const void *)(s->hi + k));
	const __m128i lin4 = _mm_loadu_si128((const void *)(s->linear + k));
	const __m128 d4 = _mm_loadu_ps(s->delta + k);

	if (_mm_movemask_epi8(_mm_cmpeq_epi32(
		    lo4, _mm_shuffle_epi32(lo4, 0))) != 0xffff ||
	    _mm_movemask_epi8(_mm_cmpeq_epi32(
		    lin4, _mm_shuffle_epi32(lin4, 0))) != 0xffff)
		return false;
	*linear = s->linear[k] != 0;
	if (*linear && !x->fi->fixed)
		return false;
	/* quad_hi: delta > 0 and hi != lo */
	const __m128 valid = _mm_andnot_ps(
		_mm_castsi128_ps(_mm_cmpeq_epi32(hi4, lo4)),
		_mm_cmpgt_ps(d4, _mm_setzero_ps()));
	const int vm = _mm_movemask_ps(valid);

	*hi = -1;
	if (vm) {
		const uint32_t h = s->hi[k + (uint32_t)__builtin_ctz(
			(unsigned)vm)];
		const int same = _mm_movemask_ps(_mm_castsi128_ps(
			_mm_cmpeq_epi32(hi4, _mm_set1_epi32((int)h))));

		/* hi is lo + 1 wherever it differs from lo, so this holds
		 * once lo agrees; checked as fast_four_quads checks it */
		if ((same & vm) != vm)
			return false;
		*hi = (int32_t)h;
	}
	*lo = s->lo[k];
	const __m128 one = _mm_set1_ps(1.0f);
	_mm_storeu_ps(a, _mm_or_ps(_mm_and_ps(valid, _mm_sub_ps(one, d4)),
	                           _mm_andnot_ps(valid, one)));
	_mm_storeu_ps(b, _mm_and_ps(valid, d4));
	return true;
}

/* Every lane of quads q .. q + 15 active (m[l] non-zero)? */
static inline bool
group_whole(const uint8_t *m, uint32_t q, bool full)
{
	return full || _mm_movemask_epi8(_mm_cmpeq_epi8(
		_mm_loadu_si128((const void *)(m + q)),
		_mm_setzero_si128())) == 0;
}
#endif

/* In this file, not interp_sample_avx2.c: the probe must run on any
 * CPU. */
static bool have_avx2, have_avx512;
static pthread_once_t avx2_once = PTHREAD_ONCE_INIT;

bool smp_fma_div;

static void
avx2_probe(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* SWGPU_SAMPLE_AVX2=0: the SSE2 quads (same bits; for comparing) */
	const char *e = getenv("SWGPU_SAMPLE_AVX2");

	/* SWGPU_SAMPLE_FMA=0: the AVX2 filter divides by vdivps */
	const char *f = getenv("SWGPU_SAMPLE_FMA");

	__builtin_cpu_init();
	/* the AVX2 file is built for FMA too (its exact division) */
	have_avx2 = __builtin_cpu_supports("avx2") &&
	            __builtin_cpu_supports("fma") && !(e && e[0] == '0');
	smp_fma_div = !(f && f[0] == '0');
#if defined(SWGPU_SAMPLE_AVX512)
	/* SWGPU_SAMPLE_AVX512=0: two quads a vector (same bits) */
	const char *w = getenv("SWGPU_SAMPLE_AVX512");

	have_avx512 = have_avx2 && __builtin_cpu_supports("avx512f") &&
	              __builtin_cpu_supports("avx512bw") &&
	              !(w && w[0] == '0');
#endif
#endif
}

bool
smp_have_avx2(void)
{
	pthread_once(&avx2_once, avx2_probe);
	return have_avx2;
}

bool
smp_have_avx512(void)
{
	pthread_once(&avx2_once, avx2_probe);
	return have_avx512;
}

/* Are the W lanes of v the same bits (all 0 with zero)? */
static bool
lanes_uniform(const lane_t *v, uint32_t W, bool zero)
{
	const uint32_t first = zero ? 0 : v[0].u;
	uint32_t diff = 0, l = 0;

#if defined(__SSE2__)
	/* four lanes a step, two accumulators: gcc -O2 leaves the scalar
	 * loop below scalar (an unknown trip count), and the five scans
	 * per call were 1.4 % of gfx_scene's time */
	const __m128i f = _mm_set1_epi32((int)first);
	__m128i d0 = _mm_setzero_si128(), d1 = _mm_setzero_si128();

	for (; l + 8 <= W; l += 8) {
		d0 = _mm_or_si128(d0, _mm_xor_si128(_mm_loadu_si128(
			(const __m128i *)(const void *)(v + l)), f));
		d1 = _mm_or_si128(d1, _mm_xor_si128(_mm_loadu_si128(
			(const __m128i *)(const void *)(v + l + 4)), f));
	}
	d0 = _mm_or_si128(d0, d1);
	diff = _mm_movemask_epi8(_mm_cmpeq_epi32(d0, _mm_setzero_si128())) !=
	       0xffff;
#endif
	for (; l < W; l++)
		diff |= v[l].u ^ first;
	return !diff;
}

/* The active lanes of quad q (bit i: lane q + i). */
static inline uint32_t
quad_mask(const uint8_t *m, uint32_t q, bool full)
{
	if (full)
		return 0xf;
	return (m[q] ? 1u : 0u) | (m[q + 1] ? 2u : 0u) |
	       (m[q + 2] ? 4u : 0u) | (m[q + 3] ? 8u : 0u);
}

bool
interp_sample_fast(struct ir_exec *e, const struct ir_dispatch *d,
                   const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	const uint8_t *m = e->mask;
	struct fast_ctx x = {
		.A = e->regs + (size_t)in->a * W,
		.L = e->regs + (size_t)in->b * W,
		.D = e->regs + (size_t)in->dst * W,
		.W = W,
		.implicit = (in->aux2 & IR_SMP_LOD_MASK) == IR_SMP_LOD_IMPLICIT,
	};

	x.r = fast_resolve(d, in);
	if (!x.r)
		return false;
	x.fi = &x.r->fi;
#if defined(__SSE2__)
	/* W is a multiple of 32 (16 lanes a step) */
	float lam[FAST_LAMBDA_QUADS];

	if (x.implicit && !x.r->lod_fixed && W / 4 <= FAST_LAMBDA_QUADS &&
	    !(W % 16) && lod4_enabled()) {
		lod_lambdas(&x, lam);
		x.lam = lam;
	}
#endif
	x.uniform = lanes_uniform(&OPND(&x, 4, 0), W, true) &&
	            lanes_uniform(&OPND(&x, 5, 0), W, true) &&
	            (x.r->lod_fixed ||
	             (lanes_uniform(&OPND(&x, 7, 0), W, false) &&
	              lanes_uniform(&OPND(&x, 8, 0), W, false) &&
	              (x.implicit || lanes_uniform(x.L, W, false))));
#if defined(__SSE2__)
	struct quad_sel sel;

	if (x.lam && x.uniform && !x.r->lod_fixed && !x.r->ls.unnorm) {
		lod_select_quads(&x, x.lam, &sel);
		x.sel = &sel;
	}
#endif
#if defined(__SSE2__)
	const bool quads = x.fi->vec && x.fi->elem == 4 && x.r->im->levels &&
	                   quad_mode_ok(x.fi->addr[0], x.fi->lv[0].w) &&
	                   quad_mode_ok(x.fi->addr[1], x.fi->lv[0].h);
	const bool pairs = quads && x.fi->off32 && smp_have_avx2();
	/* four quads a vector: NEAREST, or LINEAR on fixed-point codes */
	const bool fours = pairs && smp_have_avx512();
	/* quad q's LOD when the previous step computed it (a pair that
	 * did not match) */
	bool have_next = false;
	struct smp_lod next;
#endif
#if defined(__SSE2__)
	/* four whole quads whose levels were selected ahead (x.sel), or
	 * that all read lod0 (a LOD that cannot change the result, no
	 * texel offsets: what quad_lod gives every quad then) */
	const bool fixed_lod = x.r->lod_fixed && x.uniform &&
	                       !(x.r->lod0.linear && !x.fi->fixed);
	const bool groups = fours && (x.sel || fixed_lod);
	/* lod0 is set only for a fixed LOD */
	const struct smp_lod l0 = fixed_lod ? x.r->lod0 : (struct smp_lod){ 0 };
	const int32_t hi0 = quad_hi(&l0);
	const float a0 = hi0 >= 0 ? 1.0f - l0.delta : 1.0f;
	const float b0 = hi0 >= 0 ? l0.delta : 0.0f;
#endif
	/* W is a multiple of 32: whole quads */
	for (uint32_t q = 0; q < W; q += 4) {
#if defined(__SSE2__)
		/* straight to the four-quad filter when they share their
		 * levels (sel_group), without the per-quad steps below (the
		 * same bits either way) */
		if (groups && !have_next && q + 16 <= W &&
		    group_whole(m, q, full)) {
			uint32_t lo = l0.lo;
			int32_t hi = hi0;
			bool linear = l0.linear;
			float a[4] = { a0, a0, a0, a0 }, b[4] = { b0, b0, b0, b0 };

			if (!x.sel || sel_group(&x, q, &lo, &hi, &linear, a, b)) {
				smp_four_quads_avx512(
					x.fi, &x.fi->lv[lo],
					hi >= 0 ? &x.fi->lv[hi] : NULL, linear,
					&OPND(&x, 0, q).f, &OPND(&x, 1, q).f,
					a, b, &x.D[q].f, W);
				q += 12;
				continue;
			}
		}
#endif
		uint32_t qm = quad_mask(m, q, full);

		if (!qm)
			continue;
#if defined(__SSE2__)
		if (fours && !have_next && q + 16 <= W) {
			uint32_t qm4[4] = { qm, 0, 0, 0 };
			struct smp_lod l4[4];
			bool all = quads;

			for (uint32_t k = 0; k < 4 && all; k++) {
				if (k)
					qm4[k] = quad_mask(m, q + 4 * k, full);
				all = qm4[k] && quad_lod(&x, q + 4 * k, qm4[k],
				                         &l4[k]);
			}
			if (all && fast_four_quads(&x, q, qm4, l4)) {
				q += 12;
				continue;
			}
		}
		struct smp_lod lod;
		bool ok = have_next;

		if (have_next)
			lod = next;
		else
			ok = quads && quad_lod(&x, q, qm, &lod);
		have_next = false;
		if (ok) {
			const uint32_t qm1 = q + 4 < W ? quad_mask(m, q + 4,
			                                           full) : 0;

			if (pairs && qm1 && quad_lod(&x, q + 4, qm1, &next)) {
				if (fast_two_quads(&x, q, qm, qm1, &lod,
				                   &next)) {
					q += 4;
					continue;
				}
				have_next = true;
			}
			fast_quad(&x, q, qm, &lod);
			continue;
		}
#endif
		for (uint32_t i = 0; i < 4; i++)
			if (qm & (1u << i))
				fast_lane(&x, q + i);
	}
	return true;
}
