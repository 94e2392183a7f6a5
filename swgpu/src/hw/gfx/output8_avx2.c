/* SPDX-License-Identifier: MIT */
/*
 * The fused UNORM kernel of output8_unorm.h on AVX2: two quads per
 * 8-lane vector (quads that are both whole; others go one at a time
 * through the 4-lane form). This file alone is compiled with -mavx2
 * (no -mfma: every product and sum is rounded on its own, as in
 * blend.c); it only runs when out8_have_avx2() said so.
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

#undef DECODE
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
#undef KERN
#undef LDPX
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
/* i / 255 in float, by a divide: unorm8.h's multiply form measured no
 * faster (the kernel is not bound by the divider) */
#define DECODE(i) _mm256_div_ps(_mm256_cvtepi32_ps(i), \
                                _mm256_set1_ps(255.0f))
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
