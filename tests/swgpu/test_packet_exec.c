/* SPDX-License-Identifier: MIT */
/*
 * Internal tests of packet decode/validate/execute (packet_exec.c),
 * driven directly on a VA space without engines: packets are written with
 * the swgpu_packet.h emitters into a GPU buffer and run with exec_ib().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include <cmocka.h>

#include <swgpu/swgpu_packet.h>

#include "kmd/mem.h"
#include "hw/packet/packet_exec.h"
#include "util/util.h"
#include "kmd/vaspace.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)
#define ENGINE 3u

struct gbuf {
	struct swgpu_bo *bo;
	uint64_t va;
	uint8_t *cpu;
	uint64_t size;
};

struct fixture {
	struct swgpu_mem mem;
	struct swgpu_vaspace *vs;
	struct exec_env env;
	swgpu_fault_info fault;
	swgpu_engine_stats stats;
	struct gbuf ib;         /* 256 KiB of packets */
	uint32_t *pk;           /* = ib.cpu */
	uint32_t n;             /* dwords emitted */
};

static struct gbuf
gbuf_new(struct fixture *f, uint64_t size, uint32_t va_flags)
{
	struct gbuf b = { .size = size };

	assert_int_equal(bo_create_in(&f->mem, NULL, size, SWGPU_HEAP_SYSTEM,
	                              0, &b.bo), SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, b.bo, 0, size, va_flags, &b.va),
	                 SWGPU_OK);
	b.cpu = b.bo->cpu;
	/* The mapping holds the BO from now on. */
	swgpu_bo_destroy(b.bo);
	return b;
}

static void
env_init(struct fixture *f, struct exec_env *env)
{
	*env = (struct exec_env){
		.vs = f->vs,
		.engine = ENGINE,
		.max_ib_depth = 4,
		.max_ib_size_dw = 1u << 16,
		.hang_timeout_ns = 10ull * 1000000000ull,
		.fault = &f->fault,
		.stats = &f->stats,
	};
}

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	swgpu_config cfg;

	swgpu_config_init(&cfg);
	cfg.vram_size = 64 * MIB;
	cfg.bar_size = 16 * MIB;
	cfg.system_size = 1024 * MIB;
	mem_init(&f->mem, &cfg);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, SWGPU_VA_SIZE, 4096,
	                                &f->vs), SWGPU_OK);
	env_init(f, &f->env);
	f->ib = gbuf_new(f, 256 * KIB, RW);
	f->pk = (uint32_t *)(void *)f->ib.cpu;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	vaspace_destroy(f->vs);
	assert_int_equal(f->mem.bo_count, 0);
	mem_fini(&f->mem);
	free(f);
	return 0;
}

/* Run the packets emitted so far as a job IB (depth 1). */
static bool
run(struct fixture *f)
{
	memset(&f->fault, 0, sizeof(f->fault));
	bool ok = exec_ib(&f->env, f->ib.va, f->n, 1);
	if (!ok && getenv("TEST_VERBOSE"))
		print_message("fault: %s\n", f->fault.message);
	return ok;
}

static uint32_t *
emit(struct fixture *f)
{
	return f->pk + f->n;
}

static void
emit_write1(struct fixture *f, uint64_t va, uint32_t v)
{
	uint32_t *p = emit(f);

	f->n += swgpu_emit_write_data_header(p, va, 1);
	p[3] = v;
}

static uint32_t
rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t
rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static bool
all_bytes(const uint8_t *p, uint64_t n, uint8_t v)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void
expect_fault(struct fixture *f, swgpu_fault_kind kind, uint64_t address,
             uint32_t opcode, uint64_t packet_va)
{
	assert_int_equal(f->fault.kind, kind);
	assert_true(f->fault.address == address);
	assert_int_equal(f->fault.opcode, opcode);
	assert_int_equal(f->fault.engine, ENGINE);
	assert_true(f->fault.packet_va == packet_va);
	assert_true(f->fault.message[0] != '\0');
}

/* ------------------------------------------------------------------ */
/* Packets that succeed                                                */
/* ------------------------------------------------------------------ */

static void
test_nop_write_data(void **state)
{
	struct fixture *f = *state;
	struct gbuf d = gbuf_new(f, 4096, RW);
	uint32_t *p;

	f->n += swgpu_emit_nop(emit(f), 1);
	f->n += swgpu_emit_nop(emit(f), 9);
	emit_write1(f, d.va + 4, 0xcafef00d);
	p = emit(f);
	f->n += swgpu_emit_write_data_header(p, d.va + 16, 2);
	swgpu_pkt_put64(p + 3, 0x0123456789abcdefull);
	p = emit(f);
	f->n += swgpu_emit_write_data_header(p, d.va + 100, 5);
	for (int i = 0; i < 5; i++)
		p[3 + i] = 0x11111111u * (uint32_t)(i + 1);

	assert_true(run(f));
	assert_int_equal(rd32(d.cpu + 4), 0xcafef00d);
	assert_true(rd64(d.cpu + 16) == 0x0123456789abcdefull);
	for (int i = 0; i < 5; i++)
		assert_int_equal(rd32(d.cpu + 100 + 4 * i),
		                 0x11111111u * (uint32_t)(i + 1));
	assert_true(all_bytes(d.cpu, 4, 0));
	assert_true(all_bytes(d.cpu + 8, 8, 0));
	assert_true(all_bytes(d.cpu + 24, 76, 0));
	assert_true(all_bytes(d.cpu + 120, 4096 - 120, 0));
	assert_int_equal(f->stats.packets_executed, 5);
	assert_int_equal(f->stats.bytes_written, 4 + 8 + 20);
	assert_int_equal(f->fault.kind, SWGPU_FAULT_NONE);
}

