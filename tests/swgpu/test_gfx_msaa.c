/* SPDX-License-Identifier: MIT */
/*
 * Multisampling in the graphics engine (S = 2, 4, 8), against
 * hand-computed results:
 *   coverage    a fan of triangles with vertices at arbitrary 1/256
 *               positions, counted per sample by additive blending:
 *               every sample strictly inside the fan's polygon is
 *               covered exactly once (shared edges through sample
 *               locations included), every one strictly outside never
 *   diagonal    a square split along its diagonal, which runs through
 *               sample locations: each sample inside counted once
 *   depth       a depth ramp: each sample's slice holds the depth at its
 *               standard location
 *   line_depth  lines of several slopes with depth 0 -> 1: a sample
 *               inside the spec's rectangle (width 1) holds t = (q -
 *               a).(b - a) / |b - a|^2 at its location q (the spec's
 *               weight for these lines), one outside keeps the clear
 *   mask        the pipeline's sample mask writes only its samples
 *   a2c         alpha to coverage keeps floor(alpha S + 0.5) samples
 *   resolve     colour AVERAGE / SAMPLE_ZERO, depth MIN / MAX /
 *               AVERAGE and stencil SAMPLE_ZERO / MIN / MAX at END_PASS,
 *               and the RESOLVE packet
 *   bad         mismatched sample counts, resolve of a single-sampled
 *               attachment, a bad resolve mode: BAD_PACKET faults
 */
#include "gfx_frag_util.h"

#include <math.h>

#include "hw/gfx/describe.h"
#include "hw/gfx/sample_pos.h"

/* A multisampled image: slice s is rows [s H, s H + H). */
struct ms_image {
	struct gt_image im;
	uint32_t samples;
};

static struct ms_image
ms_image(struct gt *t, uint32_t format, uint32_t samples)
{
	struct ms_image m = { gt_image(t, format, W, H * samples), samples };
	m.im.h = H;
	return m;
}

static void
ms_attachment(const struct ms_image *m, struct swgpu_attachment *a,
              uint32_t load_op, const uint32_t clear[4])
{
	gt_attachment(&m->im, a, load_op, clear);
	a->samples = m->samples;
}

static uint8_t *
ms_px(const struct ms_image *m, uint32_t x, uint32_t y, uint32_t s)
{
	return gt_px(&m->im, x, y + s * H);
}

static float
ms_f(const struct ms_image *m, uint32_t x, uint32_t y, uint32_t s)
{
	float v;
	memcpy(&v, ms_px(m, x, y, s), 4);
	return v;
}

static void
vtx(struct vtx3 *v, float x, float y, float z, const float c[4])
{
	memset(v, 0, sizeof(*v));
	v->pos[0] = 2.0f * x / W - 1.0f;
	v->pos[1] = 2.0f * y / H - 1.0f;
	v->pos[2] = z;
	v->pos[3] = 1.0f;
	memcpy(v->a, c, 16);
	memcpy(v->b, c, 16);
}

static const float ONE4[4] = { 1, 1, 1, 1 };

/* R32_SFLOAT target of S samples cleared to 0, additive blending of
 * colour 1: each sample counts the fragments that covered it. */
static void
count_setup(struct fx *f, struct ms_image *rt, uint32_t S)
{
	fx_init(f);
	*rt = ms_image(&f->t, SWGPU_FORMAT_R32_SFLOAT, S);
	ms_attachment(rt, &f->pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0, 0, 0, 0 });
	f->pass.color_count = 1;
	f->ps.state.rasterization_samples = S;
	f->ps.state.sample_mask = 0xff;
	struct swgpu_blend_attachment *b = &f->ps.state.blend[0];
	b->enable = 1;
	b->src_color = b->dst_color = b->src_alpha = b->dst_alpha = 1;
	b->color_op = b->alpha_op = 0;
}

/* Twice the signed area of (a, b, p): exact in double for 1/256 and
 * 1/16 grid coordinates. */
