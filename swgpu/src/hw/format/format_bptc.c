/* SPDX-License-Identifier: MIT */
/*
 * BPTC decoding (BC7 and BC6H), following the Khronos Data Format
 * Specification 1.3, "BPTC Compressed Texture Image Formats".
 *
 * Both formats decode one texel of a 128-bit little-endian block: read the
 * mode, the endpoints of every subset and the partition number, pick the
 * texel's subset from the partition tables, read its index (anchor
 * indices, the first of each subset, are stored one bit shorter) and
 * interpolate the subset's two endpoints with the 6-bit weight the index
 * selects. BC7 endpoints are 8-bit UNORM; BC6H endpoints are integers
 * that are unquantized to 16 bits, interpolated, then scaled so that the
 * result is the bit pattern of a half float.
 *
 * The partition, anchor and BC6H bit-layout tables are the spec's, written
 * out as data: the mode logic then stays generic.
 */
#include "hw/format/format_bptc.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Shared: bit reading, tables, interpolation                          */
/* ------------------------------------------------------------------ */

struct bits {
	uint64_t lo, hi;        /* block bits 0..63, 64..127 */
	unsigned pos;           /* next bit for take() */
};

static void
bits_init(struct bits *b, const uint8_t block[16])
{
	b->lo = b->hi = 0;
	for (int i = 7; i >= 0; i--) {
		b->lo = b->lo << 8 | block[i];
		b->hi = b->hi << 8 | block[8 + i];
	}
	b->pos = 0;
}

/* n (0..32) bits at pos, LSB first; pos + n <= 128 everywhere below. */
static uint32_t
peek(const struct bits *b, unsigned pos, unsigned n)
{
	uint64_t v;

	if (n == 0)
		return 0;
	if (pos >= 64)
		v = b->hi >> (pos - 64);
	else if (pos == 0)
		v = b->lo;
	else
		v = b->lo >> pos | b->hi << (64 - pos);
	return (uint32_t)(v & ((1ull << n) - 1));
}

static uint32_t
take(struct bits *b, unsigned n)
{
	uint32_t v = peek(b, b->pos, n);

	b->pos += n;
	return v;
}

/* Partition patterns (bptcP2subset, bptcP3subset): the spec's 4x4 grids,
 * a row (y) of four subset numbers (x = 0..3) per word. BC6H uses the
 * first 32 two-subset patterns. */
static const char part2[64][20] = {
	"0011 0011 0011 0011", "0001 0001 0001 0001", "0111 0111 0111 0111",
	"0001 0011 0011 0111", "0000 0001 0001 0011", "0011 0111 0111 1111",
	"0001 0011 0111 1111", "0000 0001 0011 0111", "0000 0000 0001 0011",
	"0011 0111 1111 1111", "0000 0001 0111 1111", "0000 0000 0001 0111",
	"0001 0111 1111 1111", "0000 0000 1111 1111", "0000 1111 1111 1111",
	"0000 0000 0000 1111", "0000 1000 1110 1111", "0111 0001 0000 0000",
	"0000 0000 1000 1110", "0111 0011 0001 0000", "0011 0001 0000 0000",
	"0000 1000 1100 1110", "0000 0000 1000 1100", "0111 0011 0011 0001",
	"0011 0001 0001 0000", "0000 1000 1000 1100", "0110 0110 0110 0110",
	"0011 0110 0110 1100", "0001 0111 1110 1000", "0000 1111 1111 0000",
	"0111 0001 1000 1110", "0011 1001 1001 1100", "0101 0101 0101 0101",
	"0000 1111 0000 1111", "0101 1010 0101 1010", "0011 0011 1100 1100",
	"0011 1100 0011 1100", "0101 0101 1010 1010", "0110 1001 0110 1001",
	"0101 1010 1010 0101", "0111 0011 1100 1110", "0001 0011 1100 1000",
	"0011 0010 0100 1100", "0011 1011 1101 1100", "0110 1001 1001 0110",
	"0011 1100 1100 0011", "0110 0110 1001 1001", "0000 0110 0110 0000",
	"0100 1110 0100 0000", "0010 0111 0010 0000", "0000 0010 0111 0010",
	"0000 0100 1110 0100", "0110 1100 1001 0011", "0011 0110 1100 1001",
	"0110 0011 1001 1100", "0011 1001 1100 0110", "0110 1100 1100 1001",
	"0110 0011 0011 1001", "0111 1110 1000 0001", "0001 1000 1110 0111",
	"0000 1111 0011 0011", "0011 0011 1111 0000", "0010 0010 1110 1110",
	"0100 0100 0111 0111",
};

