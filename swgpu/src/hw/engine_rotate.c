/* SPDX-License-Identifier: MIT */
/*
 * Rotation among an engine's main HWQs at time-slice ends, the way a
 * GPU's hardware scheduler (AMD MES, Intel GuC) rotates among the
 * hardware queues mapped to an engine.
 *
 * Every main HWQ's job is preemptible, so the engine can leave one at
 * any preemption point (packet and chunk boundaries, SEM_WAITs,
 * workgroup back-edges) and come back to it later. Each main HWQ keeps
 * a weighted engine time (hwq_vt): the time its steps took, times
 * SCHED_VSCALE / the weight of the queue mapped to it (sched.c's
 * weights: LOW 1, NORMAL 4, HIGH 16, REALTIME 64). When the running
 * HWQ's slice (cfg.slice_ms) ends, or its job ends, and another main HWQ
 * has work, the engine pauses the running job (if any) (its state stays in run[h] and its save
 * area, as for a HWQ 1 preemption, and an idle engine of the class may
 * take it over) and runs the main HWQ with the smallest weighted time;
 * ties go round-robin from the one left. A job of a higher level than
 * the running one arriving in a main HWQ asks for a pick at the next
 * preemption point (resched, sched.c), so it need not wait for the
 * slice end; being new, it is picked. Picking at job ends too makes
 * short jobs of saturated queues share by weight without preemption
 * (slices off, or no_preempt: then the running job is never paused). A HWQ that gets work after
 * being idle starts just below the last pick's time: it runs at the
 * next slice end, and idle time is never banked. So N long or endless
 * jobs of N queues on one engine each get a slice in turn (a HIGH one
 * 4x as many as a NORMAL one), and a queue's new job waits at most one
 * slice for the engine.
 *
 * A main HWQ whose stream waits in a ring SEM_WAIT yields at once when
 * another main HWQ has work (main_yield_now): the job it waits for may
 * be in that HWQ of the same engine.
 */
#include "hw/engine_lend.h"

#include "kmd/job.h"

/* sched.c's scale: a weight-w HWQ is charged ns * 64 / w. */
#define ROTATE_VSCALE 64u
#define ROTATE_WEIGHT_DEFAULT 4u
/* Lag bound: 4 mean jobs; the mean starts at 1 us of NORMAL time. */
#define ROTATE_MAX_LAG_JOBS 4u
#define ROTATE_MEAN_MIN (1000u * ROTATE_VSCALE / ROTATE_WEIGHT_DEFAULT)

static bool vt_before(uint64_t a, uint64_t b);
static bool main_runnable(struct swgpu_engine *eng, uint32_t h);

bool
main_other_busy(struct swgpu_engine *eng, uint32_t cur)
{
	for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
		if (h != cur && hwq_rotates(eng, h) && main_ring_busy(eng, h))
			return true;
	return false;
}

/* Engine thread: may it step HWQ h of the rotation? A paused stream on
 * offer (OPEN) is; one another engine holds is not; HWQ 1 only while
 * demoted. */
static bool
main_runnable(struct swgpu_engine *eng, uint32_t h)
{
	if (!hwq_is_main(h))
		return prio_demoted(eng) && hwq_has_work(eng, h);
	uint32_t lend = atomic_load_explicit(&eng->main_lend[h],
	                                     memory_order_acquire);

	if (lend == ENGINE_LEND_OPEN)
		return true;
	return lend == ENGINE_LEND_NONE && hwq_has_work(eng, h);
}

void
engine_pause_main(struct swgpu_engine *eng, uint32_t h)
{
	struct hwq_exec *x = &eng->run[h];

	/* Acquire: run[h] may have been written by an engine that held
	 * the stream and gave it back. */
	if (atomic_load_explicit(&eng->main_lend[h], memory_order_acquire) !=
	            ENGINE_LEND_NONE ||
	    !x->job || x->paused)
		return;
	engine_publish_pause(eng, x, true);
	/* A demoted HWQ 1 job stays on its engine: HWQ 1 is no stream
	 * another engine takes over. */
	if (engine_lends(eng) && hwq_is_main(h))
		atomic_store_explicit(&eng->main_lend[h], ENGINE_LEND_OPEN,
		                      memory_order_release);
}

