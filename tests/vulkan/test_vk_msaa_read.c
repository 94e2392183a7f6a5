/* SPDX-License-Identifier: MIT */
/*
 * test_vk_msaa_read: fragment shaders reading the samples of
 * multisampled images, through the loader with validation on; each scene
 * checked by hand and against a second driver (lavapipe, vkh_gfx.h):
 *
 *   input_4      a render pass whose subpass 0 draws the coverage shape
 *                (msaa_shape.h) into a 4-sample colour attachment and
 *                whose subpass 1 reads its samples with subpassLoad
 *                (subpassInputMS): red is the pixel's mask of covered
 *                samples, green their count x 16
 *   fetch_2/4/8  the shape drawn into an S-sample image in dynamic
 *                rendering, then a second pass texelFetch'es each of its
 *                samples (sampler2DMS): red the mask; green
 *                textureSamples x 16 + 1 when textureSize is 64x64
 *   interp_4     a full-screen quad at 4 samples, shaded once per pixel,
 *                whose input holds the pixel coordinates: the fractions
 *                of interpolateAtSample(v, 2) (sample 2's standard
 *                location, (2, 10) / 16) and interpolateAtOffset(v,
 *                (-0.25, 0.125)) (the centre moved: (4, 10) / 16),
 *                resolved (AVERAGE of equal samples)
 *   centroid_4   a triangle at 4 samples, shaded once per pixel, with a
 *                Centroid input holding the pixel coordinates: the point
 *                it was evaluated at lies in the triangle and the pixel
 *                (the shader tests both), so after the AVERAGE resolve
 *                red = green = alpha = covered samples / 4 everywhere
 *   at_centroid_4     a triangle at 4 samples, shaded once per pixel:
 *                interpolateAtCentroid of a plain noperspective input at
 *                the centroid computed here (the centre of a covered
 *                pixel, else its lowest covered sample), equal to the
 *                Centroid-decorated copy
 *   at_centroid_4_ss  the same per sample: inside pixel and triangle
 *   lines_2/4/8  line segments at S samples (steep, shallow, 45 degrees,
 *                short, either direction, and axis-aligned ones with
 *                sample locations exactly on their edges and caps), read
 *                back with texelFetch: each pixel's mask equals the
 *                spec's rectangle rule computed here, bit for bit
 *   lines_interp_4  anti-diagonal segments at 4 samples with red 0 -> 1
 *                along each: every pixel's colour is the one at its
 *                centre by the spec's projected t, times its coverage
 *
 * The masks are exact: samples strictly inside the shape covered,
 * strictly outside not, and equal to lavapipe's bit for bit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"
#include "msaa_shape.h"

#include "gfx_fullscreen_vs.spv.h"
#include "gfx_ms_fetch_fs.spv.h"
#include "gfx_ms_at_centroid_fs.spv.h"
#include "gfx_ms_at_centroid_ss_fs.spv.h"
#include "gfx_ms_centroid_fs.spv.h"
#include "gfx_ms_input_fs.spv.h"
#include "gfx_ms_interp_fs.spv.h"
#include "gfx_smooth_fs.spv.h"
#include "gfx_smooth_vs.spv.h"

/* One descriptor (input attachment or combined image sampler) at
 * binding 0 of set 0, for the fragment stage. */
struct one_set {
	VkDescriptorSetLayout set_layout;
	VkPipelineLayout layout;
	VkDescriptorPool pool;
	VkDescriptorSet set;
	VkSampler sampler;
};

