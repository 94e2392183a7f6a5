/* SPDX-License-Identifier: MIT */
/*
 * Preemption inside a dispatch's workgroups (DISPATCH side): the stop
 * poll the workgroup threads ask at loop back-edges, and the save area
 * (hw/shader/wg_save.h) it allocates from the job's device memory at the
 * first stop, so that the stopped workgroups resume exactly where they
 * were, on this engine or another one.
 */
#ifndef SWGPU_DISPATCH_SAVE_H
#define SWGPU_DISPATCH_SAVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "hw/packet/packet_internal.h"

struct ir_dispatch;
struct ir_program;

struct dispatch_save {
	struct exec_env *env;
	struct ir_dispatch *d;
	pthread_mutex_t lock;   /* the area allocation */
	bool no_area;           /* __atomic: allocation failed */
	bool armed;             /* d->stop_poll set */
};

/*
 * Before the dispatch's first group. On a preemptible stream, arms
 * d->stop_poll; when the stream resumes a dispatch stopped inside its
 * workgroups, hands their save area to d (*done stays the groups
 * claimed then) and gives the watchdog back the stall time it had
 * (time preempted does not count). False with a fault recorded when the
 * saved state does not fit the program (the shader changed meanwhile).
 */
bool dispatch_save_begin(struct dispatch_save *ds, struct exec_env *env,
                         const struct pkt *p, struct ir_dispatch *d,
                         bool resuming);
/* The dispatch stopped (d->stop) after claiming groups up to end at
 * most: the groups claimed (the resume offset) and the watchdog's stall
 * time, in the save area and the job's exec_save. */
uint64_t dispatch_save_stop(struct dispatch_save *ds, uint64_t end);
void dispatch_save_end(struct dispatch_save *ds);

#endif
