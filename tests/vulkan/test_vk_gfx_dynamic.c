/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_dynamic: the dynamic state of Vulkan 1.3 (extended dynamic
 * state 1 and 2) through the loader with validation on: one pipeline
 * with every core dynamic state, set per draw; checked by hand and
 * against a second driver:
 *
 *   quadrant 0  cull mode BACK with front face CLOCKWISE: one winding
 *               drawn, the other culled; then front face flipped
 *   quadrant 1  scissor (with count) around a smaller rectangle
 *   quadrant 2  depth test / write / compare op per draw
 *   quadrant 3  stencil test, ops, reference, compare and write masks
 *   everywhere  a quad with rasterizer discard (nothing), a triangle
 *               strip through the dynamic topology and vertex stride
 */
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

static const VkDynamicState dyn_states[] = {
	VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
	VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
	VK_DYNAMIC_STATE_LINE_WIDTH,
	VK_DYNAMIC_STATE_DEPTH_BIAS,
	VK_DYNAMIC_STATE_BLEND_CONSTANTS,
	VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
	VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
	VK_DYNAMIC_STATE_STENCIL_REFERENCE,
	VK_DYNAMIC_STATE_CULL_MODE,
	VK_DYNAMIC_STATE_FRONT_FACE,
	VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
	VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
	VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
	VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
	VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
	VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
	VK_DYNAMIC_STATE_STENCIL_OP,
	VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
	VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE,
	VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
};
#define NDYN (sizeof(dyn_states) / sizeof(dyn_states[0]))

/* Swap a quad's winding. */
static void
flip(struct vtx *q)
{
	struct vtx t = q[1];

	q[1] = q[2];
	q[2] = t;
	t = q[4];
	q[4] = q[5];
	q[5] = t;
}

/* Everything off: the baseline each region starts from. */
static void
defaults(VkCommandBuffer cb)
{
	VkViewport vp = { 0, 0, SW, SH, 0, 1 };
	VkRect2D sc = { { 0, 0 }, { SW, SH } };
	const float bc[4] = { 0, 0, 0, 0 };

	vkCmdSetViewportWithCount(cb, 1, &vp);
	vkCmdSetScissorWithCount(cb, 1, &sc);
	vkCmdSetLineWidth(cb, 1.0f);
	vkCmdSetDepthBias(cb, 0, 0, 0);
	vkCmdSetBlendConstants(cb, bc);
	vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0xff);
	vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0xff);
	vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
	vkCmdSetCullMode(cb, VK_CULL_MODE_NONE);
	vkCmdSetFrontFace(cb, VK_FRONT_FACE_COUNTER_CLOCKWISE);
	vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	vkCmdSetDepthTestEnable(cb, VK_FALSE);
	vkCmdSetDepthWriteEnable(cb, VK_FALSE);
	vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_ALWAYS);
	vkCmdSetStencilTestEnable(cb, VK_FALSE);
	vkCmdSetStencilOp(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
	                  VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
	                  VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
	vkCmdSetRasterizerDiscardEnable(cb, VK_FALSE);
	vkCmdSetDepthBiasEnable(cb, VK_FALSE);
	vkCmdSetPrimitiveRestartEnable(cb, VK_FALSE);
}

enum { Q_CULL, Q_CULL2 = Q_CULL + 12, Q_SCISSOR = Q_CULL2 + 12,
       Q_DEPTH = Q_SCISSOR + 6, Q_STENCIL = Q_DEPTH + 18,
       Q_DISCARD = Q_STENCIL + 18, Q_STRIP = Q_DISCARD + 6,
       Q_TOTAL = Q_STRIP + 4 };

