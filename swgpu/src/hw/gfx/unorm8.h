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

#include <math.h>
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

/*
 * Blending on 8-bit UNORM targets is done in 8-bit fixed point
 * (blend_unorm8.c, and the SIMD kernels of output8_kern.h on 16-bit
 * lanes); these two steps are its definition, shared by both.
 *
 * unorm8_quantize: a blend input (source colour, dual-source colour,
 * blend constant) clamped to [0, 1] (NaN -> 0) and converted to 8 bits
 * as the SIMD code does it: the float product v * 255, rounded to
 * nearest even (cvtps2dq under the default rounding mode; lrintf here).
 * That is one of the two 8-bit values nearest to v * 255, which is all
 * the spec's float -> normalized conversion asks ("Conversion from
 * Floating-Point to Normalized Fixed-Point"); it differs from
 * unorm8_encode (the exact nearest, what a write without blending
 * stores) only where the product rounds onto a tie k + 0.5.
 */
static inline uint32_t
unorm8_quantize(float v)
{
	const float c = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
	return (uint32_t)lrintf(c * 255.0f);
}

/* round(x * f / 255) for x, f in 0..255, exactly (checked on every
 * pair by test_gfx_output8): with u = x * f + 128, (u * 257) >> 16. In
 * 16-bit lanes: mullo, add, mulhi_epu16. */
static inline uint32_t
unorm8_mul(uint32_t x, uint32_t f)
{
	return ((x * f + 128u) * 257u) >> 16;
}

#endif
