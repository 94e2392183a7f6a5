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
#include "hw/gfx/output8_unorm.h"
#include "hw/gfx/sample_pos.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint32_t
bits4(uint32_t m)
{
	return (0x4332322132212110ull >> (4 * (m & 0xf))) & 0xf;
}

static inline bool
builtin_used(const struct gfx_program *fs, uint32_t reg)
{
	return (fs->builtins_used >> reg) & 1u;
}

/* Where in its pixel a quad's invocation evaluates inputs and FragCoord:
 * its sample's location when every sample has its own invocation
 * (draw.c shading_run 1), else the pixel's centre. */
static inline float
shading_x(const struct gfx_draw *d, const struct gfx_quad *q)
{
	return d->samples > 1 && d->shading_run == 1
	       ? gfx_sample_x(d->samples, q->sample) : 0.5f;
}

static inline float
shading_y(const struct gfx_draw *d, const struct gfx_quad *q)
{
	return d->samples > 1 && d->shading_run == 1
	       ? gfx_sample_y(d->samples, q->sample) : 0.5f;
}

void
gfx_frag_quad(struct gfx_thread *t, const struct gfx_draw *d,
              const struct gfx_prim *p, int32_t x, int32_t y, uint32_t mask)
{
	float z[4] = { 0, 0, 0, 0 };

	if (d->depth_rows) {
		/* the depth test alone, early, one sample (draw.c) */
		mask = gfx_depth_quad_early(d, p, x, y, mask, z);
		t->occlusion += bits4(mask);
		if (!mask)
			return;
	} else {
		if (d->need_z)
			for (uint32_t l = 0; l < 4; l++) {
				float px = (float)(x + (int32_t)(l & 1)) + 0.5f;
				float py = (float)(y + (int32_t)(l >> 1)) + 0.5f;
				z[l] = p->zc + p->zx * (px - p->rx) +
				       p->zy * (py - p->ry) + p->bias;
			}
		if (d->early_tests && d->zs_active) {
			mask = gfx_depth_stencil(d, p, x, y, mask, z);
			t->occlusion += bits4(mask);
			if (!mask)
				return;
		} else if (d->early_tests) {
			t->occlusion += bits4(mask);
		}
	}
	if (d->fs)
		gfx_frag_push(t, d, p, x, y, mask, z);
}

/* Whole quads through the early depth test a row at a time
 * (gfx_depth_rows): what gfx_frag_quad does for each, in order. */
static void
frag_quads_depth_rows(struct gfx_thread *t, const struct gfx_draw *d,
                      const struct gfx_prim *p, int32_t x, int32_t y,
                      uint32_t n)
{
	float z[4 * GFX_DEPTH_ROW_QUADS];
	uint8_t pass[GFX_DEPTH_ROW_QUADS];

	while (n) {
		const uint32_t k = n < GFX_DEPTH_ROW_QUADS ? n
		                                           : GFX_DEPTH_ROW_QUADS;

		gfx_depth_rows(d, p, x, y, k, z, pass);
		for (uint32_t i = 0; i < k; i++, x += 2) {
			if (!pass[i])
				continue;
			t->occlusion += bits4(pass[i]);
			if (d->fs)
				gfx_frag_push(t, d, p, x, y, pass[i],
				              z + 4 * i);
		}
		n -= k;
	}
}

