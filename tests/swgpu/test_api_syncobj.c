/* SPDX-License-Identifier: MIT */
/*
 * Binary sync objects (signal / consume, NOT_SUBMITTED, reset, WAIT_KEEP,
 * WAIT_FOR_SUBMIT from another thread) and host waits on several objects
 * (any / all) with deadlines that are honoured within a bounded time.
 */
#include "api_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fix {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *copy0, *comp0;
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
	f->comp0 = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 0);
	api_cmd_init(&f->cmd, f->dev, f->ctx, 16 * 1024);
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
	swgpu_queue_destroy(f->comp0);
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
value_of(swgpu_syncobj *o)
{
	uint64_t v = 99;
	api_ok(swgpu_syncobj_query(o, &v));
	return v;
}

static void
test_binary_host(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *b, *b1;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 0, &b));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 1, &b1));
	assert_int_equal(swgpu_syncobj_get_type(b), SWGPU_SYNCOBJ_BINARY);
	assert_true(value_of(b) == 0);
	assert_true(value_of(b1) == 1);

	/* Nothing pending: NOT_SUBMITTED at once, not a timeout. */
	uint64_t t0 = swgpu_now_ns();
	api_check(SWGPU_ERR_NOT_SUBMITTED,
	          swgpu_syncobj_wait(&b, NULL, 1, 0,
	                             api_deadline_ms(API_WAIT_MS), NULL));
	assert_true(swgpu_now_ns() - t0 < 2000000000ull);
	api_ok(swgpu_syncobj_wait(&b1, NULL, 1, 0, 0, NULL));

	/* Host signal; value ignored; host waits do not consume. */
	api_ok(swgpu_syncobj_signal(b, 12345));
	assert_true(value_of(b) == 1);
	api_ok(swgpu_syncobj_wait(&b, NULL, 1, 0, 0, NULL));
	api_ok(swgpu_syncobj_wait(&b, NULL, 1, 0, 0, NULL));
	assert_true(value_of(b) == 1);
	/* Signalling again is allowed (replaces the payload). */
	api_ok(swgpu_syncobj_signal(b, 0));
	assert_true(value_of(b) == 1);
	api_ok(swgpu_syncobj_reset(b));
	assert_true(value_of(b) == 0);
	api_ok(swgpu_syncobj_reset(b)); /* idempotent */
	/* WAIT_AVAILABLE on a binary: needs a payload (submitted or
	 * signalled), else NOT_SUBMITTED / TIMEOUT like a plain wait. */
	api_check(SWGPU_ERR_NOT_SUBMITTED,
	          swgpu_syncobj_wait(&b, NULL, 1, SWGPU_WAIT_AVAILABLE, 0,
	                             NULL));
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(&b, NULL, 1,
	                             SWGPU_WAIT_AVAILABLE |
	                                     SWGPU_WAIT_FOR_SUBMIT,
	                             api_deadline_ms(10), NULL));
	api_check(SWGPU_ERR_NOT_SUBMITTED,
	          swgpu_syncobj_wait(&b, NULL, 1, 0, 0, NULL));
	swgpu_syncobj_destroy(b);
	swgpu_syncobj_destroy(b1);
}

/* A submit wait consumes the payload; WAIT_KEEP does not; a wait with no
 * payload is refused at submit. */
static void
test_binary_consume(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *b;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 0, &b));
	swgpu_sync_point w = { b, 0, 0 }, wk = { b, 0, SWGPU_WAIT_KEEP };

	uint64_t s0 = 0, s1 = 0;
	api_ok(api_submit(f->comp0, NULL, NULL, 0, NULL, 0, &s0));
	api_queue_idle(f->comp0);
	api_emit_write32(&f->cmd, f->out.va, 0xbad);
	swgpu_ib bad = api_cmd_end(&f->cmd);
	api_check(SWGPU_ERR_NOT_SUBMITTED,
	          api_submit(f->comp0, &bad, &w, 1, NULL, 0, NULL));
	/* Nothing was queued: no seqno was used up. */
	api_ok(api_submit(f->comp0, NULL, NULL, 0, NULL, 0, &s1));
	assert_true(s1 == s0 + 1);
	api_queue_idle(f->comp0);
	assert_true(swgpu_queue_completed(f->comp0) == s1);
	assert_int_equal(api_load32(f->out.cpu), 0);

	/* WAIT_KEEP: payload stays. */
	api_ok(swgpu_syncobj_signal(b, 0));
	api_emit_write32(&f->cmd, f->out.va + 4, 0x4ee9);
	swgpu_ib k = api_cmd_end(&f->cmd);
	api_ok(api_submit(f->comp0, &k, &wk, 1, NULL, 0, NULL));
	api_queue_idle(f->comp0);
	assert_int_equal(api_load32(f->out.cpu + 4), 0x4ee9);
	assert_true(value_of(b) == 1);

	/* Plain wait: consumed. */
	api_emit_write32(&f->cmd, f->out.va + 8, 0xc0de);
	swgpu_ib c = api_cmd_end(&f->cmd);
	api_ok(api_submit(f->copy0, &c, &w, 1, NULL, 0, NULL));
	api_queue_idle(f->copy0);
	assert_int_equal(api_load32(f->out.cpu + 8), 0xc0de);
	assert_true(value_of(b) == 0);
	api_check(SWGPU_ERR_NOT_SUBMITTED,
	          api_submit(f->copy0, &bad, &w, 1, NULL, 0, NULL));
	api_queue_idle(f->copy0);
	assert_int_equal(api_load32(f->out.cpu), 0);
	swgpu_syncobj_destroy(b);
}

