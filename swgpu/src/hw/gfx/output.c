/* SPDX-License-Identifier: MIT */
/*
 * Colour output: one fragment's colour into a colour attachment, through
 * the format table's encoders (sRGB encoded on write; hw/format).
 *
 *  - integer targets take the shader's integers (clamped to the channel
 *    by the encoder), float targets its floats;
 *  - blending (float targets with blending on) reads the destination
 *    through the decoder (sRGB decoded to linear), blends in float
 *    (blend.c) and encodes the result;
 *  - logic ops (UNORM, SNORM, UINT, SINT targets) combine the encoded
 *    source bits with the destination bits channel by channel; blending
 *    is then off for that target, as the spec says;
 *  - the colour write mask keeps the destination bits of masked-off
 *    channels exactly (merged at the bit level after encoding).
 * RGBA8 / BGRA8 UNORM and sRGB targets have a direct path for the usual
 * case (all channels written, no logic op) that computes the same bytes.
 */
#include "hw/gfx/gfx_internal.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static uint64_t
get_bits(const uint8_t *blk, uint32_t off, uint32_t width)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < width; i++) {
		uint32_t b = off + i;
		v |= (uint64_t)((blk[b >> 3] >> (b & 7)) & 1u) << i;
	}
	return v;
}

static void
put_bits(uint8_t *blk, uint32_t off, uint32_t width, uint64_t v)
{
	for (uint32_t i = 0; i < width; i++) {
		uint32_t b = off + i;
		uint8_t m = (uint8_t)(1u << (b & 7));
		if ((v >> i) & 1u)
			blk[b >> 3] |= m;
		else
			blk[b >> 3] &= (uint8_t)~m;
	}
}

static bool
is_fast(const struct gfx_color_target *rt)
{
	return rt->fast != GFX_FAST_NONE && rt->write_mask == 0xf &&
	       !rt->logic;
}

void
gfx_output_target_init(struct gfx_color_target *rt)
{
	const swgpu_format_info *fi = rt->pl.fi;

	rt->cls = fi->blit_class;
	rt->numeric = fi->numeric;
	rt->present = 0;
	for (uint32_t c = 0; c < 4; c++)
		if (fi->bit_width[c])
			rt->present |= 1u << c;
	rt->srgb = fi->numeric == SWGPU_NUMERIC_SRGB;
	switch (fi->numeric) {
	case SWGPU_NUMERIC_UNORM:
	case SWGPU_NUMERIC_SRGB:
		rt->clamp_lo = 0.0f;
		rt->clamp_hi = 1.0f;
		break;
	case SWGPU_NUMERIC_SNORM:
		rt->clamp_lo = -1.0f;
		rt->clamp_hi = 1.0f;
		break;
	default:
		rt->clamp_lo = -INFINITY;
		rt->clamp_hi = INFINITY;
		break;
	}
	rt->fast = GFX_FAST_NONE;
	switch (format_id(fi)) {
	case SWGPU_FORMAT_R8G8B8A8_UNORM:
		rt->fast = GFX_FAST_RGBA8_UNORM;
		break;
	case SWGPU_FORMAT_B8G8R8A8_UNORM:
		rt->fast = GFX_FAST_BGRA8_UNORM;
		break;
	case SWGPU_FORMAT_R8G8B8A8_SRGB:
		rt->fast = GFX_FAST_RGBA8_SRGB;
		break;
	case SWGPU_FORMAT_B8G8R8A8_SRGB:
		rt->fast = GFX_FAST_BGRA8_SRGB;
		break;
	default:
		break;
	}
	rt->pl.decode = format_decoder(fi);
	rt->pl.encode = format_encoder(fi);
}

/* ------------------------------------------------------------------ */
/* 8-bit RGBA / BGRA                                                   */
/* ------------------------------------------------------------------ */

