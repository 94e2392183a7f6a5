/* SPDX-License-Identifier: MIT */
/*
 * The fragment stage's uniform-output path (hw/gfx/frag_shade.c
 * run_uniform; hw/shader/ir_uniform.h) against the general path, bit
 * for bit, through the public API: the same blended scene (overlapping
 * triangles with partly covered quads, push constants that change,
 * repeat and come back between draws) drawn with a fragment shader
 * translated normally, which takes the fast path, and with one
 * translated under SWGPU_FS_UNIFORM=0, which runs every lane. One
 * sample and four (per-sample outputs, frag_ms.c); one raster thread
 * and several.
 */
#include "gfx_api_util.h"

#include <stdlib.h>
#include <string.h>

#include "gfx_pos_color.spv.h"
#include "gfx_uniform.spv.h"

#define W 70
#define H 52
#define NDRAWS 9

struct vert {
	float pos[4];
	float col[4];
};

struct push {
	float color[4];
	float scale;
};

static struct vert
v_at(float sx, float sy)
{
	struct vert v = {
		{ 2.0f * sx / W - 1.0f, 2.0f * sy / H - 1.0f, 0.5f, 1.0f },
		{ 0.3f, 0.6f, 0.9f, 1.0f },  /* read by nothing */
	};
	return v;
}

static swgpu_shader *
fs_create(struct ga *g, bool general)
{
	swgpu_shader_info info;
	swgpu_shader *s = NULL;

	memset(&info, 0, sizeof(info));
	info.code = gfx_uniform_spv;
	info.code_size = sizeof(gfx_uniform_spv);
	info.entry_point = "main";
	info.stage = SWGPU_SHADER_STAGE_FRAGMENT;
	info.push_constant_size = sizeof(struct push);
	if (general)
		assert_int_equal(setenv("SWGPU_FS_UNIFORM", "0", 1), 0);
	assert_int_equal(swgpu_shader_create(g->ctx, &info, &s), SWGPU_OK);
	if (general)
		assert_int_equal(unsetenv("SWGPU_FS_UNIFORM"), 0);
	return s;
}

/* Push constants of draw i: draws 3 and 4 repeat draw 2's, draw 7
 * comes back to draw 0's; alpha below 1 so every draw blends. */
static struct push
push_of(uint32_t i)
{
	const uint32_t k = i == 3 || i == 4 ? 2 : i == 7 ? 0 : i;
	struct push p = {
		{ 0.1f + 0.09f * (float)k, 0.8f - 0.07f * (float)k,
		  0.33f * (float)(k % 3), 0.35f + 0.05f * (float)k },
		0.7f + 0.1f * (float)k,
	};
	return p;
}