static void
test_fill(void **state)
{
	struct fixture *f = *state;
	const uint64_t big = 1 * MIB + 4 + 3 * 4096; /* not a chunk multiple */
	struct gbuf d = gbuf_new(f, 2 * MIB + 64 * KIB, RW);

	memset(d.cpu, 0xaa, d.size);
	f->n += swgpu_emit_fill(emit(f), d.va + 4, 4, 0x11223344);
	f->n += swgpu_emit_fill(emit(f), d.va + 64, big, 0xdeadbeef);
	f->n += swgpu_emit_fill(emit(f), d.va + 2 * MIB, 4096 + 8, 0x5a5a5a5a);
	assert_true(run(f));

	assert_true(all_bytes(d.cpu, 4, 0xaa));
	assert_int_equal(rd32(d.cpu + 4), 0x11223344);
	assert_true(all_bytes(d.cpu + 8, 56, 0xaa));
	for (uint64_t off = 0; off < big; off += 4)
		if (rd32(d.cpu + 64 + off) != 0xdeadbeef)
			fail_msg("fill mismatch at +%llu",
			         (unsigned long long)off);
	assert_true(all_bytes(d.cpu + 64 + big, 2 * MIB - 64 - big, 0xaa));
	assert_true(all_bytes(d.cpu + 2 * MIB, 4096 + 8, 0x5a));
	assert_true(all_bytes(d.cpu + 2 * MIB + 4096 + 8,
	                      64 * KIB - 4096 - 8, 0xaa));
	assert_int_equal(f->stats.bytes_written, 4 + big + 4096 + 8);

	/* dst and size must be multiples of 4, size non-zero. */
	static const uint64_t bad[][2] = { { 2, 8 }, { 0, 6 }, { 0, 0 } };
	for (size_t i = 0; i < 3; i++) {
		f->n = 0;
		f->n += swgpu_emit_fill(emit(f), d.va + bad[i][0], bad[i][1],
		                        0x01020304);
		assert_false(run(f));
		expect_fault(f, SWGPU_FAULT_BAD_PACKET, d.va + bad[i][0],
		             SWGPU_OP_FILL, f->ib.va);
		assert_true(all_bytes(d.cpu, 4, 0xaa));
	}
}

static void
test_copy_sizes(void **state)
{
	struct fixture *f = *state;
	static const uint64_t sizes[] = {
		1, 3, 4, 7, 4095, 4096, 4097, 64 * KIB + 1, 1 * MIB + 7,
		3 * MIB + 5,
	};
	static const uint64_t offs[][2] = {
		{ 0, 0 }, { 1, 3 }, { 3, 1 }, { 4093, 0 }, { 8, 4 },
	};
	struct gbuf src = gbuf_new(f, 4 * MIB, SWGPU_VA_READ);
	struct gbuf dst = gbuf_new(f, 4 * MIB, SWGPU_VA_WRITE);
	uint64_t total = 0;

	for (uint64_t i = 0; i < src.size; i++)
		src.cpu[i] = (uint8_t)(i * 131 + (i >> 12) + 7);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
			uint64_t doff = offs[o][0], soff = offs[o][1];
			uint64_t n = sizes[s];

			if (doff + n + 1 > dst.size)
				continue;
			memset(dst.cpu, 0xaa, doff + n + 64);
			f->n = 0;
			f->n += swgpu_emit_copy(emit(f), dst.va + doff,
			                        src.va + soff, n);
			assert_true(run(f));
			total += n;
			if (memcmp(dst.cpu + doff, src.cpu + soff, n) != 0)
				fail_msg("copy of %llu bytes +%llu <- +%llu "
				         "differs", (unsigned long long)n,
				         (unsigned long long)doff,
				         (unsigned long long)soff);
			assert_true(all_bytes(dst.cpu, doff, 0xaa));
			assert_true(all_bytes(dst.cpu + doff + n, 64, 0xaa));
		}
	}
	assert_int_equal(f->stats.bytes_written, total);
	/* A copy needs READ on the source and WRITE on the destination:
	 * these mappings have only one each. */
	f->n = 0;
	f->n += swgpu_emit_copy(emit(f), src.va, dst.va, 16);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, dst.va, SWGPU_OP_COPY,
	             f->ib.va);
	f->n = 0;
	f->n += swgpu_emit_copy(emit(f), src.va, src.va + 64, 16);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_WRITE, src.va, SWGPU_OP_COPY,
	             f->ib.va);
}

/* Overlapping ranges behave like memmove, also across chunk borders. */
static void
test_copy_overlap(void **state)
{
	struct fixture *f = *state;
	static const int64_t shifts[] = {
		1, -1, 3, -5, 4097, -4097, 1 * MIB + 3, -(int64_t)(1 * MIB + 3),
		2 * MIB, -(int64_t)(2 * MIB),
	};
	const uint64_t size = 2 * MIB + MIB / 2 + 1;
	struct gbuf b = gbuf_new(f, 8 * MIB, RW);
	uint8_t *ref = malloc(b.size);
	const uint64_t base = 2 * MIB + 11;

	for (size_t i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++) {
		uint64_t src = base, dst = base + (uint64_t)shifts[i];

		for (uint64_t j = 0; j < b.size; j++)
			b.cpu[j] = (uint8_t)(j * 7 + (j >> 11) + i);
		memcpy(ref, b.cpu, b.size);
		memmove(ref + dst, ref + src, size);
		f->n = 0;
		f->n += swgpu_emit_copy(emit(f), b.va + dst, b.va + src, size);
		assert_true(run(f));
		if (memcmp(ref, b.cpu, b.size) != 0)
			fail_msg("overlapping copy with shift %lld differs",
			         (long long)shifts[i]);
	}
	/* dst == src: nothing changes. */
	memcpy(ref, b.cpu, b.size);
	f->n = 0;
	f->n += swgpu_emit_copy(emit(f), b.va + 5, b.va + 5, 1 * MIB);
	assert_true(run(f));
	assert_memory_equal(ref, b.cpu, b.size);
	free(ref);
}