static bool
dynamic_state_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static struct vtx v[Q_TOTAL];
	const float r[4] = { 1, 0, 0, 1 }, g[4] = { 0, 1, 0, 1 },
	            b[4] = { 0, 0, 1, 1 }, y[4] = { 1, 1, 0, 1 },
	            m[4] = { 1, 0, 1, 1 }, w[4] = { 1, 1, 1, 1 },
	            cy[4] = { 0, 1, 1, 1 };
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline pipe;
	struct vkh_buffer vb = { 0 };
	bool ok = false;

	/* Quadrant 0 top: red clockwise (front), green the other way
	 * (culled); bottom: the same with the front face flipped. */
	quad(v + Q_CULL, 2, 2, 30, 14, 0, r);
	quad(v + Q_CULL + 6, 2, 2, 30, 14, 0, g);
	flip(v + Q_CULL + 6);
	quad(v + Q_CULL2, 2, 18, 30, 30, 0, r);
	quad(v + Q_CULL2 + 6, 2, 18, 30, 30, 0, g);
	flip(v + Q_CULL2 + 6);
	quad(v + Q_SCISSOR, 32, 0, 64, 32, 0, b);
	quad(v + Q_DEPTH, 0, 32, 32, 64, 0.5f, w);
	quad(v + Q_DEPTH + 6, 4, 36, 28, 60, 0.7f, r);
	quad(v + Q_DEPTH + 12, 8, 40, 24, 56, 0.3f, y);
	quad(v + Q_STENCIL, 36, 36, 60, 60, 0, w);
	quad(v + Q_STENCIL + 6, 32, 32, 48, 64, 0, m);
	quad(v + Q_STENCIL + 12, 48, 32, 64, 64, 0, cy);
	quad(v + Q_DISCARD, 0, 0, SW, SH, 0, y);
	/* A strip in quadrant 1 bottom-right. */
	const float sx[4] = { 50, 62, 50, 62 }, sy[4] = { 18, 18, 30, 30 };
	for (int i = 0; i < 4; i++)
		v[Q_STRIP + i] = (struct vtx){ sx[i], sy[i], 0, g[0], g[1],
		                               g[2], g[3] };
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_D24_UNORM_S8_UINT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.depth_format = p.stencil_format = VK_FORMAT_D24_UNORM_S8_UINT;
	p.ndynamic = NDYN;
	memcpy(p.dynamic, dyn_states, sizeof(dyn_states));
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkDeviceSize off = 0, stride = sizeof(struct vtx);
		VkRect2D sc = { { 40, 8 }, { 16, 10 } };
		VkCommandBuffer cb = gfx_begin(c);

		gfx_begin_rendering(cb, &t, &black, &ds, true, 1.0f, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers2(cb, 0, 1, &vb.buffer, &off, NULL,
		                        &stride);
		defaults(cb);
		vkCmdSetCullMode(cb, VK_CULL_MODE_BACK_BIT);
		vkCmdSetFrontFace(cb, VK_FRONT_FACE_CLOCKWISE);
		vkCmdDraw(cb, 12, 1, Q_CULL, 0);
		vkCmdSetFrontFace(cb, VK_FRONT_FACE_COUNTER_CLOCKWISE);
		vkCmdDraw(cb, 12, 1, Q_CULL2, 0);
		defaults(cb);
		vkCmdSetScissorWithCount(cb, 1, &sc);
		vkCmdDraw(cb, 6, 1, Q_SCISSOR, 0);
		defaults(cb);
		vkCmdSetDepthTestEnable(cb, VK_TRUE);
		vkCmdSetDepthWriteEnable(cb, VK_TRUE);
		vkCmdDraw(cb, 6, 1, Q_DEPTH, 0);
		vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_LESS);
		vkCmdSetDepthWriteEnable(cb, VK_FALSE);
		vkCmdDraw(cb, 12, 1, Q_DEPTH + 6, 0);
		defaults(cb);
		vkCmdSetStencilTestEnable(cb, VK_TRUE);
		vkCmdSetStencilOp(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                  VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
		                  VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
		vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                         0x35);
		vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                         0x0f);
		vkCmdDraw(cb, 6, 1, Q_STENCIL, 0);
		/* Stored 0x05 inside, 0 outside; EQUAL 0x15 through mask
		 * 0x0f passes inside only. */
		vkCmdSetStencilOp(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                  VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INVERT,
		                  VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL);
		vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                         0x15);
		vkCmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                           0x0f);
		vkCmdSetStencilWriteMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                         0xf0);
		vkCmdDraw(cb, 6, 1, Q_STENCIL + 6, 0);
		/* The reference 0x06 never matches. */
		vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK,
		                         0x06);
		vkCmdDraw(cb, 6, 1, Q_STENCIL + 12, 0);
		defaults(cb);
		vkCmdSetRasterizerDiscardEnable(cb, VK_TRUE);
		vkCmdDraw(cb, 6, 1, Q_DISCARD, 0);
		defaults(cb);
		vkCmdSetPrimitiveTopology(cb,
		                          VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
		vkCmdSetPrimitiveRestartEnable(cb, VK_TRUE);
		vkCmdDraw(cb, 4, 1, Q_STRIP, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
	}
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	return ok;
}

static void
dynamic_state_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	static const uint8_t R[4] = { 255, 0, 0, 255 }, G[4] = { 0, 255, 0, 255 },
	                     B[4] = { 0, 0, 255, 255 }, Y[4] = { 255, 255, 0, 255 },
	                     M[4] = { 255, 0, 255, 255 },
	                     W[4] = { 255, 255, 255, 255 };

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *want = zero4;
			uint8_t st = 0;

			if (x < 32 && y < 32) {
				if (x >= 2 && x < 30 && y >= 2 && y < 14)
					want = R;
				if (x >= 2 && x < 30 && y >= 18 && y < 30)
					want = G;
			} else if (y < 32) {
				if (x >= 40 && x < 56 && y >= 8 && y < 18)
					want = B;
				if (x >= 50 && x < 62 && y >= 18 && y < 30)
					want = G;
			} else if (x < 32) {
				want = x >= 8 && x < 24 && y >= 40 && y < 56 ?
				       Y : W;
			} else {
				bool in = x >= 36 && x < 60 && y >= 36 &&
				          y < 60;

				want = in ? (x < 48 ? M : W) : zero4;
				st = in ? (x < 48 ? 0xf5 : 0x05) : 0;
			}
			if (memcmp(gfx_texel(o, x, y), want, 4) ||
			    o->stencil[y * SW + x] != st) {
				const uint8_t *t = gfx_texel(o, x, y);

				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u,%u) = %u %u %u %u stencil "
				         "0x%02x, want %u %u %u %u stencil "
				         "0x%02x", c->driver, x, y, t[0], t[1],
				         t[2], t[3], o->stencil[y * SW + x],
				         want[0], want[1], want[2], want[3], st);
				return;
			}
		}
}

GFX_SCENE_TEST(dynamic_state, 0, 0, NULL)

static const struct vkh_test tests[] = {
	GFX_TEST(dynamic_state),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_dynamic", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
