/* SPDX-License-Identifier: MIT */
/*
 * BPTC decoding (format_bptc.c) against values derived by hand from the
 * Khronos Data Format Specification 1.3, "BPTC Compressed Texture Image
 * Formats". Each block is built field by field at the bit positions the
 * spec's layout tables give (table-bptcmodebits for BC7,
 * table-bptcbc6hbits for BC6H; block bit n is bit n % 8 of byte n / 8),
 * and each expectation is worked out in the comment next to it:
 *
 *   BC7 endpoint  = stored bits, P-bit below, top bits replicated to 8
 *   interpolation = ((64 - w) * e0 + w * e1 + 32) >> 6   (>> rounds down)
 *   weights       = 2-bit {0 21 43 64}, 3-bit {0 9 18 27 37 46 55 64},
 *                   4-bit {0 4 9 13 17 21 26 30 34 38 43 47 51 55 60 64}
 *   BC6H unquantize (EPB bits): UFLOAT 0 -> 0, max -> 0xffff, else
 *                   ((x << 15) + 0x4000) >> (EPB - 1); SFLOAT |x| >=
 *                   2^(EPB-1) - 1 -> +-0x7fff; EPB 16 (15 UFLOAT) as is
 *   BC6H finish   = UFLOAT v * 31 >> 6; SFLOAT |v| * 31 >> 5 | sign << 15
 *
 * Then random blocks of every mode: each texel decodes the same twice, the
 * results stay in the formats' ranges, and the block sits at the very end
 * of its allocation so that ASan flags any read past the 16 bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/format/format_bptc.h"

/* Sets n bits of the block from bit pos up to v's bits, LSB first. */
static void
put(uint8_t blk[16], unsigned pos, unsigned n, uint32_t v)
{
	for (unsigned k = 0; k < n; k++) {
		const unsigned bit = pos + k;

		assert_true(bit < 128);
		blk[bit / 8] &= (uint8_t)~(1u << bit % 8);
		blk[bit / 8] |= (uint8_t)((v >> k & 1) << bit % 8);
	}
}

static void
expect7(const uint8_t blk[16], unsigned t, unsigned r, unsigned g,
        unsigned b, unsigned a)
{
	uint8_t o[4];

	bptc_decode_bc7(blk, t % 4, t / 4, o);
	assert_int_equal(o[0], r);
	assert_int_equal(o[1], g);
	assert_int_equal(o[2], b);
	assert_int_equal(o[3], a);
}

static void
expect6(const uint8_t blk[16], bool is_signed, unsigned t, unsigned r,
        unsigned g, unsigned b)
{
	uint16_t o[3];

	bptc_decode_bc6h(blk, is_signed, t % 4, t / 4, o);
	assert_int_equal(o[0], r);
	assert_int_equal(o[1], g);
	assert_int_equal(o[2], b);
}

/* ------------------------------------------------------------------ */
/* BC7                                                                 */
/* ------------------------------------------------------------------ */

/* Mode 6: one subset, RGBA 7 bits + per-endpoint P-bit, 4-bit indices.
 * Bits: 6 mode, R0 7..13, R1 14..20, G0 21..27, G1 28..34, B0 35..41,
 * B1 42..48, A0 49..55, A1 56..62, P0 63, P1 64, indices from 65 (texel
 * 0: 3 bits, texel i > 0 at 65 + 4i - 1).
 *   E0 = (10, 20, 30, 127), P0 = 1 -> (21, 41, 61, 255)
 *   E1 = (120, 100, 0, 64), P1 = 0 -> (240, 200, 0, 128)
 * Indices: texel 0 = 0, 1 = 15, 5 = 7, 15 = 1. */
static void
make_mode6(uint8_t blk[16])
{
	memset(blk, 0, 16);
	put(blk, 0, 7, 0x40);
	put(blk, 7, 7, 10);
	put(blk, 14, 7, 120);
	put(blk, 21, 7, 20);
	put(blk, 28, 7, 100);
	put(blk, 35, 7, 30);
	put(blk, 42, 7, 0);
	put(blk, 49, 7, 127);
	put(blk, 56, 7, 64);
	put(blk, 63, 1, 1);
	put(blk, 64, 1, 0);
	put(blk, 65, 3, 0);
	put(blk, 68, 4, 15);
	put(blk, 65 + 4 * 5 - 1, 4, 7);
	put(blk, 65 + 4 * 15 - 1, 4, 1);
}

static void
test_bc7_mode6(void **state)
{
	/* The same block as bytes: pins put() to the spec's bit order. */
	static const uint8_t bytes[16] = {
		0x40, 0x05, 0x9e, 0x42, 0xf6, 0x00, 0xfe, 0xc0,
		0xf0, 0x00, 0x70, 0x00, 0x00, 0x00, 0x00, 0x10,
	};
	uint8_t blk[16];

	(void)state;
	make_mode6(blk);
	assert_memory_equal(blk, bytes, 16);
	expect7(bytes, 0, 21, 41, 61, 255);             /* w 0: E0 */
	expect7(bytes, 1, 240, 200, 0, 128);            /* w 64: E1 */
	/* w 30: R (34*21 + 30*240 + 32) >> 6 = 7946 >> 6 = 124,
	 * G 7426 >> 6 = 116, B 2106 >> 6 = 32, A 12542 >> 6 = 195. */
	expect7(bytes, 5, 124, 116, 32, 195);
	/* w 4: R (60*21 + 4*240 + 32) >> 6 = 2252 >> 6 = 35, G 51, B 57,
	 * A (60*255 + 4*128 + 32) >> 6 = 15844 >> 6 = 247. */
	expect7(bytes, 15, 35, 51, 57, 247);
	expect7(bytes, 2, 21, 41, 61, 255);             /* index 0 */
}

/* Mode 1: two subsets, partition 35, RGB 6 bits + shared P-bit per
 * subset, 3-bit indices. Partition 35 is rows 0011 / 0011 / 1100 / 1100
 * and its subset-1 anchor is texel 8 (bptcA2index; texel 2 is subset 1
 * too, so reading the anchor wrong shifts texels 2..8).
 * Bits: 0..1 mode (bit 1), 2..7 partition, R of E0..E3 at 8, 14, 20,
 * 26, G at 32.., B at 56.. (6 bits each), SPB0 80, SPB1 81, indices from
 * 82: texel 0 2 bits; 0 < i <= 8 at 82 + 3i - 1 (texel 8: 2 bits); i > 8
 * at 82 + 3i - 2.
 *   subset 0: E0 (8, 16, 32), E1 (40, 48, 56), P 1:
 *     7 bits 2v+1 -> 8 bits: E0 (34, 66, 131), E1 (163, 195, 227)
 *   subset 1: E2 (63, 0, 20), E3 (0, 63, 44), P 0:
 *     E2 (253, 0, 80), E3 (0, 253, 177) */
