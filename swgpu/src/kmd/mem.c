/* SPDX-License-Identifier: MIT */
/*
 * Heaps and buffer objects.
 *
 * A heap is only an accounting budget: the backing of a BO is host memory
 * from mmap (large BOs, so pages nobody touches cost nothing) or
 * aligned_alloc (small ones). The BAR window is a sub-budget of VRAM.
 *
 * Offer/reclaim: an offered BO is a discard candidate. Under pressure (an
 * allocation or reclaim that does not fit its heap's budget) candidates
 * of that heap are discarded lowest priority first, oldest offer first,
 * but only when discarding them all would make the request fit, so a
 * failing allocation never throws contents away for nothing. Discarding
 * keeps the backing's address (VA mappings point at it) and only drops
 * its pages, so nothing can ever reach freed memory.
 */
#include "kmd/mem.h"

#include <fcntl.h> /* fallocate */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kmd/config.h"
#include "kmd/device.h"
#include "kmd/residency.h"
#include "kmd/owner.h"
#include "util/util.h"
#include "remote/remote.h"

/* From this size on the backing comes straight from mmap: zero pages on
 * demand and returned to the kernel on free. */
#define BO_MMAP_THRESHOLD (64u * 1024u)

#define KNOWN_BO_FLAGS (SWGPU_BO_BAR | SWGPU_BO_CACHED | SWGPU_BO_SHAREABLE)

void
mem_init(struct swgpu_mem *mem, const swgpu_config *cfg)
{
	swgpu_config defaults;

	if (!cfg) {
		swgpu_config_init(&defaults);
		cfg = &defaults;
	}
	memset(mem, 0, sizeof(*mem));
	pthread_mutex_init(&mem->res_lock, NULL);
	pthread_mutex_init(&mem->lock, NULL);
	mem->heap_size[SWGPU_HEAP_VRAM] = cfg->vram_size;
	mem->heap_size[SWGPU_HEAP_SYSTEM] = cfg->system_size;
	/* 0 means "no budget below the heap size" (older initializers). */
	mem->heap_budget[SWGPU_HEAP_VRAM] =
		cfg->vram_budget && cfg->vram_budget < cfg->vram_size ?
		cfg->vram_budget : cfg->vram_size;
	mem->heap_budget[SWGPU_HEAP_SYSTEM] = cfg->system_size;
	mem->bar_size = cfg->bar_size < cfg->vram_size ? cfg->bar_size
	                                                : cfg->vram_size;
	mem->page_size = SWGPU_PAGE_SIZE;
	mem->debug = cfg->debug;
}

void
mem_backing_free(uint8_t *cpu, uint64_t size, bool mmapped)
{
	if (!cpu)
		return;
	if (mmapped)
		munmap(cpu, size);
	else
		free(cpu);
}

static void
backing_free(struct swgpu_bo *bo)
{
	if (bo->shared) {
		/* Other mappings of the memfd keep its pages. */
		if (bo->cpu)
			munmap(bo->cpu, bo->size);
		close(bo->share_fd);
		bo->shared = false;
	} else if (!bo->imported) {
		mem_backing_free(bo->cpu, bo->size, bo->cpu_mmapped);
	}
	bo->cpu = NULL;
}

void
mem_list_add_locked(struct swgpu_mem *mem, struct swgpu_bo *bo)
{
	bo->prev = NULL;
	bo->next = mem->bo_list;
	if (mem->bo_list)
		mem->bo_list->prev = bo;
	mem->bo_list = bo;
	mem->bo_count++;
}

void
mem_account_add_locked(struct swgpu_mem *mem, struct mem_owner *owner,
                       swgpu_heap loc, uint32_t flags, uint64_t size)
{
	bool bar = loc == SWGPU_HEAP_VRAM && (flags & SWGPU_BO_BAR);

	mem->heap_used[loc] += size;
	if (bar)
		mem->bar_used += size;
	if (owner) {
		owner->used[loc] += size;
		if (bar)
			owner->bar_used += size;
	}
}

void
mem_account_sub_locked(struct swgpu_mem *mem, struct mem_owner *owner,
                       swgpu_heap loc, uint32_t flags, uint64_t size)
{
	bool bar = loc == SWGPU_HEAP_VRAM && (flags & SWGPU_BO_BAR);

	mem->heap_used[loc] -= size;
	if (bar)
		mem->bar_used -= size;
	if (owner) {
		owner->used[loc] -= size;
		if (bar)
			owner->bar_used -= size;
	}
}

