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

/* temp: a payload imported with VK_*_IMPORT_TEMPORARY_BIT (sync_fd.c),
 * used instead of obj until a fence reset or a semaphore wait restores
 * the permanent one. Use icd_fence_obj() / icd_semaphore_obj(). */
struct icd_fence {
	struct icd_object base;
	swgpu_syncobj *obj;
	swgpu_syncobj *temp;
};

struct icd_semaphore {
	struct icd_object base;
	VkSemaphoreType type;
	swgpu_syncobj *obj;
	swgpu_syncobj *temp;
};

static inline swgpu_syncobj *
icd_fence_obj(const struct icd_fence *f)
{
	return f->temp ? f->temp : f->obj;
}

static inline swgpu_syncobj *
icd_semaphore_obj(const struct icd_semaphore *s)
{
	return s->temp ? s->temp : s->obj;
}

/* A wait on s was submitted: a temporarily imported payload is used up
 * and the permanent one comes back (the submitted job holds its own
 * reference on the temporary one). */
void icd_semaphore_wait_done(struct icd_semaphore *s);

ICD_DEFINE_HANDLE_CASTS(icd_fence, VkFence, VK_OBJECT_TYPE_FENCE)
ICD_DEFINE_HANDLE_CASTS(icd_semaphore, VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE)

/* The VkResult of a host wait or query on sync objects. */
VkResult icd_sync_wait_result(swgpu_result r);

#endif /* ICD_SYNC_H */