static void
test_bc7_mode1_two_subsets(void **state)
{
	static const uint8_t e[3][4] = {        /* channel, endpoint */
		{ 8, 40, 63, 0 }, { 16, 48, 0, 63 }, { 32, 56, 20, 44 },
	};
	uint8_t blk[16] = { 0 };

	(void)state;
	put(blk, 0, 2, 2);
	put(blk, 2, 6, 35);
	for (unsigned c = 0; c < 3; c++)
		for (unsigned n = 0; n < 4; n++)
			put(blk, 8 + 24 * c + 6 * n, 6, e[c][n]);
	put(blk, 80, 1, 1);
	put(blk, 81, 1, 0);
	put(blk, 82, 2, 2);                     /* texel 0 */
	put(blk, 82 + 3 * 2 - 1, 3, 5);         /* texel 2 */
	put(blk, 82 + 3 * 4 - 1, 3, 4);         /* texel 4 */
	put(blk, 82 + 3 * 8 - 1, 2, 3);         /* texel 8: anchor */
	put(blk, 82 + 3 * 9 - 2, 3, 1);         /* texel 9 */
	put(blk, 82 + 3 * 15 - 2, 3, 7);        /* texel 15 */

	/* Texel 0, subset 0, w 18: R (46*34 + 18*163 + 32) >> 6 = 4530 >> 6
	 * = 70, G 6578 >> 6 = 102, B 10144 >> 6 = 158. */
	expect7(blk, 0, 70, 102, 158, 255);
	/* Texel 2, subset 1, w 46: R (18*253 + 32) >> 6 = 71, G (46*253 +
	 * 32) >> 6 = 182, B (18*80 + 46*177 + 32) >> 6 = 9614 >> 6 = 150. */
	expect7(blk, 2, 71, 182, 150, 255);
	/* Texel 8, anchor, index 3 from 2 bits, w 27: R (37*253 + 32) >> 6
	 * = 146,
	 * G (27*253 + 32) >> 6 = 107, B (37*80 + 27*177 + 32) >> 6 = 121.
	 * (Were the anchor texel 2, both texels would read other bits.) */
	expect7(blk, 8, 146, 107, 121, 255);
	/* Texel 9, subset 1, w 9: R 217, G 36, B 94. */
	expect7(blk, 9, 217, 36, 94, 255);
	/* Texel 4, subset 0, w 37: R (27*34 + 37*163 + 32) >> 6 = 109, G
	 * 141, B 187. Texel 15, subset 0, w 64: E1. */
	expect7(blk, 4, 109, 141, 187, 255);
	expect7(blk, 15, 163, 195, 227, 255);
	/* Texel 3, subset 1, index 0 (its bits are 0): E2. */
	expect7(blk, 3, 253, 0, 80, 255);
}

/* Mode 2: three subsets, partition 6, RGB 5 bits, 2-bit indices: the
 * spec's own worked example. Partition 6 is rows 0022 / 0022 / 1111 /
 * 1111, anchors texel 15 (subset 1) and 3 (subset 2); texel 9 = (1, 2)
 * is subset 1 with its index at bits 115..116.
 * Bits: 0..2 mode (bit 2), 3..8 partition, R of E0..E5 at 9, 14, .. 34,
 * G at 39.., B at 69.. (5 bits each), indices from 99: texel 0 1 bit,
 * texels 1..3 at 99 + 2i - 1 (texel 3: 1 bit), 3 < i at 99 + 2i - 2
 * (texel 15: 1 bit, bit 127).
 * 5 bits -> 8: v << 3 | v >> 2.
 *   E0 (31, 0, 0) -> (255, 0, 0)      E1 (0, 31, 0) -> (0, 255, 0)
 *   E2 (0, 0, 31) -> (0, 0, 255)      E3 (31, 31, 31) -> 255s
 *   E4 (10, 20, 30) -> (82, 165, 247) E5 (20, 10, 5) -> (165, 82, 41) */
static void
test_bc7_mode2_three_subsets(void **state)
{
	static const uint8_t e[3][6] = {
		{ 31, 0, 0, 31, 10, 20 },
		{ 0, 31, 0, 31, 20, 10 },
		{ 0, 0, 31, 31, 30, 5 },
	};
	uint8_t blk[16] = { 0 };

	(void)state;
	put(blk, 0, 3, 4);
	put(blk, 3, 6, 6);
	for (unsigned c = 0; c < 3; c++)
		for (unsigned n = 0; n < 6; n++)
			put(blk, 9 + 30 * c + 5 * n, 5, e[c][n]);
	put(blk, 99, 1, 1);                     /* texel 0 */
	put(blk, 99 + 2 * 2 - 1, 2, 3);         /* texel 2 */
	put(blk, 99 + 2 * 3 - 1, 1, 1);         /* texel 3: anchor */
	put(blk, 115, 2, 2);                    /* texel 9 */
	put(blk, 127, 1, 1);                    /* texel 15: anchor */

	/* Texel 0, subset 0, w 21: R (43*255 + 32) >> 6 = 171, G 84. */
	expect7(blk, 0, 171, 84, 0, 255);
	/* Texel 2, subset 2, w 64: E5. */
	expect7(blk, 2, 165, 82, 41, 255);
	/* Texel 3, subset 2, w 21: R (43*82 + 21*165 + 32) >> 6 = 109,
	 * G (43*165 + 21*82 + 32) >> 6 = 138, B 179. */
	expect7(blk, 3, 109, 138, 179, 255);
	/* Texel 9, subset 1, w 43: R, G (43*255 + 32) >> 6 = 171, B 255. */
	expect7(blk, 9, 171, 171, 255, 255);
	/* Texel 15, subset 1, w 21: 84, 84, 255. */
	expect7(blk, 15, 84, 84, 255, 255);
	/* Texel 4 = (0, 1), subset 0, index 0: E0. */
	expect7(blk, 4, 255, 0, 0, 255);
}

/* Mode 4: one subset, RGB 5 bits, A 6 bits, a 2-bit and a 3-bit index
 * per texel, rotation and index selection.
 * Bits: 0..4 mode (bit 4), 5..6 rotation, 7 ISB, R0 8, R1 13, G0 18,
 * G1 23, B0 28, B1 33 (5 bits), A0 38, A1 44 (6 bits), 2-bit indices from
 * 50 (texel 0: 1 bit; i > 0 at 50 + 2i - 1), 3-bit from 81 (texel 0: 2
 * bits; i > 0 at 81 + 3i - 1).
 *   E0 (31, 0, 16, 0) -> (255, 0, 132, 0)
 *   E1 (0, 31, 8, 63) -> (0, 255, 66, 255)
 * Texel 0: 2-bit index 1 (w 21), 3-bit index 3 (w 27); texel 5: 2-bit
 * index 2 (w 43), 3-bit index 3 (w 27). */
static void
make_mode4(uint8_t blk[16], unsigned rotation, unsigned isb)
{
	memset(blk, 0, 16);
	put(blk, 0, 5, 0x10);
	put(blk, 5, 2, rotation);
	put(blk, 7, 1, isb);
	put(blk, 8, 5, 31);
	put(blk, 13, 5, 0);
	put(blk, 18, 5, 0);
	put(blk, 23, 5, 31);
	put(blk, 28, 5, 16);
	put(blk, 33, 5, 8);
	put(blk, 38, 6, 0);
	put(blk, 44, 6, 63);
	put(blk, 50, 1, 1);
	put(blk, 50 + 2 * 5 - 1, 2, 2);
	put(blk, 81, 2, 3);
	put(blk, 81 + 3 * 5 - 1, 3, 3);
}

static void
test_bc7_mode4_rotation_isb(void **state)
{
	uint8_t blk[16];

	(void)state;
	/* ISB 1: colour from the 3-bit index, alpha from the 2-bit one.
	 * Texel 5: RGB with w 27: R (37*255 + 32) >> 6 = 147, G (27*255 +
	 * 32) >> 6 = 108, B (37*132 + 27*66 + 32) >> 6 = 104; A with w 43:
	 * (43*255 + 32) >> 6 = 171. Rotation 1 swaps A and R. */
	make_mode4(blk, 1, 1);
	expect7(blk, 5, 171, 108, 104, 147);
	/* Texel 0: RGB w 27 as above; A w 21: (21*255 + 32) >> 6 = 84. */
	expect7(blk, 0, 84, 108, 104, 147);

	/* ISB 0: colour from the 2-bit index, alpha from the 3-bit one.
	 * Texel 5: RGB w 43: R (21*255 + 32) >> 6 = 84, G 171, B (21*132 +
	 * 43*66 + 32) >> 6 = 88; A w 27: 108. Rotation 2 swaps A and G. */
	make_mode4(blk, 2, 0);
	expect7(blk, 5, 84, 108, 88, 171);
	/* Texel 0: RGB w 21: 171, 84, (43*132 + 21*66 + 32) >> 6 = 110;
	 * A w 27: 108. */
	expect7(blk, 0, 171, 108, 110, 84);

	/* No rotation, ISB 0: as above, unswapped. */
	make_mode4(blk, 0, 0);
	expect7(blk, 5, 84, 171, 88, 108);
	/* Rotation 3 swaps A and B. */
	make_mode4(blk, 3, 0);
	expect7(blk, 5, 84, 171, 108, 88);
}