void
engine_charge_main(struct swgpu_engine *eng, uint32_t h, uint64_t ns)
{
	uint32_t w = atomic_load_explicit(&eng->hwq_weight[h],
	                                  memory_order_relaxed);

	if (!w || w > ROTATE_VSCALE)
		w = ROTATE_WEIGHT_DEFAULT;
	eng->hwq_vt[h] += ns * (ROTATE_VSCALE / w);
	eng->hwq_job_vt[h] += ns * (ROTATE_VSCALE / w);
}

void
engine_main_job_done(struct swgpu_engine *eng, uint32_t h)
{
	uint64_t job = eng->hwq_job_vt[h], *mean = &eng->hwq_mean_vt[h];
	uint64_t min = 0;
	bool found = false;

	eng->hwq_job_vt[h] = 0;
	/* Mean over about 8 jobs, one outlier moving it by 1/8 at most. */
	if (*mean < ROTATE_MEAN_MIN)
		*mean = ROTATE_MEAN_MIN;
	if (job > 2 * *mean)
		job = 2 * *mean;
	*mean = *mean - *mean / 8 + job / 8;
	/* Bounded lag, as sched_charge's: one job far above its mean (a
	 * cold first copy) does not make the HWQ wait for many of the
	 * others' jobs. Long jobs that never end are not capped: their
	 * slices keep the weights. */
	for (uint32_t o = 0; o < ENGINE_HWQ_COUNT; o++) {
		if (!hwq_is_main(o) || o == h || !main_runnable(eng, o))
			continue;
		if (!found || vt_before(eng->hwq_vt[o], min))
			min = eng->hwq_vt[o];
		found = true;
	}
	uint64_t lim = min + ROTATE_MAX_LAG_JOBS * *mean;
	if (found && vt_before(lim, eng->hwq_vt[h]))
		eng->hwq_vt[h] = lim;
}

static bool
vt_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

uint32_t
engine_pick_main(struct swgpu_engine *eng)
{
	const struct swgpu_config *cfg = &eng->dev->cfg;
	uint32_t cur = atomic_load_explicit(&eng->main_cur,
	                                    memory_order_relaxed);
	uint64_t end = atomic_load_explicit(&eng->slice_end_ns,
	                                    memory_order_relaxed);
	uint64_t now = swgpu_now_ns();
	bool cur_ok = main_runnable(eng, cur);
	/* No slices without preemption: a HWQ runs until it is empty. */
	uint64_t slice = cfg->no_preempt ? 0 : (uint64_t)cfg->slice_ms *
	                                       1000000u;

	bool resched = atomic_exchange_explicit(&eng->resched, false,
	                                        memory_order_relaxed);

	/* The running HWQ keeps the engine for its slice. */
	if (cur_ok && !eng->main_yield_now && !eng->main_repick &&
	    !resched && (!slice || (end && now < end)))
		return cur;
	eng->main_repick = false;

	uint32_t best = ENGINE_HWQ_NONE;
	/* From the one after cur round the HWQs, cur last: ties rotate. */
	for (uint32_t i = 1; i <= ENGINE_HWQ_COUNT; i++) {
		uint32_t h = (cur + i) % ENGINE_HWQ_COUNT;

		if (!hwq_rotates(eng, h))
			continue;
		if (h != cur ? !main_runnable(eng, h) : !cur_ok) {
			eng->hwq_seen[h] = false;
			continue;
		}
		if (!eng->hwq_seen[h]) {
			/* Back from idle: no banked time, and its turn
			 * comes at the next pick. */
			if (vt_before(eng->hwq_vt[h], eng->vt_floor))
				eng->hwq_vt[h] = eng->vt_floor - 1u;
			eng->hwq_seen[h] = true;
		}
		/* A HWQ waiting in a ring SEM_WAIT lets the others run. */
		if (h == cur && eng->main_yield_now &&
		    best != ENGINE_HWQ_NONE)
			continue;
		if (best == ENGINE_HWQ_NONE ||
		    vt_before(eng->hwq_vt[h], eng->hwq_vt[best]))
			best = h;
	}
	eng->main_yield_now = false;
	if (best == ENGINE_HWQ_NONE)
		return best;
	if (best != cur) {
		engine_pause_main(eng, cur);
		atomic_store_explicit(&eng->main_cur, best,
		                      memory_order_relaxed);
	}
	if (vt_before(eng->vt_floor, eng->hwq_vt[best]))
		eng->vt_floor = eng->hwq_vt[best];
	atomic_store_explicit(&eng->slice_end_ns,
	                      slice ? swgpu_add_sat(now, slice) : 0,
	                      memory_order_relaxed);
	return best;
}

