/* SPDX-License-Identifier: MIT */
/*
 * Frame calls (jit_frame_op.h): the instructions whose lanes need the
 * engine's state beyond registers and buffers (descriptors of images
 * and samplers, the VA space, helper-lane masks, the whole subgroup or
 * quad, the discard flags) run as one call of the interpreter per
 * block execution, between the segment's chunk loops.
 *
 * Why a call over the whole frame rather than per chunk of lanes: the
 * interpreter runs such an instruction for every lane before the next
 * instruction, and the order matters here — atomics and image stores
 * reach memory in ascending lane order, subgroup operations read the
 * other lanes' values of the same instruction's sources, derivatives
 * read the other lanes of the quad. A phase of its own gives exactly
 * that order at no extra cost over the interpreter for the instruction
 * itself, and the rest of the block stays in one native call.
 */
#include <stddef.h>

#include <llvm-c/Core.h>

#include "hw/shader/jit.h"
#include "jit_frame_op.h"

bool
jit_frame_op_is(const struct ir_instr *in)
{
	switch ((enum ir_op)in->op) {
	/* atomics: storage buffers, shared memory, 32 and 64 bits */
	case IR_ATOMBUF: case IR_ATOMSH: case IR_ATOMBUFX:
	case IR_ATOMBUF64: case IR_ATOMSH64:
	/* images, texel buffers, sampling */
	case IR_IMGLD: case IR_IMGST: case IR_IMGATOM: case IR_IMGSIZE:
	case IR_IMGSAMPLE:
	/* buffer device addresses (page faults recorded in the dispatch) */
	case IR_LDPHYS: case IR_STPHYS: case IR_ATOMPHYS: case IR_ATOMPHYS64:
	/* one clock read for the whole group */
	case IR_CLOCK:
	/* subgroups */
	case IR_ELECT: case IR_VALL: case IR_VANY: case IR_VALLEQ:
	case IR_BCAST: case IR_BCASTFIRST: case IR_BALLOT:
	case IR_INVBALLOT: case IR_BALLOTEXT: case IR_BALLOTCOUNT:
	case IR_BALLOTLSB: case IR_BALLOTMSB: case IR_SHUFFLE:
	case IR_SHUFXOR: case IR_SHUFUP: case IR_SHUFDOWN:
	case IR_GIADD: case IR_GFADD: case IR_GIMUL: case IR_GFMUL:
	case IR_GSMIN: case IR_GUMIN: case IR_GFMIN: case IR_GSMAX:
	case IR_GUMAX: case IR_GFMAX: case IR_GAND: case IR_GOR:
	case IR_GXOR: case IR_G64:
	/* discards (derivatives are compiled: jit_llvm.c emit_deriv) */
	case IR_DEMOTE: case IR_KILL:
		return true;
	default:
		return false;
	}
}

int
jit_frame_op_sources(const struct ir_instr *in, unsigned *cls)
{
	if (!jit_frame_op_is(in))
		return -1;
	*cls = JIT_MEM_FENCE | JIT_MEM_FRAME;
	return 0;
}

LLVMValueRef
jit_frame_op_emit(struct seg_state *s, const struct ir_instr *in,
                  uint32_t blk, uint32_t ii)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef b = c->b;
	LLVMTypeRef ptr = LLVMPointerType(c->i8, 0);
	LLVMTypeRef params[3] = { ptr, c->i32, c->i32 };
	LLVMTypeRef fty = LLVMFunctionType(c->i32, params, 3, false);
	LLVMValueRef fn = LLVMGetNamedFunction(c->mod, JIT_FRAME_OP_SYMBOL);

	if (!fn) {
		/* it reads and writes any memory: no attribute lets LLVM
		 * keep a register or buffer value across it */
		fn = LLVMAddFunction(c->mod, JIT_FRAME_OP_SYMBOL, fty);
		LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
			LLVMCreateEnumAttribute(c->ctx,
				LLVMGetEnumAttributeKindForName("nounwind", 8),
				0));
	}
	LLVMValueRef args[3] = {
		s->k.frame, LLVMConstInt(c->i32, blk, false),
		LLVMConstInt(c->i32, ii, false),
	};
	LLVMValueRef r = LLVMBuildCall2(b, fty, fn, args, 3, "");

	/* an IR_DEMOTE may have made helper lanes: the stores of later
	 * phases use the frame's refreshed store mask */
	s->store_mask_ptr = jit_frame_load(c, s->k.frame,
		offsetof(struct jit_frame, store_mask), ptr);
	return in->op == IR_KILL ? r : NULL;
}
