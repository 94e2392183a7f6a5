/* SPDX-License-Identifier: MIT */
/*
 * A draw from packet to pixels: everything the state says is resolved
 * and validated once (draw_prepare: programs, merged pipeline + dynamic
 * state, vertex input, the linkage of vertex outputs to fragment inputs,
 * attachments, viewports, per-fragment operations), then the instances'
 * primitives run in batches through the stages (see gfx_internal.h), with a
 * preemption point after every batch.
 *
 * The packet handler holds the VA space read lock for the whole draw, so
 * every host pointer resolved here stays valid while the worker threads
 * use it.
 */
#include "hw/gfx/draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/gfx/output8_unorm.h"
#include "hw/gfx/pass.h"
#include "hw/packet/packet_dispatch.h"
#include "kmd/vaspace.h"
#include "util/util.h"

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

/* The pipeline's raster state with the dynamic fields taken from
 * SET_DYNAMIC. */
static void
merge_state(const struct gfx_state *g, struct swgpu_raster_state *rs)
{
	const uint64_t m = g->pipe.dynamic_mask;
	const struct swgpu_raster_state *dy = &g->dyn;

	*rs = g->pipe.state;
	if (m & SWGPU_DYN_VIEWPORT_COUNT)
		rs->viewport_count = dy->viewport_count;
	if (m & (SWGPU_DYN_VIEWPORT | SWGPU_DYN_VIEWPORT_COUNT))
		memcpy(rs->viewports, dy->viewports, sizeof(rs->viewports));
	if (m & SWGPU_DYN_SCISSOR_COUNT)
		rs->scissor_count = dy->scissor_count;
	if (m & (SWGPU_DYN_SCISSOR | SWGPU_DYN_SCISSOR_COUNT))
		memcpy(rs->scissors, dy->scissors, sizeof(rs->scissors));
	if (m & SWGPU_DYN_LINE_WIDTH)
		rs->line_width = dy->line_width;
	if (m & SWGPU_DYN_DEPTH_BIAS) {
		rs->depth_bias_constant = dy->depth_bias_constant;
		rs->depth_bias_clamp = dy->depth_bias_clamp;
		rs->depth_bias_slope = dy->depth_bias_slope;
	}
	if (m & SWGPU_DYN_BLEND_CONSTANTS)
		memcpy(rs->blend_constants, dy->blend_constants,
		       sizeof(rs->blend_constants));
	if (m & SWGPU_DYN_DEPTH_BOUNDS) {
		rs->min_depth_bounds = dy->min_depth_bounds;
		rs->max_depth_bounds = dy->max_depth_bounds;
	}
	if (m & SWGPU_DYN_STENCIL_COMPARE_MASK) {
		rs->front.compare_mask = dy->front.compare_mask;
		rs->back.compare_mask = dy->back.compare_mask;
	}
	if (m & SWGPU_DYN_STENCIL_WRITE_MASK) {
		rs->front.write_mask = dy->front.write_mask;
		rs->back.write_mask = dy->back.write_mask;
	}
	if (m & SWGPU_DYN_STENCIL_REFERENCE) {
		rs->front.reference = dy->front.reference;
		rs->back.reference = dy->back.reference;
	}
	if (m & SWGPU_DYN_CULL_MODE)
		rs->cull_mode = dy->cull_mode;
	if (m & SWGPU_DYN_FRONT_FACE)
		rs->front_face = dy->front_face;
	if (m & SWGPU_DYN_TOPOLOGY)
		rs->topology = dy->topology;
	if (m & SWGPU_DYN_DEPTH_TEST)
		rs->depth_test = dy->depth_test;
	if (m & SWGPU_DYN_DEPTH_WRITE)
		rs->depth_write = dy->depth_write;
	if (m & SWGPU_DYN_DEPTH_COMPARE)
		rs->depth_compare = dy->depth_compare;
	if (m & SWGPU_DYN_DEPTH_BOUNDS_TEST)
		rs->depth_bounds_test = dy->depth_bounds_test;
	if (m & SWGPU_DYN_STENCIL_TEST)
		rs->stencil_test = dy->stencil_test;
	if (m & SWGPU_DYN_STENCIL_OP) {
		const struct swgpu_stencil_face *src[2] = { &dy->front,
		                                            &dy->back };
		struct swgpu_stencil_face *dst[2] = { &rs->front, &rs->back };
		for (int f = 0; f < 2; f++) {
			dst[f]->fail_op = src[f]->fail_op;
			dst[f]->pass_op = src[f]->pass_op;
			dst[f]->depth_fail_op = src[f]->depth_fail_op;
			dst[f]->compare_op = src[f]->compare_op;
		}
	}
	if (m & SWGPU_DYN_RASTERIZER_DISCARD)
		rs->rasterizer_discard = dy->rasterizer_discard;
	if (m & SWGPU_DYN_DEPTH_BIAS_ENABLE)
		rs->depth_bias_enable = dy->depth_bias_enable;
	if (m & SWGPU_DYN_PRIMITIVE_RESTART)
		rs->primitive_restart = dy->primitive_restart;
	if (m & SWGPU_DYN_LOGIC_OP)
		rs->logic_op = dy->logic_op;
	if (m & SWGPU_DYN_COLOR_WRITE_ENABLE)
		rs->color_write_enable = dy->color_write_enable;
}