/* Mode 5: RGB 7 bits, A 8 bits, 2-bit colour and alpha indices.
 * Bits: 0..5 mode (bit 5), 6..7 rotation, R0 8, R1 15, G0 22, G1 29, B0
 * 36, B1 43 (7 bits), A0 50, A1 58 (8 bits), colour indices from 66,
 * alpha indices from 97 (texel 0: 1 bit each).
 *   E0 (127, 0, 64, 10) -> (255, 0, 129, 10)  [7 bits: v << 1 | v >> 6]
 *   E1 (0, 127, 0, 250) -> (0, 255, 0, 250)
 * Texel 1: colour index 1 (w 21) at 67..68, alpha index 3 (w 64) at
 * 98..99. */
static void
test_bc7_mode5(void **state)
{
	uint8_t blk[16] = { 0 };

	(void)state;
	put(blk, 0, 6, 0x20);
	put(blk, 6, 2, 1);
	put(blk, 8, 7, 127);
	put(blk, 15, 7, 0);
	put(blk, 22, 7, 0);
	put(blk, 29, 7, 127);
	put(blk, 36, 7, 64);
	put(blk, 43, 7, 0);
	put(blk, 50, 8, 10);
	put(blk, 58, 8, 250);
	put(blk, 66 + 2 * 1 - 1, 2, 1);
	put(blk, 97 + 2 * 1 - 1, 2, 3);
	/* RGB w 21: R (43*255 + 32) >> 6 = 171, G 84, B (43*129 + 32) >> 6
	 * = 87; A w 64 = 250. Rotation 1 swaps A and R. */
	expect7(blk, 1, 250, 84, 87, 171);
	/* Texel 0: indices 0: E0, rotated. */
	expect7(blk, 0, 10, 0, 129, 255);
}

/* Every pattern of the partition tables, read back through the decoder:
 * mode 1 (two subsets) and mode 2 (three) with zero endpoints but E1 = R
 * max, E3 = G max, E5 = B max and all index bits 1. A texel then shows
 * its subset by its channel and its anchor-ness by its value: the highest
 * index (255 or 253) or, one bit shorter, mode 1's 3 (w 27: (27*253 + 32)
 * >> 6 = 107) or mode 2's 1 (w 21: (21*255 + 32) >> 6 = 84).
 * Expected: the spec's bptcP2subset / bptcP3subset as D3D-style masks
 * (bit t set: texel t in that subset) and its anchor tables. */
static const uint16_t subset1_of2[64] = {
	0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80,
	0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000,
	0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce,
	0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c,
	0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a,
	0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660,
	0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c,
	0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};

static const uint8_t anchor_of2[64] = {
	15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
	15,  2,  8,  2,  2,  8,  8, 15,  2,  8,  2,  2,  8,  8,  2,  2,
	15, 15,  6,  8,  2,  8, 15, 15,  2,  8,  2,  2,  2, 15, 15,  6,
	 6,  2,  6,  8, 15, 15,  2,  2, 15, 15, 15, 15, 15,  2,  2, 15,
};

static const uint16_t subset1_of3[64] = {
	0x08cc, 0x8cc8, 0xcc80, 0xec00, 0x3300, 0x00cc, 0xff00, 0xcccc,
	0x0f00, 0x0ff0, 0x00f0, 0x4444, 0x6666, 0x2222, 0x136c, 0x008c,
	0x36c8, 0x08ce, 0x3330, 0xf000, 0x00ee, 0x8888, 0x22c0, 0x4430,
	0x0c22, 0x0344, 0x6996, 0x9960, 0x0330, 0x0066, 0xc22c, 0x8c00,
	0x1300, 0xc400, 0x004c, 0x2222, 0x00f0, 0x2492, 0x2942, 0xc30c,
	0xc03c, 0x00aa, 0xaa00, 0x3030, 0xc0c0, 0x9090, 0xa00a, 0xaaa0,
	0x0aaa, 0xe0e0, 0x7070, 0x6660, 0x0ee0, 0x0770, 0x0666, 0x6600,
	0x0066, 0x0cc0, 0x0330, 0x6000, 0x8080, 0x1010, 0x000a, 0x08ce,
};

static const uint16_t subset2_of3[64] = {
	0xf600, 0x7300, 0x3310, 0x00ce, 0xcc00, 0xcc00, 0x00cc, 0x3300,
	0xf000, 0xf000, 0xff00, 0x8888, 0x8888, 0xcccc, 0xec80, 0x7310,
	0xc800, 0x3100, 0xccc0, 0x0ccc, 0xee00, 0x7700, 0xcc00, 0x3300,
	0x00cc, 0xfc88, 0x0660, 0x6600, 0xc88c, 0xf900, 0x0cc0, 0x7310,
	0xec80, 0x08ce, 0xec80, 0x4444, 0x0f00, 0x4924, 0x4294, 0x0c30,
	0x03c0, 0xff00, 0x5500, 0xcccc, 0x0c0c, 0x6666, 0x0ff0, 0x5550,
	0xf000, 0x0e0e, 0x8888, 0x9990, 0xe00e, 0x8888, 0xf000, 0x9900,
	0xff00, 0xc00c, 0xcccc, 0x9000, 0x0808, 0xeeee, 0xfff0, 0x7310,
};

static const uint8_t anchor1_of3[64] = {
	 3,  3, 15, 15,  8,  3, 15, 15,  8,  8,  6,  6,  6,  5,  3,  3,
	 3,  3,  8, 15,  3,  3,  6, 10,  5,  8,  8,  6,  8,  5, 15, 15,
	 8, 15,  3,  5,  6, 10,  8, 15, 15,  3, 15,  5, 15, 15, 15, 15,
	 3, 15,  5,  5,  5,  8,  5, 10,  5, 10,  8, 13, 15, 12,  3,  3,
};

static const uint8_t anchor2_of3[64] = {
	15,  8,  8,  3, 15, 15,  3,  8, 15, 15, 15, 15, 15, 15, 15,  8,
	15,  8, 15,  3, 15,  8, 15,  8,  3, 15,  6, 10, 15, 15, 10,  8,
	15,  3, 15, 10, 10,  8,  9, 10,  6, 15,  8, 15,  3,  6,  6,  8,
	15,  3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,  3, 15, 15,  8,
};

static void
test_bc7_partition_tables(void **state)
{
	(void)state;
	for (unsigned p = 0; p < 64; p++) {
		uint8_t b2[16] = { 0 }, b3[16] = { 0 };

		put(b2, 0, 2, 2);               /* mode 1 */
		put(b2, 2, 6, p);
		put(b2, 8 + 6, 6, 63);          /* R of E1 -> 253 */
		put(b2, 32 + 18, 6, 63);        /* G of E3 */
		for (unsigned bit = 82; bit < 128; bit++)
			put(b2, bit, 1, 1);
		put(b3, 0, 3, 4);               /* mode 2 */
		put(b3, 3, 6, p);
		put(b3, 9 + 5, 5, 31);          /* R of E1 -> 255 */
		put(b3, 39 + 15, 5, 31);        /* G of E3 */
		put(b3, 69 + 25, 5, 31);        /* B of E5 */
		for (unsigned bit = 99; bit < 128; bit++)
			put(b3, bit, 1, 1);

		for (unsigned t = 0; t < 16; t++) {
			const unsigned s2 = subset1_of2[p] >> t & 1;
			const unsigned s3 = (subset1_of3[p] >> t & 1) |
			                    (subset2_of3[p] >> t & 1) << 1;
			const bool a2 = t == 0 || t == anchor_of2[p];
			const bool a3 = t == 0 || t == anchor1_of3[p] ||
			                t == anchor2_of3[p];
			uint8_t o2[4], o3[4], want2[4] = { 0, 0, 0, 255 };
			uint8_t want3[4] = { 0, 0, 0, 255 };

			want2[s2] = a2 ? 107 : 253;
			want3[s3] = a3 ? 84 : 255;
			bptc_decode_bc7(b2, t % 4, t / 4, o2);
			bptc_decode_bc7(b3, t % 4, t / 4, o3);
			if (memcmp(o2, want2, 4))
				fail_msg("2 subsets, partition %u texel %u: "
				         "%u %u %u, want %u %u %u", p, t,
				         o2[0], o2[1], o2[2], want2[0],
				         want2[1], want2[2]);
			if (memcmp(o3, want3, 4))
				fail_msg("3 subsets, partition %u texel %u: "
				         "%u %u %u, want %u %u %u", p, t,
				         o3[0], o3[1], o3[2], want3[0],
				         want3[1], want3[2]);
		}
	}
}

