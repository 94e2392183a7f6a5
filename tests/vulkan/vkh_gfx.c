/* SPDX-License-Identifier: MIT */
/*
 * vkh_gfx: graphics helpers (images, buffers, pipelines, rendering,
 * read-back). The scene runner is vkh_gfx_scene.c. See vkh_gfx.h.
 */
#include "vkh_gfx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Formats                                                             */
/* ------------------------------------------------------------------ */

static uint32_t
format_size(VkFormat f)
{
	switch (f) {
	case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_SNORM:
	case VK_FORMAT_R8_UINT: case VK_FORMAT_R8_SINT:
	case VK_FORMAT_R8_SRGB: case VK_FORMAT_S8_UINT:
		return 1;
	case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_SNORM:
	case VK_FORMAT_R8G8_UINT: case VK_FORMAT_R8G8_SINT:
	case VK_FORMAT_R16_UNORM: case VK_FORMAT_R16_SNORM:
	case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT:
	case VK_FORMAT_R16_SFLOAT: case VK_FORMAT_R5G6B5_UNORM_PACK16:
	case VK_FORMAT_A1R5G5B5_UNORM_PACK16: case VK_FORMAT_D16_UNORM:
	case VK_FORMAT_B4G4R4A4_UNORM_PACK16:
		return 2;
	case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R16G16B16A16_SNORM:
	case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT:
	case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R32G32_UINT:
	case VK_FORMAT_R32G32_SINT: case VK_FORMAT_R32G32_SFLOAT:
		return 8;
	case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT:
	case VK_FORMAT_R32G32B32A32_SFLOAT:
		return 16;
	default:
		/* RGBA8 orders, 10:10:10:2, R16G16, R32, D32, X8_D24. */
		return 4;
	}
}



static VkImageAspectFlags
format_aspects(VkFormat f)
{
	switch (f) {
	case VK_FORMAT_D16_UNORM: case VK_FORMAT_X8_D24_UNORM_PACK32:
	case VK_FORMAT_D32_SFLOAT:
		return VK_IMAGE_ASPECT_DEPTH_BIT;
	case VK_FORMAT_S8_UINT:
		return VK_IMAGE_ASPECT_STENCIL_BIT;
	case VK_FORMAT_D16_UNORM_S8_UINT: case VK_FORMAT_D24_UNORM_S8_UINT:
	case VK_FORMAT_D32_SFLOAT_S8_UINT:
		return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
	default:
		return VK_IMAGE_ASPECT_COLOR_BIT;
	}
}


/* ------------------------------------------------------------------ */
/* Objects                                                             */
/* ------------------------------------------------------------------ */

bool
gfx_has_graphics(const struct vkh *h)
{
	for (uint32_t f = 0; f < h->family_count; f++)
		if (h->families[f].queueFlags & VK_QUEUE_GRAPHICS_BIT)
			return true;
	return false;
}

VkCommandBuffer
gfx_begin(struct gfx_ctx *c)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = c->pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VkCommandBuffer cb;

	if (vkAllocateCommandBuffers(c->dev, &ai, &cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	vkBeginCommandBuffer(cb, &bi);
	return cb;
}

bool
gfx_submit(struct gfx_ctx *c, VkCommandBuffer cb)
{
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1, .pCommandBuffers = &cb,
	};
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;
	VkResult r;

	r = vkEndCommandBuffer(cb);
	if (r == VK_SUCCESS)
		r = vkCreateFence(c->dev, &fci, NULL, &fence);
	if (r == VK_SUCCESS) {
		r = vkQueueSubmit(c->queue, 1, &si, fence);
		if (r == VK_SUCCESS)
			r = vkWaitForFences(c->dev, 1, &fence, VK_TRUE,
			                    VKH_TIMEOUT_NS);
		vkDestroyFence(c->dev, fence, NULL);
	}
	vkFreeCommandBuffers(c->dev, c->pool, 1, &cb);
	if (r != VK_SUCCESS) {
		vkh_fail(c->h, __FILE__, __LINE__, "%s: submit: %s", c->driver,
		         vkh_result_str(r));
		return false;
	}
	return true;
}

void
gfx_barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier2 mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT |
		                 VK_ACCESS_2_MEMORY_WRITE_BIT,
	};
	VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.memoryBarrierCount = 1, .pMemoryBarriers = &mb,
	};

	vkCmdPipelineBarrier2(cb, &di);
}

