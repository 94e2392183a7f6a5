/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_pass: render pass instances through the loader with
 * validation on; checked by hand and against a second driver
 * (vkh_gfx.h):
 *
 *   subpasses     vkCreateRenderPass with two subpasses: the first draws
 *                 with a depth test, the second reads its colour and its
 *                 depth as input attachments (subpassLoad)
 *   render_area   vkCreateRenderPass2: CLEAR only inside the render
 *                 area, LOAD keeps what was there, two layers cleared
 *   imageless     an imageless framebuffer, views at begin time
 *   secondary     draws recorded in a secondary command buffer that
 *                 continues the render pass
 *   clear_attach  vkCmdClearAttachments on colour and depth, rects
 *   resume        dynamic rendering suspended in one command buffer and
 *                 resumed in the next
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_fullscreen_vs.spv.h"
#include "gfx_input_fs.spv.h"
#include "gfx_mrt_fs.spv.h"

static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };

/* ------------------------------------------------------------------ */
/* subpasses                                                           */
/* ------------------------------------------------------------------ */

struct input_pipe {
	VkDescriptorSetLayout set_layout;
	VkPipelineLayout layout;
	VkDescriptorPool pool;
	VkDescriptorSet set;
};

static bool
input_pipe_init(struct gfx_ctx *c, struct input_pipe *ip, VkImageView color,
                VkImageView depth)
{
	VkDescriptorSetLayoutBinding b[2] = {
		{ 0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1,
		  VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
		{ 1, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1,
		  VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
	};
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 2, .pBindings = b,
	};
	VkPushConstantRange pcr = {
		VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
		128 };
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &ip->set_layout,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 2 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorSetCount = 1, .pSetLayouts = &ip->set_layout,
	};
	VkDescriptorImageInfo ii[2] = {
		{ VK_NULL_HANDLE, color, VK_IMAGE_LAYOUT_GENERAL },
		{ VK_NULL_HANDLE, depth, VK_IMAGE_LAYOUT_GENERAL },
	};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstBinding = 0, .descriptorCount = 2,
		.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
		.pImageInfo = ii,
	};

	if (vkCreateDescriptorSetLayout(c->dev, &lci, NULL,
	                                &ip->set_layout) != VK_SUCCESS ||
	    vkCreatePipelineLayout(c->dev, &plci, NULL, &ip->layout) !=
	    VK_SUCCESS ||
	    vkCreateDescriptorPool(c->dev, &dpci, NULL, &ip->pool) !=
	    VK_SUCCESS)
		return false;
	ai.descriptorPool = ip->pool;
	if (vkAllocateDescriptorSets(c->dev, &ai, &ip->set) != VK_SUCCESS)
		return false;
	w.dstSet = ip->set;
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);
	return true;
}

static void
input_pipe_finish(struct gfx_ctx *c, struct input_pipe *ip)
{
	vkDestroyDescriptorPool(c->dev, ip->pool, NULL);
	vkDestroyPipelineLayout(c->dev, ip->layout, NULL);
	vkDestroyDescriptorSetLayout(c->dev, ip->set_layout, NULL);
}