/* The same conversions as the format table's 8-bit codecs: UNORM is
 * round-half-even of v * 255 after clamping (for a float v that is
 * floor(v * 255 + 1/2) computed in double, the only tie being 0.5,
 * which rounds up either way); sRGB picks the smallest n whose upper
 * threshold ((n + 1/2) / 255 in sRGB, linearized) lies above v. */
static float srgb_decode_lut[256];
static double srgb_upper[256];
static uint8_t srgb_start[1025];   /* encode(i / 1024): a lower bound */
static pthread_once_t srgb_once = PTHREAD_ONCE_INIT;

static void
srgb_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		srgb_decode_lut[i] =
			(float)format_srgb_to_linear((double)i / 255.0);
		srgb_upper[i] = format_srgb_to_linear(((double)i + 0.5) /
		                                      255.0);
	}
	for (uint32_t i = 0; i <= 1024; i++) {
		double l = (double)i / 1024.0;
		uint32_t n = 0;
		while (n < 255 && !(l < srgb_upper[n]))
			n++;
		srgb_start[i] = (uint8_t)n;
	}
}

static inline uint8_t
unorm8(float v)
{
	/* NaN and negatives -> 0 */
	double x = v > 0.0f ? (v < 1.0f ? (double)v : 1.0) : 0.0;
	return (uint8_t)(int)(x * 255.0 + 0.5);
}

static inline uint8_t
srgb8(float v)
{
	if (!(v > 0.0f))
		return 0;
	if (v >= 1.0f)
		return 255;
	uint32_t n = srgb_start[(int)(v * 1024.0f)];
	while (n < 255 && !((double)v < srgb_upper[n]))
		n++;
	return (uint8_t)n;
}

