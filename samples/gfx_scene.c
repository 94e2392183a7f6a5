/* SPDX-License-Identifier: MIT */
/*
 * gfx_scene: a headless graphics sample. It draws a textured,
 * depth-tested, blended 3D scene offscreen — a checkerboard ground
 * plane in perspective and two textured cubes (mip-mapped texture, its
 * levels made with vkCmdBlitImage, sampled with implicit LOD), then a
 * translucent panel blended over them — reads the image back, writes
 * gfx_scene.<driver>.png next to the executable and checks it:
 *
 *   - by hand: the sky's clear colour in the corners, the panel's blend
 *     over the sky, the near cube in front of the ground;
 *   - against a reference rendering of the same commands by Mesa's
 *     lavapipe when it is installed (added to VK_DRIVER_FILES for this
 *     process): every texel within 6/255, but for 1 % (texture LOD
 *     and filtering may differ slightly).
 *
 * Exit status 0 when every check passes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vkh_gfx.h"

#include "scene_fs.spv.h"
#include "scene_vs.spv.h"

#define W 256
#define H 256
#define TEX 64
#define LEVELS 7
#define LAVAPIPE_MANIFEST "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"

struct vert {
	float x, y, z, u, v;
};

struct push {
	float mvp[16];
	float tint[4];
};

/* ------------------------------------------------------------------ */
/* Matrices (column-major, Vulkan clip space: y down, z in [0, 1])     */
/* ------------------------------------------------------------------ */

static void
mat_mul(float *r, const float *a, const float *b)
{
	float t[16];

	for (int c = 0; c < 4; c++)
		for (int k = 0; k < 4; k++) {
			t[c * 4 + k] = 0;
			for (int i = 0; i < 4; i++)
				t[c * 4 + k] += a[i * 4 + k] * b[c * 4 + i];
		}
	memcpy(r, t, sizeof(t));
}

static void
perspective(float *m, float fovy, float aspect, float n, float f)
{
	float t = 1.0f / tanf(fovy / 2);

	memset(m, 0, 16 * sizeof(float));
	m[0] = t / aspect;
	m[5] = -t;              /* y down */
	m[10] = f / (n - f);
	m[11] = -1;
	m[14] = n * f / (n - f);
}

static void
model(float *m, float x, float y, float z, float ry, float rx, float s)
{
	float cy = cosf(ry), sy = sinf(ry), cx = cosf(rx), sx = sinf(rx);
	const float ryx[16] = { cy, 0, -sy, 0, 0, 1, 0, 0, sy, 0, cy, 0,
	                        0, 0, 0, 1 };
	const float rxx[16] = { 1, 0, 0, 0, 0, cx, sx, 0, 0, -sx, cx, 0,
	                        0, 0, 0, 1 };

	mat_mul(m, ryx, rxx);
	for (int i = 0; i < 12; i++)
		m[i] *= s;
	m[12] = x;
	m[13] = y;
	m[14] = z;
}

/* ------------------------------------------------------------------ */
/* Geometry and texture                                                */
/* ------------------------------------------------------------------ */

