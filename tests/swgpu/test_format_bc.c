/* SPDX-License-Identifier: MIT */
/*
 * BC1-BC5 decoding (format_bc.c) against values derived by hand from the
 * Khronos Data Format Specification's S3TC and RGTC chapters, and BLIT
 * with a compressed src: every dst texel against the decoded block texel
 * the texel-centre mapping selects (nearest) or the average of the four
 * around it (LINEAR, 2:1), block rows addressed through the src pitch,
 * partial edge blocks included. BC6H/BC7 have their own test
 * (test_format_bptc.c); the Vulkan test compares all 16 formats with
 * Mesa's decoders.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "hw/format/format.h"
#include "image_test_util.h"

#define EPS 1e-12

static void
decode(uint32_t format, const uint8_t *blk, uint32_t x, uint32_t y,
       double out[4])
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);
	struct texel t;

	assert_non_null(fi);
	assert_true(fi->caps & SWGPU_FORMAT_CAP_COMPRESSED);
	format_decode_compressed(fi, blk, x, y, &t);
	memcpy(out, t.f, sizeof(t.f));
}

static void
expect(uint32_t format, const uint8_t *blk, uint32_t i, double r, double g,
       double b, double a)
{
	double v[4];

	decode(format, blk, i % 4, i / 4, v);
	assert_float_equal(v[0], r, EPS);
	assert_float_equal(v[1], g, EPS);
	assert_float_equal(v[2], b, EPS);
	assert_float_equal(v[3], a, EPS);
}

/* Colour block: colour0 = red 0xf800 (R 31/31), colour1 = blue 0x001f;
 * indices of texels 0..3 are 0, 1, 2, 3 (byte 4 = 0b11100100), the rest
 * 0. colour0 > colour1: four colours, c2 = (2 c0 + c1) / 3. */
static const uint8_t bc1_four[8] = { 0x00, 0xf8, 0x1f, 0x00,
                                     0xe4, 0x00, 0x00, 0x00 };
/* Endpoints swapped (0x001f <= 0xf800): three colours + black. */
static const uint8_t bc1_three[8] = { 0x1f, 0x00, 0x00, 0xf8,
                                      0xe4, 0x00, 0x00, 0x00 };

static void
test_bc1(void **state)
{
	(void)state;
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, bc1_four, 0, 1, 0, 0, 1);
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, bc1_four, 1, 0, 0, 1, 1);
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, bc1_four, 2, 2.0 / 3, 0, 1.0 / 3,
	       1);
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, bc1_four, 3, 1.0 / 3, 0, 2.0 / 3,
	       1);
	expect(SWGPU_FORMAT_BC1_RGBA_UNORM, bc1_four, 3, 1.0 / 3, 0,
	       2.0 / 3, 1);
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, bc1_four, 15, 1, 0, 0, 1);
	/* Three-colour mode: c2 is the midpoint, c3 black; transparent in
	 * BC1_RGBA only. */
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, bc1_three, 2, 0.5, 0, 0.5, 1);
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, bc1_three, 3, 0, 0, 0, 1);
	expect(SWGPU_FORMAT_BC1_RGBA_UNORM, bc1_three, 3, 0, 0, 0, 0);
	expect(SWGPU_FORMAT_BC1_RGBA_UNORM, bc1_three, 1, 1, 0, 0, 1);
	/* Green has 6 bits: 0x07e0 is G = 63/63; 0x0020 is G = 1/63. */
	const uint8_t g[8] = { 0xe0, 0x07, 0x20, 0x00, 0x04, 0, 0, 0 };
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, g, 0, 0, 1, 0, 1);
	expect(SWGPU_FORMAT_BC1_RGB_UNORM, g, 1, 0, 1.0 / 63, 0, 1);
	/* sRGB: R, G, B linearized after the interpolation. */
	expect(SWGPU_FORMAT_BC1_RGB_SRGB, bc1_four, 2,
	       format_srgb_to_linear(2.0 / 3), 0,
	       format_srgb_to_linear(1.0 / 3), 1);
	expect(SWGPU_FORMAT_BC1_RGBA_SRGB, bc1_three, 3, 0, 0, 0, 0);
}

