/* SPDX-License-Identifier: MIT */
/*
 * Blending and colour output of the graphics engine against reference
 * formulas: every blend factor and op on float and UNORM8 targets
 * (dual source included), independent blend state per attachment,
 * logic ops on UNORM and UINT targets (none on float), colour write
 * masks and color_write_enable, sRGB encode on write and decode for
 * blending.
 */
#include "gfx_frag_util.h"

/* ------------------------------------------------------------------ */
/* Blending                                                            */
/* ------------------------------------------------------------------ */

static double
bfactor(uint32_t f, int c, const double s[4], const double s1[4],
        const double d[4], const double k[4])
{
	switch (f) {
	case 0: return 0;
	case 1: return 1;
	case 2: return s[c];
	case 3: return 1 - s[c];
	case 4: return d[c];
	case 5: return 1 - d[c];
	case 6: return s[3];
	case 7: return 1 - s[3];
	case 8: return d[3];
	case 9: return 1 - d[3];
	case 10: return k[c];
	case 11: return 1 - k[c];
	case 12: return k[3];
	case 13: return 1 - k[3];
	case 14: return c == 3 ? 1 : fmin(s[3], 1 - d[3]);
	case 15: return s1[c];
	case 16: return 1 - s1[c];
	case 17: return s1[3];
	default: return 1 - s1[3];
	}
}

static double
bop(uint32_t op, double s, double sf, double d, double df)
{
	switch (op) {
	case 1: return s * sf - d * df;
	case 2: return d * df - s * sf;
	case 3: return fmin(s, d);
	case 4: return fmax(s, d);
	default: return s * sf + d * df;
	}
}

/* 8-bit UNORM: inputs in [0, 1] quantized as the float product
 * v * 255 rounded to nearest even, factors from those bytes, each
 * product x * f / 255 rounded to nearest, the op clamped to 0..255
 * (blend_unorm8.c's definition, here in doubles); d as stored. */
static uint32_t
blend8(uint32_t op, uint32_t sf, uint32_t df, int c, const double src[4],
       const double src1[4], const double d[4], const double kc[4])
{
	double s[4], s1[4], k[4], dd[4];

	for (int i = 0; i < 4; i++) {
		s[i] = nearbyint((double)((float)src[i] * 255.0f)) / 255;
		s1[i] = nearbyint((double)((float)src1[i] * 255.0f)) / 255;
		k[i] = nearbyint((double)((float)kc[i] * 255.0f)) / 255;
		dd[i] = d[i];
	}
	if (op >= 3)
		return (uint32_t)nearbyint(bop(op, s[c], 0, dd[c], 0) * 255);
	const double a = floor(s[c] * bfactor(sf, c, s, s1, dd, k) * 255 +
	                       0.5);
	const double b = floor(dd[c] * bfactor(df, c, s, s1, dd, k) * 255 +
	                       0.5);
	const double r = op == 1 ? a - b : op == 2 ? b - a : a + b;
	return (uint32_t)fmin(fmax(r, 0), 255);
}

/* Every source and destination factor with ADD, then every op, on a
 * float target (exact formula) and an RGBA8 UNORM target (the 8-bit
 * fixed-point definition), dual-source factors reading Index 1. */
