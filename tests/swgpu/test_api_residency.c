/* SPDX-License-Identifier: MIT */
/*
 * VRAM over-subscription through the public API (issue 9): allocations
 * past the VRAM budget evict idle BOs to SYSTEM and keep every byte, jobs
 * bring their context's BOs back, a running job's memory never moves,
 * priorities and LRU pick the victims, offered BOs go before anything is
 * evicted, both heaps full is a clean error, and eviction racing with
 * submission keeps data intact (run under TSan by `make tsan-test`).
 */
#include "api_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024ull * 1024ull)

struct fix {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	struct api_cmd cmd;
	struct api_buf staging;     /* SYSTEM, host-mapped */
};

static void
fix_open(struct fix *f, uint64_t vram_mb, uint64_t budget_mb,
         uint64_t system_mb, uint64_t staging_size)
{
	swgpu_config cfg;

	memset(f, 0, sizeof(*f));
	api_config_small(&cfg);
	cfg.vram_size = vram_mb * MIB;
	cfg.bar_size = vram_mb * MIB / 2;
	cfg.vram_budget = budget_mb * MIB;
	cfg.system_size = system_mb * MIB;
	f->dev = api_open(&cfg);
	api_ok(swgpu_context_create(f->dev, &f->ctx));
	f->q = api_queue(f->ctx, SWGPU_ENGINE_COPY, 0);
	api_cmd_init(&f->cmd, f->dev, f->ctx, 4096);
	if (staging_size)
		api_buf_init(&f->staging, f->dev, f->ctx, staging_size,
		             SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
		             SWGPU_VA_READ | SWGPU_VA_WRITE);
}

static void
fix_close(struct fix *f)
{
	if (f->staging.bo)
		api_buf_fini(&f->staging);
	api_cmd_fini(&f->cmd);
	swgpu_queue_destroy(f->q);
	swgpu_context_destroy(f->ctx);
	swgpu_device_close(f->dev);
}