static inline float
clamp01(float v)
{
	return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

/* Blending with the factors most draws use, computed as gfx_blend
 * would (same operations in the same order). */
static inline void
blend_fast(uint8_t mode, const float s_in[4], const float d[4], float o[4])
{
	float s[4];

	for (int c = 0; c < 4; c++)
		s[c] = clamp01(s_in[c]);
	switch (mode) {
	case GFX_BLEND_ALPHA:        /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA */
		for (int c = 0; c < 4; c++)
			o[c] = s[c] * s[3] + d[c] * (1.0f - s[3]);
		break;
	case GFX_BLEND_PREMUL:       /* ONE, ONE_MINUS_SRC_ALPHA */
		for (int c = 0; c < 4; c++)
			o[c] = s[c] * 1.0f + d[c] * (1.0f - s[3]);
		break;
	default:                     /* ADD: ONE, ONE */
		for (int c = 0; c < 4; c++)
			o[c] = s[c] * 1.0f + d[c] * 1.0f;
		break;
	}
}

static float unorm8_lut[256];
static pthread_once_t unorm8_once = PTHREAD_ONCE_INIT;

static void
unorm8_init(void)
{
	for (uint32_t i = 0; i < 256; i++)
		unorm8_lut[i] = (float)((double)i / 255.0);
}

/* One pixel of an 8-bit target; the flags are constants in each copy
 * output_batch8 instantiates, so the branches on them fold away. */
static inline __attribute__((always_inline)) void
pixel8(const struct gfx_draw *d, const struct gfx_color_target *rt,
       uint8_t *px, const lane_t *const src[4], const lane_t *const src1[4],
       uint32_t l, bool bgra, bool srgb, uint8_t mode)
{
	const uint32_t ci[4] = { bgra ? 2u : 0u, 1u, bgra ? 0u : 2u, 3u };
	float s[4], o[4];

	for (int c = 0; c < 4; c++)
		s[c] = src[c][l].f;
	if (mode != GFX_BLEND_NONE) {
		float dst[4];
		for (int c = 0; c < 4; c++) {
			uint8_t b = px[ci[c]];
			dst[c] = srgb && c < 3 ? srgb_decode_lut[b]
			                       : unorm8_lut[b];
		}
		if (mode != GFX_BLEND_GENERIC) {
			blend_fast(mode, s, dst, o);
		} else {
			float s1[4] = { 0, 0, 0, 0 };
			for (int c = 0; src1[0] && c < 4; c++)
				s1[c] = src1[c][l].f;
			gfx_blend(rt, d->blend_const, s, s1, dst, o);
		}
	} else {
		memcpy(o, s, sizeof(o));
	}
	for (int c = 0; c < 4; c++)
		px[ci[c]] = srgb && c < 3 ? srgb8(o[c]) : unorm8(o[c]);
}

#if defined(__SSE2__)
/* Blend factor f (VkBlendFactor) of channel c for four lanes, as
 * blend.c's factor(). */
static inline __attribute__((always_inline)) __m128
factor4(uint32_t f, int c, const __m128 *s, const __m128 *s1, const __m128 *d,
        const __m128 *k)
{
	const __m128 one = _mm_set1_ps(1.0f);

	switch (f) {
	case 0: return _mm_setzero_ps();
	case 1: return one;
	case 2: return s[c];
	case 3: return _mm_sub_ps(one, s[c]);
	case 4: return d[c];
	case 5: return _mm_sub_ps(one, d[c]);
	case 6: return s[3];
	case 7: return _mm_sub_ps(one, s[3]);
	case 8: return d[3];
	case 9: return _mm_sub_ps(one, d[3]);
	case 10: return k[c];
	case 11: return _mm_sub_ps(one, k[c]);
	case 12: return k[3];
	case 13: return _mm_sub_ps(one, k[3]);
	case 14: return c == 3 ? one : _mm_min_ps(s[3], _mm_sub_ps(one, d[3]));
	case 15: return s1[c];
	case 16: return _mm_sub_ps(one, s1[c]);
	case 17: return s1[3];
	case 18: return _mm_sub_ps(one, s1[3]);
	default: return _mm_setzero_ps();
	}
}

/* What the generic blend of a quad needs besides its colours. */
struct blend4 {
	const struct swgpu_blend_attachment *b;
	__m128 k[4];               /* blend constants, clamped */
};

/* One 2x2 quad of an 8-bit UNORM target in SSE2, its four lanes side by
 * side: the same float operations as pixel8 and blend.c, in the same
 * order, and the same conversion (v * 255 rounded to nearest, exactly),
 * so the bytes are identical. Lanes outside m keep their bytes. */
static inline __attribute__((always_inline)) void
quad8_sse(uint8_t *p0, uint8_t *p1, const lane_t *const src[4],
          const lane_t *const src1[4], uint32_t l, uint32_t m, bool bgra,
          uint8_t mode, const struct blend4 *bl)
{
	const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
	const uint32_t sh[4] = { bgra ? 16u : 0u, 8u, bgra ? 0u : 16u, 24u };
	__m128i dpx = _mm_unpacklo_epi64(_mm_loadl_epi64((const void *)p0),
	                                 _mm_loadl_epi64((const void *)p1));
	__m128 s[4], o[4];

	for (int c = 0; c < 4; c++)
		s[c] = _mm_loadu_ps(&src[c][l].f);
	if (mode == GFX_BLEND_NONE) {
		for (int c = 0; c < 4; c++)
			o[c] = s[c];
	} else {
		const __m128i ff = _mm_set1_epi32(0xff);
		const __m128 k255 = _mm_set1_ps(255.0f);
		__m128 dv[4];
		for (int c = 0; c < 4; c++) {
			__m128i ch = _mm_and_si128(
				_mm_srli_epi32(dpx, (int)sh[c]), ff);
			dv[c] = _mm_div_ps(_mm_cvtepi32_ps(ch), k255);
			/* clamp01: NaN -> 0 (max returns the second operand) */
			s[c] = _mm_min_ps(_mm_max_ps(s[c], zero), one);
		}
		const __m128 sa = s[3], isa = _mm_sub_ps(one, sa);
		if (mode == GFX_BLEND_GENERIC) {
			__m128 s1[4];
			for (int c = 0; c < 4; c++)
				s1[c] = src1[0] ? _mm_min_ps(_mm_max_ps(
				                _mm_loadu_ps(&src1[c][l].f), zero),
				                one)
				                : zero;
			const struct swgpu_blend_attachment *b = bl->b;
			for (int c = 0; c < 4; c++) {
				uint32_t sf = c < 3 ? b->src_color : b->src_alpha;
				uint32_t df = c < 3 ? b->dst_color : b->dst_alpha;
				uint32_t op = c < 3 ? b->color_op : b->alpha_op;
				__m128 x = _mm_mul_ps(s[c], factor4(sf, c, s, s1,
				                                    dv, bl->k));
				__m128 y = _mm_mul_ps(dv[c], factor4(df, c, s, s1,
				                                     dv, bl->k));
				switch (op) {
				case 1: o[c] = _mm_sub_ps(x, y); break;
				case 2: o[c] = _mm_sub_ps(y, x); break;
				case 3: o[c] = _mm_min_ps(s[c], dv[c]); break;
				case 4: o[c] = _mm_max_ps(s[c], dv[c]); break;
				default: o[c] = _mm_add_ps(x, y); break;
				}
			}
		}
		for (int c = 0; c < 4 && mode != GFX_BLEND_GENERIC; c++) {
			if (mode == GFX_BLEND_ALPHA)
				o[c] = _mm_add_ps(_mm_mul_ps(s[c], sa),
				                  _mm_mul_ps(dv[c], isa));
			else if (mode == GFX_BLEND_PREMUL)
				o[c] = _mm_add_ps(_mm_mul_ps(s[c], one),
				                  _mm_mul_ps(dv[c], isa));
			else
				o[c] = _mm_add_ps(_mm_mul_ps(s[c], one),
				                  _mm_mul_ps(dv[c], one));
		}
	}
	/* v * 255 is exact in double: round it to nearest there (the only
	 * tie a float v has is 0.5 -> 127.5, which rounds up either way),
	 * exactly as the format table's encoder. */
	const __m128d k = _mm_set1_pd(255.0), half = _mm_set1_pd(0.5);
	__m128i res = _mm_setzero_si128();
	for (int c = 0; c < 4; c++) {
		__m128 v = _mm_min_ps(_mm_max_ps(o[c], zero), one);
		__m128d lo = _mm_cvtps_pd(v);
		__m128d hi = _mm_cvtps_pd(_mm_movehl_ps(v, v));
		__m128i ilo = _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(lo, k), half));
		__m128i ihi = _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(hi, k), half));
		__m128i iv = _mm_unpacklo_epi64(ilo, ihi);
		res = _mm_or_si128(res, _mm_slli_epi32(iv, (int)sh[c]));
	}
	if (m != 0xf) {
		const __m128i keep = _mm_set_epi32(m & 8 ? 0 : -1, m & 4 ? 0 : -1,
		                                   m & 2 ? 0 : -1, m & 1 ? 0 : -1);
		res = _mm_or_si128(_mm_andnot_si128(keep, res),
		                   _mm_and_si128(keep, dpx));
	}
	_mm_storel_epi64((void *)p0, res);
	_mm_storel_epi64((void *)p1, _mm_unpackhi_epi64(res, res));
}
#endif

