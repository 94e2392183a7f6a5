/* SPDX-License-Identifier: MIT */
/*
 * Running vertex and fragment programs: the interface between the shader
 * cores and the graphics pipeline (hw/gfx). Compute workgroups run through
 * ir_exec_run (ir.h); the graphics pipeline instead runs *batches* of
 * lanes that it fills itself.
 *
 * A batch is one run of the program over lanes [0, n) of an execution
 * state of `width` lanes, every lane starting at block 0:
 *  - vertex: one lane per vertex. The caller fills the user input
 *    registers (ir_io.in_reg, the fetched attributes) and the built-in
 *    registers VERTEX_INDEX, INSTANCE_INDEX, BASE_VERTEX, BASE_INSTANCE,
 *    DRAW_INDEX, VIEW_INDEX; after the run it reads position_reg,
 *    point_size_reg, clip/cull distances and out_reg.
 *  - fragment: lanes 4q .. 4q + 3 are quad q, the pixels (x, y),
 *    (x + 1, y), (x, y + 1), (x + 1, y + 1) with x, y even, so that
 *    derivatives take differences inside a quad (lane ^ 1: horizontal
 *    neighbour, lane ^ 2: vertical). The caller fills the interpolated
 *    inputs (in_reg), FRAG_COORD, FRONT_FACING, POINT_COORD,
 *    SAMPLE_*, CENTROID_SAMPLE, PRIMITIVE_ID, LAYER, VIEW_INDEX,
 *    VIEWPORT_INDEX (HELPER is the batch runner's, from `live`);
 *    after the run it reads out_reg, frag_depth_reg and
 *    sample_mask_reg of the lanes that were live and not discarded.
 * Subgroups are 32 consecutive lanes, as in compute. Registers keep
 * their values between batches: the caller rewrites only what changes
 * (constant registers are set once, at creation).
 *
 * Resources (buffers, images, samplers, push constants) come from an
 * ir_dispatch filled from the draw's bind table exactly as for DISPATCH;
 * its group fields are unused. Watchdog: hang_timeout_ns and progress_ns
 * as for compute (a batch is the unit of progress).
 */
#ifndef SWGPU_SHADER_STAGE_H
#define SWGPU_SHADER_STAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/* An execution state for batches of p (a VERTEX or FRAGMENT program) of
 * width lanes, width a multiple of 32. One per thread; reusable for any
 * number of batches. Free with ir_exec_destroy. NULL: out of memory,
 * width not a positive multiple of 32, or p a compute program. */
struct ir_exec *ir_exec_create_batch(const struct ir_program *p,
                                     uint32_t width);

/* Width lanes of register reg (reg < p->nregs), structure of arrays:
 * the caller writes inputs and reads outputs through it. */
lane_t *ir_exec_reg(struct ir_exec *e, uint32_t reg);

/*
 * Run the program on lanes [0, n), n <= width (lanes >= n do nothing).
 * live: NULL, or live[l] == 0 for a helper invocation (fragment quads
 * only): it executes for its neighbours' derivatives, HelperInvocation
 * reads true, and its stores, atomics and image writes do nothing.
 * discarded: NULL, or on return discarded[l] = 1 for each lane that
 * executed OpKill, OpTerminateInvocation or OpDemoteToHelperInvocation
 * (its outputs must be ignored), else 0.
 * Returns false when the batch ran past d->hang_timeout_ns without
 * finishing (a hang; d->hung is set).
 */
bool ir_exec_run_batch(struct ir_exec *e, struct ir_dispatch *d, uint32_t n,
                       const uint8_t *live, uint8_t *discarded);

#endif