/* One COPY job on the fixture's queue, waited for. */
static void
gpu_copy(struct fix *f, uint64_t dst, uint64_t src, uint64_t size)
{
	api_cmd_reset(&f->cmd);
	api_emit_copy(&f->cmd, dst, src, size);
	swgpu_ib ib = api_cmd_end(&f->cmd);
	api_ok(api_submit(f->q, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(f->q);
}

/* A device-local BO (not host-mappable) filled with pattern seed by the
 * GPU through the staging buffer. */
static void
vram_new(struct fix *f, struct api_buf *b, uint64_t size, uint32_t seed)
{
	api_buf_init(b, f->dev, f->ctx, size, SWGPU_HEAP_VRAM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_fill_pattern(f->staging.cpu, size, 0, seed);
	gpu_copy(f, b->va, f->staging.va, size);
}

/* Read b back through the GPU and check every byte. */
static void
vram_expect(struct fix *f, struct api_buf *b, uint32_t seed)
{
	memset(f->staging.cpu, 0xa5, b->size);
	gpu_copy(f, f->staging.va, b->va, b->size);
	uint64_t bad = api_find_pattern_mismatch(f->staging.cpu, b->size, 0,
	                                         seed);
	if (bad != b->size)
		print_error("byte %llu of %llu differs\n",
		            (unsigned long long)bad,
		            (unsigned long long)b->size);
	assert_true(bad == b->size);
}

static swgpu_mem_stats
stats(swgpu_device *dev)
{
	swgpu_mem_stats s;

	api_ok(swgpu_mem_query_stats(dev, &s));
	return s;
}

static uint64_t
usage(swgpu_device *dev, swgpu_heap heap)
{
	uint64_t u = 0, b = 0;

	api_ok(swgpu_heap_budget(dev, heap, &u, &b));
	if (heap == SWGPU_HEAP_VRAM)
		assert_true(u <= b);
	return u;
}

/* Past the budget the oldest idle BO is evicted with its contents; a job
 * reaches it in SYSTEM while VRAM is full of its own context's BOs, and
 * brings it back once VRAM has room. Usage figures follow exactly. */
static void
test_round_trip(void **state)
{
	struct fix f;
	struct api_buf a, b, c;

	(void)state;
	fix_open(&f, 64, 8, 64, 4 * MIB);
	uint64_t sys0 = usage(f.dev, SWGPU_HEAP_SYSTEM);
	vram_new(&f, &a, 4 * MIB, 11);
	vram_new(&f, &b, 4 * MIB, 22);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == 8 * MIB);
	assert_true(stats(f.dev).evictions == 0);

	vram_new(&f, &c, 4 * MIB, 33);
	swgpu_mem_stats s = stats(f.dev);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(b.bo), SWGPU_HEAP_VRAM);
	assert_int_equal(swgpu_bo_location(c.bo), SWGPU_HEAP_VRAM);
	assert_true(s.evictions == 1 && s.evicted_bytes == 4 * MIB);
	assert_true(s.demoted_bytes == 4 * MIB);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == 8 * MIB);
	assert_true(usage(f.dev, SWGPU_HEAP_SYSTEM) == sys0 + 4 * MIB);

	/* VRAM holds only BOs of this context, which the job may use, so
	 * A stays in SYSTEM and the engine reads it there. */
	vram_expect(&f, &a, 11);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_SYSTEM);
	vram_expect(&f, &b, 22);
	vram_expect(&f, &c, 33);

	/* Room again: the next job brings A back, every byte intact. */
	api_buf_fini(&c);
	vram_expect(&f, &a, 11);
	s = stats(f.dev);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_VRAM);
	assert_true(s.promotions == 1 && s.promoted_bytes == 4 * MIB);
	assert_true(s.demoted_bytes == 0);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == 8 * MIB);
	assert_true(usage(f.dev, SWGPU_HEAP_SYSTEM) == sys0);

	/* Least recently used goes: B (A was just promoted, which counts
	 * as a use). Written while demoted, read after promotion: exact. */
	vram_new(&f, &c, 4 * MIB, 44);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_VRAM);
	assert_int_equal(swgpu_bo_location(b.bo), SWGPU_HEAP_SYSTEM);
	api_fill_pattern(f.staging.cpu, 4 * MIB, 0, 55);
	gpu_copy(&f, b.va, f.staging.va, 4 * MIB);
	api_buf_fini(&c);
	vram_expect(&f, &b, 55);
	assert_int_equal(swgpu_bo_location(b.bo), SWGPU_HEAP_VRAM);
	vram_expect(&f, &a, 11);

	api_buf_fini(&a);
	api_buf_fini(&b);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == 0);
	assert_true(usage(f.dev, SWGPU_HEAP_SYSTEM) == sys0);
	fix_close(&f);
}

/* A job of one context makes room for its demoted BO by evicting the
 * idle BOs of another context. */
static void
test_promotion_evicts_other_context(void **state)
{
	struct fix f;
	struct api_buf a, other;
	swgpu_context *ctx2;

	(void)state;
	fix_open(&f, 64, 8, 64, 4 * MIB);
	api_ok(swgpu_context_create(f.dev, &ctx2));
	vram_new(&f, &a, 4 * MIB, 1);
	/* Two BOs of the other (idle) context fill the budget: A goes. */
	api_buf_init(&other, f.dev, ctx2, 8 * MIB, SWGPU_HEAP_VRAM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(other.bo), SWGPU_HEAP_VRAM);
	/* A job of f.ctx: A comes back, the other context's BO leaves. */
	vram_expect(&f, &a, 1);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_VRAM);
	assert_int_equal(swgpu_bo_location(other.bo), SWGPU_HEAP_SYSTEM);
	swgpu_mem_stats s = stats(f.dev);
	assert_true(s.evictions == 2 && s.promotions == 1);
	api_buf_fini(&other);
	api_buf_fini(&a);
	swgpu_context_destroy(ctx2);
	fix_close(&f);
}

