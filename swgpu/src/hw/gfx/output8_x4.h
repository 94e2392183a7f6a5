/* SPDX-License-Identifier: MIT */
/*
 * The 4-lane (one quad per __m128) vocabulary output8_kern.h is written
 * in, shared by the SSE2 kernel (output8_unorm.c) and the AVX2 file's
 * 4-lane form (output8_avx2.c, where the same intrinsics are
 * VEX-encoded): one text, two instruction sets. The includer defines
 * KERN() (the kernel's name prefix) and must have <emmintrin.h>.
 * Compares are the ordered SSE ones: a NaN compares false in both.
 */
#ifndef SWGPU_HW_GFX_OUTPUT8_X4_H
#define SWGPU_HW_GFX_OUTPUT8_X4_H

#define W 4u
#define VF __m128
#define VI __m128i
#define LDF(p) _mm_loadu_ps(p)
#define ADDF(a, b) _mm_add_ps(a, b)
#define SUBF(a, b) _mm_sub_ps(a, b)
#define MULF(a, b) _mm_mul_ps(a, b)
#define MINF(a, b) _mm_min_ps(a, b)
#define MAXF(a, b) _mm_max_ps(a, b)
#define SET1F(v) _mm_set1_ps(v)
#define ZEROF() _mm_setzero_ps()
#define CVTTF(a) _mm_cvttps_epi32(a)
#define CVTIF(a) _mm_cvtepi32_ps(a)
#define CMPGE(a, b) _mm_castps_si128(_mm_cmpge_ps(a, b))
#define CMPLT(a, b) _mm_castps_si128(_mm_cmplt_ps(a, b))
#define ADDI(a, b) _mm_add_epi32(a, b)
#define SUBI(a, b) _mm_sub_epi32(a, b)
#define ANDI(a, b) _mm_and_si128(a, b)
#define ORI(a, b) _mm_or_si128(a, b)
#define ANDNOTI(a, b) _mm_andnot_si128(a, b)
#define SLLI(a, n) _mm_slli_epi32(a, (int)(n))
#define SRLI(a, n) _mm_srli_epi32(a, (int)(n))
#define SET1I(v) _mm_set1_epi32(v)
/* i / 255 in float (= the decode table's (float)(i / 255.0)) */
#define DECODE(i) _mm_div_ps(_mm_cvtepi32_ps(i), _mm_set1_ps(255.0f))

static inline __m128i
x4_ldpx(const struct out8_job *j, uint32_t q)
{
	return _mm_unpacklo_epi64(_mm_loadl_epi64((const void *)j->row[q][0]),
	                          _mm_loadl_epi64((const void *)j->row[q][1]));
}

static inline void
x4_stpx(const struct out8_job *j, uint32_t q, __m128i v)
{
	_mm_storel_epi64((void *)j->row[q][0], v);
	_mm_storel_epi64((void *)j->row[q][1], _mm_unpackhi_epi64(v, v));
}

#endif
