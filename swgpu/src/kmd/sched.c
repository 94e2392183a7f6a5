/* SPDX-License-Identifier: MIT */
/*
 * Scheduler: job pool, swgpu_submit, and moving jobs from software queues
 * into engine rings when their dependencies allow.
 *
 * A job enters a ring only when each of its waits is either satisfied,
 * or its signalling job is already in a ring: on the same engine ring
 * order is enough; on another engine the job's ring entry starts with a
 * SEM_WAIT on that engine's fence word. A wait on a point nobody has
 * submitted yet keeps the job (and only its queue) PENDING here, so an
 * engine can never deadlock behind a wait that a later submission would
 * satisfy.
 */
#include "kmd/job.h"

#include <stdlib.h>
#include <string.h>

#include "kmd/context.h"
#include "hw/engine.h"
#include "hw/fence.h"
#include "hw/ring.h"
#include "kmd/syncobj.h"
#include "remote/remote.h"

/*
 * Fair share. A queue's vruntime grows by the engine time its jobs use
 * times SCHED_VSCALE / weight of its level: a HIGH queue (16) is charged
 * a sixteenth of what a LOW one (1) is for the same time, so among
 * saturated queues of one engine each gets time in proportion to its
 * weight, and every queue with work is picked once its vruntime is the
 * smallest: no level starves another. A job is charged an estimate
 * (the queue's mean run time) when it enters the ring, so choices made
 * before it completes already count it; completion adds what the
 * measured time exceeds it by. Never a refund: a queue's vruntime only
 * grows, so a queue that arrives at the smallest vruntime of the busy
 * ones (ties go to the higher level) runs next, ahead of the backlog of
 * a lower level, whatever the backlog's jobs turn out to cost.
 *
 * Bounded wait: when a job completes, its queue's vruntime is capped at
 * the smallest vruntime of the engine's other active queues plus
 * SCHED_MAX_LAG_JOBS of its own mean jobs (plus those still in the
 * ring). So a queue that got more than its share (e.g. jobs pushed while
 * nobody competed, or one job far longer than its mean) waits at most
 * that many of its jobs' worth, weighted, before it runs again: a LOW
 * queue behind HIGH about 4 * 16 HIGH jobs of the same size.
 */
#define SCHED_VSCALE 64u
#define SCHED_EST_MIN_NS 1000u   /* also the first estimate */
#define SCHED_MAX_LAG_JOBS 4u

static const uint32_t sched_weight[SWGPU_PRIORITY_COUNT] = {
	[SWGPU_PRIORITY_LOW] = 1,
	[SWGPU_PRIORITY_NORMAL] = 4,
	[SWGPU_PRIORITY_HIGH] = 16,
	[SWGPU_PRIORITY_REALTIME] = 64,
};

uint32_t
sched_queue_weight(const struct swgpu_queue *q)
{
	return sched_weight[q->priority];
}

/* Wrap-safe vruntime order (charges are added modulo 2^64). */
static bool
vr_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

static uint64_t
vr_scale(const struct swgpu_queue *q, uint64_t ns)
{
	return ns * (SCHED_VSCALE / sched_weight[q->priority]);
}

/* The weighted time q has really used: its vruntime without the
 * estimates charged for its jobs still waiting in the rings. A queue that
 * keeps a deep ring backlog is charged ahead of time (so sched_pick does
 * not favour it); comparing a newcomer with that figure would let the
 * backlog count as work done. */
static uint64_t
vr_used(const struct swgpu_queue *q)
{
	return q->vruntime - q->ring_vcharge;
}

/* Smallest used vruntime among the other queues of q's engine that have
 * work (waiting or in the ring); false if there is none. */
static bool
sched_min_other(const struct swgpu_queue *q, uint64_t *min)
{
	struct swgpu_engine *eng = q->dev->engines[q->engine];
	bool found = false;

	for (int p = 0; p < SWGPU_PRIORITY_COUNT; p++) {
		struct dlist *it;

		for (it = eng->runlist[p].next; it != &eng->runlist[p];
		     it = it->next) {
			const struct swgpu_queue *o =
				dlist_entry(it, struct swgpu_queue, run_link);
			if (o == q || (dlist_empty(&o->fifo) && !o->inflight))
				continue;
			if (!found || vr_before(vr_used(o), *min))
				*min = vr_used(o);
			found = true;
		}
	}
	return found;
}

