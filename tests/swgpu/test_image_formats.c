/* SPDX-License-Identifier: MIT */
/*
 * Texel format table and codecs (format.c): decode -> encode round trips
 * for every format (exhaustive for 8- and 16-bit blocks, sampled for the
 * rest), and the spec's conversion rules at known values.
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

#include "hw/format/format.h"
#include "image_test_util.h"

/* Bits of a block no channel covers (X8_D24's X8). */
static void
mask_unused(const swgpu_format_info *fi, uint8_t *blk)
{
	uint8_t used[FORMAT_MAX_BLOCK_BYTES * 8] = { 0 };

	for (int c = 0; c < 4; c++)
		for (uint32_t b = 0; b < fi->bit_width[c]; b++)
			used[fi->bit_offset[c] + b] = 1;
	for (uint32_t b = 0; b < fi->block_bytes * 8; b++)
		if (!used[b])
			blk[b / 8] &= (uint8_t)~(1u << (b % 8));
}

/* Raw channel bits, for the cases where a round trip may legally change
 * the encoding. */
static uint64_t
chan_bits(const swgpu_format_info *fi, const uint8_t *blk, int c)
{
	uint64_t v = 0;

	for (uint32_t b = 0; b < fi->bit_width[c]; b++) {
		uint32_t o = fi->bit_offset[c] + b;
		v |= (uint64_t)((blk[o / 8] >> (o % 8)) & 1) << b;
	}
	return v;
}

/* May channel value raw legally re-encode differently? SNORM's most
 * negative value decodes to -1.0 like its neighbour; float NaNs may lose
 * their payload. */
static bool
lossy_value(const swgpu_format_info *fi, int c, uint64_t raw)
{
	uint32_t w = fi->bit_width[c];

	switch (fi->numeric) {
	case SWGPU_NUMERIC_SNORM:
		return raw == 1ull << (w - 1);
	case SWGPU_NUMERIC_SFLOAT:
		if (w == 16)
			return (raw & 0x7c00) == 0x7c00 && (raw & 0x3ff);
		if (w == 32)
			return (raw & 0x7f800000) == 0x7f800000 &&
			       (raw & 0x7fffff);
		return (raw & 0x7ff0000000000000ull) ==
		       0x7ff0000000000000ull && (raw & 0xfffffffffffffull);
	case SWGPU_NUMERIC_UFLOAT: {
		uint32_t mb = w - 5;
		return ((raw >> mb) & 0x1f) == 0x1f && (raw & ((1u << mb) - 1));
	}
	default:
		return false;
	}
}

static void
round_trip(const swgpu_format_info *fi, const uint8_t *blk)
{
	uint8_t in[FORMAT_MAX_BLOCK_BYTES], out[FORMAT_MAX_BLOCK_BYTES + 1];
	struct texel t, t2;

	memcpy(in, blk, fi->block_bytes);
	mask_unused(fi, in);
	out[fi->block_bytes] = 0x5a;    /* canary: no write past the block */
	format_decode(fi, in, &t);
	format_encode(fi, &t, out);
	assert_int_equal(out[fi->block_bytes], 0x5a);

	if (fi->numeric == SWGPU_NUMERIC_SHAREDEXP) {
		/* Many encodings share a value: compare values. */
		format_decode(fi, out, &t2);
		for (int c = 0; c < 3; c++)
			assert_true(t.f[c] == t2.f[c]);
		return;
	}
	for (int c = 0; c < 4; c++) {
		if (!fi->bit_width[c])
			continue;
		uint64_t a = chan_bits(fi, in, c), b = chan_bits(fi, out, c);
		if (a == b)
			continue;
		if (!lossy_value(fi, c, a))
			fail_msg("%s channel %d: 0x%llx -> 0x%llx", fi->name,
			         c, (unsigned long long)a,
			         (unsigned long long)b);
		/* Still the same value class: NaN stays NaN, -max -> -1. */
		format_decode(fi, out, &t2);
		if (fi->numeric == SWGPU_NUMERIC_SNORM)
			assert_true(t2.f[c] == -1.0);
		else
			assert_true(isnan(t2.f[c]));
	}
}

