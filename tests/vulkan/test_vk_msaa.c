/* SPDX-License-Identifier: MIT */
/*
 * test_vk_msaa: multisampling through the loader with validation on;
 * each scene checked by hand and against a second driver (lavapipe,
 * vkh_gfx.h):
 *
 *   coverage_2/4/8  a fan of triangles with vertices at arbitrary 1/256
 *                   positions and a square cut along its diagonal
 *                   (through sample locations), drawn once per sample s
 *                   with pSampleMask = 1 << s into a cleared S-sample
 *                   image resolved (dynamic rendering, AVERAGE) after
 *                   each: the output's red byte is the pixel's mask of
 *                   covered samples, exact against lavapipe; by hand:
 *                   samples strictly inside the shapes are covered,
 *                   strictly outside not
 *   depth           per-sample depth: a depth ramp z = x / 64 at every
 *                   sample, then red at z 0.5 with LESS; colour resolve
 *                   (tolerance 1) and depth resolve SAMPLE_ZERO: sample
 *                   0's depth (x + 0.375) / 64
 *   depth_minmax    the same ramp resolved with MIN and MAX (where the
 *                   driver offers them)
 *   alpha_coverage  alpha to coverage with alpha k / 4 at 4 samples:
 *                   the resolved value counts k covered samples
 *   copy_clear      vkCmdClearColorImage of a 4-sample image, a draw
 *                   into its samples 0 and 2, vkCmdCopyImage to another
 *                   4-sample image, vkCmdClearAttachments of a rect
 *                   there, vkCmdResolveImage to a single-sampled one
 *   render_pass     a render pass with a 4-sample colour attachment and
 *                   pResolveAttachments (vkCreateRenderPass2)
 *   occlusion       a precise occlusion query around the octagon fan at
 *                   4 samples counts covered samples: between the
 *                   samples strictly inside and those not strictly
 *                   outside, and equal to lavapipe's
 *   ds_resolve_none a render pass 2 depth/stencil resolve, depth
 *                   SAMPLE_ZERO and stencil NONE, into an attachment
 *                   whose load ops clear it: stencil keeps the clear
 *                   value (a resolve attachment's load ops apply)
 *   bad_resolve     a resolve into a multisampled image (render pass 2
 *                   and dynamic rendering): the layer's VUID, then
 *                   swgpu refuses the render pass / command buffer
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"
#include "msaa_shape.h"

static const float WHITE[4] = { 1, 1, 1, 1 };

static bool
ms_color(struct gfx_ctx *c, VkSampleCountFlagBits s, struct gfx_image *t)
{
	return gfx_image_ms(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 1, s,
	                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, t);
}

/* ---- coverage ---- */

static bool
coverage_render(struct gfx_ctx *c, struct gfx_out *o, uint32_t S)
{
	struct vtx v[MSAA_COVERAGE_VERTICES];
	uint32_t n = coverage_shape(v);
	struct gfx_image t, res;
	bool ok = ms_color(c, (VkSampleCountFlagBits)S, &t) &&
	          px_target(c, &res);

	for (uint32_t s = 0; ok && s < S; s++) {
		struct gfx_pipe p;
		struct vkh_buffer vb;
		struct gfx_out one;
		const VkSampleMask mask = 1u << s;
		VkPipeline pipe = VK_NULL_HANDLE;

		memset(&one, 0, sizeof(one));
		ok = px_pipe_init(c, &p);
		p.samples = (VkSampleCountFlagBits)S;
		p.sample_mask = &mask;
		if (ok)
			pipe = gfx_pipeline(c, &p);
		ok = ok && pipe;
		if (ok) {
			VkCommandBuffer cb = gfx_begin(c);
			begin_ms(cb, &t, &res, NULL, NULL, 0, false);
			ok = draw_in(c, cb, pipe, v, n, &vb);
			vkCmdEndRendering(cb);
			ok = gfx_submit(c, cb) && ok && gfx_read(c, &res, NULL, &one);
			vkh_buffer_destroy(c->d, &vb);
		}
		/* sample 0's output becomes o: its red byte the mask */
		if (ok && s == 0)
			*o = one;
		for (uint32_t i = 0; ok && i < SW * SH; i++) {
			const uint8_t bit = one.color[4 * i] > 0 ? 1u << s : 0;
			if (s == 0)
				memset(&o->color[4 * i], 0, 4);
			o->color[4 * i] |= bit;
		}
		if (s)
			free(one.color);
		vkDestroyPipeline(c->dev, pipe, NULL);
		px_pipe_finish(c, &p);
	}
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &res);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}