static bool
subpasses_render(struct gfx_ctx *c, struct gfx_out *o)
{
	/* 0: colour A (CLEAR), 1: depth D (CLEAR), 2: colour B. */
	VkAttachmentDescription att[3] = {
		{ 0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
		  VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_GENERAL,
		  VK_IMAGE_LAYOUT_GENERAL },
		{ 0, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT,
		  VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_GENERAL,
		  VK_IMAGE_LAYOUT_GENERAL },
		{ 0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_GENERAL,
		  VK_IMAGE_LAYOUT_GENERAL },
	};
	VkAttachmentReference a = { 0, VK_IMAGE_LAYOUT_GENERAL };
	VkAttachmentReference d = { 1, VK_IMAGE_LAYOUT_GENERAL };
	VkAttachmentReference in[2] = { { 0, VK_IMAGE_LAYOUT_GENERAL },
	                                { 1, VK_IMAGE_LAYOUT_GENERAL } };
	VkAttachmentReference b = { 2, VK_IMAGE_LAYOUT_GENERAL };
	VkSubpassDescription sub[2] = {
		{ .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		  .colorAttachmentCount = 1, .pColorAttachments = &a,
		  .pDepthStencilAttachment = &d },
		{ .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		  .inputAttachmentCount = 2, .pInputAttachments = in,
		  .colorAttachmentCount = 1, .pColorAttachments = &b },
	};
	VkSubpassDependency dep = {
		0, 1,
		VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
		VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
		VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
		VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
		VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
		VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
		VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
		VK_DEPENDENCY_BY_REGION_BIT,
	};
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.attachmentCount = 3, .pAttachments = att,
		.subpassCount = 2, .pSubpasses = sub,
		.dependencyCount = 1, .pDependencies = &dep,
	};
	struct gfx_image A, D, B;
	struct input_pipe ip = { 0 };
	struct gfx_pipe p, q;
	VkRenderPass rp = VK_NULL_HANDLE;
	VkFramebuffer fb = VK_NULL_HANDLE;
	VkPipeline draw = VK_NULL_HANDLE, reader = VK_NULL_HANDLE;
	VkImageView dview = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 };
	struct vtx v[12];
	bool ok = false;

	quad(v, 24, 24, 56, 56, 0.25f, green);
	quad(v + 6, 8, 8, 40, 40, 0.5f, red);
	if (!px_target(c, &A) || !px_target(c, &B) ||
	    !gfx_image(c, VK_FORMAT_D32_SFLOAT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
	               VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, &D) ||
	    !px_pipe_init(c, &p))
		return false;
	dview = gfx_view(c, &D, 0, VK_IMAGE_ASPECT_DEPTH_BIT);
	VkImageView views[3] = { A.view, D.view, B.view };
	if (vkCreateRenderPass(c->dev, &rpci, NULL, &rp) != VK_SUCCESS ||
	    !input_pipe_init(c, &ip, A.view, dview))
		goto out;
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.renderPass = rp, .attachmentCount = 3, .pAttachments = views,
		.width = SW, .height = SH, .layers = 1,
	};
	if (vkCreateFramebuffer(c->dev, &fci, NULL, &fb) != VK_SUCCESS)
		goto out;
	p.render_pass = rp;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	draw = gfx_pipeline(c, &p);
	gfx_pipe_init(&q, gfx_shader(c, gfx_fullscreen_vs_spv,
	                             sizeof(gfx_fullscreen_vs_spv)),
	              gfx_shader(c, gfx_input_fs_spv, sizeof(gfx_input_fs_spv)),
	              VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	q.render_pass = rp;
	q.subpass = 1;
	q.layout = ip.layout;
	q.ndynamic = 1;
	q.dynamic[0] = VK_DYNAMIC_STATE_SCISSOR;
	reader = gfx_pipeline(c, &q);
	if (draw && reader && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
	                                 v, sizeof(v), &vb)) {
		VkClearValue clear[2] = {
			{ .color = { .float32 = { 0.1f, 0.2f, 0.3f, 1 } } },
			{ .depthStencil = { 1.0f, 0 } },
		};
		VkRenderPassBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
			.renderPass = rp, .framebuffer = fb,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.clearValueCount = 2, .pClearValues = clear,
		};
		VkRect2D left = { { 0, 0 }, { SW / 2, SH } };
		VkRect2D right = { { SW / 2, 0 }, { SW / 2, SH } };
		const int32_t mode[2] = { 0, 1 };
		VkDeviceSize off = 0;
		VkCommandBuffer cb = gfx_begin(c);

		vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, draw);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdDraw(cb, 12, 1, 0, 0);
		vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, reader);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
		                        ip.layout, 0, 1, &ip.set, 0, NULL);
		for (int i = 0; i < 2; i++) {
			vkCmdPushConstants(cb, ip.layout,
			                   VK_SHADER_STAGE_VERTEX_BIT |
			                   VK_SHADER_STAGE_FRAGMENT_BIT, 16, 4,
			                   &mode[i]);
			vkCmdSetScissor(cb, 0, 1, i ? &right : &left);
			vkCmdDraw(cb, 3, 1, 0, 0);
		}
		vkCmdEndRenderPass(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &B, NULL, o);
	}
out:
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, draw, NULL);
	vkDestroyPipeline(c->dev, reader, NULL);
	vkDestroyShaderModule(c->dev, q.vs, NULL);
	vkDestroyShaderModule(c->dev, q.fs, NULL);
	vkDestroyFramebuffer(c->dev, fb, NULL);
	vkDestroyRenderPass(c->dev, rp, NULL);
	vkDestroyImageView(c->dev, dview, NULL);
	input_pipe_finish(c, &ip);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &A);
	gfx_image_destroy(c, &B);
	gfx_image_destroy(c, &D);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static void
