/* SPDX-License-Identifier: MIT */
/*
 * Internal tests of heaps and buffer objects (mem.c), and of the
 * configuration that sizes them (config.c: env overrides, validation, the
 * SWGPU_FAULT parser).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <cmocka.h>

#include "kmd/config.h"
#include "kmd/mem.h"
#include "util/util.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

static void
small_mem(struct swgpu_mem *mem, uint64_t vram, uint64_t bar, uint64_t sys)
{
	swgpu_config cfg;

	swgpu_config_init(&cfg);
	cfg.vram_size = vram;
	cfg.bar_size = bar;
	cfg.system_size = sys;
	mem_init(mem, &cfg);
}

static void
test_create_args(void **state)
{
	struct swgpu_mem mem;
	struct swgpu_bo *bo = (void *)1;

	small_mem(&mem, 16 * MIB, 1 * MIB, 16 * MIB);
	assert_int_equal(bo_create_in(&mem, NULL, 0, SWGPU_HEAP_SYSTEM, 0,
	                              &bo), SWGPU_ERR_INVALID_ARG);
	assert_null(bo);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_COUNT, 0,
	                              &bo), SWGPU_ERR_INVALID_ARG);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_SYSTEM,
	                              1u << 7, &bo), SWGPU_ERR_INVALID_ARG);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_SYSTEM,
	                              SWGPU_BO_BAR, &bo),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_VRAM,
	                              SWGPU_BO_CACHED, &bo),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_SYSTEM, 0,
	                              NULL), SWGPU_ERR_INVALID_ARG);
	assert_int_equal(swgpu_bo_create(NULL, 4096, SWGPU_HEAP_SYSTEM, 0,
	                                 &bo), SWGPU_ERR_INVALID_ARG);
	/* Larger than the heap, and sizes whose rounding would wrap. */
	assert_int_equal(bo_create_in(&mem, NULL, 16 * MIB + 1,
	                              SWGPU_HEAP_SYSTEM, 0, &bo),
	                 SWGPU_ERR_NO_DEVICE_MEMORY);
	assert_int_equal(bo_create_in(&mem, NULL, UINT64_MAX,
	                              SWGPU_HEAP_SYSTEM, 0, &bo),
	                 SWGPU_ERR_NO_DEVICE_MEMORY);
	assert_int_equal(bo_create_in(&mem, NULL, UINT64_MAX - 4095,
	                              SWGPU_HEAP_VRAM, 0, &bo),
	                 SWGPU_ERR_NO_DEVICE_MEMORY);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 0);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM), 0);
	mem_fini(&mem);
}

static bool
all_zero(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void
test_size_rounding_and_zero_fill(void **state)
{
	static const uint64_t sizes[] = {
		1, 4095, 4096, 4097, 64 * KIB - 1, 64 * KIB, 1 * MIB + 1,
	};
	struct swgpu_mem mem;

	small_mem(&mem, 16 * MIB, 1 * MIB, 64 * MIB);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct swgpu_bo *bo;
		uint64_t rounded = (sizes[i] + 4095) & ~4095ull;
		void *p;

		assert_int_equal(bo_create_in(&mem, NULL, sizes[i],
		                              SWGPU_HEAP_SYSTEM, 0, &bo),
		                 SWGPU_OK);
		assert_int_equal(swgpu_bo_size(bo), rounded);
		assert_int_equal(swgpu_bo_heap(bo), SWGPU_HEAP_SYSTEM);
		assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM),
		                 rounded);
		assert_int_equal(swgpu_bo_map(bo, &p), SWGPU_OK);
		assert_int_equal((uintptr_t)p % 4096, 0);
		assert_true(all_zero(p, rounded));
		/* Dirty it so a recycled backing would show up unzeroed. */
		memset(p, 0xa5, rounded);
		swgpu_bo_unmap(bo);
		swgpu_bo_destroy(bo);
		assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 0);
	}
	mem_fini(&mem);
}

