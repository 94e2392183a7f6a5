/* SPDX-License-Identifier: MIT */
/*
 * Engines chosen per job, and the tick that ends time slices.
 *
 * Engine choice. A queue's jobs are all in one engine's rings at any
 * time: q->engine. When the queue has nothing in the rings and that
 * engine is busy (a job of any queue in either HWQ) while another engine
 * of the class is idle, the queue moves there before its head job enters
 * a ring. Moving only a drained queue keeps every guarantee of the rings
 * (ring order is queue order, one fence seqno space per HWQ, a job on one
 * engine only) without a cross-engine SEM_WAIT between a queue's own
 * jobs. The fair-share clock is per engine: a moved queue arrives at the
 * new engine's level (sched_queue_rebase).
 *
 * Time slices. sched.c holds a job in its software queue while another
 * queue's job has the engine and has not yet used its slice (its weighted
 * fair share plus cfg.slice_ms); it arms the tick for when the slice
 * ends. The tick thread then runs the scheduler, which sends the held job
 * to the preempting HWQ: the engine stops the running job at its next
 * preemption point (the same request as priority preemption, so finer
 * preemption points inside a workgroup plug in unchanged).
 */
#include "kmd/job.h"

#include "hw/engine.h"

static bool
engine_busy(const struct swgpu_engine *eng)
{
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
		if (eng->hwq[h].emitted != eng->hwq[h].processed)
			return true;
	return false;
}

static void
queue_move(struct swgpu_queue *q, struct swgpu_engine *to)
{
	struct swgpu_engine *from = q->dev->engines[q->engine];

	from->queue_count--;
	from->runlist_len[q->priority]--;
	from->pending_jobs -= q->pending;
	dlist_del(&q->run_link);
	q->engine = to->index;
	to->queue_count++;
	to->runlist_len[q->priority]++;
	to->pending_jobs += q->pending;
	dlist_add_tail(&q->run_link, &to->runlist[q->priority]);
	q->engine_moves++;
	sched_queue_rebase(q);
	trace_queue_moved(q, from->index);
}

/* Work in the preempting HWQ: it runs to its end, nobody can take the
 * engine from it. */
static bool
engine_prio_busy(const struct swgpu_engine *eng)
{
	const struct engine_hwq *p = &eng->hwq[ENGINE_HWQ_PRIO];

	return p->emitted != p->processed;
}

/*
 * An idle engine of the class if q's is busy; else, if q's engine runs
 * work nobody can preempt (its HWQ 1), one whose running job can be
 * preempted, so q's job gets its time slice there.
 */
struct swgpu_engine *
sched_choose_engine(struct swgpu_queue *q)
{
	struct swgpu_device *dev = q->dev;
	struct swgpu_engine *cur = dev->engines[q->engine];
	struct swgpu_engine *alt = NULL;

	if (q->inflight || !engine_busy(cur))
		return cur;
	for (uint32_t e = 0; e < dev->engine_count; e++) {
		struct swgpu_engine *c = dev->engines[e];
		if (c == cur || c->engine_class != cur->engine_class)
			continue;
		if (!engine_busy(c)) {
			queue_move(q, c);
			return c;
		}
		if (!alt && !engine_prio_busy(c))
			alt = c;
	}
	if (alt && engine_prio_busy(cur) && dev->cfg.slice_ms &&
	    !dev->cfg.no_preempt) {
		queue_move(q, alt);
		return alt;
	}
	return cur;
}

void
sched_slice_arm(struct swgpu_device *dev, uint64_t deadline_ns)
{
	if (!dev->slice_deadline_ns || deadline_ns < dev->slice_deadline_ns) {
		dev->slice_deadline_ns = deadline_ns;
		pthread_cond_signal(&dev->slice_cond);
	}
}

static void *
slice_main(void *arg)
{
	struct swgpu_device *dev = arg;

	/* A held job's turn comes at its slice end, not 50 us later. */
	spin_timer_slack_own_thread();
	pthread_mutex_lock(&dev->lock);
	while (!dev->slice_stopping) {
		uint64_t d = dev->slice_deadline_ns;
		if (!d) {
			cond_wait_until(&dev->slice_cond, &dev->lock,
			                SWGPU_DEADLINE_INFINITE);
			continue;
		}
		if (swgpu_now_ns() < d) {
			cond_wait_until(&dev->slice_cond, &dev->lock, d);
			continue;
		}
		/* A held job's turn: the pass re-judges every held queue
		 * (and arms the tick again for those still waiting). */
		dev->slice_deadline_ns = 0;
		dev->slices_ended++;
		if (dev->pending_jobs)
			sched_run(dev);
	}
	pthread_mutex_unlock(&dev->lock);
	return NULL;
}

swgpu_result
sched_slice_start(struct swgpu_device *dev)
{
	if (pthread_create(&dev->slice_thread, NULL, slice_main, dev))
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "tick thread");
	dev->slice_thread_started = true;
	pthread_setname_np(dev->slice_thread, "swgpu-tick");
	return SWGPU_OK;
}

void
sched_slice_stop(struct swgpu_device *dev)
{
	if (!dev->slice_thread_started)
		return;
	pthread_mutex_lock(&dev->lock);
	dev->slice_stopping = true;
	pthread_cond_signal(&dev->slice_cond);
	pthread_mutex_unlock(&dev->lock);
	pthread_join(dev->slice_thread, NULL);
	dev->slice_thread_started = false;
}
