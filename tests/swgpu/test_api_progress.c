/* SPDX-License-Identifier: MIT */
/*
 * Watchdog rule "no progress for the hang timeout": work that runs much
 * longer than the timeout but keeps moving completes. A DISPATCH whose
 * workgroups keep finishing, and a SEM_WAIT whose value keeps counting up
 * towards its target, both outlast a 200 ms timeout (1 s under TSan)
 * several times over.
 * (That a stuck SEM_WAIT or an endless workgroup still is a hang is
 * tested by test_api_watchdog and test_shader_mem.)
 */
#include "shader_test_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sh_spin.spv.h"

/* TSan builds run shader code ~20x slower and stall threads for long
 * stretches under a loaded ctest -j2: a longer timeout there keeps the
 * "each step well inside the timeout" premise true. */
#define TIMEOUT_MS (API_TSAN ? 1000u : 200u)

static uint64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t
spin_ref(uint32_t g, uint32_t n)
{
	uint32_t x = g;
	for (uint32_t i = 0; i < n; i++)
		x = x * 1664525u + 1013904223u;
	return x;
}

static void
test_long_dispatch_progresses(void **state)
{
	struct st_env e;
	swgpu_config cfg;

	(void)state;
	memset(&e, 0, sizeof(e));
	api_config_small(&cfg);
	cfg.hang_timeout_ms = TIMEOUT_MS;
	e.dev = api_open(&cfg);
	api_ok(swgpu_context_create(e.dev, &e.ctx));
	e.q = api_queue(e.ctx, SWGPU_ENGINE_COMPUTE, 0);
	api_cmd_init(&e.cmd, e.dev, e.ctx, 4096);
	api_buf_init(&e.desc, e.dev, e.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&e.table, e.dev, e.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	uint32_t *o = st_buf(&e, 4096);
	swgpu_shader *s = st_shader(&e, sh_spin_spv, sizeof(sh_spin_spv),
	                            NULL, NULL, 0);

	/* Calibrate with 32 groups of n0 steps: no group can take longer
	 * than the whole dispatch, whatever the number of shader threads
	 * and the build (sanitizers are much slower). The compiled back end
	 * (SWGPU_SHADER=jit) may start interpreting and switch to compiled
	 * code when its background compile lands, so a run that ends
	 * within the timeout is calibrated again from its own speed (at
	 * most four times); every run's data is checked. */
	uint32_t n0 = 2000, groups = 32;
	uint64_t t = now_ns();
	api_ok(st_dispatch(&e, s, NULL, &n0, 4, groups, 1, 1));
	uint64_t cal = now_ns() - t;
	for (uint32_t g = 0; g < groups; g++)
		assert_int_equal(o[g], spin_ref(g, n0));
	/* Then every group takes at most a quarter of the timeout, and 16
	 * times as many groups take about four times the timeout. */
	uint64_t n = (uint64_t)n0 * (TIMEOUT_MS * 1000000ull / 4) /
	             (cal ? cal : 1);
	uint64_t ms = 0;
	groups *= 16;
	for (int attempt = 0; attempt < 4 && ms <= TIMEOUT_MS; attempt++) {
		if (attempt) {
			/* the last run's speed: 16x the groups took ms */
			n = n * (4ull * TIMEOUT_MS) / (ms ? ms : 1);
		}
		if (n < n0)
			n = n0;
		if (n > 1u << 30)
			n = 1u << 30;
		uint32_t n32 = (uint32_t)n;
		memset(o, 0, 4096);
		t = now_ns();
		api_ok(st_dispatch(&e, s, NULL, &n32, 4, groups, 1, 1));
		ms = (now_ns() - t) / 1000000u;
		print_message("dispatch of %u groups x %u steps: %llu ms with "
		              "a %u ms watchdog timeout\n", groups, n32,
		              (unsigned long long)ms, TIMEOUT_MS);
		for (uint32_t g = 0; g < groups; g++)
			assert_int_equal(o[g], spin_ref(g, n32));
	}
	assert_true(ms > TIMEOUT_MS);
	swgpu_fault_info f;
	assert_int_equal(swgpu_context_query_state(e.ctx, &f),
	                 SWGPU_CONTEXT_OK);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

struct counter {
	uint8_t *word;
	uint32_t steps;
	uint32_t step_ms;
};

/* The host counts the semaphore up towards its target, one step well
 * inside the timeout each: the workload of the test, not a wait. */
static void *
count_up(void *arg)
{
	struct counter *c = arg;
	struct timespec d = { 0, (long)c->step_ms * 1000000l };

	for (uint32_t i = 1; i <= c->steps; i++) {
		nanosleep(&d, NULL);
		__atomic_store_n((uint64_t *)c->word, i, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void
test_long_sem_wait_progresses(void **state)
{
	(void)state;
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.hang_timeout_ms = TIMEOUT_MS;
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	struct api_buf sem, out;
	struct api_cmd cmd;
	api_buf_init(&sem, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_buf_init(&out, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 256);
	api_store64(sem.cpu, 0);
	memset(out.cpu, 0, 64);

	struct counter c = { sem.cpu, 40, TIMEOUT_MS / 8 };
	api_emit_timestamp(&cmd, out.va);
	api_emit_sem_wait(&cmd, sem.va, c.steps);
	api_emit_timestamp(&cmd, out.va + 8);
	api_emit_write32(&cmd, out.va + 16, 0x600d);
	swgpu_ib ib = api_cmd_end(&cmd);
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, count_up, &c), 0);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	swgpu_result r = swgpu_queue_wait(q, 0,
	                                  api_deadline_ms(API_WAIT_MS));
	pthread_join(th, NULL);
	api_check(SWGPU_OK, r);
	assert_int_equal(api_load32(out.cpu + 16), 0x600d);
	uint64_t ms = (api_load64(out.cpu + 8) - api_load64(out.cpu)) /
	              1000000u;
	print_message("SEM_WAIT counted up for %llu ms with a %u ms watchdog "
	              "timeout\n", (unsigned long long)ms, TIMEOUT_MS);
	assert_true(ms > 2 * TIMEOUT_MS);

	api_cmd_fini(&cmd);
	api_buf_fini(&out);
	api_buf_fini(&sem);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_dispatch_progresses),
		cmocka_unit_test(test_long_sem_wait_progresses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
