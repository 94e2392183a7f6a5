/* SPDX-License-Identifier: MIT */
/*
 * sched_latency: scheduling figures of the swgpu engines, measured on the
 * swgpu API (no Vulkan), every run's data checked.
 *
 *  preempt   a HIGH queue's 4 KiB copy submitted while a LOW queue's long
 *            copy (1 GiB; --quick 64 MiB) runs on the same copy engine:
 *            submit -> start and submit -> done of the 4 KiB job, with
 *            preemption (the default) and without (cfg.no_preempt, i.e.
 *            SWGPU_PREEMPT=0).
 *  latency   per engine, idle: submit -> start of a job (host clock just
 *            before swgpu_submit to the job's first TIMESTAMP) and ready
 *            -> start of a job waiting on a timeline the host signals
 *            (host clock just before swgpu_syncobj_signal to the
 *            TIMESTAMP); p50 and p99.
 *
 * TIMESTAMP packets write swgpu_now_ns() (CLOCK_MONOTONIC), the clock the
 * host side reads, so the two subtract. Output: one line per figure,
 *   figure=<name> value=<x> unit=<u> p50=<x> p99=<x> max=<x> runs=<n>
 *          verified=yes|no
 * Exit status 1 if any run moved wrong data or failed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

#include "swgpu_api_bench.h"

#define MIB (1024ull * 1024ull)
#define SMALL 4096u
#define WAIT_NS (120ull * 1000000000ull)

static bool quick;
static bool all_ok = true;

static uint64_t
load64(const void *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

static void
report(const char *figure, uint64_t *v, uint32_t n, bool verified)
{
	double p50 = quantile_us(v, n, 0.5), p99 = quantile_us(v, n, 0.99);
	printf("figure=%s value=%.1f unit=us p50=%.1f p99=%.1f max=%.1f "
	       "runs=%u verified=%s\n", figure, p50, p50, p99,
	       v[n - 1] / 1e3, n, verified ? "yes" : "no");
	if (!verified)
		all_ok = false;
}

static swgpu_device *
open_dev(bool no_preempt, uint64_t system, uint32_t copy_engines)
{
	swgpu_config cfg;
	swgpu_device *dev;

	swgpu_config_init(&cfg);
	cfg.vram_size = 64 * MIB;
	cfg.bar_size = 16 * MIB;
	cfg.system_size = system;
	cfg.no_preempt = no_preempt;
	if (copy_engines)
		cfg.engine_count[SWGPU_ENGINE_COPY] = copy_engines;
	CHECK(swgpu_device_open(&cfg, &dev));
	return dev;
}

/* ------------------------------------------------------------------ */
/* HIGH 4 KiB copy behind a LOW long copy                              */
/* ------------------------------------------------------------------ */

