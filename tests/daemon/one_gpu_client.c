/* SPDX-License-Identifier: MIT */
/*
 * A client of swgpud for test_one_gpu.py: one scheduler and one memory
 * budget across processes (issue 22 item 4). SWGPU_MODE=shared and the
 * GPU's knobs are set by the caller. One mode per run; every result is
 * checked here and printed as lines, the exit status says whether all
 * was right:
 *
 *   flood MS        a LOW queue on copy engine 0 keeps two jobs of
 *                   4 MiB copies in flight, as many copies as take
 *                   about MS (measured first: sanitizer builds are
 *                   slower), until stdin has a line (or ends):
 *                   "flooding <first jobs' mean ms>", then
 *                   "flood <jobs> <mean ms>"
 *   latency PRIO N GAP_MS
 *                   N small fill jobs on a queue of PRIO (low, normal,
 *                   high), each submitted GAP_MS * [0, 1) after the
 *                   last one's end, waited for and checked:
 *                   "latency <p50 ms> <p99 ms> <max ms>"
 *   mem MIB SEED    MIB 1 MiB device-local BOs filled by the GPU, then
 *                   commands on stdin: "report" -> "usage <VRAM bytes>
 *                   <SYSTEM bytes> budget <VRAM budget> heap <VRAM size>
 *                   bar <BAR bytes> <BAR budget> window <BAR size>",
 *                   "bar N" (N 1 MiB BOs more in the BAR window) ->
 *                   "bar-allocated <swgpu_bar_usage()>",
 *                   "check" (every byte, read back by the GPU) ->
 *                   "checked evictions <n> promotions <n>", "exit"
 *   rule            with CAP_SYS_NICE dropped: "rule <HIGH queue result>
 *                   <REALTIME queue result>"
 */
#include <linux/capability.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

#include "client_util.h"

#define MIB (1024u * 1024u)
#define SECOND 1000000000ull

struct gpu {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
};

static void
gpu_open(struct gpu *g, swgpu_priority prio)
{
	OK(swgpu_device_open(NULL, &g->dev));
	OK(swgpu_context_create(g->dev, &g->ctx));
	OK(swgpu_queue_create(g->ctx, SWGPU_ENGINE_COPY, 0, prio, &g->q));
}

static void
gpu_close(struct gpu *g)
{
	swgpu_queue_destroy(g->q);
	swgpu_context_destroy(g->ctx);
	swgpu_device_close(g->dev);
}

static void
buf_make(struct gpu *g, uint64_t size, swgpu_heap heap, struct buf *b)
{
	OK(swgpu_bo_create(g->dev, size, heap, 0, &b->bo));
	OK(swgpu_va_map(g->ctx, b->bo, 0, size, RW, &b->va));
	b->cpu = NULL;
	if (heap == SWGPU_HEAP_SYSTEM)
		OK(swgpu_bo_map(b->bo, (void **)&b->cpu));
}

static void
buf_free(struct buf *b)
{
	if (b->cpu)
		swgpu_bo_unmap(b->bo);
	swgpu_bo_destroy(b->bo);
}

/* Submit the n dwords at cmd (a SYSTEM BO, its first use) as one job. */
static uint64_t
submit(struct gpu *g, struct buf *cmd, uint32_t n)
{
	swgpu_ib ib = { cmd->va, n };
	swgpu_submit_info si = { .ibs = &ib, .ib_count = 1 };
	uint64_t seqno = 0;

	OK(swgpu_submit(g->q, &si, &seqno));
	return seqno;
}

static void
wait_job(struct gpu *g, uint64_t seqno)
{
	OK(swgpu_queue_wait(g->q, seqno,
	                    swgpu_deadline_from_timeout(60 * SECOND)));
}

