/* SPDX-License-Identifier: MIT */
/*
 * Submission edge cases: argument errors (which must queue nothing and
 * use no seqno), many threads submitting to ONE queue (seqno order is
 * execution order), a dependency on another context's failed job, two
 * devices in one process, and the job trace.
 */
#include "api_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fix {
	swgpu_device *dev;
	swgpu_device_info info;
	swgpu_context *ctx;
	swgpu_queue *q;
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
	swgpu_device_query_info(f->dev, &f->info);
	api_ok(swgpu_context_create(f->dev, &f->ctx));
	f->q = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 0);
	api_cmd_init(&f->cmd, f->dev, f->ctx, 256 * 1024);
	api_buf_init(&f->out, f->dev, f->ctx, 1 << 20, SWGPU_HEAP_SYSTEM,
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
	swgpu_queue_destroy(f->q);
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

static void
test_bad_arguments(void **state)
{
	struct fix *f = *state;
	swgpu_queue *q = f->q;
	uint64_t s0 = 0, s1 = 0;
	api_ok(api_submit(q, NULL, NULL, 0, NULL, 0, &s0));

	api_emit_write32(&f->cmd, f->out.va, 0xbad);
	swgpu_ib ib = api_cmd_end(&f->cmd);
	swgpu_ib bad_ib;
	swgpu_submit_info si;

	api_check(SWGPU_ERR_INVALID_ARG, swgpu_submit(q, NULL, NULL));
	si = (swgpu_submit_info){ .ibs = NULL, .ib_count = 1 };
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_submit(q, &si, NULL));
	bad_ib = ib;
	bad_ib.va += 2; /* not 4-byte aligned */
	api_check(SWGPU_ERR_INVALID_ARG,
	          api_submit(q, &bad_ib, NULL, 0, NULL, 0, NULL));
	bad_ib = ib;
	bad_ib.size_dw = f->info.max_ib_size_dw + 1;
	api_check(SWGPU_ERR_INVALID_ARG,
	          api_submit(q, &bad_ib, NULL, 0, NULL, 0, NULL));
	swgpu_sync_point null_obj = { NULL, 1, 0 };
	api_check(SWGPU_ERR_INVALID_ARG,
	          api_submit(q, &ib, &null_obj, 1, NULL, 0, NULL));
	api_check(SWGPU_ERR_INVALID_ARG,
	          api_submit(q, &ib, NULL, 0, &null_obj, 1, NULL));
	si = (swgpu_submit_info){ .ibs = &ib, .ib_count = 1,
	                          .wait_count = 1 };
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_submit(q, &si, NULL));
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_submit(NULL, &si, NULL));

	/* A sync object of another device. */
	swgpu_device *other = api_open(NULL);
	swgpu_syncobj *foreign;
	api_ok(swgpu_syncobj_create(other, SWGPU_SYNCOBJ_TIMELINE, 0,
	                            &foreign));
	swgpu_sync_point fp = { foreign, 1, 0 };
	api_check(SWGPU_ERR_INVALID_ARG,
	          api_submit(q, &ib, NULL, 0, &fp, 1, NULL));
	api_check(SWGPU_ERR_INVALID_ARG,
	          api_submit(q, &ib, &fp, 1, NULL, 0, NULL));
	swgpu_syncobj_destroy(foreign);

	/* None of that queued anything or used a seqno. */
	api_ok(api_submit(q, NULL, NULL, 0, NULL, 0, &s1));
	assert_true(s1 == s0 + 1);
	api_queue_idle(q);
	assert_int_equal(api_load32(f->out.cpu), 0);
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_queue_wait(q, s1 + 1, api_deadline_ms(10)));
	assert_int_equal(swgpu_context_query_state(f->ctx, NULL),
	                 SWGPU_CONTEXT_OK);

	/* Queue / sync object creation errors. */
	swgpu_queue *bq = NULL;
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_queue_create(f->ctx, SWGPU_ENGINE_CLASS_COUNT, 0,
	                             SWGPU_PRIORITY_NORMAL, &bq));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_queue_create(f->ctx, SWGPU_ENGINE_COPY,
	                             f->info.engine_class_count
	                                     [SWGPU_ENGINE_COPY],
	                             SWGPU_PRIORITY_NORMAL, &bq));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_queue_create(f->ctx, SWGPU_ENGINE_COPY, 0,
	                             SWGPU_PRIORITY_COUNT, &bq));
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_queue_create(f->ctx, SWGPU_ENGINE_COPY, 0,
	                             SWGPU_PRIORITY_NORMAL, NULL));
	assert_null(bq);
	swgpu_syncobj *so = NULL;
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_syncobj_create(f->dev, (swgpu_syncobj_type)7, 0, &so));
	assert_null(so);

	/* A BO of another device cannot be mapped: its memory belongs to
	 * that device's heaps and dies with it. */
	swgpu_bo *fbo;
	uint64_t va = 0;
	api_ok(swgpu_bo_create(other, 4096, SWGPU_HEAP_SYSTEM, 0, &fbo));
	swgpu_result r = swgpu_va_map(f->ctx, fbo, 0, 4096, SWGPU_VA_READ,
	                              &va);
	if (r == SWGPU_OK)
		swgpu_va_unmap(f->ctx, va); /* don't leave it dangling */
	swgpu_bo_destroy(fbo);
	swgpu_device_close(other);
	api_check(SWGPU_ERR_INVALID_ARG, r);
}

