/* SPDX-License-Identifier: MIT */
/*
 * Jobs, software queues and the scheduler (internal). Named job.h, not
 * sched.h, because -Isrc would shadow the system <sched.h>.
 *
 * Every job carries the identity ctx:queue:seqno. States:
 *   PENDING  in its queue's software FIFO (dev->lock)
 *   QUEUED   written into its engine's ring
 *   RUNNING  the engine reached its JOB_BEGIN
 *   DONE / ERROR
 * A queue's jobs leave the FIFO strictly in order (in-order queue); a job
 * whose waits are not ready, or that does not fit in the ring, blocks only
 * its own queue. Run lists: per engine, one list of queues per priority;
 * the engine is shared by virtual runtime (sched.c): each queue is
 * charged the engine time its jobs use, divided by its level's weight,
 * and the runnable queue with the smallest charge goes next.
 *
 * Engines are chosen per job (sched_slice.c): q->engine is the engine of
 * the queue's jobs in the rings; a queue with nothing in the rings whose
 * engine is busy moves to an idle engine of its class before its next
 * job enters a ring. So a queue's jobs still start and complete in
 * submission order (they are all in one ring at any time), and a job runs
 * on one engine only.
 */
#ifndef SWGPU_JOB_H
#define SWGPU_JOB_H

/* Bytes of a graphics state description in a fault record. */
#define SWGPU_GFX_REGS_TEXT 1024u

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "kmd/device.h"
#include "kmd/mirror.h"
#include "hw/packet/packet_exec.h"

enum job_state {
	JOB_PENDING,
	JOB_QUEUED,
	JOB_RUNNING,
	JOB_DONE,
	JOB_ERROR,
};

struct job_wait {
	struct swgpu_syncobj *obj;   /* referenced */
	uint64_t value;
	uint32_t flags;
	bool ready;                  /* resolved: satisfied or has dep */
	struct swgpu_job *dep;       /* referenced signaller, or NULL */
};

struct job_signal {
	struct swgpu_syncobj *obj;   /* referenced */
	uint64_t value;
	struct swgpu_job *job;
	struct dlist link;           /* timeline obj->pending */
};

#define JOB_INLINE 4u

/* Times for the trace (trace.c), CLOCK_MONOTONIC ns; kept only when
 * tracing, except end_ns. */
struct job_trace {
	uint64_t submit_ns;          /* entered its queue (PENDING) */
	uint64_t ready_ns;           /* written into a ring (QUEUED) */
	uint64_t first_ns;           /* first run segment began */
	uint64_t first_end_ns;       /* ... and ended */
	uint64_t seg_ns;             /* current run segment began, or 0 */
	uint64_t end_ns;             /* engine finished it (job_end) */
	uint32_t segments;           /* run segments ended by preemption */
	bool paused;                 /* preempted, segment closed */
};

struct swgpu_job {
	struct swgpu_device *dev;
	struct swgpu_queue *q;       /* valid until the job is finished */
	struct swgpu_context *ctx;   /* valid until the job is finished */
	uint32_t ctx_id, queue_id;   /* identity, valid for the whole life */
	uint64_t seqno;              /* within the queue */
	enum job_state state;
	uint32_t refcount;
	uint32_t engine;
	uint32_t hwq;                /* engine HWQ it went to (engine.h) */
	uint64_t engine_seqno;       /* in that HWQ; 0 until in a ring */
	bool dep_failed;             /* a wait's signaller failed */
	swgpu_fault_kind inject;     /* armed fault, or NONE */

	/* Written by the engine thread before its fence store. */
	bool exec_failed;            /* a packet faulted: context guilty */
	bool skipped;                /* not run: doomed or aborted */
	swgpu_fault_info fault;
	/* Graphics engines: the 3D pipe's state when the job faulted
	 * (gfx_state_describe), for the state dump; "" otherwise. */
	char gfx_regs[SWGPU_GFX_REGS_TEXT];
	uint64_t run_ns;             /* engine time, JOB_BEGIN to fence */
	uint64_t vcharge_ns;         /* estimate charged at push (sched.c) */
	uint64_t start_ns;           /* JOB_BEGIN time (dev->lock), or 0 */
	uint64_t prio_busy_start;    /* engine prio_busy_ns then */
	/* Under dev->lock: its own engine time up to its last pause, and
	 * when it last started or resumed (0 while paused). */
	uint64_t ran_ns, ran_since;
	/* Engine thread only: where the job stopped when it was preempted
	 * (its context save area), and its IB being run. */
	struct exec_save save;
	struct job_trace trace;
	/* Under dev->lock, for the state dump: the job lost the engine to
	 * the preempting HWQ and resumes at resume_at (a copy of save made
	 * when it stopped), on its ring's engine or an idle one of the
	 * class; preemptions counts them. */
	bool preempted;
	struct exec_save resume_at;
	uint32_t preemptions;
	/* Under dev->lock: the engine whose thread runs the job, or ran it
	 * last: its ring's (engine) unless an idle engine of the class
	 * took it over while it was preempted (engine.c, main_lend). */
	uint32_t run_engine;

	uint32_t ib_count, wait_count, signal_count;
	swgpu_ib *ibs;
	struct job_wait *waits;
	struct job_signal *signals;
	swgpu_ib ib_inline[JOB_INLINE];
	struct job_wait wait_inline[JOB_INLINE];
	struct job_signal signal_inline[JOB_INLINE];

