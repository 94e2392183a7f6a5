/* SPDX-License-Identifier: MIT */
/*
 * Sampling (internal to the interpreter): the level-of-detail half
 * (interp_lod.c) shared with the filtering half (interp_sample.c).
 */
#ifndef SWGPU_SHADER_INTERP_SAMPLE_H
#define SWGPU_SHADER_INTERP_SAMPLE_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>

#include <swgpu/swgpu_packet.h>

#include "interp_util.h"

/* The levels one sample reads ("Image Level(s) Selection"). */
struct smp_lod {
	float lambda_prime;        /* lambda_base + the clamped biases */
	float dl;                  /* d_l: level parameter from level_base */
	uint32_t lo, hi;           /* levels read, hi weighted by delta */
	float delta;
	bool linear;               /* LINEAR within a level (mag or min) */
};

/*
 * log2 of the LOD (smp_log2): x = 2^e m, m in [sqrt(2)/2, sqrt(2)),
 * log2(m) = (2 / ln 2) (t + t^3/3 + t^5/5 + t^7/7) with t = (m - 1) /
 * (m + 1) (|t| <= 0.172, truncation error below 5e-8), evaluated in
 * floats without FMA, the same operations in the same order as the
 * fast path's four-quad form (interp_sample_fast.c lod_log2_4), so both
 * give the same bits. Exact at powers of two; zero gives -inf, +inf
 * itself, NaN (or a negative) NaN. The spec leaves the LOD's precision
 * to the implementation (the CTS checks it to 1/64 of a level or so);
 * glibc's log2f, used before, could not be matched lane for lane by a
 * vector form.
 */
#define SMP_LOG2_C1 2.88539008177792681f    /* 2 / ln 2 */
#define SMP_LOG2_C3 0.961796693925975604f   /* C1 / 3 */
#define SMP_LOG2_C5 0.577078016355585363f   /* C1 / 5 */
#define SMP_LOG2_C7 0.412198583111132402f   /* C1 / 7 */
#define SMP_SQRT2 1.41421356f

static inline float
smp_log2_poly(float m)
{
	const float t = (m - 1.0f) / (m + 1.0f), t2 = t * t;

	return t * (SMP_LOG2_C1 + t2 * (SMP_LOG2_C3 +
	                                t2 * (SMP_LOG2_C5 +
	                                      t2 * SMP_LOG2_C7)));
}

static inline float
smp_log2(float x)
{
	union { float f; uint32_t u; } v = { .f = x };
	int32_t e = -127;

	if (!(x > 0.0f))
		return x == 0.0f ? -INFINITY : NAN;
	if (x == INFINITY)
		return x;
	if (x < 0x1p-126f) {            /* subnormal */
		v.f = x * 0x1p23f;
		e -= 23;
	}
	e += (int32_t)(v.u >> 23);
	v.u = (v.u & 0x7fffffu) | 0x3f800000u;
	if (v.f > SMP_SQRT2) {
		v.f *= 0.5f;
		e += 1;
	}
	return (float)e + smp_log2_poly(v.f);
}

/* lambda_base of the isotropic scale factor: log2 of the larger of
 * |d(s,t,r)/dx| and |d(s,t,r)/dy| in texels of the view's base level
 * (dims coordinates). */
static inline float
lod_scale(const struct ir_image_binding *im, uint32_t dims, const float dx[3],
          const float dy[3])
{
	const float size[3] = { (float)im->width, (float)im->height,
	                        (float)im->depth };
	float rx = 0.0f, ry = 0.0f;

	for (uint32_t a = 0; a < dims && a < 3; a++) {
		float mx = dx[a] * size[a], my = dy[a] * size[a];

		rx += mx * mx;
		ry += my * my;
	}
	/* rho_x = |(m_ux, m_vx, m_wx)|: between the largest magnitude and
	 * sqrt(2) times their sum, as the spec allows */
	return 0.5f * smp_log2(rx > ry ? rx : ry);
}

/* Derivatives of the cube face coordinates (s_face, t_face) from those
 * of the direction dir on face ("Cube Map Derivative Transformation"). */
void lod_cube_derivs(uint32_t face, const float dir[3], const float ddx[3],
                     const float ddy[3], float fdx[3], float fdy[3]);

/* lambda' (bias added and clamped to +-SWGPU_SAMPLER_MAX_LOD_BIAS),
 * lambda (clamped to [max(minLod, shader min_lod), maxLod]) and the
 * level(s) of a view of `levels` levels. Unnormalized coordinates read
 * level 0 (their LOD is 0). */
