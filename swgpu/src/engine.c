/* SPDX-License-Identifier: MIT */
/*
 * Engine threads: consume the ring, run each job's indirect buffers in its
 * context's VA space, write the fence, process completions.
 *
 * Invariants:
 *  - rptr only moves on the engine thread, after a packet is done.
 *  - A job's ring entries are contiguous (written at once under
 *    dev->lock), so after a fault the engine skips to the job's fence.
 *  - The fence is written for every job, failed or skipped, so a SEM_WAIT
 *    on it in another ring always ends.
 */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "fence.h"
#include "packet_exec.h"
#include "job.h"
#include "vaspace.h"

/* Never mapped in any context (below SWGPU_VA_BASE): the read an armed
 * fault performs. */
#define INJECT_FAULT_VA 0xdead0000ull

/* How long a GPU memory wait sleeps before re-checking: host writes to
 * mapped memory notify nobody. */
#define GPU_WAIT_SLICE_NS 100000u

swgpu_result
engine_create(struct swgpu_device *dev, uint32_t index,
              swgpu_engine_class cls, uint32_t index_in_class,
              struct swgpu_engine **out)
{
	struct swgpu_engine *eng = calloc(1, sizeof(*eng));
	if (!eng)
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "engine");
	eng->dev = dev;
	eng->index = index;
	eng->engine_class = cls;
	eng->index_in_class = index_in_class;
	atomic_init(&eng->fence, 0);
	for (uint32_t p = 0; p < SWGPU_PRIORITY_COUNT; p++)
		dlist_init(&eng->runlist[p]);
	spin_budget_init(&eng->idle_spin, (uint64_t)dev->cfg.spin_us * 1000u);
	if (ring_init(&eng->ring, dev->cfg.ring_size)) {
		free(eng);
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "ring");
	}
	/* The smallest job (JOB_BEGIN + fence) is 8 dwords: that many
	 * in-flight slots can never run out before ring space does. */
	uint32_t slots = eng->ring.size_dw / 8u;
	eng->inflight = calloc(slots, sizeof(*eng->inflight));
	eng->inflight_mask = slots - 1u;
	if (!eng->inflight || doorbell_init(&eng->doorbell)) {
		free(eng->inflight);
		ring_fini(&eng->ring);
		free(eng);
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "engine");
	}
	*out = eng;
	return SWGPU_OK;
}

void
engine_destroy(struct swgpu_engine *eng)
{
	if (!eng)
		return;
	doorbell_fini(&eng->doorbell);
	free(eng->inflight);
	ring_fini(&eng->ring);
	free(eng);
}

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * Before sleeping on the doorbell, poll the ring for spin_us: a submitter
 * that waits for one job and submits the next finds the engine awake.
 * Bounded, so an idle engine still ends up asleep.
 */
static bool
engine_poll(struct swgpu_engine *eng, uint64_t rptr)
{
	uint64_t end = swgpu_add_sat(swgpu_now_ns(),
	                             spin_budget_get(&eng->idle_spin));

	do {
		if (atomic_load_explicit(&eng->ring.wptr,
		                         memory_order_acquire) != rptr) {
			spin_budget_feedback(&eng->idle_spin, true);
			return true;
		}
		cpu_relax();
	} while (swgpu_now_ns() < end);
	spin_budget_feedback(&eng->idle_spin, false);
	return false;
}

/* Should the current job stop at this packet boundary? */
static bool
engine_should_abort(struct swgpu_engine *eng)
{
	struct swgpu_job *job = eng->cur;

	if (atomic_load_explicit(&eng->dev->abort, memory_order_relaxed))
		return true;
	/* job->q and job->ctx stay valid until the job is finished, which
	 * happens only after this engine wrote its fence. */
	return job && (atomic_load_explicit(&job->ctx->lost,
	                                    memory_order_relaxed) ||
	               atomic_load_explicit(&job->q->aborting,
	                                    memory_order_relaxed));
}