VkImageView
gfx_view(struct gfx_ctx *c, const struct gfx_image *img, uint32_t layer,
         VkImageAspectFlags aspects)
{
	VkImageViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = img->image, .viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = img->format,
		.subresourceRange = { aspects ? aspects : img->aspects, 0, 1,
		                      layer, 1 },
	};
	VkImageView v;

	if (vkCreateImageView(c->dev, &ci, NULL, &v) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return v;
}

bool
gfx_image(struct gfx_ctx *c, VkFormat format, uint32_t w, uint32_t h,
          uint32_t layers, VkImageUsageFlags usage, struct gfx_image *out)
{
	return gfx_image_ms(c, format, w, h, layers, VK_SAMPLE_COUNT_1_BIT,
	                    usage, out);
}

bool
gfx_image_ms(struct gfx_ctx *c, VkFormat format, uint32_t w, uint32_t h,
             uint32_t layers, VkSampleCountFlagBits samples,
             VkImageUsageFlags usage, struct gfx_image *out)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D, .format = format,
		.extent = { w, h, 1 }, .mipLevels = 1, .arrayLayers = layers,
		.samples = samples,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	VkMemoryRequirements req;
	VkCommandBuffer cb;
	int type;

	memset(out, 0, sizeof(*out));
	out->format = format;
	out->aspects = format_aspects(format);
	out->w = w;
	out->h = h;
	out->layers = layers;
	if (vkCreateImage(c->dev, &ci, NULL, &out->image) != VK_SUCCESS)
		goto fail;
	vkGetImageMemoryRequirements(c->dev, out->image, &req);
	type = vkh_memtype_device_local(c->h, req.memoryTypeBits);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size, .memoryTypeIndex = (uint32_t)type,
	};
	if (type < 0 ||
	    vkAllocateMemory(c->dev, &mai, NULL, &out->mem) != VK_SUCCESS ||
	    vkBindImageMemory(c->dev, out->image, out->mem, 0) != VK_SUCCESS)
		goto fail;
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = out->image,
		.viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY :
		                         VK_IMAGE_VIEW_TYPE_2D,
		.format = format,
		.subresourceRange = { out->aspects, 0, 1, 0, layers },
	};
	if (vkCreateImageView(c->dev, &vci, NULL, &out->view) != VK_SUCCESS)
		goto fail;
	/* Once into GENERAL, where it stays. */
	VkImageMemoryBarrier2 ib = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_NONE,
		.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT |
		                 VK_ACCESS_2_MEMORY_WRITE_BIT,
		.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		.newLayout = VK_IMAGE_LAYOUT_GENERAL,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = out->image,
		.subresourceRange = { out->aspects, 0, 1, 0, layers },
	};
	VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &ib,
	};
	cb = gfx_begin(c);
	if (!cb)
		goto fail;
	vkCmdPipelineBarrier2(cb, &di);
	return gfx_submit(c, cb);
fail:
	vkh_fail(c->h, __FILE__, __LINE__, "%s: image of format %d",
	         c->driver, format);
	gfx_image_destroy(c, out);
	return false;
}

void
gfx_image_destroy(struct gfx_ctx *c, struct gfx_image *img)
{
	vkDestroyImageView(c->dev, img->view, NULL);
	vkDestroyImage(c->dev, img->image, NULL);
	vkFreeMemory(c->dev, img->mem, NULL);
	memset(img, 0, sizeof(*img));
}

bool
gfx_buffer(struct gfx_ctx *c, VkBufferUsageFlags usage, const void *data,
           VkDeviceSize size, struct vkh_buffer *out)
{
	if (vkh_buffer_create(c->h, c->d, size, usage, VKH_MEM_UPLOAD, -1,
	                      out) != VK_SUCCESS || !out->map) {
		vkh_fail(c->h, __FILE__, __LINE__, "%s: buffer", c->driver);
		return false;
	}
	if (data)
		memcpy(out->map, data, size);
	else
		memset(out->map, 0, size);
	return true;
}

VkShaderModule
gfx_shader(struct gfx_ctx *c, const uint32_t *spv, size_t size)
{
	VkShaderModuleCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = size, .pCode = spv,
	};
	VkShaderModule m;

	if (vkCreateShaderModule(c->dev, &ci, NULL, &m) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return m;
}

