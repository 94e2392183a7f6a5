/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: value instructions (arithmetic, conversions,
 * composites, GLSL.std.450; subgroup operations in xlate_group.c).
 *
 * Vectors and matrices are lists of scalar registers, so composite
 * instructions (construct, extract, insert, shuffle) only rename
 * registers and emit nothing; vector arithmetic becomes one scalar IR
 * instruction per component; dot, cross, length and the matrix products
 * are expanded into scalar multiply/add chains here.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <string.h>

#include <spirv/unified1/spirv.h>


void
xl_getv(struct xl *x, uint32_t id, struct vals *v)
{
	uint32_t n;
	const uint32_t *r = xl_val(x, id, &n);

	if (n > MAXV)
		xl_limit(x, "composite too large");
	memcpy(v->r, r, n * 4);
	v->n = n;
}

uint32_t
xl_emit1(struct xl *x, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t r = xl_new_regs(x, 1);

	xl_emit(x, op, r, a, b, c);
	return r;
}

uint32_t
xl_result_n(struct xl *x, const uint32_t *in)
{
	return xl_type(x, in[1])->scalars;
}

static uint32_t
pick(struct xl *x, const struct vals *v, uint32_t i, uint32_t n)
{
	if (v->n == n)
		return v->r[i];
	if (v->n == 1)
		return v->r[0];
	xl_fail(x, SWGPU_ERR_INVALID_ARG, "operand size mismatch");
}

/* Component-wise op over operand ids ops[0..nops-1]; scalars broadcast. */
void
xl_elementwise(struct xl *x, const uint32_t *in, uint32_t op,
            const uint32_t *ops, uint32_t nops)
{
	uint32_t n = xl_result_n(x, in), res;
	struct vals local[4];

	if (n == 0 || n > 16 || nops > 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad operand count");
	for (uint32_t k = 0; k < nops; k++)
		xl_getv(x, ops[k], &local[k]);
	res = xl_new_regs(x, n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a[4] = { 0, 0, 0, 0 };
		uint32_t k;

		for (k = 0; k < nops; k++)
			a[k] = pick(x, &local[k], i, n);
		k = xl_emit(x, op, res + i, a[0], a[1], a[2]);
		xl_instr(x, k)->d = a[3];
	}
	{
		uint32_t regs[16];

		for (uint32_t i = 0; i < n; i++)
			regs[i] = res + i;
		xl_set_val(x, in[2], in[1], regs, n);
	}
}

void
xl_set_regs(struct xl *x, const uint32_t *in, const uint32_t *regs,
            uint32_t n)
{
	if (n != xl_result_n(x, in))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "result size mismatch");
	xl_set_val(x, in[2], in[1], regs, n);
}

uint32_t
xl_fdot(struct xl *x, const uint32_t *a, const uint32_t *b, uint32_t n,
    uint32_t stride_b)
{
	uint32_t acc = xl_emit1(x, IR_FMUL, a[0], b[0], 0);

	for (uint32_t i = 1; i < n; i++)
		acc = xl_emit1(x, IR_FADD, acc,
		            xl_emit1(x, IR_FMUL, a[i], b[i * stride_b], 0), 0);
	return acc;
}