/* Cube: 24 vertices (4 per face), 36 indices; ground: 4 vertices. */
static void
geometry(struct vert *v, uint16_t *idx)
{
	static const float n[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 },
	                               { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };

	for (int f = 0; f < 6; f++) {
		const float *a = n[f];
		/* Two axes across the face. */
		float u[3] = { a[1] != 0 || a[2] != 0, a[0] != 0, 0 };
		float w[3] = { a[1] * u[2] - a[2] * u[1],
		               a[2] * u[0] - a[0] * u[2],
		               a[0] * u[1] - a[1] * u[0] };

		for (int k = 0; k < 4; k++) {
			float su = (k & 1) ? 1 : -1, sw = (k & 2) ? 1 : -1;

			v[4 * f + k] = (struct vert){
				a[0] + su * u[0] + sw * w[0],
				a[1] + su * u[1] + sw * w[1],
				a[2] + su * u[2] + sw * w[2],
				(k & 1) ? 1.0f : 0.0f, (k & 2) ? 1.0f : 0.0f };
		}
		const uint16_t q[6] = { 0, 1, 2, 2, 1, 3 };
		for (int k = 0; k < 6; k++)
			idx[6 * f + k] = (uint16_t)(4 * f + q[k]);
	}
	/* The ground: y = -1, z from -0.8 to -30, texture repeated 12x. */
	v[24] = (struct vert){ -14, -1, -0.8f, 0, 0 };
	v[25] = (struct vert){ 14, -1, -0.8f, 12, 0 };
	v[26] = (struct vert){ -14, -1, -30, 0, 12 };
	v[27] = (struct vert){ 14, -1, -30, 12, 12 };
	/* The panel: a quad at z = -3.2 (model matrix identity). */
	v[28] = (struct vert){ -0.2f, -0.35f, -3.2f, 0.25f, 0.25f };
	v[29] = (struct vert){ 1.4f, -0.35f, -3.2f, 0.26f, 0.25f };
	v[30] = (struct vert){ -0.2f, -1.4f, -3.2f, 0.25f, 0.26f };
	v[31] = (struct vert){ 1.4f, -1.4f, -3.2f, 0.26f, 0.26f };
}

/* A checkerboard of 8x8 squares, orange and cream, with a dark frame. */
static void
texture_bytes(uint8_t *t)
{
	for (int y = 0; y < TEX; y++)
		for (int x = 0; x < TEX; x++) {
			uint8_t *p = t + 4 * (y * TEX + x);
			bool frame = x < 2 || y < 2 || x >= TEX - 2 ||
			             y >= TEX - 2;
			bool odd = ((x / 8) ^ (y / 8)) & 1;

			p[0] = frame ? 40 : odd ? 240 : 250;
			p[1] = frame ? 40 : odd ? 140 : 235;
			p[2] = frame ? 60 : odd ? 40 : 200;
			p[3] = 255;
		}
}

/* One layout transition of levels [base, base + n), after every earlier
 * access. */
static void
layout_barrier(VkCommandBuffer cb, VkImage img, uint32_t base, uint32_t n,
               VkImageLayout from, VkImageLayout to)
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
		.image = img,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, base, n, 0,
		                      1 },
	};
	VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &ib,
	};

	vkCmdPipelineBarrier2(cb, &di);
}