void
gfx_frag_quads_full(struct gfx_thread *t, const struct gfx_draw *d,
                    const struct gfx_prim *p, int32_t x, int32_t y,
                    uint32_t n)
{
	if (d->depth_rows && x >= d->depth.ox && y >= d->depth.oy) {
		frag_quads_depth_rows(t, d, p, x, y, n);
		return;
	}
	/* Without depth work or shader-visible depth each quad only needs
	 * recording; otherwise the general path. */
	if (d->need_z || !d->fs || !d->early_tests) {
		for (uint32_t i = 0; i < n; i++)
			gfx_frag_quad(t, d, p, x + 2 * (int32_t)i, y, 0xf);
		return;
	}
	t->occlusion += 4u * n;
	while (n) {
		uint32_t room = GFX_BATCH_QUADS - t->nquads;
		uint32_t k = n < room ? n : room;
		struct gfx_quad *q = &t->quad[t->nquads];
		for (uint32_t i = 0; i < k; i++) {
			q[i].x = x;
			q[i].y = y;
			q[i].mask = 0xf;
			q[i].prim = p;
			x += 2;
		}
		t->nquads += k;
		n -= k;
		if (t->nquads == GFX_BATCH_QUADS)
			gfx_frag_flush(t, d);
	}
}

#if defined(__SSE2__)
/*
 * What the varyings of one primitive's quads share, broadcast once per
 * primitive rather than once per quad (the quads of a batch mostly come
 * from one primitive): the barycentric planes, 1/w of each vertex, and
 * per varying v0, v1 - v0 and v2 - v0 (or the flat value).
 */
struct var_prim {
	const struct gfx_prim *p;
	__m128 l1x, l1y, l1c, l2x, l2y, l2c;
	__m128 iw0, iw1, iw2;
	__m128 v0[GFX_MAX_VARYINGS], d1[GFX_MAX_VARYINGS];
	__m128 d2[GFX_MAX_VARYINGS];
};

static void
var_prim_set(struct var_prim *vp, const struct gfx_vlayout *vl,
             const struct gfx_prim *p)
{
	vp->p = p;
	vp->l1x = _mm_set1_ps(p->l1x);
	vp->l1y = _mm_set1_ps(p->l1y);
	vp->l1c = _mm_set1_ps(p->l1c);
	vp->l2x = _mm_set1_ps(p->l2x);
	vp->l2y = _mm_set1_ps(p->l2y);
	vp->l2c = _mm_set1_ps(p->l2c);
	vp->iw0 = _mm_set1_ps(p->iw[0]);
	vp->iw1 = _mm_set1_ps(p->iw[1]);
	vp->iw2 = _mm_set1_ps(p->iw[2]);
	for (uint32_t j = 0; j < vl->nvar; j++) {
		const uint32_t w = vl->var_off + j;

		if ((vl->var_interp[j] & IR_INTERP_MODE_MASK) ==
		    IR_INTERP_FLAT) {
			vp->v0[j] = _mm_castsi128_ps(
				_mm_set1_epi32((int)p->flat[w].u));
			continue;
		}
		const float v0 = p->v[0][w].f, v1 = p->v[1][w].f;
		const float v2 = p->v[2][w].f;
		vp->v0[j] = _mm_set1_ps(v0);
		vp->d1[j] = _mm_set1_ps(v1 - v0);
		vp->d2[j] = _mm_set1_ps(v2 - v0);
	}
}
#endif

/*
 * Varyings of every lane, quad by quad: screen-space barycentrics
 * (a, b) of the pixel centres from the primitive's planes, their
 * perspective-correct versions (b1, b2) weighted by each vertex's 1/w
 * (sw = their interpolated 1/w, FragCoord.w), then each input by its
 * interpolation mode: v0 + a (v1 - v0) + b (v2 - v0). SSE2 does a
 * quad's four lanes at once; the scalar code computes the same values.
 */
static void
fill_varyings(struct gfx_thread *t, const struct gfx_draw *d,
              struct gfx_exec *e, uint32_t nq, float *iw, bool need_iw)
{
	const struct gfx_vlayout *vl = &d->vl;
	lane_t *reg[GFX_MAX_VARYINGS];

	/* a shader without varyings that does not read FragCoord needs
	 * none of it */
	if (!vl->nvar && !need_iw)
		return;
#if defined(__SSE2__)
	struct var_prim vp;   /* only the nvar entries are ever read */

	var_prim_set(&vp, vl, t->quad[0].prim);   /* nq >= 1 */
#endif

