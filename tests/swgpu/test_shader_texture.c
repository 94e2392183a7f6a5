/* SPDX-License-Identifier: MIT */
/*
 * Sampling in fragment programs (engine level: the translator and the
 * batch runner of stage.h, resources bound straight into the dispatch),
 * against hand-computed expectations:
 *  - the LOD: implicit from known quad derivatives (isotropic: the
 *    larger axis), with a Bias (quad 5: lambda -2 plus a bias of 5,
 *    below maxSamplerLodBias 16, reads level 3), from Grad, explicit,
 *    projective, with MinLod, clamped to the view's levels;
 *    textureQueryLod's (d_l, lambda') (GLSL's order); NEAREST and
 *    LINEAR mipmap
 *    modes, magnification vs minification filters; texelFetch; a
 *    ConstOffset;
 *  - a cube map's LOD from direction derivatives moved onto the face;
 *  - gathers: components, an Offset, four ConstOffsets, the view's
 *    swizzle applied first;
 *  - depth comparison with each of the 8 compare ops, LINEAR
 *    (percentage closer), projective, explicit, a Dref gather, and the
 *    reference clamped to [0, 1] for a UNORM depth format only.
 */
#include "shader_stage_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

#include "sh_fs_cube.spv.h"
#include "sh_fs_dref.spv.h"
#include "sh_fs_gather.spv.h"
#include "sh_fs_lod.spv.h"

#define W 32u
#define CLAMP_ALL (2u | 2u << 8 | 2u << 16)
#define NO_MAX_LOD (255u * 256u << 16)

#define OUT(e, io, loc, c, l) (ss_lane((e), (io)->out_reg[loc][c], (l))->f)
#define IN(e, io, loc, c, l) (ss_lane((e), (io)->in_reg[loc][c], (l))->f)

/* ------------------------------------------------------------------ */
/* LOD                                                                 */
/* ------------------------------------------------------------------ */

/* An 8x8 RGBA32F texture with 4 levels; texel (x, y) of level L is
 * (L, x, y, 1), so R tells the level read (or the blend of two). */
static float *
lod_texture(struct ir_image_binding *im, uint64_t *size)
{
	float *mem;

	*size = ss_image(im, 1, SWGPU_FORMAT_R32G32B32A32_SFLOAT, 8, 8, 1, 4);
	mem = calloc(1, *size);
	for (uint32_t lv = 0; lv < 4; lv++)
		for (uint32_t y = 0; y < (8u >> lv); y++)
			for (uint32_t x = 0; x < (8u >> lv); x++) {
				float *t = ss_texel(im, mem, lv, 0, x, y);

				t[0] = (float)lv;
				t[1] = (float)x;
				t[2] = (float)y;
				t[3] = 1.0f;
			}
	return mem;
}

/* Per quad: uv steps along x and y (normalized units per pixel), so
 * rho = 8 * step and lambda = log2(8 * max step). */
static const float step_x[6] = { 1 / 8.f, 2 / 8.f, 1 / 8.f, 3 / 8.f,
                                 16 / 8.f, 1 / 32.f };
static const float step_y[6] = { 1 / 8.f, 1 / 8.f, 4 / 8.f, 3 / 8.f,
                                 1 / 8.f, 1 / 32.f };
static const float lambda[6] = { 0, 1, 2, 1.5849625f, 4, -2 };

static void
lod_inputs(struct ir_exec *e, const struct ir_io *io, uint32_t n)
{
	for (uint32_t l = 0; l < n; l++) {
		const uint32_t q = l / 4;
		const float dx = (float)(l & 1), dy = (float)((l >> 1) & 1);

		IN(e, io, 0, 0, l) = 0.25f + step_x[q] * dx;
		IN(e, io, 0, 1, l) = 0.25f + step_y[q] * dy;
		IN(e, io, 1, 0, l) = step_x[q];          /* dP/dx */
		IN(e, io, 1, 1, l) = 0.0f;
		IN(e, io, 1, 2, l) = 0.0f;               /* dP/dy */
		IN(e, io, 1, 3, l) = step_y[q];
		IN(e, io, 2, 0, l) = q == 5 ? 5.0f : 1.0f;     /* bias */
		IN(e, io, 3, 0, l) = 0.6f * (float)q;          /* lod */
	}
}

