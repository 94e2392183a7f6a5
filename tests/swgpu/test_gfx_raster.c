/* SPDX-License-Identifier: MIT */
/*
 * Rasterization rules of the graphics engine, against hand-computed
 * coverage: the top-left rule on chosen triangles, meshes whose
 * triangles share edges (jittered grids, fans around a centre, strips)
 * covering every pixel exactly once (counted with additive blending
 * into a float target), the same image from 1, 2 and 4 raster threads,
 * the scissor, face culling and front face.
 */
#include "gfx_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 96
#define H 80

struct scene {
	struct gt t;
	struct gt_image rt;
	struct swgpu_pipeline_state ps;
	struct swgpu_pass pass;
};

/* A pass over one R32_SFLOAT target cleared to 0 and a pipeline that
 * adds the fragment colour (2 attributes: position, colour). */
static void
scene_init(struct scene *s, uint32_t threads)
{
	static const uint32_t zero[4] = { 0 };

	gt_init(&s->t, threads);
	s->rt = gt_image(&s->t, SWGPU_FORMAT_R32_SFLOAT, W, H);
	memset(&s->pass, 0, sizeof(s->pass));
	s->pass.color_count = 1;
	s->pass.layer_count = 1;
	s->pass.area_width = W;
	s->pass.area_height = H;
	gt_attachment(&s->rt, &s->pass.color[0], SWGPU_LOAD_CLEAR, zero);
	gt_pipeline_defaults(&s->ps, W, H, 2);
	struct swgpu_blend_attachment *b = &s->ps.state.blend[0];
	b->enable = 1;
	b->src_color = b->dst_color = b->src_alpha = b->dst_alpha = 1;
	b->color_op = b->alpha_op = 0;
}

/* Vertex at screen position (sx, sy) in pixels, colour value v. */
static void
vtx(float *out, double sx, double sy, float v)
{
	out[0] = (float)(2.0 * sx / W - 1.0);
	out[1] = (float)(2.0 * sy / H - 1.0);
	out[2] = 0.5f;
	out[3] = 1.0f;
	out[4] = v;
	out[5] = out[6] = 0.0f;
	out[7] = 1.0f;
}

static void
draw_scene(struct scene *s, const float *verts, uint32_t n)
{
	gt_begin_pass(&s->t, &s->pass);
	gt_set_pipeline(&s->t, &s->ps);
	gt_vertices(&s->t, verts, n, 2);
	gt_draw(&s->t, n, 1);
	gt_end_pass(&s->t);
	assert_true(gt_run(&s->t));
}

static float
count_at(const struct scene *s, int x, int y)
{
	float v;

	memcpy(&v, gt_px(&s->rt, (uint32_t)x, (uint32_t)y), 4);
	return v;
}

/*
 * Two triangles splitting the square of pixel centres (1.5, 1.5) ..
 * (5.5, 5.5) along its anti-diagonal, edges through pixel centres:
 *   A = (1.5,1.5) (5.5,1.5) (1.5,5.5): top and left edges inclusive,
 *       the diagonal is its right edge (exclusive): cx >= 1.5, cy >= 1.5,
 *       cx + cy < 7  ->  px, py >= 1, px + py < 6
 *   B = (5.5,1.5) (5.5,5.5) (1.5,5.5): the diagonal is its left edge
 *       (inclusive), right and bottom exclusive: px, py <= 4, px + py >= 6
 * A adds 1, B adds 100 (both winding orders of each are drawn in turn).
 */
static void
test_top_left_square(void **state)
{
	struct scene s;
	float v[6][8];

	for (int order = 0; order < 2; order++) {
		scene_init(&s, 2);
		vtx(v[0], 1.5, 1.5, 1);
		vtx(order ? v[2] : v[1], 5.5, 1.5, 1);
		vtx(order ? v[1] : v[2], 1.5, 5.5, 1);
		vtx(v[3], 5.5, 1.5, 100);
		vtx(order ? v[5] : v[4], 5.5, 5.5, 100);
		vtx(order ? v[4] : v[5], 1.5, 5.5, 100);
		draw_scene(&s, &v[0][0], 6);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float want = 0;
				if (x >= 1 && y >= 1 && x + y < 6)
					want = 1;
				else if (x <= 4 && y <= 4 && x + y >= 6)
					want = 100;
				if (count_at(&s, x, y) != want)
					fail_msg("order %d pixel (%d, %d): %g, "
					         "want %g", order, x, y,
					         count_at(&s, x, y), want);
			}
		gt_fini(&s.t);
	}
}