#define COVERAGE(S)                                                         \
	static bool coverage_##S##_render(struct gfx_ctx *c,                \
	                                  struct gfx_out *o)                \
	{ return coverage_render(c, o, S); }                                \
	static void coverage_##S##_check(struct gfx_ctx *c,                 \
	                                 const struct gfx_out *o)           \
	{ coverage_check(c, o, S); }                                        \
	static bool has_##S(const struct vkh *h)                            \
	{ return has_samples(h, (VkSampleCountFlagBits)S); }                \
	GFX_SCENE_TEST(coverage_##S, 0, 0, has_##S)
COVERAGE(2)
COVERAGE(4)
COVERAGE(8)

/* ---- depth ---- */

static bool
depth_render_mode(struct gfx_ctx *c, struct gfx_out *o,
                  VkResolveModeFlagBits dmode)
{
	struct vtx ramp[6], red[6];
	struct gfx_image t, res, ds, dres;
	struct gfx_pipe p1, p2;
	VkPipeline pipe1 = VK_NULL_HANDLE, pipe2 = VK_NULL_HANDLE;
	struct vkh_buffer vb1 = { 0 }, vb2 = { 0 };
	const float r[4] = { 1, 0, 0, 1 };
	bool ok;

	/* the ramp: z = x / 64 over the whole target */
	const float xy[6][2] = { { 0, 0 }, { SW, 0 }, { 0, SH },
	                         { SW, 0 }, { SW, SH }, { 0, SH } };
	for (int i = 0; i < 6; i++)
		ramp[i] = (struct vtx){ xy[i][0], xy[i][1], xy[i][0] / SW,
		                        0, 0, 1, 1 };
	quad(red, 0, 0, SW, SH, 0.5f, r);
	ok = ms_color(c, VK_SAMPLE_COUNT_4_BIT, &t) && px_target(c, &res) &&
	     gfx_image_ms(c, VK_FORMAT_D32_SFLOAT, SW, SH, 1,
	                  VK_SAMPLE_COUNT_4_BIT,
	                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) &&
	     gfx_image(c, VK_FORMAT_D32_SFLOAT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &dres) &&
	     px_pipe_init(c, &p1) && px_pipe_init(c, &p2);
	if (ok) {
		p1.samples = p2.samples = VK_SAMPLE_COUNT_4_BIT;
		p1.depth_format = p2.depth_format = VK_FORMAT_D32_SFLOAT;
		p1.ds.depthTestEnable = p2.ds.depthTestEnable = VK_TRUE;
		p1.ds.depthWriteEnable = VK_TRUE;
		p1.ds.depthCompareOp = VK_COMPARE_OP_ALWAYS;
		p2.ds.depthCompareOp = VK_COMPARE_OP_LESS;
		pipe1 = gfx_pipeline(c, &p1);
		pipe2 = gfx_pipeline(c, &p2);
		ok = pipe1 && pipe2;
	}
	if (ok) {
		VkCommandBuffer cb = gfx_begin(c);
		begin_ms(cb, &t, &res, &ds, &dres, dmode, false);
		ok = draw_in(c, cb, pipe1, ramp, 6, &vb1) &&
		     draw_in(c, cb, pipe2, red, 6, &vb2);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &res, &dres, o);
		vkh_buffer_destroy(c->d, &vb1);
		vkh_buffer_destroy(c->d, &vb2);
	}
	vkDestroyPipeline(c->dev, pipe1, NULL);
	vkDestroyPipeline(c->dev, pipe2, NULL);
	px_pipe_finish(c, &p1);
	px_pipe_finish(c, &p2);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &res);
	gfx_image_destroy(c, &ds);
	gfx_image_destroy(c, &dres);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