/* SEM_WAIT hook: sleep a slice on the device GPU condvar. */
static bool
engine_wait_hook(void *cookie, uint64_t deadline_ns)
{
	struct swgpu_engine *eng = cookie;
	struct swgpu_device *dev = eng->dev;

	if (engine_should_abort(eng))
		return false;
	uint64_t until = swgpu_add_sat(swgpu_now_ns(), GPU_WAIT_SLICE_NS);
	if (until > deadline_ns)
		until = deadline_ns;
	pthread_mutex_lock(&dev->gpu_lock);
	atomic_fetch_add(&dev->gpu_waiters, 1);
	cond_wait_until(&dev->gpu_cond, &dev->gpu_lock, until);
	atomic_fetch_sub(&dev->gpu_waiters, 1);
	pthread_mutex_unlock(&dev->gpu_lock);
	return !engine_should_abort(eng);
}

/* Ring SEM_WAIT: wait for another engine's fence word. */
static void
ring_sem_wait(struct swgpu_engine *eng, const uint32_t *pkt)
{
	struct swgpu_device *dev = eng->dev;
	uint64_t kva = swgpu_pkt_get64(pkt + 1);
	uint64_t value = swgpu_pkt_get64(pkt + 3);
	uint32_t e = (uint32_t)((kva - RING_KVA_FENCE_BASE) / 8u);

	if (kva < RING_KVA_FENCE_BASE || e >= dev->engine_count) {
		swgpu_log("engine %u: ring SEM_WAIT on bad kernel address "
		          "0x%llx", eng->index, (unsigned long long)kva);
		return;
	}
	struct swgpu_engine *other = dev->engines[e];
	/* The other engine is usually about to finish: a short spin saves
	 * a sleep/wake round trip (tens of microseconds). */
	uint64_t spin_end = swgpu_add_sat(swgpu_now_ns(),
	                                  (uint64_t)dev->cfg.spin_us * 1000u);
	while (!seqno_passed(engine_fence_read(other), value) &&
	       swgpu_now_ns() < spin_end && !atomic_load(&dev->abort))
		cpu_relax();
	while (!seqno_passed(engine_fence_read(other), value)) {
		if (atomic_load(&dev->abort))
			return;
		pthread_mutex_lock(&dev->gpu_lock);
		atomic_fetch_add(&dev->gpu_waiters, 1);
		/* Re-check after announcing ourselves (dev_wake_gpu). */
		if (!seqno_passed(atomic_load(&other->fence), value))
			cond_wait_until(&dev->gpu_cond, &dev->gpu_lock,
			                swgpu_now_ns() + 1000000u);
		atomic_fetch_sub(&dev->gpu_waiters, 1);
		pthread_mutex_unlock(&dev->gpu_lock);
	}
}

/* Completion processing of everything up to our fence. dev->lock held. */
static void
engine_process_completions(struct swgpu_engine *eng)
{
	struct swgpu_device *dev = eng->dev;

	eng->completion_deferred = false;
	eng->stats = eng->exec_stats;
	eng->busy_ns = eng->busy_local;
	eng->doorbells = eng->doorbells_local;
	fence_process(eng, engine_fence_read(eng));
	if (dev->pending_jobs)
		sched_run(dev);
}

/* JOB_BEGIN: decide run or skip, under the scheduler lock. */
static struct swgpu_job *
job_begin(struct swgpu_engine *eng, uint64_t seqno, bool *skip)
{
	struct swgpu_device *dev = eng->dev;

	pthread_mutex_lock(&dev->lock);
	if (eng->completion_deferred)
		engine_process_completions(eng);
	struct swgpu_job *job = eng->inflight[seqno & eng->inflight_mask];
	/* Waits on other engines have passed their fences: finish those
	 * jobs now so a failed one fails this job too. */
	for (uint32_t i = 0; i < job->wait_count; i++) {
		struct swgpu_job *d = job->waits[i].dep;
		if (d && d->engine != eng->index &&
		    (d->state == JOB_QUEUED || d->state == JOB_RUNNING))
			fence_process(dev->engines[d->engine],
			              d->engine_seqno);
		if (d && d->state == JOB_ERROR)
			job->dep_failed = true;
	}
	*skip = job_doomed(job) || job->dep_failed ||
	        atomic_load(&dev->abort);
	if (*skip) {
		job->skipped = true;
	} else {
		job->state = JOB_RUNNING;
		trace_job(job, JOB_RUNNING);
	}
	pthread_mutex_unlock(&dev->lock);
	return job;
}

