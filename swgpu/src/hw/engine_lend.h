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

/* Main HWQ work eng's own thread may run (none while another engine
 * holds a stream). */
bool main_has_work(struct swgpu_engine *eng);
/* The main HWQ job running on eng should stop at this preemption point:
 * HWQ 1 has work, its time slice is over (engine_rotate.c), or eng runs
 * another engine's job and got work of its own. */
bool main_should_yield(struct swgpu_engine *eng);
/* engine_rotate.c. Another main HWQ than cur has work eng may run. */
bool main_other_busy(struct swgpu_engine *eng, uint32_t cur);
/* Engine thread: the main HWQ to step next (rotating at slice ends, the
 * one with the least weighted time first), or ENGINE_HWQ_PRIO if none
 * has work. Pauses the job of the HWQ it leaves. */
uint32_t engine_pick_main(struct swgpu_engine *eng);
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

/* engine.c: run the packet at owner's HWQ h read pointer on eng's
 * thread (eng == owner, or the engine holding owner's stream). */
void engine_step(struct swgpu_engine *eng, struct swgpu_engine *owner,
                 uint32_t h, uint64_t wptr);

#endif
