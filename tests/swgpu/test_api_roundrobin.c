/* SPDX-License-Identifier: MIT */
/*
 * Long jobs of several contexts on ONE compute engine take turns (issue
 * 20 item 2): each context's queue has a main hardware queue of its own
 * and the engine rotates among them at time-slice ends
 * (hw/engine_rotate.c), so no long job waits for another to end.
 *
 * Three contexts each run a long legitimate dispatch (many workgroups of
 * a long LCG loop) and a fourth an endless workgroup. Checked: while
 * they run there is a moment when all three legitimate dispatches are
 * part done (run one after the other, at most one would be) and the
 * endless one also advances then; every lane of every legitimate result
 * bit for bit; the endless context lost by the watchdog (HANG), the
 * others fine. Latency: a fifth context's short job submitted into the
 * rotation completes before the long jobs' turns went round (at most
 * two of the three advanced meanwhile: an ordering bound that does not
 * depend on speed) and within a generous bound derived from the slice. Bad input: a
 * context destroyed while its long job is paused in the rotation — the
 * destroy returns, the others complete exactly (ASan/LSan: no leak).
 * A queue measured as short whose long job went to the preempting HWQ 1
 * still takes turns with another context's long job (it is demoted
 * after a slice), and its next job keeps queue order.
 */
#include "shader_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh_rr_endless.spv.h"
#include "sh_rr_seen.spv.h"
#include "sh_rr_work.spv.h"

#define LANES 64u
#define NLONG 3u
#define SLICE_MS 4u
/* The watchdog of this test (ms of a job's own engine time). */
#define HANG_MS 1500u

/* n steps of the shaders' LCG at once (the affine map squared log n
 * times), so checking long runs costs the host nothing. */
static uint32_t
lcg(uint32_t x, uint32_t n)
{
	uint32_t a = 1664525u, c = 1013904223u;

	for (; n; n >>= 1) {
		if (n & 1)
			x = x * a + c;
		c = c * a + c;
		a = a * a;
	}
	return x;
}

/* Dispatch s (every buffer of e bound) without waiting; its seqno. */
static uint64_t
submit_dispatch(struct st_env *e, swgpu_shader *s, uint32_t steps,
                uint32_t groups)
{
	return st_submit(e, s, &steps, 4, groups);
}

static swgpu_engine_stats
stats(swgpu_device *dev)
{
	swgpu_engine_stats st;

	api_ok(swgpu_engine_query_stats(
		dev, api_engine(dev, SWGPU_ENGINE_COMPUTE, 0), &st));
	return st;
}

/* A long legitimate dispatch of one context. */
struct work {
	struct st_env e;
	uint32_t *done, *o;
	swgpu_shader *s;
	uint32_t groups, steps;
	uint64_t seqno;
};

static void
work_init(struct work *w, swgpu_device *dev, uint32_t groups,
          uint32_t steps)
{
	st_side_init(&w->e, dev, 0, SWGPU_PRIORITY_NORMAL);
	w->groups = groups;
	w->steps = steps;
	w->done = st_buf(&w->e, 16);
	w->o = st_buf(&w->e, 4ull * LANES * groups);
	w->s = st_shader(&w->e, sh_rr_work_spv, sizeof(sh_rr_work_spv), NULL,
	                 NULL, 0);
}

