/* SPDX-License-Identifier: MIT */
/*
 * Storage images and texel buffers in the shader engine, through real
 * DISPATCH submits with hand-written descriptors (swgpu_packet.h):
 * format conversion on load and store (RGBA8 unorm -> float -> RGBA32F,
 * RG16UI, R16UI), image atomics, 2D / 3D / 2D-array addressing with
 * pitches that are not the packed ones, descriptor arrays indexed per
 * invocation, size queries, robustness outside the view and for null
 * descriptors, and a descriptor of the wrong type faulting the job.
 */
#include "shader_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

#include "sh_image.spv.h"
#include "sh_image3d.spv.h"

static void
image_desc(struct st_env *e, uint32_t index, uint32_t format, uint64_t va,
           uint32_t w, uint32_t h, uint32_t d, uint32_t layers,
           uint32_t elem, uint32_t row_pitch, uint64_t slice_pitch,
           uint32_t view_type)
{
	struct swgpu_descriptor_image t = {
		.type = SWGPU_DESCRIPTOR_STORAGE_IMAGE, .format = format,
		.va = va, .width = w, .height = h, .depth = d,
		.layers = layers, .row_pitch = row_pitch,
		.element_size = elem, .slice_pitch = slice_pitch,
		.view_type = view_type,
	};

	memcpy(e->desc.cpu + index * SWGPU_DESCRIPTOR_SIZE, &t, sizeof(t));
}

static void
texel_desc(struct st_env *e, uint32_t index, uint32_t type, uint32_t format,
           uint64_t va, uint64_t range, uint32_t elem)
{
	struct swgpu_descriptor_texel_buffer t = {
		.type = type, .format = format, .va = va, .range = range,
		.element_size = elem,
	};

	memcpy(e->desc.cpu + index * SWGPU_DESCRIPTOR_SIZE, &t, sizeof(t));
}

#define B(i, t) { .set = 0, .binding = (i), .count = 1, .type = (t), \
                  .offset = (i) * SWGPU_DESCRIPTOR_SIZE }

/* 16x16 RGBA8 (row pitch 80: padded) -> RGBA32F x 2, 4x4 R32UI counters. */
static void
test_image_2d(void **state)
{
	static const swgpu_shader_binding b[] = {
		B(0, SWGPU_DESCRIPTOR_STORAGE_IMAGE),
		B(1, SWGPU_DESCRIPTOR_STORAGE_IMAGE),
		B(2, SWGPU_DESCRIPTOR_STORAGE_IMAGE),
		B(3, SWGPU_DESCRIPTOR_STORAGE_BUFFER),
	};
	struct st_env e;
	(void)state;

	st_init(&e);
	uint8_t *src = st_buf(&e, 80 * 16);
	float *dst = st_buf(&e, 16 * 16 * 16);
	uint32_t *cnt = st_buf(&e, 4 * 4 * 4);
	uint32_t *out = st_buf(&e, 4096);
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 64; x++)
			src[y * 80 + x] = (uint8_t)(x * 7 + y * 13);
	swgpu_shader *s = st_make_shader(&e, sh_image_spv,
	                                 sizeof(sh_image_spv), b, 4, 0);
	memset(e.desc.cpu, 0, 4096);
	image_desc(&e, 0, SWGPU_FORMAT_R8G8B8A8_UNORM, e.bufs[0].va, 16, 16,
	           1, 1, 4, 80, 80 * 16, 1);
	image_desc(&e, 1, SWGPU_FORMAT_R32G32B32A32_SFLOAT, e.bufs[1].va, 16,
	           16, 1, 1, 16, 256, 256 * 16, 1);
	image_desc(&e, 2, SWGPU_FORMAT_R32_UINT, e.bufs[2].va, 4, 4, 1, 1, 4,
	           16, 64, 1);
	swgpu_write_buffer_descriptor(e.desc.cpu + 3 * SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[3].va, 4096);
	api_ok(st_dispatch_desc(&e, s, NULL, 0, 2, 2, 1));

	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 16; x++)
			for (uint32_t c = 0; c < 4; c++) {
				float want = (float)src[y * 80 + x * 4 + c] /
				             255.0f * 2.0f;
				float got = dst[(y * 16 + x) * 4 + c];

				if (fabsf(got - want) > 1e-6f)
					fail_msg("dst (%u,%u).%u = %f, want %f",
					         x, y, c, got, want);
			}
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(cnt[i], 16);   /* every 4x4 block */
	assert_int_equal(out[8], 15);       /* largest old value seen */
	assert_int_equal(out[0], 16);
	assert_int_equal(out[1], 16);
	assert_int_equal(out[2], 16);
	assert_int_equal(out[3], 16);
	for (uint32_t c = 0; c < 4; c++)   /* both loads outside: zeros */
		assert_true(st_f(out[4 + c]) == 0.0f);
	/* The store to (0, 16) landed nowhere: the padding and the rows
	 * around are intact (checked above), nothing past the image. */
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* 3D R32F (4x4x2, padded pitches), 2D-array RG16UI (4x4, 2 layers), two
 * R32I storage texel buffers picked per invocation, an R16UI uniform
 * texel buffer. */