	for (uint32_t j = 0; j < vl->nvar; j++)
		reg[j] = gfx_exec_reg(e, vl->var_fs_reg[j]);
#if defined(__SSE2__)
	/* Run by run of quads of one primitive: first every quad's
	 * barycentrics, then varying by varying over the run, so that a
	 * varying's mode is read once per run, not once per quad (the
	 * per-quad loop over the varyings was most of this function). */
	__m128 ra[GFX_BATCH_QUADS], rb[GFX_BATCH_QUADS];
	__m128 rb1[GFX_BATCH_QUADS], rb2[GFX_BATCH_QUADS];
#if defined(__x86_64__) || defined(__i386__)
	/* two quads a vector where every lane is shaded at its centre */
	const bool avx2 = out8_have_avx2() &&
	                  !(d->samples > 1 && d->shading_run == 1);
#endif

	for (uint32_t q0 = 0, q1; q0 < nq; q0 = q1) {
		const struct gfx_prim *p = t->quad[q0].prim;

		for (q1 = q0 + 1; q1 < nq && t->quad[q1].prim == p; q1++)
			;
#if defined(__x86_64__) || defined(__i386__)
		if (avx2 && q1 - q0 >= 2) {
			gfx_varyings_run_avx2(vl, p, t->quad, q0, q1, reg, iw);
			continue;
		}
#endif
		if (vp.p != p)
			var_prim_set(&vp, vl, p);
		for (uint32_t q = q0; q < q1; q++) {
			const float x0 = (float)t->quad[q].x +
			                 shading_x(d, &t->quad[q]) - p->rx;
			const float y0 = (float)t->quad[q].y +
			                 shading_y(d, &t->quad[q]) - p->ry;
			const __m128 px = _mm_add_ps(_mm_set1_ps(x0),
			                             _mm_set_ps(1, 0, 1, 0));
			const __m128 py = _mm_add_ps(_mm_set1_ps(y0),
			                             _mm_set_ps(1, 1, 0, 0));
			const __m128 a = _mm_add_ps(
				_mm_add_ps(_mm_mul_ps(vp.l1x, px),
				           _mm_mul_ps(vp.l1y, py)), vp.l1c);
			const __m128 b = _mm_add_ps(
				_mm_add_ps(_mm_mul_ps(vp.l2x, px),
				           _mm_mul_ps(vp.l2y, py)), vp.l2c);

			ra[q] = rb1[q] = a;
			rb[q] = rb2[q] = b;
			if (p->affine) {
				/* equal w: perspective-correct is linear */
				_mm_storeu_ps(iw + 4 * q, vp.iw0);
				continue;
			}
			const __m128 w0 = _mm_mul_ps(
				_mm_sub_ps(_mm_sub_ps(_mm_set1_ps(1.0f), a),
				           b), vp.iw0);
			const __m128 w1 = _mm_mul_ps(a, vp.iw1);
			const __m128 w2 = _mm_mul_ps(b, vp.iw2);
			const __m128 sw = _mm_add_ps(_mm_add_ps(w0, w1), w2);
			const __m128 inv = _mm_and_ps(
				_mm_cmpneq_ps(sw, _mm_setzero_ps()),
				_mm_div_ps(_mm_set1_ps(1.0f), sw));
			rb1[q] = _mm_mul_ps(w1, inv);
			rb2[q] = _mm_mul_ps(w2, inv);
			_mm_storeu_ps(iw + 4 * q, sw);
		}
		for (uint32_t j = 0; j < vl->nvar; j++) {
			const uint32_t mode = vl->var_interp[j] &
			                      IR_INTERP_MODE_MASK;
			float *r = &reg[j][0].f;

			if (mode == IR_INTERP_FLAT) {
				for (uint32_t q = q0; q < q1; q++)
					_mm_storeu_ps(r + 4 * q, vp.v0[j]);
				continue;
			}
			const bool np = mode == IR_INTERP_NOPERSPECTIVE;
			const __m128 *ca = np ? ra : rb1, *cb = np ? rb : rb2;
			const __m128 v0 = vp.v0[j], d1 = vp.d1[j];
			const __m128 d2 = vp.d2[j];

			for (uint32_t q = q0; q < q1; q++)
				_mm_storeu_ps(r + 4 * q, _mm_add_ps(
					_mm_add_ps(v0, _mm_mul_ps(ca[q], d1)),
					_mm_mul_ps(cb[q], d2)));
		}
	}
#else
	for (uint32_t q = 0; q < nq; q++) {
		const struct gfx_prim *p = t->quad[q].prim;
		const float x0 = (float)t->quad[q].x +
		                 shading_x(d, &t->quad[q]) - p->rx;
		const float y0 = (float)t->quad[q].y +
		                 shading_y(d, &t->quad[q]) - p->ry;
		float a[4], b[4], b1[4], b2[4];
		for (uint32_t i = 0; i < 4; i++) {
			float px = x0 + (float)(i & 1), py = y0 + (float)(i >> 1);
			a[i] = p->l1x * px + p->l1y * py + p->l1c;
			b[i] = p->l2x * px + p->l2y * py + p->l2c;
			if (p->affine) {
				iw[4 * q + i] = p->iw[0];
				b1[i] = a[i];
				b2[i] = b[i];
				continue;
			}
			float w0 = (1.0f - a[i] - b[i]) * p->iw[0];
			float w1 = a[i] * p->iw[1], w2 = b[i] * p->iw[2];
			float sw = w0 + w1 + w2;
			float inv = sw != 0.0f ? 1.0f / sw : 0.0f;
			iw[4 * q + i] = sw;
			b1[i] = w1 * inv;
			b2[i] = w2 * inv;
		}
		for (uint32_t j = 0; j < vl->nvar; j++) {
			const uint32_t w = vl->var_off + j;
			const uint32_t mode = vl->var_interp[j] &
			                      IR_INTERP_MODE_MASK;
			lane_t *r = reg[j] + 4 * q;
			if (mode == IR_INTERP_FLAT) {
				const uint32_t v = p->flat[w].u;
				r[0].u = r[1].u = r[2].u = r[3].u = v;
				continue;
			}
			const bool np = mode == IR_INTERP_NOPERSPECTIVE;
			const float v0 = p->v[0][w].f, v1 = p->v[1][w].f;
			const float v2 = p->v[2][w].f;
			for (uint32_t i = 0; i < 4; i++)
				r[i].f = v0 + (np ? a[i] : b1[i]) * (v1 - v0) +
				         (np ? b[i] : b2[i]) * (v2 - v0);
		}
	}
#endif
}

