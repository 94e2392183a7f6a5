/* SPDX-License-Identifier: MIT */
/*
 * Every packet kind through real submits, checked on the data it leaves:
 * NOP of many lengths, INDIRECT_BUFFER chains up to and past max_ib_depth,
 * COPY of odd sizes and alignments VRAM<->SYSTEM<->VRAM, FILL, WRITE_DATA,
 * SEM_WAIT released by another engine and by the host, SEM_SIGNAL (plain
 * and WRITE_MAX), TIMESTAMP.
 */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>

struct fix {
	swgpu_device *dev;
	swgpu_device_info info;
	swgpu_context *ctx;
	swgpu_queue *copy0, *copy1, *comp0, *comp1;
	struct api_cmd cmd;
	struct api_buf sys;     /* SYSTEM, cached: results */
};

static int
setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));
	swgpu_config cfg;
	api_config_small(&cfg);
	api_ok(swgpu_device_open(&cfg, &f->dev));
	swgpu_device_query_info(f->dev, &f->info);
	api_ok(swgpu_context_create(f->dev, &f->ctx));
	f->copy0 = api_queue(f->ctx, SWGPU_ENGINE_COPY, 0);
	f->copy1 = api_queue(f->ctx, SWGPU_ENGINE_COPY, 1);
	f->comp0 = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 0);
	f->comp1 = api_queue(f->ctx, SWGPU_ENGINE_COMPUTE, 1);
	api_cmd_init(&f->cmd, f->dev, f->ctx, 256 * 1024);
	api_buf_init(&f->sys, f->dev, f->ctx, 1 << 20, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fix *f = *state;
	api_buf_fini(&f->sys);
	api_cmd_fini(&f->cmd);
	swgpu_queue_destroy(f->copy0);
	swgpu_queue_destroy(f->copy1);
	swgpu_queue_destroy(f->comp0);
	swgpu_queue_destroy(f->comp1);
	swgpu_context_destroy(f->ctx);
	swgpu_device_close(f->dev);
	free(f);
	return 0;
}

/* Each test starts with idle queues, an empty arena, zeroed results,
 * and must leave the context innocent. */
static int
before(void **state)
{
	struct fix *f = *state;
	api_cmd_reset(&f->cmd);
	memset(f->sys.cpu, 0, f->sys.size);
	return 0;
}

static int
after(void **state)
{
	struct fix *f = *state;
	swgpu_fault_info fi;
	swgpu_context_state st = swgpu_context_query_state(f->ctx, &fi);
	if (st != SWGPU_CONTEXT_OK) {
		print_error("context state %d: fault %d '%s'\n", (int)st,
		            (int)fi.kind, fi.message);
		return -1;
	}
	return 0;
}

static void
run_ib(swgpu_queue *q, swgpu_ib ib)
{
	uint64_t s = 0;
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &s));
	api_ok(swgpu_queue_wait(q, s, api_deadline_ms(API_WAIT_MS)));
}

static void
test_nop_lengths(void **state)
{
	struct fix *f = *state;
	static const uint32_t lens[] = { 1, 2, 3, 4, 5, 7, 8, 16, 255, 256,
	                                 257, 1000, 4096, 0xffff };
	uint32_t marker = 0;
	for (size_t i = 0; i < API_ARRAY_SIZE(lens); i++) {
		if (lens[i] + 8 > f->info.max_ib_size_dw)
			continue;
		/* Fill the NOP payload with dwords that are bad packets if
		 * the engine misreads the length and decodes them. */
		uint32_t *p = api_cmd_reserve(&f->cmd, lens[i]);
		swgpu_emit_nop(p, lens[i]);
		for (uint32_t k = 1; k < lens[i]; k++)
			p[k] = 0xffffffffu - k;
		api_emit_write32(&f->cmd, f->sys.va + i * 4, 0x4e0f0000 | i);
		marker++;
	}
	swgpu_ib ib = api_cmd_end(&f->cmd);
	run_ib(f->comp0, ib);
	for (size_t i = 0; i < API_ARRAY_SIZE(lens); i++) {
		if (lens[i] + 8 > f->info.max_ib_size_dw)
			continue;
		assert_int_equal(((uint32_t *)f->sys.cpu)[i], 0x4e0f0000 | i);
	}
	assert_true(marker >= 10);

	/* A job made only of NOPs, on a copy engine too. */
	api_emit_nop(&f->cmd, 1);
	api_emit_nop(&f->cmd, 9);
	swgpu_ib ib2 = api_cmd_end(&f->cmd);
	run_ib(f->copy1, ib2);
}

