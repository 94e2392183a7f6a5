/* SPDX-License-Identifier: MIT */
/*
 * Per-fragment work of the graphics engine against hand-computed
 * results: interpolation (perspective-correct, noperspective, flat),
 * depth compare ops, depth bias and clamp, depth bounds, stencil ops
 * and masks per face, every blend factor and op (dual-source included),
 * logic ops, colour write masks, sRGB, every colour-renderable format,
 * discard with late tests.
 */
#include "gfx_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/format/format.h"

#define W 16
#define H 16
#define NA 3                       /* position, location 1, location 2 */

struct vtx3 {
	float pos[4];
	float a[4];                    /* location 1 */
	float b[4];                    /* location 2 */
};

/* Two triangles covering screen rect [x0, x1) x [y0, y1) (pixels) at
 * depth z, location 1 = c, location 2 = d. */
static void
quad(struct vtx3 *v, float x0, float y0, float x1, float y1, float z,
     const float c[4], const float d[4])
{
	const float xs[6] = { x0, x1, x1, x0, x1, x0 };
	const float ys[6] = { y0, y0, y1, y0, y1, y1 };

	for (int i = 0; i < 6; i++) {
		v[i].pos[0] = 2.0f * xs[i] / W - 1.0f;
		v[i].pos[1] = 2.0f * ys[i] / H - 1.0f;
		v[i].pos[2] = z;
		v[i].pos[3] = 1.0f;
		memcpy(v[i].a, c, 16);
		memcpy(v[i].b, d ? d : c, 16);
	}
}

static void
full_quad(struct vtx3 *v, float z, const float c[4], const float d[4])
{
	quad(v, -1, -1, W + 1, H + 1, z, c, d);
}

struct fx {
	struct gt t;
	struct swgpu_pipeline_state ps;
	struct swgpu_pass pass;
};

static void
fx_init(struct fx *f)
{
	gt_init(&f->t, 2);
	gt_pipeline_defaults(&f->ps, W, H, NA);
	memset(&f->pass, 0, sizeof(f->pass));
	f->pass.layer_count = 1;
	f->pass.area_width = W;
	f->pass.area_height = H;
}

static void
fx_color(struct fx *f, uint32_t i, const struct gt_image *im,
         const uint32_t clear[4])
{
	gt_attachment(im, &f->pass.color[i], clear ? SWGPU_LOAD_CLEAR
	                                           : SWGPU_LOAD_LOAD, clear);
	if (f->pass.color_count <= i)
		f->pass.color_count = i + 1;
}

/* Begin the pass, draw n vertices, end it, run: true when no fault. */
static bool
fx_draw(struct fx *f, const struct vtx3 *v, uint32_t n)
{
	gt_programs(&f->t);
	gt_begin_pass(&f->t, &f->pass);
	gt_set_pipeline(&f->t, &f->ps);
	gt_vertices(&f->t, &v[0].pos[0], n, NA);
	gt_draw(&f->t, n, 1);
	gt_end_pass(&f->t);
	return gt_run(&f->t);
}

static float
rd32f(const struct gt_image *im, uint32_t x, uint32_t y, uint32_t c)
{
	float v;
	memcpy(&v, gt_px(im, x, y) + 4 * c, 4);
	return v;
}

/* ------------------------------------------------------------------ */
/* Interpolation                                                       */
/* ------------------------------------------------------------------ */

static void
frag_modes(struct gt *t, struct gfx_exec *e, uint32_t n, const uint8_t *live,
           uint8_t *discarded)
{
	lane_t *o[4];
	for (uint32_t c = 0; c < 4; c++)
		o[c] = gfx_exec_reg(e, GT_OUT(0, c));
	lane_t *a = gfx_exec_reg(e, GT_IN(1, 0));
	lane_t *b = gfx_exec_reg(e, GT_IN(2, 0));
	lane_t *c3 = gfx_exec_reg(e, GT_IN(3, 0));
	lane_t *fw = gfx_exec_reg(e, IR_REG_FRAG_COORD + 3);
	for (uint32_t l = 0; l < n; l++) {
		o[0][l] = a[l];
		o[1][l] = b[l];
		o[2][l] = c3[l];
		o[3][l] = fw[l];
	}
}

