/* SPDX-License-Identifier: MIT */
/*
 * Per-sample shading in the graphics engine (hw/gfx/draw.c run length,
 * hw/gfx/frag_ms.c split, hw/gfx/frag_shade.c built-ins), 4 samples, a
 * host fragment program writing (SampleId, SamplePosition.x,
 * SamplePosition.y, SampleMaskIn) — or, one that does not read the
 * sample built-ins, (FragCoord.x, FragCoord.y fractions, the centroid
 * sample of interpolateAtCentroid, -1 for ~0u: the evaluation point,
 * SampleMaskIn) — to an R32G32B32A32_SFLOAT attachment; every sample of
 * every pixel is checked against the standard sample locations:
 *   per_sample   minSampleShading 1: sample s holds (s, pos(s), 1 << s)
 *   per_sample_coord  the same: FragCoord at sample s's location
 *   half_rate    minSampleShading 0.5: two invocations per pixel, each
 *                covering a run of two samples, FragCoord at the centre
 *   off          no sample shading: one invocation per pixel (and
 *                triangle) at the centre, SampleMaskIn the samples it
 *                covers
 *   forced       no sample shading, but the shader reads SampleId and
 *                SamplePosition: per sample, as per_sample (spec)
 */
#include "gfx_frag_util.h"

#include <math.h>

#include "hw/gfx/sample_pos.h"

#define S 4

static void
frag_builtins(struct gt *t, struct gfx_exec *e, uint32_t n,
              const uint8_t *live, uint8_t *discarded)
{
	(void)t;
	(void)live;
	(void)discarded;
	const lane_t *id = gfx_exec_reg(e, IR_REG_SAMPLE_ID);
	const lane_t *px = gfx_exec_reg(e, IR_REG_SAMPLE_POSITION);
	const lane_t *py = gfx_exec_reg(e, IR_REG_SAMPLE_POSITION + 1);
	const lane_t *mi = gfx_exec_reg(e, IR_REG_SAMPLE_MASK_IN);
	lane_t *o[4];

	for (uint32_t c = 0; c < 4; c++)
		o[c] = gfx_exec_reg(e, GT_OUT(0, c));
	for (uint32_t l = 0; l < n; l++) {
		o[0][l].f = (float)id[l].u;
		o[1][l].f = px[l].f;
		o[2][l].f = py[l].f;
		o[3][l].f = (float)mi[l].u;
	}
}

static void
frag_coord(struct gt *t, struct gfx_exec *e, uint32_t n, const uint8_t *live,
           uint8_t *discarded)
{
	(void)t;
	(void)live;
	(void)discarded;
	const lane_t *fx = gfx_exec_reg(e, IR_REG_FRAG_COORD);
	const lane_t *fy = gfx_exec_reg(e, IR_REG_FRAG_COORD + 1);
	const lane_t *mi = gfx_exec_reg(e, IR_REG_SAMPLE_MASK_IN);
	const lane_t *cs = gfx_exec_reg(e, IR_REG_CENTROID_SAMPLE);
	lane_t *o[4];

	for (uint32_t c = 0; c < 4; c++)
		o[c] = gfx_exec_reg(e, GT_OUT(0, c));
	for (uint32_t l = 0; l < n; l++) {
		o[0][l].f = fx[l].f - floorf(fx[l].f);
		o[1][l].f = fy[l].f - floorf(fy[l].f);
		o[2][l].f = cs[l].u == ~0u ? -1.0f : (float)cs[l].u;
		o[3][l].f = (float)mi[l].u;
	}
}

/* Draw a full-screen quad with the given sample shading; check that
 * sample s of every pixel holds invocation (first, mask) of its run:
 * with sample_builtins the program reads SampleId/SamplePosition, else
 * FragCoord (the sample's location when run_len is 1, else the pixel's
 * centre). */
static void
run(uint32_t shading, float min_shading, uint32_t run_len,
    bool sample_builtins)
{
	struct fx f;
	struct vtx3 v[6];
	static const float one[4] = { 1, 1, 1, 1 };

	fx_init(&f);
	struct gt_image im = gt_image(&f.t, SWGPU_FORMAT_R32G32B32A32_SFLOAT,
	                              W, H * S);
	im.h = H;
	gt_attachment(&im, &f.pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0, 0, 0, 0 });
	f.pass.color[0].samples = S;
	f.pass.color_count = 1;
	f.ps.state.rasterization_samples = S;
	f.ps.state.sample_mask = 0xff;
	f.ps.state.sample_shading = shading;
	f.ps.state.min_sample_shading = min_shading;
	f.t.frag = sample_builtins ? frag_builtins : frag_coord;
	f.t.fs_sample_builtins = sample_builtins;
	f.t.frag_no_discard = true;
	full_quad(v, 0.5f, one, NULL);
	assert_true(fx_draw(&f, v, 6));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++)
			for (uint32_t s = 0; s < S; s++) {
				const uint32_t first = s - s % run_len;
				const bool at = run_len == 1;
				const uint32_t run_mask =
					((1u << run_len) - 1u) << first;
				/* the quad's two triangles share the
				 * diagonal x == y: there each invocation
				 * covers only its triangle's samples of
				 * the run (sample s among them), and its
				 * centroid is the lowest of them unless it
				 * has the whole run */
				const uint32_t m = x == y ? (uint32_t)rd32f(
					&im, x, y + s * H, 3) : run_mask;
				const float centroid = m == run_mask ? -1.0f
					: (float)__builtin_ctz(m);
				const float want[4] = {
					sample_builtins ? (float)first
					: at ? gfx_sample_x(S, first) : 0.5f,
					sample_builtins ? gfx_sample_x(S, first)
					: at ? gfx_sample_y(S, first) : 0.5f,
					sample_builtins ? gfx_sample_y(S, first)
					: centroid,
					(float)run_mask,
				};
				if (x == y) {
					assert_true(m & (1u << s));
					assert_true((m & ~run_mask) == 0);
				}
				for (uint32_t c = 0; c < (x == y ? 3u : 4u);
				     c++) {
					float got = rd32f(&im, x, y + s * H, c);
					if (got != want[c])
						print_error("pixel %u,%u sample %u "
						            "c%u: %g want %g\n", x,
						            y, s, c, got, want[c]);
					assert_true(got == want[c]);
				}
			}
	gt_fini(&f.t);
}

static void
test_per_sample(void **state)
{
	(void)state;
	run(1, 1.0f, 1, true);
}

static void
test_per_sample_coord(void **state)
{
	(void)state;
	run(1, 1.0f, 1, false);
}

static void
test_half_rate(void **state)
{
	(void)state;
	run(1, 0.5f, 2, false);
}

static void
test_off(void **state)
{
	(void)state;
	run(0, 0.0f, S, false);
}

static void
test_forced(void **state)
{
	(void)state;
	run(0, 0.0f, 1, true);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_sample),
		cmocka_unit_test(test_per_sample_coord),
		cmocka_unit_test(test_half_rate),
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_forced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