/* Red covers the samples whose ramp depth is >= 0.5 (LESS: 0.5 < z):
 * columns x >= 32 all, x < 31 none, x = 31 those right of 0.5 * 64. */
static void
depth_check_mode(struct gfx_ctx *c, const struct gfx_out *o,
                 VkResolveModeFlagBits dmode)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *t = gfx_texel(o, x, y);
			uint32_t red = 0;
			double zmin = 2, zmax = -1;
			for (uint32_t s = 0; s < 4; s++) {
				double z = (x + pos16[2][s][0] / 16.0) / SW;
				red += z > 0.5;
				zmin = z < zmin ? z : zmin;
				zmax = z > zmax ? z : zmax;
			}
			double want_z = dmode == VK_RESOLVE_MODE_MIN_BIT ? zmin
			                : dmode == VK_RESOLVE_MODE_MAX_BIT ? zmax
			                : (x + pos16[2][0][0] / 16.0) / SW;
			int want_r = (int)(255.0 * red / 4 + 0.5);
			float z = o->depth[y * SW + x];
			if (abs((int)t[0] - want_r) > 1 ||
			    fabs(z - want_z) > 1e-6) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u, %u): red %u depth %f, want %d %f",
				         c->driver, x, y, t[0], (double)z, want_r,
				         want_z);
				return;
			}
		}
}

static bool
depth_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return depth_render_mode(c, o, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
}

static void
depth_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	depth_check_mode(c, o, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
}

/* MIN then MAX: two renders, the MAX depths kept in values[]. */
static bool
depth_minmax_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct gfx_out mx;

	memset(&mx, 0, sizeof(mx));
	if (!depth_render_mode(c, o, VK_RESOLVE_MODE_MIN_BIT) ||
	    !depth_render_mode(c, &mx, VK_RESOLVE_MODE_MAX_BIT))
		return false;
	/* row 0 of the MAX depths as values (every row is the same) */
	for (uint32_t x = 0; x < SW && x < GFX_MAX_VALUES; x++) {
		double z = mx.depth[x];
		memcpy(&o->values[x], &z, sizeof(z));
	}
	o->nvalues = SW < GFX_MAX_VALUES ? SW : GFX_MAX_VALUES;
	free(mx.color);
	free(mx.depth);
	free(mx.stencil);
	return true;
}

static void
depth_minmax_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	depth_check_mode(c, o, VK_RESOLVE_MODE_MIN_BIT);
	for (uint32_t x = 0; x < o->nvalues; x++) {
		double z, want = (x + 14 / 16.0) / SW;
		memcpy(&z, &o->values[x], sizeof(z));
		VKH_CHECK(c->h, fabs(z - want) < 1e-6);
	}
}

static bool
has_minmax(const struct vkh *h)
{
	VkPhysicalDeviceDepthStencilResolveProperties dr = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &dr,
	};
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	return (dr.supportedDepthResolveModes &
	        (VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT)) ==
	       (VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT);
}

GFX_SCENE_TEST(depth, 1, 1e-6f, NULL)
GFX_SCENE_TEST(depth_minmax, 1, 1e-6f, has_minmax)

/* ---- alpha to coverage ---- */

