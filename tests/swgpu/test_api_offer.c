/* SPDX-License-Identifier: MIT */
/*
 * Heap budgets (SWGPU_VRAM_BUDGET_MB, swgpu_heap_budget) and offer /
 * reclaim through the public API: usage moves by exactly the page-rounded
 * BO sizes, the budget is enforced, a kept offer comes back intact and a
 * discarded one as DISCARDED and zero, discards go lowest priority (then
 * oldest) first and only when they make an allocation fit, and the lot is
 * thread-safe.
 */
#include "api_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024ull * 1024ull)

static swgpu_device *
open_heaps(uint64_t vram_mb, uint64_t bar_mb, uint64_t system_mb,
           uint64_t budget_mb)
{
	swgpu_config cfg;

	api_config_small(&cfg);
	cfg.vram_size = vram_mb * MIB;
	cfg.bar_size = bar_mb * MIB;
	cfg.system_size = system_mb * MIB;
	cfg.vram_budget = budget_mb * MIB;
	return api_open(&cfg);
}

static swgpu_bo *
bo_new(swgpu_device *dev, uint64_t size, swgpu_heap heap, uint32_t flags)
{
	swgpu_bo *bo = NULL;

	api_ok(swgpu_bo_create(dev, size, heap, flags, &bo));
	return bo;
}

/* Fill a mappable BO with a pattern derived from seed. */
static void
bo_fill(swgpu_bo *bo, uint8_t seed)
{
	uint8_t *p = NULL;

	api_ok(swgpu_bo_map(bo, (void **)&p));
	for (uint64_t i = 0; i < swgpu_bo_size(bo); i++)
		p[i] = (uint8_t)(seed + i * 7 + (i >> 12));
	swgpu_bo_unmap(bo);
}

/* Every byte is the pattern of seed (intact) or zero (zero_expected). */
static void
bo_expect(swgpu_bo *bo, uint8_t seed, bool zero_expected)
{
	uint8_t *p = NULL;
	uint64_t bad = 0;

	api_ok(swgpu_bo_map(bo, (void **)&p));
	for (uint64_t i = 0; i < swgpu_bo_size(bo); i++) {
		uint8_t want = zero_expected ? 0 :
		               (uint8_t)(seed + i * 7 + (i >> 12));
		bad += p[i] != want;
	}
	swgpu_bo_unmap(bo);
	assert_true(bad == 0);
}

static uint64_t
usage(swgpu_device *dev, swgpu_heap heap)
{
	uint64_t u = 0, b = 0;

	api_ok(swgpu_heap_budget(dev, heap, &u, &b));
	assert_true(u == swgpu_heap_usage(dev, heap));
	return u;
}

static void
test_budget_env(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev;
	uint64_t u, b;

	(void)state;
	setenv("SWGPU_VRAM_MB", "64", 1);
	setenv("SWGPU_VRAM_BUDGET_MB", "40", 1);
	swgpu_config_init(&cfg);
	assert_true(cfg.vram_budget == 40 * MIB);
	cfg.system_size = 32 * MIB;
	dev = api_open(&cfg);
	api_ok(swgpu_heap_budget(dev, SWGPU_HEAP_VRAM, &u, &b));
	assert_true(b == 40 * MIB);
	assert_true(u == 0);
	api_ok(swgpu_heap_budget(dev, SWGPU_HEAP_SYSTEM, &u, &b));
	assert_true(b == 32 * MIB);
	swgpu_device_close(dev);

	/* Malformed: ignored. Above VRAM: clamped to VRAM. */
	setenv("SWGPU_VRAM_BUDGET_MB", "zero", 1);
	swgpu_config_init(&cfg);
	assert_true(cfg.vram_budget == 0);
	setenv("SWGPU_VRAM_BUDGET_MB", "100", 1);
	swgpu_config_init(&cfg);
	cfg.system_size = 32 * MIB;
	dev = api_open(&cfg);
	api_ok(swgpu_heap_budget(dev, SWGPU_HEAP_VRAM, NULL, &b));
	assert_true(b == 64 * MIB);
	swgpu_device_close(dev);
	unsetenv("SWGPU_VRAM_BUDGET_MB");
	unsetenv("SWGPU_VRAM_MB");

	/* Default: the whole VRAM. */
	dev = open_heaps(32, 8, 32, 0);
	api_ok(swgpu_heap_budget(dev, SWGPU_HEAP_VRAM, NULL, &b));
	assert_true(b == 32 * MIB);
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_heap_budget(dev, SWGPU_HEAP_COUNT, &u, &b));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_heap_budget(NULL, SWGPU_HEAP_VRAM, &u, &b));
	swgpu_device_close(dev);
}