static void
offer_unlink(struct swgpu_mem *mem, struct swgpu_bo *bo)
{
	if (bo->offer_prev)
		bo->offer_prev->offer_next = bo->offer_next;
	else
		mem->offer_head = bo->offer_next;
	if (bo->offer_next)
		bo->offer_next->offer_prev = bo->offer_prev;
	else
		mem->offer_tail = bo->offer_prev;
	bo->offer_prev = bo->offer_next = NULL;
}

static void
account_release(struct swgpu_mem *mem, struct swgpu_bo *bo)
{
	/* A discarded BO already gave its bytes back; an imported one
	 * never took any. */
	if (!bo->discarded && !bo->imported) {
		mem_account_sub_locked(mem, bo->owner, bo->loc, bo->flags,
		                       bo->size);
		if (bo->offered)
			offer_unlink(mem, bo);
	}
	mem_owner_put_locked(mem, bo->owner);
	bo->owner = NULL;
	if (bo->loc != bo->heap)
		mem->demoted_bytes -= bo->size;
	/* Every VA mapping held a reference, so none is left. */
	free(bo->vs_refs);
	bo->vs_refs = NULL;
	if (bo->prev)
		bo->prev->next = bo->next;
	else
		mem->bo_list = bo->next;
	if (bo->next)
		bo->next->prev = bo->prev;
	mem->bo_count--;
}

void
mem_fini(struct swgpu_mem *mem)
{
	if (!mem)
		return;
	pthread_mutex_lock(&mem->lock);
	/* Closing a device with live BOs is allowed (swgpu.h), so this is
	 * only a debugging aid. */
	if (mem->bo_count && (mem->debug || swgpu_debug_env()))
		swgpu_log("mem: freeing %u BOs still alive at device close",
		          mem->bo_count);
	while (mem->bo_list) {
		struct swgpu_bo *bo = mem->bo_list;

		account_release(mem, bo);
		backing_free(bo);
		free(bo);
	}
	mem_owner_fini(mem);
	pthread_mutex_unlock(&mem->lock);
	pthread_mutex_destroy(&mem->lock);
	pthread_mutex_destroy(&mem->res_lock);
}

uint8_t *
mem_backing_alloc(uint64_t size, uint32_t page_size, bool *mmapped)
{
	uint8_t *cpu;

	if (size >= BO_MMAP_THRESHOLD) {
		/* MAP_NORESERVE: a 4 GiB VRAM heap is a budget, not a
		 * promise the host must back up front. */
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		               -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		*mmapped = true;
		return p;
	}
	cpu = aligned_alloc(page_size, size);
	if (!cpu)
		return NULL;
	memset(cpu, 0, size);
	*mmapped = false;
	return cpu;
}

/* Drop the pages of an offered BO: its contents read as zero afterwards.
 * The address stays (VA mappings and the host pointer keep pointing at
 * it). Small BOs live in the malloc heap, where only zeroing is safe; the
 * accounting is released either way, as the heap is a budget. */
static void
backing_discard(struct swgpu_bo *bo)
{
	/* A memfd's pages go for every mapping of it at once. */
	if (bo->shared &&
	    fallocate(bo->share_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	              0, (off_t)bo->size) == 0)
		return;
	if (bo->cpu_mmapped &&
	    madvise(bo->cpu, bo->size, MADV_DONTNEED) == 0)
		return;
	memset(bo->cpu, 0, bo->size);
}

void
mem_discard_locked(struct swgpu_mem *mem, struct swgpu_bo *bo)
{
	offer_unlink(mem, bo);
	backing_discard(bo);
	mem_account_sub_locked(mem, bo->owner, bo->loc, bo->flags, bo->size);
	bo->discarded = true;
	mem->discard_count++;
	mem->discard_bytes += bo->size;
	if (mem->debug || swgpu_debug_env())
		swgpu_log("mem: discarded an offered %llu-byte BO of %s "
		          "(offer priority %d; %llu discards)",
		          (unsigned long long)bo->size,
		          bo->loc == SWGPU_HEAP_VRAM ? "VRAM" : "SYSTEM",
		          (int)bo->offer_priority,
		          (unsigned long long)mem->discard_count);
}

