/* SPDX-License-Identifier: MIT */
/*
 * A preempted job resumes on another engine of its class (engine.h,
 * ENGINE_LEND_*): the engine that paused a main HWQ's job (for its HWQ 1
 * work or another main HWQ's turn) offers that stream; an idle engine of the class takes it over and runs
 * the job from its save area on its own thread, until the job ends or
 * the engine gets work of its own, then gives the stream back.
 */
#include "hw/engine_lend.h"

#include "hw/gfx/gfx.h"
#include "kmd/job.h"

/* Main HWQ work this engine's thread may run: none in a stream another
 * engine holds (run[h] is the holder's then); a paused stream offered to
 * others (OPEN) is taken back by engine_step_next. */
bool
main_has_work(struct swgpu_engine *eng)
{
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
		if (!hwq_is_main(h))
			continue;
		uint32_t lend = atomic_load_explicit(&eng->main_lend[h],
		                                     memory_order_acquire);
		if (lend == ENGINE_LEND_OPEN ||
		    (lend == ENGINE_LEND_NONE && hwq_has_work(eng, h)))
			return true;
	}
	return false;
}

/* Should the main HWQ job running on eng stop at this preemption point?
 * Its engine's HWQ 1 has work (not a demoted job: that one waits for its
 * turn), its slice is over and another HWQ of the rotation waits, or eng
 * runs another engine's job and got work of its own (that job goes back
 * to its engine's stream). Also asked for a demoted HWQ 1 job. */
bool
main_should_yield(struct swgpu_engine *eng)
{
	if (prio_preempts(eng))
		return true;
	if (atomic_load_explicit(&eng->borrowing, memory_order_relaxed))
		return main_other_busy(eng, ENGINE_HWQ_PRIO);
	if (atomic_load_explicit(&eng->resched, memory_order_relaxed))
		return true;
	uint64_t end = atomic_load_explicit(&eng->slice_end_ns,
	                                    memory_order_relaxed);
	if (!end)
		return false;
	uint32_t cur = atomic_load_explicit(&eng->main_cur,
	                                    memory_order_relaxed);
	/* The clock only when somebody waits for the engine. */
	return main_other_busy(eng, cur) && swgpu_now_ns() >= end;
}


/* The main HWQ job of x lost (paused) or regained the engine; eng is the
 * engine whose thread runs it (its ring's, or one that took it over).
 * Publishes where it resumes for the state dump (job->save is the stream
 * holder's) and which engine runs it. Once per preemption, so the lock
 * is no cost per packet. */
void
engine_publish_pause(struct swgpu_engine *eng, struct hwq_exec *x,
                     bool paused)
{
	struct swgpu_job *job = x->job;
	uint64_t now = swgpu_now_ns();

	if (paused) {
		if (!x->skip)
			trace_job_preempted(job);
		x->pause_t = now;
	} else {
		/* Paused time is not the job's own (job_end). */
		x->stolen_ns += now - x->pause_t;
	}
	pthread_mutex_lock(&eng->dev->lock);
	job->preempted = paused;
	/* Its own engine time so far, for the scheduler (sched.c). */
	if (paused && job->ran_since) {
		job->ran_ns += now - job->ran_since;
		job->ran_since = 0;
	} else if (!paused) {
		job->ran_since = now;
	}
	if (paused) {
		job->resume_at = job->save;
		job->preemptions++;
	} else if (job->run_engine != eng->index) {
		job->run_engine = eng->index;
		if (eng->index != job->engine)
			eng->resumed_here++;
	}
	pthread_mutex_unlock(&eng->dev->lock);
	x->paused = paused;
	if (!paused && !x->skip)
		trace_job_resumed(job);
}

/* May a paused main HWQ job of eng resume on another engine of its class?
 * Graphics jobs too: their 3D pipe state (eng->gfx[h]) goes with the
 * stream and runs on the taking engine's raster threads
 * (engine_run_lent). */
bool
engine_lends(const struct swgpu_engine *eng)
{
	const struct swgpu_device *dev = eng->dev;

	return !dev->cfg.no_migrate &&
	       !dev->cfg.no_preempt &&
	       dev->info.engine_class_count[eng->engine_class] > 1;
}

