/* SPDX-License-Identifier: MIT */
/*
 * swgpu_demo: the software GPU on its own, no Vulkan. Opens a device,
 * shows what it is, moves data the way a real driver would (upload
 * SYSTEM -> VRAM on a copy engine, work on a compute engine, readback on
 * another copy engine, ordered by a timeline sync object), checks every
 * byte, and shows what the engines did. Exit status 1 if any check fails.
 *
 * Uses only <swgpu/swgpu.h> and <swgpu/swgpu_packet.h>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

#define MiB (1024u * 1024u)
#define PAYLOAD (4u * MiB)
#define WAIT_NS (10ull * 1000 * 1000 * 1000)

static int failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "swgpu_demo: FAILED: " __VA_ARGS__);\
			fputc('\n', stderr);                               \
			failures++;                                        \
		}                                                          \
	} while (0)

/* Stop at once when the device refuses something basic. */
#define MUST(call)                                                         \
	do {                                                               \
		swgpu_result r_ = (call);                                  \
		if (r_ != SWGPU_OK) {                                      \
			fprintf(stderr, "swgpu_demo: %s: %s\n", #call,     \
			        swgpu_result_str(r_));                     \
			exit(1);                                           \
		}                                                          \
	} while (0)

struct buf {
	swgpu_bo *bo;
	uint8_t *cpu;
	uint64_t va;
	uint64_t size;
};

static void
buf_create(swgpu_device *dev, swgpu_context *ctx, struct buf *b,
           uint64_t size, swgpu_heap heap, uint32_t flags)
{
	b->size = size;
	b->cpu = NULL;
	MUST(swgpu_bo_create(dev, size, heap, flags, &b->bo));
	if (heap == SWGPU_HEAP_SYSTEM || (flags & SWGPU_BO_BAR)) {
		void *p;
		MUST(swgpu_bo_map(b->bo, &p));
		b->cpu = p;
	}
	MUST(swgpu_va_map(ctx, b->bo, 0, size, SWGPU_VA_READ | SWGPU_VA_WRITE,
	                  &b->va));
}

static void
buf_destroy(swgpu_context *ctx, struct buf *b)
{
	swgpu_va_unmap(ctx, b->va);
	if (b->cpu)
		swgpu_bo_unmap(b->bo);
	swgpu_bo_destroy(b->bo);
}

/* Command memory: packets appended to a SYSTEM BO, one IB per job. */
struct cmdbuf {
	struct buf mem;
	uint32_t *dw;
	uint32_t pos, start;
};

static uint32_t *
cmd_space(struct cmdbuf *c, uint32_t ndw)
{
	if ((uint64_t)(c->pos + ndw) * 4 > c->mem.size) {
		fprintf(stderr, "swgpu_demo: command buffer full\n");
		exit(1);
	}
	uint32_t *p = c->dw + c->pos;
	c->pos += ndw;
	return p;
}

static swgpu_ib
cmd_end(struct cmdbuf *c)
{
	swgpu_ib ib = { c->mem.va + (uint64_t)c->start * 4,
	                c->pos - c->start };
	c->start = c->pos;
	return ib;
}

static uint8_t
pattern(uint64_t i)
{
	return (uint8_t)((i * 131u) ^ (i >> 9) ^ 0x5a);
}

/* One job of the demo and what we learned about it. */
struct job {
	const char *what;
	swgpu_queue *q;
	uint64_t seqno;
	uint64_t bytes;
	uint64_t submit_ns;
	uint32_t ts_slot;      /* TIMESTAMP at the end of the job */
	const char *waits;
};