subpasses_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			bool g = x >= 24 && x < 56 && y >= 24 && y < 56;
			bool r = !g && x >= 8 && x < 40 && y >= 8 && y < 40;
			uint8_t want[4];

			if (x < SW / 2) {
				/* 1 - A. */
				want[0] = r ? 0 : g ? 255 : 230;
				want[1] = r ? 255 : g ? 0 : 204;
				want[2] = r ? 255 : g ? 255 : 179;
				want[3] = 0;
			} else {
				uint8_t z = g ? 64 : r ? 128 : 255;

				want[0] = want[1] = want[2] = z;
				want[3] = 255;
			}
			const uint8_t *t = gfx_texel(o, x, y);
			for (int i = 0; i < 4; i++)
				if (abs(t[i] - want[i]) > 1) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: (%u,%u) = %u %u %u %u, "
					         "want %u %u %u %u", c->driver,
					         x, y, t[0], t[1], t[2], t[3],
					         want[0], want[1], want[2],
					         want[3]);
					return;
				}
		}
}

/* ------------------------------------------------------------------ */
/* render_area, imageless                                              */
/* ------------------------------------------------------------------ */

/* A 2-layer image prefilled with vkCmdClearColorImage (blue); a render
 * pass whose attachment 0 (both layers) is CLEARed (grey) inside the
 * render area [10,50) x [20,40) and attachment 1 (the same image's
 * second view... no: another image, prefilled green) is LOADed; a red
 * quad drawn over [0,64) x [30,64) lands inside the area only. Output:
 * layer 0 of attachment 0 | layer 1 of attachment 0 | attachment 1. */