/* A horizontal edge through pixel centres belongs to the triangle below
 * it (top edge), a vertical one to the triangle on its right (left
 * edge). */
static void
test_top_left_shared_edges(void **state)
{
	struct scene s;
	float v[12][8];

	scene_init(&s, 1);
	/* a horizontal shared edge y = 6.5 */
	vtx(v[0], 2.5, 2.5, 1);
	vtx(v[1], 8.5, 6.5, 1);
	vtx(v[2], 2.5, 6.5, 1);    /* upper: bottom edge y = 6.5 */
	vtx(v[3], 2.5, 6.5, 10);
	vtx(v[4], 8.5, 6.5, 10);
	vtx(v[5], 2.5, 10.5, 10);  /* lower: top edge y = 6.5 */
	/* vertical shared edge x = 20.5 */
	vtx(v[6], 16.5, 2.5, 100);
	vtx(v[7], 20.5, 2.5, 100);
	vtx(v[8], 20.5, 8.5, 100); /* left one: right edge x = 20.5 */
	vtx(v[9], 20.5, 2.5, 1000);
	vtx(v[10], 24.5, 8.5, 1000);
	vtx(v[11], 20.5, 8.5, 1000); /* right one: left edge x = 20.5 */
	draw_scene(&s, &v[0][0], 12);
	/* Row 6 (centres y = 6.5) between x 2.5 and 8.5: the lower
	 * triangle's (10); the left edge x = 2.5 is inclusive for both. */
	for (int x = 2; x < 8; x++)
		assert_true(count_at(&s, x, 6) == 10.0f);
	assert_true(count_at(&s, 8, 6) == 0.0f);
	/* Column 20 (centres x = 20.5), rows 3..7: the right triangle's
	 * (1000). The shared vertex (20.5, 2.5) is on the left one's right
	 * edge and on the right one's right (hypotenuse) edge: neither. */
	for (int y = 3; y < 8; y++)
		assert_true(count_at(&s, 20, y) == 1000.0f);
	assert_true(count_at(&s, 20, 2) == 0.0f);
	assert_true(count_at(&s, 19, 2) == 100.0f);
	gt_fini(&s.t);
}

/* Deterministic PRNG. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double
rnd01(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}

/* Subpixel-exact random position in [a, b). */
static double
rnd_sub(double a, double b)
{
	return floor((a + rnd01() * (b - a)) * 256.0) / 256.0;
}

/* A grid of quads with jittered shared vertices extending past the
 * framebuffer on every side: every pixel is covered exactly once. */
static void
grid_verts(float *v, uint32_t *n, uint32_t nx, uint32_t ny)
{
	double gx[17][17], gy[17][17];
	const double x0 = -10, y0 = -9, cw = (W + 20.0) / nx,
	             ch = (H + 18.0) / ny;

	assert_true(nx <= 16 && ny <= 16);
	for (uint32_t j = 0; j <= ny; j++)
		for (uint32_t i = 0; i <= nx; i++) {
			double jx = i == 0 || i == nx ? 0 : rnd_sub(-0.2, 0.2);
			double jy = j == 0 || j == ny ? 0 : rnd_sub(-0.2, 0.2);
			gx[j][i] = floor((x0 + i * cw + jx * cw) * 256) / 256;
			gy[j][i] = floor((y0 + j * ch + jy * ch) * 256) / 256;
		}
	*n = 0;
	for (uint32_t j = 0; j < ny; j++)
		for (uint32_t i = 0; i < nx; i++) {
			/* alternate the diagonal, and the winding */
			const int q[2][3][2] = {
				{ { 0, 0 }, { 1, 0 }, { 1, 1 } },
				{ { 0, 0 }, { 1, 1 }, { 0, 1 } },
			};
			const int r[2][3][2] = {
				{ { 1, 0 }, { 0, 1 }, { 0, 0 } },
				{ { 1, 0 }, { 1, 1 }, { 0, 1 } },
			};
			for (int tri = 0; tri < 2; tri++)
				for (int k = 0; k < 3; k++) {
					const int *c = (i + j) & 1 ? r[tri][k]
					                           : q[tri][k];
					vtx(v + 8 * (*n)++,
					    gx[j + c[1]][i + c[0]],
					    gy[j + c[1]][i + c[0]], 1);
				}
		}
}

