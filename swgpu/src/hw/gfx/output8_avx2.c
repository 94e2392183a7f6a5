/* SPDX-License-Identifier: MIT */
/*
 * The fused UNORM kernel of output8_unorm.h on AVX2: two quads per
 * 8-lane vector (quads that are both whole; others go one at a time
 * through the 4-lane form). This file alone is compiled with -mavx2
 * (no -mfma: the kernel has no float product-and-sum; keeping
 * FMA out keeps the file to what out8_have_avx2() checks); it only runs when out8_have_avx2() said so.
 */
#include "hw/gfx/output8_unorm.h"

#if defined(__AVX2__)
#include <immintrin.h>

/* ---- 4 lanes (VEX-encoded SSE), one quad ---- */
#include "hw/gfx/output8_x4.h"
#define KERN(name) x4_##name

static inline __m128i
x4_keep(uint32_t m)
{
	return _mm_set_epi32(m & 8 ? 0 : -1, m & 4 ? 0 : -1, m & 2 ? 0 : -1,
	                     m & 1 ? 0 : -1);
}

#define LDPX(j, q) x4_ldpx(j, q)
#define STPX(j, q, v) x4_stpx(j, q, v)
#define KEEPMASK(j, q) x4_keep((j)->qmask[q])
#define KPARTIAL(j, q) ((j)->qmask[q] != 0xf)

#define OUT8_KERN_QUADS_ONLY
#include "hw/gfx/output8_kern.h"
#undef OUT8_KERN_QUADS_ONLY

#undef W
#undef VF
#undef VI
#undef LDF
#undef ADDF
#undef SUBF
#undef MULF
#undef DIVF
#undef MINF
#undef MAXF
#undef SET1F
#undef ZEROF
#undef CVTTF
#undef CVTIF
#undef CMPGE
#undef CMPLT
#undef ADDI
#undef SUBI
#undef ANDI
#undef ORI
#undef ANDNOTI
#undef SLLI
#undef SRLI
#undef SET1I
#undef PACKUS16
#undef UNPHI8
#undef UNPLO8
#undef SHUFHI16
#undef SHUFLO16
#undef SET1_16
#undef MAX16
#undef MIN16
#undef MULHI16U
#undef MULLO16
#undef SUB16
#undef ADD16
#undef SET1I64
#undef CVTNF
#undef KERN
#undef LDPX
#undef LDROWS
#undef STROWS
#undef STPX
#undef KEEPMASK
#undef KPARTIAL

/* ---- 8 lanes, quads q and q + 1 ---- */
#define W 8u
#define VF __m256
#define VI __m256i
#define LDF(p) _mm256_loadu_ps(p)
#define ADDF(a, b) _mm256_add_ps(a, b)
#define SUBF(a, b) _mm256_sub_ps(a, b)
#define MULF(a, b) _mm256_mul_ps(a, b)
#define MINF(a, b) _mm256_min_ps(a, b)
#define MAXF(a, b) _mm256_max_ps(a, b)
#define SET1F(v) _mm256_set1_ps(v)
#define ZEROF() _mm256_setzero_ps()
#define CVTTF(a) _mm256_cvttps_epi32(a)
#define CVTNF(a) _mm256_cvtps_epi32(a)
#define CVTIF(a) _mm256_cvtepi32_ps(a)
#define CMPGE(a, b) _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_GE_OQ))
#define CMPLT(a, b) _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_LT_OQ))
#define ADDI(a, b) _mm256_add_epi32(a, b)
#define SUBI(a, b) _mm256_sub_epi32(a, b)
#define ANDI(a, b) _mm256_and_si256(a, b)
#define ORI(a, b) _mm256_or_si256(a, b)
#define ANDNOTI(a, b) _mm256_andnot_si256(a, b)
#define SLLI(a, n) _mm256_slli_epi32(a, (int)(n))
#define SRLI(a, n) _mm256_srli_epi32(a, (int)(n))
#define SET1I(v) _mm256_set1_epi32(v)
#define SET1I64(v) _mm256_set1_epi64x(v)
#define ADD16(a, b) _mm256_add_epi16(a, b)
#define SUB16(a, b) _mm256_sub_epi16(a, b)
#define MULLO16(a, b) _mm256_mullo_epi16(a, b)
#define MULHI16U(a, b) _mm256_mulhi_epu16(a, b)
#define MIN16(a, b) _mm256_min_epi16(a, b)
#define MAX16(a, b) _mm256_max_epi16(a, b)
#define SET1_16(v) _mm256_set1_epi16(v)
#define SHUFLO16(a, i) _mm256_shufflelo_epi16(a, i)
#define SHUFHI16(a, i) _mm256_shufflehi_epi16(a, i)
#define UNPLO8(a, b) _mm256_unpacklo_epi8(a, b)
#define UNPHI8(a, b) _mm256_unpackhi_epi8(a, b)
#define PACKUS16(a, b) _mm256_packus_epi16(a, b)
#define KERN(name) x8_##name
#define KERN1(name) x4_##name

static inline __m256i
x8_ldpx(const struct out8_job *j, uint32_t q)
{
	return _mm256_set_m128i(x4_ldpx(j, q + 1), x4_ldpx(j, q));
}

static inline void
x8_stpx(const struct out8_job *j, uint32_t q, __m256i v)
{
	x4_stpx(j, q, _mm256_castsi256_si128(v));
	x4_stpx(j, q + 1, _mm256_extracti128_si256(v, 1));
}

/* two quads side by side: 4 pixels of row 0 at r0, 4 of row 1 at r1,
 * in the lane order of two quads (each one's row 0, then row 1) */
static inline __m256i
x8_ldrows(const uint8_t *r0, const uint8_t *r1)
{
	const __m256i v = _mm256_set_m128i(
		_mm_loadu_si128((const void *)r1),
		_mm_loadu_si128((const void *)r0));
	return _mm256_permute4x64_epi64(v, 0xd8);   /* 64-bit 0 2 1 3 */
}

static inline void
x8_strows(uint8_t *r0, uint8_t *r1, __m256i v)
{
	const __m256i w = _mm256_permute4x64_epi64(v, 0xd8);
	_mm_storeu_si128((void *)r0, _mm256_castsi256_si128(w));
	_mm_storeu_si128((void *)r1, _mm256_extracti128_si256(w, 1));
}

#define LDROWS(r0, r1) x8_ldrows(r0, r1)
#define STROWS(r0, r1, v) x8_strows(r0, r1, v)
#define LDPX(j, q) x8_ldpx(j, q)
#define STPX(j, q, v) x8_stpx(j, q, v)
#define KEEPMASK(j, q) _mm256_set_m128i(x4_keep((j)->qmask[(q) + 1]), \
                                        x4_keep((j)->qmask[q]))
#define KPARTIAL(j, q) (((j)->qmask[q] & (j)->qmask[(q) + 1]) != 0xf)

#include "hw/gfx/output8_kern.h"

void
out8_run_avx2(const struct out8_job *j)
{
	x8_run(j);
}
#else
void
out8_run_avx2(const struct out8_job *j)
{
	out8_run_sse2(j);
}
#endif
