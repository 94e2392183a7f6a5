/* SPDX-License-Identifier: MIT */
/*
 * Fragment stage: covered 2x2 quads from the raster are collected into
 * batches of GFX_BATCH_QUADS (64 lanes, lane 4q + i is pixel i of quad
 * q: (x, y), (x+1, y), (x, y+1), (x+1, y+1)); uncovered pixels of a quad
 * run as helper invocations (live 0) so derivatives work.
 *
 * Early fragment tests (depth bounds, stencil, depth, and the occlusion
 * count) run as each quad arrives, before the shader, when the program
 * allows (draw.c decides: EarlyFragmentTests, or no discard, no depth
 * output and no side effects); otherwise they run after the shader, on
 * its output depth. Quads are processed in the order they arrived, one
 * after the other, so overlapping quads of later primitives in the same
 * batch see the depth and colour of earlier ones (API order).
 *
 * Interpolation at the pixel centre: screen-space barycentrics (l1, l2)
 * from the primitive's planes; perspective-correct ones weigh them by
 * 1/w of each vertex; noperspective ones are used as they are; flat
 * inputs come from the provoking vertex. Depth is linear in screen
 * space.
 */
#include "hw/gfx/gfx_internal.h"

#include <string.h>

static inline bool
builtin_used(const struct gfx_program *fs, uint32_t reg)
{
	return (fs->builtins_used >> reg) & 1u;
}

void
gfx_frag_quad(struct gfx_thread *t, const struct gfx_draw *d,
              const struct gfx_prim *p, int32_t x, int32_t y, uint32_t mask)
{
	float z[4];

	for (uint32_t l = 0; l < 4; l++) {
		float px = (float)(x + (int32_t)(l & 1)) + 0.5f;
		float py = (float)(y + (int32_t)(l >> 1)) + 0.5f;
		z[l] = p->zc + p->zx * (px - p->rx) + p->zy * (py - p->ry) +
		       p->bias;
	}
	if (d->early_tests) {
		mask = gfx_depth_stencil(d, p, x, y, mask, z);
		t->occlusion += (uint32_t)__builtin_popcount(mask);
		if (!mask)
			return;
	}
	if (!d->fs)
		return;
	struct gfx_quad *q = &t->quad[t->nquads];
	q->x = x;
	q->y = y;
	q->mask = (uint8_t)mask;
	q->prim = p;
	memcpy(&t->z[4 * t->nquads], z, sizeof(z));
	if (++t->nquads == GFX_BATCH_QUADS)
		gfx_frag_flush(t, d);
}

/* Interpolated inputs and built-ins of every lane. */
static void
fill_inputs(struct gfx_thread *t, const struct gfx_draw *d,
            struct gfx_exec *e, uint32_t nq)
{
	const struct gfx_program *fs = d->fs;
	const struct gfx_vlayout *vl = &d->vl;
	const uint32_t n = 4 * nq;
	float l1[GFX_LANES], l2[GFX_LANES], b1[GFX_LANES], b2[GFX_LANES];
	float iw[GFX_LANES];

