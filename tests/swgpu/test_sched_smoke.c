/* SPDX-License-Identifier: MIT */
/*
 * CORE-B smoke tests of the execution half: engines, rings, fences, sync
 * objects, scheduler, fault isolation, close. Public API only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

#define WAIT_NS (30ull * 1000000000ull)

static uint64_t
deadline(void)
{
	return swgpu_deadline_from_timeout(WAIT_NS);
}

static void
small_config(swgpu_config *cfg)
{
	swgpu_config_init(cfg);
	cfg->vram_size = 64ull << 20;
	cfg->bar_size = 16ull << 20;
	cfg->system_size = 64ull << 20;
	cfg->engine_count[SWGPU_ENGINE_GRAPHICS] = 1;
	cfg->engine_count[SWGPU_ENGINE_COMPUTE] = 2;
	cfg->engine_count[SWGPU_ENGINE_COPY] = 2;
	cfg->fault = NULL;
}

/* A host-visible buffer mapped into ctx. */
struct buf {
	swgpu_bo *bo;
	uint8_t *cpu;
	uint64_t va;
	uint64_t size;
};

static void
buf_make(swgpu_device *dev, swgpu_context *ctx, uint64_t size,
         struct buf *b)
{
	void *p = NULL;

	b->size = size;
	assert_int_equal(swgpu_bo_create(dev, size, SWGPU_HEAP_SYSTEM, 0,
	                                 &b->bo), SWGPU_OK);
	assert_int_equal(swgpu_bo_map(b->bo, &p), SWGPU_OK);
	b->cpu = p;
	assert_int_equal(swgpu_va_map(ctx, b->bo, 0, size,
	                              SWGPU_VA_READ | SWGPU_VA_WRITE, &b->va),
	                 SWGPU_OK);
}

static void
buf_free(swgpu_context *ctx, struct buf *b)
{
	assert_int_equal(swgpu_va_unmap(ctx, b->va), SWGPU_OK);
	swgpu_bo_unmap(b->bo);
	swgpu_bo_destroy(b->bo);
}

/* Submit one IB of ndw dwords (at ib.va + off*4) with waits/signals. */
static uint64_t
submit_ib(swgpu_queue *q, uint64_t va, uint32_t ndw,
          const swgpu_sync_point *waits, uint32_t nw,
          const swgpu_sync_point *sigs, uint32_t ns)
{
	swgpu_ib ib = { .va = va, .size_dw = ndw };
	swgpu_submit_info si = {
		.ibs = &ib, .ib_count = ndw ? 1 : 0,
		.waits = waits, .wait_count = nw,
		.signals = sigs, .signal_count = ns,
	};
	uint64_t seqno = 0;
	assert_int_equal(swgpu_submit(q, &si, &seqno), SWGPU_OK);
	return seqno;
}

/* COPY jobs on two copy engines, fences and stats. */
static void
test_copy_two_engines(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q[2];
	struct buf src, dst, ib;

	small_config(&cfg);
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ctx), SWGPU_OK);
	for (int i = 0; i < 2; i++)
		assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, i,
		                                    SWGPU_PRIORITY_NORMAL,
		                                    &q[i]), SWGPU_OK);
	assert_int_not_equal(swgpu_queue_engine(q[0]),
	                     swgpu_queue_engine(q[1]));
	buf_make(dev, ctx, 65536, &src);
	buf_make(dev, ctx, 65536, &dst);
	buf_make(dev, ctx, 4096, &ib);
	for (uint32_t i = 0; i < 65536; i++)
		src.cpu[i] = (uint8_t)(i * 7 + 3);

	uint32_t *p = (uint32_t *)ib.cpu;
	/* Each engine copies one half. */
	swgpu_emit_copy(p, dst.va, src.va, 32768);
	swgpu_emit_copy(p + 8, dst.va + 32768, src.va + 32768, 32768);
	uint64_t s0 = submit_ib(q[0], ib.va, SWGPU_LEN_COPY, NULL, 0, NULL, 0);
	uint64_t s1 = submit_ib(q[1], ib.va + 32, SWGPU_LEN_COPY, NULL, 0,
	                        NULL, 0);
	assert_int_equal(s0, 1);
	assert_int_equal(s1, 1);
	assert_int_equal(swgpu_queue_wait(q[0], 0, deadline()), SWGPU_OK);
	assert_int_equal(swgpu_queue_wait(q[1], s1, deadline()), SWGPU_OK);
	assert_int_equal(swgpu_queue_completed(q[0]), 1);
	assert_memory_equal(dst.cpu, src.cpu, 65536);

	swgpu_engine_stats st;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(swgpu_engine_query_stats(
			dev, swgpu_queue_engine(q[i]), &st), SWGPU_OK);
		assert_int_equal(st.jobs_completed, 1);
		assert_int_equal(st.fence_seqno, 1);
		assert_true(st.bytes_written >= 32768);
	}
	swgpu_device_info info;
	swgpu_device_query_info(dev, &info);
	assert_int_equal(info.engine_count, 5);
	assert_string_equal(info.engines[0].name, "compute0");
	assert_string_equal(info.engines[3].name, "copy1");
	assert_string_equal(info.engines[4].name, "gfx0");

	buf_free(ctx, &src);
	buf_free(ctx, &dst);
	buf_free(ctx, &ib);
	swgpu_queue_destroy(q[0]);
	swgpu_queue_destroy(q[1]);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/*
 * Timeline across two engines, submitted in reverse order: B (engine 1)
 * waits T>=2 and copies X to Y, signals 3; A (engine 0) waits T>=1,
 * writes X, signals 2; the host signals 1 last.
 */
