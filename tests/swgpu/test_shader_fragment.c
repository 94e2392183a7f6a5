/* SPDX-License-Identifier: MIT */
/*
 * Fragment programs in the shader engine (engine level: the translator
 * and the batch runner of stage.h): inputs with their interpolation
 * decorations, the fragment built-ins (FragCoord, FrontFacing,
 * PointCoord, HelperInvocation), colour outputs of each type, FragDepth
 * with its depth mode, SampleMask, dual-source outputs (Index 1) and
 * early_fragment_tests in ir_io; batches of 2x2 quads with a helper lane
 * checked against hand-computed outputs; discard as OpKill and as
 * OpTerminateInvocation ends the lane (its later store never happens,
 * discarded[] says so), demote turns the lane into a helper that runs on
 * (helperInvocationEXT true, stores dropped); helper lanes' stores,
 * atomics, image writes and image atomics do nothing; an input
 * attachment reads the fragment's own pixel; per-sample shading
 * built-ins, Sample-decorated inputs and interpolateAt*,
 * ClipDistance/CullDistance inputs. Through the public API: swgpu_shader_create with a
 * stage, the properties it reports, the capabilities offered (and not),
 * and a DISPATCH naming a fragment shader faults.
 */
#include "shader_stage_util.h"
#include "shader_test_util.h"

#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <swgpu/swgpu_format.h>

#include "sh_fs_centroid_at.spv.h"
#include "sh_fs_demote.spv.h"
#include "sh_fs_demote_opt.spv.h"
#include "sh_fs_discard.spv.h"
#include "sh_fs_discard_kill.spv.h"
#include "sh_fs_dual.spv.h"
#include "sh_fs_io.spv.h"
#include "sh_fs_sample.spv.h"
#include "sh_fs_sample_static.spv.h"
#include "sh_fs_stencil_export.spv.h"
#include "sh_fs_store.spv.h"
#include "sh_fs_subpass.spv.h"
#include "sh_fs_terminate.spv.h"
#include "sh_vs_io.spv.h"
#include "gfx_uniform.spv.h"

#define W 32u