	struct dlist link;           /* queue FIFO or pool free list */
};

struct swgpu_queue {
	uint32_t remote_tag;          /* 0: in process (remote/remote.h) */
	struct swgpu_device *dev;
	struct swgpu_context *ctx;
	uint32_t id;
	uint32_t engine;
	swgpu_priority priority;
	struct dlist fifo;           /* PENDING jobs, submission order */
	uint32_t pending;            /* jobs in fifo (PENDING) */
	uint32_t inflight;           /* jobs in the rings */
	uint32_t main_inflight;      /* of them in the engine's main HWQs */
	uint32_t main_hwq;           /* the main HWQ they are in (sched.c) */
	uint64_t prio_seqno;         /* engine seqno of its last HWQ 1 job */
	bool mean_known;             /* avg_run_ns measured (a job ran) */
	uint64_t submitted;          /* last seqno handed out */
	_Atomic uint64_t completed;  /* last seqno finished (in order) */
	uint64_t last_failed;        /* last seqno that ended in ERROR */
	uint32_t waiters;            /* threads asleep in swgpu_queue_wait */
	uint64_t wait_min;           /* smallest seqno they wait for */
	bool cancelled;              /* destroy: pending jobs fail */
	atomic_bool aborting;        /* destroy timed out: drop ring jobs */
	/* Fair share (sched.c), under dev->lock. */
	uint64_t vruntime;           /* weighted engine time charged */
	uint64_t ring_vcharge;       /* of it, the estimates of its jobs
	                                still in the rings (not yet run) */
	uint64_t avg_run_ns;         /* running mean of its jobs' run_ns */
	uint64_t blocked_pass;       /* eng->sched_pass it was blocked in */
	uint64_t trace_last_end_ns;  /* trace.c: end of its last slice */
	uint64_t engine_moves;       /* times it moved to an idle engine */
	bool slice_held;             /* head job waits for a slice to end */
	struct mirror mirror;        /* swgpud's client reads it (mirror.h) */
	struct dlist ctx_link, dev_link, run_link;
};

/* Job pool. dev->lock held for get/put. */
void job_pool_init(struct job_pool *pool);
void job_pool_fini(struct job_pool *pool);
void job_ref(struct swgpu_job *job);
void job_unref(struct swgpu_job *job);
/* A pooled job with room for info's arrays, or NULL (out of memory). */
struct swgpu_job *job_alloc(struct swgpu_device *dev,
                            const swgpu_submit_info *info);

/* The fair-share weight of q's level (LOW 1 ... REALTIME 64). */
uint32_t sched_queue_weight(const struct swgpu_queue *q);

/* Try to move jobs from software queues into rings. dev->lock held. */
void sched_run(struct swgpu_device *dev);

/* Settle a finished job's fair-share charge: its measured engine time
 * replaces the estimate charged when it entered the ring. dev->lock held,
 * the engine's fence has passed the job. */
void sched_charge(struct swgpu_job *job);

/* A queue gets work again: start it at the engine's virtual clock so
 * time it was idle cannot be banked. dev->lock held. */
void sched_queue_activate(struct swgpu_queue *q);
/* q moved to another engine: level its charge with that engine's busy
 * queues. dev->lock held. */
void sched_queue_rebase(struct swgpu_queue *q);

/* Engine choice per job (sched_slice.c): q's engine for its head job,
 * moving q to an idle engine of its class when it has nothing in the
 * rings and its engine is busy. dev->lock held. */
struct swgpu_engine *sched_choose_engine(struct swgpu_queue *q);
/* Time slices (sched_slice.c): run the scheduler again at deadline_ns
 * (the earliest armed wins), when a held job's slice turn comes. The tick
 * thread runs from device open to close. dev->lock held for arm. */
void sched_slice_arm(struct swgpu_device *dev, uint64_t deadline_ns);
swgpu_result sched_slice_start(struct swgpu_device *dev);
void sched_slice_stop(struct swgpu_device *dev);

/* True if the job must not run (context lost, queue cancelled, device
 * closing). dev->lock held. */
bool job_doomed(const struct swgpu_job *job);

/* Queue destroy/close helpers (queue.c). */
void queue_free_locked(struct swgpu_queue *q);
void queue_destroy_locked(struct swgpu_queue *q);

/* The trace (trace.c); no-ops when tracing is off. trace_job: a job
 * transition (DONE/ERROR: before its waits and signals are released);
 * preempted/resumed: engine thread, main HWQ job losing/regaining the
 * engine. */
void trace_job(struct swgpu_job *job, enum job_state state);
void trace_job_preempted(struct swgpu_job *job);
void trace_job_resumed(struct swgpu_job *job);
/* Engine thread: a draw packet of job ran on its engine from start_ns to
 * end_ns (a slice nested in the job's engine slice). */
struct gfx_draw_stats;
void trace_draw(struct swgpu_job *job, const char *name, uint64_t start_ns,
                uint64_t end_ns, const struct gfx_draw_stats *st);
void trace_queue_created(struct swgpu_queue *q);
void trace_queue_moved(struct swgpu_queue *q, uint32_t from);
void trace_open(struct swgpu_device *dev);
void trace_close(struct swgpu_device *dev);
const char *job_state_name(enum job_state s);

/* Fault injection (fault.c): arm job from the armed list at submit. */
void fault_arm_job(struct swgpu_device *dev, struct swgpu_job *job);
swgpu_result fault_init(struct swgpu_device *dev);

#endif
