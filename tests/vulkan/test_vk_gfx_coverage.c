/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_coverage: multisample coverage with one sample per pixel
 * through the loader with validation on; checked by hand and against a
 * second driver (vkh_gfx.h):
 *
 *   alpha_to_coverage  four columns with alpha 0.25, 0.4, 0.6, 0.75
 *                      over a D32 depth test: the columns below 0.5
 *                      leave colour and depth as cleared, the others are
 *                      drawn (alpha 0.5 itself is left out: how exactly
 *                      0.5 maps is the implementation's)
 *   alpha_to_one       the same with alphaToOne: drawn texels store
 *                      alpha 1 (feature alphaToOne)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

static const float col_alpha[4] = { 0.25f, 0.4f, 0.6f, 0.75f };

static bool
coverage_render(struct gfx_ctx *c, struct gfx_out *o, bool one)
{
	struct vtx v[24];
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb;
	bool ok = false;

	for (uint32_t k = 0; k < 4; k++) {
		const float rgba[4] = { 1, 0.5f, 0.25f, col_alpha[k] };
		quad(v + 6 * k, 16.0f * (float)k, 0, 16.0f * (float)(k + 1), SH,
		     0.5f, rgba);
	}
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_D32_SFLOAT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.depth_format = VK_FORMAT_D32_SFLOAT;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	p.alpha_to_coverage = VK_TRUE;
	p.alpha_to_one = one;
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkDeviceSize off = 0;
		VkCommandBuffer cb = gfx_begin(c);

		gfx_begin_rendering(cb, &t, &black, &ds, true, 1.0f, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdDraw(cb, 24, 1, 0, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static void
coverage_check(struct gfx_ctx *c, const struct gfx_out *o, bool one)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			float a = col_alpha[x / 16];
			bool keep = a >= 0.5f;
			const uint8_t *px = gfx_texel(o, x, y);
			uint32_t wa = keep ? (one ? 255 : (uint32_t)lrintf(a * 255))
			                   : 0;
			bool rgb = keep ? px[0] == 255 && px[1] >= 127 &&
			                  px[1] <= 128 && px[2] >= 63 && px[2] <= 64
			                : px[0] == 0 && px[1] == 0 && px[2] == 0;
			float z = o->depth[y * SW + x];

			if (!rgb || px[3] != wa || z != (keep ? 0.5f : 1.0f)) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u, %u) alpha %.2f: rgba %u %u %u "
				         "%u depth %f; want %s, alpha %u",
				         c->driver, x, y, (double)a, px[0],
				         px[1], px[2], px[3], (double)z,
				         keep ? "drawn" : "untouched", wa);
				return;
			}
		}
}

static bool
alpha_to_coverage_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return coverage_render(c, o, false);
}

static void
alpha_to_coverage_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	coverage_check(c, o, false);
}

static bool
alpha_to_one_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return coverage_render(c, o, true);
}

static void
alpha_to_one_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	coverage_check(c, o, true);
}

static bool
has_alpha_to_one(const struct vkh *h)
{
	return h->features.alphaToOne;
}

GFX_SCENE_TEST(alpha_to_coverage, 1, 0, NULL)
GFX_SCENE_TEST(alpha_to_one, 1, 0, has_alpha_to_one)

static const struct vkh_test tests[] = {
	GFX_TEST(alpha_to_coverage), GFX_TEST(alpha_to_one),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_coverage", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
