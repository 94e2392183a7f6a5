/* SPDX-License-Identifier: MIT */
/*
 * Instructions compiled as a call of the interpreter on the whole frame
 * (jit_frame_op.c): atomics, images, sampling, buffer device addresses,
 * the clock, subgroup operations, derivatives, IR_DEMOTE and IR_KILL.
 * Each is a phase of its segment on its own (like IR_FENCE): the
 * segment's chunk loop stores every register it wrote, compiled code
 * calls swgpu_jit_frame_op once, which runs interp_exec_range on that
 * one instruction over all lanes of the block's mask, and the next
 * phase reloads what it reads. So the instruction does exactly what
 * the interpreter does, memory effects in its lane order and whole-
 * group semantics included, without cutting the block into segments.
 */
#ifndef SWGPU_SHADER_JIT_FRAME_OP_H
#define SWGPU_SHADER_JIT_FRAME_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/shader/ir.h"
#include "jit_emit.h"

/* Name of the frame-call entry point in compiled code (defined in every
 * program's JITDylib by jit_ext_define_symbols, as swgpu_jit_lanes). */
#define JIT_FRAME_OP_SYMBOL "swgpu_jit_frame_op"

/* Is in one of the frame-call instructions? */
bool jit_frame_op_is(const struct ir_instr *in);

/* As jit_mem_sources for a frame-call instruction: 0 (it reads the
 * register file itself) with *cls = JIT_MEM_FENCE | JIT_MEM_FRAME, a
 * phase alone and never in a compiled loop; -1: not one. */
int jit_frame_op_sources(const struct ir_instr *in, unsigned *cls);

/* Emit the call for in, instruction ii of block blk, between two chunk
 * loops; returns the hint of a terminator (IR_KILL), else NULL. */
LLVMValueRef jit_frame_op_emit(struct seg_state *s, const struct ir_instr *in,
                               uint32_t blk, uint32_t ii);

/* Instruction ii of block blk on the frame's lanes: interp_exec_range
 * with the frame's execution state, dispatch and full flag; refreshes
 * f->store_mask (an IR_DEMOTE makes helper lanes). Returns what
 * interp_exec_range returns. */
struct jit_frame;
uint32_t swgpu_jit_frame_op(struct jit_frame *f, uint32_t blk, uint32_t ii);

#endif
