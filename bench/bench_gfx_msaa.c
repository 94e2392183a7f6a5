/* SPDX-License-Identifier: MIT */
/*
 * bench_gfx_msaa: the multisampled graphics figure (issue 21 item 5).
 *
 *   gfx_msaa_fill  gfx_fill at 4 samples: 8 full-screen triangles blended
 *                  SRC_ALPHA / ONE_MINUS_SRC_ALPHA over a 4-sample
 *                  1920x1080 RGBA8 target, resolved (AVERAGE, dynamic
 *                  rendering) into a single-sampled one every frame:
 *                  per-sample blending and the resolve
 *
 * Verified after the runs: every resolved pixel against the blend
 * equation within 2/255 (all samples of a pixel are covered alike).
 */
#include "bench_gfx.h"

#include <math.h>
#include <string.h>

#include "gfx_msaa_fs.spv.h"
#include "gfx_msaa_vs.spv.h"

#define MSAA_LAYERS 8
#define MSAA_SAMPLES VK_SAMPLE_COUNT_4_BIT

static const float msaa_clear[4] = { 0.1f, 0.2f, 0.3f, 1.0f };

static void
msaa_color(uint32_t i, float c[4])
{
	c[0] = (float)(i * 30 % 256) / 255.0f;
	c[1] = (float)(255 - i * 20) / 255.0f;
	c[2] = (float)(i * 60 % 256) / 255.0f;
	c[3] = 0.25f;
}

/* The fill pipeline at MSAA_SAMPLES (bench_gfx_pipeline's state). */
static VkPipeline
msaa_pipeline(struct bench_vk *vk, VkPipelineLayout layout, uint32_t w,
              uint32_t h)
{
	VkShaderModule vs = bench_gfx_module(vk, gfx_msaa_vs_spv,
	                                     sizeof(gfx_msaa_vs_spv));
	VkShaderModule fs = bench_gfx_module(vk, gfx_msaa_fs_spv,
	                                     sizeof(gfx_msaa_fs_spv));
	const VkPipelineShaderStageCreateInfo st[2] = {
		{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		  .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs,
		  .pName = "main" },
		{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		  .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs,
		  .pName = "main" },
	};
	const VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
	};
	const VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
	};
	const VkViewport viewport = { 0, 0, (float)w, (float)h, 0, 1 };
	const VkRect2D scissor = { { 0, 0 }, { w, h } };
	const VkPipelineViewportStateCreateInfo vp = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 1, .pViewports = &viewport,
		.scissorCount = 1, .pScissors = &scissor,
	};
	const VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.polygonMode = VK_POLYGON_MODE_FILL, .lineWidth = 1,
	};
	const VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = MSAA_SAMPLES,
	};
	const VkPipelineDepthStencilStateCreateInfo ds = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
	};
	const VkPipelineColorBlendAttachmentState ba = {
		.blendEnable = VK_TRUE,
		.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
		.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		.colorBlendOp = VK_BLEND_OP_ADD,
		.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
		.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		.alphaBlendOp = VK_BLEND_OP_ADD, .colorWriteMask = 0xf,
	};
	const VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.attachmentCount = 1, .pAttachments = &ba,
	};
	const VkFormat cf = COLOR_FORMAT;
	const VkPipelineRenderingCreateInfo ri = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
		.colorAttachmentCount = 1, .pColorAttachmentFormats = &cf,
	};
	const VkGraphicsPipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.pNext = &ri, .stageCount = 2, .pStages = st,
		.pVertexInputState = &vi, .pInputAssemblyState = &ia,
		.pViewportState = &vp, .pRasterizationState = &rs,
		.pMultisampleState = &ms, .pDepthStencilState = &ds,
		.pColorBlendState = &cb, .layout = layout,
	};
	VkPipeline p = VK_NULL_HANDLE;

	if (vs && fs && vkCreateGraphicsPipelines(vk->device, VK_NULL_HANDLE, 1,
	                                          &ci, NULL, &p) != VK_SUCCESS)
		p = VK_NULL_HANDLE;
	vkDestroyShaderModule(vk->device, vs, NULL);
	vkDestroyShaderModule(vk->device, fs, NULL);
	return p;
}

/* A 4-sample colour image (GENERAL) and its view. */
static VkResult
msaa_image(struct bench_vk *vk, uint32_t w, uint32_t h, VkImage *img,
           VkDeviceMemory *mem, VkImageView *view)
{
	const VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D, .format = COLOR_FORMAT,
		.extent = { w, h, 1 }, .mipLevels = 1, .arrayLayers = 1,
		.samples = MSAA_SAMPLES, .tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
	};
	VkMemoryRequirements req;
	VkResult r = vkCreateImage(vk->device, &ci, NULL, img);

	if (r != VK_SUCCESS)
		return r;
	vkGetImageMemoryRequirements(vk->device, *img, &req);
	const VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)bench_mem_type(
			vk, req.memoryTypeBits, BENCH_MEM_DEVICE_LOCAL),
	};
	r = vkAllocateMemory(vk->device, &mai, NULL, mem);
	if (r == VK_SUCCESS)
		r = vkBindImageMemory(vk->device, *img, *mem, 0);
	const VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = *img, .viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = COLOR_FORMAT,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	if (r == VK_SUCCESS)
		r = vkCreateImageView(vk->device, &vci, NULL, view);
	if (r == VK_SUCCESS) {
		VkCommandBuffer cb = bench_cmd_begin(vk, &vk->gfx);
		bench_gfx_to_layout(cb, *img, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1,
		                    VK_IMAGE_LAYOUT_UNDEFINED,
		                    VK_IMAGE_LAYOUT_GENERAL);
		bench_cmd_end(cb);
		r = bench_submit_wait(vk, &vk->gfx, cb, NULL);
		bench_cmd_free(vk, &vk->gfx, cb);
	}
	return r;
}

