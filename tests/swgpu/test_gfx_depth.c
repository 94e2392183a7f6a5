/* SPDX-License-Identifier: MIT */
/*
 * Depth and stencil of the graphics engine against hand-computed
 * results: every compare op on D16_UNORM, X8_D24_UNORM and D32_SFLOAT,
 * the write mask, depth bias (constant, slope, clamp; the D32 unit),
 * depth clamp, depth bounds, every stencil op with its clamp and wrap
 * ends and write masks, compare masks and front/back state, coverage
 * counted with a stencil increment; late tests for a fragment program
 * reading an input attachment (it may be the depth attachment).
 */
#include "gfx_frag_util.h"

/* ------------------------------------------------------------------ */
/* Depth                                                               */
/* ------------------------------------------------------------------ */

static void
test_depth_compare_ops(void **state)
{
	const uint32_t formats[3] = { SWGPU_FORMAT_D16_UNORM,
	                              SWGPU_FORMAT_X8_D24_UNORM,
	                              SWGPU_FORMAT_D32_SFLOAT };
	const float zs[3] = { 0.25f, 0.5f, 0.75f };
	const float red[4] = { 1, 0, 0, 1 };

	for (int fi = 0; fi < 3; fi++)
		for (uint32_t op = 0; op < 8; op++)
			for (int zi = 0; zi < 3; zi++) {
				struct fx f;
				struct vtx3 v[6];
				fx_init(&f);
				struct gt_image rt = gt_image(
					&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
				struct gt_image zb = gt_image(&f.t, formats[fi],
				                              W, H);
				fx_color(&f, 0, &rt,
				         (const uint32_t[4]){ 0, 0, 0, 0 });
				gt_attachment(&zb, &f.pass.depth,
				              SWGPU_LOAD_CLEAR,
				              (const uint32_t[4]){
				                      gt_fbits(0.5f), 0, 0, 0 });
				f.ps.state.depth_test = 1;
				f.ps.state.depth_write = 1;
				f.ps.state.depth_compare = op;
				full_quad(v, zs[zi], red, NULL);
				assert_true(fx_draw(&f, v, 6));
				bool pass = cmp_ref(op, zs[zi], 0.5);
				float stored = gt_pxf(&zb, 7, 9, 0);
				assert_true(gt_px(&rt, 7, 9)[0] ==
				            (pass ? 255 : 0));
				float q = gfx_depth_quantize(formats[fi],
				                             pass ? zs[zi] : 0.5f);
				assert_true(stored == q);
				gt_fini(&f.t);
			}
}

/* Depth writes off: the test still decides, nothing is stored. */
static void
test_depth_write_mask(void **state)
{
	struct fx f;
	struct vtx3 v[12];
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };

	fx_init(&f);
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	struct gt_image zb = gt_image(&f.t, SWGPU_FORMAT_D32_SFLOAT, W, H);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(1.0f), 0, 0, 0 });
	f.ps.state.depth_test = 1;
	f.ps.state.depth_write = 0;
	f.ps.state.depth_compare = SWGPU_COMPARE_LESS;
	full_quad(v, 0.25f, red, NULL);
	full_quad(v + 6, 0.5f, green, NULL);
	assert_true(fx_draw(&f, v, 12));
	/* both pass against the untouched 1.0: green drawn last */
	assert_true(gt_px(&rt, 3, 3)[1] == 255 && gt_px(&rt, 3, 3)[0] == 0);
	assert_true(gt_pxf(&zb, 3, 3, 0) == 1.0f);
	gt_fini(&f.t);
}

/*
 * Depth bias. Constant: on X8_D24 r = 1 / (2^24 - 1), so 256 units on a
 * flat triangle at 0.25 store round((0.25 + 256 r) (2^24 - 1)) =
 * 4194304 + 256 - 0.25 -> 4194560 (+-1 for float rounding). Slope: a
 * quad whose depth grows 1/64 per pixel along x gets m = 1/64 times the
 * slope factor (0.5) more. Clamp: 0.001 caps a bias of 256 units
 * (1.5e-5) ... use a larger bias to hit it.
 */
