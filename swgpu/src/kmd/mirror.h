/* SPDX-License-Identifier: MIT */
/*
 * Mirrors (internal): the waitable state of a queue or sync object,
 * copied by the kmd at every change into a slot that another address
 * space maps (swgpud's per-client page, remote/fast_page.h), so that a
 * client reads a completed seqno, a timeline value or a fence's payload
 * and waits for it to change without asking the daemon.
 *
 * A slot is written only under dev->lock: aux and flags first, then value
 * with release, so a reader that loads value with acquire sees aux and
 * flags at least as new. Every publish bumps the page's event word and
 * wakes its futex if someone sleeps on it (one word per page: a client
 * waiting for several objects sleeps on one futex).
 *
 * The layout is shared with other processes (it is part of the protocol
 * hash): fixed-size lock-free atomics only.
 */
#ifndef SWGPU_KMD_MIRROR_H
#define SWGPU_KMD_MIRROR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

struct mirror_events {
	_Atomic uint32_t seq;        /* bumped at every publish */
	_Atomic uint32_t waiters;    /* readers asleep on seq */
};

/* Context: value = its swgpu_context_state.
 * Queue: value = completed seqno, aux = last failed seqno, flags
 * MIRROR_LOST once its context is lost.
 * Timeline: value, aux = largest value submitted, MIRROR_ERROR after a
 * failed signaller. Binary: value = enum mirror_binary, MIRROR_ERROR for
 * a payload signalled by a failed job. */
struct mirror_slot {
	_Atomic uint64_t value;
	_Atomic uint64_t aux;
	_Atomic uint32_t flags;
	/* Queue: the engine it ran its last job on (a hint for whom a
	 * client's doorbell wakes, fast_page.h); else 0. */
	_Atomic uint32_t engine;
	uint32_t pad[2];
};

#define MIRROR_LOST  (1u << 0)
#define MIRROR_ERROR (1u << 1)

enum mirror_binary {
	MIRROR_BINARY_NONE = 0,
	MIRROR_BINARY_PENDING = 1,
	MIRROR_BINARY_SIGNALED = 2,
};

_Static_assert(sizeof(struct mirror_slot) == 32, "mirror slot layout");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
               "lock-free atomics in shared memory");

/* Where an object publishes (slot NULL: nowhere). */
struct mirror {
	struct mirror_slot *slot;
	struct mirror_events *events;
};

void mirror_publish(const struct mirror *m, uint64_t value, uint64_t aux,
                    uint32_t flags);

/* The kmd's publishers: after every change of the state above (dev->lock
 * held); nothing when the object has no mirror. */
struct swgpu_queue;
struct swgpu_syncobj;
void queue_mirror_publish(struct swgpu_queue *q);
void syncobj_mirror_publish(struct swgpu_syncobj *obj);

/* For swgpud (in-process devices only). Attaching publishes the current
 * state at once; detach before the slot's memory goes away. A sync
 * object has one mirror: attaching a second one fails (the second
 * holder, another client sharing the object, reads it the slow way). */
bool kmd_syncobj_mirror_attach(swgpu_syncobj *obj, struct mirror_slot *slot,
                               struct mirror_events *events);
void kmd_syncobj_mirror_detach(swgpu_syncobj *obj, struct mirror_slot *slot);
void kmd_queue_mirror_attach(swgpu_queue *q, struct mirror_slot *slot,
                             struct mirror_events *events);
void kmd_queue_mirror_detach(swgpu_queue *q);
void kmd_context_mirror_attach(swgpu_context *ctx, struct mirror_slot *slot,
                               struct mirror_events *events);
void kmd_context_mirror_detach(swgpu_context *ctx);
/* Queue info (or, when it is not valid, an empty job) as a job that
 * fails, with its signals failing too, whatever its context's state: a
 * client counted a seqno for a ring submit the daemon then could not
 * queue, so the queue's seqnos stay the client's and its waits end. */
swgpu_result kmd_queue_submit_failed(swgpu_queue *q,
                                     const swgpu_submit_info *info);
/* Lose ctx (GUILTY, with a fault of kind BAD_PACKET carrying why): for
 * work the daemon accepted on a client's behalf and then could not
 * queue. */
void kmd_context_lose(swgpu_context *ctx, const char *why);

#endif
