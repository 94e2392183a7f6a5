/* SPDX-License-Identifier: MIT */
/*
 * Line rasterization inside one tile, by the diamond-exit rule of
 * Bresenham lines (the spec's "Bresenham Line Segment Rasterization",
 * what non-strict lines of width 1 may use): pixel (x, y) is lit when
 * the segment from a to b crosses its diamond |px - xc| + |py - yc| <
 * 1/2 (centre xc, yc) and b is not inside that diamond, so lines joined
 * end to end light their shared pixel once.
 *
 * Walked along the major axis: the segment crosses at most three rows
 * (columns) per column (row) of pixels near it, so only those are
 * tested. Each lit pixel goes to the fragment stage as a quad with one
 * or more covered lanes.
 */
#include "hw/gfx/gfx_internal.h"

#include <math.h>

/* The segment meets the open diamond of the pixel centred at (cx, cy)
 * and does not end inside it. */
static bool
diamond_exit(const struct gfx_prim *p, float cx, float cy)
{
	/* u = dx + dy, v = dx - dy relative to the centre: the diamond is
	 * the open square |u| < 1/2, |v| < 1/2. */
	float ax = p->lx0 - cx, ay = p->ly0 - cy;
	float bx = p->lx1 - cx, by = p->ly1 - cy;
	float ua = ax + ay, va = ax - ay, ub = bx + by, vb = bx - by;

	if (fabsf(ub) < 0.5f && fabsf(vb) < 0.5f)
		return false;
	float t0 = 0.0f, t1 = 1.0f;
	const float c0[2] = { ua, va }, c1[2] = { ub, vb };
	for (int k = 0; k < 2; k++) {
		float a = c0[k], dlt = c1[k] - c0[k];
		if (dlt == 0.0f) {
			if (!(fabsf(a) < 0.5f))
				return false;
			continue;
		}
		/* a + dlt * t in (-1/2, 1/2) */
		float ta = (-0.5f - a) / dlt, tb = (0.5f - a) / dlt;
		if (ta > tb) {
			float tmp = ta;
			ta = tb;
			tb = tmp;
		}
		if (ta > t0)
			t0 = ta;
		if (tb < t1)
			t1 = tb;
	}
	return t0 < t1;
}

struct line_out {
	int32_t qx, qy;
	uint32_t mask;
};

static void
line_pixel(struct gfx_thread *t, const struct gfx_draw *d,
           const struct gfx_prim *p, struct line_out *o, int32_t x,
           int32_t y)
{
	int32_t qx = x & ~1, qy = y & ~1;

	if (o->mask && (qx != o->qx || qy != o->qy)) {
		gfx_frag_quad(t, d, p, o->qx, o->qy, o->mask);
		o->mask = 0;
	}
	o->qx = qx;
	o->qy = qy;
	o->mask |= 1u << ((x & 1) | (y & 1) << 1);
}

void
gfx_raster_line(struct gfx_thread *t, const struct gfx_draw *d,
                const struct gfx_prim *p, const struct gfx_rect *tile)
{
	struct gfx_rect r = p->bbox;
	struct line_out o = { 0, 0, 0 };

	if (r.x0 < tile->x0)
		r.x0 = tile->x0;
	if (r.y0 < tile->y0)
		r.y0 = tile->y0;
	if (r.x1 > tile->x1)
		r.x1 = tile->x1;
	if (r.y1 > tile->y1)
		r.y1 = tile->y1;
	if (r.x0 >= r.x1 || r.y0 >= r.y1)
		return;
	float dx = p->lx1 - p->lx0, dy = p->ly1 - p->ly0;
	bool xmajor = fabsf(dx) >= fabsf(dy);
	if (xmajor) {
		for (int32_t x = r.x0; x < r.x1; x++) {
			float cx = (float)x + 0.5f;
			float y = p->ly0 + dy * (cx - p->lx0) / dx;
			int32_t yc = (int32_t)floorf(y);
			for (int32_t yy = yc - 1; yy <= yc + 1; yy++) {
				if (yy < r.y0 || yy >= r.y1)
					continue;
				if (diamond_exit(p, cx, (float)yy + 0.5f))
					line_pixel(t, d, p, &o, x, yy);
			}
		}
	} else {
		for (int32_t y = r.y0; y < r.y1; y++) {
			float cy = (float)y + 0.5f;
			float x = p->lx0 + dx * (cy - p->ly0) / dy;
			int32_t xc = (int32_t)floorf(x);
			for (int32_t xx = xc - 1; xx <= xc + 1; xx++) {
				if (xx < r.x0 || xx >= r.x1)
					continue;
				if (diamond_exit(p, (float)xx + 0.5f, cy))
					line_pixel(t, d, p, &o, xx, y);
			}
		}
	}
	if (o.mask)
		gfx_frag_quad(t, d, p, o.qx, o.qy, o.mask);
}
