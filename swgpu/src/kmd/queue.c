/* SPDX-License-Identifier: MIT */
/* Queues: software queues of jobs on the engines of one class (the
 * engine is chosen per job, sched_slice.c). */
#include <stdlib.h>
#include <string.h>

#include "kmd/context.h"
#include "hw/engine.h"
#include "kmd/job.h"
#include "kmd/owner.h"
#include "remote/remote.h"

swgpu_result
swgpu_queue_create(swgpu_context *ctx, swgpu_engine_class engine_class,
                   uint32_t engine_index, swgpu_priority priority,
                   swgpu_queue **out)
{
	if (remote_is(ctx))
		return rc_queue_create(ctx, engine_class, engine_index, priority, out);
	if (!ctx || !out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL context or out");
	struct swgpu_device *dev = ctx->dev;
	if ((unsigned)engine_class >= SWGPU_ENGINE_CLASS_COUNT ||
	    (unsigned)priority >= SWGPU_PRIORITY_COUNT)
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
		               "engine class %d priority %d",
		               (int)engine_class, (int)priority);
	/* In swgpud, the daemon's rule for the client (owner.h). */
	if (priority > kmd_owner_max_priority()) {
		swgpu_log("swgpud: client %d (%s) may not use priority %d "
		          "(at most %d: README, \"Global priority\")",
		          kmd_owner_pid(), kmd_owner_program(), (int)priority,
		          (int)kmd_owner_max_priority());
		return SWGPU_ERR_NOT_PERMITTED;
	}
	if (!dev->info.engine_class_count[engine_class])
		return DEV_ERR(dev, SWGPU_ERR_UNSUPPORTED,
		               "no engine of class %d", (int)engine_class);
	if (engine_index != SWGPU_ENGINE_ANY &&
	    engine_index >= dev->info.engine_class_count[engine_class])
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
		               "engine index %u of class %d", engine_index,
		               (int)engine_class);

	struct swgpu_queue *q = calloc(1, sizeof(*q));
	if (!q)
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "queue");

	pthread_mutex_lock(&dev->lock);
	struct swgpu_engine *eng = NULL;
	for (uint32_t e = 0; e < dev->engine_count; e++) {
		struct swgpu_engine *c = dev->engines[e];
		if (c->engine_class != engine_class)
			continue;
		if (engine_index != SWGPU_ENGINE_ANY) {
			if (c->index_in_class == engine_index)
				eng = c;
		} else if (!eng || c->queue_count < eng->queue_count) {
			eng = c; /* least loaded by queue count */
		}
	}
	q->dev = dev;
	q->ctx = ctx;
	q->id = dev->next_queue_id++;
	q->engine = eng->index;
	q->priority = priority;
	dlist_init(&q->fifo);
	atomic_init(&q->completed, 0);
	atomic_init(&q->aborting, false);
	q->wait_min = UINT64_MAX;
	eng->queue_count++;
	dlist_add_tail(&q->run_link, &eng->runlist[priority]);
	eng->runlist_len[priority]++;
	dlist_add_tail(&q->ctx_link, &ctx->queues);
	dlist_add_tail(&q->dev_link, &dev->queues);
	trace_queue_created(q);
	pthread_mutex_unlock(&dev->lock);
	*out = q;
	return SWGPU_OK;
}

void
queue_free_locked(struct swgpu_queue *q)
{
	q->dev->engines[q->engine]->queue_count--;
	q->dev->engines[q->engine]->runlist_len[q->priority]--;
	dlist_del(&q->run_link);
	dlist_del(&q->ctx_link);
	dlist_del(&q->dev_link);
	free(q);
}

/* Is a job of q stopped at a preemption point (not running)? Its main
 * HWQ jobs are all in one main HWQ of its engine (sched_slice.c,
 * sched.c). dev->lock held. */
static bool
hwq_job_preempted(const struct engine_hwq *hw, const struct swgpu_queue *q)
{
	for (uint64_t s = hw->processed + 1; seqno_passed(hw->emitted, s);
	     s++) {
		const struct swgpu_job *j = hw->inflight[s & hw->inflight_mask];
		if (j && j->q == q && j->preempted)
			return true;
	}
	return false;
}

/* A job of q paused in its main HWQ, or in HWQ 1 (a demoted one,
 * engine_rotate.c). */
static bool
queue_job_preempted(const struct swgpu_queue *q)
{
	const struct swgpu_engine *eng = q->dev->engines[q->engine];

	if (q->main_inflight &&
	    hwq_job_preempted(&eng->hwq[q->main_hwq], q))
		return true;
	return q->inflight > q->main_inflight &&
	       hwq_job_preempted(&eng->hwq[ENGINE_HWQ_PRIO], q);
}

/*
 * Cancel the pending jobs, let the ring jobs finish within the hang
 * timeout, then have the engine drop the rest at the next packet
 * boundary (packets are bounded, so that wait ends). A job of the queue
 * that is preempted (in its main HWQ, or a demoted one in HWQ 1), or
 * pauses while we wait, is dropped at once: it resumes only to end (its
 * save area freed), instead of running on for up to the timeout.
 * dev->lock held; it is dropped while waiting.
 */