/* Lowest priority goes first, then least recently used. */
static void
test_priority_then_lru(void **state)
{
	struct fix f;
	struct api_buf a, b, c, d;

	(void)state;
	fix_open(&f, 64, 8, 64, 4 * MIB);
	vram_new(&f, &a, 4 * MIB, 1);
	vram_new(&f, &b, 4 * MIB, 2);
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_bo_set_priority(a.bo, SWGPU_BO_PRIORITY_MAX + 1));
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_bo_set_priority(NULL, 0));
	/* A is older, but B has the lower priority. */
	api_ok(swgpu_bo_set_priority(a.bo, 900));
	api_ok(swgpu_bo_set_priority(b.bo, 100));
	vram_new(&f, &c, 4 * MIB, 3);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_VRAM);
	assert_int_equal(swgpu_bo_location(b.bo), SWGPU_HEAP_SYSTEM);
	/* Same priority: the older one (A) before C. */
	api_ok(swgpu_bo_set_priority(a.bo, SWGPU_BO_PRIORITY_DEFAULT));
	vram_new(&f, &d, 4 * MIB, 4);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(c.bo), SWGPU_HEAP_VRAM);
	assert_int_equal(swgpu_bo_location(d.bo), SWGPU_HEAP_VRAM);
	vram_expect(&f, &a, 1);
	vram_expect(&f, &b, 2);
	vram_expect(&f, &c, 3);
	vram_expect(&f, &d, 4);
	api_buf_fini(&a);
	api_buf_fini(&b);
	api_buf_fini(&c);
	api_buf_fini(&d);
	fix_close(&f);
}

/* A job that is running pins its context: an allocation meanwhile cannot
 * evict its BOs and starts in SYSTEM; once the job is done they move. */