static void
test_bc7_reserved(void **state)
{
	uint8_t blk[16];

	(void)state;
	/* Low byte 0 is reserved: 0 in all channels, whatever follows. */
	memset(blk, 0xff, sizeof(blk));
	blk[0] = 0;
	for (unsigned t = 0; t < 16; t++)
		expect7(blk, t, 0, 0, 0, 0);
}

/* ------------------------------------------------------------------ */
/* BC6H                                                                */
/* ------------------------------------------------------------------ */

/* Mode 3 (M = 00011): one region, 10-bit endpoints, not transformed.
 * Bits: R0 5..14, G0 15..24, B0 25..34, R1 35..44, G1 45..54, B1 55..64,
 * indices from 65 (texel 0: 3 bits; i > 0 at 65 + 4i - 1).
 *   E0 = (0, 512, 1023), E1 = (1023, 256, 100)
 * UFLOAT unquantize, 10 bits: ((x << 15) + 0x4000) >> 9 = 64x + 32, with
 * 0 -> 0 and 1023 -> 0xffff: E0 (0, 32800, 65535), E1 (65535, 16416,
 * 6432).
 * SFLOAT reads them as 10-bit two's complement: E0 (0, -512, -1), E1 (-1,
 * 256, 100); |x| >= 511 -> 0x7fff: E0 (0, -32767, -96), E1 (-96, 16416,
 * 6432). */
static void
make_mode3(uint8_t blk[16])
{
	memset(blk, 0, 16);
	put(blk, 0, 5, 0x03);
	put(blk, 5, 10, 0);
	put(blk, 15, 10, 512);
	put(blk, 25, 10, 1023);
	put(blk, 35, 10, 1023);
	put(blk, 45, 10, 256);
	put(blk, 55, 10, 100);
	put(blk, 65, 3, 0);
	put(blk, 65 + 4 * 6 - 1, 4, 8);
	put(blk, 65 + 4 * 15 - 1, 4, 15);
}

static void
test_bc6h_mode3(void **state)
{
	uint8_t blk[16];

	(void)state;
	make_mode3(blk);
	/* UFLOAT texel 0 (E0): 0; 32800 * 31 >> 6 = 15887 = 0x3e0f; 65535 *
	 * 31 >> 6 = 0x7bff (65504.0, the largest finite half). */
	expect6(blk, false, 0, 0x0000, 0x3e0f, 0x7bff);
	/* Texel 15 (E1): 0x7bff, 16416 * 31 >> 6 = 7951 = 0x1f0f, 6432 * 31
	 * >> 6 = 3115 = 0x0c2b. */
	expect6(blk, false, 15, 0x7bff, 0x1f0f, 0x0c2b);
	/* Texel 6, index 8, w 34: R (34*65535 + 32) >> 6 = 34815, * 31 >> 6
	 * = 16863 = 0x41df; G (30*32800 + 34*16416 + 32) >> 6 = 24096 ->
	 * 0x2d97; B (30*65535 + 34*6432 + 32) >> 6 = 34137 -> 0x4097. */
	expect6(blk, false, 6, 0x41df, 0x2d97, 0x4097);

	/* SFLOAT texel 0: 0; -32767: 32767 * 31 >> 5 = 0x7bff | 0x8000 =
	 * 0xfbff; -96: 96 * 31 >> 5 = 93 = 0x5d -> 0x805d. */
	expect6(blk, true, 0, 0x0000, 0xfbff, 0x805d);
	/* Texel 15 (E1): 0x805d; 16416 * 31 >> 5 = 0x3e1f; 6432 -> 0x1857. */
	expect6(blk, true, 15, 0x805d, 0x3e1f, 0x1857);
	/* Texel 6, w 34: R (34 * -96 + 32) >> 6 = -3232 / 64 = -50.5 -> -51
	 * (the shift rounds down), 51 * 31 >> 5 = 49 -> 0x8031; G (30 *
	 * -32767 + 34*16416 + 32) >> 6 = -424834 / 64 = -6638.03 -> -6639,
	 * 6639 * 31 >> 5 = 6431 -> 0x991f; B (30 * -96 + 34*6432 + 32) >> 6
	 * = 3372 -> 3372 * 31 >> 5 = 3266 = 0x0cc2. */
	expect6(blk, true, 6, 0x8031, 0x991f, 0x0cc2);
}

/* Mode 0 (M = 00): two regions, 10-bit E0, 5-bit deltas E1..E3
 * (transformed), partition 17 = rows 0111 / 0001 / 0000 / 0000 whose
 * subset-1 anchor is texel 2.
 * Bits (table-bptcbc6hbits): 2 G2[4], 3 B2[4], 4 B3[4], R0 5..14, G0
 * 15..24, B0 25..34, R1 35..39, 40 G3[4], G2[3:0] 41..44, G1 45..49, 50
 * B3[0], G3[3:0] 51..54, B1 55..59, 60 B3[1], B2[3:0] 61..64, R2
 * 65..69, 70 B3[2], R3 71..75, 76 B3[3], partition 77..81; indices from
 * 82: texel 0 2 bits, texel 1 84..86, texel 2 (anchor) 87..88 (2 bits),
 * texel i > 2 at 82 + 3i - 2.
 *   E0 = (500, 300, 5)
 *   deltas E1 (-16, 15, -1), E2 (-5, 7, -16), E3 (3, -8, -2), 5-bit
 *   two's complement: R1 0x10 G1 0x0f B1 0x1f, R2 0x1b G2 0x07 B2 0x10,
 *   R3 0x03 G3 0x18 B3 0x1e
 *   E0 + delta, wrapped to 10 bits: E1 (484, 315, 4), E2 (495, 307,
 *   1013: 5 - 16 wraps), E3 (503, 292, 3)
 * UFLOAT unquantize 64x + 32: E0 (32032, 19232, 352), E1 (31008, 20192,
 * 288), E2 (31712, 19680, 64864), E3 (32224, 18720, 224). */
static void
make_mode0(uint8_t blk[16])
{
	memset(blk, 0, 16);
	put(blk, 0, 2, 0);
	put(blk, 2, 1, 0x07 >> 4);              /* G2[4] */
	put(blk, 3, 1, 0x10 >> 4);              /* B2[4] */
	put(blk, 4, 1, 0x1e >> 4);              /* B3[4] */
	put(blk, 5, 10, 500);
	put(blk, 15, 10, 300);
	put(blk, 25, 10, 5);
	put(blk, 35, 5, 0x10);                  /* R1 */
	put(blk, 40, 1, 0x18 >> 4);             /* G3[4] */
	put(blk, 41, 4, 0x07);                  /* G2[3:0] */
	put(blk, 45, 5, 0x0f);                  /* G1 */
	put(blk, 50, 1, 0x1e >> 0);             /* B3[0] */
	put(blk, 51, 4, 0x18);                  /* G3[3:0] */
	put(blk, 55, 5, 0x1f);                  /* B1 */
	put(blk, 60, 1, 0x1e >> 1);             /* B3[1] */
	put(blk, 61, 4, 0x10);                  /* B2[3:0] */
	put(blk, 65, 5, 0x1b);                  /* R2 */
	put(blk, 70, 1, 0x1e >> 2);             /* B3[2] */
	put(blk, 71, 5, 0x03);                  /* R3 */
	put(blk, 76, 1, 0x1e >> 3);             /* B3[3] */
	put(blk, 77, 5, 17);
	put(blk, 82, 2, 0);                     /* texel 0 */
	put(blk, 84, 3, 7);                     /* texel 1 */
	put(blk, 87, 2, 3);                     /* texel 2: anchor */
	put(blk, 82 + 3 * 4 - 2, 3, 5);         /* texel 4 */
	put(blk, 82 + 3 * 7 - 2, 3, 2);         /* texel 7 */
	put(blk, 82 + 3 * 15 - 2, 3, 7);        /* texel 15 */
}

