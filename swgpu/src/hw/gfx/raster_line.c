/* SPDX-License-Identifier: MIT */
/*
 * Line rasterization inside one tile, by the diamond-exit rule of
 * Bresenham lines (the spec's "Bresenham Line Segment Rasterization",
 * what non-strict lines of width 1 may use): pixel (x, y) is lit when
 * the segment from a to b crosses its diamond |px - xc| + |py - yc| <
 * 1/2 (centre xc, yc) and b is not inside that diamond, so lines joined
 * end to end light their shared pixel once.
 *
 * A segment that only touches a diamond's boundary (a horizontal line
 * on a row boundary, a vertex on a corner) is decided as OpenGL does
 * it: both endpoints are (in principle) moved by (-e, -e^2) for an
 * infinitesimal e. The test is exact: the snapped endpoints are
 * integers in 1/256 pixel, and the infinitesimals are carried
 * symbolically, so a line on y = 16 lights row 15 (what the CTS's
 * reference rasterizer does), never both rows or neither.
 *
 * Walked along the major axis: the segment crosses at most three rows
 * (columns) per column (row) of pixels near it, so only those are
 * tested. Each lit pixel goes to the fragment stage as a quad with one
 * or more covered lanes.
 *
 * Single-sample only: multisampled lines are the spec's rectangle,
 * sample by sample (raster_line_ms.c).
 */
#include "hw/gfx/gfx_internal.h"

#include <math.h>

/* A bound on the segment parameter t: (num + e1 e + e2 e^2) / den with
 * den > 0, e the infinitesimal of the perturbation. */
struct tbound {
	int64_t num, den, e1, e2;
};

/* a < b, exactly (|num|, den < 2^26 within the guard band). */
static bool
tb_less(const struct tbound *a, const struct tbound *b)
{
	int64_t l = a->num * b->den, r = b->num * a->den;

	if (l != r)
		return l < r;
	l = a->e1 * b->den;
	r = b->e1 * a->den;
	if (l != r)
		return l < r;
	return a->e2 * b->den < b->e2 * a->den;
}

/* The t where f0 + t df (+ the perturbation -(e + sigma e^2)) reaches
 * the constant c. */
static struct tbound
tb_at(int64_t c, int64_t f0, int64_t df, int64_t sigma)
{
	struct tbound t = { c - f0, df, 1, sigma };

	if (df < 0) {
		t.num = -t.num;
		t.den = -df;
		t.e1 = -1;
		t.e2 = -sigma;
	}
	return t;
}

/* In the diamond's own coordinates u = dx + dy, v = dx - dy (relative
 * to its centre, in 1/256 pixel) the diamond is the open square |u| <
 * h, |v| < h, and the perturbation moves u by -(e + e^2) and v by
 * -(e - e^2). The moved segment meets the square when the parameter
 * ranges of both axes and [0, 1] overlap. */
static bool
seg_meets_diamond(const int64_t a[2], const int64_t b[2])
{
	const int64_t h = GFX_SUBPIXEL_ONE / 2;
	struct tbound lo = { 0, 1, 0, 0 }, hi = { 1, 1, 0, 0 };

	for (int k = 0; k < 2; k++) {
		const int64_t sigma = k == 0 ? 1 : -1;
		const int64_t f0 = a[k], df = b[k] - a[k];
		if (df == 0) {
			/* -h < f0 - e -+ e^2 < h */
			if (!(f0 > -h && f0 <= h))
				return false;
			continue;
		}
		struct tbound t0 = tb_at(-h, f0, df, sigma);
		struct tbound t1 = tb_at(h, f0, df, sigma);
		if (df < 0) {
			struct tbound tmp = t0;
			t0 = t1;
			t1 = tmp;
		}
		if (tb_less(&lo, &t0))
			lo = t0;
		if (tb_less(&t1, &hi))
			hi = t1;
	}
	return tb_less(&lo, &hi);
}

/* The segment (endpoints in 1/256 pixel) exits the diamond of pixel
 * (x, y): it meets the diamond and its moved end is not inside. */
static bool
diamond_exit(const int64_t ax, const int64_t ay, const int64_t bx,
             const int64_t by, int32_t x, int32_t y)
{
	const int64_t h = GFX_SUBPIXEL_ONE / 2;
	const int64_t cx = (int64_t)x * GFX_SUBPIXEL_ONE + h;
	const int64_t cy = (int64_t)y * GFX_SUBPIXEL_ONE + h;
	const int64_t a[2] = { (ax - cx) + (ay - cy), (ax - cx) - (ay - cy) };
	const int64_t b[2] = { (bx - cx) + (by - cy), (bx - cx) - (by - cy) };

	/* b - (e + e^2, e - e^2) inside: -h < b_k <= h on both axes */
	if (b[0] > -h && b[0] <= h && b[1] > -h && b[1] <= h)
		return false;
	return seg_meets_diamond(a, b);
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

	if (d->samples > 1) {
		gfx_raster_line_ms(t, d, p, tile);
		return;
	}
	if (!gfx_rect_clip(&r, tile))
		return;
	/* the snapped endpoints, exact in float, back in 1/256 pixel */
	const float one = (float)GFX_SUBPIXEL_ONE;
	const int64_t ax = (int64_t)(p->lx0 * one), ay = (int64_t)(p->ly0 * one);
	const int64_t bx = (int64_t)(p->lx1 * one), by = (int64_t)(p->ly1 * one);
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
				if (diamond_exit(ax, ay, bx, by, x, yy))
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
				if (diamond_exit(ax, ay, bx, by, xx, y))
					line_pixel(t, d, p, &o, xx, y);
			}
		}
	}
	if (o.mask)
		gfx_frag_quad(t, d, p, o.qx, o.qy, o.mask);
}
