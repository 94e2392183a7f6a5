/* SPDX-License-Identifier: MIT */
/*
 * Randomized packet streams checked against a host model. Each round
 * records a few jobs of random WRITE_DATA / COPY (overlapping too) / FILL /
 * SEM_SIGNAL (plain and WRITE_MAX) / satisfied SEM_WAIT / NOP packets,
 * some behind INDIRECT_BUFFER calls, over four buffers (SYSTEM cached,
 * SYSTEM uncached, VRAM BAR, and a read-only mapping), runs them on one
 * queue and compares every byte with the model. Some jobs end in a fault
 * (bad opcode, write to the read-only mapping, read of a guard gap): the
 * model then expects exactly the effects before the faulting packet, the
 * right fault kind, and the context is replaced.
 */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>

#define NBUF 4u
#define BUF_SIZE 16384u
#define RO_BUF 3u
#define ROUNDS (API_TSAN ? 60u : 300u)
#define JOBS_PER_ROUND 6u

struct fuzz {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	swgpu_bo *bo[NBUF];
	uint8_t *cpu[NBUF];
	uint64_t va[NBUF];
	uint8_t model[NBUF][BUF_SIZE];
	struct api_cmd cmd;        /* top-level IBs */
	struct api_cmd lvl[2];     /* callees, by nesting level */
	uint8_t before_last[NBUF][BUF_SIZE];
	uint64_t rng;
	char log[4096];
	size_t log_len;
};

static void
note(struct fuzz *z, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (z->log_len < sizeof(z->log) - 1) {
		int n = vsnprintf(z->log + z->log_len,
		                  sizeof(z->log) - z->log_len, fmt, ap);
		if (n > 0)
			z->log_len += (size_t)n;
		if (z->log_len > sizeof(z->log) - 1)
			z->log_len = sizeof(z->log) - 1;
	}
	va_end(ap);
}

static uint32_t
rnd(struct fuzz *z, uint32_t n)
{
	return (uint32_t)(api_rand(&z->rng) % n);
}

static void
ctx_open(struct fuzz *z)
{
	api_ok(swgpu_context_create(z->dev, &z->ctx));
	for (uint32_t b = 0; b < NBUF; b++)
		api_ok(swgpu_va_map(z->ctx, z->bo[b], 0, BUF_SIZE,
		                    b == RO_BUF ? SWGPU_VA_READ
		                                : SWGPU_VA_READ |
		                                          SWGPU_VA_WRITE,
		                    &z->va[b]));
	api_cmd_init(&z->cmd, z->dev, z->ctx, 64 * 1024);
	api_cmd_init(&z->lvl[0], z->dev, z->ctx, 64 * 1024);
	api_cmd_init(&z->lvl[1], z->dev, z->ctx, 64 * 1024);
	z->q = api_queue(z->ctx,
	                 rnd(z, 2) ? SWGPU_ENGINE_COPY : SWGPU_ENGINE_COMPUTE,
	                 rnd(z, 2));
}

static void
ctx_close(struct fuzz *z)
{
	swgpu_queue_destroy(z->q);
	api_cmd_fini(&z->cmd);
	api_cmd_fini(&z->lvl[0]);
	api_cmd_fini(&z->lvl[1]);
	for (uint32_t b = 0; b < NBUF; b++)
		api_ok(swgpu_va_unmap(z->ctx, z->va[b]));
	swgpu_context_destroy(z->ctx);
}

/*
 * Emit one random valid packet into c and apply it to the model. depth > 0
 * allows an INDIRECT_BUFFER call; the callee is recorded in the arena of
 * the next level down (z->lvl[depth - 1]), so streams never interleave.
 */
static void emit_random(struct fuzz *z, struct api_cmd *c, uint32_t depth);

static void
emit_call(struct fuzz *z, struct api_cmd *c, uint32_t depth)
{
	struct api_cmd *sub = &z->lvl[depth - 1];
	uint32_t n = 1 + rnd(z, 4);
	note(z, "IB{ ");
	for (uint32_t i = 0; i < n; i++)
		emit_random(z, sub, depth - 1);
	note(z, "} ");
	api_emit_indirect(c, api_cmd_end(sub));
}