static void
test_depth_bias(void **state)
{
	const float red[4] = { 1, 0, 0, 1 };

	for (int c = 0; c < 4; c++) {
		struct fx f;
		struct vtx3 v[6];
		fx_init(&f);
		struct gt_image zb = gt_image(&f.t, c == 3
		                              ? SWGPU_FORMAT_D32_SFLOAT
		                              : SWGPU_FORMAT_X8_D24_UNORM, W, H);
		gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
		              (const uint32_t[4]){ gt_fbits(1.0f), 0, 0, 0 });
		f.t.no_fs = true;
		f.ps.state.depth_test = 1;
		f.ps.state.depth_write = 1;
		f.ps.state.depth_compare = SWGPU_COMPARE_ALWAYS;
		f.ps.state.depth_bias_enable = 1;
		full_quad(v, 0.25f, red, NULL);
		double want_x5;    /* expected depth at pixel (5, 5) */
		if (c == 0) {
			f.ps.state.depth_bias_constant = 256.0f;
			want_x5 = 0.25 + 256.0 / 16777215.0;
		} else if (c == 1) {
			/* z = 0.25 + (x_screen + 1) / 64 across the quad */
			for (int i = 0; i < 6; i++) {
				float sx = (v[i].pos[0] + 1.0f) * W / 2.0f;
				v[i].pos[2] = 0.25f + sx / 64.0f;
			}
			f.ps.state.depth_bias_slope = 0.5f;
			want_x5 = 0.25 + 5.5 / 64.0 + 0.5 / 64.0;
		} else if (c == 2) {
			f.ps.state.depth_bias_constant = 1e6f;
			f.ps.state.depth_bias_clamp = 0.01f;
			want_x5 = 0.26;
		} else {
			/* D32: z in [0.25, 0.5): r = 2^(-2 - 23) */
			f.ps.state.depth_bias_constant = 8.0f;
			want_x5 = 0.25 + 8.0 * ldexp(1.0, -25);
		}
		assert_true(fx_draw(&f, v, 6));
		double got = gt_pxf(&zb, 5, 5, 0);
		double tol = c == 3 ? 1e-9 : 1.5 / 16777215.0;
		if (fabs(got - want_x5) > tol)
			fail_msg("bias case %d: depth %.9f, want %.9f", c, got,
			         want_x5);
		gt_fini(&f.t);
	}
}

/* depthClamp: a triangle beyond the far plane is not clipped and its
 * depth is clamped to the viewport's range (maxDepth 0.8); without the
 * clamp it is clipped away. */
static void
test_depth_clamp(void **state)
{
	const float red[4] = { 1, 0, 0, 1 };

	for (int clamp = 0; clamp < 2; clamp++) {
		struct fx f;
		struct vtx3 v[6];
		fx_init(&f);
		struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM,
		                              W, H);
		struct gt_image zb = gt_image(&f.t, SWGPU_FORMAT_D32_SFLOAT,
		                              W, H);
		fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
		gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
		              (const uint32_t[4]){ gt_fbits(1.0f), 0, 0, 0 });
		f.ps.state.depth_test = 1;
		f.ps.state.depth_write = 1;
		f.ps.state.depth_compare = SWGPU_COMPARE_ALWAYS;
		f.ps.state.depth_clamp = (uint32_t)clamp;
		f.ps.state.viewports[0].max_depth = 0.8f;
		full_quad(v, 1.5f, red, NULL);
		assert_true(fx_draw(&f, v, 6));
		assert_true(gt_px(&rt, 8, 8)[0] == (clamp ? 255 : 0));
		assert_true(gt_pxf(&zb, 8, 8, 0) == (clamp ? 0.8f : 1.0f));
		gt_fini(&f.t);
	}
}

/* Depth bounds on the stored value: left half holds 0.3, right 0.7;
 * bounds [0.2, 0.5] let only the left half through. */
