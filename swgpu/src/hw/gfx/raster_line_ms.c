/* SPDX-License-Identifier: MIT */
/*
 * Multisampled line rasterization (samples S = 2, 4, 8) inside one tile,
 * by the spec's rule for lines of the default mode ("Basic Line Segment
 * Rasterization"): the line is the rectangle of width lineWidth centred
 * on the segment from a to b, two edges parallel to it at half the width
 * on either side, two through the endpoints perpendicular to it; a
 * sample is covered when its location is inside. (The single-sample
 * path keeps the diamond-exit rule of non-strict lines, raster_line.c.)
 *
 * Exact: with d = b - a and q a sample location, all in 1/256 pixel
 * (endpoints snapped, sample locations on the 1/16 grid),
 *   along  s = (q - a) . d        inside the caps when 0 < s < |d|^2,
 *   across c = d x (q - a)        inside the sides when c^2 < h^2 |d|^2
 * with h the half width (128: lines are 1 pixel wide, lineWidthRange
 * [1, 1]). s and c fit 52 bits within the guard band; c^2 and h^2 |d|^2
 * are compared in 128 bits.
 *
 * Samples on an edge follow the polygon rule (setup.c): taken when it is
 * a top or left edge of the rectangle, its vertices in clockwise order on
 * the y-down screen (a left edge goes up, a top edge goes right). The
 * caps and sides are at s = 0, s = |d|^2 and c = +-h |d|; their
 * directions follow from d's alone, so two lines joined end to end share
 * no sample on their common cap.
 *
 * Walked by 2x2 quads, every quad once: along the major axis in quad
 * columns (rows), the quads the rectangle can reach in each (the centre
 * line's minor coordinate over the two pixels +- 1, a bound on the
 * half extent 0.5 / cos of the slope, at most 0.71).
 */
#include "hw/gfx/gfx_internal.h"
#include "hw/gfx/sample_pos.h"

#include <math.h>

_Static_assert((int)SWGPU_GFX_MAX_LINE_WIDTH == 1,
               "the half width h below is that of 1-pixel lines");

typedef __int128 i128;

struct line_ms {
	int64_t ax, ay, dx, dy, len2;
	i128 side2;                /* h^2 |d|^2 */
	/* ties: whether a sample on the cap at a / at b / the side c > 0 /
	 * the side c < 0 is inside */
	bool cap_a, cap_b, side_pos, side_neg;
	int64_t s_off[8], c_off[8]; /* s and c of sample k minus the
	                               pixel corner's */
};

static void
line_ms_init(struct line_ms *l, const struct gfx_prim *p, uint32_t S)
{
	const float one = (float)GFX_SUBPIXEL_ONE;
	const int64_t h = GFX_SUBPIXEL_ONE / 2;
	const uint32_t ls = gfx_log2_samples(S);

	/* the snapped endpoints, exact in float */
	l->ax = (int64_t)(p->lx0 * one);
	l->ay = (int64_t)(p->ly0 * one);
	l->dx = (int64_t)(p->lx1 * one) - l->ax;
	l->dy = (int64_t)(p->ly1 * one) - l->ay;
	l->len2 = l->dx * l->dx + l->dy * l->dy;
	l->side2 = (i128)(h * h) * l->len2;
	/* The edge directions, clockwise: cap a goes (dy, -dx), cap b
	 * (-dy, dx), the side c > 0 goes -d, the side c < 0 goes d; an
	 * edge (ex, ey) is top or left when ey < 0 || (ey == 0 && ex > 0). */
	l->cap_a = l->dx > 0 || (l->dx == 0 && l->dy > 0);
	l->cap_b = l->dx < 0 || (l->dx == 0 && l->dy < 0);
	l->side_pos = l->dy > 0 || (l->dy == 0 && l->dx < 0);
	l->side_neg = l->dy < 0 || (l->dy == 0 && l->dx > 0);
	for (uint32_t k = 0; k < S; k++) {
		const int64_t ox = gfx_sample_pos16[ls][k][0] * 16;
		const int64_t oy = gfx_sample_pos16[ls][k][1] * 16;
		l->s_off[k] = ox * l->dx + oy * l->dy;
		l->c_off[k] = l->dx * oy - l->dy * ox;
	}
}

