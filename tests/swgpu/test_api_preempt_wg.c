/* SPDX-License-Identifier: MIT */
/*
 * Preemption inside a running workgroup (issue 20): a workgroup stops at
 * a loop back-edge, its whole state goes to its job's save area, and it
 * resumes there later.
 *  - an endless workgroup no longer holds its engine: a HIGH job of
 *    another context on the same engine runs and completes while it is
 *    preempted, and the watchdog still declares it hung later;
 *  - a long finite workgroup stopped hundreds of times (the
 *    SWGPU_PREEMPT_CHAOS knob: stops at random back-edges) ends with
 *    exact data; without room for a save area it runs to its end;
 *  - randomized: dispatches with shared memory, barriers and divergent
 *    loops, preempted at random points, give bit for bit the results of
 *    unpreempted runs (and of the host);
 *  - a context destroyed, or the device closed, while one of its jobs is
 *    preempted inside a workgroup: no hang, no leak (LSan), the other
 *    context's work completes with its data.
 */
#include "shader_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh_endless.spv.h"
#include "sh_preempt_mix.spv.h"
#include "sh_spin.spv.h"

/* An IB dispatching s over groups with buffer 0 bound and push. */
static swgpu_ib
record_dispatch(struct st_env *e, swgpu_shader *s, const void *push,
                uint32_t push_size, uint32_t groups)
{
	struct swgpu_bind_table bt;

	memset(&bt, 0, sizeof(bt));
	swgpu_write_buffer_descriptor(e->desc.cpu,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e->bufs[0].va, e->bufs[0].size);
	bt.set_va[0] = e->desc.va;
	if (push_size)
		memcpy(bt.push_constants, push, push_size);
	memcpy(e->table.cpu, &bt, sizeof(bt));
	swgpu_emit_dispatch(api_cmd_reserve(&e->cmd, SWGPU_LEN_DISPATCH),
	                    swgpu_shader_code_va(s), e->table.va, groups, 1, 1,
	                    0, 0, 0);
	return api_cmd_end(&e->cmd);
}

static uint32_t
spin_ref(uint32_t g, uint32_t n)
{
	uint32_t x = g;
	for (uint32_t i = 0; i < n; i++)
		x = x * 1664525u + 1013904223u;
	return x;
}

static uint64_t
preemptions(swgpu_device *dev)
{
	swgpu_engine_stats st;

	api_ok(swgpu_engine_query_stats(
		dev, api_engine(dev, SWGPU_ENGINE_COMPUTE, 0), &st));
	return st.preemptions;
}

/* The endless workgroup of a LOW context, running (it said so). */
static swgpu_shader *
start_endless(struct st_env *a, uint32_t **flags)
{
	*flags = st_buf(a, 16);
	swgpu_shader *s = st_shader(a, sh_endless_spv, sizeof(sh_endless_spv),
	                            NULL, NULL, 0);
	swgpu_ib ib = record_dispatch(a, s, NULL, 0, 1);
	api_ok(api_submit(a->q, &ib, NULL, 0, NULL, 0, NULL));
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!api_load32(&(*flags)[0]) && swgpu_now_ns() < deadline)
		;
	assert_int_equal(api_load32(&(*flags)[0]), 1);
	return s;
}

/* B (priority prio_b, another context) on the engine an endless
 * workgroup of A (LOW) holds: HIGH preempts it as soon as it is ready,
 * LOW gets in when A's time slice (SWGPU_SLICE_MS) has ended — both by
 * stopping A's workgroup at a back-edge. */
