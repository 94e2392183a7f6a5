/* SPDX-License-Identifier: MIT */
/*
 * Binning: primitives into the 64x64 screen tiles they touch, and the
 * raster task that runs one tile.
 *
 * Each geometry chunk records (tile, primitive) pairs in primitive
 * order; the merge walks the chunks in order and counting-sorts the
 * pairs into one list per touched tile, so a tile's list is in API
 * order. One raster task owns one tile: it alone reads and writes the
 * tile's pixels for the whole batch, which is what keeps API order per
 * pixel without locks. A triangle is binned only to tiles its edges do
 * not exclude entirely (tested at the tile's corner pixel centres).
 */
#include "hw/gfx/gfx_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Arena of clip vertices                                              */
/* ------------------------------------------------------------------ */

#define ARENA_BLOCK_WORDS (64u * 1024u)

struct gfx_arena_block {
	struct gfx_arena_block *next;
	uint32_t used, cap;
	lane_t words[];
};

lane_t *
gfx_arena_alloc(struct gfx_arena *a, uint32_t words)
{
	struct gfx_arena_block *blk = a->cur;

	while (blk && blk->cap - blk->used < words)
		blk = blk->next;
	if (!blk) {
		uint32_t cap = words > ARENA_BLOCK_WORDS ? words
		                                         : ARENA_BLOCK_WORDS;
		blk = malloc(sizeof(*blk) + (size_t)cap * sizeof(lane_t));
		if (!blk)
			return NULL;
		blk->used = 0;
		blk->cap = cap;
		blk->next = a->head;
		a->head = blk;
	}
	a->cur = blk;
	lane_t *w = blk->words + blk->used;
	blk->used += words;
	return w;
}

void
gfx_arena_reset(struct gfx_arena *a)
{
	for (struct gfx_arena_block *b = a->head; b; b = b->next)
		b->used = 0;
	a->cur = a->head;
}

void
gfx_arena_free(struct gfx_arena *a)
{
	while (a->head) {
		struct gfx_arena_block *n = a->head->next;
		free(a->head);
		a->head = n;
	}
	a->cur = NULL;
}

/* ------------------------------------------------------------------ */
/* Bins                                                                */
/* ------------------------------------------------------------------ */

bool
gfx_bin_grid(struct gfx_batch *b, const struct gfx_rect *fb)
{
	b->tx0 = fb->x0 >> GFX_TILE_SHIFT;
	b->ty0 = fb->y0 >> GFX_TILE_SHIFT;
	b->tiles_x = (uint32_t)(((fb->x1 - 1) >> GFX_TILE_SHIFT) - b->tx0 + 1);
	b->tiles_y = (uint32_t)(((fb->y1 - 1) >> GFX_TILE_SHIFT) - b->ty0 + 1);
	uint32_t n = b->tiles_x * b->tiles_y;
	if (n <= b->tile_cap)
		return true;
	uint32_t *count = calloc(n, sizeof(*count));
	uint32_t *touched = malloc(n * sizeof(*touched));
	uint32_t *start = malloc(n * sizeof(*start));
	if (!count || !touched || !start) {
		free(count);
		free(touched);
		free(start);
		return false;
	}
	free(b->tile_count);
	free(b->touched);
	free(b->tile_start);
	b->tile_count = count;
	b->touched = touched;
	b->tile_start = start;
	b->tile_cap = n;
	return true;
}

/* Some pixel centre of the tile can be inside every edge. */
static bool
tri_touches_tile(const struct gfx_prim *p, int32_t x0, int32_t y0,
                 int32_t x1, int32_t y1)
{
	const int64_t one = GFX_SUBPIXEL_ONE, half = GFX_SUBPIXEL_ONE / 2;

	for (int k = 0; k < 3; k++) {
		/* The largest value over the tile is at the corner the
		 * gradient points to. */
		int64_t x = p->ea[k] > 0 ? x1 - 1 : x0;
		int64_t y = p->eb[k] > 0 ? y1 - 1 : y0;
		if (p->ea[k] * (x * one + half) + p->eb[k] * (y * one + half) +
		    p->ec[k] < 0)
			return false;
	}
	return true;
}

bool
gfx_bin_prim(const struct gfx_draw *d, const struct gfx_batch *b,
             struct gfx_chunk *c, uint32_t prim)
{
	const struct gfx_prim *p = &c->prims[prim];
	int32_t tx0 = (p->bbox.x0 >> GFX_TILE_SHIFT) - b->tx0;
	int32_t ty0 = (p->bbox.y0 >> GFX_TILE_SHIFT) - b->ty0;
	int32_t tx1 = ((p->bbox.x1 - 1) >> GFX_TILE_SHIFT) - b->tx0;
	int32_t ty1 = ((p->bbox.y1 - 1) >> GFX_TILE_SHIFT) - b->ty0;
	const bool single = tx0 == tx1 && ty0 == ty1;

