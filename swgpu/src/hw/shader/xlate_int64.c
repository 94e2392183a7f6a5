/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: 64-bit integer values (capability Int64).
 *
 * A 64-bit scalar is a pair of 32-bit registers (low word first), so
 * loads, stores, composites, phis and function variables need nothing
 * new: they already move lists of registers. Arithmetic, shifts,
 * comparisons and conversions that mix the two words get 64-bit IR
 * instructions reading both operands as (a, b) and (c, d) and writing
 * the result to dst, dst + 1. Bitwise ops and OpSelect work word by word.
 * Any other opcode meeting a 64-bit value fails translation cleanly
 * rather than computing on half a value.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <string.h>

#include <spirv/unified1/spirv.h>
#include <spirv/unified1/GLSL.std.450.h>

static uint32_t
width_of(struct xl *x, uint32_t type)
{
	return xl_type(x, xl_scalar_type(x, type))->width;
}

static uint32_t
id_width(struct xl *x, uint32_t id)
{
	return width_of(x, xl_id(x, id)->type);
}

/* Registers of the result: a 64-bit vector is at most 8 (malformed
 * modules must not overrun the fixed arrays below). */
static uint32_t
res_n(struct xl *x, const uint32_t *in)
{
	uint32_t n = xl_result_n(x, in);

	if (n == 0 || n > 16)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad 64-bit result size");
	return n;
}

/* Scalar word pairs of a 64-bit operand; a 32-bit scalar broadcast. */
static void
pair(struct xl *x, const struct vals *v, uint32_t i, uint32_t n,
     uint32_t *lo, uint32_t *hi)
{
	uint32_t k = v->n == 2 * n ? i : v->n == 2 ? 0 : UINT32_MAX;

	if (k == UINT32_MAX)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "64-bit operand mismatch");
	*lo = v->r[2 * k];
	*hi = v->r[2 * k + 1];
}

/* dst pair = op(a pair, b pair) for n components. */
static void
bin64(struct xl *x, const uint32_t *in, uint32_t irop)
{
	struct vals a, b;
	uint32_t r[MAXV], n = res_n(x, in) / 2;

	xl_getv(x, in[3], &a);
	xl_getv(x, in[4], &b);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t al, ah, bl, bh, d = xl_new_regs(x, 2), k;

		pair(x, &a, i, n, &al, &ah);
		if (b.n == n) {         /* 32-bit shift amount */
			bl = b.r[i];
			bh = IR_REG_ZERO;
		} else {
			pair(x, &b, i, n, &bl, &bh);
		}
		k = xl_emit(x, irop, d, al, ah, bl);
		xl_instr(x, k)->d = bh;
		r[2 * i] = d;
		r[2 * i + 1] = d + 1;
	}
	xl_set_regs(x, in, r, 2 * n);
}

/* A 32-bit value shifted by a 64-bit amount: the low word counts. */
static void
shift32(struct xl *x, const uint32_t *in, uint32_t op)
{
	struct vals a, b;
	uint32_t r[MAXV], n = res_n(x, in);
	uint32_t irop = op == SpvOpShiftLeftLogical ? IR_SHL :
	                op == SpvOpShiftRightLogical ? IR_SHR : IR_SAR;

	xl_getv(x, in[3], &a);
	xl_getv(x, in[4], &b);
	if (a.n != n && a.n != 1)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "shift operand mismatch");
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lo, hi;

		pair(x, &b, i, n, &lo, &hi);
		r[i] = xl_emit1(x, irop, a.r[a.n == 1 ? 0 : i], lo, 0);
	}
	xl_set_regs(x, in, r, n);
}

/* Word-wise op (bitwise) over 64-bit operands. */
static void
words(struct xl *x, const uint32_t *in, uint32_t irop, uint32_t nops)
{
	struct vals a, b;
	uint32_t r[MAXV], n = res_n(x, in);

	xl_getv(x, in[3], &a);
	if (nops > 1)
		xl_getv(x, in[4], &b);
	if (a.n != n || (nops > 1 && b.n != n))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "64-bit operand mismatch");
	for (uint32_t i = 0; i < n; i++)
		r[i] = xl_emit1(x, irop, a.r[i], nops > 1 ? b.r[i] : 0, 0);
	xl_set_regs(x, in, r, n);
}