static void
test_blend_factors_ops(void **state)
{
	const double src[4] = { 0.25, 0.5, 0.75, 0.625 };
	const double src1[4] = { 0.125, 0.875, 0.375, 0.3125 };
	const double dst[4] = { 0.5, 0.25, 1.0, 0.75 };
	const double kc[4] = { 0.2, 0.4, 0.6, 0.8 };

	for (int target = 0; target < 2; target++)
		for (uint32_t sf = 0; sf < 19; sf++)
			for (uint32_t df = 0; df < 19; df += (sf == 1 ? 1 : 6))
				for (uint32_t op = 0; op < 5;
				     op += (sf == 6 && df == 7) ? 1 : 5) {
					struct fx f;
					struct vtx3 v[6];
					float s4[4], s14[4];
					fx_init(&f);
					uint32_t fmt = target
						? SWGPU_FORMAT_R8G8B8A8_UNORM
						: SWGPU_FORMAT_R32G32B32A32_SFLOAT;
					struct gt_image rt = gt_image(&f.t, fmt,
					                              W, H);
					uint32_t clear[4];
					for (int c = 0; c < 4; c++) {
						clear[c] = gt_fbits((float)dst[c]);
						s4[c] = (float)src[c];
						s14[c] = (float)src1[c];
					}
					fx_color(&f, 0, &rt, clear);
					f.t.dual = true;
					struct swgpu_blend_attachment *b =
						&f.ps.state.blend[0];
					b->enable = 1;
					b->src_color = b->src_alpha = sf;
					b->dst_color = b->dst_alpha = df;
					b->color_op = b->alpha_op = op;
					for (int c = 0; c < 4; c++)
						f.ps.state.blend_constants[c] =
							(float)kc[c];
					full_quad(v, 0.5f, s4, s14);
					assert_true(fx_draw(&f, v, 6));
					/* the destination as stored (UNORM8
					 * rounds the clear) */
					double d[4];
					for (int c = 0; c < 4; c++)
						d[c] = target
						       ? nearbyint(dst[c] * 255) / 255
						       : dst[c];
					for (int c = 0; c < 4; c++) {
						double want = bop(op, src[c],
							bfactor(sf, c, src, src1, d, kc),
							d[c],
							bfactor(df, c, src, src1, d, kc));
						double got;
						if (target) {
							/* the 8-bit fixed-point
							 * definition, exactly, and
							 * within its 2.5/255 of the
							 * real blend */
							const uint32_t g =
								gt_px(&rt, 5, 6)[c];
							const uint32_t w8 = blend8(
								op, sf, df, c, src,
								src1, d, kc);
							want = fmin(fmax(want, 0), 1);
							got = g / 255.0;
							if (g != w8 ||
							    fabs(got - want) > 2.5 / 255)
								fail_msg("rgba8 sf %u df %u op "
								         "%u c %d: %g want %g "
								         "(%u)", sf, df, op, c,
								         got, want, w8);
						} else {
							got = rd32f(&rt, 5, 6, c);
							if (fabs(got - want) > 1e-6)
								fail_msg("f32 sf %u df %u op "
								         "%u c %d: %g want %g",
								         sf, df, op, c, got,
								         want);
						}
					}
					gt_fini(&f.t);
				}
}

/* Separate colour and alpha state, per attachment (independent
 * blend), on two targets at once. */
static void
test_blend_independent(void **state)
{
	struct fx f;
	struct vtx3 v[6];
	const float s4[4] = { 0.25f, 0.5f, 0.75f, 0.5f };
	uint32_t clear[4] = { gt_fbits(0.5f), gt_fbits(0.5f), gt_fbits(0.5f),
	                      gt_fbits(0.5f) };

	fx_init(&f);
	struct gt_image a = gt_image(&f.t, SWGPU_FORMAT_R32G32B32A32_SFLOAT,
	                             W, H);
	struct gt_image b = gt_image(&f.t, SWGPU_FORMAT_R32G32B32A32_SFLOAT,
	                             W, H);
	fx_color(&f, 0, &a, clear);
	fx_color(&f, 1, &b, clear);
	struct swgpu_blend_attachment *b0 = &f.ps.state.blend[0];
	struct swgpu_blend_attachment *b1 = &f.ps.state.blend[1];
	b0->enable = 1;
	b0->src_color = 6;             /* SRC_ALPHA */
	b0->dst_color = 7;             /* 1 - SRC_ALPHA */
	b0->src_alpha = 1;
	b0->dst_alpha = 0;             /* alpha = src alpha */
	b1->enable = 1;
	b1->src_color = b1->dst_color = 1;
	b1->color_op = 2;              /* REVERSE_SUBTRACT: d - s */
	b1->src_alpha = b1->dst_alpha = 1;
	b1->alpha_op = 4;              /* MAX */
	full_quad(v, 0.5f, s4, NULL);
	assert_true(fx_draw(&f, v, 6));
	assert_true(rd32f(&a, 1, 1, 0) == 0.25f * 0.5f + 0.5f * 0.5f);
	assert_true(rd32f(&a, 1, 1, 2) == 0.75f * 0.5f + 0.5f * 0.5f);
	assert_true(rd32f(&a, 1, 1, 3) == 0.5f);
	assert_true(rd32f(&b, 1, 1, 0) == 0.25f);
	assert_true(rd32f(&b, 1, 1, 1) == 0.0f);
	assert_true(rd32f(&b, 1, 1, 2) == -0.25f);
	assert_true(rd32f(&b, 1, 1, 3) == 0.5f);
	gt_fini(&f.t);
}

