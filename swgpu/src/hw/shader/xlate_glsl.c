/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: the GLSL.std.450 extended instructions.
 * Component-wise functions map to one IR op per component; geometric and
 * matrix functions (length, cross, reflect, determinant, inverse, ...)
 * are expanded into scalar IR here, the interpolation functions
 * (InterpolationFunction) too.
 */
#include "xlate.h"
#include "hw/gfx/sample_pos.h"
#include "xlate_vals.h"

#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

static const struct {
	uint16_t glsl, ir;
	uint8_t nops;
} glsl_ops[] = {
	{ GLSLstd450Round, IR_ROUND, 1 },
	{ GLSLstd450RoundEven, IR_ROUNDEVEN, 1 },
	{ GLSLstd450Trunc, IR_TRUNC, 1 }, { GLSLstd450FAbs, IR_FABS, 1 },
	{ GLSLstd450SAbs, IR_SABS, 1 }, { GLSLstd450FSign, IR_FSIGN, 1 },
	{ GLSLstd450SSign, IR_SSIGN, 1 }, { GLSLstd450Floor, IR_FLOOR, 1 },
	{ GLSLstd450Ceil, IR_CEIL, 1 }, { GLSLstd450Fract, IR_FRACT, 1 },
	{ GLSLstd450Radians, IR_RADIANS, 1 },
	{ GLSLstd450Degrees, IR_DEGREES, 1 }, { GLSLstd450Sin, IR_SIN, 1 },
	{ GLSLstd450Cos, IR_COS, 1 }, { GLSLstd450Tan, IR_TAN, 1 },
	{ GLSLstd450Asin, IR_ASIN, 1 }, { GLSLstd450Acos, IR_ACOS, 1 },
	{ GLSLstd450Atan, IR_ATAN, 1 }, { GLSLstd450Sinh, IR_SINH, 1 },
	{ GLSLstd450Cosh, IR_COSH, 1 }, { GLSLstd450Tanh, IR_TANH, 1 },
	{ GLSLstd450Asinh, IR_ASINH, 1 }, { GLSLstd450Acosh, IR_ACOSH, 1 },
	{ GLSLstd450Atanh, IR_ATANH, 1 }, { GLSLstd450Atan2, IR_ATAN2, 2 },
	{ GLSLstd450Pow, IR_POW, 2 }, { GLSLstd450Exp, IR_EXP, 1 },
	{ GLSLstd450Log, IR_LOG, 1 }, { GLSLstd450Exp2, IR_EXP2, 1 },
	{ GLSLstd450Log2, IR_LOG2, 1 }, { GLSLstd450Sqrt, IR_SQRT, 1 },
	{ GLSLstd450InverseSqrt, IR_RSQRT, 1 },
	{ GLSLstd450FMin, IR_FMIN, 2 }, { GLSLstd450UMin, IR_UMIN, 2 },
	{ GLSLstd450SMin, IR_SMIN, 2 }, { GLSLstd450FMax, IR_FMAX, 2 },
	{ GLSLstd450UMax, IR_UMAX, 2 }, { GLSLstd450SMax, IR_SMAX, 2 },
	{ GLSLstd450NMin, IR_FMIN, 2 }, { GLSLstd450NMax, IR_FMAX, 2 },
	{ GLSLstd450FClamp, IR_FCLAMP, 3 }, { GLSLstd450NClamp, IR_FCLAMP, 3 },
	{ GLSLstd450UClamp, IR_UCLAMP, 3 }, { GLSLstd450SClamp, IR_SCLAMP, 3 },
	{ GLSLstd450FMix, IR_FMIX, 3 }, { GLSLstd450Step, IR_STEP, 2 },
	{ GLSLstd450SmoothStep, IR_SSTEP, 3 }, { GLSLstd450Fma, IR_FMA, 3 },
	{ GLSLstd450Ldexp, IR_LDEXP, 2 },
	{ GLSLstd450FindILsb, IR_FINDLSB, 1 },
	{ GLSLstd450FindSMsb, IR_FINDSMSB, 1 },
	{ GLSLstd450FindUMsb, IR_FINDUMSB, 1 },
};

