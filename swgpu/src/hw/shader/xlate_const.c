/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: constants and specialization. Constants are
 * kept as flattened 32-bit words (one per scalar); specialization
 * replaces OpSpec* defaults with the pipeline's values as they are
 * declared, and OpSpecConstantOp is folded right away, so array lengths,
 * the local size and every later use see specialized values.
 */
#include "xlate.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

static void
need(struct xl *x, uint32_t wc, uint32_t n, uint32_t op)
{
	if (wc < n)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "instruction (opcode %u) has %u words, needs %u", op,
		        wc, n);
}

uint32_t *
xl_new_const(struct xl *x, uint32_t type, uint32_t id)
{
	struct xid *d = xl_id(x, id);
	uint32_t n = xl_type(x, type)->scalars;

	if (d->kind != XK_NONE)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u defined twice", id);
	if (n == 0 && !xl_is_empty_composite(x, type))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "constant %s of opaque type",
		        xl_name(x, id, 0));
	if (n > XL_MAX_VALUE_SCALARS)
		xl_limit(x, "constant %s of %s%u "
		        "scalars: constants are limited to %u",
		        xl_name(x, id, 0), n == XL_HUGE ? "over " : "", n,
		        XL_MAX_VALUE_SCALARS);
	x->cpool = xl_grow(x, x->cpool, &x->capcpool, x->ncpool + n, 4);
	d->kind = XK_CONST;
	d->type = type;
	d->cval = x->ncpool;
	x->ncpool += n;
	memset(x->cpool + d->cval, 0, n * 4);
	return x->cpool + d->cval;
}

static const swgpu_spec_constant *
spec_value(struct xl *x, uint32_t id)
{
	const struct xid *d = &x->ids[id];

	if (!d->has_spec)
		return NULL;
	for (uint32_t i = 0; i < x->info->spec_constant_count; i++)
		if (x->info->spec_constants[i].id == d->spec_id)
			return &x->info->spec_constants[i];
	return NULL;
}

static uint32_t
eval_op(struct xl *x, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;

	switch (op) {
	case SpvOpIAdd: return a + b;
	case SpvOpISub: return a - b;
	case SpvOpIMul: return a * b;
	case SpvOpUDiv: return b ? a / b : UINT32_MAX;
	case SpvOpSDiv:
		return !b ? UINT32_MAX : (sb == -1 ? 0u - a : (uint32_t)(sa / sb));
	case SpvOpUMod: return b ? a % b : UINT32_MAX;
	case SpvOpSRem:
	case SpvOpSMod: {
		int32_t r = (!b || sb == -1) ? 0 : sa % sb;

		if (op == SpvOpSMod && r && ((r < 0) != (sb < 0)))
			r += sb;
		return (uint32_t)r;
	}
	case SpvOpShiftLeftLogical: return a << (b & 31);
	case SpvOpShiftRightLogical: return a >> (b & 31);
	case SpvOpShiftRightArithmetic: return (uint32_t)(sa >> (b & 31));
	case SpvOpBitwiseOr: case SpvOpLogicalOr: return a | b;
	case SpvOpBitwiseAnd: case SpvOpLogicalAnd: return a & b;
	case SpvOpBitwiseXor: return a ^ b;
	case SpvOpNot: return ~a;
	case SpvOpLogicalNot: return !a;
	case SpvOpSNegate: return 0u - a;
	case SpvOpIEqual: case SpvOpLogicalEqual: return a == b;
	case SpvOpINotEqual: case SpvOpLogicalNotEqual: return a != b;
	case SpvOpULessThan: return a < b;
	case SpvOpSLessThan: return sa < sb;
	case SpvOpUGreaterThan: return a > b;
	case SpvOpSGreaterThan: return sa > sb;
	case SpvOpULessThanEqual: return a <= b;
	case SpvOpSLessThanEqual: return sa <= sb;
	case SpvOpUGreaterThanEqual: return a >= b;
	case SpvOpSGreaterThanEqual: return sa >= sb;
	case SpvOpSelect: return a ? b : c;
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "OpSpecConstantOp with opcode %u not supported", op);
	}
}

