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
 * the mean of n bytes rounded to nearest even.
 */
#include "hw/gfx/pass.h"

#include <string.h>

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

/* Resolve rect r of layer `layer` of src (mapped from layer 0) into dst
 * (mapped from layer 0, single-sampled). */
static void
resolve_layer(const struct gfx_plane *src, const struct gfx_plane *dst,
              const struct gfx_rect *r, uint32_t layer, uint32_t mode)
{
	const uint32_t S = src->samples;
	const uint32_t cls = swgpu_format_blit_class(src->format);
	const uint8_t *s[8];

	for (int32_t y = r->y0; y < r->y1; y++)
		for (int32_t x = r->x0; x < r->x1; x++) {
			for (uint32_t k = 0; k < S; k++)
				s[k] = gfx_texel(src, x, y, layer * S + k);
			resolve_texel(src, mode, cls, s,
			              gfx_texel(dst, x, y, layer));
		}
}

bool
gfx_pass_resolve(struct exec_env *env, const struct pkt *p,
                 const struct swgpu_pass *ps)
{
	struct gfx_rect fb;
	struct gfx_plane src[SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2];
	struct gfx_plane dst[SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2];
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
	}
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++) {
		const struct swgpu_attachment *a = gfx_pass_attachment(ps, i);
		if (!src[i].base)
			continue;
		for (uint32_t l = 0; l < nl; l++)
			if (!ps->view_mask || ((ps->view_mask >> l) & 1u))
				resolve_layer(&src[i], &dst[i], &fb, l,
				              a->resolve_mode);
	}
	return true;
}
