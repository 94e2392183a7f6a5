/* SPDX-License-Identifier: MIT */
/*
 * Preemption through the public API. A LOW queue's job runs one long
 * COPY (or FILL) on a copy engine; once it has started, a HIGH queue on
 * the same engine submits a short job. With preemption the HIGH job runs
 * in the middle of the long packet — proven by data, not by time: it
 * copies the first and the last 4 KiB of the LOW job's destination and
 * finds the first already written and the last not yet written, and its
 * TIMESTAMPs fall between the LOW job's two. The LOW job then resumes
 * where it stopped: every byte of its destination is checked. With
 * SWGPU_PREEMPT off (cfg.no_preempt) the HIGH job runs after the LOW
 * one. A hang of a preempting job of another context spares the
 * preempted job and the jobs queued behind it.
 */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LONG_SIZE (API_TSAN ? 48ull << 20 : 384ull << 20)
#define PROBE 4096u

struct rig {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *lo, *hi;
	struct api_buf src, dst, small_src, small_dst, probe, ts;
	struct api_cmd lo_cmd, hi_cmd;
};

static void
rig_init(struct rig *r, bool no_preempt, uint32_t hang_ms)
{
	swgpu_config cfg;

	api_config_small(&cfg);
	cfg.system_size = 2 * LONG_SIZE + (64ull << 20);
	cfg.no_preempt = no_preempt;
	/* One copy engine: LOW and HIGH share it (with two, engines chosen
	 * per job would send HIGH to the idle one). */
	cfg.engine_count[SWGPU_ENGINE_COPY] = 1;
	if (hang_ms)
		cfg.hang_timeout_ms = hang_ms;
	r->dev = api_open(&cfg);
	api_ok(swgpu_context_create(r->dev, &r->ctx));
	api_ok(swgpu_queue_create(r->ctx, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_LOW, &r->lo));
	api_ok(swgpu_queue_create(r->ctx, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_HIGH, &r->hi));
	const uint32_t rw = SWGPU_VA_READ | SWGPU_VA_WRITE;
	api_buf_init(&r->src, r->dev, r->ctx, LONG_SIZE, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ);
	api_buf_init(&r->dst, r->dev, r->ctx, LONG_SIZE, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, rw);
	api_buf_init(&r->small_src, r->dev, r->ctx, PROBE, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ);
	api_buf_init(&r->small_dst, r->dev, r->ctx, PROBE, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, rw);
	api_buf_init(&r->probe, r->dev, r->ctx, 2 * PROBE, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, rw);
	api_buf_init(&r->ts, r->dev, r->ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, rw);
	api_cmd_init(&r->lo_cmd, r->dev, r->ctx, 1024);
	api_cmd_init(&r->hi_cmd, r->dev, r->ctx, 1024);
	api_fill_pattern(r->src.cpu, LONG_SIZE, 0, 11);
	memset(r->dst.cpu, 0, LONG_SIZE);
	api_fill_pattern(r->small_src.cpu, PROBE, 0, 12);
	memset(r->small_dst.cpu, 0, PROBE);
	memset(r->probe.cpu, 0xee, 2 * PROBE);
	memset(r->ts.cpu, 0, 4096);
}

static void
rig_fini(struct rig *r)
{
	api_cmd_fini(&r->hi_cmd);
	api_cmd_fini(&r->lo_cmd);
	api_buf_fini(&r->ts);
	api_buf_fini(&r->probe);
	api_buf_fini(&r->small_dst);
	api_buf_fini(&r->small_src);
	api_buf_fini(&r->dst);
	api_buf_fini(&r->src);
	swgpu_queue_destroy(r->hi);
	swgpu_queue_destroy(r->lo);
	swgpu_context_destroy(r->ctx);
	swgpu_device_close(r->dev);
}

/* Timestamp slots in r->ts. */
enum { TS_LO_START, TS_LO_END, TS_HI_START, TS_HI_END };

static uint64_t
ts_va(const struct rig *r, int slot)
{
	return r->ts.va + 8u * (uint64_t)slot;
}

static uint64_t
ts_get(const struct rig *r, int slot)
{
	return api_load64(r->ts.cpu + 8 * slot);
}

/* Submit the LOW job (TIMESTAMP, one long COPY or FILL, TIMESTAMP) and
 * wait until it has started. */