/* eval_op on 64-bit integers (Int64): same defined results. */
static uint64_t
eval_op64(struct xl *x, uint32_t op, uint64_t a, uint64_t b, uint64_t c)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	switch (op) {
	case SpvOpIAdd: return a + b;
	case SpvOpISub: return a - b;
	case SpvOpIMul: return a * b;
	case SpvOpUDiv: return b ? a / b : UINT64_MAX;
	case SpvOpSDiv:
		return !b ? UINT64_MAX : (sb == -1 ? 0 - a : (uint64_t)(sa / sb));
	case SpvOpUMod: return b ? a % b : UINT64_MAX;
	case SpvOpSRem:
	case SpvOpSMod: {
		int64_t r = (!b || sb == -1) ? 0 : sa % sb;

		if (op == SpvOpSMod && r && ((r < 0) != (sb < 0)))
			r += sb;
		return (uint64_t)r;
	}
	case SpvOpShiftLeftLogical: return a << (b & 63);
	case SpvOpShiftRightLogical: return a >> (b & 63);
	case SpvOpShiftRightArithmetic: return (uint64_t)(sa >> (b & 63));
	case SpvOpBitwiseOr: return a | b;
	case SpvOpBitwiseAnd: return a & b;
	case SpvOpBitwiseXor: return a ^ b;
	case SpvOpNot: return ~a;
	case SpvOpSNegate: return 0 - a;
	case SpvOpIEqual: return a == b;
	case SpvOpINotEqual: return a != b;
	case SpvOpULessThan: return a < b;
	case SpvOpSLessThan: return sa < sb;
	case SpvOpUGreaterThan: return a > b;
	case SpvOpSGreaterThan: return sa > sb;
	case SpvOpULessThanEqual: return a <= b;
	case SpvOpSLessThanEqual: return sa <= sb;
	case SpvOpUGreaterThanEqual: return a >= b;
	case SpvOpSGreaterThanEqual: return sa >= sb;
	case SpvOpSelect: return a ? b : c;
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "OpSpecConstantOp with opcode %u on 64-bit values not "
		        "supported", op);
	}
}

/* Operations that read their operands as signed: narrower operands
 * (kept zero-extended) are sign-extended first. */
static bool
signed_op(uint32_t op)
{
	switch (op) {
	case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod:
	case SpvOpShiftRightArithmetic:
	case SpvOpSLessThan: case SpvOpSGreaterThan:
	case SpvOpSLessThanEqual: case SpvOpSGreaterThanEqual:
		return true;
	default:
		return false;
	}
}

static uint32_t
width_of(struct xl *x, uint32_t type)
{
	return xl_type(x, xl_scalar_type(x, type))->width;
}

/* Component i of constant operand id as a 64-bit value (32-bit ones
 * zero-extended, or sign-extended when sext); scalars broadcast. */
static uint64_t
spec_operand64(struct xl *x, uint32_t id, uint32_t i, bool sext)
{
	const struct xid *s = xl_id(x, id);
	uint32_t w = width_of(x, s->type);
	uint32_t comps = xl_type(x, s->type)->scalars / (w == 64 ? 2 : 1);
	uint32_t k = comps > 1 ? i : 0;

	if (k >= comps)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad spec operand");
	if (w == 64)
		return x->cpool[s->cval + 2 * k] |
		       (uint64_t)x->cpool[s->cval + 2 * k + 1] << 32;
	if (sext)
		return (uint64_t)(int64_t)(int32_t)x->cpool[s->cval + k];
	return x->cpool[s->cval + k];
}

/* OpSpecConstantOp where a result or operand is 64-bit. */
static void
spec_constant_op64(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[3], rw = width_of(x, in[1]);
	uint32_t n = xl_type(x, in[1])->scalars / (rw == 64 ? 2 : 1);
	uint32_t tmp[16], *v;

	if (n > 8)
		xl_limit(x, "spec op too wide");
	for (uint32_t i = 0; i < n; i++) {
		uint64_t o[3] = { 0, 0, 0 }, r;

		for (uint32_t k = 0; k + 4 < wc && k < 3; k++)
			o[k] = spec_operand64(x, in[4 + k], i,
			                      signed_op(op));
		r = eval_op64(x, op, o[0], o[1], o[2]);
		if (rw == 64) {
			tmp[2 * i] = (uint32_t)r;
			tmp[2 * i + 1] = (uint32_t)(r >> 32);
		} else {
			tmp[i] = (uint32_t)r;
		}
	}
	v = xl_new_const(x, in[1], in[2]);
	memcpy(v, tmp, xl_type(x, in[1])->scalars * 4);
	x->ids[in[2]].is_spec = true;
}

/* Word w of 8/16-bit constant id sign-extended to 32 bits (signed
 * operations); wider ones as they are. */
static uint32_t
sext_narrow(struct xl *x, uint32_t id, uint32_t w)
{
	uint32_t bits = width_of(x, xl_id(x, id)->type);

	if (bits >= 32)
		return w;
	return (w & (1u << (bits - 1))) ? w | ~((1u << bits) - 1) : w;
}

