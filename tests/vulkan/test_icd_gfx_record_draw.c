/* SPDX-License-Identifier: MIT */
/*
 * test_icd_gfx_record: draws, their state packets, indirect draws,
 * secondaries, dynamic state, pipeline state and occlusion queries. See
 * test_icd_gfx_record.h.
 */
#include <math.h>

#include "format.h"
#include "test_icd_gfx_record.h"

static uint64_t
buffer_va(VkBuffer b)
{
	return icd_buffer_from_handle(b)->va;
}

static VkCommandBuffer
begin_rendering(void)
{
	VkRenderingAttachmentInfo color = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = fx.color_view[0],
		.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
	};
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = { { 0, 0 }, { 32, 16 } }, .layerCount = 1,
		.colorAttachmentCount = 1, .pColorAttachments = &color,
	};
	VkCommandBuffer cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);

	icd_CmdBeginRendering(cb, &ri);
	return cb;
}

static VkPipeline
fake(int i)
{
	return icd_pipeline_to_handle(&fx.fake[i]);
}

/* The opcodes of r, in order, must be exactly ops. */
static void
expect_ops(const struct rec *r, const uint32_t *ops, uint32_t n)
{
	for (uint32_t i = 0; i < n && i < r->n; i++)
		if (r->pkt[i].op != ops[i])
			fail_msg("packet %u: opcode 0x%x, want 0x%x", i,
			         r->pkt[i].op, ops[i]);
	assert_int_equal(r->n, n);
}

