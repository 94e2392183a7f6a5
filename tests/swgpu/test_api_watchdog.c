/* SPDX-License-Identifier: MIT */
/*
 * The hang watchdog judges progress, not duration: a job that keeps
 * moving (one huge COPY, or many packets) is never a hang even when it
 * runs far longer than hang_timeout_ms. A job that does not move (SEM_WAIT
 * nobody satisfies) is, and tearing down around it (context destroy, VA
 * unmap of the polled word) is bounded by the hang timeout.
 */
#include "api_util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HANG_MS 100u

static swgpu_device *
open_dev(uint32_t hang_ms)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.system_size = 3ull << 30;
	cfg.hang_timeout_ms = hang_ms;
	return api_open(&cfg);
}

static void
stamp_pages(uint8_t *p, uint64_t size, uint32_t seed)
{
	for (uint64_t off = 0; off < size; off += 4096)
		*(uint64_t *)(p + off) = off ^ ((uint64_t)seed << 40);
}

static uint64_t
check_pages(const uint8_t *p, uint64_t size, uint32_t seed)
{
	uint64_t bad = 0;
	for (uint64_t off = 0; off < size; off += 4096)
		bad += *(const uint64_t *)(p + off) !=
		       (off ^ ((uint64_t)seed << 40));
	return bad;
}

