/* SPDX-License-Identifier: MIT */
/*
 * Viewport transform and primitive setup: clip space to framebuffer
 * coordinates, snapped to GFX_SUBPIXEL_BITS fraction bits, then what the
 * raster needs (fixed-point edge functions of triangles, the segment of
 * a line, the square of a point) and the planes fragments interpolate
 * with (screen-space barycentrics, depth, depth bias).
 *
 * Triangles (the spec's "Basic Polygon Rasterization"): the signed area
 * in fixed point decides the facing (a = -area / 2 in the spec's
 * formula, so counter-clockwise on screen is negative here) and zero
 * area means no fragments. The vertices are reordered so the area is
 * positive; then a pixel centre is covered when all three edge functions
 * are >= 0, where an edge that is not a top or left edge (in y-down
 * framebuffer coordinates: a left edge goes up, a top edge is horizontal
 * going right) excludes its own points by a bias of one unit. Edge
 * values are exact 64-bit integers (coordinates within the guard band
 * fit 24 bits + sign), so two triangles sharing an edge see opposite
 * values on it and cover each pixel centre exactly once.
 */
#include "hw/gfx/gfx_internal.h"

#include <math.h>
#include <string.h>

void
gfx_viewport_xform(const struct gfx_viewport *vp, const lane_t *v,
                   float out[4])
{
	float iw = 1.0f / v[3].f;

	out[0] = vp->ox + vp->hx * (v[0].f * iw);
	out[1] = vp->oy + vp->hy * (v[1].f * iw);
	out[2] = vp->oz + vp->pz * (v[2].f * iw);
	out[3] = iw;
}

uint32_t
gfx_prim_viewport(const struct gfx_draw *d, const lane_t *flat)
{
	return d->vl.vpi_off ? flat[d->vl.vpi_off].u : 0;
}

uint32_t
gfx_prim_layer(const struct gfx_draw *d, const lane_t *flat)
{
	if (d->multiview)
		return d->view_index;   /* multiview: layer = view */
	return d->vl.layer_off ? flat[d->vl.layer_off].u : 0;
}

static int32_t
snap(float v)
{
	return (int32_t)lrintf(v * (float)GFX_SUBPIXEL_ONE);
}

/* floor(a / b) for b > 0. */
static int64_t
floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Pixels whose centre lies in [lo, hi] (subpixel units): the first and
 * the one after the last. */
static void
pixel_span(int64_t lo, int64_t hi, int32_t *first, int32_t *end)
{
	const int64_t half = GFX_SUBPIXEL_ONE / 2;

	*first = (int32_t)-floor_div(-(lo - half), GFX_SUBPIXEL_ONE);
	*end = (int32_t)(floor_div(hi - half, GFX_SUBPIXEL_ONE) + 1);
}

/* Multisampled: pixels that [lo, hi] touches at all (any of their
 * sample locations may lie inside). */
static void
pixel_span_any(int64_t lo, int64_t hi, int32_t *first, int32_t *end)
{
	*first = (int32_t)floor_div(lo, GFX_SUBPIXEL_ONE);
	*end = (int32_t)(floor_div(hi, GFX_SUBPIXEL_ONE) + 1);
}

static bool
clip_bbox(struct gfx_rect *r, const struct gfx_rect *sc)
{
	if (r->x0 < sc->x0)
		r->x0 = sc->x0;
	if (r->y0 < sc->y0)
		r->y0 = sc->y0;
	if (r->x1 > sc->x1)
		r->x1 = sc->x1;
	if (r->y1 > sc->y1)
		r->y1 = sc->y1;
	return r->x0 < r->x1 && r->y0 < r->y1;
}

/* Minimum resolvable difference of the depth attachment for a primitive
 * whose largest |z| is zmax. */
static float
depth_r(const struct gfx_draw *d, float zmax)
{
	if (!d->depth_float)
		return d->depth_r;
	int e;
	if (zmax == 0.0f || !isfinite(zmax))
		return 0x1p-23f * 0x1p-126f;
	(void)frexpf(zmax, &e);     /* zmax = m * 2^e, m in [0.5, 1) */
	return ldexpf(1.0f, e - 1 - 23);
}

