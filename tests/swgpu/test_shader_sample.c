/* SPDX-License-Identifier: MIT */
/*
 * Sampling in the shader engine, through real DISPATCH submits with
 * hand-written descriptors (swgpu_packet.h): a 3-level RGBA32F image laid
 * out by the engine's mip chain rule, read through a combined image
 * sampler (NEAREST, CLAMP_TO_EDGE, nearest mip) and through a separate
 * texture + sampler pair picked from descriptor arrays (LINEAR, REPEAT,
 * linear mip, BGRA swizzle): exact texels, bilinear and trilinear
 * weights, wrapping below 0, texelFetch of level 1, size and level
 * queries; a null texture reads 0; a sampler slot holding a buffer
 * descriptor faults the job; a cube array picks face + 6 x layer;
 * LINEAR cube filtering is seamless across an edge and at a corner;
 * depth-compare sampling (explicit, projective, gather) by the
 * sampler's compare op. (Every address mode, format kind and view
 * type: test_vk_compute_sample, through Vulkan.)
 */
#include "shader_test_util.h"

#include <math.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

#include "sh_sample.spv.h"
#include "sh_sample_cube.spv.h"
#include "sh_sample_dref.spv.h"
#include "sh_sample_seam.spv.h"

/* Binding bi: n descriptors from descriptor slot i on. */
#define B(bi, i, t, n) { .set = 0, .binding = (bi), .count = (n), \
                         .type = (t), .offset = (i) * SWGPU_DESCRIPTOR_SIZE }

/* Texel (x, y) of level l: every channel tells where it came from. */
static void
texel(uint32_t x, uint32_t y, uint32_t l, float v[4])
{
	v[0] = (float)(x + 10 * y + 100 * l);
	v[1] = (float)(1000 + x);
	v[2] = (float)(2000 + y);
	v[3] = (float)(3000 + l);
}

static void
image(struct st_env *e, uint32_t index, uint32_t type, uint64_t va,
      uint32_t swizzle, const struct swgpu_sampler_state *smp)
{
	struct swgpu_descriptor_image t = {
		.type = type, .format = SWGPU_FORMAT_R32G32B32A32_SFLOAT |
		                        swizzle << 16,
		.va = va, .width = 4, .height = 2, .depth = 1, .layers = 1,
		.row_pitch = 64, .element_size = 16, .slice_pitch = 128,
		.view_type = 1 | 3 << 8,            /* 2D, 3 levels */
	};

	if (smp)
		t.sampler = *smp;
	memcpy(e->desc.cpu + index * SWGPU_DESCRIPTOR_SIZE, &t, sizeof(t));
}

static void
sampler(struct st_env *e, uint32_t index,
        const struct swgpu_sampler_state *st)
{
	struct swgpu_descriptor_sampler t = {
		.type = SWGPU_DESCRIPTOR_SAMPLER, .state = *st,
	};

	memcpy(e->desc.cpu + index * SWGPU_DESCRIPTOR_SIZE, &t, sizeof(t));
}

static void
check4(const float *got, const float want[4], const char *what)
{
	for (uint32_t c = 0; c < 4; c++)
		if (fabsf(got[c] - want[c]) > 1e-3f)
			fail_msg("%s.%u = %f, want %f", what, c, got[c],
			         want[c]);
}

struct push {
	float uv[4][4];
	float lod[4];
	int32_t ti, si;
};