static double
orient(const double a[2], const double b[2], double px, double py)
{
	return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

/* Convex polygon pts (n, one winding): +1 strictly inside, -1 strictly
 * outside, 0 on the boundary. */
static int
poly_side(const double (*pts)[2], uint32_t n, double px, double py)
{
	bool pos = false, neg = false, zero = false;

	for (uint32_t i = 0; i < n; i++) {
		double o = orient(pts[i], pts[(i + 1) % n], px, py);
		pos |= o > 0;
		neg |= o < 0;
		zero |= o == 0;
	}
	if (pos && neg)
		return -1;
	return zero ? 0 : 1;
}

static void
check_counts(const struct ms_image *rt, const double (*pts)[2], uint32_t n)
{
	const uint32_t S = rt->samples;
	uint32_t inside = 0;

	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			for (uint32_t s = 0; s < S; s++) {
				double px = x + gfx_sample_x(S, s);
				double py = y + gfx_sample_y(S, s);
				int side = poly_side(pts, n, px, py);
				float c = ms_f(rt, x, y, s);
				if (side > 0) {
					inside++;
					if (c != 1.0f)
						print_error("S %u pixel %u,%u sample "
						            "%u: count %g inside\n",
						            S, x, y, s, c);
					assert_true(c == 1.0f);
				} else if (side < 0) {
					assert_true(c == 0.0f);
				} else {
					assert_true(c == 0.0f || c == 1.0f);
				}
			}
	assert_true(inside > 20 * S);
}

static void
test_coverage(void **state)
{
	/* an octagon at 1/256 positions, fanned from an inner point */
	static const double oct[8][2] = {
		{ 5.0 + 3.0 / 256, 1.5 }, { 11.25, 1.0 + 200.0 / 256 },
		{ 14.5 + 1.0 / 256, 5.0 }, { 14.75, 10.5 + 7.0 / 256 },
		{ 11.0, 14.0 + 9.0 / 256 }, { 4.5 + 33.0 / 256, 14.75 },
		{ 1.25, 10.0 }, { 1.0 + 77.0 / 256, 5.5 },
	};
	const double cx = 8.0 + 45.0 / 256, cy = 7.0 + 191.0 / 256;

	for (uint32_t S = 2; S <= 8; S *= 2) {
		struct fx f;
		struct ms_image rt;
		struct vtx3 v[24];
		count_setup(&f, &rt, S);
		for (uint32_t i = 0; i < 8; i++) {
			const double *a = oct[i], *b = oct[(i + 1) % 8];
			vtx(&v[3 * i], (float)cx, (float)cy, 0.5f, ONE4);
			vtx(&v[3 * i + 1], (float)a[0], (float)a[1], 0.5f, ONE4);
			vtx(&v[3 * i + 2], (float)b[0], (float)b[1], 0.5f, ONE4);
		}
		assert_true(fx_draw(&f, v, 24));
		check_counts(&rt, oct, 8);
		gt_fini(&f.t);
	}
}

static void
test_diagonal(void **state)
{
	static const double sq[4][2] = { { 2, 2 }, { 14, 2 }, { 14, 14 },
	                                 { 2, 14 } };

	for (uint32_t S = 2; S <= 8; S *= 2) {
		struct fx f;
		struct ms_image rt;
		struct vtx3 v[6];
		count_setup(&f, &rt, S);
		vtx(&v[0], 2, 2, 0.5f, ONE4);
		vtx(&v[1], 14, 2, 0.5f, ONE4);
		vtx(&v[2], 14, 14, 0.5f, ONE4);
		vtx(&v[3], 2, 2, 0.5f, ONE4);
		vtx(&v[4], 14, 14, 0.5f, ONE4);
		vtx(&v[5], 2, 14, 0.5f, ONE4);
		assert_true(fx_draw(&f, v, 6));
		check_counts(&rt, sq, 4);
		gt_fini(&f.t);
	}
}

/* D32 of S samples, depth z = x / W over the whole area, ALWAYS with
 * writes; optional depth resolve. */
static void
depth_ramp(struct fx *f, struct ms_image *zb, uint32_t S,
           struct gt_image *res, uint32_t mode)
{
	struct vtx3 v[6];

	fx_init(f);
	*zb = ms_image(&f->t, SWGPU_FORMAT_D32_SFLOAT, S);
	ms_attachment(zb, &f->pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(1.0f), 0, 0, 0 });
	if (res) {
		*res = gt_image(&f->t, SWGPU_FORMAT_D32_SFLOAT, W, H);
		f->pass.depth.resolve_va = res->mem.va;
		f->pass.depth.resolve_row_pitch = res->pitch;
		f->pass.depth.resolve_layer_pitch = res->pitch * H;
		f->pass.depth.resolve_mode = mode;
	}
	f->t.no_fs = true;
	struct swgpu_raster_state *rs = &f->ps.state;
	rs->rasterization_samples = S;
	rs->sample_mask = 0xff;
	rs->depth_test = 1;
	rs->depth_write = 1;
	rs->depth_compare = SWGPU_COMPARE_ALWAYS;
	vtx(&v[0], 0, 0, 0.0f, ONE4);
	vtx(&v[1], W, 0, 1.0f, ONE4);
	vtx(&v[2], W, H, 1.0f, ONE4);
	vtx(&v[3], 0, 0, 0.0f, ONE4);
	vtx(&v[4], W, H, 1.0f, ONE4);
	vtx(&v[5], 0, H, 0.0f, ONE4);
	assert_true(fx_draw(f, v, 6));
}