/* The covered samples (bit k) of pixel (x, y). */
static uint32_t
line_ms_pixel(const struct line_ms *l, uint32_t S, int32_t x, int32_t y)
{
	const int64_t qx = (int64_t)x * GFX_SUBPIXEL_ONE - l->ax;
	const int64_t qy = (int64_t)y * GFX_SUBPIXEL_ONE - l->ay;
	const int64_t s0 = qx * l->dx + qy * l->dy;
	const int64_t c0 = l->dx * qy - l->dy * qx;
	uint32_t cov = 0;

	for (uint32_t k = 0; k < S; k++) {
		const int64_t s = s0 + l->s_off[k], c = c0 + l->c_off[k];
		if (s < 0 || (s == 0 && !l->cap_a))
			continue;
		if (s > l->len2 || (s == l->len2 && !l->cap_b))
			continue;
		const i128 c2 = (i128)c * c;
		if (c2 > l->side2 ||
		    (c2 == l->side2 && !(c > 0 ? l->side_pos : l->side_neg)))
			continue;
		cov |= 1u << k;
	}
	return cov;
}

/* Quad (x, y), its pixels inside r, into the fragment stage if any
 * sample is covered. */
static void
line_ms_quad(struct gfx_thread *t, const struct gfx_draw *d,
             const struct gfx_prim *p, const struct line_ms *l,
             const struct gfx_rect *r, int32_t x, int32_t y)
{
	const uint32_t m = gfx_quad_rect_mask(r, x, y);
	uint32_t cov = 0;

	for (uint32_t i = 0; i < 4; i++)
		if (m & (1u << i))
			cov |= line_ms_pixel(l, d->samples,
			                     x + (int32_t)(i & 1),
			                     y + (int32_t)(i >> 1)) << (8 * i);
	if (cov)
		gfx_frag_quad_ms(t, d, p, x, y, cov);
}

void
gfx_raster_line_ms(struct gfx_thread *t, const struct gfx_draw *d,
                   const struct gfx_prim *p, const struct gfx_rect *tile)
{
	struct gfx_rect r = p->bbox;
	struct line_ms l;

	if (!gfx_rect_clip(&r, tile))
		return;
	line_ms_init(&l, p, d->samples);
	const float dx = p->lx1 - p->lx0, dy = p->ly1 - p->ly0;
	if (fabsf(dx) >= fabsf(dy)) {
		const float slope = dy / dx;
		for (int32_t x = r.x0 & ~1; x < r.x1; x += 2) {
			const float y0 = p->ly0 + slope * ((float)x - p->lx0);
			const float y1 = y0 + 2.0f * slope;
			int32_t lo = (int32_t)floorf(fminf(y0, y1) - 1.0f);
			int32_t hi = (int32_t)floorf(fmaxf(y0, y1) + 1.0f);
			if (lo < r.y0)
				lo = r.y0;
			if (hi >= r.y1)
				hi = r.y1 - 1;
			for (int32_t y = lo & ~1; y <= hi; y += 2)
				line_ms_quad(t, d, p, &l, &r, x, y);
		}
	} else {
		const float slope = dx / dy;
		for (int32_t y = r.y0 & ~1; y < r.y1; y += 2) {
			const float x0 = p->lx0 + slope * ((float)y - p->ly0);
			const float x1 = x0 + 2.0f * slope;
			int32_t lo = (int32_t)floorf(fminf(x0, x1) - 1.0f);
			int32_t hi = (int32_t)floorf(fmaxf(x0, x1) + 1.0f);
			if (lo < r.x0)
				lo = r.x0;
			if (hi >= r.x1)
				hi = r.x1 - 1;
			for (int32_t x = lo & ~1; x <= hi; x += 2)
				line_ms_quad(t, d, p, &l, &r, x, y);
		}
	}
}
