/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: float arithmetic and conversions rounding toward
 * zero (the RoundingModeRTZ execution mode; the translator turns them
 * into IR_RTZ with the instruction in imm, xlate_fpmode.c, so ordinary
 * shaders pay nothing for it). The lane loop runs with the
 * host rounding mode switched to toward-zero, which add, sub, mul, div,
 * fma and the int -> float conversions follow. This file is compiled
 * with -frounding-math so that the compiler neither folds nor moves the
 * arithmetic across the mode switch.
 */
#include <fenv.h>
#include <math.h>

#include "interp_util.h"

void
interp_rtz(struct ir_exec *e, const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	const uint8_t *m = e->mask;
	lane_t *D = e->regs + (size_t)in->dst * W;
	const lane_t *A = e->regs + (size_t)in->a * W;
	const lane_t *B = e->regs + (size_t)in->b * W;
	const lane_t *C = e->regs + (size_t)in->c * W;
	const int old = fegetround();

	fesetround(FE_TOWARDZERO);
	switch ((enum ir_op)in->imm) {
	case IR_FADD: LANES(D[l].f = A[l].f + B[l].f); break;
	case IR_FSUB: LANES(D[l].f = A[l].f - B[l].f); break;
	case IR_FMUL: LANES(D[l].f = A[l].f * B[l].f); break;
	case IR_FDIV: LANES(D[l].f = A[l].f / B[l].f); break;
	case IR_FMA: LANES(D[l].f = fmaf(A[l].f, B[l].f, C[l].f)); break;
	case IR_S2F: LANES(D[l].f = (float)A[l].i); break;
	case IR_U2F: LANES(D[l].f = (float)A[l].u); break;
	case IR_S64TOF:
		LANES(D[l].f = (float)(int64_t)((uint64_t)A[l].u |
		                                (uint64_t)B[l].u << 32));
		break;
	case IR_U64TOF:
		LANES(D[l].f = (float)((uint64_t)A[l].u |
		                       (uint64_t)B[l].u << 32));
		break;
	default:        /* the translator makes no other */
		break;
	}
	fesetround(old);
}
