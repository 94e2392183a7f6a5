/* SPDX-License-Identifier: MIT */
/*
 * image_vk: test images with a host model (see image_vk.h).
 */
#include "image_vk.h"

#include <stdlib.h>
#include <string.h>

const char *
timg_tiling_name(VkImageTiling t)
{
	return t == VK_IMAGE_TILING_LINEAR ? "linear" : "optimal";
}

const char *
timg_type_name(const struct timg_desc *d)
{
	if (d->type == VK_IMAGE_TYPE_3D)
		return "3d";
	if (d->type == VK_IMAGE_TYPE_1D)
		return d->layers > 1 ? "1d_array" : "1d";
	if (d->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT)
		return "cube";
	return d->layers > 1 ? "2d_array" : "2d";
}

static VkImageUsageFlags
usage_of(VkImageUsageFlags extra)
{
	return VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	       VK_IMAGE_USAGE_TRANSFER_DST_BIT | extra;
}

VkResult
timg_supported(struct vkh *h, const struct timg_desc *desc,
               VkImageUsageFlags extra_usage, VkFormatFeatureFlags need,
               const char **why)
{
	VkFormatProperties fp;
	VkImageFormatProperties ip;
	VkFormatFeatureFlags have;
	VkResult r;

	need |= VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
	        VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
	vkGetPhysicalDeviceFormatProperties(h->phys, desc->format, &fp);
	have = desc->tiling == VK_IMAGE_TILING_LINEAR ?
	       fp.linearTilingFeatures : fp.optimalTilingFeatures;
	if ((have & need) != need) {
		*why = "format features";
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	r = vkGetPhysicalDeviceImageFormatProperties(
		h->phys, desc->format, desc->type, desc->tiling,
		usage_of(extra_usage), desc->flags, &ip);
	if (r != VK_SUCCESS) {
		*why = "image format properties";
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (desc->mips > ip.maxMipLevels || desc->layers > ip.maxArrayLayers ||
	    desc->extent.width > ip.maxExtent.width ||
	    desc->extent.height > ip.maxExtent.height ||
	    desc->extent.depth > ip.maxExtent.depth) {
		*why = "image format limits (mips/layers/extent)";
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	return VK_SUCCESS;
}

VkExtent3D
timg_mip_extent(const struct timg *t, uint32_t mip)
{
	VkExtent3D e = t->desc.extent;

	e.width = e.width >> mip ? e.width >> mip : 1;
	e.height = e.height >> mip ? e.height >> mip : 1;
	e.depth = e.depth >> mip ? e.depth >> mip : 1;
	return e;
}

void
timg_mip_blocks(const struct timg *t, uint32_t mip, uint32_t b[3])
{
	VkExtent3D e = timg_mip_extent(t, mip);

	b[0] = (e.width + t->fmt->bw - 1) / t->fmt->bw;
	b[1] = (e.height + t->fmt->bh - 1) / t->fmt->bh;
	b[2] = e.depth;
}

size_t
timg_sub_size(const struct timg *t, unsigned p, uint32_t mip)
{
	uint32_t b[3];

	timg_mip_blocks(t, mip, b);
	return (size_t)b[0] * b[1] * b[2] * t->pf[p]->bytes;
}

static size_t
sub_offset(const struct timg *t, unsigned p, uint32_t mip, uint32_t layer)
{
	size_t off = 0;

	for (uint32_t m = 0; m < mip; m++)
		off += timg_sub_size(t, p, m) * t->desc.layers;
	return off + timg_sub_size(t, p, mip) * layer;
}

uint8_t *
timg_block(const struct timg *t, unsigned p, uint32_t mip, uint32_t layer,
           uint32_t bx, uint32_t by, uint32_t bz)
{
	uint32_t b[3];

	timg_mip_blocks(t, mip, b);
	return t->model[p] + sub_offset(t, p, mip, layer) +
	       (((size_t)bz * b[1] + by) * b[0] + bx) * t->pf[p]->bytes;
}

int
timg_plane(const struct timg *t, VkImageAspectFlagBits aspect)
{
	for (unsigned p = 0; p < t->nplanes; p++)
		if (t->aspect[p] == aspect)
			return (int)p;
	return -1;
}

void
timg_destroy(struct vkh_device *d, struct timg *t)
{
	if (t->image)
		vkDestroyImage(d->device, t->image, NULL);
	if (t->mem)
		vkFreeMemory(d->device, t->mem, NULL);
	for (unsigned p = 0; p < 2; p++)
		free(t->model[p]);
	memset(t, 0, sizeof(*t));
}

VkResult
timg_create(struct vkh *h, struct vkh_device *d, const struct timg_desc *desc,
            VkImageUsageFlags extra_usage, struct timg *t)
{
	return timg_create_mem(h, d, desc, extra_usage, 0,
	                       VK_IMAGE_LAYOUT_UNDEFINED, t);
}

VkResult
timg_create_mem(struct vkh *h, struct vkh_device *d,
                const struct timg_desc *desc, VkImageUsageFlags extra_usage,
                VkMemoryPropertyFlags mem_want, VkImageLayout initial,
                struct timg *t)
{
	VkImageCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.flags = desc->flags,
		.imageType = desc->type,
		.format = desc->format,
		.extent = desc->extent,
		.mipLevels = desc->mips,
		.arrayLayers = desc->layers,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = desc->tiling,
		.usage = usage_of(extra_usage),
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
		.initialLayout = initial,
	};
	VkMemoryRequirements req;
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	int type;
	VkResult r;

	memset(t, 0, sizeof(*t));
	t->desc = *desc;
	t->fmt = ir_format_get(desc->format);
	if (!t->fmt) {
		fprintf(stderr, "timg: format %d not in the reference table\n",
		        desc->format);
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (ir_format_is_ds(t->fmt)) {
		if (t->fmt->depth_bytes)
			t->aspect[t->nplanes++] = VK_IMAGE_ASPECT_DEPTH_BIT;
		if (t->fmt->stencil_bytes)
			t->aspect[t->nplanes++] = VK_IMAGE_ASPECT_STENCIL_BIT;
	} else {
		t->aspect[t->nplanes++] = VK_IMAGE_ASPECT_COLOR_BIT;
	}
	for (unsigned p = 0; p < t->nplanes; p++) {
		t->pf[p] = ir_aspect_format(t->fmt, t->aspect[p]);
		t->plane_size[p] = sub_offset(t, p, desc->mips, 0);
		t->model[p] = calloc(1, t->plane_size[p]);
		if (!t->model[p])
			return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	r = vkCreateImage(d->device, &ici, NULL, &t->image);
	if (r != VK_SUCCESS)
		return r;
	vkGetImageMemoryRequirements(d->device, t->image, &req);
	t->mem_type = -1;
	type = mem_want ? vkh_find_memory_type(h, req.memoryTypeBits,
	                                       mem_want, 0) :
	                  vkh_memtype_device_local(h, req.memoryTypeBits);
	if (type < 0 && !mem_want)
		type = vkh_find_memory_type(h, req.memoryTypeBits, 0, 0);
	if (type < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)type;
	t->mem_type = type;
	r = vkAllocateMemory(d->device, &mai, NULL, &t->mem);
	if (r != VK_SUCCESS)
		return r;
	r = vkBindImageMemory(d->device, t->image, t->mem, 0);
	t->layout = initial;
	return r;
}

void
timg_randomize(struct timg *t, uint32_t seed)
{
	struct ir_rng rng = { seed * 0x2545f4914f6cdd1dull + 1 };

	for (unsigned p = 0; p < t->nplanes; p++)
		ir_fill_random(&rng, t->pf[p], t->model[p], t->plane_size[p]);
}

void
timg_barrier(VkCommandBuffer cb, struct timg *t, VkImageLayout layout)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
		.oldLayout = t->layout,
		.newLayout = layout,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = t->image,
		.subresourceRange = {
			.aspectMask = 0,
			.levelCount = VK_REMAINING_MIP_LEVELS,
			.layerCount = VK_REMAINING_ARRAY_LAYERS,
		},
	};

	for (unsigned p = 0; p < t->nplanes; p++)
		b.subresourceRange.aspectMask |= t->aspect[p];
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &b);
	t->layout = layout;
}

/* Staging layout: one region per (plane, mip), each starting at a
 * multiple of 4 * block bytes (bufferOffset must be a multiple of the
 * block size, and of 4 on queues without graphics/compute). */
static size_t
staging_layout(const struct timg *t, VkBufferImageCopy *regions,
               size_t *offsets)
{
	size_t off = 0;
	unsigned n = 0;

	for (unsigned p = 0; p < t->nplanes; p++) {
		size_t align = 4u * t->pf[p]->bytes;
		for (uint32_t m = 0; m < t->desc.mips; m++) {
			VkExtent3D e = timg_mip_extent(t, m);
			off = (off + align - 1) / align * align;
			offsets[n] = off;
			regions[n] = (VkBufferImageCopy){
				.bufferOffset = off,
				.imageSubresource = {
					.aspectMask = t->aspect[p],
					.mipLevel = m,
					.layerCount = t->desc.layers,
				},
				.imageExtent = e,
			};
			off += timg_sub_size(t, p, m) * t->desc.layers;
			n++;
		}
	}
	return off;
}

#define MAX_STAGING_REGIONS 32

VkResult
timg_upload(struct vkh *h, struct vkh_device *d, struct timg *t)
{
	VkBufferImageCopy regions[MAX_STAGING_REGIONS];
	size_t offsets[MAX_STAGING_REGIONS];
	size_t size = staging_layout(t, regions, offsets);
	struct vkh_buffer b;
	VkCommandBuffer cb;
	unsigned n = 0;
	VkResult r;

	r = vkh_buffer_create(h, d, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                      VKH_MEM_UPLOAD, -1, &b);
	if (r != VK_SUCCESS)
		return r;
	for (unsigned p = 0; p < t->nplanes; p++)
		for (uint32_t m = 0; m < t->desc.mips; m++, n++)
			memcpy((uint8_t *)b.map + offsets[n],
			       t->model[p] + sub_offset(t, p, m, 0),
			       timg_sub_size(t, p, m) * t->desc.layers);
	cb = vkh_cmd_begin(d, t->qi);
	if (!cb) {
		vkh_buffer_destroy(d, &b);
		return VK_ERROR_UNKNOWN;
	}
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	vkCmdCopyBufferToImage(cb, b.buffer, t->image, t->layout, n, regions);
	r = vkh_cmd_submit_wait(d, t->qi, cb);
	vkh_buffer_destroy(d, &b);
	return r;
}

long
timg_compare_bytes(const uint8_t *got, const uint8_t *want, size_t n,
                   const char *what)
{
	long bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		if (bad < 4)
			fprintf(stderr, "    %s: byte %zu got 0x%02x want "
			        "0x%02x\n", what, i, got[i], want[i]);
		bad++;
	}
	return bad;
}

