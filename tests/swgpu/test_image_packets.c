/* SPDX-License-Identifier: MIT */
/*
 * Internal tests of the image packets (packet_image.c): COPY_PITCHED,
 * CLEAR_BOX and BLIT run with exec_ib() on a VA space without engines.
 * Every destination byte is checked against an expectation computed on
 * the host (blits against a plain implementation of the spec's
 * vkCmdBlitImage rules written here), and bytes outside the destination
 * box must keep their fill pattern.
 */
#include <math.h>
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

#include "image_test_util.h"

/* ------------------------------------------------------------------ */
/* COPY_PITCHED                                                        */
/* ------------------------------------------------------------------ */

static void
copy_case(struct fixture *f, uint64_t rb, uint32_t rows, uint32_t slices,
          uint64_t srp, uint64_t ssp, uint64_t drp, uint64_t dsp)
{
	struct gbuf s = gbuf_new(f, 256 * KIB, SWGPU_VA_READ);
	struct gbuf d = gbuf_new(f, 256 * KIB, RW);
	struct swgpu_pitched sp = { s.va + 5, srp, ssp };
	struct swgpu_pitched dp = { d.va + 3, drp, dsp };

	fill_random(s.cpu, s.size);
	f->stats.bytes_written = 0;
	f->n += swgpu_emit_copy_pitched(emit(f), &dp, &sp, (uint32_t)rb,
	                                rows, slices);
	assert_true(run(f));
	check_box(&d, 3, drp, dsp, s.cpu + 5, srp, ssp, rb, rows, slices);
	assert_true(f->stats.bytes_written == rb * rows * slices);
}

static void
test_copy_pitched_shapes(void **state)
{
	struct fixture *f = *state;

	/* Padded pitches on both sides (image <-> buffer). */
	copy_case(f, 37, 13, 3, 50, 50 * 15, 64, 64 * 16);
	/* Tight rows, padded slices; tight everything (one run). */
	copy_case(f, 40, 10, 4, 40, 480, 40, 400);
	copy_case(f, 48, 7, 5, 48, 48 * 7, 48, 48 * 7);
	/* Single row / single slice with zero pitches. */
	copy_case(f, 1000, 1, 1, 0, 0, 0, 0);
	copy_case(f, 16, 1, 9, 0, 100, 0, 16);
	/* A run longer than one SWGPU_EXEC_CHUNK. */
	copy_case(f, 60000, 3, 1, 60000, 0, 60000, 0);
}

static void
test_copy_pitched_faults(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 8192, SWGPU_VA_READ);
	struct gbuf d = gbuf_new(f, 8192, RW);
	struct gbuf ro = gbuf_new(f, 8192, SWGPU_VA_READ);
	struct swgpu_pitched sp = { s.va, 100, 0 };
	struct swgpu_pitched dp = { d.va, 100, 0 };

	/* Ends exactly at the mapping end: fine; one more byte: fault. */
	dp.va = d.va + 8192 - (80 * 100 + 92);
	f->n += swgpu_emit_copy_pitched(emit(f), &dp, &sp, 92, 81, 1);
	assert_true(run(f));
	memset(d.cpu, PAD, d.size);
	dp.va++;
	f->n += swgpu_emit_copy_pitched(emit(f), &dp, &sp, 92, 81, 1);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_WRITE, SWGPU_OP_COPY_PITCHED);
	assert_true(f->fault.address == d.va + 8192);
	assert_true(all_bytes(d.cpu, d.size, PAD));

	sp.va = s.va + 8192 - (80 * 100 + 92) + 1;
	dp.va = d.va;
	f->n += swgpu_emit_copy_pitched(emit(f), &dp, &sp, 92, 81, 1);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, SWGPU_OP_COPY_PITCHED);
	assert_true(all_bytes(d.cpu, d.size, PAD));

	/* Read-only dst. */
	sp.va = s.va;
	dp.va = ro.va;
	f->n += swgpu_emit_copy_pitched(emit(f), &dp, &sp, 16, 2, 1);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_WRITE, SWGPU_OP_COPY_PITCHED);

	/* Bad shapes: zero sizes, overlapping rows, overflowing pitches,
	 * absurd extents. */
	static const struct {
		uint64_t rp, sp;
		uint32_t rb, rows, slices;
	} bad[] = {
		{ 100, 0, 0, 1, 1 }, { 100, 0, 16, 0, 1 },
		{ 100, 0, 16, 1, 0 }, { 8, 0, 16, 2, 1 },
		{ 100, 110, 16, 2, 2 },
		{ 1ull << 63, 0, 16, 3, 1 },
		{ 100, UINT64_MAX / 2, 16, 2, 3 },
		{ UINT64_MAX, 0, 1, 2, 1 },
		{ 16, 0, 16, SWGPU_IMAGE_MAX_EXTENT + 1, 1 },
	};
	dp.va = d.va;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct swgpu_pitched a = { d.va, bad[i].rp, bad[i].sp };
		struct swgpu_pitched b = { s.va, bad[i].rp, bad[i].sp };

		f->n += swgpu_emit_copy_pitched(emit(f), &a, &b, bad[i].rb,
		                                bad[i].rows, bad[i].slices);
		assert_false(run(f));
		expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_COPY_PITCHED);
		assert_true(all_bytes(d.cpu, d.size, PAD));
	}
	/* Bad length. */
	uint32_t *p = emit(f);
	f->n += swgpu_emit_copy_pitched(p, &dp, &sp, 16, 1, 1);
	p[0] = swgpu_pkt_header(SWGPU_OP_COPY_PITCHED, 0, 15);
	f->n = 15;
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_COPY_PITCHED);
}

