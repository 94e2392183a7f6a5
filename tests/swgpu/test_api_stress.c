/* SPDX-License-Identifier: MIT */
/*
 * Stress: 10,000 jobs over 4 queues (2 copy, 2 compute engines) with
 * random cross-queue timeline dependencies. Every job copies words from
 * the slot of the job it depends on into its own slot and then writes its
 * own tag, so a dependency that was not respected shows up as a wrong
 * word, and the chains of copies (3 levels deep) must match what the host
 * computes. Once from one submitting thread, once from four.
 */
#include "api_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NQ 4u
#define NJOBS 10000u
#define SLOT_DW 8u
/* Dependencies are picked among the last WINDOW jobs, so they are often
 * still pending or running when the dependent job is submitted. */
#define WINDOW 64u

/*
 * Slot of a job (8 dwords):
 *   [0]    tag = global index + 1, written last
 *   [1..3] copy of dep's [0..2]         (0 if no dep)
 *   [4]    copy of previous job of the same queue's [0]  (0 if first)
 *   [5]    copy of dep2's [0]          (0 if no dep2)
 */
struct job_desc {
	uint32_t q;
	uint64_t point;     /* its signal on tl[q] */
	int32_t dep, dep2;  /* global indices, -1: none */
	int32_t prev;       /* previous job of the same queue, -1: none */
};

struct stress {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q[NQ];
	swgpu_syncobj *tl[NQ];
	struct api_buf slots;
	struct job_desc *jobs;
	uint32_t njobs;
};