static void
test_heap_exhaustion(void **state)
{
	struct swgpu_mem mem;
	struct swgpu_bo *a, *b, *c;

	small_mem(&mem, 1 * MIB, 0, 1 * MIB);
	assert_int_equal(bo_create_in(&mem, NULL, 512 * KIB, SWGPU_HEAP_VRAM,
	                              0, &a), SWGPU_OK);
	assert_int_equal(bo_create_in(&mem, NULL, 512 * KIB, SWGPU_HEAP_VRAM,
	                              0, &b), SWGPU_OK);
	/* The other heap has its own budget. */
	assert_int_equal(bo_create_in(&mem, NULL, 1 * MIB, SWGPU_HEAP_SYSTEM,
	                              0, &c), SWGPU_OK);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM), 1 * MIB);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 1 * MIB);
	/* VRAM full and SYSTEM too: nowhere to evict to, nothing moves. */
	struct swgpu_bo *d = (void *)1;
	assert_int_equal(bo_create_in(&mem, NULL, 1, SWGPU_HEAP_VRAM, 0, &d),
	                 SWGPU_ERR_NO_DEVICE_MEMORY);
	assert_null(d);
	assert_int_equal(swgpu_bo_location(a), SWGPU_HEAP_VRAM);
	assert_int_equal(swgpu_bo_location(b), SWGPU_HEAP_VRAM);
	swgpu_bo_destroy(c);
	/* SYSTEM has room: the oldest VRAM BO is evicted for the new one. */
	assert_int_equal(bo_create_in(&mem, NULL, 1, SWGPU_HEAP_VRAM, 0, &d),
	                 SWGPU_OK);
	assert_int_equal(swgpu_bo_location(a), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(b), SWGPU_HEAP_VRAM);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM),
	                 512 * KIB + 4096);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 512 * KIB);
	swgpu_bo_destroy(d);
	swgpu_bo_destroy(a);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM), 512 * KIB);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 0);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_VRAM, 0,
	                              &a), SWGPU_OK);
	swgpu_bo_destroy(a);
	swgpu_bo_destroy(b);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM), 0);
	mem_fini(&mem);
}

static void
test_bar_window(void **state)
{
	struct swgpu_mem mem;
	struct swgpu_bo *bar, *bar2, *vram, *sys;
	void *p = (void *)1, *q;

	small_mem(&mem, 1 * MIB, 64 * KIB, 1 * MIB);
	assert_int_equal(bo_create_in(&mem, NULL, 64 * KIB, SWGPU_HEAP_VRAM,
	                              SWGPU_BO_BAR, &bar), SWGPU_OK);
	assert_int_equal(mem_bar_usage(&mem), 64 * KIB);
	/* BAR is inside VRAM accounting. */
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM), 64 * KIB);
	/* The window is full and its BO host-mapped (so it cannot move):
	 * a second BAR BO starts in SYSTEM. */
	assert_int_equal(swgpu_bo_map(bar, &q), SWGPU_OK);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_VRAM,
	                              SWGPU_BO_BAR, &bar2), SWGPU_OK);
	swgpu_bo_unmap(bar);
	assert_int_equal(swgpu_bo_location(bar2), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(bar), SWGPU_HEAP_VRAM);
	assert_int_equal(mem_bar_usage(&mem), 64 * KIB);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 4096);
	swgpu_bo_destroy(bar2);
	/* The BAR window is full, VRAM is not. */
	assert_int_equal(bo_create_in(&mem, NULL, 512 * KIB, SWGPU_HEAP_VRAM,
	                              0, &vram), SWGPU_OK);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM),
	                 576 * KIB);

	assert_int_equal(swgpu_bo_map(vram, &p), SWGPU_ERR_NOT_MAPPABLE);
	assert_null(p);
	assert_int_equal(swgpu_bo_map(bar, &p), SWGPU_OK);
	assert_non_null(p);
	assert_int_equal(swgpu_bo_map(bar, &q), SWGPU_OK);
	assert_ptr_equal(p, q);
	assert_int_equal(atomic_load(&bar->map_count), 2);
	swgpu_bo_unmap(bar);
	swgpu_bo_unmap(bar);
	assert_int_equal(atomic_load(&bar->map_count), 0);
	swgpu_bo_unmap(bar); /* unbalanced: logged, no underflow */
	assert_int_equal(atomic_load(&bar->map_count), 0);

	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_SYSTEM,
	                              SWGPU_BO_CACHED, &sys), SWGPU_OK);
	assert_int_equal(swgpu_bo_map(sys, &p), SWGPU_OK);
	((uint8_t *)p)[4095] = 7;
	assert_int_equal(sys->cpu[4095], 7);
	swgpu_bo_unmap(sys);

	swgpu_bo_destroy(bar);
	assert_int_equal(mem_bar_usage(&mem), 0);
	assert_int_equal(bo_create_in(&mem, NULL, 4096, SWGPU_HEAP_VRAM,
	                              SWGPU_BO_BAR, &bar2), SWGPU_OK);
	swgpu_bo_destroy(bar2);
	swgpu_bo_destroy(vram);
	swgpu_bo_destroy(sys);
	swgpu_bo_destroy(NULL);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_VRAM), 0);
	mem_fini(&mem);
}