void
sched_queue_activate(struct swgpu_queue *q)
{
	struct swgpu_engine *eng = q->dev->engines[q->engine];
	uint64_t start;

	/* Level with the busy queues; with none busy, with the last pick,
	 * so idle time is never banked. */
	if (!sched_min_other(q, &start))
		start = eng->vclock;
	if (vr_before(q->vruntime, start))
		q->vruntime = start;
}

void
sched_queue_rebase(struct swgpu_queue *q)
{
	struct swgpu_engine *eng = q->dev->engines[q->engine];
	uint64_t start;

	/* A queue that moved engines: its charge was on another engine's
	 * clock. It arrives like a newcomer, level with the busy queues. */
	if (!sched_min_other(q, &start))
		start = eng->vclock;
	q->vruntime = start + q->ring_vcharge;
}

void
sched_charge(struct swgpu_job *job)
{
	struct swgpu_queue *q = job->q;
	uint64_t run = job->skipped ? 0 : job->run_ns;

	q->ring_vcharge -= vr_scale(q, job->vcharge_ns);
	if (job->ctx)
		job->ctx->gpu_ns += run;
	if (run > job->vcharge_ns)
		q->vruntime += vr_scale(q, run - job->vcharge_ns);
	if (!job->skipped) {
		q->mean_known = true;
		/* Mean over about the last 8 jobs; one outlier (a host
		 * preemption of the engine thread) moves it by 1/8 at most. */
		uint64_t r = run < 2 * q->avg_run_ns ? run : 2 * q->avg_run_ns;
		q->avg_run_ns = q->avg_run_ns - q->avg_run_ns / 8 + r / 8;
		if (q->avg_run_ns < SCHED_EST_MIN_NS)
			q->avg_run_ns = SCHED_EST_MIN_NS;
	}
	job->vcharge_ns = 0;

	/* Bounded wait (see the top): q->inflight still counts this job. */
	uint64_t min;
	if (sched_min_other(q, &min)) {
		uint64_t lim = min + vr_scale(q, q->avg_run_ns) *
		               (SCHED_MAX_LAG_JOBS + q->inflight - 1u);
		if (vr_before(lim, q->vruntime))
			q->vruntime = lim;
	}
}

bool
job_doomed(const struct swgpu_job *job)
{
	return job->ctx->state != SWGPU_CONTEXT_OK || job->q->cancelled ||
	       atomic_load_explicit(&job->dev->closing, memory_order_relaxed);
}

static bool
job_in_ring(const struct swgpu_job *job)
{
	return job->state == JOB_QUEUED || job->state == JOB_RUNNING;
}

/*
 * Resolve one timeline wait: satisfied by the current value, or by a
 * signaller that is already in a ring (dep), or a failed timeline (the
 * job fails too). Returns false while nobody in a ring will reach it.
 */
static bool
wait_resolve_timeline(struct swgpu_job *job, struct job_wait *w)
{
	struct swgpu_syncobj *obj = w->obj;
	struct job_signal *found = NULL;
	struct dlist *it;

	if (obj->value >= w->value)
		return true;
	/* Newest first: values usually grow in ring order, so stop at the
	 * first value below the point; the last match seen is the oldest
	 * signaller that reaches it (least over-waiting). */
	if (obj->inring_max >= w->value) {
		for (it = obj->inring.prev; it != &obj->inring;
		     it = it->prev) {
			struct job_signal *s =
				dlist_entry(it, struct job_signal, link);
			if (s->value < w->value)
				break;
			found = s;
		}
	}
	if (found) {
		job_ref(found->job);
		w->dep = found->job;
		return true;
	}
	if (obj->error) {
		job->dep_failed = true;
		return true;
	}
	return false;
}

/* True when every wait of job is ready. */
static bool
job_waits_ready(struct swgpu_job *job)
{
	for (uint32_t i = 0; i < job->wait_count; i++) {
		struct job_wait *w = &job->waits[i];

		if (w->ready)
			continue;
		if (w->obj->type == SWGPU_SYNCOBJ_TIMELINE) {
			if (!wait_resolve_timeline(job, w))
				return false;
		} else if (w->dep && w->dep->state == JOB_PENDING) {
			return false; /* binary payload not in a ring yet */
		}
		w->ready = true;
	}
	return true;
}

enum push_result { PUSH_DONE, PUSH_BLOCKED, PUSH_RING_FULL };

