/* SPDX-License-Identifier: MIT */
/*
 * bench_preempt: the cost of preempting a running workgroup, on the swgpu
 * API (no Vulkan), every run's data checked.
 *
 *  preempt_wg_roundtrip  one stop of a running workgroup and its resume
 *            (save to the save area, engine leaves and re-enters the
 *            packet, restore): a 64-lane workgroup with 1 KiB of shared
 *            memory loops n steps once without stops and once with the
 *            SWGPU_PREEMPT_CHAOS knob at 1 (a stop each time the engine is
 *            asked: every 8th loop back-edge, 2 500 stops at n = 20 000);
 *            (time with stops - time without) / stops.
 *            Median of the runs; the results of both runs must be equal
 *            bit for bit and equal to the host's.
 *  preempt_high_latency  a HIGH queue's TIMESTAMP job submitted while a
 *            LOW queue's workgroup never ends (loops until the host
 *            stops it) on the same engine: submit -> TIMESTAMP, p50/p99.
 *            Without preemption inside workgroups it would wait for the
 *            watchdog (seconds).
 *
 * Output: figure=<name> value=<x> unit=<u> [p50= p99=] runs=<n>
 * verified=yes|no. Exit status 1 if any run gave wrong data or failed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

#include "swgpu_api_bench.h"

#include "preempt_endless.spv.h"
#include "preempt_loop.spv.h"

#define MIB (1024ull * 1024ull)
#define WAIT_NS (120ull * 1000000000ull)

static bool quick;
static bool all_ok = true;

/* A context with one compute queue, a command buffer, a descriptor set
 * (binding 0: data) and a bind table. */
struct side {
	swgpu_context *ctx;
	swgpu_queue *q;
	struct buf cmd, desc, table, data;
	swgpu_shader *s;
};