static void
test_refcount(void **state)
{
	struct swgpu_mem mem;
	struct swgpu_bo *bo;

	small_mem(&mem, 1 * MIB, 0, 1 * MIB);
	assert_int_equal(bo_create_in(&mem, NULL, 8192, SWGPU_HEAP_SYSTEM, 0,
	                              &bo), SWGPU_OK);
	bo_ref(bo); /* e.g. a VA mapping */
	swgpu_bo_destroy(bo);
	/* Still alive: the mapping's reference holds the memory. */
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 8192);
	bo->cpu[8191] = 1;
	bo_unref(bo);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 0);
	assert_int_equal(mem.bo_count, 0);
	mem_fini(&mem);
}

static void
test_fini_frees_leaked(void **state)
{
	struct swgpu_mem mem;
	struct swgpu_bo *bo;

	small_mem(&mem, 8 * MIB, 1 * MIB, 8 * MIB);
	for (int i = 0; i < 5; i++)
		assert_int_equal(bo_create_in(&mem, NULL, (uint64_t)(i + 1) *
		                              100 * KIB, i & 1 ?
		                              SWGPU_HEAP_VRAM :
		                              SWGPU_HEAP_SYSTEM, 0, &bo),
		                 SWGPU_OK);
	assert_int_equal(mem.bo_count, 5);
	/* LeakSanitizer (ASan build) checks that nothing is left. */
	mem_fini(&mem);
	assert_int_equal(mem.bo_count, 0);
	assert_null(mem.bo_list);
	assert_int_equal(mem.heap_used[SWGPU_HEAP_VRAM], 0);
	assert_int_equal(mem.heap_used[SWGPU_HEAP_SYSTEM], 0);
}

#define RACE_THREADS 4
#define RACE_PAGES 64

struct race_arg {
	struct swgpu_mem *mem;
	struct swgpu_bo *held[RACE_PAGES + 1];
	uint32_t nheld;
	pthread_barrier_t *start;
};

static void *
race_thread(void *p)
{
	struct race_arg *a = p;

	pthread_barrier_wait(a->start);
	/* Churn, then grab pages until the heap says no. */
	for (int i = 0; i < 200; i++) {
		struct swgpu_bo *bo;

		if (bo_create_in(a->mem, NULL, 4096, SWGPU_HEAP_SYSTEM, 0,
		                 &bo) == SWGPU_OK)
			swgpu_bo_destroy(bo);
	}
	while (a->nheld <= RACE_PAGES &&
	       bo_create_in(a->mem, NULL, 4096, SWGPU_HEAP_SYSTEM, 0,
	                    &a->held[a->nheld]) == SWGPU_OK)
		a->nheld++;
	return NULL;
}

