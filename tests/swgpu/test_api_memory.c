/* SPDX-License-Identifier: MIT */
/*
 * Buffer objects, heaps and the GPU VA space through the public API:
 * zero-fill, host mapping rules, heap accounting, VA placement with guard
 * gaps, and argument errors.
 */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>

struct fix {
	swgpu_device *dev;
	swgpu_device_info info;
	swgpu_context *ctx;
};

static int
setup(void **state)
{
	static struct fix f;
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.vram_size = 64ull << 20;
	cfg.bar_size = 8ull << 20;
	cfg.system_size = 64ull << 20;
	if (swgpu_device_open(&cfg, &f.dev) != SWGPU_OK)
		return -1;
	swgpu_device_query_info(f.dev, &f.info);
	if (swgpu_context_create(f.dev, &f.ctx) != SWGPU_OK)
		return -1;
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;
	swgpu_context_destroy(f->ctx);
	swgpu_device_close(f->dev);
	return 0;
}

static void
test_bo_basics(void **state)
{
	struct fix *f = *state;
	swgpu_bo *bo = NULL;
	void *p = NULL, *p2 = NULL;

	uint64_t used0 = swgpu_heap_usage(f->dev, SWGPU_HEAP_SYSTEM);
	api_ok(swgpu_bo_create(f->dev, 5000, SWGPU_HEAP_SYSTEM, 0, &bo));
	assert_true(swgpu_bo_size(bo) == 8192); /* rounded to pages */
	assert_int_equal(swgpu_bo_heap(bo), SWGPU_HEAP_SYSTEM);
	assert_true(swgpu_heap_usage(f->dev, SWGPU_HEAP_SYSTEM) ==
	            used0 + 8192);
	api_ok(swgpu_bo_map(bo, &p));
	api_ok(swgpu_bo_map(bo, &p2));
	assert_ptr_equal(p, p2);
	assert_true(((uintptr_t)p & 4095) == 0);
	assert_int_equal(api_find_byte_mismatch(p, 8192, 0), 8192);
	memset(p, 0x5a, 8192);
	swgpu_bo_unmap(bo);
	/* Still mapped once: same pointer, contents kept. */
	api_ok(swgpu_bo_map(bo, &p2));
	assert_ptr_equal(p, p2);
	assert_int_equal(((uint8_t *)p2)[8191], 0x5a);
	swgpu_bo_unmap(bo);
	swgpu_bo_unmap(bo);
	swgpu_bo_destroy(bo);
	assert_true(swgpu_heap_usage(f->dev, SWGPU_HEAP_SYSTEM) == used0);

	/* VRAM without BAR is not host-visible. */
	api_ok(swgpu_bo_create(f->dev, 4096, SWGPU_HEAP_VRAM, 0, &bo));
	assert_int_equal(swgpu_bo_heap(bo), SWGPU_HEAP_VRAM);
	api_check(SWGPU_ERR_NOT_MAPPABLE, swgpu_bo_map(bo, &p));
	swgpu_bo_destroy(bo);

	/* VRAM in the BAR window is, and starts zeroed. */
	api_ok(swgpu_bo_create(f->dev, 4096, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &bo));
	api_ok(swgpu_bo_map(bo, &p));
	assert_int_equal(api_find_byte_mismatch(p, 4096, 0), 4096);
	swgpu_bo_unmap(bo);
	swgpu_bo_destroy(bo);

	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_create(f->dev, 0, SWGPU_HEAP_SYSTEM, 0, &bo));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_create(f->dev, 4096, SWGPU_HEAP_COUNT, 0, &bo));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_create(f->dev, 4096, SWGPU_HEAP_SYSTEM, 0x80, &bo));
}

static void
test_heap_exhaustion(void **state)
{
	struct fix *f = *state;
	swgpu_bo *bo = NULL, *bo2 = NULL;

	/* More than the heap: refused, nothing accounted. */
	uint64_t used0 = swgpu_heap_usage(f->dev, SWGPU_HEAP_VRAM);
	api_check(SWGPU_ERR_NO_DEVICE_MEMORY,
	          swgpu_bo_create(f->dev, f->info.heap_size[SWGPU_HEAP_VRAM] +
	                                      4096,
	                          SWGPU_HEAP_VRAM, 0, &bo));
	assert_true(swgpu_heap_usage(f->dev, SWGPU_HEAP_VRAM) == used0);

	/* The BAR window is smaller than VRAM and fills first; an idle,
	 * unmapped BAR BO then makes way (evicted to SYSTEM). */
	api_ok(swgpu_bo_create(f->dev, f->info.bar_size, SWGPU_HEAP_VRAM,
	                       SWGPU_BO_BAR, &bo));
	api_ok(swgpu_bo_create(f->dev, 4096, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &bo2));
	assert_int_equal(swgpu_bo_location(bo), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(bo2), SWGPU_HEAP_VRAM);
	assert_true(swgpu_bar_usage(f->dev) == 4096);
	swgpu_bo_destroy(bo2);
	/* ... and plain VRAM is still available. */
	api_ok(swgpu_bo_create(f->dev, 4096, SWGPU_HEAP_VRAM, 0, &bo2));
	swgpu_bo_destroy(bo2);
	swgpu_bo_destroy(bo);
	api_ok(swgpu_bo_create(f->dev, 4096, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &bo));
	swgpu_bo_destroy(bo);
	assert_true(swgpu_heap_usage(f->dev, SWGPU_HEAP_VRAM) == used0);
}