static void
test_running_job_pins(void **state)
{
	struct fix f;
	struct api_buf a, b, c, d, flag;

	(void)state;
	fix_open(&f, 64, 8, 64, 4 * MIB);
	vram_new(&f, &a, 4 * MIB, 5);
	vram_new(&f, &b, 4 * MIB, 6);
	api_buf_init(&flag, f.dev, f.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(f.staging.cpu, 0, 4 * MIB);
	/* started = 1, wait for go >= 1, then copy A to staging. */
	api_cmd_reset(&f.cmd);
	api_emit_write32(&f.cmd, flag.va, 1);
	api_emit_sem_wait(&f.cmd, flag.va + 8, 1);
	api_emit_copy(&f.cmd, f.staging.va, a.va, 4 * MIB);
	swgpu_ib ib = api_cmd_end(&f.cmd);
	api_ok(api_submit(f.q, &ib, NULL, 0, NULL, 0, NULL));
	assert_true(api_poll32(flag.cpu, 1, api_deadline_ms(API_WAIT_MS)));

	api_buf_init(&c, f.dev, f.ctx, 4 * MIB, SWGPU_HEAP_VRAM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	swgpu_mem_stats s = stats(f.dev);
	assert_int_equal(swgpu_bo_location(c.bo), SWGPU_HEAP_SYSTEM);
	assert_int_equal(swgpu_bo_location(a.bo), SWGPU_HEAP_VRAM);
	assert_int_equal(swgpu_bo_location(b.bo), SWGPU_HEAP_VRAM);
	assert_true(s.evictions == 0 && s.system_placements == 1);

	api_store64(flag.cpu + 8, 1);
	api_queue_idle(f.q);
	assert_true(api_find_pattern_mismatch(f.staging.cpu, 4 * MIB, 0, 5) ==
	            4 * MIB);
	/* Idle now: the next allocation evicts. */
	api_buf_init(&d, f.dev, f.ctx, 4 * MIB, SWGPU_HEAP_VRAM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	assert_int_equal(swgpu_bo_location(d.bo), SWGPU_HEAP_VRAM);
	assert_true(stats(f.dev).evictions == 1);
	vram_expect(&f, &a, 5);
	vram_expect(&f, &b, 6);
	api_buf_fini(&d);
	api_buf_fini(&c);
	api_buf_fini(&flag);
	api_buf_fini(&a);
	api_buf_fini(&b);
	fix_close(&f);
}

static void
bar_fill(swgpu_bo *bo, uint32_t seed)
{
	uint8_t *p = NULL;

	api_ok(swgpu_bo_map(bo, (void **)&p));
	api_fill_pattern(p, swgpu_bo_size(bo), 0, seed);
	swgpu_bo_unmap(bo);
}

/* 0 = pattern intact; 1 = all zero; 2 = neither. */
static int
bar_state(swgpu_bo *bo, uint32_t seed)
{
	uint8_t *p = NULL;
	uint64_t n = swgpu_bo_size(bo);
	int st = 2;

	api_ok(swgpu_bo_map(bo, (void **)&p));
	if (api_find_pattern_mismatch(p, n, 0, seed) == n)
		st = 0;
	else if (api_find_byte_mismatch(p, n, 0) == n)
		st = 1;
	swgpu_bo_unmap(bo);
	return st;
}

/* Under pressure offered BOs are discarded (lowest offer priority first)
 * before anything is evicted; a kept offer reclaims OK with its data, a
 * discarded one DISCARDED and zero. A BAR BO evicted while unmapped maps
 * again with its contents. */
static void
test_offers_before_eviction(void **state)
{
	struct fix f;
	swgpu_bo *keep, *low, *high, *x, *y;

	(void)state;
	fix_open(&f, 64, 8, 64, 0);
	uint64_t sys0 = usage(f.dev, SWGPU_HEAP_SYSTEM);
	keep = NULL;
	api_ok(swgpu_bo_create(f.dev, 4 * MIB, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &keep));
	api_ok(swgpu_bo_create(f.dev, 2 * MIB, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &low));
	api_ok(swgpu_bo_create(f.dev, 2 * MIB, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &high));
	bar_fill(keep, 7);
	bar_fill(low, 8);
	bar_fill(high, 9);
	api_ok(swgpu_bo_offer(high, SWGPU_OFFER_HIGH));
	api_ok(swgpu_bo_offer(low, SWGPU_OFFER_LOW));

	api_ok(swgpu_bo_create(f.dev, 2 * MIB, SWGPU_HEAP_VRAM, 0, &x));
	swgpu_mem_stats s = stats(f.dev);
	assert_true(s.discards == 1 && s.evictions == 0);
	assert_int_equal(swgpu_bo_location(keep), SWGPU_HEAP_VRAM);
	api_ok(swgpu_bo_reclaim(high));
	assert_int_equal(bar_state(high, 9), 0);
	/* The discarded one needs room again: the oldest idle BO (keep)
	 * is evicted for it, and it comes back zeroed. */
	api_check(SWGPU_DISCARDED, swgpu_bo_reclaim(low));
	assert_int_equal(bar_state(low, 8), 1);
	s = stats(f.dev);
	assert_true(s.evictions == 1);
	assert_int_equal(swgpu_bo_location(keep), SWGPU_HEAP_SYSTEM);
	/* Mapping an evicted BAR BO brings it back when it fits (y frees
	 * the room), and keeps every byte either way. */
	api_ok(swgpu_bo_create(f.dev, 2 * MIB, SWGPU_HEAP_VRAM, 0, &y));
	swgpu_bo_destroy(x);
	swgpu_bo_destroy(y);
	assert_int_equal(bar_state(keep, 7), 0);
	assert_int_equal(swgpu_bo_location(keep), SWGPU_HEAP_VRAM);
	swgpu_bo_destroy(keep);
	swgpu_bo_destroy(low);
	swgpu_bo_destroy(high);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == 0);
	assert_true(usage(f.dev, SWGPU_HEAP_SYSTEM) == sys0);
	fix_close(&f);
}

/* VRAM and SYSTEM both full: NO_DEVICE_MEMORY, nothing evicted or
 * discarded, usage unchanged; room in SYSTEM makes it work again. */
static void
test_both_heaps_exhausted(void **state)
{
	struct fix f;
	swgpu_bo *a, *b, *sys, *off, *x = (void *)1;

	(void)state;
	fix_open(&f, 64, 8, 16, 0);
	api_ok(swgpu_bo_create(f.dev, 4 * MIB, SWGPU_HEAP_VRAM, 0, &a));
	api_ok(swgpu_bo_create(f.dev, 2 * MIB, SWGPU_HEAP_VRAM, 0, &b));
	api_ok(swgpu_bo_create(f.dev, 2 * MIB, SWGPU_HEAP_VRAM, 0, &off));
	api_ok(swgpu_bo_offer(off, SWGPU_OFFER_LOW));
	uint64_t sys_used = usage(f.dev, SWGPU_HEAP_SYSTEM);
	api_ok(swgpu_bo_create(f.dev, 16 * MIB - sys_used, SWGPU_HEAP_SYSTEM,
	                       0, &sys));
	uint64_t v0 = usage(f.dev, SWGPU_HEAP_VRAM);
	uint64_t s0 = usage(f.dev, SWGPU_HEAP_SYSTEM);
	assert_true(v0 == 8 * MIB && s0 == 16 * MIB);

	/* 2 MiB offered is not enough for 6 MiB, and nothing can go to
	 * SYSTEM: refused, the offer kept. */
	api_check(SWGPU_ERR_NO_DEVICE_MEMORY,
	          swgpu_bo_create(f.dev, 6 * MIB, SWGPU_HEAP_VRAM, 0, &x));
	assert_null(x);
	swgpu_mem_stats s = stats(f.dev);
	assert_true(s.evictions == 0 && s.discards == 0 &&
	            s.system_placements == 0);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == v0);
	assert_true(usage(f.dev, SWGPU_HEAP_SYSTEM) == s0);
	assert_int_equal(swgpu_bo_location(a), SWGPU_HEAP_VRAM);
	api_ok(swgpu_bo_reclaim(off));

	swgpu_bo_destroy(sys);
	api_ok(swgpu_bo_create(f.dev, 6 * MIB, SWGPU_HEAP_VRAM, 0, &x));
	assert_true(stats(f.dev).evictions >= 2);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) <= 8 * MIB);
	swgpu_bo_destroy(x);
	swgpu_bo_destroy(a);
	swgpu_bo_destroy(b);
	swgpu_bo_destroy(off);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == 0);
	assert_true(usage(f.dev, SWGPU_HEAP_SYSTEM) == sys_used);
	assert_true(stats(f.dev).demoted_bytes == 0);
	fix_close(&f);
}