static void
test_depth_bounds(void **state)
{
	struct fx f;
	struct vtx3 v[12];
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };

	fx_init(&f);
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	struct gt_image zb = gt_image(&f.t, SWGPU_FORMAT_D32_SFLOAT, W, H);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(1.0f), 0, 0, 0 });
	f.ps.state.depth_test = 1;
	f.ps.state.depth_write = 1;
	f.ps.state.depth_compare = SWGPU_COMPARE_ALWAYS;
	quad(v, 0, 0, 8, 16, 0.3f, red, NULL);
	quad(v + 6, 8, 0, 16, 16, 0.7f, red, NULL);
	assert_true(fx_draw(&f, v, 12));
	f.pass.color[0].load_op = SWGPU_LOAD_LOAD;
	f.pass.depth.load_op = SWGPU_LOAD_LOAD;
	f.ps.state.depth_bounds_test = 1;
	f.ps.state.min_depth_bounds = 0.2f;
	f.ps.state.max_depth_bounds = 0.5f;
	f.ps.state.depth_write = 0;
	full_quad(v, 0.1f, green, NULL);
	assert_true(fx_draw(&f, v, 6));
	assert_true(gt_px(&rt, 3, 3)[1] == 255);
	assert_true(gt_px(&rt, 12, 3)[1] == 0 && gt_px(&rt, 12, 3)[0] == 255);
	gt_fini(&f.t);
}

/* ------------------------------------------------------------------ */
/* Stencil                                                             */
/* ------------------------------------------------------------------ */

static uint8_t
stencil_ref_op(uint32_t op, uint8_t s, uint8_t ref)
{
	switch (op) {
	case 1: return 0;
	case 2: return ref;
	case 3: return s == 255 ? 255 : s + 1;
	case 4: return s == 0 ? 0 : s - 1;
	case 5: return (uint8_t)~s;
	case 6: return (uint8_t)(s + 1);
	case 7: return (uint8_t)(s - 1);
	default: return s;
	}
}

/* Every op as pass op from stored 0, 5 and 255 (clamp and wrap ends),
 * with write mask 0xff and 0x0f; and as fail / depth-fail op. */
static void
test_stencil_ops(void **state)
{
	const uint8_t clears[3] = { 0, 5, 255 };

	for (uint32_t op = 0; op < 8; op++)
		for (int ci = 0; ci < 3; ci++)
			for (int which = 0; which < 3; which++) {
				struct fx f;
				struct vtx3 v[6];
				const float red[4] = { 1, 0, 0, 1 };
				fx_init(&f);
				struct gt_image sb = gt_image(
					&f.t, SWGPU_FORMAT_S8_UINT, W, H);
				struct gt_image zb = gt_image(
					&f.t, SWGPU_FORMAT_D32_SFLOAT, W, H);
				gt_attachment(&sb, &f.pass.stencil,
				              SWGPU_LOAD_CLEAR,
				              (const uint32_t[4]){ clears[ci] });
				gt_attachment(&zb, &f.pass.depth,
				              SWGPU_LOAD_CLEAR,
				              (const uint32_t[4]){
				                      gt_fbits(0.5f) });
				f.t.no_fs = true;
				struct swgpu_stencil_face *fr = &f.ps.state.front;
				f.ps.state.stencil_test = 1;
				f.ps.state.depth_test = 1;
				fr->reference = 0x9c;
				fr->write_mask = which == 1 ? 0x0f : 0xff;
				fr->fail_op = fr->pass_op = fr->depth_fail_op = 0;
				if (which == 2) {
					/* stencil fails: compare NEVER */
					fr->compare_op = SWGPU_COMPARE_NEVER;
					fr->fail_op = op;
				} else {
					fr->compare_op = SWGPU_COMPARE_ALWAYS;
					fr->pass_op = op;
				}
				f.ps.state.back = *fr;
				f.ps.state.depth_compare = SWGPU_COMPARE_ALWAYS;
				full_quad(v, 0.25f, red, NULL);
				assert_true(fx_draw(&f, v, 6));
				uint8_t s = clears[ci];
				uint8_t r = stencil_ref_op(op, s, 0x9c);
				uint8_t m = which == 1 ? 0x0f : 0xff;
				uint8_t want = (uint8_t)((s & ~m) | (r & m));
				uint8_t got = *gt_px(&sb, 4, 4);
				if (got != want)
					fail_msg("op %u from %u case %d: %u, "
					         "want %u", op, s, which, got, want);
				gt_fini(&f.t);
			}
}