static void
submit_long_gated(struct rig *r, bool fill, uint64_t gate_va)
{
	api_emit_timestamp(&r->lo_cmd, ts_va(r, TS_LO_START));
	if (fill)
		api_emit_fill(&r->lo_cmd, r->dst.va, LONG_SIZE, 0xa55a0ff0);
	else
		api_emit_copy(&r->lo_cmd, r->dst.va, r->src.va, LONG_SIZE);
	if (gate_va)
		api_emit_sem_wait(&r->lo_cmd, gate_va, 1);
	api_emit_timestamp(&r->lo_cmd, ts_va(r, TS_LO_END));
	swgpu_ib ib = api_cmd_end(&r->lo_cmd);
	api_ok(api_submit(r->lo, &ib, NULL, 0, NULL, 0, NULL));
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!ts_get(r, TS_LO_START) && swgpu_now_ns() < deadline)
		;
	assert_true(ts_get(r, TS_LO_START) != 0);
}

static void
submit_long(struct rig *r, bool fill)
{
	submit_long_gated(r, fill, 0);
}

/* The HIGH job: a 4 KiB copy, plus copies of the first and the last
 * 4 KiB of the LOW job's destination as they are when it runs. */
static void
submit_short(struct rig *r)
{
	api_emit_timestamp(&r->hi_cmd, ts_va(r, TS_HI_START));
	api_emit_copy(&r->hi_cmd, r->small_dst.va, r->small_src.va, PROBE);
	api_emit_copy(&r->hi_cmd, r->probe.va, r->dst.va, PROBE);
	api_emit_copy(&r->hi_cmd, r->probe.va + PROBE,
	              r->dst.va + LONG_SIZE - PROBE, PROBE);
	api_emit_timestamp(&r->hi_cmd, ts_va(r, TS_HI_END));
	swgpu_ib ib = api_cmd_end(&r->hi_cmd);
	api_ok(api_submit(r->hi, &ib, NULL, 0, NULL, 0, NULL));
}

static void
check_long_result(const struct rig *r, bool fill)
{
	if (fill) {
		const uint32_t *w = (const uint32_t *)(const void *)r->dst.cpu;
		uint64_t bad = 0;
		for (uint64_t i = 0; i < LONG_SIZE / 4; i++)
			bad += w[i] != 0xa55a0ff0u;
		assert_int_equal(bad, 0);
	} else {
		assert_int_equal(api_find_pattern_mismatch(r->dst.cpu,
		                                           LONG_SIZE, 0, 11),
		                 LONG_SIZE);
	}
}

/* Is the probe copy of LOW's destination at off what LOW writes there
 * (written), or still zero (not yet)? */
static bool
probe_written(const struct rig *r, uint32_t which, bool fill)
{
	const uint8_t *p = r->probe.cpu + which * PROBE;
	uint64_t off = which ? LONG_SIZE - PROBE : 0;

	if (fill) {
		const uint32_t *w = (const uint32_t *)(const void *)p;
		for (uint32_t i = 0; i < PROBE / 4; i++)
			if (w[i] != 0xa55a0ff0u)
				return false;
		return true;
	}
	return api_find_pattern_mismatch(p, PROBE, off, 11) == PROBE;
}

static void
preempt_long_packet(bool fill)
{
	struct rig r;
	swgpu_engine_stats st;
	uint64_t lo0, lo1, hi0, hi1, t_sub;
	uint32_t attempt = 0, delay_us = 0;
	bool too_late = false, too_early = false;

	rig_init(&r, false, 0);
	/* The HIGH job must be submitted while the long packet runs, after
	 * its first chunk: a host that slept past the packet's end (loaded
	 * machine) tries again sooner, one that came before the first chunk
	 * was written (slow engine thread, TSan) tries again later. Both
	 * are judged after the fact: the host never reads memory the
	 * engine is writing. */
	do {
		assert_true(++attempt <= 8);
		if (too_early)
			delay_us = delay_us ? 2 * delay_us : 500;
		if (too_late)
			delay_us /= 4;
		memset(r.ts.cpu, 0, 32);
		memset(r.dst.cpu, 0, LONG_SIZE);
		memset(r.probe.cpu, 0xee, 2 * PROBE);
		memset(r.small_dst.cpu, 0, PROBE);
		submit_long(&r, fill);
		if (delay_us) {
			struct timespec d = { 0, (long)delay_us * 1000 };
			nanosleep(&d, NULL);
		}
		t_sub = swgpu_now_ns();
		submit_short(&r);
		api_queue_idle(r.hi);
		api_queue_idle(r.lo);
		lo0 = ts_get(&r, TS_LO_START);
		lo1 = ts_get(&r, TS_LO_END);
		hi0 = ts_get(&r, TS_HI_START);
		hi1 = ts_get(&r, TS_HI_END);
		too_late = t_sub >= lo1;
		too_early = !too_late && !probe_written(&r, 0, fill);
	} while (too_late || too_early);
	print_message("%s of %llu MiB: LOW %.2f ms; HIGH started %.3f ms "
	              "into it and took %.1f us (attempt %u)\n",
	              fill ? "FILL" : "COPY",
	              (unsigned long long)(LONG_SIZE >> 20),
	              (lo1 - lo0) / 1e6, (hi0 - lo0) / 1e6,
	              (hi1 - hi0) / 1e3, attempt);
	/* HIGH ran inside LOW's one long packet ... */
	assert_true(lo0 < hi0 && hi0 <= hi1 && hi1 < lo1);
	/* ... which had started writing and had not finished. */
	assert_true(probe_written(&r, 0, fill));
	assert_false(probe_written(&r, 1, fill));
	/* Both jobs' results are exact. */
	assert_memory_equal(r.small_dst.cpu, r.small_src.cpu, PROBE);
	check_long_result(&r, fill);
	api_ok(swgpu_engine_query_stats(r.dev, api_engine(r.dev,
	                                SWGPU_ENGINE_COPY, 0), &st));
	/* LOW stopped for HIGH. HIGH is its queue's first job (nobody
	 * knows it is short), so it ran in its own main HWQ, which the
	 * engine picked at LOW's next preemption point (resched), not
	 * from the preempting HWQ 1. */
	assert_true(st.preemptions >= 1);
	assert_int_equal(st.jobs_failed, 0);
	rig_fini(&r);
}

