/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_draw: draws through the loader with validation on, each
 * scene checked against hand-computed expectations and, when a second
 * driver is present (VK_DRIVER_FILES naming lavapipe too), compared with
 * its rendering texel by texel (vkh_gfx.h):
 *
 *   edge_sharing   a fan and a jittered grid of triangles sharing edges,
 *                  additively blended: every pixel of the covered
 *                  rectangle exactly once (the spec is exact here)
 *   axis_aligned   rectangles with edges between pixel centres: exact
 *   indexed        UINT16 / UINT32 indices, first index, vertex offset,
 *                  primitive restart in strips
 *   instanced      instance offsets, first instance, per-instance
 *                  attributes
 *   indirect       vkCmdDraw(Indexed)Indirect(Count)
 *   draw_params    VertexIndex, InstanceIndex, DrawIndex, BaseVertex,
 *                  BaseInstance
 * (topologies, interpolation and vertex formats: test_vk_gfx_vertex.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_params_vs.spv.h"


/* ------------------------------------------------------------------ */
/* edge_sharing                                                        */
/* ------------------------------------------------------------------ */

#define GRID 6

static uint32_t
fan_and_grid(struct vtx *v)
{
	/* A fan around an off-grid centre over [4, 28] x [4, 60], its
	 * boundary points at sub-pixel positions along the edges. */
	static const float ring[][2] = {
		{ 4, 4 }, { 11.3f, 4 }, { 19.85f, 4 }, { 28, 4 },
		{ 28, 21.6f }, { 28, 44.05f }, { 28, 60 }, { 17.2f, 60 },
		{ 4, 60 }, { 4, 38.7f }, { 4, 13.1f },
	};
	const float cx = 15.3f, cy = 29.7f;
	const float col[4] = { 0.25f, 0, 0, 0.25f };
	const uint32_t nr = sizeof(ring) / sizeof(ring[0]);
	float gx[GRID + 1][GRID + 1], gy[GRID + 1][GRID + 1];
	uint32_t n = 0;

	for (uint32_t i = 0; i < nr; i++) {
		const float *a = ring[i], *b = ring[(i + 1) % nr];

		v[n++] = (struct vtx){ cx, cy, 0, col[0], col[1], col[2], col[3] };
		v[n++] = (struct vtx){ a[0], a[1], 0, col[0], col[1], col[2],
		                       col[3] };
		v[n++] = (struct vtx){ b[0], b[1], 0, col[0], col[1], col[2],
		                       col[3] };
	}
	/* A grid over [34, 60] x [4, 60] whose inner vertices are jittered
	 * (deterministically) to sub-pixel positions; the outer ones stay
	 * on the rectangle. */
	for (int j = 0; j <= GRID; j++)
		for (int i = 0; i <= GRID; i++) {
			float jx = (i > 0 && i < GRID) ?
			           (float)((i * 7 + j * 13) % 11) / 11.0f - 0.5f : 0;
			float jy = (j > 0 && j < GRID) ?
			           (float)((i * 5 + j * 3) % 9) / 9.0f - 0.5f : 0;

			gx[j][i] = 34 + 26.0f * i / GRID + jx * 2.7f;
			gy[j][i] = 4 + 56.0f * j / GRID + jy * 5.1f;
		}
	for (int j = 0; j < GRID; j++)
		for (int i = 0; i < GRID; i++) {
			/* The two diagonals, alternating. */
			static const int q[2][6][2] = {
				{ { 0, 0 }, { 1, 0 }, { 0, 1 },
				  { 1, 0 }, { 1, 1 }, { 0, 1 } },
				{ { 0, 0 }, { 1, 0 }, { 1, 1 },
				  { 0, 0 }, { 1, 1 }, { 0, 1 } },
			};
			const int (*t)[2] = q[(i + j) & 1];

			for (int k = 0; k < 6; k++) {
				int a = i + t[k][0], b = j + t[k][1];

				v[n++] = (struct vtx){ gx[b][a], gy[b][a], 0,
				                       0, 0.25f, 0, 0.25f };
			}
		}
	return n;
}

static bool
edge_sharing_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static struct vtx v[64 * 3 + GRID * GRID * 6];
	uint32_t n = fan_and_grid(v);
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe;
	bool ok = false;

	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	/* Additive: a texel covered twice shows 2x. */
	p.blend[0] = (VkPipelineColorBlendAttachmentState){
		VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
		VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
		VK_BLEND_OP_ADD, 0xf };
	pipe = gfx_pipeline(c, &p);
	if (pipe && draw_vertices(c, &t, pipe, v, n, 1))
		ok = gfx_read(c, &t, NULL, o);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
edge_sharing_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint8_t red[4] = { 64, 0, 0, 64 }, green[4] = { 0, 64, 0, 64 };

	/* Pixel centres never lie on the rectangles' edges: exactly the
	 * texels of [4,28) x [4,60) and [34,60) x [4,60), once each. */
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *want =
				y >= 4 && y < 60 && x >= 4 && x < 28 ? red :
				y >= 4 && y < 60 && x >= 34 && x < 60 ? green :
				zero4;

			if (memcmp(gfx_texel(o, x, y), want, 4)) {
				const uint8_t *t = gfx_texel(o, x, y);

				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u,%u) = %u %u %u %u, want %u %u "
				         "%u %u (covered %s)", c->driver, x, y,
				         t[0], t[1], t[2], t[3], want[0],
				         want[1], want[2], want[3],
				         t[3] > want[3] ? "twice" : "never");
				return;
			}
		}
}