/* ------------------------------------------------------------------ */
/* Pipelines                                                           */
/* ------------------------------------------------------------------ */

void
gfx_pipe_init(struct gfx_pipe *p, VkShaderModule vs, VkShaderModule fs,
              VkFormat format, uint32_t w, uint32_t h)
{
	memset(p, 0, sizeof(*p));
	p->vs = vs;
	p->fs = fs;
	p->topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	p->rs = (VkPipelineRasterizationStateCreateInfo){
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.polygonMode = VK_POLYGON_MODE_FILL,
		.cullMode = VK_CULL_MODE_NONE,
		.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
		.lineWidth = 1.0f,
	};
	p->ds = (VkPipelineDepthStencilStateCreateInfo){
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
		.depthCompareOp = VK_COMPARE_OP_ALWAYS,
		.maxDepthBounds = 1.0f,
	};
	p->ncolor = format != VK_FORMAT_UNDEFINED;
	p->color_formats[0] = format;
	for (int i = 0; i < 8; i++)
		p->blend[i].colorWriteMask = 0xf;
	p->nviewports = 1;
	p->viewports[0] = (VkViewport){ 0, 0, (float)w, (float)h, 0, 1 };
	p->scissors[0] = (VkRect2D){ { 0, 0 }, { w, h } };
}

/* One default layout per device, kept in a small table (the tests run
 * on at most a few devices at once). */
static struct {
	VkDevice dev;
	VkPipelineLayout layout;
} layouts[8];

VkPipelineLayout
gfx_default_layout(struct gfx_ctx *c)
{
	VkPushConstantRange pcr = {
		VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
		128 };
	VkPipelineLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	unsigned i;

	for (i = 0; i < 8 && layouts[i].dev; i++)
		if (layouts[i].dev == c->dev)
			return layouts[i].layout;
	if (i == 8)
		return VK_NULL_HANDLE;
	if (vkCreatePipelineLayout(c->dev, &ci, NULL, &layouts[i].layout) !=
	    VK_SUCCESS)
		return VK_NULL_HANDLE;
	layouts[i].dev = c->dev;
	return layouts[i].layout;
}

void
gfx_forget_layout(VkDevice dev)
{
	for (unsigned i = 0; i < 8; i++)
		if (layouts[i].dev == dev) {
			vkDestroyPipelineLayout(dev, layouts[i].layout, NULL);
			layouts[i].dev = VK_NULL_HANDLE;
		}
}

VkPipeline
gfx_pipeline(struct gfx_ctx *c, const struct gfx_pipe *p)
{
	VkPipelineShaderStageCreateInfo st[2] = {
		{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		  .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = p->vs,
		  .pName = "main" },
		{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		  .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = p->fs,
		  .pName = "main" },
	};
	VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
		.pNext = p->vertex_input_next,
		.vertexBindingDescriptionCount = p->nbindings,
		.pVertexBindingDescriptions = p->bindings,
		.vertexAttributeDescriptionCount = p->nattribs,
		.pVertexAttributeDescriptions = p->attribs,
	};
	VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = p->topology,
		.primitiveRestartEnable = p->restart,
	};
	VkPipelineViewportStateCreateInfo vp = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = p->nviewports, .pViewports = p->viewports,
		.scissorCount = p->nviewports, .pScissors = p->scissors,
	};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = p->samples ? p->samples
		                                   : VK_SAMPLE_COUNT_1_BIT,
		.pSampleMask = p->sample_mask,
		.sampleShadingEnable = p->min_sample_shading > 0.0f,
		.minSampleShading = p->min_sample_shading,
		.alphaToCoverageEnable = p->alpha_to_coverage,
		.alphaToOneEnable = p->alpha_to_one,
	};
	VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.pNext = p->blend_next,
		.logicOpEnable = p->logic_op_enable, .logicOp = p->logic_op,
		.attachmentCount = p->ncolor, .pAttachments = p->blend,
	};
	VkPipelineDynamicStateCreateInfo dy = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
		.dynamicStateCount = p->ndynamic, .pDynamicStates = p->dynamic,
	};
	VkPipelineRenderingCreateInfo ri = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
		.viewMask = p->view_mask,
		.colorAttachmentCount = p->ncolor,
		.pColorAttachmentFormats = p->color_formats,
		.depthAttachmentFormat = p->depth_format,
		.stencilAttachmentFormat = p->stencil_format,
	};
	VkGraphicsPipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.pNext = p->render_pass ? NULL : &ri,
		.stageCount = p->fs ? 2 : 1, .pStages = st,
		.pVertexInputState = &vi, .pInputAssemblyState = &ia,
		.pViewportState = &vp, .pRasterizationState = &p->rs,
		.pMultisampleState = &ms, .pDepthStencilState = &p->ds,
		.pColorBlendState = &cb, .pDynamicState = &dy,
		.layout = p->layout ? p->layout : gfx_default_layout(c),
		.renderPass = p->render_pass, .subpass = p->subpass,
	};
	VkPipeline pipe;
	VkResult r;

	memcpy(cb.blendConstants, p->blend_constants,
	       sizeof(cb.blendConstants));
	for (uint32_t i = 0; i < p->ndynamic; i++) {
		/* With a count, the create info's count must be 0. */
		if (p->dynamic[i] == VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT)
			vp.viewportCount = 0;
		if (p->dynamic[i] == VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT)
			vp.scissorCount = 0;
	}
	r = vkCreateGraphicsPipelines(c->dev, VK_NULL_HANDLE, 1, &ci, NULL,
	                              &pipe);
	if (r != VK_SUCCESS) {
		vkh_fail(c->h, __FILE__, __LINE__,
		         "%s: vkCreateGraphicsPipelines: %s", c->driver,
		         vkh_result_str(r));
		return VK_NULL_HANDLE;
	}
	return pipe;
}

