/* SPDX-License-Identifier: MIT */
/*
 * The early depth test alone on AVX2, a row of eight pixels a vector:
 * gfx_depth_rows for D16_UNORM (four whole quads side by side, two rows)
 * and the 8x8 blocks of raster_block_avx2.c (D32 and D16, any coverage;
 * uncovered or failing pixels get their own bytes back). Every value is
 * computed by the SSE2 path's operations in the same order
 * (depth_stencil.c: row_depth4's float expression, clamp_range4's
 * selections, unorm_bits4's double rounding, d32_compare4's and the
 * integer compares), so the bits are the same; test_gfx_depth
 * test_depth_rows_same and test_raster_blocks_same compare these paths
 * with the per-quad one. This file alone is compiled with
 * -mavx2 (no -mfma: the depth expression rounds each product and sum)
 * and only runs when out8_have_avx2() said so (SWGPU_GFX_AVX2=0 turns it
 * off).
 */
#include "hw/gfx/gfx_internal.h"

#include <string.h>

#if defined(__AVX2__)
#include <immintrin.h>

/* Depth of pixels x .. x + 7 of the row whose centre is at dy from the
 * primitive's reference: row_depth4's expression. */
static inline __m256
row_depth8(const struct gfx_prim *p, int32_t x, float dy)
{
	const __m256 px = _mm256_add_ps(
		_mm256_cvtepi32_ps(_mm256_add_epi32(
			_mm256_set1_epi32(x),
			_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))),
		_mm256_set1_ps(0.5f));
	const __m256 dz = _mm256_mul_ps(_mm256_set1_ps(p->zx),
	                                _mm256_sub_ps(px,
	                                              _mm256_set1_ps(p->rx)));

	return _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(
		_mm256_set1_ps(p->zc), dz), _mm256_set1_ps(p->zy * dy)),
		_mm256_set1_ps(p->bias));
}

/* clamp_range of eight lanes (depth_stencil.c clamp_range4's
 * selections: NaN -> lo). */
static inline __m256
clamp8(__m256 v, float lo, float hi)
{
	const __m256 l = _mm256_set1_ps(lo), h = _mm256_set1_ps(hi);
	const __m256 le = _mm256_cmp_ps(v, h, _CMP_LE_OQ);
	const __m256 ge = _mm256_cmp_ps(v, l, _CMP_GE_OQ);
	const __m256 t = _mm256_or_ps(_mm256_and_ps(le, v),
	                              _mm256_andnot_ps(le, h));

	return _mm256_or_ps(_mm256_and_ps(ge, t), _mm256_andnot_ps(ge, l));
}

/* Lanes of the 8 bits of m as all-ones / zero. */
static inline __m256i
lanes_of(uint32_t m)
{
	const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);

	return _mm256_cmpeq_epi32(_mm256_and_si256(
		_mm256_set1_epi32((int)m), bit), bit);
}

/* unorm_bits(z, 16) of eight floats in [0, 1] (depth_stencil.c
 * unorm_bits4): z * 65535 in double (exact), rounded half to even by
 * adding and taking away 2^52. */
static inline __m256i
unorm16_8(__m256 z)
{
	const __m256d k = _mm256_set1_pd(65535.0), big = _mm256_set1_pd(0x1p52);
	const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(z));
	const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(z, 1));
	const __m128i ilo = _mm256_cvttpd_epi32(
		_mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(lo, k), big), big));
	const __m128i ihi = _mm256_cvttpd_epi32(
		_mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(hi, k), big), big));

	return _mm256_inserti128_si256(_mm256_castsi128_si256(ilo), ihi, 1);
}

/* One D32 row: the passing covered lanes; writes them with depth
 * writes, the other lanes their own bytes. */
static inline uint32_t
row_d32(const struct gfx_draw *d, uint8_t *row, __m256 a, uint32_t cov)
{
	const uint32_t op = d->depth_op;
	const __m256 b = _mm256_loadu_ps((const float *)(const void *)row);
	__m256 ok;

	if (op == SWGPU_COMPARE_ALWAYS) {
		ok = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
	} else if (op == SWGPU_COMPARE_NOT_EQUAL) {
		ok = _mm256_cmp_ps(a, b, _CMP_NEQ_UQ);  /* true with a NaN */
	} else {
		ok = _mm256_setzero_ps();
		if (op & 1)
			ok = _mm256_or_ps(ok, _mm256_cmp_ps(a, b, _CMP_LT_OQ));
		if (op & 2)
			ok = _mm256_or_ps(ok, _mm256_cmp_ps(a, b, _CMP_EQ_OQ));
		if (op & 4)
			ok = _mm256_or_ps(ok, _mm256_cmp_ps(a, b, _CMP_GT_OQ));
	}
	ok = _mm256_and_ps(ok, _mm256_castsi256_ps(lanes_of(cov)));
	const uint32_t m = (uint32_t)_mm256_movemask_ps(ok);
	if (d->depth_write && m)
		_mm256_storeu_ps((float *)(void *)row,
		                 _mm256_blendv_ps(b, a, ok));
	return m;
}