static void
emit_random(struct fuzz *z, struct api_cmd *c, uint32_t depth)
{
	uint32_t op = rnd(z, depth ? 8 : 7);
	uint32_t b = rnd(z, NBUF - 1); /* writable buffers */
	switch (op) {
	case 0: { /* WRITE_DATA */
		uint32_t n = 1 + rnd(z, 16);
		uint32_t off = rnd(z, (BUF_SIZE - n * 4) / 4 + 1) * 4;
		uint32_t d[16];
		for (uint32_t i = 0; i < n; i++)
			d[i] = (uint32_t)api_rand(&z->rng);
		api_emit_write(c, z->va[b] + off, d, n);
		memcpy(&z->model[b][off], d, n * 4);
		note(z, "W%u@%u+%u ", b, off, n);
		break;
	}
	case 1:
	case 2: { /* COPY, any alignment, maybe overlapping */
		uint32_t sb = rnd(z, NBUF);
		uint32_t size = 1 + rnd(z, op == 1 ? 64 : 4096);
		uint32_t so = rnd(z, BUF_SIZE - size + 1);
		uint32_t dof = rnd(z, BUF_SIZE - size + 1);
		if (rnd(z, 4) == 0) {
			sb = b; /* overlap on purpose */
			dof = (so + rnd(z, 17) + BUF_SIZE - 8) %
			      (BUF_SIZE - size + 1);
		}
		api_emit_copy(c, z->va[b] + dof, z->va[sb] + so, size);
		memmove(&z->model[b][dof], &z->model[sb][so], size);
		note(z, "C%u@%u<-%u@%u+%u ", b, dof, sb, so, size);
		break;
	}
	case 3: { /* FILL */
		uint32_t size = 4 * (1 + rnd(z, 512));
		uint32_t off = rnd(z, (BUF_SIZE - size) / 4 + 1) * 4;
		uint32_t pat = (uint32_t)api_rand(&z->rng);
		api_emit_fill(c, z->va[b] + off, size, pat);
		for (uint32_t i = 0; i < size; i += 4)
			memcpy(&z->model[b][off + i], &pat, 4);
		note(z, "F%u@%u+%u ", b, off, size);
		break;
	}
	case 4: { /* SEM_SIGNAL */
		uint32_t off = rnd(z, BUF_SIZE / 8) * 8;
		uint64_t v = api_rand(&z->rng) >> rnd(z, 64);
		bool max = rnd(z, 2);
		api_emit_sem_signal(c, z->va[b] + off, v,
		                    max ? SWGPU_SIGNAL_WRITE_MAX : 0);
		uint64_t old;
		memcpy(&old, &z->model[b][off], 8);
		if (!max || v > old)
			memcpy(&z->model[b][off], &v, 8);
		note(z, "S%s%u@%u ", max ? "max" : "", b, off);
		break;
	}
	case 5: { /* SEM_WAIT already satisfied (any readable buffer) */
		uint32_t wb = rnd(z, NBUF);
		uint32_t off = rnd(z, BUF_SIZE / 8) * 8;
		uint64_t cur;
		memcpy(&cur, &z->model[wb][off], 8);
		api_emit_sem_wait(c, z->va[wb] + off,
		                  cur ? cur - rnd(z, 2) : 0);
		note(z, "SW%u@%u ", wb, off);
		break;
	}
	case 6: { /* NOP with junk payload */
		uint32_t len = 1 + rnd(z, 8);
		uint32_t *p = api_cmd_reserve(c, len);
		swgpu_emit_nop(p, len);
		for (uint32_t i = 1; i < len; i++)
			p[i] = (uint32_t)api_rand(&z->rng);
		note(z, "N%u ", len);
		break;
	}
	default:
		emit_call(z, c, depth);
		break;
	}
}

enum fault_pick { NO_FAULT, BAD_OPCODE, WRITE_RO, READ_GUARD };

static enum fault_pick
emit_fault(struct fuzz *z)
{
	switch (rnd(z, 3)) {
	case 0:
		*api_cmd_reserve(&z->cmd, 1) =
			swgpu_pkt_header(0x40 + rnd(z, 0xb0), 0, 1);
		note(z, "BADOP ");
		return BAD_OPCODE;
	case 1:
		api_emit_write32(&z->cmd,
		                 z->va[RO_BUF] + rnd(z, BUF_SIZE / 4) * 4, 1);
		note(z, "WRO ");
		return WRITE_RO;
	default:
		api_emit_copy(&z->cmd, z->va[0], z->va[1] + BUF_SIZE + 16, 8);
		note(z, "RGUARD ");
		return READ_GUARD;
	}
}

static void
compare(struct fuzz *z, uint32_t round, bool or_before_last)
{
	if (or_before_last) {
		bool same = true;
		for (uint32_t b = 0; b < NBUF && same; b++)
			same = !memcmp(z->cpu[b], z->before_last[b], BUF_SIZE);
		if (same)
			return;
	}
	for (uint32_t b = 0; b < NBUF; b++) {
		for (uint32_t i = 0; i < BUF_SIZE; i++) {
			if (z->cpu[b][i] == z->model[b][i])
				continue;
			print_error("round %u: buffer %u byte %u: gpu %#x "
			            "model %#x\nops: %s\n", round, b, i,
			            z->cpu[b][i], z->model[b][i], z->log);
			fail_msg("GPU and model differ");
		}
	}
}