static void
test_va_map_rules(void **state)
{
	struct fix *f = *state;
	swgpu_bo *bo = NULL;
	uint64_t va[4] = { 0 };

	api_ok(swgpu_bo_create(f->dev, 4 * 4096, SWGPU_HEAP_SYSTEM, 0, &bo));
	api_ok(swgpu_va_map(f->ctx, bo, 0, 4 * 4096,
	                    SWGPU_VA_READ | SWGPU_VA_WRITE, &va[0]));
	api_ok(swgpu_va_map(f->ctx, bo, 4096, 4096, SWGPU_VA_READ, &va[1]));
	api_ok(swgpu_va_map(f->ctx, bo, 0, 100, SWGPU_VA_READ, &va[2]));
	api_ok(swgpu_va_map(f->ctx, bo, 3 * 4096, 4096, SWGPU_VA_WRITE,
	                    &va[3]));
	for (int i = 0; i < 4; i++) {
		assert_true(va[i] != 0);
		assert_true(va[i] % f->info.va_alignment == 0);
		assert_true(va[i] < f->info.va_size + va[i]);
	}
	/* Mappings never overlap and are separated by a guard gap. */
	static const uint64_t sz[4] = { 4 * 4096, 4096, 100, 4096 };
	for (int i = 0; i < 4; i++) {
		for (int j = 0; j < 4; j++) {
			if (i == j)
				continue;
			/* [va_i, va_i + size_i] (incl. one byte past the end)
			 * never touches mapping j. */
			assert_false(va[j] <= va[i] + sz[i] &&
			             va[i] < va[j] + sz[j]);
		}
	}

	uint64_t scratch = 0;
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_va_map(f->ctx, bo, 100, 4096, SWGPU_VA_READ, &scratch));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_va_map(f->ctx, bo, 0, 0, SWGPU_VA_READ, &scratch));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_va_map(f->ctx, bo, 4096, 4 * 4096, SWGPU_VA_READ,
	                       &scratch));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_va_map(f->ctx, bo, 0, 4096, SWGPU_VA_READ, NULL));

	uint64_t v1 = va[1];
	api_check(SWGPU_ERR_NOT_MAPPED, swgpu_va_unmap(f->ctx, v1 + 4096));
	api_check(SWGPU_ERR_NOT_MAPPED, swgpu_va_unmap(f->ctx, 0));
	for (int i = 0; i < 4; i++)
		api_ok(swgpu_va_unmap(f->ctx, va[i]));
	api_check(SWGPU_ERR_NOT_MAPPED, swgpu_va_unmap(f->ctx, v1));
	swgpu_bo_destroy(bo);
}