static inline __attribute__((always_inline)) void
batch8(const struct gfx_thread *t, const struct gfx_draw *d,
       const struct gfx_color_target *rt, const uint8_t *qmask,
       const lane_t *const src[4], const lane_t *const src1[4], bool bgra,
       bool srgb, uint8_t mode)
{
#if defined(__SSE2__)
	struct blend4 bl = { .b = &rt->b };
	for (int c = 0; c < 4; c++)
		bl.k[c] = _mm_set1_ps(clamp01(d->blend_const[c]));
#endif
	for (uint32_t q = 0; q < t->nquads_out; q++) {
		const struct gfx_quad *qd = &t->quad[q];
		const uint32_t m = qmask[q];
		if (!m)
			continue;
		uint8_t *p0 = gfx_texel(&rt->pl, qd->x, qd->y, qd->prim->layer);
		uint8_t *p1 = p0 + rt->pl.row_pitch;
#if defined(__SSE2__)
		/* Whole quads inside the target in SIMD (a quad at an
		 * edge of an odd-sized render area has lanes outside the
		 * mapped pixels: those go pixel by pixel). */
		if (!srgb && qd->x >= rt->pl.ox && qd->y >= rt->pl.oy &&
		    qd->x + 1 < rt->pl_x1 && qd->y + 1 < rt->pl_y1) {
			quad8_sse(p0, p1, src, src1, 4 * q, m, bgra, mode, &bl);
			continue;
		}
#endif
		if (m & 1)
			pixel8(d, rt, p0, src, src1, 4 * q, bgra, srgb, mode);
		if (m & 2)
			pixel8(d, rt, p0 + 4, src, src1, 4 * q + 1, bgra, srgb,
			       mode);
		if (m & 4)
			pixel8(d, rt, p1, src, src1, 4 * q + 2, bgra, srgb, mode);
		if (m & 8)
			pixel8(d, rt, p1 + 4, src, src1, 4 * q + 3, bgra, srgb,
			       mode);
	}
}