/*
 * The centroid of pixel i of quad qd (multisampled, S > 1): where one
 * invocation covers several samples (its run), a pixel the primitive
 * covers only in part may have its centre outside the primitive, so the
 * centroid is the lowest covered sample of the run (a point of both the
 * pixel and the primitive, as the spec asks). Returns that sample, or
 * ~0u when the evaluation point is the centroid: fully covered (the
 * centre), a helper (nothing covered), or one sample per invocation
 * (already on it). The one rule of the Centroid decoration (fix_centroid)
 * and of interpolateAtCentroid (IR_REG_CENTROID_SAMPLE).
 */
static inline uint32_t
centroid_sample(const struct gfx_draw *d, const struct gfx_quad *qd,
                uint32_t i)
{
	const uint32_t run = ((1u << d->shading_run) - 1u) << qd->sample;
	const uint32_t cov = (qd->cov >> (8 * i)) & run;

	return cov && cov != run ? (uint32_t)__builtin_ctz(cov) : ~0u;
}

/*
 * Centroid inputs of a multisampled line or triangle, where one
 * invocation covers several samples: evaluated again at the lane's
 * centroid_sample where it is not the evaluation point. Points are
 * skipped: their inputs are the same everywhere.
 */
static void
fix_centroid(struct gfx_thread *t, const struct gfx_draw *d,
             struct gfx_exec *e, uint32_t nq)
{
	const struct gfx_vlayout *vl = &d->vl;