/* SWGPU_ENGINE_ANY lands on an engine of the right class, and queues
 * get increasing device-wide ids. */
static void
test_engine_any(void **state)
{
	struct fix *f = *state;
	swgpu_queue *qs[4];
	uint32_t last_id = swgpu_queue_id(f->q);
	for (int i = 0; i < 4; i++) {
		swgpu_engine_class cls = i & 1 ? SWGPU_ENGINE_COPY
		                               : SWGPU_ENGINE_COMPUTE;
		qs[i] = api_queue(f->ctx, cls, SWGPU_ENGINE_ANY);
		uint32_t e = swgpu_queue_engine(qs[i]);
		assert_true(e < f->info.engine_count);
		assert_int_equal(f->info.engines[e].engine_class, cls);
		assert_true(swgpu_queue_id(qs[i]) > last_id);
		last_id = swgpu_queue_id(qs[i]);
		api_emit_write32(&f->cmd, f->out.va + i * 4, 0xa0 + i);
		swgpu_ib ib = api_cmd_end(&f->cmd);
		api_ok(api_submit(qs[i], &ib, NULL, 0, NULL, 0, NULL));
	}
	for (int i = 0; i < 4; i++) {
		api_queue_idle(qs[i]);
		assert_int_equal(api_load32(f->out.cpu + i * 4), 0xa0 + i);
		swgpu_queue_destroy(qs[i]);
	}
}

/*
 * Four threads submit 1000 jobs each to one queue. Job (t, k) copies the
 * queue's "last" word into its log entry, then writes its tag into
 * "last". Sorting jobs by the seqno swgpu returned, each must have seen
 * the tag of the job with the previous seqno: seqno order is execution
 * order, and no seqno is lost or duplicated.
 */
#define MT_THREADS 4u
#define MT_JOBS 1000u

struct mt {
	struct fix *f;
	struct api_cmd cmd[MT_THREADS];
	uint64_t seqno[MT_THREADS * MT_JOBS];
	_Atomic uint32_t errors;
};

struct mt_arg {
	struct mt *m;
	uint32_t t;
};

static void *
mt_main(void *arg)
{
	struct mt_arg *a = arg;
	struct mt *m = a->m;
	struct fix *f = m->f;
	uint64_t last = f->out.va, log = f->out.va + 4096;
	for (uint32_t k = 0; k < MT_JOBS; k++) {
		uint32_t slot = a->t * MT_JOBS + k;
		struct api_cmd *c = &m->cmd[a->t];
		api_emit_copy(c, log + slot * 4, last, 4);
		api_emit_write32(c, last, slot + 1);
		swgpu_ib ib = api_cmd_end(c);
		if (api_submit(f->q, &ib, NULL, 0, NULL, 0, &m->seqno[slot]) !=
		    SWGPU_OK)
			m->errors++;
	}
	return NULL;
}

static void
test_one_queue_many_threads(void **state)
{
	struct fix *f = *state;
	struct mt *m = calloc(1, sizeof(*m));
	assert_non_null(m);
	m->f = f;
	for (uint32_t t = 0; t < MT_THREADS; t++)
		api_cmd_init(&m->cmd[t], f->dev, f->ctx, MT_JOBS * 16);
	uint64_t base = swgpu_queue_completed(f->q);
	api_queue_idle(f->q);
	base = swgpu_queue_completed(f->q);
	pthread_t th[MT_THREADS];
	struct mt_arg args[MT_THREADS];
	for (uint32_t t = 0; t < MT_THREADS; t++) {
		args[t] = (struct mt_arg){ m, t };
		assert_int_equal(pthread_create(&th[t], NULL, mt_main,
		                                &args[t]), 0);
	}
	for (uint32_t t = 0; t < MT_THREADS; t++)
		pthread_join(th[t], NULL);
	assert_int_equal(m->errors, 0);
	api_queue_idle(f->q);
	const uint32_t n = MT_THREADS * MT_JOBS;
	assert_true(swgpu_queue_completed(f->q) == base + n);

	/* by_seqno[s - base - 1] = slot */
	uint32_t *by_seqno = malloc(n * sizeof(*by_seqno));
	assert_non_null(by_seqno);
	memset(by_seqno, 0xff, n * sizeof(*by_seqno));
	for (uint32_t slot = 0; slot < n; slot++) {
		uint64_t s = m->seqno[slot];
		assert_true(s > base && s <= base + n);
		assert_int_equal(by_seqno[s - base - 1], UINT32_MAX);
		by_seqno[s - base - 1] = slot;
	}
	const uint32_t *log = (const uint32_t *)(f->out.cpu + 4096);
	for (uint32_t i = 1; i < n; i++) {
		uint32_t slot = by_seqno[i], prev = by_seqno[i - 1];
		if (log[slot] != prev + 1)
			fail_msg("seqno %llu (slot %u) saw %u, want %u",
			         (unsigned long long)(base + i + 1), slot,
			         log[slot], prev + 1);
	}
	assert_int_equal(api_load32(f->out.cpu), by_seqno[n - 1] + 1);
	free(by_seqno);
	for (uint32_t t = 0; t < MT_THREADS; t++)
		api_cmd_fini(&m->cmd[t]);
	free(m);
}