/* The texture image with its mip chain (blits), SHADER_READ_ONLY. */
static bool
make_texture(struct gfx_ctx *c, VkImage *img, VkDeviceMemory *mem,
             VkImageView *view)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM,
		.extent = { TEX, TEX, 1 }, .mipLevels = LEVELS,
		.arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_SAMPLED_BIT |
		         VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	VkMemoryRequirements req;
	struct vkh_buffer staging;
	uint8_t bytes[TEX * TEX * 4];
	VkCommandBuffer cb;

	texture_bytes(bytes);
	if (vkCreateImage(c->dev, &ci, NULL, img) != VK_SUCCESS)
		return false;
	vkGetImageMemoryRequirements(c->dev, *img, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)vkh_memtype_device_local(
			c->h, req.memoryTypeBits),
	};
	if (vkAllocateMemory(c->dev, &mai, NULL, mem) != VK_SUCCESS ||
	    vkBindImageMemory(c->dev, *img, *mem, 0) != VK_SUCCESS ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, bytes,
	                sizeof(bytes), &staging))
		return false;
	cb = gfx_begin(c);
	/* Every level TRANSFER_DST; level 0 from the buffer; then each
	 * level, once written, becomes a TRANSFER_SRC for the next blit;
	 * at the end all of them SHADER_READ_ONLY. */
	layout_barrier(cb, *img, 0, LEVELS, VK_IMAGE_LAYOUT_UNDEFINED,
	               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	VkBufferImageCopy r = {
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageExtent = { TEX, TEX, 1 },
	};
	vkCmdCopyBufferToImage(cb, staging.buffer, *img,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
	/* Each level a LINEAR blit of the one above (GRAPHICS queue). */
	for (uint32_t l = 1; l < LEVELS; l++) {
		int32_t s = TEX >> (l - 1), d = TEX >> l;
		VkImageBlit b = {
			.srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, l - 1, 0,
			                    1 },
			.srcOffsets = { { 0, 0, 0 }, { s, s, 1 } },
			.dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1 },
			.dstOffsets = { { 0, 0, 0 }, { d, d, 1 } },
		};

		layout_barrier(cb, *img, l - 1, 1,
		               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		vkCmdBlitImage(cb, *img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		               *img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &b,
		               VK_FILTER_LINEAR);
	}
	layout_barrier(cb, *img, 0, LEVELS - 1,
	               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	layout_barrier(cb, *img, LEVELS - 1, 1,
	               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	gfx_barrier(cb);
	if (!gfx_submit(c, cb))
		return false;
	vkh_buffer_destroy(c->d, &staging);
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = *img, .viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, LEVELS, 0,
		                      1 },
	};
	return vkCreateImageView(c->dev, &vci, NULL, view) == VK_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* The scene                                                           */
/* ------------------------------------------------------------------ */

static const VkClearColorValue sky = { .float32 = { 0.4f, 0.6f, 0.8f, 1 } };
/* The panel: (0, 0.2, 0.6) at alpha 0.5 over its texel (a cream
 * texel of the texture: it samples one point of it). */
static const float panel_tint[4] = { 0.0f, 0.25f, 0.75f, 0.5f };

static bool
scene_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vert v[32];
	uint16_t idx[36];
	struct gfx_image t, ds;
	VkImage tex = VK_NULL_HANDLE;
	VkDeviceMemory tex_mem = VK_NULL_HANDLE;
	VkImageView tex_view = VK_NULL_HANDLE;
	VkSampler smp = VK_NULL_HANDLE;
	VkDescriptorSetLayout sl = VK_NULL_HANDLE;
	VkPipelineLayout pl = VK_NULL_HANDLE;
	VkDescriptorPool dp = VK_NULL_HANDLE;
	VkDescriptorSet set;
	VkShaderModule vs, fs;
	VkPipeline opaque = VK_NULL_HANDLE, blended = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 }, ib = { 0 };
	struct gfx_pipe p;
	bool ok = false;

	geometry(v, idx);
	vs = gfx_shader(c, scene_vs_spv, sizeof(scene_vs_spv));
	fs = gfx_shader(c, scene_fs_spv, sizeof(scene_fs_spv));
	if (!gfx_image(c, VK_FORMAT_R8G8B8A8_UNORM, W, H, 1,
	               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &t) ||
	    !gfx_image(c, VK_FORMAT_D32_SFLOAT, W, H, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !make_texture(c, &tex, &tex_mem, &tex_view))
		goto out;
	VkSamplerCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
		.magFilter = VK_FILTER_LINEAR, .minFilter = VK_FILTER_LINEAR,
		.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
		.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
		.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
		.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
		.maxLod = LEVELS,
	};
	VkDescriptorSetLayoutBinding b = {
		0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
		VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1, .pBindings = &b,
	};
	VkPushConstantRange pcr = { VK_SHADER_STAGE_VERTEX_BIT, 0,
	                            sizeof(struct push) };
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	                            1 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	if (vkCreateSampler(c->dev, &sci, NULL, &smp) != VK_SUCCESS ||
	    vkCreateDescriptorSetLayout(c->dev, &lci, NULL, &sl) !=
	    VK_SUCCESS ||
	    vkCreateDescriptorPool(c->dev, &dpci, NULL, &dp) != VK_SUCCESS)
		goto out;
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &sl,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	VkDescriptorSetAllocateInfo dsai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = dp, .descriptorSetCount = 1,
		.pSetLayouts = &sl,
	};
	if (vkCreatePipelineLayout(c->dev, &plci, NULL, &pl) != VK_SUCCESS ||
	    vkAllocateDescriptorSets(c->dev, &dsai, &set) != VK_SUCCESS)
		goto out;
	VkDescriptorImageInfo dii = { smp, tex_view,
	                              VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = set, .descriptorCount = 1,
		.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		.pImageInfo = &dii,
	};
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);

	gfx_pipe_init(&p, vs, fs, VK_FORMAT_R8G8B8A8_UNORM, W, H);
	p.layout = pl;
	p.depth_format = VK_FORMAT_D32_SFLOAT;
	p.nbindings = 1;
	p.bindings[0] = (VkVertexInputBindingDescription){
		0, sizeof(struct vert), VK_VERTEX_INPUT_RATE_VERTEX };
	p.nattribs = 2;
	p.attribs[0] = (VkVertexInputAttributeDescription){
		0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 };
	p.attribs[1] = (VkVertexInputAttributeDescription){
		1, 0, VK_FORMAT_R32G32_SFLOAT, 12 };
	p.rs.cullMode = VK_CULL_MODE_NONE;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	opaque = gfx_pipeline(c, &p);
	p.ds.depthWriteEnable = VK_FALSE;
	p.blend[0] = (VkPipelineColorBlendAttachmentState){
		VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA,
		VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
		VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
		VK_BLEND_OP_ADD, 0xf };
	blended = gfx_pipeline(c, &p);
	if (!opaque || !blended ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v, sizeof(v),
	                &vb) ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof(idx),
	                &ib))
		goto out;

	float proj[16], m[16];
	struct push pc;
	VkDeviceSize off = 0;
	VkCommandBuffer cb = gfx_begin(c);

	perspective(proj, 1.0f, (float)W / H, 0.5f, 40.0f);
	gfx_begin_rendering(cb, &t, &sky, &ds, true, 1.0f, 0);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, opaque);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pl, 0, 1,
	                        &set, 0, NULL);
	vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
	vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
	/* The ground (identity model). */
	model(m, 0, 0, 0, 0, 0, 1);
	mat_mul(pc.mvp, proj, m);
	memcpy(pc.tint, (float[]){ 1, 1, 1, 1 }, sizeof(pc.tint));
	vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pc),
	                   &pc);
	/* Vertices 24..27 through the first face's 6 indices. */
	vkCmdDrawIndexed(cb, 6, 1, 0, 24, 0);
	/* Two cubes. */
	const float cubes[2][6] = {
		{ -1.1f, -0.3f, -5.0f, 0.6f, 0.35f, 0.7f },
		{ 1.6f, 0.1f, -7.5f, -0.5f, -0.3f, 0.9f },
	};
	const float tints[2][4] = { { 1, 1, 1, 1 }, { 0.7f, 1, 0.8f, 1 } };
	for (int i = 0; i < 2; i++) {
		model(m, cubes[i][0], cubes[i][1], cubes[i][2], cubes[i][3],
		      cubes[i][4], cubes[i][5]);
		mat_mul(pc.mvp, proj, m);
		memcpy(pc.tint, tints[i], sizeof(pc.tint));
		vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT, 0,
		                   sizeof(pc), &pc);
		vkCmdDrawIndexed(cb, 36, 1, 0, 0, 0);
	}
	/* The panel, blended, depth-tested but not written. */
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, blended);
	model(m, 0, 0, 0, 0, 0, 1);
	mat_mul(pc.mvp, proj, m);
	memcpy(pc.tint, panel_tint, sizeof(pc.tint));
	vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pc),
	                   &pc);
	vkCmdDrawIndexed(cb, 6, 1, 0, 28, 0);
	vkCmdEndRendering(cb);
	ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
