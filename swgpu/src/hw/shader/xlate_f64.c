/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: double-precision values (capability Float64).
 *
 * A double is a register pair like a 64-bit integer (low word first), so
 * loads, stores, composites, phis, selects and shuffles are left to the
 * 64-bit integer code (xlate_int64.c), which moves words. Here: float
 * arithmetic, comparisons, conversions and the GLSL.std.450 functions
 * on doubles, each one IR_F64 instruction per component (aux2 names the
 * operation), and the matrix operations from those. Anything else on a double fails translation cleanly there.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static bool
is_double_type(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, xl_scalar_type(x, type));

	return t->op == SpvOpTypeFloat && t->width == 64;
}

static bool
is_double_id(struct xl *x, uint32_t id)
{
	const struct xid *d;

	if (id == 0 || id >= x->bound)
		return false;
	d = &x->ids[id];
	return (d->kind == XK_VALUE || d->kind == XK_CONST) &&
	       xl_type(x, d->type)->scalars && is_double_type(x, d->type);
}

static uint32_t
width_of(struct xl *x, uint32_t type)
{
	return xl_type(x, xl_scalar_type(x, type))->width;
}

/* Component i of an operand as (lo, hi) words; a scalar broadcasts.
 * wide: the operand is 64-bit (else hi is register 0). */
static void
comp(struct xl *x, const struct vals *v, uint32_t i, uint32_t n, bool wide,
     uint32_t *lo, uint32_t *hi)
{
	uint32_t per = wide ? 2 : 1, k;

	if (v->n == per * n)
		k = i;
	else if (v->n == per)
		k = 0;
	else
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "double operand mismatch");
	*lo = v->r[per * k];
	*hi = wide ? v->r[per * k + 1] : IR_REG_ZERO;
}

static uint32_t
emit_f64(struct xl *x, uint32_t sub, bool wide_result, uint32_t al,
         uint32_t ah, uint32_t bl, uint32_t bh)
{
	uint32_t d = xl_new_regs(x, wide_result ? 2 : 1);
	uint32_t k = xl_emit(x, IR_F64, d, al, ah, bl);
	struct ir_instr *p = xl_instr(x, k);

	p->d = bh;
	p->aux2 = (uint8_t)sub;
	return d;
}

/* Components of the result (or of operand in[3] when the result is a
 * bool/32-bit value of the same length). */
static uint32_t
ncomp(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, type);
	uint32_t w = width_of(x, type);
	uint32_t n = w == 64 ? t->scalars / 2 : t->scalars;

	if (n == 0 || n > 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad double vector size");
	return n;
}

/* Component-wise op over up to two operands; result per component is a
 * double (pair) or a 32-bit word. */
static void
elementwise(struct xl *x, const uint32_t *in, const uint32_t *ops,
            uint32_t nops, uint32_t sub)
{
	uint32_t n = ncomp(x, in[1]), r[8], nr = 0;
	bool wide_res = width_of(x, in[1]) == 64;
	struct vals v[2];
	bool wide[2] = { false, false };

	for (uint32_t k = 0; k < nops; k++) {
		xl_getv(x, ops[k], &v[k]);
		wide[k] = width_of(x, xl_id(x, ops[k])->type) == 64;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t al, ah, bl = 0, bh = 0, d;

		comp(x, &v[0], i, n, wide[0], &al, &ah);
		if (nops > 1)
			comp(x, &v[1], i, n, wide[1], &bl, &bh);
		d = emit_f64(x, sub, wide_res, al, ah, bl, bh);
		r[nr++] = d;
		if (wide_res)
			r[nr++] = d + 1;
	}
	xl_set_regs(x, in, r, nr);
}

