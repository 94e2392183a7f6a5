/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: the GLSL.std.450 geometric and splitting
 * instructions on doubles (Length, Distance, Cross, Normalize,
 * FaceForward, Reflect, SmoothStep, Modf, ModfStruct, Determinant,
 * MatrixInverse), built from
 * xlate_f64.c's double operations (IR_F64) the way the spec defines
 * them. Operands are register pairs, low word first.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

/* A double operation on (al, ah) and (bl, bh): the result pair's
 * first register (or the one 32-bit register of a comparison). */
static uint32_t
d_op(struct xl *x, uint32_t sub, uint32_t al, uint32_t ah, uint32_t bl,
     uint32_t bh)
{
	bool cmp = sub >= IR_D_OEQ && sub <= IR_D_ISINF;
	uint32_t d = xl_new_regs(x, cmp ? 1 : 2);
	struct ir_instr *p = xl_instr(x, xl_emit(x, IR_F64, d, al, ah, bl));

	p->d = bh;
	p->aux2 = (uint8_t)sub;
	return d;
}

/* A double constant's (lo, hi) registers from its high word (the low
 * one is 0 for the constants used here). */
static void
d_const(struct xl *x, uint32_t hi, uint32_t *l, uint32_t *h)
{
	*l = IR_REG_ZERO;
	*h = hi ? xl_const_reg(x, hi) : IR_REG_ZERO;
}

/* dot(a, b) of n components: a pair. */
static uint32_t
d_dot(struct xl *x, const struct vals *a, const struct vals *b, uint32_t n)
{
	uint32_t acc = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = d_op(x, IR_D_MUL, a->r[2 * i], a->r[2 * i + 1],
		                  b->r[2 * i], b->r[2 * i + 1]);

		acc = i ? d_op(x, IR_D_ADD, acc, acc + 1, p, p + 1) : p;
	}
	return acc;
}

/* length of n components: |x| for a scalar, sqrt(dot(x, x)) else */
static uint32_t
d_length(struct xl *x, const struct vals *a, uint32_t n)
{
	uint32_t s;

	if (n == 1)
		return d_op(x, IR_D_ABS, a->r[0], a->r[1], 0, 0);
	s = d_dot(x, a, a, n);
	return d_op(x, IR_D_SQRT, s, s + 1, 0, 0);
}

static void
operands(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t count,
         struct vals *v, uint32_t n)
{
	if (wc < 5 + count)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpExtInst (id %u)",
		        in[2]);
	for (uint32_t k = 0; k < count; k++) {
		xl_getv(x, in[5 + k], &v[k]);
		if (v[k].n != 2 * n)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "GLSL.std.450 "
			        "instruction %u (id %u): operand sizes",
			        in[4], in[2]);
	}
}

/* Determinant of the k x k submatrix of the double matrix m (n rows,
 * column major, a register pair per element) made of rows rows[] and
 * columns cols[], by cofactor expansion (as glsl_matrix in
 * xlate_glsl.c does for floats): a pair. */
static uint32_t
d_det(struct xl *x, const uint32_t *m, uint32_t n, const uint32_t *rows,
      const uint32_t *cols, uint32_t k)
{
	uint32_t acc = 0;

	if (k == 1) {
		uint32_t e = 2 * (cols[0] * n + rows[0]), d = xl_new_regs(x, 2);

		/* copied to a pair of adjacent registers, as d_op's
		 * results are (copy propagation removes the moves) */
		xl_emit(x, IR_MOV, d, m[e], 0, 0);
		xl_emit(x, IR_MOV, d + 1, m[e + 1], 0, 0);
		return d;
	}
	for (uint32_t j = 0; j < k; j++) {
		uint32_t sub[4], si = 0, e = 2 * (cols[j] * n + rows[0]), d, t;

		for (uint32_t c = 0; c < k; c++)
			if (c != j)
				sub[si++] = cols[c];
		d = d_det(x, m, n, rows + 1, sub, k - 1);
		t = d_op(x, IR_D_MUL, m[e], m[e + 1], d, d + 1);
		acc = j == 0 ? t : d_op(x, (j & 1) ? IR_D_SUB : IR_D_ADD, acc,
		                        acc + 1, t, t + 1);
	}
	return acc;
}