static void
glsl_geometry(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t inst)
{
	struct vals a, b, c;
	uint32_t r[4], n = 0;

	xl_getv(x, in[5], &a);
	if (wc > 6)
		xl_getv(x, in[6], &b);
	if (wc > 7)
		xl_getv(x, in[7], &c);
	if (a.n > 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad vector");
	switch (inst) {
	case GLSLstd450Length:
		r[0] = a.n == 1 ? xl_emit1(x, IR_FABS, a.r[0], 0, 0)
		       : xl_emit1(x, IR_SQRT, xl_fdot(x, a.r, a.r, a.n, 1), 0, 0);
		n = 1;
		break;
	case GLSLstd450Distance: {
		uint32_t d[4];

		if (wc < 7 || b.n != a.n)
			goto bad;
		for (uint32_t i = 0; i < a.n; i++)
			d[i] = xl_emit1(x, IR_FSUB, a.r[i], b.r[i], 0);
		r[0] = a.n == 1 ? xl_emit1(x, IR_FABS, d[0], 0, 0)
		       : xl_emit1(x, IR_SQRT, xl_fdot(x, d, d, a.n, 1), 0, 0);
		n = 1;
		break;
	}
	case GLSLstd450Normalize: {
		uint32_t len = a.n == 1 ? xl_emit1(x, IR_FABS, a.r[0], 0, 0)
		               : xl_emit1(x, IR_SQRT, xl_fdot(x, a.r, a.r, a.n, 1),
		                       0, 0);

		for (uint32_t i = 0; i < a.n; i++)
			r[i] = xl_emit1(x, IR_FDIV, a.r[i], len, 0);
		n = a.n;
		break;
	}
	case GLSLstd450Cross:
		if (wc < 7 || a.n != 3 || b.n != 3)
			goto bad;
		for (uint32_t i = 0; i < 3; i++) {
			uint32_t j = (i + 1) % 3, k = (i + 2) % 3;

			r[i] = xl_emit1(x, IR_FSUB,
			             xl_emit1(x, IR_FMUL, a.r[j], b.r[k], 0),
			             xl_emit1(x, IR_FMUL, a.r[k], b.r[j], 0), 0);
		}
		n = 3;
		break;
	case GLSLstd450FaceForward: {
		uint32_t d, neg;

		if (wc < 8 || b.n != a.n || c.n != a.n)
			goto bad;
		d = xl_emit1(x, IR_FOLT, xl_fdot(x, c.r, b.r, a.n, 1), 0, 0);
		for (uint32_t i = 0; i < a.n; i++) {
			neg = xl_emit1(x, IR_FNEG, a.r[i], 0, 0);
			r[i] = xl_emit1(x, IR_SELECT, d, a.r[i], neg);
		}
		n = a.n;
		break;
	}
	case GLSLstd450Reflect: {
		uint32_t d, two = xl_const_reg(x, 0x40000000u);

		if (wc < 7 || b.n != a.n)
			goto bad;
		d = xl_emit1(x, IR_FMUL, two, xl_fdot(x, b.r, a.r, a.n, 1), 0);
		for (uint32_t i = 0; i < a.n; i++)
			r[i] = xl_emit1(x, IR_FSUB, a.r[i],
			             xl_emit1(x, IR_FMUL, d, b.r[i], 0), 0);
		n = a.n;
		break;
	}
	case GLSLstd450Refract: {
		uint32_t one = xl_const_reg(x, 0x3f800000u), d, k, eta, ok, t;

		if (wc < 8 || b.n != a.n || c.n != 1)
			goto bad;
		eta = c.r[0];
		d = xl_fdot(x, b.r, a.r, a.n, 1);
		/* k = 1 - eta^2 (1 - d^2) */
		k = xl_emit1(x, IR_FSUB, one,
		          xl_emit1(x, IR_FMUL, xl_emit1(x, IR_FMUL, eta, eta, 0),
		                xl_emit1(x, IR_FSUB, one,
		                      xl_emit1(x, IR_FMUL, d, d, 0), 0), 0), 0);
		ok = xl_emit1(x, IR_FOGE, k, 0, 0);
		t = xl_emit1(x, IR_FADD, xl_emit1(x, IR_FMUL, eta, d, 0),
		          xl_emit1(x, IR_SQRT, xl_emit1(x, IR_FMAX, k, 0, 0), 0, 0),
		          0);
		for (uint32_t i = 0; i < a.n; i++)
			r[i] = xl_emit1(x, IR_SELECT, ok,
			             xl_emit1(x, IR_FSUB,
			                   xl_emit1(x, IR_FMUL, eta, a.r[i], 0),
			                   xl_emit1(x, IR_FMUL, t, b.r[i], 0), 0),
			             0);
		n = a.n;
		break;
	}
	case GLSLstd450PackHalf2x16:
		if (a.n != 2)
			goto bad;
		r[0] = xl_emit1(x, IR_PACKH2, a.r[0], a.r[1], 0);
		n = 1;
		break;
	case GLSLstd450UnpackHalf2x16:
		r[0] = xl_emit1(x, IR_UNPACKH_LO, a.r[0], 0, 0);
		r[1] = xl_emit1(x, IR_UNPACKH_HI, a.r[0], 0, 0);
		n = 2;
		break;
	case GLSLstd450PackUnorm4x8:
	case GLSLstd450PackSnorm4x8: {
		uint32_t k;

		if (a.n != 4)
			goto bad;
		r[0] = xl_new_regs(x, 1);
		k = xl_emit(x, inst == GLSLstd450PackUnorm4x8 ? IR_PACKUN4
		            : IR_PACKSN4, r[0], a.r[0], a.r[1], a.r[2]);
		xl_instr(x, k)->d = a.r[3];
		n = 1;
		break;
	}
	case GLSLstd450PackUnorm2x16:
	case GLSLstd450PackSnorm2x16:
		if (a.n != 2)
			goto bad;
		r[0] = xl_emit1(x, inst == GLSLstd450PackUnorm2x16 ? IR_PACKUN2
		             : IR_PACKSN2, a.r[0], a.r[1], 0);
		n = 1;
		break;
	case GLSLstd450UnpackUnorm4x8:
	case GLSLstd450UnpackSnorm4x8:
	case GLSLstd450UnpackUnorm2x16:
	case GLSLstd450UnpackSnorm2x16: {
		uint32_t op = inst == GLSLstd450UnpackUnorm4x8 ? IR_UNPACKUN4 :
		              inst == GLSLstd450UnpackSnorm4x8 ? IR_UNPACKSN4 :
		              inst == GLSLstd450UnpackUnorm2x16 ? IR_UNPACKUN2 :
		              IR_UNPACKSN2;

		n = op == IR_UNPACKUN4 || op == IR_UNPACKSN4 ? 4 : 2;
		for (uint32_t i = 0; i < n; i++) {
			r[i] = xl_emit1(x, op, a.r[0], 0, 0);
			xl_instr(x, x->p->ninstr - 1)->imm = i;
		}
		break;
	}
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "GLSL.std.450 instruction %u not supported", inst);
	}
	xl_set_regs(x, in, r, n);
	return;
bad:
	xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad GLSL.std.450 %u operands", inst);
}

