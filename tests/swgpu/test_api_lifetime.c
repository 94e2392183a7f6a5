/* SPDX-License-Identifier: MIT */
/*
 * Object lifetimes: closing a device with jobs in flight and host threads
 * blocked in infinite waits (they return with an error, close is bounded,
 * nothing leaks under ASan/LSan); a BO destroyed while still mapped in a
 * VA space stays valid for the GPU until unmapped; destroying a context,
 * queue or sync object with pending work.
 */
#include "api_util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HANG_MS 2000u

static swgpu_device *
open_dev(void)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.hang_timeout_ms = HANG_MS;
	return api_open(&cfg);
}

/* Join with a bound: a thread stuck in swgpu is a test failure, and the
 * process aborts rather than hang ctest. */
static void
join_bounded(pthread_t th, uint32_t ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	int e = pthread_timedjoin_np(th, NULL, &ts);
	if (e == ETIMEDOUT) {
		print_error("thread still blocked after %u ms\n", ms);
		abort();
	}
	assert_int_equal(e, 0);
}

static void *
close_main(void *arg)
{
	swgpu_device_close(arg);
	return NULL;
}

/* swgpu_device_close on a helper thread: a close that hangs fails the
 * test (abort) instead of stalling until the ctest timeout. */
static void
close_bounded(swgpu_device *dev, uint32_t ms)
{
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, close_main, dev), 0);
	join_bounded(th, ms);
}

struct blocked_waiter {
	swgpu_syncobj *obj;
	swgpu_queue *q;      /* if set: swgpu_queue_wait instead */
	uint64_t value;
	_Atomic int started;
	swgpu_result r;
};

static void *
blocked_waiter_main(void *arg)
{
	struct blocked_waiter *w = arg;
	w->started = 1;
	if (w->q)
		w->r = swgpu_queue_wait(w->q, w->value,
		                        SWGPU_DEADLINE_INFINITE);
	else
		w->r = swgpu_syncobj_wait(&w->obj, &w->value, 1, 0,
		                          SWGPU_DEADLINE_INFINITE, NULL);
	return NULL;
}

static void
wait_started(struct blocked_waiter *w)
{
	uint64_t dl = api_deadline_ms(API_WAIT_MS);
	while (!w->started && swgpu_now_ns() < dl)
		;
	assert_true(w->started);
	/* The public API cannot tell us the thread is inside the wait; a
	 * thread that has not entered it yet when the object dies would
	 * be a bug of this test, not of swgpu. 100 ms makes that window
	 * academic. */
	struct timespec ts = { 0, 100000000 };
	nanosleep(&ts, NULL);
}

/*
 * Close with: long copies queued on a copy engine, a compute job blocked
 * on a timeline point nobody signals, and host threads blocked with
 * infinite deadlines on that point, on the blocked job's queue seqno and
 * on a binary object whose signalling job is pending. Close must return
 * within the hang timeout (plus slack) and release every waiter with an
 * error.
 */
static void
test_close_with_work_in_flight(void **state)
{
	swgpu_device *dev = open_dev();
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *qc = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	swgpu_queue *qk = api_queue(ctx, SWGPU_ENGINE_COMPUTE, 0);
	struct api_buf big;
	struct api_cmd cmd;
	api_buf_init(&big, dev, ctx, 64 << 20, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 1024);
	/* 20 x 32 MiB copies: far longer than it takes to close. */
	api_emit_copy(&cmd, big.va + (32 << 20), big.va, 32 << 20);
	swgpu_ib copy = api_cmd_end(&cmd);
	for (int i = 0; i < 20; i++)
		api_ok(api_submit(qc, &copy, NULL, 0, NULL, 0, NULL));

	swgpu_syncobj *never, *bin, *after;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &never));
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_BINARY, 0, &bin));
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &after));
	swgpu_sync_point w = { never, 100, 0 };
	swgpu_sync_point s[2] = { { bin, 0, 0 }, { after, 1, 0 } };
	uint64_t blocked_seqno;
	api_ok(api_submit(qk, NULL, &w, 1, s, 2, &blocked_seqno));

	struct blocked_waiter bw[4] = {
		{ .obj = never, .value = 100 },
		{ .obj = after, .value = 1 },
		{ .obj = bin },
		{ .q = qk, .value = blocked_seqno },
	};
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_create(&th[i], NULL,
		                                blocked_waiter_main, &bw[i]),
		                 0);
		wait_started(&bw[i]);
	}

	uint64_t t0 = swgpu_now_ns();
	close_bounded(dev, HANG_MS + 5000);
	uint64_t dt = swgpu_now_ns() - t0;
	print_message("close with work in flight: %.1f ms\n", dt / 1e6);
	assert_true(dt < (uint64_t)(HANG_MS + 3000) * 1000000);
	for (int i = 0; i < 4; i++) {
		join_bounded(th[i], HANG_MS + 5000);
		if (bw[i].r >= 0)
			fail_msg("waiter %d returned %s after close", i,
			         swgpu_result_str(bw[i].r));
	}
	/* Everything (ctx, queues, BOs, mappings, sync objects) was freed
	 * by close; LSan checks it at exit. */
}