/* The depth bias of a polygon with depth slopes zx, zy. */
static float
poly_bias(const struct gfx_draw *d, float zx, float zy, float zmax)
{
	if (!d->depth_bias)
		return 0.0f;
	float m = fmaxf(fabsf(zx), fabsf(zy));
	float o = m * d->bias_slope + depth_r(d, zmax) * d->bias_constant;
	if (d->bias_clamp > 0.0f && o > d->bias_clamp)
		o = d->bias_clamp;
	else if (d->bias_clamp < 0.0f && o < d->bias_clamp)
		o = d->bias_clamp;
	return o;
}

bool
gfx_setup_tri(const struct gfx_draw *d, const lane_t *const vin[3],
              const lane_t *flat, uint32_t prim_id, struct gfx_prim *p)
{
	uint32_t vpi = gfx_prim_viewport(d, flat);
	uint32_t layer = gfx_prim_layer(d, flat);

	if (vpi >= d->nvp || layer >= d->layers)
		return false;
	const struct gfx_viewport *vp = &d->vp[vpi];
	float s[3][4];
	int64_t X[3], Y[3];
	const lane_t *v[3] = { vin[0], vin[1], vin[2] };

	for (int k = 0; k < 3; k++) {
		gfx_viewport_xform(vp, v[k], s[k]);
		X[k] = snap(s[k][0]);
		Y[k] = snap(s[k][1]);
	}
	int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) -
	               (X[2] - X[0]) * (Y[1] - Y[0]);
	if (area == 0)
		return false;
	bool front = d->front_ccw ? area < 0 : area > 0;
	if ((d->cull_mode & 1u) && front)
		return false;
	if ((d->cull_mode & 2u) && !front)
		return false;
	if (area < 0) {
		/* Make the area positive: swap vertices 1 and 2. */
		const lane_t *tv = v[1];
		v[1] = v[2];
		v[2] = tv;
		float ts[4];
		memcpy(ts, s[1], sizeof(ts));
		memcpy(s[1], s[2], sizeof(ts));
		memcpy(s[2], ts, sizeof(ts));
		int64_t t = X[1]; X[1] = X[2]; X[2] = t;
		t = Y[1]; Y[1] = Y[2]; Y[2] = t;
		area = -area;
	}
	memset(p, 0, sizeof(*p));
	p->kind = GFX_PRIM_TRI;
	p->front = front;
	p->face = front ? 0 : 1;
	p->layer = layer;
	p->viewport = vpi;
	p->prim_id = prim_id;
	/* Edge k is opposite vertex k: from vertex k+1 to vertex k+2. */
	for (int k = 0; k < 3; k++) {
		int i = (k + 1) % 3, j = (k + 2) % 3;
		int64_t dx = X[j] - X[i], dy = Y[j] - Y[i];
		p->ea[k] = -dy;
		p->eb[k] = dx;
		p->ec[k] = dy * X[i] - dx * Y[i];
		bool top_left = dy < 0 || (dy == 0 && dx > 0);
		if (!top_left)
			p->ec[k] -= 1;
	}
	int64_t xmin = X[0], xmax = X[0], ymin = Y[0], ymax = Y[0];
	for (int k = 1; k < 3; k++) {
		xmin = X[k] < xmin ? X[k] : xmin;
		xmax = X[k] > xmax ? X[k] : xmax;
		ymin = Y[k] < ymin ? Y[k] : ymin;
		ymax = Y[k] > ymax ? Y[k] : ymax;
	}
	if (d->samples > 1) {
		pixel_span_any(xmin, xmax, &p->bbox.x0, &p->bbox.x1);
		pixel_span_any(ymin, ymax, &p->bbox.y0, &p->bbox.y1);
	} else {
		pixel_span(xmin, xmax, &p->bbox.x0, &p->bbox.x1);
		pixel_span(ymin, ymax, &p->bbox.y0, &p->bbox.y1);
	}
	if (!clip_bbox(&p->bbox, &d->scissor[vpi]))
		return false;
	/* Barycentrics of vertices 1 and 2 from the edge functions (their
	 * exact, unbiased values divided by the area), relative to vertex
	 * 0's snapped position where both are 0. */
	const double scale = (double)GFX_SUBPIXEL_ONE / (double)area;
	p->rx = (float)X[0] / (float)GFX_SUBPIXEL_ONE;
	p->ry = (float)Y[0] / (float)GFX_SUBPIXEL_ONE;
	p->l1x = (float)((double)p->ea[1] * scale);
	p->l1y = (float)((double)p->eb[1] * scale);
	p->l2x = (float)((double)p->ea[2] * scale);
	p->l2y = (float)((double)p->eb[2] * scale);
	p->l1c = p->l2c = 0.0f;
	float dz1 = s[1][2] - s[0][2], dz2 = s[2][2] - s[0][2];
	p->zx = p->l1x * dz1 + p->l2x * dz2;
	p->zy = p->l1y * dz1 + p->l2y * dz2;
	p->zc = s[0][2];
	float zmax = fmaxf(fabsf(s[0][2]), fmaxf(fabsf(s[1][2]),
	                                         fabsf(s[2][2])));
	p->bias = poly_bias(d, p->zx, p->zy, zmax);
	for (int k = 0; k < 3; k++) {
		p->iw[k] = s[k][3];
		p->v[k] = v[k];
	}
	p->affine = p->iw[0] == p->iw[1] && p->iw[1] == p->iw[2];
	p->flat = flat;
	return true;
}

