/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: the OpSpecConstantOp forms that are not
 * arithmetic on words (xlate_const.c folds those): the conversions
 * (SConvert, UConvert, FConvert between any of the widths the engine
 * has, QuantizeToF16) and the composite ones (VectorShuffle,
 * CompositeInsert). They are folded at declaration, as every spec op.
 *
 * A constant keeps one word per 8/16/32-bit component (narrow ones
 * zero-extended) and two (low, high) per 64-bit one. Float conversions
 * round to nearest even, or toward zero under the RoundingModeRTZ
 * execution mode of the result's width or an FPRoundingMode RTZ
 * decoration of the result (execution modes and decorations precede
 * constants in a module, so both are known when the constant is folded).
 */
#include "xlate.h"

#include <math.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "interp_half.h"

#define SPEC_MAX_COMPS 16u

/* The components of a scalar or vector constant as 64-bit words. */
struct spec_vec {
	uint32_t n, width;
	bool is_float, is_signed;
	uint64_t c[SPEC_MAX_COMPS];
};

static void
read_vec(struct xl *x, uint32_t id, struct spec_vec *v)
{
	const struct xid *d = xl_id(x, id);
	const struct xtype *t, *s;
	uint32_t words;

	if (d->kind != XK_CONST)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp operand %u "
		        "is not a constant", id);
	t = xl_type(x, d->type);
	s = xl_type(x, xl_scalar_type(x, d->type));
	if (t->op != SpvOpTypeVector && t->op != SpvOpTypeInt &&
	    t->op != SpvOpTypeFloat && t->op != SpvOpTypeBool)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp operand %u "
		        "is not a scalar or vector", id);
	v->n = t->op == SpvOpTypeVector ? t->count : 1;
	v->width = s->op == SpvOpTypeBool ? 32 : s->width;
	v->is_float = s->op == SpvOpTypeFloat;
	v->is_signed = s->is_signed;
	words = v->width == 64 ? 2 : 1;
	if (v->n > SPEC_MAX_COMPS || v->n * words != t->scalars)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp operand %u "
		        "has a bad shape", id);
	for (uint32_t i = 0; i < v->n; i++)
		v->c[i] = words == 2 ?
		          x->cpool[d->cval + 2 * i] |
		          (uint64_t)x->cpool[d->cval + 2 * i + 1] << 32 :
		          x->cpool[d->cval + i];
}

/* Result type of the op as an empty spec_vec (shape and kind). */
static void
result_shape(struct xl *x, uint32_t type, struct spec_vec *v)
{
	const struct xtype *t = xl_type(x, type);
	const struct xtype *s = xl_type(x, xl_scalar_type(x, type));

	memset(v, 0, sizeof(*v));
	v->n = t->op == SpvOpTypeVector ? t->count : 1;
	v->width = s->op == SpvOpTypeBool ? 32 : s->width;
	v->is_float = s->op == SpvOpTypeFloat;
	v->is_signed = s->is_signed;
	if (v->n > SPEC_MAX_COMPS ||
	    v->n * (v->width == 64 ? 2 : 1) != t->scalars)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp result type "
		        "%u is not a scalar or vector", type);
}

static void
write_vec(struct xl *x, uint32_t type, uint32_t id, const struct spec_vec *v)
{
	uint32_t *w = xl_new_const(x, type, id);

	for (uint32_t i = 0; i < v->n; i++) {
		if (v->width == 64) {
			w[2 * i] = (uint32_t)v->c[i];
			w[2 * i + 1] = (uint32_t)(v->c[i] >> 32);
		} else {
			w[i] = (uint32_t)v->c[i];
		}
	}
	x->ids[id].is_spec = true;
}

/* A float of width bits (16, 32, 64) as a double: exact. */
static double
float_value(uint64_t bits, uint32_t width)
{
	union { float f; uint32_t u; } f32;
	union { double d; uint64_t u; } f64;

	if (width == 16)
		return interp_f16_to_f32((uint16_t)bits);
	if (width == 32) {
		f32.u = (uint32_t)bits;
		return f32.f;
	}
	f64.u = bits;
	return f64.d;
}

/* A double to binary16, rounded to nearest even or toward zero (one
 * rounding, not two through float). */
static uint16_t
double_to_half(double d, bool rtz)
{
	uint16_t sign = signbit(d) ? 0x8000u : 0;
	double a = fabs(d), m;
	int e;

	if (isnan(d))
		return (uint16_t)(sign | 0x7e00u);
	if (rtz && !isinf(a) && a >= 65536.0)   /* the largest finite half */
		return (uint16_t)(sign | 0x7bffu);
	if (a >= (rtz ? 65536.0 : 65520.0))    /* RTE: halfway above it */
		return (uint16_t)(sign | 0x7c00u);
	e = ilogb(a);
	if (a == 0.0 || e < -14) {
		/* subnormal: units of 2^-24; 1024 becomes the smallest
		 * normal by itself */
		m = ldexp(a, 24);
		m = rtz ? trunc(m) : nearbyint(m);
		return (uint16_t)(sign | (uint16_t)m);
	}
	m = ldexp(a, 10 - e);                  /* 1024 .. 2048 */
	m = rtz ? trunc(m) : nearbyint(m);
	if (m >= 2048.0) {
		m = 1024.0;
		e++;
	}
	if (e > 15)
		return (uint16_t)(sign | 0x7c00u);
	return (uint16_t)(sign | (uint32_t)(e + 15) << 10 |
	                  ((uint32_t)m - 1024u));
}