/* Quads of the batch into an 8-bit RGBA/BGRA target, all channels
 * written, no logic op. */
static void
output_batch8(const struct gfx_thread *t, const struct gfx_draw *d,
              const struct gfx_color_target *rt, const uint8_t *qmask,
              const lane_t *const src[4], const lane_t *const src1[4])
{
	const bool bgra = rt->fast == GFX_FAST_BGRA8_UNORM ||
	                  rt->fast == GFX_FAST_BGRA8_SRGB;
	const uint8_t mode = rt->blend ? rt->blend_mode : GFX_BLEND_NONE;

	pthread_once(&unorm8_once, unorm8_init);
	if (rt->srgb) {
		pthread_once(&srgb_once, srgb_init);
		batch8(t, d, rt, qmask, src, src1, bgra, true, mode);
		return;
	}
#define BATCH8(b, m) batch8(t, d, rt, qmask, src, src1, b, false, m)
	switch (mode) {
	case GFX_BLEND_NONE:
		bgra ? BATCH8(true, GFX_BLEND_NONE)
		     : BATCH8(false, GFX_BLEND_NONE);
		break;
	case GFX_BLEND_ALPHA:
		bgra ? BATCH8(true, GFX_BLEND_ALPHA)
		     : BATCH8(false, GFX_BLEND_ALPHA);
		break;
	case GFX_BLEND_PREMUL:
		bgra ? BATCH8(true, GFX_BLEND_PREMUL)
		     : BATCH8(false, GFX_BLEND_PREMUL);
		break;
	case GFX_BLEND_ADD:
		bgra ? BATCH8(true, GFX_BLEND_ADD)
		     : BATCH8(false, GFX_BLEND_ADD);
		break;
	default:
		batch8(t, d, rt, qmask, src, src1, bgra, false,
		       GFX_BLEND_GENERIC);
		break;
	}
#undef BATCH8
}