static void
test_bc6h_mode0_deltas(void **state)
{
	uint8_t blk[16];

	(void)state;
	make_mode0(blk);
	/* Texel 0, subset 0, w 0: E0 * 31 >> 6: 32032 -> 15515 = 0x3c9b,
	 * 19232 -> 0x2463, 352 -> 170 = 0x00aa. */
	expect6(blk, false, 0, 0x3c9b, 0x2463, 0x00aa);
	/* Texel 15, subset 0, w 64: E1: 31008 -> 15019 = 0x3aab, 20192 ->
	 * 0x2634, 288 -> 0x008b. */
	expect6(blk, false, 15, 0x3aab, 0x2634, 0x008b);
	/* Texel 1, subset 1, w 64: E3: 32224 -> 0x3cf8, 18720 -> 0x236b,
	 * 224 -> 0x006c. */
	expect6(blk, false, 1, 0x3cf8, 0x236b, 0x006c);
	/* Texel 2, subset-1 anchor, index 3 from 2 bits, w 27: R (37*31712
	 * + 27*32224 + 32) >> 6 = 31928 -> 0x3c69; G (37*19680 + 27*18720
	 * + 32) >> 6 = 19275 -> 0x2478; B (37*64864 + 27*224 + 32) >> 6 =
	 * 37594 -> 0x4721. */
	expect6(blk, false, 2, 0x3c69, 0x2478, 0x4721);
	/* Texel 4, subset 0, w 46: R (18*32032 + 46*31008 + 32) >> 6 =
	 * 31296 -> 0x3b37; G 0x25b1; B 0x0094. */
	expect6(blk, false, 4, 0x3b37, 0x25b1, 0x0094);
	/* Texel 7, subset 1, w 18: R 0x3c46, G 0x24b9, B (46*64864 + 18*224
	 * + 32) >> 6 = 46684 -> 0x5854. */
	expect6(blk, false, 7, 0x3c46, 0x24b9, 0x5854);

	/* SFLOAT: E2's B 1013 is -11 in 10 bits; the others are positive.
	 * Signed unquantize ((|x| << 15) + 0x4000) >> 9 = 64|x| + 32:
	 * texel 0: 500 -> 32032 * 31 >> 5 = 31031 = 0x7937, 300 -> 0x48c7,
	 * 5 -> 352 -> 0x0155. */
	expect6(blk, true, 0, 0x7937, 0x48c7, 0x0155);
	/* Texel 2, w 27: R 31928 * 31 >> 5 = 30930 = 0x78d2, G 19275 ->
	 * 0x48f0 (as UFLOAT, values below 511); B: E2 -11 -> -736, E3 3 ->
	 * 224, (37 * -736 + 27*224 + 32) >> 6 = -21152 / 64 = -330.5 ->
	 * -331, 331 * 31 >> 5 = 320 = 0x140 -> 0x8140. */
	expect6(blk, true, 2, 0x78d2, 0x48f0, 0x8140);
}

/* Mode 7 (M = 00111): one region, 11-bit E0, 9-bit delta E1.
 * Bits: R0[9:0] 5..14, G0[9:0] 15..24, B0[9:0] 25..34, R1 35..43, 44
 * R0[10], G1 45..53, 54 G0[10], B1 55..63, 64 B0[10], indices from 65.
 *   SFLOAT E0 = (-1000, 700, -1): 11-bit 1048 (bit 10 set, low 24), 700,
 *   2047; deltas (100, -256, -10): 9-bit 100, 256, 502.
 *   E1 = E0 + delta wrapped to 11 bits, read signed: (-900, 444, -11).
 * Signed unquantize, 11 bits: ((|x| << 15) + 0x4000) >> 10 = 32|x| + 16:
 *   E0 (-32016, 22416, -48), E1 (-28816, 14224, -368). */
static void
make_mode7(uint8_t blk[16])
{
	memset(blk, 0, 16);
	put(blk, 0, 5, 0x07);
	put(blk, 5, 10, 1048 & 1023);
	put(blk, 15, 10, 700 & 1023);
	put(blk, 25, 10, 2047 & 1023);
	put(blk, 35, 9, 100);
	put(blk, 44, 1, 1048 >> 10);
	put(blk, 45, 9, 256);
	put(blk, 54, 1, 700 >> 10);
	put(blk, 55, 9, 502);
	put(blk, 64, 1, 2047 >> 10);
	put(blk, 65 + 4 * 1 - 1, 4, 5);
	put(blk, 65 + 4 * 15 - 1, 4, 15);
}

static void
test_bc6h_mode7_signed(void **state)
{
	uint8_t blk[16];

	(void)state;
	make_mode7(blk);
	/* Texel 0 (E0): 32016 * 31 >> 5 = 31015 = 0x7927 -> 0xf927; 22416
	 * * 31 >> 5 = 0x54d3; 48 * 31 >> 5 = 46 -> 0x802e. */
	expect6(blk, true, 0, 0xf927, 0x54d3, 0x802e);
	/* Texel 15 (E1): 28816 -> 0x6d0b -> 0xed0b; 14224 -> 0x35d3; 368
	 * -> 356 -> 0x8164. */
	expect6(blk, true, 15, 0xed0b, 0x35d3, 0x8164);
	/* Texel 1, index 5, w 21: R (43 * -32016 + 21 * -28816 + 32) >> 6
	 * = -1981792 / 64 = -30965.5 -> -30966 (the shift rounds down; a
	 * truncating division would give 0xf52d), 30966 * 31 >> 5 = 29998
	 * = 0x752e -> 0xf52e; G (43*22416 + 21*14224 + 32) >> 6 = 19728 ->
	 * 0x4aa7; B (43 * -48 + 21 * -368 + 32) >> 6 = -9760 >> 6 = -152.5
	 * -> -153, 153 * 31 >> 5 = 148 -> 0x8094. */
	expect6(blk, true, 1, 0xf52e, 0x4aa7, 0x8094);

	/* UFLOAT, same bits: E0 (1048, 700, 2047), E1 wraps to (1148, 444,
	 * 2037); 2047 is the maximum -> 0xffff -> 0x7bff; 1048 -> ((1048 <<
	 * 15) + 0x4000) >> 10 = 33552 -> 0x3f7b; 700 -> 22416 -> 0x2a69. */
	expect6(blk, false, 0, 0x3f7b, 0x2a69, 0x7bff);
	/* Texel 1, w 21: R (43*33552 + 21*36752 + 32) >> 6 = 34602 ->
	 * 0x4178; G 0x2553; B (43*65535 + 21*65200 + 32) >> 6 = 65425 ->
	 * 0x7bca. */
	expect6(blk, false, 1, 0x4178, 0x2553, 0x7bca);
}

/* Mode 15 (M = 01111): one region, 16-bit E0 whose top six bits are
 * stored reversed, 4-bit delta E1.
 * Bits: R0[9:0] 5..14, G0[9:0] 15..24, B0[9:0] 25..34, R1 35..38,
 * R0[10..15] 39..44 with bit 39 = R0[15] .. bit 44 = R0[10], G1 45..48,
 * G0[10..15] 49..54, B1 55..58, B0[10..15] 59..64, indices from 65.
 *   E0 = (0xabcd, 0x8000, 0x00ff), deltas (3, -1, -8): E1 = (0xabd0,
 *   0x7fff, 0x00f7). 16 bits: no unquantization. */
static void
make_mode15(uint8_t blk[16], const uint16_t e0[3], const uint8_t d[3])
{
	memset(blk, 0, 16);
	put(blk, 0, 5, 0x0f);
	for (unsigned c = 0; c < 3; c++) {
		put(blk, 5 + 10 * c, 10, e0[c] & 1023);
		put(blk, 35 + 10 * c, 4, d[c]);
		for (unsigned k = 0; k < 6; k++)
			put(blk, 39 + 10 * c + k, 1, e0[c] >> (15 - k));
	}
}