static void
test_concurrent_budget(void **state)
{
	struct swgpu_mem mem;
	pthread_t t[RACE_THREADS];
	struct race_arg arg[RACE_THREADS];
	pthread_barrier_t start;
	uint32_t total = 0;

	small_mem(&mem, 1 * MIB, 0, RACE_PAGES * 4096);
	pthread_barrier_init(&start, NULL, RACE_THREADS);
	for (int i = 0; i < RACE_THREADS; i++) {
		arg[i] = (struct race_arg){ .mem = &mem, .start = &start };
		pthread_create(&t[i], NULL, race_thread, &arg[i]);
	}
	for (int i = 0; i < RACE_THREADS; i++) {
		pthread_join(t[i], NULL);
		total += arg[i].nheld;
	}
	/* Exactly the budget was handed out, never more. */
	assert_int_equal(total, RACE_PAGES);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM),
	                 RACE_PAGES * 4096);
	for (int i = 0; i < RACE_THREADS; i++)
		for (uint32_t j = 0; j < arg[i].nheld; j++)
			swgpu_bo_destroy(arg[i].held[j]);
	assert_int_equal(mem_heap_usage(&mem, SWGPU_HEAP_SYSTEM), 0);
	pthread_barrier_destroy(&start);
	mem_fini(&mem);
}

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

static const char *const config_env[] = {
	"SWGPU_GRAPHICS_ENGINES", "SWGPU_GFX_THREADS", "SWGPU_COMPUTE_ENGINES", "SWGPU_COPY_ENGINES", "SWGPU_VRAM_MB",
	"SWGPU_BAR_MB", "SWGPU_SYSTEM_MB", "SWGPU_RING_KB",
	"SWGPU_TIMEOUT_MS", "SWGPU_SPIN_US", "SWGPU_FAULT", "SWGPU_TRACE",
	"SWGPU_DEBUG",
};

static void
clear_env(void)
{
	for (size_t i = 0; i < sizeof(config_env) / sizeof(config_env[0]); i++)
		unsetenv(config_env[i]);
}

static void
test_config_defaults(void **state)
{
	swgpu_config cfg;

	clear_env();
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_GRAPHICS], 1);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COMPUTE], 2);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY], 2);
	assert_int_equal(cfg.vram_size, 4096 * MIB);
	assert_int_equal(cfg.bar_size, 256 * MIB);
	assert_int_equal(cfg.system_size, 8192 * MIB);
	assert_int_equal(cfg.ring_size, 64 * 1024);
	assert_int_equal(cfg.hang_timeout_ms, 5000);
	assert_int_equal(cfg.spin_us, 20);
	assert_null(cfg.fault);
	assert_null(cfg.trace);
	assert_false(cfg.debug);
	assert_int_equal(config_validate(&cfg), SWGPU_OK);
}

static void
test_config_env(void **state)
{
	swgpu_config cfg;

	clear_env();
	setenv("SWGPU_COMPUTE_ENGINES", "3", 1);
	setenv("SWGPU_COPY_ENGINES", "0", 1);
	setenv("SWGPU_VRAM_MB", "512", 1);
	setenv("SWGPU_BAR_MB", "0x40", 1);
	setenv("SWGPU_SYSTEM_MB", "1024", 1);
	setenv("SWGPU_RING_KB", "4", 1);
	setenv("SWGPU_TIMEOUT_MS", "250", 1);
	setenv("SWGPU_SPIN_US", "0", 1);
	setenv("SWGPU_FAULT", "pagefault:queue=1:job=2", 1);
	setenv("SWGPU_TRACE", "stderr", 1);
	setenv("SWGPU_DEBUG", "1", 1);
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COMPUTE], 3);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY], 0);
	assert_int_equal(cfg.vram_size, 512 * MIB);
	assert_int_equal(cfg.bar_size, 64 * MIB);
	assert_int_equal(cfg.system_size, 1024 * MIB);
	assert_int_equal(cfg.ring_size, 4096);
	assert_int_equal(cfg.hang_timeout_ms, 250);
	assert_int_equal(cfg.spin_us, 0);
	assert_string_equal(cfg.fault, "pagefault:queue=1:job=2");
	assert_string_equal(cfg.trace, "stderr");
	assert_true(cfg.debug);
	assert_int_equal(config_validate(&cfg), SWGPU_OK);
	clear_env();
}

