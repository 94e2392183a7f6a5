/* SPDX-License-Identifier: MIT */
/*
 * The fused 8-bit UNORM colour output (output8_unorm.c, output8_avx2.c)
 * against the per-pixel path (gfx_output_pixel: the format decoder,
 * gfx_blend and the format encoder), byte for byte:
 *  - unorm8.h: unorm8_encode against the encoder's
 *    (int)((double)v * 255 + 0.5) on every float in [0, 1]; the
 *    kernels' destination decode i / 255.0f against the format
 *    decoder's (float)(i / 255.0) on every byte;
 *  - whole batches with every source and destination factor and every
 *    op (colour and alpha), blend constants, dual source, RGBA and
 *    BGRA, random colours (out of range, NaN, values next to the
 *    rounding ties), partial quads, quads at the edge of an odd-sized
 *    target, the same quad twice in a batch (the second blends over the
 *    first), through the SSE2 kernel and, where the CPU has it, AVX2.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/gfx/output8_unorm.h"

static uint32_t
ref_unorm8(float v)
{
	double x = v > 0.0f ? (v < 1.0f ? (double)v : 1.0) : 0.0;
	return (uint32_t)(int)(x * 255.0 + 0.5);
}

static void
test_unorm8_every_float(void **state)
{
	(void)state;
	uint64_t bad = 0;
	/* bit patterns 0 (0.0f) .. 0x3f800000 (1.0f): every float in
	 * [0, 1] in increasing order */
	for (uint32_t b = 0; b <= 0x3f800000u; b++) {
		float v;
		memcpy(&v, &b, sizeof(v));
		if (unorm8_encode(v) != ref_unorm8(v) && bad++ < 5)
			print_error("v = %a: %u, reference %u\n", (double)v,
			            unorm8_encode(v), ref_unorm8(v));
	}
	assert_int_equal(bad, 0);
}

static void
test_unorm8_decode_every_byte(void **state)
{
	(void)state;
	for (uint32_t i = 0; i < 256; i++) {
		const float q = (float)i / 255.0f;
		assert_true((float)((double)i / 255.0) == q);
	}
}

/* ------------------------------------------------------------------ */
/* Batches against gfx_output_pixel                                   */
/* ------------------------------------------------------------------ */

#define TW 15   /* odd: the last column's quads are at the edge */
#define TH 9

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* A colour value: in [0, 1], next to a rounding tie (k + 0.5) / 255,
 * exactly k / 255, out of range, or NaN. */
static float
rnd_value(void)
{
	switch (rnd() % 8) {
	case 0: {
		float t = ((float)(rnd() % 255) + 0.5f) / 255.0f;
		int32_t ulps = (int32_t)(rnd() % 9) - 4;
		uint32_t b;
		memcpy(&b, &t, sizeof(b));
		b = (uint32_t)((int32_t)b + ulps);
		memcpy(&t, &b, sizeof(t));
		return t;
	}
	case 1: return (float)(rnd() % 256) / 255.0f;
	case 2: return (float)((int32_t)(rnd() % 400) - 100) / 100.0f;
	case 3: return rnd() % 4 ? 0.5f : NAN;
	default: return (float)rnd() / (float)(1u << 21);
	}
}

struct setup {
	uint8_t img[TH][TW][4];
	struct gfx_draw d;
	struct gfx_thread t;
	struct gfx_prim prim;
	lane_t src[4][GFX_LANES], src1[4][GFX_LANES];
	uint8_t qmask[GFX_BATCH_QUADS];
};

static void
target_init(struct gfx_color_target *rt, uint8_t *base, uint32_t format)
{
	memset(rt, 0, sizeof(*rt));
	rt->pl.base = base;
	rt->pl.row_pitch = TW * 4;
	rt->pl.bpp = 4;
	rt->pl.format = format;
	rt->pl.fi = swgpu_format_get_info(format);
	rt->pl_x1 = TW;
	rt->pl_y1 = TH;
	rt->write_mask = 0xf;
	gfx_output_target_init(rt);
}