/* Bytes missing for size more bytes within limit (0: it fits). */
uint64_t
mem_shortfall(uint64_t limit, uint64_t used, uint64_t size)
{
	if (used >= limit)
		return size;
	return limit - used >= size ? 0 : size - (limit - used);
}

/* Whether size bytes of heap (flags: SWGPU_BO_BAR) fit the budget,
 * discarding offered BOs of the heap if that is what it takes. Discards
 * nothing when even discarding every candidate would not be enough. */
bool
mem_make_room_locked(struct swgpu_mem *mem, swgpu_heap heap, uint32_t flags,
                     uint64_t size)
{
	bool bar = flags & SWGPU_BO_BAR;
	uint64_t need = mem_shortfall(mem->heap_budget[heap], mem->heap_used[heap],
	                          size);
	uint64_t need_bar = bar ? mem_shortfall(mem->bar_size, mem->bar_used,
	                                    size) : 0;
	uint64_t avail = 0, avail_bar = 0;

	if (!need && !need_bar)
		return true;
	for (struct swgpu_bo *b = mem->offer_head; b; b = b->offer_next) {
		if (b->loc != heap || b->moving)
			continue;
		avail += b->size;
		if (b->flags & SWGPU_BO_BAR)
			avail_bar += b->size;
	}
	if (avail < need || avail_bar < need_bar)
		return false;
	while (need || need_bar) {
		struct swgpu_bo *victim = NULL;

		/* Lowest priority first; the list is in offer order, so
		 * the first of a priority is its oldest offer. A BO helps
		 * if its heap still lacks bytes, or it is in the BAR window
		 * and the window does. */
		for (struct swgpu_bo *b = mem->offer_head; b;
		     b = b->offer_next) {
			bool helps = b->loc == heap && !b->moving &&
			             (need || (need_bar &&
			                       (b->flags & SWGPU_BO_BAR)));
			if (helps && (!victim || b->offer_priority <
			                         victim->offer_priority))
				victim = b;
		}
		if (!victim)
			return false; /* cannot happen: avail was enough */
		need -= victim->size < need ? victim->size : need;
		if (victim->flags & SWGPU_BO_BAR)
			need_bar -= victim->size < need_bar ? victim->size
			                                    : need_bar;
		mem_discard_locked(mem, victim);
	}
	return true;
}

