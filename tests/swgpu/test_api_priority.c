/* SPDX-License-Identifier: MIT */
/*
 * Queue priorities on one engine: with the ring (4 KiB) full of a LOW
 * queue's work and more LOW jobs waiting in the scheduler, a HIGH job
 * submitted later enters the ring ahead of the waiting LOW jobs; and LOW
 * work still completes while HIGH work keeps coming (no starvation).
 * Execution order is read back from data: every job copies the engine's
 * "last job" word into its log entry, then writes its own id there.
 */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>

#define NLOW 400u

static void
emit_logged(struct api_cmd *c, const struct api_buf *b, uint32_t id)
{
	api_emit_copy(c, b->va + 64 + (uint64_t)id * 4, b->va, 4);
	api_emit_write32(c, b->va, id);
}

static void
test_high_overtakes_pending_low(void **state)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	/* One copy engine, shared by the queues (with two, engines
	 * chosen per job would give each queue its own). */
	cfg.engine_count[SWGPU_ENGINE_COPY] = 1;
	cfg.ring_size = 4096;
	/* Ring order is what is checked here: with preemption, HIGH would
	 * run while LOW job 1 waits (test_api_preempt covers that). */
	cfg.no_preempt = true;
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *lo, *hi;
	api_ok(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_LOW, &lo));
	api_ok(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_HIGH, &hi));
	struct api_buf b, gate;
	struct api_cmd cmd;
	api_buf_init(&b, dev, ctx, 64 + (NLOW + 8) * 4, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&gate, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_cmd_init(&cmd, dev, ctx, (NLOW + 8) * 32);

	/* LOW job 1 stalls the engine on a gate the host opens later. */
	api_emit_sem_wait(&cmd, gate.va, 1);
	emit_logged(&cmd, &b, 1);
	swgpu_ib first = api_cmd_end(&cmd);
	api_ok(api_submit(lo, &first, NULL, 0, NULL, 0, NULL));
	for (uint32_t id = 2; id <= NLOW; id++) {
		emit_logged(&cmd, &b, id);
		swgpu_ib ib = api_cmd_end(&cmd);
		api_ok(api_submit(lo, &ib, NULL, 0, NULL, 0, NULL));
	}
	const uint32_t hid = NLOW + 1;
	emit_logged(&cmd, &b, hid);
	swgpu_ib hib = api_cmd_end(&cmd);
	api_ok(api_submit(hi, &hib, NULL, 0, NULL, 0, NULL));
	/* Shared mode: these submits reach the daemon's scheduler through
	 * the session's ring, after the call returns; any request is
	 * served after them (swgpu.h, swgpu_submit). */
	(void)swgpu_queue_engine(hi);
	api_store64(gate.cpu, 1);
	api_queue_idle(hi);
	api_queue_idle(lo);

	const uint32_t *log = (const uint32_t *)(b.cpu + 64);
	uint32_t before_high = log[hid];
	print_message("HIGH job ran after LOW job %u of %u\n", before_high,
	              NLOW);
	/* Everything ran exactly once, LOW in order. */
	for (uint32_t id = 2; id <= NLOW; id++) {
		uint32_t want = id - 1;
		if (id - 1 == before_high)
			want = hid; /* HIGH slipped in right here */
		assert_int_equal(log[id], want);
	}
	assert_int_equal(log[1], 0);
	/* Only what fit in the 4 KiB ring before HIGH arrived may run
	 * ahead of it -- far fewer than NLOW - 100 jobs. */
	assert_true(before_high >= 1 && before_high < NLOW - 100);
	api_cmd_fini(&cmd);
	api_buf_fini(&gate);
	api_buf_fini(&b);
	swgpu_queue_destroy(lo);
	swgpu_queue_destroy(hi);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_high_overtakes_pending_low),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
