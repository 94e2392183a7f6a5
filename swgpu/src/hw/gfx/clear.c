/* SPDX-License-Identifier: MIT */
/*
 * Clears of attachments: the CLEAR load ops of BEGIN_PASS and
 * CLEAR_ATTACHMENTS. A clear value is encoded once by the format's
 * encoder (the CLEAR_BOX value encoding, hw/format) into a row of
 * texels that every cleared row copies from.
 *
 * BEGIN_PASS clears in bands of rows over the engine's raster threads.
 */
#include "hw/gfx/pass.h"

#include <string.h>

/* A row of texels a clear copies from: 768 bytes is a whole number of
 * texels of every size (1, 2, 3, 4, 6, 8, 12, 16 bytes). */
#define CLEAR_ROW_BYTES 768u

static void
clear_row_template(uint8_t *row, const uint8_t *texel, uint32_t bpp)
{
	for (uint32_t i = 0; i + bpp <= CLEAR_ROW_BYTES; i += bpp)
		memcpy(row + i, texel, bpp);
}

/* A clear value encoded in the plane's format, as a template row. */
static void
clear_row_of(const struct gfx_plane *pl, const uint32_t value[4],
             uint8_t *row)
{
	struct texel t;
	uint8_t texel[FORMAT_MAX_BLOCK_BYTES];

	format_clear_value(pl->fi, value, &t);
	pl->encode(pl->fi, &t, texel);
	clear_row_template(row, texel, pl->bpp);
}

/* Rows [y0, y1) of columns [x0, x1) of slice `slice` (layer * samples +
 * sample) of the mapped plane: copies of the template row. */
static void
fill_rows(const struct gfx_plane *pl, int32_t x0, int32_t x1, int32_t y0,
          int32_t y1, uint32_t slice, const uint8_t *row)
{
	const uint32_t w = (uint32_t)(x1 - x0);
	const uint32_t row_texels = CLEAR_ROW_BYTES / pl->bpp;

	for (int32_t y = y0; y < y1; y++) {
		uint8_t *dst = gfx_texel(pl, x0, y, slice);
		for (uint32_t x = 0; x < w; x += row_texels) {
			uint32_t n = w - x < row_texels ? w - x : row_texels;
			memcpy(dst + (size_t)x * pl->bpp, row,
			       (size_t)n * pl->bpp);
		}
	}
}

void
gfx_plane_clear(const struct gfx_plane *pl, const struct gfx_rect *r,
                uint32_t nlayers, const uint32_t value[4])
{
	uint8_t row[CLEAR_ROW_BYTES];

	if (!pl->base)
		return;
	clear_row_of(pl, value, row);
	for (uint32_t l = 0; l < nlayers * pl->samples; l++) /* every sample */
		fill_rows(pl, r->x0, r->x1, r->y0, r->y1, l, row);
}

/* Clear rect r of the plane (mapped from layer 0): every layer of the
 * pass, or with multiview the layers of the view mask only. */
static void
clear_view_layers(const struct gfx_plane *pl, const struct gfx_rect *r,
                  const struct swgpu_pass *ps, const uint32_t value[4])
{
	if (!ps->view_mask) {
		gfx_plane_clear(pl, r, ps->layer_count, value);
		return;
	}
	for (uint32_t v = 0; v < SWGPU_GFX_MAX_VIEWS; v++) {
		if (!((ps->view_mask >> v) & 1u))
			continue;
		struct gfx_plane one = *pl;
		if (one.base)
			one.base += v * one.samples * one.layer_pitch;
		gfx_plane_clear(&one, r, 1, value);
	}
}

/* ------------------------------------------------------------------ */
/* Load ops                                                            */
/* ------------------------------------------------------------------ */

#define CLEAR_BAND 16   /* rows per pool task */
/* Smaller load-op clears stay on the engine thread: a wake-up of the
 * raster threads costs more than it saves. */
#define CLEAR_POOL_MIN_BYTES (256u * 1024u)

/* The CLEAR load ops of a pass in bands of rows over the raster
 * threads: a frame's clear (7 MB at 1280x720 with depth) used to keep
 * the other threads waiting. */
struct band_job {
	const struct swgpu_pass *ps;
	struct gfx_rect fb;
	uint32_t bands, n;
	const struct gfx_plane *pl;
	const uint8_t (*row)[CLEAR_ROW_BYTES];
};

/* Task item: band (item % bands) of layer (item / bands), every sample
 * of every attachment. */
