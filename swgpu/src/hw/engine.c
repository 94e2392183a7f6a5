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
 *  - Hardware queues (engine.h): HWQ 1 runs whenever it holds work; the
 *    main HWQs take turns (engine_rotate.c). A main HWQ job is preempted
 *    at its next preemption point (between ring packets, IB packets,
 *    1 MiB chunks of COPY/FILL, workgroup back-edges, or while a SEM_WAIT
 *    waits): its stream position stays in run[h] (ring read pointer, the
 *    job, its skip flag, its residency pin) and inside its IBs in the
 *    job's save area (job->save: IB nesting positions + chunk offset);
 *    HWQ 1 or another main HWQ runs; then the job resumes exactly there.
 */
#include "hw/engine.h"
#include "hw/engine_lend.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "kmd/config.h"
#include "kmd/dump_save.h"
#include "kmd/context.h"
#include "hw/fence.h"
#include "hw/gfx/describe.h"
#include "hw/gfx/gfx.h"
#include "hw/packet/packet_internal.h"
#include "kmd/residency.h"
#include "hw/packet/packet_exec.h"
#include "kmd/job.h"
#include "kmd/ring_server.h"
#include "util/futex.h"
#include "kmd/vaspace.h"

static void srv_idle_early(struct swgpu_engine *eng);

/* Never mapped in any context (below SWGPU_VA_BASE): the read an armed
 * fault performs. */
#define INJECT_FAULT_VA 0xdead0000ull

/* How long a GPU memory wait sleeps before re-checking: host writes to
 * mapped memory notify nobody. */
#define GPU_WAIT_SLICE_NS 100000u

/* Ring of HWQ 1: room for a few dozen short jobs. */
#define ENGINE_PRIO_RING_SIZE 4096u

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
	for (uint32_t p = 0; p < SWGPU_PRIORITY_COUNT; p++)
		dlist_init(&eng->runlist[p]);
	spin_budget_init(&eng->idle_spin, (uint64_t)dev->cfg.spin_us * 1000u);
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
		struct engine_hwq *hq = &eng->hwq[h];
		/* HWQ 1 holds a few short jobs at a time; every main HWQ
		 * the configured ring size. */
		uint32_t size = hwq_is_main(h) ? dev->cfg.ring_size
		                                     : ENGINE_PRIO_RING_SIZE;

		atomic_init(&hq->fence, 0);
		if (ring_init(&hq->ring, size))
			goto fail;
		/* The smallest job (JOB_BEGIN + fence) is 8 dwords: that
		 * many in-flight slots can never run out before ring space
		 * does. */
		uint32_t slots = hq->ring.size_dw / 8u;
		hq->inflight = calloc(slots, sizeof(*hq->inflight));
		hq->inflight_mask = slots - 1u;
		if (!hq->inflight)
			goto fail;
	}
	if (cls == SWGPU_ENGINE_GRAPHICS) {
		uint32_t threads = dev->cfg.gfx_threads ? dev->cfg.gfx_threads
		                                        : SWGPU_DEFAULT_GFX_THREADS;
		eng->gfx_pool = gfx_pool_create(threads);
		if (!eng->gfx_pool)
			goto fail;
		for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
			eng->gfx[h] = gfx_state_create(eng->gfx_pool);
			if (!eng->gfx[h])
				goto fail;
		}
	}
	if (doorbell_init(&eng->doorbell))
		goto fail;
	*out = eng;
	return SWGPU_OK;
fail:
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
		gfx_state_destroy(eng->gfx[h]);
	gfx_pool_destroy(eng->gfx_pool);
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
		free(eng->hwq[h].inflight);
		ring_fini(&eng->hwq[h].ring);
	}
	free(eng);
	return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "engine");
}

void
engine_destroy(struct swgpu_engine *eng)
{
	if (!eng)
		return;
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
		gfx_state_destroy(eng->gfx[h]);
	gfx_pool_destroy(eng->gfx_pool);
	doorbell_fini(&eng->doorbell);
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
		free(eng->hwq[h].inflight);
		ring_fini(&eng->hwq[h].ring);
	}
	free(eng);
}