static void
test_timeline_two_engines(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *qa, *qb;
	swgpu_syncobj *t;
	struct buf data, ib;

	small_config(&cfg);
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ctx), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COMPUTE, 0,
	                                    SWGPU_PRIORITY_NORMAL, &qa),
	                 SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 1,
	                                    SWGPU_PRIORITY_HIGH, &qb),
	                 SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0,
	                                      &t), SWGPU_OK);
	buf_make(dev, ctx, 4096, &data);
	buf_make(dev, ctx, 4096, &ib);

	uint32_t *p = (uint32_t *)ib.cpu;
	/* A: write 0xabcd0001.. into X (data + 0). */
	uint32_t n = swgpu_emit_write_data_header(p, data.va, 4);
	for (uint32_t i = 0; i < 4; i++)
		p[3 + i] = 0xabcd0001u + i;
	/* B: copy X to Y (data + 256). */
	swgpu_emit_copy(p + 16, data.va + 256, data.va, 16);

	swgpu_sync_point wb = { .obj = t, .value = 2 };
	swgpu_sync_point sb = { .obj = t, .value = 3 };
	swgpu_sync_point wa = { .obj = t, .value = 1 };
	swgpu_sync_point sa = { .obj = t, .value = 2 };
	submit_ib(qb, ib.va + 64, SWGPU_LEN_COPY, &wb, 1, &sb, 1);
	submit_ib(qa, ib.va, n, &wa, 1, &sa, 1);

	uint64_t v = 3;
	assert_int_equal(swgpu_syncobj_wait(&t, &v, 1, SWGPU_WAIT_ALL,
	                                    swgpu_now_ns() + 1000000, NULL),
	                 SWGPU_TIMEOUT);
	assert_int_equal(swgpu_queue_completed(qa), 0);
	assert_int_equal(swgpu_queue_completed(qb), 0);
	/* Waiting for availability of 3: its signal is submitted. */
	assert_int_equal(swgpu_syncobj_wait(&t, &v, 1, SWGPU_WAIT_AVAILABLE,
	                                    deadline(), NULL), SWGPU_OK);
	assert_int_equal(swgpu_syncobj_signal(t, 1), SWGPU_OK);
	assert_int_equal(swgpu_syncobj_wait(&t, &v, 1, SWGPU_WAIT_ALL,
	                                    deadline(), NULL), SWGPU_OK);
	uint64_t cur = 0;
	assert_int_equal(swgpu_syncobj_query(t, &cur), SWGPU_OK);
	assert_int_equal(cur, 3);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(((uint32_t *)(data.cpu + 256))[i],
		                 0xabcd0001u + i);
	assert_int_equal(swgpu_syncobj_signal(t, 3),
	                 SWGPU_ERR_TIMELINE_REWIND);

	buf_free(ctx, &data);
	buf_free(ctx, &ib);
	swgpu_syncobj_destroy(t);
	swgpu_context_destroy(ctx); /* destroys the queues too */
	swgpu_device_close(dev);
}