static bool
area_common(struct gfx_ctx *c, struct gfx_out *o, bool imageless)
{
	VkAttachmentDescription2 att[2] = {
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
	};
	VkAttachmentReference2 refs[2] = {
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		  .attachment = 0, .layout = VK_IMAGE_LAYOUT_GENERAL },
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		  .attachment = 1, .layout = VK_IMAGE_LAYOUT_GENERAL },
	};
	VkSubpassDescription2 sub = {
		.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.colorAttachmentCount = 2, .pColorAttachments = refs,
	};
	VkRenderPassCreateInfo2 rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
		.attachmentCount = 2, .pAttachments = att,
		.subpassCount = 1, .pSubpasses = &sub,
	};
	VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
	VkFramebufferAttachmentImageInfo fai[2] = {
		{ .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO,
		  .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
		           VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		           VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		  .width = SW, .height = SH, .layerCount = 2,
		  .viewFormatCount = 1, .pViewFormats = &fmt },
		{ .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO,
		  .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
		           VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		           VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		  .width = SW, .height = SH, .layerCount = 2,
		  .viewFormatCount = 1, .pViewFormats = &fmt },
	};
	VkFramebufferAttachmentsCreateInfo fac = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO,
		.attachmentImageInfoCount = 2, .pAttachmentImageInfos = fai,
	};
	struct gfx_image A, B;
	struct gfx_pipe p;
	VkRenderPass rp = VK_NULL_HANDLE;
	VkFramebuffer fb = VK_NULL_HANDLE;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 };
	struct vtx v[6];
	bool ok = false;

	quad(v, 0, 30, SW, SH, 0, red);
	if (!gfx_image(c, fmt, SW, SH, 2, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
	               &A) ||
	    !gfx_image(c, fmt, SW, SH, 2, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
	               &B) ||
	    !px_pipe_init(c, &p))
		return false;
	p.ncolor = 2;
	p.color_formats[1] = fmt;
	/* Both outputs: the colour and its complement. */
	vkDestroyShaderModule(c->dev, p.fs, NULL);
	p.fs = gfx_shader(c, gfx_mrt_fs_spv, sizeof(gfx_mrt_fs_spv));
	if (vkCreateRenderPass2(c->dev, &rpci, NULL, &rp) != VK_SUCCESS)
		goto out;
	VkImageView views[2] = { A.view, B.view };
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.pNext = imageless ? &fac : NULL,
		.flags = imageless ? VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT : 0,
		.renderPass = rp, .attachmentCount = 2,
		.pAttachments = imageless ? NULL : views,
		.width = SW, .height = SH, .layers = 2,
	};
	if (vkCreateFramebuffer(c->dev, &fci, NULL, &fb) != VK_SUCCESS)
		goto out;
	p.render_pass = rp;
	/* Rendering outside the render area is undefined: scissor it. */
	p.scissors[0] = (VkRect2D){ { 10, 20 }, { 40, 20 } };
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkRenderPassAttachmentBeginInfo abi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO,
			.attachmentCount = 2, .pAttachments = views,
		};
		VkClearValue clear = {
			.color = { .float32 = { 0.5f, 0.5f, 0.5f, 1 } } };
		VkRenderPassBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
			.pNext = imageless ? &abi : NULL,
			.renderPass = rp, .framebuffer = fb,
			.renderArea = { { 10, 20 }, { 40, 20 } },
			.clearValueCount = 1, .pClearValues = &clear,
		};
		VkSubpassBeginInfo sbi = {
			.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO,
			.contents = VK_SUBPASS_CONTENTS_INLINE,
		};
		VkSubpassEndInfo sei = {
			.sType = VK_STRUCTURE_TYPE_SUBPASS_END_INFO };
		VkClearColorValue blue = { .float32 = { 0, 0, 1, 1 } };
		VkClearColorValue grn = { .float32 = { 0, 1, 0, 1 } };
		VkImageSubresourceRange r2 = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1,
		                               0, 2 };
		VkDeviceSize off = 0;
		VkCommandBuffer cb = gfx_begin(c);

		vkCmdClearColorImage(cb, A.image, VK_IMAGE_LAYOUT_GENERAL,
		                     &blue, 1, &r2);
		vkCmdClearColorImage(cb, B.image, VK_IMAGE_LAYOUT_GENERAL,
		                     &grn, 1, &r2);
		gfx_barrier(cb);
		vkCmdBeginRenderPass2(cb, &bi, &sbi);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdDraw(cb, 6, 1, 0, 0);
		vkCmdEndRenderPass2(cb, &sei);
		ok = gfx_submit(c, cb);
		if (ok) {
			struct gfx_out l1 = { 0 }, b1 = { 0 };

			ok = gfx_read_layer(c, &A, NULL, 0, o) &&
			     gfx_read_layer(c, &A, NULL, 1, &l1) &&
			     gfx_read(c, &B, NULL, &b1);
			if (ok) {
				uint8_t *all = malloc((size_t)SW * SH * 12);

				for (uint32_t y = 0; y < SH; y++) {
					memcpy(all + y * SW * 12,
					       o->color + y * SW * 4, SW * 4);
					memcpy(all + y * SW * 12 + SW * 4,
					       l1.color + y * SW * 4, SW * 4);
					memcpy(all + y * SW * 12 + SW * 8,
					       b1.color + y * SW * 4, SW * 4);
				}
				free(o->color);
				o->color = all;
				o->w = 3 * SW;
			}
			free(l1.color);
			free(b1.color);
		}
	}
out:
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyFramebuffer(c->dev, fb, NULL);
	vkDestroyRenderPass(c->dev, rp, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &A);
	gfx_image_destroy(c, &B);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static bool
render_area_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return area_common(c, o, false);
}

static bool
imageless_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return area_common(c, o, true);
}

static void
render_area_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < 3 * SW; x++) {
			uint32_t img = x / SW, px = x % SW;
			bool in = px >= 10 && px < 50 && y >= 20 && y < 40;
			bool quad_in = in && y >= 30;
			const uint8_t *t = gfx_texel(o, x, y);
			uint8_t want[4];

			if (img < 2) {
				/* Attachment 0: blue outside, grey clear
				 * inside (both layers), the quad on layer 0
				 * only (no Layer output). */
				if (!in)
					memcpy(want, (uint8_t[]){ 0, 0, 255, 255 }, 4);
				else if (quad_in && img == 0)
					memcpy(want, (uint8_t[]){ 255, 0, 0, 255 }, 4);
				else
					memcpy(want, (uint8_t[]){ 128, 128, 128, 255 }, 4);
			} else {
				/* Attachment 1: LOADed green, the quad's
				 * complement. */
				if (quad_in)
					memcpy(want, (uint8_t[]){ 0, 255, 255, 0 }, 4);
				else
					memcpy(want, (uint8_t[]){ 0, 255, 0, 255 }, 4);
			}
			if (abs(t[0] - want[0]) > 1 || abs(t[1] - want[1]) > 1 ||
			    abs(t[2] - want[2]) > 1 || t[3] != want[3]) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: image %u (%u,%u) = %u %u %u %u",
				         c->driver, img, px, y, t[0], t[1],
				         t[2], t[3]);
				return;
			}
		}
}

