/* SPDX-License-Identifier: MIT */
/*
 * image_vk: Vulkan-side helpers of the image tests. A test image (struct
 * timg) carries a host model of its content per aspect plane, laid out
 * as tightly packed texel blocks: for each mip level, for each array
 * layer, blocks in x, y, z order. Uploads and readbacks go through
 * buffers with one region per (plane, mip) covering all layers, so the
 * model is compared byte for byte with what the image holds.
 */
#ifndef IMAGE_VK_H
#define IMAGE_VK_H

#include "image_ref.h"
#include "vk_harness.h"

struct timg_desc {
	VkImageType type;
	VkFormat format;
	VkImageTiling tiling;
	VkExtent3D extent;
	uint32_t mips;
	uint32_t layers;
	VkImageCreateFlags flags;
};

struct timg {
	struct timg_desc desc;
	const struct ir_format *fmt;
	VkImage image;
	VkDeviceMemory mem;
	VkImageLayout layout;
	unsigned nplanes;
	VkImageAspectFlagBits aspect[2];
	const struct ir_format *pf[2]; /* plane formats (buffer packing) */
	uint8_t *model[2];
	size_t plane_size[2];
	int mem_type;
	uint32_t qi; /* queue (index in vkh_device) of upload/readback */
};

const char *timg_tiling_name(VkImageTiling t);
const char *timg_type_name(const struct timg_desc *d);

/* Whether the device supports the image with TRANSFER_SRC|DST usage
 * (plus extra_usage) and the format features need on its tiling. On
 * VK_ERROR_FORMAT_NOT_SUPPORTED, why says which query said no. */
VkResult timg_supported(struct vkh *h, const struct timg_desc *desc,
                        VkImageUsageFlags extra_usage,
                        VkFormatFeatureFlags need, const char **why);

VkResult timg_create(struct vkh *h, struct vkh_device *d,
                     const struct timg_desc *desc,
                     VkImageUsageFlags extra_usage, struct timg *t);
/* As timg_create, in a memory type with all of mem_want (e.g. host
 * visible for linear images the host accesses) and with an initial
 * layout (PREINITIALIZED for content written by the host). */
VkResult timg_create_mem(struct vkh *h, struct vkh_device *d,
                         const struct timg_desc *desc,
                         VkImageUsageFlags extra_usage,
                         VkMemoryPropertyFlags mem_want,
                         VkImageLayout initial, struct timg *t);
void timg_destroy(struct vkh_device *d, struct timg *t);

VkExtent3D timg_mip_extent(const struct timg *t, uint32_t mip);
/* Mip extent in texel blocks of plane p. */
void timg_mip_blocks(const struct timg *t, uint32_t mip, uint32_t b[3]);
/* Array layers of the image (1 for 3D). */
size_t timg_sub_size(const struct timg *t, unsigned p, uint32_t mip);
uint8_t *timg_block(const struct timg *t, unsigned p, uint32_t mip,
                    uint32_t layer, uint32_t bx, uint32_t by, uint32_t bz);
/* Plane index of an aspect, or -1. */
int timg_plane(const struct timg *t, VkImageAspectFlagBits aspect);

/* Fill the model with random content (valid depth values). */
void timg_randomize(struct timg *t, uint32_t seed);

/* Image barrier over all subresources: transfer -> transfer, from the
 * current layout to layout. Also the dependency between two commands. */
void timg_barrier(VkCommandBuffer cb, struct timg *t, VkImageLayout layout);

/* Model -> image (every plane, mip and layer); submitted and waited. */
VkResult timg_upload(struct vkh *h, struct vkh_device *d, struct timg *t);

/* Image -> host, compared byte for byte with the model (D24's undefined
 * top byte masked). Returns the number of differing blocks (after
 * printing the first few with their coordinates), or -1 on a Vulkan
 * error. */
long timg_check(struct vkh *h, struct vkh_device *d, struct timg *t,
                const char *what);

/* Image -> host: got[p] (malloc'ed, model layout) for each plane.
 * Returns 0 or -1 on a Vulkan error. */
int timg_readback(struct vkh *h, struct vkh_device *d, struct timg *t,
                  uint8_t *got[2]);

/* Compare two byte arrays; print up to 4 differences. */
long timg_compare_bytes(const uint8_t *got, const uint8_t *want, size_t n,
                        const char *what);

/* The vkCmdCopy*2 forms (Vulkan 1.3 core) of one 1.0-style region, so
 * tests exercise both entry points with the same region lists. */
void timg_copy_b2i2(VkCommandBuffer cb, VkBuffer buf, const struct timg *t,
                    const VkBufferImageCopy *r);
void timg_copy_i2b2(VkCommandBuffer cb, const struct timg *t, VkBuffer buf,
                    const VkBufferImageCopy *r);
void timg_copy_i2i2(VkCommandBuffer cb, const struct timg *s,
                    const struct timg *t, const VkImageCopy *r);

#endif /* IMAGE_VK_H */