/* ------------------------------------------------------------------ */
/* Logic ops, write masks, sRGB                                        */
/* ------------------------------------------------------------------ */

static uint32_t
logic_ref(uint32_t op, uint32_t s, uint32_t d)
{
	switch (op) {
	case 0: return 0;
	case 1: return s & d;
	case 2: return s & ~d;
	case 3: return s;
	case 4: return ~s & d;
	case 5: return d;
	case 6: return s ^ d;
	case 7: return s | d;
	case 8: return ~(s | d);
	case 9: return ~(s ^ d);
	case 10: return ~d;
	case 11: return s | ~d;
	case 12: return ~s;
	case 13: return ~s | d;
	case 14: return ~(s & d);
	default: return ~0u;
	}
}

/* Every logic op on an R8G8B8A8_UINT and an R8G8B8A8_UNORM target, and
 * none on a float target (written as is). */
static void
test_logic_ops(void **state)
{
	for (uint32_t op = 0; op < 16; op++) {
		struct fx f;
		struct vtx3 v[6];
		fx_init(&f);
		struct gt_image ui = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UINT,
		                              W, H);
		struct gt_image un = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM,
		                              W, H);
		struct gt_image fl = gt_image(&f.t, SWGPU_FORMAT_R32_SFLOAT,
		                              W, H);
		fx_color(&f, 0, &ui, (const uint32_t[4]){ 0xc3, 0x0f, 0xf0, 0 });
		fx_color(&f, 1, &un, (const uint32_t[4]){
			gt_fbits(0xc3 / 255.0f), gt_fbits(0x0f / 255.0f),
			gt_fbits(0xf0 / 255.0f), 0 });
		fx_color(&f, 2, &fl, (const uint32_t[4]){ gt_fbits(9.0f) });
		f.ps.state.logic_op_enable = 1;
		f.ps.state.logic_op = op;
		f.ps.state.blend[2].enable = 1;  /* ignored with logic ops */
		f.ps.state.blend[2].src_color = 0;
		f.ps.state.blend[2].dst_color = 1;
		/* The UNORM target gets the bits 0x5a, 0xff, 0x00, 0x81
		 * from their normalized values (the UINT target of this
		 * draw takes float bits and is checked by
		 * test_logic_ops_uint with integer outputs). */
		const float c[4] = { 0x5a / 255.0f, 1.0f, 0.0f, 0x81 / 255.0f };
		full_quad(v, 0.5f, c, NULL);
		assert_true(fx_draw(&f, v, 6));
		const uint8_t s[4] = { 0x5a, 0xff, 0x00, 0x81 };
		const uint8_t d[4] = { 0xc3, 0x0f, 0xf0, 0x00 };
		for (int ch = 0; ch < 4; ch++) {
			uint8_t want = (uint8_t)logic_ref(op, s[ch], d[ch]);
			assert_int_equal(gt_px(&un, 3, 3)[ch], want);
		}
		/* float target: blending off, logic op not applied */
		assert_true(rd32f(&fl, 3, 3, 0) == 0x5a / 255.0f);
		gt_fini(&f.t);
	}
}

static void
frag_uint(struct gt *t, struct gfx_exec *e, uint32_t n, const uint8_t *live,
          uint8_t *discarded)
{
	const uint32_t s[4] = { 0x5a, 0xff, 0x00, 0x81 };

	for (uint32_t c = 0; c < 4; c++) {
		lane_t *o = gfx_exec_reg(e, GT_OUT(0, c));
		for (uint32_t l = 0; l < n; l++)
			o[l].u = s[c];
	}
}

