/* SPDX-License-Identifier: MIT */
/*
 * cmd_dynamic.c — the dynamic state commands (every vkCmdSet* core in
 * Vulkan 1.3, extended dynamic state 1 and 2 included, plus
 * vkCmdSetLogicOpEXT and vkCmdSetColorWriteEnableEXT).
 *
 * Each one stores its values into the command buffer's copy of
 * struct swgpu_raster_state (cmd_gfx.h) and marks it changed; the next
 * draw whose pipeline has dynamic state sends it with SET_DYNAMIC. The
 * engine takes from it exactly the fields the bound pipeline declares
 * dynamic (swgpu_pipeline_state.dynamic_mask), so values set for state a
 * pipeline has static are harmless.
 */
#include "cmd_gfx.h"

/* The dynamic state of cb, marked changed; NULL after a recording
 * error. */
static struct swgpu_raster_state *
dyn(VkCommandBuffer commandBuffer)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = icd_cmd_gfx(cb);

	if (!g)
		return NULL;
	g->dyn_dirty = true;
	return &g->dyn;
}

static void
set_viewports(struct swgpu_raster_state *d, uint32_t first, uint32_t n,
              const VkViewport *v)
{
	for (uint32_t i = 0; i < n && first + i < SWGPU_GFX_MAX_VIEWPORTS;
	     i++)
		d->viewports[first + i] = (struct swgpu_viewport){
			v[i].x, v[i].y, v[i].width, v[i].height,
			v[i].minDepth, v[i].maxDepth };
}

static void
set_scissors(struct swgpu_raster_state *d, uint32_t first, uint32_t n,
             const VkRect2D *r)
{
	for (uint32_t i = 0; i < n && first + i < SWGPU_GFX_MAX_VIEWPORTS;
	     i++)
		d->scissors[first + i] = (struct swgpu_scissor){
			r[i].offset.x, r[i].offset.y, r[i].extent.width,
			r[i].extent.height };
}

void
icd_CmdSetViewport(VkCommandBuffer commandBuffer, uint32_t first,
                   uint32_t count, const VkViewport *pViewports)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		set_viewports(d, first, count, pViewports);
}

void
icd_CmdSetViewportWithCount(VkCommandBuffer commandBuffer, uint32_t count,
                            const VkViewport *pViewports)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (!d)
		return;
	d->viewport_count = count;
	set_viewports(d, 0, count, pViewports);
}

void
icd_CmdSetScissor(VkCommandBuffer commandBuffer, uint32_t first,
                  uint32_t count, const VkRect2D *pScissors)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		set_scissors(d, first, count, pScissors);
}

void
icd_CmdSetScissorWithCount(VkCommandBuffer commandBuffer, uint32_t count,
                           const VkRect2D *pScissors)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (!d)
		return;
	d->scissor_count = count;
	set_scissors(d, 0, count, pScissors);
}

void
icd_CmdSetLineWidth(VkCommandBuffer commandBuffer, float lineWidth)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->line_width = lineWidth;
}

void
icd_CmdSetDepthBias(VkCommandBuffer commandBuffer, float constant,
                    float clamp, float slope)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (!d)
		return;
	d->depth_bias_constant = constant;
	d->depth_bias_clamp = clamp;
	d->depth_bias_slope = slope;
}

void
icd_CmdSetBlendConstants(VkCommandBuffer commandBuffer,
                         const float blendConstants[4])
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		memcpy(d->blend_constants, blendConstants,
		       sizeof(d->blend_constants));
}

void
icd_CmdSetDepthBounds(VkCommandBuffer commandBuffer, float minDepthBounds,
                      float maxDepthBounds)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (!d)
		return;
	d->min_depth_bounds = minDepthBounds;
	d->max_depth_bounds = maxDepthBounds;
}

/* The stencil faces a face mask names, into f[]; their count. */
static uint32_t
faces(struct swgpu_raster_state *d, VkStencilFaceFlags mask,
      struct swgpu_stencil_face *f[2])
{
	uint32_t n = 0;

	if (mask & VK_STENCIL_FACE_FRONT_BIT)
		f[n++] = &d->front;
	if (mask & VK_STENCIL_FACE_BACK_BIT)
		f[n++] = &d->back;
	return n;
}

