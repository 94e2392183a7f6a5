/* SPDX-License-Identifier: MIT */
/*
 * buffer.c — VkBuffer: a size and usage until bound, then a GPU VA range
 * (mem->va + offset) that transfer packets address directly.
 */
#include "icd.h"

#define ICD_BUFFER_SPARSE_FLAGS (VK_BUFFER_CREATE_SPARSE_BINDING_BIT |      \
                                 VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |    \
                                 VK_BUFFER_CREATE_SPARSE_ALIASED_BIT)

static VkDeviceSize
icd_align(VkDeviceSize v, VkDeviceSize a)
{
	return (v + a - 1) & ~(a - 1);
}

static VkResult
icd_buffer_check_create_info(const struct icd_device *dev,
                             const VkBufferCreateInfo *ci)
{
	const VkExternalMemoryBufferCreateInfo *ext =
		icd_find_struct(ci->pNext,
			VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);

	if (ci->flags & ICD_BUFFER_SPARSE_FLAGS) {
		icd_log("vkCreateBuffer: sparse buffers are not supported");
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	if (ci->flags & (VK_BUFFER_CREATE_PROTECTED_BIT |
	                 VK_BUFFER_CREATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT)) {
		icd_log("vkCreateBuffer: flags 0x%x are not supported",
		        ci->flags);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	/* Host memory (VK_EXT_external_memory_host) and opaque fds. */
	if (ext && (ext->handleTypes & ~(ICD_HOST_POINTER_HANDLE_TYPES |
	                                 ICD_MEMORY_FD_HANDLE_TYPES))) {
		icd_log("vkCreateBuffer: external memory handle types 0x%x are "
		        "not supported", ext->handleTypes);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	if (ci->size > dev->pdev->properties_1x.v13.maxBufferSize) {
		icd_log("vkCreateBuffer: size %llu exceeds maxBufferSize",
		        (unsigned long long)ci->size);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateBuffer(VkDevice device, const VkBufferCreateInfo *pCreateInfo,
                 const VkAllocationCallbacks *pAllocator, VkBuffer *pBuffer)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_buffer *buf;
	VkResult r;

	r = icd_buffer_check_create_info(dev, pCreateInfo);
	if (r != VK_SUCCESS)
		return r;
	buf = icd_zalloc(pAllocator, &dev->alloc, sizeof(*buf), 8,
	                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!buf)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "buffer");
	icd_object_init(&buf->base, VK_OBJECT_TYPE_BUFFER);
	buf->size = pCreateInfo->size;
	buf->usage = pCreateInfo->usage;
	buf->flags = pCreateInfo->flags;
	*pBuffer = icd_buffer_to_handle(buf);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyBuffer(VkDevice device, VkBuffer buffer,
                  const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);

	if (buffer == VK_NULL_HANDLE)
		return;
	icd_free(pAllocator, &dev->alloc, icd_buffer_from_handle(buffer));
}

/* Any memory type; 64-byte alignment (ICD_RESOURCE_ALIGNMENT) keeps every
 * buffer start aligned for FILL (4) and for the map alignment. */
static void
icd_buffer_requirements(const struct icd_device *dev, VkDeviceSize size,
                        VkMemoryRequirements *req)
{
	req->size = icd_align(size, ICD_RESOURCE_ALIGNMENT);
	req->alignment = ICD_RESOURCE_ALIGNMENT;
	req->memoryTypeBits =
		(1u << dev->pdev->memory.memoryTypeCount) - 1;
}

static void
icd_fill_dedicated_requirements(void *chain)
{
	VkMemoryDedicatedRequirements *d = (void *)icd_find_struct(
		chain, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS);

	/* No tiling or compression: dedicated memory gains nothing. */
	if (d) {
		d->prefersDedicatedAllocation = VK_FALSE;
		d->requiresDedicatedAllocation = VK_FALSE;
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetBufferMemoryRequirements(VkDevice device, VkBuffer buffer,
                                VkMemoryRequirements *pMemoryRequirements)
{
	icd_buffer_requirements(icd_device_from_handle(device),
	                        icd_buffer_from_handle(buffer)->size,
	                        pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetBufferMemoryRequirements2(VkDevice device,
                                 const VkBufferMemoryRequirementsInfo2 *pInfo,
                                 VkMemoryRequirements2 *pMemoryRequirements)
{
	icd_buffer_requirements(icd_device_from_handle(device),
	                        icd_buffer_from_handle(pInfo->buffer)->size,
	                        &pMemoryRequirements->memoryRequirements);
	icd_fill_dedicated_requirements(pMemoryRequirements->pNext);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetDeviceBufferMemoryRequirements(
	VkDevice device, const VkDeviceBufferMemoryRequirements *pInfo,
	VkMemoryRequirements2 *pMemoryRequirements)
{
	icd_buffer_requirements(icd_device_from_handle(device),
	                        pInfo->pCreateInfo->size,
	                        &pMemoryRequirements->memoryRequirements);
	icd_fill_dedicated_requirements(pMemoryRequirements->pNext);
}

static VkResult
icd_buffer_bind(struct icd_buffer *buf, struct icd_device_memory *mem,
                VkDeviceSize offset)
{
	VkResult r = icd_memory_check_bind("vkBindBufferMemory", mem, offset,
	                                   buf->size, ICD_RESOURCE_ALIGNMENT);

	if (r != VK_SUCCESS)
		return r;
	buf->mem = mem;
	buf->mem_offset = offset;
	buf->va = mem->va + offset;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                     VkDeviceSize memoryOffset)
{
	return icd_buffer_bind(icd_buffer_from_handle(buffer),
	                       icd_device_memory_from_handle(memory),
	                       memoryOffset);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_BindBufferMemory2(VkDevice device, uint32_t bindInfoCount,
                      const VkBindBufferMemoryInfo *pBindInfos)
{
	for (uint32_t i = 0; i < bindInfoCount; i++) {
		VkResult r = icd_buffer_bind(
			icd_buffer_from_handle(pBindInfos[i].buffer),
			icd_device_memory_from_handle(pBindInfos[i].memory),
			pBindInfos[i].memoryOffset);

		if (r != VK_SUCCESS)
			return r;
	}
	return VK_SUCCESS;
}

/* The buffer's GPU VA in the device's context: valid while its memory is
 * allocated, unique within the device, never 0. */
VKAPI_ATTR VkDeviceAddress VKAPI_CALL
icd_GetBufferDeviceAddress(VkDevice device,
                           const VkBufferDeviceAddressInfo *pInfo)
{
	const struct icd_buffer *buf = icd_buffer_from_handle(pInfo->buffer);

	if (!buf->mem)
		icd_log("vkGetBufferDeviceAddress: buffer is not bound");
	return buf->va;
}

/* bufferDeviceAddressCaptureReplay is not supported: no opaque capture
 * addresses exist, and 0 is the value the spec gives for "none". */
VKAPI_ATTR uint64_t VKAPI_CALL
icd_GetBufferOpaqueCaptureAddress(VkDevice device,
                                  const VkBufferDeviceAddressInfo *pInfo)
{
	return 0;
}

VKAPI_ATTR uint64_t VKAPI_CALL
icd_GetDeviceMemoryOpaqueCaptureAddress(
	VkDevice device, const VkDeviceMemoryOpaqueCaptureAddressInfo *pInfo)
{
	return 0;
}
