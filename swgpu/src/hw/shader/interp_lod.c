/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: the level of detail of a sample, following the
 * Vulkan spec's "Scale Factor Operation, LOD Operation and Image
 * Level(s) Selection": derivatives of the normalized coordinates (from
 * the quad, the Grad operands, or none when a Lod is given) scaled to
 * the base level's texels, cube derivatives moved onto the face, an
 * isotropic scale factor, the biases and clamps, then the one level
 * (NEAREST mipmap mode) or two (LINEAR) that filtering reads.
 */
#include <math.h>

#include "interp_sample.h"

/* Per face (the spec's selection table, as interp_sample.c's
 * cube_face): s_c, t_c and r_c as sign * direction[axis], r_c >= 0. */
static const struct {
	int8_t s_axis, s_sign, t_axis, t_sign, r_axis, r_sign;
} face_axes[6] = {
	{ 2, -1, 1, -1, 0, 1 },    /* +x */
	{ 2, 1, 1, -1, 0, -1 },    /* -x */
	{ 0, 1, 2, 1, 1, 1 },      /* +y */
	{ 0, 1, 2, -1, 1, -1 },    /* -y */
	{ 0, 1, 1, -1, 2, 1 },     /* +z */
	{ 0, -1, 1, -1, 2, -1 },   /* -z */
};

void
lod_cube_derivs(uint32_t face, const float dir[3], const float ddx[3],
                const float ddy[3], float fdx[3], float fdy[3])
{
	const int sa = face_axes[face].s_axis, ta = face_axes[face].t_axis;
	const int ra = face_axes[face].r_axis;
	const float ss = face_axes[face].s_sign, ts = face_axes[face].t_sign;
	const float rs = face_axes[face].r_sign;
	const float sc = ss * dir[sa], tc = ts * dir[ta], rc = rs * dir[ra];
	const float inv = rc != 0.0f ? 0.5f / (rc * rc) : 0.0f;

	/* d(sc / |rc|) = (|rc| dsc - sc drc) / rc^2, halved */
	fdx[0] = inv * (rc * ss * ddx[sa] - sc * rs * ddx[ra]);
	fdy[0] = inv * (rc * ss * ddy[sa] - sc * rs * ddy[ra]);
	fdx[1] = inv * (rc * ts * ddx[ta] - tc * rs * ddx[ra]);
	fdy[1] = inv * (rc * ts * ddy[ta] - tc * rs * ddy[ra]);
	fdx[2] = fdy[2] = 0.0f;
}

void
lod_prepare(const struct swgpu_sampler_state *ss, uint32_t levels,
            bool unnorm, struct lod_sampler *o)
{
	o->bias = (float)(int16_t)(ss->filter >> 16) / 256.0f;
	o->min_lod = (float)(ss->lod & 0xffff) / 256.0f;
	o->max_lod = (float)(ss->lod >> 16) / 256.0f;
	o->q = (float)(levels ? levels - 1 : 0);
	o->qi = levels ? levels - 1 : 0;
	o->unnorm = unnorm;
	o->mag_linear = (ss->filter & SWGPU_SAMPLER_MAG_LINEAR) != 0;
	o->min_linear = (ss->filter & SWGPU_SAMPLER_MIN_LINEAR) != 0;
	o->mip_linear = (ss->filter & SWGPU_SAMPLER_MIP_LINEAR) != 0;
}

void
lod_select_prepared(const struct lod_sampler *ls, float lambda_base,
                    float shader_bias, float shader_min_lod,
                    struct smp_lod *o)
{
	lod_select_inline(ls, lambda_base, shader_bias, shader_min_lod, o);
}

void
lod_select(const struct swgpu_sampler_state *ss, uint32_t levels,
           bool unnorm, float lambda_base, float shader_bias,
           float shader_min_lod, struct smp_lod *o)
{
	struct lod_sampler ls;

	lod_prepare(ss, levels, unnorm, &ls);
	lod_select_prepared(&ls, lambda_base, shader_bias, shader_min_lod, o);
}
