/* SPDX-License-Identifier: MIT */
/*
 * Single-sample triangle rasterization on AVX2, 8x8 pixel blocks aligned
 * to 8 (so a block never leaves its 64x64 tile):
 *
 * - coverage of the whole block as a 64-bit mask (bit 8j + i: pixel
 *   (bx + i, by + j)): the three edge functions of setup.c in exact
 *   64-bit integers, four pixels a vector, a row a step; a pixel is
 *   covered when all three are >= 0 at its centre, as in raster_tri.c;
 *   blocks entirely inside or outside one edge skip the per-pixel work;
 * - with gfx_draw.depth_rows (the early depth test alone, D32 or D16)
 *   and the block inside the render area, the depth test of the whole
 *   block at once, a row of eight pixels a vector: the same expression,
 *   clamps and compares as depth_stencil.c (row_depth4,
 *   depth_only_*_quad_masked), so the same bits; uncovered or failing
 *   pixels get their own bytes back;
 * - then the covered quads into the fragment batch, in raster order
 *   within the block (quads of one primitive do not overlap, so any
 *   order gives the same picture).
 *
 * Blocks reaching outside the render area, and draws without depth_rows,
 * take the per-quad path with the block's coverage. This file alone is
 * compiled with -mavx2 (no -mfma: the depth expression rounds each
 * product and sum) and only runs when out8_have_avx2() said so
 * (SWGPU_GFX_RASTER_BLOCKS=0 or SWGPU_GFX_AVX2=0 turn it off).
 */
#include "hw/gfx/gfx_internal.h"

#include <string.h>

#if defined(__AVX2__)
#include <immintrin.h>

#define BLOCK GFX_RASTER_BLOCK

/* Pixels of the block at (bx, by) inside r. */
static inline uint64_t
rect_mask(const struct gfx_rect *r, int32_t bx, int32_t by)
{
	const int32_t c0 = r->x0 > bx ? r->x0 - bx : 0;
	const int32_t c1 = r->x1 < bx + BLOCK ? r->x1 - bx : BLOCK;
	const int32_t j0 = r->y0 > by ? r->y0 - by : 0;
	const int32_t j1 = r->y1 < by + BLOCK ? r->y1 - by : BLOCK;
	const uint64_t cols = ((1u << c1) - 1u) & ~((1u << c0) - 1u);
	const uint64_t rows = (j1 == BLOCK ? ~0ull : (1ull << (8 * j1)) - 1) &
	                      ~((1ull << (8 * j0)) - 1);

	return cols * 0x0101010101010101ull & rows;
}

/* The covered pixels of the block whose first pixel centre has edge
 * values e0[k]; step_lo/hi: each edge's values at pixels 0..3 and 4..7
 * of a row relative to pixel 0; dy: one row down. */
static inline uint64_t
block_coverage(const int64_t e0[3], const __m256i step_lo[3],
               const __m256i step_hi[3], const __m256i dy[3])
{
	__m256i lo[3], hi[3];
	uint64_t m = 0;

	for (int k = 0; k < 3; k++) {
		const __m256i e = _mm256_set1_epi64x(e0[k]);

		lo[k] = _mm256_add_epi64(e, step_lo[k]);
		hi[k] = _mm256_add_epi64(e, step_hi[k]);
	}
	for (int j = 0; j < BLOCK; j++) {
		/* the sign of the OR: some edge is negative, not covered */
		const __m256i a = _mm256_or_si256(_mm256_or_si256(lo[0], lo[1]),
		                                  lo[2]);
		const __m256i b = _mm256_or_si256(_mm256_or_si256(hi[0], hi[1]),
		                                  hi[2]);
		const uint32_t out =
			(uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(a)) |
			(uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(b)) << 4;

		m |= (uint64_t)(~out & 0xffu) << (8 * j);
		for (int k = 0; k < 3; k++) {
			lo[k] = _mm256_add_epi64(lo[k], dy[k]);
			hi[k] = _mm256_add_epi64(hi[k], dy[k]);
		}
	}
	return m;
}

/* Quad i of the row pair qj of a block's mask m, bits in quad lane
 * order. */
static inline uint32_t
quad_bits(uint64_t m, uint32_t qj, uint32_t i)
{
	const uint32_t r = (uint32_t)(m >> (16 * qj));

	return ((r >> (2 * i)) & 3u) | ((r >> (8 + 2 * i)) & 3u) << 2;
}

