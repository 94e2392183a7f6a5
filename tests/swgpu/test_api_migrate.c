/* SPDX-License-Identifier: MIT */
/*
 * A preempted job resumes on another engine of its class (issue 20 item
 * 1: "resumed later exactly there, on the same or another engine").
 *
 * Two compute engines. A long workgroup L (context 0) runs on compute0;
 * compute1 is held by another context's job B; a third context's job S
 * is sent to compute0 and preempts L when L's time slice ends (L is
 * stopped at a loop back-edge, its state in its save area). When B ends,
 * compute1 is idle while compute0 still runs S: compute1 takes L over and
 * runs it from its save area to its end. Checked: the engine counters
 * (compute1 resumed a job of compute0's ring), the trace (L's run
 * segments on both engines), every lane of L bit for bit, B's and S's
 * data, and that with SWGPU_MIGRATE=0 L waits for compute0 instead.
 * A stress run: long dispatches of three contexts sliced, preempted and
 * moved between the engines, every lane exact.
 * Bad input: L's context destroyed while L is preempted, the device
 * closed while L runs on the engine that took it over.
 * swgpud's view: the engine running a job it took over says busy to the
 * daemon's clients (kmd/ring_server.h).
 */
#include "shader_test_util.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmd/ring_server.h"
#include "sh_hold.spv.h"
#include "sh_migrate.spv.h"

#define LANES 64u

static uint32_t
lcg(uint32_t x, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		x = x * 1664525u + 1013904223u;
	return x;
}

/* Dispatch s (every buffer of e bound) without waiting. */
static void
submit_dispatch(struct st_env *e, swgpu_shader *s, const void *push,
                uint32_t push_size, uint32_t groups)
{
	st_submit(e, s, push_size ? push : NULL, push_size, groups);
}

/* Wait until *p != 0 (a shader said it started). */
static void
wait_nonzero(const uint32_t *p)
{
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);

	while (!api_load32(p) && swgpu_now_ns() < deadline)
		usleep(100);
	assert_int_not_equal(api_load32(p), 0);
}

static swgpu_engine_stats
stats(swgpu_device *dev, uint32_t n)
{
	swgpu_engine_stats st;

	api_ok(swgpu_engine_query_stats(
		dev, api_engine(dev, SWGPU_ENGINE_COMPUTE, n), &st));
	return st;
}

/* A held dispatch (sh_hold) of e: its flags and output. */
struct hold {
	uint32_t *flags, *o;
	swgpu_shader *s;
};

static void
hold_start(struct st_env *e, struct hold *h)
{
	h->flags = st_buf(e, 16);
	h->o = st_buf(e, 4 * LANES);
	h->s = st_shader(e, sh_hold_spv, sizeof(sh_hold_spv), NULL, NULL, 0);
	submit_dispatch(e, h->s, NULL, 0, 1);
	wait_nonzero(&h->flags[1]);
}

static void
hold_end(struct st_env *e, struct hold *h)
{
	__atomic_store_n(&h->flags[0], 1u, __ATOMIC_SEQ_CST);
	api_ok(swgpu_queue_wait(e->q, 0, api_deadline_ms(API_WAIT_MS)));
	for (uint32_t i = 0; i < LANES; i++)
		assert_int_equal(h->o[i], i * 3u + 1u);
	swgpu_shader_destroy(h->s);
}

/* Does the trace hold a run segment ("X" event) of job id on engine? */
static bool
trace_has_segment(const char *text, const char *id, const char *engine)
{
	char name[64], eng[64];

	snprintf(name, sizeof(name), "\"name\":\"%s\"", id);
	snprintf(eng, sizeof(eng), "\"engine\":\"%s\"", engine);
	for (const char *p = strstr(text, name); p;
	     p = strstr(p + 1, name)) {
		const char *end = strchr(p, '}');
		const char *e = strstr(p, eng);
		if (e && end && e < end && strstr(p, "\"cat\":\"job\""))
			return true;
	}
	return false;
}