	for (uint32_t q = 0; q < nq; q++) {
		const struct gfx_quad *qd = &t->quad[q];
		const struct gfx_prim *p = qd->prim;

		if (p->kind == GFX_PRIM_POINT)
			continue;
		for (uint32_t i = 0; i < 4; i++) {
			const uint32_t s = centroid_sample(d, qd, i);
			if (s == ~0u)
				continue;
			const float px = (float)(qd->x + (int32_t)(i & 1)) +
			                 gfx_sample_x(d->samples, s) - p->rx;
			const float py = (float)(qd->y + (int32_t)(i >> 1)) +
			                 gfx_sample_y(d->samples, s) - p->ry;
			const float a = p->l1x * px + p->l1y * py + p->l1c;
			const float b = p->l2x * px + p->l2y * py + p->l2c;
			float b1 = a, b2 = b;
			if (!p->affine) {
				const float w0 = (1.0f - a - b) * p->iw[0];
				const float w1 = a * p->iw[1], w2 = b * p->iw[2];
				const float sw = w0 + w1 + w2;
				const float inv = sw != 0.0f ? 1.0f / sw : 0.0f;
				b1 = w1 * inv;
				b2 = w2 * inv;
			}
			for (uint32_t j = 0; j < vl->nvar; j++) {
				const uint32_t m = vl->var_interp[j];
				const uint32_t w = vl->var_off + j;
				if (!(m & IR_INTERP_CENTROID) ||
				    (m & IR_INTERP_MODE_MASK) == IR_INTERP_FLAT)
					continue;
				const bool np = (m & IR_INTERP_MODE_MASK) ==
				                IR_INTERP_NOPERSPECTIVE;
				const float v0 = p->v[0][w].f;
				gfx_exec_reg(e, vl->var_fs_reg[j])[4 * q + i].f =
					v0 + (np ? a : b1) * (p->v[1][w].f - v0) +
					(np ? b : b2) * (p->v[2][w].f - v0);
			}
		}
	}
}

/* Interpolated inputs and built-ins of every lane. */
static void
fill_inputs(struct gfx_thread *t, const struct gfx_draw *d,
            struct gfx_exec *e, uint32_t nq)
{
	const struct gfx_program *fs = d->fs;
	const uint32_t n = 4 * nq;
	float iw[GFX_LANES];
	const bool frag_coord = builtin_used(fs, IR_REG_FRAG_COORD) ||
	                        builtin_used(fs, IR_REG_FRAG_COORD + 1) ||
	                        builtin_used(fs, IR_REG_FRAG_COORD + 2) ||
	                        builtin_used(fs, IR_REG_FRAG_COORD + 3);