static void
test_usage_exact(void **state)
{
	static const struct {
		uint64_t size, rounded;
		swgpu_heap heap;
		uint32_t flags;
	} cases[] = {
		{ 1, 4096, SWGPU_HEAP_VRAM, 0 },
		{ 5000, 8192, SWGPU_HEAP_VRAM, SWGPU_BO_BAR },
		{ MIB + 1, MIB + 4096, SWGPU_HEAP_VRAM, 0 },
		{ 3 * MIB, 3 * MIB, SWGPU_HEAP_VRAM, SWGPU_BO_BAR },
		{ 4095, 4096, SWGPU_HEAP_SYSTEM, 0 },
		{ 2 * MIB + 100, 2 * MIB + 4096, SWGPU_HEAP_SYSTEM,
		  SWGPU_BO_CACHED },
	};
	swgpu_bo *bos[API_ARRAY_SIZE(cases)];
	swgpu_device *dev = open_heaps(64, 8, 64, 48);

	(void)state;
	for (size_t i = 0; i < API_ARRAY_SIZE(cases); i++) {
		uint64_t v0 = usage(dev, SWGPU_HEAP_VRAM);
		uint64_t s0 = usage(dev, SWGPU_HEAP_SYSTEM);
		uint64_t b0 = swgpu_bar_usage(dev);

		bos[i] = bo_new(dev, cases[i].size, cases[i].heap,
		                cases[i].flags);
		bool vram = cases[i].heap == SWGPU_HEAP_VRAM;
		bool bar = cases[i].flags & SWGPU_BO_BAR;
		assert_true(usage(dev, SWGPU_HEAP_VRAM) ==
		            v0 + (vram ? cases[i].rounded : 0));
		assert_true(usage(dev, SWGPU_HEAP_SYSTEM) ==
		            s0 + (vram ? 0 : cases[i].rounded));
		assert_true(swgpu_bar_usage(dev) ==
		            b0 + (bar ? cases[i].rounded : 0));
	}
	for (size_t i = 0; i < API_ARRAY_SIZE(cases); i++)
		swgpu_bo_destroy(bos[i]);
	assert_true(usage(dev, SWGPU_HEAP_VRAM) == 0);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 0);
	assert_true(swgpu_bar_usage(dev) == 0);
	swgpu_device_close(dev);
}

static void
test_budget_enforced(void **state)
{
	swgpu_device *dev = open_heaps(64, 8, 64, 16);
	swgpu_bo *a, *b = NULL;

	(void)state;
	a = bo_new(dev, 12 * MIB, SWGPU_HEAP_VRAM, 0);
	b = bo_new(dev, 4 * MIB, SWGPU_HEAP_VRAM, SWGPU_BO_BAR);
	assert_true(usage(dev, SWGPU_HEAP_VRAM) == 16 * MIB);
	/* Past the budget: the oldest idle BO is evicted to SYSTEM, VRAM
	 * usage never goes over the budget. */
	swgpu_bo *c = bo_new(dev, 8 * MIB, SWGPU_HEAP_VRAM, 0);
	assert_int_equal(swgpu_bo_location(a), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(b), SWGPU_HEAP_VRAM);
	assert_true(usage(dev, SWGPU_HEAP_VRAM) == 12 * MIB);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 12 * MIB);
	swgpu_bo_destroy(a);
	swgpu_bo_destroy(b);
	swgpu_bo_destroy(c);
	assert_true(usage(dev, SWGPU_HEAP_VRAM) == 0);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 0);
	swgpu_device_close(dev);
}

