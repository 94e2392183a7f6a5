/* SPDX-License-Identifier: MIT */
/*
 * Draws end to end through the public API: a graphics queue, SPIR-V
 * vertex and fragment shaders, passes with load ops, pipeline state in
 * GPU memory, vertex and index buffers, DRAW and DRAW_INDEXED with a
 * depth test, checked pixel by pixel against hand-computed coverage.
 */
#include "gfx_api_util.h"

#include <string.h>

#include "gfx_color.spv.h"
#include "gfx_pos_color.spv.h"

#define W 48
#define H 40

struct vert {
	float pos[4];
	float col[4];
};

/* Screen position (pixels) to clip space for a W x H viewport. */
static struct vert
v_at(float sx, float sy, float z, float r, float g, float b)
{
	struct vert v = {
		{ 2.0f * sx / W - 1.0f, 2.0f * sy / H - 1.0f, z, 1.0f },
		{ r, g, b, 1.0f },
	};
	return v;
}

static void
emit_pass(struct ga *g, const struct swgpu_pass *ps)
{
	swgpu_emit_begin_pass(api_cmd_reserve(&g->cmd, SWGPU_LEN_BEGIN_PASS),
	                      ga_put(g, ps, sizeof(*ps)));
}

static void
emit_vertices(struct ga *g, const void *v, uint64_t size, uint32_t stride)
{
	uint64_t va = ga_put(g, v, size);
	uint32_t *p = api_cmd_reserve(&g->cmd,
	                              SWGPU_LEN_SET_VERTEX_BUFFERS(1));
	swgpu_emit_set_vertex_buffers_header(p, 0, 1);
	swgpu_put_vertex_buffer(p + 3, va, size, stride);
}

/* One red triangle with corners at pixel corners (0,0) (32,0) (0,32):
 * pixel (x, y) is covered when its centre has x + y + 1 < 32 (the
 * hypotenuse is a right edge, exclusive). */
static void
test_triangle(void **state)
{
	struct ga g;
	static const uint32_t clear[4] = { 0, 0, 0x3f800000, 0x3f800000 };

	ga_init(&g, NULL);
	swgpu_shader *vs = ga_shader(&g, gfx_pos_color_spv,
	                             sizeof(gfx_pos_color_spv),
	                             SWGPU_SHADER_STAGE_VERTEX);
	swgpu_shader *fs = ga_shader(&g, gfx_color_spv,
	                             sizeof(gfx_color_spv),
	                             SWGPU_SHADER_STAGE_FRAGMENT);
	struct ga_image rt = ga_image(&g, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	struct swgpu_pass pass = { .color_count = 1, .layer_count = 1,
	                           .area_width = W, .area_height = H };
	ga_attachment(&rt, &pass.color[0], SWGPU_LOAD_CLEAR, clear);
	struct swgpu_pipeline_state ps;
	ga_pipeline(&ps, vs, fs, W, H, 2);
	struct vert v[3] = { v_at(0, 0, 0.5f, 1, 0, 0),
	                     v_at(32, 0, 0.5f, 1, 0, 0),
	                     v_at(0, 32, 0.5f, 1, 0, 0) };

	emit_pass(&g, &pass);
	swgpu_emit_set_pipeline(api_cmd_reserve(&g.cmd, SWGPU_LEN_SET_PIPELINE),
	                        ga_put(&g, &ps, sizeof(ps)));
	emit_vertices(&g, v, sizeof(v), sizeof(v[0]));
	swgpu_emit_draw(api_cmd_reserve(&g.cmd, SWGPU_LEN_DRAW), 0, 3, 1, 0, 0);
	swgpu_emit_end_pass(api_cmd_reserve(&g.cmd, SWGPU_LEN_END_PASS));
	api_ok(ga_submit_wait(&g));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			const uint8_t *p = ga_px(&rt, x, y);
			bool in = x + y + 1 < 32;
			uint8_t want[4] = { in ? 255 : 0, 0, in ? 0 : 255, 255 };
			if (memcmp(p, want, 4))
				fail_msg("pixel (%u, %u) = %u %u %u %u, want "
				         "%s", x, y, p[0], p[1], p[2], p[3],
				         in ? "red" : "blue");
		}
	ga_image_fini(&rt);
	swgpu_shader_destroy(vs);
	swgpu_shader_destroy(fs);
	ga_fini(&g);
}