	fill_varyings(t, d, e, nq, iw, frag_coord);
	if (d->centroid_inputs && d->samples > 1 && d->shading_run > 1)
		fix_centroid(t, d, e, nq);
	if (frag_coord) {
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
			fx[l].f = (float)(q->x + (int32_t)(l & 1)) +
			          shading_x(d, q);
			fy[l].f = (float)(q->y + (int32_t)((l >> 1) & 1)) +
			          shading_y(d, q);
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
			r[l].u = d->samples > 1 ? t->quad[l / 4].sample : 0;
	}
	if (builtin_used(fs, IR_REG_SAMPLE_COUNT)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_SAMPLE_COUNT);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = d->samples;
	}
	if (builtin_used(fs, IR_REG_SAMPLE_MASK_IN)) {
		/* multisampled: the samples this invocation covers (its
		 * pixel's byte of the quad's coverage, hw/gfx/frag_ms.c) */
		lane_t *r = gfx_exec_reg(e, IR_REG_SAMPLE_MASK_IN);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = d->samples > 1
			         ? (t->quad[l / 4].cov >> (8 * (l & 3))) & 0xffu
			         : t->live[l];
	}
	if (builtin_used(fs, IR_REG_CENTROID_SAMPLE)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_CENTROID_SAMPLE);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = d->samples > 1
			         ? centroid_sample(d, &t->quad[l / 4], l & 3)
			         : ~0u;
	}
	if (builtin_used(fs, IR_REG_SAMPLE_POSITION) ||
	    builtin_used(fs, IR_REG_SAMPLE_POSITION + 1)) {
		lane_t *a = gfx_exec_reg(e, IR_REG_SAMPLE_POSITION);
		lane_t *b = gfx_exec_reg(e, IR_REG_SAMPLE_POSITION + 1);
		for (uint32_t l = 0; l < n; l++) {
			const uint32_t smp =
				d->samples > 1 ? t->quad[l / 4].sample : 0;
			a[l].f = d->samples > 1 ? gfx_sample_x(d->samples, smp)
			                        : 0.5f;
			b[l].f = d->samples > 1 ? gfx_sample_y(d->samples, smp)
			                        : 0.5f;
		}
	}
	if (builtin_used(fs, IR_REG_PRIMITIVE_ID)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_PRIMITIVE_ID);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = t->quad[l / 4].prim->prim_id;
	}
	if (builtin_used(fs, IR_REG_VIEW_INDEX)) {
		lane_t *r = gfx_exec_reg(e, IR_REG_VIEW_INDEX);
		for (uint32_t l = 0; l < n; l++)
			r[l].u = d->view_index;
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
gfx_frag_uniform_setup(struct gfx_thread *t, const struct gfx_draw *d)
{
	const struct ir_io *io = d->fs->io;
	uint32_t k = 0;

	for (uint32_t loc = 0; loc < IR_MAX_LOCATIONS; loc++)
		for (uint32_t c = 0; c < 4; c++)
			if (io->out_reg[loc][c])
				t->uniform_reg[k++] = io->out_reg[loc][c];
	for (uint32_t c = 0; c < 4; c++)
		if (io->out_index1_reg[c])
			t->uniform_reg[k++] = io->out_index1_reg[c];
	if (io->frag_depth_reg)
		t->uniform_reg[k++] = io->frag_depth_reg;
	if (io->sample_mask_reg)
		t->uniform_reg[k++] = io->sample_mask_reg;
	t->n_uniform = k;
	t->uniform_valid = false;
}

/*
 * A program whose outputs are the same on every lane and that does
 * nothing else (gfx_program.uniform_outputs): its inputs are not
 * needed, and what a lane computes is what every lane would. It runs
 * on the thread's narrow state (GFX_UNIFORM_LANES lanes, all live: the
 * interpreter's full-width loops, unlike a partial run of the wide
 * state, which steps over every lane of it), and lane 0 of every output
 * the pipeline reads is copied to every lane of the wide state, where
 * the output stages read them; only when a value changed (push
 * constants or buffer contents of another draw). No lane discards.
 */
static bool
run_uniform(struct gfx_thread *t, const struct gfx_draw *d, uint32_t n)
{
	struct gfx_exec *e = t->fs, *u = t->fs_uniform;
	uint8_t live[GFX_UNIFORM_LANES];
	bool same = t->uniform_valid;

	/* Outputs of the push constants alone (every byte of them, as
	 * a computed offset may read past the declared block), as they
	 * were last time: the lanes already hold them. */
	if (same && d->fs->uniform_push_only &&
	    !memcmp(t->uniform_push, d->fs_res->push, sizeof(t->uniform_push)))
		goto done;
	memset(live, 1, sizeof(live));
	if (!gfx_exec_run(u, d->fs_res, GFX_UNIFORM_LANES, live, NULL))
		return false;
	memcpy(t->uniform_push, d->fs_res->push, sizeof(t->uniform_push));
	for (uint32_t k = 0; k < t->n_uniform; k++) {
		const uint32_t v = gfx_exec_reg(u, t->uniform_reg[k])[0].u;

		same = same && t->uniform_val[k] == v;
		t->uniform_val[k] = v;
	}
	if (!same) {
		for (uint32_t k = 0; k < t->n_uniform; k++) {
			lane_t *r = gfx_exec_reg(e, t->uniform_reg[k]);

			for (uint32_t l = 0; l < GFX_LANES; l++)
				r[l].u = t->uniform_val[k];
		}
		t->uniform_valid = true;
	}
done:
	memset(t->discarded, 0, n);
	return true;
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

	for (uint32_t q = 0; q < nq; q++) {
		const uint32_t m = t->quad[q].mask;
		t->live[4 * q] = m & 1u;
		t->live[4 * q + 1] = (m >> 1) & 1u;
		t->live[4 * q + 2] = (m >> 2) & 1u;
		t->live[4 * q + 3] = (m >> 3) & 1u;
	}
	if (d->fs->uniform_outputs) {
		if (!run_uniform(t, d, n)) {
			gfx_draw_fail((struct gfx_draw *)d, SWGPU_FAULT_HANG);
			return;
		}
	} else {
		fill_inputs(t, d, e, nq);
		if (!gfx_exec_run(e, d->fs_res, n, t->live, t->discarded)) {
			gfx_draw_fail((struct gfx_draw *)d, SWGPU_FAULT_HANG);
			return;
		}
	}
	t->fragments += n;
	if (d->samples > 1) {      /* per-sample outputs: frag_ms.c */
		gfx_frag_ms_output(t, d, e, nq);
		return;
	}

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
	/* Multisample coverage with one sample: alpha to coverage keeps
	 * the sample when output 0's alpha is >= 0.5 (an unwritten alpha
	 * reads 0), then alpha to one replaces the alpha of every output
	 * to a fixed- or floating-point attachment by 1 (integer ones have
	 * no "one" to take: left as written). */
	const lane_t *a2c = NULL;
	lane_t ones[GFX_LANES];
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

	uint8_t qmask[GFX_BATCH_QUADS];
	const bool lanes_drop = d->fs->io->discards || smask || a2c;
	for (uint32_t q = 0; q < nq; q++) {
		const struct gfx_quad *qd = &t->quad[q];
		uint32_t m = qd->mask;
		if (lanes_drop)
			for (uint32_t i = 0; i < 4; i++) {
				uint32_t l = 4 * q + i;
				if (t->discarded[l] ||
				    (smask && !(smask[l].u & 1u)) ||
				    (a2c && !(a2c[l].f >= 0.5f)))
					m &= ~(1u << i);
			}
		if (m && !d->early_tests && !d->zs_active) {
			t->occlusion += bits4(m);
		} else if (m && !d->early_tests) {
			/* Late tests, quad after quad: a later quad of the
			 * batch sees the depth an earlier one wrote. */
			float z[4];
			for (uint32_t i = 0; i < 4; i++)
				z[i] = fdepth ? fdepth[4 * q + i].f
				              : t->z[4 * q + i];
			m = gfx_depth_stencil(d, qd->prim, qd->x, qd->y, m, z);
			t->occlusion += bits4(m);
		}
		qmask[q] = (uint8_t)m;
	}
	if (!d->any_color)
		return;
	/* Colour: target by target. Quads of one batch that overlap write
	 * in batch order, which is API order. */
	t->nquads_out = nq;
	for (uint32_t a = 0; a < d->ncolor; a++) {
		const struct gfx_color_target *rt = &d->color[a];
		if (rt->write_mask)
			gfx_output_batch(t, d, rt, qmask, color[a], color1);
	}
}
