/* SPDX-License-Identifier: MIT */
/*
 * Preempted jobs in the state dump: their save areas and where each will
 * resume (packet, progress inside it, workgroups stopped mid-way and
 * their blocks).
 */
#ifndef SWGPU_DUMP_SAVE_H
#define SWGPU_DUMP_SAVE_H

#include <stdio.h>

struct swgpu_device;
struct exec_save;

/* Engine thread: the job of sv stopped (publish) or goes on (clear). */
void dump_save_publish(struct swgpu_device *dev, struct exec_save *sv);
void dump_save_clear(struct swgpu_device *dev, struct exec_save *sv);

/* dev->lock held: one line per preempted job in an engine ring, with
 * one more per workgroup saved inside its dispatch. */
void dump_preempted_locked(struct swgpu_device *dev, FILE *out);

#endif