static bool
stdin_has_line(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

static double
ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* ---- a LOW process floods the copy engine ---- */

#define FLOOD_MAX_PACKETS 2048u

static int
flood(uint32_t target_ms)
{
	const uint64_t size = 4 * MIB;
	uint32_t packets = 16;
	struct gpu g;
	struct buf src, dst, cmd[2];
	uint64_t seq[2], t0;
	uint32_t jobs = 0, job_dw = 0;
	uint32_t *pattern;

	gpu_open(&g, SWGPU_PRIORITY_LOW);
	buf_make(&g, size, SWGPU_HEAP_SYSTEM, &src);
	buf_make(&g, size, SWGPU_HEAP_SYSTEM, &dst);
	pattern = (uint32_t *)src.cpu;
	for (uint64_t i = 0; i < size / 4; i++)
		pattern[i] = (uint32_t)(i * 2654435761u);
	for (int k = 0; k < 2; k++)
		buf_make(&g, 64 * FLOOD_MAX_PACKETS, SWGPU_HEAP_SYSTEM,
		         &cmd[k]);
	/* How many copies make a job of about target_ms here. */
	for (uint32_t p = 0; p < packets; p++)
		job_dw += swgpu_emit_copy((uint32_t *)cmd[0].cpu + job_dw,
		                          dst.va, src.va, size);
	/* The second run: the first one also faults dst's pages in. */
	for (int run = 0; run < 2; run++) {
		t0 = swgpu_now_ns();
		wait_job(&g, submit(&g, &cmd[0], job_dw));
		t0 = swgpu_now_ns() - t0;
	}
	packets = (uint32_t)((uint64_t)target_ms * 1000000u * packets /
	                     (t0 ? t0 : 1));
	packets = packets < 16 ? 16 : packets > FLOOD_MAX_PACKETS ?
	          FLOOD_MAX_PACKETS : packets;
	for (int k = 0; k < 2; k++) {
		job_dw = 0;
		for (uint32_t p = 0; p < packets; p++)
			job_dw += swgpu_emit_copy((uint32_t *)cmd[k].cpu +
			                          job_dw, dst.va, src.va, size);
	}
	/* Two jobs in flight: the engine never idles between them, so the
	 * time between completions is a job's length. */
	t0 = swgpu_now_ns();
	for (int k = 0; k < 2; k++)
		seq[k] = submit(&g, &cmd[k], job_dw);
	for (int k = 0;; k ^= 1) {
		wait_job(&g, seq[k]);
		jobs++;
		CHECK(!memcmp(dst.cpu, src.cpu, 4096) &&
		      !memcmp(dst.cpu + size - 4096, src.cpu + size - 4096,
		              4096));
		if (jobs == 4)
			printf("flooding %.1f\n",
			       ms((swgpu_now_ns() - t0) / jobs));
		if (jobs >= 4 && stdin_has_line())
			break;
		seq[k] = submit(&g, &cmd[k], job_dw);
	}
	printf("flood %u %.1f\n", jobs, ms((swgpu_now_ns() - t0) / jobs));
	wait_job(&g, seq[0] > seq[1] ? seq[0] : seq[1]);
	buf_free(&src);
	buf_free(&dst);
	buf_free(&cmd[0]);
	buf_free(&cmd[1]);
	gpu_close(&g);
	return 0;
}

/* ---- a process's small jobs and their latency ---- */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
latency(swgpu_priority prio, uint32_t count, uint32_t gap_ms)
{
	struct gpu g;
	struct buf word, cmd;
	uint64_t *lat = calloc(count, sizeof(*lat));
	uint32_t warmup = 4;

	CHECK(lat);
	gpu_open(&g, prio);
	buf_make(&g, 4096, SWGPU_HEAP_SYSTEM, &word);
	buf_make(&g, 4096, SWGPU_HEAP_SYSTEM, &cmd);
	srand(7);
	/* The first jobs teach the scheduler the queue's job length. */
	for (uint32_t i = 0; i < count + warmup; i++) {
		uint32_t v = 0x51000000u + i, got;
		uint32_t n = swgpu_emit_fill((uint32_t *)cmd.cpu, word.va, 4096,
		                             v);
		uint64_t t0 = swgpu_now_ns();

		wait_job(&g, submit(&g, &cmd, n));
		if (i >= warmup)
			lat[i - warmup] = swgpu_now_ns() - t0;
		memcpy(&got, word.cpu + 4092, 4);
		CHECK(got == v);
		usleep((useconds_t)(rand() % (gap_ms * 1000u + 1)));
	}
	qsort(lat, count, sizeof(*lat), cmp_u64);
	printf("latency %.2f %.2f %.2f\n", ms(lat[count / 2]),
	       ms(lat[(count * 99 + 99) / 100 - 1]), ms(lat[count - 1]));
	free(lat);
	buf_free(&word);
	buf_free(&cmd);
	gpu_close(&g);
	return 0;
}

/* ---- device-local memory of a process ---- */

static uint32_t
mem_value(uint32_t seed, uint32_t bo, uint64_t word)
{
	return (seed * 0x9e3779b9u) ^ (bo << 20) ^ (uint32_t)word;
}

static int
mem(uint32_t mib, uint32_t seed)
{
	struct gpu g;
	struct buf *bos = calloc(mib, sizeof(*bos));
	struct buf cmd, stage;
	swgpu_device_info info;
	swgpu_bo *bar_bos[256];
	uint32_t bar_count = 0;
	char line[64];

	CHECK(bos);
	gpu_open(&g, SWGPU_PRIORITY_NORMAL);
	swgpu_device_query_info(g.dev, &info);
	buf_make(&g, 64 * 1024, SWGPU_HEAP_SYSTEM, &cmd);
	buf_make(&g, MIB, SWGPU_HEAP_SYSTEM, &stage);
	/* Each BO gets a pattern of its own: a staging fill of a distinct
	 * value per 4 KiB page, copied in. */
	for (uint32_t b = 0; b < mib; b++) {
		uint32_t *dw = (uint32_t *)cmd.cpu, n = 0;

		buf_make(&g, MIB, SWGPU_HEAP_VRAM, &bos[b]);
		for (uint64_t off = 0; off < MIB; off += 4096)
			n += swgpu_emit_fill(dw + n, bos[b].va + off, 4096,
			                     mem_value(seed, b, off));
		wait_job(&g, submit(&g, &cmd, n));
	}
	printf("allocated\n");
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "report", 6)) {
			uint64_t used[2], budget, bar_used, bar_budget;

			OK(swgpu_heap_budget(g.dev, SWGPU_HEAP_VRAM, &used[0],
			                     &budget));
			used[1] = swgpu_heap_usage(g.dev, SWGPU_HEAP_SYSTEM);
			OK(swgpu_bar_budget(g.dev, &bar_used, &bar_budget));
			printf("usage %llu %llu budget %llu heap %llu "
			       "bar %llu %llu window %llu\n",
			       (unsigned long long)used[0],
			       (unsigned long long)used[1],
			       (unsigned long long)budget,
			       (unsigned long long)
			       info.heap_size[SWGPU_HEAP_VRAM],
			       (unsigned long long)bar_used,
			       (unsigned long long)bar_budget,
			       (unsigned long long)info.bar_size);
		} else if (!strncmp(line, "bar ", 4)) {
			uint32_t n = (uint32_t)strtoul(line + 4, NULL, 10);

			for (uint32_t i = 0; i < n && bar_count < 256; i++)
				OK(swgpu_bo_create(g.dev, MIB, SWGPU_HEAP_VRAM,
				                   SWGPU_BO_BAR,
				                   &bar_bos[bar_count++]));
			printf("bar-allocated %llu\n", (unsigned long long)
			       swgpu_bar_usage(g.dev));
		} else if (!strncmp(line, "check", 5)) {
			swgpu_mem_stats st;

			for (uint32_t b = 0; b < mib; b++) {
				uint32_t n = swgpu_emit_copy((uint32_t *)cmd.cpu,
				                             stage.va, bos[b].va,
				                             MIB);
				wait_job(&g, submit(&g, &cmd, n));
				for (uint64_t off = 0; off < MIB; off += 4) {
					uint32_t got;

					memcpy(&got, stage.cpu + off, 4);
					if (got != mem_value(seed, b,
					                     off & ~4095ull)) {
						printf("FAIL BO %u byte %llu\n",
						       b,
						       (unsigned long long)off);
						return 1;
					}
				}
			}
			OK(swgpu_mem_query_stats(g.dev, &st));
			printf("checked evictions %llu promotions %llu\n",
			       (unsigned long long)st.evictions,
			       (unsigned long long)st.promotions);
		} else {
			break;
		}
	}
	for (uint32_t b = 0; b < mib; b++)
		buf_free(&bos[b]);
	for (uint32_t b = 0; b < bar_count; b++)
		swgpu_bo_destroy(bar_bos[b]);
	free(bos);
	buf_free(&cmd);
	buf_free(&stage);
	gpu_close(&g);
	return 0;
}

