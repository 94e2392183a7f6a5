/* SPDX-License-Identifier: MIT */
/*
 * cmd_image.c — transfer commands on images: copies between buffers and
 * images and between images (COPY_PITCHED packets), blits (BLIT) and
 * clears (CLEAR_BOX).
 *
 * Every command works per aspect plane (image.c): a depth/stencil region
 * naming both aspects is one packet per plane, and a single aspect is
 * exactly a plane, so the spec's buffer packing per aspect (D16: 2 bytes,
 * D24: 4 bytes with depth in the low 24 bits, D32F: 4 bytes, S8: 1 byte)
 * is the plane's own texel and the copy is a plain pitched copy.
 *
 * Copies count texel blocks: offsets and extents in texels are divided by
 * the block extent (compressed formats), an extent reaching the edge of
 * the mip level rounds its partial edge block up, and an image-to-image
 * copy between formats of equal block size (compressed <-> uncompressed
 * included) moves the same number of blocks on both sides: the region's
 * extent is in source texels, so a 4x4-block source moves extent/4 blocks
 * into extent/4 texels of a one-texel-block destination.
 *
 * The third axis of a box is either depth slices (3D images: slice pitch
 * is the depth pitch, z offsets folded into the address) or array layers
 * (slice pitch is the layer pitch); a copy between a 3D image and a 2D
 * array maps slices to layers one to one, as the spec says.
 *
 * Layouts: the image layout parameters are accepted and ignored: every
 * layout is the same bytes (image.c), so nothing is converted.
 *
 * Multisampled images (image.c): a copy between two of them moves the
 * layers' sample slices as one box of layers x samples slices; clears
 * clear every slice; buffer copies and blits of them are invalid and
 * refused. vkCmdResolveImage(2): cmd_resolve.c.
 */
#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "image.h"

static uint32_t
div_up(uint32_t v, uint32_t d)
{
	return (v + d - 1) / d;
}

static uint32_t
layer_count(const struct icd_image *img, uint32_t base, uint32_t count)
{
	return count == VK_REMAINING_ARRAY_LAYERS ?
	       img->array_layers - base : count;
}

static uint32_t
level_count(const struct icd_image *img, uint32_t base, uint32_t count)
{
	return count == VK_REMAINING_MIP_LEVELS ?
	       img->mip_levels - base : count;
}

/* Record an error once and log why; the command is dropped. */
static void
cmd_fail(struct icd_cmd_buffer *cb, const char *cmd, const char *why)
{
	icd_log("%s: %s", cmd, why);
	icd_cmd_set_error(cb, VK_ERROR_FEATURE_NOT_PRESENT);
}

/* The plane of one aspect bit, or NULL (logged) if the image lacks it or
 * is not bound. */
static const struct icd_image_plane *
cmd_plane(struct icd_cmd_buffer *cb, const char *cmd,
          const struct icd_image *img, VkImageAspectFlags aspect)
{
	const struct icd_image_plane *pl = icd_image_plane(img, aspect);

	if (!pl) {
		icd_log("%s: image has no aspect 0x%x", cmd, aspect);
		icd_cmd_set_error(cb, VK_ERROR_FEATURE_NOT_PRESENT);
	}
	return pl;
}

/*
 * Where block (offset / block extent) of subresource (mip, layer) of a
 * plane lives: its address, row pitch, and the pitch of the third axis
 * (depth slices for 3D images, array layers otherwise).
 */
static struct swgpu_pitched
image_pitched(const struct icd_image *img, const struct icd_image_plane *pl,
              uint32_t mip, uint32_t layer, VkOffset3D off)
{
	const struct icd_subresource_layout *l = &pl->mips[mip];
	struct swgpu_pitched s;

	s.row_pitch = l->row_pitch;
	/* multisampled: the third axis walks sample slices (image.c) */
	s.slice_pitch = img->type == VK_IMAGE_TYPE_3D ? l->depth_pitch :
	                                                pl->sample_pitch;
	s.va = img->va + icd_image_subresource_offset(pl, mip, layer) +
	       (uint64_t)off.z * l->depth_pitch +
	       (uint64_t)(off.y / (int32_t)pl->block_h) * l->row_pitch +
	       (uint64_t)(off.x / (int32_t)pl->block_w) * pl->block_size;
	return s;
}