static bool
one_set_init(struct gfx_ctx *c, struct one_set *os, VkDescriptorType type,
             VkImageView view)
{
	VkDescriptorSetLayoutBinding b = {
		0, type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1, .pBindings = &b,
	};
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &os->set_layout,
	};
	VkDescriptorPoolSize ps = { type, 1 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	VkSamplerCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
		.magFilter = VK_FILTER_NEAREST, .minFilter = VK_FILTER_NEAREST,
		.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
	};
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorSetCount = 1, .pSetLayouts = &os->set_layout,
	};
	VkDescriptorImageInfo ii = { VK_NULL_HANDLE, view,
	                             VK_IMAGE_LAYOUT_GENERAL };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstBinding = 0, .descriptorCount = 1,
		.descriptorType = type, .pImageInfo = &ii,
	};

	memset(os, 0, sizeof(*os));
	if (type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER &&
	    vkCreateSampler(c->dev, &sci, NULL, &os->sampler) != VK_SUCCESS)
		return false;
	ii.sampler = os->sampler;
	if (vkCreateDescriptorSetLayout(c->dev, &lci, NULL,
	                                &os->set_layout) != VK_SUCCESS ||
	    vkCreatePipelineLayout(c->dev, &plci, NULL, &os->layout) !=
	    VK_SUCCESS ||
	    vkCreateDescriptorPool(c->dev, &dpci, NULL, &os->pool) !=
	    VK_SUCCESS)
		return false;
	ai.descriptorPool = os->pool;
	if (vkAllocateDescriptorSets(c->dev, &ai, &os->set) != VK_SUCCESS)
		return false;
	w.dstSet = os->set;
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);
	return true;
}

static void
one_set_finish(struct gfx_ctx *c, struct one_set *os)
{
	vkDestroyDescriptorPool(c->dev, os->pool, NULL);
	vkDestroyPipelineLayout(c->dev, os->layout, NULL);
	vkDestroyDescriptorSetLayout(c->dev, os->set_layout, NULL);
	vkDestroySampler(c->dev, os->sampler, NULL);
}

/* The pipeline of the reading pass: a full-screen triangle and fs. */
static VkPipeline
reader_pipeline(struct gfx_ctx *c, struct gfx_pipe *q, const uint32_t *fs,
                size_t size, VkPipelineLayout layout, VkRenderPass rp)
{
	gfx_pipe_init(q, gfx_shader(c, gfx_fullscreen_vs_spv,
	                            sizeof(gfx_fullscreen_vs_spv)),
	              gfx_shader(c, fs, size), VK_FORMAT_R8G8B8A8_UNORM,
	              SW, SH);
	q->layout = layout;
	q->render_pass = rp;
	q->subpass = rp ? 1 : 0;
	return gfx_pipeline(c, q);
}

static void
reader_finish(struct gfx_ctx *c, struct gfx_pipe *q, VkPipeline pipe)
{
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, q->vs, NULL);
	vkDestroyShaderModule(c->dev, q->fs, NULL);
}

/* Every pixel's red byte is its coverage mask (msaa_shape.h) and its
 * green byte green(mask). */
static void
read_check(struct gfx_ctx *c, const struct gfx_out *o, uint32_t S,
           bool count_green)
{
	coverage_check(c, o, S);
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *t = gfx_texel(o, x, y);
			uint32_t want = count_green ?
			        16u * (uint32_t)__builtin_popcount(t[0]) :
			        16u * S + 1u;
			if (t[1] != want) {
				vkh_fail(c->h, __FILE__, __LINE__, "%s: pixel "
				         "(%u, %u) green %u, want %u",
				         c->driver, x, y, t[1], want);
				return;
			}
		}
}

/* ---- input_4: subpassLoad of each sample ---- */

static VkRenderPass
input_render_pass(struct gfx_ctx *c)
{
	VkAttachmentDescription att[2] = {
		{ 0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_4_BIT,
		  VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_GENERAL,
		  VK_IMAGE_LAYOUT_GENERAL },
		{ 0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_GENERAL,
		  VK_IMAGE_LAYOUT_GENERAL },
	};
	VkAttachmentReference ms = { 0, VK_IMAGE_LAYOUT_GENERAL };
	VkAttachmentReference out = { 1, VK_IMAGE_LAYOUT_GENERAL };
	VkSubpassDescription sub[2] = {
		{ .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		  .colorAttachmentCount = 1, .pColorAttachments = &ms },
		{ .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		  .inputAttachmentCount = 1, .pInputAttachments = &ms,
		  .colorAttachmentCount = 1, .pColorAttachments = &out },
	};
	VkSubpassDependency dep = {
		0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
		VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
		VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
		VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
		VK_DEPENDENCY_BY_REGION_BIT,
	};
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.attachmentCount = 2, .pAttachments = att,
		.subpassCount = 2, .pSubpasses = sub,
		.dependencyCount = 1, .pDependencies = &dep,
	};
	VkRenderPass rp = VK_NULL_HANDLE;

	if (vkCreateRenderPass(c->dev, &rpci, NULL, &rp) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return rp;
}