/* GLSL.std.450 Determinant and MatrixInverse on a double matrix. */
static void
d_matrix(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t inst)
{
	const struct xtype *t;
	uint32_t n, all[4] = { 0, 1, 2, 3 }, r[32], det;
	struct vals a;

	if (wc < 6)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpExtInst");
	t = xl_type(x, xl_id(x, in[5])->type);
	n = t->count;
	if (t->op != SpvOpTypeMatrix || n < 2 || n > 4 ||
	    xl_type(x, t->elem)->count != n)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "GLSL.std.450 instruction "
		        "%u (id %u): not a square matrix", inst, in[2]);
	xl_getv(x, in[5], &a);
	if (a.n != 2 * n * n)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "GLSL.std.450 instruction "
		        "%u (id %u): operand size", inst, in[2]);
	det = d_det(x, a.r, n, all, all, n);
	if (inst == GLSLstd450Determinant) {
		r[0] = det;
		r[1] = det + 1;
		xl_set_regs(x, in, r, 2);
		return;
	}
	/* inverse = adjugate / det: inv[c][r] = cofactor(r, c) / det */
	for (uint32_t c = 0; c < n; c++)
		for (uint32_t row = 0; row < n; row++) {
			uint32_t rs[4], cs[4], ri = 0, ci = 0, cof, q;

			for (uint32_t i = 0; i < n; i++) {
				if (i != c)
					rs[ri++] = i;
				if (i != row)
					cs[ci++] = i;
			}
			cof = d_det(x, a.r, n, rs, cs, n - 1);
			if ((row + c) & 1)
				cof = d_op(x, IR_D_NEG, cof, cof + 1, 0, 0);
			q = d_op(x, IR_D_DIV, cof, cof + 1, det, det + 1);
			r[2 * (c * n + row)] = q;
			r[2 * (c * n + row) + 1] = q + 1;
		}
	xl_set_regs(x, in, r, 2 * n * n);
}

