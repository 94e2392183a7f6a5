/* SPDX-License-Identifier: MIT */
/*
 * Samplers: the object and its state, validated and kept.
 *
 * The compute engine does not sample images yet (no SAMPLED_IMAGE format
 * feature, no sampled-image descriptors), so a sampler is never used by a
 * packet today; it still exists as a core object that applications and
 * tools create up front, with the state a future sampling path reads.
 */
#include "icd.h"

struct icd_sampler {
	struct icd_object base;
	VkFilter mag_filter, min_filter;
	VkSamplerMipmapMode mipmap_mode;
	VkSamplerAddressMode address[3];
	float mip_lod_bias, min_lod, max_lod;
	VkBool32 compare_enable;
	VkCompareOp compare_op;
	VkBorderColor border_color;
	VkBool32 unnormalized;
};

ICD_DEFINE_HANDLE_CASTS(icd_sampler, VkSampler, VK_OBJECT_TYPE_SAMPLER)

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateSampler(VkDevice device, const VkSamplerCreateInfo *pCreateInfo,
                  const VkAllocationCallbacks *pAllocator,
                  VkSampler *pSampler)
{
	struct icd_device *dev = icd_device_from_handle(device);
	const VkSamplerCreateInfo *ci = pCreateInfo;

	/* Features this device does not offer (the validation layer
	 * reports these too; an application without it gets a clean
	 * error rather than a sampler that would behave differently). */
	if (ci->anisotropyEnable) {
		icd_log("vkCreateSampler: anisotropic filtering is not "
		        "supported (samplerAnisotropy is VK_FALSE)");
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
		if (s->sType ==
		    VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO) {
			icd_log("vkCreateSampler: Y'CbCr conversion is not "
			        "supported");
			return VK_ERROR_FEATURE_NOT_PRESENT;
		}

	struct icd_sampler *smp =
		icd_zalloc(pAllocator, &dev->alloc, sizeof(*smp), 8,
		           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!smp)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "sampler");
	icd_object_init(&smp->base, VK_OBJECT_TYPE_SAMPLER);
	smp->mag_filter = ci->magFilter;
	smp->min_filter = ci->minFilter;
	smp->mipmap_mode = ci->mipmapMode;
	smp->address[0] = ci->addressModeU;
	smp->address[1] = ci->addressModeV;
	smp->address[2] = ci->addressModeW;
	smp->mip_lod_bias = ci->mipLodBias;
	smp->min_lod = ci->minLod;
	smp->max_lod = ci->maxLod;
	smp->compare_enable = ci->compareEnable;
	smp->compare_op = ci->compareOp;
	smp->border_color = ci->borderColor;
	smp->unnormalized = ci->unnormalizedCoordinates;
	*pSampler = icd_sampler_to_handle(smp);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroySampler(VkDevice device, VkSampler sampler,
                   const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_sampler *smp = icd_sampler_from_handle(sampler);

	if (!smp)
		return;
	icd_free(pAllocator, &dev->alloc, smp);
}
