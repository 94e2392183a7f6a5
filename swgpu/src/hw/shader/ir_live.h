/* SPDX-License-Identifier: MIT */
/*
 * Register liveness over a program's blocks (ir_live.c): which
 * registers may still be read, on some lane, at the entry and at the
 * exit of each block. Each lane runs its own path through the blocks
 * and reads only its own registers (cross-lane reads are pinned, see
 * below), so the classic backward data flow over the block graph is the
 * per-lane answer. A register that is not live at a point may hold
 * anything there: nothing reads it before it is written again.
 *
 * Conservative on both sides: reads are over-counted (an instruction
 * whose operands the analysis does not know exactly reads IR_SMP_REGS
 * registers from each field, and those registers are live everywhere:
 * *pinned*, as are the ones the engine fills or reads and every
 * register an instruction may read on another lane), writes are
 * under-counted (only the per-lane operations and loads that surely
 * write dst kill it).
 *
 * What is read after the program: a lane's returning block (IR_RET,
 * IR_KILL) has the *exit-observable* registers live at its end —
 * ir_live_exit_regs: every register for a program built by hand (tests
 * compare whole register files), the engine's (stage outputs, inputs,
 * built-ins, constants) for a translated one (p->outputs_only) — and
 * the registers live at block 0's entry: an execution state runs
 * workgroup after workgroup (batch after batch) on one register file,
 * so what the program reads before writing it (an undefined value in
 * SPIR-V's terms) is what the last invocation there left.
 */
#ifndef SWGPU_SHADER_IR_LIVE_H
#define SWGPU_SHADER_IR_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/shader/ir.h"

struct ir_live {
	uint32_t nblocks;
	uint32_t words;            /* 64-bit words per register set */
	uint64_t *in;              /* nblocks sets: live at block entry */
	uint64_t *out;             /* nblocks sets: live at block exit */
};

/* Liveness of p into lv; false (lv empty) when out of memory or p too
 * big for it (the sets would pass IR_LIVE_MAX_BYTES): callers then take
 * every register as live. */
#define IR_LIVE_MAX_BYTES (64u << 20)
bool ir_live_compute(const struct ir_program *p, struct ir_live *lv);
void ir_live_free(struct ir_live *lv);

/* Is register r live at the entry / the exit of block b? */
bool ir_live_in(const struct ir_live *lv, uint32_t b, uint32_t r);
bool ir_live_out(const struct ir_live *lv, uint32_t b, uint32_t r);

/* flag[r] = 1 for each register the engine fills or reads outside the
 * code (built-ins, stage inputs and outputs, constants); the rest of
 * flag (p->nregs bytes) is cleared. */
void ir_live_engine_regs(const struct ir_program *p, uint8_t *flag);

/* flag[r] = 1 for each register seen after a lane's last block: every
 * one unless p->outputs_only, else ir_live_engine_regs's. */
void ir_live_exit_regs(const struct ir_program *p, uint8_t *flag);

#endif