/* ------------------------------------------------------------------ */
/* Rendering and read-back                                             */
/* ------------------------------------------------------------------ */

void
gfx_begin_rendering(VkCommandBuffer cb, const struct gfx_image *color,
                    const VkClearColorValue *clear,
                    const struct gfx_image *ds, bool clear_ds, float depth,
                    uint32_t stencil)
{
	VkRenderingAttachmentInfo ca = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = color ? color->view : VK_NULL_HANDLE,
		.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR :
		                  VK_ATTACHMENT_LOAD_OP_LOAD,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
	};
	VkRenderingAttachmentInfo da = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = ds ? ds->view : VK_NULL_HANDLE,
		.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = clear_ds ? VK_ATTACHMENT_LOAD_OP_CLEAR :
		                     VK_ATTACHMENT_LOAD_OP_LOAD,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.clearValue = { .depthStencil = { depth, stencil } },
	};
	const struct gfx_image *any = color ? color : ds;
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = { { 0, 0 }, { any->w, any->h } },
		.layerCount = 1,
		.colorAttachmentCount = color ? 1 : 0,
		.pColorAttachments = &ca,
		.pDepthAttachment = ds && (ds->aspects &
		                           VK_IMAGE_ASPECT_DEPTH_BIT) ? &da : NULL,
		.pStencilAttachment = ds && (ds->aspects &
		                             VK_IMAGE_ASPECT_STENCIL_BIT) ? &da :
		                                                            NULL,
	};

	if (clear)
		ca.clearValue.color = *clear;
	vkCmdBeginRendering(cb, &ri);
}

/* Every write before -> the copies after, in TRANSFER_SRC_OPTIMAL (and
 * back to GENERAL with to_general). */
static void
read_layouts(VkCommandBuffer cb, const struct gfx_image *color,
             const struct gfx_image *ds, bool to_general)
{
	const struct gfx_image *img[2] = { color, ds };
	VkImageMemoryBarrier2 ib[2];
	uint32_t n = 0;

	for (int i = 0; i < 2; i++) {
		if (!img[i])
			continue;
		ib[n++] = (VkImageMemoryBarrier2){
			.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
			.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
			.srcAccessMask = to_general ? 0 :
			                 VK_ACCESS_2_MEMORY_WRITE_BIT,
			.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
			.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT |
			                 VK_ACCESS_2_MEMORY_WRITE_BIT,
			.oldLayout = to_general ?
			             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL :
			             VK_IMAGE_LAYOUT_GENERAL,
			.newLayout = to_general ? VK_IMAGE_LAYOUT_GENERAL :
			             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.image = img[i]->image,
			.subresourceRange = { img[i]->aspects, 0, 1, 0,
			                      img[i]->layers },
		};
	}
	VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.imageMemoryBarrierCount = n, .pImageMemoryBarriers = ib,
	};
	vkCmdPipelineBarrier2(cb, &di);
}