static void
test_indirect_nesting(void **state)
{
	struct fixture *f = *state;
	struct gbuf d = gbuf_new(f, 4096, RW);
	struct gbuf b = gbuf_new(f, 4096, SWGPU_VA_READ);
	struct gbuf c = gbuf_new(f, 4096, SWGPU_VA_READ);
	uint32_t *bp = (uint32_t *)(void *)b.cpu;
	uint32_t *cp = (uint32_t *)(void *)c.cpu;
	uint32_t nb = 0, nc = 0;

	/* C (depth 3): d[16] = 3. */
	nc += swgpu_emit_write_data_header(cp + nc, d.va + 16, 1);
	cp[nc - 1] = 3;
	/* B (depth 2): d[4] = 2; copy d[12] <- d[0]; call C. */
	nb += swgpu_emit_write_data_header(bp + nb, d.va + 4, 1);
	bp[nb - 1] = 2;
	nb += swgpu_emit_copy(bp + nb, d.va + 12, d.va + 0, 4);
	nb += swgpu_emit_indirect(bp + nb, c.va, nc);
	/* A (depth 1): d[0] = 1; call B; copy d[8] <- d[4] and d[20] <-
	 * d[16]: only right if B and C ran in between. */
	emit_write1(f, d.va + 0, 1);
	f->n += swgpu_emit_indirect(emit(f), b.va, nb);
	f->n += swgpu_emit_copy(emit(f), d.va + 8, d.va + 4, 4);
	f->n += swgpu_emit_copy(emit(f), d.va + 20, d.va + 16, 4);
	assert_true(run(f));
	assert_int_equal(rd32(d.cpu + 0), 1);
	assert_int_equal(rd32(d.cpu + 4), 2);
	assert_int_equal(rd32(d.cpu + 8), 2);
	assert_int_equal(rd32(d.cpu + 12), 1);
	assert_int_equal(rd32(d.cpu + 16), 3);
	assert_int_equal(rd32(d.cpu + 20), 3);
	assert_int_equal(f->stats.packets_executed, 4 + 3 + 1);
}

static void
test_ib_depth(void **state)
{
	struct fixture *f = *state;
	struct gbuf d = gbuf_new(f, 4096, RW);
	struct gbuf ibs[4];

	/* A legal chain: job IB (depth 1) -> 2 -> 3 -> 4 = max. */
	for (int i = 0; i < 4; i++)
		ibs[i] = gbuf_new(f, 4096, SWGPU_VA_READ);
	for (int i = 3; i >= 0; i--) {
		uint32_t *p = (uint32_t *)(void *)ibs[i].cpu;
		uint32_t n = swgpu_emit_write_data_header(p, d.va + 4 * i, 1);

		p[3] = 100u + (uint32_t)i;
		if (i < 3)
			n += swgpu_emit_indirect(p + n, ibs[i + 1].va, 8);
		else
			n += swgpu_emit_nop(p + n, 4);
	}
	assert_true(exec_ib(&f->env, ibs[0].va, 8, 1));
	for (int i = 0; i < 4; i++)
		assert_int_equal(rd32(d.cpu + 4 * i), 100u + (uint32_t)i);

	/* One level more is a fault, reported at the calling packet. */
	f->n += swgpu_emit_indirect(emit(f), ibs[0].va, 8);
	assert_true(exec_ib(&f->env, f->ib.va, f->n, 0));
	memset(d.cpu, 0, 64);
	memset(&f->fault, 0, sizeof(f->fault));
	f->env.max_ib_depth = 3;
	assert_false(exec_ib(&f->env, ibs[0].va, 8, 1));
	expect_fault(f, SWGPU_FAULT_IB_DEPTH, ibs[3].va,
	             SWGPU_OP_INDIRECT_BUFFER, ibs[2].va + 16);
	/* Packets before the fault ran, the too-deep IB did not. */
	assert_int_equal(rd32(d.cpu + 8), 102);
	assert_int_equal(rd32(d.cpu + 12), 0);

	/* An IB that calls itself ends in IB_DEPTH, not a stack overflow. */
	f->env.max_ib_depth = 4;
	f->n = 0;
	f->n += swgpu_emit_indirect(emit(f), f->ib.va, 4);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_IB_DEPTH, f->ib.va,
	             SWGPU_OP_INDIRECT_BUFFER, f->ib.va);
	assert_int_equal(exec_ib(&f->env, f->ib.va, 4, 5), false);
	assert_int_equal(f->fault.kind, SWGPU_FAULT_IB_DEPTH);
}

static void
test_bad_ib(void **state)
{
	struct fixture *f = *state;
	struct gbuf w = gbuf_new(f, 4096, SWGPU_VA_WRITE);

	f->env.max_ib_size_dw = 1024;
	memset(&f->fault, 0, sizeof(f->fault));
	assert_false(exec_ib(&f->env, f->ib.va, 0, 1));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, f->ib.va,
	             SWGPU_OP_INDIRECT_BUFFER, 0);
	assert_false(exec_ib(&f->env, f->ib.va, 1025, 1));
	assert_int_equal(f->fault.kind, SWGPU_FAULT_BAD_PACKET);
	assert_false(exec_ib(&f->env, f->ib.va + 2, 4, 1));
	assert_int_equal(f->fault.kind, SWGPU_FAULT_BAD_PACKET);
	/* Unmapped, running into the guard gap, write-only, wrapping. */
	assert_false(exec_ib(&f->env, f->ib.va + f->ib.size, 4, 1));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, f->ib.va + f->ib.size,
	             SWGPU_OP_INDIRECT_BUFFER, 0);
	assert_false(exec_ib(&f->env, f->ib.va + f->ib.size - 8, 4, 1));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, f->ib.va + f->ib.size,
	             SWGPU_OP_INDIRECT_BUFFER, 0);
	assert_false(exec_ib(&f->env, w.va, 4, 1));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, w.va,
	             SWGPU_OP_INDIRECT_BUFFER, 0);
	assert_false(exec_ib(&f->env, UINT64_MAX - 3, 2, 1));
	assert_int_equal(f->fault.kind, SWGPU_FAULT_PAGE_READ);
	/* Same through an INDIRECT_BUFFER packet at IB offset 4. */
	f->n += swgpu_emit_nop(emit(f), 1);
	f->n += swgpu_emit_indirect(emit(f), 0x1000, 16);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, 0x1000,
	             SWGPU_OP_INDIRECT_BUFFER, f->ib.va + 4);
}

