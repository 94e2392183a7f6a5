/* SPDX-License-Identifier: MIT */
/*
 * gfx_scene_util: see gfx_scene_util.h.
 */
#include "gfx_scene_util.h"

#include <string.h>

#include "gfx_flat_fs.spv.h"
#include "gfx_px_vs.spv.h"

const VkClearColorValue black = { .float32 = { 0, 0, 0, 0 } };
const uint8_t zero4[4] = { 0, 0, 0, 0 };

VkShaderModule
flat_fs(struct gfx_ctx *c)
{
	return gfx_shader(c, gfx_flat_fs_spv, sizeof(gfx_flat_fs_spv));
}

void
px_vertex_input(struct gfx_pipe *p)
{
	p->nbindings = 1;
	p->bindings[0] = (VkVertexInputBindingDescription){
		0, sizeof(struct vtx), VK_VERTEX_INPUT_RATE_VERTEX };
	p->nattribs = 2;
	p->attribs[0] = (VkVertexInputAttributeDescription){
		0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 };
	p->attribs[1] = (VkVertexInputAttributeDescription){
		1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12 };
}

bool
px_pipe_init(struct gfx_ctx *c, struct gfx_pipe *p)
{
	VkShaderModule vs = gfx_shader(c, gfx_px_vs_spv, sizeof(gfx_px_vs_spv));
	VkShaderModule fs = flat_fs(c);

	gfx_pipe_init(p, vs, fs, VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	px_vertex_input(p);
	if (!vs || !fs) {
		vkh_fail(c->h, __FILE__, __LINE__, "shader modules");
		return false;
	}
	return true;
}

void
px_pipe_finish(struct gfx_ctx *c, struct gfx_pipe *p)
{
	vkDestroyShaderModule(c->dev, p->vs, NULL);
	vkDestroyShaderModule(c->dev, p->fs, NULL);
}

void
px_push(struct gfx_ctx *c, VkCommandBuffer cb, float ox, float oy)
{
	const float pc[4] = { SW, SH, ox, oy };

	vkCmdPushConstants(cb, gfx_default_layout(c),
	                   VK_SHADER_STAGE_VERTEX_BIT |
	                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(pc), pc);
}

void
quad(struct vtx *v, float x0, float y0, float x1, float y1, float z,
     const float rgba[4])
{
	const float xy[6][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 },
	                         { x1, y0 }, { x1, y1 }, { x0, y1 } };

	for (int i = 0; i < 6; i++)
		v[i] = (struct vtx){ xy[i][0], xy[i][1], z, rgba[0], rgba[1],
		                     rgba[2], rgba[3] };
}

void
expect_rect(struct gfx_ctx *c, const struct gfx_out *o, uint32_t x0,
            uint32_t y0, uint32_t x1, uint32_t y1, const uint8_t in[4],
            const uint8_t *outside)
{
	for (uint32_t y = 0; y < o->h; y++)
		for (uint32_t x = 0; x < o->w; x++) {
			bool inside = x >= x0 && x < x1 && y >= y0 && y < y1;
			const uint8_t *want = inside ? in : outside;
			const uint8_t *t = gfx_texel(o, x, y);

			if (!want || !memcmp(t, want, 4))
				continue;
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: texel (%u,%u) = %02x %02x %02x %02x, want "
			         "%02x %02x %02x %02x (%s [%u,%u)x[%u,%u))",
			         c->driver, x, y, t[0], t[1], t[2], t[3],
			         want[0], want[1], want[2], want[3],
			         inside ? "inside" : "outside", x0, x1, y0, y1);
			return;
		}
}

bool
px_target(struct gfx_ctx *c, struct gfx_image *t)
{
	return gfx_image(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 1,
	                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	                 VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
	                 VK_IMAGE_USAGE_SAMPLED_BIT, t);
}

/* Draw n vertices of v with pipeline pipe into t (cleared to black
 * first when clear), in one command buffer: bind, push, draw. */
bool
draw_vertices(struct gfx_ctx *c, const struct gfx_image *t, VkPipeline pipe,
              const struct vtx *v, uint32_t n, uint32_t instances)
{
	struct vkh_buffer vb;
	VkDeviceSize off = 0;
	VkCommandBuffer cb;
	bool ok;

	if (!gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                n * sizeof(*v), &vb))
		return false;
	cb = gfx_begin(c);
	gfx_begin_rendering(cb, t, &black, NULL, false, 0, 0);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	px_push(c, cb, 10, 0);
	vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
	vkCmdDraw(cb, n, instances, 0, 0);
	vkCmdEndRendering(cb);
	ok = gfx_submit(c, cb);
	vkh_buffer_destroy(c->d, &vb);
	return ok;
}

/* Square k of an 8x8 grid of 8-pixel cells, inset by 1 pixel. */
void
cell(struct vtx *v, uint32_t k, const float rgba[4])
{
	float x = (float)(k % 8) * 8 + 1, y = (float)(k / 8) * 8 + 1;
	const float xy[4][2] = { { x, y }, { x + 6, y }, { x, y + 6 },
	                         { x + 6, y + 6 } };

	for (int i = 0; i < 4; i++)
		v[i] = (struct vtx){ xy[i][0], xy[i][1], 0, rgba[0], rgba[1],
		                     rgba[2], rgba[3] };
}

void
expect_cells(struct gfx_ctx *c, const struct gfx_out *o, uint64_t cells,
             const uint8_t rgba[4])
{
	for (uint32_t k = 0; k < 64; k++) {
		uint32_t x = (k % 8) * 8, y = (k / 8) * 8;
		const uint8_t *want = (cells >> k) & 1 ? rgba : zero4;

		/* rgba NULL: the cells given are checked elsewhere. */
		if (!want)
			continue;

		for (uint32_t j = 1; j < 7; j++)
			for (uint32_t i = 1; i < 7; i++)
				if (memcmp(gfx_texel(o, x + i, y + j), want,
				           4)) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: cell %u texel (%u,%u) "
					         "wrong", c->driver, k, x + i,
					         y + j);
					return;
				}
	}
}