static const char part3[64][20] = {
	"0011 0011 0221 2222", "0001 0011 2211 2221", "0000 2001 2211 2211",
	"0222 0022 0011 0111", "0000 0000 1122 1122", "0011 0011 0022 0022",
	"0022 0022 1111 1111", "0011 0011 2211 2211", "0000 0000 1111 2222",
	"0000 1111 1111 2222", "0000 1111 2222 2222", "0012 0012 0012 0012",
	"0112 0112 0112 0112", "0122 0122 0122 0122", "0011 0112 1122 1222",
	"0011 2001 2200 2220", "0001 0011 0112 1122", "0111 0011 2001 2200",
	"0000 1122 1122 1122", "0022 0022 0022 1111", "0111 0111 0222 0222",
	"0001 0001 2221 2221", "0000 0011 0122 0122", "0000 1100 2210 2210",
	"0122 0122 0011 0000", "0012 0012 1122 2222", "0110 1221 1221 0110",
	"0000 0110 1221 1221", "0022 1102 1102 0022", "0110 0110 2002 2222",
	"0011 0122 0122 0011", "0000 2000 2211 2221", "0000 0002 1122 1222",
	"0222 0022 0012 0011", "0011 0012 0022 0222", "0120 0120 0120 0120",
	"0000 1111 2222 0000", "0120 1201 2012 0120", "0120 2012 1201 0120",
	"0011 2200 1122 0011", "0011 1122 2200 0011", "0101 0101 2222 2222",
	"0000 0000 2121 2121", "0022 1122 0022 1122", "0022 0011 0022 0011",
	"0220 1221 0220 1221", "0101 2222 2222 0101", "0000 2121 2121 2121",
	"0101 0101 0101 2222", "0222 0111 0222 0111", "0002 1112 0002 1112",
	"0000 2112 2112 2112", "0222 0111 0111 0222", "0002 1112 1112 0002",
	"0110 0110 0110 2222", "0000 0000 2112 2112", "0110 0110 2222 2222",
	"0022 0011 0011 0022", "0022 1122 1122 0022", "0000 0000 0000 2112",
	"0002 0001 0002 0001", "0222 1222 0222 1222", "0101 2222 2222 2222",
	"0111 2011 2201 2220",
};

/* Anchor texels: subset 1 of two (bptcA2index), subsets 1 and 2 of three
 * (bptcA32index, bptcA33index); subset 0's anchor is always texel 0. */
static const uint8_t anchor2[64] = {
	15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
	15,  2,  8,  2,  2,  8,  8, 15,  2,  8,  2,  2,  8,  8,  2,  2,
	15, 15,  6,  8,  2,  8, 15, 15,  2,  8,  2,  2,  2, 15, 15,  6,
	 6,  2,  6,  8, 15, 15,  2,  2, 15, 15, 15, 15, 15,  2,  2, 15,
};

static const uint8_t anchor3_1[64] = {
	 3,  3, 15, 15,  8,  3, 15, 15,  8,  8,  6,  6,  6,  5,  3,  3,
	 3,  3,  8, 15,  3,  3,  6, 10,  5,  8,  8,  6,  8,  5, 15, 15,
	 8, 15,  3,  5,  6, 10,  8, 15, 15,  3, 15,  5, 15, 15, 15, 15,
	 3, 15,  5,  5,  5,  8,  5, 10,  5, 10,  8, 13, 15, 12,  3,  3,
};

