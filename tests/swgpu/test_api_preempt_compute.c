/* SPDX-License-Identifier: MIT */
/*
 * Preemption of a DISPATCH at workgroup granularity: a LOW queue's long
 * dispatch (groups that each spin an LCG, sh_spin.comp) runs on a compute
 * engine; a HIGH queue's job on the same engine, submitted once the
 * dispatch is under way, runs before the dispatch ends (its TIMESTAMP
 * falls between the LOW job's two) and the dispatch resumes with the
 * groups not yet run: every group's result is checked.
 */
#include "shader_test_util.h"

#include <string.h>

#include "sh_spin.spv.h"

static uint32_t
spin_ref(uint32_t g, uint32_t n)
{
	uint32_t x = g;
	for (uint32_t i = 0; i < n; i++)
		x = x * 1664525u + 1013904223u;
	return x;
}

static void
test_dispatch_preempted_between_groups(void **state)
{
	const uint32_t groups = 128;
	const uint32_t steps = API_TSAN ? 400 : 4000;
	struct st_env e;
	swgpu_config cfg;
	swgpu_queue *hi;

	(void)state;
	memset(&e, 0, sizeof(e));
	api_config_small(&cfg);
	/* One compute engine: LOW and HIGH share it (with two, engines
	 * chosen per job would run HIGH on the idle one). */
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 1;
	e.dev = api_open(&cfg);
	api_ok(swgpu_context_create(e.dev, &e.ctx));
	api_ok(swgpu_queue_create(e.ctx, SWGPU_ENGINE_COMPUTE, 0,
	                          SWGPU_PRIORITY_LOW, &e.q));
	api_ok(swgpu_queue_create(e.ctx, SWGPU_ENGINE_COMPUTE, 0,
	                          SWGPU_PRIORITY_HIGH, &hi));
	api_cmd_init(&e.cmd, e.dev, e.ctx, 4096);
	api_buf_init(&e.desc, e.dev, e.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&e.table, e.dev, e.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	uint32_t *o = st_buf(&e, 4 * groups);
	struct api_buf ts;
	api_buf_init(&ts, e.dev, e.ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(ts.cpu, 0, 64);
	swgpu_shader *s = st_shader(&e, sh_spin_spv, sizeof(sh_spin_spv),
	                            NULL, NULL, 0);

	struct swgpu_bind_table bt;
	memset(&bt, 0, sizeof(bt));
	swgpu_write_buffer_descriptor(e.desc.cpu,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[0].va, e.bufs[0].size);
	bt.set_va[0] = e.desc.va;
	memcpy(bt.push_constants, &steps, 4);
	memcpy(e.table.cpu, &bt, sizeof(bt));

	/* LOW: TIMESTAMP, DISPATCH, TIMESTAMP. */
	api_emit_timestamp(&e.cmd, ts.va);
	swgpu_emit_dispatch(api_cmd_reserve(&e.cmd, SWGPU_LEN_DISPATCH),
	                    swgpu_shader_code_va(s), e.table.va, groups, 1, 1,
	                    0, 0, 0);
	api_emit_timestamp(&e.cmd, ts.va + 8);
	swgpu_ib lo_ib = api_cmd_end(&e.cmd);
	/* HIGH: TIMESTAMP. */
	api_emit_timestamp(&e.cmd, ts.va + 16);
	swgpu_ib hi_ib = api_cmd_end(&e.cmd);

	/* The HIGH job must come while the dispatch runs; a host that
	 * slept past its end (loaded machine) tries again. */
	uint64_t lo0, lo1, hi0, t_sub;
	uint32_t attempt = 0;
	do {
		assert_true(++attempt <= 5);
		memset(ts.cpu, 0, 64);
		memset(o, 0, 4 * groups);
		api_ok(api_submit(e.q, &lo_ib, NULL, 0, NULL, 0, NULL));
		uint64_t deadline = api_deadline_ms(API_WAIT_MS);
		/* Until the first groups are done, so the dispatch is well
		 * under way (each of its slices ends at a preemption
		 * point). */
		while (!api_load32(&o[0]) && swgpu_now_ns() < deadline)
			;
		t_sub = swgpu_now_ns();
		api_ok(api_submit(hi, &hi_ib, NULL, 0, NULL, 0, NULL));
		api_ok(swgpu_queue_wait(hi, 0, api_deadline_ms(API_WAIT_MS)));
		api_ok(swgpu_queue_wait(e.q, 0,
		                        api_deadline_ms(API_WAIT_MS)));
		lo0 = api_load64(ts.cpu);
		lo1 = api_load64(ts.cpu + 8);
		hi0 = api_load64(ts.cpu + 16);
		for (uint32_t g = 0; g < groups; g++)
			assert_int_equal(o[g], spin_ref(g, steps));
	} while (t_sub >= lo1);
	print_message("dispatch %u groups: %.1f ms; HIGH submitted %.2f ms "
	              "in, started %.3f ms after (attempt %u)\n", groups,
	              (lo1 - lo0) / 1e6, (t_sub - lo0) / 1e6,
	              (hi0 - t_sub) / 1e6, attempt);
	/* Submitted while the dispatch ran: it ran inside it. */
	assert_true(lo0 < hi0 && hi0 < lo1);
	swgpu_engine_stats st;
	api_ok(swgpu_engine_query_stats(
		e.dev, api_engine(e.dev, SWGPU_ENGINE_COMPUTE, 0), &st));
	assert_true(st.preemptions >= 1);
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(e.ctx, &fi),
	                 SWGPU_CONTEXT_OK);
	swgpu_shader_destroy(s);
	api_buf_fini(&ts);
	swgpu_queue_destroy(hi);
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dispatch_preempted_between_groups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