bool
gfx_read(struct gfx_ctx *c, const struct gfx_image *color,
         const struct gfx_image *ds, struct gfx_out *o)
{
	return gfx_read_layer(c, color, ds, 0, o);
}

bool
gfx_read_layer(struct gfx_ctx *c, const struct gfx_image *color,
               const struct gfx_image *ds, uint32_t layer,
               struct gfx_out *o)
{
	const uint32_t w = color ? color->w : ds->w;
	const uint32_t h = color ? color->h : ds->h;
	const uint32_t texel = color ? format_size(color->format) : 0;
	const VkDeviceSize csize = (VkDeviceSize)w * h * texel;
	const VkDeviceSize dsize = (VkDeviceSize)w * h * 4;
	const VkDeviceSize ssize = (VkDeviceSize)w * h;
	struct vkh_buffer buf;
	VkCommandBuffer cb;
	bool ok;

	if (vkh_buffer_create(c->h, c->d, csize + dsize + ssize + 16,
	                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                      VKH_MEM_READBACK, -1, &buf) != VK_SUCCESS) {
		vkh_fail(c->h, __FILE__, __LINE__, "readback buffer");
		return false;
	}
	cb = gfx_begin(c);
	read_layouts(cb, color, ds, false);
	if (color) {
		VkBufferImageCopy r = {
			.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0,
			                      layer, 1 },
			.imageExtent = { w, h, 1 },
		};
		vkCmdCopyImageToBuffer(cb, color->image,
		                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		                       buf.buffer, 1, &r);
	}
	if (ds && (ds->aspects & VK_IMAGE_ASPECT_DEPTH_BIT)) {
		VkBufferImageCopy r = {
			.bufferOffset = csize,
			.imageSubresource = { VK_IMAGE_ASPECT_DEPTH_BIT, 0,
			                      layer, 1 },
			.imageExtent = { w, h, 1 },
		};
		vkCmdCopyImageToBuffer(cb, ds->image,
		                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		                       buf.buffer, 1, &r);
	}
	if (ds && (ds->aspects & VK_IMAGE_ASPECT_STENCIL_BIT)) {
		VkBufferImageCopy r = {
			.bufferOffset = csize + dsize,
			.imageSubresource = { VK_IMAGE_ASPECT_STENCIL_BIT, 0,
			                      layer, 1 },
			.imageExtent = { w, h, 1 },
		};
		vkCmdCopyImageToBuffer(cb, ds->image,
		                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		                       buf.buffer, 1, &r);
	}
	vkh_cmd_host_barrier(cb);
	read_layouts(cb, color, ds, true);
	ok = gfx_submit(c, cb);
	if (ok) {
		const uint8_t *p = buf.map;

		vkh_buffer_invalidate(c->h, c->d, &buf);
		o->w = w;
		o->h = h;
		if (color) {
			o->format = color->format;
			o->texel = texel;
			o->color = malloc(csize);
			memcpy(o->color, p, csize);
		}
		if (ds && (ds->aspects & VK_IMAGE_ASPECT_DEPTH_BIT)) {
			o->depth = malloc(w * h * sizeof(float));
			for (uint32_t i = 0; i < w * h; i++) {
				uint32_t v;
				uint16_t v16;

				switch (ds->format) {
				case VK_FORMAT_D16_UNORM:
				case VK_FORMAT_D16_UNORM_S8_UINT:
					memcpy(&v16, p + csize + 2 * i, 2);
					o->depth[i] = v16 / 65535.0f;
					break;
				case VK_FORMAT_D32_SFLOAT:
				case VK_FORMAT_D32_SFLOAT_S8_UINT:
					memcpy(&o->depth[i], p + csize + 4 * i,
					       4);
					break;
				default:
					memcpy(&v, p + csize + 4 * i, 4);
					o->depth[i] = (v & 0xffffff) /
					              16777215.0f;
					break;
				}
			}
		}
		if (ds && (ds->aspects & VK_IMAGE_ASPECT_STENCIL_BIT)) {
			o->stencil = malloc(ssize);
			memcpy(o->stencil, p + csize + dsize, ssize);
		}
	}
	vkh_buffer_destroy(c->d, &buf);
	return ok;
}