/*
 * A triangle whose vertices have clip w 1, 2 and 4, screen positions
 * s_k and attribute values a_k. At a pixel centre with screen-space
 * barycentrics l_k (solved here in double):
 *   smooth         = sum(l_k a_k / w_k) / sum(l_k / w_k)
 *   noperspective  = sum(l_k a_k)
 *   flat           = a_0 (the provoking vertex)
 *   FragCoord.w    = sum(l_k / w_k)
 */
static void
test_interpolation(void **state)
{
	struct fx f;
	const double sx[3] = { 1.25, 15.0, 3.5 }, sy[3] = { 0.5, 4.75, 15.5 };
	const double w[3] = { 1.0, 2.0, 4.0 };
	const double av[3] = { 10.0, -20.0, 70.0 };
	struct vtx3 v[3];

	fx_init(&f);
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R32G32B32A32_SFLOAT,
	                              W, H);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	memset(v, 0, sizeof(v));
	for (int k = 0; k < 3; k++) {
		double nx = 2.0 * sx[k] / W - 1.0, ny = 2.0 * sy[k] / H - 1.0;
		v[k].pos[0] = (float)(nx * w[k]);
		v[k].pos[1] = (float)(ny * w[k]);
		v[k].pos[2] = (float)(0.5 * w[k]);
		v[k].pos[3] = (float)w[k];
		v[k].a[0] = (float)av[k];
		v[k].b[0] = (float)av[k];
	}
	/* (flat inputs: test_flat_provoking) */
	f.t.interp[1] = IR_INTERP_SMOOTH;
	f.t.interp[2] = IR_INTERP_NOPERSPECTIVE;
	f.t.interp[3] = IR_INTERP_FLAT;
	f.t.frag = frag_modes;
	assert_true(fx_draw(&f, v, 3));
	uint32_t checked = 0;
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			double px = x + 0.5, py = y + 0.5;
			double d = (sx[1] - sx[0]) * (sy[2] - sy[0]) -
			           (sx[2] - sx[0]) * (sy[1] - sy[0]);
			double l1 = ((px - sx[0]) * (sy[2] - sy[0]) -
			             (sx[2] - sx[0]) * (py - sy[0])) / d;
			double l2 = ((sx[1] - sx[0]) * (py - sy[0]) -
			             (px - sx[0]) * (sy[1] - sy[0])) / d;
			double l0 = 1.0 - l1 - l2;
			if (l0 < 1e-6 || l1 < 1e-6 || l2 < 1e-6)
				continue;   /* edges: coverage tested elsewhere */
			const double l[3] = { l0, l1, l2 };
			double num = 0, den = 0, np = 0;
			for (int k = 0; k < 3; k++) {
				num += l[k] * av[k] / w[k];
				den += l[k] / w[k];
				np += l[k] * av[k];
			}
			double smooth = num / den;
			if (fabs(rd32f(&rt, x, y, 0) - smooth) > 1e-3 ||
			    fabs(rd32f(&rt, x, y, 1) - np) > 1e-3 ||
			    fabs(rd32f(&rt, x, y, 3) - den) > 1e-6)
				fail_msg("(%u,%u): smooth %g want %g, noperspective "
				         "%g want %g, 1/w %g want %g", x, y,
				         (double)rd32f(&rt, x, y, 0), smooth,
				         (double)rd32f(&rt, x, y, 1), np,
				         (double)rd32f(&rt, x, y, 3), den);
			checked++;
		}
	assert_true(checked > 40);
	gt_fini(&f.t);
}

/* Flat inputs take the provoking (first) vertex's value, for every
 * triangle of a strip and a fan. */
