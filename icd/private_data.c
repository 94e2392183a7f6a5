/* SPDX-License-Identifier: MIT */
/*
 * Private data (core 1.3): a 64-bit value per (object, slot).
 *
 * Values live in one process-wide table rather than in the objects, so
 * every object type — including ones this driver does not create — can
 * carry them. A value must not outlive its object (a new object at the
 * same address would read it), so icd_free() drops the entries of memory
 * it releases (icd_private_data_forget) and destroying a slot drops its
 * entries. The table is a small array searched linearly: private data is
 * used by layers and tools on a handful of objects, and the common case,
 * no entry at all, costs icd_free() one relaxed load.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "icd.h"

struct icd_private_data_slot {
	struct icd_object base;
};

ICD_DEFINE_HANDLE_CASTS(icd_private_data_slot, VkPrivateDataSlot,
                        VK_OBJECT_TYPE_PRIVATE_DATA_SLOT)

struct pd_entry {
	uint64_t object;
	const struct icd_private_data_slot *slot;
	uint64_t data;
};

static pthread_mutex_t pd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pd_entry *pd_entries;
static size_t pd_count, pd_cap;
static atomic_size_t pd_live;

/* Drop the entries matching object (if non-zero) or slot (if non-NULL).
 * pd_lock held. */
static void
pd_drop(uint64_t object, const struct icd_private_data_slot *slot)
{
	for (size_t i = 0; i < pd_count;) {
		if ((object && pd_entries[i].object == object) ||
		    (slot && pd_entries[i].slot == slot))
			pd_entries[i] = pd_entries[--pd_count];
		else
			i++;
	}
	atomic_store_explicit(&pd_live, pd_count, memory_order_relaxed);
	if (!pd_count) {
		free(pd_entries);
		pd_entries = NULL;
		pd_cap = 0;
	}
}

void
icd_private_data_forget(const void *object)
{
	if (!atomic_load_explicit(&pd_live, memory_order_relaxed))
		return;
	pthread_mutex_lock(&pd_lock);
	pd_drop((uint64_t)(uintptr_t)object, NULL);
	pthread_mutex_unlock(&pd_lock);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreatePrivateDataSlot(VkDevice device,
                          const VkPrivateDataSlotCreateInfo *pCreateInfo,
                          const VkAllocationCallbacks *pAllocator,
                          VkPrivateDataSlot *pPrivateDataSlot)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_private_data_slot *slot =
		icd_zalloc(pAllocator, &dev->alloc, sizeof(*slot), 8,
		           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);

	if (!slot)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
		                 "private data slot");
	icd_object_init(&slot->base, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT);
	*pPrivateDataSlot = icd_private_data_slot_to_handle(slot);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyPrivateDataSlot(VkDevice device, VkPrivateDataSlot privateDataSlot,
                           const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_private_data_slot *slot =
		icd_private_data_slot_from_handle(privateDataSlot);

	if (!slot)
		return;
	pthread_mutex_lock(&pd_lock);
	pd_drop(0, slot);
	pthread_mutex_unlock(&pd_lock);
	icd_free(pAllocator, &dev->alloc, slot);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_SetPrivateData(VkDevice device, VkObjectType objectType,
                   uint64_t objectHandle, VkPrivateDataSlot privateDataSlot,
                   uint64_t data)
{
	const struct icd_private_data_slot *slot =
		icd_private_data_slot_from_handle(privateDataSlot);
	VkResult r = VK_SUCCESS;

	pthread_mutex_lock(&pd_lock);
	size_t i = 0;
	while (i < pd_count && (pd_entries[i].object != objectHandle ||
	                        pd_entries[i].slot != slot))
		i++;
	if (i == pd_count) {
		if (pd_count == pd_cap) {
			size_t cap = pd_cap ? pd_cap * 2 : 16;
			struct pd_entry *e =
				realloc(pd_entries, cap * sizeof(*e));
			if (!e) {
				r = icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
				              "private data entry");
				goto out;
			}
			pd_entries = e;
			pd_cap = cap;
		}
		pd_entries[pd_count++] = (struct pd_entry){
			.object = objectHandle, .slot = slot };
		atomic_store_explicit(&pd_live, pd_count,
		                      memory_order_relaxed);
	}
	pd_entries[i].data = data;
out:
	pthread_mutex_unlock(&pd_lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPrivateData(VkDevice device, VkObjectType objectType,
                   uint64_t objectHandle, VkPrivateDataSlot privateDataSlot,
                   uint64_t *pData)
{
	const struct icd_private_data_slot *slot =
		icd_private_data_slot_from_handle(privateDataSlot);

	*pData = 0;
	pthread_mutex_lock(&pd_lock);
	for (size_t i = 0; i < pd_count; i++)
		if (pd_entries[i].object == objectHandle &&
		    pd_entries[i].slot == slot) {
			*pData = pd_entries[i].data;
			break;
		}
	pthread_mutex_unlock(&pd_lock);
}