static void
test_offer_rules(void **state)
{
	swgpu_device *dev = open_heaps(64, 8, 64, 0);
	swgpu_bo *bo = bo_new(dev, 4096, SWGPU_HEAP_SYSTEM, 0);
	void *p = NULL;

	(void)state;
	api_ok(swgpu_bo_map(bo, &p));
	api_check(SWGPU_ERR_DEVICE_BUSY, swgpu_bo_offer(bo, SWGPU_OFFER_LOW));
	swgpu_bo_unmap(bo);
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_bo_reclaim(bo));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_offer(bo, SWGPU_OFFER_PRIORITY_COUNT));
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_bo_offer(NULL, SWGPU_OFFER_LOW));
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_bo_reclaim(NULL));
	api_ok(swgpu_bo_offer(bo, SWGPU_OFFER_NORMAL));
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_bo_offer(bo, SWGPU_OFFER_HIGH));
	api_check(SWGPU_ERR_DEVICE_BUSY, swgpu_bo_map(bo, &p));
	assert_null(p);
	api_ok(swgpu_bo_reclaim(bo));
	api_ok(swgpu_bo_map(bo, &p));
	swgpu_bo_unmap(bo);
	/* Destroying an offered BO (kept or discarded) is fine. */
	api_ok(swgpu_bo_offer(bo, SWGPU_OFFER_LOW));
	swgpu_bo_destroy(bo);
	bo = bo_new(dev, MIB, SWGPU_HEAP_SYSTEM, 0);
	api_ok(swgpu_bo_offer(bo, SWGPU_OFFER_LOW));
	assert_true(swgpu_debug_trim(dev) == MIB);
	swgpu_bo_destroy(bo);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 0);
	assert_true(swgpu_debug_trim(NULL) == 0);
	swgpu_device_close(dev);
}

/* Kept offers: every byte intact. Trimmed ones: DISCARDED and zero, with
 * the usage released by trim and taken back by reclaim. Small BOs
 * (malloc backing) and large ones (mmap backing) alike. */
static void
test_kept_and_discarded(void **state)
{
	static const uint64_t sizes[] = { 4096, 40000, MIB, 5 * MIB + 4096 };
	swgpu_device *dev = open_heaps(64, 16, 64, 0);

	(void)state;
	for (size_t i = 0; i < API_ARRAY_SIZE(sizes); i++) {
		swgpu_bo *sys = bo_new(dev, sizes[i], SWGPU_HEAP_SYSTEM, 0);
		swgpu_bo *bar = bo_new(dev, sizes[i], SWGPU_HEAP_VRAM,
		                       SWGPU_BO_BAR);
		uint64_t rs = swgpu_bo_size(sys);

		bo_fill(sys, (uint8_t)(i + 1));
		bo_fill(bar, (uint8_t)(i + 50));
		api_ok(swgpu_bo_offer(sys, SWGPU_OFFER_LOW));
		api_ok(swgpu_bo_offer(bar, SWGPU_OFFER_HIGH));
		api_ok(swgpu_bo_reclaim(sys));
		api_ok(swgpu_bo_reclaim(bar));
		bo_expect(sys, (uint8_t)(i + 1), false);
		bo_expect(bar, (uint8_t)(i + 50), false);

		uint64_t s0 = usage(dev, SWGPU_HEAP_SYSTEM);
		uint64_t v0 = usage(dev, SWGPU_HEAP_VRAM);
		uint64_t b0 = swgpu_bar_usage(dev);
		api_ok(swgpu_bo_offer(sys, SWGPU_OFFER_NORMAL));
		api_ok(swgpu_bo_offer(bar, SWGPU_OFFER_NORMAL));
		/* Offered but not discarded: still counted. */
		assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == s0);
		assert_true(swgpu_debug_trim(dev) == 2 * rs);
		assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == s0 - rs);
		assert_true(usage(dev, SWGPU_HEAP_VRAM) == v0 - rs);
		assert_true(swgpu_bar_usage(dev) == b0 - rs);
		assert_true(swgpu_debug_trim(dev) == 0);
		api_check(SWGPU_DISCARDED, swgpu_bo_reclaim(sys));
		api_check(SWGPU_DISCARDED, swgpu_bo_reclaim(bar));
		assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == s0);
		assert_true(usage(dev, SWGPU_HEAP_VRAM) == v0);
		assert_true(swgpu_bar_usage(dev) == b0);
		bo_expect(sys, 0, true);
		bo_expect(bar, 0, true);
		/* Usable again, and keeps what is written now. */
		bo_fill(sys, (uint8_t)(i + 9));
		bo_expect(sys, (uint8_t)(i + 9), false);
		swgpu_bo_destroy(sys);
		swgpu_bo_destroy(bar);
	}
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 0);
	assert_true(usage(dev, SWGPU_HEAP_VRAM) == 0);
	swgpu_device_close(dev);
}

