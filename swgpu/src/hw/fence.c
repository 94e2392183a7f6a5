/* SPDX-License-Identifier: MIT */
/*
 * Fence completion processing: finish jobs in ranges, in ring order,
 * after the engine wrote its fence word. See fence.h.
 */
#include "hw/fence.h"

#include <stdio.h>
#include <string.h>

#include "kmd/context.h"
#include "hw/engine.h"
#include "kmd/job.h"
#include "kmd/syncobj.h"

static void
hwq_process(struct swgpu_engine *eng, uint32_t h, uint64_t upto)
{
	struct engine_hwq *hq = &eng->hwq[h];
	uint64_t fence = engine_hwq_fence_read(eng, h);

	if (seqno_passed(upto, fence))
		upto = fence;
	while (hq->processed != upto &&
	       seqno_passed(upto, hq->processed + 1)) {
		uint64_t s = hq->processed + 1;
		struct swgpu_job *job = hq->inflight[s & hq->inflight_mask];

		/* Signals land in dependency order: finish what this job
		 * waited on (other engines or HWQs; their fences have
		 * passed, since this job's ring SEM_WAIT did) before this
		 * job. */
		for (uint32_t i = 0; i < job->wait_count; i++) {
			struct swgpu_job *d = job->waits[i].dep;
			if (d && d->engine_seqno &&
			    (d->engine != eng->index || d->hwq != h) &&
			    (d->state == JOB_QUEUED ||
			     d->state == JOB_RUNNING))
				fence_process(eng->dev->engines[d->engine],
				              d->hwq, d->engine_seqno);
		}
		hq->processed = s;
		hq->inflight[s & hq->inflight_mask] = NULL;
		job_finish(job, job->exec_failed || job->dep_failed ||
		                job->skipped);
	}
}

void
fence_process(struct swgpu_engine *eng, uint32_t hwq, uint64_t upto)
{
	if (hwq_is_main(hwq)) {
		/* The main HWQ's fence is read first: every HWQ 1 job that
		 * ran before a main HWQ job seen done is then seen done
		 * too, and is finished first (queue and dependency order:
		 * no main HWQ job begins while HWQ 1 holds work). */
		uint64_t f = engine_hwq_fence_read(eng, hwq);
		if (seqno_passed(upto, f))
			upto = f;
		hwq_process(eng, ENGINE_HWQ_PRIO,
		            engine_hwq_fence_read(eng, ENGINE_HWQ_PRIO));
	}
	hwq_process(eng, hwq, upto);
}

static bool
job_check_rewind(struct swgpu_job *job)
{
	for (uint32_t i = 0; i < job->signal_count; i++) {
		struct job_signal *s = &job->signals[i];
		if (s->obj->type != SWGPU_SYNCOBJ_TIMELINE ||
		    !syncobj_signal_would_rewind(s->obj, s->value))
			continue;
		swgpu_fault_info f;
		memset(&f, 0, sizeof(f));
		f.kind = SWGPU_FAULT_TIMELINE;
		f.engine = job->engine;
		f.queue_id = job->queue_id;
		f.job_seqno = job->seqno;
		snprintf(f.message, sizeof(f.message),
		         "signal %u: timeline value %llu <= current %llu", i,
		         (unsigned long long)s->value,
		         (unsigned long long)s->obj->value);
		job->fault = f;
		context_mark_guilty(job->ctx, &f);
		return true;
	}
	return false;
}

void
job_finish(struct swgpu_job *job, bool failed)
{
	struct swgpu_device *dev = job->dev;
	struct swgpu_queue *q = job->q;
	struct swgpu_context *ctx = job->ctx;
	struct swgpu_engine *eng = dev->engines[job->engine];
	bool in_ring = job->state == JOB_QUEUED || job->state == JOB_RUNNING;

	if (job->exec_failed) {
		if (ctx->state == SWGPU_CONTEXT_OK)
			snprintf(ctx->fault_gfx_regs,
			         sizeof(ctx->fault_gfx_regs), "%s",
			         job->gfx_regs);
		context_mark_guilty(ctx, &job->fault);
	}
	else if (!failed && job_check_rewind(job))
		failed = true;

	/* Before the waits' signallers are released. */
	trace_job(job, failed ? JOB_ERROR : JOB_DONE);
	for (uint32_t i = 0; i < job->signal_count; i++) {
		struct job_signal *s = &job->signals[i];
		syncobj_gpu_signal(s, failed);
		syncobj_unref(s->obj);
	}
	for (uint32_t i = 0; i < job->wait_count; i++) {
		struct job_wait *w = &job->waits[i];
		if (w->dep)
			job_unref(w->dep);
		w->dep = NULL;
		syncobj_unref(w->obj);
	}
	job->state = failed ? JOB_ERROR : JOB_DONE;

	/* Jobs of a queue finish in order (FIFO before the rings; a
	 * queue's main HWQ jobs are all in one main HWQ, it enters HWQ 1
	 * only with nothing in them, and fence_process finishes HWQ 1
	 * first). */
	atomic_store_explicit(&q->completed, job->seqno,
	                      memory_order_release);
	if (failed) {
		q->last_failed = job->seqno;
		eng->jobs_failed++;
	} else {
		eng->jobs_completed++;
	}
	queue_mirror_publish(q);
	if (in_ring) {
		sched_charge(job);
		if (hwq_is_main(job->hwq))
			q->main_inflight--;
		q->inflight--;
		ctx->inflight--;
	}
	job->q = NULL;
	job->ctx = NULL;
	atomic_fetch_add_explicit(&dev->event_serial, 1,
	                          memory_order_release);
	if (q->waiters && (failed || job->seqno >= q->wait_min)) {
		/* Every queue waiter re-registers its target on sleeping. */
		q->wait_min = UINT64_MAX;
		dev_host_broadcast(dev);
	} else {
		dev_wake_host(dev); /* close / destroy waiting for idle */
	}
	job_unref(job);
}
