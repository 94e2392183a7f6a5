/* SPDX-License-Identifier: MIT */
/*
 * swgpu_packet.h — the command packet format of the swgpu engines.
 *
 * Packets are streams of 32-bit little-endian dwords in GPU memory. Every
 * packet starts with a header dword:
 *
 *   bits  0..7   opcode (SWGPU_OP_*)
 *   bits  8..15  flags, opcode specific
 *   bits 16..31  packet length in dwords, header included (>= 1)
 *
 * 64-bit values are two dwords, low dword first. Addresses are GPU VAs in
 * the submitting context's address space. A packet whose length does not
 * match its opcode, an unknown opcode, or a packet running past the end of
 * its indirect buffer is malformed (SWGPU_FAULT_BAD_PACKET); an access to a
 * VA that is unmapped or lacks the needed permission is a page fault. Both
 * end the job in ERROR and mark its context guilty.
 *
 * Packet layouts (dword index: meaning):
 *
 *   NOP            0: header, 1..len-1: ignored. Any length >= 1.
 *   INDIRECT_BUFFER
 *                  1-2: va, 3: size_dw. Executes the IB, then continues
 *                  after this packet (a call). Nesting is limited to
 *                  swgpu_device_info.max_ib_depth, counting a submitted
 *                  IB as level 1: a job may nest max_ib_depth - 1
 *                  INDIRECT_BUFFER packets deep.
 *   COPY           1-2: dst va, 3-4: src va, 5-6: size in bytes. Any size
 *                  and byte alignment. Overlapping ranges: memmove.
 *   FILL           1-2: dst va, 3-4: size in bytes, 5: 32-bit pattern.
 *                  dst and size must be multiples of 4.
 *   WRITE_DATA     1-2: dst va, 3..len-1: dwords to write (dst 4-aligned).
 *   SEM_WAIT       1-2: va (8-aligned), 3-4: value. Stalls the engine until
 *                  the 64-bit word at va is >= value (unsigned). A wait
 *                  that is not satisfied within the hang timeout is a hang.
 *   SEM_SIGNAL     1-2: va (8-aligned), 3-4: value. Writes the 64-bit value
 *                  once every earlier packet of the job completed.
 *                  Flag SWGPU_SIGNAL_WRITE_MAX: write max(old, value).
 *   TIMESTAMP      1-2: va (8-aligned). Writes swgpu_now_ns() as 64 bits
 *                  once every earlier packet completed.
 */
#ifndef SWGPU_PACKET_H
#define SWGPU_PACKET_H

#include <stdint.h>

enum swgpu_opcode {
	SWGPU_OP_NOP = 0x00,
	SWGPU_OP_INDIRECT_BUFFER = 0x01,
	SWGPU_OP_COPY = 0x02,
	SWGPU_OP_FILL = 0x03,
	SWGPU_OP_WRITE_DATA = 0x04,
	SWGPU_OP_SEM_WAIT = 0x05,
	SWGPU_OP_SEM_SIGNAL = 0x06,
	SWGPU_OP_TIMESTAMP = 0x07,
	/* 0x10..0x1f: image packets (see "Image packets" below).
	 * 0x20..0x2f: compute packets (see "Compute packets" below). */
	SWGPU_OP_COUNT = 0x30   /* size of the decoder's opcode table */
};

#define SWGPU_SIGNAL_WRITE_MAX (1u << 0)

/* Packet lengths in dwords, header included. */
#define SWGPU_LEN_INDIRECT_BUFFER 4u
#define SWGPU_LEN_COPY 7u
#define SWGPU_LEN_FILL 6u
#define SWGPU_LEN_WRITE_DATA(ndw) (3u + (ndw))
#define SWGPU_LEN_SEM_WAIT 5u
#define SWGPU_LEN_SEM_SIGNAL 5u
#define SWGPU_LEN_TIMESTAMP 3u
#define SWGPU_MAX_PACKET_DW 0xffffu

