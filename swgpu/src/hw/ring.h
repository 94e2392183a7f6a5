/* SPDX-License-Identifier: MIT */
/*
 * Engine ring buffer (internal).
 *
 * A power-of-two array of dwords holding packets in the swgpu packet
 * format. rptr and wptr are free-running 64-bit dword counters, masked
 * only to index the array, so they never wrap in practice:
 *   empty  when rptr == wptr
 *   full   when wptr - rptr == size_dw
 * The producer (scheduler, under dev->lock) writes packets at wptr and
 * publishes them with a release store of wptr; the engine reads wptr with
 * acquire, executes, and hands space back with a release store of rptr,
 * which the producer reads with acquire before reusing it. Packets may
 * straddle the end of the array (every access is masked).
 *
 * What the scheduler writes for one job (all at once, never split):
 *   SEM_WAIT   kernel fence address of another engine, its seqno
 *              (zero or more: one per other engine the job depends on)
 *   JOB_BEGIN  ring-only opcode, dw1-2: the engine seqno of the job
 *   INDIRECT_BUFFER va, size_dw  (one per IB, in the job's context)
 *     or JOB_IBS (ring-only, len 1: run the job's IB list from kernel
 *     memory, used when a job has more IBs than fit comfortably)
 *   SEM_SIGNAL kernel fence address of this engine, the job's seqno
 * SEM_WAIT / SEM_SIGNAL in a ring address the kernel area (engine fence
 * words), never a context VA space.
 */
#ifndef SWGPU_RING_H
#define SWGPU_RING_H

#include <stdatomic.h>
#include <stdint.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

/* Ring-only opcodes (never valid in an indirect buffer). */
#define RING_OP_JOB_BEGIN 0x80u
#define RING_OP_JOB_IBS 0x81u
#define RING_LEN_JOB_BEGIN 3u
#define RING_LEN_JOB_IBS 1u

/* Kernel address of engine e's fence word of hardware queue h
 * (engine.h); RING_KVA_FENCE(e) is HWQ 0's. */
#define RING_KVA_FENCE_BASE 0x1000ull
#define RING_KVA_HWQ_FENCE(e, h) \
	(RING_KVA_FENCE_BASE + 8ull * ((h) * SWGPU_MAX_ENGINES + (e)))
#define RING_KVA_FENCE(e) RING_KVA_HWQ_FENCE(e, 0)

/* IBs written inline per job; more go through JOB_IBS. */
#define RING_INLINE_IBS 4u

struct swgpu_ring {
	uint32_t *dw;
	uint32_t size_dw;           /* power of two */
	uint32_t mask;
	_Atomic uint64_t wptr;
	_Atomic uint64_t rptr;
};

int ring_init(struct swgpu_ring *ring, uint32_t size_bytes);
void ring_fini(struct swgpu_ring *ring);

/* Free dwords as seen by the producer. */
uint32_t ring_space(struct swgpu_ring *ring);

/* Producer: copy ndw dwords at the private write position *pos (starts
 * at the published wptr). Caller checked ring_space. */
void ring_put(struct swgpu_ring *ring, uint64_t *pos, const uint32_t *src,
              uint32_t ndw);
/* Producer: publish everything written up to pos. */
void ring_publish(struct swgpu_ring *ring, uint64_t pos);

static inline uint32_t
ring_dw(const struct swgpu_ring *ring, uint64_t pos)
{
	return ring->dw[pos & ring->mask];
}

/* Copy a packet (at most max dwords) starting at pos into out. */
void ring_read(const struct swgpu_ring *ring, uint64_t pos, uint32_t *out,
               uint32_t ndw);

/* Name of a ring or IB opcode ("SEM_WAIT", "JOB_BEGIN", ...). */
const char *ring_op_name(uint32_t opcode);

#endif
