/* SPDX-License-Identifier: MIT */
/*
 * Shared mode's fast path (docs/ARCHITECTURE.md, "The fast path"): one
 * page per session, a memfd that swgpud creates at HELLO and both ends
 * map, with
 *   - mirrors (kmd/mirror.h) of the client's contexts, queues and sync
 *     objects: context states, completed seqnos, timeline values, fence
 *     payloads, written by the daemon's kmd at every change, so the
 *     client answers swgpu_context_query_state (while OK),
 *     swgpu_queue_completed, swgpu_syncobj_query and reached waits
 *     itself and sleeps on the page's futex for the others;
 *   - a submit ring: the client writes a QUEUE_SUBMIT request's payload
 *     as a record and rings the doorbell (an eventfd, only while the
 *     daemon sleeps), with no reply: the seqno is the queue's next one.
 *     A host signal of a timeline only this client sees is a record
 *     too (no reply either: the client checked the rewind itself).
 *
 * Order: the daemon drains the ring before every socket request, and a
 * client writes a record before any later request of its own, so records
 * and requests are served in the order the client made them.
 *
 * The client can write anything into the page at any time: the daemon
 * copies a record out before reading it, checks it like a socket request,
 * and only ever reads the ring's tail word, never trusting it beyond the
 * ring's size. A bad record drops the client, as a malformed message
 * does.
 */
#ifndef SWGPU_REMOTE_FAST_PAGE_H
#define SWGPU_REMOTE_FAST_PAGE_H

#include <stdatomic.h>
#include <stdint.h>

#include "kmd/mirror.h"

#define FAST_PAGE_MAGIC   0x50465753u /* "SWFP" */
#define FAST_CTX_SLOTS    64u
#define FAST_QUEUE_SLOTS  256u
#define FAST_SYNC_SLOTS   4096u
#define FAST_RING_BYTES   (256u << 10)
#define FAST_NO_SLOT      UINT32_MAX

/* A ring record: this header, then size bytes of payload, padded to 8. */
struct fast_record {
	uint32_t size;
	uint32_t kind;               /* enum fast_record_kind */
};

enum fast_record_kind {
	FAST_REC_SUBMIT = 1,         /* a PROTO_QUEUE_SUBMIT payload */
	FAST_REC_SKIP = 2,           /* filler to the ring's end */
	FAST_REC_SIGNAL = 3,         /* struct fast_signal */
};

/* A host signal of a timeline (swgpu_syncobj_signal) of this client. */
struct fast_signal {
	uint64_t sync_id;            /* the session's id of the object */
	uint64_t value;
};

struct fast_page {
	uint32_t magic;
	uint32_t ring_bytes;
	struct mirror_events events;
	/* Byte counts since the start (positions mod ring_bytes). */
	_Atomic uint64_t ring_tail;  /* written by the client */
	_Atomic uint64_t ring_head;  /* served by the daemon */
	_Atomic uint32_t daemon_idle;/* 1: asleep, write the doorbell */
	_Atomic uint32_t head_seq;   /* bumped as head moves (futex) */
	_Atomic uint32_t head_waiters;
	uint32_t pad;
	struct mirror_slot contexts[FAST_CTX_SLOTS];
	struct mirror_slot queues[FAST_QUEUE_SLOTS];
	struct mirror_slot syncs[FAST_SYNC_SLOTS];
	_Alignas(64) uint8_t ring[FAST_RING_BYTES];
};

#define FAST_ALIGN(n) (((n) + 7u) & ~(uint64_t)7u)

#endif