/* A waiter blocked on a timeline a *host* would signal: close releases
 * it with an error too (the device is gone, nobody can signal). */
static void
test_close_with_host_only_waiter(void **state)
{
	swgpu_device *dev = open_dev();
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	struct blocked_waiter bw = { .obj = tl, .value = 1 };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, blocked_waiter_main, &bw),
	                 0);
	wait_started(&bw);
	uint64_t t0 = swgpu_now_ns();
	close_bounded(dev, HANG_MS + 5000);
	assert_true(swgpu_now_ns() - t0 < (uint64_t)(HANG_MS + 3000) * 1000000);
	join_bounded(th, HANG_MS + 5000);
	assert_true(bw.r < 0);
}

/*
 * swgpu_bo_destroy drops only the creator's reference: while a VA
 * mapping exists the GPU can still read and write the memory, and heap
 * usage still counts it. Unmapping the VA frees it.
 */
static void
test_bo_destroy_while_mapped(void **state)
{
	swgpu_device *dev = open_dev();
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 1);
	struct api_buf out;
	struct api_cmd cmd;
	api_buf_init(&out, dev, ctx, 1 << 20, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 1024);

	uint64_t used0 = swgpu_heap_usage(dev, SWGPU_HEAP_VRAM);
	swgpu_bo *bo;
	void *p;
	api_ok(swgpu_bo_create(dev, 1 << 20, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	                       &bo));
	api_ok(swgpu_bo_map(bo, &p));
	api_fill_pattern(p, 1 << 20, 0, 31);
	uint64_t va;
	api_ok(swgpu_va_map(ctx, bo, 0, 1 << 20,
	                    SWGPU_VA_READ | SWGPU_VA_WRITE, &va));
	swgpu_bo_unmap(bo);
	swgpu_bo_destroy(bo);
	assert_true(swgpu_heap_usage(dev, SWGPU_HEAP_VRAM) >=
	            used0 + (1 << 20));

	/* The GPU still reads the old contents and can write them. */
	api_emit_copy(&cmd, out.va, va, 1 << 20);
	api_emit_write32(&cmd, va + 16, 0x77);
	api_emit_copy(&cmd, out.va + 16, va + 16, 4);
	swgpu_ib ib = api_cmd_end(&cmd);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q);
	assert_int_equal(api_find_pattern_mismatch(out.cpu, 16, 0, 31), 16);
	assert_int_equal(api_load32(out.cpu + 16), 0x77);
	assert_int_equal(api_find_pattern_mismatch(out.cpu + 20,
	                                           (1 << 20) - 20, 20, 31),
	                 (1 << 20) - 20);

	/* Last reference: memory freed and unaccounted. */
	api_ok(swgpu_va_unmap(ctx, va));
	assert_true(swgpu_heap_usage(dev, SWGPU_HEAP_VRAM) == used0);
	/* The mapping is gone. */
	api_check(SWGPU_ERR_NOT_MAPPED, swgpu_va_unmap(ctx, va));

	api_cmd_fini(&cmd);
	api_buf_fini(&out);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* Unmap while a long job of the context is running a packet on that
 * mapping: swgpu_va_unmap returns at once and the packet that holds the
 * mapping keeps the memory until it ends, so the host can destroy its
 * handle right after. The job may succeed or fault; freed memory must
 * never be touched (ASan). */
static void
test_unmap_during_copy(void **state)
{
	swgpu_device *dev = open_dev();
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COMPUTE, 1);
	struct api_buf src, dst;
	struct api_cmd cmd;
	api_buf_init(&src, dev, ctx, 32 << 20, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_buf_init(&dst, dev, ctx, 32 << 20, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 1024);
	for (int i = 0; i < 4; i++)
		api_emit_copy(&cmd, dst.va, src.va, 32 << 20);
	swgpu_ib ib = api_cmd_end(&cmd);
	uint64_t s;
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &s));
	/* Tear the destination down under the running job. */
	swgpu_bo_unmap(dst.bo);
	api_ok(swgpu_va_unmap(ctx, dst.va));
	swgpu_bo_destroy(dst.bo);
	swgpu_result r = swgpu_queue_wait(q, s, api_deadline_ms(API_WAIT_MS));
	assert_true(r == SWGPU_OK || r == SWGPU_ERR_CONTEXT_LOST);
	if (r == SWGPU_ERR_CONTEXT_LOST) {
		swgpu_fault_info fi;
		assert_int_equal(swgpu_context_query_state(ctx, &fi),
		                 SWGPU_CONTEXT_GUILTY);
		assert_int_equal(fi.kind, SWGPU_FAULT_PAGE_WRITE);
	}
	api_cmd_fini(&cmd);
	api_buf_fini(&src);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/*
 * Destroying a context with pending and running jobs: bounded, its
 * pending jobs are cancelled (their sync objects complete with an error,
 * waiters return CONTEXT_LOST), and another context on the same engines
 * keeps working with correct data.
 */
