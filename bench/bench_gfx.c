/* SPDX-License-Identifier: MIT */
/*
 * Graphics figures (issue 17), in frames per second (submit -> fence of a
 * command buffer recorded once: begin rendering with a clear, the draws,
 * end rendering):
 *
 *   gfx_tris   o->gfx_tris small flat-coloured triangles (each half of a
 *              2x4-pixel cell of a 1024x1024 RGBA8 target; 131072 per
 *              frame in the full run), one draw
 *   gfx_fill   8 full-screen blended triangles over a 1920x1080 RGBA8
 *              target (SRC_ALPHA, ONE_MINUS_SRC_ALPHA): fill rate
 *   gfx_scene  (bench_gfx_scene.c) a textured, depth-tested scene
 *
 * Checked after the last run (untimed read-back): gfx_tris the colour of
 * a covered and an uncovered pixel of every 97th triangle's cell;
 * gfx_fill every pixel against the blend equation (within 2/255).
 * n/a without a GRAPHICS queue with dynamic rendering (bench_gfx).
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gfx.h"

#include "gfx_fill_fs.spv.h"
#include "gfx_fill_vs.spv.h"
#include "gfx_tri_fs.spv.h"
#include "gfx_tri_vs.spv.h"

/* ------------------------------------------------------------------ */
/* Objects                                                             */
/* ------------------------------------------------------------------ */

VkResult
bench_gfx_image(struct bench_vk *vk, VkFormat f, uint32_t w, uint32_t h,
      uint32_t levels, VkImageUsageFlags usage, VkImage *img,
      VkDeviceMemory *mem, VkImageView *view)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D, .format = f,
		.extent = { w, h, 1 }, .mipLevels = levels, .arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage,
	};
	VkImageAspectFlags a = f == VK_FORMAT_D32_SFLOAT ?
	                       VK_IMAGE_ASPECT_DEPTH_BIT :
	                       VK_IMAGE_ASPECT_COLOR_BIT;
	VkMemoryRequirements req;
	VkResult r;

	r = vkCreateImage(vk->device, &ci, NULL, img);
	if (r != VK_SUCCESS)
		return r;
	vkGetImageMemoryRequirements(vk->device, *img, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)bench_mem_type(
			vk, req.memoryTypeBits, BENCH_MEM_DEVICE_LOCAL),
	};
	r = vkAllocateMemory(vk->device, &mai, NULL, mem);
	if (r == VK_SUCCESS)
		r = vkBindImageMemory(vk->device, *img, *mem, 0);
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = *img, .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = f,
		.subresourceRange = { a, 0, levels, 0, 1 },
	};
	if (r == VK_SUCCESS)
		r = vkCreateImageView(vk->device, &vci, NULL, view);
	return r;
}

/* Whole-image layout transition after every earlier access. */
void
bench_gfx_to_layout(VkCommandBuffer cb, VkImage img, VkImageAspectFlags a,
          uint32_t base, uint32_t levels, VkImageLayout from,
          VkImageLayout to)
{
	VkImageMemoryBarrier ib = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
		                 VK_ACCESS_MEMORY_WRITE_BIT,
		.oldLayout = from, .newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img, .subresourceRange = { a, base, levels, 0, 1 },
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	                     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL,
	                     0, NULL, 1, &ib);
}

VkResult
bench_gfx_target_create(struct bench_vk *vk, uint32_t w, uint32_t h, bool depth,
              struct target *t)
{
	VkResult r;
	VkCommandBuffer cb;