/* One D16 row: as row_d32 on the codes. */
static inline uint32_t
row_d16(const struct gfx_draw *d, uint8_t *row, __m256 a, uint32_t cov)
{
	const uint32_t op = d->depth_op;
	const __m256i in = unorm16_8(a);
	const __m256i st = _mm256_cvtepu16_epi32(
		_mm_loadu_si128((const __m128i *)(const void *)row));
	__m256i ok = _mm256_setzero_si256();

	if (op & 1)
		ok = _mm256_or_si256(ok, _mm256_cmpgt_epi32(st, in));
	if (op & 2)
		ok = _mm256_or_si256(ok, _mm256_cmpeq_epi32(in, st));
	if (op & 4)
		ok = _mm256_or_si256(ok, _mm256_cmpgt_epi32(in, st));
	ok = _mm256_and_si256(ok, lanes_of(cov));
	const uint32_t m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(ok));
	if (d->depth_write && m) {
		const __m256i v = _mm256_blendv_epi8(st, in, ok);
		/* codes < 2^16: packus keeps them; it packs within each
		 * 128-bit half, the permute puts the halves' words together */
		const __m256i pk = _mm256_permute4x64_epi64(
			_mm256_packus_epi32(v, v), 0x08);
		_mm_storeu_si128((__m128i *)(void *)row,
		                 _mm256_castsi256_si128(pk));
	}
	return m;
}

/*
 * The early depth test of the covered pixels cov of the block at
 * (bx, by), inside the render area: the passing pixels; the depths of
 * rows whose quad row has coverage into z[8 j + i] (gfx_frag_quad's
 * expression, row_depth4's operations in the same order).
 */
uint64_t
gfx_depth_block_avx2(const struct gfx_draw *d, const struct gfx_prim *p,
                     int32_t bx, int32_t by, uint64_t cov, float *z)
{
	const struct gfx_viewport *vp = &d->vp[p->viewport];
	const bool d32 = d->depth.format == SWGPU_FORMAT_D32_SFLOAT;
	uint8_t *row = gfx_texel(&d->depth, bx, by, p->layer * d->samples);
	uint64_t pass = 0;

	for (int32_t j = 0; j < GFX_RASTER_BLOCK;
	     j++, row += d->depth.row_pitch) {
		if (!((cov >> (16 * (j >> 1))) & 0xffff))
			continue;       /* no quad of this row pair */
		const __m256 zr = row_depth8(p, bx,
		                             ((float)(by + j) + 0.5f) - p->ry);
		const uint32_t cm = (uint32_t)(cov >> (8 * j)) & 0xffu;

		/* the block after next (blocks go left to right) starts
		 * on the next cache line of this row */
		__builtin_prefetch(row + 64, 1);
		_mm256_storeu_ps(z + 8 * j, zr);
		if (!cm)
			continue;
		__m256 a = zr;
		if (d->depth_clamp)
			a = clamp8(a, vp->zmin, vp->zmax);
		a = clamp8(a, 0.0f, 1.0f);
		const uint32_t m = d32 ? row_d32(d, row, a, cm)
		                       : row_d16(d, row, a, cm);
		pass |= (uint64_t)m << (8 * j);
	}
	return pass;
}

void
gfx_depth_rows_d16_avx2(const struct gfx_draw *d, const struct gfx_prim *p,
                        int32_t x, int32_t y, float *z, uint8_t *pass)
{
	const struct gfx_viewport *vp = &d->vp[p->viewport];
	const float dy0 = ((float)y + 0.5f) - p->ry;
	const float dy1 = ((float)(y + 1) + 0.5f) - p->ry;
	uint8_t *row0 = gfx_texel(&d->depth, x, y, p->layer * d->samples);
	uint8_t *row1 = row0 + d->depth.row_pitch;

	/* as the SSE2 path: the next block's rows, one cache line on */
	__builtin_prefetch(row0 + 64, 1);
	__builtin_prefetch(row1 + 64, 1);
	const __m256 z0 = row_depth8(p, x, dy0);
	const __m256 z1 = row_depth8(p, x, dy1);

	/* quad i's lanes: row 0's pixels 2i, 2i + 1, then row 1's */
	const __m256d q02 = _mm256_unpacklo_pd(_mm256_castps_pd(z0),
	                                       _mm256_castps_pd(z1));
	const __m256d q13 = _mm256_unpackhi_pd(_mm256_castps_pd(z0),
	                                       _mm256_castps_pd(z1));
	_mm256_storeu_pd((double *)(void *)z,
	                 _mm256_permute2f128_pd(q02, q13, 0x20));
	_mm256_storeu_pd((double *)(void *)(z + 8),
	                 _mm256_permute2f128_pd(q02, q13, 0x31));

	__m256 a0 = z0, a1 = z1;
	if (d->depth_clamp) {
		a0 = clamp8(a0, vp->zmin, vp->zmax);
		a1 = clamp8(a1, vp->zmin, vp->zmax);
	}
	a0 = clamp8(a0, 0.0f, 1.0f);
	a1 = clamp8(a1, 0.0f, 1.0f);
	const uint32_t m0 = row_d16(d, row0, a0, 0xffu);
	const uint32_t m1 = row_d16(d, row1, a1, 0xffu);

	for (uint32_t i = 0; i < 4; i++)
		pass[i] = (uint8_t)(((m0 >> (2 * i)) & 3u) |
		                    ((m1 >> (2 * i)) & 3u) << 2);
}
#endif
