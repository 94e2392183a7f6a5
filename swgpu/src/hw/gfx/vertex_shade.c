/* SPDX-License-Identifier: MIT */
/*
 * Vertex stage: the batch's unique vertices, GFX_VS_LANES at a time per
 * task, fetched (vertex_fetch.c), shaded, and stored as post-vertex-
 * shader vertices (gfx_vlayout): clip position, point size, clip and
 * cull distances, Layer, ViewportIndex, then exactly the varyings the
 * fragment shader reads (an output the vertex shader does not write
 * reads as 0).
 */
#include "hw/gfx/gfx_internal.h"

#include <string.h>

#include "util/util.h"

/* The thread's execution states for the draw's programs (created at its
 * first task of a draw with new programs). */
bool
gfx_thread_execs(struct gfx_thread *t, struct gfx_draw *d)
{
	if (t->have_execs && t->gen == d->prog_gen)
		return true;
	gfx_exec_destroy(t->vs);
	gfx_exec_destroy(t->fs);
	gfx_exec_destroy(t->fs_uniform);
	t->vs = gfx_exec_create(d->vs, GFX_VS_LANES);
	t->fs = d->fs ? gfx_exec_create(d->fs, GFX_LANES) : NULL;
	t->fs_uniform = d->fs && d->fs->uniform_outputs
	                ? gfx_exec_create(d->fs, GFX_UNIFORM_LANES) : NULL;
	t->gen = d->prog_gen;
	t->have_execs = t->vs && (t->fs || !d->fs) &&
	                (t->fs_uniform || !d->fs || !d->fs->uniform_outputs);
	if (t->fs_uniform)
		gfx_frag_uniform_setup(t, d);
	return t->have_execs;
}

void
gfx_vertex_task(void *ctx, uint32_t item, uint32_t thread)
{
	struct gfx_draw *d = ctx;
	struct gfx_thread *t = d->g->threads[thread];
	struct gfx_batch *b = d->g->batch;
	const struct ir_io *io = d->vs->io;
	const struct gfx_vlayout *vl = &d->vl;
	const uint32_t first = item * GFX_VS_LANES;
	const uint32_t n = b->nverts - first < GFX_VS_LANES
	                   ? b->nverts - first : GFX_VS_LANES;
	struct gfx_fetch_attrib attr[SWGPU_GFX_MAX_VERTEX_ATTRIBS];

	if (gfx_draw_failed(d))
		return;
	if (!gfx_thread_execs(t, d)) {
		gfx_draw_fail_msg(d, SWGPU_FAULT_BAD_PACKET,
		                  "no execution state for the pipeline's "
		                  "shaders");
		return;
	}
	struct gfx_exec *e = t->vs;
	memcpy(attr, d->attr, d->nattr * sizeof(attr[0]));
	for (uint32_t i = 0; i < d->nattr; i++)
		for (uint32_t c = 0; c < 4; c++)
			attr[i].reg[c] = attr[i].in_reg[c]
			                 ? gfx_exec_reg(e, attr[i].in_reg[c])
			                 : NULL;
	for (uint32_t l = 0; l < n; l++)
		gfx_fetch_vertex(d, attr, d->nattr, b->vert_id[first + l],
		                 b->vert_inst[first + l], l);
	const uint64_t used = d->vs->builtins_used;
	if (used & (1ull << IR_REG_VERTEX_INDEX)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_VERTEX_INDEX);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = b->vert_id[first + l];
	}
	if (used & (1ull << IR_REG_INSTANCE_INDEX)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_INSTANCE_INDEX);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = b->vert_inst[first + l];
	}
	const struct { uint32_t reg, value; } consts[] = {
		{ IR_REG_BASE_VERTEX, d->indexed ? (uint32_t)d->vertex_offset
		                                 : d->first },
		{ IR_REG_BASE_INSTANCE, d->first_instance },
		{ IR_REG_DRAW_INDEX, d->draw_index },
		{ IR_REG_VIEW_INDEX, d->view_index },
	};
	for (uint32_t k = 0; k < SWGPU_ARRAY_SIZE(consts); k++) {
		if (!(used & (1ull << consts[k].reg)))
			continue;
		lane_t *r = gfx_exec_reg(e, consts[k].reg);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = consts[k].value;
	}
	if (!gfx_exec_run(e, d->vs_res, n, NULL, NULL)) {
		gfx_draw_fail_msg(d, SWGPU_FAULT_HANG,
		                  "vertex shader batch made no progress");
		return;
	}
	if (d->vs_res)
		ir_dispatch_progress(d->vs_res);
	t->vertices += n;

	lane_t *out = b->verts + (uint64_t)first * vl->stride;
	static const lane_t zero[GFX_VS_LANES];
	const lane_t *pos[4];
	for (uint32_t c = 0; c < 4; c++)
		pos[c] = io->position_reg ? gfx_exec_reg(e, io->position_reg + c)
		                          : zero;
	const lane_t *psize = io->point_size_reg
	                      ? gfx_exec_reg(e, io->point_size_reg) : NULL;
	for (uint32_t l = 0; l < n; l++) {
		lane_t *v = out + (uint64_t)l * vl->stride;
		for (uint32_t c = 0; c < 4; c++)
			v[GFX_VTX_POS + c] = pos[c][l];
		v[GFX_VTX_PSIZE].f = psize ? psize[l].f : 1.0f;
	}
	for (uint32_t i = 0; i < vl->nclip; i++) {
		const lane_t *r = gfx_exec_reg(e, io->clip_reg + i);
		for (uint32_t l = 0; l < n; l++)
			out[(uint64_t)l * vl->stride + vl->clip_off + i] = r[l];
	}
	for (uint32_t i = 0; i < vl->ncull; i++) {
		const lane_t *r = gfx_exec_reg(e, io->cull_reg + i);
		for (uint32_t l = 0; l < n; l++)
			out[(uint64_t)l * vl->stride + vl->cull_off + i] = r[l];
	}
	if (vl->layer_off) {
		const lane_t *r = gfx_exec_reg(e, io->layer_reg);
		for (uint32_t l = 0; l < n; l++)
			out[(uint64_t)l * vl->stride + vl->layer_off] = r[l];
	}
	if (vl->vpi_off) {
		const lane_t *r = gfx_exec_reg(e, io->viewport_index_reg);
		for (uint32_t l = 0; l < n; l++)
			out[(uint64_t)l * vl->stride + vl->vpi_off] = r[l];
	}
	for (uint32_t j = 0; j < vl->nvar; j++) {
		const lane_t *r = vl->var_vs_reg[j]
		                  ? gfx_exec_reg(e, vl->var_vs_reg[j]) : zero;
		for (uint32_t l = 0; l < n; l++)
			out[(uint64_t)l * vl->stride + vl->var_off + j] = r[l];
	}
}