static void
test_sem_signal_timestamp(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, RW);
	uint64_t before, after;

	f->n += swgpu_emit_sem_signal(emit(f), s.va, 0x100000005ull, 0);
	f->n += swgpu_emit_sem_signal(emit(f), s.va + 8, 50, 0);
	f->n += swgpu_emit_sem_signal(emit(f), s.va + 8, 40,
	                              SWGPU_SIGNAL_WRITE_MAX);
	f->n += swgpu_emit_sem_signal(emit(f), s.va + 16, 7, 0);
	f->n += swgpu_emit_sem_signal(emit(f), s.va + 16, 0x200000000ull,
	                              SWGPU_SIGNAL_WRITE_MAX);
	f->n += swgpu_emit_timestamp(emit(f), s.va + 24);
	f->n += swgpu_emit_timestamp(emit(f), s.va + 32);
	before = swgpu_now_ns();
	assert_true(run(f));
	after = swgpu_now_ns();
	assert_true(rd64(s.cpu) == 0x100000005ull);
	assert_true(rd64(s.cpu + 8) == 50);           /* max kept 50 */
	assert_true(rd64(s.cpu + 16) == 0x200000000ull);
	uint64_t t0 = rd64(s.cpu + 24), t1 = rd64(s.cpu + 32);
	assert_true(before <= t0 && t0 <= t1 && t1 <= after);
	assert_int_equal(f->stats.packets_executed, 7);
	assert_true(all_bytes(s.cpu + 40, 4096 - 40, 0));
}

/* ------------------------------------------------------------------ */
/* Malformed packets and page faults                                   */
/* ------------------------------------------------------------------ */

static void
test_bad_packets(void **state)
{
	struct fixture *f = *state;
	struct gbuf d = gbuf_new(f, 4096, RW);
	uint32_t *p;

	/* Unknown opcode after two good packets (fault at +4 +16). */
	emit_write1(f, d.va, 1);
	f->n += swgpu_emit_nop(emit(f), 1);
	p = emit(f);
	p[0] = swgpu_pkt_header(0x42, 0, 1);
	f->n += 1;
	emit_write1(f, d.va + 4, 2);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, 0x42, f->ib.va + 20);
	assert_int_equal(rd32(d.cpu), 1);
	assert_int_equal(rd32(d.cpu + 4), 0); /* nothing after the fault */
	char where[64];
	snprintf(where, sizeof(where), "IB 0x%llx+0x14",
	         (unsigned long long)f->ib.va);
	assert_non_null(strstr(f->fault.message, where));
	assert_non_null(strstr(f->fault.message, "opcode"));

	/* Opcode SWGPU_OP_COUNT is not defined either. */
	f->n = 0;
	f->pk[f->n++] = swgpu_pkt_header(SWGPU_OP_COUNT, 0, 1);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, SWGPU_OP_COUNT, f->ib.va);

	/* Wrong length for a fixed-size packet (COPY as 6 and 8 dwords). */
	for (uint32_t len = 6; len <= 8; len += 2) {
		f->n = 0;
		swgpu_emit_copy(emit(f), d.va, d.va + 64, 4);
		f->pk[0] = swgpu_pkt_header(SWGPU_OP_COPY, 0, len);
		f->pk[7] = 0;
		f->n = len;
		assert_false(run(f));
		expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, SWGPU_OP_COPY,
		             f->ib.va);
	}
	/* Each fixed-size opcode at length + 1. */
	static const uint32_t fixed[][2] = {
		{ SWGPU_OP_INDIRECT_BUFFER, SWGPU_LEN_INDIRECT_BUFFER },
		{ SWGPU_OP_FILL, SWGPU_LEN_FILL },
		{ SWGPU_OP_SEM_WAIT, SWGPU_LEN_SEM_WAIT },
		{ SWGPU_OP_SEM_SIGNAL, SWGPU_LEN_SEM_SIGNAL },
		{ SWGPU_OP_TIMESTAMP, SWGPU_LEN_TIMESTAMP },
	};
	for (size_t i = 0; i < 5; i++) {
		f->n = 0;
		memset(f->pk, 0, 64);
		f->pk[0] = swgpu_pkt_header(fixed[i][0], 0, fixed[i][1] + 1);
		swgpu_pkt_put64(f->pk + 1, d.va);
		f->n = fixed[i][1] + 1;
		assert_false(run(f));
		expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, fixed[i][0],
		             f->ib.va);
	}
	/* WRITE_DATA with no data dword. */
	f->n = 0;
	f->n += swgpu_emit_write_data_header(emit(f), d.va, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, SWGPU_OP_WRITE_DATA,
	             f->ib.va);

	/* Zero length header. */
	f->n = 0;
	f->pk[f->n++] = swgpu_pkt_header(SWGPU_OP_NOP, 0, 0);
	f->pk[f->n++] = 0;
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, SWGPU_OP_NOP, f->ib.va);

	/* Packet running past the end of its IB. */
	f->n = 0;
	f->n += swgpu_emit_nop(emit(f), 2);
	swgpu_emit_copy(emit(f), d.va, d.va + 64, 4);
	f->n += 5; /* 2 dwords of the COPY cut off */
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, SWGPU_OP_COPY,
	             f->ib.va + 8);
	/* A NOP claiming more dwords than the IB holds. */
	f->n = 0;
	f->n += swgpu_emit_nop(emit(f), 3);
	f->n = 2;
	assert_false(run(f));
	assert_int_equal(f->fault.kind, SWGPU_FAULT_BAD_PACKET);

	/* Flags an opcode does not take. */
	f->n = 0;
	f->n += swgpu_emit_copy(emit(f), d.va, d.va + 64, 4);
	f->pk[0] |= 1u << 8;
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, SWGPU_OP_COPY, f->ib.va);
	f->n = 0;
	f->n += swgpu_emit_sem_signal(emit(f), d.va, 1,
	                              SWGPU_SIGNAL_WRITE_MAX | 2);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, 0, SWGPU_OP_SEM_SIGNAL,
	             f->ib.va);

	/* Misaligned addresses. */
	f->n = 0;
	f->n += swgpu_emit_sem_signal(emit(f), d.va + 4, 1, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, d.va + 4, SWGPU_OP_SEM_SIGNAL,
	             f->ib.va);
	f->n = 0;
	f->n += swgpu_emit_sem_wait(emit(f), d.va + 12, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, d.va + 12, SWGPU_OP_SEM_WAIT,
	             f->ib.va);
	f->n = 0;
	f->n += swgpu_emit_timestamp(emit(f), d.va + 1);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, d.va + 1, SWGPU_OP_TIMESTAMP,
	             f->ib.va);
	f->n = 0;
	emit_write1(f, d.va + 2, 5);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, d.va + 2, SWGPU_OP_WRITE_DATA,
	             f->ib.va);
	f->n = 0;
	f->n += swgpu_emit_copy(emit(f), d.va, d.va + 64, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, d.va, SWGPU_OP_COPY, f->ib.va);
	assert_int_equal(rd32(d.cpu), 1);
	assert_true(all_bytes(d.cpu + 4, 4092, 0));
}