static void
spec_constant_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[3];
	uint32_t *v;

	need(x, wc, 5, SpvOpSpecConstantOp);
	if (xl_spec_op_special(x, in, wc))
		return;
	if (op == SpvOpCompositeExtract) {
		const struct xid *s = xl_id(x, in[4]);
		uint32_t type = s->type, off = 0;

		if (s->kind != XK_CONST)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad spec operand");
		for (uint32_t i = 5; i < wc; i++) {
			const struct xtype *t = xl_type(x, type);

			if (t->op == SpvOpTypeStruct) {
				if (in[i] >= t->nmembers)
					xl_fail(x, SWGPU_ERR_INVALID_ARG,
					        "bad index");
				for (uint32_t m = 0; m < in[i]; m++)
					off += xl_type(x,
					    x->pool[t->members + m])->scalars;
				type = x->pool[t->members + in[i]];
			} else {
				if (in[i] >= t->count)
					xl_fail(x, SWGPU_ERR_INVALID_ARG,
					        "bad index");
				off += in[i] * xl_type(x, t->elem)->scalars;
				type = t->elem;
			}
		}
		if (type != in[1] &&
		    xl_type(x, type)->scalars != xl_type(x, in[1])->scalars)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "type mismatch");
		uint32_t base = s->cval;
		v = xl_new_const(x, in[1], in[2]);
		for (uint32_t i = 0; i < xl_type(x, in[1])->scalars; i++)
			v[i] = x->cpool[base + off + i];
		return;
	}
	uint32_t n = xl_type(x, in[1])->scalars;
	uint32_t ops[3] = { 0, 0, 0 };

	for (uint32_t k = 0; k + 4 < wc && k < 3; k++) {
		const struct xid *s = xl_id(x, in[4 + k]);

		if (s->kind != XK_CONST)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad spec operand");
		if (width_of(x, s->type) == 64)
			n = 0;
		ops[k] = s->cval;
	}
	/* eval_op works on 32-bit words */
	if (n == 0 || width_of(x, in[1]) == 64) {
		spec_constant_op64(x, in, wc);
		return;
	}
	/* Compute into a scratch first: new_const may move cpool. */
	uint32_t tmp[16];
	if (n > 16)
		xl_limit(x, "spec op too wide");
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = x->cpool[ops[0] + (wc > 4 && xl_type(x,
		                  x->ids[in[4]].type)->scalars > 1 ? i : 0)];
		uint32_t b = wc > 5 ? x->cpool[ops[1] + (xl_type(x,
		                  x->ids[in[5]].type)->scalars > 1 ? i : 0)] : 0;
		uint32_t c = wc > 6 ? x->cpool[ops[2] + (xl_type(x,
		                  x->ids[in[6]].type)->scalars > 1 ? i : 0)] : 0;
		if (signed_op(op)) {
			a = sext_narrow(x, in[4], a);
			b = wc > 5 ? sext_narrow(x, in[5], b) : b;
		}
		tmp[i] = eval_op(x, op, a, b, c);
		if (width_of(x, in[1]) < 32)    /* 8/16-bit: zero-extended */
			tmp[i] &= (1u << width_of(x, in[1])) - 1;
	}
	v = xl_new_const(x, in[1], in[2]);
	memcpy(v, tmp, n * 4);
	x->ids[in[2]].is_spec = true;
}

void
xl_constant_decl(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff;
	uint32_t *v;
	const swgpu_spec_constant *sc;

	need(x, wc, 3, op);
	switch (op) {
	case SpvOpConstantTrue:
	case SpvOpConstantFalse:
	case SpvOpSpecConstantTrue:
	case SpvOpSpecConstantFalse:
		v = xl_new_const(x, in[1], in[2]);
		v[0] = op == SpvOpConstantTrue || op == SpvOpSpecConstantTrue;
		sc = op >= SpvOpSpecConstantTrue ? spec_value(x, in[2]) : NULL;
		if (sc)
			v[0] = sc->value != 0;
		break;
	case SpvOpConstant:
	case SpvOpSpecConstant:
		need(x, wc, 4, op);
		v = xl_new_const(x, in[1], in[2]);
		v[0] = in[3];
		if (xl_type(x, in[1])->scalars == 2)   /* 64-bit: lo, hi */
			v[1] = wc > 4 ? in[4] : 0;
		sc = op == SpvOpSpecConstant ? spec_value(x, in[2]) : NULL;
		if (sc)
			v[0] = (uint32_t)sc->value;
		if (sc && xl_type(x, in[1])->scalars == 2)
			v[1] = (uint32_t)((uint64_t)sc->value >> 32);
		/* 8/16-bit: the literal is sign-extended for signed types;
		 * registers hold the value zero-extended */
		if (width_of(x, in[1]) < 32)
			v[0] &= (1u << width_of(x, in[1])) - 1;
		break;
	case SpvOpConstantComposite:
	case SpvOpSpecConstantComposite: {
		uint32_t n = xl_type(x, in[1])->scalars, k = 0;
		uint32_t tmp_at = x->ncpool;

		v = xl_new_const(x, in[1], in[2]);
		(void)v;
		for (uint32_t i = 3; i < wc; i++) {
			const struct xid *s = xl_id(x, in[i]);
			uint32_t m;

			if (s->kind != XK_CONST)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "composite constant operand %u is not "
				        "a constant", in[i]);
			m = xl_type(x, s->type)->scalars;
			if (k + m > n)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "composite constant too long");
			memcpy(x->cpool + tmp_at + k, x->cpool + s->cval,
			       m * 4);
			k += m;
		}
		if (k != n)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "composite constant too short");
		break;
	}
	case SpvOpConstantNull: {
		uint32_t *words = xl_new_const(x, in[1], in[2]);

		/* A null variable pointer reaches no resource. */
		if (xl_is_vptr_type(x, in[1]))
			words[0] = xl_vptr_null_slot();
		break;
	}
	case SpvOpSpecConstantOp:
		spec_constant_op(x, in, wc);
		break;
	}
	if (op >= SpvOpSpecConstantTrue && op <= SpvOpSpecConstantOp)
		x->ids[in[2]].is_spec = true;
}
