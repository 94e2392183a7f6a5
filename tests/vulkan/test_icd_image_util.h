/* SPDX-License-Identifier: MIT */
/*
 * test_icd_image_util — helpers shared by the IMG-ICD image tests
 * (test_icd_image_layout.c, test_icd_image_cmd.c): images bound to fresh
 * host-visible memory, image barriers and format property queries.
 */
#ifndef TEST_ICD_IMAGE_UTIL_H
#define TEST_ICD_IMAGE_UTIL_H

#include "vk_harness.h"

/* An image bound to its own host-visible, coherent allocation, mapped. */
struct linear_image {
	VkImage image;
	VkDeviceMemory memory;
	uint8_t *map;
};

VkResult linear_image_create(struct vkh *h, struct vkh_device *d,
                             const VkImageCreateInfo *ci,
                             struct linear_image *li);
void linear_image_destroy(struct vkh_device *d, struct linear_image *li);

/* One image memory barrier over every mip level and layer of aspects. */
void image_barrier(VkCommandBuffer cb, VkImage img, VkImageAspectFlags aspects,
                   VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                   VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

/* vkGetPhysicalDeviceImageFormatProperties of the harness's device. */
VkResult ifp(struct vkh *h, VkFormat f, VkImageType t, VkImageTiling tiling,
             VkImageUsageFlags usage, VkImageCreateFlags flags,
             VkImageFormatProperties *out);

/* Extent of mip level l along an axis of extent v. */
static inline uint32_t
mip(uint32_t v, uint32_t l)
{
	v >>= l;
	return v ? v : 1;
}

#endif /* TEST_ICD_IMAGE_UTIL_H */