/* SYSTEM heap of 20 MiB, five offered 4 MiB BOs: pressure discards the
 * LOW ones (oldest first), then NORMAL, then HIGH, one allocation at a
 * time, and only as many as the allocation needs. */
static void
test_discard_order(void **state)
{
	static const swgpu_offer_priority prio[] = {
		SWGPU_OFFER_HIGH, SWGPU_OFFER_LOW, SWGPU_OFFER_NORMAL,
		SWGPU_OFFER_LOW, SWGPU_OFFER_NORMAL,
	};
	/* Expected discard order: indices into prio[]. */
	static const int order[] = { 1, 3, 2, 4, 0 };
	swgpu_device *dev = open_heaps(16, 4, 20, 0);
	swgpu_bo *bos[5], *fill[5] = { 0 };

	(void)state;
	for (int i = 0; i < 5; i++) {
		bos[i] = bo_new(dev, 4 * MIB, SWGPU_HEAP_SYSTEM, 0);
		bo_fill(bos[i], (uint8_t)(i * 31 + 3));
	}
	for (int i = 0; i < 5; i++)
		api_ok(swgpu_bo_offer(bos[i], prio[i]));
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 20 * MIB);

	for (int n = 0; n < 5; n++) {
		/* The heap is full: each 4 MiB allocation discards exactly
		 * the next BO in priority order. */
		api_ok(swgpu_bo_create(dev, 4 * MIB, SWGPU_HEAP_SYSTEM, 0,
		                       &fill[n]));
		assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 20 * MIB);
		/* Free it again and check who is gone by reclaiming the
		 * rest (and re-offering what survived in the same order).
		 * Reclaiming a kept BO cannot discard anything. */
		swgpu_bo_destroy(fill[n]);
		for (int i = 0; i < 5; i++) {
			bool gone = false;

			for (int k = 0; k <= n; k++)
				gone |= order[k] == i;
			if (gone)
				continue;
			api_ok(swgpu_bo_reclaim(bos[i]));
			bo_expect(bos[i], (uint8_t)(i * 31 + 3), false);
		}
		for (int i = 0; i < 5; i++) {
			bool gone = false;

			for (int k = 0; k <= n; k++)
				gone |= order[k] == i;
			if (!gone)
				api_ok(swgpu_bo_offer(bos[i], prio[i]));
		}
		/* Take the freed space again so the next allocation is
		 * under pressure. */
		api_ok(swgpu_bo_create(dev, 4 * MIB, SWGPU_HEAP_SYSTEM, 0,
		                       &fill[n]));
		assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 20 * MIB);
	}
	/* Everything was discarded; the heap is full of fill BOs. */
	api_check(SWGPU_ERR_NO_DEVICE_MEMORY, swgpu_bo_reclaim(bos[0]));
	swgpu_bo_destroy(fill[0]);
	for (int i = 0; i < 5; i++) {
		if (i == 0) {
			api_check(SWGPU_DISCARDED, swgpu_bo_reclaim(bos[0]));
			bo_expect(bos[0], 0, true);
		}
		swgpu_bo_destroy(bos[i]);
	}
	for (int n = 1; n < 5; n++)
		swgpu_bo_destroy(fill[n]);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 0);
	swgpu_device_close(dev);
}

/* An allocation that cannot fit even after discarding every offered BO
 * fails and discards nothing; offers of another heap, or outside the BAR
 * window for a BAR allocation, are not touched. */