static void
stress_init(struct stress *s, uint32_t njobs)
{
	memset(s, 0, sizeof(*s));
	swgpu_config cfg;
	api_config_small(&cfg);
	s->dev = api_open(&cfg);
	api_ok(swgpu_context_create(s->dev, &s->ctx));
	for (uint32_t i = 0; i < NQ; i++) {
		s->q[i] = api_queue(s->ctx,
		                    i < 2 ? SWGPU_ENGINE_COPY
		                          : SWGPU_ENGINE_COMPUTE,
		                    i & 1);
		api_ok(swgpu_syncobj_create(s->dev, SWGPU_SYNCOBJ_TIMELINE, 0,
		                            &s->tl[i]));
	}
	/* Four distinct engines. */
	for (uint32_t i = 0; i < NQ; i++)
		for (uint32_t j = 0; j < i; j++)
			assert_int_not_equal(swgpu_queue_engine(s->q[i]),
			                     swgpu_queue_engine(s->q[j]));
	s->njobs = njobs;
	api_buf_init(&s->slots, s->dev, s->ctx, (uint64_t)njobs * SLOT_DW * 4,
	             SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	s->jobs = calloc(njobs, sizeof(*s->jobs));
	assert_non_null(s->jobs);
}

static void
stress_fini(struct stress *s)
{
	free(s->jobs);
	api_buf_fini(&s->slots);
	for (uint32_t i = 0; i < NQ; i++) {
		swgpu_queue_destroy(s->q[i]);
		swgpu_syncobj_destroy(s->tl[i]);
	}
	swgpu_context_destroy(s->ctx);
	swgpu_device_close(s->dev);
}

/* Record job g's packets into c; returns the IB. No cmocka asserts
 * (called from worker threads too): the arena is sized by the caller. */
static swgpu_ib
emit_job(struct stress *s, struct api_cmd *c, uint32_t g)
{
	const struct job_desc *j = &s->jobs[g];
	uint64_t slot = s->slots.va + (uint64_t)g * SLOT_DW * 4;
	uint64_t base = s->slots.va;
	if (j->dep >= 0)
		api_emit_copy(c, slot + 4,
		              base + (uint64_t)j->dep * SLOT_DW * 4, 12);
	if (j->prev >= 0)
		api_emit_copy(c, slot + 16,
		              base + (uint64_t)j->prev * SLOT_DW * 4, 4);
	if (j->dep2 >= 0)
		api_emit_copy(c, slot + 20,
		              base + (uint64_t)j->dep2 * SLOT_DW * 4, 4);
	api_emit_write32(c, slot, g + 1);
	return api_cmd_end(c);
}

static uint32_t
fill_waits(struct stress *s, uint32_t g, swgpu_sync_point *w)
{
	const struct job_desc *j = &s->jobs[g];
	uint32_t n = 0;
	if (j->dep >= 0)
		w[n++] = (swgpu_sync_point){ s->tl[s->jobs[j->dep].q],
		                             s->jobs[j->dep].point, 0 };
	if (j->dep2 >= 0)
		w[n++] = (swgpu_sync_point){ s->tl[s->jobs[j->dep2].q],
		                             s->jobs[j->dep2].point, 0 };
	return n;
}

/* Host model of the slots, then compare every word. */
static void
stress_verify(struct stress *s)
{
	uint32_t *want = calloc((size_t)s->njobs * SLOT_DW, 4);
	assert_non_null(want);
	/* Jobs only depend on jobs with a smaller global index within the
	 * dependency order each test builds, so one pass in the order the
	 * test recorded (dep < g) computes the model. */
	for (uint32_t g = 0; g < s->njobs; g++) {
		const struct job_desc *j = &s->jobs[g];
		uint32_t *w = want + (size_t)g * SLOT_DW;
		w[0] = g + 1;
		if (j->dep >= 0)
			memcpy(w + 1, want + (size_t)j->dep * SLOT_DW, 12);
		if (j->prev >= 0)
			w[4] = (uint32_t)j->prev + 1;
		if (j->dep2 >= 0)
			w[5] = (uint32_t)j->dep2 + 1;
	}
	const uint32_t *got = (const uint32_t *)s->slots.cpu;
	uint32_t bad = 0;
	for (uint32_t g = 0; g < s->njobs; g++) {
		for (uint32_t k = 0; k < SLOT_DW; k++) {
			size_t i = (size_t)g * SLOT_DW + k;
			if (got[i] != want[i] && bad++ < 10)
				print_error("job %u word %u: got %u want %u "
				            "(q %u dep %d dep2 %d prev %d)\n",
				            g, k, got[i], want[i],
				            s->jobs[g].q, s->jobs[g].dep,
				            s->jobs[g].dep2, s->jobs[g].prev);
		}
	}
	free(want);
	if (bad)
		fail_msg("%u slot words wrong", bad);
}

static void
wait_all_timelines(struct stress *s, const uint64_t *last)
{
	api_ok(swgpu_syncobj_wait(s->tl, last, NQ, SWGPU_WAIT_ALL,
	                          api_deadline_ms(120000), NULL));
	for (uint32_t i = 0; i < NQ; i++) {
		uint64_t v;
		api_ok(swgpu_syncobj_query(s->tl[i], &v));
		assert_true(v == last[i]);
		assert_true(swgpu_queue_completed(s->q[i]) == last[i]);
	}
	assert_int_equal(swgpu_context_query_state(s->ctx, NULL),
	                 SWGPU_CONTEXT_OK);
}

/* Pick a random earlier job (global index < g, within WINDOW) on a
 * queue other than q; -1 if none found. */
static int32_t
pick_dep(struct stress *s, uint32_t g, uint32_t q, uint64_t *rng)
{
	if (g == 0)
		return -1;
	for (int tries = 0; tries < 8; tries++) {
		uint32_t span = g < WINDOW ? g : WINDOW;
		uint32_t d = g - 1 - (uint32_t)(api_rand(rng) % span);
		if (s->jobs[d].q != q)
			return (int32_t)d;
	}
	return -1;
}

static void
test_stress_single_submitter(void **state)
{
	struct stress s;
	stress_init(&s, NJOBS);
	uint64_t rng = 0x5eed1234abcdull;
	uint64_t count[NQ] = { 0 };
	int32_t last_of_q[NQ] = { -1, -1, -1, -1 };
	uint64_t t0 = swgpu_now_ns();

	for (uint32_t g = 0; g < NJOBS; g++) {
		struct job_desc *j = &s.jobs[g];
		j->q = (uint32_t)(api_rand(&rng) % NQ);
		j->point = ++count[j->q];
		j->prev = last_of_q[j->q];
		last_of_q[j->q] = (int32_t)g;
		j->dep = (api_rand(&rng) % 10) ? pick_dep(&s, g, j->q, &rng)
		                               : -1;
		j->dep2 = (api_rand(&rng) % 3) ? -1
		                               : pick_dep(&s, g, j->q, &rng);
	}
	struct api_cmd cmd;
	api_cmd_init(&cmd, s.dev, s.ctx, NJOBS * 32);
	for (uint32_t g = 0; g < NJOBS; g++) {
		swgpu_ib ib = emit_job(&s, &cmd, g);
		swgpu_sync_point w[2];
		uint32_t nw = fill_waits(&s, g, w);
		swgpu_sync_point sig = { s.tl[s.jobs[g].q], s.jobs[g].point,
		                         0 };
		uint64_t seqno = 0;
		api_ok(api_submit(s.q[s.jobs[g].q], &ib, w, nw, &sig, 1,
		                  &seqno));
		assert_true(seqno == s.jobs[g].point);
	}
	wait_all_timelines(&s, count);
	uint64_t dt = swgpu_now_ns() - t0;
	print_message("10000 jobs, 1 submitter: %.1f ms (%.1f us/job)\n",
	              dt / 1e6, dt / 1e3 / NJOBS);
	stress_verify(&s);

	/* Every engine did a share of the work, and the counters agree. */
	uint64_t total = 0;
	for (uint32_t i = 0; i < NQ; i++) {
		swgpu_engine_stats st;
		api_ok(swgpu_engine_query_stats(s.dev,
		                                swgpu_queue_engine(s.q[i]),
		                                &st));
		assert_true(st.jobs_completed == count[i]);
		assert_true(st.jobs_failed == 0);
		assert_true(st.bytes_written >= 4 * count[i]);
		total += st.jobs_completed;
	}
	assert_true(total == NJOBS);
	api_cmd_fini(&cmd);
	stress_fini(&s);
}

/*
 * Four submitting threads, one per queue. Thread q's k-th job (1-based)
 * has global index q * per_q + k - 1 and depends on a point of another
 * queue that was already submitted (its thread published it), so the
 * dependency graph is acyclic whatever the interleaving.
 */
struct worker {
	struct stress *s;
	uint32_t q, per_q;
	_Atomic uint64_t *published; /* [NQ]: last submitted point */
	uint64_t seed;
	uint32_t errors;
	swgpu_result first_err;
	struct api_cmd *cmd;
};

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct stress *s = w->s;
	for (uint32_t k = 1; k <= w->per_q; k++) {
		uint32_t g = w->q * w->per_q + k - 1;
		struct job_desc *j = &s->jobs[g];
		j->q = w->q;
		j->point = k;
		j->prev = k > 1 ? (int32_t)g - 1 : -1;
		j->dep = j->dep2 = -1;
		for (int d = 0; d < 2; d++) {
			uint64_t hop = 1 + api_rand(&w->seed) % (NQ - 1);
			uint32_t oq = (uint32_t)((w->q + hop) % NQ);
			uint64_t pub = w->published[oq];
			if (pub == 0 || (d == 1 && api_rand(&w->seed) % 2))
				continue;
			uint64_t span = pub < WINDOW ? pub : WINDOW;
			uint64_t p = pub - api_rand(&w->seed) % span;
			int32_t dg = (int32_t)(oq * w->per_q + p - 1);
			if (d == 0)
				j->dep = dg;
			else if (dg != j->dep)
				j->dep2 = dg;
		}
		swgpu_ib ib = emit_job(s, w->cmd, g);
		swgpu_sync_point wt[2];
		uint32_t nw = fill_waits(s, g, wt);
		swgpu_sync_point sig = { s->tl[w->q], k, 0 };
		uint64_t seqno = 0;
		swgpu_result r = api_submit(s->q[w->q], &ib, wt, nw, &sig, 1,
		                            &seqno);
		if (r != SWGPU_OK || seqno != k) {
			if (!w->errors++)
				w->first_err = r;
			break;
		}
		/* Publish after the submit: others may now wait on k. The
		 * job_desc writes above happen-before via this store. */
		w->published[w->q] = k;
	}
	return NULL;
}