void
test_draw_state(void **state)
{
	const uint8_t push[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
	                           14, 15, 16 };
	VkViewport vp = { 1, 2, 30, 40, 0.25f, 0.75f };
	VkRect2D sc = { { 3, 4 }, { 5, 6 } };
	VkDeviceSize off0 = 16, off2 = 64, size2 = 128, stride2 = 12;
	VkCommandBuffer cb = begin_rendering();
	struct rec r;
	static const uint32_t ops[] = {
		SWGPU_OP_BEGIN_PASS, SWGPU_OP_SET_PIPELINE,
		SWGPU_OP_SET_DYNAMIC, SWGPU_OP_SET_VERTEX_BUFFERS,
		SWGPU_OP_DRAW, SWGPU_OP_SET_INDEX_BUFFER,
		SWGPU_OP_DRAW_INDEXED, SWGPU_OP_DRAW, SWGPU_OP_SET_PIPELINE,
		SWGPU_OP_DRAW, SWGPU_OP_SET_PIPELINE, SWGPU_OP_SET_DYNAMIC,
		SWGPU_OP_DRAW, SWGPU_OP_END_PASS,
	};

	(void)state;
	icd_CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
	                          fx.layout, 0, 1, &fx.set, 0, NULL);
	icd_CmdPushConstants(cb, fx.layout, VK_SHADER_STAGE_VERTEX_BIT, 0,
	                     sizeof(push), push);
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(0));
	icd_CmdSetViewport(cb, 0, 1, &vp);
	icd_CmdSetScissor(cb, 0, 1, &sc);
	icd_CmdBindVertexBuffers(cb, 0, 1, &fx.vbuf, &off0);
	icd_CmdBindVertexBuffers2(cb, 2, 1, &fx.vbuf, &off2, &size2,
	                          &stride2);
	icd_CmdBindIndexBuffer(cb, fx.ibuf, 4, VK_INDEX_TYPE_UINT16);
	icd_CmdDraw(cb, 3, 2, 1, 5);
	icd_CmdDrawIndexed(cb, 6, 1, 2, -3, 7);
	icd_CmdDraw(cb, 9, 1, 0, 0);
	/* Zero counts record nothing. */
	icd_CmdDraw(cb, 0, 1, 0, 0);
	icd_CmdDrawIndexed(cb, 3, 0, 0, 0, 0);
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(1));
	icd_CmdDraw(cb, 3, 1, 0, 0);
	/* Dynamic values wait for a pipeline with dynamic state. */
	vp.width = 8;
	icd_CmdSetViewport(cb, 0, 1, &vp);
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(0));
	icd_CmdDraw(cb, 3, 1, 0, 0);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	expect_ops(&r, ops, sizeof(ops) / sizeof(ops[0]));

	assert_int_equal(swgpu_pkt_get64(r.pkt[1].p + 1), fx.fake[0].state_va);
	assert_int_equal(swgpu_pkt_get64(r.pkt[8].p + 1), fx.fake[1].state_va);
	assert_int_equal(swgpu_pkt_get64(r.pkt[10].p + 1), fx.fake[0].state_va);
	const struct swgpu_raster_state *d =
		rec_host(swgpu_pkt_get64(r.pkt[2].p + 1));
	assert_non_null(d);
	assert_true(d->viewports[0].x == 1 && d->viewports[0].y == 2 &&
	            d->viewports[0].width == 30 &&
	            d->viewports[0].height == 40 &&
	            d->viewports[0].min_depth == 0.25f &&
	            d->viewports[0].max_depth == 0.75f);
	assert_true(d->scissors[0].x == 3 && d->scissors[0].y == 4 &&
	            d->scissors[0].width == 5 && d->scissors[0].height == 6);
	d = rec_host(swgpu_pkt_get64(r.pkt[11].p + 1));
	assert_true(d->viewports[0].width == 8);

	/* Bindings 0..2; 1 was never bound: reads as zero. */
	const uint32_t *vb = r.pkt[3].p;
	assert_int_equal(r.pkt[3].len, SWGPU_LEN_SET_VERTEX_BUFFERS(3));
	assert_int_equal(vb[1], 0);
	assert_int_equal(vb[2], 3);
	assert_int_equal(swgpu_pkt_get64(vb + 3), buffer_va(fx.vbuf) + 16);
	assert_int_equal(swgpu_pkt_get64(vb + 5), 4096 - 16);
	assert_int_equal(swgpu_pkt_get64(vb + 8), 0);
	assert_int_equal(swgpu_pkt_get64(vb + 13), buffer_va(fx.vbuf) + 64);
	assert_int_equal(swgpu_pkt_get64(vb + 15), 128);
	assert_int_equal(vb[17], 12);

	const uint32_t *ib = r.pkt[5].p;
	assert_int_equal(swgpu_pkt_get64(ib + 1), buffer_va(fx.ibuf) + 4);
	assert_int_equal(swgpu_pkt_get64(ib + 3), 1020);
	assert_int_equal(ib[5], 2);

	const uint32_t *dr = r.pkt[4].p;
	uint64_t table = swgpu_pkt_get64(dr + 1);
	assert_int_equal(r.pkt[4].len, SWGPU_LEN_DRAW);
	assert_int_equal(dr[3], 3);
	assert_int_equal(dr[4], 2);
	assert_int_equal(dr[5], 1);
	assert_int_equal(dr[6], 5);
	const uint32_t *di = r.pkt[6].p;
	assert_int_equal(swgpu_pkt_get64(di + 1), table);
	assert_int_equal(di[3], 6);
	assert_int_equal(di[4], 1);
	assert_int_equal(di[5], 2);
	assert_int_equal((int32_t)di[6], -3);
	assert_int_equal(di[7], 7);
	/* One bind table for all: the state did not change. */
	for (int i = 7; i < 13; i++)
		if (r.pkt[i].op == SWGPU_OP_DRAW)
			assert_int_equal(swgpu_pkt_get64(r.pkt[i].p + 1), table);
	const struct swgpu_bind_table *t = rec_host(table);
	assert_non_null(t);
	assert_true((table & 7) == 0);
	assert_int_equal(t->set_va[0],
	                 icd_descriptor_set_from_handle(fx.set)->va);
	assert_memory_equal(t->push_constants, push, sizeof(push));
	/* The compute bind point saw neither. */
	const struct icd_cmd_buffer *icb = icd_cmd_buffer_from_handle(cb);
	assert_int_equal(icb->bind[ICD_BIND_COMPUTE].set_va[0], 0);
	assert_int_equal(icb->bind[ICD_BIND_COMPUTE].push[0], 0);
}

