/* SPDX-License-Identifier: MIT */
/*
 * Per-sample fragment operations of a multisampled draw (samples S > 1):
 * what happens to a quad around the fragment shader, which itself runs
 * once per covered pixel at its centre (frag_shade.c; per-sample shading
 * splits a quad into quads of one sample each, see MSAA-IFACE in
 * docs/ARCHITECTURE.md).
 *
 * A quad carries its coverage cov: bits [8i, 8i + S) are the covered
 * samples of pixel i. Order per the spec: raster coverage, the
 * pipeline's sample mask, (early) per-sample depth bounds / stencil /
 * depth tests at each sample's interpolated depth; after the shader:
 * discard, the SampleMask output, alpha to coverage, (late) tests; the
 * occlusion count adds the samples that pass; colour is written and
 * blended per covered sample, into the slice layer * S + s.
 */
#include "hw/gfx/gfx_internal.h"
#include "hw/gfx/sample_pos.h"

#include <math.h>
#include <string.h>

/* A per-sample mask m (bit s) repeated for the four pixels. */
static inline uint32_t
spread4(uint32_t m)
{
	return (m & 0xffu) * 0x01010101u;
}

/* Covered samples of a quad's coverage word: inline, as the baseline
 * x86-64 target has no popcnt and __builtin_popcount is a libgcc call
 * (3 % of gfx_msaa_fill). */
