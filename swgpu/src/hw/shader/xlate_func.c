/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: functions and control flow.
 *
 * Functions are inlined at every call: the caller's block is split at the
 * call, the callee's blocks follow it (so the block order stays
 * structured: everything a lane may run before the continuation comes
 * before it), and every return branches to the continuation. Branch
 * targets and phi operands may name blocks and values defined later, so
 * they are recorded as fixups and patched when the function instance
 * ends.
 */
#include "xlate.h"

#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#define XF_RET 200
#define XF_DONE 201

static uint32_t
label_block(struct xl *x, uint32_t id, bool exit)
{
	struct xid *d = xl_id(x, id);

	if (d->kind != XK_LABEL)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "branch to non-label %u", id);
	return exit ? d->exit_block : d->block;
}

static void
resolve_fixups(struct xl *x, uint32_t from)
{
	for (uint32_t i = from; i < x->nfix; i++) {
		struct xfixup *f = &x->fix[i];
		struct ir_program *p = x->p;

		switch (f->kind) {
		case XF_BR_IMM:
			p->code[f->at].imm = label_block(x, f->id, false);
			break;
		case XF_BR_B:
			p->code[f->at].b = label_block(x, f->id, false);
			break;
		case XF_TABLE_BLOCK:
			p->table[f->at] = label_block(x, f->id, false);
			break;
		case XF_TABLE_EXIT:
			p->table[f->at] = label_block(x, f->id, true);
			break;
		case XF_TABLE_VAL: {
			uint32_t n;
			const uint32_t *r = xl_val(x, f->id, &n);

			if (f->comp >= n)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "phi operand type mismatch");
			p->table[f->at] = r[f->comp];
			break;
		}
		default:
			continue;
		}
		f->kind = XF_DONE;
	}
}

static void
flush_phis(struct xl *x, struct xfstate *fs)
{
	for (uint32_t i = 0; i < fs->nmoves; i++)
		xl_emit(x, IR_MOV, fs->moves[i].dst, fs->moves[i].src, 0, 0);
	fs->nmoves = 0;
}

static void
phi(struct xl *x, struct xfstate *fs, const uint32_t *in, uint32_t wc)
{
	uint32_t n = xl_type(x, in[1])->scalars;
	uint32_t pairs = (wc - 3) / 2;
	uint32_t res;

	if (wc < 5 || (wc - 3) % 2 ||
	    (n == 0 && !xl_is_empty_composite(x, in[1])))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad OpPhi");
	if (fs->nmoves + n > 64)
		xl_limit(x, "too many phis in a block");
	res = xl_new_regs(x, n);
	for (uint32_t c = 0; c < n; c++) {
		uint32_t tmp = xl_new_regs(x, 1);
		uint32_t start = x->p->ntable;
		uint32_t k;

		for (uint32_t i = 0; i < pairs; i++) {
			uint32_t t0 = xl_table_add(x, 0);
			uint32_t t1 = xl_table_add(x, 0);

			xl_fixup(x, XF_TABLE_EXIT, t0, in[4 + 2 * i], 0);
			xl_fixup(x, XF_TABLE_VAL, t1, in[3 + 2 * i], c);
		}
		k = xl_emit(x, IR_PHI, tmp, 0, start, pairs);
		(void)k;
		fs->moves[fs->nmoves++] = (struct xphi_move){ res + c, tmp };
	}
	{
		uint32_t regs[64];

		for (uint32_t c = 0; c < n; c++)
			regs[c] = res + c;
		xl_set_val(x, in[2], in[1], regs, n);
	}
}

static void
terminate(struct xl *x, uint32_t label)
{
	xl_id(x, label)->exit_block = x->cur_block;
	xl_end_block(x);
}

static void translate_function(struct xl *x, uint32_t func,
                               const uint32_t *args, uint32_t nargs,
                               struct xfstate *fs);

