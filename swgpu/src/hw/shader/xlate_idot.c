/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: integer dot products (SPV_KHR_integer_dot_
 * product: OpSDot, OpUDot, OpSUDot and their AccSat forms).
 *
 * Operands are vectors of 8-, 16-, 32- or 64-bit integers or a 32-bit
 * scalar holding four packed 8-bit ones; the result is an integer at
 * least as wide as a component. SDot reads both operands as signed,
 * UDot both as unsigned, SUDot the first signed and the second
 * unsigned; the signed forms give a signed result.
 *
 * The spec leaves the result undefined when the dot product itself
 * does not fit the result type; only the final accumulation of the
 * AccSat forms saturates. So for results up to 32 bits the products
 * and their sum are computed modulo 2^32 (exact whenever the result is
 * defined), the sum is brought to the result width (sign-extended for
 * the signed forms) and the accumulator added with a clamp to the
 * result type's range. 64-bit results work on register pairs
 * (xlate_int64.c's convention) with a saturating 64-bit add built from
 * the sign (signed) or carry (unsigned) of the sum.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <spirv/unified1/spirv.h>

static uint32_t
int_width(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, xl_scalar_type(x, type));

	if (t->op != SpvOpTypeInt)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "integer dot product on a non-integer type %u", type);
	return t->width;
}

/* A 32-bit register holding a w-bit integer (zero-extended) read as
 * a 32-bit value of its signedness. */
static uint32_t
widen32(struct xl *x, uint32_t r, uint32_t w, bool is_signed)
{
	if (w >= 32 || !is_signed)
		return r;
	return xl_emit1(x, IR_BFE_S, r, IR_REG_ZERO, xl_const_reg(x, w));
}

/* dst pair = op(a pair, b pair) */
static void
emit64(struct xl *x, uint32_t op, uint32_t dst, uint32_t al, uint32_t ah,
       uint32_t bl, uint32_t bh)
{
	xl_instr(x, xl_emit(x, op, dst, al, ah, bl))->d = bh;
}

/* A 32-bit value of its signedness as a pair. */
static void
to_pair(struct xl *x, uint32_t r, bool is_signed, uint32_t *lo, uint32_t *hi)
{
	*lo = r;
	*hi = is_signed ? xl_emit1(x, IR_SAR, r, xl_const_reg(x, 31), 0)
	                : IR_REG_ZERO;
}

/* Saturating 64-bit add of (al, ah) + (bl, bh) into a fresh pair. */
static uint32_t
addsat64(struct xl *x, uint32_t al, uint32_t ah, uint32_t bl, uint32_t bh,
         bool is_signed)
{
	uint32_t s = xl_new_regs(x, 2), r = xl_new_regs(x, 2), ovf, lim_lo,
	         lim_hi;

	emit64(x, IR_ADD64, s, al, ah, bl, bh);
	if (is_signed) {
		/* overflow: both addends have the sign the sum lacks; the
		 * limit is INT64_MIN for negative addends, else INT64_MAX */
		uint32_t m = xl_emit1(x, IR_SAR, ah, xl_const_reg(x, 31), 0);

		ovf = xl_emit1(x, IR_AND,
		               xl_emit1(x, IR_XOR, s + 1, ah, 0),
		               xl_emit1(x, IR_XOR, s + 1, bh, 0), 0);
		ovf = xl_emit1(x, IR_SHR, ovf, xl_const_reg(x, 31), 0);
		lim_lo = xl_emit1(x, IR_NOT, m, 0, 0);
		lim_hi = xl_emit1(x, IR_XOR, m, xl_const_reg(x, 0x7fffffffu),
		                  0);
	} else {
		/* carry out: the sum is below an addend */
		ovf = xl_new_regs(x, 1);
		emit64(x, IR_ULT64, ovf, s, s + 1, al, ah);
		lim_lo = lim_hi = xl_const_reg(x, UINT32_MAX);
	}
	xl_emit(x, IR_SELECT, r, ovf, lim_lo, s);
	xl_emit(x, IR_SELECT, r + 1, ovf, lim_hi, s + 1);
	return r;
}

/* The dot product modulo 2^32. kind: 0 s*s, 1 u*u, 2 s*u. */
static uint32_t
dot32(struct xl *x, const struct vals *a, const struct vals *b,
      uint32_t win, uint32_t kind)
{
	uint32_t r = 0;

	for (uint32_t i = 0; i < a->n; i++) {
		uint32_t p = xl_emit1(x, IR_IMUL,
		    widen32(x, a->r[i], win, kind != 1),
		    widen32(x, b->r[i], win, kind == 0), 0);

		r = i ? xl_emit1(x, IR_IADD, r, p, 0) : p;
	}
	return r;
}

