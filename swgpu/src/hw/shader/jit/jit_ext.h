/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's wider op coverage (jit_ext.c, jit_ext_lanes.c):
 * the per-lane instructions jit_alu.c does not select itself.
 *
 * Ops with a cheap exact vector form (64-bit integers on register
 * pairs, byte dot products, half <-> float) are emitted as LLVM IR;
 * the rest (libm: sinf, powf, ...; frexp, packs, doubles, rounding
 * toward zero) become one call per vector of swgpu_jit_lanes, which
 * runs the interpreter's own code for the instruction on those lanes,
 * so each lane computes what interp*.c computes, bit for bit, with the
 * very same libm. The call goes by name: jit_engine.c defines the
 * symbol in every program's JITDylib (jit_ext_define_symbols), so compiled code
 * holds no host address and stays valid in another process.
 */
#ifndef SWGPU_SHADER_JIT_EXT_H
#define SWGPU_SHADER_JIT_EXT_H

#include <stdint.h>

#include <llvm-c/LLJIT.h>

#include "jit_alu.h"

/* As jit_alu_sources / jit_alu_emit, for the ops of jit_ext.c. */
int jit_ext_sources(const struct ir_instr *in);
LLVMValueRef jit_ext_emit(struct jit_ctx *c, const struct ir_instr *in,
                          LLVMValueRef const src[4]);
/* Registers written: 1, 2 for a pair dst, dst + 1, 0 for IR_NOP (whose
 * jit_ext_emit value is NULL) or an op not ours. */
uint32_t jit_ext_results(const struct ir_instr *in);

/* Define swgpu_jit_lanes, swgpu_jit_frame_op (jit_frame_op.h) and
 * swgpu_jit_loop_stop in jd, a JITDylib of j (jit_engine.c calls it for
 * every program's JITDylib). */
LLVMErrorRef jit_ext_define_symbols(LLVMOrcLLJITRef j, LLVMOrcJITDylibRef jd);

/* Name of the lane-call entry point in compiled code. */
#define JIT_LANES_SYMBOL "swgpu_jit_lanes"

/*
 * The instruction (op, aux2, imm) on `lanes` lanes of io, laid out as
 * the interpreter's register file with width lanes: rows 0..3 the
 * sources a, b, c, d, rows 4 and 5 the results dst, dst + 1
 * (io[row * lanes + lane]). Runs interp_exec_range on a one-instruction
 * program, so every lane is exactly the interpreter's.
 */
void swgpu_jit_lanes(uint32_t *io, uint32_t lanes, uint32_t op,
                     uint32_t aux2, uint32_t imm);

/* Name of the stop-poll entry point of compiled loops (jit_loop.c). */
#define JIT_LOOP_STOP_SYMBOL "swgpu_jit_loop_stop"

/*
 * A compiled loop's preemption question, every JIT_LOOP_POLL blocks
 * (jit.h): non-zero when f->d must stop (d->stop set, or d->stop_poll,
 * the engine's question the interpreter asks at its back-edges, says
 * so now); 0 when the dispatch is not preemptible (no stop_poll).
 */
struct jit_frame;
uint32_t swgpu_jit_loop_stop(struct jit_frame *f);

#endif
