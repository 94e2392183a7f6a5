/* SPDX-License-Identifier: MIT */
/*
 * Image packets through real submits on every engine class (a copy
 * engine must run all transfer commands): COPY_PITCHED buffer -> image ->
 * buffer with padded pitches, CLEAR_BOX and BLIT, checked on the data;
 * a faulting BLIT makes the context guilty and writes nothing.
 */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

struct fix {
	swgpu_device *dev;
	swgpu_context *ctx;
	struct api_cmd cmd;
	struct api_buf buf;     /* SYSTEM: upload/readback buffer */
	struct api_buf img;     /* VRAM (BAR-mapped): the image */
};

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	swgpu_config cfg;

	api_config_small(&cfg);
	api_ok(swgpu_device_open(&cfg, &f->dev));
	api_ok(swgpu_context_create(f->dev, &f->ctx));
	api_cmd_init(&f->cmd, f->dev, f->ctx, 64 * 1024);
	api_buf_init(&f->buf, f->dev, f->ctx, 1 << 20, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&f->img, f->dev, f->ctx, 1 << 20, SWGPU_HEAP_VRAM,
	             SWGPU_BO_BAR, SWGPU_VA_READ | SWGPU_VA_WRITE);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;

	api_buf_fini(&f->img);
	api_buf_fini(&f->buf);
	api_cmd_fini(&f->cmd);
	swgpu_context_destroy(f->ctx);
	swgpu_device_close(f->dev);
	free(f);
	return 0;
}

static void
run_ib(swgpu_queue *q, swgpu_ib ib)
{
	uint64_t s = 0;

	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &s));
	api_ok(swgpu_queue_wait(q, s, api_deadline_ms(API_WAIT_MS)));
}

/* 100x50 R8G8B8A8 texels: upload into an image with a 512-byte pitch,
 * clear a sub-box, blit 2:1, read everything back. */
static void
test_image_packets_on_engines(void **state)
{
	struct fix *f = *state;
	const uint32_t w = 100, h = 50, rp = 512;
	const uint64_t half_off = 64 * 1024, back_off = 128 * 1024;

	swgpu_device_info info;

	swgpu_device_query_info(f->dev, &info);
	for (int cls = 0; cls < SWGPU_ENGINE_CLASS_COUNT; cls++) {
		if (!info.engine_class_count[cls])
			continue;
		swgpu_queue *q = api_queue(f->ctx, (swgpu_engine_class)cls, 0);
		struct swgpu_pitched bufp = { f->buf.va, w * 4, 0 };
		struct swgpu_pitched imgp = { f->img.va, rp, 0 };
		struct swgpu_pitched backp = { f->buf.va + back_off, w * 4, 0 };
		struct swgpu_pitched boxp = { f->img.va + 10 * rp + 20 * 4, rp,
		                              0 };
		struct swgpu_blit_surface src = {
			f->img.va, rp, 0, SWGPU_FORMAT_R8G8B8A8_UNORM, w, h, 1,
		};
		struct swgpu_blit_surface dst = {
			f->img.va + half_off, w * 2, 0,
			SWGPU_FORMAT_R8G8B8A8_UNORM, w / 2, h / 2, 1,
		};
		const int32_t sb[6] = { 0, 0, 0, (int32_t)w, (int32_t)h, 1 };
		const int32_t db[6] = { 0, 0, 0, (int32_t)w / 2,
		                        (int32_t)h / 2, 1 };
		const uint32_t red[4] = { 0xff, 0, 0, 0xff };   /* _UINT bits */
		uint32_t *p;

		api_cmd_reset(&f->cmd);
		api_fill_pattern(f->buf.cpu, w * h * 4, 0, (uint32_t)cls + 1);
		memset(f->img.cpu, 0xcd, f->img.size);
		memset(f->buf.cpu + back_off, 0, w * h * 4);

		p = api_cmd_reserve(&f->cmd, SWGPU_LEN_COPY_PITCHED);
		swgpu_emit_copy_pitched(p, &imgp, &bufp, w * 4, h, 1);
		p = api_cmd_reserve(&f->cmd, SWGPU_LEN_CLEAR_BOX);
		swgpu_emit_clear_box(p, &boxp, SWGPU_FORMAT_R8G8B8A8_UINT, 8, 4,
		                     1, red);
		p = api_cmd_reserve(&f->cmd, SWGPU_LEN_BLIT);
		swgpu_emit_blit(p, &src, &dst, sb, db, 0);
		p = api_cmd_reserve(&f->cmd, SWGPU_LEN_COPY_PITCHED);
		swgpu_emit_copy_pitched(p, &backp, &imgp, w * 4, h, 1);
		run_ib(q, api_cmd_end(&f->cmd));

		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				const uint8_t *got = f->buf.cpu + back_off +
				                     (y * w + x) * 4;
				const uint8_t *up = f->buf.cpu + (y * w + x) * 4;
				bool in = x >= 20 && x < 28 && y >= 10 && y < 14;
				static const uint8_t r[4] = { 0xff, 0, 0, 0xff };

				assert_memory_equal(got, in ? r : up, 4);
				/* Padding after each image row untouched. */
				if (x == 0)
					assert_int_equal(
						api_find_byte_mismatch(
							f->img.cpu + y * rp + w * 4,
							rp - w * 4, 0xcd),
						rp - w * 4);
			}
		/* Nearest 2:1 takes texel (2x + 1, 2y + 1). */
		for (uint32_t y = 0; y < h / 2; y++)
			for (uint32_t x = 0; x < w / 2; x++)
				assert_memory_equal(
					f->img.cpu + half_off + (y * w / 2 + x) * 4,
					f->buf.cpu + back_off +
					((2 * y + 1) * w + 2 * x + 1) * 4, 4);
		swgpu_queue_destroy(q);
	}
}

static void
test_faulting_blit_makes_context_guilty(void **state)
{
	struct fix *f = *state;
	swgpu_context *ctx;
	swgpu_fault_info fi;
	struct api_cmd cmd;
	struct api_buf out;

	api_ok(swgpu_context_create(f->dev, &ctx));
	api_cmd_init(&cmd, f->dev, ctx, 4096);
	api_buf_init(&out, f->dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(out.cpu, 0xcd, out.size);

	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	struct swgpu_blit_surface s = {
		out.va, 64, 0, SWGPU_FORMAT_R8G8B8A8_UNORM, 16, 16, 1,
	};
	struct swgpu_blit_surface d = s;
	d.format = SWGPU_FORMAT_R8G8B8A8_UINT;      /* across classes */
	const int32_t box[6] = { 0, 0, 0, 8, 8, 1 };
	uint32_t *p = api_cmd_reserve(&cmd, SWGPU_LEN_BLIT);
	swgpu_emit_blit(p, &s, &d, box, box, 0);
	swgpu_ib ib = api_cmd_end(&cmd);
	uint64_t seq = 0;

	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &seq));
	swgpu_queue_wait(q, seq, api_deadline_ms(API_WAIT_MS));
	assert_int_equal(swgpu_context_query_state(ctx, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_BAD_PACKET);
	assert_int_equal(fi.opcode, SWGPU_OP_BLIT);
	assert_int_equal(api_find_byte_mismatch(out.cpu, out.size, 0xcd),
	                 out.size);

	swgpu_queue_destroy(q);
	api_buf_fini(&out);
	api_cmd_fini(&cmd);
	swgpu_context_destroy(ctx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_image_packets_on_engines,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_faulting_blit_makes_context_guilty, setup,
			teardown),
	};

	api_apply_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
