/* SPDX-License-Identifier: MIT */
/*
 * GPU faults are contained to their context. Each case runs a faulting
 * job in a fresh context A while context B keeps submitting to the same
 * engines; then:
 *   - A is GUILTY with the right fault kind, address, opcode and job;
 *   - A's earlier job's data is there, later jobs never ran;
 *   - submits to A return CONTEXT_LOST and queue nothing;
 *   - waits on sync objects A's failed work was to signal return
 *     CONTEXT_LOST instead of hanging;
 *   - every job of B completed with correct data and B stays OK.
 * Also the fault-injection knobs: swgpu_debug_inject_fault() and the
 * SWGPU_FAULT environment variable, and the hang watchdog.
 */
#include "api_util.h"

#include <sched.h>

#include <stdlib.h>
#include <string.h>

#define HANG_MS 1000u
#define B_JOBS 40u

struct fix {
	swgpu_device *dev;
	swgpu_device_info info;
	/* The innocent bystander. */
	swgpu_context *ctx_b;
	swgpu_queue *qb[2];         /* compute0, copy0 */
	struct api_cmd cmd_b;
	struct api_buf out_b;
	uint32_t b_round;
};

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.hang_timeout_ms = HANG_MS;
	/* One engine per class: A's faults must happen on B's engines
	 * (with two, engines chosen per job may move a queue). */
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 1;
	cfg.engine_count[SWGPU_ENGINE_COPY] = 1;
	api_ok(swgpu_device_open(&cfg, &f->dev));
	swgpu_device_query_info(f->dev, &f->info);
	api_ok(swgpu_context_create(f->dev, &f->ctx_b));
	f->qb[0] = api_queue(f->ctx_b, SWGPU_ENGINE_COMPUTE, 0);
	f->qb[1] = api_queue(f->ctx_b, SWGPU_ENGINE_COPY, 0);
	api_cmd_init(&f->cmd_b, f->dev, f->ctx_b, 64 * 1024);
	api_buf_init(&f->out_b, f->dev, f->ctx_b, 1 << 20, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;
	api_buf_fini(&f->out_b);
	api_cmd_fini(&f->cmd_b);
	swgpu_queue_destroy(f->qb[0]);
	swgpu_queue_destroy(f->qb[1]);
	swgpu_context_destroy(f->ctx_b);
	swgpu_device_close(f->dev);
	free(f);
	return 0;
}

/* B's work for one round: B_JOBS jobs on each B queue, each writing a
 * value unique to (round, queue, job) and copying a 256-byte block so the
 * engines have something to chew on. */
static void
b_submit(struct fix *f, uint32_t round)
{
	for (uint32_t j = 0; j < B_JOBS; j++) {
		for (uint32_t q = 0; q < 2; q++) {
			uint64_t off = ((uint64_t)round * 2 * B_JOBS +
			                q * B_JOBS + j) * 4;
			api_emit_write32(&f->cmd_b, f->out_b.va + off,
			                 0xb0000000u | round << 16 | q << 12 |
			                         j);
			api_emit_copy(&f->cmd_b,
			              f->out_b.va + 0x80000 + q * 0x1000,
			              f->out_b.va + 0x80000 + 0x2000, 256);
			swgpu_ib ib = api_cmd_end(&f->cmd_b);
			api_ok(api_submit(f->qb[q], &ib, NULL, 0, NULL, 0,
			                  NULL));
		}
	}
}

static void
b_check(struct fix *f, uint32_t rounds)
{
	api_queue_idle(f->qb[0]);
	api_queue_idle(f->qb[1]);
	assert_int_equal(swgpu_context_query_state(f->ctx_b, NULL),
	                 SWGPU_CONTEXT_OK);
	const uint32_t *o = (const uint32_t *)f->out_b.cpu;
	for (uint32_t r = 0; r < rounds; r++)
		for (uint32_t q = 0; q < 2; q++)
			for (uint32_t j = 0; j < B_JOBS; j++) {
				uint32_t got =
					o[r * 2 * B_JOBS + q * B_JOBS + j];
				uint32_t want = 0xb0000000u | r << 16 |
				                q << 12 | j;
				if (got != want)
					fail_msg("B round %u q %u job %u: %#x",
					         r, q, j, got);
			}
	api_cmd_reset(&f->cmd_b);
	memset(f->out_b.cpu, 0, 0x80000);
}