/* ------------------------------------------------------------------ */
/* CLEAR_BOX                                                           */
/* ------------------------------------------------------------------ */

static void
clear_case(struct fixture *f, uint32_t format, const uint32_t value[4],
           const uint8_t *expect, uint32_t bb)
{
	struct gbuf d = gbuf_new(f, 64 * KIB, RW);
	const uint32_t w = 13, h = 7, dep = 3;
	const uint64_t rp = w * bb + 9, sp = rp * h + 21;
	struct swgpu_pitched dp = { d.va + 7, rp, sp };
	uint8_t *row = malloc(w * bb);

	for (uint32_t x = 0; x < w; x++)
		memcpy(row + x * bb, expect, bb);
	f->n += swgpu_emit_clear_box(emit(f), &dp, format, w, h, dep, value);
	assert_true(run(f));
	check_box(&d, 7, rp, sp, row, 0, 0, w * bb, h, dep);
	free(row);
}

static void
test_clear_box(void **state)
{
	struct fixture *f = *state;

	{
		const uint32_t v[4] = { fbits(1.0f), fbits(0.5f),
		                        fbits(0.0f), fbits(0.2f) };
		const uint8_t e[4] = { 255, 128, 0, 51 };
		clear_case(f, SWGPU_FORMAT_R8G8B8A8_UNORM, v, e, 4);
		const uint8_t eb[4] = { 0, 128, 255, 51 };
		clear_case(f, SWGPU_FORMAT_B8G8R8A8_UNORM, v, eb, 4);
		/* sRGB: linear 0.5 encodes to 188, alpha stays linear. */
		const uint8_t es[4] = { 255, 188, 0, 51 };
		clear_case(f, SWGPU_FORMAT_R8G8B8A8_SRGB, v, es, 4);
		/* R16G16B16A16_SFLOAT: halves 1.0, 0.5, 0, 0.2. */
		const uint8_t eh[8] = { 0x00, 0x3c, 0x00, 0x38, 0, 0,
		                        0x66, 0x32 };
		clear_case(f, SWGPU_FORMAT_R16G16B16A16_SFLOAT, v, eh, 8);
		/* A2B10G10R10: R=1023, G=512 (511.5 to even), B=0, A=1 (0.6). */
		uint32_t pk = 1023u | 512u << 10 | 0u << 20 | 1u << 30;
		uint8_t e10[4];
		memcpy(e10, &pk, 4);
		clear_case(f, SWGPU_FORMAT_A2B10G10R10_UNORM_PACK32, v, e10, 4);
		/* R5G6B5: R=31, G=32 (31.5 to even), B=0. */
		uint16_t p565 = (uint16_t)(31u << 11 | 32u << 5);
		clear_case(f, SWGPU_FORMAT_R5G6B5_UNORM_PACK16, v,
		           (const uint8_t *)&p565, 2);
	}
	{
		const uint32_t v[4] = { 7, 0xffffffffu, 300, 0x80000000u };
		const uint32_t e[4] = { 7, 0xffffffffu, 300, 0x80000000u };
		clear_case(f, SWGPU_FORMAT_R32G32B32A32_UINT, v,
		           (const uint8_t *)e, 16);
		/* Out-of-range integers clamp. */
		const uint8_t e8[4] = { 7, 255, 255, 255 };
		clear_case(f, SWGPU_FORMAT_R8G8B8A8_UINT, v, e8, 4);
		const int8_t es[4] = { 7, -1, 127, -128 };
		clear_case(f, SWGPU_FORMAT_R8G8B8A8_SINT, v,
		           (const uint8_t *)es, 4);
		const int64_t e64[2] = { 7, -1 };
		clear_case(f, SWGPU_FORMAT_R64G64_SINT, v,
		           (const uint8_t *)e64, 16);
	}
	{
		const uint32_t v[4] = { fbits(0.25f), 0x1234, 0, 0 };
		uint32_t d24 = 0x400000;        /* 0.25 * (2^24 - 1) even */
		clear_case(f, SWGPU_FORMAT_X8_D24_UNORM, v,
		           (const uint8_t *)&d24, 4);
		uint16_t d16 = 16384;           /* 16383.75 */
		clear_case(f, SWGPU_FORMAT_D16_UNORM, v,
		           (const uint8_t *)&d16, 2);
		float d32 = 0.25f;
		clear_case(f, SWGPU_FORMAT_D32_SFLOAT, v,
		           (const uint8_t *)&d32, 4);
		const uint32_t vs[4] = { 0x1234, 0, 0, 0 };
		const uint8_t s8 = 0x34;        /* low bits of the value */
		clear_case(f, SWGPU_FORMAT_S8_UINT, vs, &s8, 1);
	}
	{
		/* E5B9G9R9 (1, 1, 1): exponent 16, mantissas 256. */
		const uint32_t v[4] = { fbits(1.0f), fbits(1.0f), fbits(1.0f),
		                        0 };
		uint32_t e = 16u << 27 | 256u << 18 | 256u << 9 | 256u;
		clear_case(f, SWGPU_FORMAT_E5B9G9R9_UFLOAT_PACK32, v,
		           (const uint8_t *)&e, 4);
		/* B10G11R11 1.0: R, G 0x3c0, B 0x1e0. */
		uint32_t e11 = 0x3c0u | 0x3c0u << 11 | 0x1e0u << 22;
		clear_case(f, SWGPU_FORMAT_B10G11R11_UFLOAT_PACK32, v,
		           (const uint8_t *)&e11, 4);
	}
}