/* A GPU signal attaches a pending payload: a wait submitted before the
 * signalling job ran is accepted and ordered after it, across engines,
 * and sees its data. */
static void
test_binary_gpu_chain(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *b, *gate;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 0, &b));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &gate));
	for (uint32_t round = 0; round < 50; round++) {
		uint64_t base = f->out.va + 256 + round * 16;
		swgpu_sync_point wg = { gate, round + 1, 0 };
		swgpu_sync_point s = { b, 0, 0 }, w = { b, 0, 0 };
		api_emit_write32(&f->cmd, base, 0x10000 + round);
		swgpu_ib p = api_cmd_end(&f->cmd);
		api_ok(api_submit(f->copy0, &p, &wg, 1, &s, 1, NULL));
		/* Pending payload: the host sees 0 until it runs, but it is
		 * available. */
		if (round == 0) {
			assert_true(value_of(b) == 0);
			api_ok(swgpu_syncobj_wait(&b, NULL, 1,
			                          SWGPU_WAIT_AVAILABLE, 0,
			                          NULL));
			api_check(SWGPU_TIMEOUT,
			          swgpu_syncobj_wait(&b, NULL, 1, 0,
			                             api_deadline_ms(20),
			                             NULL));
		}
		api_emit_copy(&f->cmd, base + 4, base, 4);
		swgpu_ib c = api_cmd_end(&f->cmd);
		api_ok(api_submit(f->comp0, &c, &w, 1, NULL, 0, NULL));
		api_ok(swgpu_syncobj_signal(gate, round + 1));
	}
	api_queue_idle(f->comp0);
	api_queue_idle(f->copy0);
	for (uint32_t round = 0; round < 50; round++) {
		const uint8_t *p = f->out.cpu + 256 + round * 16;
		assert_int_equal(api_load32(p), 0x10000 + round);
		assert_int_equal(api_load32(p + 4), 0x10000 + round);
	}
	assert_true(value_of(b) == 0); /* last wait consumed it */
	swgpu_syncobj_destroy(gate);
	swgpu_syncobj_destroy(b);
}

struct submitter {
	struct fix *f;
	swgpu_syncobj *obj;
	uint64_t delay_ms;
	swgpu_result r;
};

static void *
submitter_main(void *arg)
{
	struct submitter *s = arg;
	struct timespec ts = { 0, (long)s->delay_ms * 1000000 };
	/* Give the main thread time to block in its wait; correctness
	 * does not depend on it, only what is exercised. */
	nanosleep(&ts, NULL);
	swgpu_sync_point sig = { s->obj, 0, 0 };
	s->r = api_submit(s->f->copy0, NULL, NULL, 0, &sig, 1, NULL);
	return NULL;
}

