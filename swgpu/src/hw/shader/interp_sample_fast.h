/* SPDX-License-Identifier: MIT */
/*
 * The fast sampling path's resolved image (interp_sample_fast.c), shared
 * with its AVX2 form (interp_sample_avx2.c, two quads per 8-lane
 * vector, chosen at run time).
 */
#ifndef SWGPU_SHADER_INTERP_SAMPLE_FAST_H
#define SWGPU_SHADER_INTERP_SAMPLE_FAST_H

#include "interp_sample.h"

#define FAST_MAX_LEVELS 16u

struct fast_level {
	const uint8_t *base;       /* texel (0, 0) */
	uint32_t row_pitch;
	int32_t w, h;
	float fw, fh;
};

struct fast_img {
	uint32_t elem;
	uint32_t addr[2];          /* address modes of u, v */
	const float *tab[4];       /* channel decode tables */
	uint8_t byte[4];           /* byte of each channel */
	/* 4-byte UNORM texels, all four channels, R at byte 0 (rgba) or
	 * 2 (bgra): decoded four channels at once */
	bool vec, bgra;
	/* smp_codes: channels as codes 0..255 (every vec format) */
	bool codes;
	/* codes filtered LINEAR in fixed point (smp_sub8,
	 * smp_fixed_enabled) */
	bool fixed;
	bool off32;                /* texel offsets in a level fit int32 */
	/* the AVX2 form may load a lane's two texels of a row as one
	 * 8-byte element (SWGPU_SAMPLE_PAIRS=0: two 4-byte ones) */
	bool pairs;
	struct fast_level lv[FAST_MAX_LEVELS];
};

/*
 * What an IR_IMGSAMPLE's image and sampler resolve to for the fast path
 * (interp_sample_setup.c): the levels, decode and address modes, the
 * sampler's LOD half. Cached per thread and instruction, valid while
 * the bindings it came from are unchanged.
 */
struct fast_res {
	struct fast_img fi;
	const struct ir_image_binding *im;
	struct lod_sampler ls;
	/* The LOD cannot change the result (lod_fixed): one level and the
	 * same filter for magnification and minification; lod0 is what
	 * lod_select_prepared gives for any lambda then. */
	bool lod_fixed;
	struct smp_lod lod0;
};

/* The resolved image of a sample whose image and sampler are uniform
 * and that the fast path covers, or NULL (the general path runs). The
 * result stays valid until this thread's next call. */
const struct fast_res *fast_resolve(const struct ir_dispatch *d,
                                    const struct ir_instr *in);

/* Eight lanes (two quads, S and T of each lane) filtered at one level,
 * and when lv_hi is given at the next one too, blended per quad by
 * (blend_lo[i], blend_hi[i]) of quad i: the operations of the SSE2
 * quad path (interp_sample_fast.c's quad_level and fast_quad), lane for
 * lane, so the results are the same bits. For fi->vec images whose
 * address modes quad_mode_ok accepts. out[c * stride + lane]: the final
 * values (smp_codes_value_scaled applied). Only when smp_have_avx2(). */
void smp_two_quads_avx2(const struct fast_img *fi,
                        const struct fast_level *lv_lo,
                        const struct fast_level *lv_hi, bool linear,
                        const float S[8], const float T[8],
                        const float blend_lo[2], const float blend_hi[2],
                        float *out, size_t stride);
/* smp_two_quads_avx2's last step on sums[c * 8 + lane]: out[c * stride +
 * lane] = min(sums / scale, 1), as vdivps rounds it (with FMA by the
 * reciprocal and one correction; SWGPU_SAMPLE_FMA=0 turns that off).
 * Sums are finite and >= +0. Only when smp_have_avx2(). */
void smp_values_avx2(const float *sums, float scale, float *out,
                     size_t stride);
/* smp_two_quads_avx2 for four quads (16 lanes, S16/T16, blends per
 * quad), NEAREST, or LINEAR on fi->fixed images: the same bits. Only
 * when smp_have_avx512(). */
void smp_four_quads_avx512(const struct fast_img *fi,
                           const struct fast_level *lv_lo,
                           const struct fast_level *lv_hi, bool linear,
                           const float S16[16], const float T16[16],
                           const float blend_lo[4], const float blend_hi[4],
                           float *out, size_t stride);
/* lambda_base of sixteen quads (implicit LOD, S and T of their 64
 * lanes) into lam[16]: lod_lambdas's operations (interp_sample_fast.c),
 * the same bits. Only when smp_have_avx512(). */
void smp_lambdas16_avx512(const float S[64], const float T[64], float width,
                          float height, float lam[16]);
/* The CPU has AVX2 and FMA, and SWGPU_SAMPLE_AVX2 is not 0. */
bool smp_have_avx2(void);
/* smp_have_avx2(), the CPU has AVX-512F and BW, and SWGPU_SAMPLE_AVX512
 * is not 0. */
bool smp_have_avx512(void);
/* SWGPU_SAMPLE_FMA is not 0 (set by smp_have_avx2's first call). */
extern bool smp_fma_div;
/* SWGPU_SAMPLE_PAIRS is not 0. */
bool smp_pairs_enabled(void);

#endif
