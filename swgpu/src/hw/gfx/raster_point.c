/* SPDX-License-Identifier: MIT */
/*
 * Point rasterization inside one tile: every pixel whose centre lies in
 * the point's square [x - size/2, x + size/2) x [y - size/2, ...) (the
 * bounding box setup.c computed, already within the scissor), as
 * 2x2 quads.
 */
#include "hw/gfx/gfx_internal.h"

void
gfx_raster_point(struct gfx_thread *t, const struct gfx_draw *d,
                 const struct gfx_prim *p, const struct gfx_rect *tile)
{
	struct gfx_rect r = p->bbox;

	if (d->samples > 1) {
		gfx_raster_point_ms(t, d, p, tile);
		return;
	}
	if (r.x0 < tile->x0)
		r.x0 = tile->x0;
	if (r.y0 < tile->y0)
		r.y0 = tile->y0;
	if (r.x1 > tile->x1)
		r.x1 = tile->x1;
	if (r.y1 > tile->y1)
		r.y1 = tile->y1;
	for (int32_t y = r.y0 & ~1; y < r.y1; y += 2)
		for (int32_t x = r.x0 & ~1; x < r.x1; x += 2) {
			uint32_t m = 0xf;
			if (x < r.x0)
				m &= ~0x5u;
			if (x + 1 >= r.x1)
				m &= ~0xau;
			if (y < r.y0)
				m &= ~0x3u;
			if (y + 1 >= r.y1)
				m &= ~0xcu;
			if (m)
				gfx_frag_quad(t, d, p, x, y, m);
		}
}