/* Context A for one case. */
struct ctx_a {
	swgpu_context *ctx;
	swgpu_queue *q[2];          /* compute0, copy0: B's engines */
	struct api_cmd cmd;
	struct api_buf ok;          /* SYSTEM RW: good results */
	struct api_buf ro;          /* SYSTEM, mapped read-only */
	struct api_buf wo;          /* SYSTEM, mapped write-only */
	struct api_buf edge;        /* SYSTEM RW, 8 KiB: run off its end */
	struct api_buf next;        /* mapped right after edge */
	uint64_t unmapped_va;       /* was mapped, now unmapped */
};

static void
a_init(struct fix *f, struct ctx_a *a)
{
	memset(a, 0, sizeof(*a));
	api_ok(swgpu_context_create(f->dev, &a->ctx));
	a->q[0] = api_queue(a->ctx, SWGPU_ENGINE_COMPUTE, 0);
	a->q[1] = api_queue(a->ctx, SWGPU_ENGINE_COPY, 0);
	assert_int_equal(swgpu_queue_engine(a->q[0]),
	                 swgpu_queue_engine(f->qb[0]));
	assert_int_equal(swgpu_queue_engine(a->q[1]),
	                 swgpu_queue_engine(f->qb[1]));
	api_cmd_init(&a->cmd, f->dev, a->ctx, 4096);
	api_buf_init(&a->ok, f->dev, a->ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&a->ro, f->dev, a->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_buf_init(&a->wo, f->dev, a->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_WRITE);
	api_buf_init(&a->edge, f->dev, a->ctx, 8192, SWGPU_HEAP_VRAM,
	             SWGPU_BO_BAR, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&a->next, f->dev, a->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	struct api_buf tmp;
	api_buf_init(&tmp, f->dev, a->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	a->unmapped_va = tmp.va;
	api_buf_fini(&tmp);
}

static void
a_fini(struct ctx_a *a)
{
	/* Unmapping works on a guilty context (it is cleanup). */
	api_buf_fini(&a->next);
	api_buf_fini(&a->edge);
	api_buf_fini(&a->wo);
	api_buf_fini(&a->ro);
	api_buf_fini(&a->ok);
	api_cmd_fini(&a->cmd);
	swgpu_queue_destroy(a->q[0]);
	swgpu_queue_destroy(a->q[1]);
	swgpu_context_destroy(a->ctx);
}

/* How a case builds its faulting IB, and what the fault must say. */
struct fault_case {
	const char *name;
	void (*emit)(struct ctx_a *a);
	swgpu_fault_kind kind;
	uint32_t opcode;
	/* Expected fault address range [lo, hi] relative to a, or none. */
	uint64_t (*addr_lo)(const struct ctx_a *a);
	uint64_t (*addr_hi)(const struct ctx_a *a);
};

static void
emit_read_unmapped(struct ctx_a *a)
{
	api_emit_copy(&a->cmd, a->ok.va + 64, a->unmapped_va, 16);
}
static uint64_t
unmapped_lo(const struct ctx_a *a)
{
	return a->unmapped_va;
}

static void
emit_write_unmapped(struct ctx_a *a)
{
	api_emit_write32(&a->cmd, a->unmapped_va + 8, 1);
}
static uint64_t
unmapped8(const struct ctx_a *a)
{
	return a->unmapped_va + 8;
}

static void
emit_write_readonly(struct ctx_a *a)
{
	api_emit_write32(&a->cmd, a->ro.va + 64, 0xbad);
}
static uint64_t
ro64(const struct ctx_a *a)
{
	return a->ro.va + 64;
}

static void
emit_copy_to_readonly(struct ctx_a *a)
{
	api_emit_copy(&a->cmd, a->ro.va + 128, a->ok.va, 32);
}
static uint64_t
ro128(const struct ctx_a *a)
{
	return a->ro.va + 128;
}
static uint64_t
ro159(const struct ctx_a *a)
{
	return a->ro.va + 159;
}

static void
emit_read_writeonly(struct ctx_a *a)
{
	api_emit_copy(&a->cmd, a->ok.va + 64, a->wo.va + 16, 4);
}
static uint64_t
wo16(const struct ctx_a *a)
{
	return a->wo.va + 16;
}
static uint64_t
wo19(const struct ctx_a *a)
{
	return a->wo.va + 19;
}

static void
emit_read_past_end(struct ctx_a *a)
{
	api_emit_copy(&a->cmd, a->ok.va + 64, a->edge.va + 8192 - 3, 4);
}
static uint64_t
edge_m3(const struct ctx_a *a)
{
	return a->edge.va + 8192 - 3;
}
static uint64_t
edge_end(const struct ctx_a *a)
{
	return a->edge.va + 8192;
}

static void
emit_write_past_end(struct ctx_a *a)
{
	api_emit_copy(&a->cmd, a->edge.va + 8192 - 7, a->ok.va, 8);
}
static uint64_t
edge_m7(const struct ctx_a *a)
{
	return a->edge.va + 8192 - 7;
}

static void
emit_write_data_past_end(struct ctx_a *a)
{
	uint32_t d[2] = { 0x11, 0x22 };
	api_emit_write(&a->cmd, a->edge.va + 8192 - 4, d, 2);
}
static uint64_t
edge_m4(const struct ctx_a *a)
{
	return a->edge.va + 8192 - 4;
}

static void
emit_fill_past_end(struct ctx_a *a)
{
	api_emit_fill(&a->cmd, a->edge.va + 4096, 4096 + 4, 0x12345678);
}
static uint64_t
edge_4k(const struct ctx_a *a)
{
	return a->edge.va + 4096;
}

static void
emit_bad_opcode(struct ctx_a *a)
{
	*api_cmd_reserve(&a->cmd, 1) = swgpu_pkt_header(0x7f, 0, 1);
}

static void
emit_bad_length(struct ctx_a *a)
{
	/* A COPY one dword short. */
	uint32_t *p = api_cmd_reserve(&a->cmd, 6);
	p[0] = swgpu_pkt_header(SWGPU_OP_COPY, 0, 6);
	swgpu_pkt_put64(p + 1, a->ok.va);
	swgpu_pkt_put64(p + 3, a->ok.va + 16);
	p[5] = 4;
}

static void
emit_zero_length(struct ctx_a *a)
{
	*api_cmd_reserve(&a->cmd, 1) = swgpu_pkt_header(SWGPU_OP_NOP, 0, 0);
}

static void
emit_past_ib_end(struct ctx_a *a)
{
	/* WRITE_DATA claiming 10 dwords in an IB that ends after 4. */
	uint32_t *p = api_cmd_reserve(&a->cmd, 4);
	p[0] = swgpu_pkt_header(SWGPU_OP_WRITE_DATA, 0, 10);
	swgpu_pkt_put64(p + 1, a->ok.va + 64);
	p[3] = 0xbad;
}

static void
emit_fill_unaligned(struct ctx_a *a)
{
	api_emit_fill(&a->cmd, a->ok.va + 64, 6, 0xbad);
}

static void
emit_write_unaligned(struct ctx_a *a)
{
	api_emit_write32(&a->cmd, a->ok.va + 66, 0xbad);
}

static void
emit_sem_wait_unaligned(struct ctx_a *a)
{
	api_emit_sem_wait(&a->cmd, a->ok.va + 4, 0);
}

static void
emit_ib_unmapped(struct ctx_a *a)
{
	swgpu_ib ib = { .va = a->unmapped_va, .size_dw = 4 };
	api_emit_indirect(&a->cmd, ib);
}

static const struct fault_case cases[] = {
	{ "read unmapped", emit_read_unmapped, SWGPU_FAULT_PAGE_READ,
	  SWGPU_OP_COPY, unmapped_lo, unmapped_lo },
	{ "write unmapped", emit_write_unmapped, SWGPU_FAULT_PAGE_WRITE,
	  SWGPU_OP_WRITE_DATA, unmapped8, unmapped8 },
	{ "write read-only", emit_write_readonly, SWGPU_FAULT_PAGE_WRITE,
	  SWGPU_OP_WRITE_DATA, ro64, ro64 },
	{ "copy to read-only", emit_copy_to_readonly, SWGPU_FAULT_PAGE_WRITE,
	  SWGPU_OP_COPY, ro128, ro159 },
	{ "read write-only", emit_read_writeonly, SWGPU_FAULT_PAGE_READ,
	  SWGPU_OP_COPY, wo16, wo19 },
	{ "read 1 byte past end", emit_read_past_end, SWGPU_FAULT_PAGE_READ,
	  SWGPU_OP_COPY, edge_m3, edge_end },
	{ "copy 1 byte past end", emit_write_past_end, SWGPU_FAULT_PAGE_WRITE,
	  SWGPU_OP_COPY, edge_m7, edge_end },
	{ "write_data past end", emit_write_data_past_end,
	  SWGPU_FAULT_PAGE_WRITE, SWGPU_OP_WRITE_DATA, edge_m4, edge_end },
	{ "fill past end", emit_fill_past_end, SWGPU_FAULT_PAGE_WRITE,
	  SWGPU_OP_FILL, edge_4k, edge_end },
	{ "bad opcode", emit_bad_opcode, SWGPU_FAULT_BAD_PACKET, 0x7f, NULL,
	  NULL },
	{ "short COPY", emit_bad_length, SWGPU_FAULT_BAD_PACKET,
	  SWGPU_OP_COPY, NULL, NULL },
	{ "zero length", emit_zero_length, SWGPU_FAULT_BAD_PACKET,
	  SWGPU_OP_NOP, NULL, NULL },
	{ "packet past IB end", emit_past_ib_end, SWGPU_FAULT_BAD_PACKET,
	  SWGPU_OP_WRITE_DATA, NULL, NULL },
	{ "FILL size not x4", emit_fill_unaligned, SWGPU_FAULT_BAD_PACKET,
	  SWGPU_OP_FILL, NULL, NULL },
	{ "WRITE_DATA dst not x4", emit_write_unaligned,
	  SWGPU_FAULT_BAD_PACKET, SWGPU_OP_WRITE_DATA, NULL, NULL },
	{ "SEM_WAIT va not x8", emit_sem_wait_unaligned,
	  SWGPU_FAULT_BAD_PACKET, SWGPU_OP_SEM_WAIT, NULL, NULL },
	{ "IB at unmapped VA", emit_ib_unmapped, SWGPU_FAULT_PAGE_READ,
	  SWGPU_OP_INDIRECT_BUFFER, unmapped_lo, unmapped_lo },
};

/* After A failed: everything about A says so, and nothing hangs. */
static void
check_a_lost(struct ctx_a *a, swgpu_syncobj *const *objs,
             const uint64_t *vals, uint32_t nobj)
{
	struct api_cmd *c = &a->cmd;
	for (int i = 0; i < 2; i++) {
		/* Let jobs already queued finish (in error) first: only
		 * the refused submits below must not move the counter. A
		 * wait returns CONTEXT_LOST at once on a lost context, so
		 * poll (bounded) until the next seqno lies past the last
		 * submitted one, i.e. every submitted job has completed. */
		uint64_t end = api_deadline_ms(API_WAIT_MS);
		while (swgpu_queue_wait(a->q[i],
		                        swgpu_queue_completed(a->q[i]) + 1,
		                        swgpu_now_ns()) !=
		       SWGPU_ERR_INVALID_ARG) {
			assert_true(swgpu_now_ns() < end);
			sched_yield();
		}
		uint64_t before = swgpu_queue_completed(a->q[i]);
		api_emit_write32(c, a->ok.va + 512, 0xdead);
		swgpu_ib ib = api_cmd_end(c);
		api_check(SWGPU_ERR_CONTEXT_LOST,
		          api_submit(a->q[i], &ib, NULL, 0, NULL, 0, NULL));
		api_check(SWGPU_ERR_CONTEXT_LOST,
		          api_submit(a->q[i], NULL, NULL, 0, NULL, 0, NULL));
		assert_true(swgpu_queue_completed(a->q[i]) == before);
	}
	uint64_t va;
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_va_map(a->ctx, a->ok.bo, 0, 4096, SWGPU_VA_READ, &va));
	for (uint32_t i = 0; i < nobj; i++) {
		uint64_t t0 = swgpu_now_ns();
		api_check(SWGPU_ERR_CONTEXT_LOST,
		          swgpu_syncobj_wait(&objs[i], &vals[i], 1, 0,
		                             api_deadline_ms(API_WAIT_MS),
		                             NULL));
		/* Infinite deadline: must return, not hang. */
		api_check(SWGPU_ERR_CONTEXT_LOST,
		          swgpu_syncobj_wait(&objs[i], &vals[i], 1,
		                             SWGPU_WAIT_FOR_SUBMIT,
		                             SWGPU_DEADLINE_INFINITE, NULL));
		assert_true(swgpu_now_ns() - t0 < 5000000000ull);
		uint64_t v = 0;
		api_check(SWGPU_ERR_CONTEXT_LOST, swgpu_syncobj_query(objs[i],
		                                                      &v));
	}
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_syncobj_wait(objs, vals, nobj, SWGPU_WAIT_ALL,
	                             SWGPU_DEADLINE_INFINITE, NULL));
	assert_int_equal(api_load32(a->ok.cpu + 512), 0);
}

static void
run_case(struct fix *f, const struct fault_case *fc)
{
	struct ctx_a a;
	a_init(f, &a);
	memset(a.next.cpu, 0x3c, 4096);
	memset(a.edge.cpu, 0x00, 8192);

	swgpu_syncobj *tl, *bin, *tl2;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_BINARY, 0, &bin));
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl2));

	b_submit(f, 0);

	/* Job 1: good, and done before the fault. */
	api_emit_write32(&a.cmd, a.ok.va, 0x600d0001);
	swgpu_ib ib1 = api_cmd_end(&a.cmd);
	uint64_t s1;
	api_ok(api_submit(a.q[0], &ib1, NULL, 0, NULL, 0, &s1));
	api_ok(swgpu_queue_wait(a.q[0], s1, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(api_load32(a.ok.cpu), 0x600d0001);

	/* Job 2: a good write, then the fault; signals tl:1 and bin. */
	api_emit_write32(&a.cmd, a.ok.va + 4, 0x600d0002);
	fc->emit(&a);
	api_emit_write32(&a.cmd, a.ok.va + 8, 0xbad00002);
	swgpu_ib ib2 = api_cmd_end(&a.cmd);
	swgpu_sync_point sig2[2] = { { tl, 1, 0 }, { bin, 0, 0 } };
	uint64_t s2;
	api_ok(api_submit(a.q[0], &ib2, NULL, 0, sig2, 2, &s2));
	assert_true(s2 == 2);

	/* Job 3 (same queue, after the fault): must never run. Its submit
	 * may race with fault detection. */
	api_emit_write32(&a.cmd, a.ok.va + 12, 0xbad00003);
	swgpu_ib ib3 = api_cmd_end(&a.cmd);
	swgpu_sync_point sig3 = { tl, 2, 0 };
	swgpu_result r3 = api_submit(a.q[0], &ib3, NULL, 0, &sig3, 1, NULL);
	assert_true(r3 == SWGPU_OK || r3 == SWGPU_ERR_CONTEXT_LOST);

	/* A job on A's other engine that depends on the failed one. */
	api_emit_write32(&a.cmd, a.ok.va + 16, 0xbad00004);
	swgpu_ib ib4 = api_cmd_end(&a.cmd);
	swgpu_sync_point w4 = { tl, 1, 0 }, sig4 = { tl2, 1, 0 };
	swgpu_result r4 = api_submit(a.q[1], &ib4, &w4, 1, &sig4, 1, NULL);
	assert_true(r4 == SWGPU_OK || r4 == SWGPU_ERR_CONTEXT_LOST);

	b_submit(f, 1);

	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(a.q[0], s2, api_deadline_ms(API_WAIT_MS)));
	swgpu_fault_info fi;
	memset(&fi, 0, sizeof(fi));
	swgpu_context_state st = swgpu_context_query_state(a.ctx, &fi);
	if (st != SWGPU_CONTEXT_GUILTY || fi.kind != fc->kind)
		fail_msg("%s: state %d kind %d (want GUILTY, %d): %s",
		         fc->name, (int)st, (int)fi.kind, (int)fc->kind,
		         fi.message);
	assert_int_equal(fi.opcode, fc->opcode);
	assert_true(fi.job_seqno == s2);
	assert_int_equal(fi.queue_id, swgpu_queue_id(a.q[0]));
	assert_int_equal(fi.engine, swgpu_queue_engine(a.q[0]));
	assert_true(strnlen(fi.message, sizeof(fi.message)) > 0);
	if (fc->addr_lo) {
		uint64_t lo = fc->addr_lo(&a), hi = fc->addr_hi(&a);
		if (fi.address < lo || fi.address > hi)
			fail_msg("%s: fault address %#llx not in [%#llx, "
			         "%#llx]", fc->name,
			         (unsigned long long)fi.address,
			         (unsigned long long)lo,
			         (unsigned long long)hi);
	}

	/* Data: job 1 and the packet before the fault ran; nothing after
	 * the fault did, nor anything depending on it; no neighbour or
	 * read-only memory was touched. */
	if (fc->kind != SWGPU_FAULT_BAD_PACKET) {
		/* Packets run in order up to the faulting one. (A malformed
		 * packet may be caught by validating the whole IB first.) */
		assert_int_equal(api_load32(a.ok.cpu + 4), 0x600d0002);
	}
	assert_int_equal(api_load32(a.ok.cpu + 8), 0);
	assert_int_equal(api_load32(a.ok.cpu + 12), 0);
	assert_int_equal(api_load32(a.ok.cpu + 16), 0);
	assert_int_equal(api_find_byte_mismatch(a.next.cpu, 4096, 0x3c),
	                 4096);
	assert_int_equal(api_find_byte_mismatch(a.ro.cpu, 4096, 0), 4096);

	/* The failed signals and everything behind them: CONTEXT_LOST. */
	swgpu_syncobj *objs[4] = { tl, bin, tl, tl2 };
	uint64_t vals[4] = { 1, 0, 2, 1 };
	/* tl2:1 exists only if job 4 got submitted. */
	check_a_lost(&a, objs, vals, r4 == SWGPU_OK ? 4 : 3);
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(a.q[1], 0, api_deadline_ms(API_WAIT_MS)));

	swgpu_engine_stats es;
	api_ok(swgpu_engine_query_stats(f->dev, swgpu_queue_engine(a.q[0]),
	                                &es));
	assert_true(es.jobs_failed >= 1);

	/* B saw nothing of it. */
	b_submit(f, 2);
	b_check(f, 3);

	a_fini(&a);
	swgpu_syncobj_destroy(tl);
	swgpu_syncobj_destroy(bin);
	swgpu_syncobj_destroy(tl2);
}

