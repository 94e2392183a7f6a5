/* SPDX-License-Identifier: MIT */
/*
 * Clean-up of a translated program before it runs (ir_opt.c): copy
 * propagation inside blocks and removal of copies nothing reads.
 * SWGPU_SHADER_OPT=0 in the environment leaves programs as translated
 * (to compare).
 */
#ifndef SWGPU_SHADER_IR_OPT_H
#define SWGPU_SHADER_IR_OPT_H

#include "hw/shader/ir.h"

/* In place; on allocation failure p stays as it was (still correct). */
void ir_opt_program(struct ir_program *p);

/* True for the operations the pass may rewrite: one register per lane
 * in dst, a, b, c, d, nothing read from other lanes. */
bool ir_opt_simple(uint32_t op);

#endif
