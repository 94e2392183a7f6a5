/* SPDX-License-Identifier: MIT */
/*
 * The device (internal): configuration, heaps, engines, scheduler.
 *
 * Locking (outermost first):
 *   dev->lock      the scheduler lock. Protects every job state, every
 *                  software queue, the producer side of every ring (wptr,
 *                  emitted seqno, in-flight table), completion processing,
 *                  sync object state, contexts and queues lists.
 *   vaspace lock   (CORE-A) taken by engines around one packet, never
 *                  while holding dev->lock.
 *   dev->gpu_lock  only for sleeping on GPU memory (SEM_WAIT); never held
 *                  while taking another lock.
 *   doorbell lock  leaf.
 * Engines run packets without dev->lock; they take it only at job begin
 * (to decide run/skip) and at the job's fence (completion processing).
 */
#ifndef SWGPU_DEVICE_H
#define SWGPU_DEVICE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <swgpu/swgpu.h>

#include "kmd/config.h"
#include "kmd/mem.h"
#include "util/spin.h"
#include "util/util.h"

/* Intrusive doubly linked list (circular, head is a sentinel). */
struct dlist {
	struct dlist *prev, *next;
};

static inline void
dlist_init(struct dlist *l)
{
	l->prev = l;
	l->next = l;
}

static inline bool
dlist_empty(const struct dlist *l)
{
	return l->next == l;
}

static inline void
dlist_add_tail(struct dlist *n, struct dlist *head)
{
	n->prev = head->prev;
	n->next = head;
	head->prev->next = n;
	head->prev = n;
}

static inline void
dlist_del(struct dlist *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	dlist_init(n);
}

#define dlist_entry(p, type, member) \
	((type *)(void *)((char *)(p) - offsetof(type, member)))

#define dlist_for_each_safe(it, tmp, head) \
	for ((it) = (head)->next, (tmp) = (it)->next; (it) != (head); \
	     (it) = (tmp), (tmp) = (it)->next)

struct swgpu_engine;
struct swgpu_job;
struct kmd_ring_server;

/* Free list of job structs, grown in chunks outside the common path. */
struct job_pool {
	struct dlist free;
	void **chunks;
	uint32_t chunk_count;
	uint32_t chunk_cap;
};

/* Set by swgpud before it opens devices: its devices serve other
 * processes (status pages say "shared"). */
extern bool kmd_in_daemon;

struct swgpu_device {
	uint32_t remote_tag;          /* 0: in process (remote/remote.h) */
	swgpu_config cfg;
	swgpu_device_info info;
	struct swgpu_mem mem;
	uint32_t index;

	pthread_mutex_t lock;
	/* Host waiters sleep here, CLOCK_MONOTONIC. Sync object waits
	 * register on each object (woken only when a waited value is
	 * reached), queue waits on their queue (wait_min); host_waiters
	 * counts the rest (close, queue destroy), woken on every job
	 * completion. */
	pthread_cond_t host_cond;
	uint32_t host_waiters;
	/* An engine finishing jobs under the lock defers host_cond's
	 * broadcast until it has dropped the lock (dev_host_broadcast,
	 * dev_unlock_wake_host): a waiter woken while the engine still
	 * holds the lock would only go back to sleep on the mutex, a second
	 * wake-up — on a contended CPU, a second scheduling delay. */
	bool host_wake_defer;
	bool host_wake_pending;
	/* Threads inside a host wait call: close releases them with an
	 * error and frees nothing before they are out. */
	uint32_t api_waiters;
	/* Bumped (under lock) on every completion / host signal, so a host
	 * waiter can spin without taking the lock. */
	atomic_uint_fast64_t event_serial;
	/* How long host waiters poll before sleeping (spin.h). */
	struct spin_budget host_spin;