/* Enumerants and booleans of the state the draw uses; the first bad
 * one's description, or NULL. */
static const char *
check_state(const struct swgpu_raster_state *rs, uint32_t ncolor)
{
	const uint32_t bools[] = {
		rs->primitive_restart, rs->rasterizer_discard, rs->depth_clamp,
		rs->depth_bias_enable, rs->depth_test, rs->depth_write,
		rs->depth_bounds_test, rs->stencil_test, rs->logic_op_enable,
		rs->alpha_to_coverage, rs->alpha_to_one, rs->sample_shading,
	};

	for (uint32_t i = 0; i < SWGPU_ARRAY_SIZE(bools); i++)
		if (bools[i] > 1)
			return "boolean field not 0 or 1";
	if (rs->topology > SWGPU_TOPOLOGY_TRIANGLE_STRIP_ADJ)
		return "bad topology";
	if (rs->rasterization_samples > 8 ||
	    (rs->rasterization_samples & (rs->rasterization_samples - 1)))
		return "rasterization samples not 1, 2, 4 or 8";
	if (!(rs->min_sample_shading >= 0.0f &&
	      rs->min_sample_shading <= 1.0f))
		return "min sample shading outside [0, 1]";
	if (rs->polygon_mode > 2)
		return "bad polygon mode";
	if (rs->cull_mode > 3)
		return "bad cull mode";
	if (rs->front_face > 1)
		return "bad front face";
	if (rs->depth_test && rs->depth_compare > SWGPU_COMPARE_ALWAYS)
		return "bad depth compare op";
	if (rs->stencil_test) {
		const struct swgpu_stencil_face *f[2] = { &rs->front,
		                                          &rs->back };
		for (int k = 0; k < 2; k++)
			if (f[k]->fail_op > 7 || f[k]->pass_op > 7 ||
			    f[k]->depth_fail_op > 7 ||
			    f[k]->compare_op > SWGPU_COMPARE_ALWAYS)
				return "bad stencil op";
	}
	if (rs->logic_op_enable && rs->logic_op > 15)
		return "bad logic op";
	if (rs->viewport_count > SWGPU_GFX_MAX_VIEWPORTS ||
	    rs->scissor_count > SWGPU_GFX_MAX_VIEWPORTS)
		return "viewport or scissor count over the limit";
	for (uint32_t i = 0; i < ncolor; i++) {
		const struct swgpu_blend_attachment *b = &rs->blend[i];
		if (b->enable > 1)
			return "boolean field not 0 or 1";
		if (b->enable && (b->src_color > 18 || b->dst_color > 18 ||
		                  b->src_alpha > 18 || b->dst_alpha > 18 ||
		                  b->color_op > 4 || b->alpha_op > 4))
			return "bad blend factor or op";
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Preparation                                                         */
/* ------------------------------------------------------------------ */

static bool
bad(struct exec_env *env, const struct pkt *p, const char *what)
{
	return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0, "draw: %s",
	                   what);
}

/* Samples per pixel: the pipeline's, equal to the attachments' (the
 * pass validated that they agree among themselves). */
/* Does the fragment shader ask for an invocation per sample? */
static bool
fs_per_sample(const struct gfx_program *fs)
{
	if (!fs)
		return false;
	if ((fs->builtins_used >> IR_REG_SAMPLE_ID) & 1u ||
	    (fs->builtins_used >> IR_REG_SAMPLE_POSITION) & 3u)
		return true;
	for (uint32_t loc = 0; loc < IR_MAX_LOCATIONS; loc++)
		for (uint32_t c = 0; c < 4; c++)
			if (fs->io->in_interp[loc][c] & IR_INTERP_SAMPLE)
				return true;
	return false;
}

static bool
prepare_samples(struct exec_env *env, const struct pkt *p,
                struct gfx_draw *d)
{
	const struct swgpu_raster_state *rs = &d->rs;
	const uint32_t rast = rs->rasterization_samples
	                      ? rs->rasterization_samples : 1u;
	uint32_t att = 0;

	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++) {
		const struct swgpu_attachment *a =
			gfx_pass_attachment(&d->g->pass, i);
		if (a)
			att = gfx_att_samples(a);
	}
	if (att && att != rast)
		return bad(env, p, "rasterization samples differ from the "
		                   "attachments' sample count");
	d->samples = rast;
	d->sample_mask = rs->rasterization_samples
	                 ? rs->sample_mask & ((1u << rast) - 1u) : 1u;
	d->sample_shading = rs->sample_shading != 0;
	d->min_sample_shading = rs->min_sample_shading;
	/* A shader reading SampleId or SamplePosition, or with an input
	 * decorated Sample, runs once per sample (spec: as with
	 * minSampleShading 1). */
	if (d->samples > 1 && fs_per_sample(d->fs)) {
		d->sample_shading = true;
		d->min_sample_shading = 1.0f;
	}
	/* Samples per invocation: ceil(minSampleShading * S) invocations
	 * rounded up to a power of two, so each covers an equal run. */
	d->shading_run = d->samples;
	if (d->sample_shading) {
		uint32_t rate = (uint32_t)ceilf(d->min_sample_shading *
		                                (float)d->samples);
		uint32_t r2 = 1;
		while (r2 < rate && r2 < d->samples)
			r2 <<= 1;
		d->shading_run = d->samples / r2;
	}
	/* a sample mask without sample 0 at one sample: nothing covered */
	if (!d->sample_mask)
		d->discard = true;
	return true;
}