static void
test_flat_provoking(void **state)
{
	const uint32_t topo[2] = { SWGPU_TOPOLOGY_TRIANGLE_STRIP,
	                           SWGPU_TOPOLOGY_TRIANGLE_FAN };

	for (int k = 0; k < 2; k++) {
		struct fx f;
		struct vtx3 v[4];
		fx_init(&f);
		struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R32_SFLOAT,
		                              W, H);
		fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
		f.t.interp[1] = IR_INTERP_FLAT;
		memset(v, 0, sizeof(v));
		/* strip: 0 (0,0) 1 (16,0) 2 (0,16) 3 (16,16): triangles
		 * (0,1,2) and (1,3,2) split along the anti-diagonal.
		 * fan: 0 centre-ish (0,0), 1 (16,0), 2 (16,16), 3 (0,16):
		 * triangles (1,2,0) and (2,3,0) split along the diagonal. */
		const float fx_[2][4] = { { 0, 16, 0, 16 }, { 0, 16, 16, 0 } };
		const float fy_[2][4] = { { 0, 0, 16, 16 }, { 0, 0, 16, 16 } };
		for (int i = 0; i < 4; i++) {
			v[i].pos[0] = 2.0f * fx_[k][i] / W - 1.0f;
			v[i].pos[1] = 2.0f * fy_[k][i] / H - 1.0f;
			v[i].pos[3] = 1.0f;
			v[i].a[0] = (float)(10 * (i + 1));
		}
		f.ps.state.topology = topo[k];
		assert_true(fx_draw(&f, v, 4));
		/* strip: upper-left triangle provoked by vertex 0 (10),
		 * lower-right by vertex 1 (20). fan: triangle (1,2,0) upper
		 * right provoked by vertex 1 (20), (2,3,0) lower-left by
		 * vertex 2 (30). */
		float ul = rd32f(&rt, 2, 2, 0), lr = rd32f(&rt, 13, 13, 0);
		float ur = rd32f(&rt, 13, 2, 0), ll = rd32f(&rt, 2, 13, 0);
		if (k == 0) {
			assert_true(ul == 10.0f && lr == 20.0f);
		} else {
			assert_true(ur == 20.0f && ll == 30.0f);
		}
		gt_fini(&f.t);
	}
}

/* ------------------------------------------------------------------ */
/* Depth                                                               */
/* ------------------------------------------------------------------ */

static bool
cmp_ref(uint32_t op, double a, double b)
{
	switch (op) {
	case 0: return false;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return true;
	}
}

/* Every compare op with incoming depth below, equal to and above the
 * stored 0.5, on each depth format; writes on. */
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

/* Every source and destination factor with ADD, then every op, on a
 * float target (exact formula) and an RGBA8 UNORM target (clamped,
 * rounded), dual-source factors reading Index 1. */
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
							want = fmin(fmax(want, 0), 1);
							got = gt_px(&rt, 5, 6)[c] / 255.0;
							if (fabs(got - want) > 0.5 / 255 +
							    1e-6)
								fail_msg("rgba8 sf %u df %u op "
								         "%u c %d: %g want %g",
								         sf, df, op, c, got,
								         want);
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
static void
frag_int_color(struct gt *t, struct gfx_exec *e, uint32_t n,
               const uint8_t *live, uint8_t *discarded)
{
	const int32_t v[4] = { 3, -7, 100000, 1 };

	for (uint32_t c = 0; c < 4; c++) {
		lane_t *o = gfx_exec_reg(e, GT_OUT(0, c));
		for (uint32_t l = 0; l < n; l++)
			o[l].i = v[c];
	}
}