/* The dot product modulo 2^64 into a fresh pair. */
static uint32_t
dot64(struct xl *x, const struct vals *a, const struct vals *b,
      uint32_t win, uint32_t kind)
{
	uint32_t n = win == 64 ? a->n / 2 : a->n, r = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t al, ah, bl, bh, p = xl_new_regs(x, 2);

		if (win == 64) {
			al = a->r[2 * i];
			ah = a->r[2 * i + 1];
			bl = b->r[2 * i];
			bh = b->r[2 * i + 1];
		} else {
			to_pair(x, widen32(x, a->r[i], win, kind != 1),
			        kind != 1, &al, &ah);
			to_pair(x, widen32(x, b->r[i], win, kind == 0),
			        kind == 0, &bl, &bh);
		}
		emit64(x, IR_MUL64, p, al, ah, bl, bh);
		if (i) {
			uint32_t s = xl_new_regs(x, 2);

			emit64(x, IR_ADD64, s, r, r + 1, p, p + 1);
			p = s;
		}
		r = p;
	}
	return r;
}

/* Result of width w <= 32 from a sum modulo 2^32, accumulated with
 * saturation when acc is set (a register, else 0). */
static uint32_t
finish32(struct xl *x, uint32_t sum, uint32_t w, bool is_signed,
         uint32_t acc)
{
	uint32_t mask = w == 32 ? UINT32_MAX : (1u << w) - 1;

	if (acc && w == 32)
		return xl_emit1(x, is_signed ? IR_ADDSAT_S : IR_ADDSAT_U,
		                sum, acc, 0);
	if (acc && is_signed) {
		uint32_t t = xl_emit1(x, IR_IADD, widen32(x, sum, w, true),
		                      widen32(x, acc, w, true), 0);

		t = xl_emit1(x, IR_SMAX, t, xl_const_reg(x, ~(mask >> 1)), 0);
		sum = xl_emit1(x, IR_SMIN, t, xl_const_reg(x, mask >> 1), 0);
	} else if (acc) {
		uint32_t t = xl_emit1(x, IR_AND, sum, xl_const_reg(x, mask),
		                      0);

		t = xl_emit1(x, IR_IADD, t, acc, 0);
		sum = xl_emit1(x, IR_UMIN, t, xl_const_reg(x, mask), 0);
	}
	return w == 32 ? sum : xl_emit1(x, IR_AND, sum, xl_const_reg(x, mask),
	                                0);
}

void
xl_int_dot(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff;
	bool acc = op >= SpvOpSDotAccSat;
	uint32_t kind = op - (acc ? SpvOpSDotAccSat : SpvOpSDot);
	bool res_signed = kind != 1;
	uint32_t w, win, r[2], n;
	struct vals a, b;
	bool packed;

	if (wc < 5u + acc)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short integer dot (id %u)",
		        wc > 2 ? in[2] : 0);
	w = int_width(x, in[1]);
	win = int_width(x, xl_id(x, in[3])->type);
	/* a packed 4x8 operand (a 32-bit scalar) has 8-bit components */
	packed = win == 32 && xl_type(x, xl_id(x, in[3])->type)->op ==
	                      SpvOpTypeInt;
	if (int_width(x, xl_id(x, in[4])->type) != win ||
	    (acc && int_width(x, xl_id(x, in[5])->type) != w) ||
	    w < (packed ? 8 : win))
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "integer dot (id %u): operand widths", in[2]);
	xl_getv(x, in[3], &a);
	xl_getv(x, in[4], &b);
	if (a.n != b.n || a.n == 0 || a.n > (win == 64 ? 8u : 4u))
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "integer dot (id %u): operand sizes", in[2]);
	if (w == 64) {
		uint32_t lo, hi;

		if (packed) {
			lo = xl_emit1(x, IR_DOT4X8, a.r[0], b.r[0], 0);
			xl_instr(x, x->p->ninstr - 1)->aux2 = (uint8_t)kind;
			/* exact in 32 bits; u*u is non-negative */
			to_pair(x, lo, true, &lo, &hi);
		} else {
			lo = dot64(x, &a, &b, win, kind);
			hi = lo + 1;
		}
		if (acc) {
			struct vals c;

			xl_getv(x, in[5], &c);
			if (c.n != 2)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "integer dot (id %u): accumulator",
				        in[2]);
			lo = addsat64(x, lo, hi, c.r[0], c.r[1], res_signed);
			hi = lo + 1;
		}
		r[0] = lo;
		r[1] = hi;
		n = 2;
	} else {
		uint32_t sum;

		if (packed) {
			sum = xl_emit1(x, IR_DOT4X8, a.r[0], b.r[0], 0);
			xl_instr(x, x->p->ninstr - 1)->aux2 = (uint8_t)kind;
		} else {
			sum = dot32(x, &a, &b, win, kind);
		}
		r[0] = finish32(x, sum, w, res_signed,
		                acc ? xl_val1(x, in[5]) : 0);
		n = 1;
	}
	xl_set_regs(x, in, r, n);
}
