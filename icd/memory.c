/* SPDX-License-Identifier: MIT */
/*
 * memory.c — VkDeviceMemory = one swgpu BO, mapped READ|WRITE into the
 * device's GPU address space for its whole life, so every buffer or image
 * bound to it has a GPU VA (mem->va + offset) that packets can use.
 *
 * Device-local memory is pageable (VK_EXT_pageable_device_local_memory):
 * past the VRAM budget swgpu evicts idle allocations to system memory and
 * brings them back when a job needs them. VK_EXT_memory_priority's 0..1
 * becomes the BO's swgpu priority, lowest evicted first.
 */
#include "icd.h"

#include <unistd.h>

/* VkMemoryPriorityAllocateInfoEXT / vkSetDeviceMemoryPriorityEXT value
 * (0.0..1.0, 0.5 when not given) as an swgpu BO priority. */
static uint32_t
icd_memory_priority(float priority)
{
	if (!(priority > 0.0f))
		return 0;
	if (priority >= 1.0f)
		return SWGPU_BO_PRIORITY_MAX;
	return (uint32_t)(priority * (float)SWGPU_BO_PRIORITY_MAX + 0.5f);
}

static bool
icd_memory_host_visible(const struct icd_device *dev, uint32_t type)
{
	return dev->pdev->memory.memoryTypes[type].propertyFlags &
	       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
}