static bool
alpha_coverage_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[30];
	struct gfx_image t, res;
	struct gfx_pipe p;
	struct vkh_buffer vb = { 0 };
	VkPipeline pipe = VK_NULL_HANDLE;
	bool ok;

	for (uint32_t k = 0; k < 5; k++) {
		const float rgba[4] = { 1, 1, 1, (float)k / 4 };
		quad(v + 6 * k, 12.0f * (float)k, 0, 12.0f * (float)(k + 1), SH,
		     0.5f, rgba);
	}
	ok = ms_color(c, VK_SAMPLE_COUNT_4_BIT, &t) && px_target(c, &res) &&
	     px_pipe_init(c, &p);
	if (ok) {
		p.samples = VK_SAMPLE_COUNT_4_BIT;
		p.alpha_to_coverage = VK_TRUE;
		pipe = gfx_pipeline(c, &p);
		ok = pipe != VK_NULL_HANDLE;
	}
	if (ok) {
		VkCommandBuffer cb = gfx_begin(c);
		begin_ms(cb, &t, &res, NULL, NULL, 0, false);
		ok = draw_in(c, cb, pipe, v, 30, &vb);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &res, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &res);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

/* Column k (alpha k / 4) resolves to k covered samples of 4. */
static void
alpha_coverage_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < 60; x++) {
			const uint32_t k = x / 12;
			const int want = (int)(255.0 * k / 4 + 0.5);
			const uint8_t *t = gfx_texel(o, x, y);
			if (abs((int)t[0] - want) > 1) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u, %u) alpha %u/4: red %u, want "
				         "%d", c->driver, x, y, k, t[0], want);
				return;
			}
		}
}

GFX_SCENE_TEST(alpha_coverage, 1, 0, NULL)

/* ---- copies, clears, vkCmdResolveImage ---- */

/* img from layout from to layout to, every access before and after. */
static void
relayout(VkCommandBuffer cb, const struct gfx_image *img,
         VkImageLayout from, VkImageLayout to)
{
	const VkImageMemoryBarrier2 ib = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT |
		                 VK_ACCESS_2_MEMORY_WRITE_BIT,
		.oldLayout = from, .newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img->image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	const VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &ib,
	};
	vkCmdPipelineBarrier2(cb, &di);
}