/* Determinant of the k x k submatrix of m (n rows, column major) made
 * of rows rows[] and columns cols[], by cofactor expansion. */
static uint32_t
det_rec(struct xl *x, const uint32_t *m, uint32_t n, const uint32_t *rows,
        const uint32_t *cols, uint32_t k)
{
	uint32_t acc = 0;

	if (k == 1)
		return m[cols[0] * n + rows[0]];
	for (uint32_t j = 0; j < k; j++) {
		uint32_t sub[4], t, si = 0;

		for (uint32_t c = 0; c < k; c++)
			if (c != j)
				sub[si++] = cols[c];
		t = xl_emit1(x, IR_FMUL, m[cols[j] * n + rows[0]],
		          det_rec(x, m, n, rows + 1, sub, k - 1), 0);
		acc = j == 0 ? t : xl_emit1(x, (j & 1) ? IR_FSUB : IR_FADD, acc,
		                         t, 0);
	}
	return acc;
}

static void
glsl_matrix(struct xl *x, const uint32_t *in, uint32_t inst)
{
	const struct xtype *t = xl_type(x, xl_id(x, in[5])->type);
	uint32_t n = t->count, all[4] = { 0, 1, 2, 3 }, r[16], det;
	struct vals a;

	xl_getv(x, in[5], &a);
	if (t->op != SpvOpTypeMatrix || xl_type(x, t->elem)->count != n)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "not a square matrix");
	det = det_rec(x, a.r, n, all, all, n);
	if (inst == GLSLstd450Determinant) {
		xl_set_regs(x, in, &det, 1);
		return;
	}
	/* inverse = adjugate / det: inv[c][r] = cofactor(r, c) / det */
	for (uint32_t c = 0; c < n; c++)
		for (uint32_t row = 0; row < n; row++) {
			uint32_t rs[4], cs[4], ri = 0, ci = 0, cof;

			for (uint32_t i = 0; i < n; i++) {
				if (i != c)
					rs[ri++] = i;
				if (i != row)
					cs[ci++] = i;
			}
			cof = n == 1 ? xl_const_reg(x, 0x3f800000u)
			      : det_rec(x, a.r, n, rs, cs, n - 1);
			if ((row + c) & 1)
				cof = xl_emit1(x, IR_FNEG, cof, 0, 0);
			r[c * n + row] = xl_emit1(x, IR_FDIV, cof, det, 0);
		}
	xl_set_regs(x, in, r, n * n);
}