/* Compare ops and compare mask: (ref & mask) OP (stored & mask); depth
 * failing applies depthFailOp; back faces use the back state. */
static void
test_stencil_compare_faces(void **state)
{
	for (uint32_t op = 0; op < 8; op++) {
		struct fx f;
		struct vtx3 v[12];
		const float red[4] = { 1, 0, 0, 1 };
		fx_init(&f);
		struct gt_image sb = gt_image(&f.t, SWGPU_FORMAT_S8_UINT, W, H);
		struct gt_image zb = gt_image(&f.t, SWGPU_FORMAT_D16_UNORM, W,
		                              H);
		gt_attachment(&sb, &f.pass.stencil, SWGPU_LOAD_CLEAR,
		              (const uint32_t[4]){ 0x35 });
		gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
		              (const uint32_t[4]){ gt_fbits(0.5f) });
		f.t.no_fs = true;
		f.ps.state.stencil_test = 1;
		f.ps.state.depth_test = 1;
		f.ps.state.depth_compare = SWGPU_COMPARE_LESS;
		struct swgpu_stencil_face *fr = &f.ps.state.front;
		fr->compare_op = op;
		fr->compare_mask = 0xf0;
		fr->reference = 0x3a;     /* 0x30 vs 0x30 under the mask */
		fr->fail_op = 1;          /* ZERO */
		fr->pass_op = 2;          /* REPLACE */
		fr->depth_fail_op = 5;    /* INVERT */
		fr->write_mask = 0xff;
		struct swgpu_stencil_face *bk = &f.ps.state.back;
		*bk = *fr;
		bk->compare_op = SWGPU_COMPARE_ALWAYS;
		bk->pass_op = 3;          /* INC_CLAMP */
		bk->depth_fail_op = 7;    /* DEC_WRAP */
		/* left half: front-facing (CCW on screen) at z 0.25 (depth
		 * passes); right half: back-facing at z 0.75 (depth fails) */
		quad(v, 0, 0, 8, 16, 0.25f, red, NULL);
		quad(v + 6, 8, 0, 16, 16, 0.75f, red, NULL);
		for (int i = 0; i < 6; i++) {
			/* quad() winds clockwise on screen: make the left one
			 * counter-clockwise (front with front_face CCW) */
			if (i % 3 == 1) {
				struct vtx3 t = v[i];
				v[i] = v[i + 1];
				v[i + 1] = t;
			}
		}
		f.ps.state.front_face = 0;
		assert_true(fx_draw(&f, v, 12));
		bool pass = cmp_ref(op, 0x30, 0x30);
		assert_int_equal(*gt_px(&sb, 3, 3), pass ? 0x3a : 0x00);
		assert_int_equal(*gt_px(&sb, 12, 3), 0x34);
		gt_fini(&f.t);
	}
}

/* Counting coverage with a stencil increment: a fan of 40 triangles
 * around a centre, no fragment shader: every pixel 0 or 1, and the
 * pixels near the centre 1. */
