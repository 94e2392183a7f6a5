/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: the DenormFlushToZero and RoundingModeRTZ
 * execution modes.
 *
 * The engine computes in host IEEE arithmetic, which keeps denormals
 * (DenormPreserve, the default). With DenormFlushToZero for a width,
 * denormal operands and results of that width of every floating-point
 * instruction become zeros of their sign: an IR_FTZ (16- and 32-bit
 * registers) or IR_D_FTZ (64-bit pairs) on each operand before the
 * instruction (its ids point at the flushed copies while it is
 * translated, as xlate_narrow.c does for widened operands) and on its
 * result after it. Instructions that only move values (composites,
 * copies, selects, bitcasts, shuffles and broadcasts across lanes) are
 * not floating-point instructions and keep their bits. Half-float
 * arithmetic runs on floats, so its result is flushed once it is a half
 * again (after xlate_narrow.c's repacking). UnpackHalf2x16 works on
 * 16-bit floats (the CTS declares its mode for 16 bits): it flushes the
 * half denormals it unpacks when 16-bit denormals flush.
 *
 * With RoundingModeRTZ for a width, the correctly rounded instructions
 * emitted for a value instruction whose result has that width (add,
 * sub, mul, div, fma, int -> float conversions) become IR_RTZ, and the
 * rounding of a half result and every double operation are marked
 * IR_RND_RTZ; the interpreter runs them with the host rounding toward
 * zero (interp_rtz.c, interp_f64.c). A half's float arithmetic then rounds
 * twice toward zero, which is rounding once.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static bool
moves_only(uint32_t op)
{
	switch (op) {
	case SpvOpCompositeConstruct: case SpvOpCompositeExtract:
	case SpvOpCompositeInsert: case SpvOpVectorShuffle:
	case SpvOpCopyObject: case SpvOpCopyLogical: case SpvOpSelect:
	case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic:
	case SpvOpUndef: case SpvOpBitcast: case SpvOpTranspose:
	case SpvOpGroupNonUniformBroadcast:
	case SpvOpGroupNonUniformBroadcastFirst:
	case SpvOpGroupNonUniformShuffle:
	case SpvOpGroupNonUniformShuffleXor:
	case SpvOpGroupNonUniformShuffleUp:
	case SpvOpGroupNonUniformShuffleDown:
	case SpvOpGroupNonUniformQuadBroadcast:
	case SpvOpGroupNonUniformQuadSwap:
	case SpvOpSubgroupFirstInvocationKHR:
	case SpvOpSubgroupReadInvocationKHR:
		return true;
	default:
		return false;
	}
}

/* The width of a float type whose denormals flush, else 0. */
static uint32_t
ftz_width(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, xl_scalar_type(x, type));
	uint32_t bit;

	if (t->op != SpvOpTypeFloat)
		return 0;
	bit = t->width == 16 ? XL_FTZ16 : t->width == 32 ? XL_FTZ32
	                                                 : XL_FTZ64;
	return x->ftz_widths & bit ? t->width : 0;
}

/* v's registers (a value of width w) flushed into r. */
static void
flush_regs(struct xl *x, const struct vals *v, uint32_t w, uint32_t *r)
{
	if (w == 64) {
		for (uint32_t i = 0; i + 1 < v->n; i += 2) {
			uint32_t d = xl_new_regs(x, 2);

			xl_instr(x, xl_emit(x, IR_F64, d, v->r[i], v->r[i + 1],
			                    0))->aux2 = IR_D_FTZ;
			r[i] = d;
			r[i + 1] = d + 1;
		}
	} else {
		for (uint32_t i = 0; i < v->n; i++) {
			r[i] = xl_emit1(x, IR_FTZ, v->r[i], 0, 0);
			xl_instr(x, x->p->ninstr - 1)->aux2 = (uint8_t)w;
		}
	}
}

uint32_t
xl_denorm_flush_inputs(struct xl *x, const uint32_t *in, uint32_t wc,
                       struct xl_saved_id *saved)
{
	uint32_t op = in[0] & 0xffff, first = 3, n = 0;

	if (op == SpvOpExtInst)
		first = 5;
	if (wc < first || moves_only(op))
		return 0;
	for (uint32_t i = first; i < wc && n < XL_FTZ_MAX_OPS; i++) {
		const struct xid *d;
		uint32_t w, r[MAXV];
		struct vals v;
		bool seen = false;

		if (in[i] == 0 || in[i] >= x->bound)
			continue;
		d = &x->ids[in[i]];
		if ((d->kind != XK_VALUE && d->kind != XK_CONST) ||
		    !xl_type(x, d->type)->scalars ||
		    xl_type(x, d->type)->scalars > MAXV ||
		    !(w = ftz_width(x, d->type)))
			continue;
		for (uint32_t k = 0; k < n; k++)
			seen |= saved[k].id == in[i];
		if (seen)
			continue;
		xl_getv(x, in[i], &v);
		flush_regs(x, &v, w, r);
		saved[n].id = in[i];
		saved[n++].d = *d;
		xl_set_val(x, in[i], d->type, r, v.n);
	}
	return n;
}

void
xl_denorm_restore(struct xl *x, const struct xl_saved_id *saved, uint32_t n)
{
	while (n--)
		x->ids[saved[n].id] = saved[n].d;
}

void
xl_denorm_flush(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t w, r[MAXV];
	struct vals v;

	if (wc < 3 || moves_only(in[0] & 0xffff) || in[1] >= x->bound ||
	    in[2] >= x->bound || xl_id(x, in[1])->kind != XK_TYPE ||
	    x->ids[in[2]].kind != XK_VALUE)
		return;
	xl_getv(x, in[2], &v);
	if ((in[0] & 0xffff) == SpvOpExtInst && wc > 4 &&
	    in[4] == GLSLstd450UnpackHalf2x16 && (x->ftz_widths & XL_FTZ16)) {
		/* the unpacked halves' denormals: below 2^-14 */
		for (uint32_t i = 0; i < v.n; i++) {
			r[i] = xl_emit1(x, IR_FTZ, v.r[i], 0, 0);
			xl_instr(x, x->p->ninstr - 1)->aux2 = IR_FTZ_HALF_IN_F32;
		}
		xl_set_val(x, in[2], in[1], r, v.n);
		return;
	}
	if (!(w = ftz_width(x, in[1])))
		return;
	flush_regs(x, &v, w, r);
	xl_set_val(x, in[2], in[1], r, v.n);
}

void
xl_rtz_mark(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t start)
{
	const struct xtype *t;
	uint32_t bit;

	if (wc < 3 || in[1] >= x->bound || xl_id(x, in[1])->kind != XK_TYPE)
		return;
	t = xl_type(x, xl_scalar_type(x, in[1]));
	if (t->op != SpvOpTypeFloat)
		return;
	bit = t->width == 16 ? XL_FTZ16 : t->width == 32 ? XL_FTZ32
	                                                 : XL_FTZ64;
	if (!(x->rtz_widths & bit))
		return;
	for (uint32_t k = start; k < x->p->ninstr; k++) {
		struct ir_instr *i = xl_instr(x, k);

		switch (i->op) {
		case IR_FADD: case IR_FSUB: case IR_FMUL: case IR_FDIV:
		case IR_FMA: case IR_S2F: case IR_U2F: case IR_S64TOF:
		case IR_U64TOF:
			i->imm = i->op;
			i->op = IR_RTZ;
			break;
		case IR_PACKH2:
			i->aux2 = IR_RND_RTZ;
			break;
		case IR_F64:
			i->imm = IR_RND_RTZ;
			break;
		default:
			break;
		}
	}
}