void
test_draw_errors(void **state)
{
	VkCommandBuffer cb;
	struct rec r;

	(void)state;
	/* No pipeline. */
	cb = begin_rendering();
	icd_CmdDraw(cb, 3, 1, 0, 0);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_ERROR_UNKNOWN);
	assert_int_equal(rec_count(&r, SWGPU_OP_DRAW), 0);
	/* No render pass instance. */
	cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(1));
	icd_CmdDraw(cb, 3, 1, 0, 0);
	assert_int_equal(rec_end(cb, &r), VK_ERROR_UNKNOWN);
	assert_int_equal(rec_count(&r, SWGPU_OP_DRAW), 0);
	/* No index buffer. */
	cb = begin_rendering();
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(1));
	icd_CmdDrawIndexed(cb, 3, 1, 0, 0, 0);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_ERROR_UNKNOWN);
	assert_int_equal(rec_count(&r, SWGPU_OP_DRAW_INDEXED), 0);
	/* Ending with the pass open: the engine would fault the job. */
	cb = begin_rendering();
	assert_int_equal(rec_end(cb, &r), VK_ERROR_UNKNOWN);
	/* A render pass inside one. */
	cb = begin_rendering();
	icd_CmdEndRenderPass(cb);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_ERROR_UNKNOWN);
	/* A command buffer reset after an error records again. */
	assert_int_equal(icd_ResetCommandBuffer(cb, 0), VK_SUCCESS);
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	assert_int_equal(icd_BeginCommandBuffer(cb, &bi), VK_SUCCESS);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	assert_int_equal(r.n, 0);
}

void
test_draw_indirect(void **state)
{
	VkCommandBuffer cb = begin_rendering();
	uint64_t args = buffer_va(fx.argbuf);
	struct rec r;
	int i;

	(void)state;
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(1));
	icd_CmdBindIndexBuffer(cb, fx.ibuf, 0, VK_INDEX_TYPE_UINT32);
	icd_CmdDrawIndirect(cb, fx.argbuf, 16, 3, 32);
	icd_CmdDrawIndexedIndirect(cb, fx.argbuf, 64, 1, 0);
	icd_CmdDrawIndirectCount(cb, fx.argbuf, 0, fx.argbuf, 512, 8, 16);
	icd_CmdDrawIndexedIndirectCount(cb, fx.argbuf, 128, fx.argbuf, 516,
	                                4, 20);
	icd_CmdDrawIndirect(cb, fx.argbuf, 0, 0, 16);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	assert_int_equal(rec_count(&r, SWGPU_OP_DRAW_INDIRECT), 4);
	assert_int_equal(rec_count(&r, SWGPU_OP_SET_INDEX_BUFFER), 1);
	i = rec_find(&r, SWGPU_OP_DRAW_INDIRECT, 0);
	assert_int_equal(r.pkt[i].flags, 0);
	assert_int_equal(r.pkt[i].len, SWGPU_LEN_DRAW_INDIRECT);
	assert_int_equal(swgpu_pkt_get64(r.pkt[i].p + 3), args + 16);
	assert_int_equal(r.pkt[i].p[5], 3);
	assert_int_equal(r.pkt[i].p[6], 32);
	assert_int_equal(swgpu_pkt_get64(r.pkt[i].p + 7), 0);
	/* The index buffer comes before the first indexed draw. */
	assert_true(rec_find(&r, SWGPU_OP_SET_INDEX_BUFFER, 0) > i);
	i = rec_find(&r, SWGPU_OP_DRAW_INDIRECT, i + 1);
	assert_int_equal(r.pkt[i].flags, SWGPU_DRAW_INDEXED);
	assert_int_equal(swgpu_pkt_get64(r.pkt[i].p + 3), args + 64);
	assert_int_equal(r.pkt[i].p[5], 1);
	/* One draw: the stride is the command's size. */
	assert_int_equal(r.pkt[i].p[6], 20);
	i = rec_find(&r, SWGPU_OP_DRAW_INDIRECT, i + 1);
	assert_int_equal(r.pkt[i].flags, SWGPU_DRAW_COUNT);
	assert_int_equal(r.pkt[i].p[5], 8);
	assert_int_equal(r.pkt[i].p[6], 16);
	assert_int_equal(swgpu_pkt_get64(r.pkt[i].p + 7), args + 512);
	i = rec_find(&r, SWGPU_OP_DRAW_INDIRECT, i + 1);
	assert_int_equal(r.pkt[i].flags, SWGPU_DRAW_INDEXED | SWGPU_DRAW_COUNT);
	assert_int_equal(swgpu_pkt_get64(r.pkt[i].p + 3), args + 128);
	assert_int_equal(r.pkt[i].p[5], 4);
	assert_int_equal(r.pkt[i].p[6], 20);
	assert_int_equal(swgpu_pkt_get64(r.pkt[i].p + 7), args + 516);
}

