/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: double-precision instructions (IR_F64, capability
 * Float64) on register pairs, low word first (internal, called from
 * interp.c). Host doubles are IEEE binary64 with round-to-nearest-even
 * and denormals kept, which is what the device tells in its float
 * controls. Conversions to integers saturate and map NaN to 0, like
 * the 32-bit ones.
 */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("O3")
#endif

#include <fenv.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "interp_util.h"

static inline double
dbl(uint32_t lo, uint32_t hi)
{
	uint64_t b = (uint64_t)lo | (uint64_t)hi << 32;
	double v;

	memcpy(&v, &b, 8);
	return v;
}

static inline uint64_t
bits(double v)
{
	uint64_t b;

	memcpy(&b, &v, 8);
	return b;
}

static inline int32_t
d2s(double v)
{
	if (v != v)
		return 0;
	if (v >= 2147483647.0)
		return INT32_MAX;
	if (v <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)v;
}

static inline uint32_t
d2u(double v)
{
	if (!(v > 0.0))
		return 0;
	if (v >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t)v;
}

static inline double
dsign(double v)
{
	return v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : v;
}

/* One lane: a double result goes to *res (returns true), a 32-bit one
 * to *word (returns false). */
static inline bool
f64_lane(uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d,
         uint64_t *res, uint32_t *word)
{
	double x = dbl(a, b), y = dbl(c, d), r;

	switch ((enum ir_f64)op) {
	case IR_D_ADD: r = x + y; break;
	case IR_D_SUB: r = x - y; break;
	case IR_D_MUL: r = x * y; break;
	case IR_D_DIV: r = x / y; break;
	case IR_D_MIN: r = fmin(x, y); break;
	case IR_D_MAX: r = fmax(x, y); break;
	case IR_D_MOD: r = x - y * floor(x / y); break;
	case IR_D_REM: r = fmod(x, y); break;
	case IR_D_STEP: r = y < x ? 0.0 : 1.0; break;
	case IR_D_NEG: r = -x; break;
	case IR_D_ABS: r = fabs(x); break;
	case IR_D_FLOOR: r = floor(x); break;
	case IR_D_CEIL: r = ceil(x); break;
	case IR_D_TRUNC: r = trunc(x); break;
	case IR_D_FRACT: r = x - floor(x); break;
	case IR_D_SQRT: r = sqrt(x); break;
	case IR_D_RSQRT: r = 1.0 / sqrt(x); break;
	case IR_D_ROUND: r = round(x); break;
	case IR_D_ROUNDEVEN: r = rint(x); break;
	case IR_D_SIGN: r = dsign(x); break;
	case IR_D_FTZ:
		r = fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x;
		break;
	case IR_D_OEQ: *word = x == y; return false;
	case IR_D_ONE: *word = x < y || x > y; return false;
	case IR_D_OLT: *word = x < y; return false;
	case IR_D_OLE: *word = x <= y; return false;
	case IR_D_OGT: *word = x > y; return false;
	case IR_D_OGE: *word = x >= y; return false;
	case IR_D_UEQ: *word = !(x < y || x > y); return false;
	case IR_D_UNE: *word = x != y; return false;
	case IR_D_ULT: *word = !(x >= y); return false;
	case IR_D_ULE: *word = !(x > y); return false;
	case IR_D_UGT: *word = !(x <= y); return false;
	case IR_D_UGE: *word = !(x < y); return false;
	case IR_D_ISNAN: *word = x != x; return false;
	case IR_D_ISINF: *word = isinf(x) != 0; return false;
	case IR_D_FROM_F: {
		float f;

		memcpy(&f, &a, 4);
		r = f;
		break;
	}
	case IR_D_FROM_S: r = (int32_t)a; break;
	case IR_D_FROM_U: r = a; break;
	case IR_D_FROM_S64: r = (double)(int64_t)((uint64_t)a |
	                                         (uint64_t)b << 32); break;
	case IR_D_FROM_U64: r = (double)((uint64_t)a | (uint64_t)b << 32);
		break;
	case IR_D_TO_F:
	case IR_D_TO_F_RTZ:
	case IR_D_TO_F_ODD: {
		float f = (float)x;

		/* toward zero: one step back when nearest rounded away
		 * (a finite double past FLT_MAX gives FLT_MAX); to odd:
		 * toward zero, the last bit set when inexact */
		if (op != IR_D_TO_F && fabs((double)f) > fabs(x))
			f = nextafterf(f, 0.0f);
		if (op == IR_D_TO_F_ODD && !isnan(x) && (double)f != x) {
			uint32_t u;

			memcpy(&u, &f, 4);
			u |= 1;
			memcpy(&f, &u, 4);
		}

		memcpy(word, &f, 4);
		return false;
	}
	case IR_D_TO_S: *word = (uint32_t)d2s(x); return false;
	case IR_D_TO_U: *word = d2u(x); return false;
	case IR_D_TO_S64: *res = (uint64_t)d2s64(x); return true;
	case IR_D_TO_U64: *res = d2u64(x); return true;
	default: r = 0.0; break;
	}
	*res = bits(r);
	return true;
}

void
interp_f64(struct ir_exec *e, const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	const uint8_t *m = e->mask;
	lane_t *D = e->regs + (size_t)in->dst * W;
	const lane_t *A = e->regs + (size_t)in->a * W;
	const lane_t *B = e->regs + (size_t)in->b * W;
	const lane_t *C = e->regs + (size_t)in->c * W;
	const lane_t *Dd = e->regs + (size_t)in->d * W;
	const uint32_t op = in->aux2;
	/* RoundingModeRTZ (imm IR_RND_RTZ): the host rounds toward zero
	 * for this instruction (the file is built with -frounding-math) */
	const int old = in->imm == IR_RND_RTZ ? fegetround() : 0;

	if (in->imm == IR_RND_RTZ)
		fesetround(FE_TOWARDZERO);
	LANES({
		uint64_t r = 0;
		uint32_t w = 0;

		if (f64_lane(op, A[l].u, B[l].u, C[l].u, Dd[l].u, &r, &w)) {
			D[l].u = (uint32_t)r;
			D[l + W].u = (uint32_t)(r >> 32);
		} else {
			D[l].u = w;
		}
	});
	if (in->imm == IR_RND_RTZ)
		fesetround(old);
}