static void
test_round_trips(void **state)
{
	int formats = 0, compressed = 0;

	for (uint32_t id = 0; id < SWGPU_FORMAT_COUNT; id++) {
		const swgpu_format_info *fi = swgpu_format_get_info(id);
		uint8_t blk[FORMAT_MAX_BLOCK_BYTES];

		if (!fi)
			continue;
		assert_int_equal(format_id(fi), id);
		/* Decoded only (test_format_bc, test_format_bptc): a BLIT
		 * source and sampled, nothing more. */
		if (fi->caps & SWGPU_FORMAT_CAP_COMPRESSED) {
			compressed++;
			assert_false(fi->caps & (SWGPU_FORMAT_CAP_ENCODE |
			                         SWGPU_FORMAT_CAP_BLIT));
			assert_true(swgpu_format_blit_source(id));
			assert_true(swgpu_format_shader_sampled(id));
			assert_false(swgpu_format_clearable(id));
			assert_int_equal(fi->block_width * fi->block_height, 16);
			continue;
		}
		formats++;
		assert_true(swgpu_format_blit_source(id));
		assert_true(fi->block_bytes >= 1 &&
		            fi->block_bytes <= FORMAT_MAX_BLOCK_BYTES);
		assert_true(swgpu_format_blittable(id));
		assert_true(swgpu_format_clearable(id));
		assert_int_equal(swgpu_format_blit_class(id), fi->blit_class);
		assert_int_equal(!!(fi->caps & SWGPU_FORMAT_CAP_FILTER_LINEAR),
		                 fi->blit_class == SWGPU_BLIT_CLASS_FLOAT);
		if (fi->block_bytes <= 2) {
			for (uint32_t v = 0; v < (1u << (8 * fi->block_bytes));
			     v++) {
				blk[0] = (uint8_t)v;
				blk[1] = (uint8_t)(v >> 8);
				round_trip(fi, blk);
			}
			continue;
		}
		for (int i = 0; i < 20000; i++) {
			fill_random(blk, sizeof(blk));
			round_trip(fi, blk);
		}
	}
	assert_int_equal(formats, 124);
	assert_int_equal(compressed, 16);
	assert_null(swgpu_format_get_info(0));
	assert_null(swgpu_format_get_info(10));
	assert_null(swgpu_format_get_info(SWGPU_FORMAT_COUNT));
	assert_false(swgpu_format_blittable(0xffffffffu));
	assert_int_equal(swgpu_format_blit_class(12345),
	                 SWGPU_BLIT_CLASS_NONE);
}

/* The specialised codecs the blit picks compute exactly what the
 * generic ones do (bit-identical doubles and bytes). */
static void
test_fast_codecs(void **state)
{
	int fast = 0;

	for (uint32_t id = 0; id < SWGPU_FORMAT_COUNT; id++) {
		const swgpu_format_info *fi = swgpu_format_get_info(id);

		if (!fi || (fi->caps & SWGPU_FORMAT_CAP_COMPRESSED))
			continue;
		format_decode_fn dec = format_decoder(fi);
		format_encode_fn enc = format_encoder(fi);
		fast += (dec != format_decode) + (enc != format_encode);
		for (int i = 0; i < 4096; i++) {
			uint8_t blk[FORMAT_MAX_BLOCK_BYTES];
			uint8_t a[FORMAT_MAX_BLOCK_BYTES];
			uint8_t b[FORMAT_MAX_BLOCK_BYTES];
			struct texel t1, t2;

			fill_random(blk, sizeof(blk));
			format_decode(fi, blk, &t1);
			dec(fi, blk, &t2);
			assert_memory_equal(&t1, &t2, sizeof(t1));
			/* Encode arbitrary values, out of range and NaN too. */
			for (int c = 0; c < 4; c++)
				t1.f[c] = i % 7 == 0 ? NAN :
				          ((double)(rnd() % 20000) - 5000.0) /
				          (i % 2 ? 10000.0 : 3.0);
			memset(a, 0xee, sizeof(a));
			memset(b, 0xee, sizeof(b));
			format_encode(fi, &t1, a);
			enc(fi, &t1, b);
			assert_memory_equal(a, b, sizeof(a));
		}
	}
	assert_true(fast >= 20);
}

/* Every channel layout stays inside its block and channels of one
 * format do not overlap. */
static void
test_layouts(void **state)
{
	for (uint32_t id = 0; id < SWGPU_FORMAT_COUNT; id++) {
		const swgpu_format_info *fi = swgpu_format_get_info(id);
		uint8_t used[FORMAT_MAX_BLOCK_BYTES * 8] = { 0 };

		if (!fi)
			continue;
		for (int c = 0; c < 4; c++)
			for (uint32_t b = 0; b < fi->bit_width[c]; b++) {
				uint32_t o = fi->bit_offset[c] + b;
				assert_true(o < fi->block_bytes * 8);
				assert_int_equal(used[o], 0);
				used[o] = 1;
			}
	}
}