/* A secondary continuing a render pass records inside the primary's
 * pass; after vkCmdExecuteCommands the primary emits its state again. */
void
test_secondary(void **state)
{
	VkRenderPass rp = make_render_pass_2subpasses();
	VkFramebuffer fb = make_framebuffer(rp, false);
	VkCommandBufferInheritanceInfo inh = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
		.renderPass = rp, .subpass = 0, .framebuffer = fb,
	};
	VkCommandBufferBeginInfo sbi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
		.pInheritanceInfo = &inh,
	};
	VkRenderPassBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
		.renderPass = rp, .framebuffer = fb,
		.renderArea = { { 0, 0 }, { 32, 16 } },
	};
	VkViewport vp = { 0, 0, 32, 16, 0, 1 };
	VkDeviceSize off = 0;
	VkCommandBuffer sec, cb;
	struct rec r, rs;
	static const uint32_t ops[] = {
		SWGPU_OP_BEGIN_PASS, SWGPU_OP_SET_PIPELINE,
		SWGPU_OP_SET_VERTEX_BUFFERS, SWGPU_OP_DRAW,
		/* the secondary */
		SWGPU_OP_SET_PIPELINE, SWGPU_OP_SET_DYNAMIC, SWGPU_OP_DRAW,
		/* the primary again: its pipeline and buffers */
		SWGPU_OP_SET_PIPELINE, SWGPU_OP_SET_VERTEX_BUFFERS,
		SWGPU_OP_DRAW, SWGPU_OP_END_PASS, SWGPU_OP_BEGIN_PASS,
		SWGPU_OP_END_PASS,
	};

	(void)state;
	sec = rec_begin(VK_COMMAND_BUFFER_LEVEL_SECONDARY, &sbi);
	icd_CmdBindPipeline(sec, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(0));
	icd_CmdSetViewport(sec, 0, 1, &vp);
	icd_CmdDraw(sec, 3, 1, 0, 0);
	assert_int_equal(rec_end(sec, &rs), VK_SUCCESS);
	assert_int_equal(rec_count(&rs, SWGPU_OP_BEGIN_PASS), 0);
	assert_int_equal(rec_count(&rs, SWGPU_OP_DRAW), 1);

	cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
	icd_CmdBeginRenderPass(cb, &bi,
	                       VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(1));
	icd_CmdBindVertexBuffers(cb, 0, 1, &fx.vbuf, &off);
	icd_CmdDraw(cb, 3, 1, 0, 0);
	icd_CmdExecuteCommands(cb, 1, &sec);
	icd_CmdDraw(cb, 3, 1, 0, 0);
	icd_CmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
	icd_CmdEndRenderPass(cb);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	expect_ops(&r, ops, sizeof(ops) / sizeof(ops[0]));
	assert_int_equal(swgpu_pkt_get64(r.pkt[4].p + 1), fx.fake[0].state_va);
	assert_int_equal(swgpu_pkt_get64(r.pkt[7].p + 1), fx.fake[1].state_va);
	icd_DestroyFramebuffer(fx.device, fb, NULL);
	icd_DestroyRenderPass(fx.device, rp, NULL);
}

