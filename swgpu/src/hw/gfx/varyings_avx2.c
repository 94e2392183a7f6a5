/* SPDX-License-Identifier: MIT */
/*
 * frag_shade.c's varyings of a run of quads of one primitive, two quads
 * per 8-lane vector instead of one per SSE vector (fill_varyings was
 * 10 % of vkcube's CPU, a fifth of it the perspective divide). Every
 * lane takes the SSE2 path's operations in the same order: x0 and y0 of
 * each quad in scalar float, a = l1x px + l1y py + l1c, the weights
 * w0 = (1 - a - b) iw0, w1 = a iw1, w2 = b iw2, sw = w0 + w1 + w2,
 * 1 / sw where sw != 0 (unordered compare, as _mm_cmpneq_ps) else 0,
 * then each varying v0 + c1 (v1 - v0) + c2 (v2 - v0); so the bits are
 * the same (test_gfx_fragment test_varyings_avx2). Compiled with -mavx2
 * and no FMA (each product and sum rounds), run only when
 * out8_have_avx2() (SWGPU_GFX_AVX2=0 turns it off).
 */
#include "hw/gfx/gfx_internal.h"

#if defined(__AVX2__)
#include <immintrin.h>

/* The barycentrics of quads q and q + 1 (or q alone: the upper half is
 * a copy), screen-space (a, b) and perspective-correct (b1, b2). */
static inline void
bary8(const struct gfx_prim *p, const struct gfx_quad *qa,
      const struct gfx_quad *qb, __m256 *ra, __m256 *rb, __m256 *rb1,
      __m256 *rb2, float *iw)
{
	const float xa = (float)qa->x + 0.5f - p->rx;
	const float ya = (float)qa->y + 0.5f - p->ry;
	const float xb = (float)qb->x + 0.5f - p->rx;
	const float yb = (float)qb->y + 0.5f - p->ry;
	const __m256 px = _mm256_add_ps(
		_mm256_setr_ps(xa, xa, xa, xa, xb, xb, xb, xb),
		_mm256_setr_ps(0, 1, 0, 1, 0, 1, 0, 1));
	const __m256 py = _mm256_add_ps(
		_mm256_setr_ps(ya, ya, ya, ya, yb, yb, yb, yb),
		_mm256_setr_ps(0, 0, 1, 1, 0, 0, 1, 1));
	const __m256 a = _mm256_add_ps(
		_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(p->l1x), px),
		              _mm256_mul_ps(_mm256_set1_ps(p->l1y), py)),
		_mm256_set1_ps(p->l1c));
	const __m256 b = _mm256_add_ps(
		_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(p->l2x), px),
		              _mm256_mul_ps(_mm256_set1_ps(p->l2y), py)),
		_mm256_set1_ps(p->l2c));

	*ra = *rb1 = a;
	*rb = *rb2 = b;
	if (p->affine) {
		_mm256_storeu_ps(iw, _mm256_set1_ps(p->iw[0]));
		return;
	}
	const __m256 w0 = _mm256_mul_ps(
		_mm256_sub_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), a), b),
		_mm256_set1_ps(p->iw[0]));
	const __m256 w1 = _mm256_mul_ps(a, _mm256_set1_ps(p->iw[1]));
	const __m256 w2 = _mm256_mul_ps(b, _mm256_set1_ps(p->iw[2]));
	const __m256 sw = _mm256_add_ps(_mm256_add_ps(w0, w1), w2);
	const __m256 inv = _mm256_and_ps(
		_mm256_cmp_ps(sw, _mm256_setzero_ps(), _CMP_NEQ_UQ),
		_mm256_div_ps(_mm256_set1_ps(1.0f), sw));

	*rb1 = _mm256_mul_ps(w1, inv);
	*rb2 = _mm256_mul_ps(w2, inv);
	_mm256_storeu_ps(iw, sw);
}

void
gfx_varyings_run_avx2(const struct gfx_vlayout *vl, const struct gfx_prim *p,
                      const struct gfx_quad *quad, uint32_t q0, uint32_t q1,
                      lane_t *const *reg, float *iw)
{
	__m256 ra[GFX_BATCH_QUADS / 2], rb[GFX_BATCH_QUADS / 2];
	__m256 rb1[GFX_BATCH_QUADS / 2], rb2[GFX_BATCH_QUADS / 2];
	float iw_odd[8];
	const uint32_t npair = (q1 - q0) / 2, odd = (q1 - q0) & 1u;

	for (uint32_t k = 0; k < npair; k++) {
		const uint32_t q = q0 + 2 * k;

		bary8(p, &quad[q], &quad[q + 1], &ra[k], &rb[k], &rb1[k],
		      &rb2[k], iw + 4 * q);
	}
	if (odd) {
		/* the last quad twice; only its lower half is stored */
		const uint32_t q = q1 - 1;

		bary8(p, &quad[q], &quad[q], &ra[npair], &rb[npair],
		      &rb1[npair], &rb2[npair], iw_odd);
		_mm_storeu_ps(iw + 4 * q, _mm_loadu_ps(iw_odd));
	}
	for (uint32_t j = 0; j < vl->nvar; j++) {
		const uint32_t mode = vl->var_interp[j] & IR_INTERP_MODE_MASK;
		const uint32_t w = vl->var_off + j;
		float *r = &reg[j][4 * q0].f;

		if (mode == IR_INTERP_FLAT) {
			const __m256 f = _mm256_castsi256_ps(
				_mm256_set1_epi32((int)p->flat[w].u));

			for (uint32_t k = 0; k < npair; k++)
				_mm256_storeu_ps(r + 8 * k, f);
			if (odd)
				_mm_storeu_ps(r + 8 * npair,
				              _mm256_castps256_ps128(f));
			continue;
		}
		const bool np = mode == IR_INTERP_NOPERSPECTIVE;
		const __m256 *ca = np ? ra : rb1, *cb = np ? rb : rb2;
		const float v0f = p->v[0][w].f, v1f = p->v[1][w].f;
		const float v2f = p->v[2][w].f;
		const __m256 v0 = _mm256_set1_ps(v0f);
		const __m256 d1 = _mm256_set1_ps(v1f - v0f);
		const __m256 d2 = _mm256_set1_ps(v2f - v0f);

		for (uint32_t k = 0; k < npair; k++)
			_mm256_storeu_ps(r + 8 * k, _mm256_add_ps(
				_mm256_add_ps(v0, _mm256_mul_ps(ca[k], d1)),
				_mm256_mul_ps(cb[k], d2)));
		if (odd)
			_mm_storeu_ps(r + 8 * npair, _mm256_castps256_ps128(
				_mm256_add_ps(_mm256_add_ps(v0, _mm256_mul_ps(
					ca[npair], d1)),
					_mm256_mul_ps(cb[npair], d2))));
	}
}
#endif