static void
test_pressure_targets(void **state)
{
	swgpu_device *dev = open_heaps(32, 8, 16, 0);
	swgpu_bo *sys = bo_new(dev, 8 * MIB, SWGPU_HEAP_SYSTEM, 0);
	swgpu_bo *sys2 = bo_new(dev, 4 * MIB, SWGPU_HEAP_SYSTEM, 0);
	swgpu_bo *bar = bo_new(dev, 6 * MIB, SWGPU_HEAP_VRAM, SWGPU_BO_BAR);
	swgpu_bo *vram = bo_new(dev, 20 * MIB, SWGPU_HEAP_VRAM, 0);
	swgpu_bo *x = NULL;

	(void)state;
	bo_fill(sys, 1);
	bo_fill(bar, 2);
	api_ok(swgpu_bo_offer(sys, SWGPU_OFFER_LOW));
	api_ok(swgpu_bo_offer(vram, SWGPU_OFFER_LOW));
	api_ok(swgpu_bo_offer(bar, SWGPU_OFFER_HIGH));

	/* 4 MiB free in SYSTEM + 8 offered < 13 MiB: fails, keeps sys. */
	api_check(SWGPU_ERR_NO_DEVICE_MEMORY,
	          swgpu_bo_create(dev, 13 * MIB, SWGPU_HEAP_SYSTEM, 0, &x));
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 12 * MIB);
	/* BAR window: 2 MiB free; the non-BAR VRAM offer (LOW) does not
	 * help the window, so the BAR one (HIGH) goes, the other stays. */
	api_ok(swgpu_bo_create(dev, 4 * MIB, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &x));
	assert_true(swgpu_bar_usage(dev) == 4 * MIB);
	assert_true(usage(dev, SWGPU_HEAP_VRAM) == 24 * MIB);
	api_ok(swgpu_bo_reclaim(sys));
	bo_expect(sys, 1, false);
	api_ok(swgpu_bo_reclaim(vram));
	swgpu_bo_destroy(x);
	api_check(SWGPU_DISCARDED, swgpu_bo_reclaim(bar));
	bo_expect(bar, 0, true);

	/* Allocation succeeds after discarding what would otherwise make
	 * it fail. */
	api_check(SWGPU_ERR_NO_DEVICE_MEMORY,
	          swgpu_bo_create(dev, 8 * MIB, SWGPU_HEAP_SYSTEM, 0, &x));
	api_ok(swgpu_bo_offer(sys, SWGPU_OFFER_NORMAL));
	api_ok(swgpu_bo_create(dev, 8 * MIB, SWGPU_HEAP_SYSTEM, 0, &x));
	api_check(SWGPU_ERR_NO_DEVICE_MEMORY, swgpu_bo_reclaim(sys));
	swgpu_bo_destroy(x);
	api_check(SWGPU_DISCARDED, swgpu_bo_reclaim(sys));
	bo_expect(sys, 0, true);

	swgpu_bo_destroy(sys);
	swgpu_bo_destroy(sys2);
	swgpu_bo_destroy(bar);
	swgpu_bo_destroy(vram);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 0);
	assert_true(usage(dev, SWGPU_HEAP_VRAM) == 0);
	swgpu_device_close(dev);
}

/* VA mappings may stay while a BO is offered: after a discard the
 * mapping still works (the GPU writes and reads it) and the BO's last
 * reference can go with the mapping. */
static void
test_offer_va_mapped(void **state)
{
	swgpu_device *dev = open_heaps(32, 8, 32, 0);
	swgpu_context *ctx = NULL;
	swgpu_bo *bo = bo_new(dev, MIB, SWGPU_HEAP_SYSTEM, 0);
	swgpu_bo *ib = bo_new(dev, 4096, SWGPU_HEAP_SYSTEM, 0);
	uint64_t va = 0, ib_va = 0;
	uint32_t *cmd = NULL;
	uint8_t *p = NULL;

	(void)state;
	api_ok(swgpu_context_create(dev, &ctx));
	api_ok(swgpu_va_map(ctx, bo, 0, MIB, SWGPU_VA_READ | SWGPU_VA_WRITE,
	                    &va));
	api_ok(swgpu_va_map(ctx, ib, 0, 4096, SWGPU_VA_READ, &ib_va));
	bo_fill(bo, 77);
	api_ok(swgpu_bo_offer(bo, SWGPU_OFFER_LOW));
	assert_true(swgpu_debug_trim(dev) == MIB);
	api_check(SWGPU_DISCARDED, swgpu_bo_reclaim(bo));

	/* FILL the first 64 KiB through the old mapping. */
	api_ok(swgpu_bo_map(ib, (void **)&cmd));
	uint32_t n = swgpu_emit_fill(cmd, va, 65536, 0x5a5a5a5au);
	swgpu_bo_unmap(ib);
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	swgpu_ib ibd = { ib_va, n };
	swgpu_submit_info si = { .ibs = &ibd, .ib_count = 1 };
	api_ok(swgpu_submit(q, &si, NULL));
	api_ok(swgpu_queue_wait(q, 0, api_deadline_ms(API_WAIT_MS)));
	api_ok(swgpu_bo_map(bo, (void **)&p));
	uint64_t bad = 0;
	for (uint64_t i = 0; i < MIB; i++)
		bad += p[i] != (i < 65536 ? 0x5a : 0);
	swgpu_bo_unmap(bo);
	assert_true(bad == 0);

	/* Offered and mapped at destroy: freed with the mapping. */
	api_ok(swgpu_bo_offer(bo, SWGPU_OFFER_HIGH));
	swgpu_bo_destroy(bo);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == MIB + 4096);
	api_ok(swgpu_va_unmap(ctx, va));
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 4096);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_bo_destroy(ib);
	swgpu_device_close(dev);
}