static char *
read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void
preempted_job_moves(bool migrate)
{
	const uint32_t steps = API_TSAN ? 20000 : 200000;
	char path[] = "/tmp/swgpu_migrate_trace_XXXXXX";
	swgpu_config cfg;
	struct st_env l, b, s;
	struct hold hb, hs;

	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	api_config_small(&cfg);
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 2;
	/* Nothing here hangs: L runs as long as the test holds it. */
	cfg.hang_timeout_ms = 60000;
	cfg.no_migrate = !migrate;
	cfg.trace = path;
	swgpu_device *dev = api_open(&cfg);
	st_side_init(&l, dev, 0, SWGPU_PRIORITY_NORMAL);
	st_side_init(&b, dev, 1, SWGPU_PRIORITY_NORMAL);
	st_side_init(&s, dev, 0, SWGPU_PRIORITY_NORMAL);

	/* L on compute0, running its endless part. */
	uint32_t *lf = st_buf(&l, 16);
	uint32_t *lo = st_buf(&l, 8 * LANES);
	swgpu_shader *ls = st_shader(&l, sh_migrate_spv, sizeof(sh_migrate_spv),
	                             NULL, NULL, 0);
	submit_dispatch(&l, ls, &steps, 4, 1);
	wait_nonzero(&lf[1]);
	/* B holds compute1. */
	hold_start(&b, &hb);
	/* S on compute0 (compute1 is busy): it runs only once L's slice
	 * ended and L stopped inside its workgroup. */
	hold_start(&s, &hs);
	/* compute1 becomes idle while compute0 runs S. */
	hold_end(&b, &hb);
	if (migrate) {
		/* compute1 takes over the job compute0 holds paused: L, or
		 * S when their turns on compute0 (time slices) have S paused
		 * at that moment; the trace below says which. */
		uint64_t deadline = api_deadline_ms(API_WAIT_MS);
		while (!stats(dev, 1).resumed_here &&
		       swgpu_now_ns() < deadline)
			usleep(100);
		assert_int_equal(stats(dev, 1).resumed_here, 1);
		/* L ends (on either engine) while S still holds one. */
		__atomic_store_n(&lf[0], 1u, __ATOMIC_SEQ_CST);
		api_ok(swgpu_queue_wait(l.q, 0, api_deadline_ms(API_WAIT_MS)));
		/* ... S is still running there. */
		assert_int_equal(swgpu_queue_wait(s.q, 0, 0),
		                 SWGPU_TIMEOUT);
		hold_end(&s, &hs);
	} else {
		__atomic_store_n(&lf[0], 1u, __ATOMIC_SEQ_CST);
		hold_end(&s, &hs);
		api_ok(swgpu_queue_wait(l.q, 0, api_deadline_ms(API_WAIT_MS)));
		assert_int_equal(stats(dev, 1).resumed_here, 0);
	}
	assert_int_equal(stats(dev, 0).resumed_here, 0);
	assert_true(stats(dev, 0).preemptions >= 1);

	/* Every lane of L, bit for bit: its own steps (however many, and
	 * wherever it ran them) then the fixed ones, and its neighbour's
	 * value through shared memory. */
	uint32_t x[LANES];
	for (uint32_t i = 0; i < LANES; i++) {
		assert_true(lo[2 * i + 1] > 0);
		x[i] = lcg(lcg(i * 7u + 3u, lo[2 * i + 1]), steps);
	}
	for (uint32_t i = 0; i < LANES; i++)
		assert_int_equal(lo[2 * i], x[i] ^ x[(i + 1) % LANES]);
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(l.ctx, &fi),
	                 SWGPU_CONTEXT_OK);

	swgpu_shader_destroy(ls);
	st_side_fini(&l);
	st_side_fini(&b);
	st_side_fini(&s);
	swgpu_device_close(dev);

	/* L (context 0, queue 0, job 1) ran on compute0; with migration
	 * exactly one of L and S (context 2, queue 2, job 1) has a run
	 * segment on compute1 (resumed_here was 1), without none has. */
	char *text = read_all(path);
	unlink(path);
	assert_true(trace_has_segment(text, "0:0:1", "compute0"));
	assert_true(trace_has_segment(text, "2:2:1", "compute0"));
	assert_int_equal(trace_has_segment(text, "0:0:1", "compute1") +
	                 trace_has_segment(text, "2:2:1", "compute1"),
	                 migrate);
	assert_non_null(strstr(text, "\"name\":\"resume\""));
	free(text);
}

/* L preempted on compute0 by S, compute1 held by B: the state of every
 * bad-input test below (no trace, a watchdog that never fires). */
