/* SPDX-License-Identifier: MIT */
/* Internal pieces of the JIT shared by jit_run.c and jit/ (jit.h). */
#ifndef SWGPU_SHADER_JIT_RUN_H
#define SWGPU_SHADER_JIT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

struct jit_program;

/* Block blk of e's program with e->jit's segments (interp_run.c calls it
 * in place of interp_exec_block; same return value). */
uint32_t jit_exec_block(struct ir_exec *e, const struct ir_dispatch *d,
                        uint32_t blk, bool full);

/* Release what jit/jit_llvm.c keeps for a program (NULL: nothing). */
void jit_engine_free(void *engine);

#endif