swgpu_result
bo_create_in(struct swgpu_mem *mem, struct swgpu_device *dev, uint64_t size,
             swgpu_heap heap, uint32_t flags, struct swgpu_bo **out)
{
	struct swgpu_bo *bo;
	uint64_t page = mem ? mem->page_size : SWGPU_PAGE_SIZE;
	bool debug = mem ? mem->debug : swgpu_debug_env();

	if (out)
		*out = NULL;
	if (!mem || !out)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG, "NULL argument");
	if (size == 0)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG, "BO size 0");
	if ((unsigned)heap >= SWGPU_HEAP_COUNT)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG, "bad heap %d",
		                 (int)heap);
	if (flags & ~KNOWN_BO_FLAGS)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "unknown BO flags 0x%x", flags);
	if ((flags & SWGPU_BO_BAR) && heap != SWGPU_HEAP_VRAM)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "SWGPU_BO_BAR on a non-VRAM heap");
	if ((flags & SWGPU_BO_CACHED) && heap != SWGPU_HEAP_SYSTEM)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "SWGPU_BO_CACHED on a non-SYSTEM heap");
	/* Rounding up must not wrap: such a size cannot fit any heap. */
	if (size > UINT64_MAX - (page - 1) ||
	    (size = (size + page - 1) & ~(page - 1)) > mem->heap_size[heap])
		return SWGPU_ERR(debug, SWGPU_ERR_NO_DEVICE_MEMORY,
		                 "BO of %llu bytes larger than heap %d",
		                 (unsigned long long)size, (int)heap);

	bo = calloc(1, sizeof(*bo));
	if (!bo)
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY, "calloc");
	bo->dev = dev;
	bo->mem = mem;
	bo->size = size;
	bo->heap = heap;
	bo->loc = heap;
	bo->flags = flags;
	bo->priority = SWGPU_BO_PRIORITY_DEFAULT;
	atomic_init(&bo->refcount, 1);
	atomic_init(&bo->map_count, 0);
	atomic_init(&bo->gpu_busy, 0);
	pthread_mutex_lock(&mem->lock);
	bo->owner = mem_owner_get_locked(mem);
	pthread_mutex_unlock(&mem->lock);
	if (!bo->owner) {
		free(bo);
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY, "BO owner");
	}

	/* VRAM BOs may evict others or be placed in SYSTEM (residency.c);
	 * res_lock stays held until the BO has its backing, so no eviction
	 * sees it half made. */
	if (heap == SWGPU_HEAP_VRAM) {
		pthread_mutex_lock(&mem->res_lock);
		bo->loc = residency_reserve(mem, bo->owner, flags, size);
		pthread_mutex_lock(&mem->lock);
		bo->last_use = ++mem->use_clock;
	} else {
		/* Reserve the budget first so two racing creates cannot
		 * both fit into the last free bytes. */
		pthread_mutex_lock(&mem->lock);
		if (mem_make_room_locked(mem, heap, flags, size))
			mem_account_add_locked(mem, bo->owner, heap, flags,
			                       size);
		else
			bo->loc = SWGPU_HEAP_COUNT;
	}
	if (bo->loc == SWGPU_HEAP_COUNT) {
		mem_owner_put_locked(mem, bo->owner);
		pthread_mutex_unlock(&mem->lock);
		if (heap == SWGPU_HEAP_VRAM)
			pthread_mutex_unlock(&mem->res_lock);
		free(bo);
		return SWGPU_ERR(debug, SWGPU_ERR_NO_DEVICE_MEMORY,
		                 "%s exhausted allocating %llu bytes",
		                 (flags & SWGPU_BO_BAR) ?
		                 "BAR window or VRAM budget"
		                 : heap == SWGPU_HEAP_VRAM ?
		                 "VRAM budget and SYSTEM" : "SYSTEM",
		                 (unsigned long long)size);
	}
	if (bo->loc != heap)
		mem->demoted_bytes += size;
	mem_list_add_locked(mem, bo);
	pthread_mutex_unlock(&mem->lock);

	if (flags & SWGPU_BO_SHAREABLE) {
		bo->cpu = mem_backing_alloc_shared(size, &bo->share_fd);
		bo->shared = bo->cpu != NULL;
	} else {
		bo->cpu = mem_backing_alloc(size, mem->page_size,
		                            &bo->cpu_mmapped);
	}
	if (!bo->cpu) {
		pthread_mutex_lock(&mem->lock);
		account_release(mem, bo);
		pthread_mutex_unlock(&mem->lock);
		if (heap == SWGPU_HEAP_VRAM)
			pthread_mutex_unlock(&mem->res_lock);
		free(bo);
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "no host memory for a %llu-byte BO",
		                 (unsigned long long)size);
	}
	if (heap == SWGPU_HEAP_VRAM)
		pthread_mutex_unlock(&mem->res_lock);
	*out = bo;
	return SWGPU_OK;
}

void
bo_ref(struct swgpu_bo *bo)
{
	atomic_fetch_add_explicit(&bo->refcount, 1, memory_order_relaxed);
}

bool
bo_ref_live(struct swgpu_bo *bo)
{
	unsigned n = atomic_load_explicit(&bo->refcount, memory_order_relaxed);

	do {
		if (n == 0)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(
		&bo->refcount, &n, n + 1, memory_order_relaxed,
		memory_order_relaxed));
	return true;
}

void
bo_unref(struct swgpu_bo *bo)
{
	if (!bo)
		return;
	/* acq_rel: every access through another reference happens before
	 * the free below. */
	if (atomic_fetch_sub_explicit(&bo->refcount, 1,
	                              memory_order_acq_rel) != 1)
		return;
	struct swgpu_mem *mem = bo->mem;

	pthread_mutex_lock(&mem->lock);
	account_release(mem, bo);
	pthread_mutex_unlock(&mem->lock);
	backing_free(bo);
	free(bo);
}

