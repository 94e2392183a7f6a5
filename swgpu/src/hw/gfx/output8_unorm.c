/* SPDX-License-Identifier: MIT */
/*
 * The fused UNORM path of output8.c (see output8_unorm.h): SSE2 kernel
 * (one quad per vector), the scalar pixel path for edge quads and
 * builds without SSE2, and the run-time choice of the AVX2 kernel.
 */
#include "hw/gfx/output8_unorm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void
out8_quad_scalar(const struct out8_job *j, uint32_t q)
{
	for (uint32_t i = 0; i < 4; i++) {
		if (!(j->qmask[q] & (1u << i)))
			continue;
		const uint32_t l = 4 * q + i;
		uint8_t *p = j->row[q][i >> 1] + 4 * (i & 1);
		uint32_t px;
		float s[4], s1[4];
		uint8_t dst[4], o[4];

		memcpy(&px, p, 4);
		for (uint32_t c = 0; c < 4; c++) {
			s[c] = j->src[c][l];
			s1[c] = j->src1[0] ? j->src1[c][l] : 0.0f;
			dst[c] = (uint8_t)(px >> j->sh[c]);
		}
		if (j->blend) {
			gfx_blend_unorm8(&j->b, j->blend_const, s, s1, dst, o);
		} else {
			for (uint32_t c = 0; c < 4; c++) {
				const float v = s[c] > 0.0f
				                ? (s[c] < 1.0f ? s[c] : 1.0f)
				                : 0.0f;   /* NaN -> 0 */
				o[c] = (uint8_t)unorm8_encode(v);
			}
		}
		px = 0;
		for (uint32_t c = 0; c < 4; c++)
			px |= (uint32_t)o[c] << j->sh[c];
		memcpy(p, &px, 4);
	}
}

#if defined(__SSE2__)
#include "hw/gfx/output8_x4.h"
#define KERN(name) sse2_##name

static inline __m128i
sse2_keep(const struct out8_job *j, uint32_t q)
{
	const uint32_t m = j->qmask[q];
	return _mm_set_epi32(m & 8 ? 0 : -1, m & 4 ? 0 : -1, m & 2 ? 0 : -1,
	                     m & 1 ? 0 : -1);
}

#define LDPX(j, q) x4_ldpx(j, q)
#define STPX(j, q, v) x4_stpx(j, q, v)
#define KEEPMASK(j, q) sse2_keep(j, q)
#define KPARTIAL(j, q) ((j)->qmask[q] != 0xf)

#include "hw/gfx/output8_kern.h"
#endif

void
out8_run_sse2(const struct out8_job *j)
{
#if defined(__SSE2__)
	sse2_run(j);
#else
	for (uint32_t q = 0; q < j->nq; q++)
		if (j->qmask[q])
			out8_quad_scalar(j, q);
#endif
}

static bool have_avx2;
static pthread_once_t avx2_once = PTHREAD_ONCE_INIT;

static void
avx2_probe(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* SWGPU_GFX_AVX2=0: the SSE2 kernel (same bytes; for comparing) */
	const char *e = getenv("SWGPU_GFX_AVX2");
	__builtin_cpu_init();
	have_avx2 = __builtin_cpu_supports("avx2") && !(e && e[0] == '0');
#endif
}

bool
out8_have_avx2(void)
{
	pthread_once(&avx2_once, avx2_probe);
	return __atomic_load_n(&have_avx2, __ATOMIC_RELAXED);
}

bool
out8_use_avx2(bool on)
{
	bool cpu = false;

	pthread_once(&avx2_once, avx2_probe);
#if defined(__x86_64__) || defined(__i386__)
	cpu = __builtin_cpu_supports("avx2");
#endif
	__atomic_store_n(&have_avx2, on && cpu, __ATOMIC_RELAXED);
	return on && cpu;
}