/* Every vkCmdSet* lands in its swgpu_raster_state field. */
void
test_dynamic_state(void **state)
{
	VkViewport vp[2] = { { 0, 0, 10, 10, 0, 1 }, { 5, 6, 7, 8, 0.5f, 1 } };
	VkRect2D sc[2] = { { { 0, 0 }, { 1, 1 } }, { { 2, 3 }, { 4, 5 } } };
	const float bc[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
	VkBool32 cw[3] = { VK_TRUE, VK_FALSE, VK_TRUE };
	VkCommandBuffer cb = begin_rendering();
	const struct swgpu_raster_state *d;
	struct rec r;
	int i;

	(void)state;
	fx.fake[0].dynamic_mask = ~0ull;
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(0));
	icd_CmdSetViewportWithCount(cb, 2, vp);
	icd_CmdSetScissorWithCount(cb, 2, sc);
	icd_CmdSetLineWidth(cb, 1.0f);
	icd_CmdSetDepthBias(cb, 1.5f, 0.25f, -2.0f);
	icd_CmdSetBlendConstants(cb, bc);
	icd_CmdSetDepthBounds(cb, 0.125f, 0.875f);
	icd_CmdSetStencilCompareMask(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0xf0);
	icd_CmdSetStencilWriteMask(cb, VK_STENCIL_FACE_BACK_BIT, 0x0f);
	icd_CmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_BIT, 0x42);
	icd_CmdSetCullMode(cb, VK_CULL_MODE_FRONT_AND_BACK);
	icd_CmdSetFrontFace(cb, VK_FRONT_FACE_CLOCKWISE);
	icd_CmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
	icd_CmdSetDepthTestEnable(cb, VK_TRUE);
	icd_CmdSetDepthWriteEnable(cb, VK_TRUE);
	icd_CmdSetDepthCompareOp(cb, VK_COMPARE_OP_GREATER_OR_EQUAL);
	icd_CmdSetDepthBoundsTestEnable(cb, VK_TRUE);
	icd_CmdSetStencilTestEnable(cb, VK_TRUE);
	icd_CmdSetStencilOp(cb, VK_STENCIL_FACE_BACK_BIT,
	                    VK_STENCIL_OP_INCREMENT_AND_WRAP,
	                    VK_STENCIL_OP_INVERT, VK_STENCIL_OP_ZERO,
	                    VK_COMPARE_OP_NOT_EQUAL);
	icd_CmdSetRasterizerDiscardEnable(cb, VK_TRUE);
	icd_CmdSetDepthBiasEnable(cb, VK_TRUE);
	icd_CmdSetPrimitiveRestartEnable(cb, VK_TRUE);
	icd_CmdSetLogicOpEXT(cb, VK_LOGIC_OP_XOR);
	icd_CmdSetColorWriteEnableEXT(cb, 3, cw);
	icd_CmdDraw(cb, 3, 1, 0, 0);
	icd_CmdEndRendering(cb);
	fx.fake[0].dynamic_mask = SWGPU_DYN_VIEWPORT | SWGPU_DYN_SCISSOR;
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	i = rec_find(&r, SWGPU_OP_SET_DYNAMIC, 0);
	assert_true(i > 0);
	d = rec_host(swgpu_pkt_get64(r.pkt[i].p + 1));
	assert_int_equal(d->viewport_count, 2);
	assert_true(d->viewports[1].x == 5 && d->viewports[1].min_depth == 0.5f);
	assert_int_equal(d->scissor_count, 2);
	assert_true(d->scissors[1].y == 3 && d->scissors[1].height == 5);
	assert_true(d->line_width == 1.0f);
	assert_true(d->depth_bias_constant == 1.5f &&
	            d->depth_bias_clamp == 0.25f &&
	            d->depth_bias_slope == -2.0f);
	assert_memory_equal(d->blend_constants, bc, sizeof(bc));
	assert_true(d->min_depth_bounds == 0.125f &&
	            d->max_depth_bounds == 0.875f);
	assert_int_equal(d->front.compare_mask, 0xf0);
	assert_int_equal(d->back.compare_mask, 0xf0);
	assert_int_equal(d->front.write_mask, 0);
	assert_int_equal(d->back.write_mask, 0x0f);
	assert_int_equal(d->front.reference, 0x42);
	assert_int_equal(d->back.reference, 0);
	assert_int_equal(d->cull_mode, 3);
	assert_int_equal(d->front_face, 1);
	assert_int_equal(d->topology, SWGPU_TOPOLOGY_LINE_STRIP);
	assert_int_equal(d->depth_test, 1);
	assert_int_equal(d->depth_write, 1);
	assert_int_equal(d->depth_compare, SWGPU_COMPARE_GREATER_OR_EQUAL);
	assert_int_equal(d->depth_bounds_test, 1);
	assert_int_equal(d->stencil_test, 1);
	assert_int_equal(d->back.fail_op, VK_STENCIL_OP_INCREMENT_AND_WRAP);
	assert_int_equal(d->back.pass_op, VK_STENCIL_OP_INVERT);
	assert_int_equal(d->back.depth_fail_op, VK_STENCIL_OP_ZERO);
	assert_int_equal(d->back.compare_op, SWGPU_COMPARE_NOT_EQUAL);
	assert_int_equal(d->front.fail_op, 0);
	assert_int_equal(d->rasterizer_discard, 1);
	assert_int_equal(d->depth_bias_enable, 1);
	assert_int_equal(d->primitive_restart, 1);
	assert_int_equal(d->logic_op, VK_LOGIC_OP_XOR);
	assert_int_equal(d->color_write_enable, 0x5);
	for (size_t k = 0; k < sizeof(d->reserved) / sizeof(d->reserved[0]);
	     k++)
		assert_int_equal(d->reserved[k], 0);
}

