/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_texture: texture sampling in fragment shaders through the
 * loader with validation on; checked by hand and against a second
 * driver:
 *
 *   texture_lod     a 64x64 texture whose 7 levels are solid colours,
 *                   NEAREST/NEAREST: quads of 64, 32, 16, 8, 4, 2 and 1
 *                   pixels on a side sample exactly levels 0..6 (the
 *                   implicit LOD from the quad derivatives is log2 of the
 *                   scale, exact at powers of two)
 *   shadow_compare  a D32 texture holding a depth ramp (written by a
 *                   depth-aspect buffer->image copy, on the GRAPHICS
 *                   queue) sampled through a LESS comparison sampler
 *                   against 0.5: 1 where 0.5 < depth, 0 elsewhere
 */
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_tex_fs.spv.h"
#include "gfx_tex_vs.spv.h"

#define TEX 64
#define LEVELS 7

struct tvert {
	float x, y, u, v;
};

static const uint8_t level_rgba[LEVELS][4] = {
	{ 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
	{ 255, 255, 0, 255 }, { 255, 0, 255, 255 }, { 0, 255, 255, 255 },
	{ 255, 255, 255, 255 },
};

struct tex_setup {
	VkImage color, depth;
	VkDeviceMemory color_mem, depth_mem;
	VkImageView color_view, depth_view;
	VkSampler nearest, shadow;
	VkDescriptorSetLayout sl;
	VkPipelineLayout pl;
	VkDescriptorPool dp;
	VkDescriptorSet set;
};

static bool
make_image(struct gfx_ctx *c, VkFormat f, uint32_t levels,
           VkImageUsageFlags usage, VkImage *img, VkDeviceMemory *mem,
           VkImageView *view)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D, .format = f,
		.extent = { TEX, TEX, 1 }, .mipLevels = levels,
		.arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage,
	};
	VkImageAspectFlags a = f == VK_FORMAT_D32_SFLOAT ?
	                       VK_IMAGE_ASPECT_DEPTH_BIT :
	                       VK_IMAGE_ASPECT_COLOR_BIT;
	VkMemoryRequirements req;

	if (vkCreateImage(c->dev, &ci, NULL, img) != VK_SUCCESS)
		return false;
	vkGetImageMemoryRequirements(c->dev, *img, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)vkh_memtype_device_local(
			c->h, req.memoryTypeBits),
	};
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = *img, .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = f,
		.subresourceRange = { a, 0, levels, 0, 1 },
	};
	return vkAllocateMemory(c->dev, &mai, NULL, mem) == VK_SUCCESS &&
	       vkBindImageMemory(c->dev, *img, *mem, 0) == VK_SUCCESS &&
	       vkCreateImageView(c->dev, &vci, NULL, view) == VK_SUCCESS;
}

static void
layout(VkCommandBuffer cb, VkImage img, VkImageAspectFlags a,
       uint32_t levels, VkImageLayout from, VkImageLayout to)
{
	VkImageMemoryBarrier2 ib = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT |
		                 VK_ACCESS_2_MEMORY_WRITE_BIT,
		.oldLayout = from, .newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img, .subresourceRange = { a, 0, levels, 0, 1 },
	};
	VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &ib,
	};

	vkCmdPipelineBarrier2(cb, &di);
}