static void
test_bc6h_mode15_reversed(void **state)
{
	static const uint16_t e0[3] = { 0xabcd, 0x8000, 0x00ff };
	static const uint8_t d[3] = { 3, 0xf, 0x8 };
	static const uint16_t minus1[3] = { 0xffff, 0, 0 };
	static const uint8_t zero[3] = { 0, 0, 0 };
	uint8_t blk[16];

	(void)state;
	make_mode15(blk, e0, d);
	put(blk, 65 + 4 * 10 - 1, 4, 9);
	put(blk, 65 + 4 * 15 - 1, 4, 15);
	/* UFLOAT texel 0: 0xabcd * 31 >> 6 = 21303 = 0x5337; 0x8000 ->
	 * 0x3e00; 0xff -> 0x7b. Texel 15: 0xabd0 -> 0x5338, 0x7fff ->
	 * 0x3dff, 0xf7 -> 0x77. */
	expect6(blk, false, 0, 0x5337, 0x3e00, 0x007b);
	expect6(blk, false, 15, 0x5338, 0x3dff, 0x0077);
	/* Texel 10, w 38: R (26*0xabcd + 38*0xabd0 + 32) >> 6 = 43983 ->
	 * 0x5338; G (26*32768 + 38*32767 + 32) >> 6 = 32767 -> 0x3dff; B
	 * (26*255 + 38*247 + 32) >> 6 = 250 -> 0x79. */
	expect6(blk, false, 10, 0x5338, 0x3dff, 0x0079);
	/* SFLOAT texel 0: 0xabcd = -21555 -> 21555 * 31 >> 5 = 0x5191 ->
	 * 0xd191; 0x8000 = -32768 -> 0x7c00 | 0x8000 = 0xfc00, -Inf, which
	 * the spec notes as possible; 0xff -> 247 = 0xf7. */
	expect6(blk, true, 0, 0xd191, 0xfc00, 0x00f7);
	/* Texel 15: -21552 -> 0xd18e; 32767 -> 0x7bff; 247 -> 0xef. */
	expect6(blk, true, 15, 0xd18e, 0x7bff, 0x00ef);
	/* Texel 10, w 38: R (26 * -21555 + 38 * -21552 + 32) >> 6 =
	 * -21552.7 -> -21553 -> 20879 = 0x518f -> 0xd18f; G (26 * -32768 +
	 * 38*32767 + 32) >> 6 = 6143 -> 5951 = 0x173f; B 250 -> 0xf2. */
	expect6(blk, true, 10, 0xd18f, 0x173f, 0x00f2);

	/* The finish step keeps the sign of a value that scales to 0: the
	 * spec's out = i < 0 ? ((-i * 31) >> 5) | 0x8000 : .. takes i = -1
	 * (E0 0xffff) to 0x8000, -0.0. */
	make_mode15(blk, minus1, zero);
	expect6(blk, true, 0, 0x8000, 0x0000, 0x0000);
}