bool
xl_f64_geom(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t inst = in[4], r[8], n = 0, t;
	struct vals v[3];

	switch (inst) {
	case GLSLstd450Length: case GLSLstd450Distance:
	case GLSLstd450Normalize: case GLSLstd450FaceForward:
	case GLSLstd450Reflect: case GLSLstd450SmoothStep:
	case GLSLstd450Cross: case GLSLstd450Modf: case GLSLstd450ModfStruct:
		break;
	case GLSLstd450Determinant: case GLSLstd450MatrixInverse:
		d_matrix(x, in, wc, inst);
		return true;
	default:
		return false;
	}
	if (wc < 6)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpExtInst");
	xl_getv(x, in[5], &v[0]);
	n = v[0].n / 2;
	if (n == 0 || n > 4 || v[0].n % 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "GLSL.std.450 instruction "
		        "%u (id %u): operand size", inst, in[2]);
	switch (inst) {
	case GLSLstd450Length:
		t = d_length(x, &v[0], n);
		r[0] = t;
		r[1] = t + 1;
		xl_set_regs(x, in, r, 2);
		return true;
	case GLSLstd450Distance:
		operands(x, in, wc, 2, v, n);
		for (uint32_t i = 0; i < n; i++) {
			t = d_op(x, IR_D_SUB, v[0].r[2 * i], v[0].r[2 * i + 1],
			         v[1].r[2 * i], v[1].r[2 * i + 1]);
			v[2].r[2 * i] = t;
			v[2].r[2 * i + 1] = t + 1;
		}
		t = d_length(x, &v[2], n);
		r[0] = t;
		r[1] = t + 1;
		xl_set_regs(x, in, r, 2);
		return true;
	case GLSLstd450Normalize:
		t = d_length(x, &v[0], n);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t q = d_op(x, IR_D_DIV, v[0].r[2 * i],
			                  v[0].r[2 * i + 1], t, t + 1);

			r[2 * i] = q;
			r[2 * i + 1] = q + 1;
		}
		break;
	case GLSLstd450FaceForward: {
		/* dot(Nref, I) < 0 ? N : -N */
		uint32_t d, neg, zl, zh;

		operands(x, in, wc, 3, v, n);
		d = d_dot(x, &v[2], &v[1], n);
		d_const(x, 0, &zl, &zh);
		neg = d_op(x, IR_D_OLT, d, d + 1, zl, zh);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t m = d_op(x, IR_D_NEG, v[0].r[2 * i],
			                  v[0].r[2 * i + 1], 0, 0);

			r[2 * i] = xl_emit1(x, IR_SELECT, neg, v[0].r[2 * i],
			                    m);
			r[2 * i + 1] = xl_emit1(x, IR_SELECT, neg,
			                        v[0].r[2 * i + 1], m + 1);
		}
		break;
	}
	case GLSLstd450Reflect: {
		/* I - 2 dot(N, I) N */
		uint32_t d, tl, th;

		operands(x, in, wc, 2, v, n);
		d = d_dot(x, &v[1], &v[0], n);
		d_const(x, 0x40000000u, &tl, &th);
		d = d_op(x, IR_D_MUL, d, d + 1, tl, th);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t p = d_op(x, IR_D_MUL, d, d + 1, v[1].r[2 * i],
			                  v[1].r[2 * i + 1]);

			p = d_op(x, IR_D_SUB, v[0].r[2 * i], v[0].r[2 * i + 1],
			         p, p + 1);
			r[2 * i] = p;
			r[2 * i + 1] = p + 1;
		}
		break;
	}
	case GLSLstd450SmoothStep: {
		/* t = clamp((x - e0) / (e1 - e0), 0, 1); t t (3 - 2 t) */
		uint32_t zl, zh, ol, oh, twl, twh, thl, thh;

		operands(x, in, wc, 3, v, n);
		d_const(x, 0, &zl, &zh);
		d_const(x, 0x3ff00000u, &ol, &oh);
		d_const(x, 0x40000000u, &twl, &twh);
		d_const(x, 0x40080000u, &thl, &thh);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t a = d_op(x, IR_D_SUB, v[2].r[2 * i],
			                  v[2].r[2 * i + 1], v[0].r[2 * i],
			                  v[0].r[2 * i + 1]);
			uint32_t b = d_op(x, IR_D_SUB, v[1].r[2 * i],
			                  v[1].r[2 * i + 1], v[0].r[2 * i],
			                  v[0].r[2 * i + 1]);
			uint32_t u, w;

			t = d_op(x, IR_D_DIV, a, a + 1, b, b + 1);
			t = d_op(x, IR_D_MAX, t, t + 1, zl, zh);
			t = d_op(x, IR_D_MIN, t, t + 1, ol, oh);
			u = d_op(x, IR_D_MUL, twl, twh, t, t + 1);
			u = d_op(x, IR_D_SUB, thl, thh, u, u + 1);
			w = d_op(x, IR_D_MUL, t, t + 1, t, t + 1);
			w = d_op(x, IR_D_MUL, w, w + 1, u, u + 1);
			r[2 * i] = w;
			r[2 * i + 1] = w + 1;
		}
		break;
	}
	case GLSLstd450Cross: {
		static const uint8_t i1[3] = { 1, 2, 0 }, i2[3] = { 2, 0, 1 };

		operands(x, in, wc, 2, v, n);
		if (n != 3)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "Cross (id %u) of "
			        "%u components", in[2], n);
		for (uint32_t i = 0; i < 3; i++) {
			uint32_t j = i1[i], k = i2[i];
			uint32_t p = d_op(x, IR_D_MUL, v[0].r[2 * j],
			                  v[0].r[2 * j + 1], v[1].r[2 * k],
			                  v[1].r[2 * k + 1]);
			uint32_t q = d_op(x, IR_D_MUL, v[0].r[2 * k],
			                  v[0].r[2 * k + 1], v[1].r[2 * j],
			                  v[1].r[2 * j + 1]);

			p = d_op(x, IR_D_SUB, p, p + 1, q, q + 1);
			r[2 * i] = p;
			r[2 * i + 1] = p + 1;
		}
		break;
	}
	default: {      /* Modf, ModfStruct: x - trunc(x), trunc(x) */
		uint32_t o[8], f[16];
		bool ptr = inst == GLSLstd450Modf;

		if (ptr && wc < 7)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short Modf");
		for (uint32_t i = 0; i < n; i++) {
			uint32_t w = d_op(x, IR_D_TRUNC, v[0].r[2 * i],
			                  v[0].r[2 * i + 1], 0, 0);
			uint32_t fr = d_op(x, IR_D_SUB, v[0].r[2 * i],
			                   v[0].r[2 * i + 1], w, w + 1);

			f[2 * i] = fr;
			f[2 * i + 1] = fr + 1;
			o[2 * i] = w;
			o[2 * i + 1] = w + 1;
		}
		if (ptr) {
			xl_store_regs(x, xl_ptr(x, in[6]), o, 2 * n);
			xl_set_regs(x, in, f, 2 * n);
		} else {
			for (uint32_t i = 0; i < 2 * n; i++)
				f[2 * n + i] = o[i];
			xl_set_regs(x, in, f, 4 * n);
		}
		return true;
	}
	}
	xl_set_regs(x, in, r, 2 * n);
	return true;
}