int
main(void)
{
	swgpu_config cfg;
	swgpu_config_init(&cfg);
	swgpu_device *dev;
	MUST(swgpu_device_open(&cfg, &dev));
	swgpu_device_info info;
	swgpu_device_query_info(dev, &info);

	printf("device \"%s\" (api %u, index %u)\n", info.name,
	       info.api_version, info.device_index);
	printf("  engines:");
	for (uint32_t e = 0; e < info.engine_count; e++)
		printf(" %s", info.engines[e].name);
	printf("   ring %u KiB each, hang timeout %u ms\n",
	       info.ring_size / 1024, info.hang_timeout_ms);
	printf("  heaps: VRAM %llu MiB (host-visible BAR %llu MiB), "
	       "SYSTEM %llu MiB\n",
	       (unsigned long long)(info.heap_size[SWGPU_HEAP_VRAM] / MiB),
	       (unsigned long long)(info.bar_size / MiB),
	       (unsigned long long)(info.heap_size[SWGPU_HEAP_SYSTEM] / MiB));
	printf("  limits: page %u B, VA %llu GiB/context, max BO %llu MiB, "
	       "IB depth %u, IB %u dw, timestamps %llu Hz\n",
	       info.page_size,
	       (unsigned long long)(info.va_size >> 30),
	       (unsigned long long)(info.max_bo_size / MiB), info.max_ib_depth,
	       info.max_ib_size_dw,
	       (unsigned long long)info.timestamp_frequency);

	swgpu_context *ctx;
	MUST(swgpu_context_create(dev, &ctx));
	struct buf upload, readback, vram_a, vram_b, bar, stamps, side;
	buf_create(dev, ctx, &upload, PAYLOAD, SWGPU_HEAP_SYSTEM, 0);
	buf_create(dev, ctx, &readback, PAYLOAD, SWGPU_HEAP_SYSTEM,
	           SWGPU_BO_CACHED);
	buf_create(dev, ctx, &vram_a, PAYLOAD, SWGPU_HEAP_VRAM, 0);
	buf_create(dev, ctx, &vram_b, PAYLOAD, SWGPU_HEAP_VRAM, 0);
	buf_create(dev, ctx, &bar, 4096, SWGPU_HEAP_VRAM, SWGPU_BO_BAR);
	buf_create(dev, ctx, &side, MiB, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED);
	buf_create(dev, ctx, &stamps, 4096, SWGPU_HEAP_SYSTEM,
	           SWGPU_BO_CACHED);
	struct cmdbuf cmd = { .pos = 0, .start = 0 };
	buf_create(dev, ctx, &cmd.mem, 64 * 1024, SWGPU_HEAP_SYSTEM, 0);
	cmd.dw = (uint32_t *)cmd.mem.cpu;
	printf("context %u: SYSTEM upload %u MiB (write-combined), readback "
	       "%u MiB (cached); VRAM 2 x %u MiB + 4 KiB BAR\n",
	       swgpu_context_id(ctx), PAYLOAD / MiB, PAYLOAD / MiB,
	       PAYLOAD / MiB);

	for (uint64_t i = 0; i < PAYLOAD; i++)
		upload.cpu[i] = pattern(i);

	swgpu_queue *copy0, *copy1, *comp0, *comp1;
	MUST(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                        SWGPU_PRIORITY_NORMAL, &copy0));
	MUST(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 1,
	                        SWGPU_PRIORITY_NORMAL, &copy1));
	MUST(swgpu_queue_create(ctx, SWGPU_ENGINE_COMPUTE, 0,
	                        SWGPU_PRIORITY_NORMAL, &comp0));
	MUST(swgpu_queue_create(ctx, SWGPU_ENGINE_COMPUTE, 1,
	                        SWGPU_PRIORITY_HIGH, &comp1));
	swgpu_syncobj *tl;
	MUST(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));

	/*
	 * The frame:
	 *  J1 copy0:  upload 4 MiB SYSTEM -> VRAM a            signal tl=1
	 *  J2 comp1:  independent 1 MiB FILL of a SYSTEM buffer (overlaps J1)
	 *  J3 comp0:  wait tl>=1; FILL VRAM b[0..1M); COPY a[1M..4M) ->
	 *             b[1M..4M)                                 signal tl=2
	 *  J4 copy1:  wait tl>=2; readback VRAM b -> SYSTEM     signal tl=3
	 *  J5 copy0:  wait tl>=3; WRITE_DATA a "done" word into the BAR
	 * Every job ends with a TIMESTAMP so we know when it finished.
	 */
	struct job jobs[5] = {
		{ "upload SYSTEM->VRAM", copy0, 0, PAYLOAD, 0, 0, "-" },
		{ "fill SYSTEM (independent)", comp1, 0, MiB, 0, 1, "-" },
		{ "fill + VRAM->VRAM copy", comp0, 0, PAYLOAD, 0, 2, "tl>=1" },
		{ "readback VRAM->SYSTEM", copy1, 0, PAYLOAD, 0, 3, "tl>=2" },
		{ "done flag -> BAR", copy0, 0, 8, 0, 4, "tl>=3" },
	};
	const uint32_t fill_word = 0xc0ffee11;
	swgpu_ib ib[5];
	uint32_t *p;

	p = cmd_space(&cmd, SWGPU_LEN_COPY);
	swgpu_emit_copy(p, vram_a.va, upload.va, PAYLOAD);
	p = cmd_space(&cmd, SWGPU_LEN_TIMESTAMP);
	swgpu_emit_timestamp(p, stamps.va + 0);
	ib[0] = cmd_end(&cmd);

	p = cmd_space(&cmd, SWGPU_LEN_FILL);
	swgpu_emit_fill(p, side.va, MiB, 0x5a5a5a5a);
	p = cmd_space(&cmd, SWGPU_LEN_TIMESTAMP);
	swgpu_emit_timestamp(p, stamps.va + 8);
	ib[1] = cmd_end(&cmd);

	p = cmd_space(&cmd, SWGPU_LEN_FILL);
	swgpu_emit_fill(p, vram_b.va, MiB, fill_word);
	p = cmd_space(&cmd, SWGPU_LEN_COPY);
	swgpu_emit_copy(p, vram_b.va + MiB, vram_a.va + MiB, PAYLOAD - MiB);
	p = cmd_space(&cmd, SWGPU_LEN_TIMESTAMP);
	swgpu_emit_timestamp(p, stamps.va + 16);
	ib[2] = cmd_end(&cmd);

	p = cmd_space(&cmd, SWGPU_LEN_COPY);
	swgpu_emit_copy(p, readback.va, vram_b.va, PAYLOAD);
	p = cmd_space(&cmd, SWGPU_LEN_TIMESTAMP);
	swgpu_emit_timestamp(p, stamps.va + 24);
	ib[3] = cmd_end(&cmd);

	p = cmd_space(&cmd, SWGPU_LEN_WRITE_DATA(2));
	swgpu_emit_write_data_header(p, bar.va, 2);
	p[3] = 0x600dda7a;
	p[4] = 5;
	p = cmd_space(&cmd, SWGPU_LEN_TIMESTAMP);
	swgpu_emit_timestamp(p, stamps.va + 32);
	ib[4] = cmd_end(&cmd);

	swgpu_sync_point sig[3] = { { tl, 1, 0 }, { tl, 2, 0 }, { tl, 3, 0 } };
	swgpu_sync_point wt[3] = { { tl, 1, 0 }, { tl, 2, 0 }, { tl, 3, 0 } };
	const struct {
		const swgpu_sync_point *w, *s;
	} deps[5] = {
		{ NULL, &sig[0] }, { NULL, NULL }, { &wt[0], &sig[1] },
		{ &wt[1], &sig[2] }, { &wt[2], NULL },
	};
	/* All five go in at once; the scheduler holds each dependent job
	 * until its timeline point is reached, without blocking others. */
	for (int j = 0; j < 5; j++) {
		swgpu_submit_info si = {
			.ibs = &ib[j], .ib_count = 1,
			.waits = deps[j].w, .wait_count = deps[j].w ? 1 : 0,
			.signals = deps[j].s,
			.signal_count = deps[j].s ? 1 : 0,
		};
		jobs[j].submit_ns = swgpu_now_ns();
		MUST(swgpu_submit(jobs[j].q, &si, &jobs[j].seqno));
	}
	uint64_t three = 3;
	uint64_t deadline = swgpu_deadline_from_timeout(WAIT_NS);
	swgpu_result r = swgpu_syncobj_wait(&tl, &three, 1, 0, deadline,
	                                    NULL);
	CHECK(r == SWGPU_OK, "timeline wait: %s", swgpu_result_str(r));
	swgpu_queue *all[4] = { copy0, copy1, comp0, comp1 };
	for (int i = 0; i < 4; i++) {
		r = swgpu_queue_wait(all[i], 0,
		                     swgpu_deadline_from_timeout(WAIT_NS));
		CHECK(r == SWGPU_OK, "queue wait: %s", swgpu_result_str(r));
	}

	printf("\njobs (ctx:queue:seqno, latency = submit -> done):\n");
	printf("  %-8s %-9s %-6s %10s %9s  %s\n", "job", "engine", "waits",
	       "latency", "bytes", "what");
	const uint64_t *ts = (const uint64_t *)stamps.cpu;
	for (int j = 0; j < 5; j++) {
		char id[32];
		snprintf(id, sizeof(id), "%u:%u:%llu", swgpu_context_id(ctx),
		         swgpu_queue_id(jobs[j].q),
		         (unsigned long long)jobs[j].seqno);
		uint64_t done = ts[jobs[j].ts_slot];
		CHECK(done >= jobs[j].submit_ns, "job %d timestamp", j + 1);
		printf("  %-8s %-9s %-6s %7.1f us %9llu  %s\n", id,
		       info.engines[swgpu_queue_engine(jobs[j].q)].name,
		       jobs[j].waits, (double)(done - jobs[j].submit_ns) / 1e3,
		       (unsigned long long)jobs[j].bytes, jobs[j].what);
	}
	CHECK(ts[2] >= ts[0] && ts[3] >= ts[2] && ts[4] >= ts[3],
	      "dependent jobs finished out of order");

	/* Every byte where it should be. */
	uint64_t bad = 0;
	const uint32_t *rb = (const uint32_t *)readback.cpu;
	for (uint64_t i = 0; i < MiB / 4; i++)
		bad += rb[i] != fill_word;
	for (uint64_t i = MiB; i < PAYLOAD; i++)
		bad += readback.cpu[i] != pattern(i);
	for (uint64_t i = 0; i < MiB; i++)
		bad += side.cpu[i] != 0x5a;
	const uint32_t *flag = (const uint32_t *)bar.cpu;
	bad += flag[0] != 0x600dda7a || flag[1] != 5;
	CHECK(bad == 0, "%llu bytes/words wrong", (unsigned long long)bad);
	uint64_t tv = 0;
	CHECK(swgpu_syncobj_query(tl, &tv) == SWGPU_OK && tv == 3,
	      "timeline value %llu", (unsigned long long)tv);
	CHECK(swgpu_context_query_state(ctx, NULL) == SWGPU_CONTEXT_OK,
	      "context not OK");
	printf("check: upload -> VRAM -> readback %u MiB, fills, BAR flag: "
	       "%s\n", PAYLOAD / MiB, bad ? "MISMATCH" : "all bytes match");

	printf("\n  %-9s %5s %6s %8s %10s %9s %9s %6s\n", "engine", "jobs",
	       "failed", "packets", "bytes", "busy", "doorbells", "fence");
	for (uint32_t e = 0; e < info.engine_count; e++) {
		swgpu_engine_stats st;
		MUST(swgpu_engine_query_stats(dev, e, &st));
		printf("  %-9s %5llu %6llu %8llu %10llu %6.1f ms %9llu %6llu\n",
		       info.engines[e].name,
		       (unsigned long long)st.jobs_completed,
		       (unsigned long long)st.jobs_failed,
		       (unsigned long long)st.packets_executed,
		       (unsigned long long)st.bytes_written,
		       (double)st.busy_ns / 1e6,
		       (unsigned long long)st.doorbells,
		       (unsigned long long)st.fence_seqno);
	}
	printf("timeline: %llu; queues completed: copy0 %llu, copy1 %llu, "
	       "compute0 %llu, compute1 %llu\n",
	       (unsigned long long)tv,
	       (unsigned long long)swgpu_queue_completed(copy0),
	       (unsigned long long)swgpu_queue_completed(copy1),
	       (unsigned long long)swgpu_queue_completed(comp0),
	       (unsigned long long)swgpu_queue_completed(comp1));

	/* A short state dump: its first lines. */
	char *text = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&text, &len);
	if (mf) {
		swgpu_device_dump(dev, mf);
		fclose(mf);
		printf("\ndevice dump (first lines):\n");
		const char *s = text;
		int lines = 0, total = 0;
		for (const char *c = text; c && *c; c++)
			total += *c == '\n';
		while (s && *s && lines < 10) {
			const char *nl = strchr(s, '\n');
			int n = nl ? (int)(nl - s) : (int)strlen(s);
			printf("  %.*s\n", n, s);
			lines++;
			s = nl ? nl + 1 : NULL;
		}
		if (total > lines)
			printf("  ... %d more lines\n", total - lines);
		CHECK(len > 0, "empty device dump");
		free(text);
	}

	swgpu_syncobj_destroy(tl);
	for (int i = 0; i < 4; i++)
		swgpu_queue_destroy(all[i]);
	buf_destroy(ctx, &cmd.mem);
	buf_destroy(ctx, &stamps);
	buf_destroy(ctx, &side);
	buf_destroy(ctx, &bar);
	buf_destroy(ctx, &vram_b);
	buf_destroy(ctx, &vram_a);
	buf_destroy(ctx, &readback);
	buf_destroy(ctx, &upload);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
	printf("\nswgpu_demo: %s\n", failures ? "FAILED" : "OK");
	return failures ? 1 : 0;
}