static bool
prepare_vertex_input(struct exec_env *env, const struct pkt *p,
                     struct gfx_draw *d)
{
	const struct gfx_state *g = d->g;
	const struct swgpu_pipeline_state *ps = &g->pipe;
	const struct ir_io *io = d->vs->io;
	bool bound[SWGPU_GFX_MAX_VERTEX_BINDINGS] = { false };

	if (ps->binding_count > SWGPU_GFX_MAX_VERTEX_BINDINGS ||
	    ps->attrib_count > SWGPU_GFX_MAX_VERTEX_ATTRIBS)
		return bad(env, p, "vertex binding or attribute count over "
		                   "the limit");
	d->nattr = 0;
	for (uint32_t i = 0; i < ps->attrib_count; i++) {
		const struct swgpu_vertex_attrib *va = &ps->attribs[i];
		if (va->location >= SWGPU_GFX_MAX_LOCATIONS ||
		    va->binding >= ps->binding_count)
			return bad(env, p, "vertex attribute location or "
			                   "binding out of range");
		struct gfx_fetch_attrib *a = &d->attr[d->nattr];
		memset(a, 0, sizeof(*a));
		if (!gfx_fetch_attrib_init(a, va->format))
			return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
			                   "draw: vertex attribute %u has "
			                   "format %u, not fetchable", i,
			                   va->format);
		a->binding = va->binding;
		a->offset = va->offset;
		bool used = false;
		for (uint32_t c = 0; c < 4; c++) {
			a->in_reg[c] = io->in_reg[va->location][c];
			used |= a->in_reg[c] != 0;
		}
		if (!used)
			continue;       /* the shader never reads it */
		bound[va->binding] = true;
		d->nattr++;
	}
	for (uint32_t b = 0; b < ps->binding_count; b++) {
		const struct swgpu_vertex_binding *vb = &ps->bindings[b];
		struct gfx_fetch_binding *fb = &d->bind[b];
		memset(fb, 0, sizeof(*fb));
		if (vb->input_rate > 1)
			return bad(env, p, "bad vertex input rate");
		if (!bound[b])
			continue;
		fb->per_instance = vb->input_rate;
		fb->divisor = vb->divisor;
		fb->stride = ps->dynamic_mask & SWGPU_DYN_VERTEX_STRIDE
		             ? g->vb[b].stride : vb->stride;
		if (!g->vb[b].va || !g->vb[b].size)
			continue;       /* unbound: reads as zero */
		fb->ptr = vaspace_translate(env->vs, g->vb[b].va,
		                            g->vb[b].size, SWGPU_VA_READ);
		if (!fb->ptr)
			return page_fault(env, p, g->vb[b].va, g->vb[b].size,
			                  SWGPU_VA_READ);
		fb->size = g->vb[b].size;
	}
	return true;
}

/* The fragment shader's ClipDistance or CullDistance inputs (n from
 * fs_reg) as smooth varyings fed by the vertex shader's outputs (vs_n
 * from vs_reg; an element it does not write reads 0). They are copies
 * of the words clipping uses, so a vertex made by clipping carries them
 * interpolated like any varying. */
static void
add_distances(struct gfx_vlayout *vl, uint32_t fs_reg, uint32_t n,
              uint32_t vs_reg, uint32_t vs_n)
{
	for (uint32_t i = 0; fs_reg && i < n &&
	     vl->nvar < GFX_MAX_VARYINGS; i++) {
		uint32_t j = vl->nvar++;
		vl->var_fs_reg[j] = fs_reg + i;
		vl->var_interp[j] = IR_INTERP_SMOOTH;
		vl->var_vs_reg[j] = vs_reg && i < vs_n ? vs_reg + i : 0;
	}
}