/* One COPY packet many times longer than the hang timeout. */
static void
test_long_copy_is_not_a_hang(void **state)
{
	const uint64_t size = API_TSAN ? 128ull << 20 : 512ull << 20;
	swgpu_device *dev = open_dev(HANG_MS);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	struct api_buf src, dst;
	struct api_cmd cmd;
	api_buf_init(&src, dev, ctx, size, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_buf_init(&dst, dev, ctx, size, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 64);
	stamp_pages(src.cpu, size, 1);
	/* Three passes in one packet each, so the job runs well past the
	 * timeout on any machine. */
	for (int i = 0; i < 3; i++)
		api_emit_copy(&cmd, dst.va, src.va, size);
	swgpu_ib ib = api_cmd_end(&cmd);
	uint64_t t0 = swgpu_now_ns();
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	swgpu_result r = swgpu_queue_wait(q, 0, api_deadline_ms(API_WAIT_MS));
	uint64_t dt = swgpu_now_ns() - t0;
	print_message("3 x %llu MiB copy: %.1f ms (hang timeout %u ms)\n",
	              (unsigned long long)(size >> 20), dt / 1e6, HANG_MS);
	if (r != SWGPU_OK) {
		swgpu_fault_info fi;
		swgpu_context_query_state(ctx, &fi);
		fail_msg("long copy failed: %s, fault %d '%s'",
		         swgpu_result_str(r), (int)fi.kind, fi.message);
	}
	assert_int_equal(check_pages(dst.cpu, size, 1), 0);
	api_cmd_fini(&cmd);
	api_buf_fini(&dst);
	api_buf_fini(&src);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* Many short packets in one job, running long in total. */
static void
test_many_packets_are_not_a_hang(void **state)
{
	const uint64_t chunk = 4ull << 20;
	const uint32_t n = API_TSAN ? 300 : 3000;
	swgpu_device *dev = open_dev(HANG_MS);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COMPUTE, 0);
	struct api_buf a, b;
	struct api_cmd cmd;
	api_buf_init(&a, dev, ctx, chunk, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&b, dev, ctx, chunk, SWGPU_HEAP_VRAM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, n * 8 + 64);
	stamp_pages(a.cpu, chunk, 2);
	for (uint32_t i = 0; i < n; i++) {
		if (i & 1)
			api_emit_copy(&cmd, a.va, b.va, chunk);
		else
			api_emit_copy(&cmd, b.va, a.va, chunk);
	}
	swgpu_ib ib = api_cmd_end(&cmd);
	uint64_t t0 = swgpu_now_ns();
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	swgpu_result r = swgpu_queue_wait(q, 0, api_deadline_ms(API_WAIT_MS));
	print_message("%u x 4 MiB copies: %.1f ms\n", n,
	              (swgpu_now_ns() - t0) / 1e6);
	api_ok(r);
	assert_int_equal(check_pages(a.cpu, chunk, 2), 0);
	api_cmd_fini(&cmd);
	api_buf_fini(&b);
	api_buf_fini(&a);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

struct unmap_call {
	swgpu_context *ctx;
	uint64_t va;
	swgpu_result r;
	_Atomic int done;
};

static void *
unmap_main(void *arg)
{
	struct unmap_call *u = arg;
	u->r = swgpu_va_unmap(u->ctx, u->va);
	u->done = 1;
	return NULL;
}

static void *
ctx_destroy_main(void *arg)
{
	swgpu_context_destroy(arg);
	return NULL;
}

static void
join_bounded(pthread_t th, uint32_t ms, const char *what)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	if (pthread_timedjoin_np(th, NULL, &ts) == ETIMEDOUT) {
		print_error("%s still blocked after %u ms\n", what, ms);
		abort();
	}
}

/*
 * Unmapping the word a stuck SEM_WAIT polls: the unmap waits for the
 * packet to leave the mapping, which it does when the watchdog ends the
 * job (bounded by the hang timeout). Another context then runs on the
 * same engine.
 */
static void
test_unmap_under_stuck_sem_wait(void **state)
{
	const uint32_t hang_ms = 500;
	swgpu_device *dev = open_dev(hang_ms);
	swgpu_context *a, *b;
	api_ok(swgpu_context_create(dev, &a));
	api_ok(swgpu_context_create(dev, &b));
	swgpu_queue *qa = api_queue(a, SWGPU_ENGINE_COPY, 1);
	swgpu_queue *qb = api_queue(b, SWGPU_ENGINE_COPY, 1);
	struct api_buf sem, bout;
	struct api_cmd acmd, bcmd;
	api_buf_init(&sem, dev, a, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&bout, dev, b, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&acmd, dev, a, 64);
	api_cmd_init(&bcmd, dev, b, 64);
	api_emit_write32(&acmd, sem.va + 64, 1);
	api_emit_sem_wait(&acmd, sem.va, 1);
	swgpu_ib ib = api_cmd_end(&acmd);
	api_ok(api_submit(qa, &ib, NULL, 0, NULL, 0, NULL));
	assert_true(api_poll32(sem.cpu + 64, 1, api_deadline_ms(API_WAIT_MS)));

	struct unmap_call u = { .ctx = a, .va = sem.va };
	pthread_t th;
	uint64_t t0 = swgpu_now_ns();
	assert_int_equal(pthread_create(&th, NULL, unmap_main, &u), 0);
	join_bounded(th, hang_ms + 5000, "va_unmap");
	uint64_t dt = swgpu_now_ns() - t0;
	print_message("unmap under stuck SEM_WAIT: %.1f ms\n", dt / 1e6);
	api_ok(u.r);
	sem.va = 0; /* unmapped */
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(qa, 1, api_deadline_ms(API_WAIT_MS)));
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(a, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	print_message("stuck job ended after %.1f ms: %s\n",
	              (swgpu_now_ns() - t0) / 1e6, fi.message);
	assert_true(fi.kind == SWGPU_FAULT_HANG ||
	            fi.kind == SWGPU_FAULT_PAGE_READ);

	api_emit_write32(&bcmd, bout.va, 0xb);
	swgpu_ib bib = api_cmd_end(&bcmd);
	api_ok(api_submit(qb, &bib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(qb);
	assert_int_equal(api_load32(bout.cpu), 0xb);

	api_cmd_fini(&bcmd);
	api_cmd_fini(&acmd);
	api_buf_fini(&bout);
	api_buf_fini(&sem);
	swgpu_queue_destroy(qa);
	swgpu_queue_destroy(qb);
	swgpu_context_destroy(a);
	swgpu_context_destroy(b);
	swgpu_device_close(dev);
}

/* Destroying a context whose job is stuck in a SEM_WAIT on an engine:
 * bounded by the hang timeout; the engine then serves another context. */
static void
test_destroy_context_with_stuck_job(void **state)
{
	const uint32_t hang_ms = 500;
	swgpu_device *dev = open_dev(hang_ms);
	swgpu_context *a, *b;
	api_ok(swgpu_context_create(dev, &a));
	api_ok(swgpu_context_create(dev, &b));
	swgpu_queue *qa = api_queue(a, SWGPU_ENGINE_COMPUTE, 1);
	swgpu_queue *qb = api_queue(b, SWGPU_ENGINE_COMPUTE, 1);
	struct api_buf sem, bout;
	struct api_cmd acmd, bcmd;
	api_buf_init(&sem, dev, a, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&bout, dev, b, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&acmd, dev, a, 64);
	api_cmd_init(&bcmd, dev, b, 64);
	api_emit_write32(&acmd, sem.va + 64, 1);
	api_emit_sem_wait(&acmd, sem.va, 1);
	swgpu_ib ib = api_cmd_end(&acmd);
	api_ok(api_submit(qa, &ib, NULL, 0, NULL, 0, NULL));
	assert_true(api_poll32(sem.cpu + 64, 1, api_deadline_ms(API_WAIT_MS)));
	/* B queues behind the stuck job on the same engine. */
	api_emit_write32(&bcmd, bout.va, 0xb);
	swgpu_ib bib = api_cmd_end(&bcmd);
	api_ok(api_submit(qb, &bib, NULL, 0, NULL, 0, NULL));

	/* Our BO handles outlive the context (mappings go with it). */
	swgpu_bo *sem_bo = sem.bo, *cmd_bo = acmd.buf.bo;
	pthread_t th;
	uint64_t t0 = swgpu_now_ns();
	assert_int_equal(pthread_create(&th, NULL, ctx_destroy_main, a), 0);
	join_bounded(th, hang_ms + 5000, "context_destroy");
	print_message("destroy with stuck job: %.1f ms\n",
	              (swgpu_now_ns() - t0) / 1e6);
	swgpu_bo_unmap(sem_bo);
	swgpu_bo_destroy(sem_bo);
	swgpu_bo_unmap(cmd_bo);
	swgpu_bo_destroy(cmd_bo);

	api_queue_idle(qb);
	assert_int_equal(api_load32(bout.cpu), 0xb);
	assert_int_equal(swgpu_context_query_state(b, NULL), SWGPU_CONTEXT_OK);
	api_cmd_fini(&bcmd);
	api_buf_fini(&bout);
	swgpu_queue_destroy(qb);
	swgpu_context_destroy(b);
	swgpu_device_close(dev);
}


/*
 * Blame goes to the hung job only. A (context A, copy0) hangs in a
 * SEM_WAIT; B (context B, compute0) waits on A's timeline point, so it
 * sits in compute0's ring behind a GPU wait for copy0's fence. When the
 * watchdog ends A, B's job must be released (skipped with an error), not
 * declared hung itself: B's context is never GUILTY and B's later work
 * runs. A job of B on copy0 queued behind the hang completes too.
 */
static void
test_hang_blames_only_the_hung_context(void **state)
{
	const uint32_t hang_ms = 300;
	swgpu_device *dev = open_dev(hang_ms);
	swgpu_context *a, *b;
	api_ok(swgpu_context_create(dev, &a));
	api_ok(swgpu_context_create(dev, &b));
	swgpu_queue *qa = api_queue(a, SWGPU_ENGINE_COPY, 0);
	swgpu_queue *qb = api_queue(b, SWGPU_ENGINE_COMPUTE, 0);
	swgpu_queue *qb2 = api_queue(b, SWGPU_ENGINE_COPY, 0);
	struct api_buf sem, bout;
	struct api_cmd acmd, bcmd;
	api_buf_init(&sem, dev, a, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&bout, dev, b, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&acmd, dev, a, 64);
	api_cmd_init(&bcmd, dev, b, 256);
	swgpu_syncobj *tl, *bdone;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &bdone));

	api_emit_write32(&acmd, sem.va + 64, 1);
	api_emit_sem_wait(&acmd, sem.va, 1);
	swgpu_ib aib = api_cmd_end(&acmd);
	swgpu_sync_point as = { tl, 1, 0 };
	api_ok(api_submit(qa, &aib, NULL, 0, &as, 1, NULL));
	assert_true(api_poll32(sem.cpu + 64, 1, api_deadline_ms(API_WAIT_MS)));

	api_emit_write32(&bcmd, bout.va, 0xbad);
	swgpu_ib bib = api_cmd_end(&bcmd);
	swgpu_sync_point bw = { tl, 1, 0 }, bs = { bdone, 1, 0 };
	uint64_t bseq;
	api_ok(api_submit(qb, &bib, &bw, 1, &bs, 1, &bseq));
	/* And innocent work queued behind the hang on copy0. */
	api_emit_write32(&bcmd, bout.va + 8, 0xc0c0);
	swgpu_ib bib2 = api_cmd_end(&bcmd);
	api_ok(api_submit(qb2, &bib2, NULL, 0, NULL, 0, NULL));

	uint64_t one = 1;
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_syncobj_wait(&bdone, &one, 1, 0,
	                             api_deadline_ms(API_WAIT_MS), NULL));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(qb, bseq, api_deadline_ms(API_WAIT_MS)));
	api_queue_idle(qb2);
	swgpu_fault_info fa, fb;
	assert_int_equal(swgpu_context_query_state(a, &fa),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fa.kind, SWGPU_FAULT_HANG);
	swgpu_context_state sb = swgpu_context_query_state(b, &fb);
	if (sb == SWGPU_CONTEXT_GUILTY)
		fail_msg("innocent context blamed: %s", fb.message);
	assert_int_equal(api_load32(bout.cpu), 0);
	assert_int_equal(api_load32(bout.cpu + 8), 0xc0c0);
	if (sb == SWGPU_CONTEXT_OK) {
		api_emit_write32(&bcmd, bout.va + 4, 0x900d);
		swgpu_ib ib3 = api_cmd_end(&bcmd);
		api_ok(api_submit(qb, &ib3, NULL, 0, NULL, 0, NULL));
		api_queue_idle(qb);
		assert_int_equal(api_load32(bout.cpu + 4), 0x900d);
	}
	swgpu_syncobj_destroy(tl);
	swgpu_syncobj_destroy(bdone);
	api_cmd_fini(&bcmd);
	api_cmd_fini(&acmd);
	api_buf_fini(&bout);
	api_buf_fini(&sem);
	swgpu_queue_destroy(qa);
	swgpu_queue_destroy(qb);
	swgpu_queue_destroy(qb2);
	swgpu_context_destroy(a);
	swgpu_context_destroy(b);
	swgpu_device_close(dev);
}