static const struct {
	uint16_t spv, ir;
	uint8_t nops;
} simple_ops[] = {
	{ SpvOpSNegate, IR_INEG, 1 }, { SpvOpFNegate, IR_FNEG, 1 },
	{ SpvOpNot, IR_NOT, 1 }, { SpvOpLogicalNot, IR_LNOT, 1 },
	{ SpvOpIAdd, IR_IADD, 2 }, { SpvOpFAdd, IR_FADD, 2 },
	{ SpvOpISub, IR_ISUB, 2 }, { SpvOpFSub, IR_FSUB, 2 },
	{ SpvOpIMul, IR_IMUL, 2 }, { SpvOpFMul, IR_FMUL, 2 },
	{ SpvOpUDiv, IR_UDIV, 2 }, { SpvOpSDiv, IR_SDIV, 2 },
	{ SpvOpFDiv, IR_FDIV, 2 }, { SpvOpUMod, IR_UMOD, 2 },
	{ SpvOpSRem, IR_SREM, 2 }, { SpvOpSMod, IR_SMOD, 2 },
	{ SpvOpFRem, IR_FREM, 2 }, { SpvOpFMod, IR_FMOD, 2 },
	{ SpvOpShiftLeftLogical, IR_SHL, 2 },
	{ SpvOpShiftRightLogical, IR_SHR, 2 },
	{ SpvOpShiftRightArithmetic, IR_SAR, 2 },
	{ SpvOpBitwiseOr, IR_OR, 2 }, { SpvOpBitwiseXor, IR_XOR, 2 },
	{ SpvOpBitwiseAnd, IR_AND, 2 }, { SpvOpLogicalOr, IR_OR, 2 },
	{ SpvOpLogicalAnd, IR_AND, 2 }, { SpvOpLogicalEqual, IR_IEQ, 2 },
	{ SpvOpLogicalNotEqual, IR_INE, 2 }, { SpvOpIEqual, IR_IEQ, 2 },
	{ SpvOpINotEqual, IR_INE, 2 }, { SpvOpUGreaterThan, IR_UGT, 2 },
	{ SpvOpSGreaterThan, IR_SGT, 2 },
	{ SpvOpUGreaterThanEqual, IR_UGE, 2 },
	{ SpvOpSGreaterThanEqual, IR_SGE, 2 },
	{ SpvOpULessThan, IR_ULT, 2 }, { SpvOpSLessThan, IR_SLT, 2 },
	{ SpvOpULessThanEqual, IR_ULE, 2 },
	{ SpvOpSLessThanEqual, IR_SLE, 2 },
	{ SpvOpFOrdEqual, IR_FOEQ, 2 }, { SpvOpFUnordEqual, IR_FUEQ, 2 },
	{ SpvOpFOrdNotEqual, IR_FONE, 2 },
	{ SpvOpFUnordNotEqual, IR_FUNE, 2 },
	{ SpvOpFOrdLessThan, IR_FOLT, 2 },
	{ SpvOpFUnordLessThan, IR_FULT, 2 },
	{ SpvOpFOrdGreaterThan, IR_FOGT, 2 },
	{ SpvOpFUnordGreaterThan, IR_FUGT, 2 },
	{ SpvOpFOrdLessThanEqual, IR_FOLE, 2 },
	{ SpvOpFUnordLessThanEqual, IR_FULE, 2 },
	{ SpvOpFOrdGreaterThanEqual, IR_FOGE, 2 },
	{ SpvOpFUnordGreaterThanEqual, IR_FUGE, 2 },
	{ SpvOpOrdered, IR_FORD, 2 }, { SpvOpUnordered, IR_FUNORD, 2 },
	{ SpvOpIsNan, IR_ISNAN, 1 }, { SpvOpIsInf, IR_ISINF, 1 },
	{ SpvOpConvertFToU, IR_F2U, 1 }, { SpvOpConvertFToS, IR_F2S, 1 },
	{ SpvOpConvertSToF, IR_S2F, 1 }, { SpvOpConvertUToF, IR_U2F, 1 },
	{ SpvOpQuantizeToF16, IR_QUANT16, 1 },
	{ SpvOpBitReverse, IR_BITREV, 1 }, { SpvOpBitCount, IR_BITCOUNT, 1 },
	{ SpvOpSelect, IR_SELECT, 3 },
	{ SpvOpBitFieldInsert, IR_BFI, 4 },
	{ SpvOpBitFieldSExtract, IR_BFE_S, 3 },
	{ SpvOpBitFieldUExtract, IR_BFE_U, 3 },
	{ SpvOpVectorTimesScalar, IR_FMUL, 2 },
};