#define imageless_check render_area_check

/* ------------------------------------------------------------------ */
/* secondary, clear_attach, resume                                     */
/* ------------------------------------------------------------------ */

/* Record the same drawing as a secondary (RENDER_PASS_CONTINUE with
 * inherited rendering info) executed inside dynamic rendering. */
static bool
secondary_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 };
	struct vtx v[12];
	VkCommandBuffer sec = VK_NULL_HANDLE;
	bool ok = false;

	quad(v, 4, 4, 36, 36, 0, red);
	quad(v + 6, 28, 28, 60, 60, 0, green);
	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
		VkCommandBufferInheritanceRenderingInfo iri = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
			.colorAttachmentCount = 1,
			.pColorAttachmentFormats = &fmt,
			.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
		};
		VkCommandBufferInheritanceInfo inh = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
			.pNext = &iri,
		};
		VkCommandBufferBeginInfo sbi = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
			.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
			.pInheritanceInfo = &inh,
		};
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = c->pool,
			.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
			.commandBufferCount = 1,
		};
		VkRenderingAttachmentInfo ca = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
			.imageView = t.view,
			.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
			.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
			.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		};
		VkRenderingInfo ri = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
			.flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.layerCount = 1, .colorAttachmentCount = 1,
			.pColorAttachments = &ca,
		};
		VkDeviceSize off = 0;
		VkCommandBuffer cb;

		if (vkAllocateCommandBuffers(c->dev, &ai, &sec) != VK_SUCCESS)
			goto out;
		vkBeginCommandBuffer(sec, &sbi);
		vkCmdBindPipeline(sec, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, sec, 0, 0);
		vkCmdBindVertexBuffers(sec, 0, 1, &vb.buffer, &off);
		vkCmdDraw(sec, 6, 1, 0, 0);
		vkCmdDraw(sec, 6, 1, 6, 0);
		if (vkEndCommandBuffer(sec) != VK_SUCCESS)
			goto out;
		cb = gfx_begin(c);
		vkCmdBeginRendering(cb, &ri);
		vkCmdExecuteCommands(cb, 1, &sec);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
	}
out:
	if (sec)
		vkFreeCommandBuffers(c->dev, c->pool, 1, &sec);
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
secondary_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	expect_rect(c, o, 28, 28, 60, 60, (const uint8_t[]){ 0, 255, 0, 255 },
	            NULL);
	expect_rect(c, o, 4, 4, 28, 28, (const uint8_t[]){ 255, 0, 0, 255 },
	            NULL);
	expect_rect(c, o, 0, 0, 0, 0, zero4, NULL);
	if (!gfx_rgba_is(o, 2, 2, 0, 0, 0, 0) ||
	    !gfx_rgba_is(o, 62, 62, 0, 0, 0, 0))
		vkh_fail(c->h, __FILE__, __LINE__, "%s: outside", c->driver);
}

/* vkCmdClearAttachments: colour rects and a depth rect, then a quad
 * with depth test LESS at 0.5: drawn only where the depth was cleared
 * to 1 (not where the rect cleared it to 0.25). */