	/* Sleeping on GPU memory: ring SEM_WAIT on another engine's fence,
	 * IB SEM_WAIT on user memory. Woken on every fence write and host
	 * signal when gpu_waiters > 0; waits are also time-bounded because
	 * host writes to mapped memory notify nobody. */
	pthread_mutex_t gpu_lock;
	pthread_cond_t gpu_cond;
	atomic_uint gpu_waiters;

	uint32_t engine_count;
	struct swgpu_engine *engines[SWGPU_MAX_ENGINES];

	/* Time slices (sched_slice.c): the tick thread sleeps on
	 * slice_cond until slice_deadline_ns (0: none armed), then runs
	 * the scheduler, so a job held for a running job's slice goes in
	 * when the slice ends. Under lock. */
	pthread_t slice_thread;
	bool slice_thread_started;
	bool slice_stopping;
	pthread_cond_t slice_cond;
	uint64_t slice_deadline_ns;
	uint64_t slices_ended;     /* held jobs let in by the tick */

	struct dlist contexts;
	struct dlist queues;
	struct dlist syncobjs;
	uint32_t next_context_id;
	uint32_t next_queue_id;
	uint32_t next_syncobj_id;
	uint64_t pending_jobs;     /* jobs in software queues (PENDING) */

	struct job_pool pool;

	/* closing: no new ring work, pending jobs are cancelled.
	 * abort: engines drop what is left in their rings at the next
	 * packet boundary (close ran out of time). */
	atomic_bool closing;
	atomic_bool abort;
	/* A context became guilty: the next engine step (or close) writes
	 * the state dump (device_fault_dump, dump.c). */
	atomic_bool dump_pending;
	atomic_uint dumps_written;

	/* Armed faults (SWGPU_FAULT and swgpu_debug_inject_fault). */
	struct fault_spec faults[SWGPU_MAX_FAULT_SPECS];
	uint32_t fault_count;
	char *fault_str;           /* owned copy of cfg.fault */

	/* Contexts made guilty since open, and of them by a hang (the
	 * status page; under lock). */
	uint64_t guilty_faults, guilty_hangs;
	struct status_pub *status; /* status_page.c; NULL: none */

	/* swgpud: the engines serve its clients' rings (ring_server.h);
	 * NULL in process. */
	_Atomic(const struct kmd_ring_server *) ring_server;

	struct trace_file *trace;  /* trace.c; NULL: tracing off */
	char *trace_str;           /* owned copy of cfg.trace */
	char *dump_dir_str;        /* owned copy of cfg.dump_dir */
};

/* Wake everybody sleeping in host waits (caller holds dev->lock). */
void dev_wake_host(struct swgpu_device *dev);
/* Broadcast host_cond now, or after the lock when deferred. Lock held. */
void dev_host_broadcast(struct swgpu_device *dev);
/* Unlock dev->lock, then the deferred broadcast if any. */
void dev_unlock_wake_host(struct swgpu_device *dev);
/* Bracket a host wait call (dev->lock held). */
void dev_api_wait_enter(struct swgpu_device *dev);
void dev_api_wait_leave(struct swgpu_device *dev);
/* Wake engines sleeping on GPU memory (no lock needed). */
void dev_wake_gpu(struct swgpu_device *dev);

/* pthread_cond_timedwait with an absolute CLOCK_MONOTONIC deadline in ns
 * (INFINITE: plain wait). Returns false on timeout. */
bool cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *lock,
                     uint64_t deadline_ns);
/* A condvar that times out on CLOCK_MONOTONIC. */
int cond_init_monotonic(pthread_cond_t *cond);

#define DEV_ERR(dev, r, ...) SWGPU_ERR((dev)->cfg.debug, (r), __VA_ARGS__)

/* Write the state dump if a context became guilty since the last one
 * (SWGPU_DUMP_DIR or stderr): engine threads and close call the first
 * (dev->lock not held), host waits and context calls the second (held),
 * so the dump is written while the guilty context still exists. */
void device_fault_dump(struct swgpu_device *dev);
void device_fault_dump_locked(struct swgpu_device *dev);

#endif