static const uint8_t anchor3_2[64] = {
	15,  8,  8,  3, 15, 15,  3,  8, 15, 15, 15, 15, 15, 15, 15,  8,
	15,  8, 15,  3, 15,  8, 15,  8,  3, 15,  6, 10, 15, 15, 10,  8,
	15,  3, 15, 10, 10,  8,  9, 10,  6, 15,  8, 15,  3,  6,  6,  8,
	15,  3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,  3, 15, 15,  8,
};

/* Interpolation weights (BPTCInterpolation) for 2-, 3- and 4-bit indices. */
static const uint8_t weights[3][16] = {
	{ 0, 21, 43, 64 },
	{ 0, 9, 18, 27, 37, 46, 55, 64 },
	{ 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 },
};

/* Subset of texel i and its anchors (texel 0 first) for ns subsets; the
 * i / 4 skips the spaces between the grid rows. */
static unsigned
subset_of(unsigned ns, unsigned part, unsigned i, unsigned anchors[3])
{
	anchors[0] = 0;
	if (ns == 2) {
		anchors[1] = anchor2[part];
		return (unsigned)(part2[part][i + i / 4] - '0');
	}
	if (ns == 3) {
		anchors[1] = anchor3_1[part];
		anchors[2] = anchor3_2[part];
		return (unsigned)(part3[part][i + i / 4] - '0');
	}
	return 0;
}

/* Index of texel i among 16 indices of nbits each from bit base: each
 * anchor's index has an implied zero top bit and is one bit shorter, so
 * anchors before i shift the texel's index down by one bit each. */
static uint32_t
read_index(const struct bits *b, unsigned base, unsigned nbits, unsigned i,
           const unsigned *anchors, unsigned n_anchors)
{
	unsigned pos = base + i * nbits, n = nbits;

	for (unsigned k = 0; k < n_anchors; k++) {
		if (anchors[k] < i)
			pos--;
		else if (anchors[k] == i)
			n--;
	}
	return peek(b, pos, n);
}

/* (64 - w) * e0 + w * e1 + 32, shifted right by 6. BC6H SFLOAT endpoints
 * are negative too: the shift is an arithmetic one (rounds down), written
 * out because >> of a negative int is implementation-defined in C. */
static int32_t
interpolate(int32_t e0, int32_t e1, unsigned w)
{
	int32_t v = (64 - (int32_t)w) * e0 + (int32_t)w * e1 + 32;

	return v >= 0 ? v / 64 : -((-v + 63) / 64);
}

/* ------------------------------------------------------------------ */
/* BC7                                                                 */
/* ------------------------------------------------------------------ */

/* table-bptcmodes: subsets, partition/rotation/index-selection bits,
 * colour/alpha bits, per-endpoint/shared P-bits, index bits (2nd set). */
static const struct bc7_mode {
	uint8_t ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2;
} bc7_modes[8] = {
	{ 3, 4, 0, 0, 4, 0, 1, 0, 3, 0 },
	{ 2, 6, 0, 0, 6, 0, 0, 1, 3, 0 },
	{ 3, 6, 0, 0, 5, 0, 0, 0, 2, 0 },
	{ 2, 6, 0, 0, 7, 0, 1, 0, 2, 0 },
	{ 1, 0, 2, 1, 5, 6, 0, 0, 2, 3 },
	{ 1, 0, 2, 0, 7, 8, 0, 0, 2, 2 },
	{ 1, 0, 0, 0, 7, 7, 1, 0, 4, 0 },
	{ 2, 6, 0, 0, 5, 5, 1, 0, 2, 0 },
};

/* The stored bits are the top bits of a byte; the top bits are replicated
 * into the rest (prec is 5..8 here). */
static uint32_t
expand8(uint32_t v, unsigned prec)
{
	return (v << (8 - prec) | v >> (2 * prec - 8)) & 0xff;
}