static void
test_fault_cases(void **state)
{
	struct fix *f = *state;
	for (size_t i = 0; i < API_ARRAY_SIZE(cases); i++) {
		print_message("fault case: %s\n", cases[i].name);
		run_case(f, &cases[i]);
	}
}

/* A SEM_WAIT nobody satisfies is a hang after hang_timeout_ms: the
 * context is guilty, the engine recovers, B continues. */
static void
test_hang(void **state)
{
	struct fix *f = *state;
	struct ctx_a a;
	a_init(f, &a);
	api_emit_sem_wait(&a.cmd, a.ok.va + 64, 1);
	api_emit_write32(&a.cmd, a.ok.va, 0xbad);
	swgpu_ib ib = api_cmd_end(&a.cmd);
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	swgpu_sync_point sig = { tl, 1, 0 };
	uint64_t t0 = swgpu_now_ns();
	api_ok(api_submit(a.q[1], &ib, NULL, 0, &sig, 1, NULL));
	/* B keeps using the stalled engine's neighbours and queues up
	 * behind it on copy0. */
	b_submit(f, 0);
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_syncobj_wait(&tl, (uint64_t[]){ 1 }, 1, 0,
	                             SWGPU_DEADLINE_INFINITE, NULL));
	uint64_t dt = swgpu_now_ns() - t0;
	assert_true(dt >= (uint64_t)HANG_MS * 1000000 * 9 / 10);
	assert_true(dt < (uint64_t)HANG_MS * 1000000 * 10);
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(a.ctx, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_HANG);
	assert_true(fi.job_seqno == 1);
	assert_int_equal(fi.queue_id, swgpu_queue_id(a.q[1]));
	assert_int_equal(api_load32(a.ok.cpu), 0);
	b_submit(f, 1);
	b_check(f, 2);
	a_fini(&a);
	swgpu_syncobj_destroy(tl);
}