static void
work_check(struct work *w)
{
	api_ok(swgpu_queue_wait(w->e.q, w->seqno,
	                        api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(api_load32(w->done), w->groups);
	for (uint32_t i = 0; i < LANES * w->groups; i++)
		assert_int_equal(w->o[i], lcg(i * 7u + 3u, w->steps));
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(w->e.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
}

static void
work_fini(struct work *w)
{
	swgpu_shader_destroy(w->s);
	st_side_fini(&w->e);
}

static bool
part_done(const struct work *w)
{
	uint32_t d = api_load32(w->done);
	return d > 0 && d < w->groups;
}

static bool
started(const struct work *w)
{
	return api_load32(w->done) > 0;
}

static swgpu_device *
open_one_engine(void)
{
	swgpu_config cfg;

	api_config_small(&cfg);
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 1;
	cfg.slice_ms = SLICE_MS;
	cfg.hang_timeout_ms = HANG_MS;
	return api_open(&cfg);
}

/* Steps per lane (*steps) and workgroups for a dispatch of about
 * target_ms, from this machine's speed now (calibration dispatches
 * alone, long enough that compute, not the submit, is measured: the
 * compiler runs the loop tens of times faster than the interpreter). */
static uint32_t
calibrate_groups(swgpu_device *dev, uint32_t *steps, uint32_t target_ms)
{
	uint64_t per_group;

	for (;;) {
		struct work c;
		uint64_t t = UINT64_MAX;

		/* The faster of two runs: the first may include the
		 * shader's compile, or a moment the machine was busy, and
		 * a slow calibration makes the "long" jobs end within a
		 * few slices (then the tests find no moment left). */
		work_init(&c, dev, 16, *steps);
		for (int run = 0; run < 2; run++) {
			uint64_t t0 = swgpu_now_ns();
			memset(c.done, 0, 4);
			c.seqno = submit_dispatch(&c.e, c.s, *steps, 16);
			work_check(&c);
			uint64_t dt = swgpu_now_ns() - t0;
			t = dt < t ? dt : t;
		}
		work_fini(&c);
		per_group = t / 16u + 1u;
		if (t >= 20000000u || *steps >= (1u << 24))
			break;
		*steps *= 8;
	}
	uint64_t g = (uint64_t)target_ms * 1000000u / per_group;
	return g < 64 ? 64 : g > 4096 ? 4096 : (uint32_t)g;
}

static void
test_long_jobs_take_turns(void **state)
{
	(void)state;
	swgpu_device *dev = open_one_engine();
	uint32_t steps = API_TSAN ? 200 : 2000;
	/* Each about 0.4 s alone: a hundred slices. */
	const uint32_t groups = calibrate_groups(dev, &steps, 400);
	struct work w[NLONG];
	struct st_env end, d;

	print_message("%u workgroups of %u steps per long job\n", groups,
	              steps);
	for (uint32_t i = 0; i < NLONG; i++)
		work_init(&w[i], dev, groups, steps);
	st_side_init(&end, dev, 0, SWGPU_PRIORITY_NORMAL);
	uint32_t *ef = st_buf(&end, 16);
	swgpu_shader *es = st_shader(&end, sh_rr_endless_spv,
	                             sizeof(sh_rr_endless_spv), NULL, NULL, 0);
	st_side_init(&d, dev, 0, SWGPU_PRIORITY_NORMAL);
	uint32_t *dd = st_buf(&d, 16);
	st_buf(&d, 4 * LANES);
	swgpu_shader *ds = st_shader(&d, sh_rr_work_spv,
	                             sizeof(sh_rr_work_spv), NULL, NULL, 0);

	swgpu_engine_stats st0 = stats(dev);
	uint64_t t_end = swgpu_now_ns();
	uint64_t eseq = submit_dispatch(&end, es, 0, 1);
	for (uint32_t i = 0; i < NLONG; i++)
		w[i].seqno = submit_dispatch(&w[i].e, w[i].s, steps, groups);

	/* A moment when all three are part done, the endless one advancing
	 * meanwhile. */
	bool all_part = false, end_moved = false;
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!all_part && swgpu_now_ns() < deadline) {
		uint32_t spins = api_load32(&ef[2]);
		all_part = true;
		for (uint32_t i = 0; i < NLONG; i++)
			all_part &= part_done(&w[i]);
		if (!all_part) {
			usleep(200);
			continue;
		}
		/* While all three are still part done, the endless one
		 * gets its turns too. */
		while (!end_moved && swgpu_now_ns() < deadline &&
		       part_done(&w[0]) && part_done(&w[1]) &&
		       part_done(&w[2])) {
			end_moved = api_load32(&ef[2]) != spins;
			usleep(200);
		}
	}
	print_message("all part done %d, endless moved %d (spins %u, done "
	              "%u %u %u of %u)\n", all_part, end_moved,
	              api_load32(&ef[2]), api_load32(w[0].done),
	              api_load32(w[1].done), api_load32(w[2].done), groups);
	assert_true(all_part);
	assert_true(end_moved);

	/* Latency: a short job of another context (its first: nobody
	 * knows it is short) goes in at the next slice end. */
	uint32_t before[NLONG];
	for (uint32_t i = 0; i < NLONG; i++)
		before[i] = api_load32(w[i].done);
	uint64_t t0 = swgpu_now_ns();
	uint64_t dseq = submit_dispatch(&d, ds, 10, 1);
	api_ok(swgpu_queue_wait(d.q, dseq, api_deadline_ms(API_WAIT_MS)));
	uint64_t lat = swgpu_now_ns() - t0;
	uint32_t advanced = 0;
	for (uint32_t i = 0; i < NLONG; i++)
		advanced += api_load32(w[i].done) != before[i];
	bool still = part_done(&w[0]) && part_done(&w[1]) &&
	             part_done(&w[2]);
	print_message("short job of a fifth context: %.2f ms (slice %u ms), "
	              "%u of the %u long jobs advanced meanwhile%s\n",
	              (double)lat / 1e6, SLICE_MS, advanced, NLONG,
	              still ? "" : " (some already done)");
	assert_int_equal(api_load32(dd), 1);
	assert_int_equal(((uint32_t *)d.bufs[1].cpu)[5], lcg(5 * 7 + 3, 10));
	if (still) {
		/* It ran at the first slice end: the job running when
		 * it came (maybe the next one too, if a turn changed
		 * while it was submitted) advanced, not every waiting
		 * context's in turn. An ordering bound, not a speed. */
		assert_true(advanced <= 2);
		/* Generous, from the slice: a handful of slices and the
		 * host's scheduling noise, not a speed. */
		assert_true(lat < 25ull * SLICE_MS * 1000000u + 200000000u);
	}

	for (uint32_t i = 0; i < NLONG; i++)
		work_check(&w[i]);
	/* The endless one: lost by the watchdog on its own time (it had
	 * only a share of the engine, so not before HANG_MS of wall). */
	assert_int_equal(swgpu_queue_wait(end.q, eseq,
	                                  api_deadline_ms(API_WAIT_MS)),
	                 SWGPU_ERR_CONTEXT_LOST);
	assert_true(swgpu_now_ns() - t_end >= HANG_MS * 1000000ull);
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(end.ctx, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_HANG);
	assert_int_equal(swgpu_queue_completed(end.q), eseq);
	swgpu_engine_stats st1 = stats(dev);
	print_message("engine: %llu preemptions\n",
	              (unsigned long long)(st1.preemptions - st0.preemptions));
	assert_true(st1.preemptions - st0.preemptions >= 2 * NLONG);

	swgpu_shader_destroy(ds);
	st_side_fini(&d);
	swgpu_shader_destroy(es);
	st_side_fini(&end);
	for (uint32_t i = 0; i < NLONG; i++)
		work_fini(&w[i]);
	swgpu_device_close(dev);
}

/* Long jobs of a HIGH and a NORMAL context on one engine: each makes
 * progress, HIGH about 4x as fast (weights 16:4 of the engine time).
 * Progress in workgroups of the same shader over the same window: a
 * ratio of work, not a speed. */
static void
test_long_jobs_weighted_by_priority(void **state)
{
	(void)state;
	swgpu_device *dev = open_one_engine();
	uint32_t steps = API_TSAN ? 200 : 2000;
	const uint32_t groups = calibrate_groups(dev, &steps, 400);
	struct work n, h;

	work_init(&n, dev, groups, steps);
	work_init(&h, dev, groups, steps);
	swgpu_queue_destroy(h.e.q);
	api_ok(swgpu_queue_create(h.e.ctx, SWGPU_ENGINE_COMPUTE, 0,
	                          SWGPU_PRIORITY_HIGH, &h.e.q));
	n.seqno = submit_dispatch(&n.e, n.s, steps, groups);
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!api_load32(n.done) && swgpu_now_ns() < deadline)
		usleep(200);
	h.seqno = submit_dispatch(&h.e, h.s, steps, groups);
	while (!api_load32(h.done) && swgpu_now_ns() < deadline)
		usleep(200);
	uint32_t n0 = api_load32(n.done), h0 = api_load32(h.done);
	while (api_load32(h.done) < h0 + groups / 2 &&
	       swgpu_now_ns() < deadline)
		usleep(200);
	uint32_t n1 = api_load32(n.done), h1 = api_load32(h.done);
	print_message("same window: HIGH %u workgroups, NORMAL %u\n",
	              h1 - h0, n1 - n0);
	assert_true(n1 < groups); /* NORMAL still running: a fair window */
	assert_true(n1 > n0);     /* NORMAL not starved */
	assert_true(h1 - h0 >= 2 * (n1 - n0));
	work_check(&h);
	work_check(&n);
	work_fini(&h);
	work_fini(&n);
	swgpu_device_close(dev);
}

/* Bad input: a context destroyed while its long job is paused in the
 * rotation. The destroy returns (the job is dropped at its next turn),
 * the others complete bit for bit, nothing leaks. */
static void
test_context_destroyed_while_paused(void **state)
{
	(void)state;
	swgpu_device *dev = open_one_engine();
	uint32_t steps = API_TSAN ? 200 : 2000;
	const uint32_t groups = calibrate_groups(dev, &steps, 300);
	struct work w[NLONG];

	for (uint32_t i = 0; i < NLONG; i++) {
		work_init(&w[i], dev, groups, steps);
		w[i].seqno = submit_dispatch(&w[i].e, w[i].s, steps, groups);
	}
	/* Until every job has run a part: then w[0] is paused or running
	 * (or, where compiled code outruns an instrumented engine, as
	 * under TSan, already finished): the destroy must end it in any
	 * of these states. */
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!(started(&w[0]) && started(&w[1]) && started(&w[2])) &&
	       swgpu_now_ns() < deadline)
		usleep(200);
	assert_true(started(&w[0]));
	print_message("destroying context 0 with %u of %u workgroups done\n",
	              api_load32(w[0].done), w[0].groups);
	work_fini(&w[0]);
	for (uint32_t i = 1; i < NLONG; i++) {
		work_check(&w[i]);
		work_fini(&w[i]);
	}
	/* The engine goes on: a new context's job runs. */
	struct work n;
	work_init(&n, dev, 4, 10);
	n.seqno = submit_dispatch(&n.e, n.s, 10, 4);
	work_check(&n);
	work_fini(&n);
	swgpu_device_close(dev);
}

