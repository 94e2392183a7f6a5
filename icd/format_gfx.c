/* SPDX-License-Identifier: MIT */
/*
 * format_gfx.c — the format features of the graphics engine: which
 * formats are colour attachments (and blend), depth/stencil attachments
 * and vertex buffer formats. The one place these are decided; format.c
 * adds them to what it reports.
 *
 * The graphics engine renders (swgpu_packet.h, "Graphics packets"): the
 * colour formats the spec makes mandatory for COLOR_ATTACHMENT (those it
 * makes mandatory for COLOR_ATTACHMENT_BLEND also blend), depth on
 * D16_UNORM / X8_D24_UNORM / D32_SFLOAT planes and stencil on S8_UINT
 * planes — so every depth/stencil format — and fetches the vertex
 * formats the spec makes mandatory for VERTEX_BUFFER. Until the engine
 * answers these through swgpu_format.h, this table is what it
 * implements.
 */
#include "format.h"

#define CA VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT
#define BL (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | \
            VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT)

static const struct {
	VkFormat format;
	VkFormatFeatureFlags2 features;
} color_attachment_formats[] = {
	{ VK_FORMAT_R5G6B5_UNORM_PACK16, BL },
	{ VK_FORMAT_A1R5G5B5_UNORM_PACK16, BL },
	{ VK_FORMAT_R8_UNORM, BL },
	{ VK_FORMAT_R8_UINT, CA },
	{ VK_FORMAT_R8_SINT, CA },
	{ VK_FORMAT_R8G8_UNORM, BL },
	{ VK_FORMAT_R8G8_UINT, CA },
	{ VK_FORMAT_R8G8_SINT, CA },
	{ VK_FORMAT_R8G8B8A8_UNORM, BL },
	{ VK_FORMAT_R8G8B8A8_UINT, CA },
	{ VK_FORMAT_R8G8B8A8_SINT, CA },
	{ VK_FORMAT_R8G8B8A8_SRGB, BL },
	{ VK_FORMAT_B8G8R8A8_UNORM, BL },
	{ VK_FORMAT_B8G8R8A8_SRGB, BL },
	{ VK_FORMAT_A8B8G8R8_UNORM_PACK32, BL },
	{ VK_FORMAT_A8B8G8R8_UINT_PACK32, CA },
	{ VK_FORMAT_A8B8G8R8_SINT_PACK32, CA },
	{ VK_FORMAT_A8B8G8R8_SRGB_PACK32, BL },
	{ VK_FORMAT_A2B10G10R10_UNORM_PACK32, BL },
	{ VK_FORMAT_A2B10G10R10_UINT_PACK32, CA },
	{ VK_FORMAT_R16_UINT, CA },
	{ VK_FORMAT_R16_SINT, CA },
	{ VK_FORMAT_R16_SFLOAT, BL },
	{ VK_FORMAT_R16G16_UINT, CA },
	{ VK_FORMAT_R16G16_SINT, CA },
	{ VK_FORMAT_R16G16_SFLOAT, BL },
	{ VK_FORMAT_R16G16B16A16_UINT, CA },
	{ VK_FORMAT_R16G16B16A16_SINT, CA },
	{ VK_FORMAT_R16G16B16A16_SFLOAT, BL },
	{ VK_FORMAT_R32_UINT, CA },
	{ VK_FORMAT_R32_SINT, CA },
	{ VK_FORMAT_R32_SFLOAT, CA },
	{ VK_FORMAT_R32G32_UINT, CA },
	{ VK_FORMAT_R32G32_SINT, CA },
	{ VK_FORMAT_R32G32_SFLOAT, CA },
	{ VK_FORMAT_R32G32B32A32_UINT, CA },
	{ VK_FORMAT_R32G32B32A32_SINT, CA },
	{ VK_FORMAT_R32G32B32A32_SFLOAT, CA },
};

static const VkFormat vertex_formats[] = {
	VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R8_UINT,
	VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SNORM,
	VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8A8_UNORM,
	VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R8G8B8A8_UINT,
	VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_B8G8R8A8_UNORM,
	VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SNORM_PACK32,
	VK_FORMAT_A8B8G8R8_UINT_PACK32, VK_FORMAT_A8B8G8R8_SINT_PACK32,
	VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16_UNORM,
	VK_FORMAT_R16_SNORM, VK_FORMAT_R16_UINT, VK_FORMAT_R16_SINT,
	VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SNORM,
	VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16_SFLOAT,
	VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SNORM,
	VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_SINT,
	VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT,
	VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SINT,
	VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_UINT,
	VK_FORMAT_R32G32B32_SINT, VK_FORMAT_R32G32B32_SFLOAT,
	VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SINT,
	VK_FORMAT_R32G32B32A32_SFLOAT,
};

VkFormatFeatureFlags2
icd_format_attachment_features(const struct icd_format *f)
{
	if (f->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT |
	                  VK_IMAGE_ASPECT_STENCIL_BIT))
		return VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
	for (size_t i = 0; i < sizeof(color_attachment_formats) /
	                       sizeof(color_attachment_formats[0]); i++)
		if (color_attachment_formats[i].format == f->desc->format)
			return color_attachment_formats[i].features;
	return 0;
}

VkFormatFeatureFlags2
icd_format_vertex_features(VkFormat format)
{
	for (size_t i = 0; i < sizeof(vertex_formats) /
	                       sizeof(vertex_formats[0]); i++)
		if (vertex_formats[i] == format)
			return VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
	return 0;
}

VkImageUsageFlags
icd_format_attachment_usage(VkFormatFeatureFlags2 features)
{
	VkImageUsageFlags u = 0;

	if (features & VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT)
		u |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
	if (features & VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)
		u |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
	if (u)
		u |= VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
	/* Input attachments are read as sampled images. */
	if (u && (features & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT))
		u |= VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
	return u;
}
