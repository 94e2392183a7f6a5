/* SPDX-License-Identifier: MIT */
/*
 * GPU virtual address space of one context (internal).
 *
 * Mappings are BO ranges placed at swgpu-chosen VAs with an unmapped guard
 * gap after each. A lock guards the mapping array only while a lookup or
 * a change runs, so mapping new memory (a command buffer, an allocation)
 * never waits for packets running on the engines. Packets use translated
 * host pointers inside a read section (vaspace_read_lock/unlock, one
 * packet long); every mapping a section translated into is held by it
 * (a reference on the mapping's record) until the section ends. An unmap
 * removes the mapping and returns at once: the BO is dropped right away
 * when no section holds the mapping, else by the engine whose section
 * ends last. So unmapping never waits for GPU work, and no engine ever
 * touches freed memory. A thread is in one VA space's sections at a
 * time; sections nest (up to 4 deep).
 */
#ifndef SWGPU_VASPACE_H
#define SWGPU_VASPACE_H

#include <stdint.h>

#include <swgpu/swgpu.h>

/* Layout of every context VA space (device info reports these). VA 0 and
 * the low 4 GiB are never mapped, so a NULL or truncated 32-bit pointer
 * faults. */
#define SWGPU_VA_BASE 0x100000000ull        /* 4 GiB */
#define SWGPU_VA_SIZE (1ull << 40)          /* 1 TiB usable */
#define SWGPU_VA_ALIGNMENT (64u * 1024u)    /* every mapping's VA */
#define SWGPU_VA_GUARD (64u * 1024u)        /* unmapped gap after each */

struct swgpu_bo;
struct swgpu_vaspace;

/* The VA space covers [base, base + size); VA 0 is never mapped. base must
 * be non-zero and SWGPU_VA_ALIGNMENT aligned, base + size must not wrap.
 * Mappings are aligned to max(SWGPU_VA_ALIGNMENT, page_size). */
swgpu_result vaspace_create(uint64_t base, uint64_t size, uint32_t page_size,
                            struct swgpu_vaspace **out);
/* Drops every mapping (and its BO reference). NULL is fine. */
void vaspace_destroy(struct swgpu_vaspace *vs);

/* Map [bo_offset, bo_offset + size) of bo (first fit, reusing freed VA).
 * va_flags: non-empty subset of SWGPU_VA_READ | SWGPU_VA_WRITE. Takes a BO
 * reference. Errors: INVALID_ARG, NO_VA_SPACE, NO_HOST_MEMORY. */
swgpu_result vaspace_map(struct swgpu_vaspace *vs, struct swgpu_bo *bo,
                         uint64_t bo_offset, uint64_t size, uint32_t va_flags,
                         uint64_t *va_out);
/* Unmap the mapping starting exactly at va. Never waits for packets: its
 * BO reference is dropped now, or when the last read section that
 * translated into it ends. Errors: NOT_MAPPED. */
swgpu_result vaspace_unmap(struct swgpu_vaspace *vs, uint64_t va);

/* Engines bracket each packet's translations and their use with these
 * (not a lock any more: names kept from when it was one). Nested calls
 * (same vs, same thread) make an inner section whose translations are
 * released when it ends. */
void vaspace_read_lock(struct swgpu_vaspace *vs);
void vaspace_read_unlock(struct swgpu_vaspace *vs);
/* Wait until every read section that began before this call ended (for
 * residency moves, which change a mapped BO's backing). */
void vaspace_synchronize(struct swgpu_vaspace *vs);

/* Translate [va, va + size) for access (SWGPU_VA_READ and/or
 * SWGPU_VA_WRITE). Returns the host pointer of va when the whole range
 * lies inside one mapping with the needed permissions, else NULL. size 0
 * is treated as 1. Caller is in a read section, which holds the mapping
 * (the pointer stays valid) until it ends. The host pointer has the
 * same alignment as va modulo the page size. */
void *vaspace_translate(struct swgpu_vaspace *vs, uint64_t va, uint64_t size,
                        uint32_t access);

/* The host pointer of va and the whole mapping holding it
 * ([*span_va, *span_va + *span_size), with the access), so a caller can
 * translate nearby addresses without a lookup. Caller is in a read
 * section; NULL when va is not mapped with the access. */
void *vaspace_translate_span(struct swgpu_vaspace *vs, uint64_t va,
                             uint32_t access, uint64_t *span_va,
                             uint64_t *span_size);

/* Like vaspace_translate(), and on success also takes a reference on the
 * BO behind the range (*bo_out), so the host pointer stays valid after the
 * read lock is dropped, until bo_unref(*bo_out). Used for indirect
 * buffers, whose packets run without the lock held. */
void *vaspace_translate_ref(struct swgpu_vaspace *vs, uint64_t va,
                            uint64_t size, uint32_t access,
                            struct swgpu_bo **bo_out);

/* Why vaspace_translate() failed for these arguments, for fault messages:
 * "unmapped", "out-of-range" (starts in a mapping, runs past its end or
 * wraps), "read-only", "write-only" (reads of a mapping without READ).
 * *fault_va (may be NULL) receives the first byte of the range that is
 * not accessible (the end of the mapping for "out-of-range", else va).
 * Caller is in a read section. */
const char *vaspace_fault_reason(struct swgpu_vaspace *vs, uint64_t va,
                                 uint64_t size, uint32_t access,
                                 uint64_t *fault_va);

/* Number of mappings (tests, dumps). */
uint32_t vaspace_mapping_count(struct swgpu_vaspace *vs);

/* Residency support (residency.c). The write lock around a BO's backing
 * switch: no translation sees it half made. */
void vaspace_write_lock(struct swgpu_vaspace *vs);
void vaspace_write_unlock(struct swgpu_vaspace *vs);
/* A job of the context starts (stamp: its LRU time) / ends. While pinned,
 * no BO mapped in vs moves. */
void vaspace_pin(struct swgpu_vaspace *vs, uint64_t stamp);
void vaspace_unpin(struct swgpu_vaspace *vs);
uint32_t vaspace_pins(const struct swgpu_vaspace *vs);
uint64_t vaspace_last_use(const struct swgpu_vaspace *vs);
/* Mappings of demoted BOs (kept by residency.c under res_lock). */
void vaspace_demoted_add(struct swgpu_vaspace *vs, int32_t delta);
uint32_t vaspace_demoted(const struct swgpu_vaspace *vs);
/* The demoted BOs mapped in vs, each with a reference (*out: malloc'd,
 * the caller frees it and unrefs each). Caller holds res_lock. Errors:
 * NO_HOST_MEMORY. */
swgpu_result vaspace_collect_demoted(struct swgpu_vaspace *vs,
                                     struct swgpu_bo ***out,
                                     uint32_t *count);

#endif