/*
 * Preemption policy: does job of q go to HWQ 1, ahead of (and at the
 * next preemption point of) the job the engine's main HWQs are running?
 * Yes when
 *  - preemption is on and the job can start at once: each wait is
 *    satisfied by a finished job (HWQ 1 never waits, so it can never
 *    deadlock behind the job it preempted);
 *  - q has nothing in the main HWQs (its jobs finish in order);
 *  - a main HWQ runs a job of a lower level whose queue the fair-share
 *    policy would not pick before q: q's vruntime is at most the running
 *    queue's, charged with the time its job has used so far (ties go to
 *    the higher level, as in sched_pick). So a HIGH stream preempts LOW
 *    work only while it is within its weighted share, and a LOW job
 *    still progresses under a saturated HIGH queue.
 * HWQ 1 holds at most SCHED_PREEMPT_DEPTH jobs: a queue that wants to
 * preempt while it is full waits in its software queue (PREEMPT_BUSY)
 * and is judged again, with fresh charges, when one completes — so a
 * burst cannot pile up in HWQ 1 on estimates alone.
 *
 * Time slices (cfg.slice_ms, 0: off): a queue of the same or a lower
 * level preempts too, once the running queue's charge exceeds its own by
 * a slice of the running queue's weighted time: each queue gets the
 * engine for about a slice, weighted by priority, before another queue
 * takes it. Until then its job is held in its software queue
 * (PREEMPT_HOLD: in its main HWQ it would wait for its turn) and
 * the tick (sched_slice.c) re-judges it when the slice ends. Only a queue
 * whose jobs are known to be short (mean run time measured, at most a
 * slice) is held or preempts this way, a higher level's too: HWQ 1 runs
 * first (a job of it is only demoted after a slice, engine_rotate.c),
 * so a job that may be long must not get there.
 * A higher level's other jobs go to their main HWQ and the engine picks
 * it at the running job's next preemption point (resched). Every other job goes to its queue's main
 * HWQ (sched_main_hwq), where the engine gives it a slice in turn with
 * the other main HWQs (engine_rotate.c) — a queue's first job too, whose
 * length nobody knows yet.
 */
#define SCHED_PREEMPT_DEPTH 2u
#define SCHED_HOLD_MIN_NS 100000u

enum preempt_choice { PREEMPT_NO, PREEMPT_YES, PREEMPT_BUSY, PREEMPT_HOLD };

/* The job the engine's main HWQs run now: the head of the HWQ whose
 * turn it is, else of any main HWQ with jobs; NULL if none has any. */
static const struct swgpu_job *
sched_main_running(struct swgpu_engine *eng)
{
	uint32_t cur = atomic_load_explicit(&eng->main_cur,
	                                    memory_order_relaxed);

	for (uint32_t i = 0; i < ENGINE_HWQ_COUNT; i++) {
		uint32_t h = (cur + i) % ENGINE_HWQ_COUNT;
		const struct engine_hwq *m = &eng->hwq[h];

		if (hwq_is_main(h) && m->emitted != m->processed)
			return m->inflight[(m->processed + 1) &
			                   m->inflight_mask];
	}
	return NULL;
}

/*
 * The main HWQ a job of q goes to: the one its jobs are in, if any (its
 * jobs finish in order); else an idle one (nothing in flight), its last
 * one first, so each busy queue has a ring of its own the engine rotates
 * among (engine_rotate.c); else, with more busy queues than main HWQs,
 * the one with the fewest jobs in flight (those queues then share its
 * turns, in ring order).
 */
static uint32_t
sched_main_hwq(struct swgpu_engine *eng, const struct swgpu_queue *q)
{
	uint32_t best = ENGINE_HWQ_PRIO;
	uint64_t best_n = UINT64_MAX;

	if (q->main_inflight)
		return q->main_hwq;
	for (uint32_t i = 0; i < ENGINE_HWQ_COUNT; i++) {
		uint32_t h = (q->main_hwq + i) % ENGINE_HWQ_COUNT;
		const struct engine_hwq *m = &eng->hwq[h];
		uint64_t n = m->emitted - m->processed;

		if (hwq_is_main(h) && n < best_n) {
			best = h;
			best_n = n;
		}
	}
	return best;
}

