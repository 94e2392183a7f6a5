/* SPDX-License-Identifier: MIT */
/*
 * sync_fd.c — VK_KHR_external_semaphore_fd and VK_KHR_external_fence_fd,
 * opaque fds: the fd names the swgpu sync object itself
 * (swgpu_syncobj_export_fd), and an import makes the semaphore or fence
 * use that same object — by reference, so both sides wait on and signal
 * one payload. A temporary import (VK_*_IMPORT_TEMPORARY_BIT) replaces
 * the payload until the next semaphore wait or fence reset.
 *
 * In-process mode shares sync objects between the VkDevices of one
 * process (they run on one software GPU); a timeline of another process
 * is linked through the payload page its fd maps, and another process's
 * binary semaphore or fence is refused with
 * VK_ERROR_INVALID_EXTERNAL_HANDLE (docs/ARCHITECTURE.md, "External
 * memory and sync"). SYNC_FD is not offered.
 */
#include <unistd.h>

#include "sync.h"

void
icd_semaphore_wait_done(struct icd_semaphore *s)
{
	if (!s->temp)
		return;
	swgpu_syncobj_destroy(s->temp);
	s->temp = NULL;
}

static VkResult
export_fd(const char *call, swgpu_syncobj *obj, int *fd)
{
	swgpu_result sr = swgpu_syncobj_export_fd(obj, fd);

	if (sr != SWGPU_OK)
		return icd_error(VK_ERROR_TOO_MANY_OBJECTS, "%s: %s", call,
		                 swgpu_result_str(sr));
	return VK_SUCCESS;
}

/* The object an fd names, checked against the importer's type; on
 * success the fd is the driver's and is closed. */
static VkResult
import_fd(const char *call, struct icd_device *dev, int fd,
          swgpu_syncobj_type want, swgpu_syncobj **out)
{
	swgpu_result sr = swgpu_syncobj_import_fd(dev->pdev->swdev, fd, out);

	if (sr != SWGPU_OK) {
		icd_log("%s: fd %d is not a sync object this device can "
		        "import: %s (SWGPU_DEBUG=1 tells why)", call, fd,
		        swgpu_result_str(sr));
		return sr == SWGPU_ERR_NO_HOST_MEMORY ?
		       VK_ERROR_OUT_OF_HOST_MEMORY :
		       VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	if (swgpu_syncobj_get_type(*out) != want) {
		icd_log("%s: fd %d names a %s payload, the importer is %s",
		        call, fd, want == SWGPU_SYNCOBJ_BINARY ? "timeline" :
		        "binary", want == SWGPU_SYNCOBJ_BINARY ? "binary" :
		        "a timeline");
		swgpu_syncobj_destroy(*out);
		*out = NULL;
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	close(fd);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetSemaphoreFdKHR(VkDevice device, const VkSemaphoreGetFdInfoKHR *info,
                      int *pFd)
{
	struct icd_semaphore *s = icd_semaphore_from_handle(info->semaphore);

	(void)device;
	*pFd = -1;
	if (info->handleType != ICD_SEMAPHORE_FD_HANDLE_TYPES) {
		icd_log("vkGetSemaphoreFdKHR: handle type 0x%x (only "
		        "OPAQUE_FD)", info->handleType);
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	return export_fd("vkGetSemaphoreFdKHR", icd_semaphore_obj(s), pFd);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_ImportSemaphoreFdKHR(VkDevice device,
                         const VkImportSemaphoreFdInfoKHR *info)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_semaphore *s = icd_semaphore_from_handle(info->semaphore);
	bool temporary = info->flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT;
	swgpu_syncobj *obj;
	VkResult r;

	if (info->handleType != ICD_SEMAPHORE_FD_HANDLE_TYPES ||
	    (temporary && s->type == VK_SEMAPHORE_TYPE_TIMELINE)) {
		icd_log("vkImportSemaphoreFdKHR: handle type 0x%x%s (only "
		        "OPAQUE_FD; timelines only permanently)",
		        info->handleType, temporary ? ", temporary" : "");
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	r = import_fd("vkImportSemaphoreFdKHR", dev, info->fd,
	              s->type == VK_SEMAPHORE_TYPE_TIMELINE ?
	              SWGPU_SYNCOBJ_TIMELINE : SWGPU_SYNCOBJ_BINARY, &obj);
	if (r != VK_SUCCESS)
		return r;
	/* The old payload goes with its handle; jobs using it keep their
	 * own references. */
	if (temporary) {
		swgpu_syncobj_destroy(s->temp);
		s->temp = obj;
	} else {
		swgpu_syncobj_destroy(s->temp);
		swgpu_syncobj_destroy(s->obj);
		s->temp = NULL;
		s->obj = obj;
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetFenceFdKHR(VkDevice device, const VkFenceGetFdInfoKHR *info, int *pFd)
{
	struct icd_fence *f = icd_fence_from_handle(info->fence);

	(void)device;
	*pFd = -1;
	if (info->handleType != ICD_FENCE_FD_HANDLE_TYPES) {
		icd_log("vkGetFenceFdKHR: handle type 0x%x (only OPAQUE_FD)",
		        info->handleType);
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	return export_fd("vkGetFenceFdKHR", icd_fence_obj(f), pFd);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_ImportFenceFdKHR(VkDevice device, const VkImportFenceFdInfoKHR *info)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_fence *f = icd_fence_from_handle(info->fence);
	swgpu_syncobj *obj;
	VkResult r;

	if (info->handleType != ICD_FENCE_FD_HANDLE_TYPES) {
		icd_log("vkImportFenceFdKHR: handle type 0x%x (only "
		        "OPAQUE_FD)", info->handleType);
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	r = import_fd("vkImportFenceFdKHR", dev, info->fd,
	              SWGPU_SYNCOBJ_BINARY, &obj);
	if (r != VK_SUCCESS)
		return r;
	swgpu_syncobj_destroy(f->temp);
	f->temp = NULL;
	if (info->flags & VK_FENCE_IMPORT_TEMPORARY_BIT) {
		f->temp = obj;
	} else {
		swgpu_syncobj_destroy(f->obj);
		f->obj = obj;
	}
	return VK_SUCCESS;
}