static bool
input_4_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[MSAA_COVERAGE_VERTICES];
	uint32_t n = coverage_shape(v);
	struct gfx_image ms, out;
	struct gfx_pipe p, q;
	struct one_set os;
	struct vkh_buffer vb = { 0 };
	VkPipeline draw = VK_NULL_HANDLE, reader = VK_NULL_HANDLE;
	VkFramebuffer fb = VK_NULL_HANDLE;
	VkRenderPass rp;
	bool ok = false;

	memset(&q, 0, sizeof(q));
	memset(&os, 0, sizeof(os));
	if (!gfx_image_ms(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 1,
	                  VK_SAMPLE_COUNT_4_BIT,
	                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	                  VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, &ms) ||
	    !px_target(c, &out) || !px_pipe_init(c, &p))
		return false;
	rp = input_render_pass(c);
	VkImageView views[2] = { ms.view, out.view };
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.renderPass = rp, .attachmentCount = 2, .pAttachments = views,
		.width = SW, .height = SH, .layers = 1,
	};
	if (!rp || vkCreateFramebuffer(c->dev, &fci, NULL, &fb) != VK_SUCCESS ||
	    !one_set_init(c, &os, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
	                  ms.view))
		goto out;
	p.samples = VK_SAMPLE_COUNT_4_BIT;
	p.render_pass = rp;
	draw = gfx_pipeline(c, &p);
	reader = reader_pipeline(c, &q, gfx_ms_input_fs_spv,
	                         sizeof(gfx_ms_input_fs_spv), os.layout, rp);
	if (draw && reader) {
		VkClearValue clear[2] = { { .color = { .float32 = { 0 } } } };
		VkRenderPassBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
			.renderPass = rp, .framebuffer = fb,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.clearValueCount = 2, .pClearValues = clear,
		};
		VkCommandBuffer cb = gfx_begin(c);

		vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
		ok = draw_in(c, cb, draw, v, n, &vb);
		vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, reader);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
		                        os.layout, 0, 1, &os.set, 0, NULL);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &out, NULL, o);
	}
out:
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, draw, NULL);
	reader_finish(c, &q, reader);
	vkDestroyFramebuffer(c->dev, fb, NULL);
	vkDestroyRenderPass(c->dev, rp, NULL);
	one_set_finish(c, &os);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &ms);
	gfx_image_destroy(c, &out);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static void
input_4_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	read_check(c, o, 4, true);
}

GFX_SCENE_TEST(input_4, 0, 0, NULL)

/* ---- fetch_S: texelFetch of each sample ---- */

/* Draw n vertices of v (topology) with the px pipeline into an S-sample
 * image, then texelFetch every sample of it (gfx_ms_fetch_fs) into o. */
static bool
fetch_draw(struct gfx_ctx *c, struct gfx_out *o, uint32_t S,
           const struct vtx *v, uint32_t n, VkPrimitiveTopology topology)
{
	struct gfx_image ms, out;
	struct gfx_pipe p, q;
	struct one_set os;
	struct vkh_buffer vb = { 0 };
	VkPipeline draw = VK_NULL_HANDLE, reader = VK_NULL_HANDLE;
	bool ok = false;

	memset(&q, 0, sizeof(q));
	memset(&os, 0, sizeof(os));
	if (!gfx_image_ms(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 1,
	                  (VkSampleCountFlagBits)S,
	                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	                  VK_IMAGE_USAGE_SAMPLED_BIT, &ms) ||
	    !px_target(c, &out) || !px_pipe_init(c, &p))
		return false;
	if (!one_set_init(c, &os, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	                  ms.view))
		goto out;
	p.samples = (VkSampleCountFlagBits)S;
	p.topology = topology;
	draw = gfx_pipeline(c, &p);
	reader = reader_pipeline(c, &q, gfx_ms_fetch_fs_spv,
	                         sizeof(gfx_ms_fetch_fs_spv), os.layout,
	                         VK_NULL_HANDLE);
	if (draw && reader) {
		VkMemoryBarrier mb = {
			.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
			.dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
		};
		VkCommandBuffer cb = gfx_begin(c);

		begin_ms(cb, &ms, NULL, NULL, NULL, 0, false);
		ok = draw_in(c, cb, draw, v, n, &vb);
		vkCmdEndRendering(cb);
		vkCmdPipelineBarrier(cb,
		                     VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
		                     VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 1,
		                     &mb, 0, NULL, 0, NULL);
		begin_ms(cb, &out, NULL, NULL, NULL, 0, false);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, reader);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
		                        os.layout, 0, 1, &os.set, 0, NULL);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &out, NULL, o);
	}
