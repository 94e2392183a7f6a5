/* SPDX-License-Identifier: MIT */
/*
 * gfx_scene figure: a textured (256x256 RGBA8, 9 mip levels made with
 * vkCmdBlitImage, implicit LOD, LINEAR), depth-tested (D32) scene at
 * 1280x720 — a ground quad and o->gfx_cubes cubes on a grid, drawn with
 * one indexed draw for the ground and one instanced one for the cubes —
 * in frames per second. Checked after the last run: the sky in a top
 * corner, the ground at the bottom, the scene's centre not sky, and the
 * last frame equal to the first one texel for texel.
 */
#include "bench_gfx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_fs.spv.h"
#include "gfx_scene_vs.spv.h"

#define SCENE_W 1280
#define SCENE_H 720
#define TEX 256
#define LEVELS 9

struct scene_vertex {
	float x, y, z, u, v;
};

static const float sky[4] = { 0.4f, 0.6f, 0.8f, 1.0f };

/* Cube (24 vertices, 36 indices) then the ground (4, 6). */
static void
mesh(struct scene_vertex *v, uint16_t *idx)
{
	static const float n[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 },
	                               { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
	static const uint16_t q[6] = { 0, 1, 2, 2, 1, 3 };

	for (int f = 0; f < 6; f++) {
		const float *a = n[f];
		float u[3] = { a[1] != 0 || a[2] != 0, a[0] != 0, 0 };
		float w[3] = { a[1] * u[2] - a[2] * u[1],
		               a[2] * u[0] - a[0] * u[2],
		               a[0] * u[1] - a[1] * u[0] };

		for (int k = 0; k < 4; k++) {
			float su = (k & 1) ? 1 : -1, sw = (k & 2) ? 1 : -1;

			v[4 * f + k] = (struct scene_vertex){
				a[0] + su * u[0] + sw * w[0],
				a[1] + su * u[1] + sw * w[1],
				a[2] + su * u[2] + sw * w[2],
				(k & 1) ? 1.0f : 0.0f, (k & 2) ? 1.0f : 0.0f };
		}
		for (int k = 0; k < 6; k++)
			idx[6 * f + k] = (uint16_t)(4 * f + q[k]);
	}
	v[24] = (struct scene_vertex){ -30, -1, -0.8f, 0, 0 };
	v[25] = (struct scene_vertex){ 30, -1, -0.8f, 24, 0 };
	v[26] = (struct scene_vertex){ -30, -1, -40, 0, 24 };
	v[27] = (struct scene_vertex){ 30, -1, -40, 24, 24 };
	for (int k = 0; k < 6; k++)
		idx[36 + k] = q[k];
}

/* Perspective (Vulkan clip space) times a small camera tilt. */
static void
view_projection(float *m)
{
	const float t = 1.0f / tanf(0.55f), a = (float)SCENE_W / SCENE_H;
	const float n = 0.5f, f = 60.0f;

	memset(m, 0, 16 * sizeof(float));
	m[0] = t / a;
	m[5] = -t;
	m[10] = f / (n - f);
	m[11] = -1;
	m[14] = n * f / (n - f);
	/* Camera 0.6 up: translate the world down. */
	m[13] = -0.6f * m[5];
}

/* The texture: stripes and checks, with its mip chain by blits. */
static VkResult
texture(struct bench_vk *vk, VkImage *img, VkDeviceMemory *mem,
        VkImageView *view)
{
	struct bench_buffer up;
	VkCommandBuffer cb;
	uint8_t *t;
	VkResult r;

	r = bench_gfx_image(vk, COLOR_FORMAT, TEX, TEX, LEVELS,
	                    VK_IMAGE_USAGE_SAMPLED_BIT |
	                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	                    VK_IMAGE_USAGE_TRANSFER_DST_BIT, img, mem, view);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, TEX * TEX * 4,
		                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
		                        BENCH_MEM_UPLOAD, &up);
	if (r != VK_SUCCESS)
		return r;
	t = up.map;
	for (int y = 0; y < TEX; y++)
		for (int x = 0; x < TEX; x++) {
			uint8_t *p = t + 4 * (y * TEX + x);
			bool odd = ((x / 32) ^ (y / 32)) & 1;

			p[0] = odd ? 230 : 250;
			p[1] = odd ? 120 : 230;
			p[2] = (uint8_t)(odd ? 40 : 180 + (x & 15));
			p[3] = 255;
		}
	cb = bench_cmd_begin(vk, &vk->gfx);
	bench_gfx_to_layout(cb, *img, VK_IMAGE_ASPECT_COLOR_BIT, 0, LEVELS,
	                    VK_IMAGE_LAYOUT_UNDEFINED,
	                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	VkBufferImageCopy c = {
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageExtent = { TEX, TEX, 1 },
	};
	vkCmdCopyBufferToImage(cb, up.buffer, *img,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c);
	for (uint32_t l = 1; l < LEVELS; l++) {
		int32_t s = TEX >> (l - 1), d = TEX >> l;
		VkImageBlit b = {
			.srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, l - 1, 0,
			                    1 },
			.srcOffsets = { { 0, 0, 0 }, { s, s, 1 } },
			.dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1 },
			.dstOffsets = { { 0, 0, 0 }, { d, d, 1 } },
		};

		bench_gfx_to_layout(cb, *img, VK_IMAGE_ASPECT_COLOR_BIT, l - 1,
		                    1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		vkCmdBlitImage(cb, *img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		               *img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &b,
		               VK_FILTER_LINEAR);
	}
	bench_gfx_to_layout(cb, *img, VK_IMAGE_ASPECT_COLOR_BIT, 0, LEVELS - 1,
	                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	bench_gfx_to_layout(cb, *img, VK_IMAGE_ASPECT_COLOR_BIT, LEVELS - 1, 1,
	                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	bench_cmd_end(cb);
	r = bench_submit_wait(vk, &vk->gfx, cb, NULL);
	bench_cmd_free(vk, &vk->gfx, cb);
	bench_buffer_destroy(vk, &up);
	return r;
}

struct scene_check {
	struct bench_vk *vk;
	struct target *t;
	uint8_t *first;         /* the first frame */
};

static bool
scene_check(void *arg)
{
	struct scene_check *k = arg;
	const size_t bytes = (size_t)SCENE_W * SCENE_H * 4;
	const uint8_t *px, *corner, *ground, *centre;

	if (bench_gfx_target_read(k->vk, k->t) != VK_SUCCESS)
		return false;
	px = k->t->rb.map;
	corner = px + 4 * (2 * SCENE_W + 2);
	ground = px + 4 * ((SCENE_H - 3) * SCENE_W + SCENE_W / 2);
	centre = px + 4 * ((SCENE_H / 2 + 40) * SCENE_W + SCENE_W / 2);
	if (abs(corner[0] - 102) > 1 || abs(corner[1] - 153) > 1 ||
	    abs(corner[2] - 204) > 1 ||
	    (abs(ground[2] - 204) <= 4 && abs(ground[0] - 102) <= 4) ||
	    (abs(centre[2] - 204) <= 4 && abs(centre[0] - 102) <= 4)) {
		fprintf(stderr, "swgpu_bench: gfx_scene: the frame is not "
		        "the scene\n");
		return false;
	}
	if (memcmp(px, k->first, bytes)) {
		fprintf(stderr, "swgpu_bench: gfx_scene: frames differ\n");
		return false;
	}
	return true;
}

void
bench_gfx_scene(struct bench_vk *vk, const struct bench_opts *o)
{
	struct scene_vertex v[28];
	uint16_t idx[42];
	struct target t = { 0 };
	struct bench_buffer vb = { 0 }, ib = { 0 };
	VkImage tex = VK_NULL_HANDLE;
	VkDeviceMemory tex_mem = VK_NULL_HANDLE;
	VkImageView tex_view = VK_NULL_HANDLE;
	VkSampler smp = VK_NULL_HANDLE;
	VkDescriptorSetLayout sl = VK_NULL_HANDLE;
	VkDescriptorPool dp = VK_NULL_HANDLE;
	VkDescriptorSet set;
	VkPipelineLayout pl = VK_NULL_HANDLE;
	VkPipeline p = VK_NULL_HANDLE;
	VkCommandBuffer cb = VK_NULL_HANDLE;
	struct scene_check k = { vk, &t, NULL };
	const uint32_t grid = (uint32_t)lroundf(sqrtf((float)o->gfx_cubes));
	struct { float vp[16]; int32_t grid; } push;
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
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	                            1 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	bool ok;

	mesh(v, idx);
	ok = bench_gfx_target_create(vk, SCENE_W, SCENE_H, true, &t) ==
	     VK_SUCCESS &&
	     texture(vk, &tex, &tex_mem, &tex_view) == VK_SUCCESS &&
	     vkCreateSampler(vk->device, &sci, NULL, &smp) == VK_SUCCESS &&
	     vkCreateDescriptorSetLayout(vk->device, &lci, NULL, &sl) ==
	     VK_SUCCESS &&
	     vkCreateDescriptorPool(vk->device, &dpci, NULL, &dp) ==
	     VK_SUCCESS &&
	     bench_buffer_create(vk, sizeof(v),
	                         VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
	                         BENCH_MEM_UPLOAD, &vb) == VK_SUCCESS &&
	     bench_buffer_create(vk, sizeof(idx),
	                         VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
	                         BENCH_MEM_UPLOAD, &ib) == VK_SUCCESS;
	if (ok) {
		VkDescriptorSetAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
			.descriptorPool = dp, .descriptorSetCount = 1,
			.pSetLayouts = &sl,
		};
		VkDescriptorImageInfo ii = {
			smp, tex_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
		VkWriteDescriptorSet w = {
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.descriptorCount = 1,
			.descriptorType =
				VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
			.pImageInfo = &ii,
		};

		ok = vkAllocateDescriptorSets(vk->device, &ai, &set) ==
		     VK_SUCCESS;
		w.dstSet = set;
		if (ok)
			vkUpdateDescriptorSets(vk->device, 1, &w, 0, NULL);
		memcpy(vb.map, v, sizeof(v));
		memcpy(ib.map, idx, sizeof(idx));
		pl = bench_gfx_layout(vk, sl, sizeof(push));
		struct pipe_desc d = {
			gfx_scene_vs_spv, gfx_scene_fs_spv,
			sizeof(gfx_scene_vs_spv), sizeof(gfx_scene_fs_spv), 2,
			sizeof(struct scene_vertex),
			{ { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 },
			  { 1, 0, VK_FORMAT_R32G32_SFLOAT, 12 } },
			false, true, pl,
		};
		p = ok ? bench_gfx_pipeline(vk, &d, SCENE_W, SCENE_H) :
		         VK_NULL_HANDLE;
		ok = p != VK_NULL_HANDLE;
	}
	if (!ok) {
		bench_report_na(vk->driver, "gfx_scene", "fps", "setup-failed");
		bench_failed = true;
		goto out;
	}
	view_projection(push.vp);
	push.grid = (int32_t)grid;
	VkDeviceSize off = 0;
	cb = bench_cmd_begin(vk, &vk->gfx);
	bench_gfx_begin_rendering(cb, &t, sky);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pl, 0, 1,
	                        &set, 0, NULL);
	vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT |
	                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push),
	                   &push);
	vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
	vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT16);
	/* The ground (instance 0), then the cubes (instances 1..n). */
	vkCmdDrawIndexed(cb, 6, 1, 36, 24, 0);
	vkCmdDrawIndexed(cb, 36, grid * grid, 0, 0, 1);
	vkCmdEndRendering(cb);
	bench_cmd_end(cb);
	/* The first frame, untimed, is the reference. */
	if (bench_submit_wait(vk, &vk->gfx, cb, NULL) == VK_SUCCESS &&
	    bench_gfx_target_read(vk, &t) == VK_SUCCESS) {
		k.first = malloc((size_t)SCENE_W * SCENE_H * 4);
		memcpy(k.first, t.rb.map, (size_t)SCENE_W * SCENE_H * 4);
	}
	if (!k.first) {
		bench_report_na(vk->driver, "gfx_scene", "fps", "no-frame");
		bench_failed = true;
		goto out;
	}
	bench_gfx_frames(vk, o, "gfx_scene", cb, scene_check, &k);
out:
	free(k.first);
	bench_cmd_free(vk, &vk->gfx, cb);
	if (p)
		vkDestroyPipeline(vk->device, p, NULL);
	vkDestroyPipelineLayout(vk->device, pl, NULL);
	vkDestroyDescriptorPool(vk->device, dp, NULL);
	vkDestroyDescriptorSetLayout(vk->device, sl, NULL);
	vkDestroySampler(vk->device, smp, NULL);
	vkDestroyImageView(vk->device, tex_view, NULL);
	vkDestroyImage(vk->device, tex, NULL);
	vkFreeMemory(vk->device, tex_mem, NULL);
	bench_buffer_destroy(vk, &vb);
	bench_buffer_destroy(vk, &ib);
	bench_gfx_target_destroy(vk, &t);
}