/* The scene into a fresh RGBA8 image (w x h x samples bytes x 4). */
static uint8_t *
render(uint32_t threads, uint32_t samples, bool general)
{
	swgpu_config cfg;
	struct ga g;
	static const uint32_t clear[4] = { 0x3dcccccd, 0x3e4ccccd,
	                                   0x3e99999a, 0x3f800000 };

	api_config_small(&cfg);
	cfg.gfx_threads = threads;
	ga_init(&g, &cfg);
	swgpu_shader *vs = ga_shader(&g, gfx_pos_color_spv,
	                             sizeof(gfx_pos_color_spv),
	                             SWGPU_SHADER_STAGE_VERTEX);
	swgpu_shader *fs = fs_create(&g, general);
	struct ga_image rt = ga_image(&g, SWGPU_FORMAT_R8G8B8A8_UNORM, W,
	                              H * samples);
	struct swgpu_pass pass = { .color_count = 1, .layer_count = 1,
	                           .area_width = W, .area_height = H };
	ga_attachment(&rt, &pass.color[0], SWGPU_LOAD_CLEAR, clear);
	/* sample s is slice s: H rows each */
	pass.color[0].samples = samples;
	pass.color[0].height = H;
	pass.color[0].layer_pitch = rt.pitch * H;
	struct swgpu_pipeline_state ps;
	ga_pipeline(&ps, vs, fs, W, H, 2);
	ps.state.rasterization_samples = samples;
	ps.state.sample_mask = 0xff;
	ps.state.blend[0] = (struct swgpu_blend_attachment){
		.enable = 1,
		/* Vulkan's values: SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ONE, ADD */
		.src_color = 6, .dst_color = 7, .color_op = 0,
		.src_alpha = 1, .dst_alpha = 7, .alpha_op = 0,
		.write_mask = 0xf,
	};

	swgpu_emit_begin_pass(api_cmd_reserve(&g.cmd, SWGPU_LEN_BEGIN_PASS),
	                      ga_put(&g, &pass, sizeof(pass)));
	swgpu_emit_set_pipeline(api_cmd_reserve(&g.cmd, SWGPU_LEN_SET_PIPELINE),
	                        ga_put(&g, &ps, sizeof(ps)));
	for (uint32_t i = 0; i < NDRAWS; i++) {
		/* a full-screen triangle, then slanted ones whose edges
		 * cut quads */
		const float o = 5.0f * (float)i;
		struct vert v[3] = { v_at(o - 3.5f, 1.25f + o * 0.5f),
		                     v_at(W + 40.0f - o, 7.75f),
		                     v_at(11.5f + o, H + 30.0f - o) };
		if (i == 0) {
			v[0] = v_at(-1, -1);
			v[1] = v_at(2 * W + 1, -1);
			v[2] = v_at(-1, 2 * H + 1);
		}
		struct swgpu_bind_table bt;
		struct push pc = push_of(i);
		memset(&bt, 0, sizeof(bt));
		memcpy(bt.push_constants, &pc, sizeof(pc));
		uint64_t va = ga_put(&g, v, sizeof(v));
		uint32_t *p = api_cmd_reserve(&g.cmd,
		                              SWGPU_LEN_SET_VERTEX_BUFFERS(1));
		swgpu_emit_set_vertex_buffers_header(p, 0, 1);
		swgpu_put_vertex_buffer(p + 3, va, sizeof(v), sizeof(v[0]));
		swgpu_emit_draw(api_cmd_reserve(&g.cmd, SWGPU_LEN_DRAW),
		                ga_put(&g, &bt, sizeof(bt)), 3, 1, 0, 0);
	}
	swgpu_emit_end_pass(api_cmd_reserve(&g.cmd, SWGPU_LEN_END_PASS));
	api_ok(ga_submit_wait(&g));

	const size_t bytes = (size_t)W * H * samples * 4;
	uint8_t *out = malloc(bytes);
	assert_non_null(out);
	for (uint32_t y = 0; y < H * samples; y++)
		memcpy(out + (size_t)y * W * 4, ga_px(&rt, 0, y), W * 4);
	ga_image_fini(&rt);
	swgpu_shader_destroy(vs);
	swgpu_shader_destroy(fs);
	ga_fini(&g);
	return out;
}

static void
compare(uint32_t threads, uint32_t samples)
{
	uint8_t *fast = render(threads, samples, false);
	uint8_t *gen = render(threads, samples, true);
	const size_t bytes = (size_t)W * H * samples * 4;
	uint32_t distinct = 0;

	for (size_t i = 0; i < bytes; i++)
		if (fast[i] != gen[i])
			fail_msg("%u thread(s), %u sample(s): byte %zu (pixel "
			         "%zu) fast %u, general %u", threads, samples,
			         i, i / 4, fast[i], gen[i]);
	/* the scene really has the draws in it: many different colours */
	for (size_t i = 4; i < bytes; i += 4)
		distinct += memcmp(gen + i, gen + i - 4, 4) != 0;
	assert_true(distinct > 40);
	free(fast);
	free(gen);
}

static void
test_uniform_one_sample(void **state)
{
	(void)state;
	compare(1, 1);
	compare(3, 1);
}

static void
test_uniform_four_samples(void **state)
{
	(void)state;
	compare(1, 4);
	compare(3, 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_one_sample),
		cmocka_unit_test(test_uniform_four_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
