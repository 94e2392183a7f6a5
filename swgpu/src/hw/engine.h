/* SPDX-License-Identifier: MIT */
/*
 * Engines (internal): one thread each, consuming its own ring.
 *
 * The fence word is the engine's "fence memory": the engine stores the
 * job's engine seqno there (release) after the job's last packet, and
 * anybody reading it (acquire) sees everything the job wrote. Engine
 * seqnos start at 1 and grow by one per job written into the ring.
 *
 * Hardware queues (HWQs) per engine, each a ring with its own fence
 * word, seqno space and in-flight table, like the hardware queue slots a
 * GPU's scheduler firmware (AMD MES, Intel GuC) maps software queues to:
 *   HWQ 1 (ENGINE_HWQ_PRIO)  ready short jobs that preempt the others
 *                            (sched.c decides): never wait; one that
 *                            outlives a slice is demoted and takes
 *                            turns with the main HWQs (engine_rotate.c)
 *   HWQ 0 and 2..COUNT-1     the *main* HWQs: a software queue is mapped
 *                            to one of them while it has jobs in them
 *                            (sched.c), its own one when one is free;
 *                            may SEM_WAIT; preemptible
 * The engine runs HWQ 1 whenever it holds work, checking it at every
 * preemption point of a main HWQ (packet and chunk boundaries,
 * SEM_WAITs, workgroup back-edges). Among the main HWQs it rotates at
 * time-slice ends (engine_rotate.c): the one that has had the least
 * weighted engine time runs next, so long jobs of several queues on one
 * engine take turns.
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
	ENGINE_HWQ_COUNT = 8,
};

/* HWQ 0 and 2..COUNT-1: preemptible, rotated at slice ends. */
static inline bool
hwq_is_main(uint32_t h)
{
	return h != ENGINE_HWQ_PRIO;
}

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
 * Who runs an engine's main HWQ h stream (swgpu_engine.main_lend[h]). The
 * engine's own thread unless its job is paused: then the stream is
 * OPEN and an idle engine of the class may take it over (TAKEN + its
 * index) and run the job on to its end, or until it gets work of its
 * own; it gives the stream back OPEN (still paused) or NONE (job done).
 * Whoever holds the stream owns run[h] and the job's save
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
	uint32_t srv_state;             /* enum kmd_engine_state published
	                                   (engine thread) */
	pthread_t thread;
	bool thread_started;

	/* Engine time HWQ 1 jobs took, added after each (engine thread,
	 * relaxed): the scheduler subtracts it from a preempted job's. */
	_Atomic uint64_t prio_busy_ns;

	/* Main HWQ stream holders (ENGINE_LEND_*, above). */
	_Atomic uint32_t main_lend[ENGINE_HWQ_COUNT];
	/* Rotation among the main HWQs (engine_rotate.c). The engine thread
	 * writes them; the preemption hook (maybe on a dispatch helper
	 * thread) and the scheduler (dev->lock) read them. */
	_Atomic uint32_t main_cur;      /* main HWQ running or last run */
	_Atomic uint64_t slice_end_ns;  /* its turn ends (0: no end) */
	/* A higher level's job came to a main HWQ: pick again at the next
	 * preemption point (sched.c sets it, the engine clears it). */
	_Atomic bool resched;
	/* Weight of the queue mapped to each main HWQ (sched.c, at push). */
	_Atomic uint32_t hwq_weight[ENGINE_HWQ_COUNT];
	/* Runs another engine's main HWQ job now (its thread sets it; the
	 * preemption hook, maybe on a dispatch helper thread, reads it). */
	_Atomic bool borrowing;
	/* A HWQ 1 job that outlived a slice joins the rotation among the
	 * main HWQs until it ends (engine_rotate.c, "demoted"). The engine
	 * thread writes them; the preemption hook and sched.c read them. */
	_Atomic uint64_t prio_slice_end_ns; /* its slice ends (0: none) */
	_Atomic bool prio_demoted;

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
	/* Weighted engine time each main HWQ has had (engine_rotate.c). */
	uint64_t hwq_vt[ENGINE_HWQ_COUNT];
	bool hwq_seen[ENGINE_HWQ_COUNT]; /* had work at the last pick */
	uint64_t hwq_job_vt[ENGINE_HWQ_COUNT];  /* charged to its job now */
	uint64_t hwq_mean_vt[ENGINE_HWQ_COUNT]; /* mean charge of its jobs */
	uint64_t vt_floor;              /* vt of the last HWQ picked */
	bool main_yield_now;            /* current main HWQ waits: rotate */
	bool prio_yielded;              /* HWQ 1's job stopped for a turn */
	bool main_repick;               /* its job ended: pick again */
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
