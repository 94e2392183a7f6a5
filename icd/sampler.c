/* SPDX-License-Identifier: MIT */
/*
 * Samplers: the object and its state, validated and kept.
 *
 * The state goes to the engine packed as struct swgpu_sampler_state
 * (swgpu_packet.h): in SAMPLER descriptors and in the sampler words of
 * COMBINED_IMAGE_SAMPLER ones (descriptor_update.c), and for immutable
 * samplers when a set is allocated (descriptor.c). The engine filters
 * with it (swgpu/src/hw/shader/interp_sample.c).
 */
#include "icd.h"

#include <swgpu/swgpu_packet.h>

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
	struct swgpu_sampler_state state;
};

ICD_DEFINE_HANDLE_CASTS(icd_sampler, VkSampler, VK_OBJECT_TYPE_SAMPLER)

/* v in 8.8 fixed point, clamped to [lo, hi]. */
static int32_t
fixed88(float v, float lo, float hi)
{
	if (!(v >= lo))
		v = lo;
	if (v > hi)
		v = hi;
	return (int32_t)(v * 256.0f);
}

static struct swgpu_sampler_state
pack_state(const VkSamplerCreateInfo *ci, float max_bias)
{
	struct swgpu_sampler_state st;
	int32_t bias = fixed88(ci->mipLodBias, -max_bias, max_bias);

	st.filter = (ci->magFilter == VK_FILTER_LINEAR ?
	             SWGPU_SAMPLER_MAG_LINEAR : 0) |
	            (ci->minFilter == VK_FILTER_LINEAR ?
	             SWGPU_SAMPLER_MIN_LINEAR : 0) |
	            (ci->mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR ?
	             SWGPU_SAMPLER_MIP_LINEAR : 0) |
	            (ci->unnormalizedCoordinates ?
	             SWGPU_SAMPLER_UNNORMALIZED : 0) |
	            /* Depth comparison (Dref sampling, gathers). */
	            (ci->compareEnable ?
	             SWGPU_SAMPLER_COMPARE_OP(ci->compareOp) : 0) |
	            (uint32_t)(uint16_t)(int16_t)bias << 16;
	st.address = (uint32_t)ci->addressModeU |
	             (uint32_t)ci->addressModeV << 8 |
	             (uint32_t)ci->addressModeW << 16 |
	             (uint32_t)ci->borderColor << 24;
	/* maxLod may be VK_LOD_CLAMP_NONE: any LOD a view has (< 17). */
	st.lod = (uint32_t)fixed88(ci->minLod, 0.0f, 255.0f) |
	         (uint32_t)fixed88(ci->maxLod, 0.0f, 255.0f) << 16;
	return st;
}

bool
icd_sampler_state(VkSampler sampler, struct swgpu_sampler_state *out)
{
	const struct icd_sampler *smp = icd_sampler_from_handle(sampler);

	if (!smp)
		return false;
	*out = smp->state;
	return true;
}

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
	if (ci->addressModeU > VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE ||
	    ci->addressModeV > VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE ||
	    ci->addressModeW > VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE ||
	    ci->borderColor > VK_BORDER_COLOR_INT_OPAQUE_WHITE) {
		icd_log("vkCreateSampler: address mode or border colour of an "
		        "extension this device does not offer");
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
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
	smp->state = pack_state(ci, dev->pdev->properties.limits.maxSamplerLodBias);
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