static bool
copy_clear_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[6];
	struct gfx_image a, b, res;
	struct gfx_pipe p;
	struct vkh_buffer vb = { 0 };
	VkPipeline pipe = VK_NULL_HANDLE;
	const VkSampleMask mask = 0x5;
	bool ok;

	quad(v, 0, 0, 32, SH, 0.5f, WHITE);
	ok = ms_color(c, VK_SAMPLE_COUNT_4_BIT, &a) &&
	     ms_color(c, VK_SAMPLE_COUNT_4_BIT, &b) && px_target(c, &res) &&
	     px_pipe_init(c, &p);
	if (ok) {
		p.samples = VK_SAMPLE_COUNT_4_BIT;
		p.sample_mask = &mask;
		pipe = gfx_pipeline(c, &p);
		ok = pipe != VK_NULL_HANDLE;
	}
	if (ok) {
		const VkClearColorValue blue = { .float32 = { 0, 0, 1, 1 } };
		const VkImageSubresourceRange all = {
			VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
		const VkImageSubresourceLayers l0 = {
			VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 };
		VkCommandBuffer cb = gfx_begin(c);
		relayout(cb, &a, VK_IMAGE_LAYOUT_GENERAL,
		         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		vkCmdClearColorImage(cb, a.image,
		                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &blue,
		                     1, &all);
		relayout(cb, &a, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		         VK_IMAGE_LAYOUT_GENERAL);
		begin_ms(cb, &a, NULL, NULL, NULL, 0, true);
		ok = draw_in(c, cb, pipe, v, 6, &vb);
		vkCmdEndRendering(cb);
		relayout(cb, &a, VK_IMAGE_LAYOUT_GENERAL,
		         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		relayout(cb, &b, VK_IMAGE_LAYOUT_GENERAL,
		         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		const VkImageCopy cp = { l0, { 0, 0, 0 }, l0, { 0, 0, 0 },
		                         { SW, SH, 1 } };
		vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		               b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
		               &cp);
		relayout(cb, &a, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		         VK_IMAGE_LAYOUT_GENERAL);
		relayout(cb, &b, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		         VK_IMAGE_LAYOUT_GENERAL);
		begin_ms(cb, &b, NULL, NULL, NULL, 0, true);
		const VkClearAttachment ca = {
			VK_IMAGE_ASPECT_COLOR_BIT, 0,
			{ .color = { .float32 = { 0, 1, 0, 1 } } } };
		const VkClearRect cr = { { { 0, 48 }, { SW, 16 } }, 0, 1 };
		vkCmdClearAttachments(cb, 1, &ca, 1, &cr);
		vkCmdEndRendering(cb);
		relayout(cb, &b, VK_IMAGE_LAYOUT_GENERAL,
		         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		relayout(cb, &res, VK_IMAGE_LAYOUT_GENERAL,
		         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		const VkImageResolve rv = { l0, { 0, 0, 0 }, l0, { 0, 0, 0 },
		                            { SW, SH, 1 } };
		vkCmdResolveImage(cb, b.image,
		                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, res.image,
		                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &rv);
		relayout(cb, &b, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		         VK_IMAGE_LAYOUT_GENERAL);
		relayout(cb, &res, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		         VK_IMAGE_LAYOUT_GENERAL);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &res, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &a);
	gfx_image_destroy(c, &b);
	gfx_image_destroy(c, &res);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

/* Rows >= 48 green; above: x < 32 half white half blue (samples 0, 2
 * white), x >= 32 blue. */
static void
copy_clear_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *t = gfx_texel(o, x, y);
			int want[4] = { 0, 0, 255, 255 };
			if (y >= 48) {
				want[1] = 255;
				want[2] = 0;
			} else if (x < 32) {
				want[0] = want[1] = 128;
			}
			for (int k = 0; k < 4; k++)
				if (abs((int)t[k] - want[k]) > 1) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: (%u, %u) channel %d: %u, "
					         "want %d", c->driver, x, y, k,
					         t[k], want[k]);
					return;
				}
		}
}

GFX_SCENE_TEST(copy_clear, 1, 0, NULL)

/* ---- render pass resolve ---- */

static VkRenderPass
ms_render_pass(struct gfx_ctx *c, VkSampleCountFlagBits resolve_samples)
{
	const VkAttachmentDescription2 att[2] = {
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = VK_SAMPLE_COUNT_4_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = resolve_samples,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
	};
	const VkAttachmentReference2 cref = {
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = 0, .layout = VK_IMAGE_LAYOUT_GENERAL,
		.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
	};
	const VkAttachmentReference2 rref = {
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = 1, .layout = VK_IMAGE_LAYOUT_GENERAL,
		.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
	};
	const VkSubpassDescription2 sd = {
		.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.colorAttachmentCount = 1, .pColorAttachments = &cref,
		.pResolveAttachments = &rref,
	};
	const VkRenderPassCreateInfo2 ci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
		.attachmentCount = 2, .pAttachments = att,
		.subpassCount = 1, .pSubpasses = &sd,
	};
	VkRenderPass rp = VK_NULL_HANDLE;

	if (vkCreateRenderPass2(c->dev, &ci, NULL, &rp) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return rp;
}

static bool
render_pass_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[40];
	uint32_t n = shape_vertices(v);
	struct gfx_image t, res;
	struct gfx_pipe p;
	struct vkh_buffer vb = { 0 };
	VkPipeline pipe = VK_NULL_HANDLE;
	VkRenderPass rp = VK_NULL_HANDLE;
	VkFramebuffer fb = VK_NULL_HANDLE;
	bool ok;

	ok = ms_color(c, VK_SAMPLE_COUNT_4_BIT, &t) && px_target(c, &res) &&
	     px_pipe_init(c, &p) &&
	     (rp = ms_render_pass(c, VK_SAMPLE_COUNT_1_BIT)) != VK_NULL_HANDLE;
	if (ok) {
		const VkImageView views[2] = { t.view, res.view };
		const VkFramebufferCreateInfo fci = {
			.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
			.renderPass = rp, .attachmentCount = 2,
			.pAttachments = views, .width = SW, .height = SH,
			.layers = 1,
		};
		ok = vkCreateFramebuffer(c->dev, &fci, NULL, &fb) == VK_SUCCESS;
		p.samples = VK_SAMPLE_COUNT_4_BIT;
		p.render_pass = rp;
		pipe = ok ? gfx_pipeline(c, &p) : VK_NULL_HANDLE;
		ok = ok && pipe;
	}
	if (ok) {
		const VkClearValue cv = { .color = { .float32 = { 0, 0, 0, 1 } } };
		const VkRenderPassBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
			.renderPass = rp, .framebuffer = fb,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.clearValueCount = 1, .pClearValues = &cv,
		};
		VkCommandBuffer cb = gfx_begin(c);
		vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
		ok = draw_in(c, cb, pipe, v, n, &vb);
		vkCmdEndRenderPass(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &res, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyFramebuffer(c->dev, fb, NULL);
	vkDestroyRenderPass(c->dev, rp, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &res);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

/* Pixels with every sample strictly inside the octagon are white, with
 * every sample strictly outside black (alpha 1), the edge in between. */
static void
render_pass_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			uint32_t in = 0, out = 0;
			for (uint32_t s = 0; s < 4; s++) {
				int side = oct_side(x + pos16[2][s][0] / 16.0,
				                    y + pos16[2][s][1] / 16.0);
				in += side > 0;
				out += side < 0;
			}
			const uint8_t *t = gfx_texel(o, x, y);
			int want = (int)(255.0 * in / 4 + 0.5);
			if (in + out == 4 && abs((int)t[0] - want) > 1) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u, %u): %u, want %d", c->driver,
				         x, y, t[0], want);
				return;
			}
			VKH_CHECK(c->h, t[3] == 255);
		}
}

