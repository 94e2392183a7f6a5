/* SPDX-License-Identifier: MIT */
/*
 * Engines chosen per job and time slices (issue 20), through the public
 * API. A "gated" job is one IB SEM_WAIT on a host word: it keeps its
 * engine busy until the test writes the word, so which job ran while
 * which was still in flight is known without any clock.
 *
 *  - a queue whose engine is busy sends its next job to an idle engine of
 *    the class (both queues created on engine 0, as two VkDevices' queue
 *    0 are);
 *  - a queue with jobs in flight keeps them on one engine, in order: its
 *    later jobs do not overtake them on an idle engine, and each job's
 *    TIMESTAMPs come after the previous job's;
 *  - with one engine, a job of another queue of the same priority gets a
 *    time slice: it completes while the gated job is still running, which
 *    without slices (slice_ms 0) would wait behind it.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api_util.h"

#define JOBS 8u

struct gate {
	struct api_buf buf;     /* word 0: the gate; the rest: scratch */
	struct api_cmd cmd;
};

static void
gate_init(struct gate *g, swgpu_device *dev, swgpu_context *ctx)
{
	api_buf_init(&g->buf, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	assert_non_null(g->buf.cpu);
	memset(g->buf.cpu, 0, 4096);
	api_cmd_init(&g->cmd, dev, ctx, 4096);
}

static void
gate_fini(struct gate *g)
{
	api_cmd_fini(&g->cmd);
	api_buf_fini(&g->buf);
}

/* A job that runs until gate_open: SEM_WAIT on the gate word, after
 * setting word 2 (it started). */
static uint64_t
gate_submit(struct gate *g, swgpu_queue *q, uint64_t value)
{
	uint64_t seqno = 0;

	api_emit_write32(&g->cmd, g->buf.va + 8, 1);
	api_emit_sem_wait(&g->cmd, g->buf.va, value);
	swgpu_ib ib = api_cmd_end(&g->cmd);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &seqno));
	return seqno;
}

/* Wait until the gate job runs on its engine. */
static void
gate_wait_running(struct gate *g)
{
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);

	while (!api_load32(g->buf.cpu + 8) && swgpu_now_ns() < deadline)
		usleep(100);
	assert_int_equal(api_load32(g->buf.cpu + 8), 1);
}

static void
gate_open(struct gate *g, uint64_t value)
{
	api_store64(g->buf.cpu, value);
}

static void
config(swgpu_config *cfg, uint32_t compute_engines, uint32_t slice_ms)
{
	api_config_small(cfg);
	cfg->engine_count[SWGPU_ENGINE_COMPUTE] = compute_engines;
	cfg->slice_ms = slice_ms;
}

/* Job i: TIMESTAMP at its start and end into slots 2i, 2i+1, and the
 * marker i + 1 at word 511. */
static uint64_t
stamp_submit(struct api_cmd *c, struct api_buf *b, swgpu_queue *q,
             uint32_t i)
{
	uint64_t seqno = 0;

	api_emit_timestamp(c, b->va + 16u * i);
	api_emit_write32(c, b->va + 4088, i + 1u);
	api_emit_timestamp(c, b->va + 16u * i + 8u);
	swgpu_ib ib = api_cmd_end(c);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &seqno));
	return seqno;
}