static void
exec_env_init(struct swgpu_engine *eng, struct swgpu_job *job,
              struct exec_env *env)
{
	struct swgpu_device *dev = eng->dev;

	memset(env, 0, sizeof(*env));
	env->vs = job->ctx->vs;
	env->engine = eng->index;
	env->max_ib_depth = dev->info.max_ib_depth;
	env->max_ib_size_dw = dev->info.max_ib_size_dw;
	env->hang_timeout_ns = (uint64_t)dev->cfg.hang_timeout_ms * 1000000u;
	env->fault = &job->fault;
	env->stats = &eng->exec_stats;
	env->wait_hook = engine_wait_hook;
	env->wait_cookie = eng;
}

static void
job_fault_done(struct swgpu_engine *eng, struct swgpu_job *job)
{
	job->exec_failed = true;
	job->fault.engine = eng->index;
	job->fault.queue_id = job->queue_id;
	job->fault.job_seqno = job->seqno;
}

/* An armed fault: a real page fault through the normal exec path. */
static bool
job_inject_fault(struct swgpu_engine *eng, struct swgpu_job *job,
                 struct exec_env *env)
{
	if (job->inject == SWGPU_FAULT_HANG) {
		/* No progress until the hang timeout. */
		uint64_t deadline = swgpu_add_sat(swgpu_now_ns(),
		                                  env->hang_timeout_ns);
		while (swgpu_now_ns() < deadline &&
		       engine_wait_hook(eng, deadline))
			;
		memset(&job->fault, 0, sizeof(job->fault));
		job->fault.kind = SWGPU_FAULT_HANG;
		snprintf(job->fault.message, sizeof(job->fault.message),
		         "injected hang");
		return false;
	}
	if (exec_ib(env, INJECT_FAULT_VA, 1, 1))
		return true; /* cannot happen: the VA is never mapped */
	/* Prefix the real fault's message (cut to fit). */
	char msg[sizeof(job->fault.message) + 16];
	int n = snprintf(msg, sizeof(msg), "injected: %s",
	                 job->fault.message);
	if (n > 0) {
		msg[sizeof(job->fault.message) - 1] = '\0';
		memcpy(job->fault.message, msg, sizeof(job->fault.message));
	}
	job->fault.kind = job->inject;
	return false;
}

static bool
job_run_ib(struct swgpu_engine *eng, struct swgpu_job *job, uint64_t va,
           uint32_t size_dw)
{
	struct exec_env env;

	exec_env_init(eng, job, &env);
	/* The ring is depth 0: a ring IB runs at depth 1. */
	return exec_ib(&env, va, size_dw, 1);
}

static void
job_end(struct swgpu_engine *eng, struct swgpu_job *job, uint64_t seqno,
        uint64_t t0, bool defer)
{
	struct swgpu_device *dev = eng->dev;

	if (job) {
		/* Read by completion after the fence store below. */
		job->run_ns = job->skipped ? 0 : swgpu_now_ns() - t0;
		eng->busy_local += job->run_ns;
	}
	/* Release: everything the job wrote is visible to whoever reads
	 * the fence with acquire (other engines' SEM_WAIT, completion). */
	atomic_store_explicit(&eng->fence, seqno, memory_order_release);
	dev_wake_gpu(dev);

	if (defer) {
		/* The next job begins right away and takes the lock then:
		 * its JOB_BEGIN processes this completion (coalesced). */
		eng->completion_deferred = true;
		return;
	}
	pthread_mutex_lock(&dev->lock);
	engine_process_completions(eng);
	pthread_mutex_unlock(&dev->lock);
}

