/* SPDX-License-Identifier: MIT */
/*
 * GPU words (the suballocator behind events and query pools) and events.
 *
 * Events are single 64-bit words: 1 set, 0 reset. The host sets, resets
 * and reads them with atomic 64-bit accesses on the mapped word; command
 * buffers write them with SEM_SIGNAL and wait on them with SEM_WAIT
 * (cmd_sync.c).
 *
 * The suballocator keeps, per VkDevice, a list of blocks (one BO each).
 * struct icd_device has no slot for it, so the per-device heaps live in a
 * small process-wide list keyed by the device, under one mutex; it is only
 * touched when an event or query pool is created or destroyed, never
 * while recording or submitting. A block is freed when its last word is;
 * the heap goes with its last block, so by the time the application
 * destroys the VkDevice (after every child object, as the spec requires)
 * nothing of it is left here.
 */
#include <pthread.h>

#include "event.h"

/* Words per ordinary block: 32 KiB. Larger requests (big query pools) get
 * a block of their own. */
#define WORDS_PER_BLOCK 4096u
#define WORDS_ROUND 512u /* one 4 KiB page of words */

struct icd_word_block {
	struct icd_word_block *next;
	swgpu_bo *bo;
	uint64_t *cpu;
	uint64_t va;
	uint32_t nwords;
	uint32_t used;
	uint64_t bitmap[];      /* bit set: word allocated */
};

struct icd_word_heap {
	struct icd_word_heap *next;
	struct icd_device *dev;
	struct icd_word_block *blocks;
};

static pthread_mutex_t heaps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct icd_word_heap *heaps;

static bool
bit_get(const struct icd_word_block *b, uint32_t i)
{
	return b->bitmap[i / 64] & (1ull << (i % 64));
}

static void
bits_set(struct icd_word_block *b, uint32_t first, uint32_t n, bool on)
{
	for (uint32_t i = first; i < first + n; i++) {
		if (on)
			b->bitmap[i / 64] |= 1ull << (i % 64);
		else
			b->bitmap[i / 64] &= ~(1ull << (i % 64));
	}
}

/* First fit: index of a free run of n words, or UINT32_MAX. */
static uint32_t
block_find(const struct icd_word_block *b, uint32_t n)
{
	uint32_t run = 0;

	if (b->nwords - b->used < n)
		return UINT32_MAX;
	for (uint32_t i = 0; i < b->nwords; i++) {
		run = bit_get(b, i) ? 0 : run + 1;
		if (run == n)
			return i + 1 - n;
	}
	return UINT32_MAX;
}

static void
block_destroy(struct icd_device *dev, struct icd_word_block *b)
{
	swgpu_va_unmap(dev->ctx, b->va);
	swgpu_bo_unmap(b->bo);
	swgpu_bo_destroy(b->bo);
	icd_free(NULL, &dev->alloc, b);
}

static VkResult
block_create(struct icd_device *dev, uint32_t min_words,
             struct icd_word_block **out)
{
	uint32_t nwords = WORDS_PER_BLOCK;
	struct icd_word_block *b;
	swgpu_result r;
	void *map;

	if (min_words > nwords)
		nwords = (min_words + WORDS_ROUND - 1) / WORDS_ROUND *
		         WORDS_ROUND;
	b = icd_zalloc(NULL, &dev->alloc,
	               sizeof(*b) + (nwords / 64) * sizeof(uint64_t), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
	if (!b)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "GPU words");
	b->nwords = nwords;
	/* SYSTEM + CACHED: the host polls these words (query results,
	 * event status), so they live where host reads are cheap. */
	r = swgpu_bo_create(dev->pdev->swdev, (uint64_t)nwords * 8,
	                    SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED, &b->bo);
	if (r != SWGPU_OK)
		goto fail_free;
	r = swgpu_bo_map(b->bo, &map);
	if (r != SWGPU_OK)
		goto fail_bo;
	b->cpu = map;
	r = swgpu_va_map(dev->ctx, b->bo, 0, (uint64_t)nwords * 8,
	                 SWGPU_VA_READ | SWGPU_VA_WRITE, &b->va);
	if (r != SWGPU_OK)
		goto fail_map;
	*out = b;
	return VK_SUCCESS;

fail_map:
	swgpu_bo_unmap(b->bo);
fail_bo:
	swgpu_bo_destroy(b->bo);
fail_free:
	icd_free(NULL, &dev->alloc, b);
	return icd_error(icd_result_from_swgpu(r), "GPU words: %s",
	                 swgpu_result_str(r));
}