/*
 * A queue measured as short (its jobs went to the preempting HWQ 1)
 * submits an unusually long job: it must not hold the engine to its end
 * (HWQ 1 ran first and was never preempted). Once it has run a slice
 * while another context's long job waits, it is demoted and the two take
 * turns (engine_rotate.c). Checked: S's long job went to HWQ 1
 * (preempt_jobs); there is a moment when both long jobs are part done
 * and B's advances while S's is still part done (without demotion B
 * cannot move until S's job ends); S's next job, which goes to a main
 * HWQ, starts only after S's long job ends (queue order: it reads S's
 * done counter); every lane exact, both contexts fine.
 */
/* S (measured short by four tiny dispatches) submits a long job while
 * B's long job runs: it goes to HWQ 1. Waits for a moment when B's job
 * advances while S's is part done (S's job demoted, taking turns);
 * returns whether it came. st0: the engine's counters before S's job. */
static bool
start_short_queue_long_job(swgpu_device *dev, struct work *b,
                           struct work *s, uint32_t groups, uint32_t steps,
                           swgpu_engine_stats *st0)
{
	print_message("%u workgroups of %u steps per long job\n", groups,
	              steps);
	work_init(b, dev, groups, steps);
	work_init(s, dev, groups, steps);
	/* S's jobs are short: a few tiny dispatches, alone, measured. */
	for (uint32_t i = 0; i < 4; i++) {
		uint64_t q = submit_dispatch(&s->e, s->s, 10, 1);
		api_ok(swgpu_queue_wait(s->e.q, q,
		                        api_deadline_ms(API_WAIT_MS)));
	}
	memset(s->done, 0, 4);
	/* B's long job runs; then S's long one preempts it through HWQ 1
	 * (at once, or when B's slice ends). */
	b->seqno = submit_dispatch(&b->e, b->s, steps, groups);
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!started(b) && swgpu_now_ns() < deadline)
		usleep(200);
	assert_true(started(b));
	*st0 = stats(dev);
	s->seqno = submit_dispatch(&s->e, s->s, steps, groups);
	while (!started(s) && swgpu_now_ns() < deadline)
		usleep(200);
	/* B advances while S's long job is still part done. */
	bool both = false, b_moved = false;
	while (!b_moved && swgpu_now_ns() < deadline) {
		uint32_t bd = api_load32(b->done);
		both = part_done(s) && part_done(b);
		if (!both) {
			if (api_load32(s->done) >= groups ||
			    api_load32(b->done) >= groups)
				break; /* one ended first: no moment left */
			usleep(200);
			continue;
		}
		while (!b_moved && swgpu_now_ns() < deadline &&
		       part_done(s) && part_done(b)) {
			b_moved = api_load32(b->done) != bd;
			usleep(200);
		}
	}
	print_message("both part done %d, B moved while S part done %d "
	              "(done S %u B %u of %u)\n", both, b_moved,
	              api_load32(s->done), api_load32(b->done), groups);
	return b_moved;
}