static void
test_bc6h_reserved(void **state)
{
	static const uint8_t modes[4] = { 0x13, 0x17, 0x1b, 0x1f };
	uint8_t blk[16];

	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		/* Reserved mode numbers 19, 23, 27, 31: 0 in all channels. */
		memset(blk, 0x5a, sizeof(blk));
		blk[0] = (uint8_t)(0xe0 | modes[k]);
		for (unsigned t = 0; t < 16; t++) {
			expect6(blk, false, t, 0, 0, 0);
			expect6(blk, true, t, 0, 0, 0);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Reference blocks                                                    */
/* ------------------------------------------------------------------ */

/* One random block per mode, with texels 0, 9 and 15 as the Khronos
 * CTS's reference decoder (vk-gl-cts framework/common/
 * tcuCompressedTexture.cpp, decompressBc6H / decompressBc7) decodes them:
 * this covers the mode layouts that no hand-derived block above uses. The
 * BC6H blocks were picked with every delta's top two bits 10, so that the
 * delta widths matter, and texels in both subsets. (The CTS differs from
 * the spec only in writing +0.0 where the spec's finish step gives -0.0;
 * none of these texels is such a case.) */
static const unsigned ref_texels[3] = { 0, 9, 15 };

/* BC6H modes 0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15; UFLOAT then
 * SFLOAT R, G, B of the three texels. */
static const struct {
	uint8_t blk[16];
	uint16_t u[9], s[9];
} bc6h_ref[14] = {
	{ { 0x5c, 0xff, 0xa1, 0x4b, 0x9e, 0xe9, 0xaa, 0x9b,
	    0xe8, 0xc9, 0x50, 0x1d, 0x2d, 0x1a, 0x7d, 0xe2 },
	  { 0x7b55, 0x652c, 0x618a, 0x79dd, 0x63bc, 0x601f,
	    0x79d4, 0x63c5, 0x6030 },
	  { 0x8193, 0xade5, 0xb529, 0x8483, 0xb0c4, 0xb7ff,
	    0x8495, 0xb0b2, 0xb7dc } },
	{ { 0x75, 0xa6, 0xc3, 0x38, 0x72, 0xa3, 0xcd, 0x50,
	    0xde, 0xb2, 0x1b, 0xe0, 0xd0, 0xec, 0xec, 0xab },
	  { 0x2cfc, 0x24f6, 0x3609, 0x1a75, 0x6ace, 0x2435,
	    0x255b, 0x5329, 0x5f26 },
	  { 0x59f9, 0x03a2, 0x25c8, 0x34eb, 0xa454, 0x021e,
	    0x4ab7, 0x8d52, 0x0aa8 } },
	{ { 0x62, 0x6f, 0xc6, 0xcc, 0x8c, 0x72, 0x55, 0x6c,
	    0x2d, 0x39, 0xa0, 0x38, 0x30, 0x88, 0xc1, 0xff },
	  { 0x35fa, 0x1801, 0x6334, 0x35fa, 0x1801, 0x6334,
	    0x3545, 0x179c, 0x62da },
	  { 0x6bf4, 0x3003, 0xb1b5, 0x6bf4, 0x3003, 0xb1b5,
	    0x6a8a, 0x2f38, 0xb26a } },
	{ { 0x46, 0x25, 0x6e, 0x1c, 0x5f, 0x8b, 0x96, 0x54,
	    0x37, 0xfd, 0x5c, 0xe8, 0x0c, 0xab, 0x5d, 0xa8 },
	  { 0x11f2, 0x4b0b, 0x36f3, 0x11fc, 0x4b25, 0x3702,
	    0x11c0, 0x4aa2, 0x36c8 },
	  { 0x23e4, 0xe208, 0x6de6, 0x23f9, 0xe1d4, 0x6e04,
	    0x2381, 0xe2da, 0x6d90 } },
	{ { 0xaa, 0x58, 0x4b, 0xbe, 0x5e, 0x37, 0xc3, 0x3b,
	    0x90, 0x0d, 0x0e, 0x79, 0xc7, 0x29, 0x05, 0x83 },
	  { 0x2ad4, 0x46ef, 0x720d, 0x2a86, 0x46c2, 0x715b,
	    0x2a86, 0x46c2, 0x715b },
	  { 0x55a9, 0xea40, 0x9403, 0x550c, 0xea9a, 0x9568,
	    0x550c, 0xea9a, 0x9568 } },
	{ { 0xee, 0xee, 0xe2, 0x5f, 0xbd, 0xe9, 0xa6, 0x69,
	    0xaa, 0xaa, 0x3a, 0xe4, 0x39, 0xed, 0x55, 0x49 },
	  { 0x5a54, 0x6d38, 0x299e, 0x5847, 0x6aed, 0x2701,
	    0x5a54, 0x6d38, 0x299e },
	  { 0xc3d3, 0x9e0b, 0x533c, 0xc7ee, 0xa2a2, 0x4e03,
	    0xc3d3, 0x9e0b, 0x533c } },
	{ { 0x32, 0xea, 0xc7, 0x43, 0x34, 0xe3, 0xae, 0x5b,
	    0xd6, 0x37, 0x08, 0xda, 0xc0, 0x4f, 0x40, 0xf3 },
	  { 0x23ef, 0x4448, 0x0f00, 0x2032, 0x42fc, 0x0db4,
	    0x1e1f, 0x3f0f, 0x0a77 },
	  { 0x47de, 0xf067, 0x1e00, 0x4064, 0xf2fe, 0x1b69,
	    0x3c3e, 0xfa90, 0x14ef } },
	{ { 0x16, 0x5a, 0xa7, 0xd2, 0xb7, 0x76, 0xf5, 0x18,
	    0xa6, 0x49, 0x24, 0x05, 0x5b, 0x82, 0x19, 0x90 },
	  { 0x644f, 0x2497, 0x7014, 0x5eb2, 0x1bda, 0x695a,
	    0x5eb2, 0x1c42, 0x699f },
	  { 0xb058, 0x492f, 0x98cf, 0xbb94, 0x37b4, 0xa644,
	    0xbb94, 0x3885, 0xa5b8 } },
	{ { 0x9a, 0x3a, 0xf6, 0x25, 0x8b, 0x47, 0x12, 0xb7,
	    0xe6, 0xea, 0xa1, 0x78, 0xb1, 0x08, 0x5f, 0x6a },
	  { 0x66ee, 0x728e, 0x46f6, 0x66ee, 0x728e, 0x46f6,
	    0x60c4, 0x6c30, 0x39f3 },
	  { 0xab1c, 0x93dc, 0xeb0c, 0xab1c, 0x93dc, 0xeb0c,
	    0xb76e, 0xa096, 0x73e6 } },
	{ { 0x5e, 0x91, 0xb0, 0x8a, 0x1d, 0x8f, 0x65, 0xc8,
	    0x79, 0x5b, 0x51, 0xc2, 0xda, 0x14, 0x31, 0x5c },
	  { 0x1458, 0x40e8, 0x0aa8, 0x7395, 0x4de4, 0x202e,
	    0x7395, 0x4de4, 0x202e },
	  { 0x28b0, 0xfbff, 0x1550, 0x94b5, 0xe016, 0x405c,
	    0x94b5, 0xe016, 0x405c } },
	{ { 0xe3, 0x80, 0xd6, 0xfb, 0xc3, 0x3a, 0x09, 0x81,
	    0xae, 0xea, 0xf1, 0x82, 0xe1, 0x88, 0x2a, 0xf2 },
	  { 0x3119, 0x40bd, 0x2f73, 0x614a, 0x0f78, 0x2133,
	    0x67b7, 0x08e6, 0x1f4d },
	  { 0x922a, 0x8266, 0x5ee6, 0xa625, 0x0f6c, 0x4267,
	    0xa8cf, 0x11cd, 0x3e9b } },
	{ { 0x47, 0xf5, 0xea, 0xee, 0x9a, 0x6a, 0x2b, 0x81,
	    0xf1, 0x8a, 0x68, 0x5e, 0xbd, 0xc8, 0x5d, 0xe4 },
	  { 0x38d2, 0x1c6d, 0x54bc, 0x3121, 0x1517, 0x4971,
	    0x2f00, 0x130f, 0x4651 },
	  { 0x71a5, 0x38da, 0xcea6, 0x6243, 0x2a2e, 0xe53c,
	    0x5e01, 0x261f, 0xeb7c } },
	{ { 0x4b, 0x8b, 0x2d, 0xbe, 0xe7, 0x6d, 0x90, 0x44,
	    0x5d, 0x55, 0x70, 0x81, 0xae, 0x56, 0x7d, 0x95 },
	  { 0x3fe7, 0x339b, 0x3b8d, 0x3f5b, 0x538a, 0x3a98,
	    0x3f84, 0x4a26, 0x3ae0 },
	  { 0xf840, 0x0270, 0x771b, 0xf958, 0x006a, 0x7531,
	    0xf906, 0x0102, 0x75c1 } },
	{ { 0xef, 0x20, 0x84, 0x95, 0xc5, 0x1f, 0xe7, 0x74,
	    0x8c, 0xc4, 0x18, 0x49, 0x37, 0xd2, 0x9d, 0x63 },
	  { 0x7a8d, 0x6446, 0x3798, 0x7a8e, 0x6446, 0x3799,
	    0x7a8d, 0x6446, 0x3798 },
	  { 0x82e4, 0xaf73, 0x6f30, 0x82e3, 0xaf72, 0x6f32,
	    0x82e4, 0xaf73, 0x6f30 } },
};

/* BC7 modes 0..7: R, G, B, A of the three texels. */
static const struct {
	uint8_t blk[16];
	uint8_t rgba[12];
} bc7_ref[8] = {
	{ { 0x7f, 0xf9, 0xbd, 0xee, 0x33, 0xdf, 0x65, 0x02,
	    0xaa, 0x51, 0x87, 0xee, 0x6d, 0xda, 0x92, 0x9a },
	  { 181, 247, 49, 255, 104, 155, 187, 255, 195, 194, 35, 255 } },
	{ { 0xa6, 0x17, 0x81, 0xa3, 0x24, 0xf7, 0x92, 0xe8,
	    0x43, 0xfa, 0x1b, 0x7c, 0x45, 0x91, 0x40, 0x78 },
	  { 73, 138, 135, 255, 209, 179, 176, 255, 62, 133, 120, 255 } },
	{ { 0xf4, 0x58, 0x37, 0x67, 0x56, 0x64, 0x7d, 0x5b,
	    0xb2, 0x2a, 0x85, 0x56, 0x8f, 0xd5, 0xe7, 0x80 },
	  { 145, 104, 143, 255, 54, 153, 71, 255, 52, 201, 77, 255 } },
	{ { 0xb8, 0xd0, 0x53, 0xd4, 0xe1, 0x22, 0x3b, 0x0f,
	    0x08, 0x22, 0x19, 0xa7, 0x35, 0xba, 0xcd, 0x57 },
	  { 183, 74, 14, 255, 183, 74, 14, 255, 169, 231, 51, 255 } },
	{ { 0xf0, 0xef, 0x9d, 0x00, 0x48, 0x20, 0x84, 0x2d,
	    0xe8, 0xf1, 0x1b, 0x19, 0x61, 0xbb, 0xc9, 0x89 },
	  { 123, 50, 5, 5, 123, 8, 5, 33, 123, 29, 8, 19 } },
	{ { 0x60, 0xa9, 0xba, 0xf9, 0x21, 0x94, 0x77, 0xf2,
	    0x2e, 0xfd, 0xdc, 0x3b, 0xed, 0xee, 0xfd, 0x98 },
	  { 157, 148, 165, 132, 188, 30, 229, 235, 178, 87, 198, 185 } },
	{ { 0xc0, 0x4e, 0xa0, 0xa3, 0x76, 0x14, 0xc7, 0x38,
	    0x65, 0xfb, 0x5b, 0x14, 0x56, 0xc4, 0x39, 0xa9 },
	  { 50, 80, 44, 186, 40, 109, 64, 170, 21, 162, 103, 141 } },
	{ { 0x80, 0xaf, 0x49, 0x11, 0xe4, 0x9c, 0x49, 0x46,
	    0x36, 0xfe, 0x68, 0xc2, 0x95, 0x10, 0x9d, 0xf0 },
	  { 60, 207, 162, 218, 0, 32, 138, 8, 77, 207, 69, 142 } },
};

static void
test_reference_blocks(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 14; k++) {
		for (unsigned t = 0; t < 3; t++) {
			const uint16_t *u = &bc6h_ref[k].u[3 * t];
			const uint16_t *s = &bc6h_ref[k].s[3 * t];

			expect6(bc6h_ref[k].blk, false, ref_texels[t], u[0],
			        u[1], u[2]);
			expect6(bc6h_ref[k].blk, true, ref_texels[t], s[0],
			        s[1], s[2]);
		}
	}
	for (unsigned k = 0; k < 8; k++) {
		for (unsigned t = 0; t < 3; t++) {
			const uint8_t *c = &bc7_ref[k].rgba[4 * t];

			expect7(bc7_ref[k].blk, ref_texels[t], c[0], c[1],
			        c[2], c[3]);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Random blocks                                                       */
/* ------------------------------------------------------------------ */

static uint64_t
next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Checksums: 256 generated blocks per mode, every texel, against the same
 * CTS decoder: FNV-1a over UFLOAT | SFLOAT << 16 per BC6H channel and
 * R | G << 8 | B << 16 | A << 24 per BC7 texel. SFLOAT -0.0 (0x8000) is
 * folded to +0.0 first, as the CTS writes it (see test_bc6h_mode15_reversed
 * for the spec's -0.0). Catches what one block per mode can miss, e.g. two
 * one-bit fields swapped where that block's two bits happen to be equal. */
static const uint64_t bc6h_sums[14] = {
	0x871c19b569beffd9ull, 0xa8a9301491831d3cull, 0x112ad6a7030d5d5eull,
	0x65bf7070cb058413ull, 0xb9f9845e082b20bcull, 0x2227592245f35c7bull,
	0x7ce789da2cf52ca8ull, 0xcb2b6a6447cb8ccbull, 0x0c9c74c71f4c358eull,
	0x1823017bf315cc21ull, 0xb4c7a4306d9bc65dull, 0x8150f00bd27a1d3dull,
	0xed681812732b4d9dull, 0x1a970c4450061b8eull,
};

static const uint64_t bc7_sums[8] = {
	0x5251c6007174d830ull, 0xb7da6ee7bdadbde8ull, 0xc13cb4ea5eae95d0ull,
	0xa7c83624f55e64faull, 0x038b82a5df8954c8ull, 0x855598b6cb24e5bfull,
	0x84a0fff7509854dfull, 0x934a0319239fa67full,
};

static uint64_t
fnv1a(uint64_t h, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		h = (h ^ (v >> 8 * i & 0xff)) * 0x100000001b3ull;
	return h;
}

static void
generate(uint64_t *seed, uint8_t blk[16])
{
	for (unsigned i = 0; i < 16; i += 8) {
		const uint64_t r = next_random(seed);

		for (unsigned j = 0; j < 8; j++)
			blk[i + j] = (uint8_t)(r >> 8 * j);
	}
}

static const uint8_t bc6h_mode_ids[18] = {
	0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15,
	19, 23, 27, 31,                         /* reserved */
};

/* Sets the low 2 (modes 0, 1) or 5 bits of a BC6H block to mode id. */
static void
set_bc6h_mode(uint8_t blk[16], unsigned id)
{
	const unsigned mask = id < 2 ? 3 : 31;

	blk[0] = (uint8_t)((blk[0] & ~mask) | id);
}

/* BC7 mode m: m zero bits and a one; 8: the reserved low byte 0. */
static void
set_bc7_mode(uint8_t blk[16], unsigned m)
{
	blk[0] = m == 8 ? 0 : (uint8_t)((blk[0] & ~((2u << m) - 1)) | 1u << m);
}

static uint64_t
bc6h_sum(unsigned id, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned n = 0; n < 256; n++) {
		uint8_t blk[16];

		generate(&seed, blk);
		set_bc6h_mode(blk, id);
		for (unsigned t = 0; t < 16; t++) {
			uint16_t u[3], sg[3];

			bptc_decode_bc6h(blk, false, t % 4, t / 4, u);
			bptc_decode_bc6h(blk, true, t % 4, t / 4, sg);
			for (unsigned c = 0; c < 3; c++) {
				const uint32_t v = sg[c] == 0x8000 ? 0 : sg[c];

				h = fnv1a(h, u[c] | v << 16);
			}
		}
	}
	return h;
}

static uint64_t
bc7_sum(unsigned m, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned n = 0; n < 256; n++) {
		uint8_t blk[16], o[4];

		generate(&seed, blk);
		set_bc7_mode(blk, m);
		for (unsigned t = 0; t < 16; t++) {
			uint32_t v = 0;

			bptc_decode_bc7(blk, t % 4, t / 4, o);
			for (unsigned c = 0; c < 4; c++)
				v |= (uint32_t)o[c] << 8 * c;
			h = fnv1a(h, v);
		}
	}
	return h;
}

static void
test_checksums(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 14; k++) {
		const uint64_t h = bc6h_sum(bc6h_mode_ids[k], 100 + k);

		if (h != bc6h_sums[k])
			fail_msg("BC6H mode %u: checksum %#llx",
			         bc6h_mode_ids[k], (unsigned long long)h);
	}
	for (unsigned m = 0; m < 8; m++) {
		const uint64_t h = bc7_sum(m, 200 + m);

		if (h != bc7_sums[m])
			fail_msg("BC7 mode %u: checksum %#llx", m,
			         (unsigned long long)h);
	}
}

static void
test_random_blocks(void **state)
{
	uint64_t seed = 1;

	(void)state;
	for (unsigned n = 0; n < 40000; n++) {
		/* Exactly 16 bytes on the heap: ASan sees any read beyond. */
		uint8_t *blk = malloc(16);
		uint8_t copy[16];

		assert_non_null(blk);
		for (unsigned i = 0; i < 16; i++) {
			const uint64_t r = next_random(&seed);

			/* Saturated bytes reach the unquantize edge cases. */
			if (r % 4 < 2)
				blk[i] = r % 4 ? 0xff : 0;
			else
				blk[i] = (uint8_t)(r >> 8);
		}
		const unsigned m7 = n % 9;      /* 8: reserved */
		const unsigned m6 = bc6h_mode_ids[n % 18];
		const bool reserved6 = n % 18 >= 14;

		/* BC7, mode m7. */
		set_bc7_mode(blk, m7);
		memcpy(copy, blk, 16);
		for (unsigned t = 0; t < 16; t++) {
			uint8_t a[4], b[4];

			bptc_decode_bc7(blk, t % 4, t / 4, a);
			bptc_decode_bc7(copy, t % 4, t / 4, b);
			assert_memory_equal(a, b, 4);
			if (m7 == 8)
				assert_true(!a[0] && !a[1] && !a[2] && !a[3]);
			else if (m7 < 4)        /* no alpha bits: A = 255 */
				assert_int_equal(a[3], 255);
		}

		/* BC6H, mode m6, both formats. */
		set_bc6h_mode(blk, m6);
		memcpy(copy, blk, 16);
		for (unsigned t = 0; t < 16; t++) {
			uint16_t u[3], u2[3], s[3], s2[3];

			bptc_decode_bc6h(blk, false, t % 4, t / 4, u);
			bptc_decode_bc6h(copy, false, t % 4, t / 4, u2);
			bptc_decode_bc6h(blk, true, t % 4, t / 4, s);
			bptc_decode_bc6h(copy, true, t % 4, t / 4, s2);
			assert_memory_equal(u, u2, sizeof(u));
			assert_memory_equal(s, s2, sizeof(s));
			for (unsigned c = 0; c < 3; c++) {
				/* UFLOAT: 0..65504.0; SFLOAT: finite or
				 * -Inf (0xfc00), never NaN or +Inf. */
				assert_true(u[c] <= 0x7bff);
				assert_true((s[c] & 0x7fff) <= 0x7bff ||
				            s[c] == 0xfc00);
				if (reserved6)
					assert_true(!u[c] && !s[c]);
			}
		}
		free(blk);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bc7_mode6),
		cmocka_unit_test(test_bc7_mode1_two_subsets),
		cmocka_unit_test(test_bc7_mode2_three_subsets),
		cmocka_unit_test(test_bc7_mode4_rotation_isb),
		cmocka_unit_test(test_bc7_mode5),
		cmocka_unit_test(test_bc7_partition_tables),
		cmocka_unit_test(test_bc7_reserved),
		cmocka_unit_test(test_bc6h_mode3),
		cmocka_unit_test(test_bc6h_mode0_deltas),
		cmocka_unit_test(test_bc6h_mode7_signed),
		cmocka_unit_test(test_bc6h_mode15_reversed),
		cmocka_unit_test(test_bc6h_reserved),
		cmocka_unit_test(test_reference_blocks),
		cmocka_unit_test(test_checksums),
		cmocka_unit_test(test_random_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
