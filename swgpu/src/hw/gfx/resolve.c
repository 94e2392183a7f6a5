/* SPDX-License-Identifier: MIT */
/*
 * Multisample resolves (END_PASS and the RESOLVE packet): each
 * attachment with a resolve target gets its render area of every layer
 * (multiview: of the views) resolved from its S sample slices into the
 * single-sampled target.
 *
 * Modes: SAMPLE_ZERO copies sample 0's bytes; AVERAGE (float-class
 * colour and depth) averages the decoded values (sRGB in linear) and
 * encodes the mean (round to nearest even, as every encode); MIN and MAX
 * (depth, stencil, integer colour) compare decoded values. 8-bit UNORM
 * RGBA/BGRA averages take an integer path computing the same result:
 * the mean of n bytes rounded to nearest even (for 2, 4 and 8 samples
 * four pixels a step on SSE2). With a worker pool the
 * work is split into bands of rows run on every raster thread (each
 * texel written by one thread).
 */
#include "hw/gfx/pass.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kmd/vaspace.h"

bool
gfx_resolve_mode_ok(uint32_t format, uint32_t mode)
{
	const uint32_t cls = swgpu_format_blit_class(format);

	switch (mode) {
	case SWGPU_RESOLVE_SAMPLE_ZERO:
		return true;
	case SWGPU_RESOLVE_AVERAGE:
		return cls == SWGPU_BLIT_CLASS_FLOAT ||
		       cls == SWGPU_BLIT_CLASS_DEPTH;
	case SWGPU_RESOLVE_MIN:
	case SWGPU_RESOLVE_MAX:
		return cls != SWGPU_BLIT_CLASS_FLOAT &&
		       cls != SWGPU_BLIT_CLASS_NONE;
	default:
		return false;
	}
}

static bool
is_unorm8x4(uint32_t format)
{
	return format == SWGPU_FORMAT_R8G8B8A8_UNORM ||
	       format == SWGPU_FORMAT_B8G8R8A8_UNORM;
}

/* The mean of sum / n rounded to nearest even. */
static inline uint32_t
mean_rne(uint32_t sum, uint32_t n)
{
	uint32_t q = sum / n, r = sum % n;

	if (2 * r > n || (2 * r == n && (q & 1u)))
		q++;
	return q;
}

static void
resolve_texel(const struct gfx_plane *src, uint32_t mode, uint32_t cls,
              const uint8_t *const *s, uint8_t *dst)
{
	const uint32_t S = src->samples;
	struct texel acc, t;

	if (mode == SWGPU_RESOLVE_SAMPLE_ZERO) {
		memcpy(dst, s[0], src->bpp);
		return;
	}
	if (mode == SWGPU_RESOLVE_AVERAGE && is_unorm8x4(src->format)) {
		for (uint32_t c = 0; c < 4; c++) {
			uint32_t sum = 0;
			for (uint32_t k = 0; k < S; k++)
				sum += s[k][c];
			dst[c] = (uint8_t)mean_rne(sum, S);
		}
		return;
	}
	src->decode(src->fi, s[0], &acc);
	for (uint32_t k = 1; k < S; k++) {
		src->decode(src->fi, s[k], &t);
		for (uint32_t c = 0; c < 4; c++) {
			if (mode == SWGPU_RESOLVE_AVERAGE)
				acc.f[c] += t.f[c];
			else if (cls == SWGPU_BLIT_CLASS_SINT)
				acc.i[c] = mode == SWGPU_RESOLVE_MIN
				           ? (t.i[c] < acc.i[c] ? t.i[c] : acc.i[c])
				           : (t.i[c] > acc.i[c] ? t.i[c] : acc.i[c]);
			else if (cls == SWGPU_BLIT_CLASS_DEPTH)
				acc.f[c] = mode == SWGPU_RESOLVE_MIN
				           ? (t.f[c] < acc.f[c] ? t.f[c] : acc.f[c])
				           : (t.f[c] > acc.f[c] ? t.f[c] : acc.f[c]);
			else
				acc.u[c] = mode == SWGPU_RESOLVE_MIN
				           ? (t.u[c] < acc.u[c] ? t.u[c] : acc.u[c])
				           : (t.u[c] > acc.u[c] ? t.u[c] : acc.u[c]);
		}
	}
	if (mode == SWGPU_RESOLVE_AVERAGE)
		for (uint32_t c = 0; c < 4; c++)
			acc.f[c] /= (double)S;
	src->encode(src->fi, &acc, dst);
}

#if defined(__SSE2__)
/*
 * AVERAGE of n 8-bit UNORM RGBA/BGRA pixels from the S = 2^k slices'
 * rows s[] into dst, four pixels a step: per byte the sum of the
 * samples on 16-bit lanes, then mean_rne's result for a power of two,
 * (sum + S / 2 - 1 + (q & 1)) >> k with q = sum >> k (a remainder above
 * half carries, exactly half carries when q is odd). Returns the pixels
 * done (a multiple of four; the rest go texel by texel).
 */