uint64_t
mem_heap_usage(struct swgpu_mem *mem, swgpu_heap heap)
{
	uint64_t used;

	if (!mem || (unsigned)heap >= SWGPU_HEAP_COUNT)
		return 0;
	pthread_mutex_lock(&mem->lock);
	used = mem->heap_used[heap];
	pthread_mutex_unlock(&mem->lock);
	return used;
}

uint64_t
mem_bar_usage(struct swgpu_mem *mem)
{
	uint64_t used;

	if (!mem)
		return 0;
	pthread_mutex_lock(&mem->lock);
	used = mem->bar_used;
	pthread_mutex_unlock(&mem->lock);
	return used;
}

/* ------------------------------------------------------------------ */
/* Public BO API (swgpu.h)                                             */
/* ------------------------------------------------------------------ */

swgpu_result
swgpu_bo_create(swgpu_device *dev, uint64_t size, swgpu_heap heap,
                uint32_t flags, swgpu_bo **out)
{
	if (remote_is(dev))
		return rc_bo_create(dev, size, heap, flags, out);
	if (!dev) {
		if (out)
			*out = NULL;
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL device");
	}
	return bo_create_in(&dev->mem, dev, size, heap, flags, out);
}

void
swgpu_bo_destroy(swgpu_bo *bo)
{
	if (remote_is(bo)) {
		rc_bo_destroy(bo);
		return;
	}
	bo_unref(bo);
}

uint64_t
swgpu_bo_size(const swgpu_bo *bo)
{
	if (remote_is(bo))
		return rc_bo_size(bo);
	return bo ? bo->size : 0;
}

swgpu_heap
swgpu_bo_heap(const swgpu_bo *bo)
{
	if (remote_is(bo))
		return rc_bo_heap(bo);
	return bo ? bo->heap : SWGPU_HEAP_COUNT;
}

swgpu_result
swgpu_bo_map(swgpu_bo *bo, void **ptr)
{
	if (remote_is(bo))
		return rc_bo_map(bo, ptr);
	if (ptr)
		*ptr = NULL;
	if (!bo || !ptr)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL argument");
	if (bo->heap == SWGPU_HEAP_VRAM && !(bo->flags & SWGPU_BO_BAR))
		return SWGPU_ERR(bo->mem->debug, SWGPU_ERR_NOT_MAPPABLE,
		                 "VRAM BO without SWGPU_BO_BAR");
	/* A BAR BO may move (eviction): res_lock keeps it still, and a
	 * demoted one is brought back first if VRAM has room. A mapped BO
	 * never moves, so the pointer stays valid until the last unmap. */
	bool bar = bo->heap == SWGPU_HEAP_VRAM;
	if (bar) {
		pthread_mutex_lock(&bo->mem->res_lock);
		residency_prepare_map(bo);
	}
	/* Under the lock, so a map and an offer cannot both succeed: a host
	 * pointer into memory that may be discarded would lose writes. */
	pthread_mutex_lock(&bo->mem->lock);
	if (bo->offered) {
		pthread_mutex_unlock(&bo->mem->lock);
		if (bar)
			pthread_mutex_unlock(&bo->mem->res_lock);
		return SWGPU_ERR(bo->mem->debug, SWGPU_ERR_DEVICE_BUSY,
		                 "mapping an offered BO (reclaim it first)");
	}
	atomic_fetch_add_explicit(&bo->map_count, 1, memory_order_relaxed);
	*ptr = bo->cpu;
	pthread_mutex_unlock(&bo->mem->lock);
	if (bar)
		pthread_mutex_unlock(&bo->mem->res_lock);
	return SWGPU_OK;
}

void
swgpu_bo_unmap(swgpu_bo *bo)
{
	if (remote_is(bo)) {
		rc_bo_unmap(bo);
		return;
	}
	if (!bo)
		return;
	unsigned n = atomic_load_explicit(&bo->map_count,
	                                  memory_order_relaxed);
	do {
		if (n == 0) {
			swgpu_log("swgpu_bo_unmap: BO is not mapped");
			return;
		}
	} while (!atomic_compare_exchange_weak_explicit(
		&bo->map_count, &n, n - 1, memory_order_relaxed,
		memory_order_relaxed));
}