out:
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	if (ib.buffer)
		vkh_buffer_destroy(c->d, &ib);
	vkDestroyPipeline(c->dev, opaque, NULL);
	vkDestroyPipeline(c->dev, blended, NULL);
	vkDestroyPipelineLayout(c->dev, pl, NULL);
	vkDestroyDescriptorPool(c->dev, dp, NULL);
	vkDestroyDescriptorSetLayout(c->dev, sl, NULL);
	vkDestroySampler(c->dev, smp, NULL);
	vkDestroyImageView(c->dev, tex_view, NULL);
	vkDestroyImage(c->dev, tex, NULL);
	vkFreeMemory(c->dev, tex_mem, NULL);
	vkDestroyShaderModule(c->dev, vs, NULL);
	vkDestroyShaderModule(c->dev, fs, NULL);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static void
scene_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint8_t *corner = gfx_texel(o, 2, 2);
	const uint8_t *centre = gfx_texel(o, 70, 150);
	const uint8_t *ground = gfx_texel(o, W / 2, H - 4);
	const int sky8[3] = { 102, 153, 204 };

	/* Top corner: the sky. */
	for (int i = 0; i < 3; i++)
		if (abs(corner[i] - sky8[i]) > 1)
			vkh_fail(c->h, __FILE__, __LINE__, "%s: sky %u %u %u",
			         c->driver, corner[0], corner[1], corner[2]);
	/* The near cube and the ground are not sky. */
	if (abs(centre[2] - sky8[2]) <= 8 && abs(centre[0] - sky8[0]) <= 8)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: no cube at the "
		         "centre", c->driver);
	if (abs(ground[2] - sky8[2]) <= 8 && abs(ground[0] - sky8[0]) <= 8)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: no ground",
		         c->driver);
}