/* Matrix products. Matrices are column lists: m[c * rows + r]. */
static void
matrix_op(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t op)
{
	struct vals a, b;
	uint32_t r[16], n = 0;
	const struct xtype *ta, *tb;

	if (wc < 4 + (op != SpvOpTranspose))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short matrix op");
	xl_getv(x, in[3], &a);
	ta = xl_type(x, xl_id(x, in[3])->type);
	if (op != SpvOpTranspose) {
		xl_getv(x, in[4], &b);
		tb = xl_type(x, xl_id(x, in[4])->type);
	} else {
		tb = ta;
		b.n = 0;
	}
	switch (op) {
	case SpvOpMatrixTimesScalar:
		for (uint32_t i = 0; i < a.n; i++)
			r[n++] = xl_emit1(x, IR_FMUL, a.r[i], b.r[0], 0);
		break;
	case SpvOpMatrixTimesVector: {
		uint32_t rows = xl_type(x, ta->elem)->count, cols = ta->count;

		for (uint32_t i = 0; i < rows; i++) {
			uint32_t row[4];

			for (uint32_t c = 0; c < cols; c++)
				row[c] = a.r[c * rows + i];
			r[n++] = xl_fdot(x, row, b.r, cols, 1);
		}
		break;
	}
	case SpvOpVectorTimesMatrix: {
		uint32_t rows = xl_type(x, tb->elem)->count, cols = tb->count;

		for (uint32_t c = 0; c < cols; c++)
			r[n++] = xl_fdot(x, a.r, b.r + c * rows, rows, 1);
		break;
	}
	case SpvOpMatrixTimesMatrix: {
		uint32_t rows = xl_type(x, ta->elem)->count, k = ta->count;
		uint32_t cols = tb->count;

		for (uint32_t c = 0; c < cols; c++)
			for (uint32_t i = 0; i < rows; i++) {
				uint32_t row[4];

				for (uint32_t j = 0; j < k; j++)
					row[j] = a.r[j * rows + i];
				r[n++] = xl_fdot(x, row, b.r + c * k, k, 1);
			}
		break;
	}
	case SpvOpOuterProduct:
		for (uint32_t c = 0; c < b.n; c++)
			for (uint32_t i = 0; i < a.n; i++)
				r[n++] = xl_emit1(x, IR_FMUL, a.r[i], b.r[c], 0);
		break;
	case SpvOpTranspose: {
		uint32_t rows = xl_type(x, ta->elem)->count, cols = ta->count;

		for (uint32_t i = 0; i < rows; i++)
			for (uint32_t c = 0; c < cols; c++)
				r[n++] = a.r[c * rows + i];
		break;
	}
	}
	xl_set_regs(x, in, r, n);
}