/*
 * Wait-before-signal: a job waiting on a point nobody submitted blocks
 * its own queue (in order) but not another queue on the same engine; a
 * host signal releases it.
 */
static void
test_wait_before_signal(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q1, *q2;
	swgpu_syncobj *t;
	struct buf data, ib;

	small_config(&cfg);
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ctx), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COMPUTE, 0,
	                                    SWGPU_PRIORITY_NORMAL, &q1),
	                 SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COMPUTE, 0,
	                                    SWGPU_PRIORITY_NORMAL, &q2),
	                 SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0,
	                                      &t), SWGPU_OK);
	buf_make(dev, ctx, 4096, &data);
	buf_make(dev, ctx, 4096, &ib);
	uint32_t *p = (uint32_t *)ib.cpu;
	for (uint32_t i = 0; i < 3; i++) {
		swgpu_emit_write_data_header(p + 8 * i, data.va + 4 * i, 1);
		p[8 * i + 3] = 100 + i;
	}

	swgpu_sync_point w = { .obj = t, .value = 5 };
	submit_ib(q1, ib.va, 4, &w, 1, NULL, 0);
	submit_ib(q1, ib.va + 32, 4, NULL, 0, NULL, 0);
	submit_ib(q2, ib.va + 64, 4, NULL, 0, NULL, 0);
	assert_int_equal(swgpu_queue_wait(q2, 1, deadline()), SWGPU_OK);
	assert_int_equal(((uint32_t *)data.cpu)[2], 102);
	assert_int_equal(swgpu_queue_wait(q1, 2, swgpu_now_ns() + 2000000),
	                 SWGPU_TIMEOUT);
	assert_int_equal(swgpu_queue_completed(q1), 0);
	assert_int_equal(((uint32_t *)data.cpu)[1], 0);

	/* The dump names the blocked jobs and what they wait for. */
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	assert_non_null(mem);
	swgpu_device_dump(dev, mem);
	fclose(mem);
	char want[64];
	snprintf(want, sizeof(want), "job %u:%u:1 PENDING",
	         swgpu_context_id(ctx), swgpu_queue_id(q1));
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "job %u:%u:2 PENDING",
	         swgpu_context_id(ctx), swgpu_queue_id(q1));
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, ">= 5 (current 0)"));
	assert_non_null(strstr(text, "no signal submitted yet"));
	free(text);

	assert_int_equal(swgpu_syncobj_signal(t, 5), SWGPU_OK);
	assert_int_equal(swgpu_queue_wait(q1, 0, deadline()), SWGPU_OK);
	assert_int_equal(((uint32_t *)data.cpu)[0], 100);
	assert_int_equal(((uint32_t *)data.cpu)[1], 101);

	buf_free(ctx, &data);
	buf_free(ctx, &ib);
	swgpu_syncobj_destroy(t);
	swgpu_queue_destroy(q1);
	swgpu_queue_destroy(q2);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* Tiny ring, hundreds of jobs: back-pressure, nothing lost or reordered. */
static void
test_ring_backpressure(void **state)
{
	enum { JOBS = 600 };
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	swgpu_syncobj *t;
	struct buf data, ib;

	small_config(&cfg);
	cfg.ring_size = 4096;
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ctx), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY,
	                                    SWGPU_ENGINE_ANY,
	                                    SWGPU_PRIORITY_NORMAL, &q),
	                 SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0,
	                                      &t), SWGPU_OK);
	buf_make(dev, ctx, JOBS * 4, &data);
	buf_make(dev, ctx, JOBS * 32, &ib);
	uint32_t *p = (uint32_t *)ib.cpu;
	for (uint32_t i = 0; i < JOBS; i++) {
		/* Each job writes its index and the previous job's value + 1
		 * can't be checked on the GPU; order shows in the timeline. */
		swgpu_emit_write_data_header(p + 8 * i, data.va + 4 * i, 1);
		p[8 * i + 3] = i + 1;
	}
	for (uint32_t i = 0; i < JOBS; i++) {
		swgpu_sync_point s = { .obj = t, .value = i + 1 };
		/* Several IBs per job, some jobs above the inline count. */
		swgpu_ib ibs[6];
		uint32_t nib = 1 + i % 6;
		for (uint32_t k = 0; k < nib; k++)
			ibs[k] = (swgpu_ib){ ib.va + 32 * i, 4 };
		swgpu_submit_info si = {
			.ibs = ibs, .ib_count = nib,
			.signals = &s, .signal_count = 1,
		};
		uint64_t seqno;
		assert_int_equal(swgpu_submit(q, &si, &seqno), SWGPU_OK);
		assert_int_equal(seqno, i + 1);
	}
	assert_int_equal(swgpu_queue_wait(q, 0, deadline()), SWGPU_OK);
	assert_int_equal(swgpu_queue_completed(q), JOBS);
	for (uint32_t i = 0; i < JOBS; i++)
		assert_int_equal(((uint32_t *)data.cpu)[i], i + 1);
	uint64_t v = 0;
	/* A timeline fault would mean jobs ran out of order. */
	assert_int_equal(swgpu_syncobj_query(t, &v), SWGPU_OK);
	assert_int_equal(v, JOBS);
	assert_int_equal(swgpu_context_query_state(ctx, NULL),
	                 SWGPU_CONTEXT_OK);

	buf_free(ctx, &data);
	buf_free(ctx, &ib);
	swgpu_syncobj_destroy(t);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* A full ring: a HIGH priority queue's job enters before the backlog of
 * a LOW priority queue on the same engine. The engine is held on a gate
 * (SEM_WAIT on a host-written word) until both queues have submitted, and
 * every job stamps the time it ran, so the check does not depend on how
 * fast the host thread happens to run. */