static void
test_short_queue_long_job_takes_turns(void **state)
{
	(void)state;
	swgpu_device *dev = open_one_engine();
	uint32_t steps = API_TSAN ? 200 : 2000;
	const uint32_t groups = calibrate_groups(dev, &steps, 400);
	struct work b, s;
	swgpu_engine_stats st0;

	assert_true(start_short_queue_long_job(dev, &b, &s, groups, steps,
	                                       &st0));

	/* S's next job, while its long one takes turns: a main HWQ (not
	 * behind the demoted job in HWQ 1), yet after it (queue order). Its
	 * own command, table and descriptor memory in S's context, so S's
	 * long job's are untouched; binding 0 is S's done counter. */
	struct st_env f;
	memset(&f, 0, sizeof(f));
	f.dev = dev;
	f.ctx = s.e.ctx;
	f.q = s.e.q;
	api_cmd_init(&f.cmd, dev, f.ctx, 4096);
	api_buf_init(&f.desc, dev, f.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&f.table, dev, f.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	f.bufs[0] = s.e.bufs[0];
	f.nbufs = 1;
	uint32_t *seen = st_buf(&f, 16);
	swgpu_shader *fs = st_shader(&f, sh_rr_seen_spv,
	                             sizeof(sh_rr_seen_spv), NULL, NULL, 0);
	uint32_t s_before = api_load32(s.done);
	uint64_t fseq = st_submit(&f, fs, NULL, 0, 1);
	api_ok(swgpu_queue_wait(f.q, fseq, api_deadline_ms(API_WAIT_MS)));
	print_message("S's next job submitted at %u of %u, saw %u\n",
	              s_before, groups, api_load32(seen) - 1u);
	assert_int_equal(api_load32(seen), groups + 1u);
	swgpu_shader_destroy(fs);
	api_buf_fini(&f.bufs[1]);
	api_buf_fini(&f.table);
	api_buf_fini(&f.desc);
	api_cmd_fini(&f.cmd);
	work_check(&s);
	work_check(&b);
	/* S's long job did run on HWQ 1 (else this tested nothing new);
	 * the counters are copied at job completions, so read them now. */
	swgpu_engine_stats st1 = stats(dev);
	print_message("HWQ 1 jobs %llu, preemptions %llu\n",
	              (unsigned long long)(st1.preempt_jobs - st0.preempt_jobs),
	              (unsigned long long)(st1.preemptions - st0.preemptions));
	assert_true(st1.preempt_jobs - st0.preempt_jobs >= 1);
	work_fini(&s);
	work_fini(&b);
	swgpu_device_close(dev);
}

/* Bad input: S's queue and context destroyed while its demoted HWQ 1
 * job is paused or taking turns. The destroy returns within a few
 * slices (the job is dropped at its next pause), B completes bit for
 * bit, HWQ 1 preempts again for a new context's jobs, nothing leaks. */
static void
test_context_destroyed_while_demoted(void **state)
{
	(void)state;
	swgpu_device *dev = open_one_engine();
	uint32_t steps = API_TSAN ? 200 : 2000;
	const uint32_t groups = calibrate_groups(dev, &steps, 400);
	struct work b, s;
	swgpu_engine_stats st0;

	assert_true(start_short_queue_long_job(dev, &b, &s, groups, steps,
	                                       &st0));
	print_message("destroying S's queue with %u of %u workgroups "
	              "done\n", api_load32(s.done), groups);
	/* Dropped at its next pause (then skipped at its next turn), not
	 * run to its end (0.6-0.8 s of turns left, measured with the drop
	 * broken) nor to the watchdog: the loose bound of the latency check
	 * above, not a speed. */
	uint64_t t0 = swgpu_now_ns();
	swgpu_queue_destroy(s.e.q);
	uint64_t t = swgpu_now_ns() - t0;
	s.e.q = NULL;
	print_message("queue destroy: %.1f ms\n", (double)t / 1e6);
	assert_true(t < 25ull * SLICE_MS * 1000000u + 200000000u);
	work_fini(&s);
	work_check(&b);
	work_fini(&b);
	/* The engine goes on, HWQ 1 no longer demoted: a new context's
	 * tiny jobs run. */
	struct work n;
	work_init(&n, dev, 4, 10);
	for (uint32_t i = 0; i < 3; i++) {
		n.seqno = submit_dispatch(&n.e, n.s, 10, 4);
		api_ok(swgpu_queue_wait(n.e.q, n.seqno,
		                        api_deadline_ms(API_WAIT_MS)));
	}
	assert_int_equal(api_load32(n.done), 12);
	for (uint32_t i = 0; i < LANES * 4; i++)
		assert_int_equal(n.o[i], lcg(i * 7u + 3u, 10));
	work_fini(&n);
	swgpu_device_close(dev);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_jobs_take_turns),
		cmocka_unit_test(test_long_jobs_weighted_by_priority),
		cmocka_unit_test(test_context_destroyed_while_paused),
		cmocka_unit_test(test_short_queue_long_job_takes_turns),
		cmocka_unit_test(test_context_destroyed_while_demoted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