/* ------------------------------------------------------------------ */
/* Concurrent eviction and submission                                  */
/* ------------------------------------------------------------------ */

struct churn {
	swgpu_device *dev;
	atomic_bool stop;
	atomic_int failures;
	atomic_uint rounds;
};

/* Another context allocates 1 MiB VRAM BOs past the budget, fills and
 * checks each on the GPU, keeps the last three: constant eviction
 * pressure on the main context's idle BOs. No cmocka asserts here. */
static void *
churn_main(void *arg)
{
	struct churn *c = arg;
	swgpu_context *ctx = NULL;
	swgpu_queue *q = NULL;
	swgpu_bo *cmd = NULL, *rb = NULL, *ring[3] = { NULL };
	uint64_t ring_va[3] = { 0 };
	uint64_t cmd_va = 0, rb_va = 0;
	uint32_t *dw = NULL;
	uint8_t *rbp = NULL;

	if (swgpu_context_create(c->dev, &ctx) != SWGPU_OK ||
	    swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, SWGPU_ENGINE_ANY,
	                       SWGPU_PRIORITY_NORMAL, &q) != SWGPU_OK ||
	    swgpu_bo_create(c->dev, 65536, SWGPU_HEAP_SYSTEM, 0, &cmd) ||
	    swgpu_bo_map(cmd, (void **)&dw) ||
	    swgpu_va_map(ctx, cmd, 0, 65536, SWGPU_VA_READ, &cmd_va) ||
	    swgpu_bo_create(c->dev, MIB, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	                    &rb) ||
	    swgpu_bo_map(rb, (void **)&rbp) ||
	    swgpu_va_map(ctx, rb, 0, MIB, SWGPU_VA_READ | SWGPU_VA_WRITE,
	                 &rb_va)) {
		atomic_fetch_add(&c->failures, 1);
		goto out;
	}
	for (uint32_t n = 0; !atomic_load(&c->stop); n++) {
		uint32_t k = n % 3;
		uint32_t value = 0x01010101u * (n & 0x7f) + 0x10203;

		if (ring[k]) {
			swgpu_va_unmap(ctx, ring_va[k]);
			swgpu_bo_destroy(ring[k]);
			ring[k] = NULL;
		}
		if (swgpu_bo_create(c->dev, MIB, SWGPU_HEAP_VRAM, 0,
		                    &ring[k]) ||
		    swgpu_va_map(ctx, ring[k], 0, MIB,
		                 SWGPU_VA_READ | SWGPU_VA_WRITE, &ring_va[k])) {
			atomic_fetch_add(&c->failures, 1);
			break;
		}
		uint32_t pos = 0;
		pos += swgpu_emit_fill(dw + pos, ring_va[k], MIB, value);
		pos += swgpu_emit_copy(dw + pos, rb_va, ring_va[k], MIB);
		swgpu_ib ib = { .va = cmd_va, .size_dw = pos };
		swgpu_submit_info si = { .ibs = &ib, .ib_count = 1 };
		if (swgpu_submit(q, &si, NULL) != SWGPU_OK ||
		    swgpu_queue_wait(q, 0, api_deadline_ms(API_WAIT_MS)) !=
		            SWGPU_OK) {
			atomic_fetch_add(&c->failures, 1);
			break;
		}
		for (uint64_t i = 0; i < MIB / 4; i++)
			if (((uint32_t *)rbp)[i] != value) {
				atomic_fetch_add(&c->failures, 1);
				break;
			}
		atomic_fetch_add(&c->rounds, 1);
	}