	memset(t, 0, sizeof(*t));
	t->w = w;
	t->h = h;
	r = bench_gfx_image(vk, COLOR_FORMAT, w, h, 1,
	          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	          VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &t->image, &t->mem,
	          &t->view);
	if (r == VK_SUCCESS && depth)
		r = bench_gfx_image(vk, VK_FORMAT_D32_SFLOAT, w, h, 1,
		          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
		          &t->depth, &t->depth_mem, &t->depth_view);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, (VkDeviceSize)w * h * 4,
		                        VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		                        BENCH_MEM_READBACK, &t->rb);
	if (r != VK_SUCCESS)
		return r;
	/* Both stay in GENERAL (the frames clear them). */
	cb = bench_cmd_begin(vk, &vk->gfx);
	bench_gfx_to_layout(cb, t->image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1,
	          VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
	if (depth)
		bench_gfx_to_layout(cb, t->depth, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1,
		          VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
	bench_cmd_end(cb);
	r = bench_submit_wait(vk, &vk->gfx, cb, NULL);
	bench_cmd_free(vk, &vk->gfx, cb);
	return r;
}

void
bench_gfx_target_destroy(struct bench_vk *vk, struct target *t)
{
	VkDevice d = vk->device;

	vkDestroyImageView(d, t->view, NULL);
	vkDestroyImageView(d, t->depth_view, NULL);
	vkDestroyImage(d, t->image, NULL);
	vkDestroyImage(d, t->depth, NULL);
	vkFreeMemory(d, t->mem, NULL);
	vkFreeMemory(d, t->depth_mem, NULL);
	bench_buffer_destroy(vk, &t->rb);
}

/* Copy the colour back into t->rb (untimed). */
VkResult
bench_gfx_target_read(struct bench_vk *vk, struct target *t)
{
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->gfx);
	VkBufferImageCopy r = {
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageExtent = { t->w, t->h, 1 },
	};
	VkResult res;

	bench_barrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	              VK_ACCESS_MEMORY_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	vkCmdCopyImageToBuffer(cb, t->image, VK_IMAGE_LAYOUT_GENERAL,
	                       t->rb.buffer, 1, &r);
	bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
	              VK_ACCESS_HOST_READ_BIT);
	bench_cmd_end(cb);
	res = bench_submit_wait(vk, &vk->gfx, cb, NULL);
	bench_cmd_free(vk, &vk->gfx, cb);
	bench_buffer_invalidate(vk, &t->rb);
	return res;
}

VkShaderModule
bench_gfx_module(struct bench_vk *vk, const uint32_t *code, size_t size)
{
	VkShaderModuleCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = size, .pCode = code,
	};
	VkShaderModule m = VK_NULL_HANDLE;

	vkCreateShaderModule(vk->device, &ci, NULL, &m);
	return m;
}

VkPipeline
bench_gfx_pipeline(struct bench_vk *vk, const struct pipe_desc *d, uint32_t w,
         uint32_t h)
{
	VkShaderModule vs = bench_gfx_module(vk, d->vs, d->vs_size);
	VkShaderModule fs = bench_gfx_module(vk, d->fs, d->fs_size);
	VkPipelineShaderStageCreateInfo st[2] = {
		{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		  .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs,
		  .pName = "main" },
		{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		  .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs,
		  .pName = "main" },
	};
	VkVertexInputBindingDescription bd = { 0, d->stride, 0 };
	VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
		.vertexBindingDescriptionCount = d->nattribs ? 1 : 0,
		.pVertexBindingDescriptions = &bd,
		.vertexAttributeDescriptionCount = d->nattribs,
		.pVertexAttributeDescriptions = d->attribs,
	};
	VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
	};
	VkViewport viewport = { 0, 0, (float)w, (float)h, 0, 1 };
	VkRect2D scissor = { { 0, 0 }, { w, h } };
	VkPipelineViewportStateCreateInfo vp = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 1, .pViewports = &viewport,
		.scissorCount = 1, .pScissors = &scissor,
	};
	VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.polygonMode = VK_POLYGON_MODE_FILL, .lineWidth = 1,
	};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
	};
	VkPipelineDepthStencilStateCreateInfo ds = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
		.depthTestEnable = d->depth, .depthWriteEnable = d->depth,
		.depthCompareOp = VK_COMPARE_OP_LESS,
	};
	VkPipelineColorBlendAttachmentState ba = {
		.blendEnable = d->blend,
		.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
		.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		.colorBlendOp = VK_BLEND_OP_ADD,
		.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
		.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		.alphaBlendOp = VK_BLEND_OP_ADD, .colorWriteMask = 0xf,
	};
	VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.attachmentCount = 1, .pAttachments = &ba,
	};
	VkFormat cf = COLOR_FORMAT;
	VkPipelineRenderingCreateInfo ri = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
		.colorAttachmentCount = 1, .pColorAttachmentFormats = &cf,
		.depthAttachmentFormat = d->depth ? VK_FORMAT_D32_SFLOAT :
		                                    VK_FORMAT_UNDEFINED,
	};
	VkGraphicsPipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.pNext = &ri, .stageCount = 2, .pStages = st,
		.pVertexInputState = &vi, .pInputAssemblyState = &ia,
		.pViewportState = &vp, .pRasterizationState = &rs,
		.pMultisampleState = &ms, .pDepthStencilState = &ds,
		.pColorBlendState = &cb, .layout = d->layout,
	};
	VkPipeline p = VK_NULL_HANDLE;

	if (vkCreateGraphicsPipelines(vk->device, VK_NULL_HANDLE, 1, &ci,
	                              NULL, &p) != VK_SUCCESS)
		p = VK_NULL_HANDLE;
	vkDestroyShaderModule(vk->device, vs, NULL);
	vkDestroyShaderModule(vk->device, fs, NULL);
	return p;
}