static void
test_bc2_bc3(void **state)
{
	uint8_t b2[16], b3[16];

	(void)state;
	/* BC2: explicit 4-bit alpha, texel i in bits 4i..4i+3; the colour
	 * block always has four colours, even with colour0 <= colour1. */
	memset(b2, 0, 8);
	b2[0] = 0xf0;           /* texel 0: 0, texel 1: 15 */
	b2[1] = 0x07;           /* texel 2: 7 */
	memcpy(b2 + 8, bc1_three, 8);
	expect(SWGPU_FORMAT_BC2_UNORM, b2, 0, 0, 0, 1, 0);
	expect(SWGPU_FORMAT_BC2_UNORM, b2, 1, 1, 0, 0, 1);
	expect(SWGPU_FORMAT_BC2_UNORM, b2, 2, 1.0 / 3, 0, 2.0 / 3, 7.0 / 15);
	expect(SWGPU_FORMAT_BC2_UNORM, b2, 3, 2.0 / 3, 0, 1.0 / 3, 0);
	expect(SWGPU_FORMAT_BC2_SRGB, b2, 2, format_srgb_to_linear(1.0 / 3),
	       0, format_srgb_to_linear(2.0 / 3), 7.0 / 15);

	/* BC3: alpha endpoints 255 and 0 (a0 > a1: six interpolated
	 * values, a_k = ((8 - k) a0 + (k - 1) a1) / 7 for k = 2..7);
	 * texel indices 0..7 for texels 0..7 in 3-bit fields from bit 16:
	 * 0b111 110 101 100 011 010 001 000 -> bytes 0x88 0xc6 0xfa. */
	const uint8_t a6[8] = { 255, 0, 0x88, 0xc6, 0xfa, 0, 0, 0 };
	memcpy(b3, a6, 8);
	memcpy(b3 + 8, bc1_four, 8);
	expect(SWGPU_FORMAT_BC3_UNORM, b3, 0, 1, 0, 0, 1);
	expect(SWGPU_FORMAT_BC3_UNORM, b3, 1, 0, 0, 1, 0);
	for (uint32_t k = 2; k < 8; k++) {
		double v[4];

		decode(SWGPU_FORMAT_BC3_UNORM, b3, k % 4, k / 4, v);
		assert_float_equal(v[3], (8.0 - k) / 7.0, EPS);
	}
	expect(SWGPU_FORMAT_BC3_SRGB, b3, 0, 1, 0, 0, 1);
}

static void
test_bc4_bc5(void **state)
{
	double v[4];

	(void)state;
	/* a0 = 51 <= a1 = 204: four interpolated values, then 0 and 1. */
	const uint8_t f4[8] = { 51, 204, 0x88, 0xc6, 0xfa, 0, 0, 0 };
	const double e0 = 51 / 255.0, e1 = 204 / 255.0;
	const double want4[8] = { e0, e1, (4 * e0 + e1) / 5,
	                          (3 * e0 + 2 * e1) / 5,
	                          (2 * e0 + 3 * e1) / 5, (e0 + 4 * e1) / 5,
	                          0, 1 };
	for (uint32_t k = 0; k < 8; k++)
		expect(SWGPU_FORMAT_BC4_UNORM, f4, k, want4[k], 0, 0, 1);
	/* Texels 8..15 have index 0. */
	expect(SWGPU_FORMAT_BC4_UNORM, f4, 12, e0, 0, 0, 1);

	/* SNORM: r0 = 127 (1.0) > r1 = -127 (-1.0): six values. */
	const uint8_t s6[8] = { 127, 0x81, 0x88, 0xc6, 0xfa, 0, 0, 0 };
	expect(SWGPU_FORMAT_BC4_SNORM, s6, 2, 5.0 / 7, 0, 0, 1);
	expect(SWGPU_FORMAT_BC4_SNORM, s6, 7, -5.0 / 7, 0, 0, 1);
	/* r0 = -128 reads as -1.0; -128 <= 127: four values, 6 -> -1, 7 ->
	 * +1. */
	const uint8_t s4[8] = { 0x80, 127, 0x88, 0xc6, 0xfa, 0, 0, 0 };
	expect(SWGPU_FORMAT_BC4_SNORM, s4, 0, -1, 0, 0, 1);
	expect(SWGPU_FORMAT_BC4_SNORM, s4, 2, -3.0 / 5, 0, 0, 1);
	expect(SWGPU_FORMAT_BC4_SNORM, s4, 6, -1, 0, 0, 1);
	expect(SWGPU_FORMAT_BC4_SNORM, s4, 7, 1, 0, 0, 1);

	/* BC5: R from the first 8 bytes, G from the second. */
	uint8_t b5[16];
	memcpy(b5, f4, 8);
	memcpy(b5 + 8, s6, 8);
	decode(SWGPU_FORMAT_BC5_UNORM, b5, 2, 0, v);
	assert_float_equal(v[0], want4[2], EPS);
	/* Unsigned G endpoints 127 <= 129 (0x81): four values, index 2. */
	assert_float_equal(v[1], (4 * 127 / 255.0 + 129 / 255.0) / 5, EPS);
	assert_float_equal(v[2], 0, EPS);
	assert_float_equal(v[3], 1, EPS);
	decode(SWGPU_FORMAT_BC5_SNORM, b5, 2, 0, v);
	assert_float_equal(v[1], 5.0 / 7, EPS);
}

/* BLIT from an 11x7 BC1 image (3x2 blocks, the last ones partial) with a
 * padded block-row pitch into R32G32B32A32_SFLOAT. */