static void
test_stencil_count_coverage(void **state)
{
	struct fx f;
	struct vtx3 v[40 * 3];
	const float red[4] = { 1, 0, 0, 1 };

	fx_init(&f);
	struct gt_image sb = gt_image(&f.t, SWGPU_FORMAT_S8_UINT, W, H);
	gt_attachment(&sb, &f.pass.stencil, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0 });
	f.t.no_fs = true;
	f.ps.state.stencil_test = 1;
	f.ps.state.front.pass_op = f.ps.state.back.pass_op = 6;
	memset(v, 0, sizeof(v));
	const double cx = 7.3, cy = 8.6;
	for (int i = 0; i < 40; i++)
		for (int k = 0; k < 3; k++) {
			double a = 2 * M_PI * (i + (k == 1)) / 40.0;
			double x = k == 2 ? cx : cx + 9 * cos(a);
			double y = k == 2 ? cy : cy + 9 * sin(a);
			x = floor(x * 256) / 256;
			y = floor(y * 256) / 256;
			struct vtx3 *p = &v[3 * i + k];
			p->pos[0] = (float)(2 * x / W - 1);
			p->pos[1] = (float)(2 * y / H - 1);
			p->pos[3] = 1;
			memcpy(p->a, red, 16);
		}
	/* the rim vertex k == 1 of triangle i equals k == 0 of i + 1 */
	assert_true(fx_draw(&f, v, 120));
	uint32_t ones = 0;
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			uint8_t s = *gt_px(&sb, x, y);
			assert_true(s <= 1);
			ones += s;
		}
	assert_true(*gt_px(&sb, 7, 8) == 1);
	assert_true(ones > 150 && ones < 256);
	gt_fini(&f.t);
}


/* The fragment program's colour: the stored depth at its pixel, read
 * from the attachment's memory as an input attachment would. */
static void
frag_read_depth(struct gt *t, struct gfx_exec *e, uint32_t n,
                const uint8_t *live, uint8_t *discarded)
{
	const struct gt_image *zb = t->user;
	const lane_t *fx = gfx_exec_reg(e, IR_REG_FRAG_COORD);
	const lane_t *fy = gfx_exec_reg(e, IR_REG_FRAG_COORD + 1);
	lane_t *out = gfx_exec_reg(e, GT_OUT(0, 0));

	for (uint32_t l = 0; l < n; l++) {
		uint32_t x = (uint32_t)fx[l].f, y = (uint32_t)fy[l].f;
		out[l].f = x < W && y < H ? gt_pxf(zb, x, y, 0) : -1.0f;
	}
}

/* A fragment shader reading an input attachment may be reading the
 * depth attachment it renders to: its depth write must not happen
 * before it runs (late tests), so it sees the depth stored before it
 * (0), not its own (0.5). Without the input attachment early tests run
 * and the same program sees 0.5, which shows the test can tell. */
static void
test_input_attachment_late_tests(void **state)
{
	for (int ia = 0; ia < 2; ia++) {
		struct fx f;
		struct vtx3 v[6];
		const float one[4] = { 1, 1, 1, 1 };

		fx_init(&f);
		struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R32_SFLOAT, W,
		                              H);
		struct gt_image zb = gt_image(&f.t, SWGPU_FORMAT_D32_SFLOAT, W,
		                              H);
		fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
		gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
		              (const uint32_t[4]){ gt_fbits(0.0f), 0, 0, 0 });
		f.ps.state.depth_test = 1;
		f.ps.state.depth_write = 1;
		f.ps.state.depth_compare = SWGPU_COMPARE_ALWAYS;
		f.t.frag = frag_read_depth;
		f.t.frag_no_discard = true;
		f.t.input_attachment = ia;
		f.t.user = &zb;
		full_quad(v, 0.5f, one, NULL);
		assert_true(fx_draw(&f, v, 6));
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++) {
				assert_float_equal(gt_pxf(&rt, x, y, 0),
				                   ia ? 0.0 : 0.5, 0.0);
				assert_float_equal(gt_pxf(&zb, x, y, 0), 0.5,
				                   0.0);
			}
		gt_fini(&f.t);
	}
}