/* Both textures filled, samplers, the set. */
static bool
tex_setup(struct gfx_ctx *c, struct tex_setup *s)
{
	struct vkh_buffer up;
	size_t off[LEVELS], total = 0;
	float *depth;
	uint8_t *p;
	VkCommandBuffer cb;

	memset(s, 0, sizeof(*s));
	for (uint32_t l = 0; l < LEVELS; l++) {
		off[l] = total;
		total += (size_t)(TEX >> l) * (TEX >> l) * 4;
	}
	if (!make_image(c, VK_FORMAT_R8G8B8A8_UNORM, LEVELS,
	                VK_IMAGE_USAGE_SAMPLED_BIT |
	                VK_IMAGE_USAGE_TRANSFER_DST_BIT, &s->color,
	                &s->color_mem, &s->color_view) ||
	    !make_image(c, VK_FORMAT_D32_SFLOAT, 1,
	                VK_IMAGE_USAGE_SAMPLED_BIT |
	                VK_IMAGE_USAGE_TRANSFER_DST_BIT, &s->depth,
	                &s->depth_mem, &s->depth_view) ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, NULL,
	                total + TEX * TEX * 4, &up))
		return false;
	p = up.map;
	for (uint32_t l = 0; l < LEVELS; l++)
		for (uint32_t i = 0; i < (uint32_t)((TEX >> l) * (TEX >> l));
		     i++)
			memcpy(p + off[l] + 4 * i, level_rgba[l], 4);
	/* Depth (x + 0.5) / 64 across x. */
	depth = (float *)(p + total);
	for (uint32_t y = 0; y < TEX; y++)
		for (uint32_t x = 0; x < TEX; x++)
			depth[y * TEX + x] = (x + 0.5f) / TEX;
	cb = gfx_begin(c);
	layout(cb, s->color, VK_IMAGE_ASPECT_COLOR_BIT, LEVELS,
	       VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	layout(cb, s->depth, VK_IMAGE_ASPECT_DEPTH_BIT, 1,
	       VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	for (uint32_t l = 0; l < LEVELS; l++) {
		VkBufferImageCopy r = {
			.bufferOffset = off[l],
			.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, l, 0,
			                      1 },
			.imageExtent = { TEX >> l, TEX >> l, 1 },
		};
		vkCmdCopyBufferToImage(cb, up.buffer, s->color,
		                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
		                       &r);
	}
	VkBufferImageCopy dr = {
		.bufferOffset = total,
		.imageSubresource = { VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1 },
		.imageExtent = { TEX, TEX, 1 },
	};
	vkCmdCopyBufferToImage(cb, up.buffer, s->depth,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &dr);
	layout(cb, s->color, VK_IMAGE_ASPECT_COLOR_BIT, LEVELS,
	       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	layout(cb, s->depth, VK_IMAGE_ASPECT_DEPTH_BIT, 1,
	       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	if (!gfx_submit(c, cb))
		return false;
	vkh_buffer_destroy(c->d, &up);

	VkSamplerCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
		.magFilter = VK_FILTER_NEAREST, .minFilter = VK_FILTER_NEAREST,
		.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
		.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.maxLod = VK_LOD_CLAMP_NONE,
	};
	VkDescriptorSetLayoutBinding b[2] = {
		{ 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
		  VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
		{ 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
		  VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
	};
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 2, .pBindings = b,
	};
	VkPushConstantRange pcr = {
		VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
		128 };
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	                            2 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	if (vkCreateSampler(c->dev, &sci, NULL, &s->nearest) != VK_SUCCESS)
		return false;
	sci.compareEnable = VK_TRUE;
	sci.compareOp = VK_COMPARE_OP_LESS;
	if (vkCreateSampler(c->dev, &sci, NULL, &s->shadow) != VK_SUCCESS ||
	    vkCreateDescriptorSetLayout(c->dev, &lci, NULL, &s->sl) !=
	    VK_SUCCESS ||
	    vkCreateDescriptorPool(c->dev, &dpci, NULL, &s->dp) != VK_SUCCESS)
		return false;
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &s->sl,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = s->dp, .descriptorSetCount = 1,
		.pSetLayouts = &s->sl,
	};
	if (vkCreatePipelineLayout(c->dev, &plci, NULL, &s->pl) !=
	    VK_SUCCESS ||
	    vkAllocateDescriptorSets(c->dev, &ai, &s->set) != VK_SUCCESS)
		return false;
	VkDescriptorImageInfo ii[2] = {
		{ s->nearest, s->color_view,
		  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL },
		{ s->shadow, s->depth_view,
		  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL },
	};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = s->set, .descriptorCount = 2,
		.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		.pImageInfo = ii,
	};
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);
	return true;
}

static void
tex_finish(struct gfx_ctx *c, struct tex_setup *s)
{
	vkDestroyPipelineLayout(c->dev, s->pl, NULL);
	vkDestroyDescriptorPool(c->dev, s->dp, NULL);
	vkDestroyDescriptorSetLayout(c->dev, s->sl, NULL);
	vkDestroySampler(c->dev, s->nearest, NULL);
	vkDestroySampler(c->dev, s->shadow, NULL);
	vkDestroyImageView(c->dev, s->color_view, NULL);
	vkDestroyImageView(c->dev, s->depth_view, NULL);
	vkDestroyImage(c->dev, s->color, NULL);
	vkDestroyImage(c->dev, s->depth, NULL);
	vkFreeMemory(c->dev, s->color_mem, NULL);
	vkFreeMemory(c->dev, s->depth_mem, NULL);
}