/* Streams from the ring (stream_va 0) report packet_va 0 and "ring". */
static void
test_ring_stream(void **state)
{
	struct fixture *f = *state;
	struct gbuf d = gbuf_new(f, 4096, RW);
	uint32_t ring[32];
	uint32_t n = 0;

	n += swgpu_emit_write_data_header(ring + n, d.va + 8, 1);
	ring[n - 1] = 77;
	n += swgpu_emit_indirect(ring + n, f->ib.va, 0);
	memset(&f->fault, 0, sizeof(f->fault));
	assert_false(exec_stream(&f->env, ring, n, 0, 0));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, f->ib.va,
	             SWGPU_OP_INDIRECT_BUFFER, 0);
	assert_non_null(strstr(f->fault.message, "ring+0x10"));
	assert_int_equal(rd32(d.cpu + 8), 77);
	/* An empty stream is fine. */
	assert_true(exec_stream(&f->env, ring, 0, 0, 0));
}

struct pf_case {
	const char *name;
	uint32_t opcode;
	swgpu_fault_kind kind;
	uint64_t fault_at;
};

static void
test_page_faults(void **state)
{
	struct fixture *f = *state;
	struct gbuf d = gbuf_new(f, 64 * KIB, RW);
	struct gbuf ro = gbuf_new(f, 4096, SWGPU_VA_READ);
	struct gbuf wo = gbuf_new(f, 4096, SWGPU_VA_WRITE);
	struct gbuf big = gbuf_new(f, 128 * KIB, SWGPU_VA_READ);
	const uint64_t end = d.va + d.size;         /* guard gap starts */
	const uint64_t hole = 0x10000;              /* below VA base */

	memset(d.cpu, 0x33, d.size);
	memset(ro.cpu, 0x44, ro.size);

	struct {
		uint32_t len;
		uint32_t pk[8];
		swgpu_fault_kind kind;
		uint64_t at;
	} c[32];
	int nc = 0;
#define CASE(kind_, at_, ...) do { \
		c[nc].kind = kind_; c[nc].at = at_; \
		uint32_t *p_ = c[nc].pk; \
		c[nc].len = __VA_ARGS__; \
		nc++; \
	} while (0)

	/* COPY: unmapped source / destination, one byte too many. */
	CASE(SWGPU_FAULT_PAGE_READ, hole, swgpu_emit_copy(p_, d.va, hole, 4));
	CASE(SWGPU_FAULT_PAGE_WRITE, hole, swgpu_emit_copy(p_, hole, d.va, 4));
	CASE(SWGPU_FAULT_PAGE_WRITE, end,
	     swgpu_emit_copy(p_, d.va, big.va, d.size + 1));
	CASE(SWGPU_FAULT_PAGE_READ, end,
	     swgpu_emit_copy(p_, wo.va, end - 1, 2));
	CASE(SWGPU_FAULT_PAGE_WRITE, end + 100,
	     swgpu_emit_copy(p_, end + 100, d.va, 1));
	/* Permissions. */
	CASE(SWGPU_FAULT_PAGE_WRITE, ro.va,
	     swgpu_emit_copy(p_, ro.va, d.va, 16));
	CASE(SWGPU_FAULT_PAGE_READ, wo.va,
	     swgpu_emit_copy(p_, d.va, wo.va, 16));
	CASE(SWGPU_FAULT_PAGE_WRITE, ro.va + 8,
	     swgpu_emit_fill(p_, ro.va + 8, 8, 0));
	CASE(SWGPU_FAULT_PAGE_WRITE, ro.va,
	     swgpu_emit_sem_signal(p_, ro.va, 1, 0));
	CASE(SWGPU_FAULT_PAGE_READ, wo.va,
	     swgpu_emit_sem_signal(p_, wo.va, 1, SWGPU_SIGNAL_WRITE_MAX));
	CASE(SWGPU_FAULT_PAGE_READ, wo.va, swgpu_emit_sem_wait(p_, wo.va, 0));
	CASE(SWGPU_FAULT_PAGE_WRITE, ro.va, swgpu_emit_timestamp(p_, ro.va));
	/* Guard gap and unmapped. */
	CASE(SWGPU_FAULT_PAGE_WRITE, end, swgpu_emit_fill(p_, end - 4, 8, 0));
	CASE(SWGPU_FAULT_PAGE_WRITE, end, swgpu_emit_timestamp(p_, end));
	CASE(SWGPU_FAULT_PAGE_READ, end, swgpu_emit_sem_wait(p_, end, 0));
	/* Addresses near the top of the 64-bit space, wrapping ranges. */
	CASE(SWGPU_FAULT_PAGE_WRITE, UINT64_MAX - 3,
	     swgpu_emit_copy(p_, UINT64_MAX - 3, d.va, 8));
	CASE(SWGPU_FAULT_PAGE_READ, end,
	     swgpu_emit_copy(p_, d.va, d.va + 16, UINT64_MAX));
	CASE(SWGPU_FAULT_PAGE_READ, end,
	     swgpu_emit_copy(p_, d.va, d.va + 16, (uint64_t)0 - 16));
	CASE(SWGPU_FAULT_PAGE_WRITE, 0xfffffffffffffff0ull,
	     swgpu_emit_fill(p_, 0xfffffffffffffff0ull, 0x20, 0));
	CASE(SWGPU_FAULT_PAGE_WRITE, end,
	     swgpu_emit_fill(p_, d.va + 4, 0xfffffffffffffffcull, 0));
	CASE(SWGPU_FAULT_PAGE_READ, 0xfffffffffffffff8ull,
	     swgpu_emit_sem_wait(p_, 0xfffffffffffffff8ull, 0));
	CASE(SWGPU_FAULT_PAGE_WRITE, UINT64_MAX - 3,
	     (p_[0] = swgpu_emit_write_data_header(p_, UINT64_MAX - 3, 2),
	      p_[3] = 1, p_[4] = 2, p_[0] = swgpu_pkt_header(
	      SWGPU_OP_WRITE_DATA, 0, 5), 5));
	CASE(SWGPU_FAULT_PAGE_WRITE, 0, (p_[0] = 0,
	     swgpu_emit_write_data_header(p_, 0, 1) + (p_[3] = 9, 0)));