/* Modf/Frexp with an out pointer, and their struct-returning forms. */
static void
glsl_split(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t inst)
{
	bool frexp = inst == GLSLstd450Frexp || inst == GLSLstd450FrexpStruct;
	bool ptr = inst == GLSLstd450Modf || inst == GLSLstd450Frexp, half;
	uint32_t r[8], o[4], out_t, out_w;
	struct vals a;

	xl_getv(x, in[5], &a);
	if (a.n > 4 || (ptr && wc < 7))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad modf/frexp");
	/* half floats arrive widened to float (xlate_narrow.c), which
	 * repacks only a plain result: pack the struct's halves and the
	 * stored whole part here, and a 16-bit exponent to its
	 * zero-extended form */
	half = xl_type(x, xl_scalar_type(x, xl_id(x, in[5])->type))->width
	       == 16;
	if (ptr)
		out_t = xl_type(x, xl_id(x, in[6])->type)->elem;
	else if (xl_type(x, in[1])->op == SpvOpTypeStruct &&
	         xl_type(x, in[1])->nmembers == 2)
		out_t = x->pool[xl_type(x, in[1])->members + 1];
	else
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad modf/frexp result");
	out_w = xl_type(x, xl_scalar_type(x, out_t))->width;
	for (uint32_t i = 0; i < a.n; i++) {
		if (frexp) {
			r[i] = xl_emit1(x, IR_FREXPM, a.r[i], 0, 0);
			o[i] = xl_emit1(x, IR_FREXPE, a.r[i], 0, 0);
			if (out_w == 16)
				o[i] = xl_emit1(x, IR_AND, o[i],
				                xl_const_reg(x, 0xffff), 0);
		} else {
			o[i] = xl_emit1(x, IR_TRUNC, a.r[i], 0, 0);
			r[i] = xl_emit1(x, IR_FSUB, a.r[i], o[i], 0);
			if (half)
				o[i] = xl_emit1(x, IR_PACKH2, o[i],
				                IR_REG_ZERO, 0);
		}
		/* the pointer form's result is repacked by xlate_narrow.c */
		if (half && !ptr)
			r[i] = xl_emit1(x, IR_PACKH2, r[i], IR_REG_ZERO, 0);
		r[a.n + i] = o[i];
	}
	if (ptr) {
		xl_store_regs(x, xl_ptr(x, in[6]), o, a.n);
		xl_set_regs(x, in, r, a.n);
	} else {
		xl_set_regs(x, in, r, 2 * a.n);
	}
}

/* Where this invocation's inputs were evaluated, within its pixel: the
 * fraction of FragCoord.xy (the pixel centre, or the sample's location
 * when each sample has its own invocation, hw/gfx/frag_shade.c). */
static void
eval_point(struct xl *x, uint32_t here[2])
{
	for (uint32_t c = 0; c < 2; c++) {
		x->p->builtins_used |= 1ull << (IR_REG_FRAG_COORD + c);
		here[c] = xl_emit1(x, IR_FRACT, IR_REG_FRAG_COORD + c, 0, 0);
	}
}

/* The standard location (in the pixel) of sample s at the draw's sample
 * count S: S + s is unique for S = 1, 2, 4, 8 and s < S, so one select
 * chain over the 15 (S, s) pairs; another s gives some location in the
 * pixel (the spec leaves it undefined). */