static void
test_sample(void **state)
{
	static const swgpu_shader_binding b[] = {
		B(0, 0, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 1),
		B(1, 1, SWGPU_DESCRIPTOR_SAMPLED_IMAGE, 2),
		B(2, 3, SWGPU_DESCRIPTOR_SAMPLER, 2),
		B(3, 5, SWGPU_DESCRIPTOR_STORAGE_BUFFER, 1),
	};
	/* NEAREST, CLAMP_TO_EDGE, LOD 0..3 / LINEAR, REPEAT, linear mip */
	const struct swgpu_sampler_state nearest = {
		.filter = 0, .address = 2 | 2 << 8 | 2 << 16,
		.lod = 3 * 256 << 16,
	};
	const struct swgpu_sampler_state linear = {
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR |
		          SWGPU_SAMPLER_MIP_LINEAR,
		.address = 0, .lod = 3 * 256 << 16,
	};
	const uint32_t bgra = 5 | 4 << 3 | 3 << 6 | 6 << 9;
	struct push pc = {
		.uv = { { 0.375f, 0.25f }, { 0.5f, 0.5f }, { 0.25f, 0.5f },
		        { -0.125f, 0.25f } },
		.lod = { 0.0f, 0.0f, 1.0f, 0.5f },
		.ti = 1, .si = 1,
	};
	struct st_env e;
	(void)state;

	st_init(&e);
	/* Levels 4x2 (pitch 64), 2x1 at 128 (pitch 32), 1x1 at 160. */
	float *img = st_buf(&e, 176);
	float *out = st_buf(&e, 4096);
	static const uint32_t lw[3] = { 4, 2, 1 }, lh[3] = { 2, 1, 1 };
	static const uint32_t loff[3] = { 0, 128, 160 }, lpitch[3] = { 64,
	                                                            32, 16 };
	for (uint32_t l = 0; l < 3; l++)
		for (uint32_t y = 0; y < lh[l]; y++)
			for (uint32_t x = 0; x < lw[l]; x++)
				texel(x, y, l, img + (loff[l] + y * lpitch[l] +
				                      x * 16) / 4);
	swgpu_shader *s = st_make_shader(&e, sh_sample_spv,
	                                 sizeof(sh_sample_spv), b, 4, 88);
	memset(e.desc.cpu, 0, 4096);
	image(&e, 0, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, e.bufs[0].va, 0,
	      &nearest);
	image(&e, 2, SWGPU_DESCRIPTOR_SAMPLED_IMAGE, e.bufs[0].va, bgra,
	      NULL);                        /* tex[0] stays null */
	sampler(&e, 3, &nearest);
	sampler(&e, 4, &linear);
	swgpu_write_buffer_descriptor(e.desc.cpu + 5 * SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[1].va, 4096);
	api_ok(st_dispatch_desc(&e, s, &pc, sizeof(pc), 1, 1, 1));

	float t[4], u[4], w[4];
	/* Combined, nearest: texels (1,0) and (2,1) of level 0, (0,0) of
	 * level 1 (LOD 1), (0,0) of level 0 (LOD 0.5 rounds down; u < 0
	 * clamps to the edge). */
	texel(1, 0, 0, t);
	check4(out + 0, t, "comb[0]");
	texel(2, 1, 0, t);
	check4(out + 4, t, "comb[1]");
	texel(0, 0, 1, t);
	check4(out + 8, t, "comb[2]");
	texel(0, 0, 0, t);
	check4(out + 12, t, "comb[3]");
	/* Separate, linear, BGRA: a texel centre; the middle of four
	 * texels; level 1's texel centre at LOD 1; trilinear at LOD 0.5
	 * with REPEAT wrapping u = -1 to texel 3 (level 0) and a 0.75 /
	 * 0.25 blend of texels 1 and 0 (level 1). */
	texel(1, 0, 0, t);
	check4(out + 16, (float[4]){ t[2], t[1], t[0], t[3] }, "sep[0]");
	check4(out + 20, (float[4]){ 2000.5f, 1001.5f, 6.5f, 3000.0f },
	       "sep[1]");
	texel(0, 0, 1, t);
	check4(out + 24, (float[4]){ t[2], t[1], t[0], t[3] }, "sep[2]");
	texel(3, 0, 0, t);
	texel(1, 0, 1, u);
	texel(0, 0, 1, w);
	for (uint32_t c = 0; c < 4; c++)
		t[c] = 0.5f * t[c] + 0.5f * (0.75f * u[c] + 0.25f * w[c]);
	check4(out + 28, (float[4]){ t[2], t[1], t[0], t[3] }, "sep[3]");
	texel(1, 0, 1, t);
	check4(out + 32, t, "texelFetch level 1");
	const int32_t *q = (const int32_t *)(out + 64);
	assert_int_equal(q[0], 4);
	assert_int_equal(q[1], 2);
	assert_int_equal(q[2], 2);
	assert_int_equal(q[3], 1);
	assert_int_equal(q[4], 3);
	assert_int_equal(q[5], 3);

	/* Coordinates and LODs far out, infinite or NaN: texels of the
	 * image all the same (no fault; UBSan checks the float-to-int
	 * conversions). */
	struct push far = {
		.uv = { { 3e38f, -3e38f }, { INFINITY, -INFINITY },
		        { NAN, 0.5f }, { 1e9f, 2.5e9f } },
		.lod = { 1e30f, -INFINITY, NAN, 2.5f },
		.ti = 1, .si = 1,
	};
	api_ok(st_dispatch_desc(&e, s, &far, sizeof(far), 1, 1, 1));
	for (uint32_t i = 0; i < 32; i++)
		if (!isfinite(out[i]) || out[i] < 0.0f || out[i] > 3002.0f)
			fail_msg("far sample %u = %f", i, out[i]);

	/* The null texture reads 0. */
	pc.ti = 0;
	memset(out, 0xff, 4096);
	api_ok(st_dispatch_desc(&e, s, &pc, sizeof(pc), 1, 1, 1));
	for (uint32_t i = 16; i < 32; i++)
		assert_true(out[i] == 0.0f);

	/* A buffer descriptor in a sampler slot: the job faults. */
	swgpu_write_buffer_descriptor(e.desc.cpu + 4 * SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[1].va, 4096);
	pc.ti = 1;
	assert_int_equal(st_dispatch_desc(&e, s, &pc, sizeof(pc), 1, 1, 1),
	                 SWGPU_ERR_CONTEXT_LOST);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* A cube array of 2 cubes with 1x1 faces, slice i holding i: each major
 * axis picks its face (+X, -X, +Y, -Y, +Z, -Z) of the cube layer. */
static void
test_sample_cube_array(void **state)
{
	static const swgpu_shader_binding b[] = {
		B(0, 0, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 1),
		B(1, 1, SWGPU_DESCRIPTOR_STORAGE_BUFFER, 1),
	};
	struct st_env e;
	(void)state;

	st_init(&e);
	float *img = st_buf(&e, 12 * 16);
	float *out = st_buf(&e, 12 * 16);
	for (uint32_t i = 0; i < 12; i++)
		for (uint32_t c = 0; c < 4; c++)
			img[4 * i + c] = (float)(i + 100 * c);
	swgpu_shader *s = st_make_shader(&e, sh_sample_cube_spv,
	                                 sizeof(sh_sample_cube_spv), b, 2, 0);
	struct swgpu_descriptor_image t = {
		.type = SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER,
		.format = SWGPU_FORMAT_R32G32B32A32_SFLOAT,
		.va = e.bufs[0].va, .width = 1, .height = 1, .depth = 1,
		.layers = 12, .row_pitch = 16, .element_size = 16,
		.slice_pitch = 16, .view_type = 6,  /* cube array, 1 level */
	};                                          /* NEAREST sampler */

	memset(e.desc.cpu, 0, 4096);
	memcpy(e.desc.cpu, &t, sizeof(t));
	swgpu_write_buffer_descriptor(e.desc.cpu + SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[1].va, 12 * 16);
	api_ok(st_dispatch_desc(&e, s, NULL, 0, 1, 1, 1));
	for (uint32_t i = 0; i < 12; i++)
		for (uint32_t c = 0; c < 4; c++)
			if (out[4 * i + c] != (float)(i + 100 * c))
				fail_msg("cube %u face %u .%u = %f, want %u",
				         i / 6, i % 6, c, out[4 * i + c],
				         i + 100 * c);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Cube texel (x, y) of face f (2x2 faces): 100 f + 10 y + x. */
static float
cube_val(uint32_t f, uint32_t x, uint32_t y)
{
	return (float)(100 * f + 10 * y + x);
}

/* Seamless LINEAR filtering on a cube of 2x2 faces, near the edge +X / -Z
 * and near the corner +X / +Y / -Z: the texels beyond +X's edge are -Z's
 * (the same direction), the one beyond the corner is the average of the
 * three texels meeting there. */
static void
test_sample_cube_seamless(void **state)
{
	static const swgpu_shader_binding b[] = {
		B(0, 0, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 1),
		B(1, 1, SWGPU_DESCRIPTOR_STORAGE_BUFFER, 1),
	};
	struct st_env e;
	(void)state;

	st_init(&e);
	float *img = st_buf(&e, 6 * 2 * 32);
	float *io = st_buf(&e, 8 * 16);
	for (uint32_t f = 0; f < 6; f++)
		for (uint32_t y = 0; y < 2; y++)
			for (uint32_t x = 0; x < 2; x++)
				for (uint32_t c = 0; c < 4; c++)
					img[(f * 64 + y * 32 + x * 16) / 4 + c] =
						cube_val(f, x, y);
	swgpu_shader *s = st_make_shader(&e, sh_sample_seam_spv,
	                                 sizeof(sh_sample_seam_spv), b, 2, 0);
	struct swgpu_descriptor_image t = {
		.type = SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER,
		.format = SWGPU_FORMAT_R32G32B32A32_SFLOAT,
		.va = e.bufs[0].va, .width = 2, .height = 2, .depth = 1,
		.layers = 6, .row_pitch = 32, .element_size = 16,
		.slice_pitch = 64, .view_type = 3,  /* cube, 1 level */
		.sampler = { .filter = SWGPU_SAMPLER_MAG_LINEAR |
		                       SWGPU_SAMPLER_MIN_LINEAR },
	};
	/* +X: (1, -tc, -sc); near its s = 1 edge (sc 0.999, row 0) and
	 * near its (s, t) = (1, 0) corner. */
	static const float dir[2][3] = { { 1.0f, 0.5f, -0.999f },
	                                 { 1.0f, 0.999f, -0.999f } };

	memset(e.desc.cpu, 0, 4096);
	memcpy(e.desc.cpu, &t, sizeof(t));
	swgpu_write_buffer_descriptor(e.desc.cpu + SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[1].va, 8 * 16);
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t c = 0; c < 3; c++)
			io[4 * i + c] = dir[i % 2][c];
	api_ok(st_dispatch_desc(&e, s, NULL, 0, 1, 1, 1));

	/* The texel weights as the spec computes them on face +X. */
	for (uint32_t k = 0; k < 2; k++) {
		float sc = -dir[k][2], tc = -dir[k][1];
		float u = 0.5f * (sc + 1.0f) * 2.0f - 0.5f;
		float v = 0.5f * (tc + 1.0f) * 2.0f - 0.5f;
		float a = u - floorf(u), bb = v - floorf(v);
		float want;

		if (k == 0) {
			/* texels (1, 0) of +X and (0, 0) of -Z (face 5) */
			want = (1.0f - a) * cube_val(0, 1, 0) +
			       a * cube_val(5, 0, 0);
		} else {
			/* rows -1 and 0: (1, -1) is +Y's (1, 0), (2, -1)
			 * the corner, (2, 0) is -Z's (0, 0) */
			float corner = (cube_val(0, 1, 0) + cube_val(5, 0, 0) +
			                cube_val(2, 1, 0)) / 3.0f;

			want = (1.0f - a) * (1.0f - bb) * cube_val(2, 1, 0) +
			       a * (1.0f - bb) * corner +
			       (1.0f - a) * bb * cube_val(0, 1, 0) +
			       a * bb * cube_val(5, 0, 0);
		}
		if (fabsf(io[16 + 4 * k] - want) > 1e-2f)
			fail_msg("%s: got %f, want %f", k ? "corner" : "edge",
			         io[16 + 4 * k], want);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Depth comparison through a real DISPATCH: a 2x1 D32_SFLOAT image
 * (0.25, 0.75) compared by LESS (the sampler's compare op): explicit
 * LOD, projective (coordinates and reference divided by q) and a gather
 * of the four comparisons (every compare op: test_shader_texture). */
static void
test_sample_dref(void **state)
{
	static const swgpu_shader_binding b[] = {
		B(0, 0, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 1),
		B(1, 1, SWGPU_DESCRIPTOR_STORAGE_BUFFER, 1),
	};
	struct swgpu_descriptor_image t = {
		.type = SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER,
		.format = SWGPU_FORMAT_D32_SFLOAT, .width = 2, .height = 1,
		.depth = 1, .layers = 1, .row_pitch = 16, .element_size = 4,
		.slice_pitch = 16, .view_type = 1,
		.sampler = { .filter = SWGPU_SAMPLER_COMPARE_OP(1),
		             .address = 2 | 2 << 8 | 2 << 16 },
	};
	static const float want[7] = { 0, 1, 1, 0, 1, 1, 0 };
	struct st_env e;
	(void)state;

	st_init(&e);
	float *img = st_buf(&e, 16);
	float *out = st_buf(&e, 64);
	img[0] = 0.25f;
	img[1] = 0.75f;
	swgpu_shader *s = st_make_shader(&e, sh_sample_dref_spv,
	                                 sizeof(sh_sample_dref_spv), b, 2, 0);
	memset(e.desc.cpu, 0, 4096);
	t.va = e.bufs[0].va;
	memcpy(e.desc.cpu, &t, sizeof(t));
	swgpu_write_buffer_descriptor(e.desc.cpu + SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[1].va, 64);
	api_ok(st_dispatch_desc(&e, s, NULL, 0, 1, 1, 1));
	for (uint32_t i = 0; i < 7; i++)
		if (out[i] != want[i])
			fail_msg("dref[%u] = %f, want %f", i, out[i], want[i]);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_sample_cube_array),
		cmocka_unit_test(test_sample_cube_seamless),
		cmocka_unit_test(test_sample_dref),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
