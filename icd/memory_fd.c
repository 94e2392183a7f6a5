/* SPDX-License-Identifier: MIT */
/*
 * memory_fd.c — VK_KHR_external_memory_fd, opaque fds. Memory allocated
 * with VkExportMemoryAllocateInfo is a shareable swgpu BO (a sealed memfd
 * mapped shared); its fd is a dup of that memfd, which another VkDevice
 * — or another process, which gets the same pages — imports with
 * VkImportMemoryFdInfoKHR (memory.c). The layout of buffers and images
 * depends only on their create info, so the same create info on both
 * sides sees the same bytes.
 */
#include "icd.h"

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetMemoryFdKHR(VkDevice device, const VkMemoryGetFdInfoKHR *pGetFdInfo,
                   int *pFd)
{
	struct icd_device_memory *mem =
		icd_device_memory_from_handle(pGetFdInfo->memory);
	swgpu_result sr;

	(void)device;
	*pFd = -1;
	if (pGetFdInfo->handleType != ICD_MEMORY_FD_HANDLE_TYPES) {
		icd_log("vkGetMemoryFdKHR: handle type 0x%x (only OPAQUE_FD)",
		        pGetFdInfo->handleType);
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	sr = swgpu_bo_export_fd(mem->bo, pFd);
	if (sr == SWGPU_ERR_INVALID_ARG) {
		icd_log("vkGetMemoryFdKHR: the memory was not allocated with "
		        "VkExportMemoryAllocateInfo(OPAQUE_FD)");
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	if (sr != SWGPU_OK)
		return icd_error(VK_ERROR_TOO_MANY_OBJECTS,
		                 "vkGetMemoryFdKHR: %s", swgpu_result_str(sr));
	return VK_SUCCESS;
}

/* Only for handle types other than OPAQUE_FD (the spec forbids asking
 * about opaque fds: their memory types are the exporter's), and no
 * other fd type (dma-buf) is supported. */
VKAPI_ATTR VkResult VKAPI_CALL
icd_GetMemoryFdPropertiesKHR(VkDevice device,
                             VkExternalMemoryHandleTypeFlagBits handleType,
                             int fd, VkMemoryFdPropertiesKHR *pProps)
{
	(void)device;
	pProps->memoryTypeBits = 0;
	icd_log("vkGetMemoryFdPropertiesKHR: handle type 0x%x, fd %d: only "
	        "opaque fds can be imported, with the exporter's memory type",
	        handleType, fd);
	return VK_ERROR_INVALID_EXTERNAL_HANDLE;
}