/*
 * A chain of IBs nested `depth` INDIRECT_BUFFER packets deep. IB level k
 * writes 'enter k' before calling level k+1 and 'leave k' after it, so the
 * data shows both the nesting and that execution continues after each
 * call returns.
 */
static swgpu_ib
build_chain(struct fix *f, uint32_t depth, uint64_t out_va)
{
	swgpu_ib inner = { 0 };
	for (int32_t k = (int32_t)depth; k >= 0; k--) {
		api_emit_write32(&f->cmd, out_va + (uint64_t)k * 8,
		                 0xe0000000u | (uint32_t)k);
		if (k < (int32_t)depth)
			api_emit_indirect(&f->cmd, inner);
		api_emit_write32(&f->cmd, out_va + (uint64_t)k * 8 + 4,
		                 0x1e000000u | (uint32_t)k);
		inner = api_cmd_end(&f->cmd);
	}
	return inner; /* level 0: the IB that is submitted */
}

static void
test_indirect_chain_max_depth(void **state)
{
	struct fix *f = *state;
	/* The submitted IB is itself nesting level 1 (the ring calls it),
	 * so a job may chain max_ib_depth - 1 INDIRECT_BUFFER packets:
	 * max_ib_depth IB levels in all. */
	assert_true(f->info.max_ib_depth >= 2 && f->info.max_ib_depth < 64);
	uint32_t d = f->info.max_ib_depth - 1;
	swgpu_ib top = build_chain(f, d, f->sys.va);
	run_ib(f->comp1, top);
	const uint32_t *o = (const uint32_t *)f->sys.cpu;
	for (uint32_t k = 0; k <= d; k++) {
		assert_int_equal(o[k * 2], 0xe0000000u | k);
		assert_int_equal(o[k * 2 + 1], 0x1e000000u | k);
	}
	/* Several IB packets in a row, and several IBs per job. */
	swgpu_ib leaf[3];
	for (int i = 0; i < 3; i++) {
		api_emit_write32(&f->cmd, f->sys.va + 4096 + i * 4, 0x1b0 + i);
		leaf[i] = api_cmd_end(&f->cmd);
	}
	api_emit_indirect(&f->cmd, leaf[0]);
	api_emit_indirect(&f->cmd, leaf[1]);
	api_emit_indirect(&f->cmd, leaf[0]);
	swgpu_ib calls = api_cmd_end(&f->cmd);
	swgpu_ib job[2] = { calls, leaf[2] };
	swgpu_submit_info si = { .ibs = job, .ib_count = 2 };
	api_ok(swgpu_submit(f->copy0, &si, NULL));
	api_queue_idle(f->copy0);
	assert_int_equal(api_load32(f->sys.cpu + 4096), 0x1b0);
	assert_int_equal(api_load32(f->sys.cpu + 4100), 0x1b1);
	assert_int_equal(api_load32(f->sys.cpu + 4104), 0x1b2);
}