void
bptc_decode_bc7(const uint8_t block[16], uint32_t x, uint32_t y,
                uint8_t rgba[4])
{
	const unsigned i = (y & 3) * 4 + (x & 3);
	struct bits b;
	unsigned mode = 0, anchors[3];
	uint32_t ep[6][4];          /* endpoint (2 * subset + 0/1), channel */

	if (block[0] == 0) {        /* mode 8: reserved */
		memset(rgba, 0, 4);
		return;
	}
	while (!(block[0] >> mode & 1))
		mode++;

	const struct bc7_mode *m = &bc7_modes[mode];
	const unsigned nep = 2u * m->ns;
	/* Endpoint precision once the P-bit (if any) is below the data. */
	const unsigned pbit = m->epb | m->spb;
	const unsigned cprec = m->cb + pbit, aprec = m->ab + pbit;

	bits_init(&b, block);
	b.pos = mode + 1;
	const unsigned part = take(&b, m->pb);
	const unsigned rot = take(&b, m->rb);
	const unsigned isb = take(&b, m->isb);

	/* R of every endpoint, then G, B and A: endpoint-major per channel. */
	for (unsigned c = 0; c < 4; c++)
		for (unsigned e = 0; e < nep; e++)
			ep[e][c] = take(&b, c < 3 ? m->cb : m->ab);

	/* P-bits: one per endpoint in endpoint order, or one per subset
	 * shared by its two endpoints; the bit below the stored ones. */
	uint32_t p[6] = { 0 };

	for (unsigned e = 0; e < nep; e++) {
		if (m->epb)
			p[e] = take(&b, 1);
		else if (m->spb && e % 2 == 0)
			p[e] = p[e + 1] = take(&b, 1);
	}
	for (unsigned e = 0; e < nep; e++)
		for (unsigned c = 0; c < 4; c++)
			ep[e][c] = ep[e][c] << pbit | p[e];
	for (unsigned e = 0; e < nep; e++) {
		for (unsigned c = 0; c < 3; c++)
			ep[e][c] = expand8(ep[e][c], cprec);
		ep[e][3] = m->ab ? expand8(ep[e][3], aprec) : 255;
	}

	/* Index fields: the primary, then the secondary (one subset, so
	 * its only anchor is texel 0). */
	const unsigned s = subset_of(m->ns, part, i, anchors);
	const unsigned base2 = b.pos + 16 * m->ib - m->ns;
	const uint32_t idx1 = read_index(&b, b.pos, m->ib, i, anchors, m->ns);
	const uint32_t idx2 = m->ib2 ? read_index(&b, base2, m->ib2, i,
	                                          anchors, 1) : 0;
	/* Colour uses the secondary index only with the selection bit set;
	 * alpha uses it whenever there is one and the bit is clear. */
	const bool c2 = m->ib2 && isb, a2 = m->ib2 && !isb;
	const unsigned cbits = c2 ? m->ib2 : m->ib, abits = a2 ? m->ib2 : m->ib;
	const unsigned wc = weights[cbits - 2][c2 ? idx2 : idx1];
	const unsigned wa = weights[abits - 2][a2 ? idx2 : idx1];

	for (unsigned c = 0; c < 4; c++)
		rgba[c] = (uint8_t)interpolate((int32_t)ep[2 * s][c],
		                               (int32_t)ep[2 * s + 1][c],
		                               c < 3 ? wc : wa);
	if (rot) {                  /* 1, 2, 3: swap A with R, G, B */
		const uint8_t t = rgba[3];

		rgba[3] = rgba[rot - 1];
		rgba[rot - 1] = t;
	}
}

/* ------------------------------------------------------------------ */
/* BC6H                                                                */
/* ------------------------------------------------------------------ */

/* One element v^a..b^ of table-bptcblockformat: the next |a - b| + 1
 * block bits go to bits b, b+1 .. a of v (b, b-1 .. a when a < b, the
 * reversed fields of modes 11 and 15). v is channel ch of endpoint e. */