static void
test_context_destroy_pending(void **state)
{
	swgpu_device *dev = open_dev();
	swgpu_context *a, *b;
	api_ok(swgpu_context_create(dev, &a));
	api_ok(swgpu_context_create(dev, &b));
	swgpu_queue *qa = api_queue(a, SWGPU_ENGINE_COMPUTE, 0);
	swgpu_queue *qa2 = api_queue(a, SWGPU_ENGINE_COPY, 0);
	swgpu_queue *qb = api_queue(b, SWGPU_ENGINE_COMPUTE, 0);
	struct api_buf abig, bout;
	struct api_cmd acmd, bcmd;
	api_buf_init(&abig, dev, a, 16 << 20, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&bout, dev, b, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&acmd, dev, a, 1024);
	api_cmd_init(&bcmd, dev, b, 1024);

	api_emit_copy(&acmd, abig.va + (8 << 20), abig.va, 8 << 20);
	swgpu_ib aib = api_cmd_end(&acmd);
	for (int i = 0; i < 8; i++)
		api_ok(api_submit(qa, &aib, NULL, 0, NULL, 0, NULL));
	swgpu_syncobj *never, *out;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &never));
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &out));
	swgpu_sync_point w = { never, 1, 0 }, s = { out, 1, 0 };
	api_ok(api_submit(qa2, &aib, &w, 1, &s, 1, NULL));

	struct blocked_waiter bw = { .obj = out, .value = 1 };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, blocked_waiter_main, &bw),
	                 0);
	wait_started(&bw);

	uint64_t t0 = swgpu_now_ns();
	/* Queues and mappings go with the context. The BO references of
	 * the mappings are dropped too; destroy our handles after. */
	swgpu_context_destroy(a);
	assert_true(swgpu_now_ns() - t0 < (uint64_t)(HANG_MS + 3000) * 1000000);
	join_bounded(th, HANG_MS + 5000);
	assert_int_equal(bw.r, SWGPU_ERR_CONTEXT_LOST);
	uint64_t one = 1;
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_syncobj_wait(&out, &one, 1, 0,
	                             api_deadline_ms(API_WAIT_MS), NULL));
	if (abig.cpu)
		swgpu_bo_unmap(abig.bo);
	swgpu_bo_destroy(abig.bo);
	swgpu_bo_unmap(acmd.buf.bo);
	swgpu_bo_destroy(acmd.buf.bo);

	/* B is unaffected. */
	api_emit_write32(&bcmd, bout.va, 0xb0b);
	swgpu_ib bib = api_cmd_end(&bcmd);
	api_ok(api_submit(qb, &bib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(qb);
	assert_int_equal(api_load32(bout.cpu), 0xb0b);
	assert_int_equal(swgpu_context_query_state(b, NULL), SWGPU_CONTEXT_OK);

	/* The never-signalled timeline can still be signalled and freed. */
	api_ok(swgpu_syncobj_signal(never, 1));
	swgpu_syncobj_destroy(never);
	swgpu_syncobj_destroy(out);
	api_cmd_fini(&bcmd);
	api_buf_fini(&bout);
	swgpu_queue_destroy(qb);
	swgpu_context_destroy(b);
	swgpu_device_close(dev);
}

/* Queue destroy with pending jobs: bounded, pending ones cancelled. */
static void
test_queue_destroy_pending(void **state)
{
	swgpu_device *dev = open_dev();
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 1);
	swgpu_queue *q2 = api_queue(ctx, SWGPU_ENGINE_COPY, 1);
	struct api_buf out;
	struct api_cmd cmd;
	api_buf_init(&out, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 1024);
	swgpu_syncobj *never, *out_tl;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &never));
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &out_tl));
	api_emit_write32(&cmd, out.va, 0xbad);
	swgpu_ib ib = api_cmd_end(&cmd);
	swgpu_sync_point w = { never, 1, 0 }, s = { out_tl, 1, 0 };
	api_ok(api_submit(q, &ib, &w, 1, &s, 1, NULL));
	uint64_t t0 = swgpu_now_ns();
	swgpu_queue_destroy(q);
	assert_true(swgpu_now_ns() - t0 < (uint64_t)(HANG_MS + 3000) * 1000000);
	uint64_t one = 1;
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_syncobj_wait(&out_tl, &one, 1, 0,
	                             api_deadline_ms(API_WAIT_MS), NULL));
	/* The cancelled job never ran, even once its wait is satisfied. */
	api_ok(swgpu_syncobj_signal(never, 1));
	api_emit_write32(&cmd, out.va + 4, 0x900d);
	swgpu_ib ib2 = api_cmd_end(&cmd);
	api_ok(api_submit(q2, &ib2, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q2);
	assert_int_equal(api_load32(out.cpu + 4), 0x900d);
	assert_int_equal(api_load32(out.cpu), 0);
	/* Destroying a queue cancels its own work; the context is not
	 * guilty of anything. */
	assert_int_equal(swgpu_context_query_state(ctx, NULL),
	                 SWGPU_CONTEXT_OK);
	swgpu_syncobj_destroy(never);
	swgpu_syncobj_destroy(out_tl);
	api_cmd_fini(&cmd);
	api_buf_fini(&out);
	swgpu_queue_destroy(q2);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* A sync object destroyed while pending jobs name it stays alive for
 * them: the job still waits on it / signals it correctly. */
static void
test_syncobj_destroy_while_pending(void **state)
{
	swgpu_device *dev = open_dev();
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COMPUTE, 1);
	swgpu_queue *q2 = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	struct api_buf out;
	struct api_cmd cmd;
	api_buf_init(&out, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 1024);
	swgpu_syncobj *gate, *mid, *fin;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &gate));
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_BINARY, 0, &mid));
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &fin));
	/* job 1: waits gate, writes, signals mid (binary).
	 * job 2 (other engine): waits mid, copies, signals fin. */
	api_emit_write32(&cmd, out.va, 0x1234);
	swgpu_ib ib1 = api_cmd_end(&cmd);
	swgpu_sync_point w1 = { gate, 1, 0 }, s1 = { mid, 0, 0 };
	api_ok(api_submit(q, &ib1, &w1, 1, &s1, 1, NULL));
	api_emit_copy(&cmd, out.va + 4, out.va, 4);
	swgpu_ib ib2 = api_cmd_end(&cmd);
	swgpu_sync_point w2 = { mid, 0, 0 }, s2 = { fin, 1, 0 };
	api_ok(api_submit(q2, &ib2, &w2, 1, &s2, 1, NULL));
	swgpu_syncobj_destroy(mid);
	api_ok(swgpu_syncobj_signal(gate, 1));
	swgpu_syncobj_destroy(gate);
	uint64_t one = 1;
	api_ok(swgpu_syncobj_wait(&fin, &one, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	assert_int_equal(api_load32(out.cpu + 4), 0x1234);
	swgpu_syncobj_destroy(fin);
	api_cmd_fini(&cmd);
	api_buf_fini(&out);
	swgpu_queue_destroy(q);
	swgpu_queue_destroy(q2);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* Many devices opened and closed with work: nothing accumulates (LSan),
 * indices grow. */
static void
test_open_close_loop(void **state)
{
	uint32_t last_index = 0;
	for (int i = 0; i < 20; i++) {
		swgpu_device *dev = open_dev();
		swgpu_device_info info;
		swgpu_device_query_info(dev, &info);
		if (i)
			assert_true(info.device_index > last_index);
		last_index = info.device_index;
		swgpu_context *ctx;
		api_ok(swgpu_context_create(dev, &ctx));
		swgpu_queue *q = api_queue(ctx, i & 1 ? SWGPU_ENGINE_COPY
		                                      : SWGPU_ENGINE_COMPUTE,
		                           SWGPU_ENGINE_ANY);
		struct api_buf out;
		struct api_cmd cmd;
		api_buf_init(&out, dev, ctx, 4096, SWGPU_HEAP_SYSTEM,
		             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
		api_cmd_init(&cmd, dev, ctx, 64);
		api_emit_write32(&cmd, out.va, (uint32_t)i);
		swgpu_ib ib = api_cmd_end(&cmd);
		api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
		if (i % 3 == 0) {
			api_queue_idle(q);
			assert_int_equal(api_load32(out.cpu), (uint32_t)i);
		}
		/* Odd rounds leave everything to close. */
		if (i & 1) {
			swgpu_device_close(dev);
			continue;
		}
		api_cmd_fini(&cmd);
		api_buf_fini(&out);
		swgpu_queue_destroy(q);
		swgpu_context_destroy(ctx);
		swgpu_device_close(dev);
	}
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bo_destroy_while_mapped),
		cmocka_unit_test(test_unmap_during_copy),
		cmocka_unit_test(test_syncobj_destroy_while_pending),
		cmocka_unit_test(test_queue_destroy_pending),
		cmocka_unit_test(test_context_destroy_pending),
		cmocka_unit_test(test_open_close_loop),
		/* Last: a close that hangs aborts the process. */
		cmocka_unit_test(test_close_with_work_in_flight),
		cmocka_unit_test(test_close_with_host_only_waiter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
