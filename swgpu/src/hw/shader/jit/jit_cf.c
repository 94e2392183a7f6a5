/* SPDX-License-Identifier: MIT */
/*
 * Phis and terminators in compiled code, as interp.c runs them:
 *  - IR_PHI: dst takes the register of the first table pair whose block
 *    is the lane's previous block (frame->prev), else keeps its value;
 *  - IR_BR, IR_BRC, IR_SWITCH, IR_RET: the active lanes' pc (and prev,
 *    but for IR_RET) are stored, and the function returns the
 *    scheduler's hint: the one successor when every active lane takes
 *    it, IR_PC_DONE when they all return, else INTERP_HINT_NONE. A
 *    conditional branch's hint needs every chunk: two i1 flags (some
 *    active lane taken / not taken) are carried through the loop.
 * IR_KILL (discards) is a frame call (jit_frame_op.c), not emitted here.
 */
#include "hw/shader/interp_util.h"
#include "jit_emit.h"

bool
jit_cf_is_phi(const struct ir_instr *in)
{
	return in->op == IR_PHI;
}

bool
jit_cf_is_terminator(const struct ir_instr *in)
{
	return in->op == IR_BR || in->op == IR_BRC || in->op == IR_SWITCH ||
	       in->op == IR_RET;
}

bool
jit_cf_phi_table(const struct ir_program *p, const struct ir_instr *in,
                 const uint32_t **pairs, uint32_t *n)
{
	if ((uint64_t)in->b + 2ull * in->c > p->ntable ||
	    in->c > JIT_PHI_MAX)
		return false;
	*pairs = p->table + in->b;
	*n = in->c;
	for (uint32_t k = 0; k < in->c; k++)
		if ((*pairs)[2 * k + 1] >= p->nregs)
			return false;
	return true;
}

/* Lanes [i, i + lanes) of a uint32_t array. */
static LLVMValueRef
lanes_ptr(struct jit_ctx *c, const struct jit_chunk *k, LLVMValueRef base)
{
	LLVMValueRef i = k->i;

	return LLVMBuildGEP2(c->b, c->i32, base, &i, 1, "");
}

LLVMValueRef
jit_cf_prev(struct jit_ctx *c, const struct jit_chunk *k)
{
	LLVMValueRef prev = LLVMBuildLoad2(c->b, c->vi32,
	                                   lanes_ptr(c, k, k->prev), "");

	LLVMSetAlignment(prev, 4);
	return prev;
}

LLVMValueRef
jit_cf_phi(struct jit_ctx *c, LLVMValueRef prev, const uint32_t *pairs,
           uint32_t n, LLVMValueRef old, LLVMValueRef const *vals)
{
	LLVMValueRef r = old;

	/* the first matching pair wins: apply them last to first */
	for (uint32_t q = n; q-- > 0;)
		r = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, prev,
		                    jit_splat(c, pairs[2 * q]), ""), vals[q], r,
		                    "");
	return r;
}

static LLVMValueRef
reduce_or(struct jit_ctx *c, LLVMValueRef v)
{
	LLVMTypeRef t = c->vi1;

	return jit_intrinsic(c, "llvm.vector.reduce.or", &t, 1, &v, 1);
}

/* The active lanes of pc (or prev) [i, i + lanes) become v. */
static void
store_lanes(struct jit_ctx *c, const struct jit_chunk *k, LLVMValueRef base,
            LLVMValueRef v)
{
	LLVMValueRef p = lanes_ptr(c, k, base);
	LLVMValueRef old = LLVMBuildLoad2(c->b, c->vi32, p, "");
	LLVMValueRef st;

	LLVMSetAlignment(old, 4);
	st = LLVMBuildStore(c->b, LLVMBuildSelect(c->b, k->active, v, old, ""),
	                    p);
	LLVMSetAlignment(st, 4);
}

LLVMValueRef
jit_cf_target(struct jit_ctx *c, const struct ir_program *p,
              const struct ir_instr *in, LLVMValueRef a)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef to;

	switch ((enum ir_op)in->op) {
	case IR_BR:
		return jit_splat(c, in->imm);
	case IR_BRC:
		return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, a,
		                       jit_splat(c, 0), ""), jit_splat(c, in->imm),
		                       jit_splat(c, in->b), "");
	case IR_SWITCH: {
		const uint32_t *t = p->table + in->b;

		to = jit_splat(c, in->imm);
		for (uint32_t q = in->c; q-- > 0;)
			to = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, a,
			                     jit_splat(c, t[2 * q]), ""),
			                     jit_splat(c, t[2 * q + 1]), to, "");
		return to;
	}
	default:   /* IR_RET */
		return jit_splat(c, IR_PC_DONE);
	}
}

void
jit_cf_terminator(struct jit_ctx *c, const struct jit_chunk *k,
                  const struct ir_program *p, const struct ir_instr *in,
                  uint32_t blk, LLVMValueRef a, struct jit_cf_acc *acc)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef to = jit_cf_target(c, p, in, a);

	if (in->op == IR_BRC) {
		LLVMValueRef t = LLVMBuildICmp(b, LLVMIntNE, a, jit_splat(c, 0),
		                               "");

		acc->taken = LLVMBuildOr(b, acc->taken, reduce_or(c,
		                         LLVMBuildAnd(b, k->active, t, "")), "");
		acc->not_taken = LLVMBuildOr(b, acc->not_taken, reduce_or(c,
			LLVMBuildAnd(b, k->active, LLVMBuildNot(b, t, ""), "")),
			"");
	}
	store_lanes(c, k, k->pc, to);
	if (in->op != IR_RET)
		store_lanes(c, k, k->prev, jit_splat(c, blk));
}

LLVMValueRef
jit_cf_hint(struct jit_ctx *c, const struct ir_instr *in,
            const struct jit_cf_acc *acc)
{
	LLVMBuilderRef b = c->b;

	switch ((enum ir_op)in->op) {
	case IR_BR:
		return LLVMConstInt(c->i32, in->imm, false);
	case IR_BRC:
		/* interp.c: taken == n ? imm : taken == 0 ? b : none */
		return LLVMBuildSelect(b, LLVMBuildNot(b, acc->not_taken, ""),
		                       LLVMConstInt(c->i32, in->imm, false),
		                       LLVMBuildSelect(b, LLVMBuildNot(b,
		                       acc->taken, ""),
		                       LLVMConstInt(c->i32, in->b, false),
		                       LLVMConstInt(c->i32, INTERP_HINT_NONE,
		                                    false), ""), "");
	case IR_SWITCH:
		return LLVMConstInt(c->i32, INTERP_HINT_NONE, false);
	default:
		return LLVMConstInt(c->i32, IR_PC_DONE, false);
	}
}