static void
endless_preempted_then_hung(swgpu_priority prio_b)
{
	const uint32_t groups = 8, steps = 1000;
	swgpu_config cfg;
	struct st_env a, b;
	uint32_t *flags;

	api_config_small(&cfg);
	/* Long enough that the HIGH job is done well before. */
	cfg.hang_timeout_ms = API_TSAN ? 8000 : 3000;
	/* One compute engine: LOW and HIGH share it (with two, engines
	 * chosen per job would run HIGH on the idle one). */
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 1;
	swgpu_device *dev = api_open(&cfg);
	st_side_init(&a, dev, 0, SWGPU_PRIORITY_LOW);
	st_side_init(&b, dev, 0, prio_b);
	swgpu_shader *sa = start_endless(&a, &flags);

	/* B, same engine: runs while the endless group is preempted. */
	uint32_t *o = st_buf(&b, 4 * groups);
	swgpu_shader *sb = st_shader(&b, sh_spin_spv, sizeof(sh_spin_spv),
	                             NULL, NULL, 0);
	swgpu_ib ib = record_dispatch(&b, sb, &steps, 4, groups);
	api_ok(api_submit(b.q, &ib, NULL, 0, NULL, 0, NULL));
	api_ok(swgpu_queue_wait(b.q, 0, api_deadline_ms(API_WAIT_MS)));
	for (uint32_t g = 0; g < groups; g++)
		assert_int_equal(o[g], spin_ref(g, steps));
	swgpu_fault_info fi;
	/* Done before the endless one was declared hung: it really ran
	 * inside the endless workgroup. */
	assert_int_equal(swgpu_context_query_state(a.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	assert_true(preemptions(dev) >= 1);

	/* The endless one is still hung after its own run time. */
	assert_int_not_equal(swgpu_queue_wait(a.q, 0,
	                                      api_deadline_ms(API_WAIT_MS)),
	                     SWGPU_OK);
	assert_int_equal(swgpu_context_query_state(a.ctx, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_HANG);
	assert_int_equal(swgpu_context_query_state(b.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	swgpu_shader_destroy(sa);
	swgpu_shader_destroy(sb);
	st_side_fini(&a);
	st_side_fini(&b);
	swgpu_device_close(dev);
}

static void
test_endless_preempted_then_hung(void **state)
{
	(void)state;
	endless_preempted_then_hung(SWGPU_PRIORITY_HIGH);
}

static void
test_endless_sliced_for_same_priority(void **state)
{
	(void)state;
	endless_preempted_then_hung(SWGPU_PRIORITY_LOW);
}

static void
test_long_workgroup_stopped_many_times(void **state)
{
	/* Compiled loops poll every JIT_LOOP_POLL (1024) blocks, 8 times
	 * less often than the interpreter: they get the long loop even
	 * under TSan (their code is not instrumented). */
	const bool jit = api_jit_mode();
	const uint32_t steps = API_TSAN && !jit ? 20000 : 200000;
	swgpu_config cfg;
	struct st_env e;

	(void)state;
	api_config_small(&cfg);
	cfg.preempt_chaos = 4;
	swgpu_device *dev = api_open(&cfg);
	st_side_init(&e, dev, 0, SWGPU_PRIORITY_NORMAL);
	uint32_t *o = st_buf(&e, 4);
	swgpu_shader *s = st_shader(&e, sh_spin_spv, sizeof(sh_spin_spv),
	                            NULL, NULL, 0);
	swgpu_ib ib = record_dispatch(&e, s, &steps, 4, 1);
	api_ok(api_submit(e.q, &ib, NULL, 0, NULL, 0, NULL));
	api_ok(swgpu_queue_wait(e.q, 0, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(o[0], spin_ref(0, steps));
	/* One workgroup: every stop was inside it. */
	uint64_t n = preemptions(dev);
	print_message("1 workgroup of %u loop steps: %llu preemptions\n",
	              steps, (unsigned long long)n);
	assert_true(n >= 100);
	swgpu_shader_destroy(s);
	st_side_fini(&e);
	swgpu_device_close(dev);
}

/* No room for a save area: the stops asked for fall back to finishing
 * the workgroup (a single one: no stop at all), with the right data. */
static void
test_no_save_area_finishes_workgroup(void **state)
{
	const uint32_t steps = API_TSAN ? 5000 : 50000;
	swgpu_config cfg;
	struct st_env e;
	swgpu_bo *filler = NULL;

	(void)state;
	api_config_small(&cfg);
	cfg.system_size = 64ull << 20;
	cfg.preempt_chaos = 2;
	swgpu_device *dev = api_open(&cfg);
	st_side_init(&e, dev, 0, SWGPU_PRIORITY_NORMAL);
	uint32_t *o = st_buf(&e, 4);
	swgpu_shader *s = st_shader(&e, sh_spin_spv, sizeof(sh_spin_spv),
	                            NULL, NULL, 0);
	swgpu_ib ib = record_dispatch(&e, s, &steps, 4, 1);
	/* Fill the SYSTEM heap but one page (the area needs more). */
	uint64_t used = swgpu_heap_usage(dev, SWGPU_HEAP_SYSTEM);
	api_ok(swgpu_bo_create(dev, cfg.system_size - used - 4096,
	                       SWGPU_HEAP_SYSTEM, 0, &filler));
	api_ok(api_submit(e.q, &ib, NULL, 0, NULL, 0, NULL));
	api_ok(swgpu_queue_wait(e.q, 0, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(o[0], spin_ref(0, steps));
	assert_int_equal(preemptions(dev), 0);
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(e.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	swgpu_bo_destroy(filler);
	/* With room again, the same dispatch stops inside. */
	o[0] = 0;
	api_ok(api_submit(e.q, &ib, NULL, 0, NULL, 0, NULL));
	api_ok(swgpu_queue_wait(e.q, 0, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(o[0], spin_ref(0, steps));
	assert_true(preemptions(dev) > 0);
	swgpu_shader_destroy(s);
	st_side_fini(&e);
	swgpu_device_close(dev);
}

/* sh_preempt_mix.comp on the host: workgroup g's 64 results. */
static void
mix_ref(uint32_t g, uint32_t n, uint32_t seed, uint32_t *out)
{
	uint32_t x[64], sh[64], y[64];

	for (uint32_t l = 0; l < 64; l++) {
		uint32_t v = g * 64u + l + seed;
		uint32_t iters = n + ((v * 2654435761u) >> 27);
		for (uint32_t i = 0; i < iters; i++) {
			v = v * 1664525u + 1013904223u;
			if ((v & 3u) == 0)
				v ^= v >> 7;
		}
		x[l] = sh[l] = v;
	}
	for (uint32_t r = 0; r < 4; r++) {
		for (uint32_t l = 0; l < 64; l++)
			y[l] = sh[(l + r * 7u + 1u) & 63u];
		for (uint32_t l = 0; l < 64; l++) {
			uint32_t k = y[l] & 7u;
			for (uint32_t j = 0; j < k; j++)
				y[l] = y[l] * 747796405u + 2891336453u;
			sh[l] = y[l] ^ x[l];
		}
	}
	for (uint32_t l = 0; l < 64; l++)
		out[l] = sh[l] + x[l];
}

#define MIX_MAX_GROUPS 6u

/* One dispatch of sh_preempt_mix on e's device: the results in out. */
static void
mix_run(struct st_env *e, swgpu_shader *s, uint32_t groups, uint32_t n,
        uint32_t seed, uint32_t *out)
{
	const uint32_t push[2] = { n, seed };
	uint32_t *o = (uint32_t *)(void *)e->bufs[0].cpu;

	memset(o, 0, 4 * 64 * MIX_MAX_GROUPS);
	swgpu_ib ib = record_dispatch(e, s, push, sizeof(push), groups);
	api_ok(api_submit(e->q, &ib, NULL, 0, NULL, 0, NULL));
	api_ok(swgpu_queue_wait(e->q, 0, api_deadline_ms(API_WAIT_MS)));
	memcpy(out, o, 4 * 64 * groups);
}

static void
test_random_preemption_bit_exact(void **state)
{
	const uint32_t devices = API_TSAN ? 2 : 6;
	const uint32_t runs = API_TSAN ? 30 : 50;
	uint64_t rng = 0x9e3779b97f4a7c15ull, stops = 0;
	static uint32_t got[64 * MIX_MAX_GROUPS], ref[64 * MIX_MAX_GROUPS];
	static uint32_t host[64 * MIX_MAX_GROUPS];
	swgpu_config cfg;
	struct st_env plain;

	(void)state;
	/* The unpreempted reference device. */
	api_config_small(&cfg);
	cfg.no_preempt = true;
	st_side_init(&plain, api_open(&cfg), 0, SWGPU_PRIORITY_NORMAL);
	st_buf(&plain, 4 * 64 * MIX_MAX_GROUPS);
	swgpu_shader *ps = st_shader(&plain, sh_preempt_mix_spv,
	                             sizeof(sh_preempt_mix_spv), NULL, NULL, 0);
	for (uint32_t d = 0; d < devices; d++) {
		struct st_env e;

		api_config_small(&cfg);
		/* From a stop at nearly every back-edge to a few. */
		cfg.preempt_chaos = 1 + (uint32_t)(api_rand(&rng) % 20);
		st_side_init(&e, api_open(&cfg), 0, SWGPU_PRIORITY_NORMAL);
		st_buf(&e, 4 * 64 * MIX_MAX_GROUPS);
		swgpu_shader *s = st_shader(&e, sh_preempt_mix_spv,
		                            sizeof(sh_preempt_mix_spv), NULL,
		                            NULL, 0);
		for (uint32_t r = 0; r < runs; r++) {
			uint32_t groups = 1 + (uint32_t)(api_rand(&rng) %
			                                 MIX_MAX_GROUPS);
			uint32_t n = (uint32_t)(api_rand(&rng) % 300);
			uint32_t seed = (uint32_t)api_rand(&rng);

			mix_run(&e, s, groups, n, seed, got);
			mix_run(&plain, ps, groups, n, seed, ref);
			for (uint32_t g = 0; g < groups; g++)
				mix_ref(g, n, seed, host + 64 * g);
			assert_memory_equal(ref, host, 4 * 64 * groups);
			assert_memory_equal(got, ref, 4 * 64 * groups);
		}
		stops += preemptions(e.dev);
		swgpu_shader_destroy(s);
		swgpu_device *dev = e.dev;
		st_side_fini(&e);
		swgpu_device_close(dev);
	}
	print_message("%u dispatches, %llu preemptions\n", devices * runs,
	              (unsigned long long)stops);
	/* The interpreter asks at every 8th back-edge, compiled code every
	 * JIT_LOOP_POLL blocks: about 2 and 1.3 stops per dispatch. Half a
	 * stop per dispatch proves the random stops happened (a run without
	 * them has none) without making the count a coin toss (one CI run
	 * of 30 JIT dispatches under TSan saw 29). */
	assert_true(2 * stops >= devices * runs);
	assert_int_equal(preemptions(plain.dev), 0);
	swgpu_shader_destroy(ps);
	swgpu_device *dev = plain.dev;
	st_side_fini(&plain);
	swgpu_device_close(dev);
}

/* An endless LOW job preempted inside its workgroup by a HIGH one of
 * another context that is running: a dispatch of many groups (its first
 * groups are done), or (hold) another endless one that stops when the
 * test writes hold_flags[1]. */
struct held {
	swgpu_device *dev;
	struct st_env a, b;
	swgpu_shader *sa, *sb;
	uint32_t *o, *hold_flags;
	uint32_t groups, steps;
};

static void
held_start(struct held *h, bool hold)
{
	swgpu_config cfg;
	uint32_t *flags;

	api_config_small(&cfg);
	cfg.hang_timeout_ms = API_TSAN ? 8000 : 3000;
	/* One compute engine: LOW and HIGH share it (with two, engines
	 * chosen per job would run HIGH on the idle one). */
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 1;
	h->dev = api_open(&cfg);
	h->groups = 64;
	h->steps = API_TSAN ? 20000 : 100000;
	st_side_init(&h->a, h->dev, 0, SWGPU_PRIORITY_LOW);
	st_side_init(&h->b, h->dev, 0, SWGPU_PRIORITY_HIGH);
	h->sa = start_endless(&h->a, &flags);
	if (hold) {
		/* Runs only while LOW is stopped: started says so. */
		h->sb = start_endless(&h->b, &h->hold_flags);
		h->o = NULL;
		return;
	}
	h->o = st_buf(&h->b, 4 * h->groups);
	h->sb = st_shader(&h->b, sh_spin_spv, sizeof(sh_spin_spv), NULL,
	                  NULL, 0);
	swgpu_ib ib = record_dispatch(&h->b, h->sb, &h->steps, 4, h->groups);
	api_ok(api_submit(h->b.q, &ib, NULL, 0, NULL, 0, NULL));
	/* HIGH runs only while LOW is stopped at a preemption point. */
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!api_load32(&h->o[0]) && swgpu_now_ns() < deadline)
		;
	assert_int_not_equal(api_load32(&h->o[0]), 0);
}

/* The state dump shows the preempted job, its save area and the
 * workgroup saved inside it with the block it resumes at. */
static void
test_dump_shows_save_area(void **state)
{
	struct held h;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	held_start(&h, true);
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	swgpu_device_dump(h.dev, f);
	fclose(f);
	print_message("%s", strstr(text, "preempted job") ?
	              strstr(text, "preempted job") : text);
	assert_non_null(strstr(text, "preempted job 0:0:1 on compute0"));
	assert_non_null(strstr(text, "1 workgroups saved inside"));
	assert_non_null(strstr(text, "workgroup 0 resumes at block"));
	assert_null(strstr(text, "save area 0 bytes"));
	free(text);
	/* Let HIGH end: it completes, LOW goes on (and is aborted by the
	 * device close). */
	__atomic_store_n(&h.hold_flags[1], 1u, __ATOMIC_SEQ_CST);
	api_ok(swgpu_queue_wait(h.b.q, 0, api_deadline_ms(API_WAIT_MS)));
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(h.b.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	swgpu_shader_destroy(h.sa);
	swgpu_shader_destroy(h.sb);
	api_cmd_fini(&h.a.cmd);
	api_cmd_fini(&h.b.cmd);
	swgpu_device_close(h.dev);
}

static void
test_context_destroyed_while_preempted(void **state)
{
	struct held h;

	(void)state;
	held_start(&h, false);
	swgpu_shader_destroy(h.sa);
	st_side_fini(&h.a); /* its job preempted inside its workgroup */
	api_ok(swgpu_queue_wait(h.b.q, 0, api_deadline_ms(API_WAIT_MS)));
	for (uint32_t g = 0; g < h.groups; g++)
		assert_int_equal(h.o[g], spin_ref(g, h.steps));
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(h.b.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	swgpu_shader_destroy(h.sb);
	st_side_fini(&h.b);
	swgpu_device_close(h.dev);
}

static void
test_device_closed_while_preempted(void **state)
{
	struct held h;

	(void)state;
	held_start(&h, false);
	/* Everything still alive goes with the device: the endless job,
	 * preempted, is aborted at its next back-edge (no hang), its
	 * save area freed (LSan). */
	swgpu_shader_destroy(h.sa);
	swgpu_shader_destroy(h.sb);
	api_cmd_fini(&h.a.cmd);
	api_cmd_fini(&h.b.cmd);
	swgpu_device_close(h.dev);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_endless_preempted_then_hung),
		cmocka_unit_test(test_endless_sliced_for_same_priority),
		cmocka_unit_test(test_long_workgroup_stopped_many_times),
		cmocka_unit_test(test_no_save_area_finishes_workgroup),
		cmocka_unit_test(test_random_preemption_bit_exact),
		cmocka_unit_test(test_dump_shows_save_area),
		cmocka_unit_test(test_context_destroyed_while_preempted),
		cmocka_unit_test(test_device_closed_while_preempted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
