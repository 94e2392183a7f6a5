/* SPDX-License-Identifier: MIT */
/*
 * Timeline sync objects: signals submitted out of order across engines,
 * host and GPU rewinds, wait-before-signal in the scheduler (a blocked job
 * blocks nothing else), WAIT_AVAILABLE, and data flowing along timeline
 * dependencies between engines.
 */
#include "api_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct fix {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *copy0, *comp0, *comp0b, *copy1;
	struct api_cmd cmd;
	struct api_buf out;
};

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	swgpu_config cfg;
	api_config_small(&cfg);
	api_ok(swgpu_device_open(&cfg, &f->dev));
	api_ok(swgpu_context_create(f->dev, &f->ctx));
	f->copy0 = api_queue(f->ctx, SWGPU_ENGINE_COPY, 0);
	f->copy1 = api_queue(f->ctx, SWGPU_ENGINE_COPY, 1);
	f->comp0 = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 0);
	/* A second queue on the same engine as comp0. */
	f->comp0b = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 0);
	api_cmd_init(&f->cmd, f->dev, f->ctx, 64 * 1024);
	api_buf_init(&f->out, f->dev, f->ctx, 65536, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;
	api_buf_fini(&f->out);
	api_cmd_fini(&f->cmd);
	swgpu_queue_destroy(f->copy0);
	swgpu_queue_destroy(f->copy1);
	swgpu_queue_destroy(f->comp0);
	swgpu_queue_destroy(f->comp0b);
	swgpu_context_destroy(f->ctx);
	swgpu_device_close(f->dev);
	free(f);
	return 0;
}

static int
before(void **state)
{
	struct fix *f = *state;
	api_cmd_reset(&f->cmd);
	memset(f->out.cpu, 0, f->out.size);
	return 0;
}

static int
after(void **state)
{
	struct fix *f = *state;
	return swgpu_context_query_state(f->ctx, NULL) == SWGPU_CONTEXT_OK
	               ? 0
	               : -1;
}

static uint64_t
tl_value(swgpu_syncobj *o)
{
	uint64_t v = 0;
	api_ok(swgpu_syncobj_query(o, &v));
	return v;
}

/* Host observer: samples a timeline and records any decrease. */
struct observer {
	swgpu_syncobj *obj;
	_Atomic int stop;
	_Atomic int went_back;
	_Atomic int query_failed;
	_Atomic uint64_t max_seen;
};

static void *
observer_main(void *arg)
{
	struct observer *o = arg;
	uint64_t last = 0;
	for (;;) {
		/* One last sample after stop: it must see the final value. */
		int stop = o->stop;
		uint64_t v = 0;
		if (swgpu_syncobj_query(o->obj, &v) != SWGPU_OK)
			o->query_failed = 1;
		if (v < last)
			o->went_back = 1;
		last = v;
		o->max_seen = v;
		if (stop)
			break;
	}
	return NULL;
}

/*
 * Submission order: the job signalling 2 first (on copy0, held back by a
 * gate), then the job signalling 1 (on compute0). Execution order is
 * 1 then 2, so the timeline only grows; the observer checks it.
 */
