/* SPDX-License-Identifier: MIT */
/*
 * Fences and semaphores on swgpu sync objects (see sync.h).
 */
#include "sync.h"

/* Host waits up to this many objects use the stack; larger waits allocate
 * (the wait itself sleeps anyway, so that allocation costs nothing that
 * matters). */
#define SYNC_STACK_OBJS 32

VkResult
icd_sync_wait_result(swgpu_result r)
{
	switch (r) {
	case SWGPU_OK:
		return VK_SUCCESS;
	case SWGPU_TIMEOUT:
		return VK_TIMEOUT;
	case SWGPU_ERR_CONTEXT_LOST:
		return VK_ERROR_DEVICE_LOST;
	default:
		return icd_error(icd_result_from_swgpu(r), "sync wait: %s",
		                 swgpu_result_str(r));
	}
}

/* ------------------------------------------------------------------ */
/* Fences                                                              */
/* ------------------------------------------------------------------ */

VkResult
icd_CreateFence(VkDevice device, const VkFenceCreateInfo *pCreateInfo,
                const VkAllocationCallbacks *pAllocator, VkFence *pFence)
{
	struct icd_device *dev = icd_device_from_handle(device);
	bool signaled = pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT;
	struct icd_fence *f;
	swgpu_result r;

	f = icd_zalloc(pAllocator, &dev->alloc, sizeof(*f), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!f)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "fence");
	icd_object_init(&f->base, VK_OBJECT_TYPE_FENCE);
	r = swgpu_syncobj_create(dev->pdev->swdev, SWGPU_SYNCOBJ_BINARY,
	                         signaled ? 1 : 0, &f->obj);
	if (r != SWGPU_OK) {
		icd_free(pAllocator, &dev->alloc, f);
		return icd_error(icd_result_from_swgpu(r), "fence: %s",
		                 swgpu_result_str(r));
	}
	*pFence = icd_fence_to_handle(f);
	return VK_SUCCESS;
}

void
icd_DestroyFence(VkDevice device, VkFence fence,
                 const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_fence *f = icd_fence_from_handle(fence);

	if (!f)
		return;
	swgpu_syncobj_destroy(f->temp);
	swgpu_syncobj_destroy(f->obj);
	icd_free(pAllocator, &dev->alloc, f);
}

VkResult
icd_ResetFences(VkDevice device, uint32_t fenceCount, const VkFence *pFences)
{
	for (uint32_t i = 0; i < fenceCount; i++) {
		struct icd_fence *f = icd_fence_from_handle(pFences[i]);
		swgpu_result r;

		/* A temporary import ends here: the permanent payload is
		 * restored, then reset. */
		if (f->temp) {
			swgpu_syncobj_destroy(f->temp);
			f->temp = NULL;
		}
		r = swgpu_syncobj_reset(f->obj);

		if (r != SWGPU_OK)
			return icd_error(icd_result_from_swgpu(r),
			                 "vkResetFences: %s",
			                 swgpu_result_str(r));
	}
	return VK_SUCCESS;
}

VkResult
icd_GetFenceStatus(VkDevice device, VkFence fence)
{
	struct icd_device *dev = icd_device_from_handle(device);
	uint64_t value = 0;
	swgpu_result r;

	r = swgpu_syncobj_query(icd_fence_obj(icd_fence_from_handle(fence)),
	                        &value);
	if (r == SWGPU_ERR_CONTEXT_LOST)
		return VK_ERROR_DEVICE_LOST;
	if (r != SWGPU_OK)
		return icd_error(icd_result_from_swgpu(r), "fence status: %s",
		                 swgpu_result_str(r));
	if (value)
		return VK_SUCCESS;
	/* Not signalled: on a lost device it never will be. */
	return icd_device_check_lost(dev) != VK_SUCCESS ?
	       VK_ERROR_DEVICE_LOST : VK_NOT_READY;
}

VkResult
icd_WaitForFences(VkDevice device, uint32_t fenceCount,
                  const VkFence *pFences, VkBool32 waitAll, uint64_t timeout)
{
	struct icd_device *dev = icd_device_from_handle(device);
	swgpu_syncobj *stack[SYNC_STACK_OBJS];
	swgpu_syncobj **objs = stack;
	uint64_t deadline = swgpu_deadline_from_timeout(timeout);
	uint32_t flags = SWGPU_WAIT_FOR_SUBMIT;
	VkResult res;

	if (fenceCount > SYNC_STACK_OBJS) {
		objs = icd_alloc(NULL, &dev->alloc,
		                 fenceCount * sizeof(*objs), 8,
		                 VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
		if (!objs)
			return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
			                 "vkWaitForFences");
	}
	for (uint32_t i = 0; i < fenceCount; i++)
		objs[i] = icd_fence_obj(icd_fence_from_handle(pFences[i]));
	if (waitAll)
		flags |= SWGPU_WAIT_ALL;

	/* FOR_SUBMIT: a fence whose signal is not submitted yet is waited
	 * for (another thread may submit it), up to the timeout. */
	res = icd_sync_wait_result(swgpu_syncobj_wait(objs, NULL, fenceCount,
	                                              flags, deadline, NULL));
	/* A fence that will never be signalled because the device is lost
	 * reports the loss, not a timeout. */
	if (res == VK_TIMEOUT && icd_device_check_lost(dev) != VK_SUCCESS)
		res = VK_ERROR_DEVICE_LOST;
	if (objs != stack)
		icd_free(NULL, &dev->alloc, objs);
	return res;
}