static VkResult
icd_memory_check_pnext(const struct icd_device *dev,
                       const VkMemoryAllocateInfo *ai)
{
	for (const VkBaseInStructure *s = ai->pNext; s; s = s->pNext) {
		switch (s->sType) {
		case VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO:
			/* Accepted: every allocation is its own BO anyway. */
			break;
		case VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT:
			/* Applied once the BO exists (icd_AllocateMemory). */
			break;
		case VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO: {
			const VkMemoryAllocateFlagsInfo *f = (const void *)s;
			VkMemoryAllocateFlags ok = VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;

			/* Every allocation has a GPU VA, so any of it can
			 * be addressed once the feature is on. */
			if (dev->buffer_device_address)
				ok |= VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
			if (f->flags & ~ok) {
				icd_log("vkAllocateMemory: memory allocate "
				        "flags 0x%x are not supported",
				        f->flags & ~ok);
				return VK_ERROR_FEATURE_NOT_PRESENT;
			}
			/* One physical device per group: mask must be 1. */
			if ((f->flags & VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT) &&
			    f->deviceMask != 1) {
				icd_log("vkAllocateMemory: device mask 0x%x",
				        f->deviceMask);
				return VK_ERROR_OUT_OF_DEVICE_MEMORY;
			}
			break;
		}
		case VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO: {
			const VkExportMemoryAllocateInfo *e = (const void *)s;

			if (e->handleTypes & ~ICD_MEMORY_FD_HANDLE_TYPES) {
				icd_log("vkAllocateMemory: export handle types "
				        "0x%x (only OPAQUE_FD can be exported)",
				        e->handleTypes);
				return VK_ERROR_INVALID_EXTERNAL_HANDLE;
			}
			break;
		}
		case VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR: {
			const VkImportMemoryFdInfoKHR *i = (const void *)s;

			if (i->handleType &&
			    i->handleType != ICD_MEMORY_FD_HANDLE_TYPES) {
				icd_log("vkAllocateMemory: import of handle "
				        "type 0x%x (only OPAQUE_FD)",
				        i->handleType);
				return VK_ERROR_INVALID_EXTERNAL_HANDLE;
			}
			break;
		}
		case VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT: {
			const VkImportMemoryHostPointerInfoEXT *h =
				(const void *)s;
			uint32_t type = ai->memoryTypeIndex;

			if (!(h->handleType & ICD_HOST_POINTER_HANDLE_TYPES) ||
			    (h->handleType & (h->handleType - 1)) ||
			    ((uintptr_t)h->pHostPointer |
			     ai->allocationSize) &
			    (ICD_HOST_POINTER_ALIGNMENT - 1) ||
			    !(icd_memory_host_pointer_types(dev->pdev) &
			      (1u << type))) {
				icd_log("vkAllocateMemory: host pointer %p, "
				        "%llu bytes, handle type 0x%x, memory "
				        "type %u cannot be imported (aligned to "
				        "%u, host-visible SYSTEM types)",
				        h->pHostPointer,
				        (unsigned long long)ai->allocationSize,
				        h->handleType, type,
				        ICD_HOST_POINTER_ALIGNMENT);
				return VK_ERROR_INVALID_EXTERNAL_HANDLE;
			}
			break;
		}
		case VK_STRUCTURE_TYPE_MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO: {
			const VkMemoryOpaqueCaptureAddressAllocateInfo *o =
				(const void *)s;

			if (o->opaqueCaptureAddress) {
				icd_log("vkAllocateMemory: capture/replay "
				        "addresses are not supported");
				return VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS;
			}
			break;
		}
		default:
			break;
		}
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *pAllocateInfo,
                   const VkAllocationCallbacks *pAllocator,
                   VkDeviceMemory *pMemory)
{
	struct icd_device *dev = icd_device_from_handle(device);
	const struct icd_physical_device *pdev = dev->pdev;
	uint32_t type = pAllocateInfo->memoryTypeIndex;
	VkDeviceSize size = pAllocateInfo->allocationSize;
	struct icd_device_memory *mem;
	swgpu_result sr;
	VkResult r;

	if (type >= pdev->memory.memoryTypeCount) {
		icd_log("vkAllocateMemory: memory type %u does not exist", type);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	if (size == 0 || size > pdev->memory.memoryHeaps[
	                pdev->memory.memoryTypes[type].heapIndex].size) {
		icd_log("vkAllocateMemory: allocationSize %llu does not fit "
		        "heap %u", (unsigned long long)size,
		        pdev->memory.memoryTypes[type].heapIndex);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	r = icd_memory_check_pnext(dev, pAllocateInfo);
	if (r != VK_SUCCESS)
		return r;

	mem = icd_zalloc(pAllocator, &dev->alloc, sizeof(*mem), 8,
	                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!mem)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "memory");
	icd_object_init(&mem->base, VK_OBJECT_TYPE_DEVICE_MEMORY);
	mem->device = dev;
	mem->size = size;
	mem->type_index = type;

	const VkImportMemoryHostPointerInfoEXT *host = icd_find_struct(
		pAllocateInfo->pNext,
		VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
	const VkImportMemoryFdInfoKHR *fd_import = icd_find_struct(
		pAllocateInfo->pNext,
		VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
	const VkExportMemoryAllocateInfo *export = icd_find_struct(
		pAllocateInfo->pNext,
		VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
	uint32_t bo_flags = pdev->type_bo_flags[type];
	const char *how = "create";

	if (fd_import && !fd_import->handleType)
		fd_import = NULL;
	/* VK_KHR_external_memory_fd: exportable memory is a memfd
	 * (SWGPU_BO_SHAREABLE), an import maps the fd (memory_fd.c). */
	if (export && export->handleTypes)
		bo_flags |= SWGPU_BO_SHAREABLE;
	/* VK_EXT_external_memory_host: the application's pages are the
	 * memory (swgpu_bo_import_host), kept alive by it. */
	if (host) {
		how = "import_host";
		sr = swgpu_bo_import_host(pdev->swdev, host->pHostPointer,
		                          size, bo_flags, &mem->bo);
	} else if (fd_import) {
		how = "import_fd";
		sr = swgpu_bo_import_fd(pdev->swdev, fd_import->fd, size,
		                        pdev->type_heap[type], bo_flags,
		                        &mem->bo);
	} else {
		sr = swgpu_bo_create(pdev->swdev, size, pdev->type_heap[type],
		                     bo_flags, &mem->bo);
	}
	if (sr != SWGPU_OK && fd_import) {
		/* Bad input from the application: always say so. */
		icd_log("vkAllocateMemory: fd %d cannot be imported as %llu "
		        "bytes of memory type %u: %s (SWGPU_DEBUG=1 tells why)",
		        fd_import->fd, (unsigned long long)size, type,
		        swgpu_result_str(sr));
	}
	if (sr != SWGPU_OK) {
		r = icd_error((host || fd_import) &&
		              sr == SWGPU_ERR_INVALID_ARG ?
		              VK_ERROR_INVALID_EXTERNAL_HANDLE :
		              icd_result_from_swgpu(sr), "swgpu_bo_%s: %s",
		              how, swgpu_result_str(sr));
		goto fail;
	}
	for (const VkBaseInStructure *s = pAllocateInfo->pNext; s;
	     s = s->pNext)
		if (s->sType ==
		    VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT)
			swgpu_bo_set_priority(mem->bo, icd_memory_priority(
				((const VkMemoryPriorityAllocateInfoEXT *)s)
					->priority));
	sr = swgpu_va_map(dev->ctx, mem->bo, 0, swgpu_bo_size(mem->bo),
	                  SWGPU_VA_READ | SWGPU_VA_WRITE, &mem->va);
	if (sr != SWGPU_OK) {
		/* A lost context cannot map: the device is lost. */
		r = icd_error(icd_result_from_swgpu(sr), "swgpu_va_map: %s",
		              swgpu_result_str(sr));
		goto fail;
	}
	/* A successful import owns the application's fd (the BO keeps
	 * its own dup). */
	if (fd_import)
		close(fd_import->fd);
	*pMemory = icd_device_memory_to_handle(mem);
	return VK_SUCCESS;

fail:
	swgpu_bo_destroy(mem->bo);
	icd_free(pAllocator, &dev->alloc, mem);
	return r;
}

VKAPI_ATTR void VKAPI_CALL
icd_FreeMemory(VkDevice device, VkDeviceMemory memory,
               const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_device_memory *mem = icd_device_memory_from_handle(memory);

	if (!mem)
		return;
	/* Freeing mapped memory unmaps it implicitly. */
	if (mem->map)
		swgpu_bo_unmap(mem->bo);
	/* Unmapping never waits: a packet of this context still touching
	 * the range keeps the BO until it ends (swgpu drops it then), so
	 * the handle can go right after. */
	if (swgpu_va_unmap(dev->ctx, mem->va) != SWGPU_OK)
		icd_log("vkFreeMemory: VA 0x%llx was not mapped",
		        (unsigned long long)mem->va);
	swgpu_bo_destroy(mem->bo);
	icd_free(pAllocator, &dev->alloc, mem);
}

/* VK_EXT_pageable_device_local_memory: a new eviction priority. */
VKAPI_ATTR void VKAPI_CALL
icd_SetDeviceMemoryPriorityEXT(VkDevice device, VkDeviceMemory memory,
                               float priority)
{
	struct icd_device_memory *mem = icd_device_memory_from_handle(memory);

	(void)device;
	if (swgpu_bo_set_priority(mem->bo, icd_memory_priority(priority)) !=
	    SWGPU_OK)
		icd_log("vkSetDeviceMemoryPriorityEXT: priority %f refused",
		        (double)priority);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_MapMemory(VkDevice device, VkDeviceMemory memory, VkDeviceSize offset,
              VkDeviceSize size, VkMemoryMapFlags flags, void **ppData)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_device_memory *mem = icd_device_memory_from_handle(memory);
	swgpu_result sr;
	void *p;

	*ppData = NULL;
	if (!icd_memory_host_visible(dev, mem->type_index)) {
		icd_log("vkMapMemory: memory type %u is not host visible",
		        mem->type_index);
		return VK_ERROR_MEMORY_MAP_FAILED;
	}
	if (mem->map) {
		icd_log("vkMapMemory: memory is already mapped");
		return VK_ERROR_MEMORY_MAP_FAILED;
	}
	if (offset >= mem->size ||
	    (size != VK_WHOLE_SIZE && (size == 0 ||
	                               size > mem->size - offset))) {
		icd_log("vkMapMemory: range %llu+%llu outside %llu bytes",
		        (unsigned long long)offset, (unsigned long long)size,
		        (unsigned long long)mem->size);
		return VK_ERROR_MEMORY_MAP_FAILED;
	}
	sr = swgpu_bo_map(mem->bo, &p);
	if (sr != SWGPU_OK) {
		icd_log("vkMapMemory: swgpu_bo_map: %s", swgpu_result_str(sr));
		return sr == SWGPU_ERR_NO_HOST_MEMORY ?
		       VK_ERROR_OUT_OF_HOST_MEMORY : VK_ERROR_MEMORY_MAP_FAILED;
	}
	mem->map = p;
	*ppData = (uint8_t *)p + offset;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
	struct icd_device_memory *mem = icd_device_memory_from_handle(memory);

	if (!mem->map) {
		icd_log("vkUnmapMemory: memory is not mapped");
		return;
	}
	swgpu_bo_unmap(mem->bo);
	mem->map = NULL;
}

/* Every host-visible type is coherent, so flush and invalidate only check
 * that the ranges are ones the application may name. */
static VkResult
icd_memory_check_ranges(const char *who, uint32_t count,
                        const VkMappedMemoryRange *ranges)
{
	for (uint32_t i = 0; i < count; i++) {
		const struct icd_device_memory *mem =
			icd_device_memory_from_handle(ranges[i].memory);
		VkDeviceSize off = ranges[i].offset, size = ranges[i].size;

		if (!mem->map) {
			icd_log("%s: range %u: memory is not mapped", who, i);
			return VK_ERROR_MEMORY_MAP_FAILED;
		}
		if (off > mem->size ||
		    (size != VK_WHOLE_SIZE && size > mem->size - off)) {
			icd_log("%s: range %u: %llu+%llu outside %llu bytes",
			        who, i, (unsigned long long)off,
			        (unsigned long long)size,
			        (unsigned long long)mem->size);
			return VK_ERROR_MEMORY_MAP_FAILED;
		}
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_FlushMappedMemoryRanges(VkDevice device, uint32_t memoryRangeCount,
                            const VkMappedMemoryRange *pMemoryRanges)
{
	return icd_memory_check_ranges("vkFlushMappedMemoryRanges",
	                               memoryRangeCount, pMemoryRanges);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_InvalidateMappedMemoryRanges(VkDevice device, uint32_t memoryRangeCount,
                                 const VkMappedMemoryRange *pMemoryRanges)
{
	return icd_memory_check_ranges("vkInvalidateMappedMemoryRanges",
	                               memoryRangeCount, pMemoryRanges);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetDeviceMemoryCommitment(VkDevice device, VkDeviceMemory memory,
                              VkDeviceSize *pCommittedMemoryInBytes)
{
	/* No lazily allocated memory: everything is committed up front. */
	*pCommittedMemoryInBytes =
		icd_device_memory_from_handle(memory)->size;
}

VkResult
icd_memory_check_bind(const char *call, const struct icd_device_memory *mem,
                      VkDeviceSize offset, VkDeviceSize size,
                      VkDeviceSize alignment)
{
	if (offset % alignment == 0 && offset < mem->size &&
	    size <= mem->size - offset)
		return VK_SUCCESS;
	icd_log("%s: %llu bytes at offset %llu do not fit %llu bytes of "
	        "memory (alignment %llu)", call, (unsigned long long)size,
	        (unsigned long long)offset, (unsigned long long)mem->size,
	        (unsigned long long)alignment);
	return VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

/* VK_EXT_external_memory_host: host allocations (and foreign host
 * mappings) can back the host-visible SYSTEM memory types. */
uint32_t
icd_memory_host_pointer_types(const struct icd_physical_device *pdev)
{
	uint32_t bits = 0;

	for (uint32_t i = 0; i < pdev->memory.memoryTypeCount; i++)
		if ((pdev->memory.memoryTypes[i].propertyFlags &
		     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
		    pdev->type_heap[i] == SWGPU_HEAP_SYSTEM)
			bits |= 1u << i;
	return bits;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetMemoryHostPointerPropertiesEXT(
	VkDevice device, VkExternalMemoryHandleTypeFlagBits handleType,
	const void *pHostPointer,
	VkMemoryHostPointerPropertiesEXT *pMemoryHostPointerProperties)
{
	struct icd_device *dev = icd_device_from_handle(device);

	if (!(handleType & ICD_HOST_POINTER_HANDLE_TYPES) ||
	    ((uintptr_t)pHostPointer & (ICD_HOST_POINTER_ALIGNMENT - 1))) {
		icd_log("vkGetMemoryHostPointerPropertiesEXT: handle type "
		        "0x%x, pointer %p (aligned to %u?)", handleType,
		        pHostPointer, ICD_HOST_POINTER_ALIGNMENT);
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	pMemoryHostPointerProperties->memoryTypeBits =
		icd_memory_host_pointer_types(dev->pdev);
	return VK_SUCCESS;
}