static void
test_logic_ops_uint(void **state)
{
	for (uint32_t op = 0; op < 16; op++) {
		struct fx f;
		struct vtx3 v[6];
		const float c[4] = { 0, 0, 0, 0 };
		fx_init(&f);
		struct gt_image ui = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UINT,
		                              W, H);
		fx_color(&f, 0, &ui, (const uint32_t[4]){ 0xc3, 0x0f, 0xf0, 0 });
		f.ps.state.logic_op_enable = 1;
		f.ps.state.logic_op = op;
		f.t.frag = frag_uint;
		full_quad(v, 0.5f, c, NULL);
		assert_true(fx_draw(&f, v, 6));
		const uint8_t s[4] = { 0x5a, 0xff, 0x00, 0x81 };
		const uint8_t d[4] = { 0xc3, 0x0f, 0xf0, 0x00 };
		for (int ch = 0; ch < 4; ch++)
			assert_int_equal(gt_px(&ui, 3, 3)[ch],
			                 (uint8_t)logic_ref(op, s[ch], d[ch]));
		gt_fini(&f.t);
	}
}

/* Colour write mask per channel, and color_write_enable per target. */
static void
test_write_masks(void **state)
{
	for (uint32_t mask = 0; mask < 16; mask++) {
		struct fx f;
		struct vtx3 v[6];
		const float c[4] = { 1, 1, 1, 1 };
		fx_init(&f);
		struct gt_image a = gt_image(&f.t, SWGPU_FORMAT_B5G6R5_UNORM_PACK16,
		                             W, H);
		struct gt_image b = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM,
		                             W, H);
		fx_color(&f, 0, &a, (const uint32_t[4]){ 0, 0, 0, 0 });
		fx_color(&f, 1, &b, (const uint32_t[4]){ 0, 0, 0, 0 });
		f.ps.state.blend[0].write_mask = mask;
		f.ps.state.blend[1].write_mask = mask;
		f.ps.state.color_write_enable = 0x1;  /* target 1 off */
		full_quad(v, 0.5f, c, NULL);
		assert_true(fx_draw(&f, v, 6));
		uint16_t px;
		memcpy(&px, gt_px(&a, 2, 2), 2);
		/* B5G6R5: B in bits 11..15, G 5..10, R 0..4 */
		uint16_t want = (uint16_t)(((mask & 1) ? 0x001f : 0) |
		                           ((mask & 2) ? 0x07e0 : 0) |
		                           ((mask & 4) ? 0xf800 : 0));
		assert_int_equal(px, want);
		assert_int_equal(gt_px(&b, 2, 2)[0], 0);
		gt_fini(&f.t);
	}
}

/* sRGB targets: written values are encoded, blending reads them
 * decoded: 0.5 linear -> 188; 0.5 + 0.5 * dst (dst 188 = 0.5) -> 1.0. */
static void
test_srgb(void **state)
{
	const uint32_t fmts[2] = { SWGPU_FORMAT_R8G8B8A8_SRGB,
	                           SWGPU_FORMAT_B8G8R8A8_SRGB };

	for (int k = 0; k < 2; k++) {
		struct fx f;
		struct vtx3 v[12];
		const float c[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
		fx_init(&f);
		struct gt_image rt = gt_image(&f.t, fmts[k], W, H);
		fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
		quad(v, 0, 0, 8, 16, 0.5f, c, NULL);
		assert_true(fx_draw(&f, v, 6));
		assert_int_equal(gt_px(&rt, 2, 2)[0], 188);
		assert_int_equal(gt_px(&rt, 2, 2)[3], 128);  /* alpha UNORM */
		f.pass.color[0].load_op = SWGPU_LOAD_LOAD;
		struct swgpu_blend_attachment *b = &f.ps.state.blend[0];
		b->enable = 1;
		b->src_color = b->src_alpha = 1;
		b->dst_color = b->dst_alpha = 1;
		quad(v, 0, 0, 8, 16, 0.5f, c, NULL);
		assert_true(fx_draw(&f, v, 6));
		assert_int_equal(gt_px(&rt, 2, 2)[0], 255);
		assert_int_equal(gt_px(&rt, 2, 2)[3], 255);
		gt_fini(&f.t);
	}
}

/* Every colour-renderable format: a draw writes exactly what the
 * format's encoder makes of the colour (floats for float formats,
 * integers for integer ones); blendable ones also blend ONE + ONE onto
 * the cleared value. */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blend_factors_ops),
		cmocka_unit_test(test_blend_independent),
		cmocka_unit_test(test_logic_ops),
		cmocka_unit_test(test_logic_ops_uint),
		cmocka_unit_test(test_write_masks),
		cmocka_unit_test(test_srgb),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
