/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: 8- and 16-bit integers and 16-bit floats
 * (capabilities Int8, Int16, Float16 and the 8/16-bit storage ones).
 *
 * A narrow integer lives in one 32-bit register, zero-extended; a half
 * float as its 16 bits, zero-extended. Half-float arithmetic is float
 * arithmetic: operands are widened to float, the ordinary translation
 * runs, and a half result is rounded back to nearest even (float has
 * enough bits that add, sub, mul, div and sqrt stay correctly rounded).
 * For integers, most
 * instructions then need nothing new: the ordinary 32-bit translation
 * runs, and a result of a narrow type is masked back to its width (wrap
 * on overflow). Instructions that read their operands as signed
 * (signed division, comparison, arithmetic shift, sign extension, ...)
 * first see the operands sign-extended: the operand ids are pointed at
 * sign-extended copies for the duration of the ordinary translation.
 * Bitcasts that change the component count (u8vec4 <-> uint, ...)
 * repack bits here. Loads and stores of 1 or 2 bytes are in
 * xlate_mem.c.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static uint32_t
scalar_width(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, xl_scalar_type(x, type));

	return t->op == SpvOpTypeInt || t->op == SpvOpTypeFloat ? t->width
	                                                         : 32;
}

static bool
is_float_type(struct xl *x, uint32_t type)
{
	return xl_type(x, xl_scalar_type(x, type))->op == SpvOpTypeFloat;
}

/* Width of a narrow integer or half-float id (8 or 16), else 0. */
static uint32_t
narrow_id(struct xl *x, uint32_t id)
{
	const struct xid *d;
	uint32_t w;

	if (id == 0 || id >= x->bound)
		return 0;
	d = &x->ids[id];
	if ((d->kind != XK_VALUE && d->kind != XK_CONST) ||
	    !xl_type(x, d->type)->scalars)
		return 0;
	w = scalar_width(x, d->type);
	return w < 32 ? w : 0;
}

static bool
reads_signed(uint32_t op, bool ext, uint32_t inst)
{
	if (ext)
		return inst == GLSLstd450SAbs || inst == GLSLstd450SSign ||
		       inst == GLSLstd450SMin || inst == GLSLstd450SMax ||
		       inst == GLSLstd450SClamp ||
		       inst == GLSLstd450FindSMsb;
	switch (op) {
	case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod:
	case SpvOpShiftRightArithmetic: case SpvOpSLessThan:
	case SpvOpSLessThanEqual: case SpvOpSGreaterThan:
	case SpvOpSGreaterThanEqual: case SpvOpSConvert:
	case SpvOpConvertSToF: case SpvOpGroupNonUniformSMin:
	case SpvOpGroupNonUniformSMax:
		return true;
	default:
		return false;
	}
}

/* Results that only move registers (or keep zero-extension) need no
 * mask. */
static bool
keeps_width(uint32_t op)
{
	switch (op) {
	case SpvOpCompositeConstruct: case SpvOpCompositeExtract:
	case SpvOpCompositeInsert: case SpvOpVectorShuffle:
	case SpvOpCopyObject: case SpvOpCopyLogical: case SpvOpSelect:
	case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic:
	case SpvOpUndef: case SpvOpBitwiseAnd: case SpvOpBitwiseOr:
	case SpvOpBitwiseXor: case SpvOpShiftRightLogical:
	case SpvOpGroupNonUniformBroadcast:
	case SpvOpGroupNonUniformBroadcastFirst:
	case SpvOpGroupNonUniformShuffle:
	case SpvOpGroupNonUniformShuffleXor:
	case SpvOpGroupNonUniformShuffleUp:
	case SpvOpGroupNonUniformShuffleDown:
	case SpvOpGroupNonUniformQuadBroadcast:
	case SpvOpGroupNonUniformQuadSwap:
	case SpvOpGroupNonUniformRotateKHR:
	case SpvOpSubgroupFirstInvocationKHR:
	case SpvOpSubgroupReadInvocationKHR:
		return true;
	default:
		return false;
	}
}

/* Bitcast between types of the same size with different component
 * widths: split into / join from 8, 16 or 32-bit pieces (a 64-bit
 * component is two 32-bit pieces). */
static void
bitcast(struct xl *x, const uint32_t *in)
{
	struct vals v;
	uint32_t ws = scalar_width(x, xl_id(x, in[3])->type);
	uint32_t wd = scalar_width(x, in[1]);
	uint32_t ps = ws > 32 ? 32 : ws, pd = wd > 32 ? 32 : wd;
	uint32_t r[MAXV], n = 0, total;

	xl_getv(x, in[3], &v);
	total = v.n * ps;               /* bits */
	if (total % pd || total / pd > 16)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad bitcast size");
	for (uint32_t j = 0; j < total / pd; j++) {
		if (pd == ps) {
			r[n++] = v.r[j];
		} else if (pd > ps) {
			uint32_t per = pd / ps, acc = v.r[j * per];

			for (uint32_t k = 1; k < per; k++)
				acc = xl_emit1(x, IR_OR, acc,
				    xl_emit1(x, IR_SHL, v.r[j * per + k],
				             xl_const_reg(x, k * ps), 0), 0);
			r[n++] = acc;
		} else {
			uint32_t per = ps / pd;

			r[n++] = xl_emit1(x, IR_BFE_U, v.r[j / per],
			                  xl_const_reg(x, (j % per) * pd),
			                  xl_const_reg(x, pd));
		}
	}
	xl_set_regs(x, in, r, n);
}