static void
test_config_env_malformed(void **state)
{
	swgpu_config cfg;

	clear_env();
	setenv("SWGPU_COMPUTE_ENGINES", "9", 1);   /* > 8 per class */
	setenv("SWGPU_COPY_ENGINES", "two", 1);
	setenv("SWGPU_VRAM_MB", "-5", 1);
	setenv("SWGPU_SYSTEM_MB", "12x", 1);
	setenv("SWGPU_RING_KB", "96", 1);          /* not a power of two */
	setenv("SWGPU_TIMEOUT_MS", "0", 1);
	setenv("SWGPU_SPIN_US", "", 1);
	setenv("SWGPU_FAULT", "pagefault:queue=1", 1);
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COMPUTE], 2);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY], 2);
	assert_int_equal(cfg.vram_size, 4096 * MIB);
	assert_int_equal(cfg.system_size, 8192 * MIB);
	assert_int_equal(cfg.ring_size, 64 * 1024);
	assert_int_equal(cfg.hang_timeout_ms, 5000);
	assert_int_equal(cfg.spin_us, 20);
	assert_null(cfg.fault);

	clear_env();
	setenv("SWGPU_RING_KB", "2", 1);           /* 2 KiB < 4096 bytes */
	setenv("SWGPU_GRAPHICS_ENGINES", "0", 1);
	setenv("SWGPU_COMPUTE_ENGINES", "0", 1);
	setenv("SWGPU_COPY_ENGINES", "0", 1);      /* no engine at all */
	setenv("SWGPU_VRAM_MB", "128", 1);         /* smaller than BAR */
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.ring_size, 64 * 1024);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_GRAPHICS], 1);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COMPUTE], 2);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY], 2);
	assert_int_equal(cfg.vram_size, 128 * MIB);
	assert_int_equal(cfg.bar_size, 128 * MIB);
	assert_int_equal(config_validate(&cfg), SWGPU_OK);

	setenv("SWGPU_BAR_MB", "129", 1);          /* > VRAM: ignored */
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.bar_size, 128 * MIB);
	clear_env();
}

