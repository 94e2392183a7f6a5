/* SPDX-License-Identifier: MIT */
/*
 * Half-float conversions of the interpreter (Float16 values, packHalf2x16,
 * QuantizeToF16): round to nearest even (or toward zero where asked),
 * denormals, infinities and NaNs kept. Inline, since they run inside
 * the lane loops.
 */
#ifndef SWGPU_INTERP_HALF_H
#define SWGPU_INTERP_HALF_H

#include <math.h>
#include <stdint.h>

static inline uint16_t
interp_f32_to_f16(float f)
{
	union { float f; uint32_t u; } v = { .f = f };
	uint32_t sign = (v.u >> 16) & 0x8000u;
	uint32_t exp = (v.u >> 23) & 0xff, mant = v.u & 0x7fffffu;
	int32_t e;

	if (exp == 0xff)
		return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
	e = (int32_t)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (e <= 0) {
		uint32_t shift;

		if (e < -10)
			return (uint16_t)sign;
		mant |= 0x800000u;
		shift = (uint32_t)(14 - e);
		{
			uint32_t h = mant >> shift;
			uint32_t rem = mant & ((1u << shift) - 1);
			uint32_t half = 1u << (shift - 1);

			if (rem > half || (rem == half && (h & 1)))
				h++;
			return (uint16_t)(sign | h);
		}
	}
	{
		uint32_t h = ((uint32_t)e << 10) | (mant >> 13);
		uint32_t rem = mant & 0x1fffu;

		if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
			h++;   /* may carry into the exponent: still right */
		return (uint16_t)(sign | h);
	}
}

static inline float
interp_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
	union { float f; uint32_t u; } v;

	if (exp == 0) {
		float f = ldexpf((float)mant, -24);

		return sign ? -f : f;
	}
	if (exp == 31)
		v.u = sign | 0x7f800000u | (mant << 13);
	else
		v.u = sign | ((exp - 15 + 127) << 23) | (mant << 13);
	return v.f;
}

/* Toward zero: the nearest conversion, one step back toward zero when
 * it rounded away from it (a finite float past the largest half gives
 * the largest half, 0x7bff; infinities and NaN stay). */
static inline uint16_t
interp_f32_to_f16_rtz(float f)
{
	uint16_t h = interp_f32_to_f16(f);
	float back;

	if (isnan(f) || isinf(f))
		return h;
	back = interp_f16_to_f32(h);
	if (fabsf(back) > fabsf(f))
		h--;    /* the next half toward zero, either sign */
	return h;
}

/* mode: IR_PACKH2's aux2 (1: toward zero, else nearest even) */
static inline uint16_t
interp_f32_to_f16_mode(float f, uint32_t mode)
{
	return mode == 1 ? interp_f32_to_f16_rtz(f) : interp_f32_to_f16(f);
}

/* OpQuantizeToF16: the value rounded to half precision, a result too
 * small for a normal half flushed to a zero of its sign (the SPIR-V
 * spec's rule, whatever the denormal mode). */
static inline float
interp_quantize_f16(float f)
{
	uint16_t h = interp_f32_to_f16(f);

	if ((h & 0x7c00u) == 0)
		h &= 0x8000u;
	return interp_f16_to_f32(h);
}

#endif /* SWGPU_INTERP_HALF_H */
