/* SPDX-License-Identifier: MIT */
/*
 * Internal test of preemption inside packet streams (packet_exec.c): a
 * job of nested IBs with long COPY/FILL packets (disjoint, overlapping
 * back to front) is preempted at EVERY preemption point it reaches —
 * each packet boundary after the first, each 1 MiB chunk boundary — and
 * resumed from its save area each time, with another stream writing
 * elsewhere in between. Every byte must equal an uninterrupted run, and
 * the number of stops must be exactly the number of points.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "kmd/mem.h"
#include "hw/packet/packet_exec.h"
#include "util/util.h"
#include "kmd/vaspace.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)

struct gbuf {
	uint64_t va;
	uint8_t *cpu;
	uint64_t size;
};

struct fixture {
	struct swgpu_mem mem;
	struct swgpu_vaspace *vs;
	swgpu_fault_info fault;
	struct gbuf data;       /* what the job works on */
	struct gbuf cmd;        /* its IBs */
	struct gbuf other;      /* what the "higher-priority" stream writes */
	uint32_t stops_wanted;  /* preempt_hook answers */
};

static struct gbuf
gbuf_new(struct fixture *f, uint64_t size)
{
	struct gbuf b = { .size = size };
	struct swgpu_bo *bo;

	assert_int_equal(bo_create_in(&f->mem, NULL, size, SWGPU_HEAP_SYSTEM,
	                              0, &bo), SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, size, RW, &b.va),
	                 SWGPU_OK);
	b.cpu = bo->cpu;
	swgpu_bo_destroy(bo); /* the mapping holds it */
	return b;
}

static uint32_t
emit_write32(uint32_t *p, uint64_t va, uint32_t v)
{
	uint32_t n = swgpu_emit_write_data_header(p, va, 1);

	p[3] = v;
	return n;
}

static bool
always_preempt(void *cookie)
{
	struct fixture *f = cookie;

	return f->stops_wanted != 0;
}

static void
env_init(struct fixture *f, struct exec_env *env, struct exec_save *save)
{
	*env = (struct exec_env){
		.vs = f->vs,
		.engine = 0,
		.max_ib_depth = 4,
		.max_ib_size_dw = 1u << 16,
		.hang_timeout_ns = 10ull * 1000000000ull,
		.fault = &f->fault,
		.wait_cookie = f,
		.save = save,
		.preempt_hook = save ? always_preempt : NULL,
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
	cfg.system_size = 512 * MIB;
	mem_init(&f->mem, &cfg);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, SWGPU_VA_SIZE, 4096,
	                                &f->vs), SWGPU_OK);
	f->data = gbuf_new(f, 24 * MIB);
	f->cmd = gbuf_new(f, 64 * KIB);
	f->other = gbuf_new(f, 64 * KIB);
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

static void
fill_initial(uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131u + (i >> 12) * 7u + 3u);
}

/*
 * IB layout (dword offsets in cmd): outer IB at 0 (depth 1), inner at
 * 1024 (depth 2), innermost at 2048 (depth 3). Returns the outer IB's
 * size in dwords and the number of preemption points the job has.
 */
static uint32_t
record_job(struct fixture *f, uint32_t *points)
{
	uint32_t *c = (uint32_t *)(void *)f->cmd.cpu;
	const uint64_t d = f->data.va;
	uint32_t n3 = 0, n2 = 0, n1 = 0;
	uint32_t *ib3 = c + 2048, *ib2 = c + 1024, *ib1 = c;
	uint32_t v = 0x1234abcd;

	/* innermost: FILL 2 MiB + 4 (3 chunks) */
	n3 += swgpu_emit_fill(ib3 + n3, d + 16 * MIB, 2 * MIB + 4,
	                      0xc0ffee11);
	/* inner: COPY 6.5 MiB disjoint (7 chunks), IB, WRITE_DATA */
	n2 += swgpu_emit_copy(ib2 + n2, d + 8 * MIB, d, 6 * MIB + 512 * KIB);
	n2 += swgpu_emit_indirect(ib2 + n2, f->cmd.va + 2048 * 4, n3);
	n2 += emit_write32(ib2 + n2, d + 23 * MIB, v);
	/* outer: WRITE_DATA, IB, WRITE_DATA, COPY overlapping back to
	 * front 5 MiB + 123 (6 chunks), FILL 3 MiB + 4 (4 chunks) */
	n1 += emit_write32(ib1 + n1, d + 23 * MIB + 64, v);
	n1 += swgpu_emit_indirect(ib1 + n1, f->cmd.va + 1024 * 4, n2);
	n1 += emit_write32(ib1 + n1, d + 23 * MIB + 128, v);
	n1 += swgpu_emit_copy(ib1 + n1, d + MIB + 8, d, 5 * MIB + 123);
	n1 += swgpu_emit_fill(ib1 + n1, d + 19 * MIB, 3 * MIB + 4,
	                      0x5a5a0101);
	/* Packet boundaries after the first packet of each IB: outer 4,
	 * inner 2, innermost 0; chunk boundaries (chunks - 1): inner COPY
	 * 6, innermost FILL 2, outer COPY 5, outer FILL 3. */
	*points = 4 + 2 + 0 + 6 + 2 + 5 + 3;
	return n1;
}

