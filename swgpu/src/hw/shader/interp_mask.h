/* SPDX-License-Identifier: MIT */
/*
 * Lane masks without helper lanes: dst[l] = a[l] && b[l] (1 or 0) over n
 * lanes. Run before every compiled segment and after every frame call
 * of a batch with helper lanes (jit_run.c, jit_ext_lanes.c) and for the
 * interpreter's memory writes (interp.c): as a byte loop through e-> it
 * was 8 % of vkcube's CPU (dst may alias a, so the compiler reloaded
 * every pointer per lane). dst may be a or b (same index only).
 */
#ifndef SWGPU_SHADER_INTERP_MASK_H
#define SWGPU_SHADER_INTERP_MASK_H

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline void
interp_mask_and(uint8_t *dst, const uint8_t *a, const uint8_t *b,
                uint32_t n)
{
	uint32_t l = 0;

#if defined(__SSE2__)
	const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);

	/* a byte of either at 0 gives 0, else 1: any non-zero byte is
	 * true, as in the scalar loop */
	for (; l + 16 <= n; l += 16) {
		const __m128i va = _mm_loadu_si128((const void *)(a + l));
		const __m128i vb = _mm_loadu_si128((const void *)(b + l));
		const __m128i off = _mm_or_si128(_mm_cmpeq_epi8(va, zero),
		                                 _mm_cmpeq_epi8(vb, zero));

		_mm_storeu_si128((void *)(dst + l), _mm_andnot_si128(off, one));
	}
#endif
	for (; l < n; l++)
		dst[l] = a[l] && b[l];
}

#endif