/* ------------------------------------------------------------------ */
/* axis_aligned                                                        */
/* ------------------------------------------------------------------ */

static const struct {
	float x0, y0, x1, y1;       /* edges between pixel centres */
	uint32_t ex0, ey0, ex1, ey1; /* texels covered */
	float rgba[4];
} rects[] = {
	{ 3.25f, 2.75f, 20.75f, 9.25f, 3, 3, 21, 9, { 1, 0, 0, 1 } },
	{ 30.1f, 1.9f, 31.9f, 40.6f, 30, 2, 32, 41, { 0, 1, 0, 1 } },
	{ 40.6f, 20.4f, 63.2f, 63.9f, 41, 20, 63, 64, { 0, 0, 1, 1 } },
	{ -10.0f, 50.3f, 9.7f, 80.0f, 0, 50, 10, 64, { 1, 1, 1, 1 } },
	/* Thinner than a pixel, covering no centre: nothing. */
	{ 12.6f, 30.1f, 13.4f, 45.0f, 0, 0, 0, 0, { 1, 0, 1, 1 } },
};
#define NRECTS (sizeof(rects) / sizeof(rects[0]))

static bool
axis_aligned_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[NRECTS * 6];
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe;
	bool ok = false;

	for (uint32_t i = 0; i < NRECTS; i++)
		quad(v + 6 * i, rects[i].x0, rects[i].y0, rects[i].x1,
		     rects[i].y1, 0, rects[i].rgba);
	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	pipe = gfx_pipeline(c, &p);
	if (pipe && draw_vertices(c, &t, pipe, v, NRECTS * 6, 1))
		ok = gfx_read(c, &t, NULL, o);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
axis_aligned_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			uint8_t want[4] = { 0, 0, 0, 0 };

			for (uint32_t i = 0; i < NRECTS; i++)
				if (x >= rects[i].ex0 && x < rects[i].ex1 &&
				    y >= rects[i].ey0 && y < rects[i].ey1)
					for (int k = 0; k < 4; k++)
						want[k] = (uint8_t)(rects[i].rgba[k] *
						                    255);
			if (memcmp(gfx_texel(o, x, y), want, 4)) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: texel (%u,%u) wrong", c->driver,
				         x, y);
				return;
			}
		}
}