static void
composite(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t op)
{
	struct vals v, w;
	uint32_t r[MAXV], n = 0;

	switch (op) {
	case SpvOpCompositeConstruct:
		for (uint32_t i = 3; i < wc; i++) {
			xl_getv(x, in[i], &v);
			if (n + v.n > MAXV)
				xl_limit(x,
				        "composite too large");
			memcpy(r + n, v.r, v.n * 4);
			n += v.n;
		}
		break;
	case SpvOpCompositeExtract:
	case SpvOpCompositeInsert: {
		uint32_t base = op == SpvOpCompositeInsert ? 5 : 4;
		uint32_t type, off = 0, cnt;

		if (wc < base)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short composite op");
		xl_getv(x, in[base - 1], &v);
		type = xl_id(x, in[base - 1])->type;
		for (uint32_t i = base; i < wc; i++) {
			const struct xtype *t = xl_type(x, type);

			if (t->op == SpvOpTypeStruct) {
				if (in[i] >= t->nmembers)
					goto bad;
				for (uint32_t m = 0; m < in[i]; m++)
					off += xl_type(x,
					    x->pool[t->members + m])->scalars;
				type = x->pool[t->members + in[i]];
			} else if (t->op == SpvOpTypeVector ||
			           t->op == SpvOpTypeMatrix ||
			           t->op == SpvOpTypeArray) {
				if (in[i] >= t->count)
					goto bad;
				off += in[i] * xl_type(x, t->elem)->scalars;
				type = t->elem;
			} else {
				goto bad;
			}
		}
		cnt = xl_type(x, type)->scalars;
		if (op == SpvOpCompositeExtract) {
			memcpy(r, v.r + off, cnt * 4);
			n = cnt;
		} else {
			xl_getv(x, in[3], &w);
			if (w.n != cnt)
				goto bad;
			memcpy(r, v.r, v.n * 4);
			memcpy(r + off, w.r, cnt * 4);
			n = v.n;
		}
		break;
	}
	case SpvOpVectorShuffle:
		if (wc < 5)
			goto bad;
		xl_getv(x, in[3], &v);
		xl_getv(x, in[4], &w);
		for (uint32_t i = 5; i < wc && n < MAXV; i++) {
			uint32_t c = in[i];

			if (c == 0xffffffffu)
				r[n++] = IR_REG_ZERO;
			else if (c < v.n)
				r[n++] = v.r[c];
			else if (c - v.n < w.n)
				r[n++] = w.r[c - v.n];
			else
				goto bad;
		}
		break;
	case SpvOpVectorExtractDynamic: {
		uint32_t idx, acc;

		if (wc < 5)
			goto bad;
		xl_getv(x, in[3], &v);
		idx = xl_val1(x, in[4]);
		acc = v.r[0];
		for (uint32_t i = 1; i < v.n; i++) {
			uint32_t t = xl_new_regs(x, 1);
			uint32_t k = xl_emit(x, IR_SELIDX, t, idx, v.r[i], acc);

			xl_instr(x, k)->imm = i;
			acc = t;
		}
		r[n++] = acc;
		break;
	}
	case SpvOpVectorInsertDynamic: {
		uint32_t idx, val;

		if (wc < 6)
			goto bad;
		xl_getv(x, in[3], &v);
		val = xl_val1(x, in[4]);
		idx = xl_val1(x, in[5]);
		for (uint32_t i = 0; i < v.n; i++) {
			uint32_t t = xl_new_regs(x, 1);
			uint32_t k = xl_emit(x, IR_SELIDX, t, idx, val, v.r[i]);

			xl_instr(x, k)->imm = i;
			r[n++] = t;
		}
		break;
	}
	case SpvOpCopyObject:
	case SpvOpCopyLogical:
	case SpvOpBitcast:
	case SpvOpUConvert:
	case SpvOpSConvert:
	case SpvOpFConvert:
		if (wc < 4)
			goto bad;
		xl_getv(x, in[3], &v);
		memcpy(r, v.r, v.n * 4);
		n = v.n;
		break;
	}
	xl_set_regs(x, in, r, n);
	return;
bad:
	xl_fail(x, SWGPU_ERR_INVALID_ARG, "malformed composite opcode %u", op);
}

/* IAddCarry, ISubBorrow, UMulExtended, SMulExtended: struct results. */
static void
extended(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t op)
{
	struct vals a, b;
	uint32_t r[8];
	uint32_t lo = op == SpvOpIAddCarry ? IR_IADD :
	              op == SpvOpISubBorrow ? IR_ISUB : IR_IMUL;
	uint32_t hi = op == SpvOpIAddCarry ? IR_ADDCARRY :
	              op == SpvOpISubBorrow ? IR_SUBBORROW :
	              op == SpvOpUMulExtended ? IR_UMULHI : IR_SMULHI;

	if (wc < 5)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short opcode %u", op);
	xl_getv(x, in[3], &a);
	xl_getv(x, in[4], &b);
	if (a.n != b.n || a.n > 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "operand mismatch");
	for (uint32_t i = 0; i < a.n; i++) {
		r[i] = xl_emit1(x, lo, a.r[i], b.r[i], 0);
		r[a.n + i] = xl_emit1(x, hi, a.r[i], b.r[i], 0);
	}
	xl_set_regs(x, in, r, 2 * a.n);
}