static long
compare_plane(const struct timg *t, unsigned p, const uint8_t *got,
              const char *what)
{
	uint32_t bytes = t->pf[p]->bytes;
	uint8_t mask[16];
	long bad = 0;

	ir_aspect_mask(t->fmt, t->aspect[p], mask);
	for (uint32_t m = 0; m < t->desc.mips; m++) {
		uint32_t b[3];
		timg_mip_blocks(t, m, b);
		for (uint32_t l = 0; l < t->desc.layers; l++)
		for (uint32_t z = 0; z < b[2]; z++)
		for (uint32_t y = 0; y < b[1]; y++)
		for (uint32_t x = 0; x < b[0]; x++) {
			const uint8_t *w = timg_block(t, p, m, l, x, y, z);
			const uint8_t *g = got + (w - t->model[p]);
			bool ok = true;
			for (uint32_t i = 0; i < bytes; i++)
				ok &= !((g[i] ^ w[i]) & mask[i]);
			if (ok)
				continue;
			if (bad < 4) {
				fprintf(stderr, "    %s: aspect 0x%x mip %u "
				        "layer %u block (%u,%u,%u): got",
				        what, t->aspect[p], m, l, x, y, z);
				for (uint32_t i = 0; i < bytes; i++)
					fprintf(stderr, " %02x", g[i]);
				fprintf(stderr, " want");
				for (uint32_t i = 0; i < bytes; i++)
					fprintf(stderr, " %02x", w[i]);
				fprintf(stderr, "\n");
			}
			bad++;
		}
	}
	return bad;
}