uint64_t
swgpu_heap_usage(const swgpu_device *dev, swgpu_heap heap)
{
	if (remote_is(dev))
		return rc_heap_usage(dev, heap);
	if (!dev)
		return 0;
	/* A swgpud session thread asks for its client (mem_owner.h). */
	if (kmd_owner_pid()) {
		uint64_t used = 0;

		if ((unsigned)heap < SWGPU_HEAP_COUNT)
			mem_owner_budget((struct swgpu_mem *)&dev->mem, heap,
			                 &used, NULL);
		return used;
	}
	/* The lock is not part of the logical state: casting const away to
	 * take it is the usual "mutable mutex". */
	return mem_heap_usage((struct swgpu_mem *)&dev->mem, heap);
}

swgpu_result
swgpu_heap_budget(const swgpu_device *dev, swgpu_heap heap, uint64_t *usage,
                  uint64_t *budget)
{
	if (remote_is(dev))
		return rc_heap_budget(dev, heap, usage, budget);
	struct swgpu_mem *mem;

	if (usage)
		*usage = 0;
	if (budget)
		*budget = 0;
	if (!dev || (unsigned)heap >= SWGPU_HEAP_COUNT)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL device or bad heap %d", (int)heap);
	mem = (struct swgpu_mem *)&dev->mem; /* mutable mutex, see above */
	/* In swgpud, for the session's client: its usage and what the
	 * whole machine leaves it (mem_owner.h). In process every BO is
	 * the process's: the heap's figures, as always. */
	if (kmd_owner_pid()) {
		mem_owner_budget(mem, heap, usage, budget);
		return SWGPU_OK;
	}
	pthread_mutex_lock(&mem->lock);
	if (usage)
		*usage = mem->heap_used[heap];
	if (budget)
		*budget = mem->heap_budget[heap];
	pthread_mutex_unlock(&mem->lock);
	return SWGPU_OK;
}

uint64_t
swgpu_bar_usage(const swgpu_device *dev)
{
	uint64_t used = 0;

	if (remote_is(dev))
		return rc_bar_usage(dev);
	if (dev && kmd_owner_pid())
		mem_owner_bar_budget((struct swgpu_mem *)&dev->mem, &used, NULL);
	else if (dev)
		used = mem_bar_usage((struct swgpu_mem *)&dev->mem);
	return used;
}

swgpu_result
swgpu_bar_budget(const swgpu_device *dev, uint64_t *usage, uint64_t *budget)
{
	struct swgpu_mem *mem;

	if (remote_is(dev))
		return rc_bar_budget(dev, usage, budget);
	if (usage)
		*usage = 0;
	if (budget)
		*budget = 0;
	if (!dev)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL device");
	mem = (struct swgpu_mem *)&dev->mem; /* mutable mutex, see above */
	/* In swgpud, the session's client: its BAR bytes and what the
	 * whole machine leaves free of the window (mem_owner.h). In
	 * process every BAR BO is the process's. */
	if (kmd_owner_pid()) {
		mem_owner_bar_budget(mem, usage, budget);
		return SWGPU_OK;
	}
	pthread_mutex_lock(&mem->lock);
	if (usage)
		*usage = mem->bar_used;
	if (budget)
		*budget = mem->bar_used +
		          (mem->bar_used < mem->bar_size
		           ? mem->bar_size - mem->bar_used : 0);
	pthread_mutex_unlock(&mem->lock);
	return SWGPU_OK;
}

/* ------------------------------------------------------------------ */
/* Offer and reclaim                                                   */
/* ------------------------------------------------------------------ */

swgpu_result
mem_bo_offer(struct swgpu_bo *bo, swgpu_offer_priority prio)
{
	struct swgpu_mem *mem;

	if (!bo)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL BO");
	mem = bo->mem;
	if ((unsigned)prio >= SWGPU_OFFER_PRIORITY_COUNT)
		return SWGPU_ERR(mem->debug, SWGPU_ERR_INVALID_ARG,
		                 "bad offer priority %d", (int)prio);
	pthread_mutex_lock(&mem->lock);
	if (bo->offered || bo->imported) {
		pthread_mutex_unlock(&mem->lock);
		return SWGPU_ERR(mem->debug, SWGPU_ERR_INVALID_ARG,
		                 bo->imported ? "imported memory cannot be "
		                 "offered" : "BO is already offered");
	}
	if (atomic_load_explicit(&bo->map_count, memory_order_relaxed)) {
		pthread_mutex_unlock(&mem->lock);
		return SWGPU_ERR(mem->debug, SWGPU_ERR_DEVICE_BUSY,
		                 "offering a host-mapped BO");
	}
	bo->offered = true;
	bo->discarded = false;
	bo->offer_priority = prio;
	bo->offer_seq = ++mem->offer_seq;
	bo->offer_next = NULL;
	bo->offer_prev = mem->offer_tail;
	if (mem->offer_tail)
		mem->offer_tail->offer_next = bo;
	else
		mem->offer_head = bo;
	mem->offer_tail = bo;
	pthread_mutex_unlock(&mem->lock);
	return SWGPU_OK;
}