	for (uint32_t q = 0; q < nq; q++) {
		const struct gfx_prim *p = t->quad[q].prim;
		for (uint32_t i = 0; i < 4; i++) {
			uint32_t l = 4 * q + i;
			float px = (float)(t->quad[q].x + (int32_t)(i & 1)) +
			           0.5f - p->rx;
			float py = (float)(t->quad[q].y + (int32_t)(i >> 1)) +
			           0.5f - p->ry;
			l1[l] = p->l1x * px + p->l1y * py + p->l1c;
			l2[l] = p->l2x * px + p->l2y * py + p->l2c;
			float w0 = (1.0f - l1[l] - l2[l]) * p->iw[0];
			float w1 = l1[l] * p->iw[1], w2 = l2[l] * p->iw[2];
			float s = w0 + w1 + w2;
			iw[l] = s;
			b1[l] = s != 0.0f ? w1 / s : 0.0f;
			b2[l] = s != 0.0f ? w2 / s : 0.0f;
		}
	}
	for (uint32_t j = 0; j < vl->nvar; j++) {
		lane_t *r = gfx_exec_reg(e, vl->var_fs_reg[j]);
		const uint32_t w = vl->var_off + j;
		const uint32_t mode = vl->var_interp[j] & IR_INTERP_MODE_MASK;
		for (uint32_t l = 0; l < n; l++) {
			const struct gfx_prim *p = t->quad[l / 4].prim;
			if (mode == IR_INTERP_FLAT) {
				r[l].u = p->flat[w].u;
				continue;
			}
			float v0 = p->v[0][w].f, v1 = p->v[1][w].f;
			float v2 = p->v[2][w].f;
			float a = mode == IR_INTERP_NOPERSPECTIVE ? l1[l] : b1[l];
			float b = mode == IR_INTERP_NOPERSPECTIVE ? l2[l] : b2[l];
			r[l].f = v0 + a * (v1 - v0) + b * (v2 - v0);
		}
	}
	if (builtin_used(fs, IR_REG_FRAG_COORD) ||
	    builtin_used(fs, IR_REG_FRAG_COORD + 1) ||
	    builtin_used(fs, IR_REG_FRAG_COORD + 2) ||
	    builtin_used(fs, IR_REG_FRAG_COORD + 3)) {
		lane_t *fx = gfx_exec_reg(e, IR_REG_FRAG_COORD);
		lane_t *fy = gfx_exec_reg(e, IR_REG_FRAG_COORD + 1);
		lane_t *fz = gfx_exec_reg(e, IR_REG_FRAG_COORD + 2);
		lane_t *fw = gfx_exec_reg(e, IR_REG_FRAG_COORD + 3);
		for (uint32_t l = 0; l < n; l++) {
			const struct gfx_quad *q = &t->quad[l / 4];
			const struct gfx_viewport *vp = &d->vp[q->prim->viewport];
			float z = t->z[l];
			if (d->depth_clamp)
				z = z < vp->zmin ? vp->zmin
				    : z > vp->zmax ? vp->zmax : z;
			fx[l].f = (float)(q->x + (int32_t)(l & 1)) + 0.5f;
			fy[l].f = (float)(q->y + (int32_t)((l >> 1) & 1)) + 0.5f;
			fz[l].f = z;
			fw[l].f = iw[l];
		}
	}
	if (builtin_used(fs, IR_REG_FRONT_FACING)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_FRONT_FACING);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = t->quad[l / 4].prim->front;
	}
	if (builtin_used(fs, IR_REG_POINT_COORD) ||
	    builtin_used(fs, IR_REG_POINT_COORD + 1)) {
		lane_t *s = gfx_exec_reg(e, IR_REG_POINT_COORD);
		lane_t *tc = gfx_exec_reg(e, IR_REG_POINT_COORD + 1);
		for (uint32_t l = 0; l < n; l++) {
			const struct gfx_quad *q = &t->quad[l / 4];
			const struct gfx_prim *p = q->prim;
			if (p->kind != GFX_PRIM_POINT) {
				s[l].f = tc[l].f = 0.0f;
				continue;
			}
			float px = (float)(q->x + (int32_t)(l & 1)) + 0.5f;
			float py = (float)(q->y + (int32_t)((l >> 1) & 1)) + 0.5f;
			s[l].f = (px - p->px0) / p->psize;
			tc[l].f = (py - p->py0) / p->psize;
		}
	}
	if (builtin_used(fs, IR_REG_HELPER)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_HELPER);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = !t->live[l];
	}
	if (builtin_used(fs, IR_REG_SAMPLE_ID)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_SAMPLE_ID);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = 0;
	}
	if (builtin_used(fs, IR_REG_SAMPLE_MASK_IN)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_SAMPLE_MASK_IN);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = t->live[l];
	}
	if (builtin_used(fs, IR_REG_SAMPLE_POSITION) ||
	    builtin_used(fs, IR_REG_SAMPLE_POSITION + 1)) {
		lane_t *a = gfx_exec_reg(e, IR_REG_SAMPLE_POSITION);
		lane_t *b = gfx_exec_reg(e, IR_REG_SAMPLE_POSITION + 1);
		for (uint32_t l = 0; l < n; l++)
			a[l].f = b[l].f = 0.5f;
	}
	if (builtin_used(fs, IR_REG_PRIMITIVE_ID)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_PRIMITIVE_ID);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = t->quad[l / 4].prim->prim_id;
	}
	if (builtin_used(fs, IR_REG_VIEW_INDEX)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_VIEW_INDEX);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = 0;
	}
	if (builtin_used(fs, IR_REG_LAYER)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_LAYER);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = t->quad[l / 4].prim->layer;
	}
	if (builtin_used(fs, IR_REG_VIEWPORT_INDEX)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_VIEWPORT_INDEX);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = t->quad[l / 4].prim->viewport;
	}
}