bool
xl_value_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff, nsaved = 0, start = x->p->ninstr;
	struct xl_saved_id saved[XL_FTZ_MAX_OPS];
	bool done;

	/* integer dot products handle every width themselves */
	if (op >= SpvOpSDot && op <= SpvOpSUDotAccSat) {
		xl_int_dot(x, in, wc);
		return true;
	}
	/* 8/16-bit operands: xlate_narrow.c adjusts them around the
	 * ordinary translation */
	if (x->ftz_widths)
		nsaved = xl_denorm_flush_inputs(x, in, wc, saved);
	if (!xl_narrow_op(x, in, wc, &done))
		done = xl_value_op_wide(x, in, wc);
	xl_denorm_restore(x, saved, nsaved);
	if (done && x->rtz_widths)
		xl_rtz_mark(x, in, wc, start);
	if (done && x->ftz_widths)
		xl_denorm_flush(x, in, wc);
	return done;
}

bool
xl_value_op_wide(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff;

	if (xl_f64_op(x, in, wc) || xl_int64_op(x, in, wc))
		return true;
	for (uint32_t i = 0; i < sizeof(simple_ops) / sizeof(simple_ops[0]);
	     i++)
		if (simple_ops[i].spv == op) {
			if (wc < 3u + simple_ops[i].nops)
				return false;
			xl_elementwise(x, in, simple_ops[i].ir, in + 3,
			            simple_ops[i].nops);
			return true;
		}
	if (wc < 3)
		return false;
	switch (op) {
	case SpvOpUndef: {
		uint32_t r[MAXV], n = xl_result_n(x, in);

		if (n > MAXV)
			return false;
		memset(r, 0, n * 4);
		xl_set_regs(x, in, r, n);
		return true;
	}
	case SpvOpDot: {
		struct vals a, b;
		uint32_t r;

		if (wc < 5)
			return false;
		xl_getv(x, in[3], &a);
		xl_getv(x, in[4], &b);
		if (a.n != b.n)
			return false;
		r = xl_fdot(x, a.r, b.r, a.n, 1);
		xl_set_regs(x, in, &r, 1);
		return true;
	}
	case SpvOpAny:
	case SpvOpAll: {
		struct vals a;
		uint32_t r;

		if (wc < 4)
			return false;
		xl_getv(x, in[3], &a);
		r = a.r[0];
		for (uint32_t i = 1; i < a.n; i++)
			r = xl_emit1(x, op == SpvOpAny ? IR_OR : IR_AND, r,
			          a.r[i], 0);
		xl_set_regs(x, in, &r, 1);
		return true;
	}
	case SpvOpMatrixTimesScalar: case SpvOpMatrixTimesVector:
	case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
	case SpvOpOuterProduct: case SpvOpTranspose:
		matrix_op(x, in, wc, op);
		return true;
	case SpvOpCompositeConstruct: case SpvOpCompositeExtract:
	case SpvOpCompositeInsert: case SpvOpVectorShuffle:
	case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic:
	case SpvOpCopyObject: case SpvOpCopyLogical: case SpvOpBitcast:
	case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert:
		composite(x, in, wc, op);
		return true;
	case SpvOpIAddCarry: case SpvOpISubBorrow:
	case SpvOpUMulExtended: case SpvOpSMulExtended:
		extended(x, in, wc, op);
		return true;
	case SpvOpSDot: case SpvOpUDot: case SpvOpSUDot:
	case SpvOpSDotAccSat: case SpvOpUDotAccSat: case SpvOpSUDotAccSat:
		xl_int_dot(x, in, wc);
		return true;
	default:
		break;
	}
	if (op == SpvOpExtInst) {
		xl_ext_inst(x, in, wc);
		return true;
	}
	if (xl_deriv_op(x, in, wc))
		return true;
	return xl_group_op(x, in, wc);
}