/*
 * Context B waits on a timeline point that context A's job was to signal;
 * A's job faults. B's dependent job must not run (its data stays unset)
 * and its own signal completes with an error, B is not blamed (never
 * GUILTY), and nothing hangs.
 */
static void
test_dependency_on_failed_context(void **state)
{
	struct fix *f = *state;
	swgpu_context *a;
	api_ok(swgpu_context_create(f->dev, &a));
	swgpu_queue *qa = api_queue(a, SWGPU_ENGINE_COPY, 0);
	struct api_cmd acmd;
	api_cmd_init(&acmd, f->dev, a, 64);
	api_emit_write32(&acmd, 0x10, 1); /* VA 0x10: never mapped */
	swgpu_ib aib = api_cmd_end(&acmd);

	swgpu_syncobj *tl, *out;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &out));
	/* B's job first: it waits before the signal exists. */
	api_emit_write32(&f->cmd, f->out.va, 0xbad);
	swgpu_ib bib = api_cmd_end(&f->cmd);
	swgpu_sync_point w = { tl, 1, 0 }, s = { out, 1, 0 };
	uint64_t bs;
	api_ok(api_submit(f->q, &bib, &w, 1, &s, 1, &bs));
	swgpu_sync_point as = { tl, 1, 0 };
	api_ok(api_submit(qa, &aib, NULL, 0, &as, 1, NULL));

	uint64_t one = 1;
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_syncobj_wait(&out, &one, 1, 0,
	                             api_deadline_ms(API_WAIT_MS), NULL));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(f->q, bs, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(api_load32(f->out.cpu), 0);
	assert_int_equal(swgpu_context_query_state(a, NULL),
	                 SWGPU_CONTEXT_GUILTY);
	swgpu_context_state st = swgpu_context_query_state(f->ctx, NULL);
	assert_true(st == SWGPU_CONTEXT_OK || st == SWGPU_CONTEXT_LOST);
	if (st == SWGPU_CONTEXT_OK) {
		/* Innocent and alive: later work of B runs. */
		api_emit_write32(&f->cmd, f->out.va + 4, 0x900d);
		swgpu_ib ib2 = api_cmd_end(&f->cmd);
		uint64_t s2;
		api_ok(api_submit(f->q, &ib2, NULL, 0, NULL, 0, &s2));
		api_ok(swgpu_queue_wait(f->q, s2,
		                        api_deadline_ms(API_WAIT_MS)));
		assert_int_equal(api_load32(f->out.cpu + 4), 0x900d);
	}
	swgpu_syncobj_destroy(tl);
	swgpu_syncobj_destroy(out);
	api_cmd_fini(&acmd);
	swgpu_queue_destroy(qa);
	swgpu_context_destroy(a);
}

/* Two devices in one process are independent: a fault on one, work on
 * the other; queue ids count per device. */