struct trio {
	swgpu_device *dev;
	struct st_env l, b, s;
	struct hold hb, hs;
	uint32_t *lf;
	swgpu_shader *ls;
};

static void
trio_start_served(struct trio *t, const struct kmd_ring_server *srv)
{
	const uint32_t steps = 1000;
	swgpu_config cfg;

	api_config_small(&cfg);
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 2;
	cfg.hang_timeout_ms = 60000;
	t->dev = api_open(&cfg);
	if (srv)
		kmd_device_set_ring_server(t->dev, srv);
	st_side_init(&t->l, t->dev, 0, SWGPU_PRIORITY_NORMAL);
	st_side_init(&t->b, t->dev, 1, SWGPU_PRIORITY_NORMAL);
	st_side_init(&t->s, t->dev, 0, SWGPU_PRIORITY_NORMAL);
	t->lf = st_buf(&t->l, 16);
	st_buf(&t->l, 8 * LANES);
	t->ls = st_shader(&t->l, sh_migrate_spv, sizeof(sh_migrate_spv), NULL,
	                  NULL, 0);
	submit_dispatch(&t->l, t->ls, &steps, 4, 1);
	wait_nonzero(&t->lf[1]);
	hold_start(&t->b, &t->hb);
	hold_start(&t->s, &t->hs);
}

static void
trio_start(struct trio *t)
{
	trio_start_served(t, NULL);
}

/* Bad input: L's context is destroyed while L takes turns with S on
 * compute0 (B holds compute1). The destroy marks L's job to be dropped
 * at its next pause and an engine ends it there (compute0 at S's slice
 * end): it does not wait for L's hang timeout. B ends only after the
 * destroy returned: had compute1 become idle first, it could take S
 * over and leave L running alone on compute0, never paused (then the
 * destroy rightly waits for the hang timeout, and so did this test,
 * once in about 40 runs under load). B and S complete with their data,
 * their contexts are fine, the engines go on working; nothing leaks
 * (LSan). */
