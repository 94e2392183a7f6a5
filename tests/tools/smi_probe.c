/* SPDX-License-Identifier: MIT */
/*
 * A device with known work, for test_smi.py to read through swgpu-smi:
 * context A (NORMAL priority, a compute queue) runs 5 jobs and holds a
 * 3 MiB VRAM BO; context B (HIGH, a copy queue) runs 3 jobs. Then it
 * obeys lines on stdin and answers on stdout:
 *   block    A's queue gets a job that waits on a host word -> "blocked N"
 *            (N its seqno: swgpu-smi shows it running on compute0)
 *   release  the word is written, the queue drains     -> "released"
 *   close    the device is closed                      -> "closed"
 * EOF exits.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api_util.h"

#define A_JOBS 5
#define B_JOBS 3
#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)

int
main(void)
{
	swgpu_config cfg;
	swgpu_context *a = NULL, *b = NULL;
	swgpu_queue *qa = NULL, *qb = NULL;
	struct api_buf vram, word, dst;
	struct api_cmd ca, cb;
	char line[64];

	api_config_small(&cfg);
	swgpu_device *dev = api_open(&cfg);
	api_ok(swgpu_context_create(dev, &a));
	api_ok(swgpu_context_create(dev, &b));
	api_ok(swgpu_queue_create(a, SWGPU_ENGINE_COMPUTE, 0,
	                          SWGPU_PRIORITY_NORMAL, &qa));
	api_ok(swgpu_queue_create(b, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_HIGH, &qb));
	api_buf_init(&vram, dev, a, 3u << 20, SWGPU_HEAP_VRAM, 0, RW);
	api_buf_init(&word, dev, a, 4096, SWGPU_HEAP_SYSTEM, 0, RW);
	api_buf_init(&dst, dev, b, 4096, SWGPU_HEAP_SYSTEM, 0, RW);
	api_cmd_init(&ca, dev, a, 4096);
	api_cmd_init(&cb, dev, b, 4096);
	for (int i = 0; i < A_JOBS; i++) {
		api_emit_fill(&ca, vram.va, vram.size, (uint32_t)i);
		swgpu_ib ib = api_cmd_end(&ca);
		api_ok(api_submit(qa, &ib, NULL, 0, NULL, 0, NULL));
	}
	for (int i = 0; i < B_JOBS; i++) {
		api_emit_write32(&cb, dst.va, (uint32_t)i);
		swgpu_ib ib = api_cmd_end(&cb);
		api_ok(api_submit(qb, &ib, NULL, 0, NULL, 0, NULL));
	}
	api_queue_idle(qa);
	api_queue_idle(qb);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);

	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "block", 5)) {
			uint64_t seqno = 0;
			api_emit_sem_wait(&ca, word.va, 1);
			swgpu_ib ib = api_cmd_end(&ca);
			api_ok(api_submit(qa, &ib, NULL, 0, NULL, 0, &seqno));
			printf("blocked %llu\n", (unsigned long long)seqno);
		} else if (!strncmp(line, "release", 7)) {
			api_store64(word.cpu, 1);
			api_queue_idle(qa);
			printf("released\n");
		} else if (!strncmp(line, "close", 5) && dev) {
			api_cmd_fini(&ca);
			api_cmd_fini(&cb);
			api_buf_fini(&vram);
			api_buf_fini(&word);
			api_buf_fini(&dst);
			swgpu_queue_destroy(qa);
			swgpu_queue_destroy(qb);
			swgpu_context_destroy(a);
			swgpu_context_destroy(b);
			swgpu_device_close(dev);
			dev = NULL;
			printf("closed\n");
		}
		fflush(stdout);
	}
	if (dev)
		swgpu_device_close(dev);
	return 0;
}