static void
test_fuzz_vs_model(void **state)
{
	struct fuzz *z = calloc(1, sizeof(*z));
	assert_non_null(z);
	z->rng = 0xf022f022ull;
	swgpu_config cfg;
	api_config_small(&cfg);
	z->dev = api_open(&cfg);
	static const struct {
		swgpu_heap heap;
		uint32_t flags;
	} kinds[NBUF] = {
		{ SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED },
		{ SWGPU_HEAP_VRAM, SWGPU_BO_BAR },
		{ SWGPU_HEAP_SYSTEM, 0 },
		{ SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED },
	};
	for (uint32_t b = 0; b < NBUF; b++) {
		api_ok(swgpu_bo_create(z->dev, BUF_SIZE, kinds[b].heap,
		                       kinds[b].flags, &z->bo[b]));
		api_ok(swgpu_bo_map(z->bo[b], (void **)&z->cpu[b]));
	}
	ctx_open(z);
	uint32_t faults = 0;
	for (uint32_t round = 0; round < ROUNDS; round++) {
		z->log_len = 0;
		z->log[0] = 0;
		for (uint32_t b = 0; b < NBUF; b++) {
			for (uint32_t i = 0; i < BUF_SIZE; i++)
				z->model[b][i] = (uint8_t)api_rand(&z->rng);
			memcpy(z->cpu[b], z->model[b], BUF_SIZE);
		}
		api_cmd_reset(&z->cmd);
		api_cmd_reset(&z->lvl[0]);
		api_cmd_reset(&z->lvl[1]);
		enum fault_pick fault = NO_FAULT;
		uint64_t seqno = 0;
		for (uint32_t j = 0; j < JOBS_PER_ROUND; j++) {
			uint32_t n = 1 + rnd(z, 12);
			note(z, "| ");
			if (j == JOBS_PER_ROUND - 1)
				memcpy(z->before_last, z->model,
				       sizeof(z->model));
			for (uint32_t i = 0; i < n; i++)
				emit_random(z, &z->cmd, 2);
			if (j == JOBS_PER_ROUND - 1 && rnd(z, 8) == 0)
				fault = emit_fault(z);
			swgpu_ib ib = api_cmd_end(&z->cmd);
			api_ok(api_submit(z->q, &ib, NULL, 0, NULL, 0,
			                  &seqno));
		}
		swgpu_result r = swgpu_queue_wait(z->q, 0,
		                                  api_deadline_ms(API_WAIT_MS));
		if (fault == NO_FAULT) {
			if (r != SWGPU_OK) {
				swgpu_fault_info fi;
				swgpu_context_query_state(z->ctx, &fi);
				fail_msg("round %u: %s (%s)\nops: %s", round,
				         swgpu_result_str(r), fi.message,
				         z->log);
			}
			compare(z, round, false);
			continue;
		}
		faults++;
		api_check(SWGPU_ERR_CONTEXT_LOST, r);
		swgpu_fault_info fi;
		assert_int_equal(swgpu_context_query_state(z->ctx, &fi),
		                 SWGPU_CONTEXT_GUILTY);
		swgpu_fault_kind want = fault == BAD_OPCODE
		                                ? SWGPU_FAULT_BAD_PACKET
		                        : fault == WRITE_RO
		                                ? SWGPU_FAULT_PAGE_WRITE
		                                : SWGPU_FAULT_PAGE_READ;
		if (fi.kind != want || fi.job_seqno != seqno)
			fail_msg("round %u: fault kind %d job %llu, want %d "
			         "job %llu (%s)\nops: %s", round, (int)fi.kind,
			         (unsigned long long)fi.job_seqno, (int)want,
			         (unsigned long long)seqno, fi.message, z->log);
		/* A bad opcode may be caught by validating the IB before
		 * running it: then the last job did nothing at all. Page
		 * faults happen in order. */
		compare(z, round, fault == BAD_OPCODE);
		ctx_close(z);
		ctx_open(z);
	}
	print_message("%u rounds, %u with a fault\n", ROUNDS, faults);
	assert_true(faults > 0);
	ctx_close(z);
	for (uint32_t b = 0; b < NBUF; b++) {
		swgpu_bo_unmap(z->bo[b]);
		swgpu_bo_destroy(z->bo[b]);
	}
	swgpu_device_close(z->dev);
	free(z);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_vs_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