/* swgpu_debug_inject_fault: exactly the armed job faults. */
static void
test_inject_api(void **state)
{
	struct fix *f = *state;
	struct ctx_a a;
	a_init(f, &a);
	swgpu_queue *q = a.q[1];
	swgpu_ib ibs[5];
	for (uint32_t j = 0; j < 5; j++) {
		api_emit_write32(&a.cmd, a.ok.va + j * 4, 0x1000 + j);
		ibs[j] = api_cmd_end(&a.cmd);
	}
	api_ok(api_submit(q, &ibs[0], NULL, 0, NULL, 0, NULL));
	api_ok(api_submit(q, &ibs[1], NULL, 0, NULL, 0, NULL));
	/* Only future jobs can be armed. */
	assert_true(swgpu_debug_inject_fault(q, 2, SWGPU_FAULT_INJECTED) < 0);
	api_ok(swgpu_debug_inject_fault(q, 3, SWGPU_FAULT_INJECTED));
	api_ok(swgpu_queue_wait(q, 2, api_deadline_ms(API_WAIT_MS)));
	b_submit(f, 0);
	api_ok(api_submit(q, &ibs[2], NULL, 0, NULL, 0, NULL));
	swgpu_result r4 = api_submit(q, &ibs[3], NULL, 0, NULL, 0, NULL);
	assert_true(r4 == SWGPU_OK || r4 == SWGPU_ERR_CONTEXT_LOST);
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(q, 3, api_deadline_ms(API_WAIT_MS)));
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(a.ctx, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_INJECTED);
	assert_true(fi.job_seqno == 3);
	assert_int_equal(fi.queue_id, swgpu_queue_id(q));
	assert_int_equal(api_load32(a.ok.cpu + 0), 0x1000);
	assert_int_equal(api_load32(a.ok.cpu + 4), 0x1001);
	assert_int_equal(api_load32(a.ok.cpu + 8), 0);
	assert_int_equal(api_load32(a.ok.cpu + 12), 0);
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          api_submit(q, &ibs[4], NULL, 0, NULL, 0, NULL));
	b_check(f, 1);
	a_fini(&a);
}


