/* SPDX-License-Identifier: MIT */
/*
 * The compiler's instruction selection (jit_alu.c): which IR
 * instructions it compiles and the LLVM IR of each, on vectors of
 * `lanes` 32-bit lanes, each lane exactly as interp.c computes it.
 */
#ifndef SWGPU_SHADER_JIT_ALU_H
#define SWGPU_SHADER_JIT_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include <llvm-c/Core.h>

#include "hw/shader/ir.h"

struct jit_ctx {
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	uint32_t lanes;
	LLVMTypeRef i1, i8, i32, i64, f32;       /* scalars */
	LLVMTypeRef vi1, vi8, vi32, vi64, vf32;  /* lanes-wide vectors */
	/* Set by jit_alu_emit: the value of dst + 1 of an instruction
	 * writing a register pair (jit_alu_results 2), else NULL. */
	LLVMValueRef hi;
	/* jit_ext.c's scratch buffer and the function it belongs to */
	LLVMValueRef ext_fn, ext_io;
};

/* Source registers in (a, b, c, d order) the instruction reads; -1:
 * not compiled (the interpreter runs it). */
int jit_alu_sources(const struct ir_instr *in);

/* The value of dst for instruction in, from its sources' values (the
 * first jit_alu_sources(in) of src, each a vi32). */
LLVMValueRef jit_alu_emit(struct jit_ctx *c, const struct ir_instr *in,
                          LLVMValueRef const src[4]);

/* Registers the instruction writes: 1 (dst), 2 (dst, dst + 1: the
 * second value in c->hi after jit_alu_emit) or 0 (IR_NOP: jit_alu_emit
 * gives NULL). */
uint32_t jit_alu_results(const struct ir_instr *in);

/* A vi32 with every lane v; a vi64 with every lane v. */
LLVMValueRef jit_splat(struct jit_ctx *c, uint32_t v);
LLVMValueRef jit_splat64(struct jit_ctx *c, uint64_t v);

/* A call of the LLVM intrinsic name overloaded on types[0..ntypes). */
LLVMValueRef jit_intrinsic(struct jit_ctx *c, const char *name,
                           LLVMTypeRef *types, unsigned ntypes,
                           LLVMValueRef *args, unsigned nargs);

#endif