static void
call(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t label)
{
	struct xfstate *cfs;
	uint32_t fix_start = x->nfix, cont;
	uint32_t nret = xl_type(x, in[1])->scalars;

	if (wc < 4 || xl_id(x, in[3])->kind != XK_FUNC)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad OpFunctionCall");
	if (x->depth >= XL_MAX_INLINE_DEPTH)
		xl_limit(x, "calls nested too deep");
	cfs = &x->fstack[x->depth + 1];
	memset(cfs, 0, sizeof(*cfs));
	cfs->nret = nret;
	cfs->ret_regs = nret ? xl_new_regs(x, nret) : 0;
	cfs->serial = ++x->call_serial;
	/* Branch into the callee's first block, which comes next. */
	xl_emit(x, IR_BR, 0, 0, 0, 0);
	xl_instr(x, x->p->ninstr - 1)->imm = x->p->nblocks;
	terminate(x, label);
	x->depth++;
	translate_function(x, in[3], in + 4, wc - 4, cfs);
	x->depth--;
	cont = x->p->nblocks;
	for (uint32_t i = fix_start; i < x->nfix; i++)
		if (x->fix[i].kind == XF_RET && x->fix[i].id == cfs->serial) {
			x->p->code[x->fix[i].at].imm = cont;
			x->fix[i].kind = XF_DONE;
		}
	x->nfix = fix_start;
	xl_start_block(x);
	/* An empty struct is a value of no registers. */
	if (nret || xl_type(x, in[1])->op != SpvOpTypeVoid) {
		uint32_t regs[64];

		if (nret > 64)
			xl_limit(x, "return too large");
		for (uint32_t c = 0; c < nret; c++)
			regs[c] = cfs->ret_regs + c;
		xl_set_val(x, in[2], in[1], regs, nret);
	}
}