static enum preempt_choice
sched_wants_preempt(struct swgpu_engine *eng, struct swgpu_queue *q,
                    const struct swgpu_job *job)
{
	const struct engine_hwq *p = &eng->hwq[ENGINE_HWQ_PRIO];
	const struct swgpu_job *run = sched_main_running(eng);

	/* A demoted HWQ 1 job takes turns with the main HWQs: a job behind
	 * it would wait for its turns too; its main HWQ's come sooner. */
	if (eng->dev->cfg.no_preempt || q->main_inflight || !run ||
	    atomic_load_explicit(&eng->prio_demoted, memory_order_relaxed))
		return PREEMPT_NO;
	for (uint32_t i = 0; i < job->wait_count; i++) {
		const struct swgpu_job *d = job->waits[i].dep;
		if (d && job_in_ring(d))
			return PREEMPT_NO;
	}
	const struct swgpu_queue *rq = run->q;
	if (!rq || rq == q)
		return PREEMPT_NO;
	bool higher = rq->priority < q->priority;
	uint64_t slice_ns = (uint64_t)eng->dev->cfg.slice_ms * 1000000u;
	bool is_short = q->mean_known && q->avg_run_ns <= slice_ns;
	bool sliced = slice_ns && is_short;
	if (higher && slice_ns && !is_short)
		return PREEMPT_NO; /* long or not known short: its main
		                      HWQ, which the engine picks at once
		                      (resched, sched_push_head) */
	if (!higher && !sliced)
		return PREEMPT_NO;
	/* What the running queue has really used: without the estimates
	 * of its jobs still in the ring, with the running job's own engine
	 * time so far (not what HWQ 1 or other main HWQs took meanwhile). */
	uint64_t run_vr = vr_used(rq);
	if (run->start_ns) {
		uint64_t used = run->ran_ns;
		if (run->ran_since)
			used += swgpu_now_ns() - run->ran_since;
		run_vr += vr_scale(rq, used);
	}
	uint64_t turn = q->vruntime + (higher ? 0 : vr_scale(rq, slice_ns));
	if (vr_before(run_vr, turn)) {
		if (!sliced)
			return PREEMPT_NO;
		/* The running queue's charge reaches turn after this much
		 * more engine time (if it keeps the engine). */
		uint64_t left = (turn - run_vr) /
		                (SCHED_VSCALE / sched_weight[rq->priority]);
		if (left < SCHED_HOLD_MIN_NS)
			left = SCHED_HOLD_MIN_NS;
		sched_slice_arm(eng->dev, swgpu_add_sat(swgpu_now_ns(), left));
		return PREEMPT_HOLD;
	}
	return p->emitted - p->processed < SCHED_PREEMPT_DEPTH
	       ? PREEMPT_YES : PREEMPT_BUSY;
}

/*
 * Write the head job of q into its engine's ring (or finish it directly
 * if it is doomed and nothing of its queue is in flight, which keeps the
 * queue's completion order).
 */