/* The slice an engine thread asks for (spin_request_short_slice): the
 * kernel's minimum, 0.1 ms. */
#define ENGINE_SLICE_NS 100000u

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
engine_poll(struct swgpu_engine *eng, const struct kmd_ring_server *srv)
{
	uint64_t now = swgpu_now_ns();
	uint64_t budget = spin_budget_get(&eng->idle_spin, now);
	uint64_t end = swgpu_add_sat(now, budget);

	/* Contended CPU: sleep on the doorbell at once (spin.h). */
	if (!budget)
		return hwq_has_work(eng, ENGINE_HWQ_PRIO) ||
		       main_has_work(eng);

	spin_enter();
	do {
		if (hwq_has_work(eng, ENGINE_HWQ_PRIO) ||
		    main_has_work(eng) || (srv && srv->pending(srv->arg))) {
			spin_leave();
			spin_budget_feedback(&eng->idle_spin, true);
			return true;
		}
		cpu_relax();
	} while (swgpu_now_ns() < end);
	spin_leave();
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

/* exec preemption hook of main HWQ streams: stop at this boundary when
 * HWQ 1 holds work or another main HWQ's turn came, or when the job is to end anyway (context lost,
 * queue aborted, device closing: the next step skips it). */
static bool
engine_preempt_hook(void *cookie)
{
	return main_should_yield(cookie) || engine_should_abort(cookie);
}

/* exec preemption hook of HWQ 1 streams: stop to end, or once the job
 * outlived its slice while a main HWQ waits (it is then demoted and
 * takes turns, engine_rotate.c). */
static bool
engine_prio_hook(void *cookie)
{
	return prio_should_yield(cookie) || engine_should_abort(cookie);
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

/* A ring SEM_WAIT of main HWQ h yields the engine: HWQ 1 has work, or
 * another main HWQ does (the job waited for may be there: rotate). */
static bool
ring_wait_yields(struct swgpu_engine *eng, uint32_t h)
{
	if (prio_preempts(eng))
		return true;
	if (!main_other_busy(eng, h))
		return false;
	eng->main_yield_now = true;
	return true;
}

/* Ring SEM_WAIT (main HWQs): wait for another engine's or main HWQ's
 * fence word. Returns false, leaving the packet to be run again, when
 * another HWQ gets work meanwhile: a waiting ring yields the engine. */
static bool
ring_sem_wait(struct swgpu_engine *eng, uint32_t hwq, const uint32_t *pkt)
{
	struct swgpu_device *dev = eng->dev;
	uint64_t kva = swgpu_pkt_get64(pkt + 1);
	uint64_t value = swgpu_pkt_get64(pkt + 3);
	uint64_t idx = (kva - RING_KVA_FENCE_BASE) / 8u;
	uint32_t e = (uint32_t)(idx % SWGPU_MAX_ENGINES);
	uint32_t h = (uint32_t)(idx / SWGPU_MAX_ENGINES);

	if (kva < RING_KVA_FENCE_BASE || h >= ENGINE_HWQ_COUNT ||
	    e >= dev->engine_count) {
		swgpu_log("engine %u: ring SEM_WAIT on bad kernel address "
		          "0x%llx", eng->index, (unsigned long long)kva);
		return true;
	}
	struct swgpu_engine *other = dev->engines[e];
	if (!seqno_passed(engine_hwq_fence_read(other, h), value) &&
	    ring_wait_yields(eng, hwq))
		return false;
	/* The other engine is usually about to finish: a short spin saves
	 * a sleep/wake round trip (tens of microseconds). */
	uint64_t now = swgpu_now_ns();
	uint64_t spin_end = spin_cpu_contended(now) ? now :
		swgpu_add_sat(now, (uint64_t)dev->cfg.spin_us * 1000u);
	spin_enter();
	while (!seqno_passed(engine_hwq_fence_read(other, h), value) &&
	       swgpu_now_ns() < spin_end && !atomic_load(&dev->abort))
		cpu_relax();
	spin_leave();
	while (!seqno_passed(engine_hwq_fence_read(other, h), value)) {
		if (atomic_load(&dev->abort))
			return true;
		if (ring_wait_yields(eng, hwq))
			return false;
		pthread_mutex_lock(&dev->gpu_lock);
		atomic_fetch_add(&dev->gpu_waiters, 1);
		/* Re-check after announcing ourselves (dev_wake_gpu). */
		if (!seqno_passed(engine_hwq_fence_read(other, h), value) &&
		    !prio_preempts(eng) && !main_other_busy(eng, hwq))
			cond_wait_until(&dev->gpu_cond, &dev->gpu_lock,
			                swgpu_now_ns() + 1000000u);
		atomic_fetch_sub(&dev->gpu_waiters, 1);
		pthread_mutex_unlock(&dev->gpu_lock);
	}
	return true;
}

/* Completion processing of everything up to our fences (HWQ 1 first,
 * see fence_process). dev->lock held. */
static void
engine_process_completions(struct swgpu_engine *eng)
{
	struct swgpu_device *dev = eng->dev;

	eng->completion_deferred = false;
	eng->stats = eng->exec_stats;
	eng->busy_ns = eng->busy_local;
	eng->doorbells = eng->doorbells_local;
	/* Host waiters are woken once the caller dropped the lock
	 * (dev_unlock_wake_host). */
	dev->host_wake_defer = true;
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
		if (hwq_is_main(h))
			fence_process(eng, h, engine_hwq_fence_read(eng, h));
	dev->host_wake_defer = false;
	if (dev->pending_jobs)
		sched_run(dev);
}

/* JOB_BEGIN: decide run or skip, under the scheduler lock. */
static struct swgpu_job *
job_begin(struct swgpu_engine *eng, uint32_t h, uint64_t seqno, bool *skip)
{
	struct swgpu_device *dev = eng->dev;

	pthread_mutex_lock(&dev->lock);
	if (eng->completion_deferred)
		engine_process_completions(eng);
	struct swgpu_job *job =
		eng->hwq[h].inflight[seqno & eng->hwq[h].inflight_mask];
	/* Waits on other engines (or our other HWQ) have passed their
	 * fences: finish those jobs now so a failed one fails this job
	 * too. */
	for (uint32_t i = 0; i < job->wait_count; i++) {
		struct swgpu_job *d = job->waits[i].dep;
		if (d && (d->engine != eng->index || d->hwq != h) &&
		    (d->state == JOB_QUEUED || d->state == JOB_RUNNING))
			fence_process(dev->engines[d->engine], d->hwq,
			              d->engine_seqno);
		if (d && d->state == JOB_ERROR)
			job->dep_failed = true;
	}
	*skip = job_doomed(job) || job->dep_failed ||
	        atomic_load(&dev->abort);
	memset(&job->save, 0, sizeof(job->save));
	if (*skip) {
		job->skipped = true;
	} else {
		job->state = JOB_RUNNING;
		job->run_engine = eng->index;
		job->start_ns = swgpu_now_ns();
		job->ran_ns = 0;
		job->ran_since = job->start_ns;
		job->prio_busy_start = atomic_load_explicit(
			&eng->prio_busy_ns, memory_order_relaxed);
		trace_job(job, JOB_RUNNING);
	}
	dev_unlock_wake_host(dev);
	return job;
}

/* Trace hook of draw packets (engine thread). */
static void
engine_draw_hook(void *cookie, uint32_t opcode, uint64_t start_ns,
                 uint64_t end_ns, const struct gfx_draw_stats *st)
{
	struct swgpu_engine *eng = cookie;

	if (eng->dev->trace && eng->cur)
		trace_draw(eng->cur, exec_op_name(opcode), start_ns, end_ns,
		           st);
}

/* The graphics state of the job's HWQ on its ring's engine (NULL on
 * other engine classes). */
static struct gfx_state *
job_gfx_state(struct swgpu_device *dev, const struct swgpu_job *job)
{
	return dev->engines[job->engine]->gfx[job->hwq < ENGINE_HWQ_COUNT ?
	                                      job->hwq : 0];
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
	env->draw_hook = engine_draw_hook;
	env->dev = dev; /* save area allocations (dispatch_save.c) */
	/* Which HWQ's graphics state: the job's own (set at JOB_BEGIN), of
	 * its ring's engine, also when another engine of the class took
	 * the job over (engine_lend.c: that one holds the stream). */
	env->gfx = job_gfx_state(dev, job);
}

static void
job_fault_done(struct swgpu_engine *eng, struct swgpu_job *job)
{
	/* The 3D pipe's registers as the fault left them, for the dump. */
	if (job_gfx_state(eng->dev, job))
		gfx_state_describe(job_gfx_state(eng->dev, job),
		                   job->gfx_regs, sizeof(job->gfx_regs));
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

enum ib_result { IB_DONE, IB_FAULT, IB_PREEMPTED };

/* Run (or, with a resume point in job->save, go on with) one IB of the
 * job. Main HWQ streams are preemptible. */
static enum ib_result
job_run_ib(struct swgpu_engine *eng, uint32_t h, struct swgpu_job *job,
           uint64_t va, uint32_t size_dw)
{
	struct exec_env env;

	exec_env_init(eng, job, &env);
	env.save = &job->save;
	env.preempt_hook = hwq_is_main(h) ? engine_preempt_hook
	                                  : engine_prio_hook;
	env.chaos = hwq_is_main(h) ? eng->dev->cfg.preempt_chaos : 0;
	job->save.resuming = job->save.valid;
	if (job->save.view.valid)
		dump_save_clear(eng->dev, &job->save); /* goes on */
	/* The ring is depth 0: a ring IB runs at depth 1. */
	if (exec_ib(&env, va, size_dw, 1))
		return IB_DONE;
	if (!env.preempted)
		return IB_FAULT;
	if (engine_should_abort(eng))
		return IB_PREEMPTED; /* stopped to be skipped */
	if (!hwq_is_main(h))
		eng->prio_yielded = true; /* outlived its slice */
	__atomic_fetch_add(&eng->exec_stats.preemptions, 1, __ATOMIC_RELAXED);
	if (swgpu_debug_env())
		swgpu_log("engine %u: job %u:%u:%llu preempted at IB depth %u "
		          "dword %u, offset %llu", eng->index, job->ctx_id,
		          job->queue_id, (unsigned long long)job->seqno,
		          job->save.depth, job->save.pos[job->save.depth],
		          (unsigned long long)job->save.offset);
	dump_save_publish(eng->dev, &job->save);
	return IB_PREEMPTED;
}

/* Completions of owner's main HWQ h after eng (another engine of the
 * class) finished a job of it: owner's thread-local counters stay its
 * own. */
static void
engine_process_lent(struct swgpu_engine *eng, struct swgpu_engine *owner,
                    uint32_t h)
{
	struct swgpu_device *dev = eng->dev;

	pthread_mutex_lock(&dev->lock);
	eng->stats = eng->exec_stats;
	eng->busy_ns = eng->busy_local;
	dev->host_wake_defer = true;
	fence_process(owner, h, engine_hwq_fence_read(owner, h));
	dev->host_wake_defer = false;
	if (dev->pending_jobs)
		sched_run(dev);
	dev_unlock_wake_host(dev);
}

/* The job of owner's HWQ h ends on eng (owner, or the engine that took
 * over owner's paused main HWQ job). */
static void
job_end(struct swgpu_engine *eng, struct swgpu_engine *owner, uint32_t h,
        struct swgpu_job *job, uint64_t seqno, bool defer)
{
	struct swgpu_device *dev = eng->dev;
	struct hwq_exec *x = &owner->run[h];
	uint64_t now = swgpu_now_ns();

	if (job) {
		job->trace.end_ns = now;
		/* Read by completion after the fence store below. Time the
		 * job spent paused (a preempting job's, or waiting for an
		 * engine) is not its own. */
		uint64_t wall = now - x->t0;
		uint64_t own = wall - (x->stolen_ns < wall ? x->stolen_ns
		                                           : wall);
		job->run_ns = job->skipped ? 0 : own;
		eng->busy_local += job->run_ns;
		/* A demoted job's own time only: the main HWQs ran in its
		 * pauses. */
		if (h == ENGINE_HWQ_PRIO)
			atomic_fetch_add_explicit(&eng->prio_busy_ns, own,
			                          memory_order_relaxed);
	}
	x->stolen_ns = 0;
	x->paused = false;
	/* Release: everything the job wrote is visible to whoever reads
	 * the fence with acquire (other engines' SEM_WAIT, completion). */
	atomic_store_explicit(&owner->hwq[h].fence, seqno,
	                      memory_order_release);
	dev_wake_gpu(dev);

	if (eng != owner) {
		engine_process_lent(eng, owner, h);
		return;
	}
	if (defer) {
		/* The next job begins right away and takes the lock then:
		 * its JOB_BEGIN processes this completion (coalesced). */
		eng->completion_deferred = true;
		return;
	}
	/* swgpud: the client this wakes may write its next record at
	 * once; it should find the engine idle, not busy (which sends it
	 * to the session thread). The loop's next turn serves the rings. */
	srv_idle_early(eng);
	pthread_mutex_lock(&dev->lock);
	engine_process_completions(eng);
	dev_unlock_wake_host(dev);
}

/* A job must close every pass it opens (swgpu_packet.h, END_PASS). */
static void
job_pass_left_open(struct swgpu_engine *eng, struct swgpu_job *job)
{
	struct exec_env env;
	const struct pkt p = { .opcode = SWGPU_OP_END_PASS };

	exec_env_init(eng, job, &env);
	raise_fault(&env, &p, SWGPU_FAULT_BAD_PACKET, 0,
	            "job ended with a pass open");
	job_fault_done(eng, job);
}

/* The job's armed fault, at its JOB_BEGIN. */
static void
job_start_injected(struct swgpu_engine *eng, struct hwq_exec *x)
{
	struct swgpu_job *job = x->job;
	struct exec_env env;

	exec_env_init(eng, job, &env);
	if (!job_inject_fault(eng, job, &env)) {
		job_fault_done(eng, job);
		x->skip = true;
	}
}

/* JOB_IBS: the job's IB list, from job->save.ib_index on. Returns false
 * when preempted (the packet runs again to resume). */
static bool
job_run_ib_list(struct swgpu_engine *eng, uint32_t h, struct hwq_exec *x)
{
	struct swgpu_job *job = x->job;
	const uint32_t first = job->save.ib_index;

	for (uint32_t i = first; !x->skip && i < job->ib_count; i++) {
		job->save.ib_index = i;
		if (i != first && (hwq_is_main(h) ? main_should_yield(eng)
		                                  : prio_should_yield(eng))) {
			if (!hwq_is_main(h))
				eng->prio_yielded = true;
			__atomic_fetch_add(&eng->exec_stats.preemptions, 1,
			                   __ATOMIC_RELAXED);
			dump_save_publish(eng->dev, &job->save);
			return false; /* preempted between two IBs */
		}
		if (i != first && engine_should_abort(eng)) {
			x->skip = true;
			job->skipped = true;
			break;
		}
		enum ib_result r = job_run_ib(eng, h, job, job->ibs[i].va,
		                              job->ibs[i].size_dw);
		if (r == IB_PREEMPTED)
			return false;
		if (r == IB_FAULT) {
			job_fault_done(eng, job);
			x->skip = true;
		}
	}
	return true;
}

/* Publish what the engine does to swgpud's clients (ring_server.h). */
static void
srv_state(struct swgpu_engine *eng, const struct kmd_ring_server *srv,
          uint32_t state)
{
	if (eng->srv_state == state)
		return;
	eng->srv_state = state;
	srv->engine_state(srv->arg, eng->index, state);
}

/* The engine runs a job: busy for the clients, then every record they
 * wrote while they saw it otherwise (nothing if it is busy already or
 * serves no ring). */
static void
srv_busy(struct swgpu_engine *eng, const struct kmd_ring_server *srv)
{
	if (!srv || eng->srv_state == KMD_ENGINE_BUSY)
		return;
	srv_state(eng, srv, KMD_ENGINE_BUSY);
	srv->serve(srv->arg, eng->index);
}

/* Execute the packet at HWQ h's read pointer (wptr: its published write
 * pointer). Returns with the read pointer advanced, or unchanged when the
 * packet was preempted and is to run again (resume). */
void
engine_step(struct swgpu_engine *eng, struct swgpu_engine *owner, uint32_t h,
            uint64_t wptr)
{
	struct swgpu_ring *ring = &owner->hwq[h].ring;
	struct hwq_exec *x = &owner->run[h];
	uint32_t pkt[8];
	uint32_t hdr = ring_dw(ring, x->rptr);
	uint32_t op = swgpu_pkt_opcode(hdr), len = swgpu_pkt_len(hdr);
	bool done = true;

	/* Whichever path brought the packet (work engine_main saw, work
	 * that came after its look): a client that sees this engine idle
	 * only bumps its bell, and its record would wait for the end of
	 * what runs here. */
	engine_srv_busy(eng);

	if (!len || len > SWGPU_ARRAY_SIZE(pkt) || len > wptr - x->rptr) {
		/* Only the scheduler writes rings: a driver bug. */
		swgpu_log("engine %u: corrupt ring %u at %llu (header "
		          "0x%08x)", eng->index, h,
		          (unsigned long long)x->rptr, hdr);
		abort();
	}
	ring_read(ring, x->rptr, pkt, len);
	struct swgpu_job *job = x->job;
	eng->cur = job;
	if (job && !x->skip && engine_should_abort(eng)) {
		x->skip = true;
		job->skipped = true;
	}

	switch (op) {
	case SWGPU_OP_SEM_WAIT:
		/* Before JOB_BEGIN: only the ring's own engine gets here. */
		done = !hwq_is_main(h) || ring_sem_wait(eng, h, pkt);
		break;
	case RING_OP_JOB_BEGIN:
		x->t0 = swgpu_now_ns();
		x->stolen_ns = 0;
		job = x->job = eng->cur =
			job_begin(eng, h, swgpu_pkt_get64(pkt + 1), &x->skip);
		if (!x->skip && h == ENGINE_HWQ_PRIO) {
			__atomic_fetch_add(&eng->exec_stats.preempt_jobs, 1,
			                   __ATOMIC_RELAXED);
			engine_prio_slice_start(eng, x->t0);
		}
		/* Its context's memory stays put until its end. */
		if (!x->skip)
			x->pinned = residency_job_begin(&eng->dev->mem,
			                                job->ctx->vs);
		/* Nothing of the 3D pipe's state carries over between
		 * jobs. */
		if (eng->gfx[h])
			gfx_state_reset(eng->gfx[h]);
		/* Armed: fault before the first IB (or the fence of a
		 * sync-only job). */
		if (!x->skip && job->inject != SWGPU_FAULT_NONE)
			job_start_injected(eng, x);
		break;
	case SWGPU_OP_INDIRECT_BUFFER:
		if (job && !x->skip) {
			enum ib_result r = job_run_ib(eng, h, job,
			                              swgpu_pkt_get64(pkt + 1),
			                              pkt[3]);
			done = r != IB_PREEMPTED;
			if (r == IB_FAULT) {
				job_fault_done(eng, job);
				x->skip = true;
			}
		}
		break;
	case RING_OP_JOB_IBS:
		if (job && !x->skip)
			done = job_run_ib_list(eng, h, x);
		break;
	case SWGPU_OP_SEM_SIGNAL: {
		if (job && !x->skip && owner->gfx[h] &&
		    gfx_state_pass_open(owner->gfx[h]))
			job_pass_left_open(eng, job);
		/* Coalesce with the next job's begin only if it is already
		 * in this ring and starts at once (no ring SEM_WAIT to sleep
		 * in before processing), on the ring's own engine. */
		uint64_t next = x->rptr + len;
		bool defer = eng == owner && next != wptr &&
		             swgpu_pkt_opcode(ring_dw(ring, next)) ==
		                     RING_OP_JOB_BEGIN;
		/* Before the fence: a host that saw the job done finds its
		 * memory evictable. */
		residency_job_end(x->pinned);
		x->pinned = NULL;
		if (job)
			exec_save_release(&job->save); /* its save area */
		x->job = NULL;
		eng->cur = NULL;
		if (h == ENGINE_HWQ_PRIO)
			atomic_store_explicit(&owner->prio_slice_end_ns, 0,
			                      memory_order_relaxed);
		job_end(eng, owner, h, job, swgpu_pkt_get64(pkt + 3), defer);
		x->skip = false;
		break;
	}
	default:
		swgpu_log("engine %u: unexpected ring opcode 0x%x",
		          eng->index, op);
		abort();
	}
	if (!done)
		return; /* preempted: HWQ 1 runs, then this packet again */
	x->rptr += len;
	/* Release: we are done reading these dwords. */
	atomic_store_explicit(&ring->rptr, x->rptr, memory_order_release);
}

/* Run one packet of the HWQ that goes first: HWQ 1 whenever it holds
 * work (the main HWQ running is then at a preemption point, or between
 * two of its packets), else the main HWQ whose turn it is
 * (engine_rotate.c). False when none has work this thread may run. */
static bool
engine_step_next(struct swgpu_engine *eng)
{
	uint64_t wptr = atomic_load_explicit(
		&eng->hwq[ENGINE_HWQ_PRIO].ring.wptr, memory_order_acquire);

	if (wptr != eng->run[ENGINE_HWQ_PRIO].rptr && !prio_demoted(eng)) {
		/* HWQ 1 work pauses the main HWQ's job (the trace shows the
		 * engine running one job at a time); an idle engine of the
		 * class may then take it over. */
		engine_pause_main(eng, atomic_load_explicit(
			&eng->main_cur, memory_order_relaxed));
		engine_step(eng, eng, ENGINE_HWQ_PRIO, wptr);
		/* It outlived its slice while a main HWQ waits: from now
		 * on it takes turns with them. */
		if (eng->prio_yielded) {
			eng->prio_yielded = false;
			engine_prio_demote(eng);
		}
		return true;
	}
	uint32_t h = engine_pick_main(eng);
	if (h == ENGINE_HWQ_NONE)
		return false;
	if (!main_take_back(eng, h))
		return true; /* just taken by another engine: pick again */
	struct hwq_exec *m = &eng->run[h];
	wptr = atomic_load_explicit(&eng->hwq[h].ring.wptr,
	                            memory_order_acquire);
	if (wptr == m->rptr)
		return false;
	/* A completion deferred to the next JOB_BEGIN, but another HWQ's
	 * turn came first (it may resume a job for a whole slice or wait
	 * in a SEM_WAIT): process it now. */
	if (eng->completion_deferred &&
	    swgpu_pkt_opcode(ring_dw(&eng->hwq[h].ring, m->rptr)) !=
	            RING_OP_JOB_BEGIN) {
		pthread_mutex_lock(&eng->dev->lock);
		if (eng->completion_deferred)
			engine_process_completions(eng);
		dev_unlock_wake_host(eng->dev);
	}
	if (m->job && m->paused)
		engine_publish_pause(eng, m, false);
	bool had_job = m->job != NULL;
	/* The HWQ is charged its jobs' IBs only: a JOB_BEGIN may process
	 * other HWQs' completions and refill their rings. */
	uint32_t op = swgpu_pkt_opcode(ring_dw(&eng->hwq[h].ring, m->rptr));
	bool charged = op == SWGPU_OP_INDIRECT_BUFFER ||
	               op == RING_OP_JOB_IBS;
	uint64_t t0 = charged ? swgpu_now_ns() : 0;
	engine_step(eng, eng, h, wptr);
	eng->prio_yielded = false; /* a demoted job: already in turn */
	if (charged)
		engine_charge_main(eng, h, swgpu_now_ns() - t0);
	/* A job boundary: the HWQ with the least weighted time goes on. */
	if (had_job && !m->job) {
		if (hwq_is_main(h)) {
			engine_main_job_done(eng, h);
			eng->main_repick = true;
		} else {
			engine_prio_demote_end(eng);
		}
	}
	return true;
}

void
engine_srv_busy(struct swgpu_engine *eng)
{
	srv_busy(eng, atomic_load_explicit(&eng->dev->ring_server,
	                                   memory_order_acquire));
}

/* A job of this engine completes and nothing follows it at once: idle
 * for the clients before they are woken (the loop's next turn, seeing
 * the state is not busy, serves the rings before anything else). */
static void
srv_idle_early(struct swgpu_engine *eng)
{
	const struct kmd_ring_server *srv = atomic_load_explicit(
		&eng->dev->ring_server, memory_order_acquire);

	if (srv)
		srv_state(eng, srv, KMD_ENGINE_IDLE);
}

/* doorbell_wait_many's look before sleeping: asleep for the clients
 * first (seq_cst), then their bells read, then their rings. */
static bool
srv_ready(void *arg, struct futex_word *more, unsigned max, unsigned *n)
{
	struct swgpu_engine *eng = arg;
	const struct kmd_ring_server *srv = atomic_load_explicit(
		&eng->dev->ring_server, memory_order_acquire);

	srv_state(eng, srv, KMD_ENGINE_ASLEEP);
	*n = srv->bells(srv->arg, eng->index, more, max);
	return srv->pending(srv->arg);
}

static void *
engine_main(void *arg)
{
	struct swgpu_engine *eng = arg;

	/* Woken for every submit: on a contended CPU the wake-up should
	 * not wait for a busy thread's whole slice (issue 20 item 8). */
	spin_request_short_slice(ENGINE_SLICE_NS);
	/* Its timed sleeps (SEM_WAIT slices) end on time (spin.h). */
	spin_timer_slack_own_thread();
	for (;;) {
		const struct kmd_ring_server *srv = atomic_load_explicit(
			&eng->dev->ring_server, memory_order_acquire);

		if (atomic_load_explicit(&eng->dev->dump_pending,
		                         memory_order_relaxed))
			device_fault_dump(eng->dev);
		/* Leaving idle for work: clients ring the session thread
		 * from now on; what they wrote while they saw us idle is
		 * taken first. Only with work in sight: a client woken by
		 * the job just completed must find us idle, not busy. */
		if (srv && eng->srv_state != KMD_ENGINE_BUSY &&
		    (hwq_has_work(eng, ENGINE_HWQ_PRIO) || main_has_work(eng)))
			srv_busy(eng, srv);
		if (engine_step_next(eng))
			continue;
		if (engine_take_over(eng))
			continue;
		if (atomic_load(&eng->doorbell.stop)) {
			/* A job of ours runs on another engine: it gives
			 * the stream back soon (the device aborts). */
			bool lent = false;
			for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
				lent |= atomic_load(&eng->main_lend[h]) >=
				        ENGINE_LEND_TAKEN;
			if (!lent)
				break;
			sched_yield();
			continue;
		}
		if (srv) {
			/* Idle: every record, then the spin and the sleep
			 * (the clients' bells wake it too). */
			srv_state(eng, srv, KMD_ENGINE_IDLE);
			if (srv->serve(srv->arg, eng->index))
				continue;
		}
		if (eng->gfx_pool)
			gfx_pool_idle(eng->gfx_pool);
		if (engine_poll(eng, srv))
			continue;
		if (srv ? doorbell_wait_many(&eng->doorbell, srv_ready, eng)
		        : doorbell_wait(&eng->doorbell))
			eng->doorbells_local++;
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
