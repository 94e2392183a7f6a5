/* SPDX-License-Identifier: MIT */
/*
 * The fused 8-bit UNORM colour output (output8_unorm.c, output8_avx2.c)
 * against the per-pixel path (gfx_output_pixel: the format decoder,
 * gfx_blend_unorm8 and the format encoder), byte for byte:
 *  - unorm8.h: unorm8_encode against the encoder's
 *    (int)((double)v * 255 + 0.5) on every float in [0, 1];
 *    unorm8_quantize one of the two nearest bytes of v * 255 (and the
 *    nearest unless v * 255 rounds onto a tie) on every float in
 *    [0, 1]; unorm8_mul the exactly rounded x * f / 255 on every pair;
 *  - gfx_blend_unorm8 (the fixed-point definition) against an
 *    independent integer model of it, and within 2.5/255 of the real
 *    blend of the unquantized inputs, every factor and op;
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

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

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
test_unorm8_quantize_every_float(void **state)
{
	(void)state;
	uint64_t bad = 0, off_nearest = 0;
	for (uint32_t b = 0; b <= 0x3f800000u; b++) {
		float v;
		memcpy(&v, &b, sizeof(v));
		const double x = (double)v * 255.0;   /* exact */
		const uint32_t q = unorm8_quantize(v);
		if (!(fabs((double)q - x) < 1.0) && bad++ < 5)
			print_error("v = %a: %u, not next to %.9g\n", (double)v,
			            q, x);
		if (q != ref_unorm8(v)) {
			/* only where the float product is a tie */
			const float p = v * 255.0f;
			if (p - floorf(p) != 0.5f && bad++ < 5)
				print_error("v = %a: %u, nearest %u\n",
				            (double)v, q, ref_unorm8(v));
			off_nearest++;
		}
	}
	assert_int_equal(bad, 0);
	/* out of range and NaN clamp */
	assert_int_equal(unorm8_quantize(-1.0f), 0);
	assert_int_equal(unorm8_quantize(7.0f), 255);
	assert_int_equal(unorm8_quantize(NAN), 0);
	assert_true(off_nearest < 1000);
}

static void
test_unorm8_mul_every_pair(void **state)
{
	(void)state;
	for (uint32_t x = 0; x < 256; x++)
		for (uint32_t f = 0; f < 256; f++)
			assert_int_equal(unorm8_mul(x, f),
			                 (uint32_t)floor(x * f / 255.0 + 0.5));
}

/* ------------------------------------------------------------------ */
/* gfx_blend_unorm8 against a model of the definition and real math   */
/* ------------------------------------------------------------------ */

/* factor of channel c in units of 1/255, from the 8-bit inputs */
static double
model_factor(uint32_t f, uint32_t c, const double s[4], const double s1[4],
             const double d[4], const double k[4])
{
	switch (f) {
	case 0: return 0;
	case 1: return 255;
	case 2: return s[c];
	case 3: return 255 - s[c];
	case 4: return d[c];
	case 5: return 255 - d[c];
	case 6: return s[3];
	case 7: return 255 - s[3];
	case 8: return d[3];
	case 9: return 255 - d[3];
	case 10: return k[c];
	case 11: return 255 - k[c];
	case 12: return k[3];
	case 13: return 255 - k[3];
	case 14: return c == 3 ? 255 : fmin(s[3], 255 - d[3]);
	case 15: return s1[c];
	case 16: return 255 - s1[c];
	case 17: return s1[3];
	default: return 255 - s1[3];
	}
}

/* The blend in units of 1/255: rnd rounds each product (the
 * definition) or not (real math on the given inputs). */
static double
model_blend(const struct swgpu_blend_attachment *b, uint32_t c,
            const double s[4], const double s1[4], const double d[4],
            const double k[4], bool rnd)
{
	const uint32_t sf = c < 3 ? b->src_color : b->src_alpha;
	const uint32_t df = c < 3 ? b->dst_color : b->dst_alpha;
	const uint32_t op = c < 3 ? b->color_op : b->alpha_op;
	double ps = s[c] * model_factor(sf, c, s, s1, d, k) / 255;
	double pd = d[c] * model_factor(df, c, s, s1, d, k) / 255;
	double r;

	if (rnd) {
		ps = floor(ps + 0.5);
		pd = floor(pd + 0.5);
	}
	switch (op) {
	case 1: r = ps - pd; break;
	case 2: r = pd - ps; break;
	case 3: r = fmin(s[c], d[c]); break;
	case 4: r = fmax(s[c], d[c]); break;
	default: r = ps + pd; break;
	}
	return fmin(fmax(r, 0), 255);
}