void lod_select(const struct swgpu_sampler_state *ss, uint32_t levels,
                bool unnorm, float lambda_base, float shader_bias,
                float shader_min_lod, struct smp_lod *o);

/* lod_select in two halves: the sampler's part once (lod_prepare), then
 * any number of selections with the same results. */
struct lod_sampler {
	float bias, min_lod, max_lod, q;
	uint32_t qi;               /* q as an integer */
	bool unnorm, mag_linear, min_linear, mip_linear;
};
void lod_prepare(const struct swgpu_sampler_state *ss, uint32_t levels,
                 bool unnorm, struct lod_sampler *o);
void lod_select_prepared(const struct lod_sampler *ls, float lambda_base,
                         float shader_bias, float shader_min_lod,
                         struct smp_lod *o);

/* The sampler's and the shader's bias, summed and clamped, and the
 * larger of their minimum LODs (lod_select's first step; the fast path
 * takes it once per instruction when every lane has the same ones). */
static inline void
lod_bias_min(const struct lod_sampler *ls, float shader_bias,
             float shader_min_lod, float *bias_out, float *min_lod_out)
{
	const float max_bias = SWGPU_SAMPLER_MAX_LOD_BIAS;
	float bias = ls->bias + shader_bias, min_lod = ls->min_lod;

	if (isnan(bias))
		bias = 0.0f;
	else if (bias > max_bias)
		bias = max_bias;
	else if (bias < -max_bias)
		bias = -max_bias;
	if (shader_min_lod > min_lod)
		min_lod = shader_min_lod;
	*bias_out = bias;
	*min_lod_out = min_lod;
}

/* lod_select_prepared's body, inlined by the fast path (per quad). */
static inline void
lod_select_inline(const struct lod_sampler *ls, float lambda_base,
                  float shader_bias, float shader_min_lod,
                  struct smp_lod *o)
{
	float bias, min_lod, max_lod = ls->max_lod;
	const float q = ls->q;
	float lambda, d;

	lod_bias_min(ls, shader_bias, shader_min_lod, &bias, &min_lod);
	lambda = ls->unnorm ? 0.0f : lambda_base + bias;
	if (isnan(lambda))
		lambda = 0.0f;
	o->lambda_prime = lambda;
	if (!ls->unnorm) {
		if (lambda > max_lod)
			lambda = max_lod;
		if (lambda < min_lod)
			lambda = min_lod;
	}
	o->linear = lambda <= 0.0f ? ls->mag_linear : ls->min_linear;
	d = lambda < 0.0f ? 0.0f : lambda > q ? q : lambda;
	if (!ls->mip_linear) {
		/* nearest(d') = ceil(d' + 0.5) - 1, the preferred rule */
		o->lo = d <= 0.5f ? 0 : (uint32_t)ceilf(d + 0.5f) - 1;
		if (o->lo > q)
			o->lo = (uint32_t)q;
		o->hi = o->lo;
		o->delta = 0.0f;
		o->dl = (float)o->lo;
	} else {
		/* d is in [0, q] (or -0): floor is the truncation (for -0
		 * delta is -0 instead of +0; every reader asks delta > 0) */
		o->lo = (uint32_t)(int32_t)d;
		o->hi = o->lo + 1 <= ls->qi ? o->lo + 1 : o->lo;
		o->delta = d - (float)o->lo;
		o->dl = d;
	}
}

static inline int32_t
smp_mirror(int32_t a)
{
	return a >= 0 ? a : -(1 + a);
}

/* Texel index i wrapped into [0, size) by address mode (VkSampler-
 * AddressMode), or -1 for a border texel (CLAMP_TO_BORDER). */
static inline int32_t
smp_wrap(int32_t i, int32_t size, uint32_t mode)
{
	switch (mode) {
	case 0:                         /* REPEAT */
		i %= size;
		return i < 0 ? i + size : i;
	case 1: {                       /* MIRRORED_REPEAT */
		int32_t m = i % (2 * size);

		if (m < 0)
			m += 2 * size;
		return (size - 1) - smp_mirror(m - size);
	}
	case 3:                         /* CLAMP_TO_BORDER */
		return i < 0 || i >= size ? -1 : i;
	case 4:                         /* MIRROR_CLAMP_TO_EDGE */
		i = smp_mirror(i);
		return i >= size ? size - 1 : i;
	default:                        /* CLAMP_TO_EDGE */
		return i < 0 ? 0 : i >= size ? size - 1 : i;
	}
}

/* floor(u) + off, kept inside int32 for any offset (an Offset operand
 * may be any value; wrapping makes the exact one irrelevant that far
 * out). */