/* ---- who may use global priority ---- */

/* Run as a process without CAP_SYS_NICE, also under root. */
static void
drop_sys_nice(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	CHECK(syscall(SYS_capget, &h, d) == 0);
	d[CAP_SYS_NICE / 32].effective &= ~(1u << (CAP_SYS_NICE % 32));
	d[CAP_SYS_NICE / 32].permitted &= ~(1u << (CAP_SYS_NICE % 32));
	CHECK(syscall(SYS_capset, &h, d) == 0);
}

static int
rule(void)
{
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q[2] = { NULL, NULL };
	swgpu_result r[2];

	drop_sys_nice();
	OK(swgpu_device_open(NULL, &dev));
	OK(swgpu_context_create(dev, &ctx));
	r[0] = swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_HIGH, &q[0]);
	r[1] = swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                          SWGPU_PRIORITY_REALTIME, &q[1]);
	CHECK((r[1] == SWGPU_OK) == (q[1] != NULL));
	printf("rule %s %s\n", swgpu_result_str(r[0]), swgpu_result_str(r[1]));
	swgpu_queue_destroy(q[0]);
	swgpu_queue_destroy(q[1]);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
	return 0;
}

static swgpu_priority
prio_arg(const char *s)
{
	return !strcmp(s, "high") ? SWGPU_PRIORITY_HIGH :
	       !strcmp(s, "normal") ? SWGPU_PRIORITY_NORMAL :
	       SWGPU_PRIORITY_LOW;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "flood"))
		return flood((uint32_t)atoi(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "latency"))
		return latency(prio_arg(argv[2]), (uint32_t)atoi(argv[3]),
		               (uint32_t)atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "mem"))
		return mem((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "rule"))
		return rule();
	fprintf(stderr, "usage: one_gpu_client flood PACKETS | latency "
	        "low|normal|high N GAP_MS | mem MIB SEED | rule\n");
	return 2;
}