/* A graphics pipeline's engine state from its create info. */
void
test_pipeline_state(void **state)
{
	VkVertexInputBindingDescription vb[2] = {
		{ 0, 20, VK_VERTEX_INPUT_RATE_VERTEX },
		{ 3, 8, VK_VERTEX_INPUT_RATE_INSTANCE },
	};
	VkVertexInputAttributeDescription va[3] = {
		{ 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 },
		{ 1, 0, VK_FORMAT_R8G8B8A8_UNORM, 12 },
		{ 5, 3, VK_FORMAT_R32G32_SFLOAT, 0 },
	};
	VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
		.vertexBindingDescriptionCount = 2,
		.pVertexBindingDescriptions = vb,
		.vertexAttributeDescriptionCount = 3,
		.pVertexAttributeDescriptions = va,
	};
	VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
		.primitiveRestartEnable = VK_TRUE,
	};
	VkViewport vps[2] = { { 0, 0, 32, 16, 0, 1 }, { 1, 2, 3, 4, 0, 0.5f } };
	VkRect2D scs[2] = { { { 0, 0 }, { 32, 16 } }, { { 1, 1 }, { 2, 2 } } };
	VkPipelineViewportStateCreateInfo vp = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 2, .pViewports = vps,
		.scissorCount = 2, .pScissors = scs,
	};
	VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.depthClampEnable = VK_TRUE,
		.polygonMode = VK_POLYGON_MODE_LINE,
		.cullMode = VK_CULL_MODE_BACK_BIT,
		.frontFace = VK_FRONT_FACE_CLOCKWISE,
		.depthBiasEnable = VK_TRUE, .depthBiasConstantFactor = 2,
		.depthBiasClamp = 0.5f, .depthBiasSlopeFactor = 3,
		.lineWidth = 1,
	};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
	};
	VkPipelineDepthStencilStateCreateInfo ds = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
		.depthTestEnable = VK_TRUE, .depthWriteEnable = VK_TRUE,
		.depthCompareOp = VK_COMPARE_OP_LESS,
		.stencilTestEnable = VK_TRUE,
		.front = { VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
		           VK_STENCIL_OP_DECREMENT_AND_CLAMP,
		           VK_COMPARE_OP_EQUAL, 0xff, 0x7f, 9 },
		.back = { VK_STENCIL_OP_ZERO, VK_STENCIL_OP_KEEP,
		          VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 1, 2, 3 },
	};
	VkPipelineColorBlendAttachmentState ba[2] = {
		{ VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA,
		  VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
		  VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
		  VK_BLEND_OP_REVERSE_SUBTRACT, 0xf },
		{ VK_FALSE, 0, 0, 0, 0, 0, 0, VK_COLOR_COMPONENT_R_BIT |
		  VK_COLOR_COMPONENT_A_BIT },
	};
	VkPipelineColorBlendStateCreateInfo cbs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.attachmentCount = 2, .pAttachments = ba,
		.blendConstants = { 1, 2, 3, 4 },
	};
	VkDynamicState dyn[3] = { VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT,
	                          VK_DYNAMIC_STATE_STENCIL_REFERENCE,
	                          VK_DYNAMIC_STATE_LOGIC_OP_EXT };
	VkPipelineDynamicStateCreateInfo dy = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
		.dynamicStateCount = 3, .pDynamicStates = dyn,
	};
	VkFormat cf[2] = { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16_SFLOAT };
	VkPipelineRenderingCreateInfo pri = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
		.colorAttachmentCount = 2, .pColorAttachmentFormats = cf,
		.depthAttachmentFormat = VK_FORMAT_D24_UNORM_S8_UINT,
		.stencilAttachmentFormat = VK_FORMAT_D24_UNORM_S8_UINT,
	};
	VkGraphicsPipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.pNext = &pri,
		.pVertexInputState = &vi, .pInputAssemblyState = &ia,
		.pViewportState = &vp, .pRasterizationState = &rs,
		.pMultisampleState = &ms, .pDepthStencilState = &ds,
		.pColorBlendState = &cbs, .pDynamicState = &dy,
		.layout = fx.layout,
	};
	static struct swgpu_pipeline_state ps;
	const struct swgpu_raster_state *st = &ps.state;

	(void)state;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_SUCCESS);
	assert_int_equal(ps.size, sizeof(ps));
	assert_int_equal(ps.dynamic_mask, SWGPU_DYN_VIEWPORT |
	                 SWGPU_DYN_VIEWPORT_COUNT | SWGPU_DYN_STENCIL_REFERENCE |
	                 SWGPU_DYN_LOGIC_OP);
	/* Bindings by number. */
	assert_int_equal(ps.binding_count, 4);
	assert_int_equal(ps.bindings[0].stride, 20);
	assert_int_equal(ps.bindings[0].input_rate, 0);
	assert_int_equal(ps.bindings[3].stride, 8);
	assert_int_equal(ps.bindings[3].input_rate, 1);
	assert_int_equal(ps.bindings[3].divisor, 1);
	assert_int_equal(ps.bindings[1].stride, 0);
	assert_int_equal(ps.attrib_count, 3);
	assert_int_equal(ps.attribs[1].location, 1);
	assert_int_equal(ps.attribs[1].offset, 12);
	assert_int_equal(ps.attribs[1].format,
	                 icd_format_describe(VK_FORMAT_R8G8B8A8_UNORM)
	                 ->swgpu_format);
	assert_int_equal(ps.attribs[2].binding, 3);
	assert_int_equal(ps.attribs[2].location, 5);
	assert_int_equal(st->topology, SWGPU_TOPOLOGY_TRIANGLE_STRIP);
	assert_int_equal(st->primitive_restart, 1);
	assert_int_equal(st->polygon_mode, VK_POLYGON_MODE_LINE);
	assert_int_equal(st->cull_mode, 2);
	assert_int_equal(st->front_face, 1);
	assert_int_equal(st->depth_clamp, 1);
	assert_true(st->depth_bias_enable && st->depth_bias_constant == 2 &&
	            st->depth_bias_clamp == 0.5f &&
	            st->depth_bias_slope == 3);
	assert_int_equal(st->viewport_count, 2);
	assert_int_equal(st->scissor_count, 2);
	/* Dynamic viewports are not taken from the create info. */
	assert_true(st->viewports[1].width == 0);
	assert_true(st->scissors[1].x == 1 && st->scissors[1].width == 2);
	assert_int_equal(st->depth_test, 1);
	assert_int_equal(st->depth_write, 1);
	assert_int_equal(st->depth_compare, SWGPU_COMPARE_LESS);
	assert_int_equal(st->stencil_test, 1);
	assert_int_equal(st->front.pass_op, VK_STENCIL_OP_REPLACE);
	assert_int_equal(st->front.depth_fail_op,
	                 VK_STENCIL_OP_DECREMENT_AND_CLAMP);
	assert_int_equal(st->front.compare_op, SWGPU_COMPARE_EQUAL);
	assert_int_equal(st->front.write_mask, 0x7f);
	assert_int_equal(st->front.reference, 9);
	assert_int_equal(st->back.fail_op, VK_STENCIL_OP_ZERO);
	assert_int_equal(st->back.reference, 3);
	assert_int_equal(st->blend[0].enable, 1);
	assert_int_equal(st->blend[0].src_color, VK_BLEND_FACTOR_SRC_ALPHA);
	assert_int_equal(st->blend[0].dst_color,
	                 VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
	assert_int_equal(st->blend[0].alpha_op, VK_BLEND_OP_REVERSE_SUBTRACT);
	assert_int_equal(st->blend[0].write_mask, 0xf);
	assert_int_equal(st->blend[1].enable, 0);
	assert_int_equal(st->blend[1].write_mask, 0x9);
	assert_true(st->blend_constants[3] == 4);
	assert_int_equal(st->color_write_enable, 0xff);
	assert_int_equal(st->alpha_to_coverage, 0);
	assert_int_equal(st->alpha_to_one, 0);
	/* Alpha to coverage and to one reach the engine's state. */
	ms.alphaToCoverageEnable = VK_TRUE;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_SUCCESS);
	assert_int_equal(st->alpha_to_coverage, 1);
	assert_int_equal(st->alpha_to_one, 0);
	ms.alphaToOneEnable = VK_TRUE;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_SUCCESS);
	assert_int_equal(st->alpha_to_one, 1);
	ms.alphaToCoverageEnable = VK_FALSE;
	ms.alphaToOneEnable = VK_FALSE;

	/* Without a depth/stencil attachment the tests are off. */
	pri.depthAttachmentFormat = VK_FORMAT_UNDEFINED;
	pri.stencilAttachmentFormat = VK_FORMAT_UNDEFINED;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_SUCCESS);
	assert_int_equal(st->depth_test, 0);
	assert_int_equal(st->stencil_test, 0);
	/* Static rasterizer discard: the ignored state is never read. */
	rs.rasterizerDiscardEnable = VK_TRUE;
	ci.pViewportState = (const void *)(uintptr_t)8;
	ci.pMultisampleState = (const void *)(uintptr_t)8;
	ci.pDepthStencilState = (const void *)(uintptr_t)8;
	ci.pColorBlendState = (const void *)(uintptr_t)8;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_SUCCESS);
	assert_int_equal(st->rasterizer_discard, 1);
	ci.pViewportState = &vp;
	ci.pMultisampleState = &ms;
	ci.pDepthStencilState = &ds;
	ci.pColorBlendState = &cbs;
	rs.rasterizerDiscardEnable = VK_FALSE;
	/* 4 samples reach the engine; 16 are not offered, nor a dynamic
	 * state of an extension. */
	ms.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_SUCCESS);
	assert_int_equal(st->rasterization_samples, 4);
	assert_int_equal(st->sample_mask, 0xffffffffu);
	ms.rasterizationSamples = VK_SAMPLE_COUNT_16_BIT;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_ERROR_FEATURE_NOT_PRESENT);
	ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	dyn[2] = VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT;
	assert_int_equal(icd_graphics_pipeline_fill_state(&ps, &ci),
	                 VK_ERROR_FEATURE_NOT_PRESENT);
}

