/* SPDX-License-Identifier: MIT */
/*
 * Sampling (internal to the interpreter): the level-of-detail half
 * (interp_lod.c) shared with the filtering half (interp_sample.c).
 */
#ifndef SWGPU_SHADER_INTERP_SAMPLE_H
#define SWGPU_SHADER_INTERP_SAMPLE_H

#include <stdbool.h>
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

#endif