out:
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, draw, NULL);
	reader_finish(c, &q, reader);
	one_set_finish(c, &os);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &ms);
	gfx_image_destroy(c, &out);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static bool
fetch_render(struct gfx_ctx *c, struct gfx_out *o, uint32_t S)
{
	struct vtx v[MSAA_COVERAGE_VERTICES];
	uint32_t n = coverage_shape(v);

	return fetch_draw(c, o, S, v, n, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
}

/* Whether RGBA8 images that are colour attachments and sampled take S
 * samples. */
static bool
has_sampled(const struct vkh *h, VkSampleCountFlagBits S)
{
	return has_samples_usage(h, S, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	                               VK_IMAGE_USAGE_SAMPLED_BIT);
}

#define FETCH(S)                                                            \
	static bool fetch_##S##_render(struct gfx_ctx *c, struct gfx_out *o)\
	{ return fetch_render(c, o, S); }                                   \
	static void fetch_##S##_check(struct gfx_ctx *c,                    \
	                              const struct gfx_out *o)              \
	{ read_check(c, o, S, false); }                                     \
	static bool has_##S(const struct vkh *h)                            \
	{ return has_sampled(h, (VkSampleCountFlagBits)S); }                \
	GFX_SCENE_TEST(fetch_##S, 0, 0, has_##S)
FETCH(2)
FETCH(4)
FETCH(8)

/* ---- interp_4: interpolateAtSample / AtOffset ---- */

/* The colour of each of the n vertices of v: (x / 64, y / 64, 0, 1), the
 * pixel coordinates / 64 where they are interpolated. */
static void
pixel_colours(struct vtx *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		v[i].r = v[i].x / SW;
		v[i].g = v[i].y / SH;
		v[i].b = 0;
		v[i].a = 1;
	}
}

/* Draw n vertices of v (topology) with gfx_smooth_vs and fs at 4
 * samples, shaded once per pixel (or with sample shading at
 * min_sample_shading > 0), and resolve (AVERAGE) into o. */
static bool
smooth_4_render(struct gfx_ctx *c, struct gfx_out *o, const struct vtx *v,
                uint32_t n, VkPrimitiveTopology topology, const uint32_t *fs,
                size_t fs_size, float min_sample_shading)
{
	struct gfx_image ms, res;
	struct gfx_pipe p;
	struct vkh_buffer vb = { 0 };
	VkPipeline pipe = VK_NULL_HANDLE;
	bool ok = false;

	if (!gfx_image_ms(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 1,
	                  VK_SAMPLE_COUNT_4_BIT,
	                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &ms) ||
	    !px_target(c, &res))
		return false;
	gfx_pipe_init(&p, gfx_shader(c, gfx_smooth_vs_spv,
	                             sizeof(gfx_smooth_vs_spv)),
	              gfx_shader(c, fs, fs_size), VK_FORMAT_R8G8B8A8_UNORM,
	              SW, SH);
	px_vertex_input(&p);
	p.samples = VK_SAMPLE_COUNT_4_BIT;
	p.topology = topology;
	p.min_sample_shading = min_sample_shading;
	pipe = gfx_pipeline(c, &p);
	if (pipe) {
		VkCommandBuffer cb = gfx_begin(c);

		begin_ms(cb, &ms, &res, NULL, NULL, 0, false);
		ok = draw_in(c, cb, pipe, v, n, &vb);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && ok && gfx_read(c, &res, NULL, o);
	}
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, p.vs, NULL);
	vkDestroyShaderModule(c->dev, p.fs, NULL);
	gfx_image_destroy(c, &ms);
	gfx_image_destroy(c, &res);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static bool
interp_4_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[6];

	quad(v, 0, 0, SW, SH, 0.5f, (const float[4]){ 0, 0, 0, 1 });
	pixel_colours(v, 6);
	return smooth_4_render(c, o, v, 6, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
	                       gfx_ms_interp_fs_spv,
	                       sizeof(gfx_ms_interp_fs_spv), 0.0f);
}

