/* SPDX-License-Identifier: MIT */
/*
 * format_gfx.c — the format features of the graphics engine: which
 * formats are colour attachments (and blend), depth/stencil attachments
 * and vertex buffer formats. The one place these are decided; format.c
 * adds them to what it reports.
 *
 * Asked of the engine (swgpu_format.h, "Graphics"): a colour format is a
 * COLOR_ATTACHMENT when the engine renders its plane format
 * (swgpu_format_color_renderable) and COLOR_ATTACHMENT_BLEND when it
 * also blends it; a depth/stencil format is a DEPTH_STENCIL_ATTACHMENT
 * when the engine renders every plane (depth on D16_UNORM, X8_D24_UNORM
 * or D32_SFLOAT, stencil on S8_UINT); VERTEX_BUFFER when the engine
 * fetches the format as a vertex attribute.
 */
#include <swgpu/swgpu_format.h>

#include "format.h"

VkFormatFeatureFlags2
icd_format_attachment_features(const struct icd_format *f)
{
	VkFormatFeatureFlags2 feat;

	if (f->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT |
	                  VK_IMAGE_ASPECT_STENCIL_BIT)) {
		for (uint32_t p = 0; p < f->plane_count; p++) {
			uint32_t sw = f->planes[p].swgpu_format;
			bool ok = f->planes[p].aspect ==
			          VK_IMAGE_ASPECT_DEPTH_BIT ?
			          swgpu_format_depth_renderable(sw) :
			          swgpu_format_stencil_renderable(sw);

			if (!ok)
				return 0;
		}
		return VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
	}
	if (f->plane_count != 1 ||
	    !swgpu_format_color_renderable(f->planes[0].swgpu_format))
		return 0;
	feat = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
	if (swgpu_format_blendable(f->planes[0].swgpu_format))
		feat |= VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
	return feat;
}

VkFormatFeatureFlags2
icd_format_vertex_features(VkFormat format)
{
	const struct icd_format_desc *d = icd_format_describe(format);

	return d && d->swgpu_format &&
	       swgpu_format_vertex_fetchable(d->swgpu_format) ?
	       VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT : 0;
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