#undef CASE

	for (int i = 0; i < nc; i++) {
		f->n = 0;
		/* A marker before the faulting packet, one after it. */
		emit_write1(f, d.va + 64, 0x1000u + (uint32_t)i);
		memcpy(emit(f), c[i].pk, c[i].len * 4);
		uint32_t op = swgpu_pkt_opcode(c[i].pk[0]);
		f->n += c[i].len;
		emit_write1(f, d.va + 128, 0xbad);
		if (run(f))
			fail_msg("case %d did not fault", i);
		if (f->fault.kind != c[i].kind || f->fault.address != c[i].at)
			fail_msg("case %d: kind %d at 0x%llx, expected %d at "
			         "0x%llx (%s)", i, f->fault.kind,
			         (unsigned long long)f->fault.address,
			         c[i].kind, (unsigned long long)c[i].at,
			         f->fault.message);
		expect_fault(f, c[i].kind, c[i].at, op, f->ib.va + 16);
		assert_non_null(strstr(f->fault.message,
		                       c[i].kind == SWGPU_FAULT_PAGE_WRITE
		                       ? "write to" : "read of"));
		assert_int_equal(rd32(d.cpu + 64), 0x1000u + (uint32_t)i);
		assert_int_equal(rd32(d.cpu + 128), 0x33333333);
	}
	/* No faulting packet left a partial effect. */
	assert_true(all_bytes(d.cpu, 64, 0x33));
	assert_true(all_bytes(d.cpu + 68, 60, 0x33));
	assert_true(all_bytes(d.cpu + 132, d.size - 132, 0x33));
	assert_true(all_bytes(ro.cpu, ro.size, 0x44));
}

/* ------------------------------------------------------------------ */
/* SEM_WAIT                                                            */
/* ------------------------------------------------------------------ */

struct waiter {
	struct fixture *f;
	struct exec_env env;
	swgpu_fault_info fault;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int hook_calls;
	int kicks;
	bool abort;             /* hook returns false */
	bool result;
	uint64_t ib_va;
	uint32_t ib_ndw;
};

static bool
wait_hook(void *cookie, uint64_t deadline_ns)
{
	struct waiter *w = cookie;
	struct timespec ts;
	uint64_t until = swgpu_now_ns() + 200 * 1000000ull;

	if (until > deadline_ns)
		until = deadline_ns;
	pthread_mutex_lock(&w->lock);
	int seen = w->kicks;
	w->hook_calls++;
	pthread_cond_broadcast(&w->cond);
	ts.tv_sec = (time_t)(until / 1000000000ull);
	ts.tv_nsec = (long)(until % 1000000000ull);
	while (w->kicks == seen && !w->abort)
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) != 0)
			break;
	bool ok = !w->abort;
	pthread_mutex_unlock(&w->lock);
	return ok;
}