/* Every pixel: sample 2 at (2, 10) / 16, the centre + (-0.25, 0.125) at
 * (4, 10) / 16, as UNORM8 (+-1: the input is interpolated in float). */
static void
interp_4_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	static const uint8_t want[4] = { 32, 159, 64, 159 };

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *t = gfx_texel(o, x, y);
			for (int i = 0; i < 4; i++)
				if (abs(t[i] - want[i]) > 1) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: pixel (%u, %u) = %u %u %u "
					         "%u, want %u %u %u %u", c->driver,
					         x, y, t[0], t[1], t[2], t[3],
					         want[0], want[1], want[2],
					         want[3]);
					return;
				}
		}
}

GFX_SCENE_TEST(interp_4, 1, 0, NULL)

/* ---- centroid_4: the Centroid decoration ---- */

static bool
centroid_4_render(struct gfx_ctx *c, struct gfx_out *o)
{
	/* the shader's triangle T (gfx_ms_centroid_fs.frag) */
	struct vtx v[3] = {
		{ 3.3125f, 2.125f, 0.5f, 0, 0, 0, 0 },
		{ 60.75f, 11.875f, 0.5f, 0, 0, 0, 0 },
		{ 17.25f, 58.625f, 0.5f, 0, 0, 0, 0 },
	};

	pixel_colours(v, 3);
	return smooth_4_render(c, o, v, 3, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
	                       gfx_ms_centroid_fs_spv,
	                       sizeof(gfx_ms_centroid_fs_spv), 0.0f);
}

/* Red (in the triangle) and green (in the pixel) equal alpha (the
 * covered fraction) in every pixel; some pixels are partly covered. */
static void
centroid_4_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint32_t partial = 0;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *t = gfx_texel(o, x, y);
			partial += t[3] > 1 && t[3] < 254;
			if (abs(t[0] - t[3]) > 1 || abs(t[1] - t[3]) > 1) {
				vkh_fail(c->h, __FILE__, __LINE__, "%s: pixel "
				         "(%u, %u) = %u %u %u %u: the centroid "
				         "is outside the triangle or pixel",
				         c->driver, x, y, t[0], t[1], t[2],
				         t[3]);
				return;
			}
		}
	VKH_CHECK(c->h, partial > 50);
}

GFX_SCENE_TEST(centroid_4, 1, 0, NULL)

/* ---- at_centroid_4 / at_centroid_4_ss: interpolateAtCentroid ---- */

/* Triangle U: vertices at odd 1/256 positions, so that no sample location
 * lies on an edge (checked). */
static const double tri_u[3][2] = {
	{ 3.0 + 81.0 / 256, 2.0 + 33.0 / 256 },
	{ 60.0 + 193.0 / 256, 11.0 + 223.0 / 256 },
	{ 17.0 + 66.0 / 256, 58.0 + 161.0 / 256 },
};

static double
tri_orient(const double a[2], const double b[2], double px, double py)
{
	return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

/* The samples (bit s of 4) of pixel (x, y) inside U; *on_edge when one
 * lies on an edge (exact: 1/256 and 1/16 positions). */
static uint32_t
tri_u_mask(uint32_t x, uint32_t y, bool *on_edge)
{
	uint32_t m = 0;

	for (uint32_t s = 0; s < 4; s++) {
		const double px = x + pos16[2][s][0] / 16.0;
		const double py = y + pos16[2][s][1] / 16.0;
		int pos = 0, neg = 0;
		for (int k = 0; k < 3; k++) {
			double e = tri_orient(tri_u[k], tri_u[(k + 1) % 3], px,
			                      py);
			pos += e > 0;
			neg += e < 0;
			*on_edge |= e == 0;
		}
		if (pos == 3 || neg == 3)
			m |= 1u << s;
	}
	return m;
}

static bool
at_centroid_render(struct gfx_ctx *c, struct gfx_out *o, const uint32_t *fs,
                   size_t fs_size, float min_ss)
{
	struct vtx v[3];

	for (int i = 0; i < 3; i++)
		v[i] = (struct vtx){ (float)tri_u[i][0], (float)tri_u[i][1],
		                     0.5f, 0, 0, 0, 0 };
	pixel_colours(v, 3);
	return smooth_4_render(c, o, v, 3, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
	                       fs, fs_size, min_ss);
}

static bool
at_centroid_4_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return at_centroid_render(c, o, gfx_ms_at_centroid_fs_spv,
	                          sizeof(gfx_ms_at_centroid_fs_spv), 0.0f);
}