/* ------------------------------------------------------------------ */
/* Semaphores                                                          */
/* ------------------------------------------------------------------ */

VkResult
icd_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *pCreateInfo,
                    const VkAllocationCallbacks *pAllocator,
                    VkSemaphore *pSemaphore)
{
	struct icd_device *dev = icd_device_from_handle(device);
	const VkSemaphoreTypeCreateInfo *type_info =
		icd_find_struct(pCreateInfo->pNext,
		                VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
	struct icd_semaphore *s;
	swgpu_result r;

	s = icd_zalloc(pAllocator, &dev->alloc, sizeof(*s), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!s)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "semaphore");
	icd_object_init(&s->base, VK_OBJECT_TYPE_SEMAPHORE);
	s->type = type_info ? type_info->semaphoreType :
	          VK_SEMAPHORE_TYPE_BINARY;
	if (s->type == VK_SEMAPHORE_TYPE_TIMELINE)
		r = swgpu_syncobj_create(dev->pdev->swdev,
		                         SWGPU_SYNCOBJ_TIMELINE,
		                         type_info->initialValue, &s->obj);
	else
		r = swgpu_syncobj_create(dev->pdev->swdev,
		                         SWGPU_SYNCOBJ_BINARY, 0, &s->obj);
	if (r != SWGPU_OK) {
		icd_free(pAllocator, &dev->alloc, s);
		return icd_error(icd_result_from_swgpu(r), "semaphore: %s",
		                 swgpu_result_str(r));
	}
	*pSemaphore = icd_semaphore_to_handle(s);
	return VK_SUCCESS;
}

void
icd_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                     const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_semaphore *s = icd_semaphore_from_handle(semaphore);

	if (!s)
		return;
	swgpu_syncobj_destroy(s->temp);
	swgpu_syncobj_destroy(s->obj);
	icd_free(pAllocator, &dev->alloc, s);
}

VkResult
icd_WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *pWaitInfo,
                   uint64_t timeout)
{
	struct icd_device *dev = icd_device_from_handle(device);
	uint32_t n = pWaitInfo->semaphoreCount;
	swgpu_syncobj *stack_objs[SYNC_STACK_OBJS];
	uint64_t stack_values[SYNC_STACK_OBJS];
	swgpu_syncobj **objs = stack_objs;
	uint64_t *values = stack_values;
	uint64_t deadline = swgpu_deadline_from_timeout(timeout);
	uint32_t flags = SWGPU_WAIT_FOR_SUBMIT;
	VkResult res;

	if (n > SYNC_STACK_OBJS) {
		objs = icd_alloc(NULL, &dev->alloc, n * sizeof(*objs), 8,
		                 VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
		values = icd_alloc(NULL, &dev->alloc, n * sizeof(*values), 8,
		                   VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
		if (!objs || !values) {
			icd_free(NULL, &dev->alloc, objs);
			icd_free(NULL, &dev->alloc, values);
			return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
			                 "vkWaitSemaphores");
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		objs[i] = icd_semaphore_obj(icd_semaphore_from_handle(
			pWaitInfo->pSemaphores[i]));
		values[i] = pWaitInfo->pValues[i];
	}
	if (!(pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT))
		flags |= SWGPU_WAIT_ALL;

	/* Host wait-before-signal is legal for timelines: a value nobody
	 * has submitted yet is waited for until the timeout. */
	res = icd_sync_wait_result(swgpu_syncobj_wait(objs, values, n, flags,
	                                              deadline, NULL));
	if (res == VK_TIMEOUT && icd_device_check_lost(dev) != VK_SUCCESS)
		res = VK_ERROR_DEVICE_LOST;
	if (objs != stack_objs) {
		icd_free(NULL, &dev->alloc, objs);
		icd_free(NULL, &dev->alloc, values);
	}
	return res;
}

VkResult
icd_SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *pSignalInfo)
{
	struct icd_semaphore *s =
		icd_semaphore_from_handle(pSignalInfo->semaphore);
	swgpu_result r = swgpu_syncobj_signal(icd_semaphore_obj(s),
	                                       pSignalInfo->value);

	if (r != SWGPU_OK)
		return icd_error(icd_result_from_swgpu(r),
		                 "vkSignalSemaphore(%llu): %s",
		                 (unsigned long long)pSignalInfo->value,
		                 swgpu_result_str(r));
	return VK_SUCCESS;
}

VkResult
icd_GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore,
                             uint64_t *pValue)
{
	struct icd_semaphore *s = icd_semaphore_from_handle(semaphore);
	swgpu_result r = swgpu_syncobj_query(icd_semaphore_obj(s), pValue);

	if (r == SWGPU_ERR_CONTEXT_LOST)
		return VK_ERROR_DEVICE_LOST;
	if (r != SWGPU_OK)
		return icd_error(icd_result_from_swgpu(r),
		                 "vkGetSemaphoreCounterValue: %s",
		                 swgpu_result_str(r));
	return VK_SUCCESS;
}
