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
 * Who serves the ring (docs/ARCHITECTURE.md, "Who serves the ring"):
 * the GPU's engines, at their idle point, or the session's thread. The
 * GPU's read-only page (struct fast_gpu_page, one per daemon GPU) says
 * what each engine does; after writing a record the client looks at
 * the engine its queue last ran on: asleep, it bumps that engine's bell
 * word in this page and wakes it (a futex the engine sleeps on, with
 * futex_waitv, beside its own doorbell); idle, it bumps the bell only
 * (the engine looks at every ring before it sleeps); busy in a job, it
 * rings the session thread as before (a long job would hold the
 * record up).
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

#include <swgpu/swgpu.h>

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
	FAST_REC_RESET = 4,          /* struct fast_reset */
};

/* A host signal of a timeline (swgpu_syncobj_signal) of this client. */
struct fast_signal {
	uint64_t sync_id;            /* the session's id of the object */
	uint64_t value;
};

/* A reset of a binary sync object (swgpu_syncobj_reset) of this
 * client. */
struct fast_reset {
	uint64_t sync_id;            /* the session's id of the object */
};

/* What an engine of the daemon's GPU does (fast_gpu_page). */
enum fast_engine_state {
	FAST_ENGINE_BUSY = 0,        /* in a job: ring the session thread */
	FAST_ENGINE_IDLE = 1,        /* looks at every ring before sleeping */
	FAST_ENGINE_ASLEEP = 2,      /* on its bells: bump and wake one */
};

/* One per daemon GPU, written by the daemon alone (clients map it read
 * only: a sealed memfd), the third descriptor of HELLO's reply. */
struct fast_gpu_page {
	uint32_t magic;
	uint32_t engine_count;
	_Atomic uint32_t engine_state[SWGPU_MAX_ENGINES];
};

#define FAST_GPU_MAGIC 0x47465753u /* "SWFG" */

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
	/* 1: the engines sleep on this page's bells too (the daemon's
	 * word; else the client only rings the session thread). */
	_Atomic uint32_t bells_on;
	/* The client's threads polling this page for a change now (its
	 * waiters' spin): the daemon's CPU-contention test does not count
	 * them as load (util/spin.h, spin_peer_add; read clamped). */
	_Atomic uint32_t spinning;
	/* Per engine: bumped by the client after a record, the futex that
	 * engine sleeps on (fast_gpu_page says when). */
	_Atomic uint32_t bell[SWGPU_MAX_ENGINES];
	struct mirror_slot contexts[FAST_CTX_SLOTS];
	struct mirror_slot queues[FAST_QUEUE_SLOTS];
	struct mirror_slot syncs[FAST_SYNC_SLOTS];
	_Alignas(64) uint8_t ring[FAST_RING_BYTES];
};

#define FAST_ALIGN(n) (((n) + 7u) & ~(uint64_t)7u)

#endif
