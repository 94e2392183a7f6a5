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
 * models the engine does not run are refused with a message. Stores,
 * atomics and image writes with push and specialization constants. A
 * module with a Vertex and a Fragment entry point of the same name.
 */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh_fs_io.spv.h"
#include "sh_gs_any.spv.h"
#include "sh_saxpy.spv.h"
#include "sh_vs_io.spv.h"
#include "sh_vs_store.spv.h"

#include <swgpu/swgpu_format.h>

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

/* A vertex shader's stores, atomics and image writes
 * (vertexPipelineStoresAndAtomics), push and specialization constants:
 * every vertex of the batch counts itself once, writes its id * K +
 * base and its counter value into the image. */
static void
test_vs_stores(void **state)
{
	static const swgpu_shader_binding b[] = {
		{ .set = 0, .binding = 0, .count = 1,
		  .type = SWGPU_DESCRIPTOR_STORAGE_BUFFER, .offset = 0 },
		{ .set = 0, .binding = 1, .count = 1,
		  .type = SWGPU_DESCRIPTOR_STORAGE_IMAGE,
		  .offset = SWGPU_DESCRIPTOR_SIZE },
	};
	const swgpu_spec_constant spec = { .id = 0, .size = 4, .value = 3 };
	struct ir_program *p = ss_translate_layout(sh_vs_store_spv,
	                                           sizeof(sh_vs_store_spv),
	                                           SWGPU_SHADER_STAGE_VERTEX,
	                                           b, 2, 4, &spec, 1);
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R32_UINT, 32, 1, 1, 1);
	uint32_t *img = calloc(1, size), buf[1 + W] = { 0 };
	const uint32_t n = 20, base = 1000;
	bool seen[W] = { false };

	(void)state;
	assert_true(p->io.side_effects);
	ss_bind(d, p, 0, buf, sizeof(buf));
	ss_bind_image(d, p, 1, img, size, &im);
	memcpy(d->push, &base, 4);
	for (uint32_t l = 0; l < n; l++)
		ss_lane(e, IR_REG_VERTEX_INDEX, l)->u = n - 1 - l;
	assert_true(ir_exec_run_batch(e, d, n, NULL, NULL));
	assert_int_equal(buf[0], n);
	for (uint32_t v = 0; v < n; v++) {
		uint32_t c = img[v] - 100;

		assert_int_equal(buf[1 + v], v * 3 + base);
		assert_true(c < n && !seen[c]);
		seen[c] = true;
	}
	assert_int_equal(buf[1 + n], 0);
	assert_int_equal(img[n], 0);
	free(img);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* A module holding a Vertex and a Fragment entry point, both "main"
 * (spirv-link of sh_vs_io and sh_fs_io): each stage gets its own entry
 * point, interface and execution modes; the other's Input/Output
 * variables do not land in ir_io. */
static void
test_two_entry_points(void **state)
{
	FILE *f = fopen(SH_TWO_ENTRIES, "rb");
	uint32_t *code = malloc(65536);
	size_t size;
	struct ir_program *vs, *fs;

	(void)state;
	assert_non_null(f);
	size = fread(code, 1, 65536, f);
	fclose(f);
	assert_true(size > 20 && size < 65536 && size % 4 == 0);
	vs = ss_translate(code, size, SWGPU_SHADER_STAGE_VERTEX, NULL, 0, 0);
	fs = ss_translate(code, size, SWGPU_SHADER_STAGE_FRAGMENT, NULL, 0, 0);
	/* vertex: o_uv (vec2) at location 0, no fragment output there */
	assert_int_not_equal(vs->io.out_reg[0][1], 0);
	assert_int_equal(vs->io.out_reg[0][2], 0);
	assert_int_not_equal(vs->io.position_reg, 0);
	assert_int_equal(vs->io.frag_depth_reg, 0);
	assert_int_equal(vs->io.depth_mode, IR_DEPTH_NONE);
	assert_int_equal(vs->io.in_reg[0][3], 0);
	/* fragment: o0 (vec4) at location 0, its depth mode */
	assert_int_not_equal(fs->io.out_reg[0][3], 0);
	assert_int_equal(fs->io.position_reg, 0);
	assert_int_not_equal(fs->io.frag_depth_reg, 0);
	assert_int_equal(fs->io.depth_mode, IR_DEPTH_GREATER);
	assert_int_not_equal(fs->io.in_reg[0][3], 0);
	assert_int_equal(fs->io.in_type[2][0], IR_IO_FLOAT);
	ir_program_free(vs);
	ir_program_free(fs);
	free(code);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vs_io_layout),
		cmocka_unit_test(test_vs_batches),
		cmocka_unit_test(test_vs_wrong_stage),
		cmocka_unit_test(test_vs_stores),
		cmocka_unit_test(test_two_entry_points),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