static int32_t
average_row_unorm8(const uint8_t *const *s, uint32_t S, uint32_t k,
                   uint8_t *dst, int32_t n)
{
	const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi16(1);
	const __m128i bias = _mm_set1_epi16((short)(S / 2 - 1));
	const __m128i sh = _mm_cvtsi32_si128((int)k);
	int32_t x = 0;

	for (; x + 4 <= n; x += 4) {
		__m128i lo = zero, hi = zero;

		for (uint32_t i = 0; i < S; i++) {
			const __m128i v = _mm_loadu_si128(
				(const __m128i *)(const void *)(s[i] + 4 * x));

			lo = _mm_add_epi16(lo, _mm_unpacklo_epi8(v, zero));
			hi = _mm_add_epi16(hi, _mm_unpackhi_epi8(v, zero));
		}
		lo = _mm_srl_epi16(_mm_add_epi16(_mm_add_epi16(lo, bias),
		                                 _mm_and_si128(_mm_srl_epi16(lo, sh),
		                                               one)), sh);
		hi = _mm_srl_epi16(_mm_add_epi16(_mm_add_epi16(hi, bias),
		                                 _mm_and_si128(_mm_srl_epi16(hi, sh),
		                                               one)), sh);
		_mm_storeu_si128((__m128i *)(void *)(dst + 4 * x),
		                 _mm_packus_epi16(lo, hi));
	}
	return x;
}
#endif

/* Resolve rows [y0, y1) of rect r of layer `layer` of src (mapped from
 * layer 0) into dst (mapped from layer 0, single-sampled). */
static void
resolve_rows(const struct gfx_plane *src, const struct gfx_plane *dst,
             const struct gfx_rect *r, int32_t y0, int32_t y1,
             uint32_t layer, uint32_t mode)
{
	const uint32_t S = src->samples;
	const uint32_t cls = swgpu_format_blit_class(src->format);
	const uint8_t *s[8];
#if defined(__SSE2__)
	const bool rows = mode == SWGPU_RESOLVE_AVERAGE &&
	                  is_unorm8x4(src->format) && S >= 2 &&
	                  !(S & (S - 1));
#endif

	for (int32_t y = y0; y < y1; y++) {
		int32_t x = r->x0;
#if defined(__SSE2__)
		if (rows) {
			for (uint32_t k = 0; k < S; k++)
				s[k] = gfx_texel(src, x, y, layer * S + k);
			x += average_row_unorm8(
				s, S, (uint32_t)__builtin_ctz(S),
				gfx_texel(dst, x, y, layer), r->x1 - x);
		}
#endif
		for (; x < r->x1; x++) {
			for (uint32_t k = 0; k < S; k++)
				s[k] = gfx_texel(src, x, y, layer * S + k);
			resolve_texel(src, mode, cls, s,
			              gfx_texel(dst, x, y, layer));
		}
	}
}

#define RESOLVE_BAND 16   /* rows per pool task */

struct resolve_job {
	const struct swgpu_pass *ps;
	struct gfx_rect fb;
	uint32_t nl, bands;       /* layers; bands of rows per layer */
	struct gfx_plane src[SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2];
	struct gfx_plane dst[SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2];
};

/* Task item: band (item % bands) of layer (item / bands), every
 * attachment. */
static void
resolve_task(void *ctx, uint32_t item, uint32_t thread)
{
	const struct resolve_job *j = ctx;
	uint32_t l;
	int32_t y0, y1;

	(void)thread;
	if (!gfx_pass_band(j->ps, &j->fb, j->bands, RESOLVE_BAND, item, &l,
	                   &y0, &y1))
		return;
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++)
		if (j->src[i].base)
			resolve_rows(&j->src[i], &j->dst[i], &j->fb, y0, y1, l,
			             gfx_pass_attachment(j->ps, i)->resolve_mode);
}

bool
gfx_pass_resolve(struct exec_env *env, const struct pkt *p,
                 const struct swgpu_pass *ps, struct gfx_pool *pool)
{
	struct resolve_job job;
	struct gfx_rect fb;
	struct gfx_plane *src = job.src, *dst = job.dst;
	bool any = false;
	const uint32_t nl = ps->view_mask ? gfx_view_end(ps->view_mask)
	                                  : ps->layer_count;

	gfx_pass_extent(ps, &fb);
	/* Translate everything first: a fault writes nothing. */
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++) {
		const struct swgpu_attachment *a = gfx_pass_attachment(ps, i);
		memset(&src[i], 0, sizeof(src[i]));
		memset(&dst[i], 0, sizeof(dst[i]));
		if (!a || !a->resolve_va)
			continue;
		struct swgpu_attachment ra = *a;
		ra.va = a->resolve_va;
		ra.row_pitch = a->resolve_row_pitch;
		ra.layer_pitch = a->resolve_layer_pitch;
		ra.samples = 1;
		if (!gfx_plane_map(env, p, a, &fb, 0, nl, &src[i]) ||
		    !gfx_plane_map(env, p, &ra, &fb, 0, nl, &dst[i]))
			return false;
		any |= src[i].base != NULL;
	}
	if (!any || fb.x0 >= fb.x1 || fb.y0 >= fb.y1 || !nl)
		return true;
	job.ps = ps;
	job.fb = fb;
	job.nl = nl;
	job.bands = (uint32_t)(fb.y1 - fb.y0 + RESOLVE_BAND - 1) / RESOLVE_BAND;
	gfx_pool_run(pool, nl * job.bands, resolve_task, &job);
	return true;
}