void
test_occlusion_query(void **state)
{
	VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_OCCLUSION, .queryCount = 4,
	};
	VkQueryPool pool;
	VkCommandBuffer cb;
	struct rec r;
	int b, e;

	(void)state;
	assert_int_equal(icd_CreateQueryPool(fx.device, &qci, NULL, &pool),
	                 VK_SUCCESS);
	cb = begin_rendering();
	icd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fake(1));
	icd_CmdBeginQuery(cb, pool, 2, VK_QUERY_CONTROL_PRECISE_BIT);
	icd_CmdDraw(cb, 3, 1, 0, 0);
	icd_CmdEndQuery(cb, pool, 2);
	icd_CmdBeginQuery(cb, pool, 3, 0);
	icd_CmdEndQuery(cb, pool, 3);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	b = rec_find(&r, SWGPU_OP_QUERY_BEGIN, 0);
	e = rec_find(&r, SWGPU_OP_QUERY_END, 0);
	assert_true(b > 0 && e > b && rec_find(&r, SWGPU_OP_DRAW, b) < e);
	assert_int_equal(r.pkt[b].flags, SWGPU_QUERY_PRECISE);
	uint64_t result = swgpu_pkt_get64(r.pkt[b].p + 1);
	assert_int_equal(swgpu_pkt_get64(r.pkt[e].p + 1), result);
	/* Availability after the count: the pool's second half. */
	assert_int_equal(r.pkt[e + 1].op, SWGPU_OP_SEM_SIGNAL);
	assert_int_equal(swgpu_pkt_get64(r.pkt[e + 1].p + 1), result + 4 * 8);
	assert_int_equal(swgpu_pkt_get64(r.pkt[e + 1].p + 3), 1);
	b = rec_find(&r, SWGPU_OP_QUERY_BEGIN, b + 1);
	assert_int_equal(r.pkt[b].flags, 0);
	assert_int_equal(swgpu_pkt_get64(r.pkt[b].p + 1), result + 8);
	icd_DestroyQueryPool(fx.device, pool, NULL);
}
