/* SPDX-License-Identifier: MIT */
/*
 * Multisampled rasterization (samples S = 2, 4, 8) inside one tile.
 *
 * Triangles: the single-sample edge functions of setup.c (top-left rule
 * in their constants) evaluated exactly in 64-bit integers at each
 * standard sample location, (x + sx/16, y + sy/16) = 8-bit subpixel
 * (256 x + 16 sx, 256 y + 16 sy): a sample is covered when all three
 * are >= 0. The bounding box setup.c made for S > 1 holds every pixel
 * the triangle touches; 8x8 blocks are rejected or fully accepted from
 * the edge values at their corners (sample locations lie inside the
 * pixels, so the corners bound them).
 *
 * Points: the samples whose locations lie in the point's square
 * [px0, px1) x [py0, py1).
 */
#include "hw/gfx/gfx_internal.h"
#include "hw/gfx/sample_pos.h"

#define BLOCK 8

static bool
clip_to_tile(const struct gfx_prim *p, const struct gfx_rect *tile,
             struct gfx_rect *r)
{
	*r = p->bbox;
	return gfx_rect_clip(r, tile);
}

void
gfx_raster_tri_ms(struct gfx_thread *t, const struct gfx_draw *d,
                  const struct gfx_prim *p, const struct gfx_rect *tile)
{
	const uint32_t S = d->samples, ls = gfx_log2_samples(S);
	const int64_t one = GFX_SUBPIXEL_ONE;
	struct gfx_rect r;
	int64_t off[3][8];   /* edge k at sample s minus at the pixel corner */

	if (!clip_to_tile(p, tile, &r))
		return;
	for (int k = 0; k < 3; k++)
		for (uint32_t s = 0; s < S; s++)
			off[k][s] = p->ea[k] * (gfx_sample_pos16[ls][s][0] * 16) +
			            p->eb[k] * (gfx_sample_pos16[ls][s][1] * 16);
	const int32_t qx0 = r.x0 & ~1, qy0 = r.y0 & ~1;
	for (int32_t by = qy0; by < r.y1; by += BLOCK) {
		for (int32_t bx = qx0; bx < r.x1; bx += BLOCK) {
			bool reject = false, accept = true;
			for (int k = 0; k < 3 && !reject; k++) {
				int64_t e = p->ea[k] * (bx * one) +
				            p->eb[k] * (by * one) + p->ec[k];
				int64_t ex = p->ea[k] * one * BLOCK;
				int64_t ey = p->eb[k] * one * BLOCK;
				int64_t mn = e + (ex < 0 ? ex : 0) + (ey < 0 ? ey : 0);
				int64_t mx = e + (ex > 0 ? ex : 0) + (ey > 0 ? ey : 0);
				if (mx < 0)
					reject = true;
				if (mn < 0)
					accept = false;
			}
			if (reject)
				continue;
			const int32_t ex1 = bx + BLOCK < r.x1 ? bx + BLOCK : r.x1;
			const int32_t ey1 = by + BLOCK < r.y1 ? by + BLOCK : r.y1;
			for (int32_t y = by; y < ey1; y += 2)
				for (int32_t x = bx; x < ex1; x += 2) {
					const uint32_t m = gfx_quad_rect_mask(&r, x, y);
					if (accept) {
						if (m)
							gfx_frag_quad_ms(t, d, p, x, y,
							                 gfx_ms_full_cov(m, S));
						continue;
					}
					uint32_t cov = 0;
					for (uint32_t i = 0; i < 4; i++) {
						if (!(m & (1u << i)))
							continue;
						const int64_t px = (x + (int32_t)(i & 1)) * one;
						const int64_t py = (y + (int32_t)(i >> 1)) * one;
						int64_t e[3];
						for (int k = 0; k < 3; k++)
							e[k] = p->ea[k] * px + p->eb[k] * py +
							       p->ec[k];
						for (uint32_t s = 0; s < S; s++)
							if (e[0] + off[0][s] >= 0 &&
							    e[1] + off[1][s] >= 0 &&
							    e[2] + off[2][s] >= 0)
								cov |= 1u << (8 * i + s);
					}
					if (cov)
						gfx_frag_quad_ms(t, d, p, x, y, cov);
				}
		}
	}
}

void
gfx_raster_point_ms(struct gfx_thread *t, const struct gfx_draw *d,
                    const struct gfx_prim *p, const struct gfx_rect *tile)
{
	const uint32_t S = d->samples;
	struct gfx_rect r;

	if (!clip_to_tile(p, tile, &r))
		return;
	for (int32_t y = r.y0 & ~1; y < r.y1; y += 2)
		for (int32_t x = r.x0 & ~1; x < r.x1; x += 2) {
			const uint32_t m = gfx_quad_rect_mask(&r, x, y);
			uint32_t cov = 0;
			for (uint32_t i = 0; i < 4; i++) {
				if (!(m & (1u << i)))
					continue;
				const float px = (float)(x + (int32_t)(i & 1));
				const float py = (float)(y + (int32_t)(i >> 1));
				for (uint32_t s = 0; s < S; s++) {
					float sx = px + gfx_sample_x(S, s);
					float sy = py + gfx_sample_y(S, s);
					if (sx >= p->px0 && sx < p->px1 &&
					    sy >= p->py0 && sy < p->py1)
						cov |= 1u << (8 * i + s);
				}
			}
			if (cov)
				gfx_frag_quad_ms(t, d, p, x, y, cov);
		}
}