void
queue_destroy_locked(struct swgpu_queue *q)
{
	struct swgpu_device *dev = q->dev;
	uint64_t deadline = swgpu_deadline_from_timeout(
		(uint64_t)dev->cfg.hang_timeout_ms * 1000000u);

	q->cancelled = true;
	sched_run(dev);
	if (q->inflight && queue_job_preempted(q)) {
		atomic_store(&q->aborting, true);
		dev_wake_gpu(dev);
	}
	while (q->inflight || !dlist_empty(&q->fifo)) {
		/* One that was running may have paused since (its slice
		 * ended): dropped then too. */
		if (!atomic_load(&q->aborting) && q->inflight &&
		    queue_job_preempted(q)) {
			atomic_store(&q->aborting, true);
			dev_wake_gpu(dev);
		}
		uint64_t until = deadline;
		if (atomic_load(&q->aborting))
			until = swgpu_deadline_from_timeout(10000000u);
		else if (q->inflight && dev->cfg.slice_ms) {
			/* A pause wakes nobody: look again each slice. */
			until = swgpu_deadline_from_timeout(
				(uint64_t)dev->cfg.slice_ms * 1000000u);
			if (until > deadline)
				until = deadline;
		}
		dev->host_waiters++;
		bool woken = cond_wait_until(&dev->host_cond, &dev->lock,
		                             until);
		dev->host_waiters--;
		if (!woken && swgpu_now_ns() >= deadline &&
		    !atomic_load(&q->aborting)) {
			swgpu_log("queue %u: jobs still running after %u ms, "
			          "aborting them", q->id,
			          dev->cfg.hang_timeout_ms);
			atomic_store(&q->aborting, true);
			dev_wake_gpu(dev);
		}
		sched_run(dev);
	}
	queue_free_locked(q);
}

void
swgpu_queue_destroy(swgpu_queue *q)
{
	if (remote_is(q)) {
		rc_queue_destroy(q);
		return;
	}
	if (!q)
		return;
	struct swgpu_device *dev = q->dev;
	pthread_mutex_lock(&dev->lock);
	queue_destroy_locked(q);
	pthread_mutex_unlock(&dev->lock);
}

uint32_t
swgpu_queue_id(const swgpu_queue *q)
{
	if (remote_is(q))
		return rc_queue_id(q);
	return q ? q->id : UINT32_MAX;
}

uint32_t
swgpu_queue_engine(const swgpu_queue *q)
{
	if (remote_is(q))
		return rc_queue_engine(q);
	if (!q)
		return UINT32_MAX;
	/* The scheduler moves queues (sched_slice.c) under the lock. */
	struct swgpu_device *dev = q->dev;
	pthread_mutex_lock(&dev->lock);
	uint32_t e = q->engine;
	pthread_mutex_unlock(&dev->lock);
	return e;
}

uint64_t
swgpu_queue_completed(const swgpu_queue *q)
{
	if (remote_is(q))
		return rc_queue_completed(q);
	if (!q)
		return 0;
	return atomic_load_explicit(&((struct swgpu_queue *)q)->completed,
	                            memory_order_acquire);
}

swgpu_result
swgpu_queue_wait(swgpu_queue *q, uint64_t seqno, uint64_t deadline_ns)
{
	if (remote_is(q))
		return rc_queue_wait(q, seqno, deadline_ns);
	if (!q)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL queue");
	struct swgpu_device *dev = q->dev;
	swgpu_result r = SWGPU_OK;

	pthread_mutex_lock(&dev->lock);
	if (!seqno)
		seqno = q->submitted;
	if (seqno > q->submitted) {
		pthread_mutex_unlock(&dev->lock);
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
		               "seqno %llu > last submitted %llu",
		               (unsigned long long)seqno,
		               (unsigned long long)q->submitted);
	}
	uint64_t spin_now = swgpu_now_ns();
	uint64_t spin_end = swgpu_add_sat(spin_now,
	                                  spin_budget_get(&dev->host_spin,
	                                                  spin_now));
	uint32_t qid = q->id;
	dev_api_wait_enter(dev);
	for (;;) {
		if (atomic_load(&dev->closing) && !q->inflight &&
		    dlist_empty(&q->fifo)) {
			/* Close cancelled everything; the queue is going. */
			r = atomic_load(&q->completed) >= seqno &&
			            q->last_failed != seqno ?
			        SWGPU_OK : SWGPU_ERR_CONTEXT_LOST;
			break;
		}
		if (q->ctx->state != SWGPU_CONTEXT_OK) {
			r = SWGPU_ERR_CONTEXT_LOST;
			break;
		}
		if (atomic_load_explicit(&q->completed,
		                         memory_order_relaxed) >= seqno) {
			if (seqno && q->last_failed == seqno)
				r = SWGPU_ERR_CONTEXT_LOST;
			break;
		}
		uint64_t now = swgpu_now_ns();
		if (now >= deadline_ns) {
			r = SWGPU_TIMEOUT;
			break;
		}
		if (now < spin_end) {
			pthread_mutex_unlock(&dev->lock);
			spin_enter();
			while (atomic_load_explicit(&q->completed,
			                            memory_order_acquire) <
			               seqno &&
			       (now = swgpu_now_ns()) < spin_end &&
			       now < deadline_ns &&
			       !atomic_load_explicit(&dev->closing,
			                             memory_order_relaxed))
				;
			spin_leave();
			spin_budget_feedback(&dev->host_spin,
			                     atomic_load_explicit(
			                             &q->completed,
			                             memory_order_relaxed) >=
			                             seqno);
			pthread_mutex_lock(&dev->lock);
			continue;
		}
		/* Completion wakes us only once wait_min is reached. */
		if (seqno < q->wait_min)
			q->wait_min = seqno;
		q->waiters++;
		cond_wait_until(&dev->host_cond, &dev->lock, deadline_ns);
		q->waiters--;
	}
	bool debug = dev->cfg.debug;
	device_fault_dump_locked(dev);
	dev_api_wait_leave(dev);
	/* From here on dev and q may be freed by a concurrent close. */
	pthread_mutex_unlock(&dev->lock);
	if (r < 0)
		return SWGPU_ERR(debug, r, "queue %u wait %llu", qid,
		                 (unsigned long long)seqno);
	return r;
}
