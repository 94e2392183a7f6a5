/* SPDX-License-Identifier: MIT */
/*
 * Scalar helpers of the SIMT interpreter's lane loops (internal): each
 * defines a result for inputs SPIR-V leaves undefined, so no lane can
 * trap (see interp.c).
 */
#ifndef SWGPU_SHADER_INTERP_SCALAR_H
#define SWGPU_SHADER_INTERP_SCALAR_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "interp_util.h"

static inline int32_t
f2s(float f)
{
	if (f != f)
		return 0;
	if (f >= 2147483648.0f)
		return INT32_MAX;
	if (f < -2147483648.0f)
		return INT32_MIN;
	return (int32_t)f;
}

static inline uint32_t
f2u(float f)
{
	if (!(f > 0.0f))
		return 0;
	if (f >= 4294967296.0f)
		return UINT32_MAX;
	return (uint32_t)f;
}

static inline uint32_t
bfmask(uint32_t count)
{
	return count >= 32 ? UINT32_MAX : (1u << count) - 1;
}

static inline uint32_t
bfe(uint32_t v, uint32_t off, uint32_t count, bool sext)
{
	uint32_t r;

	off &= 31;
	if (count > 32 - off)
		count = 32 - off;
	if (!count)
		return 0;
	r = (v >> off) & bfmask(count);
	if (sext && count < 32 && (r >> (count - 1)) & 1)
		r |= ~bfmask(count);
	return r;
}

static inline uint32_t
bitrev(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
	return (v >> 16) | (v << 16);
}

static inline float
fsign(float f)
{
	return f > 0.0f ? 1.0f : f < 0.0f ? -1.0f : f;
}

/* min/max returning the other operand when one is a NaN, signalling
 * NaNs included (C's fminf returns a NaN for a signalling one, and
 * half-float NaNs come through widening with their signalling bit).
 * Between equal operands (+0 and -0) the first: SPIR-V allows either,
 * but glibc's fminf returns the second and GCC's inline one the first,
 * so a plain comparison keeps every path of the interpreter (interp.c's
 * NaN-free fast path) and the JIT (jit/jit_alu.c) bit for bit alike. */
static inline float
fmin_n(float a, float b)
{
	return isnan(a) ? b : isnan(b) ? a : a <= b ? a : b;
}

static inline float
fmax_n(float a, float b)
{
	return isnan(a) ? b : isnan(b) ? a : a >= b ? a : b;
}

static inline float
clampf(float v, float lo, float hi)
{
	return fmin_n(fmax_n(v, lo), hi);
}

static inline float
sstep(float e0, float e1, float v)
{
	float t = clampf((v - e0) / (e1 - e0), 0.0f, 1.0f);

	return t * t * (3.0f - 2.0f * t);
}

static inline uint32_t
dot4x8(uint32_t a, uint32_t b, uint32_t kind)
{
	int32_t acc = 0;

	for (int k = 0; k < 32; k += 8) {
		int32_t x = kind == 1 ? (int32_t)((a >> k) & 0xff)
		            : (int8_t)(a >> k);
		int32_t y = kind != 0 ? (int32_t)((b >> k) & 0xff)
		            : (int8_t)(b >> k);

		acc += x * y;
	}
	return (uint32_t)acc;
}

static inline int32_t
addsat_s(int32_t a, int32_t b)
{
	int64_t r = (int64_t)a + b;

	return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN
	       : (int32_t)r;
}

/* DenormFlushToZero (IR_FTZ): a float (width 32) or half (16) bit
 * pattern with a zero exponent field becomes the zero of its sign. */
static inline uint32_t
flush_denorm(uint32_t u, uint32_t width)
{
	if (width == 1)         /* IR_FTZ_HALF_IN_F32 */
		return (u & 0x7fffffffu) >= 0x38800000u || (u & 0x7f800000u)
		       == 0x7f800000u ? u : u & 0x80000000u;
	if (width == 16)
		return (u & 0x7c00u) ? u : u & 0x8000u;
	return (u & 0x7f800000u) ? u : u & 0x80000000u;
}

static inline float
frexp_m(float f)
{
	int e;

	return isfinite(f) ? frexpf(f, &e) : f;
}

static inline int32_t
frexp_e(float f)
{
	int e = 0;

	if (isfinite(f))
		frexpf(f, &e);
	return e;
}

static inline uint32_t
pack_n(float v, bool snorm, uint32_t bits)
{
	float s = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);
	int32_t i = (int32_t)roundf(snorm ? clampf(v, -1.0f, 1.0f) * s
	                                  : clampf(v, 0.0f, 1.0f) * s);

	return (uint32_t)i & bfmask(bits);
}

static inline float
unpack_n(uint32_t v, bool snorm, uint32_t bits, uint32_t comp)
{
	uint32_t raw = bfe(v, comp * bits, bits, snorm);
	float s = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);

	if (snorm)
		return clampf((float)(int32_t)raw / s, -1.0f, 1.0f);
	return (float)raw / s;
}

/* Device-memory atomics: atomic_op (32-bit) in interp_util.h. */

/* Shared memory belongs to one thread: plain read-modify-write. */
static inline uint32_t
shared_atomic(uint32_t *p, uint32_t kind, uint32_t v, uint32_t cmp)
{
	uint32_t old = *p;

	switch (kind) {
	case IR_AT_LOAD: return old;
	case IR_AT_STORE: *p = v; return 0;
	case IR_AT_XCHG: *p = v; break;
	case IR_AT_CMPXCHG: if (old == cmp) *p = v; break;
	case IR_AT_ADD: *p = old + v; break;
	case IR_AT_SUB: *p = old - v; break;
	case IR_AT_AND: *p = old & v; break;
	case IR_AT_OR: *p = old | v; break;
	case IR_AT_XOR: *p = old ^ v; break;
	case IR_AT_SMIN: *p = (int32_t)v < (int32_t)old ? v : old; break;
	case IR_AT_SMAX: *p = (int32_t)v > (int32_t)old ? v : old; break;
	case IR_AT_UMIN: *p = v < old ? v : old; break;
	case IR_AT_UMAX: *p = v > old ? v : old; break;
	case IR_AT_FADD: case IR_AT_FMIN: case IR_AT_FMAX:
		*p = (uint32_t)float_atomic_bits(kind, old, v, 4);
		break;
	}
	return old;
}

#endif