int
main(int argc, char **argv)
{
	static const struct gfx_scene scene = {
		.name = "gfx_scene", .render = scene_render,
		.check = scene_check, .tolerance = 6,
		.allowed_mismatches = W * H / 100,
	};
	char dir[4096];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	struct vkh h;
	struct vkh_device d;
	int status;

	/* The PNGs go next to the executable. */
	if (n > 0) {
		dir[n] = 0;
		*strrchr(dir, '/') = 0;
		if (!getenv("GFX_PNG_DIR"))
			setenv("GFX_PNG_DIR", dir, 1);
	}
	/* The reference: lavapipe beside the driver under test. */
	const char *files = getenv("VK_DRIVER_FILES");
	if (files && !strstr(files, "lvp_icd") &&
	    access(LAVAPIPE_MANIFEST, R_OK) == 0) {
		char *both = malloc(strlen(files) + sizeof(LAVAPIPE_MANIFEST) + 2);

		sprintf(both, "%s:%s", files, LAVAPIPE_MANIFEST);
		setenv("VK_DRIVER_FILES", both, 1);
		free(both);
		if (!getenv("VKH_DRIVER_NAME") && strstr(files, "swgpu"))
			setenv("VKH_DRIVER_NAME", "swgpu", 1);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (vkh_init(&h, "gfx_scene", VK_API_VERSION_1_3) != VK_SUCCESS) {
		vkh_finish(&h);
		return 1;
	}
	if (!gfx_has_graphics(&h)) {
		printf("gfx_scene: %s has no graphics queue\n",
		       h.driver.driverName);
		vkh_finish(&h);
		return 77;
	}
	printf("gfx_scene: %ux%u textured, depth-tested, blended scene on "
	       "%s\n", W, H, h.driver.driverName);
	if (vkh_device_create(&h, VK_QUEUE_GRAPHICS_BIT, 1, NULL, &d) ==
	    VK_SUCCESS)
		gfx_scene(&h, &d, &scene);
	else
		h.failures++;
	printf("gfx_scene: wrote %s/gfx_scene.%s.png\n",
	       getenv("GFX_PNG_DIR"), h.driver.driverName);
	status = vkh_finish(&h);
	printf("gfx_scene: %s\n", status ? "FAILED" : "ok");
	(void)argc;
	(void)argv;
	return status;
}