/* 64-bit comparisons -> one 0/1 register per component. */
static void
cmp64(struct xl *x, const uint32_t *in, uint32_t irop)
{
	struct vals a, b;
	uint32_t r[MAXV], n = res_n(x, in);

	xl_getv(x, in[3], &a);
	xl_getv(x, in[4], &b);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t al, ah, bl, bh, k;

		pair(x, &a, i, n, &al, &ah);
		pair(x, &b, i, n, &bl, &bh);
		r[i] = xl_new_regs(x, 1);
		k = xl_emit(x, irop, r[i], al, ah, bl);
		xl_instr(x, k)->d = bh;
	}
	xl_set_regs(x, in, r, n);
}

static void
select64(struct xl *x, const uint32_t *in)
{
	struct vals c, a, b;
	uint32_t r[MAXV], n = res_n(x, in);

	xl_getv(x, in[3], &c);
	xl_getv(x, in[4], &a);
	xl_getv(x, in[5], &b);
	if (a.n != n || b.n != n || (c.n != 1 && c.n * 2 != n))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "64-bit select mismatch");
	for (uint32_t i = 0; i < n; i++)
		r[i] = xl_emit1(x, IR_SELECT, c.r[c.n == 1 ? 0 : i / 2],
		                a.r[i], b.r[i]);
	xl_set_regs(x, in, r, n);
}

/* S/UConvert, F<->I conversions with a 64-bit side. */
static void
convert(struct xl *x, const uint32_t *in, uint32_t op)
{
	struct vals a;
	uint32_t r[MAXV], n = 0;
	uint32_t wd = width_of(x, in[1]), ws = id_width(x, in[3]);
	uint32_t comps;

	xl_getv(x, in[3], &a);
	comps = ws == 64 ? a.n / 2 : a.n;
	if (comps > 4 || (ws == 64 && a.n % 2))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad conversion operand");
	for (uint32_t i = 0; i < comps; i++) {
		uint32_t lo = ws == 64 ? a.r[2 * i] : a.r[i];
		uint32_t hi = ws == 64 ? a.r[2 * i + 1] : 0;
		uint32_t d;

		switch (op) {
		case SpvOpSConvert:
		case SpvOpUConvert:
			if (wd == 64 && ws == 64) {
				r[n++] = lo;
				r[n++] = hi;
			} else if (wd == 64) {
				r[n++] = lo;
				r[n++] = op == SpvOpUConvert ? IR_REG_ZERO :
				    xl_emit1(x, IR_SAR, lo,
				             xl_const_reg(x, 31), 0);
			} else {
				r[n++] = lo;
			}
			break;
		case SpvOpConvertSToF:
		case SpvOpConvertUToF:
			if (ws != 64)
				goto bad;
			r[n++] = xl_emit1(x, op == SpvOpConvertSToF ?
			                  IR_S64TOF : IR_U64TOF, lo, hi, 0);
			break;
		default:        /* ConvertFToS / ConvertFToU */
			if (wd != 64)
				goto bad;
			d = xl_new_regs(x, 2);
			xl_emit(x, op == SpvOpConvertFToS ? IR_F2S64 : IR_F2U64,
			        d, lo, 0, 0);
			r[n++] = d;
			r[n++] = d + 1;
			break;
		}
	}
	xl_set_regs(x, in, r, n);
	return;
bad:
	xl_fail(x, SWGPU_ERR_UNSUPPORTED, "conversion %u of 64-bit values "
	        "not supported", op);
}

/* GLSL.std.450 integer min/max/clamp/abs/sign on 64-bit operands, from
 * comparisons and selects. */
