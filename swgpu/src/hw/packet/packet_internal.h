/* SPDX-License-Identifier: MIT */
/*
 * What a packet handler needs (internal): the packet's position for fault
 * records, the fault helpers and the opcode table entry. Handlers of
 * packet families live in their own files (packet_image.c,
 * packet_dispatch.c, ...) and are listed in packet_exec.c's op_table.
 */
#ifndef SWGPU_PACKET_INTERNAL_H
#define SWGPU_PACKET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/packet/packet_exec.h"
#include "util/util.h"

/* Where the packet being executed sits, for fault records. */
struct pkt {
	uint32_t opcode;
	uint64_t stream_va;     /* 0: ring / kernel stream */
	uint32_t offset;        /* bytes from the stream start */
};

/* A handler runs after the decoder checked the length (exact or minimum
 * per op_table) and the flags; it validates everything else before it
 * touches memory, so a faulting packet has no partial effect. */
typedef bool (*exec_fn)(struct exec_env *env, const uint32_t *pk,
                        uint32_t len, const struct pkt *p, uint32_t depth);

/* Record the fault (first one wins: we stop at once) and return false. */
bool raise_fault(struct exec_env *env, const struct pkt *p,
                 swgpu_fault_kind kind, uint64_t address,
                 const char *fmt, ...) SWGPU_PRINTF(5, 6);

/* Translation of [va, va + size) for access failed: record a page fault
 * saying why. Caller holds the vaspace read lock. Returns false. */
bool page_fault(struct exec_env *env, const struct pkt *p, uint64_t va,
                uint64_t size, uint32_t access);

/* Relaxed counter update for env->stats. */
static inline void
stat_add(uint64_t *counter, uint64_t v)
{
	__atomic_fetch_add(counter, v, __ATOMIC_RELAXED);
}

#endif
