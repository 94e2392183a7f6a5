/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of test_icd_views.c (views, format features, invalid
 * create infos) and test_icd_views_dispatch.c (descriptors of views read
 * and written by a compute shader).
 */
#ifndef TEST_ICD_VIEWS_H
#define TEST_ICD_VIEWS_H

#include "vkh_compute.h"

/* An image bound to its own device-local allocation. */
struct views_image {
	VkImage image;
	VkDeviceMemory memory;
};

VkResult views_image_create(struct vkh *h, struct vkh_device *d,
                            const VkImageCreateInfo *ci,
                            struct views_image *out);
void views_image_destroy(struct vkh_device *d, struct views_image *img);

/* A view of one aspect-COLOR subresource range; next chains to the
 * create info (e.g. VkImageViewUsageCreateInfo). */
VkResult views_image_view(struct vkh_device *d, VkImage image,
                          VkImageViewType type, VkFormat format,
                          uint32_t base_mip, uint32_t levels,
                          uint32_t base_layer, uint32_t layers,
                          const void *next, VkImageView *out);

VkResult views_buffer_view(struct vkh_device *d, VkBuffer buffer,
                           VkFormat format, VkDeviceSize offset,
                           VkDeviceSize range, VkBufferView *out);

/* Whether the device offers storage images at all (every Vulkan device
 * must for R8G8B8A8_UNORM; a swgpu whose shader engine does not run
 * them yet offers none). */
bool views_storage_offered(struct vkh *h);

/* An offset every texel buffer view of a 1-16 byte format may have
 * under both the 1.0 rule (minTexelBufferOffsetAlignment) and 1.3's
 * texel buffer alignment properties. */
VkDeviceSize views_texel_offset(struct vkh *h);

void test_views_dispatch(struct vkh *h, struct vkh_device *d);
void test_views_null_descriptors(struct vkh *h, struct vkh_device *d);

#endif /* TEST_ICD_VIEWS_H */