static void
test_indirect_chain_too_deep(void **state)
{
	struct fix *f = *state;
	/* A context of its own: the fault makes it guilty. */
	swgpu_context *ctx;
	api_ok(swgpu_context_create(f->dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COMPUTE, 0);
	struct fix g = *f;
	g.ctx = ctx;
	api_cmd_init(&g.cmd, f->dev, ctx, 4096);
	struct api_buf out;
	api_buf_init(&out, f->dev, ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
	uint32_t d = f->info.max_ib_depth - 1; /* deepest that works */
	swgpu_ib top = build_chain(&g, d + 1, out.va);
	uint64_t s;
	api_ok(api_submit(q, &top, NULL, 0, NULL, 0, &s));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(q, s, api_deadline_ms(API_WAIT_MS)));
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(ctx, &fi),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(fi.kind, SWGPU_FAULT_IB_DEPTH);
	assert_int_equal(fi.opcode, SWGPU_OP_INDIRECT_BUFFER);
	assert_true(fi.job_seqno == s);
	assert_int_equal(fi.queue_id, swgpu_queue_id(q));
	/* Levels up to max_ib_depth started; the one past it never ran,
	 * and no level returned from its call. */
	const uint32_t *o = (const uint32_t *)out.cpu;
	for (uint32_t k = 0; k <= d; k++)
		assert_int_equal(o[k * 2], 0xe0000000u | k);
	assert_int_equal(o[(d + 1) * 2], 0);
	for (uint32_t k = 0; k <= d + 1; k++)
		assert_int_equal(o[k * 2 + 1], 0);
	api_buf_fini(&out);
	api_cmd_fini(&g.cmd);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
}

/*
 * COPY of odd sizes and offsets through all memory kinds:
 *   sysA+soff -> vram1+doff -> vram2+soff -> sysB+doff
 * sysB starts filled with a canary, so bytes outside the copied range
 * must keep it.
 */
static void
test_copy_odd_sizes(void **state)
{
	struct fix *f = *state;
	static const uint64_t sizes[] = { 1, 3, 7, 4095, 4096, 4097, 65537,
	                                  (1u << 20) + 3 };
	const uint64_t cap = (1u << 20) + 3 + 16;
	struct api_buf sa, sb, v1, v2;
	api_buf_init(&sa, f->dev, f->ctx, cap, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_buf_init(&sb, f->dev, f->ctx, cap, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_WRITE);
	api_buf_init(&v1, f->dev, f->ctx, cap, SWGPU_HEAP_VRAM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&v2, f->dev, f->ctx, cap, SWGPU_HEAP_VRAM, SWGPU_BO_BAR,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	assert_null(v1.cpu);
	uint32_t seed = 1;
	uint64_t total = 0;
	for (size_t si = 0; si < API_ARRAY_SIZE(sizes); si++) {
		uint64_t size = sizes[si];
		for (uint32_t soff = 0; soff < 8; soff++) {
			for (uint32_t doff = 0; doff < 8; doff++) {
				/* The 1 MiB case: a diagonal is enough. */
				if (size > 65537 && doff != (soff * 3 + 1) % 8)
					continue;
				seed++;
				api_fill_pattern(sa.cpu + soff, size, 0, seed);
				memset(sb.cpu, 0xa5, size + 16);
				api_cmd_reset(&f->cmd);
				api_emit_copy(&f->cmd, v1.va + doff,
				              sa.va + soff, size);
				api_emit_copy(&f->cmd, v2.va + soff,
				              v1.va + doff, size);
				api_emit_copy(&f->cmd, sb.va + doff,
				              v2.va + soff, size);
				swgpu_ib ib = api_cmd_end(&f->cmd);
				/* Alternate engines: both classes copy. */
				swgpu_queue *q = (seed & 1) ? f->copy0
				                            : f->comp0;
				run_ib(q, ib);
				total += size;
				uint64_t bad = api_find_pattern_mismatch(
					sb.cpu + doff, size, 0, seed);
				if (bad != size)
					fail_msg("copy size %llu soff %u doff "
					         "%u: byte %llu wrong",
					         (unsigned long long)size, soff,
					         doff, (unsigned long long)bad);
				assert_int_equal(api_find_byte_mismatch(
				                         sb.cpu, doff, 0xa5),
				                 doff);
				assert_int_equal(api_find_byte_mismatch(
				                         sb.cpu + doff + size,
				                         8, 0xa5),
				                 8);
				/* The BAR copy holds it too. */
				assert_int_equal(api_find_pattern_mismatch(
				                         v2.cpu + soff, size, 0,
				                         seed),
				                 size);
			}
		}
	}
	assert_true(total > 0);
	/* Stats count copied bytes. */
	swgpu_engine_stats st;
	api_ok(swgpu_engine_query_stats(f->dev, swgpu_queue_engine(f->copy0),
	                                &st));
	assert_true(st.bytes_written > 0 && st.packets_executed > 0);
	api_buf_fini(&v2);
	api_buf_fini(&v1);
	api_buf_fini(&sb);
	api_buf_fini(&sa);
}

/* Overlapping COPY behaves like memmove, both directions. */
static void
test_copy_overlap(void **state)
{
	struct fix *f = *state;
	uint8_t *p = f->sys.cpu;
	uint8_t ref[8192];
	api_fill_pattern(p, 8192, 0, 77);
	memcpy(ref, p, 8192);
	memmove(ref + 3, ref, 5000);        /* forward overlap */
	memmove(ref + 6000, ref + 6007, 2000); /* backward overlap */
	api_emit_copy(&f->cmd, f->sys.va + 3, f->sys.va, 5000);
	api_emit_copy(&f->cmd, f->sys.va + 6000, f->sys.va + 6007, 2000);
	run_ib(f->copy1, api_cmd_end(&f->cmd));
	assert_memory_equal(p, ref, 8192);

	/* Overlapping copies spanning many MiB: whatever chunking the
	 * engine does internally, the result is a memmove. */
	const uint64_t big = 4u << 20, len = (3u << 20) + 5;
	struct api_buf b;
	api_buf_init(&b, f->dev, f->ctx, big, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	uint8_t *bref = malloc(big);
	assert_non_null(bref);
	for (int dir = 0; dir < 2; dir++) {
		api_fill_pattern(b.cpu, big, 0, 80 + dir);
		memcpy(bref, b.cpu, big);
		uint64_t src = dir ? 4099 : 0, dst = dir ? 0 : 4099;
		memmove(bref + dst, bref + src, len);
		api_cmd_reset(&f->cmd);
		api_emit_copy(&f->cmd, b.va + dst, b.va + src, len);
		run_ib(dir ? f->comp1 : f->copy0, api_cmd_end(&f->cmd));
		if (memcmp(b.cpu, bref, big) != 0)
			fail_msg("overlapping %s copy of %llu bytes differs "
			         "from memmove", dir ? "backward" : "forward",
			         (unsigned long long)len);
	}
	free(bref);
	api_buf_fini(&b);
}

static void
test_fill(void **state)
{
	struct fix *f = *state;
	struct api_buf bar;
	api_buf_init(&bar, f->dev, f->ctx, 65536, SWGPU_HEAP_VRAM,
	             SWGPU_BO_BAR, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(bar.cpu, 0x11, 65536);
	memset(f->sys.cpu, 0x22, 65536);
	api_emit_fill(&f->cmd, bar.va + 4100, 4 * 5000, 0xdeadbeef);
	api_emit_fill(&f->cmd, f->sys.va + 4, 4, 0x01020304);
	api_emit_fill(&f->cmd, f->sys.va + 64, 40000, 0x8badf00d);
	run_ib(f->comp0, api_cmd_end(&f->cmd));
	const uint32_t *b = (const uint32_t *)bar.cpu;
	for (uint32_t i = 0; i < 16384; i++) {
		uint32_t want = (i >= 1025 && i < 1025 + 5000) ? 0xdeadbeef
		                                               : 0x11111111;
		if (b[i] != want)
			fail_msg("bar dword %u: %#x != %#x", i, b[i], want);
	}
	const uint32_t *s = (const uint32_t *)f->sys.cpu;
	assert_int_equal(s[0], 0x22222222);
	assert_int_equal(s[1], 0x01020304);
	assert_int_equal(s[2], 0x22222222);
	for (uint32_t i = 16; i < 16 + 10000; i++)
		assert_int_equal(s[i], 0x8badf00d);
	assert_int_equal(s[15], 0x22222222);
	assert_int_equal(s[16 + 10000], 0x22222222);
	/* On a copy engine too. */
	api_emit_fill(&f->cmd, bar.va, 8, 0x77665544);
	run_ib(f->copy0, api_cmd_end(&f->cmd));
	assert_int_equal(b[0], 0x77665544);
	assert_int_equal(b[1], 0x77665544);
	assert_int_equal(b[2], 0x11111111);
	api_buf_fini(&bar);
}

static void
test_write_data(void **state)
{
	struct fix *f = *state;
	static const uint32_t counts[] = { 1, 2, 3, 100, 4000 };
	uint32_t *data = malloc(4000 * 4);
	assert_non_null(data);
	uint64_t off = 0;
	for (size_t i = 0; i < API_ARRAY_SIZE(counts); i++) {
		for (uint32_t k = 0; k < counts[i]; k++)
			data[k] = (uint32_t)(i << 24) ^ (k * 2654435761u);
		api_emit_write(&f->cmd, f->sys.va + off + 4, data, counts[i]);
		off += 4 * (counts[i] + 2);
	}
	run_ib(f->copy1, api_cmd_end(&f->cmd));
	const uint32_t *s = (const uint32_t *)f->sys.cpu;
	off = 0;
	for (size_t i = 0; i < API_ARRAY_SIZE(counts); i++) {
		assert_int_equal(s[off / 4], 0); /* untouched gap */
		for (uint32_t k = 0; k < counts[i]; k++)
			assert_int_equal(s[off / 4 + 1 + k],
			                 (uint32_t)(i << 24) ^
			                         (k * 2654435761u));
		assert_int_equal(s[off / 4 + 1 + counts[i]], 0);
		off += 4 * (counts[i] + 2);
	}
	/* The longest WRITE_DATA a header can describe (0xffff dwords). */
	const uint32_t maxn = SWGPU_MAX_PACKET_DW - 3;
	uint32_t *big = malloc(maxn * 4);
	assert_non_null(big);
	for (uint32_t k = 0; k < maxn; k++)
		big[k] = k * 0x9e3779b9u;
	memset(f->sys.cpu, 0, (maxn + 2) * 4);
	api_cmd_reset(&f->cmd);
	api_emit_write(&f->cmd, f->sys.va + 4, big, maxn);
	api_emit_write32(&f->cmd, f->sys.va, 0xe4d);
	run_ib(f->copy0, api_cmd_end(&f->cmd));
	assert_memory_equal(f->sys.cpu + 4, big, maxn * 4);
	assert_int_equal(api_load32(f->sys.cpu), 0xe4d);
	assert_int_equal(api_load32(f->sys.cpu + 4 + maxn * 4), 0);
	free(big);
	api_cmd_reset(&f->cmd);

	/* 64-bit values keep both halves. */
	api_emit_write64(&f->cmd, f->sys.va + 0x8000, 0x0123456789abcdefull);
	run_ib(f->comp1, api_cmd_end(&f->cmd));
	assert_true(api_load64(f->sys.cpu + 0x8000) == 0x0123456789abcdefull);
	free(data);
}

/*
 * SEM_WAIT on copy0 released by SEM_SIGNAL from a job on compute0. The
 * waiting job then copies data the signalling job wrote before its
 * signal: it must see it.
 */
static void
test_sem_wait_cross_engine(void **state)
{
	struct fix *f = *state;
	const uint64_t sem = f->sys.va + 0x100, data = f->sys.va + 0x200;
	const uint64_t copy = f->sys.va + 0x300, marker = f->sys.va + 0x400;
	uint64_t big = 0x500000007ull; /* both dwords matter */

	api_emit_sem_wait(&f->cmd, sem, big);
	api_emit_copy(&f->cmd, copy, data, 64);
	api_emit_write32(&f->cmd, marker, 0x600d);
	swgpu_ib waiter = api_cmd_end(&f->cmd);
	uint64_t ws;
	api_ok(api_submit(f->copy0, &waiter, NULL, 0, NULL, 0, &ws));

	/* Not released yet: also not by a value with only the low dword
	 * reaching it. */
	api_store64(f->sys.cpu + 0x100, 0x7);
	assert_true(api_stays32(f->sys.cpu + 0x400, 0, 100));
	assert_true(swgpu_queue_completed(f->copy0) < ws);

	uint32_t payload[16];
	for (int i = 0; i < 16; i++)
		payload[i] = 0xd0d00000u + i;
	api_emit_write(&f->cmd, data, payload, 16);
	api_emit_sem_signal(&f->cmd, sem, big, 0);
	run_ib(f->comp0, api_cmd_end(&f->cmd));

	api_ok(swgpu_queue_wait(f->copy0, ws, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(api_load32(f->sys.cpu + 0x400), 0x600d);
	assert_memory_equal(f->sys.cpu + 0x300, payload, 64);
	assert_true(api_load64(f->sys.cpu + 0x100) == big);

	/* The same with the semaphore word in VRAM the host cannot see:
	 * a GPU-only semaphore between compute1 and copy1, 20 rounds. */
	struct api_buf vsem;
	api_buf_init(&vsem, f->dev, f->ctx, 4096, SWGPU_HEAP_VRAM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	for (uint32_t k = 1; k <= 20; k++) {
		api_emit_sem_wait(&f->cmd, vsem.va + 64, k);
		api_emit_copy(&f->cmd, f->sys.va + 0x1000 + k * 4,
		              f->sys.va + 0x800 + k * 4, 4);
		swgpu_ib w = api_cmd_end(&f->cmd);
		api_ok(api_submit(f->copy1, &w, NULL, 0, NULL, 0, &ws));
		api_emit_write32(&f->cmd, f->sys.va + 0x800 + k * 4,
		                 0x5e0000 + k);
		api_emit_sem_signal(&f->cmd, vsem.va + 64, k, 0);
		swgpu_ib sg = api_cmd_end(&f->cmd);
		api_ok(api_submit(f->comp1, &sg, NULL, 0, NULL, 0, NULL));
	}
	api_queue_idle(f->copy1);
	for (uint32_t k = 1; k <= 20; k++)
		assert_int_equal(api_load32(f->sys.cpu + 0x1000 + k * 4),
		                 0x5e0000 + k);
	api_queue_idle(f->comp1);
	api_buf_fini(&vsem);
}

/* SEM_WAIT released by the host writing the mapped SYSTEM word, and one
 * already satisfied (unsigned compare). */
static void
test_sem_wait_host_release(void **state)
{
	struct fix *f = *state;
	struct api_buf wc; /* uncached SYSTEM: the upload kind */
	api_buf_init(&wc, f->dev, f->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ);
	api_emit_sem_wait(&f->cmd, wc.va + 8, 1000);
	api_emit_write32(&f->cmd, f->sys.va, 0xa11);
	swgpu_ib ib = api_cmd_end(&f->cmd);
	uint64_t s;
	api_ok(api_submit(f->comp1, &ib, NULL, 0, NULL, 0, &s));
	api_store64(wc.cpu + 8, 999);
	assert_true(api_stays32(f->sys.cpu, 0, 100));
	assert_true(swgpu_queue_completed(f->comp1) < s);
	api_store64(wc.cpu + 8, 1000);
	api_ok(swgpu_queue_wait(f->comp1, s, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(api_load32(f->sys.cpu), 0xa11);

	/* >= is unsigned: 0xffff... satisfies a wait for 2^63. */
	api_store64(wc.cpu + 16, UINT64_MAX);
	api_emit_sem_wait(&f->cmd, wc.va + 16, 1ull << 63);
	api_emit_write32(&f->cmd, f->sys.va + 4, 0xb22);
	run_ib(f->copy1, api_cmd_end(&f->cmd));
	assert_int_equal(api_load32(f->sys.cpu + 4), 0xb22);
	api_buf_fini(&wc);
}

static void
test_sem_signal_write_max(void **state)
{
	struct fix *f = *state;
	uint8_t *s = f->sys.cpu;
	const uint64_t va = f->sys.va;
	api_store64(s + 0, 100);
	api_store64(s + 8, 100);
	api_store64(s + 16, 100);
	api_store64(s + 24, 0x100000000ull);
	api_emit_sem_signal(&f->cmd, va + 0, 50, 0);   /* plain: 50 */
	api_emit_sem_signal(&f->cmd, va + 8, 50, SWGPU_SIGNAL_WRITE_MAX);
	api_emit_sem_signal(&f->cmd, va + 16, 200, SWGPU_SIGNAL_WRITE_MAX);
	/* WRITE_MAX compares all 64 bits, unsigned. */
	api_emit_sem_signal(&f->cmd, va + 24, 0xffffffffull,
	                    SWGPU_SIGNAL_WRITE_MAX);
	api_emit_sem_signal(&f->cmd, va + 32, 0xfedcba9876543210ull, 0);
	run_ib(f->copy0, api_cmd_end(&f->cmd));
	assert_true(api_load64(s + 0) == 50);
	assert_true(api_load64(s + 8) == 100);
	assert_true(api_load64(s + 16) == 200);
	assert_true(api_load64(s + 24) == 0x100000000ull);
	assert_true(api_load64(s + 32) == 0xfedcba9876543210ull);

	/* The signal comes after every earlier packet of the job: a 1 MiB
	 * copy before it is complete when the value is visible. */
	struct api_buf big;
	api_buf_init(&big, f->dev, f->ctx, 2 << 20, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_fill_pattern(big.cpu, 1 << 20, 0, 9);
	api_emit_copy(&f->cmd, big.va + (1 << 20), big.va, 1 << 20);
	api_emit_sem_signal(&f->cmd, va + 40, 1, 0);
	swgpu_ib ib = api_cmd_end(&f->cmd);
	uint64_t sq;
	api_ok(api_submit(f->comp0, &ib, NULL, 0, NULL, 0, &sq));
	uint64_t dl = api_deadline_ms(API_WAIT_MS);
	while (api_load64(s + 40) != 1 && swgpu_now_ns() < dl)
		;
	assert_true(api_load64(s + 40) == 1);
	assert_int_equal(api_find_pattern_mismatch(big.cpu + (1 << 20),
	                                           1 << 20, 0, 9),
	                 1 << 20);
	api_queue_idle(f->comp0);
	api_buf_fini(&big);
}

static void
test_timestamp(void **state)
{
	struct fix *f = *state;
	struct api_buf big;
	api_buf_init(&big, f->dev, f->ctx, 8 << 20, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	swgpu_queue *qs[2] = { f->comp1, f->copy1 };
	for (int e = 0; e < 2; e++) {
		api_cmd_reset(&f->cmd);
		memset(f->sys.cpu, 0, 4096);
		uint64_t t0 = swgpu_now_ns();
		api_emit_timestamp(&f->cmd, f->sys.va + 0);
		api_emit_copy(&f->cmd, big.va + (4 << 20), big.va, 4 << 20);
		api_emit_timestamp(&f->cmd, f->sys.va + 8);
		api_emit_timestamp(&f->cmd, f->sys.va + 16);
		swgpu_ib a = api_cmd_end(&f->cmd);
		api_emit_timestamp(&f->cmd, f->sys.va + 24);
		swgpu_ib b = api_cmd_end(&f->cmd);
		api_ok(api_submit(qs[e], &a, NULL, 0, NULL, 0, NULL));
		api_ok(api_submit(qs[e], &b, NULL, 0, NULL, 0, NULL));
		api_queue_idle(qs[e]);
		uint64_t t1 = swgpu_now_ns();
		const uint64_t *ts = (const uint64_t *)f->sys.cpu;
		for (int i = 0; i < 4; i++) {
			if (ts[i] < t0 || ts[i] > t1)
				fail_msg("timestamp %d = %llu outside [%llu, "
				         "%llu]", i, (unsigned long long)ts[i],
				         (unsigned long long)t0,
				         (unsigned long long)t1);
			if (i)
				assert_true(ts[i] >= ts[i - 1]);
		}
		/* A 4 MiB copy takes measurable time: the timestamp after
		 * it is later than the one before. */
		assert_true(ts[1] > ts[0]);
	}
	/* Across engines, ordered by a timeline: the later job's stamp is
	 * not earlier than the one it waited for. */
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(f->dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_cmd_reset(&f->cmd);
	for (uint32_t k = 0; k < 16; k++) {
		api_emit_timestamp(&f->cmd, f->sys.va + 256 + k * 8);
		swgpu_ib ib = api_cmd_end(&f->cmd);
		swgpu_sync_point w = { tl, k, 0 }, sg = { tl, k + 1, 0 };
		api_ok(api_submit(k & 1 ? f->copy0 : f->comp0, &ib, &w, 1,
		                  &sg, 1, NULL));
	}
	uint64_t last = 16;
	api_ok(swgpu_syncobj_wait(&tl, &last, 1, 0,
	                          api_deadline_ms(API_WAIT_MS), NULL));
	const uint64_t *chain = (const uint64_t *)(f->sys.cpu + 256);
	for (uint32_t k = 1; k < 16; k++)
		assert_true(chain[k] >= chain[k - 1] && chain[k - 1] != 0);
	swgpu_syncobj_destroy(tl);
	api_buf_fini(&big);
}


/* Engine counters on a fresh device: jobs, failures and bytes written
 * are exact for a known workload. */
static void
test_engine_stats_exact(void **state)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 1);
	uint32_t e = swgpu_queue_engine(q);
	struct api_buf b;
	struct api_cmd cmd;
	api_buf_init(&b, dev, ctx, 65536, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 1024);
	uint32_t words[5] = { 1, 2, 3, 4, 5 };
	for (int j = 0; j < 3; j++) {
		api_emit_copy(&cmd, b.va + 8192, b.va, 1001);   /* 1001 */
		api_emit_fill(&cmd, b.va + 16384, 4096, 7);      /* 4096 */
		api_emit_write(&cmd, b.va + 32768, words, 5);    /* 20 */
		api_emit_nop(&cmd, 3);
		swgpu_ib ib = api_cmd_end(&cmd);
		api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	}
	api_queue_idle(q);
	swgpu_engine_stats st;
	api_ok(swgpu_engine_query_stats(dev, e, &st));
	assert_true(st.jobs_completed == 3);
	assert_true(st.jobs_failed == 0);
	if (st.bytes_written != 3 * (1001 + 4096 + 20))
		fail_msg("bytes_written %llu, want %u",
		         (unsigned long long)st.bytes_written,
		         3 * (1001 + 4096 + 20));
	/* At least the 12 packets of the IBs (ring packets may count). */
	assert_true(st.packets_executed >= 12);
	assert_true(st.fence_seqno >= 3);
	assert_true(st.busy_ns > 0);
	/* Other engines did nothing. */
	swgpu_device_info info;
	swgpu_device_query_info(dev, &info);
	for (uint32_t o = 0; o < info.engine_count; o++) {
		if (o == e)
			continue;
		swgpu_engine_stats os;
		api_ok(swgpu_engine_query_stats(dev, o, &os));
		assert_true(os.jobs_completed == 0 && os.bytes_written == 0);
	}
	/* A failed job counts as failed, not completed. */
	swgpu_context *bad;
	api_ok(swgpu_context_create(dev, &bad));
	swgpu_queue *qb = api_queue(bad, SWGPU_ENGINE_COPY, 1);
	struct api_cmd bcmd;
	api_cmd_init(&bcmd, dev, bad, 64);
	api_emit_write32(&bcmd, 0x1000, 1); /* unmapped */
	swgpu_ib bib = api_cmd_end(&bcmd);
	api_ok(api_submit(qb, &bib, NULL, 0, NULL, 0, NULL));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(qb, 1, api_deadline_ms(API_WAIT_MS)));
	swgpu_engine_stats st2;
	api_ok(swgpu_engine_query_stats(dev, e, &st2));
	assert_true(st2.jobs_failed == 1);
	assert_true(st2.jobs_completed == 3);
	assert_true(st2.bytes_written == st.bytes_written);
	api_cmd_fini(&bcmd);
	swgpu_queue_destroy(qb);
	swgpu_context_destroy(bad);
	api_cmd_fini(&cmd);
	api_buf_fini(&b);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

int
main(void)
{
	api_apply_filter();
#define T(fn) cmocka_unit_test_setup_teardown(fn, before, after)
	const struct CMUnitTest tests[] = {
		T(test_nop_lengths),
		T(test_indirect_chain_max_depth),
		T(test_indirect_chain_too_deep),
		T(test_copy_odd_sizes),
		T(test_copy_overlap),
		T(test_fill),
		T(test_write_data),
		T(test_sem_wait_cross_engine),
		T(test_sem_wait_host_release),
		T(test_sem_signal_write_max),
		T(test_timestamp),
		T(test_engine_stats_exact),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