static void
sel_pair(struct xl *x, uint32_t c, uint32_t al, uint32_t ah, uint32_t bl,
         uint32_t bh, uint32_t *out)
{
	out[0] = xl_emit1(x, IR_SELECT, c, al, bl);
	out[1] = xl_emit1(x, IR_SELECT, c, ah, bh);
}

static uint32_t
cmp1(struct xl *x, uint32_t irop, uint32_t al, uint32_t ah, uint32_t bl,
     uint32_t bh)
{
	uint32_t r = xl_new_regs(x, 1);
	uint32_t k = xl_emit(x, irop, r, al, ah, bl);

	xl_instr(x, k)->d = bh;
	return r;
}

static void
glsl64(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t inst = in[4], n = res_n(x, in) / 2, r[MAXV];
	struct vals a, b, c;
	bool s;

	if (wc < 6)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpExtInst");
	xl_getv(x, in[5], &a);
	if (wc > 6)
		xl_getv(x, in[6], &b);
	if (wc > 7)
		xl_getv(x, in[7], &c);
	switch (inst) {
	case GLSLstd450SMin: case GLSLstd450UMin:
	case GLSLstd450SMax: case GLSLstd450UMax:
	case GLSLstd450SClamp: case GLSLstd450UClamp:
		if (wc < 7u + (inst == GLSLstd450SClamp ||
		              inst == GLSLstd450UClamp))
			goto bad;
		s = inst == GLSLstd450SMin || inst == GLSLstd450SMax ||
		    inst == GLSLstd450SClamp;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t al, ah, bl, bh, cl, ch, t[2];
			uint32_t lt = s ? IR_SLT64 : IR_ULT64;

			pair(x, &a, i, n, &al, &ah);
			pair(x, &b, i, n, &bl, &bh);
			if (inst == GLSLstd450SMin || inst == GLSLstd450UMin) {
				sel_pair(x, cmp1(x, lt, bl, bh, al, ah),
				         bl, bh, al, ah, r + 2 * i);
				continue;
			}
			/* max (and clamp's lower bound) */
			sel_pair(x, cmp1(x, lt, al, ah, bl, bh), bl, bh,
			         al, ah, t);
			if (inst == GLSLstd450SMax || inst == GLSLstd450UMax) {
				r[2 * i] = t[0];
				r[2 * i + 1] = t[1];
				continue;
			}
			pair(x, &c, i, n, &cl, &ch);
			sel_pair(x, cmp1(x, lt, cl, ch, t[0], t[1]), cl, ch,
			         t[0], t[1], r + 2 * i);
		}
		break;
	case GLSLstd450SAbs:
	case GLSLstd450SSign:
		for (uint32_t i = 0; i < n; i++) {
			uint32_t al, ah, neg, z = IR_REG_ZERO, d, k;

			pair(x, &a, i, n, &al, &ah);
			neg = cmp1(x, IR_SLT64, al, ah, z, z);
			if (inst == GLSLstd450SAbs) {
				d = xl_new_regs(x, 2);
				k = xl_emit(x, IR_SUB64, d, z, z, al);
				xl_instr(x, k)->d = ah;
				sel_pair(x, neg, d, d + 1, al, ah, r + 2 * i);
			} else {
				uint32_t pos = cmp1(x, IR_SLT64, z, z, al, ah);
				uint32_t one = xl_const_reg(x, 1);
				uint32_t m1 = xl_const_reg(x, UINT32_MAX);

				r[2 * i] = xl_emit1(x, IR_SELECT, neg, m1,
				    xl_emit1(x, IR_SELECT, pos, one, z));
				r[2 * i + 1] = xl_emit1(x, IR_SELECT, neg, m1,
				                        z);
			}
		}
		break;
	default:
		goto bad;
	}
	xl_set_regs(x, in, r, 2 * n);
	return;
bad:
	xl_fail(x, SWGPU_ERR_UNSUPPORTED,
	        "GLSL.std.450 instruction %u on 64-bit values not supported",
	        inst);
}