static const struct {
	uint16_t spv, sub;
	uint8_t nops;
} f64_ops[] = {
	{ SpvOpFAdd, IR_D_ADD, 2 }, { SpvOpFSub, IR_D_SUB, 2 },
	{ SpvOpFMul, IR_D_MUL, 2 }, { SpvOpFDiv, IR_D_DIV, 2 },
	{ SpvOpFMod, IR_D_MOD, 2 }, { SpvOpFRem, IR_D_REM, 2 },
	{ SpvOpVectorTimesScalar, IR_D_MUL, 2 },
	{ SpvOpFNegate, IR_D_NEG, 1 },
	{ SpvOpFOrdEqual, IR_D_OEQ, 2 }, { SpvOpFOrdNotEqual, IR_D_ONE, 2 },
	{ SpvOpFOrdLessThan, IR_D_OLT, 2 },
	{ SpvOpFOrdLessThanEqual, IR_D_OLE, 2 },
	{ SpvOpFOrdGreaterThan, IR_D_OGT, 2 },
	{ SpvOpFOrdGreaterThanEqual, IR_D_OGE, 2 },
	{ SpvOpFUnordEqual, IR_D_UEQ, 2 },
	{ SpvOpFUnordNotEqual, IR_D_UNE, 2 },
	{ SpvOpFUnordLessThan, IR_D_ULT, 2 },
	{ SpvOpFUnordLessThanEqual, IR_D_ULE, 2 },
	{ SpvOpFUnordGreaterThan, IR_D_UGT, 2 },
	{ SpvOpFUnordGreaterThanEqual, IR_D_UGE, 2 },
	{ SpvOpIsNan, IR_D_ISNAN, 1 }, { SpvOpIsInf, IR_D_ISINF, 1 },
}, glsl_ops[] = {
	{ GLSLstd450FAbs, IR_D_ABS, 1 }, { GLSLstd450FSign, IR_D_SIGN, 1 },
	{ GLSLstd450Floor, IR_D_FLOOR, 1 }, { GLSLstd450Ceil, IR_D_CEIL, 1 },
	{ GLSLstd450Trunc, IR_D_TRUNC, 1 }, { GLSLstd450Fract, IR_D_FRACT, 1 },
	{ GLSLstd450Round, IR_D_ROUND, 1 },
	{ GLSLstd450RoundEven, IR_D_ROUNDEVEN, 1 },
	{ GLSLstd450Sqrt, IR_D_SQRT, 1 },
	{ GLSLstd450InverseSqrt, IR_D_RSQRT, 1 },
	{ GLSLstd450FMin, IR_D_MIN, 2 }, { GLSLstd450FMax, IR_D_MAX, 2 },
	{ GLSLstd450NMin, IR_D_MIN, 2 }, { GLSLstd450NMax, IR_D_MAX, 2 },
	{ GLSLstd450Step, IR_D_STEP, 2 },
};

/* FConvert and the int <-> double conversions. */
static void
convert(struct xl *x, const uint32_t *in, uint32_t op)
{
	uint32_t src_type = xl_id(x, in[3])->type;
	uint32_t ws = width_of(x, src_type), wd = width_of(x, in[1]);
	bool to_double = is_double_type(x, in[1]);
	uint32_t sub;

	switch (op) {
	case SpvOpFConvert:
		if (to_double && is_double_type(x, src_type)) {
			struct vals v;

			xl_getv(x, in[3], &v);
			xl_set_regs(x, in, v.r, v.n);
			return;
		}
		/* to a half: a float first (xlate_narrow.c rounds it to
		 * the half), toward zero, or to odd so that the second
		 * rounding to nearest gives the double's nearest half */
		sub = to_double ? IR_D_FROM_F
		      : xl_id(x, in[2])->round_rtz ? IR_D_TO_F_RTZ
		      : wd == 16 ? IR_D_TO_F_ODD : IR_D_TO_F;
		break;
	case SpvOpConvertSToF:
		sub = ws == 64 ? IR_D_FROM_S64 : IR_D_FROM_S;
		break;
	case SpvOpConvertUToF:
		sub = ws == 64 ? IR_D_FROM_U64 : IR_D_FROM_U;
		break;
	case SpvOpConvertFToS:
		sub = wd == 64 ? IR_D_TO_S64 : IR_D_TO_S;
		break;
	default:        /* ConvertFToU */
		sub = wd == 64 ? IR_D_TO_U64 : IR_D_TO_U;
		break;
	}
	if ((op == SpvOpConvertSToF || op == SpvOpConvertUToF) && !to_double)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad double conversion");
	if ((op == SpvOpConvertFToS || op == SpvOpConvertFToU) &&
	    !is_double_type(x, src_type))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad double conversion");
	elementwise(x, in, in + 3, 1, sub);
}