static void
test_every_renderable_format(void **state)
{
	uint32_t tested = 0, blended = 0;

	for (uint32_t fmt = 1; fmt < SWGPU_FORMAT_COUNT; fmt++) {
		if (!swgpu_format_color_renderable(fmt))
			continue;
		const swgpu_format_info *fi = swgpu_format_get_info(fmt);
		const bool is_int = fi->blit_class != SWGPU_BLIT_CLASS_FLOAT;
		for (int blend = 0; blend < 2; blend++) {
			if (blend && !swgpu_format_blendable(fmt))
				continue;
			struct fx f;
			struct vtx3 v[6];
			const float c[4] = { 0.25f, 0.75f, 0.5f, 1.0f };
			const float clearf[4] = { 0.125f, 0.0625f, 0.25f, 0.5f };
			uint32_t clear[4];
			for (int k = 0; k < 4; k++)
				clear[k] = gt_fbits(clearf[k]);
			fx_init(&f);
			struct gt_image rt = gt_image(&f.t, fmt, W, H);
			fx_color(&f, 0, &rt, is_int ? (const uint32_t[4]){ 0 }
			                            : clear);
			if (is_int)
				f.t.frag = frag_int_color;
			if (blend) {
				struct swgpu_blend_attachment *b =
					&f.ps.state.blend[0];
				b->enable = 1;
				b->src_color = b->src_alpha = 1;
				b->dst_color = b->dst_alpha = 1;
			}
			full_quad(v, 0.5f, c, NULL);
			assert_true(fx_draw(&f, v, 6));
			/* reference texel */
			struct texel t, dt;
			uint8_t want[16] = { 0 };
			if (is_int) {
				const int32_t iv[4] = { 3, -7, 100000, 1 };
				for (int k = 0; k < 4; k++) {
					t.i[k] = iv[k];
					if (fi->blit_class == SWGPU_BLIT_CLASS_UINT)
						t.u[k] = (uint32_t)iv[k];
				}
			} else {
				format_clear_value(fi, clear, &dt);
				uint8_t cb[16];
				format_encode(fi, &dt, cb);
				format_decode(fi, cb, &dt);
				for (int k = 0; k < 4; k++) {
					double s = c[k];
					if (fi->numeric == SWGPU_NUMERIC_UNORM ||
					    fi->numeric == SWGPU_NUMERIC_SRGB)
						s = fmin(fmax(s, 0), 1);
					t.f[k] = blend ? (float)((float)s +
					                 (float)dt.f[k])
					               : s;
				}
			}
			format_encode(fi, &t, want);
			const uint8_t *got = gt_px(&rt, 9, 4);
			if (memcmp(got, want, fi->block_bytes)) {
				char a[64] = "", b[64] = "";
				for (uint32_t k = 0; k < fi->block_bytes; k++) {
					snprintf(a + 3 * k, 4, "%02x ", got[k]);
					snprintf(b + 3 * k, 4, "%02x ", want[k]);
				}
				fail_msg("%s%s: %s want %s", fi->name,
				         blend ? " blended" : "", a, b);
			}
			tested++;
			blended += blend;
			gt_fini(&f.t);
		}
	}
	/* the mandatory COLOR_ATTACHMENT formats are in */
	const uint32_t mandatory[] = {
		SWGPU_FORMAT_R5G6B5_UNORM_PACK16,
		SWGPU_FORMAT_A1R5G5B5_UNORM_PACK16, SWGPU_FORMAT_R8_UNORM,
		SWGPU_FORMAT_R8_UINT, SWGPU_FORMAT_R8_SINT,
		SWGPU_FORMAT_R8G8_UNORM, SWGPU_FORMAT_R8G8_UINT,
		SWGPU_FORMAT_R8G8_SINT, SWGPU_FORMAT_R8G8B8A8_UNORM,
		SWGPU_FORMAT_R8G8B8A8_UINT, SWGPU_FORMAT_R8G8B8A8_SINT,
		SWGPU_FORMAT_R8G8B8A8_SRGB, SWGPU_FORMAT_B8G8R8A8_UNORM,
		SWGPU_FORMAT_B8G8R8A8_SRGB,
		SWGPU_FORMAT_A2B10G10R10_UNORM_PACK32,
		SWGPU_FORMAT_A2B10G10R10_UINT_PACK32, SWGPU_FORMAT_R16_UINT,
		SWGPU_FORMAT_R16_SINT, SWGPU_FORMAT_R16_SFLOAT,
		SWGPU_FORMAT_R16G16_UINT, SWGPU_FORMAT_R16G16_SINT,
		SWGPU_FORMAT_R16G16_SFLOAT, SWGPU_FORMAT_R16G16B16A16_UINT,
		SWGPU_FORMAT_R16G16B16A16_SINT,
		SWGPU_FORMAT_R16G16B16A16_SFLOAT, SWGPU_FORMAT_R32_UINT,
		SWGPU_FORMAT_R32_SINT, SWGPU_FORMAT_R32_SFLOAT,
		SWGPU_FORMAT_R32G32_UINT, SWGPU_FORMAT_R32G32_SINT,
		SWGPU_FORMAT_R32G32_SFLOAT, SWGPU_FORMAT_R32G32B32A32_UINT,
		SWGPU_FORMAT_R32G32B32A32_SINT,
		SWGPU_FORMAT_R32G32B32A32_SFLOAT,
	};
	for (size_t i = 0; i < sizeof(mandatory) / sizeof(mandatory[0]); i++)
		assert_true(swgpu_format_color_renderable(mandatory[i]));
	print_message("%u format runs, %u blended\n", tested, blended);
	assert_true(tested > 60);
}