static void
test_blit_from_bc(void **state)
{
	struct fixture *f = *state;
	const uint32_t w = 11, h = 7, bx = 3, by = 2, rp = bx * 8 + 24;
	struct gbuf s = gbuf_new(f, rp * by, SWGPU_VA_READ);
	struct gbuf d = gbuf_new(f, (uint64_t)w * h * 16, RW);
	const struct swgpu_blit_surface ss = {
		.va = s.va, .row_pitch = rp, .slice_pitch = rp * by,
		.format = SWGPU_FORMAT_BC1_RGBA_UNORM,
		.width = w, .height = h, .depth = 1,
	};
	struct swgpu_blit_surface ds = {
		.va = d.va, .row_pitch = w * 16, .slice_pitch = w * h * 16,
		.format = SWGPU_FORMAT_R32G32B32A32_SFLOAT,
		.width = w, .height = h, .depth = 1,
	};
	const int32_t box[6] = { 0, 0, 0, (int32_t)w, (int32_t)h, 1 };

	fill_random(s.cpu, s.size);
	f->n += swgpu_emit_blit(emit(f), &ss, &ds, box, box, 0);
	assert_true(run(f));
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			double want[4];
			float got[4];

			decode(ss.format, s.cpu + (y / 4) * rp + (x / 4) * 8,
			       x, y, want);
			memcpy(got, d.cpu + ((uint64_t)y * w + x) * 16, 16);
			for (int c = 0; c < 4; c++)
				assert_float_equal(got[c], (float)want[c], 0);
		}

	/* LINEAR 2:1 down: dst texel (x, y) is the average of src texels
	 * 2x..2x+1, 2y..2y+1 (the src coordinate is their shared corner). */
	const int32_t half[6] = { 0, 0, 0, 5, 3, 1 };
	const int32_t sbox[6] = { 0, 0, 0, 10, 6, 1 };
	memset(d.cpu, PAD, d.size);
	ds.width = 5;
	ds.height = 3;
	ds.row_pitch = 5 * 16;
	f->n += swgpu_emit_blit(emit(f), &ss, &ds, sbox, half,
	                        SWGPU_BLIT_LINEAR);
	assert_true(run(f));
	for (uint32_t y = 0; y < 3; y++)
		for (uint32_t x = 0; x < 5; x++) {
			double want[4] = { 0, 0, 0, 0 };
			float got[4];

			for (uint32_t k = 0; k < 4; k++) {
				uint32_t sx = 2 * x + (k & 1);
				uint32_t sy = 2 * y + (k >> 1);
				double t[4];

				decode(ss.format, s.cpu + (sy / 4) * rp +
				       (sx / 4) * 8, sx, sy, t);
				for (int c = 0; c < 4; c++)
					want[c] += t[c] / 4;
			}
			memcpy(got, d.cpu + ((uint64_t)y * 5 + x) * 16, 16);
			for (int c = 0; c < 4; c++)
				assert_float_equal(got[c], want[c], 1e-6);
		}
	assert_true(all_bytes(d.cpu + 5 * 3 * 16, d.size - 5 * 3 * 16, PAD));
}

/* A compressed dst, and a src pitch too small for its block rows, are
 * bad packets. */
static void
test_blit_bc_faults(void **state)
{
	struct fixture *f = *state;
	struct gbuf s = gbuf_new(f, 4096, SWGPU_VA_READ);
	struct gbuf d = gbuf_new(f, 4096, RW);
	struct swgpu_blit_surface ss = {
		.va = s.va, .row_pitch = 32, .slice_pitch = 128,
		.format = SWGPU_FORMAT_BC7_UNORM,
		.width = 8, .height = 8, .depth = 1,
	};
	struct swgpu_blit_surface ds = {
		.va = d.va, .row_pitch = 128, .slice_pitch = 1024,
		.format = SWGPU_FORMAT_R32G32B32A32_SFLOAT,
		.width = 8, .height = 8, .depth = 1,
	};
	const int32_t box[6] = { 0, 0, 0, 8, 8, 1 };

	/* The valid blit first: the faults below are the changes. */
	f->n += swgpu_emit_blit(emit(f), &ss, &ds, box, box, 0);
	assert_true(run(f));
	struct swgpu_blit_surface bad = ds;
	bad.format = SWGPU_FORMAT_BC7_UNORM;
	bad.row_pitch = 32;
	f->n += swgpu_emit_blit(emit(f), &ss, &bad, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	bad = ss;
	bad.row_pitch = 31;     /* two 16-byte blocks a row */
	f->n += swgpu_emit_blit(emit(f), &bad, &ds, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	/* Block rows past the mapping: 8 rows of blocks need 256 bytes
	 * of pitch 32... at the very end of s. */
	bad = ss;
	bad.va = s.va + s.size - 32;
	f->n += swgpu_emit_blit(emit(f), &bad, &ds, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, SWGPU_OP_BLIT);
	assert_false(swgpu_format_blittable(SWGPU_FORMAT_BC1_RGB_UNORM));
	assert_true(swgpu_format_blit_source(SWGPU_FORMAT_BC1_RGB_UNORM));
	assert_false(swgpu_format_clearable(SWGPU_FORMAT_BC7_SRGB));
	assert_true(swgpu_format_shader_sampled(SWGPU_FORMAT_BC6H_SFLOAT));
	assert_false(swgpu_format_shader_storage(SWGPU_FORMAT_BC5_UNORM));
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, img_setup, img_teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bc1),
		cmocka_unit_test(test_bc2_bc3),
		cmocka_unit_test(test_bc4_bc5),
		T(test_blit_from_bc),
		T(test_blit_bc_faults),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