static void
expect_all(const struct scene *s, float want, const char *what)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			if (count_at(s, x, y) != want)
				fail_msg("%s: pixel (%d, %d) covered %g times",
				         what, x, y, count_at(s, x, y));
}

static void
test_grid_exactly_once(void **state)
{
	static float v[16 * 16 * 6 * 8];
	uint32_t n;

	for (int round = 0; round < 8; round++) {
		struct scene s;
		scene_init(&s, 2);
		grid_verts(v, &n, 3 + round, 2 + round);
		draw_scene(&s, v, n);
		expect_all(&s, 1.0f, "grid");
		gt_fini(&s.t);
	}
}

/* A star-shaped polygon around a centre drawn as a triangle fan (and
 * as a list of the same triangles): interior pixels once, none twice,
 * and the fan covers exactly what the list covers. */
static void
test_fan_exactly_once(void **state)
{
	static float fan[64 * 8], list[64 * 3 * 8];

	for (int round = 0; round < 6; round++) {
		struct scene a, b;
		const uint32_t rim = 8 + 7 * (uint32_t)round;
		const double cx = rnd_sub(30, 60), cy = rnd_sub(30, 50);
		double px[64], py[64];

		for (uint32_t i = 0; i < rim; i++) {
			double ang = 2 * M_PI * (i + 0.3 * rnd01()) / rim;
			double r = rnd_sub(8, 45);
			px[i] = floor((cx + r * cos(ang)) * 256) / 256;
			py[i] = floor((cy + r * sin(ang)) * 256) / 256;
		}
		vtx(fan, cx, cy, 1);
		for (uint32_t i = 0; i <= rim; i++)
			vtx(fan + 8 * (i + 1), px[i % rim], py[i % rim], 1);
		for (uint32_t i = 0; i < rim; i++) {
			vtx(list + 8 * (3 * i), px[i], py[i], 1);
			vtx(list + 8 * (3 * i + 1), px[(i + 1) % rim],
			    py[(i + 1) % rim], 1);
			vtx(list + 8 * (3 * i + 2), cx, cy, 1);
		}
		scene_init(&a, 2);
		a.ps.state.topology = SWGPU_TOPOLOGY_TRIANGLE_FAN;
		draw_scene(&a, fan, rim + 2);
		scene_init(&b, 1);
		draw_scene(&b, list, 3 * rim);
		uint32_t covered = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float c = count_at(&a, x, y);
				if (c != 0.0f && c != 1.0f)
					fail_msg("fan pixel (%d,%d) %g", x, y, c);
				assert_true(c == count_at(&b, x, y));
				covered += c == 1.0f;
				/* centre of the star: always inside */
				if (fabs(x + 0.5 - cx) < 2 &&
				    fabs(y + 0.5 - cy) < 2)
					assert_true(c == 1.0f);
			}
		assert_true(covered > 100);
		gt_fini(&a.t);
		gt_fini(&b.t);
	}
}

/* A strip zig-zagging across the framebuffer with shared edges: every
 * pixel of the band once. */
static void
test_strip_exactly_once(void **state)
{
	static float v[64 * 8];
	const uint32_t n = 40;
	struct scene s;

	for (uint32_t i = 0; i < n; i++) {
		double x = -5.0 + (W + 10.0) * (i / 2) / (n / 2 - 1);
		x += i & 1 ? rnd_sub(-1, 1) : 0;
		vtx(v + 8 * i, floor(x * 256) / 256, i & 1 ? H + 3.0 : -2.0,
		    1);
	}
	scene_init(&s, 2);
	s.ps.state.topology = SWGPU_TOPOLOGY_TRIANGLE_STRIP;
	draw_scene(&s, v, n);
	expect_all(&s, 1.0f, "strip");
	gt_fini(&s.t);
}

/* 1, 2 and 4 raster threads give identical images (random overlapping
 * triangles, blended: order matters for nothing here but the counts). */
