/* SPDX-License-Identifier: MIT */
/*
 * Which formats the graphics engine renders, blends and fetches
 * (swgpu_format.h). Everything is decided from the format table, the
 * same description the attachment writes and vertex fetch convert with,
 * so the lists cannot drift from what the engine does.
 */
#include <swgpu/swgpu_format.h>

static bool
plain_channels(const swgpu_format_info *fi)
{
	if (fi->block_width != 1 || fi->block_height != 1 ||
	    fi->block_depth != 1 ||
	    (fi->caps & (SWGPU_FORMAT_CAP_COMPRESSED | SWGPU_FORMAT_CAP_DEPTH |
	                 SWGPU_FORMAT_CAP_STENCIL)))
		return false;
	for (uint32_t c = 0; c < 4; c++)
		if (fi->bit_width[c] > 32)
			return false;
	return true;
}

bool
swgpu_format_color_renderable(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);
	const uint32_t need = SWGPU_FORMAT_CAP_DECODE | SWGPU_FORMAT_CAP_ENCODE;

	if (!fi || (fi->caps & need) != need || !plain_channels(fi))
		return false;
	switch (fi->numeric) {
	case SWGPU_NUMERIC_UNORM:
	case SWGPU_NUMERIC_SNORM:
	case SWGPU_NUMERIC_UINT:
	case SWGPU_NUMERIC_SINT:
	case SWGPU_NUMERIC_SFLOAT:
	case SWGPU_NUMERIC_SRGB:
	case SWGPU_NUMERIC_UFLOAT:
		return true;
	default:
		return false;
	}
}

bool
swgpu_format_blendable(uint32_t format)
{
	return swgpu_format_color_renderable(format) &&
	       swgpu_format_blit_class(format) == SWGPU_BLIT_CLASS_FLOAT;
}

bool
swgpu_format_depth_renderable(uint32_t format)
{
	return format == SWGPU_FORMAT_D16_UNORM ||
	       format == SWGPU_FORMAT_X8_D24_UNORM ||
	       format == SWGPU_FORMAT_D32_SFLOAT;
}

bool
swgpu_format_stencil_renderable(uint32_t format)
{
	return format == SWGPU_FORMAT_S8_UINT;
}

bool
swgpu_format_vertex_fetchable(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	if (!fi || !(fi->caps & SWGPU_FORMAT_CAP_DECODE) ||
	    !plain_channels(fi))
		return false;
	return fi->numeric != SWGPU_NUMERIC_SRGB &&
	       fi->numeric != SWGPU_NUMERIC_SHAREDEXP &&
	       fi->numeric != SWGPU_NUMERIC_NONE;
}