/* Post-vertex-shader layout: fixed words, then the varyings the
 * fragment shader reads, linked by (Location, Component), then its
 * ClipDistance and CullDistance inputs. */
static void
prepare_layout(struct gfx_draw *d)
{
	const struct ir_io *vio = d->vs->io;
	const struct ir_io *fio = d->fs ? d->fs->io : NULL;
	struct gfx_vlayout *vl = &d->vl;
	uint32_t w = GFX_VTX_FIXED;

	vl->clip_off = w;
	vl->nclip = vio->clip_reg ? vio->clip_count : 0;
	if (vl->nclip > SWGPU_GFX_MAX_CLIP_DISTANCES)
		vl->nclip = SWGPU_GFX_MAX_CLIP_DISTANCES;
	w += vl->nclip;
	vl->cull_off = w;
	vl->ncull = vio->cull_reg ? vio->cull_count : 0;
	if (vl->ncull > SWGPU_GFX_MAX_CLIP_DISTANCES)
		vl->ncull = SWGPU_GFX_MAX_CLIP_DISTANCES;
	w += vl->ncull;
	vl->layer_off = vio->layer_reg ? w++ : 0;
	vl->vpi_off = vio->viewport_index_reg ? w++ : 0;
	vl->var_off = w;
	vl->nvar = 0;
	vl->any_noperspective = false;
	for (uint32_t loc = 0; fio && loc < IR_MAX_LOCATIONS; loc++)
		for (uint32_t c = 0; c < 4; c++) {
			if (!fio->in_reg[loc][c])
				continue;
			uint32_t j = vl->nvar++;
			vl->var_fs_reg[j] = fio->in_reg[loc][c];
			vl->var_interp[j] = fio->in_interp[loc][c];
			vl->var_vs_reg[j] = vio->out_reg[loc][c];
			if ((vl->var_interp[j] & IR_INTERP_MODE_MASK) ==
			    IR_INTERP_NOPERSPECTIVE)
				vl->any_noperspective = true;
		}
	if (fio) {
		add_distances(vl, fio->clip_in_reg, fio->clip_in_count,
		              vio->clip_reg, vio->clip_count);
		add_distances(vl, fio->cull_in_reg, fio->cull_in_count,
		              vio->cull_reg, vio->cull_count);
	}
	vl->stride = w + vl->nvar;
}

static bool
prepare_viewports(struct exec_env *env, const struct pkt *p,
                  struct gfx_draw *d)
{
	const struct swgpu_raster_state *rs = &d->rs;
	const float G = (float)SWGPU_GFX_VIEWPORT_BOUNDS;

	d->nvp = rs->viewport_count;
	for (uint32_t i = 0; i < d->nvp; i++) {
		const struct swgpu_viewport *v = &rs->viewports[i];
		struct gfx_viewport *vp = &d->vp[i];
		if (!(v->width > 0.0f) || !(fabsf(v->height) > 0.0f) ||
		    !isfinite(v->x) || !isfinite(v->y) ||
		    !isfinite(v->width) || !isfinite(v->height) ||
		    !(v->min_depth >= 0.0f && v->min_depth <= 1.0f) ||
		    !(v->max_depth >= 0.0f && v->max_depth <= 1.0f))
			return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
			                   "draw: viewport %u is not valid", i);
		vp->hx = 0.5f * v->width;
		vp->hy = 0.5f * v->height;
		vp->ox = v->x + vp->hx;
		vp->oy = v->y + vp->hy;
		vp->oz = v->min_depth;
		vp->pz = v->max_depth - v->min_depth;
		vp->zmin = fminf(v->min_depth, v->max_depth);
		vp->zmax = fmaxf(v->min_depth, v->max_depth);
		vp->gx0 = (-G - vp->ox) / vp->hx;
		vp->gx1 = (G - vp->ox) / vp->hx;
		float a = (-G - vp->oy) / vp->hy, b = (G - vp->oy) / vp->hy;
		vp->gy0 = fminf(a, b);
		vp->gy1 = fmaxf(a, b);
		struct gfx_rect *sc = &d->scissor[i];
		*sc = d->fb;
		if (i < rs->scissor_count) {
			const struct swgpu_scissor *s = &rs->scissors[i];
			int64_t x0 = s->x, y0 = s->y;
			int64_t x1 = x0 + s->width, y1 = y0 + s->height;
			if (x0 > sc->x0)
				sc->x0 = (int32_t)(x0 < sc->x1 ? x0 : sc->x1);
			if (y0 > sc->y0)
				sc->y0 = (int32_t)(y0 < sc->y1 ? y0 : sc->y1);
			if (x1 < sc->x1)
				sc->x1 = (int32_t)(x1 > sc->x0 ? x1 : sc->x0);
			if (y1 < sc->y1)
				sc->y1 = (int32_t)(y1 > sc->y0 ? y1 : sc->y0);
		}
	}
	return true;
}