static void
test_threads_identical(void **state)
{
	static float v[600 * 8];
	float *img[3];
	const uint32_t threads[3] = { 1, 2, 4 };

	for (uint32_t i = 0; i < 600; i++)
		vtx(v + 8 * i, rnd_sub(-20, W + 20), rnd_sub(-20, H + 20),
		    (float)(1 + i % 7));
	for (int k = 0; k < 3; k++) {
		struct scene s;
		scene_init(&s, threads[k]);
		draw_scene(&s, v, 600);
		img[k] = malloc(W * H * 4);
		memcpy(img[k], s.rt.mem.cpu, W * H * 4);
		gt_fini(&s.t);
	}
	assert_memory_equal(img[0], img[1], W * H * 4);
	assert_memory_equal(img[0], img[2], W * H * 4);
	for (int k = 0; k < 3; k++)
		free(img[k]);
}

/* Scissor: a full-screen quad covers exactly the scissor rectangle. */
static void
test_scissor(void **state)
{
	struct scene s;
	float v[6][8];

	scene_init(&s, 2);
	s.ps.state.scissors[0] = (struct swgpu_scissor){ 13, 7, 50, 41 };
	vtx(v[0], -4, -4, 1);
	vtx(v[1], W + 4, -4, 1);
	vtx(v[2], -4, H + 4, 1);
	vtx(v[3], W + 4, -4, 1);
	vtx(v[4], W + 4, H + 4, 1);
	vtx(v[5], -4, H + 4, 1);
	draw_scene(&s, &v[0][0], 6);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float want = x >= 13 && x < 63 && y >= 7 && y < 48;
			assert_true(count_at(&s, x, y) == want);
		}
	gt_fini(&s.t);
}

/* Culling and front face: a counter-clockwise (on screen, y down) and a
 * clockwise triangle against every cull mode and front face. */
static void
test_cull_front_face(void **state)
{
	for (uint32_t cull = 0; cull < 4; cull++)
		for (uint32_t ff = 0; ff < 2; ff++) {
			struct scene s;
			float v[6][8];
			scene_init(&s, 1);
			s.ps.state.cull_mode = cull;
			s.ps.state.front_face = ff;
			/* CCW on screen: (2,2) (2,20) (20,2) */
			vtx(v[0], 2, 2, 1);
			vtx(v[1], 2, 20, 1);
			vtx(v[2], 20, 2, 1);
			/* CW on screen: (40,2) (58,2) (40,20) */
			vtx(v[3], 40, 2, 2);
			vtx(v[4], 58, 2, 2);
			vtx(v[5], 40, 20, 2);
			draw_scene(&s, &v[0][0], 6);
			bool ccw_front = ff == 0;
			bool show_ccw = !(cull & (ccw_front ? 1 : 2));
			bool show_cw = !(cull & (ccw_front ? 2 : 1));
			assert_true(count_at(&s, 5, 5) == (show_ccw ? 1 : 0));
			assert_true(count_at(&s, 43, 5) == (show_cw ? 2 : 0));
			gt_fini(&s.t);
		}
}

/* Degenerate (zero-area after snapping) triangles make no fragments. */
static void
test_zero_area(void **state)
{
	struct scene s;
	float v[6][8];

	scene_init(&s, 1);
	vtx(v[0], 2, 2, 1);
	vtx(v[1], 30, 30, 1);
	vtx(v[2], 16, 16, 1);             /* collinear */
	vtx(v[3], 10, 40, 1);
	vtx(v[4], 10 + 1.0 / 1024, 40, 1); /* snaps onto v3 */
	vtx(v[5], 40, 60, 1);
	draw_scene(&s, &v[0][0], 6);
	expect_all(&s, 0.0f, "zero area");
	gt_fini(&s.t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_left_square),
		cmocka_unit_test(test_top_left_shared_edges),
		cmocka_unit_test(test_grid_exactly_once),
		cmocka_unit_test(test_fan_exactly_once),
		cmocka_unit_test(test_strip_exactly_once),
		cmocka_unit_test(test_threads_identical),
		cmocka_unit_test(test_scissor),
		cmocka_unit_test(test_cull_front_face),
		cmocka_unit_test(test_zero_area),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