static void
bench_preempt(bool no_preempt)
{
	const uint64_t size = quick ? 64 * MIB : 1024 * MIB;
	const uint32_t runs = quick ? 2 : 7;
	/* One copy engine: LOW and HIGH on the same engine (with two,
	 * engines chosen per job run HIGH on the idle one). */
	swgpu_device *dev = open_dev(no_preempt, 2 * size + 64 * MIB, 1);
	swgpu_context *ctx;
	swgpu_queue *lo, *hi;
	struct buf src, dst, ssrc, sdst, ts, cmd;
	uint64_t start[16], done[16];
	bool ok = true;

	CHECK(swgpu_context_create(dev, &ctx));
	CHECK(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                         SWGPU_PRIORITY_LOW, &lo));
	CHECK(swgpu_queue_create(ctx, SWGPU_ENGINE_COPY, 0,
	                         SWGPU_PRIORITY_HIGH, &hi));
	buf_init(&src, dev, ctx, size, SWGPU_VA_READ);
	buf_init(&dst, dev, ctx, size, SWGPU_VA_READ | SWGPU_VA_WRITE);
	buf_init(&ssrc, dev, ctx, SMALL, SWGPU_VA_READ);
	buf_init(&sdst, dev, ctx, SMALL, SWGPU_VA_READ | SWGPU_VA_WRITE);
	buf_init(&ts, dev, ctx, 4096, SWGPU_VA_READ | SWGPU_VA_WRITE);
	buf_init(&cmd, dev, ctx, 4096, SWGPU_VA_READ);
	for (uint64_t i = 0; i < size; i += 8)
		*(uint64_t *)(void *)(src.cpu + i) = i * 0x9e3779b97f4a7c15ull;

	/* LOW: TIMESTAMP, COPY size, TIMESTAMP. HIGH: TIMESTAMP, COPY
	 * 4 KiB, TIMESTAMP. */
	uint32_t *c = (uint32_t *)(void *)cmd.cpu, n = 0;
	n += swgpu_emit_timestamp(c + n, ts.va);
	n += swgpu_emit_copy(c + n, dst.va, src.va, size);
	n += swgpu_emit_timestamp(c + n, ts.va + 8);
	swgpu_ib lo_ib = { cmd.va, n };
	uint32_t h0 = n;
	n += swgpu_emit_timestamp(c + n, ts.va + 16);
	n += swgpu_emit_copy(c + n, sdst.va, ssrc.va, SMALL);
	n += swgpu_emit_timestamp(c + n, ts.va + 24);
	swgpu_ib hi_ib = { cmd.va + 4ull * h0, n - h0 };
	swgpu_submit_info lo_info = { .ibs = &lo_ib, .ib_count = 1 };
	swgpu_submit_info hi_info = { .ibs = &hi_ib, .ib_count = 1 };

	/* A run counts only if the 4 KiB job was submitted while the long
	 * copy ran (a loaded host may sleep past its end): then with
	 * preemption it must end inside the copy, without it start after. */
	uint32_t r = 0;
	for (uint32_t attempt = 0; r < runs && attempt < 4 * runs; attempt++) {
		memset(ts.cpu, 0, 32);
		memset(dst.cpu, 0, size);
		memset(sdst.cpu, 0, SMALL);
		for (uint32_t i = 0; i < SMALL; i++)
			ssrc.cpu[i] = (uint8_t)(i * 7 + attempt);
		CHECK(swgpu_submit(lo, &lo_info, NULL));
		while (!load64(ts.cpu))
			;
		/* Well inside the copy (1 GiB takes 70+ ms here). */
		struct timespec pause = { 0, quick ? 200000 : 2000000 };
		nanosleep(&pause, NULL);
		uint64_t t_sub = swgpu_now_ns();
		CHECK(swgpu_submit(hi, &hi_info, NULL));
		CHECK(swgpu_queue_wait(hi, 0, swgpu_now_ns() + WAIT_NS));
		uint64_t t_done = swgpu_now_ns();
		CHECK(swgpu_queue_wait(lo, 0, swgpu_now_ns() + WAIT_NS));
		ok = ok && !memcmp(sdst.cpu, ssrc.cpu, SMALL) &&
		     !memcmp(dst.cpu, src.cpu, size);
		uint64_t lo_end = load64(ts.cpu + 8);
		if (t_sub >= lo_end)
			continue; /* the copy was over: nothing to preempt */
		bool inside = load64(ts.cpu + 24) < lo_end;
		ok = ok && inside == !no_preempt;
		start[r] = load64(ts.cpu + 16) - t_sub;
		done[r] = t_done - t_sub;
		r++;
	}
	/* Too few runs overlapped (a very busy host): the figures stand on
	 * fewer runs; only wrong data or order fails. */
	const bool short_of_runs = r < runs;
	if (!r)
		start[r] = done[r] = 0, r = 1;
	char name[64];
	snprintf(name, sizeof(name), "preempt.%s.submit_to_start",
	         no_preempt ? "off" : "on");
	report(name, start, r, ok);
	if (short_of_runs)
		printf("note: preempt.%s: only %u of %u runs overlapped the "
		       "long copy (host busy)\n", no_preempt ? "off" : "on",
		       r, runs);
	snprintf(name, sizeof(name), "preempt.%s.submit_to_done",
	         no_preempt ? "off" : "on");
	report(name, done, r, ok);

	buf_fini(&cmd);
	buf_fini(&ts);
	buf_fini(&sdst);
	buf_fini(&ssrc);
	buf_fini(&dst);
	buf_fini(&src);
	swgpu_queue_destroy(hi);
	swgpu_queue_destroy(lo);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* ------------------------------------------------------------------ */
