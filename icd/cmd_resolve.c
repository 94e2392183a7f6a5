/* SPDX-License-Identifier: MIT */
/*
 * cmd_resolve.c — vkCmdResolveImage(2): each region becomes one RESOLVE
 * packet (swgpu_packet.h) on the graphics engine, a swgpu_pass whose one
 * colour attachment is the source region (its offset's texel of the
 * first layer, sample slices sample_pitch apart, image.c) and whose
 * resolve target is the destination region: the colour AVERAGE for
 * float/normalized formats, sample 0 for integer ones (the spec leaves
 * the combination of samples to the implementation; these are what
 * render pass resolves do too).
 */
#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "image.h"

static bool
region_fits(const struct icd_image *img, VkOffset3D o, VkExtent3D e,
            uint32_t base_layer, uint32_t layers)
{
	return o.x >= 0 && o.y >= 0 && o.z == 0 && e.depth == 1 &&
	       (uint64_t)o.x + e.width <= img->extent.width &&
	       (uint64_t)o.y + e.height <= img->extent.height &&
	       (uint64_t)base_layer + layers <= img->array_layers;
}

static void
resolve_region(struct icd_cmd_buffer *cb, const struct icd_image *src,
               const struct icd_image *dst, const VkImageResolve2 *r)
{
	static const char cmd[] = "vkCmdResolveImage";
	const struct icd_image_plane *sp =
		icd_image_plane(src, VK_IMAGE_ASPECT_COLOR_BIT);
	const struct icd_image_plane *dp =
		icd_image_plane(dst, VK_IMAGE_ASPECT_COLOR_BIT);
	const uint32_t layers = r->srcSubresource.layerCount ==
	                        VK_REMAINING_ARRAY_LAYERS
	                        ? src->array_layers -
	                          r->srcSubresource.baseArrayLayer
	                        : r->srcSubresource.layerCount;
	const char *why = NULL;

	if (!sp || !dp || r->srcSubresource.aspectMask !=
	    VK_IMAGE_ASPECT_COLOR_BIT)
		why = "not a colour region";
	else if (src->samples <= 1 || dst->samples != 1)
		why = "the source must be multisampled, the destination not";
	else if (sp->swgpu_format != dp->swgpu_format)
		why = "source and destination formats differ";
	else if (!region_fits(src, r->srcOffset, r->extent,
	                      r->srcSubresource.baseArrayLayer, layers) ||
	         !region_fits(dst, r->dstOffset, r->extent,
	                      r->dstSubresource.baseArrayLayer, layers) ||
	         r->srcSubresource.mipLevel != 0 ||
	         r->dstSubresource.mipLevel >= dst->mip_levels)
		why = "region outside the images";
	if (why) {
		icd_log("%s: %s", cmd, why);
		icd_cmd_set_error(cb, VK_ERROR_FEATURE_NOT_PRESENT);
		return;
	}
	if (!r->extent.width || !r->extent.height || !layers)
		return;
	const struct icd_subresource_layout *sl = &sp->mips[0];
	const struct icd_subresource_layout *dl =
		&dp->mips[r->dstSubresource.mipLevel];
	const uint32_t bpp = sp->block_size;
	const uint32_t cls = swgpu_format_blit_class(sp->swgpu_format);
	struct swgpu_pass pass;
	memset(&pass, 0, sizeof(pass));
	pass.color_count = 1;
	pass.layer_count = layers;
	pass.area_width = r->extent.width;
	pass.area_height = r->extent.height;
	struct swgpu_attachment *a = &pass.color[0];
	a->va = src->va + icd_image_subresource_offset(
	                sp, 0, r->srcSubresource.baseArrayLayer) +
	        (uint64_t)r->srcOffset.y * sl->row_pitch +
	        (uint64_t)r->srcOffset.x * bpp;
	a->row_pitch = sl->row_pitch;
	a->layer_pitch = sp->sample_pitch;
	a->format = sp->swgpu_format;
	a->width = r->extent.width;
	a->height = r->extent.height;
	a->layers = layers;
	a->load_op = SWGPU_LOAD_LOAD;
	a->store_op = SWGPU_STORE_STORE;
	a->samples = (uint32_t)src->samples;
	a->resolve_va = dst->va + icd_image_subresource_offset(
	                        dp, r->dstSubresource.mipLevel,
	                        r->dstSubresource.baseArrayLayer) +
	                (uint64_t)r->dstOffset.y * dl->row_pitch +
	                (uint64_t)r->dstOffset.x * bpp;
	a->resolve_row_pitch = dl->row_pitch;
	a->resolve_layer_pitch = dp->array_pitch;
	a->resolve_mode = cls == SWGPU_BLIT_CLASS_UINT ||
	                  cls == SWGPU_BLIT_CLASS_SINT
	                  ? SWGPU_RESOLVE_SAMPLE_ZERO : SWGPU_RESOLVE_AVERAGE;
	uint64_t va = icd_cmd_emit_data(cb, &pass, sizeof(pass), NULL);
	if (!va)
		return;
	uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_RESOLVE);
	if (p)
		swgpu_emit_va_packet(p, SWGPU_OP_RESOLVE, 0, va);
}

VKAPI_ATTR void VKAPI_CALL
icd_CmdResolveImage2(VkCommandBuffer commandBuffer,
                     const VkResolveImageInfo2 *pInfo)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < pInfo->regionCount; i++)
		resolve_region(cb, icd_image_from_handle(pInfo->srcImage),
		               icd_image_from_handle(pInfo->dstImage),
		               &pInfo->pRegions[i]);
}

VKAPI_ATTR void VKAPI_CALL
icd_CmdResolveImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                    VkImageLayout srcImageLayout, VkImage dstImage,
                    VkImageLayout dstImageLayout, uint32_t regionCount,
                    const VkImageResolve *pRegions)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < regionCount; i++) {
		const VkImageResolve *c = &pRegions[i];
		const VkImageResolve2 r = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2,
			.srcSubresource = c->srcSubresource,
			.srcOffset = c->srcOffset,
			.dstSubresource = c->dstSubresource,
			.dstOffset = c->dstOffset,
			.extent = c->extent,
		};
		resolve_region(cb, icd_image_from_handle(srcImage),
		               icd_image_from_handle(dstImage), &r);
	}
}
