/* SPDX-License-Identifier: MIT */
/*
 * Fence completion processing (internal).
 *
 * After an engine stores its fence it processes completions in a range:
 * every job from processed + 1 up to the fence value is finished in ring
 * order (DONE or ERROR), its sync objects are signalled, dependent pending
 * jobs are released, and host waiters are woken only if there are any.
 * All of this runs under dev->lock, so any engine may finish another
 * engine's jobs (it must, before it finishes a job that waited on them,
 * so that signals land in dependency order).
 */
#ifndef SWGPU_FENCE_H
#define SWGPU_FENCE_H

#include <stdbool.h>
#include <stdint.h>

struct swgpu_device;
struct swgpu_engine;
struct swgpu_job;

/* Finish every job of eng's hardware queue hwq up to min(upto, its
 * fence). For a main HWQ every finished job of HWQ 1 goes first: it ran
 * before any main HWQ job pushed after it started. dev->lock held. */
void fence_process(struct swgpu_engine *eng, uint32_t hwq, uint64_t upto);

/* Finish a job (ring or direct): apply its signals (with error if it
 * failed), update its queue, drop its references. dev->lock held. */
void job_finish(struct swgpu_job *job, bool failed);

#endif