static const struct {
	uint16_t spv, ir;
} bin_ops[] = {
	{ SpvOpIAdd, IR_ADD64 }, { SpvOpISub, IR_SUB64 },
	{ SpvOpIMul, IR_MUL64 }, { SpvOpUDiv, IR_UDIV64 },
	{ SpvOpSDiv, IR_SDIV64 }, { SpvOpUMod, IR_UMOD64 },
	{ SpvOpSRem, IR_SREM64 }, { SpvOpSMod, IR_SMOD64 },
	{ SpvOpShiftLeftLogical, IR_SHL64 },
	{ SpvOpShiftRightLogical, IR_SHR64 },
	{ SpvOpShiftRightArithmetic, IR_SAR64 },
}, cmp_ops[] = {
	{ SpvOpIEqual, IR_IEQ64 }, { SpvOpINotEqual, IR_INE64 },
	{ SpvOpULessThan, IR_ULT64 }, { SpvOpULessThanEqual, IR_ULE64 },
	{ SpvOpUGreaterThan, IR_UGT64 },
	{ SpvOpUGreaterThanEqual, IR_UGE64 },
	{ SpvOpSLessThan, IR_SLT64 }, { SpvOpSLessThanEqual, IR_SLE64 },
	{ SpvOpSGreaterThan, IR_SGT64 },
	{ SpvOpSGreaterThanEqual, IR_SGE64 },
};

/* Does instruction in (with a result type) touch a 64-bit value? */
static bool
is64(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff, first = 3, end = wc;

	if (xl_id(x, in[1])->kind == XK_TYPE && width_of(x, in[1]) == 64)
		return true;
	/* only id operands, not literals */
	if (op == SpvOpExtInst)
		first = 5;
	else if (op == SpvOpVectorShuffle || op == SpvOpCompositeInsert)
		end = wc < 5 ? wc : 5;
	else if (op == SpvOpCompositeExtract)
		end = 4;
	for (uint32_t i = first; i < end; i++) {
		const struct xid *d;

		if (in[i] == 0 || in[i] >= x->bound)
			continue;
		d = &x->ids[in[i]];

		if ((d->kind == XK_VALUE || d->kind == XK_CONST) &&
		    xl_type(x, d->type)->scalars &&
		    width_of(x, d->type) == 64)
			return true;
	}
	return false;
}

