/* SPDX-License-Identifier: MIT */
/*
 * Lines of the graphics engine against hand-computed pixels: the
 * diamond-exit rule with OpenGL's perturbation of the endpoints by (-e,
 * -e^2) (a line on a pixel boundary lights the row above / the column
 * left of it, a line starting on a diamond's right corner lights that
 * pixel), strips lighting shared pixels once, interpolation along the
 * major axis (what Bresenham lines use and the CTS checks) with
 * perspective correction, depth clamp instead of far-plane clipping,
 * and instanced strips and lists that start over with every instance,
 * also when a batch ends inside an instance.
 */
#include "gfx_prims_util.h"

/* Value of the one lit pixel of column x; -1 when none or several. */
static int
lit_row(const struct px *p, int x)
{
	int row = -1;

	for (int y = 0; y < H; y++) {
		if (val(p, x, y) == 0.0f)
			continue;
		if (row >= 0)
			return -1;
		row = y;
	}
	return row;
}

/* Horizontal (2, 5.5)-(12, 5.5): the start is the right corner of pixel
 * (1, 5)'s diamond, inside it once moved by -e: pixels 1..10 (the end is
 * inside (11, 5)'s diamond: not lit). The diagonal from the centre of
 * (0, 8) to the centre of (6, 14): (0..5, 8..13). */
static void
test_lines(void **state)
{
	struct px p;
	struct vtx v[4] = { at(2, 5.5, 0.5, 1), at(12, 5.5, 0.5, 1),
	                    at(0.5, 8.5, 0.5, 10), at(6.5, 14.5, 0.5, 10) };

	px_init(&p);
	p.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
	assert_true(px_draw(&p, v, 4));
	EXPECT_IMAGE(&p, (y == 5 && x >= 1 && x <= 10) ? 1
	                 : (y - 8 == x && x >= 0 && x <= 5) ? 10 : 0);
	gt_fini(&p.t);
}

/*
 * Lines exactly on pixel boundaries touch diamonds only at corners; the
 * perturbation puts them just above / left of the boundary:
 *   y = 5 from x = 2.5 to 12.5    row 4, x 2..11
 *   x = 16 (the right edge)       column 15, y 2..11 (what the CTS's
 *                                 depth-clamp lines at x_ndc = 1 need)
 *   x = 0 (the left edge)         column -1: nothing
 */
static void
test_lines_on_pixel_boundaries(void **state)
{
	struct px p;
	struct vtx v[6] = { at(2.5, 5, 0.5, 1), at(12.5, 5, 0.5, 1),
	                    at(16, 2.5, 0.5, 10), at(16, 12.5, 0.5, 10),
	                    at(0, 2.5, 0.5, 100), at(0, 12.5, 0.5, 100) };

	px_init(&p);
	p.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
	assert_true(px_draw(&p, v, 6));
	EXPECT_IMAGE(&p, (y == 4 && x >= 2 && x <= 11) ? 1
	                 : (x == 15 && y >= 2 && y <= 11) ? 10 : 0);
	gt_fini(&p.t);
}

/* A line strip around a square: its corners are shared by two lines and
 * lit once (the diamond-exit rule), every pixel of the path once. */
static void
test_line_strip_shared_ends(void **state)
{
	struct px p;
	struct vtx v[5] = { at(3.5, 3.5, 0.5, 1), at(12.5, 3.5, 0.5, 1),
	                    at(12.5, 12.5, 0.5, 1), at(3.5, 12.5, 0.5, 1),
	                    at(3.5, 3.5, 0.5, 1) };

	px_init(&p);
	p.ps.state.topology = SWGPU_TOPOLOGY_LINE_STRIP;
	assert_true(px_draw(&p, v, 5));
	EXPECT_IMAGE(&p, ((y == 3 || y == 12) && x >= 3 && x <= 12) ||
	                 ((x == 3 || x == 12) && y >= 3 && y <= 12) ? 1 : 0);
	gt_fini(&p.t);
}

/* Attributes along a horizontal line: t = (x + 0.5 - 2) / 10, also at
 * pixel 1 whose centre lies before the start (t = -0.05). */
static void
test_line_interpolation(void **state)
{
	struct px p;
	struct vtx v[2] = { at(2, 5.5, 0.5, 0), at(12, 5.5, 0.5, 100) };

	px_init(&p);
	p.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
	assert_true(px_draw(&p, v, 2));
	for (int x = 1; x <= 10; x++)
		assert_true(fabsf(val(&p, x, 5) - (x + 0.5f - 2) * 10) < 1e-3f);
	gt_fini(&p.t);
}

/* An x-major line (2.5, 3.5)-(12.5, 8.5): one pixel per column x =
 * 2..11, interpolated by the column alone: t = (x + 0.5 - 2.5) / 10, so
 * 10 + 10 (x - 2) even where the pixel centre is half a pixel off the
 * line (odd columns; projecting the centre on the line would give 2
 * more or less there). */
static void
test_line_interpolation_major_axis(void **state)
{
	struct px p;
	struct vtx v[2] = { at(2.5, 3.5, 0.5, 10), at(12.5, 8.5, 0.5, 110) };

	px_init(&p);
	p.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
	assert_true(px_draw(&p, v, 2));
	int lit = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			lit += val(&p, x, y) != 0.0f;
	assert_int_equal(lit, 10);
	for (int x = 2; x <= 11; x++) {
		int y = lit_row(&p, x);
		assert_true(y >= 3 && y <= 8);
		assert_true(fabsf(val(&p, x, y) - (10.0f + 10.0f * (float)(x - 2)))
		            < 1e-3f);
	}
	gt_fini(&p.t);
}