/* dot(a, b) of double vectors. */
static void
dot(struct xl *x, const uint32_t *in)
{
	struct vals a, b;
	uint32_t acc = 0, n;

	xl_getv(x, in[3], &a);
	xl_getv(x, in[4], &b);
	n = a.n / 2;
	if (a.n != b.n || a.n % 2 || n == 0 || n > 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad double dot");
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = emit_f64(x, IR_D_MUL, true, a.r[2 * i],
		                      a.r[2 * i + 1], b.r[2 * i],
		                      b.r[2 * i + 1]);

		acc = i ? emit_f64(x, IR_D_ADD, true, acc, acc + 1, p, p + 1)
		        : p;
	}
	{
		uint32_t r[2] = { acc, acc + 1 };

		xl_set_regs(x, in, r, 2);
	}
}

/* FClamp, FMix, Fma (mul + add: Vulkan's precision of fma is that of
 * the two operations) from the binary operations. */
static void
ternary(struct xl *x, const uint32_t *in, uint32_t inst)
{
	uint32_t n = ncomp(x, in[1]), r[8];
	struct vals a, b, c;

	xl_getv(x, in[5], &a);
	xl_getv(x, in[6], &b);
	xl_getv(x, in[7], &c);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t al, ah, bl, bh, cl, ch, t, u;

		comp(x, &a, i, n, true, &al, &ah);
		comp(x, &b, i, n, true, &bl, &bh);
		comp(x, &c, i, n, true, &cl, &ch);
		switch (inst) {
		case GLSLstd450FClamp:
		case GLSLstd450NClamp:
			t = emit_f64(x, IR_D_MAX, true, al, ah, bl, bh);
			u = emit_f64(x, IR_D_MIN, true, t, t + 1, cl, ch);
			break;
		case GLSLstd450FMix:     /* a + (b - a) * c */
			t = emit_f64(x, IR_D_SUB, true, bl, bh, al, ah);
			t = emit_f64(x, IR_D_MUL, true, t, t + 1, cl, ch);
			u = emit_f64(x, IR_D_ADD, true, al, ah, t, t + 1);
			break;
		default:                 /* Fma */
			t = emit_f64(x, IR_D_MUL, true, al, ah, bl, bh);
			u = emit_f64(x, IR_D_ADD, true, t, t + 1, cl, ch);
			break;
		}
		r[2 * i] = u;
		r[2 * i + 1] = u + 1;
	}
	xl_set_regs(x, in, r, 2 * n);
}

/* sum of a[k] * b[k], k < n, over double pairs: component k of a at
 * a[k * astep] (low word; high word next), of b at b[k * bstep]. The
 * products and sums are separate operations, in order, as for dot. */
static uint32_t
ddot(struct xl *x, const uint32_t *a, uint32_t astep, const uint32_t *b,
     uint32_t bstep, uint32_t n)
{
	uint32_t acc = 0;

	for (uint32_t k = 0; k < n; k++) {
		const uint32_t *pa = a + k * astep, *pb = b + k * bstep;
		uint32_t p = emit_f64(x, IR_D_MUL, true, pa[0], pa[1], pb[0],
		                      pb[1]);

		acc = k ? emit_f64(x, IR_D_ADD, true, acc, acc + 1, p, p + 1)
		        : p;
	}
	return acc;
}

/* Matrix operations on doubles (matrices are column lists of register
 * pairs: m[2 * (c * rows + r)]). */