static bool
clear_attach_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 };
	struct vtx v[6];
	bool ok = false;

	quad(v, 0, 0, SW, SH, 0.5f, green);
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_D16_UNORM, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.depth_format = VK_FORMAT_D16_UNORM;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkClearAttachment ca[2] = {
			{ VK_IMAGE_ASPECT_COLOR_BIT, 0,
			  { .color = { .float32 = { 1, 0, 0, 1 } } } },
			{ VK_IMAGE_ASPECT_DEPTH_BIT, 0,
			  { .depthStencil = { 0.25f, 0 } } },
		};
		VkClearRect cr[2] = { { { { 2, 2 }, { 20, 10 } }, 0, 1 },
		                      { { { 40, 30 }, { 10, 30 } }, 0, 1 } };
		VkClearRect dr = { { { 30, 0 }, { 34, 20 } }, 0, 1 };
		VkDeviceSize off = 0;
		VkCommandBuffer cb = gfx_begin(c);

		gfx_begin_rendering(cb, &t, &black, &ds, true, 1.0f, 0);
		vkCmdClearAttachments(cb, 1, &ca[0], 2, cr);
		vkCmdClearAttachments(cb, 1, &ca[1], 1, &dr);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdDraw(cb, 6, 1, 0, 0);
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
clear_attach_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			bool dclr = x >= 30 && y < 20;
			bool cclr = (x >= 2 && x < 22 && y >= 2 && y < 12) ||
			            (x >= 40 && x < 50 && y >= 30);
			const uint8_t *want =
				!dclr ? (const uint8_t[]){ 0, 255, 0, 255 } :
				cclr ? (const uint8_t[]){ 255, 0, 0, 255 } :
				zero4;
			float z = dclr ? 0.25f : 0.5f;

			if (memcmp(gfx_texel(o, x, y), want, 4) ||
			    fabsf(o->depth[y * SW + x] -
			          (dclr ? z : 1.0f)) > 1e-4f) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u,%u)", c->driver, x, y);
				return;
			}
		}
}

/* Dynamic rendering suspended in one command buffer and resumed in the
 * next (one submission): the resumed pass sees the first one's
 * drawing. */
static bool
resume_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 };
	struct vtx v[12];
	bool ok = false;

	quad(v, 0, 0, 40, 40, 0, red);
	quad(v + 6, 20, 20, 64, 64, 0, green);
	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkRenderingAttachmentInfo ca = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
			.imageView = t.view,
			.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
			.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
			.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		};
		VkRenderingInfo ri = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
			.flags = VK_RENDERING_SUSPENDING_BIT,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.layerCount = 1, .colorAttachmentCount = 1,
			.pColorAttachments = &ca,
		};
		VkCommandBuffer cb[2];
		VkDeviceSize off = 0;
		VkFence fence;
		VkFenceCreateInfo fci = {
			.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 2, .pCommandBuffers = cb,
		};

		for (int i = 0; i < 2; i++) {
			cb[i] = gfx_begin(c);
			vkCmdBeginRendering(cb[i], &ri);
			vkCmdBindPipeline(cb[i], VK_PIPELINE_BIND_POINT_GRAPHICS,
			                  pipe);
			px_push(c, cb[i], 0, 0);
			vkCmdBindVertexBuffers(cb[i], 0, 1, &vb.buffer, &off);
			vkCmdDraw(cb[i], 6, 1, 6 * i, 0);
			vkCmdEndRendering(cb[i]);
			vkEndCommandBuffer(cb[i]);
			ri.flags = VK_RENDERING_RESUMING_BIT;
		}
		ok = vkCreateFence(c->dev, &fci, NULL, &fence) == VK_SUCCESS &&
		     vkQueueSubmit(c->queue, 1, &si, fence) == VK_SUCCESS &&
		     vkWaitForFences(c->dev, 1, &fence, VK_TRUE,
		                     VKH_TIMEOUT_NS) == VK_SUCCESS;
		vkDestroyFence(c->dev, fence, NULL);
		vkFreeCommandBuffers(c->dev, c->pool, 2, cb);
		ok = ok && gfx_read(c, &t, NULL, o);
	}
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
resume_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	expect_rect(c, o, 20, 20, 64, 64, (const uint8_t[]){ 0, 255, 0, 255 },
	            NULL);
	expect_rect(c, o, 0, 0, 20, 20, (const uint8_t[]){ 255, 0, 0, 255 },
	            NULL);
	if (!gfx_rgba_is(o, 5, 50, 0, 0, 0, 0))
		vkh_fail(c->h, __FILE__, __LINE__, "%s: cleared area",
		         c->driver);
}

/* ------------------------------------------------------------------ */

GFX_SCENE_TEST(subpasses, 1, 0, NULL)
GFX_SCENE_TEST(render_area, 0, 0, NULL)
GFX_SCENE_TEST(imageless, 0, 0, NULL)
GFX_SCENE_TEST(secondary, 0, 0, NULL)
GFX_SCENE_TEST(clear_attach, 0, 0, NULL)
GFX_SCENE_TEST(resume, 0, 0, NULL)

static const struct vkh_test tests[] = {
	GFX_TEST(subpasses), GFX_TEST(render_area), GFX_TEST(imageless),
	GFX_TEST(secondary), GFX_TEST(clear_attach), GFX_TEST(resume),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_pass", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