GFX_SCENE_TEST(render_pass, 1, 0, NULL)

/* ---- occlusion queries count samples ---- */

static bool
occlusion_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[40];
	uint32_t n = shape_vertices(v);
	struct gfx_image t, res;
	struct gfx_pipe p;
	struct vkh_buffer vb = { 0 };
	VkPipeline pipe = VK_NULL_HANDLE;
	VkQueryPool pool = VK_NULL_HANDLE;
	const VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_OCCLUSION, .queryCount = 1,
	};
	bool ok;

	ok = ms_color(c, VK_SAMPLE_COUNT_4_BIT, &t) && px_target(c, &res) &&
	     px_pipe_init(c, &p) &&
	     vkCreateQueryPool(c->dev, &qci, NULL, &pool) == VK_SUCCESS;
	if (ok) {
		p.samples = VK_SAMPLE_COUNT_4_BIT;
		pipe = gfx_pipeline(c, &p);
		ok = pipe != VK_NULL_HANDLE;
	}
	if (ok) {
		VkCommandBuffer cb = gfx_begin(c);
		vkCmdResetQueryPool(cb, pool, 0, 1);
		begin_ms(cb, &t, &res, NULL, NULL, 0, false);
		vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
		ok = draw_in(c, cb, pipe, v, n, &vb);
		vkCmdEndQuery(cb, pool, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &res, NULL, o);
		ok = ok && vkGetQueryPoolResults(
			c->dev, pool, 0, 1, sizeof(o->values[0]), &o->values[0],
			sizeof(o->values[0]),
			VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) ==
			VK_SUCCESS;
		o->nvalues = 1;
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyQueryPool(c->dev, pool, NULL);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &res);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static void
occlusion_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint64_t in = 0, maybe = 0;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++)
			for (uint32_t s = 0; s < 4; s++) {
				int side = oct_side(x + pos16[2][s][0] / 16.0,
				                    y + pos16[2][s][1] / 16.0);
				in += side > 0;
				maybe += side >= 0;
			}
	if (o->values[0] < in || o->values[0] > maybe)
		vkh_fail(c->h, __FILE__, __LINE__,
		         "%s: %llu samples passed, want %llu..%llu", c->driver,
		         (unsigned long long)o->values[0],
		         (unsigned long long)in, (unsigned long long)maybe);
}