static void
matrix_f64(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t op)
{
	struct vals a, b;
	const struct xtype *ta, *tb;
	uint32_t r[32], n = 0, rows, cols, k;

	if (wc < 4u + (op != SpvOpTranspose))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short matrix op %u", op);
	xl_getv(x, in[3], &a);
	ta = xl_type(x, xl_id(x, in[3])->type);
	tb = ta;
	b.n = 0;
	if (op != SpvOpTranspose) {
		xl_getv(x, in[4], &b);
		tb = xl_type(x, xl_id(x, in[4])->type);
	}
	if (xl_type(x, in[1])->scalars > 32 || a.n % 2 || b.n % 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad double matrix op %u",
		        op);
	switch (op) {
	case SpvOpMatrixTimesScalar:
		for (uint32_t i = 0; i < a.n; i += 2, n += 2)
			r[n] = emit_f64(x, IR_D_MUL, true, a.r[i], a.r[i + 1],
			                b.r[0], b.r[1]);
		break;
	case SpvOpMatrixTimesVector:
		rows = xl_type(x, ta->elem)->count;
		for (uint32_t i = 0; i < rows; i++, n += 2)
			r[n] = ddot(x, a.r + 2 * i, 2 * rows, b.r, 2,
			            ta->count);
		break;
	case SpvOpVectorTimesMatrix:
		rows = xl_type(x, tb->elem)->count;
		for (uint32_t c = 0; c < tb->count; c++, n += 2)
			r[n] = ddot(x, a.r, 2, b.r + 2 * c * rows, 2, rows);
		break;
	case SpvOpMatrixTimesMatrix:
		rows = xl_type(x, ta->elem)->count;
		k = ta->count;
		for (uint32_t c = 0; c < tb->count; c++)
			for (uint32_t i = 0; i < rows; i++, n += 2)
				r[n] = ddot(x, a.r + 2 * i, 2 * rows,
				            b.r + 2 * c * k, 2, k);
		break;
	case SpvOpOuterProduct:
		for (uint32_t c = 0; c < b.n; c += 2)
			for (uint32_t i = 0; i < a.n; i += 2, n += 2)
				r[n] = emit_f64(x, IR_D_MUL, true, a.r[i],
				                a.r[i + 1], b.r[c], b.r[c + 1]);
		break;
	default:        /* Transpose: word moves */
		rows = xl_type(x, ta->elem)->count;
		cols = ta->count;
		for (uint32_t i = 0; i < rows; i++)
			for (uint32_t c = 0; c < cols; c++) {
				r[n++] = a.r[2 * (c * rows + i)];
				r[n++] = a.r[2 * (c * rows + i) + 1];
			}
		xl_set_regs(x, in, r, n);
		return;
	}
	for (uint32_t i = 0; i < n; i += 2)
		r[i + 1] = r[i] + 1;
	xl_set_regs(x, in, r, n);
}

static bool
glsl_f64(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t inst = in[4];

	for (size_t i = 0; i < sizeof(glsl_ops) / sizeof(glsl_ops[0]); i++)
		if (glsl_ops[i].spv == inst) {
			if (wc < 5u + glsl_ops[i].nops)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "short OpExtInst");
			elementwise(x, in, in + 5, glsl_ops[i].nops,
			            glsl_ops[i].sub);
			return true;
		}
	switch (inst) {
	case GLSLstd450FClamp: case GLSLstd450NClamp:
	case GLSLstd450FMix: case GLSLstd450Fma:
		if (wc < 8)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpExtInst");
		ternary(x, in, inst);
		return true;
	case GLSLstd450PackDouble2x32:
	case GLSLstd450UnpackDouble2x32: {
		/* the same two words either way */
		struct vals v;

		xl_getv(x, in[5], &v);
		xl_set_regs(x, in, v.r, v.n);
		return true;
	}
	default:
		/* geometric ones, Modf (xlate_f64_geom.c); else fails in
		 * xlate_int64.c */
		return xl_f64_geom(x, in, wc);
	}
}

bool
xl_f64_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff, first = 3;
	bool any = false;

	if (wc < 4 || in[1] == 0 || in[1] >= x->bound ||
	    xl_id(x, in[1])->kind != XK_TYPE)
		return false;
	if (op == SpvOpExtInst) {
		if (wc < 6 || in[3] != x->glsl_set)
			return false;
		first = 5;
	}
	any = xl_type(x, in[1])->scalars && is_double_type(x, in[1]);
	for (uint32_t i = first; i < wc && i < first + 3 && !any; i++)
		any = is_double_id(x, in[i]);
	if (!any)
		return false;
	if (op == SpvOpExtInst)
		return glsl_f64(x, in, wc);
	for (size_t i = 0; i < sizeof(f64_ops) / sizeof(f64_ops[0]); i++)
		if (f64_ops[i].spv == op) {
			if (wc < 3u + f64_ops[i].nops)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "short opcode %u", op);
			elementwise(x, in, in + 3, f64_ops[i].nops,
			            f64_ops[i].sub);
			return true;
		}
	switch (op) {
	case SpvOpFConvert:
	case SpvOpConvertSToF: case SpvOpConvertUToF:
	case SpvOpConvertFToS: case SpvOpConvertFToU:
		convert(x, in, op);
		return true;
	case SpvOpDot:
		if (wc < 5)
			break;
		dot(x, in);
		return true;
	case SpvOpMatrixTimesScalar: case SpvOpMatrixTimesVector:
	case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
	case SpvOpOuterProduct: case SpvOpTranspose:
		matrix_f64(x, in, wc, op);
		return true;
	default:
		break;
	}
	return false;   /* word moves, or a clean failure, in xlate_int64.c */
}