struct bc6h_field {
	uint8_t e, ch, a, b;
};

/* A mode: its number (low 2 or 5 bits), partition bits (5: two subsets,
 * the 5 bits at 77..81; 0: one subset), endpoint bits, delta bits (all
 * 0 when the endpoints are not transformed), and the layout after the
 * mode bits, up to bit 77 or 65. */
struct bc6h_mode {
	uint8_t id, pb, epb, delta[3];
	struct bc6h_field f[23];
};

#define R0(a, b) { 0, 0, a, b }
#define G0(a, b) { 0, 1, a, b }
#define B0(a, b) { 0, 2, a, b }
#define R1(a, b) { 1, 0, a, b }
#define G1(a, b) { 1, 1, a, b }
#define B1(a, b) { 1, 2, a, b }
#define R2(a, b) { 2, 0, a, b }
#define G2(a, b) { 2, 1, a, b }
#define B2(a, b) { 2, 2, a, b }
#define R3(a, b) { 3, 0, a, b }
#define G3(a, b) { 3, 1, a, b }
#define B3(a, b) { 3, 2, a, b }

static const struct bc6h_mode bc6h_modes[14] = {
	{ 0, 5, 10, { 5, 5, 5 }, {
		G2(4, 4), B2(4, 4), B3(4, 4), R0(9, 0), G0(9, 0), B0(9, 0),
		R1(4, 0), G3(4, 4), G2(3, 0), G1(4, 0), B3(0, 0), G3(3, 0),
		B1(4, 0), B3(1, 1), B2(3, 0), R2(4, 0), B3(2, 2), R3(4, 0),
		B3(3, 3) } },
	{ 1, 5, 7, { 6, 6, 6 }, {
		G2(5, 5), G3(4, 4), G3(5, 5), R0(6, 0), B3(0, 0), B3(1, 1),
		B2(4, 4), G0(6, 0), B2(5, 5), B3(2, 2), G2(4, 4), B0(6, 0),
		B3(3, 3), B3(5, 5), B3(4, 4), R1(5, 0), G2(3, 0), G1(5, 0),
		G3(3, 0), B1(5, 0), B2(3, 0), R2(5, 0), R3(5, 0) } },
	{ 2, 5, 11, { 5, 4, 4 }, {
		R0(9, 0), G0(9, 0), B0(9, 0), R1(4, 0), R0(10, 10), G2(3, 0),
		G1(3, 0), G0(10, 10), B3(0, 0), G3(3, 0), B1(3, 0), B0(10, 10),
		B3(1, 1), B2(3, 0), R2(4, 0), B3(2, 2), R3(4, 0), B3(3, 3) } },
	{ 6, 5, 11, { 4, 5, 4 }, {
		R0(9, 0), G0(9, 0), B0(9, 0), R1(3, 0), R0(10, 10), G3(4, 4),
		G2(3, 0), G1(4, 0), G0(10, 10), G3(3, 0), B1(3, 0), B0(10, 10),
		B3(1, 1), B2(3, 0), R2(3, 0), B3(0, 0), B3(2, 2), R3(3, 0),
		G2(4, 4), B3(3, 3) } },
	{ 10, 5, 11, { 4, 4, 5 }, {
		R0(9, 0), G0(9, 0), B0(9, 0), R1(3, 0), R0(10, 10), B2(4, 4),
		G2(3, 0), G1(3, 0), G0(10, 10), B3(0, 0), G3(3, 0), B1(4, 0),
		B0(10, 10), B2(3, 0), R2(3, 0), B3(1, 1), B3(2, 2), R3(3, 0),
		B3(4, 4), B3(3, 3) } },
	{ 14, 5, 9, { 5, 5, 5 }, {
		R0(8, 0), B2(4, 4), G0(8, 0), G2(4, 4), B0(8, 0), B3(4, 4),
		R1(4, 0), G3(4, 4), G2(3, 0), G1(4, 0), B3(0, 0), G3(3, 0),
		B1(4, 0), B3(1, 1), B2(3, 0), R2(4, 0), B3(2, 2), R3(4, 0),
		B3(3, 3) } },
	{ 18, 5, 8, { 6, 5, 5 }, {
		R0(7, 0), G3(4, 4), B2(4, 4), G0(7, 0), B3(2, 2), G2(4, 4),
		B0(7, 0), B3(3, 3), B3(4, 4), R1(5, 0), G2(3, 0), G1(4, 0),
		B3(0, 0), G3(3, 0), B1(4, 0), B3(1, 1), B2(3, 0), R2(5, 0),
		R3(5, 0) } },
	{ 22, 5, 8, { 5, 6, 5 }, {
		R0(7, 0), B3(0, 0), B2(4, 4), G0(7, 0), G2(5, 5), G2(4, 4),
		B0(7, 0), G3(5, 5), B3(4, 4), R1(4, 0), G3(4, 4), G2(3, 0),
		G1(5, 0), G3(3, 0), B1(4, 0), B3(1, 1), B2(3, 0), R2(4, 0),
		B3(2, 2), R3(4, 0), B3(3, 3) } },
	{ 26, 5, 8, { 5, 5, 6 }, {
		R0(7, 0), B3(1, 1), B2(4, 4), G0(7, 0), B2(5, 5), G2(4, 4),
		B0(7, 0), B3(5, 5), B3(4, 4), R1(4, 0), G3(4, 4), G2(3, 0),
		G1(4, 0), B3(0, 0), G3(3, 0), B1(5, 0), B2(3, 0), R2(4, 0),
		B3(2, 2), R3(4, 0), B3(3, 3) } },
	{ 30, 5, 6, { 0, 0, 0 }, {
		R0(5, 0), G3(4, 4), B3(0, 0), B3(1, 1), B2(4, 4), G0(5, 0),
		G2(5, 5), B2(5, 5), B3(2, 2), G2(4, 4), B0(5, 0), G3(5, 5),
		B3(3, 3), B3(5, 5), B3(4, 4), R1(5, 0), G2(3, 0), G1(5, 0),
		G3(3, 0), B1(5, 0), B2(3, 0), R2(5, 0), R3(5, 0) } },
	{ 3, 0, 10, { 0, 0, 0 }, {
		R0(9, 0), G0(9, 0), B0(9, 0), R1(9, 0), G1(9, 0), B1(9, 0) } },
	{ 7, 0, 11, { 9, 9, 9 }, {
		R0(9, 0), G0(9, 0), B0(9, 0), R1(8, 0), R0(10, 10), G1(8, 0),
		G0(10, 10), B1(8, 0), B0(10, 10) } },
	{ 11, 0, 12, { 8, 8, 8 }, {
		R0(9, 0), G0(9, 0), B0(9, 0), R1(7, 0), R0(10, 11), G1(7, 0),
		G0(10, 11), B1(7, 0), B0(10, 11) } },
	{ 15, 0, 16, { 4, 4, 4 }, {
		R0(9, 0), G0(9, 0), B0(9, 0), R1(3, 0), R0(10, 15), G1(3, 0),
		G0(10, 15), B1(3, 0), B0(10, 15) } },
};