static void
test_out_of_submission_order(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *tl, *gate;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &gate));
	struct observer obs = { .obj = tl };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, observer_main, &obs), 0);

	api_emit_write32(&f->cmd, f->out.va + 0, 0x2222);
	swgpu_ib ib2 = api_cmd_end(&f->cmd);
	swgpu_sync_point w_gate = { gate, 1, 0 }, s2 = { tl, 2, 0 };
	api_ok(api_submit(f->copy0, &ib2, &w_gate, 1, &s2, 1, NULL));

	api_emit_write32(&f->cmd, f->out.va + 4, 0x1111);
	swgpu_ib ib1 = api_cmd_end(&f->cmd);
	swgpu_sync_point s1 = { tl, 1, 0 };
	api_ok(api_submit(f->comp0, &ib1, NULL, 0, &s1, 1, NULL));

	uint64_t one = 1, two = 2;
	api_ok(swgpu_syncobj_wait(&tl, &one, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	assert_int_equal(api_load32(f->out.cpu + 4), 0x1111);
	/* Point 2 is held by the gate. */
	api_check(SWGPU_TIMEOUT, swgpu_syncobj_wait(&tl, &two, 1, 0,
	                                            api_deadline_ms(50),
	                                            NULL));
	assert_true(tl_value(tl) == 1);
	assert_int_equal(api_load32(f->out.cpu + 0), 0);

	api_ok(swgpu_syncobj_signal(gate, 1));
	api_ok(swgpu_syncobj_wait(&tl, &two, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	assert_int_equal(api_load32(f->out.cpu + 0), 0x2222);
	api_ok(swgpu_syncobj_wait(&tl, &one, 1, 0, 0, NULL));
	assert_true(tl_value(tl) == 2);

	obs.stop = 1;
	pthread_join(th, NULL);
	assert_false(obs.went_back);
	assert_false(obs.query_failed);
	assert_true(obs.max_seen == 2);
	swgpu_syncobj_destroy(gate);
	swgpu_syncobj_destroy(tl);
}

/*
 * The job signalling 1 really runs after the one that signalled 2: the
 * GPU signal would rewind the timeline. The value must stay 2 (it never
 * goes back), the rewinding job's context is guilty with
 * SWGPU_FAULT_TIMELINE, and waits for points 1 and 2 (both reached)
 * succeed.
 */
static void
test_gpu_signal_rewind(void **state)
{
	struct fix *f = *state;
	swgpu_context *ctx2;
	api_ok(swgpu_context_create(f->dev, &ctx2));
	swgpu_queue *q2 = api_queue(ctx2, SWGPU_ENGINE_COPY, 1);
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	struct observer obs = { .obj = tl };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, observer_main, &obs), 0);

	swgpu_sync_point s2 = { tl, 2, 0 }, s1 = { tl, 1, 0 };
	api_ok(api_submit(f->comp0, NULL, NULL, 0, &s2, 1, NULL));
	uint64_t two = 2, one = 1;
	api_ok(swgpu_syncobj_wait(&tl, &two, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	uint64_t s;
	api_ok(api_submit(q2, NULL, NULL, 0, &s1, 1, &s));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(q2, s, api_deadline_ms(API_WAIT_MS)));
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(ctx2, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_TIMELINE);
	uint64_t v = 0;
	swgpu_result qr = swgpu_syncobj_query(tl, &v);
	assert_true(qr == SWGPU_OK || qr == SWGPU_ERR_CONTEXT_LOST);
	assert_true(v == 2);
	api_ok(swgpu_syncobj_wait(&tl, &one, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	api_ok(swgpu_syncobj_wait(&tl, &two, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	obs.stop = 1;
	pthread_join(th, NULL);
	assert_false(obs.went_back);
	/* Our own context is innocent. */
	assert_int_equal(swgpu_context_query_state(f->ctx, NULL),
	                 SWGPU_CONTEXT_OK);
	swgpu_queue_destroy(q2);
	swgpu_context_destroy(ctx2);
	swgpu_syncobj_destroy(tl);
}

static void
test_host_signal_rewind(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 5, &tl));
	assert_int_equal(swgpu_syncobj_get_type(tl), SWGPU_SYNCOBJ_TIMELINE);
	assert_true(tl_value(tl) == 5);
	api_check(SWGPU_ERR_TIMELINE_REWIND, swgpu_syncobj_signal(tl, 5));
	api_check(SWGPU_ERR_TIMELINE_REWIND, swgpu_syncobj_signal(tl, 3));
	api_check(SWGPU_ERR_TIMELINE_REWIND, swgpu_syncobj_signal(tl, 0));
	assert_true(tl_value(tl) == 5);
	api_ok(swgpu_syncobj_signal(tl, 6));
	assert_true(tl_value(tl) == 6);
	api_ok(swgpu_syncobj_signal(tl, 1ull << 40));
	assert_true(tl_value(tl) == 1ull << 40);
	api_check(SWGPU_ERR_TIMELINE_REWIND, swgpu_syncobj_signal(tl, 7));
	assert_true(tl_value(tl) == 1ull << 40);
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_syncobj_reset(tl));
	assert_true(tl_value(tl) == 1ull << 40);
	swgpu_syncobj_destroy(tl);
}

/*
 * Wait-before-signal: a job waiting on point 5 of a timeline nobody has
 * signalled waits in the scheduler. Its queue's later job waits behind it
 * (in order), but another queue on the SAME engine and queues on other
 * engines keep completing. Then the host signals 3 (not enough) and 5.
 */
static void
test_wait_before_signal(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	uint8_t *o = f->out.cpu;

	uint64_t done0 = swgpu_queue_completed(f->comp0);
	api_emit_write32(&f->cmd, f->out.va + 0, 0x5555);
	swgpu_ib ib = api_cmd_end(&f->cmd);
	swgpu_sync_point w5 = { tl, 5, 0 };
	uint64_t sb;
	api_ok(api_submit(f->comp0, &ib, &w5, 1, NULL, 0, &sb));
	/* In-order behind it, no waits of its own. */
	api_emit_write32(&f->cmd, f->out.va + 4, 0x6666);
	swgpu_ib ib_next = api_cmd_end(&f->cmd);
	uint64_t sn;
	api_ok(api_submit(f->comp0, &ib_next, NULL, 0, NULL, 0, &sn));

	/* 200 jobs on the same engine and on two others, all done. */
	swgpu_queue *others[3] = { f->comp0b, f->copy0, f->copy1 };
	for (uint32_t j = 0; j < 200; j++) {
		api_emit_write32(&f->cmd, f->out.va + 1024 + j * 4, j + 1);
		swgpu_ib oi = api_cmd_end(&f->cmd);
		api_ok(api_submit(others[j % 3], &oi, NULL, 0, NULL, 0, NULL));
	}
	for (int i = 0; i < 3; i++)
		api_queue_idle(others[i]);
	for (uint32_t j = 0; j < 200; j++)
		assert_int_equal(api_load32(o + 1024 + j * 4), j + 1);

	assert_int_equal(api_load32(o + 0), 0);
	assert_int_equal(api_load32(o + 4), 0);
	assert_true(swgpu_queue_completed(f->comp0) == done0);
	api_check(SWGPU_TIMEOUT,
	          swgpu_queue_wait(f->comp0, sb, api_deadline_ms(20)));

	api_ok(swgpu_syncobj_signal(tl, 3));
	/* A fence job on comp0's engine proves the engine ran after the
	 * signal of 3, yet the blocked job did not. */
	api_ok(api_submit(f->comp0b, NULL, NULL, 0, NULL, 0, NULL));
	api_queue_idle(f->comp0b);
	assert_int_equal(api_load32(o + 0), 0);
	assert_true(swgpu_queue_completed(f->comp0) == done0);

	api_ok(swgpu_syncobj_signal(tl, 5));
	api_ok(swgpu_queue_wait(f->comp0, sn, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(api_load32(o + 0), 0x5555);
	assert_int_equal(api_load32(o + 4), 0x6666);
	assert_true(swgpu_queue_completed(f->comp0) == sn);
	swgpu_syncobj_destroy(tl);
}

/*
 * A waits on a point that a job submitted LATER on the SAME engine
 * signals. If the waiting job sat in the ring, the engine would deadlock.
 */
static void
test_wait_before_signal_same_engine(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_emit_copy(&f->cmd, f->out.va + 8, f->out.va + 0, 4);
	swgpu_ib a = api_cmd_end(&f->cmd);
	swgpu_sync_point w = { tl, 1, 0 }, s = { tl, 1, 0 };
	uint64_t sa;
	api_ok(api_submit(f->comp0, &a, &w, 1, NULL, 0, &sa));
	api_emit_write32(&f->cmd, f->out.va + 0, 0xabcd);
	swgpu_ib b = api_cmd_end(&f->cmd);
	api_ok(api_submit(f->comp0b, &b, NULL, 0, &s, 1, NULL));
	api_ok(swgpu_queue_wait(f->comp0, sa, api_deadline_ms(API_WAIT_MS)));
	/* A ran after B and saw its data. */
	assert_int_equal(api_load32(f->out.cpu + 8), 0xabcd);
	swgpu_syncobj_destroy(tl);
}

/* WAIT_AVAILABLE: satisfied once a signal for the point is submitted. */
static void
test_wait_available(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *tl, *gate;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &gate));
	uint64_t seven = 7, one = 1;
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(&tl, &seven, 1, SWGPU_WAIT_AVAILABLE,
	                             api_deadline_ms(30), NULL));
	swgpu_sync_point wg = { gate, 1, 0 }, s7 = { tl, 7, 0 };
	api_ok(api_submit(f->copy1, NULL, &wg, 1, &s7, 1, NULL));
	api_ok(swgpu_syncobj_wait(&tl, &seven, 1, SWGPU_WAIT_AVAILABLE,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(&tl, &seven, 1, 0, api_deadline_ms(30),
	                             NULL));
	assert_true(tl_value(tl) == 0);
	/* A point below a submitted one is available too. */
	api_ok(swgpu_syncobj_wait(&tl, &one, 1, SWGPU_WAIT_AVAILABLE,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	api_ok(swgpu_syncobj_signal(gate, 1));
	api_ok(swgpu_syncobj_wait(&tl, &seven, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	assert_true(tl_value(tl) == 7);
	swgpu_syncobj_destroy(gate);
	swgpu_syncobj_destroy(tl);
}

/*
 * Data pipeline across engines along one timeline: each stage copies the
 * previous stage's output and adds its own word. Everything is submitted
 * before the first point exists (the timeline starts at 9, stage 0 waits
 * for 10, which the host signals last).
 */
static void
test_cross_engine_pipeline(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 9, &tl));
	swgpu_queue *qs[4] = { f->copy0, f->comp0, f->copy1, f->comp0b };
	const uint32_t stages = 64;
	for (uint32_t i = 0; i < stages; i++) {
		uint64_t dst = f->out.va + 4096 + (uint64_t)i * 256;
		if (i > 0)
			api_emit_copy(&f->cmd, dst, dst - 256, (uint64_t)i * 4);
		api_emit_write32(&f->cmd, dst + (uint64_t)i * 4, 0x700 + i);
		swgpu_ib ib = api_cmd_end(&f->cmd);
		swgpu_sync_point w = { tl, 10 + (uint64_t)i, 0 };
		swgpu_sync_point s = { tl, 11 + (uint64_t)i, 0 };
		api_ok(api_submit(qs[i % 4], &ib, &w, 1, &s, 1, NULL));
	}
	uint64_t last = 10 + stages;
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(&tl, &last, 1, 0, api_deadline_ms(20),
	                             NULL));
	assert_true(tl_value(tl) == 9);
	assert_int_equal(api_find_byte_mismatch(f->out.cpu + 4096,
	                                        stages * 256, 0),
	                 stages * 256);
	api_ok(swgpu_syncobj_signal(tl, 10));
	api_ok(swgpu_syncobj_wait(&tl, &last, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	assert_true(tl_value(tl) == last);
	const uint32_t *o = (const uint32_t *)(f->out.cpu + 4096);
	for (uint32_t i = 0; i < stages; i++)
		for (uint32_t k = 0; k <= i; k++)
			assert_int_equal(o[i * 64 + k], 0x700 + k);
	swgpu_syncobj_destroy(tl);
}

int
main(void)
{
	api_apply_filter();
#define T(fn) cmocka_unit_test_setup_teardown(fn, before, after)
	const struct CMUnitTest tests[] = {
		T(test_host_signal_rewind),
		T(test_out_of_submission_order),
		T(test_gpu_signal_rewind),
		T(test_wait_before_signal),
		T(test_wait_before_signal_same_engine),
		T(test_wait_available),
		T(test_cross_engine_pipeline),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
