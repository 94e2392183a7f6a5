/* SPDX-License-Identifier: MIT */
/*
 * Derivatives in fragment programs (engine level: the translator and
 * the batch runner of stage.h): dFdx/dFdy/fwidth in their plain, fine
 * and coarse forms across 2x2 quads (lanes 4q..4q+3 = (x, y), (x+1, y),
 * (x, y+1), (x+1, y+1)) against hand-computed differences, a helper
 * lane's value counting for its quad, and fine derivatives inside a
 * branch that whole quads take or skip (quad-uniform control flow).
 */
#include "shader_stage_util.h"

#include <stdlib.h>
#include <string.h>

#include "sh_fs_deriv.spv.h"

#define W 32u

/* v of lane l: quad q's corners 1, 3, 10, 20 plus 100 q (x differences
 * 2 and 10 in the two rows, y differences 9 and 17 in the columns). */
static float
value(uint32_t l)
{
	static const float corner[4] = { 1.0f, 3.0f, 10.0f, 20.0f };

	return corner[l & 3] + 100.0f * (float)(l / 4);
}

static void
test_derivatives(void **state)
{
	struct ir_program *p = ss_translate(sh_fs_deriv_spv,
	                                    sizeof(sh_fs_deriv_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	uint8_t live[W];
	const uint32_t n = 16;
	/* fine: along the lane's row / column; coarse: row 0 / column 0 */
	static const float fine_dx[4] = { 2, 2, 10, 10 };
	static const float fine_dy[4] = { 9, 17, 9, 17 };

	(void)state;
	assert_true(io->uses_derivatives);
	assert_false(io->discards);
	ss_frag_coords(e, n, 0.5f, 1.0f);
	for (uint32_t l = 0; l < n; l++) {
		live[l] = l != 5 && l != 10;     /* helpers in quads 1, 2 */
		ss_lane(e, io->in_reg[0][0], l)->f = value(l);
		/* quads 0 and 2 take the branch, 1 and 3 do not */
		ss_lane(e, io->in_reg[1][0], l)->i = !((l / 4) & 1);
	}
	assert_true(ir_exec_run_batch(e, d, n, live, NULL));
	for (uint32_t l = 0; l < n; l++) {
		const uint32_t c = l & 3;
		const float want0[4] = { 2, 9, fine_dx[c], fine_dy[c] };
		const float want1[4] = { 2, 9, 11, fine_dx[c] + fine_dy[c] };

		if (!live[l])
			continue;
		for (uint32_t k = 0; k < 4; k++) {
			assert_float_equal(ss_lane(e, io->out_reg[0][k], l)->f,
			                   want0[k], 0.0);
			assert_float_equal(ss_lane(e, io->out_reg[1][k], l)->f,
			                   want1[k], 0.0);
		}
		assert_float_equal(ss_lane(e, io->out_reg[2][0], l)->f, 11.0,
		                   0.0);
		if ((l / 4) & 1) {
			assert_float_equal(ss_lane(e, io->out_reg[2][1], l)->f,
			                   -1.0, 0.0);
		} else {
			/* d(v^2) along the lane's row and column */
			const uint32_t r0 = l & ~1u, c0 = l & ~2u;
			const float dx = value(r0 + 1) * value(r0 + 1) -
			                 value(r0) * value(r0);
			const float dy = value(c0 + 2) * value(c0 + 2) -
			                 value(c0) * value(c0);

			assert_float_equal(ss_lane(e, io->out_reg[2][1], l)->f,
			                   dx, 0.0);
			assert_float_equal(ss_lane(e, io->out_reg[2][2], l)->f,
			                   dy, 0.0);
		}
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derivatives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
