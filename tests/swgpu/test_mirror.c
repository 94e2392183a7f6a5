/* SPDX-License-Identifier: MIT */
/*
 * Mirrors (kmd/mirror.h), white box, in process: the slots swgpud's
 * clients read instead of asking (shared mode's fast path). Every change
 * a waiter looks at must reach the slot — queue completion and failure,
 * context loss, binary payloads NONE/PENDING/SIGNALED, timeline values
 * and submitted points — and a thread asleep on the page's futex must be
 * woken by it. The daemon-side tests (tests/daemon) run the same slots
 * across processes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu.h>

#include "kmd/mirror.h"
#include "util/futex.h"

#define WAIT_NS 10000000000ull

struct fix {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	struct mirror_events ev;
	struct mirror_slot ctx_slot, q_slot, a, b;
};

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	swgpu_config cfg;

	swgpu_config_init(&cfg);
	cfg.debug = false;
	assert_int_equal(swgpu_device_open(&cfg, &f->dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(f->dev, &f->ctx), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(f->ctx, SWGPU_ENGINE_COPY, 0,
	                                    SWGPU_PRIORITY_NORMAL, &f->q),
	                 SWGPU_OK);
	kmd_context_mirror_attach(f->ctx, &f->ctx_slot, &f->ev);
	kmd_queue_mirror_attach(f->q, &f->q_slot, &f->ev);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;

	kmd_queue_mirror_detach(f->q);
	kmd_context_mirror_detach(f->ctx);
	swgpu_queue_destroy(f->q);
	swgpu_context_destroy(f->ctx);
	swgpu_device_close(f->dev);
	free(f);
	return 0;
}

static swgpu_result
submit(struct fix *f, const swgpu_sync_point *w, uint32_t nw,
       const swgpu_sync_point *s, uint32_t ns, uint64_t *seqno)
{
	swgpu_submit_info info = {
		.waits = w, .wait_count = nw, .signals = s, .signal_count = ns,
	};
	return swgpu_submit(f->q, &info, seqno);
}

/* Completion reaches the queue's slot, after the gate opens. */
static void
test_queue_completion(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *gate;
	uint64_t s1, s2;
	uint32_t seq0 = atomic_load(&f->ev.seq);

	assert_int_equal(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE,
	                                      0, &gate), SWGPU_OK);
	swgpu_sync_point w = { .obj = gate, .value = 1 };
	assert_int_equal(submit(f, &w, 1, NULL, 0, &s1), SWGPU_OK);
	assert_int_equal(submit(f, NULL, 0, NULL, 0, &s2), SWGPU_OK);
	assert_int_equal(atomic_load(&f->q_slot.value), 0);
	assert_int_equal(swgpu_syncobj_signal(gate, 1), SWGPU_OK);
	assert_int_equal(swgpu_queue_wait(f->q, s2,
	                                  swgpu_deadline_from_timeout(WAIT_NS)),
	                 SWGPU_OK);
	assert_int_equal(atomic_load(&f->q_slot.value), s2);
	assert_int_equal(atomic_load(&f->q_slot.aux), 0);
	assert_int_equal(atomic_load(&f->q_slot.flags), 0);
	assert_int_equal(atomic_load(&f->ctx_slot.value), SWGPU_CONTEXT_OK);
	assert_true(atomic_load(&f->ev.seq) - seq0 >= 2);
	swgpu_syncobj_destroy(gate);
}

/* Binary payload states, and one mirror per object. */
static void
test_binary_states(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *gate, *bin;
	uint64_t s;

	assert_int_equal(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE,
	                                      0, &gate), SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 0,
	                                      &bin), SWGPU_OK);
	assert_true(kmd_syncobj_mirror_attach(bin, &f->a, &f->ev));
	assert_false(kmd_syncobj_mirror_attach(bin, &f->b, &f->ev));
	assert_int_equal(atomic_load(&f->a.value), MIRROR_BINARY_NONE);
	swgpu_sync_point w = { .obj = gate, .value = 1 };
	swgpu_sync_point sig = { .obj = bin };
	assert_int_equal(submit(f, &w, 1, &sig, 1, &s), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), MIRROR_BINARY_PENDING);
	assert_int_equal(swgpu_syncobj_signal(gate, 1), SWGPU_OK);
	assert_int_equal(swgpu_syncobj_wait(&bin, NULL, 1, 0,
	                                    swgpu_deadline_from_timeout(WAIT_NS),
	                                    NULL), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), MIRROR_BINARY_SIGNALED);
	assert_int_equal(atomic_load(&f->a.flags), 0);
	/* A job's wait consumes it. */
	swgpu_sync_point cw = { .obj = bin };
	assert_int_equal(submit(f, &cw, 1, NULL, 0, &s), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), MIRROR_BINARY_NONE);
	assert_int_equal(swgpu_syncobj_signal(bin, 0), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), MIRROR_BINARY_SIGNALED);
	assert_int_equal(swgpu_syncobj_reset(bin), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), MIRROR_BINARY_NONE);
	kmd_syncobj_mirror_detach(bin, &f->a);
	/* Detached: no more writes to the slot. */
	assert_int_equal(swgpu_syncobj_signal(bin, 0), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), MIRROR_BINARY_NONE);
	assert_true(kmd_syncobj_mirror_attach(bin, &f->b, &f->ev));
	assert_int_equal(atomic_load(&f->b.value), MIRROR_BINARY_SIGNALED);
	kmd_syncobj_mirror_detach(bin, &f->b);
	assert_int_equal(swgpu_queue_wait(f->q, 0,
	                                  swgpu_deadline_from_timeout(WAIT_NS)),
	                 SWGPU_OK);
	swgpu_syncobj_destroy(bin);
	swgpu_syncobj_destroy(gate);
}