static void
test_priority(void **state)
{
	enum { JOBS = 400 };
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *lo, *hi;
	struct buf data, ib, stamps;

	small_config(&cfg);
	cfg.ring_size = 4096;
	/* One copy engine for both queues: with two, engines chosen per
	 * job would run HIGH on the idle one, beside LOW (and both fill
	 * the same buffer). */
	cfg.engine_count[SWGPU_ENGINE_COPY] = 1;
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ctx), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                                    SWGPU_PRIORITY_LOW, &lo),
	                 SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                                    SWGPU_PRIORITY_HIGH, &hi),
	                 SWGPU_OK);
	buf_make(dev, ctx, 256 * 1024, &data);
	buf_make(dev, ctx, (JOBS + 2) * 16 * sizeof(uint32_t), &ib);
	buf_make(dev, ctx, (JOBS + 2) * sizeof(uint64_t), &stamps);
	uint64_t *gate = (uint64_t *)stamps.cpu + JOBS + 1;
	uint32_t *p = (uint32_t *)ib.cpu;
	/* IB j (16 dwords each): [gate wait for j == 0] FILL, TIMESTAMP. */
	for (uint32_t j = 0; j <= JOBS; j++) {
		uint32_t *q = p + 16 * j, n = 0;
		if (j == 0)
			n += swgpu_emit_sem_wait(q, stamps.va + 8 * (JOBS + 1),
			                         1);
		else
			n += swgpu_emit_nop(q, SWGPU_LEN_SEM_WAIT);
		n += swgpu_emit_fill(q + n, data.va, 256 * 1024, 0x33333333u);
		n += swgpu_emit_timestamp(q + n, stamps.va + 8 * j);
		assert_true(n <= 16);
	}
	/* LOW jobs 0..JOBS-1 use IBs 0..JOBS-1; the HIGH job IB JOBS. */
	for (uint32_t i = 0; i < JOBS; i++)
		submit_ib(lo, ib.va + 64 * i,
		          SWGPU_LEN_SEM_WAIT + SWGPU_LEN_FILL +
		          SWGPU_LEN_TIMESTAMP, NULL, 0, NULL, 0);
	submit_ib(hi, ib.va + 64 * JOBS,
	          SWGPU_LEN_SEM_WAIT + SWGPU_LEN_FILL + SWGPU_LEN_TIMESTAMP,
	          NULL, 0, NULL, 0);
	__atomic_store_n(gate, 1, __ATOMIC_RELEASE);
	assert_int_equal(swgpu_queue_wait(hi, 1, deadline()), SWGPU_OK);
	assert_int_equal(swgpu_queue_wait(lo, 0, deadline()), SWGPU_OK);
	const uint64_t *ts = (const uint64_t *)stamps.cpu;
	/* LOW jobs ran in order, and the HIGH one overtook the backlog
	 * that was still outside the ring (the ring holds far fewer than
	 * JOBS jobs). */
	for (uint32_t i = 1; i < JOBS; i++)
		assert_true(ts[i] >= ts[i - 1]);
	assert_true(ts[JOBS] != 0);
	assert_true(ts[JOBS] < ts[JOBS - 1]);
	assert_int_equal(((uint32_t *)data.cpu)[0], 0x33333333u);

	buf_free(ctx, &data);
	buf_free(ctx, &ib);
	buf_free(ctx, &stamps);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* A page fault in ctx A: A guilty, its syncobj in error; B on the same
 * engine unaffected. */