/* ------------------------------------------------------------------ */
/* indexed                                                             */
/* ------------------------------------------------------------------ */

/* Cells drawn by the indexed scene: 0 and 1 (UINT16, first index and
 * vertex offset), 9 and 10 (UINT32 strip with a restart between them),
 * 18 (UINT16 strip, restart 0xffff). */
#define INDEXED_CELLS ((1ull << 0) | (1ull << 1) | (1ull << 9) | \
                       (1ull << 10) | (1ull << 18))

static bool
indexed_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static const float white[4] = { 1, 1, 1, 1 };
	struct vtx v[64 * 4];
	/* Triangle lists of two cells (indices relative to cell 0/1
	 * vertices, drawn with vertexOffset 4 * first cell). */
	const uint16_t i16[] = { 99, 99, 0, 1, 2, 1, 3, 2, 4, 5, 6, 5, 7, 6,
	                         /* strip, restart */ 0, 1, 2, 3, 0xffff,
	                         4, 5, 6, 7 };
	const uint32_t i32[] = { 36, 37, 38, 39, 0xffffffffu, 40, 41, 42, 43 };
	struct vkh_buffer vb, ib16, ib32;
	struct gfx_image t;
	struct gfx_pipe p, ps;
	VkPipeline pipe, strip;
	VkDeviceSize off = 0;
	VkCommandBuffer cb;
	bool ok = false;

	for (uint32_t k = 0; k < 64; k++)
		cell(v + 4 * k, k, white);
	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	ps = p;
	ps.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
	ps.restart = VK_TRUE;
	pipe = gfx_pipeline(c, &p);
	strip = gfx_pipeline(c, &ps);
	if (pipe && strip &&
	    gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v, sizeof(v),
	               &vb) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, i16, sizeof(i16),
	               &ib16) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, i32, sizeof(i32),
	               &ib32)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindIndexBuffer(cb, ib16.buffer, 0, VK_INDEX_TYPE_UINT16);
		/* Cells 0, 1: skip the two 99s. */
		vkCmdDrawIndexed(cb, 12, 1, 2, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, strip);
		/* Cell 18 (vertices 72..75) and 19 would follow the restart:
		 * draw only up to the restart index. */
		vkCmdDrawIndexed(cb, 5, 1, 14, 72, 0);
		vkCmdBindIndexBuffer(cb, ib32.buffer, 0, VK_INDEX_TYPE_UINT32);
		/* 36..43 = cells 9, 10. */
		vkCmdDrawIndexed(cb, 9, 1, 0, 0, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
		vkh_buffer_destroy(c->d, &ib16);
		vkh_buffer_destroy(c->d, &ib32);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyPipeline(c->dev, strip, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
indexed_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint8_t white[4] = { 255, 255, 255, 255 };

	expect_cells(c, o, INDEXED_CELLS, white);
}

/* ------------------------------------------------------------------ */
/* instanced                                                           */
/* ------------------------------------------------------------------ */

static bool
instanced_render(struct gfx_ctx *c, struct gfx_out *o)
{
	/* Per-vertex position (binding 0), per-instance colour (binding
	 * 1, location 1). */
	struct vtx v[4];
	const float colors[5][4] = { { 9, 9, 9, 9 }, { 1, 0, 0, 1 },
	                             { 0, 1, 0, 1 }, { 0, 0, 1, 1 },
	                             { 1, 1, 0, 1 } };
	const uint16_t idx[6] = { 0, 1, 2, 1, 3, 2 };
	struct vkh_buffer vb, cbuf, ib;
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe;
	VkDeviceSize off = 0;
	VkCommandBuffer cb;
	bool ok = false;

	cell(v, 0, colors[0]);
	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	p.nbindings = 2;
	p.bindings[1] = (VkVertexInputBindingDescription){
		1, 16, VK_VERTEX_INPUT_RATE_INSTANCE };
	p.attribs[1] = (VkVertexInputAttributeDescription){
		1, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0 };
	pipe = gfx_pipeline(c, &p);
	if (pipe &&
	    gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v, sizeof(v),
	               &vb) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, colors,
	               sizeof(colors), &cbuf) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof(idx),
	               &ib)) {
		VkBuffer bufs[2] = { vb.buffer, cbuf.buffer };
		VkDeviceSize offs[2] = { 0, 0 };

		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindVertexBuffers(cb, 0, 2, bufs, offs);
		vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
		/* Instances 1..4 move 8 pixels right each, one row down. */
		px_push(c, cb, 8, 0);
		vkCmdDrawIndexed(cb, 6, 4, 0, 0, 1);
		(void)off;
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
		vkh_buffer_destroy(c->d, &cbuf);
		vkh_buffer_destroy(c->d, &ib);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
instanced_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint8_t want[4][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 },
	                             { 0, 0, 255, 255 }, { 255, 255, 0, 255 } };

	/* Instance i (1..4) in cell i with colour i; cell 0 empty. */
	expect_cells(c, o, (1ull << 5) - 2, NULL);
	for (uint32_t i = 1; i <= 4; i++)
		expect_rect(c, o, i * 8 + 1, 1, i * 8 + 7, 7, want[i - 1],
		            NULL);
	expect_rect(c, o, 1, 1, 7, 7, zero4, NULL);
}