static void
test_two_devices(void **state)
{
	(void)state;
	swgpu_config cfg;
	api_config_small(&cfg);
	swgpu_device *d[2] = { api_open(&cfg), api_open(&cfg) };
	swgpu_context *c[2];
	swgpu_queue *q[2];
	struct api_cmd cmd[2];
	struct api_buf out[2];
	for (int i = 0; i < 2; i++) {
		api_ok(swgpu_context_create(d[i], &c[i]));
		q[i] = api_queue(c[i], SWGPU_ENGINE_COPY, 0);
		assert_int_equal(swgpu_queue_id(q[i]), 0);
		assert_int_equal(swgpu_context_id(c[i]), 0);
		api_cmd_init(&cmd[i], d[i], c[i], 256);
		api_buf_init(&out[i], d[i], c[i], 4096, SWGPU_HEAP_SYSTEM,
		             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
	}
	api_ok(swgpu_debug_inject_fault(q[0], 1, SWGPU_FAULT_INJECTED));
	for (int i = 0; i < 2; i++) {
		api_emit_write32(&cmd[i], out[i].va, 0x100 + i);
		swgpu_ib ib = api_cmd_end(&cmd[i]);
		api_ok(api_submit(q[i], &ib, NULL, 0, NULL, 0, NULL));
	}
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(q[0], 1, api_deadline_ms(API_WAIT_MS)));
	api_ok(swgpu_queue_wait(q[1], 1, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(api_load32(out[0].cpu), 0);
	assert_int_equal(api_load32(out[1].cpu), 0x101);
	assert_int_equal(swgpu_context_query_state(c[1], NULL),
	                 SWGPU_CONTEXT_OK);
	for (int i = 0; i < 2; i++) {
		api_buf_fini(&out[i]);
		api_cmd_fini(&cmd[i]);
		swgpu_queue_destroy(q[i]);
		swgpu_context_destroy(c[i]);
		swgpu_device_close(d[i]);
	}
}

/* SWGPU_TRACE / cfg.trace: a JSON array (Chrome trace format) holding
 * every job's slice, named ctx:queue:seqno (tests/scripts/check_trace.py
 * checks the format itself). */
static void
test_trace_file(void **state)
{
	(void)state;
	char path[] = "/tmp/swgpu_api_trace_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.trace = path;
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COMPUTE, 1);
	for (int i = 0; i < 3; i++)
		api_ok(api_submit(q, NULL, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);

	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	unlink(path);
	assert_int_equal(buf[0], '[');
	assert_non_null(strstr(buf, "\n]\n"));
	for (int i = 1; i <= 3; i++) {
		char id[48];
		snprintf(id, sizeof(id), "\"ph\":\"X\",\"name\":\"0:0:%d\"", i);
		if (!strstr(buf, id))
			fail_msg("trace lacks job%s:\n%s", id, buf);
	}
}


/* More waits, signals and IBs than fit inline in a job: 10 timelines to
 * wait on (released one by one by the host), 10 to signal, 10 IBs. */
static void
test_many_sync_points(void **state)
{
	struct fix *f = *state;
	enum { N = 10 };
	swgpu_syncobj *w[N], *sg[N];
	swgpu_sync_point wp[N], sp[N];
	swgpu_ib ibs[N];
	for (int i = 0; i < N; i++) {
		api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0,
		                            &w[i]));
		api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0,
		                            &sg[i]));
		wp[i] = (swgpu_sync_point){ w[i], (uint64_t)i + 1, 0 };
		sp[i] = (swgpu_sync_point){ sg[i], 100 + (uint64_t)i, 0 };
		api_emit_write32(&f->cmd, f->out.va + i * 4, 0x50 + i);
		ibs[i] = api_cmd_end(&f->cmd);
	}
	swgpu_submit_info si = { .ibs = ibs, .ib_count = N, .waits = wp,
	                         .wait_count = N, .signals = sp,
	                         .signal_count = N };
	uint64_t s;
	api_ok(swgpu_submit(f->q, &si, &s));
	for (int i = 0; i < N; i++) {
		/* Not yet: wait i is the last one still missing. */
		assert_true(api_stays32(f->out.cpu, 0, i == N - 1 ? 50 : 2));
		api_ok(swgpu_syncobj_signal(w[i], (uint64_t)i + 1));
	}
	api_ok(swgpu_syncobj_wait(sg, (uint64_t[]){ 100, 101, 102, 103, 104,
	                                            105, 106, 107, 108, 109 },
	                          N, SWGPU_WAIT_ALL,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	api_ok(swgpu_queue_wait(f->q, s, api_deadline_ms(API_WAIT_MS)));
	for (int i = 0; i < N; i++) {
		assert_int_equal(api_load32(f->out.cpu + i * 4), 0x50 + i);
		uint64_t v;
		api_ok(swgpu_syncobj_query(sg[i], &v));
		assert_true(v == 100 + (uint64_t)i);
		swgpu_syncobj_destroy(w[i]);
		swgpu_syncobj_destroy(sg[i]);
	}
}

int
main(void)
{
	api_apply_filter();
#define T(fn) cmocka_unit_test_setup_teardown(fn, before, NULL)
	const struct CMUnitTest tests[] = {
		T(test_bad_arguments),
		T(test_engine_any),
		T(test_many_sync_points),
		T(test_one_queue_many_threads),
		T(test_dependency_on_failed_context),
		cmocka_unit_test(test_two_devices),
		cmocka_unit_test(test_trace_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