/* Perspective-correct along a line: w = 1 at (2, 5.5), w = 4 at (12,
 * 5.5), values 0 and 100; at screen parameter s = (x + 0.5 - 2) / 10 the
 * value is 100 (s / 4) / ((1 - s) / 1 + s / 4). */
static void
test_line_perspective(void **state)
{
	struct px p;
	struct vtx v[2] = { at(2, 5.5, 0.5, 0), at(12, 5.5, 0.5, 100) };

	for (int c = 0; c < 4; c++)
		v[1].pos[c] *= 4.0f;
	px_init(&p);
	p.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
	assert_true(px_draw(&p, v, 2));
	for (int x = 1; x <= 10; x++) {
		double s = (x + 0.5 - 2) / 10;
		double want = 100 * (s / 4) / ((1 - s) + s / 4);
		assert_true(fabs(val(&p, x, 5) - want) < 1e-3);
	}
	EXPECT_IMAGE(&p, y == 5 && x >= 1 && x <= 10 ? val(&p, x, 5) : 0);
	gt_fini(&p.t);
}

/* A line across row 5 from (-1, 5.5) at z = 0.3 to (17, 5.5) at z = 1.3
 * crosses the far plane at x = 11.6: clipped there without depth clamp
 * (its new end is inside pixel 11's diamond: pixels 0..10), whole with
 * it (pixels 0..15). */
static void
test_line_depth_clamp(void **state)
{
	for (int clamp = 0; clamp < 2; clamp++) {
		struct px p;
		struct vtx v[2] = { at(-1, 5.5, 0.3, 1), at(17, 5.5, 1.3, 1) };

		px_init(&p);
		p.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
		p.ps.state.depth_clamp = (uint32_t)clamp;
		assert_true(px_draw(&p, v, 2));
		EXPECT_IMAGE(&p, y == 5 && x <= (clamp ? 15 : 10) ? 1 : 0);
		gt_fini(&p.t);
	}
}

/* ------------------------------------------------------------------ */
/* Instanced lines                                                     */
/* ------------------------------------------------------------------ */

/* Draw count vertices of v as `instances` instances, non-indexed or
 * through an identity index buffer. */
static void
draw_instanced(struct px *p, const struct vtx *v, uint32_t count,
               uint32_t instances, bool indexed)
{
	gt_programs(&p->t);
	gt_begin_pass(&p->t, &p->pass);
	gt_set_pipeline(&p->t, &p->ps);
	gt_vertices(&p->t, &v[0].pos[0], count, NA);
	if (indexed) {
		uint32_t idx[8];
		for (uint32_t i = 0; i < count; i++)
			idx[i] = i;
		swgpu_emit_set_index_buffer(
			gt_emit(&p->t, SWGPU_LEN_SET_INDEX_BUFFER),
			gt_put(&p->t, idx, count * 4), count * 4, 4);
		swgpu_emit_draw_indexed(gt_emit(&p->t, SWGPU_LEN_DRAW_INDEXED),
		                        0, count, instances, 0, 0, 0);
	} else {
		gt_draw(&p->t, count, instances);
	}
	gt_end_pass(&p->t);
}

/*
 * A line strip (2.5, 2.5) -> (12.5, 2.5) -> (12.5, 12.5) -> (2.5,
 * 12.5) drawn as 1400 instances on the same pixels: each instance is a
 * strip of its own, so every path pixel counts 1400 and nothing joins
 * one instance's last vertex to the next one's first (that would light
 * column 2, rows 3..12). 1400 x 3 lines end the first batch (4096
 * primitives) inside instance 1365. A line list of 3 vertices per
 * instance drops the third: it does not pair with the next instance's
 * first vertex (that would light the diagonal).
 */
static void
test_instanced_strips_restart(void **state)
{
	const uint32_t n = 1400;
	struct vtx strip[4] = { at(2.5, 2.5, 0.5, 1), at(12.5, 2.5, 0.5, 1),
	                        at(12.5, 12.5, 0.5, 1),
	                        at(2.5, 12.5, 0.5, 1) };
	struct vtx list[3] = { at(2.5, 2.5, 0.5, 1), at(12.5, 2.5, 0.5, 1),
	                       at(12.5, 12.5, 0.5, 1) };

	for (int indexed = 0; indexed < 2; indexed++) {
		struct px p;

		px_init(&p);
		p.ps.state.topology = SWGPU_TOPOLOGY_LINE_STRIP;
		draw_instanced(&p, strip, 4, n, indexed);
		assert_true(gt_run(&p.t));
		/* row 2 x 2..11 and (12, 2); column 12 y 2..11; row 12 x
		 * 12 down to 3 */
		EXPECT_IMAGE(&p, (y == 2 && x >= 2 && x <= 12) ||
		                 (x == 12 && y >= 2 && y <= 12) ||
		                 (y == 12 && x >= 3 && x <= 12) ? (float)n : 0);
		gt_fini(&p.t);

		px_init(&p);
		p.ps.state.topology = SWGPU_TOPOLOGY_LINE_LIST;
		draw_instanced(&p, list, 3, 3, indexed);
		assert_true(gt_run(&p.t));
		EXPECT_IMAGE(&p, y == 2 && x >= 2 && x <= 11 ? 3 : 0);
		gt_fini(&p.t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_lines_on_pixel_boundaries),
		cmocka_unit_test(test_line_strip_shared_ends),
		cmocka_unit_test(test_line_interpolation),
		cmocka_unit_test(test_line_interpolation_major_axis),
		cmocka_unit_test(test_line_perspective),
		cmocka_unit_test(test_line_depth_clamp),
		cmocka_unit_test(test_instanced_strips_restart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