static inline bool
block_in_area(const struct gfx_draw *d, int32_t bx, int32_t by)
{
	return bx >= d->fb.x0 && by >= d->fb.y0 && bx + BLOCK <= d->fb.x1 &&
	       by + BLOCK <= d->fb.y1 && bx >= d->depth.ox &&
	       by >= d->depth.oy;
}

/* The covered pixels cov of the block at (bx, by) into the fragment
 * stage. */
static void
block_emit(struct gfx_thread *t, const struct gfx_draw *d,
           const struct gfx_prim *p, int32_t bx, int32_t by, uint64_t cov)
{
	if (d->depth_rows && block_in_area(d, bx, by)) {
		float z[BLOCK * BLOCK];
		const uint64_t pass = gfx_depth_block_avx2(d, p, bx, by, cov,
		                                                 z);

		for (uint32_t qj = 0; qj < BLOCK / 2; qj++) {
			if (!((pass >> (16 * qj)) & 0xffff))
				continue;
			for (uint32_t i = 0; i < BLOCK / 2; i++) {
				const uint32_t m = quad_bits(pass, qj, i);

				if (!m)
					continue;
				const float *z0 = z + 16 * qj + 2 * i;
				const float zq[4] = { z0[0], z0[1], z0[8],
				                      z0[9] };
				t->occlusion += (uint32_t)__builtin_popcount(m);
				if (d->fs)
					gfx_frag_push(t, d, p,
					              bx + 2 * (int32_t)i,
					              by + 2 * (int32_t)qj, m,
					              zq);
			}
		}
		return;
	}
	for (uint32_t qj = 0; qj < BLOCK / 2; qj++) {
		const uint32_t rows = (uint32_t)(cov >> (16 * qj)) & 0xffffu;
		const int32_t y = by + 2 * (int32_t)qj;

		if (rows == 0xffffu) {
			gfx_frag_quads_full(t, d, p, bx, y, BLOCK / 2);
			continue;
		}
		for (uint32_t i = 0; i < BLOCK / 2 && rows; i++) {
			const uint32_t m = quad_bits(cov, qj, i);

			if (m)
				gfx_frag_quad(t, d, p, bx + 2 * (int32_t)i, y,
				              m);
		}
	}
}

void
gfx_raster_tri_avx2(struct gfx_thread *t, const struct gfx_draw *d,
                    const struct gfx_prim *p, const struct gfx_rect *r)
{
	const int64_t one = GFX_SUBPIXEL_ONE, half = GFX_SUBPIXEL_ONE / 2;
	int64_t sx[3], sy[3];
	__m256i step_lo[3], step_hi[3], dy[3];

	for (int k = 0; k < 3; k++) {
		sx[k] = p->ea[k] * one;
		sy[k] = p->eb[k] * one;
		step_lo[k] = _mm256_setr_epi64x(0, sx[k], 2 * sx[k],
		                                3 * sx[k]);
		step_hi[k] = _mm256_setr_epi64x(4 * sx[k], 5 * sx[k],
		                                6 * sx[k], 7 * sx[k]);
		dy[k] = _mm256_set1_epi64x(sy[k]);
	}
	for (int32_t by = r->y0 & ~(BLOCK - 1); by < r->y1; by += BLOCK) {
		for (int32_t bx = r->x0 & ~(BLOCK - 1); bx < r->x1;
		     bx += BLOCK) {
			/* edge values at the block's corner pixel centres:
			 * an edge function is linear, so its extremes over
			 * the block are at corners */
			bool reject = false, accept = true;
			int64_t e0[3];

			for (int k = 0; k < 3 && !reject; k++) {
				const int64_t e = p->ea[k] * (bx * one + half) +
				                  p->eb[k] * (by * one + half) +
				                  p->ec[k];
				const int64_t ex = sx[k] * (BLOCK - 1);
				const int64_t ey = sy[k] * (BLOCK - 1);
				const int64_t mn = e + (ex < 0 ? ex : 0) +
				                   (ey < 0 ? ey : 0);
				const int64_t mx = e + (ex > 0 ? ex : 0) +
				                   (ey > 0 ? ey : 0);

				reject = mx < 0;
				accept = accept && mn >= 0;
				e0[k] = e;
			}
			if (reject)
				continue;
			const uint64_t cov =
				(accept ? ~0ull
				        : block_coverage(e0, step_lo, step_hi,
				                         dy)) &
				rect_mask(r, bx, by);

			if (cov)
				block_emit(t, d, p, bx, by, cov);
		}
	}
}
#endif
