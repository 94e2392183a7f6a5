/* SPDX-License-Identifier: MIT */
/*
 * Residency of VRAM BOs (internal): eviction (demotion to SYSTEM) over the
 * VRAM budget, promotion back, and the per-job pins that keep memory still
 * while jobs run. See residency.c for the rules.
 *
 * The functions here run with mem->res_lock held and mem->lock not held
 * (the caller takes res_lock), except residency_job_begin/end.
 */
#ifndef SWGPU_RESIDENCY_H
#define SWGPU_RESIDENCY_H

#include <swgpu/swgpu.h>

#include "kmd/mem.h"

struct swgpu_vaspace;

/* Reserve size bytes (flags: SWGPU_BO_BAR) for a VRAM BO of owner: in
 * VRAM if it fits, after discarding offered VRAM BOs and demoting
 * unpinned ones (of any owner) if that is what it takes; else in SYSTEM.
 * Returns the heap the bytes were counted in (globally and for owner),
 * or SWGPU_HEAP_COUNT when neither has room (then nothing was discarded
 * or demoted). */
swgpu_heap residency_reserve(struct swgpu_mem *mem, struct mem_owner *owner,
                             uint32_t flags, uint64_t size);

/* Record that bo now lives in loc (accounting already moved by the
 * caller; the backing is unchanged: used by reclaims of discarded BOs). */
void residency_set_loc(struct swgpu_bo *bo, swgpu_heap loc);

/* Before a host map of a BAR BO: bring a demoted one back to VRAM if it
 * fits without evicting a pinned BO. It stays in SYSTEM otherwise. */
void residency_prepare_map(struct swgpu_bo *bo);

/* A VA space maps / unmaps a VRAM BO (called under the VA space's write
 * lock too). Errors: NO_HOST_MEMORY. */
swgpu_result residency_track_map(struct swgpu_bo *bo,
                                 struct swgpu_vaspace *vs);
void residency_track_unmap(struct swgpu_bo *bo, struct swgpu_vaspace *vs);

/* An engine starts a job of the context owning vs: pin vs (nothing it
 * maps moves until residency_job_end) and, if no other job of it runs,
 * promote its demoted BOs that fit VRAM. Takes res_lock itself. Returns
 * vs, to hand to residency_job_end(). */
struct swgpu_vaspace *residency_job_begin(struct swgpu_mem *mem,
                                          struct swgpu_vaspace *vs);
/* The job ended (any way): unpin. NULL is fine. Lock-free. */
void residency_job_end(struct swgpu_vaspace *vs);

#endif