void
gfx_frag_flush(struct gfx_thread *t, const struct gfx_draw *d)
{
	const uint32_t nq = t->nquads;
	struct gfx_exec *e = t->fs;

	t->nquads = 0;
	if (!nq || gfx_draw_failed(d))
		return;
	const struct ir_io *io = d->fs->io;
	const uint32_t n = 4 * nq;

	for (uint32_t l = 0; l < n; l++)
		t->live[l] = (t->quad[l / 4].mask >> (l & 3)) & 1u;
	fill_inputs(t, d, e, nq);
	if (!gfx_exec_run(e, d->fs_res, n, t->live, t->discarded)) {
		gfx_draw_fail((struct gfx_draw *)d, SWGPU_FAULT_HANG);
		return;
	}
	t->fragments += n;

	const lane_t *color[SWGPU_GFX_MAX_COLOR_ATTACHMENTS][4];
	const lane_t *color1[4] = { NULL, NULL, NULL, NULL };
	static const lane_t zero[GFX_LANES];
	for (uint32_t i = 0; i < d->ncolor; i++)
		for (uint32_t c = 0; c < 4; c++)
			color[i][c] = io->out_reg[i][c]
			              ? gfx_exec_reg(e, io->out_reg[i][c])
			              : zero;
	if (d->dual_source)
		for (uint32_t c = 0; c < 4; c++)
			color1[c] = io->out_index1_reg[c]
			            ? gfx_exec_reg(e, io->out_index1_reg[c])
			            : zero;
	const lane_t *fdepth = io->frag_depth_reg
	                       ? gfx_exec_reg(e, io->frag_depth_reg) : NULL;
	const lane_t *smask = io->sample_mask_reg
	                      ? gfx_exec_reg(e, io->sample_mask_reg) : NULL;

	for (uint32_t q = 0; q < nq; q++) {
		const struct gfx_quad *qd = &t->quad[q];
		const struct gfx_prim *p = qd->prim;
		uint32_t m = 0;
		for (uint32_t i = 0; i < 4; i++) {
			uint32_t l = 4 * q + i;
			if (t->live[l] && !t->discarded[l] &&
			    (!smask || (smask[l].u & 1u)))
				m |= 1u << i;
		}
		if (!m)
			continue;
		if (!d->early_tests) {
			float z[4];
			for (uint32_t i = 0; i < 4; i++)
				z[i] = fdepth ? fdepth[4 * q + i].f
				              : t->z[4 * q + i];
			m = gfx_depth_stencil(d, p, qd->x, qd->y, m, z);
			t->occlusion += (uint32_t)__builtin_popcount(m);
		}
		if (!d->any_color)
			continue;
		for (uint32_t i = 0; i < 4; i++) {
			if (!(m & (1u << i)))
				continue;
			uint32_t l = 4 * q + i;
			int32_t x = qd->x + (int32_t)(i & 1);
			int32_t y = qd->y + (int32_t)(i >> 1);
			for (uint32_t a = 0; a < d->ncolor; a++) {
				const struct gfx_color_target *rt = &d->color[a];
				if (!rt->write_mask)
					continue;
				lane_t s[4], s1[4];
				for (uint32_t c = 0; c < 4; c++) {
					s[c] = color[a][c][l];
					if (d->dual_source)
						s1[c] = color1[c][l];
				}
				gfx_output_pixel(d, rt, x, y, p->layer, s,
				                 d->dual_source ? s1 : NULL);
			}
		}
	}
}
