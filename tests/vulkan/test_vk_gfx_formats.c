/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_formats: graphics format support through the loader with
 * validation on:
 *
 *   mandatory       every format the spec makes mandatory for
 *                   COLOR_ATTACHMENT, COLOR_ATTACHMENT_BLEND,
 *                   DEPTH_STENCIL_ATTACHMENT (D16_UNORM, one of
 *                   X8_D24/D32F, one of D24S8/D32FS8) and VERTEX_BUFFER
 *                   has the feature, and attachment formats accept the
 *                   attachment usages with one sample
 *   render_formats  every mandatory colour attachment format cleared,
 *                   drawn into (integer formats through integer
 *                   outputs) and, where blending is mandatory, blended
 *                   additively; texel bytes checked by hand for the
 *                   UNORM8 formats and against a second driver for all
 */
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_sint_fs.spv.h"
#include "gfx_uint_fs.spv.h"

enum kind { UN, UI, SI };

static const struct {
	VkFormat format;
	bool blend;
	enum kind kind;
} color_formats[] = {
	{ VK_FORMAT_R5G6B5_UNORM_PACK16, true, UN },
	{ VK_FORMAT_A1R5G5B5_UNORM_PACK16, true, UN },
	{ VK_FORMAT_R8_UNORM, true, UN },
	{ VK_FORMAT_R8_UINT, false, UI },
	{ VK_FORMAT_R8_SINT, false, SI },
	{ VK_FORMAT_R8G8_UNORM, true, UN },
	{ VK_FORMAT_R8G8_UINT, false, UI },
	{ VK_FORMAT_R8G8_SINT, false, SI },
	{ VK_FORMAT_R8G8B8A8_UNORM, true, UN },
	{ VK_FORMAT_R8G8B8A8_UINT, false, UI },
	{ VK_FORMAT_R8G8B8A8_SINT, false, SI },
	{ VK_FORMAT_R8G8B8A8_SRGB, true, UN },
	{ VK_FORMAT_B8G8R8A8_UNORM, true, UN },
	{ VK_FORMAT_B8G8R8A8_SRGB, true, UN },
	{ VK_FORMAT_A8B8G8R8_UNORM_PACK32, true, UN },
	{ VK_FORMAT_A8B8G8R8_UINT_PACK32, false, UI },
	{ VK_FORMAT_A8B8G8R8_SINT_PACK32, false, SI },
	{ VK_FORMAT_A8B8G8R8_SRGB_PACK32, true, UN },
	{ VK_FORMAT_A2B10G10R10_UNORM_PACK32, true, UN },
	{ VK_FORMAT_A2B10G10R10_UINT_PACK32, false, UI },
	{ VK_FORMAT_R16_UINT, false, UI },
	{ VK_FORMAT_R16_SINT, false, SI },
	{ VK_FORMAT_R16_SFLOAT, true, UN },
	{ VK_FORMAT_R16G16_UINT, false, UI },
	{ VK_FORMAT_R16G16_SINT, false, SI },
	{ VK_FORMAT_R16G16_SFLOAT, true, UN },
	{ VK_FORMAT_R16G16B16A16_UINT, false, UI },
	{ VK_FORMAT_R16G16B16A16_SINT, false, SI },
	{ VK_FORMAT_R16G16B16A16_SFLOAT, true, UN },
	{ VK_FORMAT_R32_UINT, false, UI },
	{ VK_FORMAT_R32_SINT, false, SI },
	{ VK_FORMAT_R32_SFLOAT, false, UN },
	{ VK_FORMAT_R32G32_UINT, false, UI },
	{ VK_FORMAT_R32G32_SINT, false, SI },
	{ VK_FORMAT_R32G32_SFLOAT, false, UN },
	{ VK_FORMAT_R32G32B32A32_UINT, false, UI },
	{ VK_FORMAT_R32G32B32A32_SINT, false, SI },
	{ VK_FORMAT_R32G32B32A32_SFLOAT, false, UN },
};
#define NCOLOR (sizeof(color_formats) / sizeof(color_formats[0]))

static const VkFormat vertex_formats[] = {
	VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R8_UINT,
	VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SNORM,
	VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8A8_UNORM,
	VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R8G8B8A8_UINT,
	VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_B8G8R8A8_UNORM,
	VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SNORM_PACK32,
	VK_FORMAT_A8B8G8R8_UINT_PACK32, VK_FORMAT_A8B8G8R8_SINT_PACK32,
	VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16_UNORM,
	VK_FORMAT_R16_SNORM, VK_FORMAT_R16_UINT, VK_FORMAT_R16_SINT,
	VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SNORM,
	VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16_SFLOAT,
	VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SNORM,
	VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_SINT,
	VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT,
	VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SINT,
	VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_UINT,
	VK_FORMAT_R32G32B32_SINT, VK_FORMAT_R32G32B32_SFLOAT,
	VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SINT,
	VK_FORMAT_R32G32B32A32_SFLOAT,
};

