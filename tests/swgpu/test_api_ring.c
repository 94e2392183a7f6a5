/* SPDX-License-Identifier: MIT */
/*
 * Ring wrap-around, full and empty: a device with the smallest ring (4 KiB
 * per engine) runs thousands of jobs on one and on many queues. Every job
 * leaves data behind that proves it ran, ran once, and ran in order; a
 * monitor thread checks that swgpu_queue_completed() never goes backwards
 * or past what was submitted.
 */
#include "api_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_Q 8

/* The monitor samples every queue's completed seqno concurrently with
 * submission and completion. */
struct monitor {
	swgpu_queue *q[MAX_Q];
	uint32_t nq;
	_Atomic uint64_t submitted[MAX_Q]; /* highest seqno handed out */
	_Atomic int stop;
	_Atomic uint64_t samples;
	_Atomic int bad;                   /* first violation, 0: none */
	uint64_t bad_q, bad_prev, bad_now;
};

static void *
monitor_main(void *arg)
{
	struct monitor *m = arg;
	uint64_t last[MAX_Q] = { 0 };
	int stop;
	do {
		/* Sample once more after stop: at least one full pass even
		 * when this thread was not scheduled during the run. */
		stop = m->stop;
		for (uint32_t i = 0; i < m->nq; i++) {
			/* Read completed first: it can never exceed a
			 * submitted count read after it. */
			uint64_t c = swgpu_queue_completed(m->q[i]);
			uint64_t sub = m->submitted[i];
			int why = c < last[i] ? 1 : c > sub ? 2 : 0;
			if (why && !m->bad) {
				m->bad_q = i;
				m->bad_prev = last[i];
				m->bad_now = c;
				m->bad = why;
			}
			last[i] = c;
		}
		m->samples++;
	} while (!stop);
	return NULL;
}

struct ringfix {
	swgpu_device *dev;
	swgpu_context *ctx;
};

static int
setup(void **state)
{
	static struct ringfix f;
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.ring_size = 4096;
	if (swgpu_device_open(&cfg, &f.dev) != SWGPU_OK)
		return -1;
	swgpu_device_info info;
	swgpu_device_query_info(f.dev, &info);
	if (info.ring_size != 4096)
		return -1;
	if (swgpu_context_create(f.dev, &f.ctx) != SWGPU_OK)
		return -1;
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct ringfix *f = *state;
	swgpu_context_destroy(f->ctx);
	swgpu_device_close(f->dev);
	return 0;
}

/*
 * N jobs on nq queues, round-robin. Job j of queue q (1-based) does:
 *   COPY  last[q] -> log[q][j]     (what its predecessor left: j-1)
 *   WRITE slot[q][j] = tag(q, j)
 *   WRITE last[q] = j
 * so log proves in-order execution with each job seeing the previous
 * one's completed writes, and slot proves every job ran exactly where it
 * should. extra_ibs > 0 adds that many more small IBs per job (varying),
 * which eats ring space faster and wraps inside a job's ring packets.
 */