static void
test_wait_for_submit(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *b;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 0, &b));

	/* Nobody submits: TIMEOUT, after the deadline, not much later. */
	uint64_t t0 = swgpu_now_ns();
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(&b, NULL, 1, SWGPU_WAIT_FOR_SUBMIT,
	                             t0 + 50000000ull, NULL));
	uint64_t dt = swgpu_now_ns() - t0;
	assert_true(dt >= 50000000ull);
	assert_true(dt < 2000000000ull);

	/* Another thread submits a signal while we wait. */
	struct submitter s = { .f = f, .obj = b, .delay_ms = 50 };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, submitter_main, &s), 0);
	t0 = swgpu_now_ns();
	api_ok(swgpu_syncobj_wait(&b, NULL, 1, SWGPU_WAIT_FOR_SUBMIT,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	assert_true(swgpu_now_ns() - t0 < 20000000000ull);
	pthread_join(th, NULL);
	api_ok(s.r);
	assert_true(value_of(b) == 1);

	/* Same with an infinite deadline. */
	api_ok(swgpu_syncobj_reset(b));
	s.delay_ms = 10;
	assert_int_equal(pthread_create(&th, NULL, submitter_main, &s), 0);
	api_ok(swgpu_syncobj_wait(&b, NULL, 1, SWGPU_WAIT_FOR_SUBMIT,
	                          SWGPU_DEADLINE_INFINITE, NULL));
	pthread_join(th, NULL);
	api_ok(s.r);
	swgpu_syncobj_destroy(b);
}

static void
test_wait_any_all(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *o[3];
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &o[0]));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &o[1]));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 0, &o[2]));
	uint64_t v[3] = { 3, 4, 0 };
	uint32_t first = 77;

	/* None ready: ANY and ALL time out within bounds. */
	for (int all = 0; all < 2; all++) {
		uint64_t t0 = swgpu_now_ns();
		api_check(SWGPU_TIMEOUT,
		          swgpu_syncobj_wait(o, v, 2,
		                             all ? SWGPU_WAIT_ALL : 0,
		                             t0 + 40000000ull, &first));
		uint64_t dt = swgpu_now_ns() - t0;
		assert_true(dt >= 40000000ull && dt < 2000000000ull);
	}
	/* Deadline already passed: immediate answer. */
	uint64_t t0 = swgpu_now_ns();
	api_check(SWGPU_TIMEOUT, swgpu_syncobj_wait(o, v, 2, 0, 0, NULL));
	assert_true(swgpu_now_ns() - t0 < 1000000000ull);

	/* o[1] reaches 4 from the GPU. */
	swgpu_sync_point s = { o[1], 4, 0 };
	api_ok(api_submit(f->comp0, NULL, NULL, 0, &s, 1, NULL));
	first = 77;
	api_ok(swgpu_syncobj_wait(o, v, 2, 0, api_deadline_ms(API_WAIT_MS),
	                          &first));
	assert_int_equal(first, 1);
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(o, v, 2, SWGPU_WAIT_ALL,
	                             api_deadline_ms(20), NULL));
	/* o[0] at 2 is not enough for 3. */
	api_ok(swgpu_syncobj_signal(o[0], 2));
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(o, v, 2, SWGPU_WAIT_ALL,
	                             api_deadline_ms(20), NULL));
	api_ok(swgpu_syncobj_signal(o[0], 9));
	api_ok(swgpu_syncobj_wait(o, v, 2, SWGPU_WAIT_ALL, 0, NULL));

	/* Mixed binary + timeline (binary values ignored). */
	api_check(SWGPU_TIMEOUT,
	          swgpu_syncobj_wait(o, v, 3, SWGPU_WAIT_ALL |
	                                          SWGPU_WAIT_FOR_SUBMIT,
	                             api_deadline_ms(20), NULL));
	api_ok(swgpu_syncobj_signal(o[2], 0));
	api_ok(swgpu_syncobj_wait(o, v, 3, SWGPU_WAIT_ALL, 0, NULL));
	first = 77;
	swgpu_syncobj *only_bin_and_t[2] = { o[2], o[0] };
	uint64_t vv[2] = { 0, 100 };
	api_ok(swgpu_syncobj_wait(only_bin_and_t, vv, 2, 0, 0, &first));
	assert_int_equal(first, 0);

	/* Bad arguments. */
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_syncobj_wait(o, NULL, 2, 0, 0, NULL));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_syncobj_wait(NULL, v, 1, 0, 0, NULL));
	for (int i = 0; i < 3; i++)
		swgpu_syncobj_destroy(o[i]);
}

/* A host waiter on another thread is released by a GPU signal (sleeping
 * waiters get woken, not only spinners). */
struct waiter {
	swgpu_syncobj *obj;
	uint64_t value;
	swgpu_result r;
	_Atomic int done;
};

static void *
waiter_main(void *arg)
{
	struct waiter *w = arg;
	w->r = swgpu_syncobj_wait(&w->obj, &w->value, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL);
	w->done = 1;
	return NULL;
}

static void
test_many_host_waiters(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	struct waiter w[8];
	pthread_t th[8];
	for (int i = 0; i < 8; i++) {
		w[i] = (struct waiter){ .obj = tl, .value = (uint64_t)i + 1 };
		assert_int_equal(pthread_create(&th[i], NULL, waiter_main,
		                                &w[i]), 0);
	}
	for (uint64_t v = 1; v <= 8; v++) {
		swgpu_sync_point s = { tl, v, 0 };
		/* One queue: the points are signalled in order (two queues
		 * could finish out of order and rewind the timeline). */
		api_ok(api_submit(f->comp0, NULL, NULL, 0, &s, 1, NULL));
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		api_ok(w[i].r);
	}
	assert_true(value_of(tl) == 8);
	swgpu_syncobj_destroy(tl);
}

int
main(void)
{
	api_apply_filter();
#define T(fn) cmocka_unit_test_setup_teardown(fn, before, after)
	const struct CMUnitTest tests[] = {
		T(test_binary_host),
		T(test_binary_consume),
		T(test_binary_gpu_chain),
		T(test_wait_for_submit),
		T(test_wait_any_all),
		T(test_many_host_waiters),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