static void
test_lod(void **state)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	struct ir_program *p = ss_translate(sh_fs_lod_spv,
	                                    sizeof(sh_fs_lod_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t,
	                                    1, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	uint64_t size;
	float *mem = lod_texture(&im, &size);
	uint8_t live[W];
	const uint32_t n = 24;
	/* NEAREST mipmap: nearest(d) = ceil(d + 0.5) - 1 of the clamped
	 * lambda, per quad */
	static const float impl[6] = { 0, 1, 2, 2, 3, 0 };
	static const float biased[6] = { 1, 2, 3, 3, 3, 3 };
	static const float lod[6] = { 0, 1, 1, 2, 2, 3 };
	static const float clamped[6] = { 0, 1, 2, 2, 3, 3 };

	(void)state;
	assert_true(io->uses_derivatives);
	im.has_sampler = true;
	im.sampler = (struct swgpu_sampler_state){
		.filter = 0, .address = CLAMP_ALL, .lod = NO_MAX_LOD };
	ss_bind_image(d, p, 0, mem, size, &im);
	lod_inputs(e, io, n);
	for (uint32_t l = 0; l < n; l++)
		live[l] = l != 5;       /* quad 1's (x+1, y) is a helper */
	assert_true(ir_exec_run_batch(e, d, n, live, NULL));
	for (uint32_t l = 0; l < n; l++) {
		const uint32_t q = l / 4;

		if (!live[l])
			continue;
		assert_float_equal(OUT(e, io, 0, 0, l), impl[q], 0.0);
		assert_float_equal(OUT(e, io, 1, 0, l), biased[q], 0.0);
		assert_float_equal(OUT(e, io, 2, 0, l), impl[q], 0.0);
		assert_float_equal(OUT(e, io, 3, 0, l), lod[q], 0.0);
		assert_float_equal(OUT(e, io, 4, 0, l), impl[q], 0.0);
		assert_float_equal(OUT(e, io, 4, 1, l), lambda[q], 1e-5);
		assert_float_equal(OUT(e, io, 5, 0, l), impl[q], 0.0);
		assert_float_equal(OUT(e, io, 6, 0, l), clamped[q], 0.0);
		for (uint32_t c = 0; c < 4; c++)
			assert_float_equal(OUT(e, io, 7, c, l), 1.0, 0.0);
	}
	/* level 0 texels at uv 0.25 + step: x, y = 2 or 3; the
	 * ConstOffset (1, -1) moves them at the same LOD */
	for (uint32_t l = 0; l < 4; l++) {
		assert_float_equal(OUT(e, io, 0, 1, l), 2 + (l & 1), 0.0);
		assert_float_equal(OUT(e, io, 0, 2, l), 2 + (l >> 1), 0.0);
		assert_float_equal(OUT(e, io, 8, 0, l), 0.0, 0.0);
		assert_float_equal(OUT(e, io, 8, 1, l), 3 + (l & 1), 0.0);
		assert_float_equal(OUT(e, io, 8, 2, l), 1 + (l >> 1), 0.0);
	}

	/* LINEAR mipmap (R blends the levels: d_l itself), LINEAR
	 * magnification, NEAREST minification: lambda <= 0 (quads 0 and
	 * 5) filters level 0 linearly, lambda = 1 (quad 1) reads level 1's
	 * nearest texel */
	im.sampler.filter = SWGPU_SAMPLER_MAG_LINEAR |
	                    SWGPU_SAMPLER_MIP_LINEAR;
	ss_bind_image(d, p, 0, mem, size, &im);
	assert_true(ir_exec_run_batch(e, d, n, live, NULL));
	for (uint32_t l = 0; l < n; l++) {
		const uint32_t q = l / 4;
		const float dl = lambda[q] < 0 ? 0 : lambda[q] > 3 ? 3
		                                                   : lambda[q];

		if (!live[l])
			continue;
		assert_float_equal(OUT(e, io, 0, 0, l), dl, 1e-5);
		assert_float_equal(OUT(e, io, 4, 0, l), dl, 1e-5);
		assert_float_equal(OUT(e, io, 4, 1, l), lambda[q], 1e-5);
	}
	for (uint32_t l = 0; l < 4; l++) {
		/* u * 8 - 0.5 between texel centres */
		assert_float_equal(OUT(e, io, 0, 1, l), 1.5 + (l & 1), 1e-5);
		assert_float_equal(OUT(e, io, 0, 1, 20 + l),
		                   1.5 + 0.25 * (l & 1), 1e-5);
		if (l != 1)
			assert_float_equal(OUT(e, io, 0, 1, 4 + l),
			                   1 + (l & 1), 0.0);
	}
	free(mem);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* A cube map 8x8 with 4 levels; texel of face f, level L is (L, f). */
static void
test_cube_lod(void **state)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	struct ir_program *p = ss_translate(sh_fs_cube_spv,
	                                    sizeof(sh_fs_cube_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t,
	                                    1, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	uint64_t size = ss_image(&im, 3, SWGPU_FORMAT_R32G32B32A32_SFLOAT, 8,
	                         8, 6, 4);
	float *mem = calloc(1, size);
	/* per quad: base direction and its x and y steps; on face +z
	 * (s = (rx / rz + 1) / 2) a step of rx by 0.25 is 1 texel */
	static const float base[4][3] = { { 0, 0, 1 }, { 0, 0, 1 },
	                                  { 0, 0, 1 }, { 0.5f, 0, 1 } };
	static const float sx[4][3] = { { 0.25f, 0, 0 }, { 0.5f, 0, 0 },
	                                { 0.25f, 0, 0 }, { 0, 0, 1 } };
	static const float sy[4][3] = { { 0, 0.25f, 0 }, { 0, 0.25f, 0 },
	                                { 0, 1, 0 }, { 0, 0, 0 } };
	/* quad 3: d(s_face)/dx = (rz drx - rx drz) / (2 rz^2) = -1/4 at
	 * (0.5, 0, 1): 2 texels */
	static const float want[4] = { 0, 1, 2, 1 };

	(void)state;
	for (uint32_t f = 0; f < 6; f++)
		for (uint32_t lv = 0; lv < 4; lv++)
			for (uint32_t y = 0; y < (8u >> lv); y++)
				for (uint32_t x = 0; x < (8u >> lv); x++) {
					float *tx = ss_texel(&im, mem, lv, f, x,
					                     y);

					tx[0] = (float)lv;
					tx[1] = (float)f;
				}
	im.has_sampler = true;
	im.sampler = (struct swgpu_sampler_state){
		.filter = 0, .address = CLAMP_ALL, .lod = NO_MAX_LOD };
	ss_bind_image(d, p, 0, mem, size, &im);
	for (uint32_t l = 0; l < 16; l++)
		for (uint32_t c = 0; c < 3; c++)
			IN(e, io, 0, c, l) = base[l / 4][c] +
			                     sx[l / 4][c] * (float)(l & 1) +
			                     sy[l / 4][c] * (float)(l >> 1 & 1);
	assert_true(ir_exec_run_batch(e, d, 16, NULL, NULL));
	for (uint32_t l = 0; l < 16; l++) {
		/* quad 3's right column (rz = 2) transforms the same
		 * direction derivatives with its own s_c / r_c: 1/16, or
		 * half a texel */
		const bool right3 = l / 4 == 3 && (l & 1);
		const float lambda_p = right3 ? -1.0f : want[l / 4];

		assert_float_equal(OUT(e, io, 0, 0, l), right3 ? 0 : want[l / 4],
		                   0.0);
		assert_float_equal(OUT(e, io, 0, 1, l), 4.0, 0.0);  /* +z */
		assert_float_equal(OUT(e, io, 1, 0, l),
		                   right3 ? 0 : want[l / 4], 0.0);
		assert_float_equal(OUT(e, io, 1, 1, l), lambda_p, 1e-5);
	}
	free(mem);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* ------------------------------------------------------------------ */
/* Gathers                                                             */
/* ------------------------------------------------------------------ */

static void
check4(struct ir_exec *e, const struct ir_io *io, uint32_t loc, uint32_t l,
       const float want[4])
{
	for (uint32_t c = 0; c < 4; c++)
		if (OUT(e, io, loc, c, l) != want[c])
			fail_msg("lane %u location %u.%u = %f, want %f", l, loc,
			         c, OUT(e, io, loc, c, l), want[c]);
}

static void
test_gather(void **state)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	struct ir_program *p = ss_translate(sh_fs_gather_spv,
	                                    sizeof(sh_fs_gather_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t,
	                                    1, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R32G32B32A32_SFLOAT, 4,
	                         4, 1, 1);
	float *mem = calloc(1, size);

	(void)state;
	assert_false(io->uses_derivatives);
	/* texel (x, y) = (x, y, 10 x + y, 100) */
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 4; x++) {
			float *tx = ss_texel(&im, mem, 0, 0, x, y);

			tx[0] = (float)x;
			tx[1] = (float)y;
			tx[2] = (float)(10 * x + y);
			tx[3] = 100.0f;
		}
	im.has_sampler = true;
	im.sampler = (struct swgpu_sampler_state){
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR,
		.address = CLAMP_ALL, .lod = NO_MAX_LOD };
	ss_bind_image(d, p, 0, mem, size, &im);
	for (uint32_t l = 0; l < 4; l++) {
		IN(e, io, 0, 0, l) = 0.5f;
		IN(e, io, 0, 1, l) = 0.5f;
	}
	assert_true(ir_exec_run_batch(e, d, 4, NULL, NULL));
	/* u, v = 2 - 0.5: i0 = j0 = 1; texels (i0, j1), (i1, j1), (i1, j0),
	 * (i0, j0) */
	for (uint32_t l = 0; l < 4; l++) {
		check4(e, io, 0, l, (const float[4]){ 1, 2, 2, 1 });
		check4(e, io, 1, l, (const float[4]){ 12, 22, 21, 11 });
		/* Offset (1, -1): i0 = 2, j0 = 0; component y */
		check4(e, io, 2, l, (const float[4]){ 1, 1, 0, 0 });
		/* (i0, j0) + each ConstOffset; (4, 2) clamps to (3, 2) */
		check4(e, io, 3, l, (const float[4]){ 11, 21, 31, 32 });
	}
	/* the view's swizzle (B, G, R, A) comes before the component */
	im.swizzle[0] = 5;
	im.swizzle[1] = 4;
	im.swizzle[2] = 3;
	im.swizzle[3] = 6;
	ss_bind_image(d, p, 0, mem, size, &im);
	assert_true(ir_exec_run_batch(e, d, 4, NULL, NULL));
	check4(e, io, 0, 0, (const float[4]){ 12, 22, 21, 11 });
	check4(e, io, 1, 0, (const float[4]){ 1, 2, 2, 1 });
	free(mem);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* ------------------------------------------------------------------ */
/* Depth comparison                                                    */
/* ------------------------------------------------------------------ */

static bool
compare(uint32_t op, float ref, float texel)
{
	switch (op) {
	case 1: return ref < texel;
	case 2: return ref == texel;
	case 3: return ref <= texel;
	case 4: return ref > texel;
	case 5: return ref != texel;
	case 6: return ref >= texel;
	case 7: return true;
	default: return false;
	}
}

static struct ir_program *
dref_program(struct ir_dispatch **d)
{
	static const swgpu_shader_binding b[] = {
		{ .set = 0, .binding = 0, .count = 1,
		  .type = SWGPU_DESCRIPTOR_SAMPLED_IMAGE, .offset = 0 },
		{ .set = 0, .binding = 1, .count = 8,
		  .type = SWGPU_DESCRIPTOR_SAMPLER,
		  .offset = 1 * SWGPU_DESCRIPTOR_SIZE },
		{ .set = 0, .binding = 9, .count = 1,
		  .type = SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER,
		  .offset = 9 * SWGPU_DESCRIPTOR_SIZE },
	};
	struct ir_program *p = ss_translate_layout(sh_fs_dref_spv,
	                                           sizeof(sh_fs_dref_spv),
	                                           SWGPU_SHADER_STAGE_FRAGMENT,
	                                           b, 3, 0, NULL, 0);

	*d = ss_dispatch(p);
	for (uint32_t op = 0; op < 8; op++) {
		const struct swgpu_sampler_state st = {
			.filter = SWGPU_SAMPLER_COMPARE_OP(op),
			.address = CLAMP_ALL, .lod = NO_MAX_LOD,
		};

		ss_bind_sampler(*d, p, 1 + op, &st);
	}
	return p;
}

/* A 2x2 depth image in format (D32_SFLOAT or D16_UNORM) holding v. */
static void *
depth_image(struct ir_image_binding *im, uint32_t format, const float v[4],
            uint64_t *size)
{
	void *mem;

	*size = ss_image(im, 1, format, 2, 2, 1, 1);
	mem = calloc(1, *size);
	for (uint32_t i = 0; i < 4; i++) {
		void *tx = ss_texel(im, mem, 0, 0, i & 1, i >> 1);

		if (format == SWGPU_FORMAT_D16_UNORM) {
			uint16_t u = (uint16_t)lrintf(v[i] * 65535.0f);

			memcpy(tx, &u, 2);
		} else {
			memcpy(tx, &v[i], 4);
		}
	}
	return mem;
}

static void
bind_depth(struct ir_dispatch *d, const struct ir_program *p,
           struct ir_image_binding *im, void *mem, uint64_t size)
{
	im->has_sampler = false;
	ss_bind_image(d, p, 0, mem, size, im);
	/* pcf: the same image, LINEAR, LESS */
	im->has_sampler = true;
	im->sampler = (struct swgpu_sampler_state){
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR |
		          SWGPU_SAMPLER_COMPARE_OP(1),
		.address = CLAMP_ALL, .lod = NO_MAX_LOD,
	};
	ss_bind_image(d, p, 9, mem, size, im);
}

static void
test_dref(void **state)
{
	struct ir_dispatch *d;
	struct ir_program *p = dref_program(&d);
	const struct ir_io *io = &p->io;
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	static const float depth[4] = { 0.2f, 0.4f, 0.6f, 0.8f };
	static const float refs[4] = { 0.1f, 0.2f, 0.3f, 0.2f };
	uint64_t size;
	void *mem = depth_image(&im, SWGPU_FORMAT_D32_SFLOAT, depth, &size);

	(void)state;
	bind_depth(d, p, &im, mem, size);
	/* quad 0: texel (0, 0) = 0.2 with several references; quad 1: on
	 * the edge between (0, 0) and (1, 0), reference 0.3 */
	for (uint32_t l = 0; l < 8; l++) {
		IN(e, io, 0, 0, l) = l < 4 ? 0.25f : 0.5f;
		IN(e, io, 0, 1, l) = 0.25f;
		IN(e, io, 1, 0, l) = l < 4 ? refs[l] : 0.3f;
	}
	assert_true(ir_exec_run_batch(e, d, 8, NULL, NULL));
	for (uint32_t l = 0; l < 8; l++) {
		const float ref = l < 4 ? refs[l] : 0.3f;
		/* NEAREST: u = 0.5 or 1 texel -> texel (0, 0) or (1, 0) */
		const float tx = l < 4 ? 0.2f : 0.4f;
		/* LINEAR: weights 1 for (0, 0); 1/2, 1/2 for (0, 0), (1, 0) */
		const float pcf = l < 4 ? compare(1, ref, 0.2f)
		                        : 0.5f * compare(1, ref, 0.2f) +
		                          0.5f * compare(1, ref, 0.4f);

		for (uint32_t op = 0; op < 8; op++)
			assert_float_equal(OUT(e, io, op / 4, op % 4, l),
			                   compare(op, ref, tx), 0.0);
		assert_float_equal(OUT(e, io, 2, 0, l), pcf, 0.0);
		assert_float_equal(OUT(e, io, 2, 1, l), pcf, 1e-6);
		assert_float_equal(OUT(e, io, 2, 2, l), pcf, 0.0);
		/* gather by LESS: (0, 1), (1, 1), (1, 0), (0, 0) */
		check4(e, io, 3, l, (const float[4]){
			compare(1, ref, 0.6f), compare(1, ref, 0.8f),
			compare(1, ref, 0.4f), compare(1, ref, 0.2f) });
	}
	free(mem);

	/* A UNORM depth format clamps the reference to [0, 1]: 1.5 and
	 * -0.5 compare as 1 and 0 with texels of 1.0; a float one does
	 * not. */
	for (uint32_t f = 0; f < 2; f++) {
		const bool unorm = f == 0;
		static const float ones[4] = { 1, 1, 1, 1 };

		mem = depth_image(&im, unorm ? SWGPU_FORMAT_D16_UNORM
		                             : SWGPU_FORMAT_D32_SFLOAT, ones,
		                  &size);
		bind_depth(d, p, &im, mem, size);
		for (uint32_t l = 0; l < 8; l++) {
			IN(e, io, 0, 0, l) = 0.25f;
			IN(e, io, 1, 0, l) = l < 4 ? 1.5f : -0.5f;
		}
		assert_true(ir_exec_run_batch(e, d, 8, NULL, NULL));
		for (uint32_t l = 0; l < 8; l++) {
			float ref = l < 4 ? 1.5f : -0.5f;

			if (unorm)
				ref = l < 4 ? 1.0f : 0.0f;
			for (uint32_t op = 0; op < 8; op++)
				assert_float_equal(OUT(e, io, op / 4, op % 4,
				                       l),
				                   compare(op, ref, 1.0f), 0.0);
		}
		free(mem);
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* ------------------------------------------------------------------ */
/* Border colour                                                        */
/* ------------------------------------------------------------------ */

/* CLAMP_TO_BORDER replaces the texel before conversion to RGBA: on R8
 * the border's G and B read 0 and A reads 1 whatever the border colour
 * (the CTS's pipeline.sampler.border_swizzle rule); RGBA32F keeps all
 * four. textureLod (location 3) at uv (-0.5, -0.5), off the image. */
static void
test_border_components(void **state)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	struct ir_program *p = ss_translate(sh_fs_lod_spv,
	                                    sizeof(sh_fs_lod_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t,
	                                    1, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	static const struct {
		uint32_t format, border;  /* VkBorderColor */
		float want[4];
	} cases[] = {
		{ SWGPU_FORMAT_R8_UNORM, 4, { 1, 0, 0, 1 } },   /* white */
		{ SWGPU_FORMAT_R8_UNORM, 0, { 0, 0, 0, 1 } },   /* transparent */
		{ SWGPU_FORMAT_R8G8_UNORM, 4, { 1, 1, 0, 1 } },
		{ SWGPU_FORMAT_R32G32B32A32_SFLOAT, 4, { 1, 1, 1, 1 } },
		{ SWGPU_FORMAT_R32G32B32A32_SFLOAT, 0, { 0, 0, 0, 0 } },
	};

	(void)state;
	for (uint32_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ir_image_binding im;
		uint64_t size = ss_image(&im, 1, cases[i].format, 4, 4, 1, 1);
		void *mem = calloc(1, size);

		im.has_sampler = true;
		im.sampler = (struct swgpu_sampler_state){
			.filter = 0,
			.address = 3u | 3u << 8 | 3u << 16 |
			           cases[i].border << 24,
			.lod = NO_MAX_LOD };
		ss_bind_image(d, p, 0, mem, size, &im);
		for (uint32_t l = 0; l < 8; l++) {
			IN(e, io, 0, 0, l) = -0.5f;
			IN(e, io, 0, 1, l) = -0.5f;
			IN(e, io, 1, 0, l) = IN(e, io, 1, 1, l) = 0.0f;
			IN(e, io, 1, 2, l) = IN(e, io, 1, 3, l) = 0.0f;
			IN(e, io, 2, 0, l) = 0.0f;
			IN(e, io, 3, 0, l) = 0.0f;
		}
		assert_true(ir_exec_run_batch(e, d, 8, NULL, NULL));
		for (uint32_t l = 0; l < 8; l++)
			for (uint32_t c = 0; c < 4; c++)
				assert_float_equal(OUT(e, io, 3, c, l),
				                   cases[i].want[c], 0.0);
		free(mem);
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* LINEAR filtering of SNORM texels at the ends of the range (R -1, G
 * +1): float weights summing past 1 (e.g. u = 0.0200195 on this 7-texel
 * axis) must not take the result out of [-1, 1] (the CTS's
 * texture.conversion.snorm_clamp_linear). */
static void
test_snorm_linear_range(void **state)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	struct ir_program *p = ss_translate(sh_fs_lod_spv,
	                                    sizeof(sh_fs_lod_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t,
	                                    1, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R8G8_SNORM, 7, 5, 1, 1);
	uint8_t *mem = calloc(1, size);
	uint32_t outside = 0;

	(void)state;
	for (uint32_t y = 0; y < 5; y++)
		for (uint32_t x = 0; x < 7; x++) {
			uint8_t *tx = ss_texel(&im, mem, 0, 0, x, y);

			tx[0] = 0x81;   /* -127: -1.0 */
			tx[1] = 0x7f;   /* +1.0 */
		}
	im.has_sampler = true;
	im.sampler = (struct swgpu_sampler_state){
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR,
		.address = CLAMP_ALL, .lod = NO_MAX_LOD };
	ss_bind_image(d, p, 0, mem, size, &im);
	for (uint32_t run = 0; run < 256; run++) {
		for (uint32_t l = 0; l < W; l++) {
			const uint32_t k = run * W + l;

			IN(e, io, 0, 0, l) = (float)(k % 4096) / 4096.0f;
			IN(e, io, 0, 1, l) = (float)(k * 7 % 61) / 61.0f;
			IN(e, io, 1, 0, l) = IN(e, io, 1, 1, l) = 0.0f;
			IN(e, io, 1, 2, l) = IN(e, io, 1, 3, l) = 0.0f;
			IN(e, io, 2, 0, l) = 0.0f;
			IN(e, io, 3, 0, l) = 0.0f;
		}
		assert_true(ir_exec_run_batch(e, d, W, NULL, NULL));
		for (uint32_t l = 0; l < W; l++) {
			const float r = OUT(e, io, 3, 0, l);
			const float g = OUT(e, io, 3, 1, l);

			outside += r < -1.0f || g > 1.0f;
			assert_true(r <= -0.98f && g >= 0.98f);
		}
	}
	assert_int_equal(outside, 0);
	free(mem);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lod),
		cmocka_unit_test(test_cube_lod),
		cmocka_unit_test(test_gather),
		cmocka_unit_test(test_dref),
		cmocka_unit_test(test_border_components),
		cmocka_unit_test(test_snorm_linear_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
