/* SPDX-License-Identifier: MIT */
/* Engine ring buffer: see ring.h for the full/empty rule and ordering. */
#include "hw/ring.h"

#include <stdlib.h>
#include <string.h>

int
ring_init(struct swgpu_ring *ring, uint32_t size_bytes)
{
	ring->size_dw = size_bytes / 4u;
	ring->mask = ring->size_dw - 1u;
	ring->dw = calloc(ring->size_dw, sizeof(uint32_t));
	atomic_init(&ring->wptr, 0);
	atomic_init(&ring->rptr, 0);
	return ring->dw ? 0 : -1;
}

void
ring_fini(struct swgpu_ring *ring)
{
	free(ring->dw);
	ring->dw = NULL;
}

uint32_t
ring_space(struct swgpu_ring *ring)
{
	/* wptr only moves under the producer's lock: relaxed is enough.
	 * rptr acquire: the engine finished reading what it hands back. */
	uint64_t w = atomic_load_explicit(&ring->wptr, memory_order_relaxed);
	uint64_t r = atomic_load_explicit(&ring->rptr, memory_order_acquire);
	return ring->size_dw - (uint32_t)(w - r);
}

void
ring_put(struct swgpu_ring *ring, uint64_t *pos, const uint32_t *src,
         uint32_t ndw)
{
	for (uint32_t i = 0; i < ndw; i++)
		ring->dw[(*pos + i) & ring->mask] = src[i];
	*pos += ndw;
}

void
ring_publish(struct swgpu_ring *ring, uint64_t pos)
{
	/* Release: the packets are visible before the engine sees wptr. */
	atomic_store_explicit(&ring->wptr, pos, memory_order_release);
}

void
ring_read(const struct swgpu_ring *ring, uint64_t pos, uint32_t *out,
          uint32_t ndw)
{
	for (uint32_t i = 0; i < ndw; i++)
		out[i] = ring->dw[(pos + i) & ring->mask];
}

const char *
ring_op_name(uint32_t opcode)
{
	static const char *const names[SWGPU_OP_COUNT] = {
		[SWGPU_OP_NOP] = "NOP",
		[SWGPU_OP_INDIRECT_BUFFER] = "INDIRECT_BUFFER",
		[SWGPU_OP_COPY] = "COPY",
		[SWGPU_OP_FILL] = "FILL",
		[SWGPU_OP_WRITE_DATA] = "WRITE_DATA",
		[SWGPU_OP_SEM_WAIT] = "SEM_WAIT",
		[SWGPU_OP_SEM_SIGNAL] = "SEM_SIGNAL",
		[SWGPU_OP_TIMESTAMP] = "TIMESTAMP",
	};
	if (opcode < SWGPU_OP_COUNT && names[opcode])
		return names[opcode];
	if (opcode == RING_OP_JOB_BEGIN)
		return "JOB_BEGIN";
	if (opcode == RING_OP_JOB_IBS)
		return "JOB_IBS";
	return "UNKNOWN";
}