static void
test_context_destroyed_while_preempted(void **state)
{
	struct trio t;
	swgpu_fault_info fi;

	(void)state;
	trio_start(&t);
	swgpu_shader_destroy(t.ls);
	st_side_fini(&t.l);
	hold_end(&t.b, &t.hb);
	assert_int_equal(swgpu_queue_wait(t.s.q, 0, 0), SWGPU_TIMEOUT);
	hold_end(&t.s, &t.hs);
	assert_int_equal(swgpu_context_query_state(t.b.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	assert_int_equal(swgpu_context_query_state(t.s.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	/* The engines still work for the survivors. */
	struct st_env c;
	struct hold hc;
	st_side_init(&c, t.dev, 0, SWGPU_PRIORITY_NORMAL);
	hold_start(&c, &hc);
	hold_end(&c, &hc);
	st_side_fini(&c);
	st_side_fini(&t.b);
	st_side_fini(&t.s);
	swgpu_device_close(t.dev);
}

/* Bad input: the device is closed while L or S (whichever compute0 had
 * paused when B ended) runs on compute1, taken over from compute0 with
 * its save area in use, and the other still runs on compute0:
 * the close ends both (no hang), and frees every save area (LSan). */
static void
test_device_closed_while_taken_over(void **state)
{
	struct trio t;

	(void)state;
	trio_start(&t);
	hold_end(&t.b, &t.hb);
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!stats(t.dev, 1).resumed_here && swgpu_now_ns() < deadline)
		usleep(100);
	assert_int_equal(stats(t.dev, 1).resumed_here, 1);
	swgpu_shader_destroy(t.ls);
	swgpu_shader_destroy(t.hs.s);
	api_cmd_fini(&t.l.cmd);
	api_cmd_fini(&t.b.cmd);
	api_cmd_fini(&t.s.cmd);
	swgpu_device_close(t.dev);
}

/* L's expected output for `groups` workgroups whose gated part was
 * skipped (go already set): n = 0 for every lane. */
static void
check_fixed(const uint32_t *o, uint32_t groups, uint32_t steps)
{
	for (uint32_t g = 0; g < groups; g++) {
		uint32_t x[LANES];
		for (uint32_t i = 0; i < LANES; i++)
			x[i] = lcg((g * LANES + i) * 7u + 3u, steps);
		for (uint32_t i = 0; i < LANES; i++) {
			uint32_t id = g * LANES + i;
			assert_int_equal(o[2 * id + 1], 0);
			assert_int_equal(o[2 * id], x[i] ^ x[(i + 1) % LANES]);
		}
	}
}

/* Stress: three contexts' long dispatches (8 workgroups each) on two
 * compute engines with 1 ms slices, and an interactive context whose
 * short dispatches keep preempting them: long workgroups stop at
 * back-edges, wait, and resume on whichever engine takes them. Every
 * lane of every dispatch bit for bit. */
static void
test_long_jobs_sliced_and_moved_exact(void **state)
{
	const uint32_t groups = 8, long_steps = API_TSAN ? 4000 : 30000;
	const uint32_t short_steps = 100, rounds = API_TSAN ? 10 : 40;
	struct st_env l[3], in;
	uint32_t *lo[3], steps[3];
	swgpu_shader *ls[3];
	swgpu_config cfg;

	(void)state;
	api_config_small(&cfg);
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 2;
	cfg.hang_timeout_ms = 60000;
	cfg.slice_ms = 1;
	swgpu_device *dev = api_open(&cfg);
	for (uint32_t c = 0; c < 3; c++) {
		st_side_init(&l[c], dev, c % 2, SWGPU_PRIORITY_NORMAL);
		uint32_t *f = st_buf(&l[c], 16);
		f[0] = 1; /* no gated part: fixed steps only */
		lo[c] = st_buf(&l[c], 8 * LANES * groups);
		ls[c] = st_shader(&l[c], sh_migrate_spv,
		                  sizeof(sh_migrate_spv), NULL, NULL, 0);
		/* compute1's ends first, while compute0 runs the job that
		 * preempted context 0's: compute1 can then take it over. */
		steps[c] = c == 1 ? long_steps / 4 : long_steps;
		submit_dispatch(&l[c], ls[c], &steps[c], 4, groups);
	}
	st_side_init(&in, dev, 0, SWGPU_PRIORITY_NORMAL);
	uint32_t *inf = st_buf(&in, 16);
	inf[0] = 1;
	uint32_t *ino = st_buf(&in, 8 * LANES);
	swgpu_shader *is = st_shader(&in, sh_migrate_spv,
	                             sizeof(sh_migrate_spv), NULL, NULL, 0);
	for (uint32_t r = 0; r < rounds; r++) {
		memset(ino, 0, 8 * LANES);
		submit_dispatch(&in, is, &short_steps, 4, 1);
		api_ok(swgpu_queue_wait(in.q, 0,
		                        api_deadline_ms(API_WAIT_MS)));
		check_fixed(ino, 1, short_steps);
	}
	for (uint32_t c = 0; c < 3; c++) {
		api_ok(swgpu_queue_wait(l[c].q, 0,
		                        api_deadline_ms(4 * API_WAIT_MS)));
		check_fixed(lo[c], groups, steps[c]);
		swgpu_fault_info fi;
		assert_int_equal(swgpu_context_query_state(l[c].ctx, &fi),
		                 SWGPU_CONTEXT_OK);
	}
	print_message("preemptions %llu + %llu, resumed on another engine "
	              "%llu + %llu\n",
	              (unsigned long long)stats(dev, 0).preemptions,
	              (unsigned long long)stats(dev, 1).preemptions,
	              (unsigned long long)stats(dev, 0).resumed_here,
	              (unsigned long long)stats(dev, 1).resumed_here);
	swgpu_shader_destroy(is);
	st_side_fini(&in);
	for (uint32_t c = 0; c < 3; c++) {
		swgpu_shader_destroy(ls[c]);
		st_side_fini(&l[c]);
	}
	swgpu_device_close(dev);
}

static void
test_preempted_job_resumes_on_idle_engine(void **state)
{
	(void)state;
	preempted_job_moves(true);
}

static void
test_no_migrate_resumes_on_same_engine(void **state)
{
	(void)state;
	preempted_job_moves(false);
}

/* swgpud's view (kmd/ring_server.h) of the engine that takes a job over.
 * A client that sees an engine idle only bumps its bell: the engine
 * looks at the rings before it sleeps. An engine running a job it took
 * over must therefore say busy first (the client then wakes the session
 * thread, and a HIGH record does not wait for the end of that job). The
 * stub serves nothing; at each state change of compute1 it reads how
 * many jobs compute1 has resumed: that count must not grow while
 * compute1 says idle or asleep. */
static struct {
	_Atomic(swgpu_device *) dev;
	_Atomic uint32_t engine;    /* compute1 */
	uint32_t state, resumed;    /* at its last change */
	_Atomic uint32_t busy_resumes, idle_resumes;
} watch;

static void
stub_state(void *arg, uint32_t engine, uint32_t state)
{
	swgpu_engine_stats st;

	(void)arg;
	swgpu_device *dev = atomic_load(&watch.dev);

	if (!dev || engine != atomic_load(&watch.engine) ||
	    swgpu_engine_query_stats(dev, engine, &st) != SWGPU_OK)
		return;
	if (st.resumed_here != watch.resumed) {
		if (watch.state == KMD_ENGINE_BUSY)
			atomic_fetch_add(&watch.busy_resumes, 1);
		else
			atomic_fetch_add(&watch.idle_resumes, 1);
	}
	watch.state = state;
	watch.resumed = (uint32_t)st.resumed_here;
}

static bool
stub_serve(void *arg, uint32_t engine)
{
	(void)arg;
	(void)engine;
	return false;
}

static bool
stub_pending(void *arg)
{
	(void)arg;
	return false;
}

static unsigned
stub_bells(void *arg, uint32_t engine, struct futex_word *words,
           unsigned max)
{
	(void)arg;
	(void)engine;
	(void)words;
	(void)max;
	return 0;
}

static void
test_taken_over_job_busy_for_clients(void **state)
{
	static const struct kmd_ring_server srv = {
		.engine_state = stub_state, .serve = stub_serve,
		.pending = stub_pending, .bells = stub_bells,
	};
	struct trio t;

	(void)state;
	atomic_store(&watch.dev, NULL);
	atomic_store(&watch.engine, UINT32_MAX);
	watch.state = KMD_ENGINE_BUSY; /* B's, set before the watch */
	watch.resumed = 0;
	atomic_store(&watch.busy_resumes, 0);
	atomic_store(&watch.idle_resumes, 0);
	trio_start_served(&t, &srv);
	atomic_store(&watch.engine,
	             api_engine(t.dev, SWGPU_ENGINE_COMPUTE, 1));
	atomic_store(&watch.dev, t.dev);
	/* compute1 goes idle when B ends, and takes L or S over (both
	 * held until released below). */
	hold_end(&t.b, &t.hb);
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!stats(t.dev, 1).resumed_here && swgpu_now_ns() < deadline)
		usleep(100);
	assert_int_equal(stats(t.dev, 1).resumed_here, 1);
	assert_int_equal(swgpu_queue_wait(t.l.q, 0, 0), SWGPU_TIMEOUT);
	assert_int_equal(swgpu_queue_wait(t.s.q, 0, 0), SWGPU_TIMEOUT);
	__atomic_store_n(&t.lf[0], 1u, __ATOMIC_SEQ_CST);
	api_ok(swgpu_queue_wait(t.l.q, 0, api_deadline_ms(API_WAIT_MS)));
	hold_end(&t.s, &t.hs);
	/* The resume is seen at compute1's next change (idle when its
	 * job ended): it happened while compute1 said busy. */
	deadline = api_deadline_ms(API_WAIT_MS);
	while (!atomic_load(&watch.busy_resumes) &&
	       !atomic_load(&watch.idle_resumes) && swgpu_now_ns() < deadline)
		usleep(100);
	assert_int_equal(atomic_load(&watch.idle_resumes), 0);
	assert_int_equal(atomic_load(&watch.busy_resumes), 1);
	swgpu_shader_destroy(t.ls);
	st_side_fini(&t.l);
	st_side_fini(&t.b);
	st_side_fini(&t.s);
	atomic_store(&watch.dev, NULL);
	swgpu_device_close(t.dev);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preempted_job_resumes_on_idle_engine),
		cmocka_unit_test(test_no_migrate_resumes_on_same_engine),
		cmocka_unit_test(test_long_jobs_sliced_and_moved_exact),
		cmocka_unit_test(test_context_destroyed_while_preempted),
		cmocka_unit_test(test_device_closed_while_taken_over),
		cmocka_unit_test(test_taken_over_job_busy_for_clients),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