/* A BO maps into two contexts; both see the same memory. */
static void
test_bo_shared_between_contexts(void **state)
{
	struct fix *f = *state;
	swgpu_context *ctx2;
	api_ok(swgpu_context_create(f->dev, &ctx2));
	assert_true(swgpu_context_id(ctx2) != swgpu_context_id(f->ctx));
	assert_int_equal(swgpu_context_query_state(ctx2, NULL),
	                 SWGPU_CONTEXT_OK);

	struct api_buf shared;
	api_buf_init(&shared, f->dev, f->ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	uint64_t va2;
	api_ok(swgpu_va_map(ctx2, shared.bo, 0, 4096,
	                    SWGPU_VA_READ | SWGPU_VA_WRITE, &va2));

	struct api_cmd c1, c2;
	api_cmd_init(&c1, f->dev, f->ctx, 64);
	api_cmd_init(&c2, f->dev, ctx2, 64);
	swgpu_queue *q1 = api_queue(f->ctx, SWGPU_ENGINE_COPY, 0);
	swgpu_queue *q2 = api_queue(ctx2, SWGPU_ENGINE_COMPUTE, 0);

	api_emit_write32(&c1, shared.va + 0, 0x1111);
	swgpu_ib ib1 = api_cmd_end(&c1);
	api_ok(api_submit(q1, &ib1, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q1);
	/* ctx2 copies what ctx1 wrote, through its own VA. */
	api_emit_copy(&c2, va2 + 4, va2 + 0, 4);
	swgpu_ib ib2 = api_cmd_end(&c2);
	api_ok(api_submit(q2, &ib2, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q2);
	assert_int_equal(api_load32(shared.cpu + 4), 0x1111);

	swgpu_queue_destroy(q1);
	swgpu_queue_destroy(q2);
	api_cmd_fini(&c1);
	api_cmd_fini(&c2);
	api_ok(swgpu_va_unmap(ctx2, va2));
	api_buf_fini(&shared);
	swgpu_context_destroy(ctx2);
}


/* Host memory imported as a BO (VK_EXT_external_memory_host): the GPU
 * writes the caller's own pages, nothing is accounted in the heap, it
 * cannot be offered, unaligned input is refused, and destroying the BO
 * leaves the pages to their owner (ASan: no double free). */
static void
test_import_host_memory(void **state)
{
	struct fix *f = *state;
	const uint64_t size = 64 * 1024;
	uint8_t *host = aligned_alloc(4096, size);
	swgpu_bo *bo = (swgpu_bo *)(uintptr_t)1;
	uint64_t used = swgpu_heap_usage(f->dev, SWGPU_HEAP_SYSTEM);
	uint64_t va;
	void *p;

	assert_non_null(host);
	if (api_shared_mode()) {
		/* The daemon cannot reach this process's pages. */
		api_check(SWGPU_ERR_UNSUPPORTED,
		          swgpu_bo_import_host(f->dev, host, size, 0, &bo));
		free(host);
		return;
	}
	memset(host, 0, size);
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_import_host(f->dev, host + 16, size, 0, &bo));
	assert_null(bo);
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_import_host(f->dev, host, size - 100, 0, &bo));
	api_ok(swgpu_bo_import_host(f->dev, host, size, SWGPU_BO_CACHED, &bo));
	assert_true(swgpu_heap_usage(f->dev, SWGPU_HEAP_SYSTEM) == used);
	api_ok(swgpu_bo_map(bo, &p));
	assert_ptr_equal(p, host);
	swgpu_bo_unmap(bo);
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_offer(bo, SWGPU_OFFER_LOW));
	api_ok(swgpu_va_map(f->ctx, bo, 0, size,
	                    SWGPU_VA_READ | SWGPU_VA_WRITE, &va));
	struct api_cmd c;
	api_cmd_init(&c, f->dev, f->ctx, 64);
	swgpu_queue *q = api_queue(f->ctx, SWGPU_ENGINE_COPY, 0);
	api_emit_fill(&c, va + 4096, 8192, 0x5a5a5a5a);
	api_emit_copy(&c, va + 100, va + 4096, 4);
	swgpu_ib ib = api_cmd_end(&c);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q);
	assert_int_equal(api_load32(host + 100), 0x5a5a5a5a);
	assert_int_equal(api_find_byte_mismatch(host + 4096, 8192, 0x5a),
	                 8192);
	assert_int_equal(host[4096 + 8192], 0);
	swgpu_queue_destroy(q);
	api_cmd_fini(&c);
	api_ok(swgpu_va_unmap(f->ctx, va));
	swgpu_bo_destroy(bo);
	assert_true(swgpu_heap_usage(f->dev, SWGPU_HEAP_SYSTEM) == used);
	host[0] = 1;        /* still the caller's */
	free(host);
}

/* Mappings at a BO offset and aliases of one BO: the GPU sees exactly
 * the bytes the host sees at the same BO offset. */