/* Each SEM_WAIT is satisfied within the hang timeout, the job as a whole
 * runs several timeouts long: that is progress, not a hang. */
static void
test_slow_but_moving_sem_waits(void **state)
{
	const uint32_t hang_ms = 600, steps = 5, step_ms = 200;
	swgpu_device *dev = open_dev(hang_ms);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	struct api_buf mem;
	struct api_cmd cmd;
	api_buf_init(&mem, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 256);
	for (uint32_t k = 1; k <= steps; k++) {
		api_emit_write32(&cmd, mem.va + 64, k);
		api_emit_sem_wait(&cmd, mem.va, k);
	}
	api_emit_write32(&cmd, mem.va + 68, 0xd0e);
	swgpu_ib ib = api_cmd_end(&cmd);
	uint64_t t0 = swgpu_now_ns();
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	for (uint32_t k = 1; k <= steps; k++) {
		assert_true(api_poll32(mem.cpu + 64, k,
		                       api_deadline_ms(API_WAIT_MS)));
		struct timespec ts = { 0, (long)step_ms * 1000000 };
		nanosleep(&ts, NULL); /* the GPU is meant to wait here */
		api_store64(mem.cpu, k);
	}
	swgpu_result r = swgpu_queue_wait(q, 0, api_deadline_ms(API_WAIT_MS));
	if (r != SWGPU_OK) {
		swgpu_fault_info fi;
		swgpu_context_query_state(ctx, &fi);
		fail_msg("slow job failed after %.0f ms: %s",
		         (swgpu_now_ns() - t0) / 1e6, fi.message);
	}
	assert_int_equal(api_load32(mem.cpu + 68), 0xd0e);
	assert_true(swgpu_now_ns() - t0 > (uint64_t)hang_ms * 1000000);
	api_cmd_fini(&cmd);
	api_buf_fini(&mem);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_copy_is_not_a_hang),
		cmocka_unit_test(test_many_packets_are_not_a_hang),
		cmocka_unit_test(test_slow_but_moving_sem_waits),
		cmocka_unit_test(test_unmap_under_stuck_sem_wait),
		cmocka_unit_test(test_destroy_context_with_stuck_job),
		cmocka_unit_test(test_hang_blames_only_the_hung_context),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
