/* SPDX-License-Identifier: MIT */
/*
 * Fragment programs whose outputs are the same on every lane of a draw
 * (ir_uniform.c): a constant colour, a colour from push constants or a
 * uniform buffer, arithmetic on those. The fragment stage then runs the
 * program on one quad and copies its outputs to every lane of the batch
 * (hw/gfx/frag_shade.c), instead of running it on 128 lanes.
 */
#ifndef SWGPU_SHADER_IR_UNIFORM_H
#define SWGPU_SHADER_IR_UNIFORM_H

#include <stdbool.h>

#include "hw/shader/ir.h"

/*
 * True when every output the graphics pipeline reads of fragment
 * program p (colours of every location, Index 1 colours, FragDepth,
 * SampleMask) has the same bits on every lane of a batch, whatever the
 * lane's inputs and built-ins, and running p has no effect other than
 * those outputs (no discard, stores, atomics, image writes). False when
 * SWGPU_FS_UNIFORM=0 is in the environment (to compare with the
 * general path).
 */
bool ir_fs_outputs_uniform(const struct ir_program *p);

/* Of a program with uniform outputs: true when they are a function of
 * the push constants alone (no buffer loads), so equal push constant
 * bytes give equal outputs. */
bool ir_fs_outputs_push_only(const struct ir_program *p);

#endif
