/* SPDX-License-Identifier: MIT */
/*
 * A client of swgpud for test_shared.py (SWGPU_MODE=shared is set by the
 * caller). One mode per run; every result is checked here and printed
 * as one line, the exit status says whether all was right:
 *
 *   work SEED ROUNDS  fill a VRAM BO with a pattern on the copy engine,
 *                     copy it to a SYSTEM BO, check every byte; ROUNDS
 *                     times, on a context of its own          -> "ok"
 *   block             a job waits on a host word: "blocked", then on
 *                     "wait" from stdin, queue_wait with no deadline ->
 *                     "wait <result name> <ms>"
 *   mode              "mode shared" when the device is the daemon's
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

#include "client_util.h"

static void
buf_make(swgpu_device *dev, swgpu_context *ctx, uint64_t size,
         swgpu_heap heap, struct buf *b)
{
	OK(swgpu_bo_create(dev, size, heap, 0, &b->bo));
	OK(swgpu_va_map(ctx, b->bo, 0, size, RW, &b->va));
	b->cpu = NULL;
	if (heap == SWGPU_HEAP_SYSTEM)
		OK(swgpu_bo_map(b->bo, (void **)&b->cpu));
}

/* One job of packets written into cmd at offset 0. */
static uint64_t
submit(swgpu_queue *q, struct buf *cmd, const uint32_t *dw, uint32_t n)
{
	swgpu_ib ib = { cmd->va, n };
	swgpu_submit_info si = { .ibs = &ib, .ib_count = 1 };
	uint64_t seqno = 0;

	memcpy(cmd->cpu, dw, n * 4);
	OK(swgpu_submit(q, &si, &seqno));
	return seqno;
}

static int
work(uint32_t seed, int rounds)
{
	const uint64_t size = 1u << 20;
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	struct buf vram, sys, cmd;

	OK(swgpu_device_open(NULL, &dev));
	OK(swgpu_context_create(dev, &ctx));
	OK(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, SWGPU_ENGINE_ANY,
	                      SWGPU_PRIORITY_NORMAL, &q));
	buf_make(dev, ctx, size, SWGPU_HEAP_VRAM, &vram);
	buf_make(dev, ctx, size, SWGPU_HEAP_SYSTEM, &sys);
	buf_make(dev, ctx, 4096, SWGPU_HEAP_SYSTEM, &cmd);
	for (int r = 0; r < rounds; r++) {
		uint32_t v = seed * 2654435761u + (uint32_t)r, dw[32], n = 0;
		uint64_t seqno;

		n += swgpu_emit_fill(dw + n, vram.va, size, v);
		n += swgpu_emit_copy(dw + n, sys.va, vram.va, size);
		seqno = submit(q, &cmd, dw, n);
		OK(swgpu_queue_wait(q, seqno, swgpu_deadline_from_timeout(
		                                      10000000000ull)));
		for (uint64_t i = 0; i < size; i += 4) {
			uint32_t got;

			memcpy(&got, sys.cpu + i, 4);
			if (got != v) {
				printf("FAIL round %d byte %llu: %08x want %08x\n",
				       r, (unsigned long long)i, got, v);
				return 1;
			}
		}
	}
	swgpu_queue_destroy(q);
	swgpu_bo_destroy(vram.bo);
	swgpu_bo_destroy(sys.bo);
	swgpu_bo_destroy(cmd.bo);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
	printf("ok\n");
	return 0;
}

static int
block(void)
{
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	struct buf word, cmd;
	uint32_t dw[16], n;
	uint64_t seqno, t0;
	char line[64];
	swgpu_result r;

	OK(swgpu_device_open(NULL, &dev));
	OK(swgpu_context_create(dev, &ctx));
	OK(swgpu_queue_create(ctx, SWGPU_ENGINE_COMPUTE, SWGPU_ENGINE_ANY,
	                      SWGPU_PRIORITY_NORMAL, &q));
	buf_make(dev, ctx, 4096, SWGPU_HEAP_SYSTEM, &word);
	buf_make(dev, ctx, 4096, SWGPU_HEAP_SYSTEM, &cmd);
	n = swgpu_emit_sem_wait(dw, word.va, 1);
	seqno = submit(q, &cmd, dw, n);
	printf("blocked %llu\n", (unsigned long long)seqno);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	t0 = swgpu_now_ns();
	r = swgpu_queue_wait(q, seqno, SWGPU_DEADLINE_INFINITE);
	printf("wait %s %llu\n", swgpu_result_str(r),
	       (unsigned long long)((swgpu_now_ns() - t0) / 1000000));
	fflush(stdout);
	/* After a lost daemon every call fails cleanly and frees ours. */
	swgpu_queue_destroy(q);
	swgpu_bo_destroy(word.bo);
	swgpu_bo_destroy(cmd.bo);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
	return 0;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "work"))
		return work((uint32_t)atoi(argv[2]), atoi(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "block"))
		return block();
	fprintf(stderr, "usage: shared_client work SEED ROUNDS | block\n");
	return 2;
}