static void
body_instr(struct xl *x, struct xfstate *fs, const uint32_t *in, uint32_t wc,
           uint32_t *label)
{
	uint32_t op = in[0] & 0xffff;
	uint32_t k;

	if (op != SpvOpPhi && op != SpvOpLine && op != SpvOpNoLine &&
	    fs->nmoves)
		flush_phis(x, fs);
	switch (op) {
	case SpvOpNop: case SpvOpLine: case SpvOpNoLine:
	case SpvOpSelectionMerge: case SpvOpLoopMerge:
		return;
	case SpvOpPhi:
		phi(x, fs, in, wc);
		return;
	case SpvOpBranch:
		if (wc < 2)
			break;
		k = xl_emit(x, IR_BR, 0, 0, 0, 0);
		xl_fixup(x, XF_BR_IMM, k, in[1], 0);
		terminate(x, *label);
		return;
	case SpvOpBranchConditional:
		if (wc < 4)
			break;
		k = xl_emit(x, IR_BRC, 0, xl_val1(x, in[1]), 0, 0);
		xl_fixup(x, XF_BR_IMM, k, in[2], 0);
		xl_fixup(x, XF_BR_B, k, in[3], 0);
		terminate(x, *label);
		return;
	case SpvOpSwitch: {
		uint32_t sel, start = x->p->ntable, pairs;

		if (wc < 3 || (wc - 3) % 2)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "OpSwitch on a non 32-bit selector");
		sel = xl_val1(x, in[1]);
		pairs = (wc - 3) / 2;
		for (uint32_t i = 0; i < pairs; i++) {
			xl_table_add(x, in[3 + 2 * i]);
			k = xl_table_add(x, 0);
			xl_fixup(x, XF_TABLE_BLOCK, k, in[4 + 2 * i], 0);
		}
		k = xl_emit(x, IR_SWITCH, 0, sel, start, pairs);
		xl_fixup(x, XF_BR_IMM, k, in[2], 0);
		terminate(x, *label);
		return;
	}
	case SpvOpReturn:
	case SpvOpReturnValue:
	case SpvOpUnreachable:
		if (op == SpvOpReturnValue && wc >= 2 && x->depth) {
			uint32_t n;
			const uint32_t *r = xl_val(x, in[1], &n);

			if (n != fs->nret)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "return type mismatch");
			for (uint32_t c = 0; c < n; c++) {
				uint32_t src = r[c];

				xl_emit(x, IR_MOV, fs->ret_regs + c, src, 0,
				        0);
			}
		}
		if (x->depth && op != SpvOpUnreachable) {
			k = xl_emit(x, IR_BR, 0, 0, 0, 0);
			xl_fixup(x, XF_RET, k, fs->serial, 0);
		} else {
			xl_emit(x, IR_RET, 0, 0, 0, 0);
		}
		terminate(x, *label);
		return;
	case SpvOpKill:
	case SpvOpTerminateInvocation:
	case SpvOpDemoteToHelperInvocation:
	case SpvOpIsHelperInvocationEXT:
		if (x->info->stage != SWGPU_SHADER_STAGE_FRAGMENT)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "fragment-only "
			        "opcode %u in a %s shader", op,
			        x->info->stage ? "vertex" : "compute");
		if (op == SpvOpDemoteToHelperInvocation) {
			xl_emit(x, IR_DEMOTE, 0, 0, 0, 0);
			return;
		}
		if (op == SpvOpIsHelperInvocationEXT) {
			/* a copy: the lane may demote later */
			uint32_t r = xl_new_regs(x, 1);

			if (wc < 3)
				break;
			x->p->builtins_used |= 1ull << IR_REG_HELPER;
			xl_emit(x, IR_MOV, r, IR_REG_HELPER, 0, 0);
			xl_set_val(x, in[2], in[1], &r, 1);
			return;
		}
		/* the lane ends here, its outputs discarded */
		xl_emit(x, IR_KILL, 0, 0, 0, 0);
		terminate(x, *label);
		return;
	case SpvOpFunctionCall:
		call(x, in, wc, *label);
		return;
	case SpvOpVariable:
		xl_function_var(x, in, wc);
		return;
	case SpvOpLoad:
		if (wc < 4)
			break;
		xl_load(x, in[1], in[2], in[3]);
		return;
	case SpvOpStore:
		if (wc < 3)
			break;
		xl_store(x, in[1], in[2]);
		return;
	case SpvOpCopyMemory: {
		/* Load into a scratch id-less value, then store. */
		uint32_t n;
		const uint32_t *r;
		uint32_t tmp_id = x->bound - 1; /* the scratch id */

		if (wc < 3)
			break;
		xl_load(x, xl_ptr(x, in[2])->type, tmp_id, in[2]);
		r = xl_val(x, tmp_id, &n);
		xl_store_regs(x, xl_ptr(x, in[1]), r, n);
		return;
	}
	case SpvOpAccessChain:
	case SpvOpInBoundsAccessChain:
	case SpvOpPtrAccessChain:
	case SpvOpInBoundsPtrAccessChain:
		xl_access_chain(x, in, wc);
		return;
	case SpvOpCopyObject:
		/* A copy of a pointer is the same pointer. */
		if (wc >= 4 && xl_id(x, in[3])->kind == XK_PTR) {
			struct xid copy = *xl_id(x, in[3]);

			copy.type = in[1];
			*xl_id(x, in[2]) = copy;
			return;
		}
		break;
	case SpvOpArrayLength:
		xl_array_length(x, in, wc);
		return;
	case SpvOpAtomicLoad: case SpvOpAtomicStore:
	case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
	case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
	case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin:
	case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax:
	case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor:
	case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT:
	case SpvOpAtomicFMaxEXT:
		xl_atomic(x, in, wc);
		return;
	case SpvOpReadClockKHR: {
		/* VK_KHR_shader_clock: a uint64 or uvec2 of nanoseconds. */
		uint32_t r[2];

		if (wc < 4 || xl_type(x, in[1])->scalars != 2)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad OpReadClockKHR");
		r[0] = xl_new_regs(x, 2);
		r[1] = r[0] + 1;
		xl_emit(x, IR_CLOCK, r[0], 0, 0, 0);
		xl_set_val(x, in[2], in[1], r, 2);
		return;
	}
	case SpvOpControlBarrier:
		/* A workgroup runs as one SIMT group: every lane reaches
		 * the barrier together, so only the memory part matters. */
		x->p->uses_barrier = true;
		xl_emit(x, IR_FENCE, 0, 0, 0, 0);
		return;
	case SpvOpMemoryBarrier:
		xl_emit(x, IR_FENCE, 0, 0, 0, 0);
		return;
	case SpvOpExtInst:
		if (wc >= 5 && xl_id(x, in[3])->kind == XK_IGNORED) {
			xl_id(x, in[2])->kind = XK_IGNORED;
			return;
		}
		break;
	default:
		break;
	}
	if (!xl_phys_op(x, in, wc) && !xl_vptr_op(x, in, wc) &&
	    !xl_image_op(x, in, wc) && !xl_value_op(x, in, wc))
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "unsupported opcode %u (or malformed instruction) at "
		        "word %u", op, (uint32_t)(in - x->w));
}