static void
test_depth(void **state)
{
	for (uint32_t S = 2; S <= 8; S *= 2) {
		struct fx f;
		struct ms_image zb;
		depth_ramp(&f, &zb, S, NULL, 0);
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++)
				for (uint32_t s = 0; s < S; s++) {
					float want = ((float)x + gfx_sample_x(S, s)) / W;
					assert_float_equal(ms_f(&zb, x, y, s), want,
					                   1e-6);
				}
		gt_fini(&f.t);
	}
}

/* +1 when q lies inside the rectangle of width 1 on segment a-b by more
 * than 1/64, -1 outside by more than that, 0 near an edge (the exact
 * rule is test_vk_msaa_read's). */
static int
line_rect_robust(const double a[2], const double b[2], double qx, double qy)
{
	const double m = 1.0 / 64, dx = b[0] - a[0], dy = b[1] - a[1];
	const double len = sqrt(dx * dx + dy * dy);
	const double along = ((qx - a[0]) * dx + (qy - a[1]) * dy) / len;
	const double across = fabs(dx * (qy - a[1]) - dy * (qx - a[0])) / len;

	if (along > m && along < len - m && across < 0.5 - m)
		return 1;
	if (along < -m || along > len + m || across > 0.5 + m)
		return -1;
	return 0;
}