/* ------------------------------------------------------------------ */
/* indirect                                                            */
/* ------------------------------------------------------------------ */

static bool
indirect_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static const float white[4] = { 1, 1, 1, 1 };
	struct vtx v[64 * 4];
	uint16_t idx[64 * 6];
	/* Dwords: two draws at 0 and 32 (stride 32), three indexed draws
	 * at 64 (stride 20), the counts 1 and 2 at 128. */
	uint32_t args[34] = {
		[0] = 4, 1, 4 * 2, 0,
		[8] = 4, 1, 4 * 3, 0,
		[16] = 6, 1, 6 * 11, 0, 0,
		[21] = 6, 1, 6 * 12, 0, 0,
		[26] = 6, 1, 6 * 13, 0, 0,
		[32] = 1, 2,
	};
	struct vkh_buffer vb, ib, ab;
	struct gfx_image t;
	struct gfx_pipe p, ps;
	VkPipeline list, strip;
	VkDeviceSize off = 0;
	VkCommandBuffer cb;
	bool ok = false;

	for (uint32_t k = 0; k < 64; k++) {
		const uint16_t q[6] = { 0, 1, 2, 1, 3, 2 };

		cell(v + 4 * k, k, white);
		for (int i = 0; i < 6; i++)
			idx[6 * k + i] = (uint16_t)(4 * k + q[i]);
	}
	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	ps = p;
	ps.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
	list = gfx_pipeline(c, &p);
	strip = gfx_pipeline(c, &ps);
	if (list && strip &&
	    gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v, sizeof(v),
	               &vb) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof(idx),
	               &ib) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &args,
	               sizeof(args), &ab)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, strip);
		/* Cells 2, 3. */
		vkCmdDrawIndirect(cb, ab.buffer, 0, 2, 32);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
		/* Cell 11 (count 1 of max 3), then 12, 13 (count 2). */
		vkCmdDrawIndexedIndirectCount(cb, ab.buffer, 64, ab.buffer,
		                              128, 3, 20);
		vkCmdDrawIndexedIndirectCount(cb, ab.buffer, 84, ab.buffer,
		                              132, 2, 20);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
		vkh_buffer_destroy(c->d, &ib);
		vkh_buffer_destroy(c->d, &ab);
	}
	vkDestroyPipeline(c->dev, list, NULL);
	vkDestroyPipeline(c->dev, strip, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
indirect_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint8_t white[4] = { 255, 255, 255, 255 };

	expect_cells(c, o, (1ull << 2) | (1ull << 3) | (1ull << 11) |
	             (1ull << 12) | (1ull << 13), white);
}

