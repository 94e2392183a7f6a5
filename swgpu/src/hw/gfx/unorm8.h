/* SPDX-License-Identifier: MIT */
/*
 * Exact 8-bit UNORM encoding in float, without doubles: the same value
 * as the format encoder's (int)((double)v * 255 + 0.5), so SIMD code
 * can use it lane by lane (same IEEE operations, 8 lanes where doubles
 * give 4) and keep every byte. test_gfx_output8 checks it against the
 * reference formula on every float in [0, 1].
 */
#ifndef SWGPU_GFX_UNORM8_H
#define SWGPU_GFX_UNORM8_H

#include <stdint.h>

/* round(v * 255) for v in [0, 1], as the format encoder's
 * (int)((double)v * 255.0 + 0.5) but in float: with a = v * 256 (exact)
 * and A = floor(a), f = a - A (exact), v * 255 = A + (f - v) exactly, so
 * the rounded value is A, plus 1 when f - v >= 1/2 (f - 0.5 >= v, both
 * sides exact), minus 1 when f - v < -1/2 (f + 0.5 < v, exact when it
 * can hold). The only tie a float has, v = 0.5 (127.5), rounds up in
 * both. */
static inline uint32_t
unorm8_encode(float v)
{
	const float a = v * 256.0f;
	const int32_t ia = (int32_t)a;
	const float f = a - (float)ia;
	return (uint32_t)(ia + (f - 0.5f >= v) - (f + 0.5f < v));
}

#endif
