/* SPDX-License-Identifier: MIT */
/*
 * Image figures (issue 4): a dim x dim R8G8B8A8_UNORM optimal-tiling image
 * written from a buffer and read back into a buffer, in GB/s of texel data.
 *
 * Run i uploads from alternating halves of a source buffer holding two
 * different patterns, and reads the image back into a poisoned buffer:
 * the check after every run proves both copies of that run happened and
 * that the image layout round-trips texel for texel.
 * Skipped (n/a) when the driver offers no such image.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define IMG_FORMAT VK_FORMAT_R8G8B8A8_UNORM
#define XFER_USAGE (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT)

struct img_ctx {
	struct bench_vk *vk;
	const struct bench_opts *o;
	uint32_t dim;
	VkDeviceSize bytes;
	VkImage image;
	VkDeviceMemory image_mem;
	struct bench_buffer up, src, dst, rb;
	uint8_t *ref;              /* two patterns, bytes each */
};

static const char *
image_unsupported(struct bench_vk *vk, uint32_t dim)
{
	VkFormatProperties fp;
	VkImageFormatProperties ifp;
	const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
	                                  VK_FORMAT_FEATURE_TRANSFER_DST_BIT;

	vkGetPhysicalDeviceFormatProperties(vk->phys, IMG_FORMAT, &fp);
	if ((fp.optimalTilingFeatures & need) != need)
		return "no-rgba8-transfer";
	if (vkGetPhysicalDeviceImageFormatProperties(
		    vk->phys, IMG_FORMAT, VK_IMAGE_TYPE_2D,
		    VK_IMAGE_TILING_OPTIMAL,
		    VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		    VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &ifp) != VK_SUCCESS)
		return "no-rgba8-image";
	if (ifp.maxExtent.width < dim || ifp.maxExtent.height < dim)
		return "image-too-small";
	return NULL;
}

static VkResult
image_create(struct img_ctx *c)
{
	VkImageCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = IMG_FORMAT,
		.extent = { c->dim, c->dim, 1 },
		.mipLevels = 1,
		.arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	VkMemoryRequirements req;
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	VkResult r;
	int type;

	r = vkCreateImage(c->vk->device, &ici, NULL, &c->image);
	if (r != VK_SUCCESS)
		return r;
	vkGetImageMemoryRequirements(c->vk->device, c->image, &req);
	type = bench_mem_type(c->vk, req.memoryTypeBits,
	                      BENCH_MEM_DEVICE_LOCAL);
	if (type < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)type;
	r = vkAllocateMemory(c->vk->device, &mai, NULL, &c->image_mem);
	if (r == VK_SUCCESS)
		r = vkBindImageMemory(c->vk->device, c->image, c->image_mem,
		                      0);
	return r;
}

static void
image_barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from,
              VkImageLayout to, VkAccessFlags src, VkAccessFlags dst)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = src,
		.dstAccessMask = dst,
		.oldLayout = from,
		.newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &b);
}

/* Untimed helper: one transfer command buffer, recorded by fn. */
static VkResult
untimed_copy(struct img_ctx *c, struct bench_buffer *from,
             struct bench_buffer *to, VkDeviceSize size, bool poison,
             bool host_read)
{
	struct bench_vk *vk = c->vk;
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->xfer);
	VkBufferCopy bc = { .size = size };
	VkResult r;

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (poison)
		vkCmdFillBuffer(cb, to->buffer, 0, size, 0x5a5a5a5au);
	else
		vkCmdCopyBuffer(cb, from->buffer, to->buffer, 1, &bc);
	if (host_read)
		bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
		              VK_ACCESS_TRANSFER_WRITE_BIT,
		              VK_PIPELINE_STAGE_HOST_BIT,
		              VK_ACCESS_HOST_READ_BIT);
	bench_cmd_end(cb);
	r = bench_submit_wait(vk, &vk->xfer, cb, NULL);
	bench_cmd_free(vk, &vk->xfer, cb);
	return r;
}

/* One run: buffer -> image (timed), image -> poisoned buffer (timed),
 * then the check. */