static enum push_result
sched_push_head(struct swgpu_queue *q)
{
	struct swgpu_device *dev = q->dev;
	struct swgpu_engine *eng = dev->engines[q->engine];
	struct swgpu_job *job = dlist_entry(q->fifo.next, struct swgpu_job,
	                                    link);

	if (job_doomed(job)) {
		if (q->inflight)
			return PUSH_BLOCKED;
		dlist_del(&job->link);
		dev->pending_jobs--;
		eng->pending_jobs--;
		q->pending--;
		job_finish(job, true);
		return PUSH_DONE;
	}
	if (!job_waits_ready(job))
		return PUSH_BLOCKED;
	/* Engine chosen per job: maybe an idle one (sched_slice.c). */
	eng = sched_choose_engine(q);

	uint32_t slot = sched_main_hwq(eng, q);

	/* One SEM_WAIT per other engine HWQ or other HWQ of this engine,
	 * on the newest seqno needed. No wait for ring order within a HWQ.
	 * HWQ 1 jobs of this engine pushed earlier usually run before a
	 * main HWQ job begins, but one that outlives its slice takes turns
	 * with the main HWQs (engine_rotate.c, demoted): a job that needs
	 * it waits for its fence (passed at once in the usual case). */
	uint64_t wait_seqno[SWGPU_MAX_ENGINES][ENGINE_HWQ_COUNT] = { { 0 } };
	uint32_t nwait = 0;
	for (uint32_t i = 0; i < job->wait_count; i++) {
		struct swgpu_job *d = job->waits[i].dep;
		if (!d)
			continue;
		if (d->state == JOB_ERROR)
			job->dep_failed = true;
		if (!job_in_ring(d) ||
		    (d->engine == eng->index && d->hwq == slot))
			continue;
		uint64_t *ws = &wait_seqno[d->engine][d->hwq];
		if (!*ws)
			nwait++;
		if (!*ws || seqno_passed(d->engine_seqno, *ws))
			*ws = d->engine_seqno;
	}
	uint32_t ib_dw = job->ib_count <= RING_INLINE_IBS ?
		job->ib_count * SWGPU_LEN_INDIRECT_BUFFER : RING_LEN_JOB_IBS;
	uint32_t need = nwait * SWGPU_LEN_SEM_WAIT + RING_LEN_JOB_BEGIN +
		ib_dw + SWGPU_LEN_SEM_SIGNAL;
	uint32_t h = slot;
	struct engine_hwq *hq = &eng->hwq[ENGINE_HWQ_PRIO];

	if (nwait == 0) {
		enum preempt_choice c = sched_wants_preempt(eng, q, job);
		q->slice_held = c == PREEMPT_HOLD;
		if (c == PREEMPT_BUSY || c == PREEMPT_HOLD)
			return PUSH_BLOCKED;
		if (c == PREEMPT_YES && ring_space(&hq->ring) >= need)
			h = ENGINE_HWQ_PRIO;
	}
	/* Queue order: a main HWQ job of a queue with jobs still in HWQ 1
	 * waits for the last of them (see the waits above). */
	if (h != ENGINE_HWQ_PRIO && q->inflight > q->main_inflight &&
	    !seqno_passed(engine_hwq_fence_read(eng, ENGINE_HWQ_PRIO),
	                  q->prio_seqno)) {
		uint64_t *ws = &wait_seqno[eng->index][ENGINE_HWQ_PRIO];
		if (!*ws) {
			nwait++;
			need += SWGPU_LEN_SEM_WAIT;
		}
		if (!*ws || seqno_passed(q->prio_seqno, *ws))
			*ws = q->prio_seqno;
	}
	hq = &eng->hwq[h];
	/* A full main HWQ is this queue's own (or shared by a few): only
	 * they wait; a full HWQ 1 or HWQ 0 shared by all stops the pass. */
	if (ring_space(&hq->ring) < need ||
	    hq->emitted - hq->processed > hq->inflight_mask)
		return h != ENGINE_HWQ_PRIO && h != ENGINE_HWQ_MAIN
		       ? PUSH_BLOCKED : PUSH_RING_FULL;

	/* A higher level's job in a main HWQ: the engine picks again at
	 * the running job's next preemption point (engine_rotate.c). */
	if (h != ENGINE_HWQ_PRIO && !dev->cfg.no_preempt) {
		const struct swgpu_job *run = sched_main_running(eng);
		if (run && run->q && run->q != q &&
		    run->q->priority < q->priority)
			atomic_store_explicit(&eng->resched, true,
			                      memory_order_relaxed);
	}
	uint64_t seqno = hq->emitted + 1;
	uint64_t pos = atomic_load_explicit(&hq->ring.wptr,
	                                    memory_order_relaxed);
	uint32_t pkt[8];
	for (uint32_t e = 0; e < dev->engine_count; e++) {
		for (uint32_t w = 0; w < ENGINE_HWQ_COUNT; w++) {
			if (!wait_seqno[e][w])
				continue;
			swgpu_emit_sem_wait(pkt, RING_KVA_HWQ_FENCE(e, w),
			                    wait_seqno[e][w]);
			ring_put(&hq->ring, &pos, pkt, SWGPU_LEN_SEM_WAIT);
		}
	}
	pkt[0] = swgpu_pkt_header(RING_OP_JOB_BEGIN, 0, RING_LEN_JOB_BEGIN);
	swgpu_pkt_put64(pkt + 1, seqno);
	ring_put(&hq->ring, &pos, pkt, RING_LEN_JOB_BEGIN);
	if (job->ib_count <= RING_INLINE_IBS) {
		for (uint32_t i = 0; i < job->ib_count; i++) {
			swgpu_emit_indirect(pkt, job->ibs[i].va,
			                    job->ibs[i].size_dw);
			ring_put(&hq->ring, &pos, pkt,
			         SWGPU_LEN_INDIRECT_BUFFER);
		}
	} else {
		pkt[0] = swgpu_pkt_header(RING_OP_JOB_IBS, 0,
		                          RING_LEN_JOB_IBS);
		ring_put(&hq->ring, &pos, pkt, RING_LEN_JOB_IBS);
	}
	swgpu_emit_sem_signal(pkt, RING_KVA_HWQ_FENCE(eng->index, h), seqno,
	                      0);
	ring_put(&hq->ring, &pos, pkt, SWGPU_LEN_SEM_SIGNAL);

	dlist_del(&job->link);
	dev->pending_jobs--;
	eng->pending_jobs--;
	q->pending--;
	q->slice_held = false;
	job->engine = eng->index;
	job->run_engine = eng->index;
	job->engine_seqno = seqno;
	job->hwq = h;
	job->start_ns = 0;
	job->state = JOB_QUEUED;
	if (!q->avg_run_ns)
		q->avg_run_ns = SCHED_EST_MIN_NS;
	if (vr_before(eng->vclock, q->vruntime))
		eng->vclock = q->vruntime;
	job->vcharge_ns = q->avg_run_ns;
	q->vruntime += vr_scale(q, job->vcharge_ns);
	q->ring_vcharge += vr_scale(q, job->vcharge_ns);
	hq->inflight[seqno & hq->inflight_mask] = job;
	hq->emitted = seqno;
	if (h == ENGINE_HWQ_PRIO)
		q->prio_seqno = seqno;
	if (h != ENGINE_HWQ_PRIO) {
		q->main_inflight++;
		q->main_hwq = h;
		atomic_store_explicit(&eng->hwq_weight[h],
		                      sched_weight[q->priority],
		                      memory_order_relaxed);
	}
	q->inflight++;
	job->ctx->inflight++;
	for (uint32_t i = 0; i < job->signal_count; i++)
		if (job->signals[i].obj->type == SWGPU_SYNCOBJ_TIMELINE)
			syncobj_signal_in_ring(&job->signals[i]);
	trace_job(job, JOB_QUEUED);

	ring_publish(&hq->ring, pos);
	doorbell_ring(&eng->doorbell);
	if (h == ENGINE_HWQ_PRIO)
		dev_wake_gpu(dev); /* the engine may sleep in a SEM_WAIT */
	return PUSH_DONE;
}

