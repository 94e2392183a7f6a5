/* SPDX-License-Identifier: MIT */
/*
 * Clipping in clip space (the spec's "Primitive Clipping").
 *
 * Planes, each a linear function d(v) >= 0 inside:
 *   near  z >= 0            far  z <= w      (both off with depthClamp)
 *   w     w >= GFX_W_EPS    (so every vertex that survives has 1/w)
 *   guard band  x, y within +-SWGPU_GFX_VIEWPORT_BOUNDS pixels of the
 *         framebuffer origin after the viewport transform; geometry
 *         inside it is never cut at the viewport edges (the raster and
 *         the scissor take care of pixels), only geometry so far out
 *         that fixed point would overflow
 *   ClipDistance[i] >= 0
 * A primitive with every vertex outside one plane is dropped; one with
 * every vertex inside all planes passes untouched (the common case);
 * others are clipped with Sutherland-Hodgman. A new vertex is computed
 * from the inside vertex towards the outside one, so two primitives
 * sharing an edge get bit-identical vertices on it. Every vertex word is
 * interpolated linearly in clip space (which is what perspective-correct
 * interpolation needs); noperspective varyings use the screen-space
 * parameter instead, so they stay linear on screen.
 */
#include "hw/gfx/gfx_internal.h"

#include <string.h>

#define GFX_W_EPS 0x1p-60f
#define PLANE_NEAR 0u
#define PLANE_FAR 1u
#define PLANE_W 2u
#define PLANE_GUARD 3u           /* 4 planes: x0, x1, y0, y1 */
#define PLANE_CLIP 7u            /* 8 clip distances */
#define NPLANES (PLANE_CLIP + SWGPU_GFX_MAX_CLIP_DISTANCES)

static float
plane_dist(const struct gfx_draw *d, const struct gfx_viewport *vp,
           uint32_t plane, const lane_t *v)
{
	float x = v[0].f, y = v[1].f, z = v[2].f, w = v[3].f;

	switch (plane) {
	case PLANE_NEAR: return z;
	case PLANE_FAR: return w - z;
	case PLANE_W: return w - GFX_W_EPS;
	case PLANE_GUARD + 0: return x - vp->gx0 * w;
	case PLANE_GUARD + 1: return vp->gx1 * w - x;
	case PLANE_GUARD + 2: return y - vp->gy0 * w;
	case PLANE_GUARD + 3: return vp->gy1 * w - y;
	default: return v[d->vl.clip_off + plane - PLANE_CLIP].f;
	}
}

/* Planes that apply to the draw (bit mask). */
static uint32_t
active_planes(const struct gfx_draw *d)
{
	uint32_t m = (1u << PLANE_W) | (0xfu << PLANE_GUARD);

	if (!d->depth_clamp)
		m |= (1u << PLANE_NEAR) | (1u << PLANE_FAR);
	m |= ((1u << d->vl.nclip) - 1u) << PLANE_CLIP;
	return m;
}

uint32_t
gfx_clip_outcode(const struct gfx_draw *d, const struct gfx_viewport *vp,
                 const lane_t *v)
{
	uint32_t planes = active_planes(d), out = 0;

	while (planes) {
		uint32_t p = (uint32_t)__builtin_ctz(planes);
		planes &= planes - 1;
		float dist = plane_dist(d, vp, p, v);
		/* NaN counts as outside: it cannot be rasterized */
		if (!(dist >= 0.0f))
			out |= 1u << p;
	}
	return out;
}

bool
gfx_cull_distance_reject(const struct gfx_draw *d, const lane_t *const *v,
                         uint32_t n)
{
	for (uint32_t i = 0; i < d->vl.ncull; i++) {
		bool all_out = true;
		for (uint32_t k = 0; k < n && all_out; k++)
			all_out = v[k][d->vl.cull_off + i].f < 0.0f;
		if (all_out)
			return true;
	}
	return false;
}