/* Submit -> start and ready -> start per engine                       */
/* ------------------------------------------------------------------ */

static void
bench_engine_latency(swgpu_device *dev, swgpu_context *ctx,
                     const swgpu_engine_info *ei)
{
	const uint32_t iters = quick ? 50 : 2000;
	swgpu_queue *q;
	swgpu_syncobj *tl;
	struct buf ts, cmd;
	uint64_t *sub = malloc(iters * sizeof(*sub));
	uint64_t *rdy = malloc(iters * sizeof(*rdy));
	bool ok = sub && rdy;

	CHECK(swgpu_queue_create(ctx, ei->engine_class, ei->index_in_class,
	                         SWGPU_PRIORITY_NORMAL, &q));
	CHECK(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	buf_init(&ts, dev, ctx, 8ull * iters, SWGPU_VA_READ | SWGPU_VA_WRITE);
	buf_init(&cmd, dev, ctx, 16ull * iters, SWGPU_VA_READ);
	uint32_t *c = (uint32_t *)(void *)cmd.cpu;
	for (uint32_t i = 0; i < iters; i++)
		swgpu_emit_timestamp(c + 4 * i, ts.va + 8ull * i);

	for (uint32_t pass = 0; ok && pass < 2; pass++) {
		memset(ts.cpu, 0, 8ull * iters);
		for (uint32_t i = 0; i < iters; i++) {
			swgpu_ib ib = { cmd.va + 16ull * i,
			                SWGPU_LEN_TIMESTAMP };
			swgpu_sync_point w = { tl, 0, 0 };
			swgpu_submit_info info = { .ibs = &ib, .ib_count = 1 };
			uint64_t t;
			if (pass == 0) {
				t = swgpu_now_ns();
				CHECK(swgpu_submit(q, &info, NULL));
			} else {
				w.value = i + 1;
				info.waits = &w;
				info.wait_count = 1;
				CHECK(swgpu_submit(q, &info, NULL));
				/* Let the engine go idle first. */
				struct timespec pause = { 0, 50000 };
				nanosleep(&pause, NULL);
				t = swgpu_now_ns();
				CHECK(swgpu_syncobj_signal(tl, i + 1));
			}
			CHECK(swgpu_queue_wait(q, 0, swgpu_now_ns() + WAIT_NS));
			uint64_t s = load64(ts.cpu + 8ull * i);
			ok = ok && s >= t;
			(pass ? rdy : sub)[i] = s - t;
		}
	}
	char name[64];
	snprintf(name, sizeof(name), "sched.%s.submit_to_start", ei->name);
	report(name, sub, iters, ok);
	snprintf(name, sizeof(name), "sched.%s.ready_to_start", ei->name);
	report(name, rdy, iters, ok);
	free(sub);
	free(rdy);
	buf_fini(&cmd);
	buf_fini(&ts);
	swgpu_syncobj_destroy(tl);
	swgpu_queue_destroy(q);
}

static void
bench_latency(void)
{
	swgpu_device *dev = open_dev(false, 256 * MIB, 0);
	swgpu_device_info info;
	swgpu_context *ctx;

	swgpu_device_query_info(dev, &info);
	CHECK(swgpu_context_create(dev, &ctx));
	for (uint32_t e = 0; e < info.engine_count; e++)
		bench_engine_latency(dev, ctx, &info.engines[e]);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

int
main(int argc, char **argv)
{
	const char *only = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			quick = true;
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
		} else {
			fprintf(stderr, "usage: %s [--quick] "
			        "[--only preempt|latency]\n", argv[0]);
			return 2;
		}
	}
	if (!only || !strcmp(only, "preempt")) {
		bench_preempt(false);
		bench_preempt(true);
	}
	if (!only || !strcmp(only, "latency"))
		bench_latency();
	return all_ok ? 0 : 1;
}