int
timg_readback(struct vkh *h, struct vkh_device *d, struct timg *t,
              uint8_t *got[2])
{
	VkBufferImageCopy regions[MAX_STAGING_REGIONS];
	size_t offsets[MAX_STAGING_REGIONS];
	size_t size = staging_layout(t, regions, offsets);
	struct vkh_buffer b;
	VkCommandBuffer cb;
	unsigned n = 0;
	VkResult r;

	got[0] = got[1] = NULL;
	r = vkh_buffer_create(h, d, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                      VKH_MEM_READBACK, -1, &b);
	if (r != VK_SUCCESS)
		return -1;
	cb = vkh_cmd_begin(d, t->qi);
	if (!cb) {
		vkh_buffer_destroy(d, &b);
		return -1;
	}
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	vkCmdCopyImageToBuffer(cb, t->image, t->layout, b.buffer,
	                       t->nplanes * t->desc.mips, regions);
	vkh_cmd_host_barrier(cb);
	r = vkh_cmd_submit_wait(d, t->qi, cb);
	if (r != VK_SUCCESS) {
		vkh_buffer_destroy(d, &b);
		return -1;
	}
	vkh_buffer_invalidate(h, d, &b);
	for (unsigned p = 0; p < t->nplanes; p++) {
		got[p] = malloc(t->plane_size[p]);
		if (!got[p]) {
			free(got[0]);
			got[0] = NULL;
			vkh_buffer_destroy(d, &b);
			return -1;
		}
		for (uint32_t m = 0; m < t->desc.mips; m++, n++)
			memcpy(got[p] + sub_offset(t, p, m, 0),
			       (uint8_t *)b.map + offsets[n],
			       timg_sub_size(t, p, m) * t->desc.layers);
	}
	vkh_buffer_destroy(d, &b);
	return 0;
}

