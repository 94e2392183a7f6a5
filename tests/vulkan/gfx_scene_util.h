/* SPDX-License-Identifier: MIT */
/*
 * gfx_scene_util: what the graphics test scenes share — a vertex in
 * pixel coordinates with a flat colour, the pipeline drawing it
 * (gfx_px_vs + gfx_flat_fs), a 64x64 RGBA8 target, and expectations of
 * covered rectangles.
 */
#ifndef GFX_SCENE_UTIL_H
#define GFX_SCENE_UTIL_H

#include "vkh_gfx.h"

#define SW 64
#define SH 64

struct vtx {
	float x, y, z;
	float r, g, b, a;
};

/* gfx_flat_fs: the flat colour at location 0 to colour output 0. */
VkShaderModule flat_fs(struct gfx_ctx *c);

/* The vertex layout of struct vtx at binding 0, locations 0 and 1. */
void px_vertex_input(struct gfx_pipe *p);
/* gfx_px_vs + gfx_flat_fs on an RGBA8 SW x SH target, struct vtx input. */
bool px_pipe_init(struct gfx_ctx *c, struct gfx_pipe *p);
void px_pipe_finish(struct gfx_ctx *c, struct gfx_pipe *p);
/* Push the px shader's constants (target size, instance offset). */
void px_push(struct gfx_ctx *c, VkCommandBuffer cb, float ox, float oy);

/* Two triangles covering [x0, x1) x [y0, y1) in pixel coordinates. */
void quad(struct vtx *v, float x0, float y0, float x1, float y1, float z,
          const float rgba[4]);

/* Every texel of o is (r, g, b, a) inside [x0, x1) x [y0, y1) (integer
 * texel ranges) and keeps its value elsewhere when outside is NULL,
 * else equals outside. Fails the test with the first wrong texel. */
void expect_rect(struct gfx_ctx *c, const struct gfx_out *o, uint32_t x0,
                 uint32_t y0, uint32_t x1, uint32_t y1, const uint8_t in[4],
                 const uint8_t *outside);

/* Rendering setup of most scenes: a SW x SH RGBA8 colour target cleared
 * to clear, in dynamic rendering. */
bool px_target(struct gfx_ctx *c, struct gfx_image *t);

/* Transparent black, and its RGBA8 bytes. */
extern const VkClearColorValue black;
extern const uint8_t zero4[4];

/* Draw n vertices of v (instances with the px offset (10, 0)) with
 * pipe into t, cleared to black first, in one submission. */
bool draw_vertices(struct gfx_ctx *c, const struct gfx_image *t,
                   VkPipeline pipe, const struct vtx *v, uint32_t n,
                   uint32_t instances);

/* The 4 strip vertices of cell k of an 8x8 grid of 8-pixel cells, inset
 * by 1 pixel: [x+1, x+7) x [y+1, y+7). */
void cell(struct vtx *v, uint32_t k, const float rgba[4]);
/* Cells whose bit is set in `cells` are rgba inside, the others are
 * zero (rgba NULL: only the others are checked). */
void expect_cells(struct gfx_ctx *c, const struct gfx_out *o, uint64_t cells,
                  const uint8_t rgba[4]);

/* A vkh test function test_<id> running scene <id> (id_render,
 * id_check) with tolerances and an optional support predicate. */
#define GFX_SCENE_TEST(id, tol, dtol, sup)                                 \
	static void test_##id(struct vkh *h, struct vkh_device *d)          \
	{                                                                   \
		const struct gfx_scene s = {                                \
			.name = #id, .render = id##_render,                 \
			.check = id##_check, .tolerance = tol,              \
			.depth_tolerance = dtol, .supported = sup,          \
		};                                                          \
		gfx_scene(h, d, &s);                                        \
	}
#define GFX_TEST(id) { #id, test_##id, 1, VK_QUEUE_GRAPHICS_BIT }

#endif /* GFX_SCENE_UTIL_H */