static bool
blend_uses_src1(const struct swgpu_blend_attachment *b)
{
	return b->src_color >= 15 || b->dst_color >= 15 ||
	       b->src_alpha >= 15 || b->dst_alpha >= 15;
}

static bool
prepare_targets(struct exec_env *env, const struct pkt *p, struct gfx_draw *d)
{
	const struct gfx_state *g = d->g;
	const struct swgpu_pass *ps = &g->pass;
	const struct swgpu_raster_state *rs = &d->rs;
	const struct ir_io *fio = d->fs ? d->fs->io : NULL;

	gfx_pass_extent(ps, &d->fb);
	d->layers = ps->layer_count;
	d->ncolor = ps->color_count;
	d->any_color = false;
	d->dual_source = false;
	for (uint32_t i = 0; i < d->ncolor; i++) {
		struct gfx_color_target *rt = &d->color[i];
		const struct swgpu_attachment *a = gfx_pass_attachment(ps, i);
		memset(rt, 0, sizeof(*rt));
		bool written = false;
		for (uint32_t c = 0; fio && c < 4; c++)
			written |= fio->out_reg[i][c] != 0;
		if (!a || !written)
			continue;
		if (!gfx_plane_map(env, p, a, &d->fb, 0, d->layers, &rt->pl))
			return false;
		if (!rt->pl.base)
			continue;
		gfx_output_target_init(rt);
		rt->pl_x1 = d->fb.x1;
		rt->pl_y1 = d->fb.y1;
		rt->b = rs->blend[i];
		rt->write_mask = rt->b.write_mask & 0xfu;
		if (!((rs->color_write_enable >> i) & 1u))
			rt->write_mask = 0;
		bool norm_or_int = rt->numeric == SWGPU_NUMERIC_UNORM ||
		                   rt->numeric == SWGPU_NUMERIC_SNORM ||
		                   rt->numeric == SWGPU_NUMERIC_UINT ||
		                   rt->numeric == SWGPU_NUMERIC_SINT;
		rt->logic = d->logic_op_enable && norm_or_int &&
		            d->logic_op != 3 /* COPY: a plain write */;
		rt->blend = !d->logic_op_enable && rt->b.enable &&
		            rt->cls == SWGPU_BLIT_CLASS_FLOAT;
		if (rt->blend && blend_uses_src1(&rt->b))
			d->dual_source = true;
		if (rt->write_mask)
			d->any_color = true;
	}
	const struct swgpu_attachment *da =
		gfx_pass_attachment(ps, SWGPU_ATTACHMENT_DEPTH);
	const struct swgpu_attachment *sa =
		gfx_pass_attachment(ps, SWGPU_ATTACHMENT_STENCIL);
	memset(&d->depth, 0, sizeof(d->depth));
	memset(&d->stencil, 0, sizeof(d->stencil));
	if (da && !gfx_plane_map(env, p, da, &d->fb, 0, d->layers, &d->depth))
		return false;
	if (sa && !gfx_plane_map(env, p, sa, &d->fb, 0, d->layers,
	                         &d->stencil))
		return false;
	return true;
}

/* A knob that is on unless set to 0: SWGPU_GFX_DEPTH_ROWS (whole quads
 * take the per-quad depth test), SWGPU_GFX_RASTER_BLOCKS (triangles
 * quad by quad), SWGPU_GFX_MS_PLANES (multisampled colour sample by
 * sample), each giving the same results, for comparing. Read at every
 * draw, so a test can draw both ways in one process. */
static bool
env_on(const char *name)
{
	const char *e = getenv(name);

	return !(e && e[0] == '0');
}

static bool
raster_blocks_enabled(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return env_on("SWGPU_GFX_RASTER_BLOCKS") && out8_have_avx2();
#else
	return false;
#endif
}