static void
test_fs_io(void **state)
{
	struct ir_program *p = ss_translate(sh_fs_io_spv, sizeof(sh_fs_io_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	const uint32_t n = 8;
	uint8_t live[W], disc[W];

	(void)state;
	assert_non_null(e);
	/* layout and decorations */
	for (uint32_t c = 0; c < 4; c++) {
		assert_int_not_equal(io->in_reg[0][c], 0);
		assert_int_equal(io->in_interp[0][c], IR_INTERP_SMOOTH);
		assert_int_equal(io->in_type[0][c], IR_IO_FLOAT);
		assert_int_not_equal(io->out_reg[0][c], 0);
		assert_int_not_equal(io->out_reg[1][c], 0);
		assert_true(!io->out_reg[2][c] == (c >= 2));
	}
	assert_int_equal(io->in_interp[1][1], IR_INTERP_FLAT);
	assert_int_equal(io->in_type[1][1], IR_IO_SINT);
	assert_int_equal(io->in_interp[2][0], IR_INTERP_NOPERSPECTIVE);
	assert_int_equal(io->in_interp[3][0],
	                 IR_INTERP_SMOOTH | IR_INTERP_CENTROID);
	assert_int_equal(io->in_interp[4][0], IR_INTERP_FLAT);  /* inner.k */
	assert_int_equal(io->in_type[4][0], IR_IO_UINT);
	assert_int_not_equal(io->in_reg[6][0], 0);              /* inner.w */
	assert_int_equal(io->in_reg[5][0], 0);
	assert_int_equal(io->out_type[0], IR_IO_FLOAT);
	assert_int_equal(io->out_type[1], IR_IO_SINT);
	assert_int_equal(io->out_type[2], IR_IO_UINT);
	assert_int_not_equal(io->frag_depth_reg, 0);
	assert_int_not_equal(io->sample_mask_reg, 0);
	assert_int_equal(io->depth_mode, IR_DEPTH_GREATER);
	assert_false(io->early_fragment_tests);
	assert_false(io->discards);
	assert_int_equal(io->out_index1_reg[0], 0);
	assert_int_equal(io->position_reg, 0);
	/* two quads, lane 3 a helper */
	ss_frag_coords(e, n, 0.5f, 0.25f);
	for (uint32_t l = 0; l < n; l++) {
		live[l] = l != 3;
		for (uint32_t c = 0; c < 4; c++)
			ss_lane(e, io->in_reg[0][c], l)->f = (float)(l + c);
		ss_lane(e, io->in_reg[1][0], l)->i = (int32_t)l;
		ss_lane(e, io->in_reg[1][1], l)->i = -(int32_t)l;
		ss_lane(e, io->in_reg[2][0], l)->f = 0.5f;
		ss_lane(e, io->in_reg[2][1], l)->f = 0.25f;
		ss_lane(e, io->in_reg[3][0], l)->f = 1.0f;
		ss_lane(e, io->in_reg[4][0], l)->u = 40 + l;
		ss_lane(e, io->in_reg[6][0], l)->f = 2.0f;
		ss_lane(e, IR_REG_FRONT_FACING, l)->u = l & 1;
		ss_lane(e, IR_REG_POINT_COORD, l)->f = 0.01f * (float)l;
	}
	memset(disc, 0xff, sizeof(disc));
	assert_true(ir_exec_run_batch(e, d, n, live, disc));
	for (uint32_t l = 0; l < n; l++) {
		float x = (float)ss_quad_x(l) + 0.5f;
		float y = (float)ss_quad_y(l) + 0.5f;
		const float want[4] = { 2.0f * (float)l + x,
		                        2.0f * (float)(l + 1) + y,
		                        2.0f * (float)(l + 2) + 0.5f,
		                        2.0f * (float)(l + 3) + 0.25f };

		assert_int_equal(disc[l], 0);
		for (uint32_t c = 0; c < 4; c++)
			assert_float_equal(ss_lane(e, io->out_reg[0][c], l)->f,
			                   want[c], 1e-6);
		assert_int_equal(ss_lane(e, io->out_reg[1][0], l)->i, (int)l);
		assert_int_equal(ss_lane(e, io->out_reg[1][1], l)->i, -(int)l);
		assert_int_equal(ss_lane(e, io->out_reg[1][2], l)->i,
		                 (int)(l & 1));
		assert_int_equal(ss_lane(e, io->out_reg[1][3], l)->i, l == 3);
		assert_int_equal(ss_lane(e, io->out_reg[2][0], l)->u, 41 + l);
		/* 0.5 + 0.25 + 1 + 2 + 100 * 0.01 l */
		assert_int_equal(ss_lane(e, io->out_reg[2][1], l)->u, 3 + l);
		assert_float_equal(ss_lane(e, io->frag_depth_reg, l)->f, 0.75,
		                   0.0);
		assert_int_equal(ss_lane(e, io->sample_mask_reg, l)->u, 5);
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

static void
test_fs_dual_source(void **state)
{
	struct ir_program *p = ss_translate(sh_fs_dual_spv,
	                                    sizeof(sh_fs_dual_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);

	(void)state;
	assert_true(io->early_fragment_tests);
	assert_int_equal(io->depth_mode, IR_DEPTH_NONE);
	for (uint32_t c = 0; c < 4; c++) {
		assert_int_not_equal(io->out_reg[0][c], 0);
		assert_int_not_equal(io->out_index1_reg[c], 0);
		assert_int_equal(io->out_reg[1][c], 0);
		for (uint32_t l = 0; l < W; l++)
			ss_lane(e, io->in_reg[0][c], l)->f =
				0.125f * (float)c + 0.001f * (float)l;
	}
	assert_true(ir_exec_run_batch(e, d, W, NULL, NULL));
	for (uint32_t c = 0; c < 4; c++)
		for (uint32_t l = 0; l < W; l++) {
			float v = 0.125f * (float)c + 0.001f * (float)l;

			assert_float_equal(ss_lane(e, io->out_reg[0][c], l)->f,
			                   v, 0.0);
			assert_float_equal(ss_lane(e, io->out_index1_reg[c],
			                            l)->f, 1.0f - v, 0.0);
		}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

struct seen_buf {
	uint32_t count;
	uint32_t seen[16];
};

/* Two quads; lanes 1 and 5 get v < 0, lane 3 is a helper. Returns the
 * program's buffer after the batch; disc and the exec for outputs. */
static void
run_discard(const uint32_t *code, size_t size, struct seen_buf *buf,
            uint8_t disc[W], bool check_count)
{
	const swgpu_descriptor_type t = SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	struct ir_program *p = ss_translate(code, size,
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t, 1,
	                                    0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	uint8_t live[W];
	const uint32_t n = 8;

	assert_true(io->discards);
	assert_true(io->side_effects);
	memset(buf, 0, sizeof(*buf));
	ss_bind(d, p, 0, buf, sizeof(*buf));
	ss_frag_coords(e, n, 0.5f, 1.0f);
	for (uint32_t l = 0; l < n; l++) {
		live[l] = l != 3;
		ss_lane(e, io->in_reg[0][0], l)->f = l == 1 || l == 5 ? -1.0f
		                                     : (float)l + 1.0f;
	}
	assert_true(ir_exec_run_batch(e, d, n, live, disc));
	for (uint32_t l = 0; l < n; l++) {
		uint32_t px = ss_quad_x(l) + 8 * ss_quad_y(l);
		bool dead = l == 1 || l == 5;

		assert_int_equal(disc[l], dead);
		/* the helper's store and the discarded lanes' do nothing */
		assert_int_equal(buf->seen[px], dead || l == 3 ? 0 : 1);
		if (!dead && l != 3)
			assert_float_equal(ss_lane(e, io->out_reg[0][0], l)->f,
			                   (float)l + 1.0f, 0.0);
	}
	/* every live lane counted itself once; the helper's atomic did
	 * nothing */
	if (check_count)
		assert_int_equal(buf->count, 7);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

static bool
has_op(const uint32_t *code, size_t size, uint32_t op)
{
	for (size_t i = 5; i < size / 4; i += code[i] >> 16) {
		if ((code[i] & 0xffff) == op)
			return true;
		if (!(code[i] >> 16))
			break;
	}
	return false;
}

static void
test_fs_discard(void **state)
{
	struct seen_buf buf;
	uint8_t disc[W];

	(void)state;
	/* glslang emits OpKill (252) for SPIR-V 1.0 and
	 * OpTerminateInvocation (4416) for 1.6 */
	assert_true(has_op(sh_fs_discard_kill_spv,
	                   sizeof(sh_fs_discard_kill_spv), 252));
	assert_true(has_op(sh_fs_discard_spv, sizeof(sh_fs_discard_spv),
	                   4416));
	run_discard(sh_fs_discard_kill_spv, sizeof(sh_fs_discard_kill_spv),
	            &buf, disc, true);
	run_discard(sh_fs_discard_spv, sizeof(sh_fs_discard_spv), &buf, disc,
	            true);
	run_discard(sh_fs_terminate_spv, sizeof(sh_fs_terminate_spv), &buf,
	            disc, false);
}

static void
run_demote(const uint32_t *code, size_t size)
{
	const swgpu_descriptor_type t = SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	struct ir_program *p = ss_translate(code, size,
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t, 1,
	                                    0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct seen_buf buf;
	uint8_t live[W], disc[W];
	const uint32_t n = 8;

	assert_true(io->discards);
	memset(&buf, 0, sizeof(buf));
	ss_bind(d, p, 0, &buf, sizeof(buf));
	for (uint32_t round = 0; round < 2; round++) {
		/* round 1: the same state again, no lane demoted or helper
		 * from round 0 may stay one */
		memset(&buf, 0, sizeof(buf));
		ss_frag_coords(e, n, 0.5f, 1.0f);
		for (uint32_t l = 0; l < n; l++) {
			live[l] = round || l != 3;
			ss_lane(e, io->in_reg[0][0], l)->f =
				!round && (l == 1 || l == 5) ? -1.0f
				                             : (float)l;
		}
		assert_true(ir_exec_run_batch(e, d, n, live, disc));
		for (uint32_t l = 0; l < n; l++) {
			bool demoted = !round && (l == 1 || l == 5);
			bool helper = !round && l == 3;
			uint32_t px = ss_quad_x(l) + 8 * ss_quad_y(l);

			assert_int_equal(disc[l], demoted);
			assert_int_equal(buf.seen[px], !(demoted || helper));
			/* (before, after) = helperInvocationEXT() around the
			 * demote; the lane ran on to the end */
			assert_float_equal(ss_lane(e, io->out_reg[0][0], l)->f,
			                   helper ? 1.0 : 0.0, 0.0);
			assert_float_equal(ss_lane(e, io->out_reg[0][1], l)->f,
			                   helper || demoted ? 1.0 : 0.0, 0.0);
			assert_float_equal(ss_lane(e, io->out_reg[0][2], l)->f,
			                   demoted ? -1.0 : (double)l, 0.0);
		}
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

static void
test_fs_demote(void **state)
{
	(void)state;
	run_demote(sh_fs_demote_spv, sizeof(sh_fs_demote_spv));
	/* optimized: gl_HelperInvocation is an SSA value loaded before the
	 * demote and used after it */
	run_demote(sh_fs_demote_opt_spv, sizeof(sh_fs_demote_opt_spv));
}

/* Image writes and atomics from fragments (fragmentStoresAndAtomics):
 * two quads with a helper lane; the helper neither counts nor writes. */
static void
test_fs_image_store(void **state)
{
	const swgpu_descriptor_type t = SWGPU_DESCRIPTOR_STORAGE_IMAGE;
	struct ir_program *p = ss_translate(sh_fs_store_spv,
	                                    sizeof(sh_fs_store_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t, 1,
	                                    0);
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R32_UINT, 4, 3, 1, 1);
	uint32_t *img = calloc(1, size);
	uint8_t live[W];
	const uint32_t n = 8, pitch = im.row_pitch / 4;

	(void)state;
	assert_true(p->io.side_effects);
	ss_bind_image(d, p, 0, img, size, &im);
	ss_frag_coords(e, n, 0.5f, 1.0f);
	for (uint32_t l = 0; l < n; l++)
		live[l] = l != 6;
	assert_true(ir_exec_run_batch(e, d, n, live, NULL));
	assert_int_equal(img[2 * pitch], n - 1);
	for (uint32_t l = 0; l < n; l++) {
		uint32_t x = ss_quad_x(l), y = ss_quad_y(l);

		assert_int_equal(img[y * pitch + x],
		                 l == 6 ? 0 : 1 + x + 10 * y);
	}
	free(img);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* An input attachment (a sampled image descriptor, as the ICD writes
 * one) read at each fragment's pixel. */
static void
test_fs_input_attachment(void **state)
{
	const swgpu_descriptor_type t = SWGPU_DESCRIPTOR_SAMPLED_IMAGE;
	struct ir_program *p = ss_translate(sh_fs_subpass_spv,
	                                    sizeof(sh_fs_subpass_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t, 1,
	                                    0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R32G32B32A32_SFLOAT, 4,
	                         2, 1, 1);
	float *img = calloc(1, size);
	const uint32_t n = 8;

	(void)state;
	/* the pipeline must not run depth/stencil writes before it */
	assert_true(io->reads_input_attachment);
	for (uint32_t y = 0; y < 2; y++)
		for (uint32_t x = 0; x < 4; x++) {
			float *tx = ss_texel(&im, img, 0, 0, x, y);

			for (uint32_t c = 0; c < 4; c++)
				tx[c] = (float)(x + 10 * y + 100 * c);
		}
	ss_bind_image(d, p, 0, img, size, &im);
	ss_frag_coords(e, n, 0.5f, 1.0f);
	assert_true(ir_exec_run_batch(e, d, n, NULL, NULL));
	for (uint32_t l = 0; l < n; l++)
		for (uint32_t c = 0; c < 4; c++)
			assert_float_equal(
				ss_lane(e, io->out_reg[0][c], l)->f,
				2.0 * (ss_quad_x(l) + 10 * ss_quad_y(l) +
				       100 * c), 0.0);
	free(img);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* Per-sample shading with one sample: the built-ins are registers the
 * pipeline fills (SampleId 0, SamplePosition (0.5, 0.5), SampleMaskIn
 * the coverage, FragCoord the pixel centre, the sample count 1); the
 * Sample-decorated input is an input like any other; interpolateAtOffset
 * and AtSample move from FragCoord's point in the pixel along the
 * input's fine derivatives (exact for a noperspective input): with one
 * sample AtSample is the centre; AtCentroid is the evaluation point.
 * ClipDistance[3] / CullDistance[2] are input register ranges in ir_io
 * (kept whole: one element read at a dynamic index). */
static void
test_fs_sample_and_distances(void **state)
{
	struct ir_program *p = ss_translate(sh_fs_sample_spv,
	                                    sizeof(sh_fs_sample_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	const uint32_t n = 8;

	(void)state;
	assert_non_null(e);
	for (uint32_t c = 0; c < 4; c++)
		assert_int_equal(io->in_interp[0][c],
		                 IR_INTERP_SMOOTH | IR_INTERP_SAMPLE);
	assert_int_not_equal(io->clip_in_reg, 0);
	assert_int_equal(io->clip_in_count, 3);
	assert_int_not_equal(io->cull_in_reg, 0);
	assert_int_equal(io->cull_in_count, 2);
	assert_false(io->reads_input_attachment);
	assert_int_equal(io->clip_count, 0);        /* not outputs */
	assert_int_equal(io->cull_count, 0);
	/* the built-ins read */
	assert_true(p->builtins_used & (1ull << IR_REG_SAMPLE_ID));
	assert_true(p->builtins_used & (1ull << IR_REG_SAMPLE_MASK_IN));
	assert_true(p->builtins_used & (1ull << IR_REG_SAMPLE_POSITION));
	assert_true(p->builtins_used & (1ull << IR_REG_SAMPLE_COUNT));
	assert_true(p->builtins_used & (1ull << IR_REG_FRAG_COORD));
	for (uint32_t l = 0; l < n; l++) {
		for (uint32_t c = 0; c < 4; c++)
			ss_lane(e, io->in_reg[0][c], l)->f = (float)c;
		ss_lane(e, io->in_reg[1][0], l)->i = (int32_t)(l % 3);
		/* noperspective: linear in the quad's pixels */
		ss_lane(e, io->in_reg[2][0], l)->f =
			1.0f + 3.0f * (float)ss_quad_x(l) +
			5.0f * (float)ss_quad_y(l);
		for (uint32_t i = 0; i < 3; i++)
			ss_lane(e, io->clip_in_reg + i, l)->f =
				(float)(10 * i) + 0.5f * (float)l;
		ss_lane(e, io->cull_in_reg + 0, l)->f = -1000.0f;
		ss_lane(e, io->cull_in_reg + 1, l)->f = -(float)l;
		ss_lane(e, IR_REG_SAMPLE_ID, l)->u = 0;
		ss_lane(e, IR_REG_SAMPLE_MASK_IN, l)->u = 1;
		ss_lane(e, IR_REG_SAMPLE_POSITION, l)->f = 0.5f;
		ss_lane(e, IR_REG_SAMPLE_POSITION + 1, l)->f = 0.5f;
		ss_lane(e, IR_REG_SAMPLE_COUNT, l)->u = 1;
		ss_lane(e, IR_REG_CENTROID_SAMPLE, l)->u = ~0u;
		ss_lane(e, IR_REG_FRAG_COORD, l)->f =
			(float)ss_quad_x(l) + 0.5f;
		ss_lane(e, IR_REG_FRAG_COORD + 1, l)->f =
			(float)ss_quad_y(l) + 0.5f;
	}
	assert_true(ir_exec_run_batch(e, d, n, NULL, NULL));
	for (uint32_t l = 0; l < n; l++) {
		const float h = 0.5f * (float)l;
		const float want[4] = { 10.0f + h,
		                        1.0f + (float)(10 * (l % 3)) + h,
		                        2.0f - (float)l, 3.0f + 55.0f };

		for (uint32_t c = 0; c < 4; c++)
			assert_float_equal(ss_lane(e, io->out_reg[0][c], l)->f,
			                   want[c], 0.0);
		/* at (+0.25, -0.5): 3 * 0.25 - 5 * 0.5 from the centre */
		const float lin = 1.0f + 3.0f * (float)ss_quad_x(l) +
		                  5.0f * (float)ss_quad_y(l);
		assert_float_equal(ss_lane(e, io->out_reg[2][0], l)->f,
		                   lin + 0.75f - 2.5f, 1e-6);
		assert_float_equal(ss_lane(e, io->out_reg[2][1], l)->f, lin,
		                   0.0);
		assert_float_equal(ss_lane(e, io->out_reg[2][2], l)->f, lin,
		                   0.0);
		assert_int_equal(ss_lane(e, io->out_reg[1][0], l)->i, 0);
		assert_int_equal(ss_lane(e, io->out_reg[1][1], l)->i, 1);
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* interpolateAtCentroid at 4 samples: the lane's IR_REG_CENTROID_SAMPLE
 * (what the pipeline fills: ~0u where the evaluation point is the
 * centroid, else the lowest covered sample) picks the point, reached from
 * FragCoord's along the fine derivatives (exact: lin is noperspective,
 * 1 + 3x + 5y); ~0u keeps the value. AtSample(lin, 0) goes to sample 0 of
 * 4, (6, 2) / 16, whatever the register says. */
static void
test_fs_at_centroid(void **state)
{
	static const float pos4[4][2] = {
		{ 6 / 16.0f, 2 / 16.0f }, { 14 / 16.0f, 6 / 16.0f },
		{ 2 / 16.0f, 10 / 16.0f }, { 10 / 16.0f, 14 / 16.0f },
	};
	struct ir_program *p = ss_translate(sh_fs_sample_spv,
	                                    sizeof(sh_fs_sample_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	const uint32_t n = 8;
	/* per lane: ~0u, or the sample (lanes 1, 2, 3, 6: samples 0-3) */
	const uint32_t cs[8] = { ~0u, 0, 1, 2, ~0u, ~0u, 3, ~0u };

	(void)state;
	assert_non_null(e);
	assert_true(p->builtins_used & (1ull << IR_REG_CENTROID_SAMPLE));
	for (uint32_t l = 0; l < n; l++) {
		ss_lane(e, io->in_reg[2][0], l)->f =
			1.0f + 3.0f * (float)ss_quad_x(l) +
			5.0f * (float)ss_quad_y(l);
		ss_lane(e, IR_REG_SAMPLE_MASK_IN, l)->u = 0xf;
		ss_lane(e, IR_REG_SAMPLE_COUNT, l)->u = 4;
		ss_lane(e, IR_REG_CENTROID_SAMPLE, l)->u = cs[l];
		ss_lane(e, IR_REG_FRAG_COORD, l)->f =
			(float)ss_quad_x(l) + 0.5f;
		ss_lane(e, IR_REG_FRAG_COORD + 1, l)->f =
			(float)ss_quad_y(l) + 0.5f;
	}
	assert_true(ir_exec_run_batch(e, d, n, NULL, NULL));
	for (uint32_t l = 0; l < n; l++) {
		const float lin = 1.0f + 3.0f * (float)ss_quad_x(l) +
		                  5.0f * (float)ss_quad_y(l);
		const float c = cs[l] == ~0u ? lin :
		        lin + 3.0f * (pos4[cs[l]][0] - 0.5f) +
		        5.0f * (pos4[cs[l]][1] - 0.5f);

		assert_float_equal(ss_lane(e, io->out_reg[2][1], l)->f, c,
		                   1e-5);
		assert_float_equal(ss_lane(e, io->out_reg[2][2], l)->f,
		                   lin + 3.0f * (pos4[0][0] - 0.5f) +
		                   5.0f * (pos4[0][1] - 0.5f), 1e-5);
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* A Centroid-decorated input at 4 samples: quad 0's lanes hold it at
 * their centroid sample 2 ((2, 10) / 16, IR_REG_CENTROID_SAMPLE 2),
 * quad 1's at the centre (~0u). interpolateAtSample(lin, 1) moves from
 * there to sample 1 ((14, 6) / 16): exact here, lin being noperspective
 * and every lane of a quad at the same point of its pixel, so the
 * derivatives are the gradient; interpolateAtCentroid is lin itself. */
static void
test_fs_centroid_input_at(void **state)
{
	struct ir_program *p = ss_translate(sh_fs_centroid_at_spv,
	                                    sizeof(sh_fs_centroid_at_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 0);
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	const uint32_t n = 8;

	(void)state;
	assert_non_null(e);
	assert_int_equal(io->in_interp[0][0],
	                 IR_INTERP_NOPERSPECTIVE | IR_INTERP_CENTROID);
	for (uint32_t l = 0; l < n; l++) {
		const bool c2 = l < 4;
		const float px = (float)ss_quad_x(l) +
		                 (c2 ? 2 / 16.0f : 0.5f);
		const float py = (float)ss_quad_y(l) +
		                 (c2 ? 10 / 16.0f : 0.5f);
		ss_lane(e, io->in_reg[0][0], l)->f = 1.0f + 3.0f * px +
		                                     5.0f * py;
		ss_lane(e, IR_REG_SAMPLE_COUNT, l)->u = 4;
		ss_lane(e, IR_REG_CENTROID_SAMPLE, l)->u = c2 ? 2 : ~0u;
		ss_lane(e, IR_REG_FRAG_COORD, l)->f =
			(float)ss_quad_x(l) + 0.5f;
		ss_lane(e, IR_REG_FRAG_COORD + 1, l)->f =
			(float)ss_quad_y(l) + 0.5f;
	}
	assert_true(ir_exec_run_batch(e, d, n, NULL, NULL));
	for (uint32_t l = 0; l < n; l++) {
		const float at1 = 1.0f + 3.0f * ((float)ss_quad_x(l) +
		                                 14 / 16.0f) +
		                  5.0f * ((float)ss_quad_y(l) + 6 / 16.0f);

		assert_float_equal(ss_lane(e, io->out_reg[0][0], l)->f, at1,
		                   1e-5);
		assert_float_equal(ss_lane(e, io->out_reg[0][1], l)->f,
		                   ss_lane(e, io->in_reg[0][0], l)->f, 0.0);
	}
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* "gl_SampleID; gl_SamplePosition;" loads nothing, yet it is a static use
 * that makes the shader run per sample (hw/gfx/draw.c fs_per_sample). */
static void
test_fs_sample_static_use(void **state)
{
	struct ir_program *p = ss_translate(sh_fs_sample_static_spv,
	                                    sizeof(sh_fs_sample_static_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 0);

	(void)state;
	assert_true(p->builtins_used & (1ull << IR_REG_SAMPLE_ID));
	assert_true(p->builtins_used & (1ull << IR_REG_SAMPLE_POSITION));
	ir_program_free(p);
}

static void
test_fs_unsupported(void **state)
{
	char msg[256] = "";

	(void)state;
	/* StencilExportEXT (5013): stencil reference export is not
	 * offered */
	assert_int_equal(ss_try(sh_fs_stencil_export_spv,
	                        sizeof(sh_fs_stencil_export_spv),
	                        SWGPU_SHADER_STAGE_FRAGMENT, msg, sizeof(msg)),
	                 SWGPU_ERR_UNSUPPORTED);
	assert_non_null(strstr(msg, "capability 5013 "));
}

static swgpu_shader *
create(struct st_env *env, const uint32_t *code, size_t size,
       swgpu_shader_stage stage, uint32_t nbind)
{
	swgpu_shader_binding b = {
		.set = 0, .binding = 0, .count = 1,
		.type = SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	};
	char err[256] = "";
	swgpu_shader_info info = {
		.code = code, .code_size = size, .entry_point = "main",
		.bindings = &b, .binding_count = nbind, .error = err,
		.error_size = sizeof(err), .stage = stage,
	};
	swgpu_shader *s = NULL;

	if (swgpu_shader_create(env->ctx, &info, &s) != SWGPU_OK)
		fail_msg("shader_create: %s", err);
	return s;
}

static void
test_fs_public_api(void **state)
{
	struct st_env env;
	swgpu_shader_properties pr;
	swgpu_shader *fs, *vs, *ds;

	(void)state;
	st_init(&env);
	st_buf(&env, 256);
	fs = create(&env, sh_fs_io_spv, sizeof(sh_fs_io_spv),
	            SWGPU_SHADER_STAGE_FRAGMENT, 0);
	swgpu_shader_query_properties(fs, &pr);
	assert_int_equal(pr.stage, SWGPU_SHADER_STAGE_FRAGMENT);
	assert_int_equal(pr.input_locations, 0x5f);  /* 0-4 and 6 */
	assert_int_equal(pr.output_locations, 0x7);
	assert_true(pr.writes_depth);
	assert_false(pr.writes_position);
	assert_false(pr.discards);
	assert_false(pr.early_fragment_tests);
	vs = create(&env, sh_vs_io_spv, sizeof(sh_vs_io_spv),
	            SWGPU_SHADER_STAGE_VERTEX, 0);
	swgpu_shader_query_properties(vs, &pr);
	assert_int_equal(pr.stage, SWGPU_SHADER_STAGE_VERTEX);
	assert_int_equal(pr.input_locations, 0x7f);  /* 0-6, not 7 */
	assert_int_equal(pr.output_locations, 0x3ff);
	assert_true(pr.writes_position);
	assert_true(pr.writes_point_size);
	ds = create(&env, sh_fs_discard_spv, sizeof(sh_fs_discard_spv),
	            SWGPU_SHADER_STAGE_FRAGMENT, 1);
	swgpu_shader_query_properties(ds, &pr);
	assert_true(pr.discards);
	assert_true(pr.uses_atomics);
	/* the capabilities of the stages are offered, per-sample shading
	 * and interpolation functions (one sample) too; the other stages
	 * are not */
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityDerivativeControl));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityDemoteToHelperInvocation));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityClipDistance));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityCullDistance));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityDrawParameters));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityInputAttachment));
	assert_true(swgpu_shader_capability_supported(SpvCapabilityMinLod));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilitySampleRateShading));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityInterpolationFunction));
	assert_false(swgpu_shader_capability_supported(
		SpvCapabilityGeometry));
	assert_false(swgpu_shader_capability_supported(
		SpvCapabilityTessellation));
	/* a DISPATCH naming a fragment shader is a fault of the context */
	assert_int_not_equal(st_dispatch(&env, ds, NULL, NULL, 0, 1, 1, 1),
	                     SWGPU_OK);
	swgpu_shader_destroy(ds);
	swgpu_shader_destroy(vs);
	swgpu_shader_destroy(fs);
	st_fini(&env);
}

/*
 * Uniform outputs (ir_uniform.h): the push-constant colour program is
 * recognised, and its outputs really are the same bits on every lane of
 * a 128-lane batch whatever the other registers hold (inputs and
 * built-ins filled with noise, helpers among the lanes), and the same
 * as a 32-lane run's; programs reading inputs, discarding or storing
 * are not; SWGPU_FS_UNIFORM=0 turns the recognition off.
 */
static void
test_fs_uniform_outputs(void **state)
{
	struct ir_program *p = ss_translate(gfx_uniform_spv,
	                                    sizeof(gfx_uniform_spv),
	                                    SWGPU_SHADER_STAGE_FRAGMENT, NULL,
	                                    0, 20);
	const float push[5] = { 0.25f, 0.5f, 1.5f, -0.75f, 0.8f };
	const uint32_t wide = 128, narrow = 32;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, wide);
	struct ir_exec *u = ir_exec_create_batch(p, narrow);
	uint8_t live[128], disc[128];
	uint32_t seed = 12345;

	(void)state;
	assert_true(p->uniform_outputs);
	assert_true(p->uniform_push_only);
	assert_non_null(e);
	assert_non_null(u);
	memcpy(d->push, push, sizeof(push));
	for (uint32_t r = 1; r < p->nregs; r++) {
		bool is_const = false;
		for (uint32_t i = 0; i < p->nconsts; i++)
			is_const |= p->const_regs[i] == r;
		if (is_const)
			continue;
		lane_t *v = ir_exec_reg(e, r);
		for (uint32_t l = 0; l < wide; l++) {
			seed = seed * 1664525u + 1013904223u;
			v[l].u = seed;
		}
	}
	for (uint32_t l = 0; l < wide; l++)
		live[l] = (l % 7) != 3;
	assert_true(ir_exec_run_batch(e, d, wide, live, disc));
	assert_true(ir_exec_run_batch(u, d, narrow, NULL, NULL));
	for (uint32_t c = 0; c < 4; c++) {
		const lane_t *o = ir_exec_reg(e, p->io.out_reg[0][c]);
		const lane_t *o1 = ir_exec_reg(u, p->io.out_reg[0][c]);
		for (uint32_t l = 0; l < wide; l++) {
			assert_int_equal(o[l].u, o1[0].u);
			assert_int_equal(disc[l], 0);
		}
	}
	/* clamp(color * scale + 1/16, 0, 1): 0.2625, 0.4625, 1, 0 */
	assert_true(ir_exec_reg(u, p->io.out_reg[0][2])[0].f == 1.0f);
	assert_true(ir_exec_reg(u, p->io.out_reg[0][3])[0].f == 0.0f);
	ir_exec_destroy(e);
	ir_exec_destroy(u);
	free(d);
	ir_program_free(p);

	/* inputs; discard (and a buffer store); image stores; inputs
	 * into both dual-source outputs */
	static const swgpu_descriptor_type ssbo = SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	static const swgpu_descriptor_type simg = SWGPU_DESCRIPTOR_STORAGE_IMAGE;
	static const struct {
		const uint32_t *code;
		size_t size;
		const swgpu_descriptor_type *type;
	} no[] = {
		{ sh_fs_io_spv, sizeof(sh_fs_io_spv), NULL },
		{ sh_fs_discard_spv, sizeof(sh_fs_discard_spv), &ssbo },
		{ sh_fs_store_spv, sizeof(sh_fs_store_spv), &simg },
		{ sh_fs_dual_spv, sizeof(sh_fs_dual_spv), NULL },
	};
	for (uint32_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		p = ss_translate(no[i].code, no[i].size,
		                 SWGPU_SHADER_STAGE_FRAGMENT, no[i].type,
		                 no[i].type ? 1 : 0, 0);
		assert_false(p->uniform_outputs);
		assert_false(p->uniform_push_only);
		ir_program_free(p);
	}
	assert_int_equal(setenv("SWGPU_FS_UNIFORM", "0", 1), 0);
	p = ss_translate(gfx_uniform_spv, sizeof(gfx_uniform_spv),
	                 SWGPU_SHADER_STAGE_FRAGMENT, NULL, 0, 20);
	assert_int_equal(unsetenv("SWGPU_FS_UNIFORM"), 0);
	assert_false(p->uniform_outputs);
	ir_program_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_io),
		cmocka_unit_test(test_fs_uniform_outputs),
		cmocka_unit_test(test_fs_dual_source),
		cmocka_unit_test(test_fs_discard),
		cmocka_unit_test(test_fs_demote),
		cmocka_unit_test(test_fs_image_store),
		cmocka_unit_test(test_fs_input_attachment),
		cmocka_unit_test(test_fs_sample_and_distances),
		cmocka_unit_test(test_fs_at_centroid),
		cmocka_unit_test(test_fs_centroid_input_at),
		cmocka_unit_test(test_fs_sample_static_use),
		cmocka_unit_test(test_fs_unsupported),
		cmocka_unit_test(test_fs_public_api),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