/*
 * Whole quads take the early depth test a row at a time
 * (gfx_depth_rows) unless SWGPU_GFX_DEPTH_ROWS=0, and 8x8 blocks take it
 * as a whole unless SWGPU_GFX_RASTER_BLOCKS=0: the same scene of
 * overlapping sloped triangles (depths below 0, inside and above 1, with
 * and without depth clamp and bias) drawn each way must give the same
 * colour and depth bytes as quad by quad, for D32 and D16, every compare
 * op, writes on and off. Checked to differ from a scene that keeps its
 * first colour, so a fast path that passed or wrote nothing would fail.
 */
#define RW 96
#define RH 64

static uint32_t
rows_rand(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float
rows_randf(uint32_t *s, float lo, float hi)
{
	return lo + (hi - lo) * (float)(rows_rand(s) & 0xffff) / 65535.0f;
}

/* How rows_draw_area runs the early depth test: quad by quad, whole quads a
 * row at a time, or in 8x8 blocks (with rows for what blocks leave). */
enum rows_mode { ROWS_QUADS, ROWS_ROWS, ROWS_BLOCKS };

/* The render area: the whole image, or one with odd edges away from
 * the 8x8 block grid. */
static const struct { uint32_t x, y, w, h; } rows_area[2] = {
	{ 0, 0, RW, RH }, { 3, 2, RW - 6, RH - 5 },
};

static void
rows_draw_area(uint32_t fmt, uint32_t op, int clamp, int write, int bias,
               enum rows_mode mode, int area, uint8_t *color,
               uint8_t *depth, uint64_t *zbytes)
{
	enum { NT = 24 };
	struct vtx3 v[3 * NT];
	uint32_t seed = 7u + fmt * 131u + op * 17u;
	struct fx f;

	for (int i = 0; i < 3 * NT; i++) {
		v[i].pos[0] = rows_randf(&seed, -1.6f, 1.6f);
		v[i].pos[1] = rows_randf(&seed, -1.6f, 1.6f);
		v[i].pos[2] = rows_randf(&seed, -0.3f, 1.3f);
		v[i].pos[3] = 1.0f;
		for (int c = 0; c < 4; c++)
			v[i].a[c] = v[i].b[c] = (float)((i / 3 * 37 + c * 71) %
			                                256) / 255.0f;
	}
	setenv("SWGPU_GFX_DEPTH_ROWS", mode != ROWS_QUADS ? "1" : "0", 1);
	setenv("SWGPU_GFX_RASTER_BLOCKS", mode == ROWS_BLOCKS ? "1" : "0", 1);
	gt_init(&f.t, 2);
	gt_pipeline_defaults(&f.ps, RW, RH, NA);
	memset(&f.pass, 0, sizeof(f.pass));
	f.pass.layer_count = 1;
	f.pass.area_x = rows_area[area].x;
	f.pass.area_y = rows_area[area].y;
	f.pass.area_width = rows_area[area].w;
	f.pass.area_height = rows_area[area].h;
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, RW,
	                              RH);
	struct gt_image zb = gt_image(&f.t, fmt, RW, RH);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ fmt == SWGPU_FORMAT_D16_UNORM
	                                   ? 0x8000u : gt_fbits(0.5f),
	                                   0, 0, 0 });
	f.ps.state.depth_test = 1;
	f.ps.state.depth_write = (uint32_t)write;
	f.ps.state.depth_compare = op;
	f.ps.state.depth_clamp = (uint32_t)clamp;
	f.ps.state.viewports[0].min_depth = 0.1f;
	f.ps.state.viewports[0].max_depth = 0.9f;
	if (bias) {
		f.ps.state.depth_bias_enable = 1;
		f.ps.state.depth_bias_constant = 3.0f;
		f.ps.state.depth_bias_slope = 0.5f;
	}
	assert_true(fx_draw(&f, v, 3 * NT));
	*zbytes = (uint64_t)RW * RH * zb.bpp;
	for (uint32_t y = 0; y < RH; y++) {
		memcpy(color + 4u * RW * y, gt_px(&rt, 0, y), 4u * RW);
		memcpy(depth + (uint64_t)RW * zb.bpp * y, gt_px(&zb, 0, y),
		       (uint64_t)RW * zb.bpp);
	}
	gt_fini(&f.t);
}