/* The "higher-priority job" that runs while the job is preempted. */
static void
run_other(struct fixture *f, uint32_t i)
{
	struct exec_env env;
	uint32_t *c = (uint32_t *)(void *)f->cmd.cpu + 4096;
	uint32_t n = swgpu_emit_fill(c, f->other.va + (i % 64) * 256, 256,
	                             i + 1);

	env_init(f, &env, NULL);
	assert_true(exec_ib(&env, f->cmd.va + 4096 * 4, n, 1));
}

static void
test_preempt_everywhere_exact(void **state)
{
	struct fixture *f = *state;
	uint32_t points;
	uint32_t ndw = record_job(f, &points);
	uint8_t *want = malloc(f->data.size);
	struct exec_env env;
	struct exec_save save;

	assert_non_null(want);
	/* Reference: one uninterrupted run. */
	fill_initial(f->data.cpu, f->data.size);
	env_init(f, &env, NULL);
	assert_true(exec_ib(&env, f->cmd.va, ndw, 1));
	memcpy(want, f->data.cpu, f->data.size);
	/* The overlapping copy is a memmove of the original bytes. */
	uint8_t *orig = malloc(f->data.size);
	assert_non_null(orig);
	fill_initial(orig, f->data.size);
	assert_memory_equal(want + MIB + 8, orig, 5 * MIB + 123);
	free(orig);

	/* Preempted at every point it reaches. */
	fill_initial(f->data.cpu, f->data.size);
	memset(&save, 0, sizeof(save));
	f->stops_wanted = 1;
	uint32_t stops = 0;
	for (;;) {
		env_init(f, &env, &save);
		save.resuming = save.valid;
		if (exec_ib(&env, f->cmd.va, ndw, 1))
			break;
		assert_true(env.preempted);
		assert_true(save.valid);
		assert_int_equal(f->fault.kind, SWGPU_FAULT_NONE);
		assert_true(save.depth >= 1 && save.depth <= 3);
		stops++;
		assert_true(stops <= points);
		run_other(f, stops);
	}
	print_message("%u stops at %u preemption points\n", stops, points);
	assert_int_equal(stops, points);
	assert_false(save.valid);
	assert_int_equal(memcmp(f->data.cpu, want, f->data.size), 0);
	/* The stream run at stop i filled slot i with i + 1. */
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(f->other.cpu[i * 256],
		                 i >= 1 && i <= stops ? i + 1 : 0);
	free(want);
}

/* Run ndw dwords at cmd offset 0: once uninterrupted from the initial
 * data, once preempted at every point; same bytes. Returns the stops. */
static uint32_t
run_both_ways(struct fixture *f, uint32_t ndw)
{
	uint8_t *want = malloc(f->data.size);
	struct exec_env env;
	struct exec_save save;
	uint32_t stops = 0;

	assert_non_null(want);
	fill_initial(f->data.cpu, f->data.size);
	env_init(f, &env, NULL);
	assert_true(exec_ib(&env, f->cmd.va, ndw, 1));
	memcpy(want, f->data.cpu, f->data.size);

	fill_initial(f->data.cpu, f->data.size);
	memset(&save, 0, sizeof(save));
	f->stops_wanted = 1;
	for (;;) {
		env_init(f, &env, &save);
		save.resuming = save.valid;
		if (exec_ib(&env, f->cmd.va, ndw, 1))
			break;
		assert_true(env.preempted && save.valid);
		assert_int_equal(save.depth, 1);
		assert_true(++stops < 1000);
		run_other(f, stops);
	}
	assert_int_equal(memcmp(f->data.cpu, want, f->data.size), 0);
	free(want);
	return stops;
}

/* COPY_PITCHED (per row, per slice, one run), CLEAR_BOX and BLIT stop
 * at row / chunk boundaries once 1 MiB (BLIT: 256 K texels) was written,
 * and resume with every byte as an uninterrupted run. */
