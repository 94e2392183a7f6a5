/* SPDX-License-Identifier: MIT */
/*
 * Who owns a BO: per-process memory accounting inside the kmd.
 *
 * Every BO records its owner at creation: the process the calling thread
 * works for (kmd/owner.h). In process that is the process itself; in
 * swgpud each client process is one owner of the shared GPU. An owner keeps usage per heap (and of
 * the BAR window) next to the heap's global usage, moved by exactly the
 * same accounting calls (mem_account_add_locked / _sub_locked): creation
 * and its reservation, deferred frees of BOs jobs still hold (the bytes
 * count for their owner until the last reference goes), offers and
 * discards, evictions, promotions. So the sum over owners is always the
 * heap's usage.
 *
 * An owner lives in its mem's list (under mem->lock) while it owns a BO,
 * discarded ones included; the last BO's free removes it.
 */
#ifndef SWGPU_KMD_MEM_OWNER_H
#define SWGPU_KMD_MEM_OWNER_H

#include <stdint.h>

#include <swgpu/swgpu.h>

#include "kmd/owner.h"

struct swgpu_mem;


struct mem_owner {
	int32_t pid;
	char program[KMD_OWNER_PROGRAM];
	uint32_t bos;                          /* BOs it owns */
	uint64_t used[SWGPU_HEAP_COUNT];       /* as mem->heap_used */
	uint64_t bar_used;                     /* as mem->bar_used */
	struct mem_owner *next;
};

/* The calling thread's owner in mem, created if new, with one more BO
 * counted; NULL when out of host memory. mem->lock held. */
struct mem_owner *mem_owner_get_locked(struct swgpu_mem *mem);
/* One BO of owner less (NULL is fine); frees it after its last.
 * mem->lock held. */
void mem_owner_put_locked(struct swgpu_mem *mem, struct mem_owner *owner);
/* Free every owner (mem_fini). */
void mem_owner_fini(struct swgpu_mem *mem);

/* Heap usage and budget for the calling thread's owner (what
 * swgpu_heap_budget reports in swgpud): its usage, and its usage plus
 * what is free of the heap's budget (the heap's free bytes are
 * everyone's, first come first served). */
void mem_owner_budget(struct swgpu_mem *mem, swgpu_heap heap,
                      uint64_t *usage, uint64_t *budget);
/* The same for the BAR window (swgpu_bar_budget): the owner's BAR bytes,
 * and those plus what every owner leaves free of the window. */
void mem_owner_bar_budget(struct swgpu_mem *mem, uint64_t *usage,
                          uint64_t *budget);

/* A copy of up to max owners (for the status page), largest VRAM user
 * first; returns how many owners there are. */
uint32_t mem_owner_snapshot(struct swgpu_mem *mem, struct mem_owner *out,
                            uint32_t max);

#endif