int
gfx_tri_face(const struct gfx_draw *d, const lane_t *const v[3],
             const lane_t *flat, bool *front, float *bias)
{
	uint32_t vpi = gfx_prim_viewport(d, flat);

	if (vpi >= d->nvp)
		return 0;
	const struct gfx_viewport *vp = &d->vp[vpi];
	float s[3][4];
	int64_t X[3], Y[3];

	for (int k = 0; k < 3; k++) {
		gfx_viewport_xform(vp, v[k], s[k]);
		X[k] = snap(s[k][0]);
		Y[k] = snap(s[k][1]);
	}
	int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) -
	               (X[2] - X[0]) * (Y[1] - Y[0]);
	if (area == 0)
		return -1;
	*front = d->front_ccw ? area < 0 : area > 0;
	if ((d->cull_mode & 1u) && *front)
		return 0;
	if ((d->cull_mode & 2u) && !*front)
		return 0;
	/* The polygon's depth slopes, for the bias of its edges/points. */
	double a = (double)area / (double)(GFX_SUBPIXEL_ONE * GFX_SUBPIXEL_ONE);
	double x1 = s[1][0] - s[0][0], y1 = s[1][1] - s[0][1];
	double x2 = s[2][0] - s[0][0], y2 = s[2][1] - s[0][1];
	double z1 = s[1][2] - s[0][2], z2 = s[2][2] - s[0][2];
	float zx = (float)((z1 * y2 - z2 * y1) / a);
	float zy = (float)((x1 * z2 - x2 * z1) / a);
	float zmax = fmaxf(fabsf(s[0][2]), fmaxf(fabsf(s[1][2]),
	                                         fabsf(s[2][2])));
	*bias = poly_bias(d, zx, zy, zmax);
	return 1;
}

bool
gfx_setup_line(const struct gfx_draw *d, const lane_t *const v[2],
               const lane_t *flat, uint32_t prim_id, bool front, float bias,
               struct gfx_prim *p)
{
	uint32_t vpi = gfx_prim_viewport(d, flat);
	uint32_t layer = gfx_prim_layer(d, flat);

	if (vpi >= d->nvp || layer >= d->layers)
		return false;
	const struct gfx_viewport *vp = &d->vp[vpi];
	float a[4], b[4];

