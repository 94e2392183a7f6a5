/* SPDX-License-Identifier: MIT */
/*
 * Engines (internal): one thread each, consuming its own ring.
 *
 * The fence word is the engine's "fence memory": the engine stores the
 * job's engine seqno there (release) after the job's last packet, and
 * anybody reading it (acquire) sees everything the job wrote. Engine
 * seqnos start at 1 and grow by one per job written into the ring.
 *
 * Two hardware queues (HWQs) per engine, each a ring with its own fence
 * word, seqno space and in-flight table, like the several ring buffers
 * a GPU engine's front end arbitrates between:
 *   HWQ 0 (ENGINE_HWQ_MAIN)  every job unless it preempts; may SEM_WAIT
 *   HWQ 1 (ENGINE_HWQ_PRIO)  ready jobs that preempt HWQ 0 (sched.c
 *                            decides): never wait, never preempted
 * The engine runs HWQ 1 whenever it holds work, checking it at every
 * preemption point of HWQ 0 (packet and chunk boundaries, SEM_WAITs).
 */
#ifndef SWGPU_ENGINE_H
#define SWGPU_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "kmd/device.h"
#include "hw/doorbell.h"
#include "hw/ring.h"
#include "util/spin.h"

struct gfx_pool;
struct gfx_state;

enum {
	ENGINE_HWQ_MAIN = 0,
	ENGINE_HWQ_PRIO = 1,
	ENGINE_HWQ_COUNT = 2,
};

/* One hardware queue: a ring, its fence word and its in-flight jobs. */
#define ENGINE_HWQ_FIELDS                                                  \
	struct swgpu_ring ring;                                            \
	_Atomic uint64_t fence;  /* last seqno the engine wrote */        \
	/* Producer / completion side, under dev->lock. */                 \
	uint64_t emitted;        /* last seqno written into the ring */   \
	uint64_t processed;      /* last seqno completion-processed */    \
	struct swgpu_job **inflight; /* [seqno & inflight_mask] */        \
	uint32_t inflight_mask;

struct engine_hwq {
	ENGINE_HWQ_FIELDS
};

/* Engine-thread state of one HWQ's stream: its position and the job
 * between its JOB_BEGIN and its fence. A preempted job keeps all of it
 * (and its save area, job->save) while the other HWQ runs. */
struct hwq_exec {
	uint64_t rptr;
	struct swgpu_job *job;
	bool skip;                      /* rest of the job is skipped */
	uint64_t t0;                    /* JOB_BEGIN time */
	uint64_t stolen_ns;             /* time the job was paused */
	struct swgpu_vaspace *pinned;   /* residency of the job */
	bool paused;                    /* job stopped at a preemption
	                                   point, not running anywhere */
	uint64_t pause_t;               /* when it stopped */
};

/*
 * Who runs an engine's HWQ 0 stream (swgpu_engine.main_lend). The
 * engine's own thread unless its HWQ 0 job is paused: then the stream is
 * OPEN and an idle engine of the class may take it over (TAKEN + its
 * index) and run the job on to its end, or until it gets work of its
 * own; it gives the stream back OPEN (still paused) or NONE (job done).
 * Whoever holds the stream owns run[ENGINE_HWQ_MAIN] and the job's save
 * area; the compare-and-swap that passes it on orders their accesses.
 */
enum {
	ENGINE_LEND_NONE = 0,
	ENGINE_LEND_OPEN = 1,
	ENGINE_LEND_TAKEN = 2,          /* + the borrowing engine's index */
};

struct swgpu_engine {
	struct swgpu_device *dev;
	uint32_t index;                 /* device engine index */
	swgpu_engine_class engine_class;
	uint32_t index_in_class;
	/* hwq[0] is also reachable under its historic names (ring, fence,
	 * emitted, processed, inflight): the single-ring code and the dump
	 * use those. */
	union {
		struct engine_hwq hwq[ENGINE_HWQ_COUNT];
		struct {
			ENGINE_HWQ_FIELDS
		};
	};
	/* Graphics engines: the 3D pipeline's raster threads and the
	 * graphics state of each HWQ (hw/gfx/gfx.h); NULL otherwise. */
	struct gfx_pool *gfx_pool;
	struct gfx_state *gfx[ENGINE_HWQ_COUNT];
	struct swgpu_doorbell doorbell;
	struct spin_budget idle_spin;   /* ring poll before sleeping */
	pthread_t thread;
	bool thread_started;

	/* Engine time HWQ 1 jobs took, added after each (engine thread,
	 * relaxed): the scheduler subtracts it from a preempted job's. */
	_Atomic uint64_t prio_busy_ns;

	/* HWQ 0 stream holder (ENGINE_LEND_*, above). */
	_Atomic uint32_t main_lend;
	/* Runs another engine's HWQ 0 job now (its thread sets it; the
	 * preemption hook, maybe on a dispatch helper thread, reads it). */
	_Atomic bool borrowing;

	/* Under dev->lock. */
	uint32_t queue_count;
	uint64_t resumed_here;          /* swgpu_engine_stats.resumed_here */
	uint64_t pending_jobs;          /* PENDING jobs of its queues */
	struct dlist runlist[SWGPU_PRIORITY_COUNT];
	uint32_t runlist_len[SWGPU_PRIORITY_COUNT];
	uint64_t vclock;                /* largest vruntime picked (sched.c) */
	uint64_t sched_pass;            /* sched_engine pass counter */
	uint64_t jobs_completed;
	uint64_t jobs_failed;
	swgpu_engine_stats stats;       /* packet counters, copied from
	                                   exec_stats after each job */
	uint64_t busy_ns;
	uint64_t doorbells;

	/* Engine thread only. */
	swgpu_engine_stats exec_stats;
	struct swgpu_job *cur;          /* job executing now (either HWQ) */
	struct hwq_exec run[ENGINE_HWQ_COUNT];
	bool completion_deferred;       /* fence written, not processed */
	uint64_t busy_local;
	uint64_t doorbells_local;
};

swgpu_result engine_create(struct swgpu_device *dev, uint32_t index,
                           swgpu_engine_class cls, uint32_t index_in_class,
                           struct swgpu_engine **out);
swgpu_result engine_start(struct swgpu_engine *eng);
/* Tell the engine to exit once its ring is empty, and join it. */
void engine_stop(struct swgpu_engine *eng);
void engine_destroy(struct swgpu_engine *eng);

/* Wrap-safe: has seqno a reached b? */
static inline bool
seqno_passed(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) >= 0;
}

static inline uint64_t
engine_hwq_fence_read(struct swgpu_engine *eng, uint32_t hwq)
{
	return atomic_load_explicit(&eng->hwq[hwq].fence,
	                            memory_order_acquire);
}

static inline uint64_t
engine_fence_read(struct swgpu_engine *eng)
{
	return engine_hwq_fence_read(eng, ENGINE_HWQ_MAIN);
}

#endif