/*
 * SWGPU_FAULT from the environment, read by swgpu_config_init(): queue 1
 * (device-wide id, creation order) faults on exactly its job 3; queue 0
 * is untouched. Each queue has its own context so the fault stays in
 * queue 1's.
 */
static void
env_fault_run(const char *spec, int expect_fault)
{
	setenv("SWGPU_FAULT", spec, 1);
	swgpu_config cfg;
	api_config_small(&cfg);
	unsetenv("SWGPU_FAULT");
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx[2];
	swgpu_queue *q[2];
	struct api_cmd cmd[2];
	struct api_buf out[2];
	for (int i = 0; i < 2; i++) {
		api_ok(swgpu_context_create(dev, &ctx[i]));
		q[i] = api_queue(ctx[i], SWGPU_ENGINE_COPY, 0);
		assert_int_equal(swgpu_queue_id(q[i]), i);
		api_cmd_init(&cmd[i], dev, ctx[i], 256);
		api_buf_init(&out[i], dev, ctx[i], 4096, SWGPU_HEAP_SYSTEM,
		             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
	}
	for (uint32_t j = 1; j <= 5; j++) {
		for (int i = 0; i < 2; i++) {
			api_emit_write32(&cmd[i], out[i].va + j * 4,
			                 0x5000 + i * 16 + j);
			swgpu_ib ib = api_cmd_end(&cmd[i]);
			uint64_t s = 0;
			swgpu_result r = api_submit(q[i], &ib, NULL, 0, NULL, 0,
			                            &s);
			if (i == 1 && expect_fault && j > 3)
				assert_true(r == SWGPU_OK ||
				            r == SWGPU_ERR_CONTEXT_LOST);
			else
				api_ok(r);
		}
	}
	api_queue_idle(q[0]);
	for (uint32_t j = 1; j <= 5; j++)
		assert_int_equal(api_load32(out[0].cpu + j * 4), 0x5000 + j);
	assert_int_equal(swgpu_context_query_state(ctx[0], NULL),
	                 SWGPU_CONTEXT_OK);
	if (expect_fault) {
		api_check(SWGPU_ERR_CONTEXT_LOST,
		          swgpu_queue_wait(q[1], 0,
		                           api_deadline_ms(API_WAIT_MS)));
		swgpu_fault_info fi;
		assert_int_equal(swgpu_context_query_state(ctx[1], &fi),
		                 SWGPU_CONTEXT_GUILTY);
		assert_int_equal(fi.kind, SWGPU_FAULT_INJECTED);
		assert_true(fi.job_seqno == 3);
		assert_int_equal(fi.queue_id, 1);
		for (uint32_t j = 1; j <= 5; j++)
			assert_int_equal(api_load32(out[1].cpu + j * 4),
			                 j < 3 ? 0x5010 + j : 0);
	} else {
		api_queue_idle(q[1]);
		for (uint32_t j = 1; j <= 5; j++)
			assert_int_equal(api_load32(out[1].cpu + j * 4),
			                 0x5010 + j);
	}
	for (int i = 0; i < 2; i++) {
		api_buf_fini(&out[i]);
		api_cmd_fini(&cmd[i]);
		swgpu_queue_destroy(q[i]);
		swgpu_context_destroy(ctx[i]);
	}
	swgpu_device_close(dev);
}

static void
test_inject_env(void **state)
{
	env_fault_run("pagefault:queue=1:job=3", 1);
	/* Keys in another order, plus an unrelated spec. */
	env_fault_run("pagefault:job=3:queue=1,pagefault:queue=9:job=1", 1);
	/* Malformed: ignored, nothing faults. */
	env_fault_run("pagefault:queue=1", 0);
	env_fault_run("explode:queue=1:job=3", 0);
	env_fault_run("pagefault:queue=1:job=x", 0);
	/* Bound to another device index: not this one. */
	swgpu_device *probe = api_open(NULL);
	swgpu_device_info info;
	swgpu_device_query_info(probe, &info);
	swgpu_device_close(probe);
	char spec[96];
	/* The next device opened gets index >= info.device_index + 1; name
	 * one far away. */
	snprintf(spec, sizeof(spec), "pagefault:queue=1:job=3:device=%u",
	         info.device_index + 1000);
	env_fault_run(spec, 0);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fault_cases),
		cmocka_unit_test(test_inject_api),
		cmocka_unit_test(test_hang),
		cmocka_unit_test(test_inject_env),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