	gfx_viewport_xform(vp, v[0], a);
	gfx_viewport_xform(vp, v[1], b);
	memset(p, 0, sizeof(*p));
	p->kind = GFX_PRIM_LINE;
	p->front = front;
	p->face = front ? 0 : 1;
	p->layer = layer;
	p->viewport = vpi;
	p->prim_id = prim_id;
	/* Snapped to the subpixel grid like triangle vertices. */
	p->lx0 = (float)snap(a[0]) / (float)GFX_SUBPIXEL_ONE;
	p->ly0 = (float)snap(a[1]) / (float)GFX_SUBPIXEL_ONE;
	p->lx1 = (float)snap(b[0]) / (float)GFX_SUBPIXEL_ONE;
	p->ly1 = (float)snap(b[1]) / (float)GFX_SUBPIXEL_ONE;
	float dx = p->lx1 - p->lx0, dy = p->ly1 - p->ly0;
	float len2 = dx * dx + dy * dy;
	if (len2 == 0.0f)
		return false;
	p->bbox.x0 = (int32_t)floorf(fminf(p->lx0, p->lx1)) - 1;
	p->bbox.y0 = (int32_t)floorf(fminf(p->ly0, p->ly1)) - 1;
	p->bbox.x1 = (int32_t)floorf(fmaxf(p->lx0, p->lx1)) + 2;
	p->bbox.y1 = (int32_t)floorf(fmaxf(p->ly0, p->ly1)) + 2;
	if (!clip_bbox(&p->bbox, &d->scissor[vpi]))
		return false;
	/* t along the line projected on its major axis (x-major: t = (x -
	 * xa) / (xb - xa)), how Bresenham lines are interpolated: the pixels
	 * they light are one per column (row), and the CTS checks them
	 * with these weights. Multisampled lines are the spec's rectangle
	 * (raster_line_ms.c), interpolated as the spec says for it: t =
	 * (p - a) . (b - a) / |b - a|^2, the point projected on the
	 * segment. */
	p->rx = p->lx0;
	p->ry = p->ly0;
	if (d->samples > 1) {
		p->l1x = dx / len2;
		p->l1y = dy / len2;
	} else if (fabsf(dx) >= fabsf(dy)) {
		p->l1x = 1.0f / dx;
		p->l1y = 0.0f;
	} else {
		p->l1x = 0.0f;
		p->l1y = 1.0f / dy;
	}
	p->zx = p->l1x * (b[2] - a[2]);
	p->zy = p->l1y * (b[2] - a[2]);
	p->zc = a[2];
	p->bias = bias;
	p->iw[0] = a[3];
	p->iw[1] = b[3];
	p->iw[2] = a[3];
	p->affine = a[3] == b[3];
	p->v[0] = v[0];
	p->v[1] = v[1];
	p->v[2] = v[0];
	p->flat = flat;
	return true;
}

bool
gfx_setup_point(const struct gfx_draw *d, const lane_t *v, uint32_t prim_id,
                bool front, float bias, struct gfx_prim *p)
{
	uint32_t vpi = gfx_prim_viewport(d, v);
	uint32_t layer = gfx_prim_layer(d, v);

	if (vpi >= d->nvp || layer >= d->layers)
		return false;
	const struct gfx_viewport *vp = &d->vp[vpi];
	float s[4];

	gfx_viewport_xform(vp, v, s);
	float size = d->kind == GFX_PRIM_POINT ? v[GFX_VTX_PSIZE].f : 1.0f;
	if (!(size >= 1.0f))
		size = 1.0f;
	if (size > SWGPU_GFX_MAX_POINT_SIZE)
		size = SWGPU_GFX_MAX_POINT_SIZE;
	memset(p, 0, sizeof(*p));
	p->kind = GFX_PRIM_POINT;
	p->front = front;
	p->face = front ? 0 : 1;
	p->layer = layer;
	p->viewport = vpi;
	p->prim_id = prim_id;
	p->psize = size;
	p->px0 = s[0] - 0.5f * size;
	p->py0 = s[1] - 0.5f * size;
	p->px1 = s[0] + 0.5f * size;
	p->py1 = s[1] + 0.5f * size;
	/* Pixel centres in [p0, p1): x + 0.5 >= px0 and x + 0.5 < px1. */
	p->bbox.x0 = (int32_t)ceilf(p->px0 - 0.5f);
	p->bbox.x1 = (int32_t)ceilf(p->px1 - 0.5f);
	p->bbox.y0 = (int32_t)ceilf(p->py0 - 0.5f);
	p->bbox.y1 = (int32_t)ceilf(p->py1 - 0.5f);
	if (d->samples > 1) {
		/* pixels the square touches: samples anywhere inside them */
		p->bbox.x0 = (int32_t)floorf(p->px0);
		p->bbox.x1 = (int32_t)floorf(p->px1) + 1;
		p->bbox.y0 = (int32_t)floorf(p->py0);
		p->bbox.y1 = (int32_t)floorf(p->py1) + 1;
	}
	if (!clip_bbox(&p->bbox, &d->scissor[vpi]))
		return false;
	p->rx = s[0];
	p->ry = s[1];
	p->zc = s[2];
	p->bias = bias;
	for (int k = 0; k < 3; k++) {
		p->iw[k] = s[3];
		p->v[k] = v;
	}
	p->affine = 1;
	p->flat = v;
	return true;
}