bool
xl_int64_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff;

	if (wc < 4 || op == SpvOpPhi || op == SpvOpStore || op == SpvOpFunctionCall ||
	    op == SpvOpLoad || op == SpvOpAccessChain ||
	    op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain ||
	    in[1] >= x->bound || in[1] == 0)
		return false;
	if (op == SpvOpExtInst) {
		if (wc < 6 || in[3] != x->glsl_set || !is64(x, in, wc))
			return false;
		glsl64(x, in, wc);
		return true;
	}
	if (!is64(x, in, wc))
		return false;
	if (wc >= 5 && width_of(x, in[1]) == 32 &&
	    (op == SpvOpShiftLeftLogical || op == SpvOpShiftRightLogical ||
	     op == SpvOpShiftRightArithmetic)) {
		shift32(x, in, op);
		return true;
	}
	for (size_t i = 0; i < sizeof(bin_ops) / sizeof(bin_ops[0]); i++)
		if (bin_ops[i].spv == op && wc >= 5) {
			bin64(x, in, bin_ops[i].ir);
			return true;
		}
	for (size_t i = 0; i < sizeof(cmp_ops) / sizeof(cmp_ops[0]); i++)
		if (cmp_ops[i].spv == op && wc >= 5) {
			cmp64(x, in, cmp_ops[i].ir);
			return true;
		}
	switch (op) {
	case SpvOpGroupNonUniformIAdd: case SpvOpGroupNonUniformIMul:
	case SpvOpGroupNonUniformSMin: case SpvOpGroupNonUniformUMin:
	case SpvOpGroupNonUniformSMax: case SpvOpGroupNonUniformUMax:
	case SpvOpGroupNonUniformBitwiseAnd:
	case SpvOpGroupNonUniformBitwiseOr:
	case SpvOpGroupNonUniformBitwiseXor:
	case SpvOpGroupNonUniformFAdd: case SpvOpGroupNonUniformFMul:
	case SpvOpGroupNonUniformFMin: case SpvOpGroupNonUniformFMax: {
		/* Subgroup arithmetic on 64-bit integers
		 * (shaderSubgroupExtendedTypes) and doubles (shaderFloat64,
		 * xlate_f64.c leaves them here): one IR_G64 per component. */
		static const struct { uint32_t spv, ir; } gops[] = {
			{ SpvOpGroupNonUniformIAdd, IR_GIADD },
			{ SpvOpGroupNonUniformIMul, IR_GIMUL },
			{ SpvOpGroupNonUniformSMin, IR_GSMIN },
			{ SpvOpGroupNonUniformUMin, IR_GUMIN },
			{ SpvOpGroupNonUniformSMax, IR_GSMAX },
			{ SpvOpGroupNonUniformUMax, IR_GUMAX },
			{ SpvOpGroupNonUniformBitwiseAnd, IR_GAND },
			{ SpvOpGroupNonUniformBitwiseOr, IR_GOR },
			{ SpvOpGroupNonUniformBitwiseXor, IR_GXOR },
			{ SpvOpGroupNonUniformFAdd, IR_GFADD },
			{ SpvOpGroupNonUniformFMul, IR_GFMUL },
			{ SpvOpGroupNonUniformFMin, IR_GFMIN },
			{ SpvOpGroupNonUniformFMax, IR_GFMAX },
		};
		struct vals a;
		uint32_t r[MAXV], n = res_n(x, in) / 2, scope, irop = 0;
		uint32_t csize;

		if (wc < 6 || !xl_const_u32(x, in[3], &scope) ||
		    scope != SpvScopeSubgroup ||
		    in[4] > SpvGroupOperationClusteredReduce)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED, "64-bit group "
			        "operation %u: only Subgroup scope reduce, "
			        "scans and clustered reduce", op);
		csize = in[4] == SpvGroupOperationClusteredReduce ?
		        xl_cluster_size(x, in, wc) : 0;
		for (size_t i = 0; i < sizeof(gops) / sizeof(gops[0]); i++)
			if (gops[i].spv == op)
				irop = gops[i].ir;
		x->p->uses_subgroup = true;
		xl_getv(x, in[5], &a);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t al, ah, d = xl_new_regs(x, 2), k;

			pair(x, &a, i, n, &al, &ah);
			k = xl_emit(x, IR_G64, d, al, ah, 0);
			xl_instr(x, k)->imm = irop;
			xl_instr(x, k)->aux2 = (uint8_t)in[4];
			xl_instr(x, k)->d = csize;
			r[2 * i] = d;
			r[2 * i + 1] = d + 1;
		}
		xl_set_regs(x, in, r, 2 * n);
		return true;
	}
	case SpvOpSNegate: {
		struct vals a;
		uint32_t r[MAXV], n = res_n(x, in) / 2;

		xl_getv(x, in[3], &a);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t al, ah, d = xl_new_regs(x, 2), k;

			pair(x, &a, i, n, &al, &ah);
			k = xl_emit(x, IR_SUB64, d, IR_REG_ZERO, IR_REG_ZERO,
			            al);
			xl_instr(x, k)->d = ah;
			r[2 * i] = d;
			r[2 * i + 1] = d + 1;
		}
		xl_set_regs(x, in, r, 2 * n);
		return true;
	}
	case SpvOpNot:
		words(x, in, IR_NOT, 1);
		return true;
	case SpvOpBitwiseAnd:
		words(x, in, IR_AND, 2);
		return true;
	case SpvOpBitwiseOr:
		words(x, in, IR_OR, 2);
		return true;
	case SpvOpBitwiseXor:
		words(x, in, IR_XOR, 2);
		return true;
	case SpvOpSelect:
		if (wc < 6)
			break;
		select64(x, in);
		return true;
	case SpvOpSConvert: case SpvOpUConvert:
	case SpvOpConvertSToF: case SpvOpConvertUToF:
	case SpvOpConvertFToS: case SpvOpConvertFToU:
		convert(x, in, op);
		return true;
	/* Word lists are right as they are; subgroup moves move each word
	 * (xlate_ops.c subgroup(), quad()), and AllEqual compares each. */
	case SpvOpCompositeConstruct: case SpvOpCompositeExtract:
	case SpvOpCompositeInsert: case SpvOpCopyObject:
	case SpvOpCopyLogical: case SpvOpBitcast: case SpvOpUndef:
	case SpvOpGroupNonUniformBroadcast:
	case SpvOpGroupNonUniformBroadcastFirst:
	case SpvOpGroupNonUniformShuffle:
	case SpvOpGroupNonUniformShuffleXor:
	case SpvOpGroupNonUniformShuffleUp:
	case SpvOpGroupNonUniformShuffleDown:
	case SpvOpGroupNonUniformQuadBroadcast:
	case SpvOpGroupNonUniformQuadSwap:
	case SpvOpGroupNonUniformRotateKHR:
	case SpvOpGroupNonUniformAllEqual:
	case SpvOpSubgroupFirstInvocationKHR:
	case SpvOpSubgroupReadInvocationKHR:
	case SpvOpSubgroupAllEqualKHR:
		return false;
	case SpvOpVectorExtractDynamic:
	case SpvOpVectorInsertDynamic: {
		/* a select chain per word, as for 32-bit components */
		struct vals v, val;
		uint32_t r[MAXV], n = 0, idx;
		bool ins = op == SpvOpVectorInsertDynamic;

		if (wc < 5u + ins)
			break;
		xl_getv(x, in[3], &v);
		if (ins)
			xl_getv(x, in[4], &val);
		idx = xl_val1(x, in[4 + ins]);
		if (v.n % 2 || (ins && val.n != 2))
			break;
		for (uint32_t w = 0; w < 2 && !ins; w++) {
			uint32_t acc = v.r[w];

			for (uint32_t i = 1; i < v.n / 2; i++) {
				uint32_t t = xl_new_regs(x, 1);
				uint32_t k = xl_emit(x, IR_SELIDX, t, idx,
				                     v.r[2 * i + w], acc);

				xl_instr(x, k)->imm = i;
				acc = t;
			}
			r[n++] = acc;
		}
		for (uint32_t i = 0; ins && i < v.n; i++) {
			uint32_t t = xl_new_regs(x, 1);
			uint32_t k = xl_emit(x, IR_SELIDX, t, idx,
			                     val.r[i % 2], v.r[i]);

			xl_instr(x, k)->imm = i / 2;
			r[n++] = t;
		}
		xl_set_regs(x, in, r, n);
		return true;
	}
	case SpvOpVectorShuffle: {
		struct vals v, w;
		uint32_t r[MAXV], n = 0;

		if (wc < 5)
			break;
		xl_getv(x, in[3], &v);
		xl_getv(x, in[4], &w);
		if (v.n % 2 || w.n % 2)
			break;
		for (uint32_t i = 5; i < wc && n + 2 <= 16; i++) {
			uint32_t c = in[i];

			if (c == 0xffffffffu) {
				r[n++] = IR_REG_ZERO;
				r[n++] = IR_REG_ZERO;
			} else if (c < v.n / 2) {
				r[n++] = v.r[2 * c];
				r[n++] = v.r[2 * c + 1];
			} else if (c - v.n / 2 < w.n / 2) {
				c -= v.n / 2;
				r[n++] = w.r[2 * c];
				r[n++] = w.r[2 * c + 1];
			} else {
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "bad shuffle component");
			}
		}
		xl_set_regs(x, in, r, n);
		return true;
	}
	default:
		break;
	}
	xl_fail(x, SWGPU_ERR_UNSUPPORTED,
	        "opcode %u on 64-bit values not supported", op);
}