/*
 * rows_draw_area's scene quad by quad against each of modes[] over
 * render area `area` (configurations k: clamp, writes, bias as bits;
 * with few_k only all off and all on), both formats, every compare op:
 * the same colour and depth bytes, and outside the area the image's
 * own (cleared) bytes. Returns the configurations whose picture shows
 * two triangles (the test decided something).
 */
static uint32_t
modes_same(int area, const enum rows_mode *modes, uint32_t nmodes,
           bool few_k)
{
	static const uint32_t formats[2] = { SWGPU_FORMAT_D32_SFLOAT,
	                                     SWGPU_FORMAT_D16_UNORM };
	static uint8_t c0[4 * RW * RH], c1[4 * RW * RH];
	static uint8_t z0[4 * RW * RH], z1[4 * RW * RH];
	uint32_t layered = 0;

	for (int fi = 0; fi < 2; fi++)
		for (uint32_t op = 0; op < 8; op++)
			for (int k = 0; k < 8; k++) {
				const int clamp = k & 1, write = (k >> 1) & 1;
				const int bias = (k >> 2) & 1;
				uint64_t n0, n1;
				bool two = false;

				if (few_k && k != 0 && k != 7)
					continue;
				rows_draw_area(formats[fi], op, clamp, write,
				               bias, ROWS_QUADS, area, c0, z0,
				               &n0);
				for (uint32_t m = 0; m < nmodes; m++) {
					rows_draw_area(formats[fi], op, clamp,
					               write, bias, modes[m], area,
					               c1, z1, &n1);
					assert_true(n0 == n1);
					if (memcmp(c0, c1, sizeof(c0)) ||
					    memcmp(z0, z1, n0))
						fail_msg("mode %d differs: area "
						         "%d format %u op %u "
						         "clamp %d write %d "
						         "bias %d", modes[m],
						         area, formats[fi], op,
						         clamp, write, bias);
				}
				/* two drawn colours somewhere */
				for (uint32_t i = 0, first = 0;
				     i < sizeof(c0) && !two; i += 4) {
					if (c0[i] && !first)
						first = c0[i];
					two = c0[i] && c0[i] != first;
				}
				layered += two;
				/* outside the area: never written */
				if (area)
					assert_true(c1[0] == 0 &&
					            c1[4 * RW - 1] == 0);
			}
	unsetenv("SWGPU_GFX_DEPTH_ROWS");
	unsetenv("SWGPU_GFX_RASTER_BLOCKS");
	return layered;
}

/* Whole image: rows of whole quads, and (where the CPU has AVX2) 8x8
 * blocks with the block's depth test (raster_block_avx2.c), against
 * quad by quad, every op and configuration. */
static void
test_depth_rows_same(void **state)
{
	static const enum rows_mode modes[2] = { ROWS_ROWS, ROWS_BLOCKS };

	assert_true(modes_same(0, modes, 2, false) > 40);
}

/* A render area off the 8x8 block grid: its edge blocks take the
 * per-quad path with the block's coverage, the others the block's
 * test. */
static void
test_raster_blocks_same(void **state)
{
	static const enum rows_mode modes[1] = { ROWS_BLOCKS };

	assert_true(modes_same(1, modes, 1, true) > 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depth_compare_ops),
		cmocka_unit_test(test_depth_write_mask),
		cmocka_unit_test(test_depth_bias),
		cmocka_unit_test(test_depth_clamp),
		cmocka_unit_test(test_depth_bounds),
		cmocka_unit_test(test_stencil_ops),
		cmocka_unit_test(test_stencil_compare_faces),
		cmocka_unit_test(test_stencil_count_coverage),
		cmocka_unit_test(test_input_attachment_late_tests),
		cmocka_unit_test(test_depth_rows_same),
		cmocka_unit_test(test_raster_blocks_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