static void
side_init(struct side *s, swgpu_device *dev, swgpu_priority prio,
          const uint32_t *code, size_t size, uint32_t push)
{
	const swgpu_shader_binding b = {
		.set = 0, .binding = 0,
		.type = SWGPU_DESCRIPTOR_STORAGE_BUFFER, .count = 1,
	};
	swgpu_shader_info info = {
		.code = code, .code_size = size, .entry_point = "main",
		.bindings = &b, .binding_count = 1,
		.push_constant_size = push,
	};

	CHECK(swgpu_context_create(dev, &s->ctx));
	CHECK(swgpu_queue_create(s->ctx, SWGPU_ENGINE_COMPUTE, 0, prio,
	                         &s->q));
	buf_init(&s->cmd, dev, s->ctx, 4096, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(s->cmd.cpu, 0, 4096);
	buf_init(&s->desc, dev, s->ctx, 4096, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(s->desc.cpu, 0, 4096);
	buf_init(&s->table, dev, s->ctx, 4096, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(s->table.cpu, 0, 4096);
	buf_init(&s->data, dev, s->ctx, 4096, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(s->data.cpu, 0, 4096);
	CHECK(swgpu_shader_create(s->ctx, &info, &s->s));
	swgpu_write_buffer_descriptor(s->desc.cpu,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              s->data.va, 4096);
}

static void
side_fini(struct side *s)
{
	swgpu_shader_destroy(s->s);
	buf_fini(&s->data);
	buf_fini(&s->table);
	buf_fini(&s->desc);
	buf_fini(&s->cmd);
	swgpu_queue_destroy(s->q);
	swgpu_context_destroy(s->ctx);
}

/* Submit one dispatch of one workgroup with push constant n. */
static void
submit_dispatch(struct side *s, uint32_t n)
{
	struct swgpu_bind_table bt;

	memset(&bt, 0, sizeof(bt));
	bt.set_va[0] = s->desc.va;
	memcpy(bt.push_constants, &n, 4);
	memcpy(s->table.cpu, &bt, sizeof(bt));
	swgpu_emit_dispatch((uint32_t *)(void *)s->cmd.cpu,
	                    swgpu_shader_code_va(s->s), s->table.va, 1, 1, 1,
	                    0, 0, 0);
	swgpu_ib ib = { .va = s->cmd.va, .size_dw = SWGPU_LEN_DISPATCH };
	swgpu_submit_info si = { .ibs = &ib, .ib_count = 1 };
	CHECK(swgpu_submit(s->q, &si, NULL));
}

static swgpu_device *
open_dev(uint32_t chaos)
{
	swgpu_config cfg;
	swgpu_device *dev;

	swgpu_config_init(&cfg);
	cfg.vram_size = 64 * MIB;
	cfg.bar_size = 16 * MIB;
	cfg.system_size = 256 * MIB;
	cfg.preempt_chaos = chaos;
	CHECK(swgpu_device_open(&cfg, &dev));
	return dev;
}

static uint64_t
preemptions(swgpu_device *dev)
{
	swgpu_engine_stats st;

	CHECK(swgpu_engine_query_stats(dev, 0, &st));
	return st.preemptions;
}

/* preempt_loop.comp on the host. */
static void
loop_ref(uint32_t n, uint32_t *out)
{
	uint32_t x[64], sh[256];

	memset(sh, 0, sizeof(sh));
	for (uint32_t l = 0; l < 64; l++)
		x[l] = l;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t l = 0; l < 64; l++) {
			x[l] = x[l] * 1664525u + 1013904223u;
			sh[(l * 4u + (i & 3u)) & 255u] = x[l];
		}
		for (uint32_t l = 0; l < 64; l++)
			x[l] ^= sh[(l * 4u + 5u) & 255u] >> 3;
	}
	memcpy(out, x, sizeof(x));
}

/* Time of one run of the loop workgroup on dev (ns), its stops added to
 * *stops; the data checked against ref. */
static uint64_t
loop_run(swgpu_device *dev, uint32_t n, const uint32_t *ref,
         uint64_t *stops)
{
	struct side s;

	side_init(&s, dev, SWGPU_PRIORITY_NORMAL, preempt_loop_spv,
	          sizeof(preempt_loop_spv), 4);
	uint64_t p0 = preemptions(dev);
	uint64_t t0 = swgpu_now_ns();
	submit_dispatch(&s, n);
	CHECK(swgpu_queue_wait(s.q, 0, swgpu_deadline_from_timeout(WAIT_NS)));
	uint64_t t = swgpu_now_ns() - t0;
	*stops += preemptions(dev) - p0;
	if (memcmp(s.data.cpu, ref, 64 * 4))
		all_ok = false;
	side_fini(&s);
	return t;
}

static void
bench_roundtrip(void)
{
	const uint32_t n = quick ? 2000 : 20000, runs = quick ? 3 : 9;
	swgpu_device *plain = open_dev(0), *chaotic = open_dev(1);
	static uint32_t ref[64];
	uint64_t cost[16], stops_total = 0;
	bool ok_before = all_ok;

	loop_ref(n, ref);
	for (uint32_t r = 0; r < runs; r++) {
		uint64_t none = 0, stops = 0;
		uint64_t t_plain = loop_run(plain, n, ref, &none);
		uint64_t t_stop = loop_run(chaotic, n, ref, &stops);

		if (none || !stops)
			all_ok = false;
		stops_total += stops;
		cost[r] = stops && t_stop > t_plain ?
		          (t_stop - t_plain) / stops : 0;
	}
	double p50 = quantile_us(cost, runs, 0.5);
	printf("figure=preempt_wg_roundtrip value=%.2f unit=us p50=%.2f "
	       "p99=%.2f stops_per_run=%llu runs=%u verified=%s\n", p50, p50,
	       quantile_us(cost, runs, 0.99),
	       (unsigned long long)(stops_total / runs), runs,
	       all_ok && ok_before ? "yes" : "no");
	swgpu_device_close(chaotic);
	swgpu_device_close(plain);
}

static void
bench_high_latency(void)
{
	const uint32_t runs = quick ? 20 : 200;
	swgpu_device *dev = open_dev(0);
	struct side lo, hi;
	struct buf ts;
	uint64_t lat[200];
	bool ok = true;

	side_init(&lo, dev, SWGPU_PRIORITY_LOW, preempt_endless_spv,
	          sizeof(preempt_endless_spv), 0);
	side_init(&hi, dev, SWGPU_PRIORITY_HIGH, preempt_loop_spv,
	          sizeof(preempt_loop_spv), 4);
	buf_init(&ts, dev, hi.ctx, 4096, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(ts.cpu, 0, 4096);
	submit_dispatch(&lo, 0);
	uint32_t *flags = (uint32_t *)(void *)lo.data.cpu;
	uint64_t deadline = swgpu_now_ns() + WAIT_NS;
	while (!__atomic_load_n(&flags[0], __ATOMIC_ACQUIRE) &&
	       swgpu_now_ns() < deadline)
		;
	swgpu_emit_timestamp((uint32_t *)(void *)hi.cmd.cpu, ts.va);
	swgpu_ib ib = { .va = hi.cmd.va, .size_dw = SWGPU_LEN_TIMESTAMP };
	for (uint32_t r = 0; r < runs; r++) {
		swgpu_submit_info si = { .ibs = &ib, .ib_count = 1 };
		uint64_t t0 = swgpu_now_ns();

		CHECK(swgpu_submit(hi.q, &si, NULL));
		CHECK(swgpu_queue_wait(hi.q, 0,
		                       swgpu_deadline_from_timeout(WAIT_NS)));
		uint64_t t1 = __atomic_load_n((uint64_t *)(void *)ts.cpu,
		                              __ATOMIC_ACQUIRE);
		ok &= t1 >= t0;
		lat[r] = t1 >= t0 ? t1 - t0 : 0;
	}
	/* LOW was running the whole time, and ends when told. */
	swgpu_context_state st = swgpu_context_query_state(lo.ctx, NULL);
	ok &= st == SWGPU_CONTEXT_OK;
	__atomic_store_n(&flags[1], 1u, __ATOMIC_RELEASE);
	CHECK(swgpu_queue_wait(lo.q, 0, swgpu_deadline_from_timeout(WAIT_NS)));
	double p50 = quantile_us(lat, runs, 0.5);
	printf("figure=preempt_high_latency value=%.1f unit=us p50=%.1f "
	       "p99=%.1f runs=%u verified=%s\n", p50, p50,
	       quantile_us(lat, runs, 0.99), runs, ok ? "yes" : "no");
	all_ok &= ok;
	buf_fini(&ts);
	side_fini(&hi);
	side_fini(&lo);
	swgpu_device_close(dev);
}

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			quick = true;
		} else {
			fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
			return 2;
		}
	}
	bench_roundtrip();
	bench_high_latency();
	return all_ok ? 0 : 1;
}