/*
 * The runnable queue of eng with the smallest vruntime: work waiting and
 * not found blocked in this pass. Ties go to the higher level, then to
 * the queue first in its list (the one served goes to the back).
 */
static struct swgpu_queue *
sched_pick(struct swgpu_engine *eng)
{
	struct swgpu_queue *best = NULL;

	for (int p = SWGPU_PRIORITY_COUNT - 1; p >= 0; p--) {
		struct dlist *it;

		for (it = eng->runlist[p].next; it != &eng->runlist[p];
		     it = it->next) {
			struct swgpu_queue *q =
				dlist_entry(it, struct swgpu_queue, run_link);
			if (dlist_empty(&q->fifo) ||
			    q->blocked_pass == eng->sched_pass)
				continue;
			if (!best || vr_before(q->vruntime, best->vruntime))
				best = q;
		}
	}
	return best;
}

/*
 * Fill one engine's ring from its queues, one job at a time, always from
 * the runnable queue with the smallest vruntime (each push charges it, so
 * the choice moves on). A queue whose head job waits is skipped for the
 * rest of the pass. A full ring stops the pass (back-pressure: nobody
 * overtakes the job that did not fit). Returns true if any job moved.
 */
static bool
sched_engine(struct swgpu_engine *eng)
{
	bool moved = false;
	struct swgpu_queue *q;

	eng->sched_pass++;
	while ((q = sched_pick(eng))) {
		enum push_result r = sched_push_head(q);
		if (r == PUSH_RING_FULL)
			return moved;
		if (r == PUSH_DONE) {
			/* q may have moved to another engine's list. */
			struct swgpu_engine *qe = q->dev->engines[q->engine];
			moved = true;
			dlist_del(&q->run_link);
			dlist_add_tail(&q->run_link,
			               &qe->runlist[q->priority]);
		} else {
			q->blocked_pass = eng->sched_pass;
		}
	}
	return moved;
}

void
sched_run(struct swgpu_device *dev)
{
	bool moved = true;

	/* A job that entered a ring may make jobs of other engines ready
	 * (their signaller is now in a ring): loop until nothing moves. */
	while (moved && dev->pending_jobs) {
		moved = false;
		for (uint32_t e = 0; e < dev->engine_count; e++)
			if (dev->engines[e]->pending_jobs &&
			    sched_engine(dev->engines[e]))
				moved = true;
	}
}

