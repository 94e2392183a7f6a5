/* SPDX-License-Identifier: MIT */
/*
 * The fragment stage of the graphics engine against hand-computed
 * results: interpolation (perspective-correct, noperspective, 1/w; flat
 * from the provoking vertex), every colour-renderable format written
 * and blended exactly as the format encoder does, discard with late
 * depth, FragDepth.
 */
#include "gfx_frag_util.h"

#include "hw/gfx/output8_unorm.h"

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

/*
 * Sixteen small triangles, one per 4x4 cell, each with its own clip w
 * and attribute values, in one draw: a batch of fragment quads then
 * holds quads of several primitives, and each quad must take its own
 * primitive's planes and values (frag_shade.c interpolates run by run
 * of quads of one primitive). The same formulas as test_interpolation,
 * triangle by triangle.
 */
static void
test_interpolation_many(void **state)
{
	struct fx f;
	struct vtx3 v[3 * 16];
	double sx[16][3], sy[16][3], w[16][3], av[16][3];

	(void)state;
	fx_init(&f);
	struct gt_image rt = gt_image(&f.t, SWGPU_FORMAT_R32G32B32A32_SFLOAT,
	                              W, H);
	fx_color(&f, 0, &rt, (const uint32_t[4]){ 0, 0, 0, 0 });
	memset(v, 0, sizeof(v));
	for (int t = 0; t < 16; t++) {
		const double x0 = 4.0 * (t % 4), y0 = 4.0 * (t / 4);
		const double px[3] = { x0 + 0.25, x0 + 3.875, x0 + 0.625 };
		const double py[3] = { y0 + 0.25, y0 + 0.5, y0 + 3.75 };

		for (int k = 0; k < 3; k++) {
			sx[t][k] = px[k];
			sy[t][k] = py[k];
			w[t][k] = 1.0 + (double)((t + 2 * k) % 5);
			av[t][k] = 10.0 * k - 3.0 * t + (k == 2 ? 50.0 : 0.0);
			double nx = 2.0 * px[k] / W - 1.0;
			double ny = 2.0 * py[k] / H - 1.0;
			struct vtx3 *q = &v[3 * t + k];
			q->pos[0] = (float)(nx * w[t][k]);
			q->pos[1] = (float)(ny * w[t][k]);
			q->pos[2] = (float)(0.5 * w[t][k]);
			q->pos[3] = (float)w[t][k];
			q->a[0] = (float)av[t][k];
			q->b[0] = (float)av[t][k];
		}
	}
	f.t.interp[1] = IR_INTERP_SMOOTH;
	f.t.interp[2] = IR_INTERP_NOPERSPECTIVE;
	f.t.interp[3] = IR_INTERP_FLAT;
	f.t.frag = frag_modes;
	assert_true(fx_draw(&f, v, 3 * 16));
	uint32_t checked = 0;
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			const int t = (int)(x / 4 + 4 * (y / 4));
			const double *X = sx[t], *Y = sy[t];
			double px = x + 0.5, py = y + 0.5;
			double d = (X[1] - X[0]) * (Y[2] - Y[0]) -
			           (X[2] - X[0]) * (Y[1] - Y[0]);
			double l1 = ((px - X[0]) * (Y[2] - Y[0]) -
			             (X[2] - X[0]) * (py - Y[0])) / d;
			double l2 = ((X[1] - X[0]) * (py - Y[0]) -
			             (px - X[0]) * (Y[1] - Y[0])) / d;
			double l0 = 1.0 - l1 - l2;
			if (l0 < 1e-6 || l1 < 1e-6 || l2 < 1e-6)
				continue;   /* outside or on an edge */
			const double l[3] = { l0, l1, l2 };
			double num = 0, den = 0, np = 0;
			for (int k = 0; k < 3; k++) {
				num += l[k] * av[t][k] / w[t][k];
				den += l[k] / w[t][k];
				np += l[k] * av[t][k];
			}
			if (fabs(rd32f(&rt, x, y, 0) - num / den) > 1e-3 ||
			    fabs(rd32f(&rt, x, y, 1) - np) > 1e-3 ||
			    fabs(rd32f(&rt, x, y, 3) - den) > 1e-6)
				fail_msg("(%u,%u) triangle %d: smooth %g want %g, "
				         "noperspective %g want %g, 1/w %g want "
				         "%g", x, y, t,
				         (double)rd32f(&rt, x, y, 0), num / den,
				         (double)rd32f(&rt, x, y, 1), np,
				         (double)rd32f(&rt, x, y, 3), den);
			checked++;
		}
	/* about half of each cell's 16 pixels, in every cell */
	assert_true(checked > 16 * 4);
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