static void
sample_location(struct xl *x, uint32_t s, uint32_t at[2])
{
	uint32_t idx;

	x->p->builtins_used |= 1ull << IR_REG_SAMPLE_COUNT;
	idx = xl_emit1(x, IR_IADD, IR_REG_SAMPLE_COUNT, s, 0);
	for (uint32_t c = 0; c < 2; c++) {
		float half = 0.5f;
		uint32_t acc, bits;

		memcpy(&bits, &half, 4);
		acc = xl_const_reg(x, bits);
		for (uint32_t S = 1; S <= 8; S <<= 1)
			for (uint32_t i = 0; i < S; i++) {
				float v = c ? gfx_sample_y(S, i)
				            : gfx_sample_x(S, i);
				uint32_t t = xl_new_regs(x, 1), k;

				memcpy(&bits, &v, 4);
				k = xl_emit(x, IR_SELIDX, t, idx,
				            xl_const_reg(x, bits), acc);
				xl_instr(x, k)->imm = S + i;
				acc = t;
			}
		at[c] = acc;
	}
}

/* The interpolation qualifiers (ir_interp) of the input the interpolant
 * points at: those of the component its constant part reaches (an
 * element at a dynamic index has its array's). */
static uint8_t
interpolant_interp(struct xl *x, uint32_t ptr_id)
{
	const struct xptr *p = xl_ptr(x, ptr_id);
	const struct ir_io *io = &x->p->io;

	if (p->space != XS_INPUT)
		return 0;
	for (uint32_t loc = 0; loc < IR_MAX_LOCATIONS; loc++)
		for (uint32_t c = 0; c < 4; c++)
			if (io->in_reg[loc][c] == p->slot + p->off)
				return io->in_interp[loc][c];
	return 0;
}

/* The lane's centroid (IR_REG_CENTROID_SAMPLE, filled by
 * hw/gfx/frag_shade.c): at[] the location of that sample, valid where
 * the register is not ~0u; returns the register. */
static uint32_t
centroid_location(struct xl *x, uint32_t at[2])
{
	x->p->builtins_used |= 1ull << IR_REG_CENTROID_SAMPLE;
	sample_location(x, IR_REG_CENTROID_SAMPLE, at);
	return IR_REG_CENTROID_SAMPLE;
}

/* dst = sel == ~0u ? keep : other, per lane. */
static uint32_t
unless_none(struct xl *x, uint32_t sel, uint32_t keep, uint32_t other)
{
	uint32_t r = xl_new_regs(x, 1);

	xl_instr(x, xl_emit(x, IR_SELIDX, r, sel, keep, other))->imm = ~0u;
	return r;
}

/*
 * InterpolateAtCentroid / AtSample / AtOffset. The input registers hold
 * each lane's value at its evaluation point (eval_point), helpers
 * included, so the fine derivatives are there in any control flow; the
 * value at another point of the pixel is the value plus the move along
 * them: exact for noperspective and flat inputs (linear / constant in
 * screen space), the first-order value of a perspective-correct one.
 * AtSample moves to sample s's standard location, AtOffset to the pixel
 * centre plus the offset, AtCentroid to the lane's centroid (the lowest
 * covered sample of a partly covered pixel, IR_REG_CENTROID_SAMPLE) and
 * keeps the value where the evaluation point is the centroid (fully
 * covered, one sample, per-sample shading, helpers).
 *
 * A Centroid-decorated input already holds its value at that centroid
 * (the engine re-evaluates it by the same rule): AtCentroid is the value
 * itself, and AtSample / AtOffset move from the centroid rather than
 * the evaluation point (the derivatives are then those between the
 * quad's centroids, exact only in fully covered quads).
 */