long
timg_check(struct vkh *h, struct vkh_device *d, struct timg *t,
           const char *what)
{
	uint8_t *got[2];
	long bad = 0;

	if (timg_readback(h, d, t, got))
		return -1;
	for (unsigned p = 0; p < t->nplanes; p++)
		bad += compare_plane(t, p, got[p], what);
	free(got[0]);
	free(got[1]);
	return bad;
}

/* The vkCmdCopy*2 forms of one region (Vulkan 1.3 core). */
void
timg_copy_b2i2(VkCommandBuffer cb, VkBuffer buf, const struct timg *t,
               const VkBufferImageCopy *r)
{
	VkBufferImageCopy2 r2 = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
		.bufferOffset = r->bufferOffset,
		.bufferRowLength = r->bufferRowLength,
		.bufferImageHeight = r->bufferImageHeight,
		.imageSubresource = r->imageSubresource,
		.imageOffset = r->imageOffset,
		.imageExtent = r->imageExtent,
	};
	VkCopyBufferToImageInfo2 info = {
		.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_TO_IMAGE_INFO_2,
		.srcBuffer = buf,
		.dstImage = t->image,
		.dstImageLayout = t->layout,
		.regionCount = 1,
		.pRegions = &r2,
	};

	vkCmdCopyBufferToImage2(cb, &info);
}

void
timg_copy_i2b2(VkCommandBuffer cb, const struct timg *t, VkBuffer buf,
               const VkBufferImageCopy *r)
{
	VkBufferImageCopy2 r2 = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
		.bufferOffset = r->bufferOffset,
		.bufferRowLength = r->bufferRowLength,
		.bufferImageHeight = r->bufferImageHeight,
		.imageSubresource = r->imageSubresource,
		.imageOffset = r->imageOffset,
		.imageExtent = r->imageExtent,
	};
	VkCopyImageToBufferInfo2 info = {
		.sType = VK_STRUCTURE_TYPE_COPY_IMAGE_TO_BUFFER_INFO_2,
		.srcImage = t->image,
		.srcImageLayout = t->layout,
		.dstBuffer = buf,
		.regionCount = 1,
		.pRegions = &r2,
	};

	vkCmdCopyImageToBuffer2(cb, &info);
}

void
timg_copy_i2i2(VkCommandBuffer cb, const struct timg *s,
               const struct timg *t, const VkImageCopy *r)
{
	VkImageCopy2 r2 = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_COPY_2,
		.srcSubresource = r->srcSubresource,
		.srcOffset = r->srcOffset,
		.dstSubresource = r->dstSubresource,
		.dstOffset = r->dstOffset,
		.extent = r->extent,
	};
	VkCopyImageInfo2 info = {
		.sType = VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2,
		.srcImage = s->image,
		.srcImageLayout = s->layout,
		.dstImage = t->image,
		.dstImageLayout = t->layout,
		.regionCount = 1,
		.pRegions = &r2,
	};

	vkCmdCopyImage2(cb, &info);
}