void
gfx_output_batch(const struct gfx_thread *t, const struct gfx_draw *d,
                 const struct gfx_color_target *rt, const uint8_t *qmask,
                 const lane_t *const src[4], const lane_t *const src1[4])
{
	if (is_fast(rt)) {
		output_batch8(t, d, rt, qmask, src, src1);
		return;
	}
	for (uint32_t q = 0; q < t->nquads_out; q++) {
		const struct gfx_quad *qd = &t->quad[q];
		for (uint32_t i = 0; i < 4; i++) {
			if (!(qmask[q] & (1u << i)))
				continue;
			const uint32_t l = 4 * q + i;
			lane_t s[4], s1[4];
			for (int c = 0; c < 4; c++) {
				s[c] = src[c][l];
				if (src1[0])
					s1[c] = src1[c][l];
			}
			gfx_output_pixel(d, rt, qd->x + (int32_t)(i & 1),
			                 qd->y + (int32_t)(i >> 1),
			                 qd->prim->layer, s,
			                 src1[0] ? s1 : NULL);
		}
	}
}

void
gfx_output_target_blend(struct gfx_color_target *rt)
{
	const struct swgpu_blend_attachment *b = &rt->b;

	rt->blend_mode = GFX_BLEND_GENERIC;
	if (b->color_op || b->alpha_op)
		return;
	if (b->src_color == 6 && b->dst_color == 7 && b->src_alpha == 6 &&
	    b->dst_alpha == 7)
		rt->blend_mode = GFX_BLEND_ALPHA;
	else if (b->src_color == 1 && b->dst_color == 7 &&
	         b->src_alpha == 1 && b->dst_alpha == 7)
		rt->blend_mode = GFX_BLEND_PREMUL;
	else if (b->src_color == 1 && b->dst_color == 1 &&
	         b->src_alpha == 1 && b->dst_alpha == 1)
		rt->blend_mode = GFX_BLEND_ADD;
}

/* ------------------------------------------------------------------ */
/* Any renderable format                                               */
/* ------------------------------------------------------------------ */

void
gfx_output_pixel(const struct gfx_draw *d, const struct gfx_color_target *rt,
                 int32_t x, int32_t y, uint32_t layer, const lane_t src[4],
                 const lane_t *src1)
{
	const swgpu_format_info *fi = rt->pl.fi;
	uint8_t *px = gfx_texel(&rt->pl, x, y, layer);
	struct texel t;
	uint8_t blk[16], old[16];

	if (rt->cls == SWGPU_BLIT_CLASS_FLOAT) {
		float s[4], s1[4] = { 0, 0, 0, 0 };
		for (int c = 0; c < 4; c++) {
			s[c] = src[c].f;
			if (src1)
				s1[c] = src1[c].f;
		}
		if (rt->blend && !rt->logic) {
			struct texel dt;
			float dst[4], out[4];
			rt->pl.decode(fi, px, &dt);
			for (int c = 0; c < 4; c++)
				dst[c] = (float)dt.f[c];
			gfx_blend(rt, d->blend_const, s, s1, dst, out);
			for (int c = 0; c < 4; c++)
				s[c] = out[c];
		}
		for (int c = 0; c < 4; c++)
			t.f[c] = s[c];
	} else if (rt->cls == SWGPU_BLIT_CLASS_UINT) {
		for (int c = 0; c < 4; c++)
			t.u[c] = src[c].u;
	} else {
		for (int c = 0; c < 4; c++)
			t.i[c] = src[c].i;
	}
	rt->pl.encode(fi, &t, blk);
	if (rt->write_mask == 0xf && !rt->logic) {
		memcpy(px, blk, fi->block_bytes);
		return;
	}
	memcpy(old, px, fi->block_bytes);
	for (uint32_t c = 0; c < 4; c++) {
		uint32_t w = fi->bit_width[c], o = fi->bit_offset[c];
		if (!w)
			continue;
		uint64_t dv = get_bits(old, o, w);
		uint64_t v = (rt->write_mask >> c) & 1u ? get_bits(blk, o, w)
		                                         : dv;
		if (rt->logic && ((rt->write_mask >> c) & 1u))
			v = gfx_logic_op(d->logic_op, v, dv);
		put_bits(old, o, w, v);
	}
	/* Bits no channel covers keep their old value. */
	memcpy(px, old, fi->block_bytes);
}