#undef R0
#undef G0
#undef B0
#undef R1
#undef G1
#undef B1
#undef R2
#undef G2
#undef B2
#undef R3
#undef G3
#undef B3

/* Two's complement value of the low n bits of v. */
static int32_t
sign_extend(uint32_t v, unsigned n)
{
	const uint32_t sign = 1u << (n - 1);

	return (int32_t)(v & (sign - 1)) - (int32_t)(v & sign);
}

/* The spec's endpoint unquantization to a 16-bit range. */
static int32_t
unquantize(int32_t x, unsigned epb, bool is_signed)
{
	if (!is_signed) {
		if (epb >= 15 || x == 0)
			return x;
		if (x == (1 << epb) - 1)
			return 0xffff;
		return ((x << 15) + 0x4000) >> (epb - 1);
	}
	if (epb >= 16)
		return x;

	const int32_t ax = x < 0 ? -x : x;
	int32_t unq;

	if (ax == 0)
		unq = 0;
	else if (ax >= (1 << (epb - 1)) - 1)
		unq = 0x7fff;
	else
		unq = ((ax << 15) + 0x4000) >> (epb - 1);
	return x < 0 ? -unq : unq;
}

/* Channel c of endpoint n (E0..E3) as an integer. Transformed modes store
 * E1..E3 as two's complement deltas from E0, the sum wrapping at the
 * endpoint bits; SFLOAT then reads every endpoint as two's complement. */