static void
test_line_depth(void **state)
{
	/* shallow, steep upwards, 45 degrees leftwards, short */
	static const double lines[4][2][2] = {
		{ { 1 + 77 / 256.0, 2 + 26 / 256.0 },
		  { 14 + 179 / 256.0, 9 + 102 / 256.0 } },
		{ { 12 + 154 / 256.0, 14 + 205 / 256.0 },
		  { 9 + 26 / 256.0, 1 + 51 / 256.0 } },
		{ { 13 + 11 / 256.0, 12 + 99 / 256.0 },
		  { 3 + 11 / 256.0, 2 + 99 / 256.0 } },
		{ { 6 + 201 / 256.0, 7 + 3 / 256.0 },
		  { 7 + 130 / 256.0, 7 + 180 / 256.0 } },
	};

	for (uint32_t S = 2; S <= 8; S *= 2)
		for (uint32_t i = 0; i < 4; i++) {
			const double *a = lines[i][0], *b = lines[i][1];
			const double dx = b[0] - a[0], dy = b[1] - a[1];
			struct fx f;
			struct ms_image zb;
			struct vtx3 v[2];
			uint32_t inside = 0;

			fx_init(&f);
			zb = ms_image(&f.t, SWGPU_FORMAT_D32_SFLOAT, S);
			ms_attachment(&zb, &f.pass.depth, SWGPU_LOAD_CLEAR,
			              (const uint32_t[4]){ gt_fbits(1.0f), 0,
			                                   0, 0 });
			f.t.no_fs = true;
			f.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
			f.ps.state.rasterization_samples = S;
			f.ps.state.sample_mask = 0xff;
			f.ps.state.depth_test = 1;
			f.ps.state.depth_write = 1;
			f.ps.state.depth_compare = SWGPU_COMPARE_ALWAYS;
			vtx(&v[0], (float)a[0], (float)a[1], 0.0f, ONE4);
			vtx(&v[1], (float)b[0], (float)b[1], 1.0f, ONE4);
			assert_true(fx_draw(&f, v, 2));
			for (uint32_t y = 0; y < H; y++)
				for (uint32_t x = 0; x < W; x++)
					for (uint32_t s = 0; s < S; s++) {
						const double qx = x + gfx_sample_x(S, s);
						const double qy = y + gfx_sample_y(S, s);
						const int side = line_rect_robust(a, b,
						                                  qx, qy);
						const double t =
							((qx - a[0]) * dx +
							 (qy - a[1]) * dy) /
							(dx * dx + dy * dy);
						const float z = ms_f(&zb, x, y, s);
						if (side > 0) {
							inside++;
							assert_float_equal(z, t, 1e-5);
						} else if (side < 0) {
							assert_true(z == 1.0f);
						}
					}
			assert_true(inside > 0);
			gt_fini(&f.t);
		}
}

static void
test_depth_resolve(void **state)
{
	const uint32_t S = 4;
	const uint32_t modes[3] = { SWGPU_RESOLVE_MIN, SWGPU_RESOLVE_MAX,
	                            SWGPU_RESOLVE_AVERAGE };

	for (uint32_t k = 0; k < 3; k++) {
		struct fx f;
		struct ms_image zb;
		struct gt_image res;
		depth_ramp(&f, &zb, S, &res, modes[k]);
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++) {
				double mn = 2, mx = -1, sum = 0;
				for (uint32_t s = 0; s < S; s++) {
					double z = ms_f(&zb, x, y, s);
					mn = z < mn ? z : mn;
					mx = z > mx ? z : mx;
					sum += z;
				}
				double want = k == 0 ? mn : k == 1 ? mx : sum / S;
				assert_float_equal(rd32f(&res, x, y, 0), want, 1e-7);
			}
		gt_fini(&f.t);
	}
}

static void
test_sample_mask(void **state)
{
	struct fx f;
	struct ms_image rt;
	struct vtx3 v[6];

	count_setup(&f, &rt, 4);
	f.ps.state.sample_mask = 0x5;
	full_quad(v, 0.5f, ONE4, NULL);
	assert_true(fx_draw(&f, v, 6));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			for (uint32_t s = 0; s < 4; s++)
				assert_true(ms_f(&rt, x, y, s) ==
				            ((0x5 >> s) & 1 ? 1.0f : 0.0f));
	gt_fini(&f.t);
}