out:
	for (int k = 0; k < 3; k++)
		if (ring[k]) {
			swgpu_va_unmap(ctx, ring_va[k]);
			swgpu_bo_destroy(ring[k]);
		}
	if (rb) {
		if (rb_va)
			swgpu_va_unmap(ctx, rb_va);
		if (rbp)
			swgpu_bo_unmap(rb);
		swgpu_bo_destroy(rb);
	}
	if (cmd) {
		if (cmd_va)
			swgpu_va_unmap(ctx, cmd_va);
		if (dw)
			swgpu_bo_unmap(cmd);
		swgpu_bo_destroy(cmd);
	}
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	return NULL;
}

static void
test_concurrent_eviction_and_submission(void **state)
{
	enum { NBO = 4 };
	struct fix f;
	struct api_buf bos[NBO];
	uint32_t seeds[NBO];
	struct churn c = { 0 };
	pthread_t t;
	uint32_t rounds = API_TSAN ? 40 : 200;
	uint64_t rng = 0x1234567;

	(void)state;
	/* Budget 4 MiB: the four 1 MiB BOs of this context fill it, the
	 * churn thread's three more keep evicting them. */
	fix_open(&f, 64, 4, 64, MIB);
	for (int i = 0; i < NBO; i++) {
		seeds[i] = 100 + (uint32_t)i;
		vram_new(&f, &bos[i], MIB, seeds[i]);
	}
	c.dev = f.dev;
	atomic_init(&c.stop, false);
	assert_int_equal(pthread_create(&t, NULL, churn_main, &c), 0);
	for (uint32_t r = 0; r < rounds; r++) {
		int i = (int)(api_rand(&rng) % NBO);

		if (api_rand(&rng) & 1) {
			/* Rewrite it, then read it back. */
			seeds[i] = (uint32_t)api_rand(&rng);
			api_fill_pattern(f.staging.cpu, MIB, 0, seeds[i]);
			gpu_copy(&f, bos[i].va, f.staging.va, MIB);
		}
		vram_expect(&f, &bos[i], seeds[i]);
	}
	/* Let the churn run at least a few rounds against us. */
	while (atomic_load(&c.rounds) < 8 && !atomic_load(&c.failures))
		vram_expect(&f, &bos[0], seeds[0]);
	atomic_store(&c.stop, true);
	pthread_join(t, NULL);
	assert_int_equal(atomic_load(&c.failures), 0);
	for (int i = 0; i < NBO; i++)
		vram_expect(&f, &bos[i], seeds[i]);
	swgpu_mem_stats s = stats(f.dev);
	print_message("  %u churn rounds, %llu evictions, %llu promotions, "
	              "%llu started in SYSTEM\n", atomic_load(&c.rounds),
	              (unsigned long long)s.evictions,
	              (unsigned long long)s.promotions,
	              (unsigned long long)s.system_placements);
	assert_true(s.evictions > 0);
	for (int i = 0; i < NBO; i++)
		api_buf_fini(&bos[i]);
	assert_true(usage(f.dev, SWGPU_HEAP_VRAM) == 0);
	assert_true(stats(f.dev).demoted_bytes == 0);
	fix_close(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_promotion_evicts_other_context),
		cmocka_unit_test(test_priority_then_lru),
		cmocka_unit_test(test_running_job_pins),
		cmocka_unit_test(test_offers_before_eviction),
		cmocka_unit_test(test_both_heaps_exhausted),
		cmocka_unit_test(test_concurrent_eviction_and_submission),
	};

	api_apply_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