static void
test_config_validate(void **state)
{
	swgpu_config cfg, bad;

	clear_env();
	swgpu_config_init(&cfg);
	assert_int_equal(config_validate(NULL), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.engine_count[SWGPU_ENGINE_GRAPHICS] = 0;
	bad.engine_count[SWGPU_ENGINE_COMPUTE] = 0;
	bad.engine_count[SWGPU_ENGINE_COPY] = 0;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.engine_count[SWGPU_ENGINE_COPY] = 9;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.engine_count[SWGPU_ENGINE_GRAPHICS] = 0;
	bad.engine_count[SWGPU_ENGINE_COMPUTE] = 8;
	bad.engine_count[SWGPU_ENGINE_COPY] = 8;
	assert_int_equal(config_validate(&bad), SWGPU_OK); /* 16 total */
	bad.engine_count[SWGPU_ENGINE_GRAPHICS] = 1;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.gfx_threads = 17;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.ring_size = 8192 + 4096;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad.ring_size = 2048;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.bar_size = bad.vram_size + 1;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.hang_timeout_ms = 0;
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
	bad = cfg;
	bad.fault = "explode:queue=0:job=1";
	assert_int_equal(config_validate(&bad), SWGPU_ERR_INVALID_ARG);
}

static void
test_fault_spec_parse(void **state)
{
	struct fault_spec s[4];
	uint32_t n = 99;

	assert_int_equal(fault_spec_parse(NULL, s, 4, &n), SWGPU_OK);
	assert_int_equal(n, 0);
	assert_int_equal(fault_spec_parse("", s, 4, &n), SWGPU_OK);
	assert_int_equal(n, 0);

	assert_int_equal(fault_spec_parse("pagefault:queue=0:job=3", s, 4,
	                                  &n), SWGPU_OK);
	assert_int_equal(n, 1);
	assert_int_equal(s[0].kind, SWGPU_FAULT_INJECTED);
	assert_int_equal(s[0].queue_id, 0);
	assert_int_equal(s[0].job_seqno, 3);
	assert_int_equal(s[0].device_index, -1);

	assert_int_equal(fault_spec_parse("hang:job=18446744073709551615:"
	                                  "device=2:queue=4294967295,"
	                                  "pagefault:queue=7:job=1", s, 4,
	                                  &n), SWGPU_OK);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].kind, SWGPU_FAULT_HANG);
	assert_int_equal(s[0].queue_id, UINT32_MAX);
	assert_true(s[0].job_seqno == UINT64_MAX);
	assert_int_equal(s[0].device_index, 2);
	assert_int_equal(s[1].kind, SWGPU_FAULT_INJECTED);
	assert_int_equal(s[1].queue_id, 7);
	assert_int_equal(s[1].job_seqno, 1);

	static const char *const bad[] = {
		"pagefault", "pagefault:", "pagefault:queue=0",
		"pagefault:job=1", "pagefault:queue=0:job=0",
		"pagefault:queue=x:job=1", "pagefault:queue=0:job=1:",
		"pagefault:queue=0:job=1,", ",pagefault:queue=0:job=1",
		"pagefault:queue=0:job=1:queue=2", "pagefault:queue=-1:job=1",
		"pagefault:queue=4294967296:job=1",
		"pagefault:queue=0:job=18446744073709551616",
		"pagefault:queue=0:job=1:device=2147483648",
		"pagefault:queue=0:job=1:color=red", "PAGEFAULT:queue=0:job=1",
		"pagefault :queue=0:job=1", "pagefault:queue=0:job=1 ",
		"pagefaultx:queue=0:job=1", "pagefault:queue:job=1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = 99;
		if (fault_spec_parse(bad[i], s, 4, &n) != SWGPU_ERR_INVALID_ARG)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_int_equal(n, 0);
	}
	/* More specs than room. */
	assert_int_equal(fault_spec_parse("hang:queue=0:job=1,"
	                                  "hang:queue=0:job=2", s, 1, &n),
	                 SWGPU_ERR_INVALID_ARG);
}