static void
test_alpha_to_coverage(void **state)
{
	/* alpha per column group: 0.5 keeps 2 of 4 (floor(2.5)), 0.1
	 * none (floor(0.9)), 0.9 all (floor(4.1) = 4), 0.3 one */
	static const float alpha[4] = { 0.5f, 0.1f, 0.9f, 0.3f };
	static const uint32_t kept[4] = { 2, 0, 4, 1 };
	struct fx f;
	struct ms_image rt;
	struct vtx3 v[24];

	count_setup(&f, &rt, 4);
	f.ps.state.alpha_to_coverage = 1;
	for (int k = 0; k < 4; k++) {
		const float c[4] = { 1, 1, 1, alpha[k] };
		quad(v + 6 * k, 4.0f * (float)k, 0, 4.0f * (float)k + 4, H,
		     0.5f, c, NULL);
	}
	assert_true(fx_draw(&f, v, 24));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			for (uint32_t s = 0; s < 4; s++)
				assert_true(ms_f(&rt, x, y, s) ==
				            (s < kept[x / 4] ? 1.0f : 0.0f));
	gt_fini(&f.t);
}

/* RGBA8 S = 4 cleared to (0, 0, 0, 255), white drawn into samples 0
 * and 1 of the left half: AVERAGE gives 128 (127.5 to even), SAMPLE_ZERO
 * 255; with the RESOLVE packet (rp) instead of END_PASS. */
/* The RESOLVE packet on f's pass (as it is) into res with mode. */
static void
resolve_packet(struct fx *f, const struct gt_image *res, uint32_t mode)
{
	struct swgpu_pass ps = f->pass;

	ps.color[0].resolve_va = res->mem.va;
	ps.color[0].resolve_row_pitch = res->pitch;
	ps.color[0].resolve_layer_pitch = res->pitch * H;
	ps.color[0].resolve_mode = mode;
	swgpu_emit_va_packet(gt_emit(&f->t, SWGPU_LEN_RESOLVE),
	                     SWGPU_OP_RESOLVE, 0,
	                     gt_put(&f->t, &ps, sizeof(ps)));
	assert_true(gt_run(&f->t));
}

static void
color_resolve(uint32_t mode, bool rp, uint8_t want_left)
{
	struct fx f;
	struct ms_image rt;
	struct gt_image res;
	struct vtx3 v[6];

	fx_init(&f);
	rt = ms_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, 4);
	res = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	ms_attachment(&rt, &f.pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0, 0, 0, gt_fbits(1.0f) });
	f.pass.color_count = 1;
	struct swgpu_attachment *a = &f.pass.color[0];
	struct swgpu_attachment saved = *a;
	a->resolve_va = res.mem.va;
	a->resolve_row_pitch = res.pitch;
	a->resolve_layer_pitch = res.pitch * H;
	a->resolve_mode = mode;
	if (rp)
		f.pass.color[0] = saved;
	f.ps.state.rasterization_samples = 4;
	f.ps.state.sample_mask = 0x3;
	quad(v, 0, 0, W / 2, H, 0.5f, ONE4, NULL);
	assert_true(fx_draw(&f, v, 6));
	if (rp) {
		f.pass.color[0].load_op = SWGPU_LOAD_LOAD;
		resolve_packet(&f, &res, mode);
	}
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			const uint8_t *p = gt_px(&res, x, y);
			const uint8_t c = x < W / 2 ? want_left : 0;
			assert_int_equal(p[0], c);
			assert_int_equal(p[1], c);
			assert_int_equal(p[3], 255);
		}
	gt_fini(&f.t);
}

/*
 * A 4-sample RGBA8 target with alpha blending: batches whose pixels have
 * all or none of their samples write all four slices with one UNORM8
 * job (gfx_draw.ms_planes); SWGPU_GFX_MS_PLANES=0 writes slice by
 * slice. A triangle over the whole target, overlapping ones at 1/256
 * positions with varying colours (edges sample by sample), one whose
 * pixels are wholly in or out (partly covered quads in one job), then
 * another over the whole target (one job for slices whose samples hold
 * different colours) must give the same bytes in every slice both
 * ways; some pixel's samples differ (edges were drawn) and some are
 * blends of two triangles.
 */