static VkFormatFeatureFlags
optimal(struct vkh *h, VkFormat f)
{
	VkFormatProperties p;

	vkGetPhysicalDeviceFormatProperties(h->phys, f, &p);
	return p.optimalTilingFeatures;
}

static void
test_mandatory(struct vkh *h, struct vkh_device *d)
{
	VkImageFormatProperties ifp;
	VkFormatProperties p;

	for (uint32_t i = 0; i < NCOLOR; i++) {
		VkFormatFeatureFlags f = optimal(h, color_formats[i].format);

		VKH_CHECK_MSG(h, f & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT,
		              "format %d: no COLOR_ATTACHMENT",
		              color_formats[i].format);
		VKH_CHECK_MSG(h, !color_formats[i].blend ||
		              (f & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT),
		              "format %d: no COLOR_ATTACHMENT_BLEND",
		              color_formats[i].format);
		VKH_CHECK_VK(h, vkGetPhysicalDeviceImageFormatProperties(
			h->phys, color_formats[i].format, VK_IMAGE_TYPE_2D,
			VK_IMAGE_TILING_OPTIMAL,
			VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
			VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 0, &ifp));
		VKH_CHECK(h, ifp.sampleCounts & VK_SAMPLE_COUNT_1_BIT);
	}
	VKH_CHECK(h, optimal(h, VK_FORMAT_D16_UNORM) &
	             VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
	VKH_CHECK(h, (optimal(h, VK_FORMAT_X8_D24_UNORM_PACK32) |
	              optimal(h, VK_FORMAT_D32_SFLOAT)) &
	             VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
	VKH_CHECK(h, (optimal(h, VK_FORMAT_D24_UNORM_S8_UINT) |
	              optimal(h, VK_FORMAT_D32_SFLOAT_S8_UINT)) &
	             VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
	VKH_CHECK_VK(h, vkGetPhysicalDeviceImageFormatProperties(
		h->phys, VK_FORMAT_D16_UNORM, VK_IMAGE_TYPE_2D,
		VK_IMAGE_TILING_OPTIMAL,
		VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &ifp));
	for (size_t i = 0; i < sizeof(vertex_formats) /
	                       sizeof(vertex_formats[0]); i++) {
		vkGetPhysicalDeviceFormatProperties(h->phys, vertex_formats[i],
		                                    &p);
		VKH_CHECK_MSG(h, p.bufferFeatures &
		              VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT,
		              "format %d: no VERTEX_BUFFER", vertex_formats[i]);
	}
	if (h->is_swgpu) {
		/* 1, 2, 4 and 8 samples (issue 21). */
		const VkSampleCountFlags ms = VK_SAMPLE_COUNT_1_BIT |
			VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT |
			VK_SAMPLE_COUNT_8_BIT;
		VKH_CHECK(h, h->props.limits.framebufferColorSampleCounts ==
		             ms);
		VKH_CHECK(h, h->props.limits.framebufferDepthSampleCounts ==
		             ms);
		VKH_CHECK(h, h->props.limits.maxColorAttachments == 8);
		VKH_CHECK(h, h->props.limits.subPixelPrecisionBits == 8);
	}
	(void)d;
}

/* ------------------------------------------------------------------ */

#define FW 8
#define FH 8

static uint32_t texel_bytes[NCOLOR];

static bool
render_formats_render(struct gfx_ctx *c, struct gfx_out *o)
{
	const float col[4] = { 1, 0, 1, 0 };
	struct vtx v[12];
	VkShaderModule fs[3] = {
		flat_fs(c),
		gfx_shader(c, gfx_uint_fs_spv, sizeof(gfx_uint_fs_spv)),
		gfx_shader(c, gfx_sint_fs_spv, sizeof(gfx_sint_fs_spv)),
	};
	struct vkh_buffer vb = { 0 };
	size_t total = 0;
	uint8_t *all = NULL;
	struct gfx_pipe p;
	bool ok = true;

	/* Left half: the quad; right half: the clear; bottom-right: a
	 * second quad blended ONE + ONE where blending is mandatory. */
	quad(v, 0, 0, FW / 2, FH, 0, col);
	quad(v + 6, FW / 2, FH / 2, FW, FH, 0, col);
	if (!px_pipe_init(c, &p) ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v, sizeof(v),
	                &vb))
		return false;
	vkDestroyShaderModule(c->dev, p.fs, NULL);
	p.viewports[0] = (VkViewport){ 0, 0, SW, SH, 0, 1 };
	for (uint32_t i = 0; i < NCOLOR && ok; i++) {
		const VkFormat f = color_formats[i].format;
		const enum kind k = color_formats[i].kind;
		VkClearColorValue clear;
		struct gfx_image t;
		struct gfx_out one = { 0 };
		VkPipeline draw, add = VK_NULL_HANDLE;

		if (k == UN)
			clear = (VkClearColorValue){ .float32 = { 0, 1, 0, 1 } };
		else if (k == UI)
			clear = (VkClearColorValue){ .uint32 = { 0, 1, 0, 1 } };
		else
			clear = (VkClearColorValue){ .int32 = { 0, -1, 0, 1 } };
		p.fs = fs[k];
		p.color_formats[0] = f;
		p.blend[0].blendEnable = VK_FALSE;
		draw = gfx_pipeline(c, &p);
		if (color_formats[i].blend) {
			p.blend[0] = (VkPipelineColorBlendAttachmentState){
				VK_TRUE, VK_BLEND_FACTOR_ONE,
				VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
				VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
				VK_BLEND_OP_ADD, 0xf };
			add = gfx_pipeline(c, &p);
		}
		ok = draw && gfx_image(c, f, FW, FH, 1,
		                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &t);
		if (ok) {
			VkDeviceSize off = 0;
			VkCommandBuffer cb = gfx_begin(c);

			gfx_begin_rendering(cb, &t, &clear, NULL, false, 0, 0);
			px_push(c, cb, 0, 0);
			vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
			                  draw);
			vkCmdDraw(cb, 6, 1, 0, 0);
			if (add) {
				vkCmdBindPipeline(cb,
				                  VK_PIPELINE_BIND_POINT_GRAPHICS,
				                  add);
				vkCmdDraw(cb, 6, 1, 6, 0);
			}
			vkCmdEndRendering(cb);
			ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, &one);
			gfx_image_destroy(c, &t);
		}
		if (ok) {
			size_t n = (size_t)FW * FH * one.texel;

			texel_bytes[i] = one.texel;
			all = realloc(all, total + n);
			memcpy(all + total, one.color, n);
			total += n;
		}
		free(one.color);
		vkDestroyPipeline(c->dev, draw, NULL);
		vkDestroyPipeline(c->dev, add, NULL);
	}
	for (int k = 0; k < 3; k++)
		vkDestroyShaderModule(c->dev, fs[k], NULL);
	p.fs = VK_NULL_HANDLE;
	px_pipe_finish(c, &p);
	vkh_buffer_destroy(c->d, &vb);
	if (!ok) {
		free(all);
		return false;
	}
	o->w = (uint32_t)total;
	o->h = 1;
	o->texel = 1;
	o->format = VK_FORMAT_R8_UINT;
	o->color = all;
	return true;
}