GFX_SCENE_TEST(occlusion, 1, 0, NULL)

/* ---- bad input ---- */

static void
test_bad_resolve(struct vkh *h, struct vkh_device *d)
{
	struct gfx_ctx c = {
		.h = h, .d = d, .dev = d->device, .queue = d->queues[0].queue,
		.pool = d->queues[0].pool, .driver = h->driver.driverName,
	};
	struct gfx_image t, t2;

	if (!h->is_swgpu) {
		vkh_skip(h, "an invalid resolve may crash %s",
		         h->driver.driverName);
		return;
	}
	/* render pass 2: the resolve attachment has 4 samples */
	vkh_expect_message("pResolveAttachments");
	VkRenderPass rp = ms_render_pass(&c, VK_SAMPLE_COUNT_4_BIT);
	VKH_CHECK(h, rp == VK_NULL_HANDLE);
	VKH_CHECK(h, !h->validation || vkh_expected_errors > 0);
	vkh_expect_clear();
	vkDestroyRenderPass(c.dev, rp, NULL);
	/* dynamic rendering: resolveImageView multisampled */
	if (!ms_color(&c, VK_SAMPLE_COUNT_4_BIT, &t) ||
	    !ms_color(&c, VK_SAMPLE_COUNT_4_BIT, &t2))
		return;
	VkCommandBuffer cb = gfx_begin(&c);
	vkh_expect_message("resolveImageView");
	begin_ms(cb, &t, &t2, NULL, NULL, 0, false);
	vkCmdEndRendering(cb);
	VKH_CHECK(h, vkEndCommandBuffer(cb) != VK_SUCCESS);
	VKH_CHECK(h, !h->validation || vkh_expected_errors > 0);
	vkh_expect_clear();
	vkFreeCommandBuffers(c.dev, c.pool, 1, &cb);
	/* the device still works */
	cb = gfx_begin(&c);
	VKH_CHECK(h, gfx_submit(&c, cb));
	gfx_image_destroy(&c, &t);
	gfx_image_destroy(&c, &t2);
	gfx_forget_layout(c.dev);
}

/* ---- ds_resolve_none: a resolve attachment's load ops ---- */

/* A render pass 2 with a 4-sample D32_SFLOAT_S8_UINT attachment (cleared
 * to depth 1, stencil 0) resolved into a single-sampled one whose load
 * ops CLEAR it to depth 0.25, stencil 7: depth SAMPLE_ZERO, stencil
 * NONE. */
static VkRenderPass
ds_resolve_pass(struct gfx_ctx *c)
{
	VkAttachmentDescription2 att[2] = {
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_D32_SFLOAT_S8_UINT,
		  .samples = VK_SAMPLE_COUNT_4_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_D32_SFLOAT_S8_UINT,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
	};
	const VkAttachmentReference2 dref = {
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = 0, .layout = VK_IMAGE_LAYOUT_GENERAL,
		.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT |
		              VK_IMAGE_ASPECT_STENCIL_BIT,
	};
	const VkAttachmentReference2 rref = {
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = 1, .layout = VK_IMAGE_LAYOUT_GENERAL,
		.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT |
		              VK_IMAGE_ASPECT_STENCIL_BIT,
	};
	const VkSubpassDescriptionDepthStencilResolve dsr = {
		.sType =
		  VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE,
		.depthResolveMode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT,
		.stencilResolveMode = VK_RESOLVE_MODE_NONE,
		.pDepthStencilResolveAttachment = &rref,
	};
	const VkSubpassDescription2 sd = {
		.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
		.pNext = &dsr,
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.pDepthStencilAttachment = &dref,
	};
	const VkRenderPassCreateInfo2 ci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
		.attachmentCount = 2, .pAttachments = att,
		.subpassCount = 1, .pSubpasses = &sd,
	};
	VkRenderPass rp = VK_NULL_HANDLE;

	if (vkCreateRenderPass2(c->dev, &ci, NULL, &rp) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return rp;
}