/* Main HWQ h is about to be stepped by its own thread: take the stream
 * back if it was offered to other engines. False while another holds
 * it. */
bool
main_take_back(struct swgpu_engine *eng, uint32_t h)
{
	uint32_t lend = atomic_load_explicit(&eng->main_lend[h],
	                                     memory_order_acquire);

	if (lend == ENGINE_LEND_NONE)
		return true;
	if (lend != ENGINE_LEND_OPEN)
		return false;
	return atomic_compare_exchange_strong_explicit(
		&eng->main_lend[h], &lend, ENGINE_LEND_NONE,
		memory_order_acq_rel, memory_order_acquire);
}

/* Run owner's paused main HWQ h job on eng (idle, holding the stream)
 * until it ends or eng gets work of its own; then give the stream back. */
static void
engine_run_lent(struct swgpu_engine *eng, struct swgpu_engine *owner,
                uint32_t h)
{
	struct hwq_exec *x = &owner->run[h];
	struct swgpu_job *job = x->job;

	/* Busy for swgpud's clients before the job counts as resumed
	 * here (test_api_migrate checks that order). */
	engine_srv_busy(eng);
	atomic_store_explicit(&eng->borrowing, true, memory_order_relaxed);
	if (swgpu_debug_env())
		swgpu_log("engine %u: resumes job %u:%u:%llu preempted on "
		          "engine %u", eng->index, job->ctx_id, job->queue_id,
		          (unsigned long long)job->seqno, owner->index);
	engine_publish_pause(eng, x, false);
	/* A draw goes on with the job's graphics state (the stream's, like
	 * run[h]) on this engine's raster threads. */
	bool gfx = owner->gfx[h] && gfx_state_set_pool(owner->gfx[h],
	                                                eng->gfx_pool);
	while (x->job == job) {
		uint64_t wptr = atomic_load_explicit(
			&owner->hwq[h].ring.wptr, memory_order_acquire);
		if (wptr == x->rptr || main_should_yield(eng))
			break;
		engine_step(eng, owner, h, wptr);
	}
	uint32_t back = ENGINE_LEND_NONE;
	if (x->job == job) {
		/* Stopped for eng's own work: paused again, on offer. */
		engine_publish_pause(eng, x, true);
		back = ENGINE_LEND_OPEN;
	}
	eng->cur = NULL;
	if (gfx)
		gfx_state_set_pool(owner->gfx[h], owner->gfx_pool);
	atomic_store_explicit(&eng->borrowing, false, memory_order_relaxed);
	atomic_store_explicit(&owner->main_lend[h], back,
	                      memory_order_release);
	doorbell_ring(&owner->doorbell);
}

/* eng's rings are empty: take over a main HWQ job another engine of the
 * class paused (for its HWQ 1 work or another HWQ's turn). */
bool
engine_take_over(struct swgpu_engine *eng)
{
	struct swgpu_device *dev = eng->dev;

	if (!engine_lends(eng) ||
	    main_has_work(eng) ||
	    atomic_load_explicit(&dev->abort, memory_order_relaxed))
		return false;
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
		if (hwq_is_main(h) &&
		    atomic_load_explicit(&eng->main_lend[h],
		                         memory_order_acquire) !=
		            ENGINE_LEND_NONE)
			return false; /* our own job runs elsewhere */
	for (uint32_t e = 0; e < dev->engine_count; e++) {
		struct swgpu_engine *o = dev->engines[e];

		if (o == eng || o->engine_class != eng->engine_class)
			continue;
		/* A draw's state needs raster threads of its own count
		 * (gfx_state_set_pool): always so within one device. */
		if (o->gfx_pool && gfx_pool_threads(o->gfx_pool) !=
		                   gfx_pool_threads(eng->gfx_pool))
			continue;
		for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
			uint32_t open = ENGINE_LEND_OPEN;

			if (!hwq_is_main(h) ||
			    atomic_load_explicit(&o->main_lend[h],
			                         memory_order_relaxed) != open)
				continue;
			if (!atomic_compare_exchange_strong_explicit(
				    &o->main_lend[h], &open,
				    ENGINE_LEND_TAKEN + eng->index,
				    memory_order_acq_rel,
				    memory_order_relaxed))
				continue;
			engine_run_lent(eng, o, h);
			return true;
		}
	}
	return false;
}

