/* SPDX-License-Identifier: MIT */
/*
 * image.h — image layout queries shared by image.c and the image
 * transfer commands (cmd_image.c). The layout itself is described at the
 * top of image.c.
 */
#ifndef ICD_IMAGE_H
#define ICD_IMAGE_H

#include "icd.h"

#include <swgpu/swgpu_packet.h>

/* 16 bytes: the largest texel block, and optimalBufferCopyRowPitchAlignment,
 * so a tightly packed buffer row of 16-byte multiples copies as one run.
 * It is the engine's rule for the mip chain of a sampled image. */
#define ICD_IMAGE_ROW_PITCH_ALIGN SWGPU_IMAGE_ROW_PITCH_ALIGN

/* Extent of a mip level along one axis. */
uint32_t icd_image_mip_extent(uint32_t v, uint32_t level);

/* The plane storing exactly one aspect (COLOR, DEPTH or STENCIL), NULL if
 * the image has no such aspect. */
const struct icd_image_plane *icd_image_plane(const struct icd_image *img,
                                              VkImageAspectFlags aspect);

/* Byte offset of (mip, layer) of a plane from the image's start. */
VkDeviceSize icd_image_subresource_offset(const struct icd_image_plane *pl,
                                          uint32_t mip, uint32_t layer);

#endif /* ICD_IMAGE_H */