static void
kick(void *cookie)
{
	struct waiter *w = cookie;

	pthread_mutex_lock(&w->lock);
	w->kicks++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static void
waiter_init(struct waiter *w, struct fixture *f, uint64_t ib_va,
            uint32_t ib_ndw)
{
	pthread_condattr_t ca;

	memset(w, 0, sizeof(*w));
	w->f = f;
	env_init(f, &w->env);
	w->env.fault = &w->fault;
	w->env.stats = NULL;
	w->env.engine = ENGINE;
	w->env.wait_hook = wait_hook;
	w->env.wait_cookie = w;
	w->ib_va = ib_va;
	w->ib_ndw = ib_ndw;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
}

static void
waiter_fini(struct waiter *w)
{
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

static void *
engine_thread(void *p)
{
	struct waiter *w = p;

	w->result = exec_ib(&w->env, w->ib_va, w->ib_ndw, 1);
	return NULL;
}

/* Block (bounded) until the engine sits in SEM_WAIT's hook. */
static void
wait_until_waiting(struct waiter *w)
{
	uint64_t deadline = swgpu_now_ns() + 10ull * 1000000000ull;
	struct timespec ts = {
		.tv_sec = (time_t)(deadline / 1000000000ull),
		.tv_nsec = (long)(deadline % 1000000000ull),
	};

	pthread_mutex_lock(&w->lock);
	while (w->hook_calls == 0)
		if (pthread_cond_timedwait(&w->cond, &w->lock, &ts) != 0)
			break;
	int calls = w->hook_calls;
	pthread_mutex_unlock(&w->lock);
	assert_true(calls > 0);
}

static void
test_sem_wait_immediate(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, RW);

	__atomic_store_n((uint64_t *)(void *)s.cpu, 5, __ATOMIC_RELEASE);
	f->n += swgpu_emit_sem_wait(emit(f), s.va, 5);
	f->n += swgpu_emit_sem_wait(emit(f), s.va, 0);
	f->n += swgpu_emit_sem_wait(emit(f), s.va, 3);
	emit_write1(f, s.va + 8, 1);
	f->env.hang_timeout_ns = 1;     /* must not even look at the clock */
	assert_true(run(f));
	assert_int_equal(rd32(s.cpu + 8), 1);
}

/* One engine waits, another engine's SEM_SIGNAL releases it. */
static void
test_sem_wait_signalled_by_other_engine(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, RW);
	struct gbuf ib2 = gbuf_new(f, 4096, SWGPU_VA_READ);
	uint32_t *p2 = (uint32_t *)(void *)ib2.cpu;
	struct waiter w;
	struct exec_env sig;
	pthread_t t;
	uint32_t n2 = 0;

	/* Waiter: data written by the signaller must be visible after the
	 * wait (acquire/release), so copy it. */
	f->n += swgpu_emit_sem_wait(emit(f), s.va, 0x100000007ull);
	f->n += swgpu_emit_copy(emit(f), s.va + 24, s.va + 16, 8);
	emit_write1(f, s.va + 8, 0x1234);
	waiter_init(&w, f, f->ib.va, f->n);
	pthread_create(&t, NULL, engine_thread, &w);
	wait_until_waiting(&w);
	/* The engine is stalled: nothing after the wait ran. */
	assert_int_equal(__atomic_load_n((uint32_t *)(void *)(s.cpu + 8),
	                                 __ATOMIC_ACQUIRE), 0);

	/* Signaller: payload, a too-small value, then the real one. */
	n2 += swgpu_emit_write_data_header(p2 + n2, s.va + 16, 2);
	swgpu_pkt_put64(p2 + n2 - 2, 0xfeedfacecafebeefull);
	n2 += swgpu_emit_sem_signal(p2 + n2, s.va, 0x100000006ull, 0);
	n2 += swgpu_emit_sem_signal(p2 + n2, s.va, 0x100000007ull, 0);
	env_init(f, &sig);
	sig.stats = NULL;
	sig.signal_hook = kick;
	sig.wait_cookie = &w;
	memset(&f->fault, 0, sizeof(f->fault));
	assert_true(exec_ib(&sig, ib2.va, n2, 1));
	pthread_join(t, NULL);
	assert_true(w.result);
	assert_int_equal(w.fault.kind, SWGPU_FAULT_NONE);
	assert_int_equal(rd32(s.cpu + 8), 0x1234);
	assert_true(rd64(s.cpu + 24) == 0xfeedfacecafebeefull);
	assert_true(w.kicks >= 2);
	waiter_fini(&w);
}

/* The host writes the semaphore (as an application would). */
static void
test_sem_wait_host_signal(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, RW);
	struct waiter w;
	pthread_t t;

	f->n += swgpu_emit_sem_wait(emit(f), s.va + 8, 3);
	emit_write1(f, s.va, 0x55);
	waiter_init(&w, f, f->ib.va, f->n);
	w.env.hang_timeout_ns = 20ull * 1000000000ull;
	pthread_create(&t, NULL, engine_thread, &w);
	wait_until_waiting(&w);
	__atomic_store_n((uint64_t *)(void *)(s.cpu + 8), 3, __ATOMIC_RELEASE);
	kick(&w);
	pthread_join(t, NULL);
	assert_true(w.result);
	assert_int_equal(rd32(s.cpu), 0x55);
	waiter_fini(&w);
}

static void
test_sem_wait_hang(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, RW);
	uint64_t t0, t1;

	__atomic_store_n((uint64_t *)(void *)s.cpu, 9, __ATOMIC_RELEASE);
	f->n += swgpu_emit_nop(emit(f), 2);
	f->n += swgpu_emit_sem_wait(emit(f), s.va, 10);
	emit_write1(f, s.va + 8, 1);
	f->env.hang_timeout_ns = 50ull * 1000000ull;
	t0 = swgpu_now_ns();
	assert_false(run(f));       /* no wait_hook: polls */
	t1 = swgpu_now_ns();
	expect_fault(f, SWGPU_FAULT_HANG, s.va, SWGPU_OP_SEM_WAIT,
	             f->ib.va + 8);
	assert_true(t1 - t0 >= 50ull * 1000000ull);
	assert_true(t1 - t0 < 5ull * 1000000000ull);
	assert_int_equal(rd32(s.cpu + 8), 0);

	/* With a hook that keeps saying "re-check". */
	struct waiter w;
	waiter_init(&w, f, f->ib.va, f->n);
	w.env.hang_timeout_ns = 30ull * 1000000ull;
	t0 = swgpu_now_ns();
	engine_thread(&w);
	t1 = swgpu_now_ns();
	assert_false(w.result);
	assert_int_equal(w.fault.kind, SWGPU_FAULT_HANG);
	assert_true(t1 - t0 >= 30ull * 1000000ull);
	assert_true(t1 - t0 < 5ull * 1000000000ull);
	waiter_fini(&w);
}