static void
test_copy_preempted_resumes_exactly(void **state)
{
	preempt_long_packet(false);
}

static void
test_fill_preempted_resumes_exactly(void **state)
{
	preempt_long_packet(true);
}

/* SWGPU_PREEMPT=0: the HIGH job waits for the LOW job to end. */
static void
test_no_preempt_runs_in_ring_order(void **state)
{
	struct rig r;
	swgpu_engine_stats st;

	rig_init(&r, true, 0);
	submit_long(&r, false);
	submit_short(&r);
	api_queue_idle(r.hi);
	api_queue_idle(r.lo);
	assert_true(ts_get(&r, TS_HI_START) > ts_get(&r, TS_LO_END));
	assert_true(probe_written(&r, 0, false));
	assert_true(probe_written(&r, 1, false));
	check_long_result(&r, false);
	api_ok(swgpu_engine_query_stats(r.dev, api_engine(r.dev,
	                                SWGPU_ENGINE_COPY, 0), &st));
	assert_int_equal(st.preemptions, 0);
	assert_int_equal(st.preempt_jobs, 0);
	rig_fini(&r);
}

/* A LOW job waiting in a SEM_WAIT yields the engine: the HIGH job
 * completes while the wait still holds (deterministic, no timing). */
static void
test_waiting_job_yields(void **state)
{
	struct rig r;

	rig_init(&r, false, 0);
	uint32_t *gate = (uint32_t *)(void *)(r.probe.cpu);
	memset(gate, 0, 16);
	api_emit_sem_wait(&r.lo_cmd, r.probe.va, 1);
	api_emit_write32(&r.lo_cmd, r.probe.va + 8, 7);
	swgpu_ib ib = api_cmd_end(&r.lo_cmd);
	api_ok(api_submit(r.lo, &ib, NULL, 0, NULL, 0, NULL));
	api_emit_copy(&r.hi_cmd, r.small_dst.va, r.small_src.va, PROBE);
	ib = api_cmd_end(&r.hi_cmd);
	api_ok(api_submit(r.hi, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(r.hi);
	assert_memory_equal(r.small_dst.cpu, r.small_src.cpu, PROBE);
	assert_int_equal(api_load32(r.probe.cpu + 8), 0);
	api_store64(r.probe.cpu, 1);
	api_queue_idle(r.lo);
	assert_int_equal(api_load32(r.probe.cpu + 8), 7);
	rig_fini(&r);
}

/* The same for a ring-level wait: a LOW job whose ring entry waits (GPU
 * side, SEM_WAIT on another engine's fence) for a job stalled on a gate
 * yields the engine to a HIGH job, which completes first. */
static void
test_ring_wait_yields(void **state)
{
	struct rig r;
	swgpu_queue *other;
	swgpu_syncobj *tl;
	struct api_cmd ocmd;

	rig_init(&r, false, 0);
	api_ok(swgpu_queue_create(r.ctx, SWGPU_ENGINE_COMPUTE, 0,
	                          SWGPU_PRIORITY_NORMAL, &other));
	api_ok(swgpu_syncobj_create(r.dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_cmd_init(&ocmd, r.dev, r.ctx, 64);
	memset(r.probe.cpu, 0, 16);
	/* compute0: waits for the host gate, then signals tl = 1. */
	api_emit_sem_wait(&ocmd, r.probe.va, 1);
	swgpu_ib oib = api_cmd_end(&ocmd);
	swgpu_sync_point sig = { tl, 1, 0 };
	api_ok(api_submit(other, &oib, NULL, 0, &sig, 1, NULL));
	/* copy0 LOW: waits for tl >= 1 in its ring, then writes 7. */
	api_emit_write32(&r.lo_cmd, r.probe.va + 8, 7);
	swgpu_ib ib = api_cmd_end(&r.lo_cmd);
	api_ok(api_submit(r.lo, &ib, &sig, 1, NULL, 0, NULL));
	/* copy0 HIGH. */
	api_emit_copy(&r.hi_cmd, r.small_dst.va, r.small_src.va, PROBE);
	ib = api_cmd_end(&r.hi_cmd);
	api_ok(api_submit(r.hi, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(r.hi);
	assert_memory_equal(r.small_dst.cpu, r.small_src.cpu, PROBE);
	assert_int_equal(api_load32(r.probe.cpu + 8), 0);
	api_store64(r.probe.cpu, 1);
	api_queue_idle(r.lo);
	api_queue_idle(other);
	assert_int_equal(api_load32(r.probe.cpu + 8), 7);
	api_cmd_fini(&ocmd);
	swgpu_syncobj_destroy(tl);
	swgpu_queue_destroy(other);
	rig_fini(&r);
}

/*
 * A HIGH job of a guilty context hangs (injected) while it preempts an
 * innocent context's long COPY, with more innocent jobs queued behind it
 * on the same engine. After the hang timeout the guilty context is lost
 * (its next job is cancelled, submits fail) and every innocent job
 * completes with exact data: the preempted one resumes where it stopped.
 */
static void
test_hang_spares_innocent_jobs(void **state)
{
	struct rig r;
	swgpu_context *bad;
	swgpu_queue *badq;
	struct api_buf bsrc, bdst;
	struct api_cmd bcmd;

	rig_init(&r, false, 300);
	api_ok(swgpu_context_create(r.dev, &bad));
	api_ok(swgpu_queue_create(bad, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_HIGH, &badq));
	api_buf_init(&bsrc, r.dev, bad, PROBE, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ);
	api_buf_init(&bdst, r.dev, bad, PROBE, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&bcmd, r.dev, bad, 256);
	memset(bdst.cpu, 0, PROBE);

	/* Innocent: the long copy (then a gate, so that it is surely
	 * still running when the guilty job comes), then three short jobs
	 * behind it. */
	uint8_t *gate = r.probe.cpu + 64;
	memset(gate, 0, 8);
	submit_long_gated(&r, false, r.probe.va + 64);
	for (uint32_t i = 0; i < 3; i++) {
		api_emit_write32(&r.lo_cmd, r.ts.va + 256 + 4 * i, 100 + i);
		swgpu_ib ib = api_cmd_end(&r.lo_cmd);
		api_ok(api_submit(r.lo, &ib, NULL, 0, NULL, 0, NULL));
	}
	/* Guilty: job 1 hangs, job 2 would copy. */
	api_ok(swgpu_debug_inject_fault(badq, 1, SWGPU_FAULT_HANG));
	api_emit_copy(&bcmd, bdst.va, bsrc.va, PROBE);
	swgpu_ib bib = api_cmd_end(&bcmd);
	api_ok(api_submit(badq, &bib, NULL, 0, NULL, 0, NULL));
	api_ok(api_submit(badq, &bib, NULL, 0, NULL, 0, NULL));

	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(badq, 0, api_deadline_ms(API_WAIT_MS)));
	api_store64(gate, 1);
	api_queue_idle(r.lo);
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(bad, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_HANG);
	assert_int_equal(fi.job_seqno, 1);
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          api_submit(badq, &bib, NULL, 0, NULL, 0, NULL));
	/* Guilty job 2 never ran. */
	assert_int_equal(api_find_byte_mismatch(bdst.cpu, PROBE, 0), PROBE);
	/* Innocent: OK, exact, all of it. */
	assert_int_equal(swgpu_context_query_state(r.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	check_long_result(&r, false);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(api_load32(r.ts.cpu + 256 + 4 * i), 100 + i);
	swgpu_engine_stats st;
	api_ok(swgpu_engine_query_stats(r.dev, api_engine(r.dev,
	                                SWGPU_ENGINE_COPY, 0), &st));
	print_message("engine: %llu jobs done, %llu failed, %llu "
	              "preemptions\n", (unsigned long long)st.jobs_completed,
	              (unsigned long long)st.jobs_failed,
	              (unsigned long long)st.preemptions);
	assert_true(st.preemptions >= 1);
	assert_int_equal(st.jobs_failed, 2);

	api_cmd_fini(&bcmd);
	api_buf_fini(&bdst);
	api_buf_fini(&bsrc);
	swgpu_queue_destroy(badq);
	swgpu_context_destroy(bad);
	rig_fini(&r);
}

/*
 * The watchdog of a preempted SEM_WAIT keeps its stall time: a LOW job
 * waiting for a value nobody writes is preempted every 20 ms by a HIGH
 * stream of another context, and is still declared hung after about
 * the hang timeout of stall, while the stream goes on (were the clock
 * restarted at each resume, it would never fire while the stream runs).
 */
static void
test_hang_detected_under_preemption(void **state)
{
	const uint32_t hang_ms = 300, max_jobs = 150; /* 3 s of stream */
	struct rig r;
	swgpu_context *bad;
	swgpu_queue *badq;
	struct api_buf word;
	struct api_cmd bcmd;

	rig_init(&r, false, hang_ms);
	api_ok(swgpu_context_create(r.dev, &bad));
	api_ok(swgpu_queue_create(bad, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_LOW, &badq));
	api_buf_init(&word, r.dev, bad, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ);
	api_cmd_init(&bcmd, r.dev, bad, 64);
	memset(word.cpu, 0, 8);
	api_emit_sem_wait(&bcmd, word.va, 1);
	swgpu_ib bib = api_cmd_end(&bcmd);
	uint64_t t0 = swgpu_now_ns();
	api_ok(api_submit(badq, &bib, NULL, 0, NULL, 0, NULL));

	swgpu_fault_info fi;
	uint32_t n = 0;
	while (swgpu_context_query_state(bad, &fi) == SWGPU_CONTEXT_OK &&
	       n < max_jobs) {
		api_emit_write32(&r.hi_cmd, r.ts.va + 4 * n, n + 1);
		swgpu_ib ib = api_cmd_end(&r.hi_cmd); /* 4 of 1024 dwords */
		api_ok(api_submit(r.hi, &ib, NULL, 0, NULL, 0, NULL));
		n++;
		struct timespec pause = { 0, 20 * 1000000 };
		nanosleep(&pause, NULL);
	}
	uint64_t dt = swgpu_now_ns() - t0;
	api_queue_idle(r.hi);
	swgpu_engine_stats st;
	api_ok(swgpu_engine_query_stats(r.dev, api_engine(r.dev,
	                                SWGPU_ENGINE_COPY, 0), &st));
	print_message("hang declared after %.0f ms and %u HIGH jobs "
	              "(%llu preemptions)\n", dt / 1e6, n,
	              (unsigned long long)st.preemptions);
	assert_int_equal(swgpu_context_query_state(bad, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_HANG);
	assert_true(n < max_jobs);
	assert_true(st.preemptions >= 5);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(api_load32(r.ts.cpu + 4 * i), i + 1);
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(badq, 0, api_deadline_ms(API_WAIT_MS)));

	api_cmd_fini(&bcmd);
	api_buf_fini(&word);
	swgpu_queue_destroy(badq);
	swgpu_context_destroy(bad);
	rig_fini(&r);
}

/* SWGPU_PREEMPT: 0 and 1 switch, anything else is ignored (default on). */
static void
test_preempt_knob(void **state)
{
	swgpu_config cfg;

	setenv("SWGPU_PREEMPT", "0", 1);
	swgpu_config_init(&cfg);
	assert_true(cfg.no_preempt);
	setenv("SWGPU_PREEMPT", "1", 1);
	swgpu_config_init(&cfg);
	assert_false(cfg.no_preempt);
	setenv("SWGPU_PREEMPT", "2", 1);
	swgpu_config_init(&cfg);
	assert_false(cfg.no_preempt);
	unsetenv("SWGPU_PREEMPT");
	swgpu_config_init(&cfg);
	assert_false(cfg.no_preempt);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preempt_knob),
		cmocka_unit_test(test_copy_preempted_resumes_exactly),
		cmocka_unit_test(test_fill_preempted_resumes_exactly),
		cmocka_unit_test(test_no_preempt_runs_in_ring_order),
		cmocka_unit_test(test_waiting_job_yields),
		cmocka_unit_test(test_ring_wait_yields),
		cmocka_unit_test(test_hang_spares_innocent_jobs),
		cmocka_unit_test(test_hang_detected_under_preemption),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
