/* SPDX-License-Identifier: MIT */
/* Heaps and buffer objects (internal). */
#ifndef SWGPU_MEM_H
#define SWGPU_MEM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "kmd/mem_owner.h"

/* BO granularity: sizes are rounded up to it, backing is aligned to it. */
#define SWGPU_PAGE_SIZE 4096u

/* Heap accounting. Protected by lock; usage changes only on BO
 * create/free, offer discards and reclaims, evictions and promotions,
 * never on the submit path. A BO counts in the heap it lives in now
 * (bo->loc): a demoted VRAM BO counts in SYSTEM. The BAR window is part of
 * VRAM: a BAR BO living in VRAM counts in heap_used[VRAM] and in
 * bar_used. A discarded offered BO counts nowhere until reclaimed.
 *
 * Lock order: res_lock, then a VA space's lock, then lock. res_lock
 * serializes everything that moves a BO or decides whether it may move
 * (residency.c): VRAM allocations and reclaims, evictions, promotions,
 * job pins, VA (un)mappings of VRAM BOs and host maps of BAR BOs. */
struct swgpu_mem {
	pthread_mutex_t res_lock;
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
	uint64_t discard_bytes;
	uint64_t offer_seq;      /* offer order, for oldest-first discards */
	/* Residency (residency.c), under res_lock except where noted. */
	uint64_t use_clock;      /* LRU stamps: bumped at every job start */
	uint64_t evictions, evicted_bytes;       /* under lock */
	uint64_t promotions, promoted_bytes;     /* under lock */
	uint64_t system_placements;              /* under lock */
	uint64_t demoted_bytes;  /* VRAM BOs living in SYSTEM; under lock */
	/* Per-process usage (mem_owner.h), under lock. */
	struct mem_owner *owners;
};

/* A VA space that maps a VRAM BO (count: how many of its mappings). */
struct bo_vs_ref {
	struct swgpu_vaspace *vs;
	uint32_t count;
};

struct swgpu_bo {
	uint32_t remote_tag;          /* 0: in process (remote/remote.h) */
	struct swgpu_device *dev; /* NULL for BOs made by bo_create_in() */
	struct swgpu_mem *mem;    /* heap the BO is accounted in */
	/* The process it is accounted to (mem_owner.h); NULL for imported
	 * host memory, which is not accounted. Set at creation. */
	struct mem_owner *owner;
	/* One reference for the creator, one per VA mapping: memory is freed
	 * when the last goes, so an engine never sees freed memory. */
	atomic_uint refcount;
	uint64_t size;          /* rounded to page_size */
	swgpu_heap heap;        /* the heap it was created for */
	/* Where it lives now: heap, or SYSTEM for a demoted VRAM BO.
	 * Changes under res_lock and lock. */
	swgpu_heap loc;
	uint32_t flags;         /* SWGPU_BO_* */
	/* Backing store (page aligned, zero-filled). Replaced only by an
	 * eviction or promotion, under res_lock, the write lock of every VA
	 * space mapping the BO, and lock. */
	uint8_t *cpu;
	bool cpu_mmapped;       /* cpu came from mmap (else aligned_alloc) */
	atomic_uint map_count;
	/* Host memory the creator owns (swgpu_bo_import_host): not
	 * allocated, accounted, offered, moved or freed by swgpu. */
	bool imported;
	/* Backing is a MAP_SHARED mapping of the sealed memfd share_fd
	 * (mem_share.c): exportable, never moved or offered, since other
	 * devices or processes map the same pages. share_fd is valid only
	 * when shared; it is closed and the mapping unmapped on free. */
	bool shared;
	int share_fd;
	/* Mappings unmapped while a running packet still used them
	 * (vaspace.c): the BO must not move until they are released. */
	atomic_uint gpu_busy;
	struct swgpu_bo *prev, *next; /* mem->bo_list, under mem->lock */
	/* Offer state, under mem->lock. On the offer list while offered
	 * and not discarded. */
	bool offered;
	bool discarded;         /* pages released, not in heap_used */
	swgpu_offer_priority offer_priority;
	uint64_t offer_seq;
	struct swgpu_bo *offer_prev, *offer_next;
	/* Residency (VRAM BOs), under res_lock. */
	bool moving;            /* being evicted/promoted; also under lock */
	uint32_t priority;      /* SWGPU_BO_PRIORITY_*: evicted lowest first */
	uint64_t last_use;      /* mem->use_clock at creation / host map */
	struct bo_vs_ref *vs_refs; /* VA spaces mapping it */
	uint32_t vs_ref_count, vs_ref_cap;
};

/* Put a new BO on mem->bo_list (under mem->lock). */
void mem_list_add_locked(struct swgpu_mem *mem, struct swgpu_bo *bo);
/* Fill in and list a BO whose backing (cpu, size bytes) is not the
 * heap's: host memory or an imported fd (mem_import.c). */
void mem_publish_imported(swgpu_device *dev, struct swgpu_bo *bo, void *cpu,
                          uint64_t size, swgpu_heap heap, uint32_t flags);

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

/* Helpers shared with residency.c; mem->lock held. */
uint64_t mem_shortfall(uint64_t limit, uint64_t used, uint64_t size);
void mem_discard_locked(struct swgpu_mem *mem, struct swgpu_bo *bo);
/* Discard offered BOs of heap until size bytes (flags: SWGPU_BO_BAR)
 * fit, only if discarding them all would be enough. */
bool mem_make_room_locked(struct swgpu_mem *mem, swgpu_heap heap,
                          uint32_t flags, uint64_t size);
/* Count size bytes of a BO with flags in heap loc (+) or release them,
 * globally and for the BO's owner (NULL: globally only). */
void mem_account_add_locked(struct swgpu_mem *mem, struct mem_owner *owner,
                            swgpu_heap loc, uint32_t flags, uint64_t size);
void mem_account_sub_locked(struct swgpu_mem *mem, struct mem_owner *owner,
                            swgpu_heap loc, uint32_t flags, uint64_t size);
/* Page-aligned zero-filled host memory for a BO of size bytes (mmap from
 * 64 KiB on); *mmapped tells how to free it. NULL on failure. */
uint8_t *mem_backing_alloc(uint64_t size, uint32_t page_size, bool *mmapped);
void mem_backing_free(uint8_t *cpu, uint64_t size, bool mmapped);
/* Zero-filled backing of size bytes for a SWGPU_BO_SHAREABLE BO: a new
 * sealed memfd (*fd) mapped shared. NULL on failure (errno set). */
uint8_t *mem_backing_alloc_shared(uint64_t size, int *fd);
/* bo_ref() unless the BO is already dying (refcount 0). */
bool bo_ref_live(struct swgpu_bo *bo);

#endif