static void
test_va_offset_and_alias(void **state)
{
	struct fix *f = *state;
	swgpu_bo *bo;
	uint8_t *cpu;
	api_ok(swgpu_bo_create(f->dev, 4 * 4096, SWGPU_HEAP_SYSTEM,
	                       SWGPU_BO_CACHED, &bo));
	api_ok(swgpu_bo_map(bo, (void **)&cpu));
	uint64_t va_whole, va_p2, va_p3;
	api_ok(swgpu_va_map(f->ctx, bo, 0, 4 * 4096,
	                    SWGPU_VA_READ | SWGPU_VA_WRITE, &va_whole));
	api_ok(swgpu_va_map(f->ctx, bo, 2 * 4096, 4096,
	                    SWGPU_VA_READ | SWGPU_VA_WRITE, &va_p2));
	api_ok(swgpu_va_map(f->ctx, bo, 3 * 4096, 4096, SWGPU_VA_READ,
	                    &va_p3));
	api_fill_pattern(cpu + 3 * 4096, 4096, 0, 5);

	struct api_cmd cmd;
	api_cmd_init(&cmd, f->dev, f->ctx, 256);
	swgpu_queue *q = api_queue(f->ctx, SWGPU_ENGINE_COPY, 1);
	api_emit_write32(&cmd, va_p2 + 12, 0xa11a5);      /* page 2 +12 */
	api_emit_copy(&cmd, va_p2 + 100, va_p3 + 7, 50);  /* 3+7 -> 2+100 */
	api_emit_copy(&cmd, va_whole + 4096, va_p2 + 12, 4); /* 2+12 -> 1 */
	swgpu_ib ib = api_cmd_end(&cmd);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q);
	assert_int_equal(api_load32(cpu + 2 * 4096 + 12), 0xa11a5);
	assert_int_equal(api_load32(cpu + 4096), 0xa11a5);
	assert_int_equal(api_find_pattern_mismatch(cpu + 2 * 4096 + 100, 50,
	                                           7, 5),
	                 50);
	/* Nothing else in pages 0..2 changed. */
	assert_int_equal(api_find_byte_mismatch(cpu, 4096, 0), 4096);
	assert_int_equal(api_find_byte_mismatch(cpu + 4096 + 4, 4092, 0),
	                 4092);
	assert_int_equal(api_find_byte_mismatch(cpu + 2 * 4096, 12, 0), 12);
	assert_int_equal(api_find_byte_mismatch(cpu + 2 * 4096 + 16, 84, 0),
	                 84);
	assert_int_equal(api_find_byte_mismatch(cpu + 2 * 4096 + 150,
	                                        4096 - 150, 0),
	                 4096 - 150);
	api_cmd_fini(&cmd);
	swgpu_queue_destroy(q);
	api_ok(swgpu_va_unmap(f->ctx, va_whole));
	api_ok(swgpu_va_unmap(f->ctx, va_p2));
	api_ok(swgpu_va_unmap(f->ctx, va_p3));
	swgpu_bo_unmap(bo);
	swgpu_bo_destroy(bo);
}

/* The VA space runs out with a real error and recovers on unmap. */
static void
test_va_exhaustion(void **state)
{
	struct fix *f = *state;
	/* Big mappings (of a lazily committed 1 GiB BO) keep the count of
	 * mappings, and the test's time under TSan, small. */
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.system_size = 2ull << 30;
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_bo *bo;
	const uint64_t sz = 1ull << 30;
	api_ok(swgpu_bo_create(dev, sz, SWGPU_HEAP_SYSTEM, 0, &bo));
	uint64_t max = f->info.va_size / sz + 2;
	uint64_t *vas = calloc(max, sizeof(*vas));
	assert_non_null(vas);
	uint64_t n = 0;
	swgpu_result r = SWGPU_OK;
	while (n < max) {
		r = swgpu_va_map(ctx, bo, 0, sz, SWGPU_VA_READ, &vas[n]);
		if (r != SWGPU_OK)
			break;
		n++;
	}
	print_message("%llu mappings of %llu MiB in a %llu GiB VA space\n",
	              (unsigned long long)n, (unsigned long long)(sz >> 20),
	              (unsigned long long)(f->info.va_size >> 30));
	api_check(SWGPU_ERR_NO_VA_SPACE, r);
	assert_true(n >= 1 && n * sz <= f->info.va_size);
	api_ok(swgpu_va_unmap(ctx, vas[n / 2]));
	api_ok(swgpu_va_map(ctx, bo, 0, sz, SWGPU_VA_READ, &vas[n / 2]));
	for (uint64_t i = 0; i < n; i++)
		api_ok(swgpu_va_unmap(ctx, vas[i]));
	free(vas);
	swgpu_bo_destroy(bo);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

static void
test_max_bo_size(void **state)
{
	struct fix *f = *state;
	swgpu_bo *bo = NULL;
	swgpu_result r = swgpu_bo_create(f->dev, f->info.max_bo_size + 4096,
	                                 SWGPU_HEAP_SYSTEM, 0, &bo);
	assert_true(r == SWGPU_ERR_INVALID_ARG ||
	            r == SWGPU_ERR_NO_DEVICE_MEMORY);
	assert_null(bo);
	assert_true(f->info.max_bo_size <=
	            f->info.heap_size[SWGPU_HEAP_SYSTEM] ||
	            f->info.max_bo_size <= f->info.heap_size[SWGPU_HEAP_VRAM]);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bo_basics),
		cmocka_unit_test(test_heap_exhaustion),
		cmocka_unit_test(test_va_map_rules),
		cmocka_unit_test(test_bo_shared_between_contexts),
		cmocka_unit_test(test_va_offset_and_alias),
		cmocka_unit_test(test_va_exhaustion),
		cmocka_unit_test(test_max_bo_size),
		cmocka_unit_test(test_import_host_memory),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