static uint64_t
float_bits(double d, uint32_t width, bool rtz)
{
	union { float f; uint32_t u; } f32;
	union { double d; uint64_t u; } f64;

	if (width == 16)
		return double_to_half(d, rtz);
	if (width == 32) {
		f32.f = (float)d;      /* round to nearest even */
		/* toward zero: one step back when that rounded away */
		if (rtz && !isnan(d) && !isinf(d) && fabs((double)f32.f) > fabs(d))
			f32.f = nextafterf(f32.f, 0.0f);
		return f32.u;
	}
	f64.d = d;
	return f64.u;
}

static uint64_t
width_mask(uint32_t width)
{
	return width >= 64 ? UINT64_MAX : (1ull << width) - 1;
}

static uint64_t
sign_extend(uint64_t v, uint32_t width)
{
	if (width >= 64)
		return v;
	return (v & (1ull << (width - 1))) ? v | ~width_mask(width)
	                                   : v & width_mask(width);
}

static void
convert(struct xl *x, uint32_t op, const uint32_t *in, uint32_t wc)
{
	struct spec_vec a, r;
	bool rtz;

	xl_need(x, wc, 5, SpvOpSpecConstantOp);
	read_vec(x, in[4], &a);
	result_shape(x, in[1], &r);
	rtz = xl_id(x, in[2])->round_rtz ||
	      (x->rtz_widths & (r.width == 16 ? XL_FTZ16 : r.width == 32 ?
	                        XL_FTZ32 : XL_FTZ64));
	if (a.n != r.n)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp %u: "
		        "conversion of %u components to %u", in[2], a.n, r.n);
	for (uint32_t i = 0; i < r.n; i++) {
		uint64_t v = a.c[i];

		if (op == SpvOpSConvert)
			v = sign_extend(v, a.width);
		else if (op == SpvOpFConvert)
			v = float_bits(float_value(v, a.width), r.width, rtz);
		else if (op == SpvOpQuantizeToF16)
			v = float_bits(float_value(double_to_half(
			                   float_value(v, 32), false), 16), 32,
			               false);
		r.c[i] = v & width_mask(r.width);
	}
	write_vec(x, in[1], in[2], &r);
}

/* Components of the composite constant id, flattened to words. */
static const uint32_t *
words_of(struct xl *x, uint32_t id, uint32_t *n)
{
	const struct xid *d = xl_id(x, id);

	if (d->kind != XK_CONST)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp operand %u "
		        "is not a constant", id);
	*n = xl_type(x, d->type)->scalars;
	return x->cpool + d->cval;
}

static void
vector_shuffle(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct spec_vec a, b, r;

	xl_need(x, wc, 6, SpvOpSpecConstantOp);
	read_vec(x, in[4], &a);
	read_vec(x, in[5], &b);
	result_shape(x, in[1], &r);
	if (wc - 6 != r.n)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp %u: "
		        "VectorShuffle of %u components into %u", in[2],
		        wc - 6, r.n);
	for (uint32_t i = 0; i < r.n; i++) {
		uint32_t s = in[6 + i];

		if (s == UINT32_MAX)            /* undefined component */
			r.c[i] = 0;
		else if (s < a.n)
			r.c[i] = a.c[s];
		else if (s - a.n < b.n)
			r.c[i] = b.c[s - a.n];
		else
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp "
			        "%u: shuffle index %u out of range", in[2], s);
	}
	write_vec(x, in[1], in[2], &r);
}

/* CompositeInsert: the composite (in[5]) with the object (in[4])
 * at the literal indices from in[6]. */
static void
composite_insert(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t type, off = 0, nobj, ncomp, *w;
	const uint32_t *obj, *comp;
	uint32_t tmp[256];

	xl_need(x, wc, 7, SpvOpSpecConstantOp);
	type = xl_id(x, in[5])->type;
	comp = words_of(x, in[5], &ncomp);
	obj = words_of(x, in[4], &nobj);
	if (type != in[1] || ncomp > sizeof(tmp) / 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp %u: "
		        "CompositeInsert into a composite of another type "
		        "or over 256 words", in[2]);
	for (uint32_t i = 6; i < wc; i++) {
		const struct xtype *t = xl_type(x, type);

		if (t->op == SpvOpTypeStruct) {
			if (in[i] >= t->nmembers)
				xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad index");
			for (uint32_t m = 0; m < in[i]; m++)
				off += xl_type(x,
				               x->pool[t->members + m])->scalars;
			type = x->pool[t->members + in[i]];
		} else if (t->op == SpvOpTypeVector ||
		           t->op == SpvOpTypeMatrix ||
		           t->op == SpvOpTypeArray) {
			if (in[i] >= t->count)
				xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad index");
			off += in[i] * xl_type(x, t->elem)->scalars;
			type = t->elem;
		} else {
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp %u: "
			        "index into a scalar", in[2]);
		}
	}
	if (xl_type(x, type)->scalars != nobj || off + nobj > ncomp)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpSpecConstantOp %u: "
		        "CompositeInsert of a mismatched object", in[2]);
	memcpy(tmp, comp, ncomp * 4);
	memcpy(tmp + off, obj, nobj * 4);
	w = xl_new_const(x, in[1], in[2]);   /* may move cpool */
	memcpy(w, tmp, ncomp * 4);
	x->ids[in[2]].is_spec = true;
}

bool
xl_spec_op_special(struct xl *x, const uint32_t *in, uint32_t wc)
{
	switch (in[3]) {
	case SpvOpSConvert:
	case SpvOpUConvert:
	case SpvOpFConvert:
	case SpvOpQuantizeToF16:
		convert(x, in[3], in, wc);
		return true;
	case SpvOpVectorShuffle:
		vector_shuffle(x, in, wc);
		return true;
	case SpvOpCompositeInsert:
		composite_insert(x, in, wc);
		return true;
	default:
		return false;
	}
}