/* ------------------------------------------------------------------ */
/* draw_params                                                         */
/* ------------------------------------------------------------------ */

static bool
draw_params_render(struct gfx_ctx *c, struct gfx_out *o)
{
	VkDrawIndirectCommand args[2] = { { 2, 1, 20, 7 }, { 1, 2, 30, 9 } };
	const uint32_t idx[2] = { 0, 1 };
	struct vkh_buffer ab, ib;
	struct gfx_image t;
	struct gfx_pipe p;
	VkShaderModule vs, fs;
	VkPipeline pipe;
	VkCommandBuffer cb;
	bool ok = false;

	if (!c->h->shader_draw_parameters) {
		printf("  (%s: no shaderDrawParameters: vertex and instance "
		       "index only)\n", c->driver);
	}
	vs = gfx_shader(c, gfx_params_vs_spv, sizeof(gfx_params_vs_spv));
	fs = flat_fs(c);
	if (!px_target(c, &t))
		return false;
	gfx_pipe_init(&p, vs, fs, VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	p.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
	pipe = gfx_pipeline(c, &p);
	if (pipe &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, args,
	               sizeof(args), &ab) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof(idx),
	               &ib)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, cb, 0, 0);
		/* Points (3..6, 5..6). */
		vkCmdDraw(cb, 4, 2, 3, 5);
		/* Indexed: vertex index = index + 40, instance 12. */
		vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
		vkCmdDrawIndexed(cb, 2, 1, 0, 40, 12);
		/* DrawIndex 0 and 1. */
		vkCmdDrawIndirect(cb, ab.buffer, 0, 2,
		                  sizeof(VkDrawIndirectCommand));
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &ab);
		vkh_buffer_destroy(c->d, &ib);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, vs, NULL);
	vkDestroyShaderModule(c->dev, fs, NULL);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
draw_params_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	/* (vertex, instance, draw, base vertex + base instance) per point;
	 * a non-indexed draw's BaseVertex is its first vertex. */
	static const uint8_t want[][6] = {
		/* x, y, then RGBA */
		{ 3, 5, 3, 5, 0, 8 }, { 6, 6, 6, 6, 0, 8 },
		{ 40, 12, 40, 12, 0, 52 }, { 41, 12, 41, 12, 0, 52 },
		{ 20, 7, 20, 7, 0, 27 }, { 21, 7, 21, 7, 0, 27 },
		{ 30, 9, 30, 9, 1, 39 }, { 30, 10, 30, 10, 1, 39 },
	};

	for (uint32_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const uint8_t *w = want[i];
		const uint8_t *t = gfx_texel(o, w[0], w[1]);

		if (t[0] != w[2] || t[1] != w[3] || t[2] != w[4] ||
		    t[3] != w[5])
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: point (%u,%u) = %u %u %u %u, want %u %u "
			         "%u %u", c->driver, w[0], w[1], t[0], t[1],
			         t[2], t[3], w[2], w[3], w[4], w[5]);
	}
}

/* ------------------------------------------------------------------ */

GFX_SCENE_TEST(edge_sharing, 0, 0, NULL)
GFX_SCENE_TEST(axis_aligned, 0, 0, NULL)
GFX_SCENE_TEST(indexed, 0, 0, NULL)
GFX_SCENE_TEST(instanced, 0, 0, NULL)
GFX_SCENE_TEST(indirect, 0, 0, NULL)
GFX_SCENE_TEST(draw_params, 0, 0, NULL)

static const struct vkh_test tests[] = {
	GFX_TEST(edge_sharing),
	GFX_TEST(axis_aligned),
	GFX_TEST(indexed),
	GFX_TEST(instanced),
	GFX_TEST(indirect),
	GFX_TEST(draw_params),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_draw", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