VkPipelineLayout
bench_gfx_layout(struct bench_vk *vk, VkDescriptorSetLayout set, uint32_t push)
{
	VkPushConstantRange pcr = {
		VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
		push };
	VkPipelineLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = set ? 1 : 0, .pSetLayouts = &set,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	VkPipelineLayout l = VK_NULL_HANDLE;

	vkCreatePipelineLayout(vk->device, &ci, NULL, &l);
	return l;
}

void
bench_gfx_begin_rendering(VkCommandBuffer cb, const struct target *t,
                const float clear[4])
{
	VkRenderingAttachmentInfo ca = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = t->view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
	};
	VkRenderingAttachmentInfo da = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = t->depth_view,
		.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		.clearValue = { .depthStencil = { 1.0f, 0 } },
	};
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = { { 0, 0 }, { t->w, t->h } }, .layerCount = 1,
		.colorAttachmentCount = 1, .pColorAttachments = &ca,
		.pDepthAttachment = t->depth ? &da : NULL,
	};

	memcpy(ca.clearValue.color.float32, clear, 4 * sizeof(float));
	/* Frames follow each other: the last one's writes first. */
	bench_barrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	              VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_MEMORY_READ_BIT,
	              VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	              VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_MEMORY_READ_BIT);
	vkCmdBeginRendering(cb, &ri);
}

/* Time o->warmup + o->runs submissions of cb; report fps. check runs
 * after the last one (false: the data was wrong). */
void
bench_gfx_frames(struct bench_vk *vk, const struct bench_opts *o, const char *fig,
           VkCommandBuffer cb, bool (*check)(void *), void *arg)
{
	struct bench_result r = {
		.figure = fig, .unit = "fps", .verified = true,
	};
	double s[64];
	unsigned n = 0;

	for (unsigned i = 0; i < o->warmup + o->runs && n < 64; i++) {
		uint64_t ns;

		if (bench_submit_wait(vk, &vk->gfx, cb, &ns) != VK_SUCCESS)
			break;
		if (i >= o->warmup)
			s[n++] = 1e9 / (double)ns;
	}
	if (n < o->runs || !check(arg)) {
		r.verified = false;
		bench_failed = true;
	}
	bench_stats(&r, s, n);
	bench_report(vk->driver, &r);
}

/* ------------------------------------------------------------------ */
/* gfx_tris                                                            */
/* ------------------------------------------------------------------ */

#define TRI_DIM 1024u

struct tri_vertex {
	float x, y;
	float r, g, b, a;
};

static void
tri_color(uint32_t i, float c[4])
{
	c[0] = (float)((i * 37) & 255) / 255.0f;
	c[1] = (float)((i * 11 + 90) & 255) / 255.0f;
	c[2] = (float)((i >> 8) & 255) / 255.0f;
	c[3] = 1.0f;
}

struct tri_check {
	struct bench_vk *vk;
	struct target *t;
	uint32_t ntri, cols;
};