static swgpu_result
submit_validate(swgpu_queue *q, const swgpu_submit_info *info)
{
	struct swgpu_device *dev = q->dev;

	if (info->ib_count && !info->ibs)
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG, "ibs NULL");
	if ((info->wait_count && !info->waits) ||
	    (info->signal_count && !info->signals))
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
		               "waits/signals NULL");
	for (uint32_t i = 0; i < info->ib_count; i++) {
		const swgpu_ib *ib = &info->ibs[i];
		if (!ib->va || (ib->va & 3) || !ib->size_dw ||
		    ib->size_dw > dev->info.max_ib_size_dw)
			return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
			               "ib %u: va 0x%llx size_dw %u", i,
			               (unsigned long long)ib->va,
			               ib->size_dw);
	}
	for (uint32_t i = 0; i < info->wait_count; i++) {
		const swgpu_syncobj *o = info->waits[i].obj;
		if (!o || o->dev != dev)
			return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
			               "wait %u: bad sync object", i);
	}
	for (uint32_t i = 0; i < info->signal_count; i++) {
		const swgpu_syncobj *o = info->signals[i].obj;
		if (!o || o->dev != dev)
			return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
			               "signal %u: bad sync object", i);
		/* Two signals of one binary object in one job would make
		 * the payload ambiguous; a timeline may be named twice. */
	}
	return SWGPU_OK;
}

static void
job_attach_waits(struct swgpu_job *job, const swgpu_submit_info *info)
{
	for (uint32_t i = 0; i < info->wait_count; i++) {
		const swgpu_sync_point *sp = &info->waits[i];
		struct swgpu_syncobj *obj = sp->obj;
		struct job_wait *w = &job->waits[i];

		syncobj_ref(obj);
		w->obj = obj;
		w->value = sp->value;
		w->flags = sp->flags;
		w->dep = NULL;
		w->ready = false;
		if (obj->type != SWGPU_SYNCOBJ_BINARY)
			continue;
		if (obj->payload == PAYLOAD_NONE) {
			/* Named twice in this job: an earlier wait already
			 * took the payload and covers this one. */
			w->ready = true;
			continue;
		}
		/* Binary: the job takes over the payload (submit checked it
		 * exists); consume it unless SWGPU_WAIT_KEEP. */
		if (obj->payload == PAYLOAD_SIGNALED) {
			if (obj->error)
				job->dep_failed = true;
			w->ready = true;
		} else {
			job_ref(obj->payload_job);
			w->dep = obj->payload_job;
		}
		if (!(sp->flags & SWGPU_WAIT_KEEP)) {
			if (obj->payload == PAYLOAD_PENDING)
				job_unref(obj->payload_job);
			obj->payload = PAYLOAD_NONE;
			obj->payload_job = NULL;
			obj->error = false;
			syncobj_mirror_publish(obj);
		}
	}
}

static void
job_attach_signals(struct swgpu_job *job, const swgpu_submit_info *info)
{
	for (uint32_t i = 0; i < info->signal_count; i++) {
		const swgpu_sync_point *sp = &info->signals[i];
		struct swgpu_syncobj *obj = sp->obj;
		struct job_signal *s = &job->signals[i];

		syncobj_ref(obj);
		s->obj = obj;
		s->value = sp->value;
		s->job = job;
		dlist_init(&s->link);
		if (obj->type == SWGPU_SYNCOBJ_TIMELINE) {
			dlist_add_tail(&s->link, &obj->pending);
			if (sp->value > obj->submitted_max)
				obj->submitted_max = sp->value;
			syncobj_mirror_publish(obj);
			syncobj_wake_waiters(obj, true);
			continue;
		}
		if (obj->payload == PAYLOAD_PENDING)
			job_unref(obj->payload_job);
		job_ref(job);
		obj->payload = PAYLOAD_PENDING;
		obj->payload_job = job;
		obj->error = false;
		syncobj_mirror_publish(obj);
		syncobj_wake_waiters(obj, true);
	}
}

static swgpu_result submit_locked(struct swgpu_queue *q,
                                  const swgpu_submit_info *info,
                                  bool doomed, uint64_t *seqno_out);