static void
run_jobs(struct ringfix *f, const swgpu_queue *const *qs, uint32_t nq,
         uint32_t per_q, uint32_t extra_ibs)
{
	struct api_buf slots, logb, last;
	struct api_cmd cmd;
	uint64_t slot_bytes = (uint64_t)nq * (per_q + 1) * 4;
	api_buf_init(&slots, f->dev, f->ctx, slot_bytes, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
	api_buf_init(&logb, f->dev, f->ctx, slot_bytes, SWGPU_HEAP_VRAM,
	             SWGPU_BO_BAR, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&last, f->dev, f->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	uint32_t per_job_dw = SWGPU_LEN_COPY + 2 * SWGPU_LEN_WRITE_DATA(1) +
	                      extra_ibs * (SWGPU_LEN_WRITE_DATA(1) + 2);
	api_cmd_init(&cmd, f->dev, f->ctx, nq * per_q * per_job_dw + 64);

	struct monitor *m = calloc(1, sizeof(*m));
	assert_non_null(m);
	m->nq = nq;
	for (uint32_t i = 0; i < nq; i++)
		m->q[i] = (swgpu_queue *)qs[i];
	pthread_t mon;
	assert_int_equal(pthread_create(&mon, NULL, monitor_main, m), 0);

	swgpu_ib *ibs = calloc(extra_ibs + 2, sizeof(*ibs));
	assert_non_null(ibs);
	uint64_t slot_base[MAX_Q], prev_done[MAX_Q] = { 0 };
	for (uint32_t q = 0; q < nq; q++)
		slot_base[q] = (uint64_t)q * (per_q + 1) * 4;

	for (uint32_t j = 1; j <= per_q; j++) {
		for (uint32_t q = 0; q < nq; q++) {
			uint64_t off = slot_base[q] + (uint64_t)j * 4;
			api_emit_copy(&cmd, logb.va + off, last.va + q * 4, 4);
			api_emit_write32(&cmd, slots.va + off,
			                 0xa0000000u | q << 24 | j);
			uint32_t n = 1;
			/* Extra IBs between the two writes: a nop-padded
			 * no-op-ish IB that rewrites the slot (same value). */
			uint32_t extra =
				extra_ibs ? (j * 7 + q) % (extra_ibs + 1) : 0;
			ibs[0] = api_cmd_end(&cmd);
			for (uint32_t k = 0; k < extra; k++) {
				api_emit_nop(&cmd, 1 + (k & 1));
				api_emit_write32(&cmd, slots.va + off,
				                 0xa0000000u | q << 24 | j);
				ibs[n++] = api_cmd_end(&cmd);
			}
			api_emit_write32(&cmd, last.va + q * 4, j);
			ibs[n++] = api_cmd_end(&cmd);

			swgpu_submit_info si = { .ibs = ibs, .ib_count = n };
			uint64_t seqno = 0;
			m->submitted[q] = j;
			api_ok(swgpu_submit((swgpu_queue *)qs[q], &si, &seqno));
			assert_true(seqno == j);
			/* Completion is in order and never ahead of
			 * submission. */
			uint64_t c = swgpu_queue_completed(qs[q]);
			assert_true(c <= j);
			assert_true(c >= prev_done[q]);
			prev_done[q] = c;
		}
	}
	for (uint32_t q = 0; q < nq; q++) {
		api_queue_idle((swgpu_queue *)qs[q]);
		assert_true(swgpu_queue_completed(qs[q]) == per_q);
	}
	m->stop = 1;
	pthread_join(mon, NULL);
	if (m->bad)
		fail_msg("queue %llu completed %s: %llu -> %llu",
		         (unsigned long long)m->bad_q,
		         m->bad == 1 ? "went back" : "passed submitted",
		         (unsigned long long)m->bad_prev,
		         (unsigned long long)m->bad_now);
	assert_true(m->samples > 0);

	const uint32_t *s = (const uint32_t *)slots.cpu;
	const uint32_t *l = (const uint32_t *)logb.cpu;
	for (uint32_t q = 0; q < nq; q++) {
		const uint32_t *sq = s + slot_base[q] / 4;
		const uint32_t *lq = l + slot_base[q] / 4;
		for (uint32_t j = 1; j <= per_q; j++) {
			if (sq[j] != (0xa0000000u | q << 24 | j))
				fail_msg("queue %u job %u: slot %#x", q, j,
				         sq[j]);
			if (lq[j] != j - 1)
				fail_msg("queue %u job %u saw predecessor %u",
				         q, j, lq[j]);
		}
		assert_int_equal(api_load32(last.cpu + q * 4), per_q);
	}
	free(m);
	free(ibs);
	api_cmd_fini(&cmd);
	api_buf_fini(&last);
	api_buf_fini(&logb);
	api_buf_fini(&slots);
}

static void
test_one_queue_wraps(void **state)
{
	struct ringfix *f = *state;
	swgpu_queue *q = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 0);
	assert_true(swgpu_queue_completed(q) == 0);
	/* ~4000 jobs through a 4 KiB ring: it wraps dozens of times. */
	run_jobs(f, (const swgpu_queue *const *)&q, 1, 4000, 0);
	swgpu_queue_destroy(q);
}

static void
test_many_queues_wrap(void **state)
{
	struct ringfix *f = *state;
	swgpu_queue *qs[8];
	/* Two queues on each of the four engines: queues share rings. */
	for (uint32_t i = 0; i < 8; i++)
		qs[i] = api_queue(f->ctx,
		                  (i & 2) ? SWGPU_ENGINE_COPY
		                          : SWGPU_ENGINE_COMPUTE,
		                  i & 1);
	run_jobs(f, (const swgpu_queue *const *)qs, 8, 1000, 0);
	for (uint32_t i = 0; i < 8; i++)
		swgpu_queue_destroy(qs[i]);
}

/* Jobs of up to 17 IBs each: big ring footprints, back-pressure on every
 * few jobs, and wraps in the middle of a job. */
static void
test_big_jobs_backpressure(void **state)
{
	struct ringfix *f = *state;
	swgpu_queue *qs[2] = {
		api_queue(f->ctx, SWGPU_ENGINE_COPY, 0),
		api_queue(f->ctx, SWGPU_ENGINE_COPY, 0),
	};
	run_jobs(f, (const swgpu_queue *const *)qs, 2, 1500, 16);
	swgpu_queue_destroy(qs[0]);
	swgpu_queue_destroy(qs[1]);
}

/* A job bigger than what fits in one ring's worth of IB packets must
 * either be accepted and run, or be refused with a real error; never
 * hang or corrupt the ring. Afterwards the queue still works. */
static void
test_oversized_job(void **state)
{
	struct ringfix *f = *state;
	swgpu_queue *q = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 1);
	struct api_buf dst;
	struct api_cmd cmd;
	const uint32_t n = 2048; /* 2048 IB packets: > 4 KiB of ring */
	api_buf_init(&dst, f->dev, f->ctx, n * 4, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
	api_cmd_init(&cmd, f->dev, f->ctx, n * 8 + 64);
	swgpu_ib *ibs = calloc(n, sizeof(*ibs));
	assert_non_null(ibs);
	for (uint32_t i = 0; i < n; i++) {
		api_emit_write32(&cmd, dst.va + i * 4, i ^ 0x5555);
		ibs[i] = api_cmd_end(&cmd);
	}
	swgpu_submit_info si = { .ibs = ibs, .ib_count = n };
	swgpu_result r = swgpu_submit(q, &si, NULL);
	if (r == SWGPU_OK) {
		api_queue_idle(q);
		for (uint32_t i = 0; i < n; i++)
			assert_int_equal(((uint32_t *)dst.cpu)[i], i ^ 0x5555);
	} else {
		/* Refused: a documented error, nothing ran. */
		assert_true(r == SWGPU_ERR_INVALID_ARG ||
		            r == SWGPU_ERR_UNSUPPORTED);
		assert_int_equal(api_find_byte_mismatch(dst.cpu, n * 4, 0),
		                 n * 4);
	}
	assert_int_equal(swgpu_context_query_state(f->ctx, NULL),
	                 SWGPU_CONTEXT_OK);
	/* The queue still runs small jobs. */
	api_cmd_reset(&cmd);
	api_emit_write32(&cmd, dst.va, 0xfeed);
	swgpu_ib ib = api_cmd_end(&cmd);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q);
	assert_int_equal(api_load32(dst.cpu), 0xfeed);
	free(ibs);
	api_cmd_fini(&cmd);
	api_buf_fini(&dst);
	swgpu_queue_destroy(q);
}