/* Each pixel, computed here: the covered samples m of U; one invocation
 * per pixel takes its value at the centre when all 4 are covered, else
 * at the lowest covered sample (what swgpu does and lavapipe too; the
 * spec allows any covered point). Red / green: the point's fraction,
 * averaged over the 4 samples by the resolve (uncovered ones are 0);
 * blue, alpha: the covered fraction (blue: the Centroid decoration
 * agrees). +-1: rounding. */
static void
at_centroid_4_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint32_t partial_later = 0;
	bool on_edge = false;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint32_t m = tri_u_mask(x, y, &on_edge);
			const uint32_t n = (uint32_t)__builtin_popcount(m);
			const uint32_t at = (uint32_t)__builtin_ctz(m | 16u);
			const uint8_t *t = gfx_texel(o, x, y);
			double sum[2] = { 0, 0 };
			for (int k = 0; k < 2 && n; k++)
				sum[k] = n * (n == 4 ? 128 :
				              round(pos16[2][at][k] / 16.0 *
				                    255.0));
			partial_later += n && n < 4 && !(m & 1u);
			const int cover = (int)round(n * 255.0 / 4);
			const int want[4] = { (int)round(sum[0] / 4),
			                      (int)round(sum[1] / 4), cover,
			                      cover };
			for (int i = 0; i < 4; i++)
				if (abs(t[i] - want[i]) > 1) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: pixel (%u, %u) mask %x = "
					         "%u %u %u %u, want %d %d %d %d",
					         c->driver, x, y, m, t[0], t[1],
					         t[2], t[3], want[0], want[1],
					         want[2], want[3]);
					return;
				}
		}
	VKH_CHECK(c->h, !on_edge);
	/* pixels whose centroid is not sample 0 */
	VKH_CHECK(c->h, partial_later > 20);
}

static bool
at_centroid_4_ss_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return at_centroid_render(c, o, gfx_ms_at_centroid_ss_fs_spv,
	                          sizeof(gfx_ms_at_centroid_ss_fs_spv), 1.0f);
}

/* Per-sample invocations (minSampleShading 1): each invocation's point
 * lies in its pixel and in U, and the Centroid input agrees, so red =
 * green = blue = alpha = the covered fraction in every pixel. (swgpu
 * takes the invocation's own sample, test_gfx_sample_shading; lavapipe
 * the centre of a fully covered pixel, else its lowest covered sample:
 * both allowed.) */
static void
at_centroid_4_ss_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint32_t partial = 0;
	bool on_edge = false;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint32_t n = (uint32_t)__builtin_popcount(
				tri_u_mask(x, y, &on_edge));
			const int want = (int)round(n * 255.0 / 4);
			const uint8_t *t = gfx_texel(o, x, y);
			partial += n && n < 4;
			for (int i = 0; i < 4; i++)
				if (abs(t[i] - want) > 1) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: pixel (%u, %u) = %u %u %u "
					         "%u, want %d each", c->driver,
					         x, y, t[0], t[1], t[2], t[3],
					         want);
					return;
				}
		}
	VKH_CHECK(c->h, !on_edge);
	VKH_CHECK(c->h, partial > 50);
}

GFX_SCENE_TEST(at_centroid_4, 1, 0, NULL)
GFX_SCENE_TEST(at_centroid_4_ss, 1, 0, NULL)

/* ---- lines_2/4/8: multisampled lines, sample by sample ---- */

/* Line segments in pixels (multiples of 1/256). Axis-aligned ones with
 * samples exactly on their edges: for each sample count a horizontal
 * and a vertical segment half a pixel from a row (column) of sample
 * locations, with caps on sample locations too (the polygon rule:
 * taken on the top and left edges only); the others chosen so that no
 * sample location at 2, 4 or 8 samples is within MSAA_LINE_MARGIN of
 * their rectangle's edges. */