static struct icd_word_heap *
heap_find(struct icd_device *dev, struct icd_word_heap ***link_out)
{
	struct icd_word_heap **link = &heaps;

	for (; *link; link = &(*link)->next) {
		if ((*link)->dev == dev) {
			if (link_out)
				*link_out = link;
			return *link;
		}
	}
	return NULL;
}

VkResult
icd_words_alloc(struct icd_device *dev, uint32_t count, struct icd_words *out)
{
	struct icd_word_heap *heap;
	struct icd_word_block *b;
	uint32_t first = UINT32_MAX;
	VkResult res = VK_SUCCESS;

	assert(count > 0);
	pthread_mutex_lock(&heaps_lock);
	heap = heap_find(dev, NULL);
	if (!heap) {
		heap = icd_zalloc(NULL, &dev->alloc, sizeof(*heap), 8,
		                  VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
		if (!heap) {
			res = icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
			                "GPU words");
			goto out;
		}
		heap->dev = dev;
		heap->next = heaps;
		heaps = heap;
	}
	for (b = heap->blocks; b; b = b->next) {
		first = block_find(b, count);
		if (first != UINT32_MAX)
			break;
	}
	if (!b) {
		res = block_create(dev, count, &b);
		if (res != VK_SUCCESS) {
			if (!heap->blocks) {
				struct icd_word_heap **link = NULL;

				heap_find(dev, &link);
				*link = heap->next;
				icd_free(NULL, &dev->alloc, heap);
			}
			goto out;
		}
		b->next = heap->blocks;
		heap->blocks = b;
		first = 0;
	}
	bits_set(b, first, count, true);
	b->used += count;
	/* Words are recycled: start every user from zero (an event reset, a
	 * query unavailable). The GPU is done with freed words. */
	memset(b->cpu + first, 0, (size_t)count * 8);
	out->block = b;
	out->first = first;
	out->count = count;
	out->cpu = b->cpu + first;
	out->va = b->va + (uint64_t)first * 8;
out:
	pthread_mutex_unlock(&heaps_lock);
	return res;
}

void
icd_words_free(struct icd_device *dev, struct icd_words *w)
{
	struct icd_word_heap *heap, **link = NULL;
	struct icd_word_block *b = w->block, **bl;

	if (!b)
		return;
	pthread_mutex_lock(&heaps_lock);
	heap = heap_find(dev, &link);
	assert(heap);
	bits_set(b, w->first, w->count, false);
	b->used -= w->count;
	if (b->used == 0) {
		for (bl = &heap->blocks; *bl != b; bl = &(*bl)->next)
			;
		*bl = b->next;
		block_destroy(dev, b);
		if (!heap->blocks) {
			*link = heap->next;
			icd_free(NULL, &dev->alloc, heap);
		}
	}
	pthread_mutex_unlock(&heaps_lock);
	w->block = NULL;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

VkResult
icd_CreateEvent(VkDevice device, const VkEventCreateInfo *pCreateInfo,
                const VkAllocationCallbacks *pAllocator, VkEvent *pEvent)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_event *ev;
	VkResult r;

	/* VK_EVENT_CREATE_DEVICE_ONLY_BIT needs nothing different: the
	 * word is always reachable from both sides. */
	ev = icd_zalloc(pAllocator, &dev->alloc, sizeof(*ev), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!ev)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "event");
	icd_object_init(&ev->base, VK_OBJECT_TYPE_EVENT);
	r = icd_words_alloc(dev, 1, &ev->word);
	if (r != VK_SUCCESS) {
		icd_free(pAllocator, &dev->alloc, ev);
		return r;
	}
	*pEvent = icd_event_to_handle(ev);
	return VK_SUCCESS;
}

void
icd_DestroyEvent(VkDevice device, VkEvent event,
                 const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_event *ev = icd_event_from_handle(event);

	if (!ev)
		return;
	icd_words_free(dev, &ev->word);
	icd_free(pAllocator, &dev->alloc, ev);
}

VkResult
icd_SetEvent(VkDevice device, VkEvent event)
{
	icd_word_store(icd_event_from_handle(event)->word.cpu, 1);
	return VK_SUCCESS;
}

VkResult
icd_ResetEvent(VkDevice device, VkEvent event)
{
	icd_word_store(icd_event_from_handle(event)->word.cpu, 0);
	return VK_SUCCESS;
}

VkResult
icd_GetEventStatus(VkDevice device, VkEvent event)
{
	struct icd_device *dev = icd_device_from_handle(device);
	VkResult lost = icd_device_check_lost(dev);

	if (lost != VK_SUCCESS)
		return lost;
	return icd_word_load(icd_event_from_handle(event)->word.cpu) ?
	       VK_EVENT_SET : VK_EVENT_RESET;
}