static void
test_busy_queue_goes_to_idle_engine(void **state)
{
	(void)state;
	swgpu_config cfg;
	config(&cfg, 2, 0);
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ca = NULL, *cb = NULL;
	api_ok(swgpu_context_create(dev, &ca));
	api_ok(swgpu_context_create(dev, &cb));
	uint32_t e0 = api_engine(dev, SWGPU_ENGINE_COMPUTE, 0);
	uint32_t e1 = api_engine(dev, SWGPU_ENGINE_COMPUTE, 1);
	/* Both on engine 0, like two VkDevices' queue 0. */
	swgpu_queue *qa = api_queue(ca, SWGPU_ENGINE_COMPUTE, 0);
	swgpu_queue *qb = api_queue(cb, SWGPU_ENGINE_COMPUTE, 0);
	assert_int_equal(swgpu_queue_engine(qa), e0);
	assert_int_equal(swgpu_queue_engine(qb), e0);

	struct gate g;
	gate_init(&g, dev, ca);
	uint64_t sa = gate_submit(&g, qa, 1);

	struct api_cmd c;
	struct api_buf out;
	api_cmd_init(&c, dev, cb, 1024);
	api_buf_init(&out, dev, cb, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	uint64_t sb = stamp_submit(&c, &out, qb, 0);
	api_ok(swgpu_queue_wait(qb, sb, api_deadline_ms(API_WAIT_MS)));
	/* B ran on the idle engine while A still holds engine 0. */
	assert_int_equal(api_load32(out.cpu + 4088), 1);
	assert_int_equal(swgpu_queue_engine(qb), e1);
	assert_int_equal(swgpu_queue_engine(qa), e0);
	assert_true(swgpu_queue_completed(qa) < sa);

	gate_open(&g, 1);
	api_ok(swgpu_queue_wait(qa, sa, api_deadline_ms(API_WAIT_MS)));
	api_buf_fini(&out);
	api_cmd_fini(&c);
	gate_fini(&g);
	swgpu_queue_destroy(qa);
	swgpu_queue_destroy(qb);
	swgpu_context_destroy(ca);
	swgpu_context_destroy(cb);
	swgpu_device_close(dev);
}

static void
test_in_flight_jobs_stay_in_order(void **state)
{
	(void)state;
	swgpu_config cfg;
	config(&cfg, 2, 0);
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *cg = NULL, *cq = NULL;
	api_ok(swgpu_context_create(dev, &cg));
	api_ok(swgpu_context_create(dev, &cq));
	uint32_t e1 = api_engine(dev, SWGPU_ENGINE_COMPUTE, 1);
	swgpu_queue *g0 = api_queue(cg, SWGPU_ENGINE_COMPUTE, 0);
	swgpu_queue *g1 = api_queue(cg, SWGPU_ENGINE_COMPUTE, 1);
	swgpu_queue *q = api_queue(cq, SWGPU_ENGINE_COMPUTE, 0);
	struct gate ga, gb;
	gate_init(&ga, dev, cg);
	gate_init(&gb, dev, cg);
	struct api_cmd c;
	struct api_buf out;
	api_cmd_init(&c, dev, cq, 4096);
	api_buf_init(&out, dev, cq, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	uint64_t seq[JOBS];

	/* Engine 0 held: q's first job goes to engine 1. */
	uint64_t s0 = gate_submit(&ga, g0, 1);
	seq[0] = stamp_submit(&c, &out, q, 0);
	api_ok(swgpu_queue_wait(q, seq[0], api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(swgpu_queue_engine(q), e1);

	/* Engine 1 held too (its queue's engine was idle: it stays), and
	 * q's next jobs queue behind the gated job there. */
	uint64_t s1 = gate_submit(&gb, g1, 1);
	assert_int_equal(swgpu_queue_engine(g1), e1);
	/* Each queue has a ring of its own: without slices the engine
	 * switches rings only between jobs, so once the gated job runs,
	 * q's jobs wait in theirs. */
	gate_wait_running(&gb);
	for (uint32_t i = 1; i < JOBS / 2; i++)
		seq[i] = stamp_submit(&c, &out, q, i);
	/* Engine 0 becomes idle; q has jobs in flight on engine 1, so its
	 * later jobs must not start there ahead of them. */
	gate_open(&ga, 1);
	api_ok(swgpu_queue_wait(g0, s0, api_deadline_ms(API_WAIT_MS)));
	for (uint32_t i = JOBS / 2; i < JOBS; i++)
		seq[i] = stamp_submit(&c, &out, q, i);
	assert_int_equal(swgpu_queue_engine(q), e1);
	assert_int_equal(swgpu_queue_completed(q), seq[0]);
	assert_int_equal(api_load32(out.cpu + 4088), 1);

	gate_open(&gb, 1);
	api_ok(swgpu_queue_wait(q, seq[JOBS - 1],
	                        api_deadline_ms(API_WAIT_MS)));
	api_ok(swgpu_queue_wait(g1, s1, api_deadline_ms(API_WAIT_MS)));
	/* Submission order: each job started after the previous ended,
	 * and the last marker is the last job's. */
	const uint64_t *ts = (const uint64_t *)out.cpu;
	for (uint32_t i = 0; i < JOBS; i++) {
		assert_true(ts[2 * i] != 0);
		assert_true(ts[2 * i] <= ts[2 * i + 1]);
		if (i)
			assert_true(ts[2 * i - 1] <= ts[2 * i]);
	}
	assert_int_equal(api_load32(out.cpu + 4088), JOBS);

	api_buf_fini(&out);
	api_cmd_fini(&c);
	gate_fini(&ga);
	gate_fini(&gb);
	swgpu_queue_destroy(q);
	swgpu_queue_destroy(g0);
	swgpu_queue_destroy(g1);
	swgpu_context_destroy(cg);
	swgpu_context_destroy(cq);
	swgpu_device_close(dev);
}

static void
test_time_slice_on_one_engine(void **state)
{
	(void)state;
	swgpu_config cfg;
	config(&cfg, 1, 2);
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ca = NULL, *cb = NULL;
	api_ok(swgpu_context_create(dev, &ca));
	api_ok(swgpu_context_create(dev, &cb));
	uint32_t e0 = api_engine(dev, SWGPU_ENGINE_COMPUTE, 0);
	swgpu_queue *qa = api_queue(ca, SWGPU_ENGINE_COMPUTE, 0);
	swgpu_queue *qb = api_queue(cb, SWGPU_ENGINE_COMPUTE, 0);
	struct gate g;
	gate_init(&g, dev, ca);
	struct api_cmd c;
	struct api_buf out;
	api_cmd_init(&c, dev, cb, 4096);
	api_buf_init(&out, dev, cb, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	swgpu_engine_stats before, after;
	api_ok(swgpu_engine_query_stats(dev, e0, &before));

	uint64_t sa = gate_submit(&g, qa, 1);
	/* Same priority: B's jobs each get a slice of the engine A holds,
	 * and complete one after the other while A still waits: the first
	 * (its length unknown) in its own main HWQ when the engine rotates
	 * to it, the next ones (known short) by preempting from HWQ 1. */
	for (uint32_t i = 0; i < 4; i++) {
		uint64_t sb = stamp_submit(&c, &out, qb, i);
		api_ok(swgpu_queue_wait(qb, sb,
		                        api_deadline_ms(API_WAIT_MS)));
		assert_int_equal(api_load32(out.cpu + 4088), i + 1u);
		assert_true(swgpu_queue_completed(qa) < sa);
	}
	api_ok(swgpu_engine_query_stats(dev, e0, &after));
	assert_true(after.preempt_jobs - before.preempt_jobs >= 3);
	assert_true(after.preemptions > before.preemptions);

	gate_open(&g, 1);
	api_ok(swgpu_queue_wait(qa, sa, api_deadline_ms(API_WAIT_MS)));
	api_buf_fini(&out);
	api_cmd_fini(&c);
	gate_fini(&g);
	swgpu_queue_destroy(qa);
	swgpu_queue_destroy(qb);
	swgpu_context_destroy(ca);
	swgpu_context_destroy(cb);
	swgpu_device_close(dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_queue_goes_to_idle_engine),
		cmocka_unit_test(test_in_flight_jobs_stay_in_order),
		cmocka_unit_test(test_time_slice_on_one_engine),
	};

	api_apply_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