static inline int32_t
smp_floor_off(float u, int64_t off)
{
	int64_t i = (int64_t)floorf(u) + off;

	return i > INT32_MAX / 2 ? INT32_MAX / 2 :
	       i < INT32_MIN / 2 ? INT32_MIN / 2 : (int32_t)i;
}

/* Unnormalized coordinate c * size within int32 range (wrapping makes
 * any coordinate this far out land somewhere valid); NaN and infinities
 * read 0. */
static inline float
smp_unnorm_clamp(float u)
{
	if (!isfinite(u))
		return 0.0f;
	return u > 1e9f ? 1e9f : u < -1e9f ? -1e9f : u;
}

/*
 * Filtering of 8-bit UNORM formats ("codes"): every texel's channels
 * enter the weighted sums as their codes 0..255 (the decoded value
 * times 255, exact for every code, a missing channel's 0 or 1 giving 0
 * or 255), the level blend too, and the result is divided by 255 once
 * and clamped to <= 1: one rounding at the end instead of one per
 * texel, and the quad path's per-texel divisions gone. Every path
 * (interp_sample.c, interp_sample_fast.c) filters these formats so.
 */
static inline bool
smp_codes(const swgpu_format_info *fi)
{
	if (!fi || fi->numeric != SWGPU_NUMERIC_UNORM ||
	    (fi->caps & SWGPU_FORMAT_CAP_COMPRESSED))
		return false;
	for (int c = 0; c < 4; c++)
		if (fi->bit_width[c] &&
		    (fi->bit_width[c] != 8 || fi->bit_offset[c] % 8))
			return false;
	return true;
}

/* A filtered sum of codes back to the [0, 1] value. */
static inline float
smp_codes_value(float sum)
{
	const float v = sum / 255.0f;

	return v > 1.0f ? 1.0f : v;
}

/*
 * LINEAR filtering of 8-bit UNORM formats in fixed point (every path
 * alike, SWGPU_SAMPLE_FIXED=0: the float weights above). The spec lets
 * sub-texel positions snap to 2^subTexelPrecisionBits divisions per
 * texel; swgpu claims 8 bits and snaps every axis's fraction
 * (u - 0.5 - floor(u - 0.5)) down to the 1/256 grid (smp_sub8: f in
 * 0..255, a fraction that rounds to 1.0 gives 255). A level's result
 * is then the exact integer sum of the codes times the integer weights,
 * x first: X_j = (256 - fx) t(i0, j) + fx t(i1, j), then
 * (256 - fy) X_0 + fy X_1 (2D: at most 255 * 2^16 < 2^24, exact in a
 * float, so the float forms and the integer SIMD form,
 * interp_sample_avx2.c, give the same value in any order). The level
 * blend is the float one ((1 - delta) a + delta b), and the result is
 * divided once by 255 * 256^dims (smp_codes_value_scaled) and clamped
 * to <= 1. NEAREST levels keep the codes (scale 255).
 */
#define SMP_SUB_ONE 256
static inline int32_t
smp_sub8(float frac)
{
	/* frac is in [0, 1] (the difference of a float and its floor) */
	const int32_t f = (int32_t)(frac * (float)SMP_SUB_ONE);

	return f > SMP_SUB_ONE - 1 ? SMP_SUB_ONE - 1 : f;
}

/* SWGPU_SAMPLE_FIXED is not 0 (interp_sample.c). */
bool smp_fixed_enabled(void);

/* What a filtered sum of codes is divided by: 255 for NEAREST (or the
 * float weights), 255 * 256^dims for fixed-point LINEAR. */
static inline float
smp_codes_scale(bool fixed_linear, uint32_t dims)
{
	float s = 255.0f;

	for (uint32_t a = 0; fixed_linear && a < dims; a++)
		s *= (float)SMP_SUB_ONE;
	return s;
}

static inline float
smp_codes_value_scaled(float sum, float scale)
{
	const float v = sum / scale;

	return v > 1.0f ? 1.0f : v;
}

/* The fast path of IR_IMGSAMPLE (interp_sample_fast.c): 2D views of
 * byte-channel formats without comparison, gather or border; false
 * (nothing done) when it does not apply. */
bool interp_sample_fast(struct ir_exec *e, const struct ir_dispatch *d,
                        const struct ir_instr *in, bool full);
/* The sampler of an IR_IMGSAMPLE at descriptor index idx, or NULL. */
const struct ir_buffer_binding *smp_sampler_of(const struct ir_dispatch *d,
                                               const struct ir_instr *in,
                                               uint32_t idx);

#endif