/* A float register rounded to a half (toward zero or nearest even). */
static uint32_t
pack_half(struct xl *x, uint32_t r, bool rtz)
{
	uint32_t d = xl_emit1(x, IR_PACKH2, r, IR_REG_ZERO, 0);

	xl_instr(x, x->p->ninstr - 1)->aux2 = rtz;
	return d;
}

struct saved_id {
	uint32_t id;
	struct xid d;
};

bool
xl_narrow_op(struct xl *x, const uint32_t *in, uint32_t wc, bool *done)
{
	uint32_t op = in[0] & 0xffff, first = 3, inst = 0, res_w;
	bool ext = op == SpvOpExtInst, any, res_half, sext;
	struct saved_id saved[4];
	uint32_t nsaved = 0;

	if (wc < 4 || in[1] == 0 || in[1] >= x->bound ||
	    xl_id(x, in[1])->kind != XK_TYPE)
		return false;
	if (ext) {
		if (wc < 6 || in[3] != x->glsl_set)
			return false;
		first = 5;
		inst = in[4];
	}
	res_w = xl_type(x, in[1])->scalars ? scalar_width(x, in[1]) : 32;
	res_w = res_w < 32 ? res_w : 32;
	res_half = res_w == 16 && is_float_type(x, in[1]);
	any = res_w < 32;
	for (uint32_t i = first; i < wc && i < first + 4 && !any; i++)
		any = narrow_id(x, in[i]) != 0;
	if (!any)
		return false;
	switch (op) {
	case SpvOpBitcast:
		bitcast(x, in);
		*done = true;
		return true;
	case SpvOpIAddCarry: case SpvOpISubBorrow:
	case SpvOpUMulExtended: case SpvOpSMulExtended:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "opcode %u on 8/16-bit integers not supported", op);
	default:
		break;
	}
	/* half floats read as floats, integers read as signed: widened
	 * copies (moves keep the bits) */
	sext = reads_signed(op, ext, inst);
	for (uint32_t i = first; i < wc && i < first + 4 && !keeps_width(op);
	     i++) {
		uint32_t w = narrow_id(x, in[i]), r[MAXV];
		struct vals v;
		bool seen = false, half;

		for (uint32_t k = 0; k < nsaved; k++)
			seen |= saved[k].id == in[i];
		if (!w || seen)
			continue;
		half = is_float_type(x, x->ids[in[i]].type);
		if (!half && !sext)
			continue;
		xl_getv(x, in[i], &v);
		for (uint32_t k = 0; k < v.n; k++)
			r[k] = half ? xl_emit1(x, IR_UNPACKH_LO, v.r[k],
			                       0, 0)
			            : xl_emit1(x, IR_BFE_S, v.r[k],
			                IR_REG_ZERO, xl_const_reg(x, w));
		saved[nsaved].id = in[i];
		saved[nsaved++].d = x->ids[in[i]];
		xl_set_val(x, in[i], x->ids[in[i]].type, r, v.n);
	}
	*done = xl_value_op_wide(x, in, wc);
	while (nsaved--)
		x->ids[saved[nsaved].id] = saved[nsaved].d;
	if (!*done || res_w >= 32 || keeps_width(op))
		return true;
	/* the result back to its width */
	{
		struct vals v;
		uint32_t r[MAXV];
		bool rev = op == SpvOpBitReverse;
		/* FPRoundingMode RTZ on a conversion to half */
		bool rtz = op == SpvOpFConvert && x->ids[in[2]].round_rtz;

		xl_getv(x, in[2], &v);
		/* a signed min/max scan's first lane holds the 32-bit
		 * identity: the narrow type's one instead (values of the
		 * type are unchanged) */
		for (uint32_t k = 0; k < v.n && !res_half &&
		     (op == SpvOpGroupNonUniformSMin ||
		      op == SpvOpGroupNonUniformSMax); k++)
			v.r[k] = op == SpvOpGroupNonUniformSMin ?
				xl_emit1(x, IR_SMIN, v.r[k], xl_const_reg(x,
				         (1u << (res_w - 1)) - 1), 0) :
				xl_emit1(x, IR_SMAX, v.r[k], xl_const_reg(x,
				         ~((1u << (res_w - 1)) - 1)), 0);
		for (uint32_t k = 0; k < v.n; k++)
			r[k] = res_half ? pack_half(x, v.r[k], rtz) :
			       rev ? xl_emit1(x, IR_SHR, v.r[k],
			                      xl_const_reg(x, 32 - res_w), 0)
			           : xl_emit1(x, IR_AND, v.r[k],
			                      xl_const_reg(x, (1u << res_w) - 1),
			                      0);
		xl_set_val(x, in[2], in[1], r, v.n);
	}
	return true;
}
