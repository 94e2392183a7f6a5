/* SPDX-License-Identifier: MIT */
/*
 * format.c — supported image formats, format features and image format
 * properties (see format.h for what is offered and why).
 */
#include "format.h"

uint32_t
icd_format_block_size(VkFormat format)
{
	/* The table is generated from vk.xml's <formats> (icd_structs.c). */
	return icd_format_color_block_size(format);
}

VkFormatFeatureFlags
icd_format_features(VkFormat format, VkImageTiling tiling)
{
	if (!icd_format_block_size(format))
		return 0;
	if (tiling != VK_IMAGE_TILING_LINEAR &&
	    tiling != VK_IMAGE_TILING_OPTIMAL)
		return 0;
	return VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
	       VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
}

static uint32_t
icd_log2_floor(uint32_t v)
{
	uint32_t r = 0;

	while (v >>= 1)
		r++;
	return r;
}

VkResult
icd_image_format_properties(struct icd_physical_device *pdev,
                            VkFormat format, VkImageType type,
                            VkImageTiling tiling, VkImageUsageFlags usage,
                            VkImageCreateFlags flags,
                            VkImageFormatProperties *props)
{
	const VkPhysicalDeviceLimits *l = &pdev->properties.limits;
	VkExtent3D max;
	uint32_t layers;

	memset(props, 0, sizeof(*props));
	if (!icd_format_features(format, tiling))
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if (usage & ~ICD_IMAGE_USAGE_SUPPORTED)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	/* No views, sparse, aliasing or protected images yet. */
	if (flags)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;

	switch (type) {
	case VK_IMAGE_TYPE_1D:
		max = (VkExtent3D){ l->maxImageDimension1D, 1, 1 };
		layers = l->maxImageArrayLayers;
		break;
	case VK_IMAGE_TYPE_2D:
		max = (VkExtent3D){ l->maxImageDimension2D,
		                    l->maxImageDimension2D, 1 };
		layers = l->maxImageArrayLayers;
		break;
	case VK_IMAGE_TYPE_3D:
		max = (VkExtent3D){ l->maxImageDimension3D,
		                    l->maxImageDimension3D,
		                    l->maxImageDimension3D };
		layers = 1;
		break;
	default:
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	if (tiling == VK_IMAGE_TILING_LINEAR) {
		/* The spec's minimum for linear images, and all that the
		 * layout code promises a host-visible pitch for. */
		if (type != VK_IMAGE_TYPE_2D)
			return VK_ERROR_FORMAT_NOT_SUPPORTED;
		props->maxExtent = max;
		props->maxMipLevels = 1;
		props->maxArrayLayers = 1;
	} else {
		uint32_t m = max.width > max.height ? max.width : max.height;

		m = m > max.depth ? m : max.depth;
		props->maxExtent = max;
		props->maxMipLevels = icd_log2_floor(m) + 1;
		props->maxArrayLayers = layers;
	}
	props->sampleCounts = VK_SAMPLE_COUNT_1_BIT;
	/* 2 GiB: the spec's minimum, and below every heap. */
	props->maxResourceSize = UINT64_C(1) << 31;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFormatProperties(VkPhysicalDevice physicalDevice,
                                      VkFormat format,
                                      VkFormatProperties *pFormatProperties)
{
	pFormatProperties->linearTilingFeatures =
		icd_format_features(format, VK_IMAGE_TILING_LINEAR);
	pFormatProperties->optimalTilingFeatures =
		icd_format_features(format, VK_IMAGE_TILING_OPTIMAL);
	pFormatProperties->bufferFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice,
                                       VkFormat format,
                                       VkFormatProperties2 *pFormatProperties)
{
	VkFormatProperties *p = &pFormatProperties->formatProperties;

	icd_GetPhysicalDeviceFormatProperties(physicalDevice, format, p);
	for (VkBaseOutStructure *s = pFormatProperties->pNext; s;
	     s = s->pNext) {
		if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
			/* Core 1.3: the same bits in 64-bit flags. */
			VkFormatProperties3 *p3 = (void *)s;

			p3->linearTilingFeatures = p->linearTilingFeatures;
			p3->optimalTilingFeatures = p->optimalTilingFeatures;
			p3->bufferFeatures = p->bufferFeatures;
		}
	}
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceImageFormatProperties(
	VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
	VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
	VkImageFormatProperties *pImageFormatProperties)
{
	return icd_image_format_properties(
		icd_physical_device_from_handle(physicalDevice), format, type,
		tiling, usage, flags, pImageFormatProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceImageFormatProperties2(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceImageFormatInfo2 *pInfo,
	VkImageFormatProperties2 *pProps)
{
	const VkPhysicalDeviceExternalImageFormatInfo *ext =
		icd_find_struct(pInfo->pNext,
			VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO);
	VkResult r;

	r = icd_image_format_properties(
		icd_physical_device_from_handle(physicalDevice),
		pInfo->format, pInfo->type, pInfo->tiling, pInfo->usage,
		pInfo->flags, &pProps->imageFormatProperties);
	/* No external memory handle types are supported. */
	if (r == VK_SUCCESS && ext && ext->handleType)
		r = VK_ERROR_FORMAT_NOT_SUPPORTED;
	for (VkBaseOutStructure *s = pProps->pNext; s; s = s->pNext) {
		if (s->sType == VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES) {
			VkExternalImageFormatProperties *e = (void *)s;

			memset(&e->externalMemoryProperties, 0,
			       sizeof(e->externalMemoryProperties));
		}
	}
	if (r != VK_SUCCESS)
		memset(&pProps->imageFormatProperties, 0,
		       sizeof(pProps->imageFormatProperties));
	return r;
}