/* Threads create, fill, offer, allocate under pressure and reclaim at
 * once; every reclaim sees its own pattern or zeros, and the accounting
 * ends where it started. */
struct stress {
	swgpu_device *dev;
	atomic_uint bad;
	atomic_uint discarded;
	unsigned id;
};

static void *
stress_thread(void *arg)
{
	struct stress *s = arg;
	unsigned iters = API_TSAN ? 40 : 200;

	for (unsigned it = 0; it < iters; it++) {
		swgpu_bo *bo = NULL, *other = NULL;
		uint8_t *p = NULL;
		uint8_t seed = (uint8_t)(s->id * 40 + it);
		uint64_t size = (it % 3 == 0) ? 8192 : MIB;

		if (swgpu_bo_create(s->dev, size, SWGPU_HEAP_SYSTEM, 0,
		                    &bo) != SWGPU_OK)
			continue; /* heap full right now: fine */
		if (swgpu_bo_map(bo, (void **)&p) != SWGPU_OK) {
			atomic_fetch_add(&s->bad, 1);
			swgpu_bo_destroy(bo);
			continue;
		}
		memset(p, seed, size);
		swgpu_bo_unmap(bo);
		if (swgpu_bo_offer(bo, (swgpu_offer_priority)(it % 3)) !=
		    SWGPU_OK)
			atomic_fetch_add(&s->bad, 1);
		(void)swgpu_bo_create(s->dev, 2 * MIB, SWGPU_HEAP_SYSTEM, 0,
		                      &other);
		swgpu_result r = swgpu_bo_reclaim(bo);
		if (r == SWGPU_OK || r == SWGPU_DISCARDED) {
			uint8_t want = r == SWGPU_OK ? seed : 0;

			if (r == SWGPU_DISCARDED)
				atomic_fetch_add(&s->discarded, 1);
			if (swgpu_bo_map(bo, (void **)&p) != SWGPU_OK) {
				atomic_fetch_add(&s->bad, 1);
			} else {
				for (uint64_t i = 0; i < size; i += 512)
					if (p[i] != want)
						atomic_fetch_add(&s->bad, 1);
				swgpu_bo_unmap(bo);
			}
		} else if (r != SWGPU_ERR_NO_DEVICE_MEMORY) {
			atomic_fetch_add(&s->bad, 1);
		}
		swgpu_bo_destroy(other);
		swgpu_bo_destroy(bo);
	}
	return NULL;
}

static void
test_concurrent(void **state)
{
	enum { THREADS = 4 };
	swgpu_device *dev = open_heaps(16, 4, 6, 0);
	struct stress s[THREADS];
	pthread_t t[THREADS];
	unsigned bad = 0, discarded = 0;

	(void)state;
	for (unsigned i = 0; i < THREADS; i++) {
		s[i].dev = dev;
		atomic_init(&s[i].bad, 0);
		atomic_init(&s[i].discarded, 0);
		s[i].id = i;
		assert_int_equal(pthread_create(&t[i], NULL, stress_thread,
		                                &s[i]), 0);
	}
	for (unsigned i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		bad += atomic_load(&s[i].bad);
		discarded += atomic_load(&s[i].discarded);
	}
	assert_int_equal(bad, 0);
	print_message("concurrent: %u discards seen\n", discarded);
	assert_true(usage(dev, SWGPU_HEAP_SYSTEM) == 0);
	swgpu_device_close(dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_env),
		cmocka_unit_test(test_usage_exact),
		cmocka_unit_test(test_budget_enforced),
		cmocka_unit_test(test_offer_rules),
		cmocka_unit_test(test_kept_and_discarded),
		cmocka_unit_test(test_discard_order),
		cmocka_unit_test(test_pressure_targets),
		cmocka_unit_test(test_offer_va_mapped),
		cmocka_unit_test(test_concurrent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