/* The vertex at parameter t from in towards out. */
static void
lerp_vertex(const struct gfx_draw *d, const lane_t *in, const lane_t *out,
            float t, lane_t *dst)
{
	const uint32_t stride = d->vl.stride;

	for (uint32_t i = 0; i < stride; i++)
		dst[i].f = in[i].f + t * (out[i].f - in[i].f);
	if (!d->vl.any_noperspective)
		return;
	/* Screen-space parameter of the same point. */
	float w = dst[3].f;
	float s = w != 0.0f ? t * out[3].f / w : t;
	for (uint32_t j = 0; j < d->vl.nvar; j++) {
		if ((d->vl.var_interp[j] & IR_INTERP_MODE_MASK) !=
		    IR_INTERP_NOPERSPECTIVE)
			continue;
		uint32_t i = d->vl.var_off + j;
		dst[i].f = in[i].f + s * (out[i].f - in[i].f);
	}
}

uint32_t
gfx_clip_polygon(const struct gfx_draw *d, const struct gfx_viewport *vp,
                 const lane_t *const *in, uint32_t n, const lane_t **out,
                 lane_t *out_words)
{
	const lane_t *buf[2][GFX_CLIP_MAX_VERTS];
	uint32_t codes_or = 0, codes_and = ~0u, made = 0;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t c = gfx_clip_outcode(d, vp, in[k]);
		codes_or |= c;
		codes_and &= c;
	}
	if (codes_and)
		return 0;
	for (uint32_t k = 0; k < n; k++)
		buf[0][k] = in[k];
	uint32_t cur = 0;
	while (codes_or && n) {
		uint32_t p = (uint32_t)__builtin_ctz(codes_or);
		codes_or &= codes_or - 1;
		const lane_t **src = buf[cur], **dst = buf[cur ^ 1];
		uint32_t m = 0;
		for (uint32_t k = 0; k < n; k++) {
			const lane_t *a = src[k], *b = src[(k + 1) % n];
			float da = plane_dist(d, vp, p, a);
			float db = plane_dist(d, vp, p, b);
			bool ina = da >= 0.0f, inb = db >= 0.0f;
			if (ina && m < GFX_CLIP_MAX_VERTS)
				dst[m++] = a;
			if (ina == inb || made >= GFX_CLIP_MAX_NEW ||
			    m >= GFX_CLIP_MAX_VERTS)
				continue;
			lane_t *nv = out_words + (size_t)made++ * d->vl.stride;
			if (ina)
				lerp_vertex(d, a, b, da / (da - db), nv);
			else
				lerp_vertex(d, b, a, db / (db - da), nv);
			dst[m++] = nv;
		}
		n = m;
		cur ^= 1;
	}
	for (uint32_t k = 0; k < n; k++)
		out[k] = buf[cur][k];
	return n;
}

bool
gfx_clip_line(const struct gfx_draw *d, const struct gfx_viewport *vp,
              const lane_t *const in[2], const lane_t *out[2],
              lane_t *out_words)
{
	uint32_t c0 = gfx_clip_outcode(d, vp, in[0]);
	uint32_t c1 = gfx_clip_outcode(d, vp, in[1]);
	float t0 = 0.0f, t1 = 1.0f;     /* the part kept, from in[0] */

	out[0] = in[0];
	out[1] = in[1];
	if (c0 & c1)
		return false;
	uint32_t planes = c0 | c1;
	while (planes) {
		uint32_t p = (uint32_t)__builtin_ctz(planes);
		planes &= planes - 1;
		float da = plane_dist(d, vp, p, in[0]);
		float db = plane_dist(d, vp, p, in[1]);
		if (!(da >= 0.0f) && !(db >= 0.0f))
			return false;
		if (da >= 0.0f && db >= 0.0f)
			continue;
		float t = da / (da - db);
		if (da < 0.0f) {
			if (t > t0)
				t0 = t;
		} else if (t < t1) {
			t1 = t;
		}
	}
	if (t0 >= t1)
		return false;
	if (t0 > 0.0f) {
		lerp_vertex(d, in[0], in[1], t0, out_words);
		out[0] = out_words;
	}
	if (t1 < 1.0f) {
		lane_t *nv = out_words + d->vl.stride;
		lerp_vertex(d, in[0], in[1], t1, nv);
		out[1] = nv;
	}
	return true;
}
