/* SPDX-License-Identifier: MIT */
/*
 * Vertex programs in the shader engine (engine level: the translator and
 * the batch runner of stage.h, no device): where each input and output
 * component lands in ir_io (Location/Component assignment of vectors,
 * integers, arrays, matrices, blocks with member Locations, packed
 * components; unread inputs and unwritten outputs left out), the
 * gl_PerVertex built-ins, the vertex built-in inputs, and the values of
 * two batches of vertices against hand-computed results; lanes past the
 * batch are left alone. Entry points of the wrong stage and execution
 * models the engine does not run are refused with a message.
 */
#include "shader_stage_util.h"

#include <stdlib.h>
#include <string.h>

#include "sh_fs_io.spv.h"
#include "sh_gs_any.spv.h"
#include "sh_saxpy.spv.h"
#include "sh_vs_io.spv.h"

#define W 32u

static void
test_vs_io_layout(void **state)
{
	struct ir_program *p = ss_translate(sh_vs_io_spv, sizeof(sh_vs_io_spv),
	                                    SWGPU_SHADER_STAGE_VERTEX, NULL, 0,
	                                    0);
	const struct ir_io *io = &p->io;

	(void)state;
	/* inputs: pos.xyz, uv.xy, iv.xy (signed), u (unsigned), ain[3]
	 * at locations 4-6 (read with a dynamic index: all of it) */
	for (uint32_t c = 0; c < 4; c++) {
		assert_true(!io->in_reg[0][c] == (c == 3));
		assert_true(!io->in_reg[1][c] == (c >= 2));
		assert_true(!io->in_reg[2][c] == (c >= 2));
		assert_true(!io->in_reg[3][c] == (c >= 1));
		assert_int_equal(io->in_reg[7][c], 0);     /* never read */
	}
	assert_int_equal(io->in_type[0][0], IR_IO_FLOAT);
	assert_int_equal(io->in_type[2][1], IR_IO_SINT);
	assert_int_equal(io->in_type[3][0], IR_IO_UINT);
	for (uint32_t l = 4; l < 7; l++) {
		assert_int_not_equal(io->in_reg[l][0], 0);
		assert_int_equal(io->in_reg[l][1], 0);
	}
	/* outputs */
	for (uint32_t c = 0; c < 4; c++) {
		assert_true(!io->out_reg[0][c] == (c >= 2));  /* o_uv */
		assert_true(!io->out_reg[1][c] == (c >= 2));  /* o_iv */
		assert_int_not_equal(io->out_reg[2][c], 0);   /* blk.a */
		assert_true(!io->out_reg[3][c] == (c >= 2));  /* o_m[0] */
		assert_true(!io->out_reg[4][c] == (c >= 2));  /* o_m[1] */
		assert_true(!io->out_reg[5][c] == (c >= 1));  /* blk.b */
		assert_true(!io->out_reg[6][c] == (c == 3));  /* o_x, o_yz */
		assert_true(!io->out_reg[7][c] == (c >= 1));  /* o_arr[0] */
		assert_true(!io->out_reg[8][c] == (c >= 1));  /* o_arr[1] */
		assert_int_not_equal(io->out_reg[9][c], 0);   /* o_ids */
		assert_int_equal(io->out_reg[10][c], 0);      /* unwritten */
	}
	assert_int_not_equal(io->position_reg, 0);
	assert_int_not_equal(io->point_size_reg, 0);
	assert_int_not_equal(io->clip_reg, 0);
	assert_int_equal(io->clip_count, 2);
	assert_int_not_equal(io->cull_reg, 0);
	assert_int_equal(io->cull_count, 1);
	assert_int_equal(io->layer_reg, 0);
	assert_false(io->discards);
	assert_false(io->side_effects);
	assert_true(p->builtins_used >> IR_REG_VERTEX_INDEX & 1);
	assert_true(p->builtins_used >> IR_REG_DRAW_INDEX & 1);
	ir_program_free(p);
}

/* Inputs of vertex l of batch k. */
static void
fill(struct ir_exec *e, const struct ir_io *io, uint32_t n, uint32_t k)
{
	for (uint32_t l = 0; l < n; l++) {
		float f = (float)(l + 10 * k);

		ss_lane(e, io->in_reg[0][0], l)->f = f;
		ss_lane(e, io->in_reg[0][1], l)->f = f + 0.5f;
		ss_lane(e, io->in_reg[0][2], l)->f = 2.0f;
		ss_lane(e, io->in_reg[1][0], l)->f = f * 0.25f;
		ss_lane(e, io->in_reg[1][1], l)->f = -1.0f;
		ss_lane(e, io->in_reg[2][0], l)->i = (int32_t)l;
		ss_lane(e, io->in_reg[2][1], l)->i = -(int32_t)l;
		ss_lane(e, io->in_reg[3][0], l)->u = 100 + l;
		for (uint32_t a = 0; a < 3; a++)
			ss_lane(e, io->in_reg[4 + a][0], l)->f =
				(float)(10 * a) + f;
		ss_lane(e, IR_REG_VERTEX_INDEX, l)->u = 7 + l;
		ss_lane(e, IR_REG_INSTANCE_INDEX, l)->u = 2 + k;
		ss_lane(e, IR_REG_BASE_VERTEX, l)->u = 7;
		ss_lane(e, IR_REG_BASE_INSTANCE, l)->u = 2;
		ss_lane(e, IR_REG_DRAW_INDEX, l)->u = 3 + k;
	}
}

#define CHECKF(reg, l, want) \
	assert_float_equal(ss_lane(e, (reg), (l))->f, (want), 0.0)