static bool
unorm8_only(const swgpu_format_info *fi)
{
	for (int k = 0; k < 4; k++)
		if (fi->bit_width[k] && fi->bit_width[k] != 8)
			return false;
	return fi->numeric == SWGPU_NUMERIC_UNORM;
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
					/* all channels 8-bit UNORM: blended in
					 * 8-bit fixed point (blend_unorm8.c),
					 * the source rounded first */
					if (blend && unorm8_only(fi))
						t.f[k] = fmin(nearbyint(
							(double)((float)s * 255.0f)) +
							nearbyint(dt.f[k] * 255),
							255) / 255;
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


/* ------------------------------------------------------------------ */
/* The varyings two quads per vector (varyings_avx2.c)                 */
/* ------------------------------------------------------------------ */

#if defined(__x86_64__) || defined(__i386__)
static uint64_t vrng = 0x243f6a8885a308d3ull;

static float
vrand(float lo, float hi)
{
	vrng ^= vrng << 13;
	vrng ^= vrng >> 7;
	vrng ^= vrng << 17;
	return lo + (hi - lo) * (float)(vrng >> 40) / (float)(1u << 24);
}

/* The SSE2 path's operations lane by lane (frag_shade.c fill_varyings):
 * the AVX2 run must give these bits. */
static void
varyings_ref(const struct gfx_vlayout *vl, const struct gfx_prim *p,
             const struct gfx_quad *quad, uint32_t q0, uint32_t q1,
             lane_t *const *reg, float *iw)
{
	for (uint32_t q = q0; q < q1; q++)
		for (uint32_t i = 0; i < 4; i++) {
			const uint32_t l = 4 * q + i;
			const float x0 = (float)quad[q].x + 0.5f - p->rx;
			const float y0 = (float)quad[q].y + 0.5f - p->ry;
			const float px = x0 + (float)(i & 1);
			const float py = y0 + (float)(i >> 1);
			const float a = p->l1x * px + p->l1y * py + p->l1c;
			const float b = p->l2x * px + p->l2y * py + p->l2c;
			float b1 = a, b2 = b;

			iw[l] = p->iw[0];
			if (!p->affine) {
				const float w0 = (1.0f - a - b) * p->iw[0];
				const float w1 = a * p->iw[1];
				const float w2 = b * p->iw[2];
				const float sw = w0 + w1 + w2;
				const float inv = sw != 0.0f ? 1.0f / sw : 0.0f;

				iw[l] = sw;
				b1 = w1 * inv;
				b2 = w2 * inv;
			}
			for (uint32_t j = 0; j < vl->nvar; j++) {
				const uint32_t m = vl->var_interp[j] &
				                   IR_INTERP_MODE_MASK;
				const uint32_t w = vl->var_off + j;
				const float v0 = p->v[0][w].f;

				if (m == IR_INTERP_FLAT) {
					reg[j][l].u = p->flat[w].u;
					continue;
				}
				const bool np = m == IR_INTERP_NOPERSPECTIVE;
				reg[j][l].f = v0 + (np ? a : b1) *
				              (p->v[1][w].f - v0) +
				              (np ? b : b2) * (p->v[2][w].f - v0);
			}
		}
}

static void
test_varyings_avx2(void **state)
{
	enum { NV = 6, WORDS = 8 };
	static lane_t got[NV][GFX_LANES], want[NV][GFX_LANES];
	static lane_t vtx[3][WORDS], flat[WORDS];
	float iw_got[GFX_LANES], iw_want[GFX_LANES];
	struct gfx_quad quad[GFX_BATCH_QUADS];
	lane_t *rg[NV], *rw[NV];

	(void)state;
	if (!out8_use_avx2(true))
		skip();
	for (uint32_t iter = 0; iter < 3000; iter++) {
		struct gfx_vlayout vl;
		struct gfx_prim p;

		memset(&vl, 0, sizeof(vl));
		memset(&p, 0, sizeof(p));
		vl.var_off = 1;
		vl.nvar = 1 + iter % NV;
		for (uint32_t j = 0; j < vl.nvar; j++)
			vl.var_interp[j] = (uint8_t)((iter + j) % 3);
		for (uint32_t k = 0; k < 3; k++)
			for (uint32_t w = 0; w < WORDS; w++)
				vtx[k][w].f = vrand(-100.0f, 100.0f);
		for (uint32_t w = 0; w < WORDS; w++)
			flat[w].u = (uint32_t)(vrng >> 13);
		p.v[0] = vtx[0];
		p.v[1] = vtx[1];
		p.v[2] = vtx[2];
		p.flat = flat;
		p.rx = vrand(-600.0f, 600.0f);
		p.ry = vrand(-600.0f, 600.0f);
		p.l1x = vrand(-0.1f, 0.1f);
		p.l1y = vrand(-0.1f, 0.1f);
		p.l1c = vrand(-1.0f, 2.0f);
		p.l2x = vrand(-0.1f, 0.1f);
		p.l2y = vrand(-0.1f, 0.1f);
		p.l2c = vrand(-1.0f, 2.0f);
		p.affine = iter % 5 == 0;
		for (uint32_t k = 0; k < 3; k++)   /* some sw == 0 */
			p.iw[k] = iter % 7 == 1 ? 0.0f : vrand(0.01f, 4.0f);
		for (uint32_t q = 0; q < GFX_BATCH_QUADS; q++) {
			quad[q].x = 2 * (int32_t)vrand(-300.0f, 300.0f);
			quad[q].y = 2 * (int32_t)vrand(-300.0f, 300.0f);
			quad[q].prim = &p;
		}
		/* any run: odd and even lengths and starts */
		const uint32_t q0 = iter % GFX_BATCH_QUADS;
		const uint32_t q1 = q0 + 2 + (iter / GFX_BATCH_QUADS) %
		                             (GFX_BATCH_QUADS - 1);
		const uint32_t end = q1 > GFX_BATCH_QUADS ? GFX_BATCH_QUADS : q1;

		if (end - q0 < 2)
			continue;
		memset(got, 0x5a, sizeof(got));
		memset(want, 0x5a, sizeof(want));
		memset(iw_got, 0x5a, sizeof(iw_got));
		memset(iw_want, 0x5a, sizeof(iw_want));
		for (uint32_t j = 0; j < NV; j++) {
			rg[j] = got[j];
			rw[j] = want[j];
		}
		gfx_varyings_run_avx2(&vl, &p, quad, q0, end, rg, iw_got);
		varyings_ref(&vl, &p, quad, q0, end, rw, iw_want);
		/* the run's lanes bit for bit, nothing else written */
		assert_memory_equal(got, want, sizeof(got));
		assert_memory_equal(iw_got, iw_want, sizeof(iw_got));
	}
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
#if defined(__x86_64__) || defined(__i386__)
		cmocka_unit_test(test_varyings_avx2),
#endif
		cmocka_unit_test(test_interpolation),
		cmocka_unit_test(test_interpolation_many),
		cmocka_unit_test(test_flat_provoking),
		cmocka_unit_test(test_every_renderable_format),
		cmocka_unit_test(test_discard_late_depth),
		cmocka_unit_test(test_frag_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