static void *
engine_main(void *arg)
{
	struct swgpu_engine *eng = arg;
	struct swgpu_ring *ring = &eng->ring;
	uint64_t rptr = 0, t0 = 0;
	bool skip = false;
	uint32_t pkt[8];

	for (;;) {
		uint64_t wptr = atomic_load_explicit(&ring->wptr,
		                                     memory_order_acquire);
		if (rptr == wptr) {
			if (atomic_load(&eng->doorbell.stop))
				break;
			if (engine_poll(eng, rptr))
				continue;
			if (doorbell_wait(&eng->doorbell))
				eng->doorbells_local++;
			continue;
		}
		uint32_t h = ring_dw(ring, rptr);
		uint32_t op = swgpu_pkt_opcode(h), len = swgpu_pkt_len(h);
		if (!len || len > SWGPU_ARRAY_SIZE(pkt) || len > wptr - rptr) {
			/* Only the scheduler writes rings: a driver bug. */
			swgpu_log("engine %u: corrupt ring at %llu (header "
			          "0x%08x)", eng->index,
			          (unsigned long long)rptr, h);
			abort();
		}
		ring_read(ring, rptr, pkt, len);
		struct swgpu_job *job = eng->cur;
		if (job && !skip && engine_should_abort(eng)) {
			skip = true;
			job->skipped = true;
		}

		switch (op) {
		case SWGPU_OP_SEM_WAIT:
			ring_sem_wait(eng, pkt);
			break;
		case RING_OP_JOB_BEGIN:
			t0 = swgpu_now_ns();
			eng->cur = job_begin(eng, swgpu_pkt_get64(pkt + 1),
			                     &skip);
			job = eng->cur;
			if (!skip && job->inject != SWGPU_FAULT_NONE) {
				/* Armed: fault before the first IB (or the
				 * fence of a sync-only job). */
				struct exec_env env;
				exec_env_init(eng, job, &env);
				if (!job_inject_fault(eng, job, &env)) {
					job_fault_done(eng, job);
					skip = true;
				}
			}
			break;
		case SWGPU_OP_INDIRECT_BUFFER:
			if (job && !skip &&
			    !job_run_ib(eng, job, swgpu_pkt_get64(pkt + 1),
			                pkt[3])) {
				job_fault_done(eng, job);
				skip = true;
			}
			break;
		case RING_OP_JOB_IBS:
			for (uint32_t i = 0; job && !skip && i < job->ib_count;
			     i++) {
				if (i && engine_should_abort(eng)) {
					skip = true;
					job->skipped = true;
				} else if (!job_run_ib(eng, job,
				                       job->ibs[i].va,
				                       job->ibs[i].size_dw)) {
					job_fault_done(eng, job);
					skip = true;
				}
			}
			break;
		case SWGPU_OP_SEM_SIGNAL: {
			/* Coalesce with the next job's begin only if it is
			 * already in the ring and starts at once (no ring
			 * SEM_WAIT to sleep in before processing). */
			uint64_t next = rptr + len;
			bool defer = next != wptr &&
			             swgpu_pkt_opcode(ring_dw(ring, next)) ==
			                     RING_OP_JOB_BEGIN;
			eng->cur = NULL;
			job_end(eng, job, swgpu_pkt_get64(pkt + 3), t0, defer);
			skip = false;
			break;
		}
		default:
			swgpu_log("engine %u: unexpected ring opcode 0x%x",
			          eng->index, op);
			abort();
		}
		rptr += len;
		/* Release: we are done reading these dwords. */
		atomic_store_explicit(&ring->rptr, rptr, memory_order_release);
	}
	return NULL;
}

swgpu_result
engine_start(struct swgpu_engine *eng)
{
	if (pthread_create(&eng->thread, NULL, engine_main, eng))
		return DEV_ERR(eng->dev, SWGPU_ERR_NO_HOST_MEMORY,
		               "engine thread");
	eng->thread_started = true;
	char name[16];
	/* Thread names are at most 15 characters. */
	snprintf(name, sizeof(name), "swgpu-%.9s",
	         eng->dev->info.engines[eng->index].name);
	pthread_setname_np(eng->thread, name);
	return SWGPU_OK;
}

void
engine_stop(struct swgpu_engine *eng)
{
	if (!eng || !eng->thread_started)
		return;
	doorbell_stop(&eng->doorbell);
	pthread_join(eng->thread, NULL);
	eng->thread_started = false;
}