static void
test_image_packets_preempted_exact(void **state)
{
	struct fixture *f = *state;
	uint32_t *c = (uint32_t *)(void *)f->cmd.cpu;
	const uint64_t d = f->data.va;
	uint32_t n;

	/* Rows with pitches on both sides: 3000 x 1500 x 2 = 9 MB. */
	struct swgpu_pitched dst = { d + 10 * MIB, 3072, 3072 * 1500 };
	struct swgpu_pitched src = { d, 3008, 3008 * 1500 };
	n = swgpu_emit_copy_pitched(c, &dst, &src, 3000, 1500, 2);
	uint32_t stops = run_both_ways(f, n);
	print_message("COPY_PITCHED rows: %u stops\n", stops);
	assert_int_equal(stops, 8);

	/* Packed rows, pitched slices: 3 x 2 MiB. */
	dst = (struct swgpu_pitched){ d + 12 * MIB, 1024, 3 * MIB };
	src = (struct swgpu_pitched){ d, 1024, 2 * MIB };
	n = swgpu_emit_copy_pitched(c, &dst, &src, 1024, 2048, 3);
	stops = run_both_ways(f, n);
	assert_int_equal(stops, 5);

	/* One packed run of 5 MiB + 512. */
	dst = (struct swgpu_pitched){ d + 12 * MIB, 5 * MIB + 512, 0 };
	src = (struct swgpu_pitched){ d + 1, 5 * MIB + 512, 0 };
	n = swgpu_emit_copy_pitched(c, &dst, &src, 5 * MIB + 512, 1, 1);
	stops = run_both_ways(f, n);
	assert_int_equal(stops, 5);

	/* CLEAR_BOX 1024 x 700 x 2 RGBA8, pitched: 4 KiB rows. */
	const uint32_t value[4] = { 0x3f800000u, 0, 0x3f000000u,
	                            0x3f800000u };
	dst = (struct swgpu_pitched){ d + 64, 4160, 4160 * 700 };
	n = swgpu_emit_clear_box(c, &dst, SWGPU_FORMAT_R8G8B8A8_UNORM, 1024,
	                         700, 2, value);
	stops = run_both_ways(f, n);
	print_message("CLEAR_BOX: %u stops\n", stops);
	assert_int_equal(stops, 5);

	/* BLIT 512x512 -> 1024x1024 RGBA8, linear: 1 M texels. */
	struct swgpu_blit_surface bs = {
		d, 2048, 2048 * 512, SWGPU_FORMAT_R8G8B8A8_UNORM, 512, 512, 1,
	};
	struct swgpu_blit_surface bd = {
		d + 2 * MIB, 4096, 4096 * 1024, SWGPU_FORMAT_R8G8B8A8_UNORM,
		1024, 1024, 1,
	};
	const int32_t sbox[6] = { 0, 0, 0, 512, 512, 1 };
	const int32_t dbox[6] = { 0, 0, 0, 1024, 1024, 1 };
	n = swgpu_emit_blit(c, &bs, &bd, sbox, dbox, SWGPU_BLIT_LINEAR);
	stops = run_both_ways(f, n);
	print_message("BLIT: %u stops\n", stops);
	assert_int_equal(stops, 3);
}

/* A save area that names a position outside the IB (the IB changed
 * under a preempted job) is a clean fault, not a wild read. */
static void
test_bad_resume_point_faults(void **state)
{
	struct fixture *f = *state;
	uint32_t *c = (uint32_t *)(void *)f->cmd.cpu;
	uint32_t n = swgpu_emit_fill(c, f->data.va, 4 * MIB, 1);
	struct exec_env env;
	struct exec_save save;

	memset(&save, 0, sizeof(save));
	f->stops_wanted = 1;
	env_init(f, &env, &save);
	assert_false(exec_ib(&env, f->cmd.va, n, 1));
	assert_true(env.preempted && save.valid && save.depth == 1);
	assert_int_equal(save.offset, MIB);
	save.pos[1] = 1000; /* past the 6-dword IB */
	save.resuming = true;
	env_init(f, &env, &save);
	memset(&f->fault, 0, sizeof(f->fault));
	assert_false(exec_ib(&env, f->cmd.va, n, 1));
	assert_false(env.preempted);
	assert_int_equal(f->fault.kind, SWGPU_FAULT_BAD_PACKET);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_preempt_everywhere_exact,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_image_packets_preempted_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_resume_point_faults,
		                                setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