static bool
image_run(struct img_ctx *c, unsigned run, uint64_t *ns_up,
          uint64_t *ns_down)
{
	struct bench_vk *vk = c->vk;
	VkDeviceSize src_off = (run % 2) * c->bytes;
	VkBufferImageCopy region = {
		.bufferOffset = src_off,
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageExtent = { c->dim, c->dim, 1 },
	};
	VkCommandBuffer cb;

	if (untimed_copy(c, NULL, &c->dst, c->bytes, true, false))
		return false;
	cb = bench_cmd_begin(vk, &vk->xfer);
	if (!cb)
		return false;
	/* UNDEFINED: the whole image is overwritten, nothing to keep. */
	image_barrier(cb, c->image, VK_IMAGE_LAYOUT_UNDEFINED,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdCopyBufferToImage(cb, c->src.buffer, c->image,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
	                       &region);
	bench_cmd_end(cb);
	if (bench_submit_wait(vk, &vk->xfer, cb, ns_up) != VK_SUCCESS)
		return false;
	bench_cmd_free(vk, &vk->xfer, cb);

	cb = bench_cmd_begin(vk, &vk->xfer);
	if (!cb)
		return false;
	image_barrier(cb, c->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	region.bufferOffset = 0;
	vkCmdCopyImageToBuffer(cb, c->image,
	                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	                       c->dst.buffer, 1, &region);
	bench_cmd_end(cb);
	if (bench_submit_wait(vk, &vk->xfer, cb, ns_down) != VK_SUCCESS)
		return false;
	bench_cmd_free(vk, &vk->xfer, cb);

	if (untimed_copy(c, &c->dst, &c->rb, c->bytes, false, true))
		return false;
	bench_buffer_invalidate(vk, &c->rb);
	return bench_check("image round trip", c->rb.map, c->ref + src_off,
	                   c->bytes);
}

static void
image_figures(struct img_ctx *c)
{
	struct bench_result up = {
		.figure = "img_buf2img", .unit = "GB/s", .verified = true,
	}, down = {
		.figure = "img_img2buf", .unit = "GB/s", .verified = true,
	};
	double s_up[64], s_down[64];
	unsigned n = 0;

	for (unsigned i = 0; i < c->o->warmup + c->o->runs && n < 64; i++) {
		uint64_t a, b;

		if (!image_run(c, i, &a, &b)) {
			up.verified = down.verified = false;
			bench_failed = true;
			break;
		}
		if (i < c->o->warmup)
			continue;
		s_up[n] = (double)c->bytes / (double)a;
		s_down[n] = (double)c->bytes / (double)b;
		n++;
	}
	bench_stats(&up, s_up, n);
	bench_stats(&down, s_down, n);
	bench_report(c->vk->driver, &up);
	bench_report(c->vk->driver, &down);
}

bool
bench_image(struct bench_vk *vk, const struct bench_opts *o)
{
	struct img_ctx c = { .vk = vk, .o = o, .dim = o->image_dim };
	const char *why = image_unsupported(vk, c.dim);
	VkResult r;

	if (why) {
		bench_report_na(vk->driver, "img_buf2img", "GB/s", why);
		bench_report_na(vk->driver, "img_img2buf", "GB/s", why);
		return true;
	}
	c.bytes = (VkDeviceSize)c.dim * c.dim * 4;
	c.ref = malloc(2 * c.bytes);
	r = c.ref ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, 2 * c.bytes, XFER_USAGE,
		                        BENCH_MEM_UPLOAD, &c.up);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, 2 * c.bytes, XFER_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.src);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, c.bytes, XFER_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.dst);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, c.bytes, XFER_USAGE,
		                        BENCH_MEM_READBACK, &c.rb);
	if (r == VK_SUCCESS)
		r = image_create(&c);
	if (r == VK_SUCCESS) {
		bench_pattern(c.ref, 2 * c.bytes, 7);
		memcpy(c.up.map, c.ref, 2 * c.bytes);
		r = untimed_copy(&c, &c.up, &c.src, 2 * c.bytes, false,
		                 false);
	}
	if (r == VK_SUCCESS) {
		image_figures(&c);
	} else {
		fprintf(stderr, "swgpu_bench: image setup: %s\n",
		        bench_vk_result(r));
		bench_failed = true;
	}
	if (c.image)
		vkDestroyImage(vk->device, c.image, NULL);
	if (c.image_mem)
		vkFreeMemory(vk->device, c.image_mem, NULL);
	bench_buffer_destroy(vk, &c.up);
	bench_buffer_destroy(vk, &c.src);
	bench_buffer_destroy(vk, &c.dst);
	bench_buffer_destroy(vk, &c.rb);
	free(c.ref);
	return r == VK_SUCCESS;
}