/* Draw quads (6 vertices each) with mode into a SW x SH target. */
static bool
draw_textured(struct gfx_ctx *c, struct gfx_out *o, const struct tvert *v,
              uint32_t nquads, int32_t mode)
{
	struct tex_setup s;
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 };
	bool ok = false;

	if (!tex_setup(c, &s) || !px_target(c, &t)) {
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
		tex_finish(c, &s);
		return false;
	}
	gfx_pipe_init(&p, gfx_shader(c, gfx_tex_vs_spv, sizeof(gfx_tex_vs_spv)),
	              gfx_shader(c, gfx_tex_fs_spv, sizeof(gfx_tex_fs_spv)),
	              VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	p.layout = s.pl;
	p.nbindings = 1;
	p.bindings[0] = (VkVertexInputBindingDescription){
		0, sizeof(struct tvert), 0 };
	p.nattribs = 2;
	p.attribs[0] = (VkVertexInputAttributeDescription){
		0, 0, VK_FORMAT_R32G32_SFLOAT, 0 };
	p.attribs[1] = (VkVertexInputAttributeDescription){
		1, 0, VK_FORMAT_R32G32_SFLOAT, 8 };
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       nquads * 6 * sizeof(*v), &vb)) {
		struct { float size[2]; int32_t mode; } pc = { { SW, SH }, mode };
		VkDeviceSize off = 0;
		VkCommandBuffer cb = gfx_begin(c);

		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
		                        s.pl, 0, 1, &s.set, 0, NULL);
		vkCmdPushConstants(cb, s.pl, VK_SHADER_STAGE_VERTEX_BIT |
		                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(pc),
		                   &pc);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdDraw(cb, nquads * 6, 1, 0, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
	}
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, p.vs, NULL);
	vkDestroyShaderModule(c->dev, p.fs, NULL);
	gfx_image_destroy(c, &t);
	tex_finish(c, &s);
	return ok;
}

static void
tquad(struct tvert *v, float x, float y, float size)
{
	const float c[6][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 },
	                        { 1, 0 }, { 1, 1 }, { 0, 1 } };

	for (int i = 0; i < 6; i++)
		v[i] = (struct tvert){ x + c[i][0] * size, y + c[i][1] * size,
		                       c[i][0], c[i][1] };
}

static bool
texture_lod_render(struct gfx_ctx *c, struct gfx_out *o)
{
	/* Levels 1..6 side by side in the top half (quads of 32, 16, 8,
	 * 4, 2 and 1 pixels); level 0 from a 64-pixel quad at y = 32,
	 * clipped by the target to its top 32 rows (the scale is still
	 * one texel per pixel). */
	struct tvert v[LEVELS * 6];
	float x = 0;

	for (uint32_t l = 1; l < LEVELS; l++) {
		float size = (float)(TEX >> l);

		tquad(v + 6 * l, x, 0, size);
		x += size;
	}
	tquad(v, 0, 32, 64);
	return draw_textured(c, o, v, LEVELS, 0);
}

static void
texture_lod_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint32_t x = 0;

	expect_rect(c, o, 0, 32, SW, SH, level_rgba[0], NULL);
	for (uint32_t l = 1; l < LEVELS; l++) {
		uint32_t size = TEX >> l;

		expect_rect(c, o, x, 0, x + size, size, level_rgba[l], NULL);
		x += size;
	}
}

static bool
shadow_compare_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct tvert v[6];

	tquad(v, 0, 0, 64);
	return draw_textured(c, o, v, 1, 1);
}

static void
shadow_compare_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	/* LESS: 0.5 < depth((x + 0.5) / 64): texels 32.. pass. */
	expect_rect(c, o, 32, 0, SW, SH, (const uint8_t[]){ 255, 255, 255, 255 },
	            (const uint8_t[]){ 0, 0, 0, 255 });
}

GFX_SCENE_TEST(texture_lod, 0, 0, NULL)
GFX_SCENE_TEST(shadow_compare, 0, 0, NULL)

static const struct vkh_test tests[] = {
	GFX_TEST(texture_lod), GFX_TEST(shadow_compare),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_texture", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