static bool
tris_check(void *arg)
{
	struct tri_check *k = arg;
	const uint8_t *px;

	if (bench_gfx_target_read(k->vk, k->t) != VK_SUCCESS)
		return false;
	px = k->t->rb.map;
	for (uint32_t i = 0; i < k->ntri; i += 97) {
		uint32_t x = (i % k->cols) * 2, y = (i / k->cols) * 4;
		float c[4];
		/* Texel (x, y + 1) is inside the triangle (x, y), (x + 2, y),
		 * (x, y + 4); (x + 1, y + 3) is outside. */
		const uint8_t *in = px + 4 * ((y + 1) * TRI_DIM + x);
		const uint8_t *out = px + 4 * ((y + 3) * TRI_DIM + x + 1);

		tri_color(i, c);
		for (int k2 = 0; k2 < 4; k2++)
			if (abs(in[k2] - (int)lroundf(c[k2] * 255)) > 1) {
				fprintf(stderr, "swgpu_bench: gfx_tris: "
				        "triangle %u not drawn\n", i);
				return false;
			}
		if (out[3] != 0) {
			fprintf(stderr, "swgpu_bench: gfx_tris: texel beside "
			        "triangle %u drawn\n", i);
			return false;
		}
	}
	return true;
}

static void
gfx_tris(struct bench_vk *vk, const struct bench_opts *o)
{
	const uint32_t cols = TRI_DIM / 2, ntri = o->gfx_tris;
	struct bench_buffer vb = { 0 };
	struct target t;
	VkPipelineLayout pl = bench_gfx_layout(vk, VK_NULL_HANDLE, 8);
	struct pipe_desc d = {
		gfx_tri_vs_spv, gfx_tri_fs_spv, sizeof(gfx_tri_vs_spv),
		sizeof(gfx_tri_fs_spv), 2, sizeof(struct tri_vertex),
		{ { 0, 0, VK_FORMAT_R32G32_SFLOAT, 0 },
		  { 1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 8 } },
		false, false, pl,
	};
	VkPipeline p = VK_NULL_HANDLE;
	VkCommandBuffer cb = VK_NULL_HANDLE;
	const float clear[4] = { 0, 0, 0, 0 };
	const float size[2] = { TRI_DIM, TRI_DIM };
	struct tri_check k = { vk, &t, ntri, cols };

	if (ntri > cols * (TRI_DIM / 4) ||
	    bench_gfx_target_create(vk, TRI_DIM, TRI_DIM, false, &t) != VK_SUCCESS ||
	    bench_buffer_create(vk, (VkDeviceSize)ntri * 3 *
	                        sizeof(struct tri_vertex),
	                        VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
	                        BENCH_MEM_UPLOAD, &vb) != VK_SUCCESS ||
	    !(p = bench_gfx_pipeline(vk, &d, TRI_DIM, TRI_DIM))) {
		bench_report_na(vk->driver, "gfx_tris", "fps", "setup-failed");
		bench_failed = true;
		goto out;
	}
	/* Triangle i: (x, y), (x + 2, y), (x, y + 4) in cell i. */
	struct tri_vertex *v = vb.map;
	for (uint32_t i = 0; i < ntri; i++) {
		float x = (float)(i % cols) * 2, y = (float)(i / cols) * 4;
		float c[4];

		tri_color(i, c);
		v[3 * i + 0] = (struct tri_vertex){ x, y, c[0], c[1], c[2], c[3] };
		v[3 * i + 1] = (struct tri_vertex){ x + 2, y, c[0], c[1], c[2],
		                                    c[3] };
		v[3 * i + 2] = (struct tri_vertex){ x, y + 4, c[0], c[1], c[2],
		                                    c[3] };
	}
	VkDeviceSize off = 0;
	cb = bench_cmd_begin(vk, &vk->gfx);
	bench_gfx_begin_rendering(cb, &t, clear);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
	vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT |
	                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(size), size);
	vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
	vkCmdDraw(cb, 3 * ntri, 1, 0, 0);
	vkCmdEndRendering(cb);
	bench_cmd_end(cb);
	bench_gfx_frames(vk, o, "gfx_tris", cb, tris_check, &k);
out:
	bench_cmd_free(vk, &vk->gfx, cb);
	if (p)
		vkDestroyPipeline(vk->device, p, NULL);
	vkDestroyPipelineLayout(vk->device, pl, NULL);
	bench_buffer_destroy(vk, &vb);
	bench_gfx_target_destroy(vk, &t);
}