static void
emit_copy_pitched(struct icd_cmd_buffer *cb, const struct swgpu_pitched *dst,
                  const struct swgpu_pitched *src, uint64_t row_bytes,
                  uint32_t rows, uint32_t slices, const char *cmd)
{
	struct swgpu_pitched d = *dst, s = *src;
	uint32_t *p;

	if (!row_bytes || !rows || !slices)
		return;
	if (row_bytes > UINT32_MAX || rows > SWGPU_IMAGE_MAX_EXTENT ||
	    slices > SWGPU_IMAGE_MAX_EXTENT) {
		cmd_fail(cb, cmd, "region exceeds the copy engine's box");
		return;
	}
	/* A single row or slice needs no pitch; 0 keeps the engine's
	 * no-overlap rule trivially true for it. */
	if (rows == 1)
		d.row_pitch = s.row_pitch = 0;
	if (slices == 1)
		d.slice_pitch = s.slice_pitch = 0;
	p = icd_cmd_emit(cb, SWGPU_LEN_COPY_PITCHED);
	if (p)
		swgpu_emit_copy_pitched(p, &d, &s, (uint32_t)row_bytes, rows,
		                        slices);
}

/* ---- buffer <-> image ---------------------------------------------- */

static void
copy_buffer_image(struct icd_cmd_buffer *cb, struct icd_buffer *buf,
                  struct icd_image *img, const VkBufferImageCopy2 *r,
                  bool to_image, const char *cmd)
{
	const VkImageSubresourceLayers *sub = &r->imageSubresource;
	const struct icd_image_plane *pl =
		cmd_plane(cb, cmd, img, sub->aspectMask);
	struct swgpu_pitched im, bf;
	uint32_t layers, slices, cols, rows, row_len, img_h;

	if (!pl)
		return;
	if (img->samples > 1) {
		cmd_fail(cb, cmd, "multisampled image (copy it to another "
		         "image or resolve it)");
		return;
	}
	layers = layer_count(img, sub->baseArrayLayer, sub->layerCount);
	/* 0 means tightly packed to the extent; lengths are in texels
	 * (multiples of the block extent), the buffer holds whole blocks. */
	row_len = r->bufferRowLength ? r->bufferRowLength :
	                               r->imageExtent.width;
	img_h = r->bufferImageHeight ? r->bufferImageHeight :
	                               r->imageExtent.height;
	cols = div_up(r->imageExtent.width, pl->block_w);
	rows = div_up(r->imageExtent.height, pl->block_h);
	slices = img->type == VK_IMAGE_TYPE_3D ? r->imageExtent.depth : layers;

	im = image_pitched(img, pl, sub->mipLevel, sub->baseArrayLayer,
	                   r->imageOffset);
	bf.va = buf->va + r->bufferOffset;
	bf.row_pitch = (uint64_t)div_up(row_len, pl->block_w) *
	               pl->block_size;
	bf.slice_pitch = (uint64_t)div_up(img_h, pl->block_h) * bf.row_pitch;
	if (to_image)
		emit_copy_pitched(cb, &im, &bf,
		                  (uint64_t)cols * pl->block_size, rows,
		                  slices, cmd);
	else
		emit_copy_pitched(cb, &bf, &im,
		                  (uint64_t)cols * pl->block_size, rows,
		                  slices, cmd);
}

static VkBufferImageCopy2
region2(const VkBufferImageCopy *r)
{
	return (VkBufferImageCopy2){
		.sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
		.bufferOffset = r->bufferOffset,
		.bufferRowLength = r->bufferRowLength,
		.bufferImageHeight = r->bufferImageHeight,
		.imageSubresource = r->imageSubresource,
		.imageOffset = r->imageOffset,
		.imageExtent = r->imageExtent,
	};
}

void
icd_CmdCopyBufferToImage(VkCommandBuffer commandBuffer, VkBuffer srcBuffer,
                         VkImage dstImage, VkImageLayout dstImageLayout,
                         uint32_t regionCount,
                         const VkBufferImageCopy *pRegions)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < regionCount; i++) {
		VkBufferImageCopy2 r = region2(&pRegions[i]);

		copy_buffer_image(cb, icd_buffer_from_handle(srcBuffer),
		                  icd_image_from_handle(dstImage), &r, true,
		                  "vkCmdCopyBufferToImage");
	}
}

void
icd_CmdCopyBufferToImage2(VkCommandBuffer commandBuffer,
                          const VkCopyBufferToImageInfo2 *pInfo)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < pInfo->regionCount; i++)
		copy_buffer_image(cb, icd_buffer_from_handle(pInfo->srcBuffer),
		                  icd_image_from_handle(pInfo->dstImage),
		                  &pInfo->pRegions[i], true,
		                  "vkCmdCopyBufferToImage2");
}