static inline uint32_t
swgpu_pkt_header(uint32_t opcode, uint32_t flags, uint32_t len_dw)
{
	return (opcode & 0xffu) | ((flags & 0xffu) << 8) | (len_dw << 16);
}

static inline uint32_t swgpu_pkt_opcode(uint32_t h) { return h & 0xffu; }
static inline uint32_t swgpu_pkt_flags(uint32_t h) { return (h >> 8) & 0xffu; }
static inline uint32_t swgpu_pkt_len(uint32_t h) { return h >> 16; }

static inline void
swgpu_pkt_put64(uint32_t *p, uint64_t v)
{
	p[0] = (uint32_t)v;
	p[1] = (uint32_t)(v >> 32);
}

static inline uint64_t
swgpu_pkt_get64(const uint32_t *p)
{
	return (uint64_t)p[0] | ((uint64_t)p[1] << 32);
}

/* Emit helpers: write one packet at p, return its length in dwords. */

static inline uint32_t
swgpu_emit_nop(uint32_t *p, uint32_t len_dw)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_NOP, 0, len_dw);
	for (uint32_t i = 1; i < len_dw; i++)
		p[i] = 0;
	return len_dw;
}

static inline uint32_t
swgpu_emit_indirect(uint32_t *p, uint64_t va, uint32_t size_dw)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_INDIRECT_BUFFER, 0,
	                        SWGPU_LEN_INDIRECT_BUFFER);
	swgpu_pkt_put64(p + 1, va);
	p[3] = size_dw;
	return SWGPU_LEN_INDIRECT_BUFFER;
}

static inline uint32_t
swgpu_emit_copy(uint32_t *p, uint64_t dst, uint64_t src, uint64_t size)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_COPY, 0, SWGPU_LEN_COPY);
	swgpu_pkt_put64(p + 1, dst);
	swgpu_pkt_put64(p + 3, src);
	swgpu_pkt_put64(p + 5, size);
	return SWGPU_LEN_COPY;
}

static inline uint32_t
swgpu_emit_fill(uint32_t *p, uint64_t dst, uint64_t size, uint32_t pattern)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_FILL, 0, SWGPU_LEN_FILL);
	swgpu_pkt_put64(p + 1, dst);
	swgpu_pkt_put64(p + 3, size);
	p[5] = pattern;
	return SWGPU_LEN_FILL;
}

/* Writes the header and address; the caller stores ndw data dwords at
 * p + 3. */
static inline uint32_t
swgpu_emit_write_data_header(uint32_t *p, uint64_t dst, uint32_t ndw)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_WRITE_DATA, 0,
	                        SWGPU_LEN_WRITE_DATA(ndw));
	swgpu_pkt_put64(p + 1, dst);
	return SWGPU_LEN_WRITE_DATA(ndw);
}

static inline uint32_t
swgpu_emit_sem_wait(uint32_t *p, uint64_t va, uint64_t value)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_SEM_WAIT, 0, SWGPU_LEN_SEM_WAIT);
	swgpu_pkt_put64(p + 1, va);
	swgpu_pkt_put64(p + 3, value);
	return SWGPU_LEN_SEM_WAIT;
}

static inline uint32_t
swgpu_emit_sem_signal(uint32_t *p, uint64_t va, uint64_t value,
                      uint32_t flags)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_SEM_SIGNAL, flags,
	                        SWGPU_LEN_SEM_SIGNAL);
	swgpu_pkt_put64(p + 1, va);
	swgpu_pkt_put64(p + 3, value);
	return SWGPU_LEN_SEM_SIGNAL;
}

static inline uint32_t
swgpu_emit_timestamp(uint32_t *p, uint64_t va)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_TIMESTAMP, 0, SWGPU_LEN_TIMESTAMP);
	swgpu_pkt_put64(p + 1, va);
	return SWGPU_LEN_TIMESTAMP;
}

/* ------------------------------------------------------------------ */
/* Image packets (opcodes 0x10..0x1f)                                  */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Compute packets (opcodes 0x20..0x2f)                                */
/* ------------------------------------------------------------------ */

#endif /* SWGPU_PACKET_H */