static void
band_task(void *ctx, uint32_t item, uint32_t thread)
{
	const struct band_job *j = ctx;
	uint32_t l;
	int32_t y0, y1;

	(void)thread;
	if (!gfx_pass_band(j->ps, &j->fb, j->bands, CLEAR_BAND, item, &l, &y0,
	                   &y1))
		return;
	for (uint32_t i = 0; i < j->n; i++)
		for (uint32_t k = 0; k < j->pl[i].samples; k++)
			fill_rows(&j->pl[i], j->fb.x0, j->fb.x1, y0, y1,
			          l * j->pl[i].samples + k, j->row[i]);
}

bool
gfx_pass_begin(struct exec_env *env, const struct pkt *p,
               const struct swgpu_pass *ps, struct gfx_pool *pool)
{
	struct gfx_rect fb;
	struct gfx_plane pl[SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2];
	uint8_t row[SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2][CLEAR_ROW_BYTES];
	uint32_t n = 0;
	uint64_t bytes = 0;
	const uint32_t nl = ps->view_mask ? gfx_view_end(ps->view_mask)
	                                  : ps->layer_count;

	gfx_pass_extent(ps, &fb);
	/* Every attachment's texels first, so a fault writes nothing. */
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++) {
		const struct swgpu_attachment *a = gfx_pass_attachment(ps, i);
		if (!a)
			continue;
		if (!gfx_plane_map(env, p, a, &fb, 0, ps->layer_count, &pl[n]))
			return false;
		if (a->load_op != SWGPU_LOAD_CLEAR || !pl[n].base)
			continue;
		clear_row_of(&pl[n], a->clear, row[n]);
		bytes += (uint64_t)pl[n].bpp * pl[n].samples;
		n++;
	}
	if (!n || fb.x0 >= fb.x1 || fb.y0 >= fb.y1 || !nl)
		return true;
	struct band_job job = {
		.ps = ps, .fb = fb, .n = n, .pl = pl, .row = (const void *)row,
		.bands = (uint32_t)(fb.y1 - fb.y0 + CLEAR_BAND - 1) / CLEAR_BAND,
	};
	bytes *= (uint64_t)(fb.x1 - fb.x0) * (uint64_t)(fb.y1 - fb.y0) *
	         (ps->view_mask ? (uint32_t)__builtin_popcount(ps->view_mask)
	                        : nl);
	gfx_pool_run(bytes >= CLEAR_POOL_MIN_BYTES ? pool : NULL,
	             nl * job.bands, band_task, &job);
	return true;
}

/* ------------------------------------------------------------------ */
/* CLEAR_ATTACHMENTS                                                   */
/* ------------------------------------------------------------------ */

bool
gfx_clear_attachments(struct exec_env *env, const struct pkt *p,
                      const struct swgpu_pass *ps, uint32_t index,
                      const uint32_t value[4], uint32_t nrects,
                      const uint32_t *rects)
{
	const struct swgpu_attachment *a = gfx_pass_attachment(ps, index);

	if (!a)
		return true;
	/* Translate all, then clear all: nothing is written on a fault. */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t k = 0; k < nrects; k++) {
			const uint32_t *rc = rects + 6 * k;
			int64_t x0 = (int32_t)rc[0], y0 = (int32_t)rc[1];
			int64_t x1 = x0 + rc[2], y1 = y0 + rc[3];
			uint64_t l0 = rc[4], l1 = (uint64_t)rc[4] + rc[5];
			if (ps->view_mask) {
				/* the views' layers: mapped from 0 up to the
				 * last view, cleared view by view below */
				l0 = 0;
				l1 = gfx_view_end(ps->view_mask);
			}
			x0 = x0 < 0 ? 0 : x0;
			y0 = y0 < 0 ? 0 : y0;
			x1 = x1 > a->width ? a->width : x1;
			y1 = y1 > a->height ? a->height : y1;
			l1 = l1 > a->layers ? a->layers : l1;
			if (x0 >= x1 || y0 >= y1 || l0 >= l1)
				continue;
			struct gfx_rect r = { (int32_t)x0, (int32_t)y0,
			                      (int32_t)x1, (int32_t)y1 };
			struct gfx_plane pl;
			if (!gfx_plane_map(env, p, a, &r, (uint32_t)l0,
			                   (uint32_t)(l1 - l0), &pl))
				return false;
			if (pass && ps->view_mask)
				clear_view_layers(&pl, &r, ps, value);
			else if (pass)
				gfx_plane_clear(&pl, &r, (uint32_t)(l1 - l0),
				                value);
		}
	}
	return true;
}