void
icd_CmdCopyImageToBuffer(VkCommandBuffer commandBuffer, VkImage srcImage,
                         VkImageLayout srcImageLayout, VkBuffer dstBuffer,
                         uint32_t regionCount,
                         const VkBufferImageCopy *pRegions)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < regionCount; i++) {
		VkBufferImageCopy2 r = region2(&pRegions[i]);

		copy_buffer_image(cb, icd_buffer_from_handle(dstBuffer),
		                  icd_image_from_handle(srcImage), &r, false,
		                  "vkCmdCopyImageToBuffer");
	}
}

void
icd_CmdCopyImageToBuffer2(VkCommandBuffer commandBuffer,
                          const VkCopyImageToBufferInfo2 *pInfo)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < pInfo->regionCount; i++)
		copy_buffer_image(cb, icd_buffer_from_handle(pInfo->dstBuffer),
		                  icd_image_from_handle(pInfo->srcImage),
		                  &pInfo->pRegions[i], false,
		                  "vkCmdCopyImageToBuffer2");
}

/* ---- image -> image ------------------------------------------------- */

static void
copy_image_aspect(struct icd_cmd_buffer *cb, struct icd_image *src,
                  struct icd_image *dst, const VkImageCopy2 *r,
                  VkImageAspectFlags src_aspect, VkImageAspectFlags dst_aspect)
{
	static const char cmd[] = "vkCmdCopyImage";
	const struct icd_image_plane *sp = cmd_plane(cb, cmd, src, src_aspect);
	const struct icd_image_plane *dp = cmd_plane(cb, cmd, dst, dst_aspect);
	struct swgpu_pitched s, d;
	uint32_t cols, rows, slices;

	if (!sp || !dp)
		return;
	/* Size-compatible formats: the same bytes per block. */
	if (sp->block_size != dp->block_size) {
		cmd_fail(cb, cmd, "source and destination texel blocks differ "
		         "in size");
		return;
	}
	/* The extent is in source texels; both sides move the same number
	 * of blocks. */
	cols = div_up(r->extent.width, sp->block_w);
	rows = div_up(r->extent.height, sp->block_h);
	slices = src->type == VK_IMAGE_TYPE_3D ? r->extent.depth :
	         layer_count(src, r->srcSubresource.baseArrayLayer,
	                     r->srcSubresource.layerCount) * src->samples;
	if (src->samples != dst->samples) {
		cmd_fail(cb, cmd, "source and destination sample counts "
		         "differ");
		return;
	}
	s = image_pitched(src, sp, r->srcSubresource.mipLevel,
	                  r->srcSubresource.baseArrayLayer, r->srcOffset);
	d = image_pitched(dst, dp, r->dstSubresource.mipLevel,
	                  r->dstSubresource.baseArrayLayer, r->dstOffset);
	emit_copy_pitched(cb, &d, &s, (uint64_t)cols * sp->block_size, rows,
	                  slices, cmd);
}

static void
copy_image(struct icd_cmd_buffer *cb, struct icd_image *src,
           struct icd_image *dst, const VkImageCopy2 *r)
{
	VkImageAspectFlags sa = r->srcSubresource.aspectMask;
	VkImageAspectFlags da = r->dstSubresource.aspectMask;

	/* Colour to colour, or the same depth/stencil aspects on both
	 * sides (one plane copy each). */
	if (sa == da) {
		while (sa) {
			VkImageAspectFlags bit = sa & -sa;

			copy_image_aspect(cb, src, dst, r, bit, bit);
			sa &= ~bit;
		}
		return;
	}
	if (__builtin_popcount(sa) == 1 && __builtin_popcount(da) == 1) {
		copy_image_aspect(cb, src, dst, r, sa, da);
		return;
	}
	cmd_fail(cb, "vkCmdCopyImage", "source and destination aspects do "
	         "not match");
}

void
icd_CmdCopyImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                 VkImageLayout srcImageLayout, VkImage dstImage,
                 VkImageLayout dstImageLayout, uint32_t regionCount,
                 const VkImageCopy *pRegions)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < regionCount; i++) {
		const VkImageCopy *c = &pRegions[i];
		VkImageCopy2 r = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_COPY_2,
			.srcSubresource = c->srcSubresource,
			.srcOffset = c->srcOffset,
			.dstSubresource = c->dstSubresource,
			.dstOffset = c->dstOffset,
			.extent = c->extent,
		};

		copy_image(cb, icd_image_from_handle(srcImage),
		           icd_image_from_handle(dstImage), &r);
	}
}

void
icd_CmdCopyImage2(VkCommandBuffer commandBuffer,
                  const VkCopyImageInfo2 *pInfo)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < pInfo->regionCount; i++)
		copy_image(cb, icd_image_from_handle(pInfo->srcImage),
		           icd_image_from_handle(pInfo->dstImage),
		           &pInfo->pRegions[i]);
}

