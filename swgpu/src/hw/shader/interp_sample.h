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

#include "interp_util.h"

/* The levels one sample reads ("Image Level(s) Selection"). */
struct smp_lod {
	float lambda_prime;        /* lambda_base + the clamped biases */
	float dl;                  /* d_l: level parameter from level_base */
	uint32_t lo, hi;           /* levels read, hi weighted by delta */
	float delta;
	bool linear;               /* LINEAR within a level (mag or min) */
};

/* lambda_base of the isotropic scale factor: log2 of the larger of
 * |d(s,t,r)/dx| and |d(s,t,r)/dy| in texels of the view's base level
 * (dims coordinates). */
float lod_scale(const struct ir_image_binding *im, uint32_t dims,
                const float dx[3], const float dy[3]);

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
	bool unnorm, mag_linear, min_linear, mip_linear;
};
void lod_prepare(const struct swgpu_sampler_state *ss, uint32_t levels,
                 bool unnorm, struct lod_sampler *o);
void lod_select_prepared(const struct lod_sampler *ls, float lambda_base,
                         float shader_bias, float shader_min_lod,
                         struct smp_lod *o);

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