swgpu_result
mem_bo_reclaim(struct swgpu_bo *bo)
{
	struct swgpu_mem *mem;

	if (!bo)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL BO");
	mem = bo->mem;
	bool vram = bo->heap == SWGPU_HEAP_VRAM;
	if (vram)
		pthread_mutex_lock(&mem->res_lock);
	pthread_mutex_lock(&mem->lock);
	if (!bo->offered) {
		pthread_mutex_unlock(&mem->lock);
		if (vram)
			pthread_mutex_unlock(&mem->res_lock);
		return SWGPU_ERR(mem->debug, SWGPU_ERR_INVALID_ARG,
		                 "reclaiming a BO that is not offered");
	}
	if (!bo->discarded) {
		offer_unlink(mem, bo);
		bo->offered = false;
		pthread_mutex_unlock(&mem->lock);
		if (vram)
			pthread_mutex_unlock(&mem->res_lock);
		return SWGPU_OK;
	}
	/* The pages are gone: the BO needs its budget back first. A VRAM
	 * BO may evict others, or come back in SYSTEM (its pages are zero,
	 * so only the accounting moves). */
	swgpu_heap loc = bo->heap;
	if (vram) {
		pthread_mutex_unlock(&mem->lock);
		loc = residency_reserve(mem, bo->owner, bo->flags,
		                        bo->size);
		pthread_mutex_lock(&mem->lock);
	} else if (mem_make_room_locked(mem, loc, bo->flags, bo->size)) {
		mem_account_add_locked(mem, bo->owner, loc, bo->flags,
		                       bo->size);
	} else {
		loc = SWGPU_HEAP_COUNT;
	}
	if (loc == SWGPU_HEAP_COUNT) {
		pthread_mutex_unlock(&mem->lock);
		if (vram)
			pthread_mutex_unlock(&mem->res_lock);
		return SWGPU_ERR(mem->debug, SWGPU_ERR_NO_DEVICE_MEMORY,
		                 "no room to reclaim a discarded %llu-byte BO",
		                 (unsigned long long)bo->size);
	}
	bo->discarded = false;
	bo->offered = false;
	pthread_mutex_unlock(&mem->lock);
	if (vram) {
		residency_set_loc(bo, loc);
		pthread_mutex_unlock(&mem->res_lock);
	}
	return SWGPU_DISCARDED;
}

uint64_t
mem_trim(struct swgpu_mem *mem)
{
	uint64_t bytes = 0;

	if (!mem)
		return 0;
	pthread_mutex_lock(&mem->lock);
	for (struct swgpu_bo *b = mem->offer_head, *next; b; b = next) {
		next = b->offer_next;
		if (b->moving)
			continue; /* an eviction is copying it */
		bytes += b->size;
		mem_discard_locked(mem, b);
	}
	pthread_mutex_unlock(&mem->lock);
	return bytes;
}

swgpu_result
swgpu_bo_offer(swgpu_bo *bo, swgpu_offer_priority priority)
{
	if (remote_is(bo))
		return rc_bo_offer(bo, priority);
	return mem_bo_offer(bo, priority);
}

swgpu_result
swgpu_bo_reclaim(swgpu_bo *bo)
{
	if (remote_is(bo))
		return rc_bo_reclaim(bo);
	return mem_bo_reclaim(bo);
}

uint64_t
swgpu_debug_trim(swgpu_device *dev)
{
	if (remote_is(dev))
		return rc_debug_trim(dev);
	return dev ? mem_trim(&dev->mem) : 0;
}