static void
translate_function(struct xl *x, uint32_t func, const uint32_t *args,
                   uint32_t nargs, struct xfstate *fs)
{
	uint32_t i = xl_id(x, func)->def;
	uint32_t fix_start = x->nfix, nparam = 0, label = 0;
	bool open = false, first = true;

	i += x->w[i] >> 16;
	while (i < x->nw) {
		const uint32_t *in = x->w + i;
		uint32_t wc = in[0] >> 16, op = in[0] & 0xffff;

		x->cur_at = i;
		i += wc;
		if (op == SpvOpFunctionEnd)
			break;
		if (op == SpvOpFunctionParameter) {
			struct xid *d;

			if (wc < 3 || nparam >= nargs)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "bad function parameter");
			d = xl_id(x, args[nparam]);
			if (d->kind == XK_PTR || d->kind == XK_IMAGE) {
				*xl_id(x, in[2]) = *d;
			} else {
				uint32_t n;
				const uint32_t *r = xl_val(x, args[nparam],
				                           &n);
				xl_set_val(x, in[2], in[1], r, n);
			}
			nparam++;
			continue;
		}
		if (op == SpvOpLabel) {
			struct xid *d;

			if (open || wc < 2)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "block %u without terminator", label);
			if (nparam != nargs)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "call argument count mismatch");
			label = in[1];
			d = xl_id(x, label);
			d->kind = XK_LABEL;
			xl_start_block(x);
			d->block = d->exit_block = x->cur_block;
			open = true;
			if (first && x->depth == 0)
				xl_init_privates(x);
			first = false;
			continue;
		}
		if (!open)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "instruction %u outside a block", op);
		body_instr(x, fs, in, wc, &label);
		if (x->p->blocks[x->cur_block].count)
			open = false;
	}
	x->cur_at = 0;   /* fixups name their own ids */
	if (open || first)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "function %u: missing blocks or terminator", func);
	resolve_fixups(x, fix_start);
}

void
xl_translate_entry(struct xl *x)
{
	struct xfstate *fs = &x->fstack[0];
	uint32_t *scratch;

	/* One spare id (x->bound) serves OpCopyMemory as a scratch value. */
	scratch = realloc(x->ids, (x->bound + 1) * sizeof(*x->ids));
	if (!scratch)
		xl_fail(x, SWGPU_ERR_NO_HOST_MEMORY, "out of memory");
	x->ids = (struct xid *)scratch;
	memset(&x->ids[x->bound], 0, sizeof(*x->ids));
	x->bound++;
	translate_function(x, x->entry_func, NULL, 0, fs);
	x->bound--;
	for (uint32_t b = 0; b < x->p->nblocks; b++)
		if (!x->p->blocks[b].count)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "block without terminator");
}