struct msaa_check_arg {
	struct bench_vk *vk;
	struct target *t;
};

static bool
msaa_check(void *arg)
{
	const struct msaa_check_arg *k = arg;
	struct target *t = k->t;
	float want[4];
	const uint8_t *px;

	if (bench_gfx_target_read(k->vk, t) != VK_SUCCESS)
		return false;
	memcpy(want, msaa_clear, sizeof(want));
	for (uint32_t i = 0; i < MSAA_LAYERS; i++) {
		float c[4];

		msaa_color(i, c);
		for (int j = 0; j < 3; j++)
			want[j] = c[j] * c[3] + want[j] * (1 - c[3]);
		want[3] = c[3] + want[3] * (1 - c[3]);
	}
	px = t->rb.map;
	for (size_t p = 0; p < (size_t)t->w * t->h; p++)
		for (int j = 0; j < 4; j++)
			if (fabsf(px[4 * p + j] - want[j] * 255) > 2.0f) {
				fprintf(stderr, "swgpu_bench: gfx_msaa_fill: "
				        "texel %zu component %d = %u, want "
				        "%.1f\n", p, j, px[4 * p + j],
				        want[j] * 255);
				return false;
			}
	return true;
}

static void
gfx_msaa_fill(struct bench_vk *vk, const struct bench_opts *o)
{
	struct target t;
	VkImage ms = VK_NULL_HANDLE;
	VkDeviceMemory ms_mem = VK_NULL_HANDLE;
	VkImageView ms_view = VK_NULL_HANDLE;
	VkPipelineLayout pl = bench_gfx_layout(vk, VK_NULL_HANDLE, 16);
	VkPipeline p = VK_NULL_HANDLE;
	VkCommandBuffer cb = VK_NULL_HANDLE;

	if (bench_gfx_target_create(vk, o->gfx_fill_w, o->gfx_fill_h, false,
	                            &t) != VK_SUCCESS ||
	    msaa_image(vk, t.w, t.h, &ms, &ms_mem, &ms_view) != VK_SUCCESS ||
	    !(p = msaa_pipeline(vk, pl, t.w, t.h))) {
		bench_report_na(vk->driver, "gfx_msaa_fill", "fps",
		                "setup-failed");
		bench_failed = true;
		goto out;
	}
	cb = bench_cmd_begin(vk, &vk->gfx);
	VkRenderingAttachmentInfo ca = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = ms_view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT,
		.resolveImageView = t.view,
		.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
	};
	memcpy(ca.clearValue.color.float32, msaa_clear, sizeof(msaa_clear));
	const VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = { { 0, 0 }, { t.w, t.h } }, .layerCount = 1,
		.colorAttachmentCount = 1, .pColorAttachments = &ca,
	};
	bench_barrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	              VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_MEMORY_READ_BIT,
	              VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	              VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_MEMORY_READ_BIT);
	vkCmdBeginRendering(cb, &ri);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
	for (uint32_t i = 0; i < MSAA_LAYERS; i++) {
		float c[4];

		msaa_color(i, c);
		vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT |
		                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(c),
		                   c);
		vkCmdDraw(cb, 3, 1, 0, 0);
	}
	vkCmdEndRendering(cb);
	bench_cmd_end(cb);
	struct msaa_check_arg k = { vk, &t };
	bench_gfx_frames(vk, o, "gfx_msaa_fill", cb, msaa_check, &k);
out:
	bench_cmd_free(vk, &vk->gfx, cb);
	if (p)
		vkDestroyPipeline(vk->device, p, NULL);
	vkDestroyPipelineLayout(vk->device, pl, NULL);
	vkDestroyImageView(vk->device, ms_view, NULL);
	vkDestroyImage(vk->device, ms, NULL);
	vkFreeMemory(vk->device, ms_mem, NULL);
	bench_gfx_target_destroy(vk, &t);
}

bool
bench_gfx_msaa(struct bench_vk *vk, const struct bench_opts *o)
{
	if (!bench_figure_wanted(o, "gfx_msaa_fill"))
		return true;
	if (!vk->has_gfx) {
		bench_report_na(vk->driver, "gfx_msaa_fill", "fps",
		                "no-graphics");
		return true;
	}
	gfx_msaa_fill(vk, o);
	return true;
}