static void
test_image_3d_array_texel(void **state)
{
	static const swgpu_shader_binding b[] = {
		B(0, SWGPU_DESCRIPTOR_STORAGE_IMAGE),
		B(1, SWGPU_DESCRIPTOR_STORAGE_IMAGE),
		{ .set = 0, .binding = 2, .count = 2,
		  .type = SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER,
		  .offset = 2 * SWGPU_DESCRIPTOR_SIZE },
		B(4, SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER),
		B(5, SWGPU_DESCRIPTOR_STORAGE_BUFFER),
	};
	struct st_env e;
	(void)state;

	st_init(&e);
	float *vol = st_buf(&e, 2 * 96);          /* row 24, slice 96 */
	uint32_t *arr = st_buf(&e, 2 * 128);      /* row 32, layer 128 */
	int32_t *tb0 = st_buf(&e, 64);
	int32_t *tb1 = st_buf(&e, 64 + 4);
	uint16_t *ub = st_buf(&e, 64);
	int32_t *out = st_buf(&e, 4096);
	for (uint32_t i = 0; i < 32; i++)
		ub[i] = (uint16_t)(60000 + i);
	swgpu_shader *s = st_make_shader(&e, sh_image3d_spv,
	                                 sizeof(sh_image3d_spv), b, 5, 0);
	memset(e.desc.cpu, 0, 4096);
	image_desc(&e, 0, SWGPU_FORMAT_R32_SFLOAT, e.bufs[0].va, 4, 4, 2, 1,
	           4, 24, 96, 2);
	image_desc(&e, 1, SWGPU_FORMAT_R16G16_UINT, e.bufs[1].va, 4, 4, 1, 2,
	           4, 32, 128, 5);
	texel_desc(&e, 2, SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER,
	           SWGPU_FORMAT_R32_SINT, e.bufs[2].va, 64, 4);
	texel_desc(&e, 3, SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER,
	           SWGPU_FORMAT_R32_SINT, e.bufs[3].va, 64, 4);
	texel_desc(&e, 4, SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER,
	           SWGPU_FORMAT_R16_UINT, e.bufs[4].va, 64, 2);
	swgpu_write_buffer_descriptor(e.desc.cpu + 5 * SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[5].va, 4096);
	api_ok(st_dispatch_desc(&e, s, NULL, 0, 1, 1, 1));

	for (uint32_t z = 0; z < 2; z++)
		for (uint32_t y = 0; y < 4; y++)
			for (uint32_t x = 0; x < 4; x++) {
				uint32_t i = x + 4 * y + 16 * z;

				assert_true(vol[(z * 96 + y * 24) / 4 + x] ==
				            (float)(x + 10 * y + 100 * z));
				assert_int_equal(arr[(z * 128 + y * 32) / 4 + x],
				                 (x + y) | z << 16);
				assert_int_equal((i & 1 ? tb1 : tb0)[i / 2],
				                 -(int32_t)i);
				assert_int_equal(out[4 + i], 60000 + i);
			}
	assert_int_equal(out[0], 2);        /* depth */
	assert_int_equal(out[1], 2);        /* layers */
	assert_int_equal(out[2], 16);       /* texels of tb[1] */
	assert_int_equal(out[3], 32);       /* texels of ub */
	for (uint32_t y = 0; y < 4; y++)    /* row padding untouched */
		assert_int_equal(arr[y * 8 + 4], 0);

	/* Null descriptors: loads read 0, stores and size queries are
	 * harmless. */
	memset(out, 0xff, 4096);
	memset(e.desc.cpu + 4 * SWGPU_DESCRIPTOR_SIZE, 0,
	       SWGPU_DESCRIPTOR_SIZE);
	api_ok(st_dispatch_desc(&e, s, NULL, 0, 1, 1, 1));
	assert_int_equal(out[3], 0);
	assert_int_equal(out[4 + 5], 0);

	/* A buffer descriptor where the shader wants an image: the job
	 * faults (context lost), no memory is touched. */
	swgpu_write_buffer_descriptor(e.desc.cpu, SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[0].va, 192);
	memset(vol, 0, 192);
	assert_int_equal(st_dispatch_desc(&e, s, NULL, 0, 1, 1, 1),
	                 SWGPU_ERR_CONTEXT_LOST);
	for (uint32_t i = 0; i < 48; i++)
		assert_true(vol[i] == 0.0f);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_2d),
		cmocka_unit_test(test_image_3d_array_texel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