void
icd_CmdSetStencilCompareMask(VkCommandBuffer commandBuffer,
                             VkStencilFaceFlags faceMask, uint32_t mask)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);
	struct swgpu_stencil_face *f[2];
	uint32_t n;

	if (!d)
		return;
	n = faces(d, faceMask, f);
	for (uint32_t i = 0; i < n; i++)
		f[i]->compare_mask = mask;
}

void
icd_CmdSetStencilWriteMask(VkCommandBuffer commandBuffer,
                           VkStencilFaceFlags faceMask, uint32_t mask)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);
	struct swgpu_stencil_face *f[2];
	uint32_t n;

	if (!d)
		return;
	n = faces(d, faceMask, f);
	for (uint32_t i = 0; i < n; i++)
		f[i]->write_mask = mask;
}

void
icd_CmdSetStencilReference(VkCommandBuffer commandBuffer,
                           VkStencilFaceFlags faceMask, uint32_t reference)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);
	struct swgpu_stencil_face *f[2];
	uint32_t n;

	if (!d)
		return;
	n = faces(d, faceMask, f);
	for (uint32_t i = 0; i < n; i++)
		f[i]->reference = reference;
}

void
icd_CmdSetStencilOp(VkCommandBuffer commandBuffer, VkStencilFaceFlags faceMask,
                    VkStencilOp failOp, VkStencilOp passOp,
                    VkStencilOp depthFailOp, VkCompareOp compareOp)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);
	struct swgpu_stencil_face *f[2];
	uint32_t n;

	if (!d)
		return;
	n = faces(d, faceMask, f);
	for (uint32_t i = 0; i < n; i++) {
		f[i]->fail_op = (uint32_t)failOp;
		f[i]->pass_op = (uint32_t)passOp;
		f[i]->depth_fail_op = (uint32_t)depthFailOp;
		f[i]->compare_op = (uint32_t)compareOp;
	}
}

void
icd_CmdSetCullMode(VkCommandBuffer commandBuffer, VkCullModeFlags cullMode)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->cull_mode = cullMode;
}

void
icd_CmdSetFrontFace(VkCommandBuffer commandBuffer, VkFrontFace frontFace)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->front_face = (uint32_t)frontFace;
}

void
icd_CmdSetPrimitiveTopology(VkCommandBuffer commandBuffer,
                            VkPrimitiveTopology topology)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->topology = (uint32_t)topology;
}

void
icd_CmdSetDepthTestEnable(VkCommandBuffer commandBuffer, VkBool32 enable)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->depth_test = enable != VK_FALSE;
}

void
icd_CmdSetDepthWriteEnable(VkCommandBuffer commandBuffer, VkBool32 enable)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->depth_write = enable != VK_FALSE;
}

void
icd_CmdSetDepthCompareOp(VkCommandBuffer commandBuffer, VkCompareOp op)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->depth_compare = (uint32_t)op;
}

void
icd_CmdSetDepthBoundsTestEnable(VkCommandBuffer commandBuffer,
                                VkBool32 enable)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->depth_bounds_test = enable != VK_FALSE;
}

void
icd_CmdSetStencilTestEnable(VkCommandBuffer commandBuffer, VkBool32 enable)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->stencil_test = enable != VK_FALSE;
}

void
icd_CmdSetRasterizerDiscardEnable(VkCommandBuffer commandBuffer,
                                  VkBool32 enable)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->rasterizer_discard = enable != VK_FALSE;
}

void
icd_CmdSetDepthBiasEnable(VkCommandBuffer commandBuffer, VkBool32 enable)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->depth_bias_enable = enable != VK_FALSE;
}

void
icd_CmdSetPrimitiveRestartEnable(VkCommandBuffer commandBuffer,
                                 VkBool32 enable)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->primitive_restart = enable != VK_FALSE;
}

void
icd_CmdSetLogicOpEXT(VkCommandBuffer commandBuffer, VkLogicOp logicOp)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (d)
		d->logic_op = (uint32_t)logicOp;
}

void
icd_CmdSetColorWriteEnableEXT(VkCommandBuffer commandBuffer,
                              uint32_t attachmentCount,
                              const VkBool32 *pColorWriteEnables)
{
	struct swgpu_raster_state *d = dyn(commandBuffer);

	if (!d)
		return;
	d->color_write_enable = 0;
	for (uint32_t i = 0; i < attachmentCount &&
	     i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS; i++)
		if (pColorWriteEnables[i])
			d->color_write_enable |= 1u << i;
}
