/* SPDX-License-Identifier: MIT */
/*
 * image.c — VkImage: creation, layout, memory requirements and binding.
 *
 * Layout (the same for OPTIMAL and LINEAR tiling). The engines address
 * texels by pitch: a COPY_PITCHED, CLEAR_BOX or BLIT packet walks rows and
 * slices of a pitched surface, and a linear surface lets one packet cover
 * a whole sub-box of a subresource (rows of a 2D image, slices of a 3D
 * image, or layers of an array, which are evenly spaced). A tiled layout
 * would only add address swizzling work to every packet of a software
 * engine whose caches see rows anyway: bench/image_layout.c measures a
 * 4096x4096 RGBA8 buffer<->image copy at ~9.5 GB/s linear against ~3 GB/s
 * with 4x4 tiles and ~7-8 GB/s with 64 KiB tiles, blits equal.
 *
 * Because OPTIMAL is laid out like LINEAR, there is nothing to convert on
 * a layout transition: every VkImageLayout is the same bytes, so
 * transitions and queue family ownership transfers are pure ordering
 * (cmd_sync.c) and no content is lost across layouts.
 *
 *   - An image is one plane per stored aspect: colour, or depth (plane 0)
 *     and stencil (plane 1) of a depth/stencil format, each plane in the
 *     aspect's buffer packing (format.h). Planes follow each other, each
 *     starting at a multiple of ICD_RESOURCE_ALIGNMENT.
 *   - A plane is array layers, array_pitch apart: the size of one layer's
 *     mip chain rounded up to ICD_RESOURCE_ALIGNMENT.
 *   - A layer is its mip levels from level 0 on, each a multiple of
 *     ICD_IMAGE_ROW_PITCH_ALIGN in size, so every level starts aligned.
 *   - A mip level is depth slices of rows of texel blocks (compressed
 *     formats: rows of 4x4 etc. blocks, partial edge blocks rounded up).
 *     The row pitch is the row's bytes rounded up to
 *     ICD_IMAGE_ROW_PITCH_ALIGN; the depth pitch is row_pitch * block rows.
 *   - Multisampled (S samples, one mip level, 2D): sample s of layer L is
 *     slice L * S + s, each slice laid out like a layer of the
 *     single-sampled image (sample_pitch apart, = that image's
 *     array_pitch), so array_pitch = S * sample_pitch and the image is S
 *     times the single-sampled size. The layers [a, b) of a copy or a
 *     clear are the contiguous slices [a S, b S): one box of (b - a) S
 *     slices at sample_pitch; attachments hand the engine sample_pitch as
 *     their layer pitch (the engine's slices, swgpu_packet.h).
 */
#include "format.h"
#include "image.h"
#include "wsi.h"

static VkDeviceSize
icd_align(VkDeviceSize v, VkDeviceSize a)
{
	return (v + a - 1) & ~(a - 1);
}

uint32_t
icd_image_mip_extent(uint32_t v, uint32_t level)
{
	v >>= level;
	return v ? v : 1;
}

static void
icd_plane_layout(struct icd_image *img, struct icd_image_plane *pl,
                 const struct icd_plane_format *pf, VkDeviceSize *offset)
{
	VkDeviceSize layer = 0;

	pl->aspect = pf->aspect;
	pl->block_size = pf->block_size;
	pl->block_w = pf->block_w;
	pl->block_h = pf->block_h;
	pl->swgpu_format = pf->swgpu_format;
	pl->offset = icd_align(*offset, ICD_RESOURCE_ALIGNMENT);
	for (uint32_t m = 0; m < img->mip_levels; m++) {
		struct icd_subresource_layout *l = &pl->mips[m];
		uint32_t w = icd_image_mip_extent(img->extent.width, m);
		uint32_t h = icd_image_mip_extent(img->extent.height, m);
		uint32_t d = icd_image_mip_extent(img->extent.depth, m);
		VkDeviceSize bw = (w + pf->block_w - 1) / pf->block_w;
		VkDeviceSize bh = (h + pf->block_h - 1) / pf->block_h;

		l->offset = layer;
		l->row_pitch = icd_align(bw * pf->block_size,
		                         ICD_IMAGE_ROW_PITCH_ALIGN);
		l->depth_pitch = l->row_pitch * bh;
		l->size = l->depth_pitch * d;
		layer += l->size;
	}
	pl->sample_pitch = icd_align(layer, ICD_RESOURCE_ALIGNMENT);
	pl->array_pitch = pl->sample_pitch * img->samples;
	*offset = pl->offset + pl->array_pitch * img->array_layers;
}

/* Validate a create info against what the device supports and compute the
 * image's layout into *img. */