static int32_t
endpoint(const struct bc6h_mode *m, uint32_t raw[4][3], unsigned n,
         unsigned c, bool is_signed)
{
	uint32_t v = raw[n][c];

	if (m->delta[0] && n > 0) {
		const uint32_t d = (uint32_t)sign_extend(v, m->delta[c]);

		v = (raw[0][c] + d) & ((1u << m->epb) - 1);
	}
	return is_signed ? sign_extend(v, m->epb) : (int32_t)v;
}

/* The spec's final step: the interpolated 16-bit value scaled into the
 * finite half range, UFLOAT 0..0xffff by 31/64 to 0..0x7bff, SFLOAT
 * magnitude by 31/32 with the sign in bit 15. */
static uint16_t
finish(int32_t v, bool is_signed)
{
	if (!is_signed)
		return (uint16_t)((v * 31) >> 6);
	if (v < 0)
		return (uint16_t)((((-v) * 31) >> 5) | 0x8000);
	return (uint16_t)((v * 31) >> 5);
}

void
bptc_decode_bc6h(const uint8_t block[16], bool is_signed, uint32_t x,
                 uint32_t y, uint16_t rgb_half[3])
{
	const unsigned i = (y & 3) * 4 + (x & 3);
	const unsigned low2 = block[0] & 3u;
	const unsigned mode = low2 < 2 ? low2 : block[0] & 0x1fu;
	const struct bc6h_mode *m = NULL;
	struct bits b;
	uint32_t raw[4][3] = { { 0 } };

	for (unsigned k = 0; k < 14; k++)
		if (bc6h_modes[k].id == mode)
			m = &bc6h_modes[k];
	if (!m) {                   /* 19, 23, 27, 31: reserved */
		memset(rgb_half, 0, 3 * sizeof(rgb_half[0]));
		return;
	}

	/* Scatter the layout's fields into the endpoints' bits. */
	const unsigned end = m->pb ? 77 : 65;

	bits_init(&b, block);
	b.pos = mode < 2 ? 2 : 5;
	for (const struct bc6h_field *f = m->f; b.pos < end; f++) {
		const bool rev = f->a < f->b;
		const unsigned n = (rev ? f->b - f->a : f->a - f->b) + 1u;
		const uint32_t v = take(&b, n);

		for (unsigned k = 0; k < n; k++) {
			const unsigned bit = rev ? f->b - k : f->b + k;

			raw[f->e][f->ch] |= (v >> k & 1) << bit;
		}
	}
	const unsigned part = take(&b, m->pb);

	const unsigned ns = m->pb ? 2 : 1;
	unsigned anchors[3];
	const unsigned s = subset_of(ns, part, i, anchors);
	const unsigned ib = ns == 2 ? 3 : 4;
	const uint32_t idx = read_index(&b, ns == 2 ? 82 : 65, ib, i, anchors,
	                                ns);

	for (unsigned c = 0; c < 3; c++) {
		const int32_t e0 = endpoint(m, raw, 2 * s, c, is_signed);
		const int32_t e1 = endpoint(m, raw, 2 * s + 1, c, is_signed);
		const int32_t v = interpolate(unquantize(e0, m->epb, is_signed),
		                              unquantize(e1, m->epb, is_signed),
		                              weights[ib - 2][idx]);

		rgb_half[c] = finish(v, is_signed);
	}
}