/* One random input set through gfx_blend_unorm8 and the models;
 * returns the largest distance from the real blend. */
static double
definition_once(const struct swgpu_blend_attachment *b)
{
	float src[4], src1[4], k[4];
	uint8_t dst[4], out[4];
	double qs[4], qs1[4], qk[4], qd[4], rs[4], rs1[4], rk[4];
	double worst = 0;

	for (uint32_t c = 0; c < 4; c++) {
		src[c] = (float)(rnd() % 100001) / 100000.0f;
		src1[c] = (float)(rnd() % 100001) / 100000.0f;
		k[c] = (float)(rnd() % 100001) / 100000.0f;
		dst[c] = (uint8_t)rnd();
		/* the quantization: the float product, to nearest even */
		qs[c] = nearbyint((double)(src[c] * 255.0f));
		qs1[c] = nearbyint((double)(src1[c] * 255.0f));
		qk[c] = nearbyint((double)(k[c] * 255.0f));
		qd[c] = dst[c];
		rs[c] = (double)src[c] * 255;
		rs1[c] = (double)src1[c] * 255;
		rk[c] = (double)k[c] * 255;
	}
	gfx_blend_unorm8(b, k, src, src1, dst, out);
	for (uint32_t c = 0; c < 4; c++) {
		const double want = model_blend(b, c, qs, qs1, qd, qk, true);
		const double real = model_blend(b, c, rs, rs1, qd, rk, false);
		if (out[c] != want)
			fail_msg("factors %u %u %u / %u %u %u c %u: %u, "
			         "definition %g", b->src_color, b->dst_color,
			         b->color_op, b->src_alpha, b->dst_alpha,
			         b->alpha_op, c, out[c], want);
		worst = fmax(worst, fabs(out[c] - real));
	}
	return worst;
}

static void
test_blend_unorm8_definition(void **state)
{
	(void)state;
	double worst = 0;

	for (uint32_t sf = 0; sf < 19; sf++)
		for (uint32_t df = 0; df < 19; df++)
			for (uint32_t op = 0; op < 5; op++)
				for (uint32_t it = 0; it < 40; it++) {
					const struct swgpu_blend_attachment b = {
						.src_color = sf, .dst_color = df,
						.color_op = op,
						.src_alpha = (sf + 3 * it) % 19,
						.dst_alpha = (df + 5 * it) % 19,
						.alpha_op = (op + it) % 5 };
					worst = fmax(worst, definition_once(&b));
				}
	print_message("worst distance from the real blend: %.3f / 255\n",
	              worst);
	/* a product of two quantized values (each within 0.5 of the real
	 * one) is within 0.5 + 0.5 + 0.25 / 255 before its rounding
	 * (0.5), the other one's within 0.5 + 0.5: 2.5 at most */
	assert_true(worst <= 2.5);
}

/* ------------------------------------------------------------------ */
/* Batches against gfx_output_pixel                                   */
/* ------------------------------------------------------------------ */

#define TW 15   /* odd: the last column's quads are at the edge */
#define TH 9

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
	uint32_t nq = 1 + rnd() % GFX_BATCH_QUADS;
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
	/* a quarter of the batches: one row of whole, fully covered quads
	 * side by side (the kernels' span path), 1..7 of them */
	if (rnd() % 4 == 0) {
		const uint32_t n = 1 + rnd() % (TW / 2);
		const uint32_t x0 = rnd() % (TW / 2 - n + 1);
		const uint32_t y0 = rnd() % (TH / 2);
		for (uint32_t q = 0; q < n; q++) {
			struct gfx_quad *qd = &s->t.quad[q];
			qd->x = 2 * (int32_t)(x0 + q);
			qd->y = 2 * (int32_t)y0;
			qd->prim = &s->prim;
			qd->mask = 0xf;
			s->qmask[q] = 0xf;
		}
		nq = n;
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
		cmocka_unit_test(test_unorm8_quantize_every_float),
		cmocka_unit_test(test_unorm8_mul_every_pair),
		cmocka_unit_test(test_blend_unorm8_definition),
		cmocka_unit_test(test_batches_sse2),
		cmocka_unit_test(test_batches_avx2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