/* A quad at depth 0.5 over [16, 48)^2 (no colour, no fragment shader). */
static bool
ds_resolve_none_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct gfx_image ds, res;
	struct gfx_pipe p;
	struct vkh_buffer vb = { 0 };
	VkPipeline pipe = VK_NULL_HANDLE;
	VkFramebuffer fb = VK_NULL_HANDLE;
	VkRenderPass rp = VK_NULL_HANDLE;
	VkShaderModule fs;
	struct vtx v[6];
	bool ok = false;

	quad(v, 16, 16, 48, 48, 0.5f, WHITE);
	if (!gfx_image_ms(c, VK_FORMAT_D32_SFLOAT_S8_UINT, SW, SH, 1,
	                  VK_SAMPLE_COUNT_4_BIT,
	                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !gfx_image(c, VK_FORMAT_D32_SFLOAT_S8_UINT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &res) ||
	    !px_pipe_init(c, &p))
		return false;
	rp = ds_resolve_pass(c);
	VkImageView views[2] = { ds.view, res.view };
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.renderPass = rp, .attachmentCount = 2, .pAttachments = views,
		.width = SW, .height = SH, .layers = 1,
	};
	fs = p.fs;
	p.fs = VK_NULL_HANDLE;
	p.ncolor = 0;
	p.samples = VK_SAMPLE_COUNT_4_BIT;
	p.render_pass = rp;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	if (rp && vkCreateFramebuffer(c->dev, &fci, NULL, &fb) == VK_SUCCESS)
		pipe = gfx_pipeline(c, &p);
	if (pipe) {
		VkClearValue clear[2] = {
			{ .depthStencil = { 1.0f, 0 } },
			{ .depthStencil = { 0.25f, 7 } },
		};
		VkRenderPassBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
			.renderPass = rp, .framebuffer = fb,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.clearValueCount = 2, .pClearValues = clear,
		};
		VkCommandBuffer cb = gfx_begin(c);

		vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
		ok = draw_in(c, cb, pipe, v, 6, &vb);
		vkCmdEndRenderPass(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, NULL, &res, o);
	}
	p.fs = fs;
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyFramebuffer(c->dev, fb, NULL);
	vkDestroyRenderPass(c->dev, rp, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &ds);
	gfx_image_destroy(c, &res);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

/* Depth resolved (sample 0): 0.5 in the quad, 1 outside; stencil not
 * resolved: the resolve attachment's clear value 7 everywhere. */
static void
ds_resolve_none_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const bool in = x >= 16 && x < 48 && y >= 16 && y < 48;
			const float d = o->depth[y * SW + x];
			const uint8_t st = o->stencil[y * SW + x];
			if (d != (in ? 0.5f : 1.0f) || st != 7) {
				vkh_fail(c->h, __FILE__, __LINE__, "%s: (%u, %u) "
				         "depth %g stencil %u, want %g and 7",
				         c->driver, x, y, (double)d, st,
				         in ? 0.5 : 1.0);
				return;
			}
		}
}

/* Resolving one aspect and not the other needs independentResolveNone
 * (lavapipe does not offer it). */
static bool
has_resolve_none(const struct vkh *h)
{
	VkPhysicalDeviceDepthStencilResolveProperties r = {
		.sType =
		  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &r,
	};

	vkGetPhysicalDeviceProperties2(h->phys, &p);
	return r.independentResolveNone &&
	       (r.supportedDepthResolveModes &
	        VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
}

GFX_SCENE_TEST(ds_resolve_none, 0, 0, has_resolve_none)

static const struct vkh_test tests[] = {
	GFX_TEST(coverage_2), GFX_TEST(coverage_4), GFX_TEST(coverage_8),
	GFX_TEST(depth), GFX_TEST(depth_minmax), GFX_TEST(alpha_coverage),
	GFX_TEST(copy_clear), GFX_TEST(render_pass), GFX_TEST(occlusion),
	GFX_TEST(bad_resolve), GFX_TEST(ds_resolve_none),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_msaa", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