swgpu_result
swgpu_submit(swgpu_queue *q, const swgpu_submit_info *info,
             uint64_t *seqno_out)
{
	if (remote_is(q))
		return rc_submit(q, info, seqno_out);
	if (!q || !info)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL queue or info");
	struct swgpu_device *dev = q->dev;
	swgpu_result r = submit_validate(q, info);
	if (r != SWGPU_OK)
		return r;

	pthread_mutex_lock(&dev->lock);
	if (q->ctx->state != SWGPU_CONTEXT_OK) {
		pthread_mutex_unlock(&dev->lock);
		return DEV_ERR(dev, SWGPU_ERR_CONTEXT_LOST,
		               "context %u is lost", q->ctx->id);
	}
	if (atomic_load(&dev->closing) || q->cancelled) {
		pthread_mutex_unlock(&dev->lock);
		return DEV_ERR(dev, SWGPU_ERR_CONTEXT_LOST,
		               "device closing or queue destroyed");
	}
	/* Check every binary wait before consuming anything. */
	for (uint32_t i = 0; i < info->wait_count; i++) {
		struct swgpu_syncobj *obj = info->waits[i].obj;
		if (obj->type == SWGPU_SYNCOBJ_BINARY &&
		    obj->payload == PAYLOAD_NONE) {
			pthread_mutex_unlock(&dev->lock);
			return DEV_ERR(dev, SWGPU_ERR_NOT_SUBMITTED,
			               "wait %u: binary object has no "
			               "payload", i);
		}
	}
	r = submit_locked(q, info, false, seqno_out);
	pthread_mutex_unlock(&dev->lock);
	return r;
}

swgpu_result
kmd_queue_submit_failed(swgpu_queue *q, const swgpu_submit_info *info)
{
	static const swgpu_submit_info none;
	struct swgpu_device *dev = q->dev;
	swgpu_result r = SWGPU_ERR_CONTEXT_LOST;

	if (!info || submit_validate(q, info) != SWGPU_OK)
		info = &none;
	pthread_mutex_lock(&dev->lock);
	if (!atomic_load(&dev->closing) && !q->cancelled)
		r = submit_locked(q, info, true, NULL);
	pthread_mutex_unlock(&dev->lock);
	return r;
}

/* Queue one job (checked; dev->lock held). doomed: it fails whatever
 * happens (kmd_queue_submit_failed). */
static swgpu_result
submit_locked(struct swgpu_queue *q, const swgpu_submit_info *info,
              bool doomed, uint64_t *seqno_out)
{
	struct swgpu_device *dev = q->dev;
	struct swgpu_job *job = job_alloc(dev, info);
	if (!job)
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "job");
	struct swgpu_engine *eng = dev->engines[q->engine];

	job->dev = dev;
	job->q = q;
	job->ctx = q->ctx;
	job->ctx_id = q->ctx->id;
	job->queue_id = q->id;
	job->seqno = ++q->submitted;
	job->state = JOB_PENDING;
	job->refcount = 1; /* dropped when the job is finished */
	job->engine = q->engine;
	job->engine_seqno = 0;
	job->hwq = ENGINE_HWQ_MAIN;
	job->start_ns = 0;
	memset(&job->save, 0, sizeof(job->save));
	job->preempted = false;
	job->preemptions = 0;
	job->dep_failed = doomed;
	job->exec_failed = false;
	job->skipped = false;
	job->inject = SWGPU_FAULT_NONE;
	memset(&job->fault, 0, sizeof(job->fault));
	job->gfx_regs[0] = '\0';
	job->run_ns = 0;
	job->vcharge_ns = 0;
	job->ib_count = info->ib_count;
	job->wait_count = info->wait_count;
	job->signal_count = info->signal_count;
	if (info->ib_count)
		memcpy(job->ibs, info->ibs, info->ib_count * sizeof(swgpu_ib));
	job_attach_waits(job, info);
	job_attach_signals(job, info);
	if (dev->fault_count)
		fault_arm_job(dev, job);
	trace_job(job, JOB_PENDING);

	bool was_idle = dlist_empty(&q->fifo) && !eng->pending_jobs;
	if (dlist_empty(&q->fifo) && !q->inflight)
		sched_queue_activate(q);
	dlist_add_tail(&job->link, &q->fifo);
	dev->pending_jobs++;
	eng->pending_jobs++;
	q->pending++;
	if (seqno_out)
		*seqno_out = job->seqno;

	/* Fast path: nothing of this engine waits in a software queue, so
	 * this job cannot overtake anybody. Anything else, or a job whose
	 * signals may release others: full scheduler pass. */
	if (!was_idle || sched_push_head(q) != PUSH_DONE ||
	    (info->signal_count && dev->pending_jobs))
		sched_run(dev);
	return SWGPU_OK;
}