/* Empty ring: an idle queue completes a sync-only job and reports it;
 * queue_wait on an already-done seqno returns at once. */
static void
test_empty_and_sync_only(void **state)
{
	struct ringfix *f = *state;
	swgpu_queue *q = api_queue(f->ctx, SWGPU_ENGINE_COPY, 1);
	api_ok(swgpu_queue_wait(q, 0, api_deadline_ms(1000)));
	uint64_t s = 0;
	for (uint32_t i = 1; i <= 300; i++) {
		api_ok(api_submit(q, NULL, NULL, 0, NULL, 0, &s));
		assert_true(s == i);
	}
	api_ok(swgpu_queue_wait(q, 300, api_deadline_ms(API_WAIT_MS)));
	assert_true(swgpu_queue_completed(q) == 300);
	uint64_t t0 = swgpu_now_ns();
	api_ok(swgpu_queue_wait(q, 17, 0)); /* past deadline, but done */
	assert_true(swgpu_now_ns() - t0 < 1000000000ull);
	swgpu_queue_destroy(q);
}


/* The ring is full and the engine stalled (SEM_WAIT on a host word):
 * swgpu_submit still returns at once (jobs wait in the scheduler, not in
 * the submitter), and everything runs in order once released. */
static void
test_submit_does_not_block_on_full_ring(void **state)
{
	struct ringfix *f = *state;
	const uint32_t n = 3000;
	swgpu_queue *q = api_queue(f->ctx, SWGPU_ENGINE_COPY, 1);
	struct api_buf gate, out;
	struct api_cmd cmd;
	api_buf_init(&gate, f->dev, f->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_buf_init(&out, f->dev, f->ctx, (n + 1) * 4, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, f->dev, f->ctx, n * 16 + 64);
	api_emit_sem_wait(&cmd, gate.va, 1);
	swgpu_ib stall = api_cmd_end(&cmd);
	api_ok(api_submit(q, &stall, NULL, 0, NULL, 0, NULL));
	uint64_t t0 = swgpu_now_ns();
	for (uint32_t i = 1; i <= n; i++) {
		/* out[i] = out[0] (the previous job's id); out[0] = i */
		api_emit_copy(&cmd, out.va + i * 4, out.va, 4);
		api_emit_write32(&cmd, out.va, i);
		swgpu_ib ib = api_cmd_end(&cmd);
		api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	}
	uint64_t dt = swgpu_now_ns() - t0;
	print_message("%u submits behind a stalled engine: %.1f ms\n", n,
	              dt / 1e6);
	assert_true(dt < 10ull * 1000 * 1000 * 1000);
	assert_true(swgpu_queue_completed(q) == 0); /* stall is job 1 */
	assert_int_equal(api_load32(out.cpu), 0);
	api_store64(gate.cpu, 1);
	api_queue_idle(q);
	assert_true(swgpu_queue_completed(q) == n + 1);
	const uint32_t *o = (const uint32_t *)out.cpu;
	for (uint32_t i = 1; i <= n; i++)
		assert_int_equal(o[i], i - 1);
	assert_int_equal(o[0], n);
	api_cmd_fini(&cmd);
	api_buf_fini(&out);
	api_buf_fini(&gate);
	swgpu_queue_destroy(q);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_sync_only),
		cmocka_unit_test(test_one_queue_wraps),
		cmocka_unit_test(test_many_queues_wrap),
		cmocka_unit_test(test_big_jobs_backpressure),
		cmocka_unit_test(test_oversized_job),
		cmocka_unit_test(test_submit_does_not_block_on_full_ring),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
