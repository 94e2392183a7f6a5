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
#define CVTNF(a) _mm_cvtps_epi32(a)
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
#define SET1I64(v) _mm_set1_epi64x(v)
#define ADD16(a, b) _mm_add_epi16(a, b)
#define SUB16(a, b) _mm_sub_epi16(a, b)
#define MULLO16(a, b) _mm_mullo_epi16(a, b)
#define MULHI16U(a, b) _mm_mulhi_epu16(a, b)
#define MIN16(a, b) _mm_min_epi16(a, b)
#define MAX16(a, b) _mm_max_epi16(a, b)
#define SET1_16(v) _mm_set1_epi16(v)
#define SHUFLO16(a, i) _mm_shufflelo_epi16(a, i)
#define SHUFHI16(a, i) _mm_shufflehi_epi16(a, i)
#define UNPLO8(a, b) _mm_unpacklo_epi8(a, b)
#define UNPHI8(a, b) _mm_unpackhi_epi8(a, b)
#define PACKUS16(a, b) _mm_packus_epi16(a, b)

/* a quad's pixels: its row 0 (2 pixels at r0), then row 1 */
static inline __m128i
x4_ldrows(const uint8_t *r0, const uint8_t *r1)
{
	return _mm_unpacklo_epi64(_mm_loadl_epi64((const void *)r0),
	                          _mm_loadl_epi64((const void *)r1));
}

static inline void
x4_strows(uint8_t *r0, uint8_t *r1, __m128i v)
{
	_mm_storel_epi64((void *)r0, v);
	_mm_storel_epi64((void *)r1, _mm_unpackhi_epi64(v, v));
}

static inline __m128i
x4_ldpx(const struct out8_job *j, uint32_t q)
{
	return x4_ldrows(j->row[q][0], j->row[q][1]);
}

static inline void
x4_stpx(const struct out8_job *j, uint32_t q, __m128i v)
{
	x4_strows(j->row[q][0], j->row[q][1], v);
}

#define LDROWS(r0, r1) x4_ldrows(r0, r1)
#define STROWS(r0, r1, v) x4_strows(r0, r1, v)

#endif
