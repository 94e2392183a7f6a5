/* SPDX-License-Identifier: MIT */
/*
 * format.h — the formats images may have, how each aspect of a format is
 * stored (its plane), and what the device reports for them.
 *
 * Offered (core 1.0 formats; the table comes from vk.xml through
 * gen_formats.py):
 *   - every uncompressed colour format with a 1..16-byte texel block
 *     (packed, sRGB, scaled and 64-bit component formats included):
 *     TRANSFER_SRC/DST; BLIT_SRC/DST when the engine can decode and encode
 *     it (swgpu_format_blittable), plus SAMPLED_IMAGE_FILTER_LINEAR (which,
 *     with BLIT_SRC, means "LINEAR blits") when it is not an integer format;
 *   - D16_UNORM, X8_D24_UNORM_PACK32, D32_SFLOAT, S8_UINT,
 *     D16_UNORM_S8_UINT, D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT: TRANSFER,
 *     and BLIT (NEAREST only, as the spec requires) when the engine
 *     blits their plane formats;
 *   - BC1-7, ETC2/EAC and ASTC LDR as opaque blocks: TRANSFER only,
 *     2D images only.
 * LINEAR and OPTIMAL tiling report the same (both use the same layout,
 * image.c), except that the three depth+stencil formats are OPTIMAL only
 * (format.c says why).
 *
 * Shader access, once the engine executes it (asked through
 * swgpu_shader_descriptor_type_supported): the SPIR-V storage image
 * formats plus A8B8G8R8_*_PACK32 and B8G8R8A8_UNORM get STORAGE_IMAGE
 * (both tilings) and STORAGE_TEXEL_BUFFER, with READ/WRITE_WITHOUT_FORMAT
 * (the engine converts by the descriptor's format); R32_UINT/SINT the two
 * ATOMIC bits; every format the engine converts UNIFORM_TEXEL_BUFFER.
 * Image usage: TRANSFER_SRC/DST, and STORAGE for storage formats (or,
 * with EXTENDED_USAGE, when a format a view may have is one).
 *
 * Planes: depth and stencil live in separate planes (plane 0 depth, plane
 * 1 stencil) whose texels are exactly the spec's buffer packing of the
 * aspect (D16: 2 bytes; X8_D24 and the D24 of D24S8: 4 bytes, depth in the
 * low 24 bits; D32F: 4 bytes; S8: 1 byte), so every aspect copy between an
 * image and a buffer is a plain pitched copy.
 */
#ifndef ICD_FORMAT_H
#define ICD_FORMAT_H

#include "icd.h"
#include "icd_format_table.h"

#define ICD_MAX_FORMAT_PLANES 2

/* One stored aspect of a format. */
struct icd_plane_format {
	VkImageAspectFlagBits aspect;
	uint32_t block_size;            /* bytes per block */
	uint32_t block_w, block_h;      /* block extent in texels */
	uint32_t swgpu_format;          /* engine format, 0 = copies only */
};

struct icd_format {
	const struct icd_format_desc *desc;
	VkImageAspectFlags aspects;
	uint32_t plane_count;
	struct icd_plane_format planes[ICD_MAX_FORMAT_PLANES];
};

/* Describe a format offered for images; false (and *f zeroed) if images
 * of the format are not supported. */
bool icd_format_get(VkFormat format, struct icd_format *f);

/* Plane index of an aspect (COLOR/DEPTH/STENCIL), -1 if absent. */
int icd_format_plane(const struct icd_format *f, VkImageAspectFlags aspect);

/* Bytes per texel block, 0 if images of the format are not supported. */
uint32_t icd_format_block_size(VkFormat format);

/* Graphics (format_gfx.c): the attachment features of a supported
 * format (COLOR_ATTACHMENT[_BLEND] or DEPTH_STENCIL_ATTACHMENT), its
 * VERTEX_BUFFER feature, and the image usages attachment features allow
 * (with SAMPLED_IMAGE: INPUT_ATTACHMENT too). */
VkFormatFeatureFlags2 icd_format_attachment_features(const struct icd_format *f);
VkFormatFeatureFlags2 icd_format_vertex_features(VkFormat format);
VkImageUsageFlags icd_format_attachment_usage(VkFormatFeatureFlags2 features);

/* Format features of a format for a tiling (0 if not supported). */
VkFormatFeatureFlags2 icd_format_features(VkFormat format,
                                          VkImageTiling tiling);

/* Buffer features (texel buffers) of a format. */
VkFormatFeatureFlags2 icd_format_buffer_features(VkFormat format);

/* Whether an image of image_format created with flags may have a view
 * of view_format: the same format, or with MUTABLE_FORMAT one of the
 * same compatibility class (an uncompressed view of a compressed image
 * needs BLOCK_TEXEL_VIEW_COMPATIBLE and the block's size). */
bool icd_format_view_compatible(VkFormat image_format,
                                VkImageCreateFlags flags,
                                VkFormat view_format);

/* The image usage an image of the format may have. */
VkImageUsageFlags icd_image_usage_supported(VkFormat format,
                                            VkImageTiling tiling,
                                            VkImageCreateFlags flags);

/* Checks an image description against what the device supports; fills
 * *props with the limits when it is supported. */
VkResult icd_image_format_properties(struct icd_physical_device *pdev,
                                     VkFormat format, VkImageType type,
                                     VkImageTiling tiling,
                                     VkImageUsageFlags usage,
                                     VkImageCreateFlags flags,
                                     VkImageFormatProperties *props);

#endif /* ICD_FORMAT_H */
