/* SPDX-License-Identifier: MIT */
/*
 * bench_gfx: what the graphics figures share (bench_gfx.c): targets,
 * pipelines, dynamic rendering and the timed frame loop.
 */
#ifndef SWGPU_BENCH_GFX_H
#define SWGPU_BENCH_GFX_H

#include "bench.h"

#define COLOR_FORMAT VK_FORMAT_R8G8B8A8_UNORM

/* A colour target (optionally with D32 depth), both in GENERAL, and a
 * read-back buffer of the colour. */
struct target {
	VkImage image, depth;
	VkDeviceMemory mem, depth_mem;
	VkImageView view, depth_view;
	uint32_t w, h;
	struct bench_buffer rb;
};

struct pipe_desc {
	const uint32_t *vs, *fs;
	size_t vs_size, fs_size;
	uint32_t nattribs, stride;
	VkVertexInputAttributeDescription attribs[2];
	bool blend, depth;
	VkPipelineLayout layout;
};

VkResult bench_gfx_image(struct bench_vk *vk, VkFormat f, uint32_t w,
                         uint32_t h, uint32_t levels, VkImageUsageFlags usage,
                         VkImage *img, VkDeviceMemory *mem, VkImageView *view);
void bench_gfx_to_layout(VkCommandBuffer cb, VkImage img, VkImageAspectFlags a,
                         uint32_t base, uint32_t levels, VkImageLayout from,
                         VkImageLayout to);
VkResult bench_gfx_target_create(struct bench_vk *vk, uint32_t w, uint32_t h,
                                 bool depth, struct target *t);
void bench_gfx_target_destroy(struct bench_vk *vk, struct target *t);
VkResult bench_gfx_target_read(struct bench_vk *vk, struct target *t);
VkShaderModule bench_gfx_module(struct bench_vk *vk, const uint32_t *code,
                                size_t size);
/* Triangle lists, no culling, dynamic rendering on COLOR_FORMAT (and
 * D32 with depth: LESS, written), blending SRC_ALPHA / ONE_MINUS. */
VkPipeline bench_gfx_pipeline(struct bench_vk *vk, const struct pipe_desc *d,
                              uint32_t w, uint32_t h);
/* A layout with an optional set and push bytes for both stages. */
VkPipelineLayout bench_gfx_layout(struct bench_vk *vk,
                                  VkDescriptorSetLayout set, uint32_t push);
/* A barrier after the previous frame, then vkCmdBeginRendering clearing
 * the colour to clear (and the depth to 1). */
void bench_gfx_begin_rendering(VkCommandBuffer cb, const struct target *t,
                               const float clear[4]);
/* Time o->warmup + o->runs submissions of cb; report fps (median);
 * check(arg) after the last one verifies the data. */
void bench_gfx_frames(struct bench_vk *vk, const struct bench_opts *o,
                      const char *fig, VkCommandBuffer cb,
                      bool (*check)(void *), void *arg);

void bench_gfx_scene(struct bench_vk *vk, const struct bench_opts *o);

#endif /* SWGPU_BENCH_GFX_H */
