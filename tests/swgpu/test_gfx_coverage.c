/* SPDX-License-Identifier: MIT */
/*
 * Multisample coverage of the graphics engine with one sample per pixel,
 * against hand-computed results: alpha to coverage keeps a fragment when
 * the alpha of colour output 0 is >= 0.5 and drops it before the depth
 * and stencil tests (nothing written), alpha to one stores alpha 1 (on
 * fixed- and floating-point attachments, not integer ones), and
 * with EarlyFragmentTests the tests (and their writes) come first so the
 * coverage only masks the colour.
 */
#include "gfx_frag_util.h"

/* Four 4-pixel columns whose output 0 alpha is 0.25, 0.5, 0.75 and the
 * float just below 0.5: alpha to coverage keeps x in [4, 12). */
static const float col_alpha[4] = { 0.25f, 0.5f, 0.75f, 0x1.fffffep-2f };

static bool
kept(uint32_t x)
{
	return x >= 4 && x < 12;
}

struct cov {
	struct fx f;
	struct gt_image rt, zb, sb;
};

/* RGBA32F target cleared to 0, D32 cleared to 1 with LESS and writes,
 * S8 cleared to 0 replaced by 7 where the stencil test (ALWAYS) runs;
 * the four columns at z 0.5 with colour (x / 16, 0.25, 0.5, alpha). */
static bool
cov_draw(struct cov *c, bool a2c, bool a21, bool early)
{
	struct vtx3 v[24];

	fx_init(&c->f);
	c->rt = gt_image(&c->f.t, SWGPU_FORMAT_R32G32B32A32_SFLOAT, W, H);
	c->zb = gt_image(&c->f.t, SWGPU_FORMAT_D32_SFLOAT, W, H);
	c->sb = gt_image(&c->f.t, SWGPU_FORMAT_S8_UINT, W, H);
	fx_color(&c->f, 0, &c->rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	gt_attachment(&c->zb, &c->f.pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(1.0f), 0, 0, 0 });
	gt_attachment(&c->sb, &c->f.pass.stencil, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0 });
	struct swgpu_raster_state *rs = &c->f.ps.state;
	rs->depth_test = 1;
	rs->depth_write = 1;
	rs->depth_compare = SWGPU_COMPARE_LESS;
	rs->stencil_test = 1;
	rs->front.compare_op = SWGPU_COMPARE_ALWAYS;
	rs->front.pass_op = 2;            /* REPLACE */
	rs->front.reference = 7;
	rs->front.write_mask = 0xff;
	rs->back = rs->front;
	rs->alpha_to_coverage = a2c;
	rs->alpha_to_one = a21;
	c->f.t.early = early;
	for (int k = 0; k < 4; k++) {
		const float rgba[4] = { (float)k / 16, 0.25f, 0.5f,
		                        col_alpha[k] };
		quad(v + 6 * k, 4.0f * (float)k, 0, 4.0f * (float)k + 4, H, 0.5f,
		     rgba, NULL);
	}
	return fx_draw(&c->f, v, 24);
}

/* Pixel (x, y) of the draw: colour written, depth and stencil written. */
static void
expect_pixel(const struct cov *c, uint32_t x, uint32_t y, bool color,
             bool zs, float alpha)
{
	const uint32_t k = x / 4;

	assert_true(rd32f(&c->rt, x, y, 0) == (color ? (float)k / 16 : 0));
	assert_true(rd32f(&c->rt, x, y, 1) == (color ? 0.25f : 0));
	assert_true(rd32f(&c->rt, x, y, 3) == (color ? alpha : 0));
	assert_true(gt_pxf(&c->zb, x, y, 0) == (zs ? 0.5f : 1.0f));
	assert_true(*gt_px(&c->sb, x, y) == (zs ? 7 : 0));
}

/* Off: everything drawn. On: the dropped columns leave colour, depth
 * and stencil as cleared; 0.5 itself is kept. */
static void
test_alpha_to_coverage(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct cov c;
		assert_true(cov_draw(&c, on, false, false));
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++) {
				bool keep = !on || kept(x);
				expect_pixel(&c, x, y, keep, keep,
				             col_alpha[x / 4]);
			}
		gt_fini(&c.f.t);
	}
}

/* Alpha to one after the coverage: the kept pixels store alpha 1 (the
 * coverage still came from the shader's alpha); alone, every pixel is
 * drawn with alpha 1. */
static void
test_alpha_to_one(void **state)
{
	for (int a2c = 0; a2c < 2; a2c++) {
		struct cov c;
		assert_true(cov_draw(&c, a2c, true, false));
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++) {
				bool keep = !a2c || kept(x);
				expect_pixel(&c, x, y, keep, keep, 1.0f);
			}
		gt_fini(&c.f.t);
	}
}

/* An integer attachment has no "one": alpha to one leaves the alpha it
 * is given (here the bits of the float alphas the shader wrote). */
static void
test_alpha_to_one_integer(void **state)
{
	struct fx f;
	struct vtx3 v[24];

	fx_init(&f);
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R32G32B32A32_UINT,
	                              W, H);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	f.ps.state.alpha_to_one = 1;
	for (int k = 0; k < 4; k++) {
		const float rgba[4] = { 1, 2, 3, col_alpha[k] };
		quad(v + 6 * k, 4.0f * (float)k, 0, 4.0f * (float)k + 4, H, 0.5f,
		     rgba, NULL);
	}
	assert_true(fx_draw(&f, v, 24));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			uint32_t a;
			memcpy(&a, gt_px(&rt, x, y) + 12, 4);
			assert_int_equal(a, gt_fbits(col_alpha[x / 4]));
		}
	gt_fini(&f.t);
}

/* EarlyFragmentTests: depth and stencil are tested and written before
 * the shader runs, everywhere; the coverage from alpha then only keeps
 * the colour writes of [4, 12). */
static void
test_alpha_to_coverage_early_tests(void **state)
{
	struct cov c;

	assert_true(cov_draw(&c, true, false, true));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			expect_pixel(&c, x, y, kept(x), true, col_alpha[x / 4]);
	gt_fini(&c.f.t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alpha_to_coverage),
		cmocka_unit_test(test_alpha_to_one),
		cmocka_unit_test(test_alpha_to_one_integer),
		cmocka_unit_test(test_alpha_to_coverage_early_tests),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