/* ------------------------------------------------------------------ */
/* Discard and late tests                                              */
/* ------------------------------------------------------------------ */

static void
frag_discard_left(struct gt *t, struct gfx_exec *e, uint32_t n,
                  const uint8_t *live, uint8_t *discarded)
{
	lane_t *fx = gfx_exec_reg(e, IR_REG_FRAG_COORD);
	for (uint32_t c = 0; c < 4; c++) {
		lane_t *in = gfx_exec_reg(e, GT_IN(1, c));
		lane_t *o = gfx_exec_reg(e, GT_OUT(0, c));
		for (uint32_t l = 0; l < n; l++)
			o[l] = in[l];
	}
	for (uint32_t l = 0; l < n; l++)
		discarded[l] = fx[l].f < 8.0f;
}

/* Discarded fragments write neither colour nor depth (the tests run
 * late for a shader that may discard). */
static void
test_discard_late_depth(void **state)
{
	struct fx f;
	struct vtx3 v[6];
	const float red[4] = { 1, 0, 0, 1 };

	fx_init(&f);
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	struct gt_image zb = gt_image(&f.t, SWGPU_FORMAT_D32_SFLOAT, W, H);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(1.0f) });
	f.ps.state.depth_test = 1;
	f.ps.state.depth_write = 1;
	f.ps.state.depth_compare = SWGPU_COMPARE_LESS;
	f.t.frag = frag_discard_left;
	full_quad(v, 0.25f, red, NULL);
	assert_true(fx_draw(&f, v, 6));
	assert_true(gt_px(&rt, 3, 3)[0] == 0 && gt_pxf(&zb, 3, 3, 0) == 1.0f);
	assert_true(gt_px(&rt, 12, 3)[0] == 255 &&
	            gt_pxf(&zb, 12, 3, 0) == 0.25f);
	gt_fini(&f.t);
}

/* FragDepth replaces the interpolated depth in the (late) test. */
static void
test_frag_depth(void **state)
{
	struct fx f;
	struct vtx3 v[12];
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	const float d1[4] = { 0.6f, 0, 0, 0 }, d2[4] = { 0.4f, 0, 0, 0 };

	fx_init(&f);
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	struct gt_image zb = gt_image(&f.t, SWGPU_FORMAT_D32_SFLOAT, W, H);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	gt_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(1.0f) });
	f.ps.state.depth_test = 1;
	f.ps.state.depth_write = 1;
	f.ps.state.depth_compare = SWGPU_COMPARE_LESS;
	f.t.frag_depth = true;
	/* interpolated z says green (0.1) is nearer; FragDepth says red */
	full_quad(v, 0.9f, red, d2);
	full_quad(v + 6, 0.1f, green, d1);
	assert_true(fx_draw(&f, v, 12));
	assert_true(gt_px(&rt, 3, 3)[0] == 255 && gt_px(&rt, 3, 3)[1] == 0);
	assert_true(gt_pxf(&zb, 3, 3, 0) == 0.4f);
	gt_fini(&f.t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interpolation),
		cmocka_unit_test(test_flat_provoking),
		cmocka_unit_test(test_depth_compare_ops),
		cmocka_unit_test(test_depth_write_mask),
		cmocka_unit_test(test_depth_bias),
		cmocka_unit_test(test_depth_clamp),
		cmocka_unit_test(test_depth_bounds),
		cmocka_unit_test(test_stencil_ops),
		cmocka_unit_test(test_stencil_compare_faces),
		cmocka_unit_test(test_stencil_count_coverage),
		cmocka_unit_test(test_blend_factors_ops),
		cmocka_unit_test(test_blend_independent),
		cmocka_unit_test(test_logic_ops),
		cmocka_unit_test(test_logic_ops_uint),
		cmocka_unit_test(test_write_masks),
		cmocka_unit_test(test_srgb),
		cmocka_unit_test(test_every_renderable_format),
		cmocka_unit_test(test_discard_late_depth),
		cmocka_unit_test(test_frag_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