static void
test_fault_isolation(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ca, *cb;
	swgpu_queue *qa, *qb;
	swgpu_syncobj *sa;
	struct buf ib_a, ib_b, data_b;

	small_config(&cfg);
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ca), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &cb), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ca, SWGPU_ENGINE_COMPUTE, 0,
	                                    SWGPU_PRIORITY_NORMAL, &qa),
	                 SWGPU_OK);
	assert_int_equal(swgpu_queue_create(cb, SWGPU_ENGINE_COMPUTE, 0,
	                                    SWGPU_PRIORITY_NORMAL, &qb),
	                 SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_BINARY, 0,
	                                      &sa), SWGPU_OK);
	buf_make(dev, ca, 4096, &ib_a);
	buf_make(dev, cb, 4096, &ib_b);
	buf_make(dev, cb, 4096, &data_b);

	/* A: FILL at an address just past its IB mapping's end. */
	uint64_t bad = ib_a.va + 4096;
	swgpu_emit_fill((uint32_t *)ib_a.cpu, bad, 64, 0x11111111u);
	swgpu_emit_fill((uint32_t *)ib_b.cpu, data_b.va, 64, 0x22222222u);
	swgpu_sync_point sig = { .obj = sa };
	submit_ib(qa, ib_a.va, SWGPU_LEN_FILL, NULL, 0, &sig, 1);
	/* A's second job is behind the fault: it fails too, or is refused
	 * if the fault was already seen. */
	swgpu_ib ib2 = { .va = ib_a.va, .size_dw = SWGPU_LEN_FILL };
	swgpu_submit_info si2 = { .ibs = &ib2, .ib_count = 1 };
	swgpu_result r2 = swgpu_submit(qa, &si2, NULL);
	assert_true(r2 == SWGPU_OK || r2 == SWGPU_ERR_CONTEXT_LOST);
	submit_ib(qb, ib_b.va, SWGPU_LEN_FILL, NULL, 0, NULL, 0);

	assert_int_equal(swgpu_queue_wait(qa, 1, deadline()),
	                 SWGPU_ERR_CONTEXT_LOST);
	assert_int_equal(swgpu_syncobj_wait(&sa, NULL, 1, 0, deadline(),
	                                    NULL), SWGPU_ERR_CONTEXT_LOST);
	assert_int_equal(swgpu_queue_wait(qb, 1, deadline()), SWGPU_OK);
	assert_int_equal(((uint32_t *)data_b.cpu)[15], 0x22222222u);

	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(ca, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_PAGE_WRITE);
	assert_int_equal(fi.address, bad);
	assert_int_equal(fi.queue_id, swgpu_queue_id(qa));
	assert_int_equal(fi.job_seqno, 1);
	assert_int_equal(swgpu_context_query_state(cb, NULL),
	                 SWGPU_CONTEXT_OK);
	swgpu_submit_info si = { 0 };
	assert_int_equal(swgpu_submit(qa, &si, NULL), SWGPU_ERR_CONTEXT_LOST);
	/* B keeps working after the fault. */
	submit_ib(qb, ib_b.va, SWGPU_LEN_FILL, NULL, 0, NULL, 0);
	assert_int_equal(swgpu_queue_wait(qb, 0, deadline()), SWGPU_OK);

	/* Injected fault on B's job 3, then job 4 is never accepted. */
	assert_int_equal(swgpu_debug_inject_fault(qb, 3,
	                                          SWGPU_FAULT_INJECTED),
	                 SWGPU_OK);
	submit_ib(qb, ib_b.va, SWGPU_LEN_FILL, NULL, 0, NULL, 0);
	assert_int_equal(swgpu_queue_wait(qb, 3, deadline()),
	                 SWGPU_ERR_CONTEXT_LOST);
	assert_int_equal(swgpu_context_query_state(cb, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_INJECTED);
	assert_int_equal(fi.job_seqno, 3);

	swgpu_device_dump(dev, stderr);
	buf_free(ca, &ib_a);
	buf_free(cb, &ib_b);
	buf_free(cb, &data_b);
	swgpu_syncobj_destroy(sa);
	swgpu_context_destroy(ca);
	swgpu_context_destroy(cb);
	swgpu_device_close(dev);
}