static void
test_sem_wait_abort(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, RW);
	struct waiter w;
	uint64_t t0;

	f->n += swgpu_emit_sem_wait(emit(f), s.va, 1);
	emit_write1(f, s.va + 8, 1);
	waiter_init(&w, f, f->ib.va, f->n);
	w.abort = true;              /* device closing / engine reset */
	t0 = swgpu_now_ns();
	engine_thread(&w);
	assert_false(w.result);
	assert_int_equal(w.fault.kind, SWGPU_FAULT_HANG);
	assert_int_equal(w.fault.address, s.va);
	assert_true(swgpu_now_ns() - t0 < 5ull * 1000000000ull);
	assert_int_equal(rd32(s.cpu + 8), 0);
	waiter_fini(&w);
}

/* Unmapping (and destroying) an IB while it runs is safe: the engine's
 * BO reference keeps the packets; an unmapped semaphore faults. */
static void
test_unmap_while_running(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, RW);
	struct gbuf ib = gbuf_new(f, 64 * KIB, SWGPU_VA_READ);
	uint32_t *p = (uint32_t *)(void *)ib.cpu;
	struct waiter w;
	pthread_t t;
	uint32_t n = 0;

	n += swgpu_emit_sem_wait(p + n, s.va, 1);
	n += swgpu_emit_write_data_header(p + n, s.va + 8, 1);
	p[n - 1] = 0xabc;
	n += swgpu_emit_nop(p + n, 1000);
	n += swgpu_emit_write_data_header(p + n, s.va + 12, 1);
	p[n - 1] = 0xdef;
	waiter_init(&w, f, ib.va, n);
	pthread_create(&t, NULL, engine_thread, &w);
	wait_until_waiting(&w);
	assert_int_equal(vaspace_unmap(f->vs, ib.va), SWGPU_OK);
	/* Only the engine's reference is left; the memory is still there. */
	assert_int_equal(atomic_load(&ib.bo->refcount), 1);
	__atomic_store_n((uint64_t *)(void *)s.cpu, 1, __ATOMIC_RELEASE);
	kick(&w);
	pthread_join(t, NULL);
	if (!w.result)
		print_message("fault: %s\n", w.fault.message);
	assert_true(w.result);
	assert_int_equal(rd32(s.cpu + 8), 0xabc);
	assert_int_equal(rd32(s.cpu + 12), 0xdef);
	/* The IB's BO went with the engine's reference. */
	assert_int_equal(mem_heap_usage(&f->mem, SWGPU_HEAP_SYSTEM),
	                 f->ib.size + s.size);
	waiter_fini(&w);

	/* The semaphore itself unmapped while waiting: a page fault. */
	f->n = 0;
	f->n += swgpu_emit_sem_wait(emit(f), s.va, 2);
	waiter_init(&w, f, f->ib.va, f->n);
	pthread_create(&t, NULL, engine_thread, &w);
	wait_until_waiting(&w);
	assert_int_equal(vaspace_unmap(f->vs, s.va), SWGPU_OK);
	kick(&w);
	pthread_join(t, NULL);
	assert_false(w.result);
	assert_int_equal(w.fault.kind, SWGPU_FAULT_PAGE_READ);
	assert_int_equal(w.fault.address, s.va);
	waiter_fini(&w);
}

/* Informational: a large COPY runs at memmove speed (no assertion on
 * time, machines vary; the data is checked). */
static void
test_copy_large(void **state)
{
	struct fixture *f = *state;
	const uint64_t size = 64 * MIB;
	struct gbuf a = gbuf_new(f, size, SWGPU_VA_READ);
	struct gbuf b = gbuf_new(f, size, SWGPU_VA_WRITE);
	uint64_t t0, t1, t2;

	for (uint64_t i = 0; i < size; i += 4096)
		a.cpu[i] = (uint8_t)(i >> 12);
	memset(b.cpu, 1, size);          /* fault pages in for both */
	t0 = swgpu_now_ns();
	memcpy(b.cpu, a.cpu, size);
	t1 = swgpu_now_ns();
	memset(b.cpu, 1, size);
	f->n += swgpu_emit_copy(emit(f), b.va, a.va, size);
	t2 = swgpu_now_ns();
	assert_true(run(f));
	uint64_t t3 = swgpu_now_ns();
	assert_memory_equal(a.cpu, b.cpu, size);
	print_message("COPY 64 MiB: memcpy %.2f GB/s, packet %.2f GB/s\n",
	              (double)size / (double)(t1 - t0),
	              (double)size / (double)(t3 - t2));
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_nop_write_data),
		T(test_fill),
		T(test_copy_sizes),
		T(test_copy_overlap),
		T(test_indirect_nesting),
		T(test_ib_depth),
		T(test_bad_ib),
		T(test_sem_signal_timestamp),
		T(test_bad_packets),
		T(test_ring_stream),
		T(test_page_faults),
		T(test_sem_wait_immediate),
		T(test_sem_wait_signalled_by_other_engine),
		T(test_sem_wait_host_signal),
		T(test_sem_wait_hang),
		T(test_sem_wait_abort),
		T(test_unmap_while_running),
		T(test_copy_large),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
