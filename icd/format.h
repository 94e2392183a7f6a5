/* SPDX-License-Identifier: MIT */
/*
 * format.h — the formats images may have, and what the device reports for
 * them.
 *
 * Images exist so applications can create, bind and lay them out; the
 * image copy commands come later. Every uncompressed single-plane color
 * format of core 1.0 with a texel block of 1..16 bytes (8..128 bits) is
 * allowed, with TRANSFER_SRC|TRANSFER_DST usage, one sample, and
 * LINEAR (2D, one mip level, one layer) or OPTIMAL tiling (1D/2D/3D, mips,
 * layers; laid out exactly like LINEAR since there is no tiling hardware).
 * Depth/stencil, compressed and multi-planar formats report no features.
 * Buffers report no format features (no texel buffers without shaders).
 */
#ifndef ICD_FORMAT_H
#define ICD_FORMAT_H

#include "icd.h"

#define ICD_IMAGE_USAGE_SUPPORTED \
	(VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT)

/* Bytes per texel block, 0 if images of the format are not supported. */
uint32_t icd_format_block_size(VkFormat format);

/* Format features of a supported format for a tiling (0 otherwise). */
VkFormatFeatureFlags icd_format_features(VkFormat format,
                                         VkImageTiling tiling);

/* Checks an image description against what the device supports; fills
 * *props with the limits when it is supported. */
VkResult icd_image_format_properties(struct icd_physical_device *pdev,
                                     VkFormat format, VkImageType type,
                                     VkImageTiling tiling,
                                     VkImageUsageFlags usage,
                                     VkImageCreateFlags flags,
                                     VkImageFormatProperties *props);

#endif /* ICD_FORMAT_H */