#define P(v) ((v) / 256.0)
static const double ms_lines[][2][2] = {
	/* 4 samples: rows / columns at 2/16, caps at 6/16 and 14/16 */
	{ { 4.375, 6.625 }, { 28.875, 6.625 } },
	{ { 34.625, 4.375 }, { 34.625, 28.875 } },
	/* 2 samples: 4/16 and 12/16; drawn right to left, bottom to top */
	{ { 28.25, 10.75 }, { 4.75, 10.75 } },
	{ { 38.75, 28.25 }, { 38.75, 4.75 } },
	/* 8 samples: 1/16; caps at 3/16 and 13/16 */
	{ { 4.1875, 14.5625 }, { 28.8125, 14.5625 } },
	{ { 42.5625, 4.1875 }, { 42.5625, 28.8125 } },
	/* steep, shallow, 45 degrees, steep upwards, short, shallow
	 * leftwards */
	{ { P(11786), P(549) }, { P(15759), P(6512) } },
	{ { P(772), P(5304) }, { P(7275), P(7470) } },
	{ { P(1249), P(8772) }, { P(5485), P(13008) } },
	{ { P(15516), P(15447) }, { P(13181), P(8442) } },
	{ { P(8637), P(10270) }, { P(8871), P(10379) } },
	{ { P(11986), P(9312) }, { P(7335), P(12419) } },
};
#undef P
#define MS_NLINES (sizeof(ms_lines) / sizeof(ms_lines[0]))

static bool
lines_render(struct gfx_ctx *c, struct gfx_out *o, uint32_t S)
{
	struct vtx v[2 * MS_NLINES];

	for (uint32_t i = 0; i < MS_NLINES; i++)
		for (int k = 0; k < 2; k++)
			v[2 * i + k] = (struct vtx){
				(float)ms_lines[i][k][0],
				(float)ms_lines[i][k][1], 0.5f, 1, 1, 1, 1 };
	return fetch_draw(c, o, S, v, 2 * MS_NLINES,
	                  VK_PRIMITIVE_TOPOLOGY_LINE_LIST);
}

/* Every pixel's mask (red) equals the one computed here bit for bit:
 * sample s covered when its location is inside a line's rectangle. */
static void
lines_check(struct gfx_ctx *c, const struct gfx_out *o, uint32_t S)
{
	uint32_t covered = 0;
	bool tie = false;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			uint32_t want = 0;
			for (uint32_t s = 0; s < S; s++) {
				const double px = x + pos16[lg(S)][s][0] / 16.0;
				const double py = y + pos16[lg(S)][s][1] / 16.0;
				for (uint32_t i = 0; i < MS_NLINES; i++) {
					int in = line_rect_side(ms_lines[i][0],
					                        ms_lines[i][1],
					                        px, py, &tie);
					if (in < 0) {
						vkh_fail(c->h, __FILE__,
						         __LINE__, "line %u: "
						         "sample (%g, %g) too "
						         "close to an edge", i,
						         px, py);
						return;
					}
					if (in)
						want |= 1u << s;
				}
			}
			covered += (uint32_t)__builtin_popcount(want);
			if (gfx_texel(o, x, y)[0] != want) {
				vkh_fail(c->h, __FILE__, __LINE__, "%s: %u "
				         "samples, pixel (%u, %u) mask %x, "
				         "want %x", c->driver, S, x, y,
				         gfx_texel(o, x, y)[0], want);
				return;
			}
		}
	/* ties decided, and about the lines' area covered */
	VKH_CHECK(c->h, tie);
	VKH_CHECK(c->h, covered > 200 * S);
}

