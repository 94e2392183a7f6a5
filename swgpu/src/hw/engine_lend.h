/* SPDX-License-Identifier: MIT */
/*
 * Engine internals shared by engine.c and engine_lend.c (resume on
 * another engine of the class).
 */
#ifndef SWGPU_ENGINE_LEND_H
#define SWGPU_ENGINE_LEND_H

#include "hw/engine.h"

/* Has HWQ h of eng work its run[h] has not consumed? The caller holds
 * the stream (run[h]). */
static inline bool
hwq_has_work(struct swgpu_engine *eng, uint32_t h)
{
	return atomic_load_explicit(&eng->hwq[h].ring.wptr,
	                            memory_order_acquire) != eng->run[h].rptr;
}


/* Any thread: does main HWQ h of eng hold work nobody else runs now
 * (its ring not consumed, or a paused job; not taken by another engine)?
 * Ring pointers only, so a dispatch helper thread may ask. */
static inline bool
main_ring_busy(struct swgpu_engine *eng, uint32_t h)
{
	return atomic_load_explicit(&eng->main_lend[h],
	                            memory_order_acquire) < ENGINE_LEND_TAKEN &&
	       atomic_load_explicit(&eng->hwq[h].ring.wptr,
	                            memory_order_acquire) !=
	               atomic_load_explicit(&eng->hwq[h].ring.rptr,
	                                    memory_order_acquire);
}

/* No HWQ to step (engine_pick_main). */
#define ENGINE_HWQ_NONE ENGINE_HWQ_COUNT

/* Is HWQ 1's job demoted (engine_rotate.c): it outlived a slice and
 * takes turns with the main HWQs instead of running first? */
static inline bool
prio_demoted(struct swgpu_engine *eng)
{
	return atomic_load_explicit(&eng->prio_demoted,
	                            memory_order_relaxed);
}

/* Does HWQ h take part in the rotation: a main HWQ, or HWQ 1 while its
 * job is demoted. */
static inline bool
hwq_rotates(struct swgpu_engine *eng, uint32_t h)
{
	return hwq_is_main(h) || prio_demoted(eng);
}

/* HWQ 1 work that runs before any main HWQ (not a demoted job). */
static inline bool
prio_preempts(struct swgpu_engine *eng)
{
	return !prio_demoted(eng) && hwq_has_work(eng, ENGINE_HWQ_PRIO);
}

/* Main HWQ work eng's own thread may run (none while another engine
 * holds a stream). */
bool main_has_work(struct swgpu_engine *eng);
/* The main HWQ job running on eng should stop at this preemption point:
 * HWQ 1 has work, its time slice is over (engine_rotate.c), or eng runs
 * another engine's job and got work of its own. */
bool main_should_yield(struct swgpu_engine *eng);
/* engine_rotate.c. Another HWQ of the rotation than cur (a main HWQ, or
 * HWQ 1 while demoted) has work eng may run. */
bool main_other_busy(struct swgpu_engine *eng, uint32_t cur);
/* Engine thread: the HWQ of the rotation to step next (rotating at
 * slice ends, the one with the least weighted time first), or
 * ENGINE_HWQ_NONE if none has work. Pauses the job of the HWQ it
 * leaves. */
uint32_t engine_pick_main(struct swgpu_engine *eng);
/* Any thread (the HWQ 1 preemption hook): should HWQ 1's running job
 * stop here? Once it has run a slice while a main HWQ waits, it is to be
 * demoted; a demoted one stops as a main HWQ's job does. */
bool prio_should_yield(struct swgpu_engine *eng);
/* Engine thread: HWQ 1's job began at t0: its slice ends a slice later
 * (none with slices off or no_preempt). */
void engine_prio_slice_start(struct swgpu_engine *eng, uint64_t t0);
/* Engine thread: HWQ 1's job stopped for its slice end: demote it. */
void engine_prio_demote(struct swgpu_engine *eng);
/* Engine thread: HWQ 1's demoted job ended: HWQ 1 preempts again. */
void engine_prio_demote_end(struct swgpu_engine *eng);
/* Engine thread: main HWQ h ran ns of engine time. */
void engine_charge_main(struct swgpu_engine *eng, uint32_t h, uint64_t ns);
/* Engine thread: the job of main HWQ h ended: bound its HWQ's lag. */
void engine_main_job_done(struct swgpu_engine *eng, uint32_t h);
/* Engine thread: pause the job running in main HWQ h (HWQ 1 work or
 * another HWQ's turn) and offer it to idle engines of the class. */
void engine_pause_main(struct swgpu_engine *eng, uint32_t h);
/* x's job lost (paused) or regained the engine eng. */
void engine_publish_pause(struct swgpu_engine *eng, struct hwq_exec *x,
                          bool paused);
/* May eng's paused main HWQ job resume on another engine? */
bool engine_lends(const struct swgpu_engine *eng);
/* eng's thread takes its offered main HWQ h stream back; false while
 * another engine holds it. */
bool main_take_back(struct swgpu_engine *eng, uint32_t h);
/* eng (its rings empty) takes over a paused job of another engine of
 * the class and runs it; false if there is none. */
bool engine_take_over(struct swgpu_engine *eng);

/* engine.c: eng is about to run a job's packets: busy for swgpud's
 * clients (kmd/ring_server.h), then the records they wrote while they
 * saw it idle. No-op in process, or when it is busy already. */
void engine_srv_busy(struct swgpu_engine *eng);
/* engine.c: run the packet at owner's HWQ h read pointer on eng's
 * thread (eng == owner, or the engine holding owner's stream). */
void engine_step(struct swgpu_engine *eng, struct swgpu_engine *owner,
                 uint32_t h, uint64_t wptr);

#endif