	(void)d;
	for (int32_t ty = ty0; ty <= ty1; ty++) {
		for (int32_t tx = tx0; tx <= tx1; tx++) {
			if (!single && p->kind == GFX_PRIM_TRI) {
				int32_t x0 = (tx + b->tx0) << GFX_TILE_SHIFT;
				int32_t y0 = (ty + b->ty0) << GFX_TILE_SHIFT;
				if (!tri_touches_tile(p, x0, y0,
				                      x0 + GFX_TILE_SIZE,
				                      y0 + GFX_TILE_SIZE))
					continue;
			}
			if (c->nbins == c->bin_cap) {
				uint32_t cap = c->bin_cap ? 2 * c->bin_cap
				                          : 1024;
				struct gfx_bin *nb =
					realloc(c->bins, cap * sizeof(*nb));
				if (!nb)
					return false;
				c->bins = nb;
				c->bin_cap = cap;
			}
			c->bins[c->nbins].tile = (uint32_t)ty * b->tiles_x +
			                         (uint32_t)tx;
			c->bins[c->nbins].prim = prim;
			c->nbins++;
		}
	}
	return true;
}

bool
gfx_bin_merge(struct gfx_batch *b)
{
	uint64_t total = 0;

	b->ntouched = 0;
	for (uint32_t k = 0; k < b->nchunks; k++) {
		const struct gfx_chunk *c = &b->chunks[k];
		for (uint32_t i = 0; i < c->nbins; i++) {
			uint32_t t = c->bins[i].tile;
			if (b->tile_count[t]++ == 0)
				b->touched[b->ntouched++] = t;
		}
		total += c->nbins;
	}
	if (total > b->tile_prims_cap) {
		const struct gfx_prim **np =
			realloc(b->tile_prims, total * sizeof(*np));
		if (!np) {
			for (uint32_t i = 0; i < b->ntouched; i++)
				b->tile_count[b->touched[i]] = 0;
			b->ntouched = 0;
			return false;
		}
		b->tile_prims = np;
		b->tile_prims_cap = total;
	}
	/* tile_count becomes each tile's write cursor, then its end. */
	uint32_t at = 0;
	for (uint32_t i = 0; i < b->ntouched; i++) {
		uint32_t t = b->touched[i], n = b->tile_count[t];
		b->tile_start[i] = at;
		b->tile_count[t] = at;
		at += n;
	}
	for (uint32_t k = 0; k < b->nchunks; k++) {
		const struct gfx_chunk *c = &b->chunks[k];
		for (uint32_t i = 0; i < c->nbins; i++)
			b->tile_prims[b->tile_count[c->bins[i].tile]++] =
				&c->prims[c->bins[i].prim];
	}
	return true;
}

void
gfx_raster_task(void *ctx, uint32_t item, uint32_t thread)
{
	struct gfx_draw *d = ctx;
	struct gfx_thread *t = d->g->threads[thread];
	struct gfx_batch *b = d->g->batch;
	const uint32_t tile = b->touched[item];
	const uint32_t first = b->tile_start[item];
	const uint32_t end = b->tile_count[tile];
	const int32_t tx = (int32_t)(tile % b->tiles_x) + b->tx0;
	const int32_t ty = (int32_t)(tile / b->tiles_x) + b->ty0;
	const struct gfx_rect r = {
		tx << GFX_TILE_SHIFT, ty << GFX_TILE_SHIFT,
		(tx + 1) << GFX_TILE_SHIFT, (ty + 1) << GFX_TILE_SHIFT,
	};

	if (gfx_draw_failed(d))
		return;
	if (d->fs && !gfx_thread_execs(t, d)) {
		gfx_draw_fail_msg(d, SWGPU_FAULT_BAD_PACKET,
		                  "no execution state for the pipeline's "
		                  "shaders");
		return;
	}
	for (uint32_t i = first; i < end && !gfx_draw_failed(d); i++) {
		const struct gfx_prim *p = b->tile_prims[i];
		switch (p->kind) {
		case GFX_PRIM_TRI:
			gfx_raster_tri(t, d, p, &r);
			break;
		case GFX_PRIM_LINE:
			gfx_raster_line(t, d, p, &r);
			break;
		default:
			gfx_raster_point(t, d, p, &r);
			break;
		}
	}
	gfx_frag_flush(t, d);
}