/* One batch: out8 path into img_a, per pixel into img_b; equal. */
static void
one_batch(struct setup *s, uint32_t format, bool blend,
          const struct swgpu_blend_attachment *b, bool dual)
{
	static uint8_t img_a[TH][TW][4], img_b[TH][TW][4];
	struct gfx_color_target ra, rb;
	const lane_t *src[4], *src1[4];

	target_init(&ra, &img_a[0][0][0], format);
	target_init(&rb, &img_b[0][0][0], format);
	ra.blend = rb.blend = blend;
	ra.b = rb.b = *b;
	assert_int_equal(ra.fast == GFX_FAST_RGBA8_UNORM ||
	                 ra.fast == GFX_FAST_BGRA8_UNORM, 1);
	for (uint32_t y = 0; y < TH; y++)
		for (uint32_t x = 0; x < TW; x++)
			for (uint32_t c = 0; c < 4; c++)
				s->img[y][x][c] = (uint8_t)rnd();
	memcpy(img_a, s->img, sizeof(img_a));
	memcpy(img_b, s->img, sizeof(img_b));
	for (uint32_t c = 0; c < 4; c++) {
		s->d.blend_const[c] = rnd_value();
		for (uint32_t l = 0; l < GFX_LANES; l++) {
			s->src[c][l].f = rnd_value();
			s->src1[c][l].f = rnd_value();
		}
		src[c] = s->src[c];
		src1[c] = dual ? s->src1[c] : NULL;
	}
	/* quads: mostly in order over the target (whole and at the
	 * edges), some repeating the previous quad's pixels, some
	 * partial, a few empty */
	const uint32_t nq = 1 + rnd() % GFX_BATCH_QUADS;
	uint32_t pos = rnd() % 8;
	for (uint32_t q = 0; q < nq; q++) {
		struct gfx_quad *qd = &s->t.quad[q];
		if (q == 0 || rnd() % 5) {
			pos = (pos + 1 + (rnd() % 3 == 0)) %
			      (((TW + 1) / 2) * ((TH + 1) / 2));
		}
		qd->x = 2 * (int32_t)(pos % ((TW + 1) / 2));
		qd->y = 2 * (int32_t)(pos / ((TW + 1) / 2));
		qd->prim = &s->prim;
		uint32_t m = rnd() % 3 ? 0xf : rnd() % 16;
		/* pixels outside the target are never covered */
		if (qd->x + 1 >= TW)
			m &= 0x5;
		if (qd->y + 1 >= TH)
			m &= 0x3;
		qd->mask = (uint8_t)m;
		s->qmask[q] = (uint8_t)m;
	}
	s->t.nquads_out = nq;
	gfx_output_batch8(&s->t, &s->d, &ra, s->qmask, src, src1);
	for (uint32_t q = 0; q < nq; q++) {
		const struct gfx_quad *qd = &s->t.quad[q];
		for (uint32_t i = 0; i < 4; i++) {
			if (!(s->qmask[q] & (1u << i)))
				continue;
			lane_t ps[4], ps1[4];
			for (uint32_t c = 0; c < 4; c++) {
				ps[c] = s->src[c][4 * q + i];
				ps1[c] = s->src1[c][4 * q + i];
			}
			gfx_output_pixel(&s->d, &rb, qd->x + (int32_t)(i & 1),
			                 qd->y + (int32_t)(i >> 1), 0, ps,
			                 dual ? ps1 : NULL);
		}
	}
	if (memcmp(img_a, img_b, sizeof(img_a))) {
		for (uint32_t y = 0; y < TH; y++)
			for (uint32_t x = 0; x < TW; x++)
				if (memcmp(img_a[y][x], img_b[y][x], 4))
					print_error("(%u, %u): %02x%02x%02x%02x, "
					            "per pixel %02x%02x%02x%02x "
					            "(factors %u %u %u / %u %u "
					            "%u)\n", x, y,
					            img_a[y][x][0], img_a[y][x][1],
					            img_a[y][x][2], img_a[y][x][3],
					            img_b[y][x][0], img_b[y][x][1],
					            img_b[y][x][2], img_b[y][x][3],
					            b->src_color, b->dst_color,
					            b->color_op, b->src_alpha,
					            b->dst_alpha, b->alpha_op);
		fail();
	}
}

static void
every_factor_and_op(void)
{
	static struct setup s;
	const uint32_t formats[2] = { SWGPU_FORMAT_R8G8B8A8_UNORM,
	                              SWGPU_FORMAT_B8G8R8A8_UNORM };

	for (uint32_t fi = 0; fi < 2; fi++) {
		struct swgpu_blend_attachment b;
		memset(&b, 0, sizeof(b));
		for (uint32_t i = 0; i < 8; i++)
			one_batch(&s, formats[fi], false, &b, false);
		for (uint32_t sf = 0; sf < 19; sf++)
			for (uint32_t df = 0; df < 19; df++)
				for (uint32_t op = 0; op < 5; op++) {
					b.src_color = sf;
					b.dst_color = df;
					b.color_op = op;
					b.src_alpha = (sf + 7 * df) % 19;
					b.dst_alpha = (df + 5 * op) % 19;
					b.alpha_op = (op + sf) % 5;
					one_batch(&s, formats[fi], true, &b,
					          sf >= 15 || df >= 15);
				}
	}
}

static void
test_batches_sse2(void **state)
{
	(void)state;
	out8_use_avx2(false);
	every_factor_and_op();
}

static void
test_batches_avx2(void **state)
{
	(void)state;
	if (!out8_use_avx2(true))
		skip();
	every_factor_and_op();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unorm8_every_float),
		cmocka_unit_test(test_unorm8_decode_every_byte),
		cmocka_unit_test(test_batches_sse2),
		cmocka_unit_test(test_batches_avx2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