static void
planes_draw(bool planes, uint8_t *out)
{
	struct fx f;
	struct ms_image rt;
	struct vtx3 v[30];
	uint32_t seed = 12345u;

	setenv("SWGPU_GFX_MS_PLANES", planes ? "1" : "0", 1);
	fx_init(&f);
	rt = ms_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, 4);
	ms_attachment(&rt, &f.pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(0.2f), gt_fbits(0.4f),
	                                   gt_fbits(0.6f), gt_fbits(1.0f) });
	f.pass.color_count = 1;
	f.ps.state.rasterization_samples = 4;
	f.ps.state.sample_mask = 0xf;
	struct swgpu_blend_attachment *b = &f.ps.state.blend[0];
	b->enable = 1;
	b->src_color = 6;       /* SRC_ALPHA */
	b->dst_color = 7;       /* ONE_MINUS_SRC_ALPHA */
	b->src_alpha = 1;
	b->dst_alpha = 7;
	b->color_op = b->alpha_op = 0;
	for (uint32_t i = 0; i < 30; i++) {
		/* the first and last triangles cover the whole target (all
		 * their batches alike), the last over the others' edges */
		static const float big[3][2] = { { -20, -20 }, { 60, -20 },
		                                  { -20, 60 } };
		/* legs on pixel edges at odd x and y, the third edge off
		 * the target: quads with pixels wholly in and wholly out */
		static const float legs[3][2] = { { 3, 3 }, { 40, 3 },
		                                   { 3, 40 } };
		float c[4], p[2];

		for (uint32_t k = 0; k < 2; k++) {
			seed = seed * 1664525u + 1013904223u;
			p[k] = i < 3 || i >= 27 ? big[i % 3][k]
			       : i >= 24 ? legs[i % 3][k]
			       : (float)(seed >> 20) / 256.0f * 1.5f - 4.0f;
		}
		for (uint32_t k = 0; k < 4; k++)
			c[k] = (float)((i / 3 * 53 + k * 97) % 256) / 255.0f;
		vtx(&v[i], p[0], p[1], 0.5f, c);
	}
	assert_true(fx_draw(&f, v, 30));
	for (uint32_t s = 0; s < 4; s++)
		for (uint32_t y = 0; y < H; y++)
			memcpy(out + ((s * H + y) * W) * 4, ms_px(&rt, 0, y, s),
			       4 * W);
	gt_fini(&f.t);
	unsetenv("SWGPU_GFX_MS_PLANES");
}

static void
test_unorm8_planes_same(void **state)
{
	static uint8_t a[4 * W * H * 4], b[4 * W * H * 4];
	uint32_t split = 0, blended = 0;

	planes_draw(true, a);
	planes_draw(false, b);
	assert_memory_equal(a, b, sizeof(a));
	for (uint32_t p = 0; p < W * H; p++) {
		const uint8_t *s0 = a + 4 * p;
		bool differ = false;

		for (uint32_t s = 1; s < 4; s++)
			differ |= memcmp(s0, a + 4 * (p + s * W * H), 4) != 0;
		split += differ;
		/* neither the clear nor one triangle's own colour (its
		 * vertex colours are flat per triangle): a blend of two */
		blended += s0[1] != 102 && s0[0] != 51 && s0[3] == 255;
	}
	assert_true(split > 8);
	assert_true(blended > 8);
}

/*
 * AVERAGE of RGBA8 against its definition, byte by byte: random sample
 * bytes, S = 2, 4, 8, resolved by the RESOLVE packet over a render area
 * of odd width (whole steps of four pixels and single texels both);
 * each byte the mean rounded to nearest even, pixels outside the area
 * untouched. Half-way means are frequent with random bytes: both their
 * rounding directions are counted.
 */