static void
test_half(void **state)
{
	/* Exhaustive half -> double -> half. */
	for (uint32_t h = 0; h < 65536; h++) {
		double d = format_half_to_double((uint16_t)h);
		uint16_t back = format_double_to_half(d);

		if (isnan(d))
			assert_true((back & 0x7c00) == 0x7c00 && (back & 0x3ff));
		else
			assert_int_equal(back, h);
	}
	static const struct {
		double v;
		uint16_t h;
	} k[] = {
		{ 1.0, 0x3c00 }, { -2.0, 0xc000 }, { 65504.0, 0x7bff },
		{ 65519.99, 0x7bff }, { 65520.0, 0x7c00 }, { 1e9, 0x7c00 },
		{ 0x1p-24, 0x0001 }, { 0x1p-25, 0x0000 },
		{ 0x1.8p-24, 0x0002 }, { 0x1.1p-25, 0x0001 },
		{ 0x1.ffcp-15, 0x0400 }, { 0x1.ff8p-15, 0x03ff }, { 1.0 + 0x1p-11, 0x3c00 },
		{ 1.0 + 0x3p-11, 0x3c02 }, { -0.0, 0x8000 },
		{ -INFINITY, 0xfc00 }, { 0.333333333, 0x3555 },
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (format_double_to_half(k[i].v) != k[i].h)
			fail_msg("half(%a) = 0x%04x, want 0x%04x", k[i].v,
			         format_double_to_half(k[i].v), k[i].h);
	assert_true(isnan(format_half_to_double(format_double_to_half(NAN))));
}

static void
encode1(uint32_t fmt, double r, double g, double b, double a, uint8_t *out)
{
	struct texel t = { .f = { r, g, b, a } };

	format_encode(swgpu_format_get_info(fmt), &t, out);
}

static void
test_conversions(void **state)
{
	uint8_t o[16];

	/* UNORM: clamp, round half to even, NaN -> 0. */
	encode1(SWGPU_FORMAT_R8G8B8A8_UNORM, 0.5, -1.0, 2.0, NAN, o);
	assert_int_equal(o[0], 128);
	assert_int_equal(o[1], 0);
	assert_int_equal(o[2], 255);
	assert_int_equal(o[3], 0);
	encode1(SWGPU_FORMAT_R8G8B8A8_UNORM, 1.5 / 255, 2.5 / 255,
	        0.49 / 255, 254.5 / 255, o);
	assert_int_equal(o[0], 2);
	assert_int_equal(o[1], 2);
	assert_int_equal(o[2], 0);
	assert_int_equal(o[3], 254);
	/* SNORM: -128 decodes to -1.0; encode clamps to [-127, 127]. */
	encode1(SWGPU_FORMAT_R8G8B8A8_SNORM, 0.5, -0.5, -2.0, 1.0, o);
	assert_int_equal((int8_t)o[0], 64);
	assert_int_equal((int8_t)o[1], -64);
	assert_int_equal((int8_t)o[2], -127);
	assert_int_equal((int8_t)o[3], 127);
	/* sRGB: the spec's transfer functions. */
	encode1(SWGPU_FORMAT_R8G8B8A8_SRGB, 0.5, 0.0031308 / 2, 1.0, 0.5, o);
	assert_int_equal(o[0], 188);
	assert_int_equal(o[1], 5);      /* 12.92 * l * 255 = 5.16 */
	assert_int_equal(o[2], 255);
	assert_int_equal(o[3], 128);
	assert_true(fabs(format_srgb_to_linear(188 / 255.0) - 0.5029) < 1e-4);
	for (int v = 0; v < 256; v++) {
		double l = format_srgb_to_linear(v / 255.0);
		assert_int_equal((int)rint(format_linear_to_srgb(l) * 255), v);
	}
	/* 11/10-bit unsigned floats: negative -> 0, Inf kept, rounding. */
	encode1(SWGPU_FORMAT_B10G11R11_UFLOAT_PACK32, -1.0, INFINITY,
	        64600.0, 0, o);
	uint32_t w;
	memcpy(&w, o, 4);
	assert_int_equal(w & 0x7ff, 0);
	assert_int_equal((w >> 11) & 0x7ff, 0x7c0);
	assert_int_equal(w >> 22, 0x3df);       /* 10-bit max finite */
	/* Scaled: round to nearest even, clamped. */
	encode1(SWGPU_FORMAT_R8G8B8A8_USCALED, 2.5, 3.5, 300.0, -4.0, o);
	assert_int_equal(o[0], 2);
	assert_int_equal(o[1], 4);
	assert_int_equal(o[2], 255);
	assert_int_equal(o[3], 0);
	/* Shared exponent: the spec's example-free corners. */
	encode1(SWGPU_FORMAT_E5B9G9R9_UFLOAT_PACK32, 0.0, 0.0, 0.0, 0, o);
	memcpy(&w, o, 4);
	assert_int_equal(w, 0);
	encode1(SWGPU_FORMAT_E5B9G9R9_UFLOAT_PACK32, 65408.0, 1e9, -1.0, 0,
	        o);
	memcpy(&w, o, 4);
	assert_int_equal(w, 31u << 27 | 511u | 511u << 9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_fast_codecs),
		cmocka_unit_test(test_half),
		cmocka_unit_test(test_conversions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