/* Timeline value and the largest submitted point. */
static void
test_timeline(void **state)
{
	struct fix *f = *state;
	swgpu_syncobj *gate, *tl;
	uint64_t s;

	assert_int_equal(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE,
	                                      0, &gate), SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE,
	                                      3, &tl), SWGPU_OK);
	assert_true(kmd_syncobj_mirror_attach(tl, &f->a, &f->ev));
	assert_int_equal(atomic_load(&f->a.value), 3);
	swgpu_sync_point w = { .obj = gate, .value = 1 };
	swgpu_sync_point sig = { .obj = tl, .value = 9 };
	assert_int_equal(submit(f, &w, 1, &sig, 1, &s), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.aux), 9);
	assert_int_equal(atomic_load(&f->a.value), 3);
	assert_int_equal(swgpu_syncobj_signal(tl, 5), SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), 5);
	assert_int_equal(swgpu_syncobj_signal(gate, 1), SWGPU_OK);
	assert_int_equal(swgpu_queue_wait(f->q, s,
	                                  swgpu_deadline_from_timeout(WAIT_NS)),
	                 SWGPU_OK);
	assert_int_equal(atomic_load(&f->a.value), 9);
	kmd_syncobj_mirror_detach(tl, &f->a);
	swgpu_syncobj_destroy(tl);
	swgpu_syncobj_destroy(gate);
}

struct sleeper {
	struct fix *f;
	uint32_t seq;
	uint64_t woke_ns;
};

static void *
sleep_on_events(void *p)
{
	struct sleeper *s = p;
	struct fix *f = s->f;
	uint64_t until = swgpu_now_ns() + WAIT_NS;

	atomic_fetch_add(&f->ev.waiters, 1);
	while (atomic_load(&f->ev.seq) == s->seq && swgpu_now_ns() < until)
		futex_wait_shared(&f->ev.seq, s->seq, until);
	atomic_fetch_sub(&f->ev.waiters, 1);
	s->woke_ns = swgpu_now_ns();
	return NULL;
}

/* A sleeper on the event word is woken by a completion; a lost context
 * reaches its slot and its queues' slots. */
static void
test_wake_and_loss(void **state)
{
	struct fix *f = *state;
	struct sleeper s = { .f = f };
	pthread_t t;
	uint64_t t0, seqno;

	s.seq = atomic_load(&f->ev.seq);
	assert_int_equal(pthread_create(&t, NULL, sleep_on_events, &s), 0);
	while (!atomic_load(&f->ev.waiters))
		;
	t0 = swgpu_now_ns();
	assert_int_equal(submit(f, NULL, 0, NULL, 0, &seqno), SWGPU_OK);
	pthread_join(t, NULL);
	assert_true(s.woke_ns - t0 < WAIT_NS / 2);
	assert_true(atomic_load(&f->q_slot.value) >= seqno);

	kmd_context_lose(f->ctx, "test: lost on purpose");
	assert_int_equal(atomic_load(&f->ctx_slot.value),
	                 SWGPU_CONTEXT_GUILTY);
	assert_true(atomic_load(&f->q_slot.flags) & MIRROR_LOST);
	assert_int_equal(swgpu_queue_wait(f->q, seqno,
	                                  swgpu_deadline_from_timeout(WAIT_NS)),
	                 SWGPU_ERR_CONTEXT_LOST);
	assert_int_equal(submit(f, NULL, 0, NULL, 0, NULL),
	                 SWGPU_ERR_CONTEXT_LOST);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_completion),
		cmocka_unit_test(test_binary_states),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_wake_and_loss),
	};
	/* In-process objects only: shared mode's handles are the client's. */
	setenv("SWGPU_MODE", "inproc", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