static void
test_resolve_average_exact(void **state)
{
	uint32_t seed = 99u, halves_up = 0, halves_down = 0;

	for (uint32_t S = 2; S <= 8; S *= 2) {
		struct fx f;
		struct ms_image rt;
		struct gt_image res;

		fx_init(&f);
		rt = ms_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, S);
		res = gt_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
		for (uint32_t k = 0; k < S; k++)
			for (uint32_t y = 0; y < H; y++)
				for (uint32_t i = 0; i < 4 * W; i++) {
					seed = seed * 1664525u + 1013904223u;
					ms_px(&rt, 0, y, k)[i] =
						(uint8_t)(seed >> 24);
				}
		ms_attachment(&rt, &f.pass.color[0], SWGPU_LOAD_LOAD, NULL);
		f.pass.color_count = 1;
		f.pass.area_x = 1;
		f.pass.area_width = W - 2;
		resolve_packet(&f, &res, SWGPU_RESOLVE_AVERAGE);
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++)
				for (uint32_t c = 0; c < 4; c++) {
					const uint8_t got = gt_px(&res, x, y)[c];
					uint32_t sum = 0, want;

					if (x < 1 || x >= W - 1) {
						assert_int_equal(got, 0);
						continue;
					}
					for (uint32_t k = 0; k < S; k++)
						sum += ms_px(&rt, x, y, k)[c];
					want = sum / S;
					if (2 * (sum % S) == S)
						*(want & 1u ? &halves_up
						            : &halves_down) += 1;
					if (2 * (sum % S) > S ||
					    (2 * (sum % S) == S && (want & 1u)))
						want++;
					assert_int_equal(got, want);
				}
		gt_fini(&f.t);
	}
	assert_true(halves_up > 50 && halves_down > 50);
}

static void
test_color_resolve(void **state)
{
	color_resolve(SWGPU_RESOLVE_AVERAGE, false, 128);
	color_resolve(SWGPU_RESOLVE_SAMPLE_ZERO, false, 255);
	color_resolve(SWGPU_RESOLVE_AVERAGE, true, 128);
}

/* S8 of 4 samples cleared to 3; stencil REPLACE 7 through sample mask
 * 0x2 on the left half: sample 1 holds 7 there. */
static void
stencil_resolve(uint32_t mode, uint8_t want_left, uint8_t want_right)
{
	struct fx f;
	struct ms_image sb;
	struct gt_image res;
	struct vtx3 v[6];

	fx_init(&f);
	sb = ms_image(&f.t, SWGPU_FORMAT_S8_UINT, 4);
	res = gt_image(&f.t, SWGPU_FORMAT_S8_UINT, W, H);
	ms_attachment(&sb, &f.pass.stencil, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 3, 0, 0, 0 });
	f.pass.stencil.resolve_va = res.mem.va;
	f.pass.stencil.resolve_row_pitch = res.pitch;
	f.pass.stencil.resolve_layer_pitch = res.pitch * H;
	f.pass.stencil.resolve_mode = mode;
	f.t.no_fs = true;
	struct swgpu_raster_state *rs = &f.ps.state;
	rs->rasterization_samples = 4;
	rs->sample_mask = 0x2;
	rs->stencil_test = 1;
	rs->front.compare_op = SWGPU_COMPARE_ALWAYS;
	rs->front.pass_op = 2;            /* REPLACE */
	rs->front.reference = 7;
	rs->front.write_mask = 0xff;
	rs->back = rs->front;
	quad(v, 0, 0, W / 2, H, 0.5f, ONE4, NULL);
	assert_true(fx_draw(&f, v, 6));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			assert_int_equal(*ms_px(&sb, x, y, 1), x < W / 2 ? 7 : 3);
			assert_int_equal(*ms_px(&sb, x, y, 0), 3);
			assert_int_equal(*gt_px(&res, x, y),
			                 x < W / 2 ? want_left : want_right);
		}
	gt_fini(&f.t);
}

static void
test_stencil_resolve(void **state)
{
	stencil_resolve(SWGPU_RESOLVE_SAMPLE_ZERO, 3, 3);
	stencil_resolve(SWGPU_RESOLVE_MIN, 3, 3);
	stencil_resolve(SWGPU_RESOLVE_MAX, 7, 3);
}