/* ---- blit ------------------------------------------------------------ */

/* Subresource (mip, layer) of a plane as a blit surface. */
static struct swgpu_blit_surface
blit_surface(const struct icd_image *img, const struct icd_image_plane *pl,
             uint32_t mip, uint32_t layer)
{
	const struct icd_subresource_layout *l = &pl->mips[mip];

	return (struct swgpu_blit_surface){
		.va = img->va + icd_image_subresource_offset(pl, mip, layer),
		.row_pitch = l->row_pitch,
		.slice_pitch = l->depth_pitch,
		.format = pl->swgpu_format,
		.width = icd_image_mip_extent(img->extent.width, mip),
		.height = icd_image_mip_extent(img->extent.height, mip),
		.depth = icd_image_mip_extent(img->extent.depth, mip),
	};
}

static void
blit_image(struct icd_cmd_buffer *cb, struct icd_image *src,
           struct icd_image *dst, const VkImageBlit2 *r, VkFilter filter)
{
	static const char cmd[] = "vkCmdBlitImage";
	const VkImageSubresourceLayers *ss = &r->srcSubresource;
	const VkImageSubresourceLayers *ds = &r->dstSubresource;
	VkImageAspectFlags aspects = ss->aspectMask;
	uint32_t layers = layer_count(src, ss->baseArrayLayer, ss->layerCount);
	int32_t sbox[6], dbox[6];

	if (filter != VK_FILTER_NEAREST && filter != VK_FILTER_LINEAR) {
		cmd_fail(cb, cmd, "only NEAREST and LINEAR filters exist");
		return;
	}
	if (src->samples > 1 || dst->samples > 1) {
		cmd_fail(cb, cmd, "multisampled image (resolve it instead)");
		return;
	}
	for (int i = 0; i < 3; i++) {
		sbox[i] = (&r->srcOffsets[0].x)[i];
		sbox[3 + i] = (&r->srcOffsets[1].x)[i];
		dbox[i] = (&r->dstOffsets[0].x)[i];
		dbox[3 + i] = (&r->dstOffsets[1].x)[i];
	}
	while (aspects) {
		VkImageAspectFlags bit = aspects & -aspects;
		const struct icd_image_plane *sp = cmd_plane(cb, cmd, src, bit);
		const struct icd_image_plane *dp = cmd_plane(cb, cmd, dst, bit);

		aspects &= ~bit;
		if (!sp || !dp)
			return;
		if (!swgpu_format_blit_source(sp->swgpu_format) ||
		    !swgpu_format_blittable(dp->swgpu_format)) {
			cmd_fail(cb, cmd, "format is not blittable");
			return;
		}
		/* Invalid usage the engine would fault the whole context
		 * for: refuse it here, with the reason. */
		if (swgpu_format_blit_class(sp->swgpu_format) !=
		    swgpu_format_blit_class(dp->swgpu_format) ||
		    (bit != VK_IMAGE_ASPECT_COLOR_BIT &&
		     sp->swgpu_format != dp->swgpu_format)) {
			cmd_fail(cb, cmd, "blit between integer and "
			         "non-integer (or different depth/stencil) "
			         "formats");
			return;
		}
		if (filter == VK_FILTER_LINEAR &&
		    swgpu_format_blit_class(sp->swgpu_format) !=
		    SWGPU_BLIT_CLASS_FLOAT) {
			cmd_fail(cb, cmd, "LINEAR blit of an integer or "
			         "depth/stencil format");
			return;
		}
		/* 2D arrays: one blit per layer pair; 3D images have one
		 * layer and blit through their depth (z corners). */
		for (uint32_t a = 0; a < layers; a++) {
			struct swgpu_blit_surface s = blit_surface(
				src, sp, ss->mipLevel, ss->baseArrayLayer + a);
			struct swgpu_blit_surface d = blit_surface(
				dst, dp, ds->mipLevel, ds->baseArrayLayer + a);
			uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_BLIT);

			if (!p)
				return;
			swgpu_emit_blit(p, &s, &d, sbox, dbox,
			                filter == VK_FILTER_LINEAR ?
			                SWGPU_BLIT_LINEAR : 0);
		}
	}
}

void
icd_CmdBlitImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                 VkImageLayout srcImageLayout, VkImage dstImage,
                 VkImageLayout dstImageLayout, uint32_t regionCount,
                 const VkImageBlit *pRegions, VkFilter filter)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < regionCount; i++) {
		const VkImageBlit *b = &pRegions[i];
		VkImageBlit2 r = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_BLIT_2,
			.srcSubresource = b->srcSubresource,
			.srcOffsets = { b->srcOffsets[0], b->srcOffsets[1] },
			.dstSubresource = b->dstSubresource,
			.dstOffsets = { b->dstOffsets[0], b->dstOffsets[1] },
		};

		blit_image(cb, icd_image_from_handle(srcImage),
		           icd_image_from_handle(dstImage), &r, filter);
	}
}

