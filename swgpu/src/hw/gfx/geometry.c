/* SPDX-License-Identifier: MIT */
/*
 * Geometry task: GFX_CHUNK_PRIMS assembled primitives of the batch
 * through cull distances, clipping (clip.c), polygon mode, setup with
 * face culling (setup.c) and binning (bin.c), into the chunk's own
 * primitive and bin lists — no shared state, so chunks run on any
 * thread; bin.c merges them in chunk order.
 *
 * Polygon modes: FILL triangulates the clipped polygon as a fan from
 * its first vertex; LINE draws the clipped polygon's edges and POINT its
 * vertices that are original vertices, with the facing and depth bias
 * of the polygon. Every primitive keeps the provoking vertex of its
 * assembled primitive for flat inputs, Layer and ViewportIndex.
 */
#include "hw/gfx/gfx_internal.h"

#include <stdlib.h>

static struct gfx_prim *
new_prim(struct gfx_chunk *c)
{
	if (c->nprims == c->prim_cap) {
		uint32_t cap = c->prim_cap ? 2 * c->prim_cap : 512;
		struct gfx_prim *p = realloc(c->prims, cap * sizeof(*p));
		if (!p) {
			c->oom = true;
			return NULL;
		}
		c->prims = p;
		c->prim_cap = cap;
	}
	return &c->prims[c->nprims];
}

/* Keep the primitive just set up (slot c->nprims) and bin it. */
static void
commit(const struct gfx_draw *d, const struct gfx_batch *b,
       struct gfx_chunk *c)
{
	if (!gfx_bin_prim(d, b, c, c->nprims))
		c->oom = true;
	else
		c->nprims++;
}

static void
triangle(const struct gfx_draw *d, const struct gfx_batch *b,
         struct gfx_chunk *c, const lane_t *const v[3], uint32_t id)
{
	const lane_t *poly[GFX_CLIP_MAX_VERTS];
	uint32_t n = 3;
	uint32_t vpi = gfx_prim_viewport(d, v[0]);

	if (vpi >= d->nvp || gfx_cull_distance_reject(d, v, 3))
		return;
	const struct gfx_viewport *vp = &d->vp[vpi];
	if (gfx_clip_outcode(d, vp, v[0]) | gfx_clip_outcode(d, vp, v[1]) |
	    gfx_clip_outcode(d, vp, v[2])) {
		lane_t *words = gfx_arena_alloc(&c->arena, GFX_CLIP_MAX_NEW *
		                                           d->vl.stride);
		if (!words) {
			c->oom = true;
			return;
		}
		n = gfx_clip_polygon(d, vp, v, 3, poly, words);
	} else {
		poly[0] = v[0];
		poly[1] = v[1];
		poly[2] = v[2];
	}
	if (n < 3)
		return;
	if (d->polygon_mode == 0) {
		for (uint32_t k = 1; k + 1 < n; k++) {
			const lane_t *tri[3] = { poly[0], poly[k], poly[k + 1] };
			struct gfx_prim *p = new_prim(c);
			if (!p)
				return;
			if (gfx_setup_tri(d, tri, v[0], id, p))
				commit(d, b, c);
		}
		return;
	}
	/* LINE / POINT: the polygon's facing decides culling. */
	bool front = true;
	float bias = 0.0f;
	int face = -1;
	for (uint32_t k = 1; k + 1 < n && face < 0; k++) {
		const lane_t *tri[3] = { poly[0], poly[k], poly[k + 1] };
		face = gfx_tri_face(d, tri, v[0], &front, &bias);
	}
	if (face <= 0)
		return;
	for (uint32_t k = 0; k < n; k++) {
		struct gfx_prim *p = new_prim(c);
		if (!p)
			return;
		if (d->polygon_mode == 1) {
			const lane_t *e[2] = { poly[k], poly[(k + 1) % n] };
			if (gfx_setup_line(d, e, v[0], id, front, bias, p))
				commit(d, b, c);
		} else if (poly[k] == v[0] || poly[k] == v[1] ||
		           poly[k] == v[2]) {
			if (gfx_setup_point(d, poly[k], id, front, bias, p)) {
				p->flat = v[0];
				commit(d, b, c);
			}
		}
	}
}

static void
line(const struct gfx_draw *d, const struct gfx_batch *b,
     struct gfx_chunk *c, const lane_t *const v[2], uint32_t id)
{
	uint32_t vpi = gfx_prim_viewport(d, v[0]);

	if (vpi >= d->nvp || gfx_cull_distance_reject(d, v, 2))
		return;
	lane_t *words = gfx_arena_alloc(&c->arena, 2 * d->vl.stride);
	const lane_t *out[2];
	if (!words) {
		c->oom = true;
		return;
	}
	if (!gfx_clip_line(d, &d->vp[vpi], v, out, words))
		return;
	struct gfx_prim *p = new_prim(c);
	if (p && gfx_setup_line(d, out, v[0], id, true, 0.0f, p))
		commit(d, b, c);
}

static void
point(const struct gfx_draw *d, const struct gfx_batch *b,
      struct gfx_chunk *c, const lane_t *v, uint32_t id)
{
	uint32_t vpi = gfx_prim_viewport(d, v);

	if (vpi >= d->nvp || gfx_cull_distance_reject(d, &v, 1) ||
	    gfx_clip_outcode(d, &d->vp[vpi], v))
		return;
	struct gfx_prim *p = new_prim(c);
	if (p && gfx_setup_point(d, v, id, true, 0.0f, p))
		commit(d, b, c);
}

void
gfx_geometry_task(void *ctx, uint32_t item, uint32_t thread)
{
	struct gfx_draw *d = ctx;
	struct gfx_batch *b = d->g->batch;
	struct gfx_chunk *c = &b->chunks[item];
	const uint32_t first = item * GFX_CHUNK_PRIMS;
	const uint32_t end = b->nprims - first < GFX_CHUNK_PRIMS
	                     ? b->nprims : first + GFX_CHUNK_PRIMS;
	const uint32_t stride = d->vl.stride;

	(void)thread;
	c->nprims = 0;
	c->nbins = 0;
	c->oom = false;
	gfx_arena_reset(&c->arena);
	if (gfx_draw_failed(d))
		return;
	for (uint32_t i = first; i < end && !c->oom; i++) {
		const struct gfx_aprim *ap = &b->prims[i];
		const lane_t *v[3];
		for (int k = 0; k < 3; k++)
			v[k] = b->verts + (uint64_t)ap->v[k] * stride;
		switch (d->kind) {
		case GFX_PRIM_TRI:
			triangle(d, b, c, v, ap->id);
			break;
		case GFX_PRIM_LINE:
			line(d, b, c, v, ap->id);
			break;
		default:
			point(d, b, c, v[0], ap->id);
			break;
		}
	}
	if (c->oom)
		gfx_draw_fail_msg(d, SWGPU_FAULT_BAD_PACKET,
		                  "out of host memory for primitives");
}