#define LINES(S)                                                            \
	static bool lines_##S##_render(struct gfx_ctx *c, struct gfx_out *o)\
	{ return lines_render(c, o, S); }                                   \
	static void lines_##S##_check(struct gfx_ctx *c,                    \
	                              const struct gfx_out *o)              \
	{ lines_check(c, o, S); }                                           \
	GFX_SCENE_TEST(lines_##S, 0, 0, has_##S)
LINES(2)
LINES(4)
LINES(8)

/* ---- lines_interp_4: attributes of multisampled lines ---- */

/* Short anti-diagonal segments, d = +-(k, -k), in both directions, none
 * with a sample location within MSAA_LINE_MARGIN of its rectangle's
 * edges, apart from each other. Off the segment the spec's t (the
 * projection on it) differs from the major axis's (x alone) by up to
 * 0.7 / 2k. Anti-diagonal because lavapipe (Mesa 22.3.6) evaluates the
 * attributes of multisampled lines at the pixel's corner (x + 1, y + 1)
 * instead of its centre: t off by (dx + dy) / 2|d|^2, zero only for
 * these (other slopes: test_gfx_msaa, engine level). */
#define P(v) ((v) / 256.0)
static const double interp_lines[][2][2] = {
	{ { P(1256), P(3871) }, { P(3994), P(1133) } },
	{ { P(7751), P(1451) }, { P(5358), P(3844) } },
	{ { P(9311), P(3846) }, { P(11748), P(1409) } },
	{ { P(3533), P(8185) }, { P(1430), P(10288) } },
	{ { P(6152), P(11535) }, { P(8005), P(9682) } },
	{ { P(13184), P(9565) }, { P(11361), P(11388) } },
};
#undef P
#define INTERP_NLINES (sizeof(interp_lines) / sizeof(interp_lines[0]))

/* Red 0 -> 1 and green 1 -> 0 from a to b of each segment, at 4
 * samples, shaded once per pixel (gfx_smooth_fs: the perspective-correct
 * colour, every w 1), resolved. */
static bool
lines_interp_4_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[2 * INTERP_NLINES];

	for (uint32_t i = 0; i < INTERP_NLINES; i++)
		for (uint32_t k = 0; k < 2; k++)
			v[2 * i + k] = (struct vtx){
				(float)interp_lines[i][k][0],
				(float)interp_lines[i][k][1], 0.5f,
				(float)k, (float)(1 - k), 0, 1 };
	return smooth_4_render(c, o, v, 2 * INTERP_NLINES,
	                       VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
	                       gfx_smooth_fs_spv, sizeof(gfx_smooth_fs_spv),
	                       0.0f);
}

/* Each pixel, computed here: its n covered samples (the rectangle rule)
 * hold the colour at the pixel centre p, t = (p - a).(b - a) / |b - a|^2
 * (the spec's weight for these lines; the major axis alone would give
 * other values off the segment); resolved: red = t n / 4, green = (1 -
 * t) n / 4, alpha = n / 4 (+-2: rounding of t and of the average). */
static void
lines_interp_4_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint32_t lit = 0;
	bool tie = false;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			uint32_t n = 0, line = 0;
			for (uint32_t i = 0; i < INTERP_NLINES; i++)
				for (uint32_t s = 0; s < 4; s++) {
					int in = line_rect_side(
						interp_lines[i][0],
						interp_lines[i][1],
						x + pos16[2][s][0] / 16.0,
						y + pos16[2][s][1] / 16.0, &tie);
					VKH_CHECK(c->h, in >= 0);
					if (in > 0) {
						n++;
						line = i;
					}
				}
			const double *a = interp_lines[line][0];
			const double *b = interp_lines[line][1];
			const double dx = b[0] - a[0], dy = b[1] - a[1];
			double t = ((x + 0.5 - a[0]) * dx +
			            (y + 0.5 - a[1]) * dy) / (dx * dx + dy * dy);
			t = t < 0 ? 0 : t > 1 ? 1 : t;
			const int want[4] = {
				(int)round(round(t * 255) * n / 4),
				(int)round(round((1 - t) * 255) * n / 4), 0,
				(int)round(255.0 * n / 4),
			};
			const uint8_t *got = gfx_texel(o, x, y);
			lit += n > 0;
			for (int k = 0; k < 4; k++)
				if (abs(got[k] - want[k]) > 2) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: pixel (%u, %u) = %u %u %u "
					         "%u, want %d %d %d %d", c->driver,
					         x, y, got[0], got[1], got[2],
					         got[3], want[0], want[1], want[2],
					         want[3]);
					return;
				}
		}
	VKH_CHECK(c->h, !tie);
	VKH_CHECK(c->h, lit > 60);
}

GFX_SCENE_TEST(lines_interp_4, 2, 0, NULL)

static const struct vkh_test tests[] = {
	GFX_TEST(input_4), GFX_TEST(fetch_2), GFX_TEST(fetch_4),
	GFX_TEST(fetch_8), GFX_TEST(interp_4), GFX_TEST(centroid_4),
	GFX_TEST(at_centroid_4), GFX_TEST(at_centroid_4_ss),
	GFX_TEST(lines_2), GFX_TEST(lines_4), GFX_TEST(lines_8),
	GFX_TEST(lines_interp_4),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_msaa_read", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