#define CHECKU(reg, l, want) \
	assert_int_equal(ss_lane(e, (reg), (l))->u, (want))

static void
check(struct ir_exec *e, const struct ir_io *io, uint32_t n, uint32_t k)
{
	for (uint32_t l = 0; l < n; l++) {
		float f = (float)(l + 10 * k);
		uint32_t vi = 7 + l, idx = vi & 1;

		CHECKF(io->position_reg + 0, l, 2.0f * f);
		CHECKF(io->position_reg + 1, l, 2.0f * f + 1.0f);
		CHECKF(io->position_reg + 2, l, 4.0f);
		CHECKF(io->position_reg + 3, l, 3.0f + (float)k);
		CHECKF(io->point_size_reg, l, 3.0f + (float)vi);
		CHECKF(io->clip_reg + 0, l, f);
		CHECKF(io->clip_reg + 1, l, -(f + 0.5f));
		CHECKF(io->cull_reg, l, 1.0f);
		CHECKF(io->out_reg[0][0], l, -1.0f);
		CHECKF(io->out_reg[0][1], l, f * 0.25f);
		assert_int_equal(ss_lane(e, io->out_reg[1][0], l)->i,
		                 3 * (int32_t)l);
		assert_int_equal(ss_lane(e, io->out_reg[1][1], l)->i,
		                 -3 * (int32_t)l);
		CHECKF(io->out_reg[2][0], l, f * 0.25f);
		CHECKF(io->out_reg[2][1], l, -1.0f);
		CHECKF(io->out_reg[2][2], l, -f * 0.25f);
		CHECKF(io->out_reg[2][3], l, 1.0f);
		CHECKF(io->out_reg[5][0], l, (float)(10 * (vi % 3)) + f);
		CHECKF(io->out_reg[3][0], l, 1.0f);
		CHECKF(io->out_reg[3][1], l, 2.0f);
		CHECKF(io->out_reg[4][0], l, 3.0f);
		CHECKF(io->out_reg[4][1], l, (float)(100 + l));
		CHECKF(io->out_reg[6][0], l, 5.0f);
		CHECKF(io->out_reg[6][1], l, 10.0f);
		CHECKF(io->out_reg[6][2], l, 20.0f);
		CHECKF(io->out_reg[7 + idx][0], l, 7.0f);
		CHECKF(io->out_reg[8 - idx][0], l, 0.0f);
		CHECKU(io->out_reg[9][0], l, vi);
		CHECKU(io->out_reg[9][1], l, 7);
		CHECKU(io->out_reg[9][2], l, 2);
		CHECKU(io->out_reg[9][3], l, 3 + k);
	}
}

static void
test_vs_batches(void **state)
{
	struct ir_program *p = ss_translate(sh_vs_io_spv, sizeof(sh_vs_io_spv),
	                                    SWGPU_SHADER_STAGE_VERTEX, NULL, 0,
	                                    0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);

	(void)state;
	assert_non_null(e);
	assert_null(ir_exec_create_batch(p, 20));   /* not a multiple of 32 */
	assert_null(ir_exec_create(p));               /* not a workgroup */
	/* batch 0: 5 vertices; lane 10 is past the batch */
	ss_lane(e, io->position_reg, 10)->u = 0xdeadbeef;
	fill(e, io, 5, 0);
	assert_true(ir_exec_run_batch(e, d, 5, NULL, NULL));
	check(e, io, 5, 0);
	CHECKU(io->position_reg, 10, 0xdeadbeef);
	/* batch 1 reuses the state: a full batch */
	fill(e, io, W, 1);
	assert_true(ir_exec_run_batch(e, d, W, NULL, NULL));
	check(e, io, W, 1);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

static void
expect_error(const uint32_t *code, size_t size, swgpu_shader_stage stage,
             swgpu_result want, const char *needle)
{
	char msg[256] = "";

	assert_int_equal(ss_try(code, size, stage, msg, sizeof(msg)), want);
	if (!strstr(msg, needle))
		fail_msg("message \"%s\" lacks \"%s\"", msg, needle);
}

static void
test_vs_wrong_stage(void **state)
{
	(void)state;
	/* the entry point's execution model must be the stage asked */
	expect_error(sh_fs_io_spv, sizeof(sh_fs_io_spv),
	             SWGPU_SHADER_STAGE_VERTEX, SWGPU_ERR_INVALID_ARG,
	             "is a Fragment shader");
	expect_error(sh_vs_io_spv, sizeof(sh_vs_io_spv),
	             SWGPU_SHADER_STAGE_FRAGMENT, SWGPU_ERR_INVALID_ARG,
	             "is a Vertex shader");
	expect_error(sh_vs_io_spv, sizeof(sh_vs_io_spv),
	             SWGPU_SHADER_STAGE_COMPUTE, SWGPU_ERR_INVALID_ARG,
	             "is a Vertex shader");
	expect_error(sh_saxpy_spv, sizeof(sh_saxpy_spv),
	             SWGPU_SHADER_STAGE_VERTEX, SWGPU_ERR_INVALID_ARG,
	             "is a GLCompute shader");
	expect_error(sh_vs_io_spv, sizeof(sh_vs_io_spv),
	             (swgpu_shader_stage)7, SWGPU_ERR_INVALID_ARG,
	             "bad shader stage");
	/* a geometry shader: its capability is refused first */
	expect_error(sh_gs_any_spv, sizeof(sh_gs_any_spv),
	             SWGPU_SHADER_STAGE_VERTEX, SWGPU_ERR_UNSUPPORTED,
	             "capability 2 ");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vs_io_layout),
		cmocka_unit_test(test_vs_batches),
		cmocka_unit_test(test_vs_wrong_stage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
