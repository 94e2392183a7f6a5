/* SPDX-License-Identifier: MIT */
/*
 * sync.h — fences and semaphores, both swgpu sync objects.
 *
 * VkFence: a binary syncobj; a submit attaches a pending payload, the
 * host waits for it (SWGPU_WAIT_FOR_SUBMIT, so a fence nobody submitted
 * yet waits until its timeout instead of failing) and resets it.
 * VkSemaphore: binary (a submit wait consumes the payload) or timeline
 * (64-bit counter, wait-before-signal handled by the swgpu scheduler).
 */
#ifndef ICD_SYNC_H
#define ICD_SYNC_H

#include "icd.h"

struct icd_fence {
	struct icd_object base;
	swgpu_syncobj *obj;
};

struct icd_semaphore {
	struct icd_object base;
	VkSemaphoreType type;
	swgpu_syncobj *obj;
};

ICD_DEFINE_HANDLE_CASTS(icd_fence, VkFence, VK_OBJECT_TYPE_FENCE)
ICD_DEFINE_HANDLE_CASTS(icd_semaphore, VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE)

/* The VkResult of a host wait or query on sync objects. */
VkResult icd_sync_wait_result(swgpu_result r);

#endif /* ICD_SYNC_H */