static void
test_util(void **state)
{
	uint64_t v = 42;

	assert_string_equal(swgpu_result_str(SWGPU_ERR_CONTEXT_LOST),
	                    "SWGPU_ERR_CONTEXT_LOST");
	assert_string_equal(swgpu_result_str(SWGPU_OK), "SWGPU_OK");
	assert_non_null(swgpu_result_str((swgpu_result)1234));
	assert_int_equal(SWGPU_ERR(false, SWGPU_ERR_NO_VA_SPACE, "x %d", 1),
	                 SWGPU_ERR_NO_VA_SPACE);
	assert_int_equal(SWGPU_ERR(true, SWGPU_TIMEOUT, "logged"),
	                 SWGPU_TIMEOUT);

	uint64_t a = swgpu_now_ns(), b = swgpu_now_ns();
	assert_true(a > 0 && b >= a);
	assert_true(swgpu_deadline_from_timeout(UINT64_MAX) == UINT64_MAX);
	assert_true(swgpu_deadline_from_timeout(UINT64_MAX - 1) ==
	            UINT64_MAX);
	uint64_t d = swgpu_deadline_from_timeout(1000000000ull);
	assert_true(d >= b + 1000000000ull);
	assert_true(d < swgpu_now_ns() + 1000000000ull + 1);

	unsetenv("SWGPU_TEST_NUM");
	assert_false(swgpu_env_u64("SWGPU_TEST_NUM", &v));
	setenv("SWGPU_TEST_NUM", "010", 1);
	assert_true(swgpu_env_u64("SWGPU_TEST_NUM", &v));
	assert_int_equal(v, 10); /* decimal, not octal */
	setenv("SWGPU_TEST_NUM", "0x1F", 1);
	assert_true(swgpu_env_u64("SWGPU_TEST_NUM", &v));
	assert_int_equal(v, 31);
	setenv("SWGPU_TEST_NUM", "18446744073709551616", 1);
	assert_false(swgpu_env_u64("SWGPU_TEST_NUM", &v));
	setenv("SWGPU_TEST_NUM", "0x", 1);
	assert_false(swgpu_env_u64("SWGPU_TEST_NUM", &v));
	setenv("SWGPU_TEST_NUM", "-1", 1);
	assert_false(swgpu_env_u64("SWGPU_TEST_NUM", &v));
	assert_int_equal(v, 31);
	unsetenv("SWGPU_TEST_NUM");
}

/* swgpu_calloc_private: zeroed, on lines of its own (aligned, and two
 * blocks never share a line), NULL on a size that overflows. */
static void
test_calloc_private(void **state)
{
	(void)state;
	uint8_t *blk[8];

	for (size_t i = 0; i < 8; i++) {
		const size_t n = 1 + 37 * i;

		blk[i] = swgpu_calloc_private(n, 3);
		assert_non_null(blk[i]);
		assert_int_equal((uintptr_t)blk[i] % SWGPU_PRIVATE_ALIGN, 0);
		for (size_t b = 0; b < SWGPU_PRIVATE_ALIGN *
		                       ((3 * n + SWGPU_PRIVATE_ALIGN - 1) /
		                        SWGPU_PRIVATE_ALIGN); b++)
			assert_int_equal(blk[i][b], 0);
		memset(blk[i], 0xa5, 3 * n);
	}
	/* each block's lines hold nothing of another block */
	for (size_t i = 0; i < 8; i++)
		for (size_t j = 0; j < 8; j++) {
			const size_t lines = (3 * (1 + 37 * j) +
			                      SWGPU_PRIVATE_ALIGN - 1) /
			                     SWGPU_PRIVATE_ALIGN;
			const uintptr_t a = (uintptr_t)blk[i];
			const uintptr_t b0 = (uintptr_t)blk[j];
			const uintptr_t b1 = b0 + lines * SWGPU_PRIVATE_ALIGN;

			if (i != j)
				assert_true(a >= b1 || a < b0);
		}
	uint8_t *z = swgpu_calloc_private(0, 4);
	assert_non_null(z);
	assert_int_equal((uintptr_t)z % SWGPU_PRIVATE_ALIGN, 0);
	free(z);
	assert_null(swgpu_calloc_private(SIZE_MAX / 2, 3));
	assert_null(swgpu_calloc_private(1, SIZE_MAX - 10));
	for (size_t i = 0; i < 8; i++)
		free(blk[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_args),
		cmocka_unit_test(test_size_rounding_and_zero_fill),
		cmocka_unit_test(test_heap_exhaustion),
		cmocka_unit_test(test_bar_window),
		cmocka_unit_test(test_refcount),
		cmocka_unit_test(test_fini_frees_leaked),
		cmocka_unit_test(test_concurrent_budget),
		cmocka_unit_test(test_config_defaults),
		cmocka_unit_test(test_config_env),
		cmocka_unit_test(test_config_env_malformed),
		cmocka_unit_test(test_config_validate),
		cmocka_unit_test(test_fault_spec_parse),
		cmocka_unit_test(test_util),
		cmocka_unit_test(test_calloc_private),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