static inline uint32_t
samples_in(uint32_t cov)
{
	cov = cov - ((cov >> 1) & 0x55555555u);
	cov = (cov & 0x33333333u) + ((cov >> 2) & 0x33333333u);
	return (((cov + (cov >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Pixels (bit i) whose coverage has sample s. */
static inline uint32_t
pixels_with(uint32_t cov, uint32_t s)
{
	const uint32_t b = cov >> s;

	return (b & 1u) | ((b >> 7) & 2u) | ((b >> 14) & 4u) | ((b >> 21) & 8u);
}

/* Pixels (bit i) with any coverage. */
static inline uint32_t
pixels_any(uint32_t cov)
{
	return (uint32_t)((cov & 0xffu) != 0) |
	       (uint32_t)((cov & 0xff00u) != 0) << 1 |
	       (uint32_t)((cov & 0xff0000u) != 0) << 2 |
	       (uint32_t)((cov & 0xff000000u) != 0) << 3;
}

/* Depth of the primitive at sample s of the quad's four pixels. */
static void
sample_depth(const struct gfx_draw *d, const struct gfx_prim *p, int32_t x,
             int32_t y, uint32_t s, float z[4])
{
	const float sx = gfx_sample_x(d->samples, s);
	const float sy = gfx_sample_y(d->samples, s);

	for (uint32_t i = 0; i < 4; i++) {
		const float px = (float)(x + (int32_t)(i & 1)) + sx;
		const float py = (float)(y + (int32_t)(i >> 1)) + sy;
		z[i] = p->zc + p->zx * (px - p->rx) + p->zy * (py - p->ry) +
		       p->bias;
	}
}

/* The depth/stencil tests of every sample of cov; zfix: one depth per
 * pixel for all its samples (FragDepth), NULL: each sample's own. */
static uint32_t
test_samples(const struct gfx_draw *d, const struct gfx_prim *p, int32_t x,
             int32_t y, uint32_t cov, const float *zfix)
{
	uint32_t out = 0;

	for (uint32_t s = 0; s < d->samples; s++) {
		const uint32_t m = pixels_with(cov, s);
		if (!m)
			continue;
		float z[4];
		if (zfix)
			memcpy(z, zfix, sizeof(z));
		else
			sample_depth(d, p, x, y, s, z);
		const uint32_t pass = gfx_depth_stencil_slice(
			d, p, p->layer * d->samples + s, x, y, m, z);
		out |= gfx_ms_full_cov(pass, 1) << s;
	}
	return out;
}

void
gfx_frag_queue(struct gfx_thread *t, const struct gfx_draw *d,
               const struct gfx_prim *p, int32_t x, int32_t y, uint32_t cov,
               uint32_t sample, const float z[4])
{
	struct gfx_quad *q = &t->quad[t->nquads];

	q->x = x;
	q->y = y;
	q->mask = (uint8_t)pixels_any(cov);
	q->cov = cov;
	q->sample = (uint8_t)sample;
	q->prim = p;
	memcpy(&t->z[4 * t->nquads], z, 4 * sizeof(float));
	if (++t->nquads == GFX_BATCH_QUADS)
		gfx_frag_flush(t, d);
}

void
gfx_frag_quad_ms(struct gfx_thread *t, const struct gfx_draw *d,
                 const struct gfx_prim *p, int32_t x, int32_t y, uint32_t cov)
{
	float z[4] = { 0, 0, 0, 0 };

	cov &= spread4(d->sample_mask);
	if (!cov)
		return;
	if (d->early_tests) {
		if (d->zs_active)
			cov = test_samples(d, p, x, y, cov, NULL);
		t->occlusion += samples_in(cov);
		if (!cov)
			return;
	}
	if (!d->fs)
		return;
	if (d->need_z)
		for (uint32_t l = 0; l < 4; l++) {
			const float px = (float)(x + (int32_t)(l & 1)) + 0.5f;
			const float py = (float)(y + (int32_t)(l >> 1)) + 0.5f;
			z[l] = p->zc + p->zx * (px - p->rx) +
			       p->zy * (py - p->ry) + p->bias;
		}
	if (d->shading_run < d->samples) {
		/* sample shading: an invocation per run of shading_run
		 * samples (draw.c); its SampleId is the first of its run;
		 * one sample per invocation: depth (FragCoord.z) at it */
		const uint32_t run = d->shading_run;
		for (uint32_t s = 0; s < d->samples; s += run) {
			const uint32_t sub = cov &
				spread4(((1u << run) - 1u) << s);
			float zs[4];
			if (!sub)
				continue;
			for (uint32_t l = 0; l < 4; l++) {
				const float px = (float)(x + (int32_t)(l & 1)) +
				                 gfx_sample_x(d->samples, s);
				const float py = (float)(y + (int32_t)(l >> 1)) +
				                 gfx_sample_y(d->samples, s);
				zs[l] = run > 1 || !d->need_z ? z[l] :
				        p->zc + p->zx * (px - p->rx) +
				        p->zy * (py - p->ry) + p->bias;
			}
			gfx_frag_queue(t, d, p, x, y, sub, s, zs);
		}
		return;
	}
	gfx_frag_queue(t, d, p, x, y, cov, 0, z);
}

void
gfx_frag_ms_output(struct gfx_thread *t, const struct gfx_draw *d,
                   struct gfx_exec *e, uint32_t nq)
{
	const struct ir_io *io = d->fs->io;
	const uint32_t S = d->samples, n = 4 * nq;
	static const lane_t zero[GFX_LANES];
	const lane_t *color[SWGPU_GFX_MAX_COLOR_ATTACHMENTS][4];
	const lane_t *color1[4] = { NULL, NULL, NULL, NULL };
	lane_t ones[GFX_LANES];

	for (uint32_t i = 0; i < d->ncolor; i++)
		for (uint32_t c = 0; c < 4; c++)
			color[i][c] = io->out_reg[i][c]
			              ? gfx_exec_reg(e, io->out_reg[i][c]) : zero;
	if (d->dual_source)
		for (uint32_t c = 0; c < 4; c++)
			color1[c] = io->out_index1_reg[c]
			            ? gfx_exec_reg(e, io->out_index1_reg[c]) : zero;
	const lane_t *fdepth = io->frag_depth_reg
	                       ? gfx_exec_reg(e, io->frag_depth_reg) : NULL;
	const lane_t *smask = io->sample_mask_reg
	                      ? gfx_exec_reg(e, io->sample_mask_reg) : NULL;
	const lane_t *a2c = NULL;
	if (d->alpha_to_coverage)
		a2c = io->out_reg[0][3] ? gfx_exec_reg(e, io->out_reg[0][3])
		                        : zero;
	if (d->alpha_to_one) {
		for (uint32_t l = 0; l < n; l++)
			ones[l].f = 1.0f;
		for (uint32_t i = 0; i < d->ncolor; i++)
			if (d->color[i].cls == SWGPU_BLIT_CLASS_FLOAT)
				color[i][3] = ones;
	}

	/* Without discard, SampleMask output or alpha to coverage no lane
	 * drops samples (discarded[] is all 0 then). */
	const bool lanes_drop = io->discards || smask || a2c;
	for (uint32_t q = 0; q < nq; q++) {
		struct gfx_quad *qd = &t->quad[q];
		uint32_t cov = qd->cov;
		for (uint32_t i = 0; lanes_drop && i < 4; i++) {
			const uint32_t l = 4 * q + i, sh = 8 * i;
			uint32_t keep = 0xffu;
			if (t->discarded[l])
				keep = 0;
			if (smask)
				keep &= smask[l].u;
			if (a2c) {
				/* floor(alpha * S + 0.5) samples, the lowest
				 * indices first; NaN keeps none */
				const float a = a2c[l].f;
				float k = a * (float)S + 0.5f;
				uint32_t kk = !(k >= 1.0f) ? 0u
				              : k >= (float)S ? S : (uint32_t)k;
				keep &= (1u << kk) - 1u;
			}
			cov &= ~(0xffu << sh) | (keep << sh);
		}
		if (cov && !d->early_tests) {
			if (d->zs_active) {
				float zf[4];
				for (uint32_t i = 0; fdepth && i < 4; i++)
					zf[i] = fdepth[4 * q + i].f;
				cov = test_samples(d, qd->prim, qd->x, qd->y, cov,
				                   fdepth ? zf : NULL);
			}
			t->occlusion += samples_in(cov);
		}
		qd->cov = cov;
	}
	if (!d->any_color)
		return;
	uint8_t qmask[GFX_BATCH_QUADS];
	t->nquads_out = nq;
	/* Every pixel with all or none of its samples (the inside of
	 * primitives, no sample mask): each sample's colour is the same
	 * write, so UNORM8 targets take one job for all S slices
	 * (gfx_thread.out_planes); the others sample by sample below. */
	const uint32_t full = ((1u << S) - 1u) * 0x01010101u;
	bool alike = d->ms_planes;
	for (uint32_t q = 0; q < nq && alike; q++) {
		const uint32_t cov = t->quad[q].cov;
		const uint32_t any = pixels_any(cov);
		uint32_t all = 0;

		for (uint32_t i = 0; i < 4; i++)
			if (any & (1u << i))
				all |= 0xffu << (8 * i);
		alike = (cov & full) == (all & full);
		qmask[q] = (uint8_t)any;
	}
	bool rest = false;      /* targets left for the per-sample loop */
	for (uint32_t a = 0; a < d->ncolor; a++) {
		const struct gfx_color_target *rt = &d->color[a];

		if (!rt->write_mask)
			continue;
		if (!alike || !gfx_output_unorm8(rt)) {
			rest = true;
			continue;
		}
		t->out_planes = S;
		gfx_output_batch(t, d, rt, qmask, color[a], color1);
		t->out_planes = 1;
	}
	for (uint32_t s = 0; s < S && rest; s++) {
		bool any = false;
		for (uint32_t q = 0; q < nq; q++) {
			qmask[q] = (uint8_t)pixels_with(t->quad[q].cov, s);
			any |= qmask[q] != 0;
		}
		if (!any)
			continue;
		t->out_sample = s;
		for (uint32_t a = 0; a < d->ncolor; a++) {
			const struct gfx_color_target *rt = &d->color[a];
			if (rt->write_mask &&
			    !(alike && gfx_output_unorm8(rt)))
				gfx_output_batch(t, d, rt, qmask, color[a],
				                 color1);
		}
	}
	t->out_sample = 0;
}