static void
prepare_fragment_ops(struct gfx_draw *d)
{
	const struct swgpu_raster_state *rs = &d->rs;
	const struct ir_io *fio = d->fs ? d->fs->io : NULL;
	const bool has_depth = d->depth.base != NULL;

	d->depth_test = rs->depth_test && has_depth;
	d->depth_write = rs->depth_write != 0;
	d->depth_op = rs->depth_compare;
	d->depth_bounds = rs->depth_bounds_test && has_depth;
	d->bounds_min = rs->min_depth_bounds;
	d->bounds_max = rs->max_depth_bounds;
	d->stencil_test = rs->stencil_test && d->stencil.base != NULL;
	d->zs_active = d->depth_test || d->depth_bounds || d->stencil_test;
	const struct swgpu_stencil_face *f[2] = { &rs->front, &rs->back };
	for (int k = 0; k < 2; k++) {
		d->face[k].fail_op = f[k]->fail_op;
		d->face[k].pass_op = f[k]->pass_op;
		d->face[k].depth_fail_op = f[k]->depth_fail_op;
		d->face[k].compare_op = f[k]->compare_op;
		d->face[k].compare_mask = (uint8_t)f[k]->compare_mask;
		d->face[k].write_mask = (uint8_t)f[k]->write_mask;
		d->face[k].reference = (uint8_t)f[k]->reference;
	}
	d->depth_clamp = rs->depth_clamp != 0;
	d->depth_bias = rs->depth_bias_enable && has_depth;
	d->bias_constant = rs->depth_bias_constant;
	d->bias_slope = rs->depth_bias_slope;
	d->bias_clamp = rs->depth_bias_clamp;
	d->depth_float = d->depth.format == SWGPU_FORMAT_D32_SFLOAT;
	d->depth_r = d->depth.format == SWGPU_FORMAT_D16_UNORM
	             ? (float)(1.0 / 65535.0) : (float)(1.0 / 16777215.0);
	d->fs_writes_depth = fio && fio->frag_depth_reg;
	/* Coverage from alpha needs the shader's output (no fragment
	 * shader: nothing to take it from, coverage stays). */
	d->alpha_to_coverage = fio && rs->alpha_to_coverage;
	d->alpha_to_one = fio && rs->alpha_to_one;
	/* Early tests: allowed when running them first changes nothing
	 * the shader could tell (or the shader asks for them: then the
	 * coverage from alpha only masks the colour writes, as the spec
	 * orders it after the tests). A shader reading an input attachment
	 * could read the depth/stencil attachment itself, which must not
	 * show this fragment's own depth or stencil write yet. */
	d->early_tests = !fio || fio->early_fragment_tests ||
	                 (!fio->discards && !fio->side_effects &&
	                  !fio->frag_depth_reg && !fio->sample_mask_reg &&
	                  !fio->reads_input_attachment &&
	                  !d->alpha_to_coverage);
	memcpy(d->blend_const, rs->blend_constants, sizeof(d->blend_const));
	d->need_z = d->zs_active ||
	            (d->fs && ((d->fs->builtins_used >>
	                        (IR_REG_FRAG_COORD + 2)) & 1u));
	d->depth_rows = d->early_tests && d->depth_test && !d->stencil_test &&
	                !d->depth_bounds && d->samples == 1 &&
	                (d->depth.format == SWGPU_FORMAT_D32_SFLOAT ||
	                 d->depth.format == SWGPU_FORMAT_D16_UNORM) &&
	                env_on("SWGPU_GFX_DEPTH_ROWS");
	d->raster_blocks = d->samples == 1 && raster_blocks_enabled();
	d->ms_planes = d->samples > 1 && env_on("SWGPU_GFX_MS_PLANES");
	d->smooth_inputs = false;
	d->centroid_inputs = false;
	for (uint32_t j = 0; j < d->vl.nvar; j++)
		if ((d->vl.var_interp[j] & IR_INTERP_MODE_MASK) !=
		    IR_INTERP_FLAT) {
			d->smooth_inputs = true;
			if (d->vl.var_interp[j] & IR_INTERP_CENTROID)
				d->centroid_inputs = true;
		}
}

static bool
resolve_programs(struct exec_env *env, const struct pkt *p,
                 struct gfx_draw *d)
{
	struct gfx_state *g = d->g;

	d->vs = g->test_vs ? g->test_vs
	        : g->vs_shader ? &g->vs_prog : NULL;
	d->fs = g->test_vs ? g->test_fs
	        : g->fs_shader ? &g->fs_prog : NULL;
	if (!d->vs)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET,
		                   g->pipe.vs_code_va,
		                   "draw: no vertex shader at code VA 0x%llx",
		                   (unsigned long long)g->pipe.vs_code_va);
	if (!g->test_vs && g->pipe.fs_code_va && !d->fs)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET,
		                   g->pipe.fs_code_va,
		                   "draw: no fragment shader at code VA "
		                   "0x%llx",
		                   (unsigned long long)g->pipe.fs_code_va);
	d->prog_gen = g->prog_gen;
	return true;
}

static bool
bind_program(struct exec_env *env, const struct pkt *p,
             const struct gfx_program *prog,
             const struct swgpu_bind_table *bt, struct ir_dispatch *res,
             struct ir_dispatch **out)
{
	*out = NULL;
	if (!prog || !prog->ir)
		return true;
	if (!dispatch_bind_resources(env, p, prog->ir, bt, res))
		return false;
	*out = res;
	return true;
}

bool
gfx_draw_prepare(struct exec_env *env, const struct pkt *p,
                 struct gfx_state *g, const struct swgpu_bind_table *bt,
                 struct gfx_draw *d)
{
	const char *err;