static void
render_formats_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	size_t at = 0;

	for (uint32_t i = 0; i < NCOLOR; i++) {
		const uint8_t *img = o->color + at;
		const VkFormat f = color_formats[i].format;

		at += (size_t)FW * FH * texel_bytes[i];
		if (f != VK_FORMAT_R8G8B8A8_UNORM &&
		    f != VK_FORMAT_R8G8B8A8_SRGB &&
		    f != VK_FORMAT_B8G8R8A8_UNORM)
			continue;
		for (uint32_t y = 0; y < FH; y++)
			for (uint32_t x = 0; x < FW; x++) {
				const uint8_t *t = img + (y * FW + x) * 4;
				/* (1,0,1,0) drawn, (0,1,0,1) cleared, their
				 * sum blended: every channel 255 there. */
				bool quad = x < FW / 2;
				bool sum = !quad && y >= FH / 2;
				uint8_t want[4] = { 0, 255, 0, 255 };

				if (quad)
					memcpy(want, (uint8_t[]){ 255, 0, 255, 0 },
					       4);
				if (sum)
					memset(want, 255, 4);
				if (memcmp(t, want, 4)) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: format %d (%u,%u)",
					         c->driver, f, x, y);
					return;
				}
			}
	}
}

GFX_SCENE_TEST(render_formats, 0, 0, NULL)

static const struct vkh_test tests[] = {
	{ "mandatory", test_mandatory, 1, VK_QUEUE_GRAPHICS_BIT },
	GFX_TEST(render_formats),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_formats", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
