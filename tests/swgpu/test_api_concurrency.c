/* SPDX-License-Identifier: MIT */
/*
 * Object churn from many threads at once, for TSan and ASan: threads that
 * create a context, queues, BOs and sync objects, run verified work and
 * tear everything down, while another thread dumps the device and reads
 * engine stats, and others race host signals on one timeline.
 */
#include "api_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHURN_THREADS 3u
#define CHURN_ROUNDS (API_TSAN ? 15u : 40u)
#define CHURN_JOBS 20u

struct shared {
	swgpu_device *dev;
	swgpu_device_info info;
	_Atomic int stop;
	_Atomic uint32_t errors;
	_Atomic uint64_t dumps;
	char first_error[256];
	pthread_mutex_t err_lock;
};

static void
report(struct shared *s, const char *what, swgpu_result r)
{
	pthread_mutex_lock(&s->err_lock);
	if (!s->errors++)
		snprintf(s->first_error, sizeof(s->first_error), "%s: %s",
		         what, swgpu_result_str(r));
	pthread_mutex_unlock(&s->err_lock);
}

#define TRY(s, call)                                                       \
	do {                                                               \
		swgpu_result r_ = (call);                                  \
		if (r_ != SWGPU_OK) {                                      \
			report(s, #call, r_);                              \
			goto out;                                          \
		}                                                          \
	} while (0)

struct churn {
	struct shared *s;
	uint32_t t;
};

/* One round: everything created, used, verified and destroyed. */
static void
churn_round(struct shared *s, uint32_t t, uint32_t round)
{
	swgpu_context *ctx = NULL;
	swgpu_queue *q[2] = { NULL, NULL };
	swgpu_bo *bo = NULL, *cmd_bo = NULL;
	swgpu_syncobj *tl = NULL;
	uint64_t va = 0, cmd_va = 0;
	uint32_t *cmd = NULL;
	uint8_t *out = NULL;

	TRY(s, swgpu_context_create(s->dev, &ctx));
	TRY(s, swgpu_queue_create(ctx, (t + round) & 1 ? SWGPU_ENGINE_COPY
	                                               : SWGPU_ENGINE_COMPUTE,
	                          SWGPU_ENGINE_ANY, SWGPU_PRIORITY_NORMAL,
	                          &q[0]));
	TRY(s, swgpu_queue_create(ctx, (t + round) & 1 ? SWGPU_ENGINE_COMPUTE
	                                               : SWGPU_ENGINE_COPY,
	                          SWGPU_ENGINE_ANY,
	                          (swgpu_priority)(round % 4), &q[1]));
	TRY(s, swgpu_bo_create(s->dev, 65536,
	                       round & 2 ? SWGPU_HEAP_VRAM : SWGPU_HEAP_SYSTEM,
	                       round & 2 ? SWGPU_BO_BAR : SWGPU_BO_CACHED,
	                       &bo));
	TRY(s, swgpu_bo_map(bo, (void **)&out));
	TRY(s, swgpu_va_map(ctx, bo, 0, 65536, SWGPU_VA_READ | SWGPU_VA_WRITE,
	                    &va));
	TRY(s, swgpu_bo_create(s->dev, 65536, SWGPU_HEAP_SYSTEM, 0, &cmd_bo));
	TRY(s, swgpu_bo_map(cmd_bo, (void **)&cmd));
	TRY(s, swgpu_va_map(ctx, cmd_bo, 0, 65536, SWGPU_VA_READ, &cmd_va));
	TRY(s, swgpu_syncobj_create(s->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));

	/* Ping-pong between the two queues along the timeline: job j
	 * copies word j-1 to word j + 1024 and writes word j. */
	uint32_t pos = 0;
	for (uint32_t j = 0; j < CHURN_JOBS; j++) {
		uint32_t start = pos;
		if (j)
			pos += swgpu_emit_copy(cmd + pos, va + 4096 + j * 4,
			                       va + (j - 1) * 4, 4);
		uint32_t n = swgpu_emit_write_data_header(cmd + pos,
		                                          va + j * 4, 1);
		cmd[pos + 3] = (t << 24) | (round << 12) | (j + 1);
		pos += n;
		swgpu_ib ib = { cmd_va + start * 4, pos - start };
		swgpu_sync_point w = { tl, j, 0 }, sg = { tl, j + 1, 0 };
		swgpu_submit_info si = { .ibs = &ib, .ib_count = 1,
		                         .waits = &w, .wait_count = 1,
		                         .signals = &sg, .signal_count = 1 };
		TRY(s, swgpu_submit(q[j & 1], &si, NULL));
	}
	uint64_t last = CHURN_JOBS;
	TRY(s, swgpu_syncobj_wait(&tl, &last, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	for (uint32_t j = 0; j < CHURN_JOBS; j++) {
		uint32_t want = (t << 24) | (round << 12) | (j + 1);
		if (api_load32(out + j * 4) != want ||
		    (j && api_load32(out + 4096 + j * 4) !=
		                  ((t << 24) | (round << 12) | j))) {
			report(s, "churn data", SWGPU_OK);
			break;
		}
	}
out:
	/* Half the rounds leave cleanup to context destroy. */
	if (round & 1) {
		if (va)
			swgpu_va_unmap(ctx, va);
		if (cmd_va)
			swgpu_va_unmap(ctx, cmd_va);
		swgpu_queue_destroy(q[0]);
		swgpu_queue_destroy(q[1]);
	}
	swgpu_context_destroy(ctx);
	if (out)
		swgpu_bo_unmap(bo);
	if (cmd)
		swgpu_bo_unmap(cmd_bo);
	swgpu_bo_destroy(bo);
	swgpu_bo_destroy(cmd_bo);
	swgpu_syncobj_destroy(tl);
}

static void *
churn_main(void *arg)
{
	struct churn *c = arg;
	for (uint32_t r = 0; r < CHURN_ROUNDS && !c->s->errors; r++)
		churn_round(c->s, c->t, r);
	return NULL;
}

static void *
observer_main(void *arg)
{
	struct shared *s = arg;
	FILE *devnull = fopen("/dev/null", "w");
	if (!devnull)
		return NULL;
	while (!s->stop) {
		swgpu_device_dump(s->dev, devnull);
		for (uint32_t e = 0; e < s->info.engine_count; e++) {
			swgpu_engine_stats st;
			swgpu_result r = swgpu_engine_query_stats(s->dev, e,
			                                          &st);
			if (r != SWGPU_OK)
				report(s, "stats", r);
		}
		(void)swgpu_heap_usage(s->dev, SWGPU_HEAP_VRAM);
		s->dumps++;
		/* A dump holds the device lock for a while; back to back
		 * dumps on a 2-core machine would mostly measure lock
		 * convoys. */
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
	fclose(devnull);
	return NULL;
}

static void
test_churn(void **state)
{
	struct shared *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	pthread_mutex_init(&s->err_lock, NULL);
	swgpu_config cfg;
	api_config_small(&cfg);
	s->dev = api_open(&cfg);
	swgpu_device_query_info(s->dev, &s->info);
	uint64_t vram0 = swgpu_heap_usage(s->dev, SWGPU_HEAP_VRAM);
	uint64_t sys0 = swgpu_heap_usage(s->dev, SWGPU_HEAP_SYSTEM);

	pthread_t obs, th[CHURN_THREADS];
	struct churn c[CHURN_THREADS];
	uint64_t t0 = swgpu_now_ns();
	assert_int_equal(pthread_create(&obs, NULL, observer_main, s), 0);
	for (uint32_t t = 0; t < CHURN_THREADS; t++) {
		c[t] = (struct churn){ s, t };
		assert_int_equal(pthread_create(&th[t], NULL, churn_main,
		                                &c[t]), 0);
	}
	for (uint32_t t = 0; t < CHURN_THREADS; t++)
		pthread_join(th[t], NULL);
	s->stop = 1;
	pthread_join(obs, NULL);
	print_message("churn: %u threads x %u rounds, %llu dumps, %.1f ms\n",
	              CHURN_THREADS, CHURN_ROUNDS,
	              (unsigned long long)s->dumps,
	              (swgpu_now_ns() - t0) / 1e6);
	if (s->errors)
		fail_msg("%u errors, first: %s", s->errors, s->first_error);
	assert_true(s->dumps > 0);
	/* Everything was given back. */
	assert_true(swgpu_heap_usage(s->dev, SWGPU_HEAP_VRAM) == vram0);
	assert_true(swgpu_heap_usage(s->dev, SWGPU_HEAP_SYSTEM) == sys0);
	swgpu_device_close(s->dev);
	pthread_mutex_destroy(&s->err_lock);
	free(s);
}

/* Host signals racing on one timeline: exactly the increasing ones
 * succeed, the others get TIMELINE_REWIND, and the value ends at the
 * maximum. */
struct racer {
	swgpu_syncobj *tl;
	uint32_t t;
	uint32_t ok, rewind, other;
};

static void *
racer_main(void *arg)
{
	struct racer *r = arg;
	for (uint64_t v = r->t + 1; v <= 20000; v += 4) {
		swgpu_result res = swgpu_syncobj_signal(r->tl, v);
		if (res == SWGPU_OK)
			r->ok++;
		else if (res == SWGPU_ERR_TIMELINE_REWIND)
			r->rewind++;
		else
			r->other++;
	}
	return NULL;
}

static void
test_racing_host_signals(void **state)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	swgpu_device *dev = api_open(&cfg);
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	struct racer r[4];
	pthread_t th[4];
	uint64_t t0 = swgpu_now_ns();
	for (uint32_t t = 0; t < 4; t++) {
		r[t] = (struct racer){ .tl = tl, .t = t };
		assert_int_equal(pthread_create(&th[t], NULL, racer_main,
		                                &r[t]), 0);
	}
	/* A waiter for the last point, concurrently. */
	uint64_t top = 20000;
	api_ok(swgpu_syncobj_wait(&tl, &top, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	uint32_t ok = 0, total = 0;
	for (uint32_t t = 0; t < 4; t++) {
		pthread_join(th[t], NULL);
		assert_int_equal(r[t].other, 0);
		ok += r[t].ok;
		total += r[t].ok + r[t].rewind;
	}
	print_message("racing signals: %u succeeded, %.1f ms\n", ok,
	              (swgpu_now_ns() - t0) / 1e6);
	assert_int_equal(total, 20000);
	assert_true(ok >= 1 && ok <= 20000);
	uint64_t v;
	api_ok(swgpu_syncobj_query(tl, &v));
	assert_true(v == 20000);
	swgpu_syncobj_destroy(tl);
	swgpu_device_close(dev);
}


/*
 * Host <-> GPU ping-pong with spin_us = 0, so every wait sleeps and must
 * be woken: a lost wake-up shows as a wait that times out. Round k: the
 * host signals ping = k; a job pre-submitted on the GPU waits for it,
 * writes k and signals pong = k; the host waits for pong and checks k.
 * Two host threads do this on two engines at once.
 */
#define PP_ROUNDS (API_TSAN ? 300u : 2000u)

struct pingpong {
	swgpu_device *dev;
	swgpu_queue *q;
	struct api_buf *out;
	uint32_t slot;
	swgpu_syncobj *ping, *pong;
	uint32_t errors;
	uint64_t worst_ns;
};

static void *
pingpong_main(void *arg)
{
	struct pingpong *p = arg;
	for (uint32_t k = 1; k <= PP_ROUNDS; k++) {
		uint64_t t0 = swgpu_now_ns();
		if (swgpu_syncobj_signal(p->ping, k) != SWGPU_OK) {
			p->errors++;
			break;
		}
		uint64_t v = k;
		if (swgpu_syncobj_wait(&p->pong, &v, 1, 0,
		                       api_deadline_ms(10000), NULL) !=
		    SWGPU_OK) {
			p->errors++;
			break;
		}
		uint64_t dt = swgpu_now_ns() - t0;
		if (dt > p->worst_ns)
			p->worst_ns = dt;
		if (api_load32(p->out->cpu + p->slot * 4) != k) {
			p->errors++;
			break;
		}
	}
	return NULL;
}

static void
test_pingpong_no_spin(void **state)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.spin_us = 0;
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	struct api_buf out;
	struct api_cmd cmd;
	api_buf_init(&out, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, PP_ROUNDS * 2 * 8 + 64);
	struct pingpong pp[2];
	pthread_t th[2];
	for (uint32_t i = 0; i < 2; i++) {
		pp[i] = (struct pingpong){ .dev = dev, .out = &out, .slot = i };
		pp[i].q = api_queue(ctx, i ? SWGPU_ENGINE_COPY
		                           : SWGPU_ENGINE_COMPUTE, 0);
		api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0,
		                            &pp[i].ping));
		api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0,
		                            &pp[i].pong));
		/* All GPU halves submitted up front (wait-before-signal). */
		for (uint32_t k = 1; k <= PP_ROUNDS; k++) {
			api_emit_write32(&cmd, out.va + i * 4, k);
			swgpu_ib ib = api_cmd_end(&cmd);
			swgpu_sync_point w = { pp[i].ping, k, 0 };
			swgpu_sync_point sg = { pp[i].pong, k, 0 };
			api_ok(api_submit(pp[i].q, &ib, &w, 1, &sg, 1, NULL));
		}
	}
	for (uint32_t i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, pingpong_main,
		                                &pp[i]), 0);
	for (uint32_t i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (uint32_t i = 0; i < 2; i++) {
		print_message("ping-pong %u: %u rounds, worst %.2f ms\n", i,
		              PP_ROUNDS, pp[i].worst_ns / 1e6);
		assert_int_equal(pp[i].errors, 0);
		api_queue_idle(pp[i].q);
		swgpu_queue_destroy(pp[i].q);
		swgpu_syncobj_destroy(pp[i].ping);
		swgpu_syncobj_destroy(pp[i].pong);
	}
	api_cmd_fini(&cmd);
	api_buf_fini(&out);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_racing_host_signals),
		cmocka_unit_test(test_churn),
		cmocka_unit_test(test_pingpong_no_spin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