/* Binary payloads: attach on submit signal, consume on wait. */
static void
test_binary(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q0, *q1;
	swgpu_syncobj *b;

	small_config(&cfg);
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ctx), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                                    SWGPU_PRIORITY_NORMAL, &q0),
	                 SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 1,
	                                    SWGPU_PRIORITY_NORMAL, &q1),
	                 SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_BINARY, 0,
	                                      &b), SWGPU_OK);
	swgpu_sync_point sp = { .obj = b };
	swgpu_submit_info wait_only = { .waits = &sp, .wait_count = 1 };
	assert_int_equal(swgpu_submit(q1, &wait_only, NULL),
	                 SWGPU_ERR_NOT_SUBMITTED);
	assert_int_equal(swgpu_syncobj_wait(&b, NULL, 1, 0, deadline(), NULL),
	                 SWGPU_ERR_NOT_SUBMITTED);
	for (int round = 0; round < 50; round++) {
		swgpu_submit_info sig = { .signals = &sp, .signal_count = 1 };
		assert_int_equal(swgpu_submit(q0, &sig, NULL), SWGPU_OK);
		assert_int_equal(swgpu_submit(q1, &wait_only, NULL), SWGPU_OK);
		/* Consumed. */
		assert_int_equal(swgpu_submit(q1, &wait_only, NULL),
		                 SWGPU_ERR_NOT_SUBMITTED);
	}
	assert_int_equal(swgpu_queue_wait(q1, 0, deadline()), SWGPU_OK);
	assert_int_equal(swgpu_queue_completed(q1), 50);
	assert_int_equal(swgpu_syncobj_signal(b, 0), SWGPU_OK);
	assert_int_equal(swgpu_syncobj_wait(&b, NULL, 1, 0, deadline(), NULL),
	                 SWGPU_OK);
	assert_int_equal(swgpu_syncobj_reset(b), SWGPU_OK);
	uint64_t v = 7;
	assert_int_equal(swgpu_syncobj_query(b, &v), SWGPU_OK);
	assert_int_equal(v, 0);
	swgpu_syncobj_destroy(b);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* Close with pending (never released) and in-ring jobs: no hang, the
 * pending job's signal completes with an error. Leaks show under LSan. */
static void
test_close_with_pending(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	swgpu_syncobj *t, *done;
	struct buf data, ib;

	small_config(&cfg);
	cfg.hang_timeout_ms = 2000;
	assert_int_equal(swgpu_device_open(&cfg, &dev), SWGPU_OK);
	assert_int_equal(swgpu_context_create(dev, &ctx), SWGPU_OK);
	assert_int_equal(swgpu_queue_create(ctx, SWGPU_ENGINE_COMPUTE, 1,
	                                    SWGPU_PRIORITY_LOW, &q),
	                 SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0,
	                                      &t), SWGPU_OK);
	assert_int_equal(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0,
	                                      &done), SWGPU_OK);
	buf_make(dev, ctx, 1 << 20, &data);
	buf_make(dev, ctx, 4096, &ib);
	swgpu_emit_fill((uint32_t *)ib.cpu, data.va, 1 << 20, 0x5a5a5a5au);
	for (int i = 0; i < 20; i++)
		submit_ib(q, ib.va, SWGPU_LEN_FILL, NULL, 0, NULL, 0);
	swgpu_sync_point w = { .obj = t, .value = 1 };
	swgpu_sync_point s = { .obj = done, .value = 1 };
	submit_ib(q, ib.va, SWGPU_LEN_FILL, &w, 1, &s, 1);
	/* Leak on purpose: close frees the queue, context, BOs, syncobjs. */
	uint64_t t0 = swgpu_now_ns();
	swgpu_device_close(dev);
	assert_true(swgpu_now_ns() - t0 < 3000000000ull);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_two_engines),
		cmocka_unit_test(test_timeline_two_engines),
		cmocka_unit_test(test_wait_before_signal),
		cmocka_unit_test(test_ring_backpressure),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_fault_isolation),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_close_with_pending),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