	memset(d, 0, sizeof(*d));
	d->g = g;
	if (!g->pass_open)
		return bad(env, p, "no pass open");
	if (!g->has_pipeline)
		return bad(env, p, "draw with no pipeline");
	if (!resolve_programs(env, p, d))
		return false;
	merge_state(g, &d->rs);
	if ((err = check_state(&d->rs, g->pass.color_count)))
		return bad(env, p, err);
	d->topology = d->rs.topology;
	d->kind = d->topology == SWGPU_TOPOLOGY_POINT_LIST ? GFX_PRIM_POINT
	          : d->topology <= SWGPU_TOPOLOGY_LINE_STRIP ||
	            d->topology == SWGPU_TOPOLOGY_LINE_LIST_ADJ ||
	            d->topology == SWGPU_TOPOLOGY_LINE_STRIP_ADJ
	          ? GFX_PRIM_LINE : GFX_PRIM_TRI;
	d->polygon_mode = d->rs.polygon_mode;
	d->cull_mode = d->kind == GFX_PRIM_TRI ? d->rs.cull_mode : 0;
	d->front_ccw = d->rs.front_face == 0;
	d->discard = d->rs.rasterizer_discard != 0;
	d->logic_op_enable = d->rs.logic_op_enable != 0;
	d->logic_op = d->rs.logic_op;
	if (!bind_program(env, p, d->vs, bt, g->vs_res, &d->vs_res) ||
	    !bind_program(env, p, d->fs, bt, g->fs_res, &d->fs_res))
		return false;
	if (!prepare_vertex_input(env, p, d))
		return false;
	prepare_layout(d);
	if (!prepare_samples(env, p, d))
		return false;
	if (!prepare_targets(env, p, d))
		return false;
	if (!prepare_viewports(env, p, d))
		return false;
	prepare_fragment_ops(d);
	return true;
}

/* ------------------------------------------------------------------ */
/* Execution                                                           */
/* ------------------------------------------------------------------ */

static void
collect_counters(struct gfx_draw *d)
{
	struct gfx_state *g = d->g;

	for (uint32_t i = 0; i < g->nthreads; i++) {
		struct gfx_thread *t = g->threads[i];
		if (g->query_open)
			g->query_count += t->occlusion;
		g->last.fragments += t->fragments;
		g->last.vertices += t->vertices;
		t->occlusion = t->fragments = t->vertices = 0;
	}
}

static bool
ensure_verts(struct gfx_batch *b, uint64_t words)
{
	if (words <= b->verts_cap)
		return true;
	lane_t *v = realloc(b->verts, words * sizeof(*v));
	if (!v)
		return false;
	b->verts = v;
	b->verts_cap = words;
	return true;
}

static void
run_batch(struct gfx_draw *d, struct gfx_batch *b, bool raster)
{
	struct gfx_pool *pool = d->g->pool;

	if (!ensure_verts(b, (uint64_t)b->nverts * d->vl.stride)) {
		gfx_draw_fail_msg(d, SWGPU_FAULT_BAD_PACKET,
		                  "out of host memory for vertices");
		return;
	}
	gfx_pool_run(pool, (b->nverts + GFX_VS_LANES - 1) / GFX_VS_LANES,
	             gfx_vertex_task, d);
	d->g->last.primitives += b->nprims;
	if (gfx_draw_failed(d) || !raster)
		return;
	b->nchunks = (b->nprims + GFX_CHUNK_PRIMS - 1) / GFX_CHUNK_PRIMS;
	gfx_pool_run(pool, b->nchunks, gfx_geometry_task, d);
	if (gfx_draw_failed(d))
		return;
	for (uint32_t k = 0; k < b->nchunks; k++)
		d->g->last.rasterized += b->chunks[k].nprims;
	if (!gfx_bin_merge(b)) {
		gfx_draw_fail_msg(d, SWGPU_FAULT_BAD_PACKET,
		                  "out of host memory for tile lists");
		return;
	}
	gfx_pool_run(pool, b->ntouched, gfx_raster_task, d);
	d->g->last.tiles += b->ntouched;
	for (uint32_t i = 0; i < b->ntouched; i++)
		b->tile_count[b->touched[i]] = 0;
	b->ntouched = 0;
}

/* The instances of one view (all of the draw without multiview), from
 * instance first_inst with skip of its primitives done; GFX_DRAW_DONE
 * when they all ran. */
static enum gfx_draw_result
run_view(struct exec_env *env, const struct gfx_draw_cmd *cmd,
         struct gfx_draw *d, bool raster, uint32_t first_inst,
         uint64_t skip)
{
	struct gfx_state *g = d->g;
	struct gfx_batch *b = g->batch;

	/* Batches run across instances: many small instances (a scene of
	 * instanced meshes) share one batch instead of one each. */
	uint32_t inst = first_inst;
	struct gfx_asm as;
	memset(&as, 0, sizeof(as));
	while (inst < d->instance_count) {
		gfx_batch_reset(b);
		while (inst < d->instance_count && !gfx_batch_full(b)) {
			gfx_assemble(d, &as, b, inst == first_inst ? skip : 0,
			             d->first_instance + inst);
			if (as.done) {
				inst++;
				memset(&as, 0, sizeof(as));
			}
		}
		if (b->nprims)
			run_batch(d, b, raster);
		collect_counters(d);
		if (gfx_draw_failed(d))
			return GFX_DRAW_FAULT;
		if (inst < d->instance_count && exec_preempt_point(env, 1)) {
			/* as: the position inside instance inst (a fresh one
			 * when the batch ended with an instance) */
			g->resume.draw = cmd->draw_index;
			g->resume.instance = inst;
			g->resume.prims = as.prim_id;
			g->resume.view = d->view_index;
			return GFX_DRAW_PREEMPTED;
		}
	}
	return GFX_DRAW_DONE;
}