static VkResult
icd_image_init(struct icd_physical_device *pdev, struct icd_image *img,
               const VkImageCreateInfo *ci)
{
	const VkExternalMemoryImageCreateInfo *ext = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO);
	const VkImageStencilUsageCreateInfo *su = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO);
	VkImageFormatProperties fp;
	struct icd_format f;
	VkDeviceSize offset = 0;
	VkResult r;

	r = icd_image_format_properties(pdev, ci->format, ci->imageType,
	                                ci->tiling, ci->usage, ci->flags, &fp);
	/* A separate stencil usage must be supported as well. */
	if (r == VK_SUCCESS && su && icd_format_get(ci->format, &f) &&
	    (f.aspects & VK_IMAGE_ASPECT_STENCIL_BIT)) {
		VkImageFormatProperties sfp;

		r = icd_image_format_properties(pdev, ci->format,
		                                ci->imageType, ci->tiling,
		                                su->stencilUsage, ci->flags,
		                                &sfp);
	}
	if (r != VK_SUCCESS || !icd_format_get(ci->format, &f)) {
		icd_log("vkCreateImage: format %d, type %d, tiling %d, usage "
		        "0x%x, flags 0x%x is not supported (images support "
		        "TRANSFER_SRC/DST usage, STORAGE for storage formats; "
		        "see vkGetPhysicalDeviceImageFormatProperties)",
		        ci->format, ci->imageType, ci->tiling, ci->usage,
		        ci->flags);
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (ci->extent.width == 0 || ci->extent.height == 0 ||
	    ci->extent.depth == 0 ||
	    ci->extent.width > fp.maxExtent.width ||
	    ci->extent.height > fp.maxExtent.height ||
	    ci->extent.depth > fp.maxExtent.depth ||
	    ci->mipLevels == 0 || ci->mipLevels > fp.maxMipLevels ||
	    ci->mipLevels > ICD_MAX_MIP_LEVELS ||
	    ci->arrayLayers == 0 || ci->arrayLayers > fp.maxArrayLayers ||
	    !(ci->samples & fp.sampleCounts)) {
		icd_log("vkCreateImage: %ux%ux%u, %u mips, %u layers, %u "
		        "samples exceeds the image limits",
		        ci->extent.width, ci->extent.height, ci->extent.depth,
		        ci->mipLevels, ci->arrayLayers, ci->samples);
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (ext && (ext->handleTypes & ~ICD_MEMORY_FD_HANDLE_TYPES)) {
		icd_log("vkCreateImage: external memory handle types 0x%x "
		        "(images take OPAQUE_FD only)", ext->handleTypes);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}

	img->type = ci->imageType;
	img->format = ci->format;
	img->extent = ci->extent;
	img->mip_levels = ci->mipLevels;
	img->array_layers = ci->arrayLayers;
	img->samples = ci->samples;   /* before icd_plane_layout */
	img->tiling = ci->tiling;
	img->usage = ci->usage;
	img->stencil_usage = su && (f.aspects & VK_IMAGE_ASPECT_STENCIL_BIT) ?
	                     su->stencilUsage : ci->usage;
	img->flags = ci->flags;
	img->plane_count = f.plane_count;
	for (uint32_t p = 0; p < f.plane_count; p++)
		icd_plane_layout(img, &img->planes[p], &f.planes[p], &offset);
	img->size = icd_align(offset, ICD_RESOURCE_ALIGNMENT);
	img->alignment = ICD_RESOURCE_ALIGNMENT;
	if (img->size > fp.maxResourceSize) {
		icd_log("vkCreateImage: %llu bytes exceed maxResourceSize",
		        (unsigned long long)img->size);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	return VK_SUCCESS;
}

const struct icd_image_plane *
icd_image_plane(const struct icd_image *img, VkImageAspectFlags aspect)
{
	for (uint32_t p = 0; p < img->plane_count; p++)
		if (img->planes[p].aspect == aspect)
			return &img->planes[p];
	return NULL;
}

VkDeviceSize
icd_image_subresource_offset(const struct icd_image_plane *pl, uint32_t mip,
                             uint32_t layer)
{
	return pl->offset + layer * pl->array_pitch + pl->mips[mip].offset;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateImage(VkDevice device, const VkImageCreateInfo *pCreateInfo,
                const VkAllocationCallbacks *pAllocator, VkImage *pImage)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_image tmp, *img;
	VkResult r;

	memset(&tmp, 0, sizeof(tmp));
	r = icd_image_init(dev->pdev, &tmp, pCreateInfo);
	if (r != VK_SUCCESS)
		return r;
	img = icd_alloc(pAllocator, &dev->alloc, sizeof(*img), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!img)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "image");
	*img = tmp;
	icd_object_init(&img->base, VK_OBJECT_TYPE_IMAGE);
	*pImage = icd_image_to_handle(img);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyImage(VkDevice device, VkImage image,
                 const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);

	if (image == VK_NULL_HANDLE)
		return;
	icd_free(pAllocator, &dev->alloc, icd_image_from_handle(image));
}

static void
icd_image_requirements(const struct icd_device *dev,
                       const struct icd_image *img, VkMemoryRequirements *req)
{
	req->size = icd_align(img->size, ICD_RESOURCE_ALIGNMENT);
	req->alignment = img->alignment;
	req->memoryTypeBits = (1u << dev->pdev->memory.memoryTypeCount) - 1;
}

static void
icd_image_dedicated_requirements(void *chain)
{
	VkMemoryDedicatedRequirements *d = (void *)icd_find_struct(
		chain, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS);

	if (d) {
		d->prefersDedicatedAllocation = VK_FALSE;
		d->requiresDedicatedAllocation = VK_FALSE;
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetImageMemoryRequirements(VkDevice device, VkImage image,
                               VkMemoryRequirements *pMemoryRequirements)
{
	icd_image_requirements(icd_device_from_handle(device),
	                       icd_image_from_handle(image),
	                       pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetImageMemoryRequirements2(VkDevice device,
                                const VkImageMemoryRequirementsInfo2 *pInfo,
                                VkMemoryRequirements2 *pMemoryRequirements)
{
	icd_image_requirements(icd_device_from_handle(device),
	                       icd_image_from_handle(pInfo->image),
	                       &pMemoryRequirements->memoryRequirements);
	icd_image_dedicated_requirements(pMemoryRequirements->pNext);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetDeviceImageMemoryRequirements(
	VkDevice device, const VkDeviceImageMemoryRequirements *pInfo,
	VkMemoryRequirements2 *pMemoryRequirements)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_image tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (icd_image_init(dev->pdev, &tmp, pInfo->pCreateInfo) !=
	    VK_SUCCESS) {
		/* The create info is not one vkCreateImage would accept. */
		memset(&pMemoryRequirements->memoryRequirements, 0,
		       sizeof(pMemoryRequirements->memoryRequirements));
		return;
	}
	icd_image_requirements(dev, &tmp,
	                       &pMemoryRequirements->memoryRequirements);
	icd_image_dedicated_requirements(pMemoryRequirements->pNext);
}

/* No sparse images. */
VKAPI_ATTR void VKAPI_CALL
icd_GetImageSparseMemoryRequirements(
	VkDevice device, VkImage image, uint32_t *pCount,
	VkSparseImageMemoryRequirements *pReqs)
{
	*pCount = 0;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetImageSparseMemoryRequirements2(
	VkDevice device, const VkImageSparseMemoryRequirementsInfo2 *pInfo,
	uint32_t *pCount, VkSparseImageMemoryRequirements2 *pReqs)
{
	*pCount = 0;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetDeviceImageSparseMemoryRequirements(
	VkDevice device, const VkDeviceImageMemoryRequirements *pInfo,
	uint32_t *pCount, VkSparseImageMemoryRequirements2 *pReqs)
{
	*pCount = 0;
}

static VkResult
icd_image_bind(struct icd_image *img, struct icd_device_memory *mem,
               VkDeviceSize offset)
{
	VkResult r = icd_memory_check_bind("vkBindImageMemory", mem, offset,
	                                   img->size, img->alignment);

	if (r != VK_SUCCESS)
		return r;
	img->mem = mem;
	img->mem_offset = offset;
	img->va = mem->va + offset;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                    VkDeviceSize memoryOffset)
{
	return icd_image_bind(icd_image_from_handle(image),
	                      icd_device_memory_from_handle(memory),
	                      memoryOffset);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_BindImageMemory2(VkDevice device, uint32_t bindInfoCount,
                     const VkBindImageMemoryInfo *pBindInfos)
{
	for (uint32_t i = 0; i < bindInfoCount; i++) {
		const VkBindImageMemorySwapchainInfoKHR *swi = icd_find_struct(
			pBindInfos[i].pNext,
			VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_SWAPCHAIN_INFO_KHR);
		/* An image aliasing a swapchain image (VK_KHR_swapchain with
		 * 1.1): the swapchain image's memory, wsi_swapchain.c. */
		VkResult r = swi ? wsi_bind_swapchain_image(
			icd_image_from_handle(pBindInfos[i].image),
			swi->swapchain, swi->imageIndex)
		                 : icd_image_bind(
			icd_image_from_handle(pBindInfos[i].image),
			icd_device_memory_from_handle(pBindInfos[i].memory),
			pBindInfos[i].memoryOffset);

		if (r != VK_SUCCESS)
			return r;
	}
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetImageSubresourceLayout(VkDevice device, VkImage image,
                              const VkImageSubresource *pSubresource,
                              VkSubresourceLayout *pLayout)
{
	const struct icd_image *img = icd_image_from_handle(image);
	uint32_t m = pSubresource->mipLevel, a = pSubresource->arrayLayer;
	const struct icd_image_plane *pl =
		icd_image_plane(img, pSubresource->aspectMask);

	/* Per aspect: the depth and the stencil of a depth/stencil image are
	 * separate planes, each with its own offset and pitches. */
	memset(pLayout, 0, sizeof(*pLayout));
	if (!pl || m >= img->mip_levels || a >= img->array_layers) {
		icd_log("vkGetImageSubresourceLayout: no subresource aspect "
		        "0x%x mip %u layer %u", pSubresource->aspectMask, m, a);
		return;
	}
	pLayout->offset = icd_image_subresource_offset(pl, m, a);
	pLayout->size = pl->mips[m].size;
	pLayout->rowPitch = pl->mips[m].row_pitch;
	pLayout->depthPitch = pl->mips[m].depth_pitch;
	pLayout->arrayPitch = pl->array_pitch;
}