static void
glsl_interpolate(struct xl *x, const uint32_t *in, uint32_t wc,
                 uint32_t inst)
{
	uint32_t v[MAXV], r[MAXV], n, here[2], to[2], d[2], cs = 0;
	const uint32_t *p;
	bool centroid_in;

	if (x->info->stage != SWGPU_SHADER_STAGE_FRAGMENT)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "GLSL.std.450 %u outside a "
		        "fragment shader", inst);
	if (inst != GLSLstd450InterpolateAtCentroid && wc < 7)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpExtInst");
	if (xl_type(x, xl_scalar_type(x, in[1]))->op != SpvOpTypeFloat ||
	    xl_type(x, xl_scalar_type(x, in[1]))->width != 32)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "GLSL.std.450 %u of other "
		        "than 32-bit floats", inst);
	/* the result is the loaded value (the evaluation point's) ... */
	xl_load(x, in[1], in[2], in[5]);
	{
		const uint8_t m = interpolant_interp(x, in[5]);

		centroid_in = (m & IR_INTERP_CENTROID) &&
		              (m & IR_INTERP_MODE_MASK) != IR_INTERP_FLAT;
	}
	if (inst == GLSLstd450InterpolateAtCentroid && centroid_in)
		return;
	/* ... moved to the point asked for */
	p = xl_val(x, in[2], &n);
	if (n > MAXV)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "interpolant too large");
	memcpy(v, p, n * sizeof(*v));
	if (inst == GLSLstd450InterpolateAtCentroid) {
		cs = centroid_location(x, to);
	} else if (inst == GLSLstd450InterpolateAtSample) {
		sample_location(x, xl_val1(x, in[6]), to);
	} else {
		uint32_t no, hb;
		float half = 0.5f;

		p = xl_val(x, in[6], &no);
		if (no != 2)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "offset of %u "
			        "components", no);
		memcpy(&hb, &half, 4);
		for (uint32_t c = 0; c < 2; c++)
			to[c] = xl_emit1(x, IR_FADD, p[c],
			                 xl_const_reg(x, hb), 0);
	}
	eval_point(x, here);
	if (centroid_in) {
		uint32_t at[2], sel = centroid_location(x, at);

		for (uint32_t c = 0; c < 2; c++)
			here[c] = unless_none(x, sel, here[c], at[c]);
	}
	for (uint32_t c = 0; c < 2; c++)
		d[c] = xl_emit1(x, IR_FSUB, to[c], here[c], 0);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t dx = xl_new_regs(x, 1), dy = xl_new_regs(x, 1);

		xl_instr(x, xl_emit(x, IR_DERIV, dx, v[i], 0, 0))->aux2 =
			IR_DX_FINE;
		xl_instr(x, xl_emit(x, IR_DERIV, dy, v[i], 0, 0))->aux2 =
			IR_DY_FINE;
		r[i] = xl_emit1(x, IR_FADD, v[i],
		                xl_emit1(x, IR_FADD,
		                         xl_emit1(x, IR_FMUL, d[0], dx, 0),
		                         xl_emit1(x, IR_FMUL, d[1], dy, 0), 0),
		                0);
		/* AtCentroid where the evaluation point is the centroid:
		 * the value itself, not moved by 0 x a derivative */
		if (inst == GLSLstd450InterpolateAtCentroid)
			r[i] = unless_none(x, cs, v[i], r[i]);
	}
	xl_set_regs(x, in, r, n);
}

void
xl_ext_inst(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t inst;

	if (wc < 5 || xl_id(x, in[3])->kind != XK_EXTINST)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "unknown OpExtInst set");
	inst = in[4];
	if ((inst == GLSLstd450Degrees || inst == GLSLstd450Radians) &&
	    wc >= 6 && xl_type(x, xl_scalar_type(x, xl_id(x, in[5])->type))
	               ->width == 16) {
		/* a half's degrees or radians: the product with the
		 * constant as a half (57.28125, 0.0174560546875), exact in
		 * float and rounded once to a half by the caller, as a
		 * half multiply would give */
		uint32_t k = xl_const_reg(x, inst == GLSLstd450Degrees ?
		                          0x42652000u : 0x3c8f0000u);
		struct vals v;
		uint32_t r[MAXV];

		xl_getv(x, in[5], &v);
		for (uint32_t i = 0; i < v.n; i++)
			r[i] = xl_emit1(x, IR_FMUL, v.r[i], k, 0);
		xl_set_regs(x, in, r, v.n);
		return;
	}
	for (uint32_t i = 0; i < sizeof(glsl_ops) / sizeof(glsl_ops[0]); i++)
		if (glsl_ops[i].glsl == inst) {
			if (wc < 5u + glsl_ops[i].nops)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "short OpExtInst");
			xl_elementwise(x, in, glsl_ops[i].ir, in + 5,
			            glsl_ops[i].nops);
			return;
		}
	if (wc < 6)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpExtInst");
	if (inst == GLSLstd450InterpolateAtCentroid ||
	    inst == GLSLstd450InterpolateAtSample ||
	    inst == GLSLstd450InterpolateAtOffset)
		glsl_interpolate(x, in, wc, inst);
	else if (inst == GLSLstd450Determinant ||
	         inst == GLSLstd450MatrixInverse)
		glsl_matrix(x, in, inst);
	else if (inst == GLSLstd450Modf || inst == GLSLstd450ModfStruct ||
	         inst == GLSLstd450Frexp || inst == GLSLstd450FrexpStruct)
		glsl_split(x, in, wc, inst);
	else
		glsl_geometry(x, in, wc, inst);
}