enum gfx_draw_result
gfx_draw_run(struct exec_env *env, const struct pkt *p, struct gfx_draw *d,
             const struct gfx_draw_cmd *cmd, bool resume)
{
	struct gfx_state *g = d->g;
	struct gfx_batch *b = g->batch;
	uint32_t first_inst = 0;
	uint64_t skip = 0;

	d->indexed = cmd->indexed;
	d->first = cmd->first;
	d->count = cmd->count;
	d->vertex_offset = cmd->vertex_offset;
	d->first_instance = cmd->first_instance;
	d->instance_count = cmd->instance_count;
	d->draw_index = cmd->draw_id;
	d->indices = NULL;
	d->restart = false;
	if (cmd->indexed) {
		if (!g->index_size) {
			bad(env, p, "indexed draw with no index buffer");
			return GFX_DRAW_FAULT;
		}
		d->index_size = g->index_size;
		d->restart = d->rs.primitive_restart != 0;
		d->restart_index = g->index_size == 4 ? 0xffffffffu
		                   : (1u << (8 * g->index_size)) - 1u;
		d->index_avail = g->ib_size / g->index_size;
		if (g->ib_va && g->ib_size) {
			d->indices = vaspace_translate(env->vs, g->ib_va,
			                               g->ib_size,
			                               SWGPU_VA_READ);
			if (!d->indices) {
				page_fault(env, p, g->ib_va, g->ib_size,
				           SWGPU_VA_READ);
				return GFX_DRAW_FAULT;
			}
		}
	}
	uint32_t view = 0;
	if (resume) {
		first_inst = g->resume.instance;
		skip = g->resume.prims;
		view = g->resume.view;
	}
	g->resume.view = 0;
	const bool raster = !d->discard && d->fb.x0 < d->fb.x1 &&
	                    d->fb.y0 < d->fb.y1 && d->nvp;
	if (raster && !gfx_bin_grid(b, &d->fb)) {
		bad(env, p, "out of host memory for the tile grid");
		return GFX_DRAW_FAULT;
	}
	/* Multiview: the whole draw once per view of the mask, in view
	 * order. The loop is here, in the engine, rather than one DRAW
	 * packet per view from the ICD: an indirect draw reads its
	 * commands once, a secondary command buffer need not know the
	 * pass's views, and the packets stay the same with and without. */
	const uint32_t views = g->pass.view_mask ? g->pass.view_mask : 1u;
	d->multiview = g->pass.view_mask != 0;
	for (; view < 32 && (views >> view); view++) {
		if (!((views >> view) & 1u))
			continue;
		d->view_index = d->multiview ? view : 0;
		enum gfx_draw_result r = run_view(env, cmd, d, raster,
		                                  first_inst, skip);
		if (r == GFX_DRAW_FAULT)
			goto failed;
		if (r == GFX_DRAW_PREEMPTED)
			return r;
		first_inst = 0;
		skip = 0;
		if ((views >> view) > 1u && exec_preempt_point(env, 1)) {
			/* between two views: the next one from its start */
			g->resume.draw = cmd->draw_index;
			g->resume.instance = 0;
			g->resume.prims = 0;
			g->resume.view = view + 1;
			return GFX_DRAW_PREEMPTED;
		}
	}
	if (d->vs_res && d->vs_res->fault_va) {
		page_fault(env, p, d->vs_res->fault_va, 1,
		           d->vs_res->fault_access);
		return GFX_DRAW_FAULT;
	}
	if (d->fs_res && d->fs_res->fault_va) {
		page_fault(env, p, d->fs_res->fault_va, 1,
		           d->fs_res->fault_access);
		return GFX_DRAW_FAULT;
	}
	return GFX_DRAW_DONE;
failed:
	if (d->failed == SWGPU_FAULT_HANG)
		raise_fault(env, p, SWGPU_FAULT_HANG, 0,
		            "draw: a shader batch made no progress for %llu ms",
		            (unsigned long long)(env->hang_timeout_ns /
		                                 1000000u));
	else
		raise_fault(env, p, d->failed, 0, "draw: %s",
		            d->fail_msg ? d->fail_msg : "failed");
	return GFX_DRAW_FAULT;
}
