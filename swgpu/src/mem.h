/* SPDX-License-Identifier: MIT */
/* Heaps and buffer objects (internal). */
#ifndef SWGPU_MEM_H
#define SWGPU_MEM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

/* BO granularity: sizes are rounded up to it, backing is aligned to it. */
#define SWGPU_PAGE_SIZE 4096u

/* Heap accounting. Protected by lock; usage changes only on BO
 * create/free, offer discards and reclaims, never on the submit path. The
 * BAR window is part of VRAM: a BAR BO counts in heap_used[VRAM] and in
 * bar_used. A discarded offered BO counts nowhere until reclaimed. */
struct swgpu_mem {
	pthread_mutex_t lock;
	uint64_t heap_size[SWGPU_HEAP_COUNT];
	uint64_t heap_budget[SWGPU_HEAP_COUNT]; /* <= heap_size */
	uint64_t heap_used[SWGPU_HEAP_COUNT];   /* <= heap_budget */
	uint64_t bar_size;
	uint64_t bar_used;
	uint32_t page_size;
	bool debug;             /* cfg->debug: log errors with origin */
	/* Every live BO, so mem_fini() can free what the owner leaked. */
	struct swgpu_bo *bo_list;
	uint32_t bo_count;
	/* Offered BOs whose pages are still there, oldest offer first: the
	 * discard candidates. */
	struct swgpu_bo *offer_head, *offer_tail;
	uint64_t discard_count;  /* BOs discarded so far (statistics) */
};

struct swgpu_bo {
	struct swgpu_device *dev; /* NULL for BOs made by bo_create_in() */
	struct swgpu_mem *mem;    /* heap the BO is accounted in */
	/* One reference for the creator, one per VA mapping: memory is freed
	 * when the last goes, so an engine never sees freed memory. */
	atomic_uint refcount;
	uint64_t size;          /* rounded to page_size */
	swgpu_heap heap;
	uint32_t flags;         /* SWGPU_BO_* */
	uint8_t *cpu;           /* backing store (page aligned, zero-filled) */
	bool cpu_mmapped;       /* cpu came from mmap (else aligned_alloc) */
	atomic_uint map_count;
	struct swgpu_bo *prev, *next; /* mem->bo_list, under mem->lock */
	/* Offer state, under mem->lock. On the offer list while offered
	 * and not discarded. */
	bool offered;
	bool discarded;         /* pages released, not in heap_used */
	swgpu_offer_priority offer_priority;
	struct swgpu_bo *offer_prev, *offer_next;
};

/* Sizes from cfg (heap sizes, BAR window); cfg NULL: config defaults. */
void mem_init(struct swgpu_mem *mem, const swgpu_config *cfg);
/* Frees every BO still alive, whatever its refcount: call it only once
 * no context (VA mapping) and no engine can reach a BO any more. */
void mem_fini(struct swgpu_mem *mem);

/* The body of swgpu_bo_create(), usable without a device (unit tests):
 * dev is stored in the BO and may be NULL. Same errors. */
swgpu_result bo_create_in(struct swgpu_mem *mem, struct swgpu_device *dev,
                          uint64_t size, swgpu_heap heap, uint32_t flags,
                          struct swgpu_bo **out);

void bo_ref(struct swgpu_bo *bo);
void bo_unref(struct swgpu_bo *bo);

/* Heap usage of mem (what swgpu_heap_usage() reports), and BAR usage. */
uint64_t mem_heap_usage(struct swgpu_mem *mem, swgpu_heap heap);
uint64_t mem_bar_usage(struct swgpu_mem *mem);

/* Offer/reclaim on a BO of any mem (the bodies of swgpu_bo_offer/reclaim,
 * usable without a device). */
swgpu_result mem_bo_offer(struct swgpu_bo *bo, swgpu_offer_priority prio);
swgpu_result mem_bo_reclaim(struct swgpu_bo *bo);
/* Discard every offered BO; returns the heap bytes released. */
uint64_t mem_trim(struct swgpu_mem *mem);

#endif
