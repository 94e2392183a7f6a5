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


/* HWQ 0 work eng's own thread may run (none while another engine holds
 * the stream). */
bool main_has_work(struct swgpu_engine *eng);
/* The HWQ 0 job running on eng should stop at this preemption point. */
bool main_should_yield(struct swgpu_engine *eng);
/* x's job lost (paused) or regained the engine eng. */
void engine_publish_pause(struct swgpu_engine *eng, struct hwq_exec *x,
                          bool paused);
/* May eng's paused HWQ 0 job resume on another engine? */
bool engine_lends(const struct swgpu_engine *eng);
/* eng's thread takes its offered HWQ 0 stream back; false while another
 * engine holds it. */
bool main_take_back(struct swgpu_engine *eng);
/* eng (its rings empty) takes over a paused job of another engine of
 * the class and runs it; false if there is none. */
bool engine_take_over(struct swgpu_engine *eng);

/* engine.c: run the packet at owner's HWQ h read pointer on eng's
 * thread (eng == owner, or the engine holding owner's stream). */
void engine_step(struct swgpu_engine *eng, struct swgpu_engine *owner,
                 uint32_t h, uint64_t wptr);

#endif