void
icd_CmdBlitImage2(VkCommandBuffer commandBuffer,
                  const VkBlitImageInfo2 *pInfo)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < pInfo->regionCount; i++)
		blit_image(cb, icd_image_from_handle(pInfo->srcImage),
		           icd_image_from_handle(pInfo->dstImage),
		           &pInfo->pRegions[i], pInfo->filter);
}

/* ---- clears ---------------------------------------------------------- */

/* Clear every (mip, layer) of a subresource range of one plane: one box
 * per mip level, the layers (or the 3D depth) as its third axis. */
static void
clear_plane(struct icd_cmd_buffer *cb, const struct icd_image *img,
            const struct icd_image_plane *pl,
            const VkImageSubresourceRange *range, const uint32_t value[4],
            const char *cmd)
{
	uint32_t levels = level_count(img, range->baseMipLevel,
	                              range->levelCount);
	uint32_t layers = layer_count(img, range->baseArrayLayer,
	                              range->layerCount);

	if (!swgpu_format_clearable(pl->swgpu_format)) {
		cmd_fail(cb, cmd, "format cannot be cleared");
		return;
	}
	for (uint32_t i = 0; i < levels && layers; i++) {
		uint32_t m = range->baseMipLevel + i;
		const struct icd_subresource_layout *l = &pl->mips[m];
		bool is3d = img->type == VK_IMAGE_TYPE_3D;
		struct swgpu_pitched s = {
			.va = img->va + icd_image_subresource_offset(
				pl, m, range->baseArrayLayer),
			.row_pitch = l->row_pitch,
			.slice_pitch = is3d ? l->depth_pitch : pl->sample_pitch,
		};
		uint32_t w = icd_image_mip_extent(img->extent.width, m);
		uint32_t h = icd_image_mip_extent(img->extent.height, m);
		/* every sample slice of the layers (image.c) */
		uint32_t d = is3d ? icd_image_mip_extent(img->extent.depth, m) :
		                    layers * img->samples;
		uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_CLEAR_BOX);

		if (!p)
			return;
		swgpu_emit_clear_box(p, &s, pl->swgpu_format, w, h, d, value);
	}
}

void
icd_CmdClearColorImage(VkCommandBuffer commandBuffer, VkImage image,
                       VkImageLayout imageLayout,
                       const VkClearColorValue *pColor, uint32_t rangeCount,
                       const VkImageSubresourceRange *pRanges)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_image *img = icd_image_from_handle(image);
	static const char cmd[] = "vkCmdClearColorImage";
	const struct icd_image_plane *pl =
		cmd_plane(cb, cmd, img, VK_IMAGE_ASPECT_COLOR_BIT);
	uint32_t value[4];

	if (!pl)
		return;
	/* float32 for float-like formats, int32/uint32 for integer formats:
	 * the same 16 bytes CLEAR_BOX takes. */
	memcpy(value, pColor, sizeof(value));
	for (uint32_t i = 0; i < rangeCount; i++)
		clear_plane(cb, img, pl, &pRanges[i], value, cmd);
}

void
icd_CmdClearDepthStencilImage(VkCommandBuffer commandBuffer, VkImage image,
                              VkImageLayout imageLayout,
                              const VkClearDepthStencilValue *pDepthStencil,
                              uint32_t rangeCount,
                              const VkImageSubresourceRange *pRanges)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_image *img = icd_image_from_handle(image);
	static const char cmd[] = "vkCmdClearDepthStencilImage";
	uint32_t depth[4] = { 0 }, stencil[4] = { 0 };

	memcpy(&depth[0], &pDepthStencil->depth, sizeof(float));
	stencil[0] = pDepthStencil->stencil;
	for (uint32_t i = 0; i < rangeCount; i++) {
		VkImageAspectFlags aspects = pRanges[i].aspectMask;

		while (aspects) {
			VkImageAspectFlags bit = aspects & -aspects;
			const struct icd_image_plane *pl =
				cmd_plane(cb, cmd, img, bit);

			aspects &= ~bit;
			if (!pl)
				return;
			clear_plane(cb, img, pl, &pRanges[i],
			            bit == VK_IMAGE_ASPECT_STENCIL_BIT ?
			            stencil : depth, cmd);
		}
	}
}