/*
 * DRAW_INDEXED with a D32 depth test (LESS, writes on), depth cleared to
 * 1: a green full-screen quad at z 0.75, a blue quad at z 0.25 over
 * pixels [8, 24) x [8, 20), then a red full-screen quad at z 0.5: the
 * blue square stays, red replaces green elsewhere, and the depth buffer
 * holds 0.25 / 0.5. All three quads share one index buffer (16-bit),
 * each draw offsetting into the vertex buffer with vertex_offset.
 */
static void
test_indexed_depth(void **state)
{
	struct ga g;
	static const uint32_t black[4] = { 0, 0, 0, 0 };
	const uint32_t one[4] = { ga_fbits(1.0f), 0, 0, 0 };

	ga_init(&g, NULL);
	swgpu_shader *vs = ga_shader(&g, gfx_pos_color_spv,
	                             sizeof(gfx_pos_color_spv),
	                             SWGPU_SHADER_STAGE_VERTEX);
	swgpu_shader *fs = ga_shader(&g, gfx_color_spv,
	                             sizeof(gfx_color_spv),
	                             SWGPU_SHADER_STAGE_FRAGMENT);
	struct ga_image rt = ga_image(&g, SWGPU_FORMAT_B8G8R8A8_UNORM, W, H);
	struct ga_image zb = ga_image(&g, SWGPU_FORMAT_D32_SFLOAT, W, H);
	struct swgpu_pass pass = { .color_count = 1, .layer_count = 1,
	                           .area_width = W, .area_height = H };
	ga_attachment(&rt, &pass.color[0], SWGPU_LOAD_CLEAR, black);
	ga_attachment(&zb, &pass.depth, SWGPU_LOAD_CLEAR, one);
	struct swgpu_pipeline_state ps;
	ga_pipeline(&ps, vs, fs, W, H, 2);
	ps.state.depth_test = 1;
	ps.state.depth_write = 1;
	ps.state.depth_compare = SWGPU_COMPARE_LESS;
	struct vert v[12] = {
		v_at(-1, -1, 0.75f, 0, 1, 0), v_at(W + 1, -1, 0.75f, 0, 1, 0),
		v_at(W + 1, H + 1, 0.75f, 0, 1, 0), v_at(-1, H + 1, 0.75f, 0, 1, 0),
		v_at(8, 8, 0.25f, 0, 0, 1), v_at(24, 8, 0.25f, 0, 0, 1),
		v_at(24, 20, 0.25f, 0, 0, 1), v_at(8, 20, 0.25f, 0, 0, 1),
		v_at(-1, -1, 0.5f, 1, 0, 0), v_at(W + 1, -1, 0.5f, 1, 0, 0),
		v_at(W + 1, H + 1, 0.5f, 1, 0, 0), v_at(-1, H + 1, 0.5f, 1, 0, 0),
	};
	static const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };

	emit_pass(&g, &pass);
	swgpu_emit_set_pipeline(api_cmd_reserve(&g.cmd, SWGPU_LEN_SET_PIPELINE),
	                        ga_put(&g, &ps, sizeof(ps)));
	emit_vertices(&g, v, sizeof(v), sizeof(v[0]));
	swgpu_emit_set_index_buffer(
		api_cmd_reserve(&g.cmd, SWGPU_LEN_SET_INDEX_BUFFER),
		ga_put(&g, idx, sizeof(idx)), sizeof(idx), 2);
	for (int32_t k = 0; k < 3; k++)
		swgpu_emit_draw_indexed(
			api_cmd_reserve(&g.cmd, SWGPU_LEN_DRAW_INDEXED), 0, 6,
			1, 0, 4 * k, 0);
	swgpu_emit_end_pass(api_cmd_reserve(&g.cmd, SWGPU_LEN_END_PASS));
	api_ok(ga_submit_wait(&g));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			const uint8_t *p = ga_px(&rt, x, y);
			bool in = x >= 8 && x < 24 && y >= 8 && y < 20;
			/* BGRA */
			uint8_t want[4] = { in ? 255 : 0, 0, in ? 0 : 255, 255 };
			float z;
			memcpy(&z, ga_px(&zb, x, y), 4);
			if (memcmp(p, want, 4) || z != (in ? 0.25f : 0.5f))
				fail_msg("pixel (%u, %u) = %u %u %u %u depth "
				         "%g", x, y, p[0], p[1], p[2], p[3],
				         (double)z);
		}
	ga_image_fini(&rt);
	ga_image_fini(&zb);
	swgpu_shader_destroy(vs);
	swgpu_shader_destroy(fs);
	ga_fini(&g);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_triangle),
		cmocka_unit_test(test_indexed_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