/* ------------------------------------------------------------------ */
/* gfx_fill                                                            */
/* ------------------------------------------------------------------ */

#define FILL_LAYERS 8

static const float fill_clear[4] = { 0.1f, 0.2f, 0.3f, 1.0f };

static void
fill_color(uint32_t i, float c[4])
{
	c[0] = (float)(i * 30 % 256) / 255.0f;
	c[1] = (float)(255 - i * 20) / 255.0f;
	c[2] = (float)(i * 60 % 256) / 255.0f;
	c[3] = 0.25f;
}

static bool
fill_check(void *arg)
{
	struct tri_check *k = arg;
	float want[4];
	const uint8_t *px;

	if (bench_gfx_target_read(k->vk, k->t) != VK_SUCCESS)
		return false;
	memcpy(want, fill_clear, sizeof(want));
	for (uint32_t i = 0; i < FILL_LAYERS; i++) {
		float c[4];

		fill_color(i, c);
		for (int j = 0; j < 3; j++)
			want[j] = c[j] * c[3] + want[j] * (1 - c[3]);
		want[3] = c[3] + want[3] * (1 - c[3]);
	}
	px = k->t->rb.map;
	for (size_t p = 0; p < (size_t)k->t->w * k->t->h; p++)
		for (int j = 0; j < 4; j++)
			if (fabsf(px[4 * p + j] - want[j] * 255) > 2.0f) {
				fprintf(stderr, "swgpu_bench: gfx_fill: texel "
				        "%zu component %d = %u, want %.1f\n", p,
				        j, px[4 * p + j], want[j] * 255);
				return false;
			}
	return true;
}

static void
gfx_fill(struct bench_vk *vk, const struct bench_opts *o)
{
	struct target t;
	VkPipelineLayout pl = bench_gfx_layout(vk, VK_NULL_HANDLE, 16);
	struct pipe_desc d = {
		gfx_fill_vs_spv, gfx_fill_fs_spv, sizeof(gfx_fill_vs_spv),
		sizeof(gfx_fill_fs_spv), 0, 0, { { 0 } }, true, false, pl,
	};
	VkPipeline p = VK_NULL_HANDLE;
	VkCommandBuffer cb = VK_NULL_HANDLE;
	struct tri_check k = { vk, &t, 0, 0 };

	if (bench_gfx_target_create(vk, o->gfx_fill_w, o->gfx_fill_h, false, &t) !=
	    VK_SUCCESS || !(p = bench_gfx_pipeline(vk, &d, t.w, t.h))) {
		bench_report_na(vk->driver, "gfx_fill", "fps", "setup-failed");
		bench_failed = true;
		goto out;
	}
	cb = bench_cmd_begin(vk, &vk->gfx);
	bench_gfx_begin_rendering(cb, &t, fill_clear);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
	for (uint32_t i = 0; i < FILL_LAYERS; i++) {
		float c[4];

		fill_color(i, c);
		vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT |
		                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(c),
		                   c);
		vkCmdDraw(cb, 3, 1, 0, 0);
	}
	vkCmdEndRendering(cb);
	bench_cmd_end(cb);
	bench_gfx_frames(vk, o, "gfx_fill", cb, fill_check, &k);
out:
	bench_cmd_free(vk, &vk->gfx, cb);
	if (p)
		vkDestroyPipeline(vk->device, p, NULL);
	vkDestroyPipelineLayout(vk->device, pl, NULL);
	bench_gfx_target_destroy(vk, &t);
}

bool
bench_gfx(struct bench_vk *vk, const struct bench_opts *o)
{
	if (!vk->has_gfx) {
		bench_report_na(vk->driver, "gfx_tris", "fps", "no-graphics");
		bench_report_na(vk->driver, "gfx_fill", "fps", "no-graphics");
		bench_report_na(vk->driver, "gfx_scene", "fps", "no-graphics");
		return true;
	}
	if (bench_figure_wanted(o, "gfx_tris"))
		gfx_tris(vk, o);
	if (bench_figure_wanted(o, "gfx_fill"))
		gfx_fill(vk, o);
	if (bench_figure_wanted(o, "gfx_scene"))
		bench_gfx_scene(vk, o);
	return true;
}