/*
 * A HWQ 1 job that outlives a slice ("demoted"). HWQ 1 takes jobs of
 * queues measured as short, and runs before every main HWQ. If such a
 * queue submits an unusually long job, the job would hold the engine
 * until it ends. So once it has run a slice while a main HWQ waits, its
 * preemption hook says stop; the engine thread then demotes it: until it
 * ends, HWQ 1 takes part in the rotation like a main HWQ (charged at its
 * queue's weight, paused and resumed at the same preemption points, its
 * state in run[1] and its save area), and no longer runs first. It
 * stays on this engine (HWQ 1 is not lent). sched.c sends no new job to
 * HWQ 1 meanwhile, and a main HWQ job ordered after a HWQ 1 job (same
 * queue, or a dependency) waits for its fence in its ring.
 */
bool
prio_should_yield(struct swgpu_engine *eng)
{
	if (prio_demoted(eng))
		return main_should_yield(eng);
	uint64_t end = atomic_load_explicit(&eng->prio_slice_end_ns,
	                                    memory_order_relaxed);
	/* The clock only when a main HWQ waits for the engine. */
	return end && main_other_busy(eng, ENGINE_HWQ_PRIO) &&
	       swgpu_now_ns() >= end;
}

void
engine_prio_slice_start(struct swgpu_engine *eng, uint64_t t0)
{
	const struct swgpu_config *cfg = &eng->dev->cfg;
	uint64_t slice = cfg->no_preempt ? 0 : (uint64_t)cfg->slice_ms *
	                                       1000000u;

	atomic_store_explicit(&eng->prio_slice_end_ns,
	                      slice ? swgpu_add_sat(t0, slice) : 0,
	                      memory_order_relaxed);
}

void
engine_prio_demote(struct swgpu_engine *eng)
{
	struct hwq_exec *x = &eng->run[ENGINE_HWQ_PRIO];
	uint32_t w = x->job && x->job->q ? sched_queue_weight(x->job->q) :
	             ROTATE_WEIGHT_DEFAULT;
	uint64_t ran = swgpu_now_ns() - x->t0;

	atomic_store_explicit(&eng->hwq_weight[ENGINE_HWQ_PRIO], w,
	                      memory_order_relaxed);
	atomic_store_explicit(&eng->prio_demoted, true, memory_order_relaxed);
	atomic_store_explicit(&eng->prio_slice_end_ns, 0,
	                      memory_order_relaxed);
	/* The slice it just ran was its turn: it enters the rotation that
	 * far above the last pick, so the HWQs that waited go first. */
	eng->hwq_vt[ENGINE_HWQ_PRIO] = eng->vt_floor;
	eng->hwq_job_vt[ENGINE_HWQ_PRIO] = 0;
	engine_charge_main(eng, ENGINE_HWQ_PRIO, ran);
	eng->hwq_seen[ENGINE_HWQ_PRIO] = true;
	/* Leaving it is a pick (engine_pick_main pauses it). */
	atomic_store_explicit(&eng->main_cur, ENGINE_HWQ_PRIO,
	                      memory_order_relaxed);
	eng->main_repick = true;
}

void
engine_prio_demote_end(struct swgpu_engine *eng)
{
	atomic_store_explicit(&eng->prio_demoted, false,
	                      memory_order_relaxed);
	eng->hwq_seen[ENGINE_HWQ_PRIO] = false;
	/* main_cur names a main HWQ again; the next pick chooses. */
	atomic_store_explicit(&eng->main_cur, ENGINE_HWQ_MAIN,
	                      memory_order_relaxed);
	eng->main_repick = true;
}