static void
test_clear_box_faults(void **state)
{
	struct fixture *f = *state;
	struct gbuf d = gbuf_new(f, 4096, RW);
	struct gbuf ro = gbuf_new(f, 4096, SWGPU_VA_READ);
	const uint32_t v[4] = { 1, 2, 3, 4 };
	struct swgpu_pitched dp = { d.va, 64, 0 };

	/* Exactly to the end, then one byte past. */
	dp.va = d.va + 4096 - (63 * 64 + 64);
	f->n += swgpu_emit_clear_box(emit(f), &dp, SWGPU_FORMAT_R32_UINT,
	                             16, 64, 1, v);
	assert_true(run(f));
	memset(d.cpu, PAD, d.size);
	dp.va++;
	f->n += swgpu_emit_clear_box(emit(f), &dp, SWGPU_FORMAT_R32_UINT,
	                             16, 64, 1, v);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_WRITE, SWGPU_OP_CLEAR_BOX);
	assert_true(all_bytes(d.cpu, d.size, PAD));

	dp.va = ro.va;
	f->n += swgpu_emit_clear_box(emit(f), &dp, SWGPU_FORMAT_R32_UINT,
	                             4, 4, 1, v);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_WRITE, SWGPU_OP_CLEAR_BOX);

	static const uint32_t bad_fmt[] = { 0, 10, SWGPU_FORMAT_COUNT,
	                                    0xffffffffu };
	dp.va = d.va;
	for (size_t i = 0; i < 4; i++) {
		f->n += swgpu_emit_clear_box(emit(f), &dp, bad_fmt[i], 4, 4,
		                             1, v);
		assert_false(run(f));
		expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_CLEAR_BOX);
	}
	/* Zero extent, overlapping rows, overflow. */
	f->n += swgpu_emit_clear_box(emit(f), &dp, SWGPU_FORMAT_R32_UINT,
	                             0, 4, 1, v);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_CLEAR_BOX);
	dp.row_pitch = 8;
	f->n += swgpu_emit_clear_box(emit(f), &dp, SWGPU_FORMAT_R32_UINT,
	                             4, 4, 1, v);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_CLEAR_BOX);
	dp.row_pitch = UINT64_MAX / 2;
	f->n += swgpu_emit_clear_box(emit(f), &dp, SWGPU_FORMAT_R32_UINT,
	                             4, 4, 1, v);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_CLEAR_BOX);
	assert_true(all_bytes(d.cpu, d.size, PAD));
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, img_setup, \
                                                  img_teardown)
	const struct CMUnitTest tests[] = {
		T(test_copy_pitched_shapes),
		T(test_copy_pitched_faults),
		T(test_clear_box),
		T(test_clear_box_faults),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