static void
test_bad(void **state)
{
	struct fx f;
	struct ms_image rt, zb;
	struct vtx3 v[6];

	full_quad(v, 0.5f, ONE4, NULL);
	/* colour 4 samples, depth 2: BEGIN_PASS */
	fx_init(&f);
	rt = ms_image(&f.t, SWGPU_FORMAT_R8G8B8A8_UNORM, 4);
	zb = ms_image(&f.t, SWGPU_FORMAT_D32_SFLOAT, 2);
	ms_attachment(&rt, &f.pass.color[0], SWGPU_LOAD_LOAD, NULL);
	ms_attachment(&zb, &f.pass.depth, SWGPU_LOAD_LOAD, NULL);
	f.pass.color_count = 1;
	gt_begin_pass(&f.t, &f.pass);
	gt_expect_fault(&f.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BEGIN_PASS);
	assert_non_null(strstr(f.t.fault.message, "sample count"));
	/* pipeline 2 samples on 4-sample attachments: DRAW */
	memset(&f.pass.depth, 0, sizeof(f.pass.depth));
	f.ps.state.rasterization_samples = 2;
	f.ps.state.sample_mask = 3;
	gt_programs(&f.t);
	gt_begin_pass(&f.t, &f.pass);
	gt_set_pipeline(&f.t, &f.ps);
	gt_vertices(&f.t, &v[0].pos[0], 6, NA);
	gt_draw(&f.t, 6, 1);
	gt_expect_fault(&f.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW);
	/* the state dump shows both sample counts */
	char text[4096];
	gfx_state_describe(f.t.g, text, sizeof(text));
	assert_non_null(strstr(text, "R8G8B8A8_UNORM 16x16"));
	assert_non_null(strstr(text, " 4 samples"));
	assert_non_null(strstr(text, "multisample: 2 samples, mask 0x3"));
	/* rasterization samples 3 */
	f.ps.state.rasterization_samples = 3;
	gt_begin_pass(&f.t, &f.pass);
	gt_set_pipeline(&f.t, &f.ps);
	gt_vertices(&f.t, &v[0].pos[0], 6, NA);
	gt_draw(&f.t, 6, 1);
	gt_expect_fault(&f.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW);
	/* a resolve target on a single-sampled attachment */
	struct swgpu_pass ps = f.pass;
	ps.color[0].samples = 1;
	ps.color[0].resolve_va = rt.im.mem.va;
	ps.color[0].resolve_row_pitch = rt.im.pitch;
	ps.color[0].resolve_mode = SWGPU_RESOLVE_SAMPLE_ZERO;
	gt_begin_pass(&f.t, &ps);
	gt_expect_fault(&f.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BEGIN_PASS);
	/* AVERAGE of an integer format through RESOLVE */
	ps = f.pass;
	ps.color[0].format = SWGPU_FORMAT_R8G8B8A8_UINT;
	ps.color[0].resolve_va = rt.im.mem.va;
	ps.color[0].resolve_row_pitch = rt.im.pitch;
	ps.color[0].resolve_mode = SWGPU_RESOLVE_AVERAGE;
	swgpu_emit_va_packet(gt_emit(&f.t, SWGPU_LEN_RESOLVE),
	                     SWGPU_OP_RESOLVE, 0, gt_put(&f.t, &ps, sizeof(ps)));
	gt_expect_fault(&f.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_RESOLVE);
	/* 5 samples */
	ps = f.pass;
	ps.color[0].samples = 5;
	gt_begin_pass(&f.t, &ps);
	gt_expect_fault(&f.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BEGIN_PASS);
	gt_fini(&f.t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_diagonal),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_line_depth),
		cmocka_unit_test(test_depth_resolve),
		cmocka_unit_test(test_sample_mask),
		cmocka_unit_test(test_alpha_to_coverage),
		cmocka_unit_test(test_color_resolve),
		cmocka_unit_test(test_unorm8_planes_same),
		cmocka_unit_test(test_resolve_average_exact),
		cmocka_unit_test(test_stencil_resolve),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
