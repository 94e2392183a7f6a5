/* SPDX-License-Identifier: MIT */
/*
 * Triangle rasterization inside one tile: walk the 2x2 quads of the
 * primitive's bounding box (within the tile, quads aligned to even
 * pixels so fragment derivatives take differences inside a quad) with
 * the three fixed-point edge functions of setup.c, stepped exactly in
 * 64-bit integers. A pixel is covered when all three are >= 0 at its
 * centre (the top-left rule is in the constants). 8x8 blocks entirely
 * outside one edge are skipped, blocks entirely inside all three are
 * emitted without per-pixel tests.
 */
#include "hw/gfx/gfx_internal.h"

#define BLOCK 8

void
gfx_raster_tri(struct gfx_thread *t, const struct gfx_draw *d,
               const struct gfx_prim *p, const struct gfx_rect *tile)
{
	struct gfx_rect r = p->bbox;
	const int64_t one = GFX_SUBPIXEL_ONE, half = GFX_SUBPIXEL_ONE / 2;

	if (d->samples > 1) {
		gfx_raster_tri_ms(t, d, p, tile);
		return;
	}
	if (!gfx_rect_clip(&r, tile))
		return;
#if defined(__x86_64__) || defined(__i386__)
	if (d->raster_blocks) {
		gfx_raster_tri_avx2(t, d, p, &r);
		return;
	}
#endif
	const int32_t qx0 = r.x0 & ~1, qy0 = r.y0 & ~1;
	int64_t sx[3], sy[3];
	for (int k = 0; k < 3; k++) {
		sx[k] = p->ea[k] * one;
		sy[k] = p->eb[k] * one;
	}
	for (int32_t by = qy0; by < r.y1; by += BLOCK) {
		for (int32_t bx = qx0; bx < r.x1; bx += BLOCK) {
			/* Edge values at the block's corner pixel centres:
			 * an edge function is linear, so its extremes over
			 * the block are at corners. */
			bool reject = false, accept = true;
			int64_t e0[3];
			for (int k = 0; k < 3 && !reject; k++) {
				int64_t e = p->ea[k] * (bx * one + half) +
				            p->eb[k] * (by * one + half) +
				            p->ec[k];
				int64_t ex = sx[k] * (BLOCK - 1);
				int64_t ey = sy[k] * (BLOCK - 1);
				int64_t mn = e + (ex < 0 ? ex : 0) +
				             (ey < 0 ? ey : 0);
				int64_t mx = e + (ex > 0 ? ex : 0) +
				             (ey > 0 ? ey : 0);
				if (mx < 0)
					reject = true;
				if (mn < 0)
					accept = false;
				e0[k] = e;
			}
			if (reject)
				continue;
			int32_t ex1 = bx + BLOCK < r.x1 ? bx + BLOCK : r.x1;
			int32_t ey1 = by + BLOCK < r.y1 ? by + BLOCK : r.y1;
			if (accept && bx >= r.x0 && by >= r.y0 &&
			    bx + BLOCK <= r.x1 && by + BLOCK <= r.y1) {
				/* inside all edges and the rect: whole quads */
				for (int32_t y = by; y < ey1; y += 2)
					gfx_frag_quads_full(t, d, p, bx, y,
					                    BLOCK / 2);
				continue;
			}
			for (int32_t y = by; y < ey1; y += 2) {
				int64_t e[3];
				for (int k = 0; k < 3; k++)
					e[k] = e0[k] + sy[k] * (y - by);
				for (int32_t x = bx; x < ex1; x += 2) {
					uint32_t m = gfx_quad_rect_mask(&r, x, y);
					if (!accept) {
						uint32_t c = 0;
						for (int k = 0; k < 3; k++) {
							int64_t a = e[k];
							c |= (uint32_t)(a < 0) |
							     (uint32_t)(a + sx[k] < 0) << 1 |
							     (uint32_t)(a + sy[k] < 0) << 2 |
							     (uint32_t)(a + sx[k] + sy[k] < 0) << 3;
						}
						m &= ~c;
					}
					if (m)
						gfx_frag_quad(t, d, p, x, y, m);
					for (int k = 0; k < 3; k++)
						e[k] += 2 * sx[k];
				}
			}
		}
	}
}
