/* SPDX-License-Identifier: MIT */
/*
 * Workgroup save areas: the state of the workgroups a preempted dispatch
 * stopped in the middle of, so they resume exactly there (a GPU's
 * compute wave save/restore).
 *
 * A dispatch's workgroups are run by at most IR_SAVE_SLOTS threads (the
 * engine thread and one helper, packet_dispatch.c), each claiming group
 * indices in order. When the dispatch must stop, each thread stops its
 * workgroup at the next loop back-edge (interp_run.c, run_lanes) and
 * saves it into a slot; no thread claims another group. So the groups
 * claimed, [0, claimed), are done except those in SAVED slots.
 *
 * Layout (host byte order, all offsets from the area's start; the area
 * is a BO of its context's device, kmd side: packet_dispatch.c):
 *
 *   struct ir_save_header                      64 bytes
 *   slot 0, slot 1 (slot_bytes each, 16-aligned):
 *     struct ir_save_slot                      32 bytes
 *     registers   nregs * width * 4 bytes      (register-major, as
 *                                               struct ir_exec holds them:
 *                                               constants, builtins,
 *                                               SSA values of every lane)
 *     pc          width * 4 bytes              block each lane is at
 *                                              (IR_PC_DONE: returned)
 *     prev        width * 4 bytes              block it came from (phis)
 *     mask        width bytes                  lanes of the block run next
 *     shared      shared_bytes                 workgroup memory
 *
 * Barrier state needs no field of its own: a control barrier ends its
 * block (the translator splits blocks there) and run_lanes always runs
 * the lowest block some lane is at, so the lanes waiting at a barrier
 * are exactly those whose pc is past it: pc[] is the barrier state.
 * Slot states move EMPTY -> SAVED (a thread stopped its group there) ->
 * RUNNING (a thread resumed it) -> EMPTY (done) or SAVED (stopped again),
 * with atomic compare-and-swap: two threads never take one slot.
 */
#ifndef SWGPU_WG_SAVE_H
#define SWGPU_WG_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

#define IR_SAVE_SLOTS 2u
#define IR_SAVE_MAGIC 0x53575753u /* "SWGS" */

enum ir_save_slot_state {
	IR_SLOT_EMPTY = 0,
	IR_SLOT_SAVED = 1,
	IR_SLOT_RUNNING = 2,
};

struct ir_save_header {
	uint32_t magic;
	uint32_t nregs;            /* these four must match the program */
	uint32_t width;
	uint32_t shared_bytes;
	uint32_t slot_bytes;
	uint32_t slot_state[IR_SAVE_SLOTS]; /* enum ir_save_slot_state */
	uint32_t preemptions;      /* mid-workgroup stops of this dispatch */
	uint64_t claimed;          /* groups claimed when it stopped */
	uint64_t stall_ns;         /* own run time since a group finished */
	uint64_t reserved[2];
};

struct ir_save_slot {
	uint64_t group;            /* flattened workgroup index */
	uint64_t blocks_run;
	uint32_t blk;              /* block to run on resume */
	uint8_t uniform, full;
	uint8_t pad[10];
};

/* Bytes of one program's save area (0 for a non-compute program). */
size_t ir_save_area_size(const struct ir_program *p);
/* Write an empty area's header for p. */
void ir_save_area_init(void *area, const struct ir_program *p);
/* Is area a save area of p (a program of another shape: no)? */
bool ir_save_area_matches(const void *area, const struct ir_program *p);
/* Slots in state SAVED. */
uint32_t ir_save_area_saved(const void *area);

/* Thread side (interp_run.c): a stopped workgroup into a free slot (or
 * slot, when it was resumed from one), and a SAVED slot into e (false
 * when none is left). */
struct ir_exec;
void ir_save_store(void *area, int slot, const struct ir_exec *e,
                   uint64_t group);
bool ir_save_take(void *area, struct ir_exec *e, int *slot,
                  uint64_t *group);
/* A slot taken by ir_save_take whose workgroup finished. */
void ir_save_release(void *area, int slot);

#endif