static void
test_stress_four_submitters(void **state)
{
	struct stress s;
	const uint32_t per_q = NJOBS / NQ;
	stress_init(&s, per_q * NQ);
	_Atomic uint64_t published[NQ];
	struct api_cmd cmd[NQ];
	struct worker w[NQ];
	pthread_t th[NQ];
	for (uint32_t i = 0; i < NQ; i++) {
		published[i] = 0;
		api_cmd_init(&cmd[i], s.dev, s.ctx, per_q * 32);
	}
	uint64_t t0 = swgpu_now_ns();
	for (uint32_t i = 0; i < NQ; i++) {
		w[i] = (struct worker){ .s = &s, .q = i, .per_q = per_q,
		                        .published = published,
		                        .seed = 0x1234567ull * (i + 1),
		                        .cmd = &cmd[i] };
		assert_int_equal(pthread_create(&th[i], NULL, worker_main,
		                                &w[i]), 0);
	}
	for (uint32_t i = 0; i < NQ; i++)
		pthread_join(th[i], NULL);
	for (uint32_t i = 0; i < NQ; i++)
		if (w[i].errors)
			fail_msg("submitter %u: %s", i,
			         swgpu_result_str(w[i].first_err));
	uint64_t last[NQ] = { per_q, per_q, per_q, per_q };
	wait_all_timelines(&s, last);
	uint64_t dt = swgpu_now_ns() - t0;
	print_message("%u jobs, 4 submitters: %.1f ms\n", per_q * NQ,
	              dt / 1e6);
	/* The model needs deps computed before dependents: order the pass
	 * by... any topological order. Jobs of a queue are in index order,
	 * but a dep may have a larger global index. Evaluate lazily. */
	uint32_t *want = calloc((size_t)s.njobs * SLOT_DW, 4);
	uint8_t *done = calloc(s.njobs, 1);
	uint32_t *stack = calloc(s.njobs, 4);
	assert_non_null(want);
	assert_non_null(done);
	assert_non_null(stack);
	for (uint32_t g0 = 0; g0 < s.njobs; g0++) {
		uint32_t sp = 0;
		if (done[g0])
			continue;
		stack[sp++] = g0;
		while (sp) {
			uint32_t g = stack[sp - 1];
			int32_t d = s.jobs[g].dep;
			if (d >= 0 && !done[d]) {
				assert_true(sp < s.njobs);
				stack[sp++] = (uint32_t)d;
				continue;
			}
			uint32_t *wv = want + (size_t)g * SLOT_DW;
			wv[0] = g + 1;
			if (d >= 0)
				memcpy(wv + 1, want + (size_t)d * SLOT_DW, 12);
			if (s.jobs[g].prev >= 0)
				wv[4] = (uint32_t)s.jobs[g].prev + 1;
			if (s.jobs[g].dep2 >= 0)
				wv[5] = (uint32_t)s.jobs[g].dep2 + 1;
			done[g] = 1;
			sp--;
		}
	}
	const uint32_t *got = (const uint32_t *)s.slots.cpu;
	uint32_t bad = 0;
	for (size_t i = 0; i < (size_t)s.njobs * SLOT_DW; i++)
		if (got[i] != want[i] && bad++ < 10)
			print_error("job %zu word %zu: got %u want %u\n",
			            i / SLOT_DW, i % SLOT_DW, got[i], want[i]);
	free(stack);
	free(done);
	free(want);
	if (bad)
		fail_msg("%u slot words wrong", bad);
	for (uint32_t i = 0; i < NQ; i++)
		api_cmd_fini(&cmd[i]);
	stress_fini(&s);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stress_single_submitter),
		cmocka_unit_test(test_stress_four_submitters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
