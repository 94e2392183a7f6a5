/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's LLVM side: cutting a program into segments
 * (jit.h), one LLVM function per segment, optimized (O2, no fast-math)
 * and compiled for the host CPU (jit_engine.c).
 *
 * A segment function `uint32_t seg(struct jit_frame *f)` loops over
 * the width lanes `lanes` at a time, once per *phase* (a segment's chunk
 * loop is cut where lanes could see the interpreter's instruction-by-
 * instruction order of memory accesses, phase_end):
 *   for (i = 0; i < width; i += lanes) {
 *       load each register the phase reads before writing it
 *       (constant registers are folded instead: nothing writes them);
 *       compute the instructions on <lanes x i32> values (jit_alu.c,
 *       jit_mem.c, jit_cf.c's phis);
 *       store each register it wrote, blended with the old value
 *       under the mask (inactive lanes keep theirs, as in interp.c);
 *       the terminator, if the segment ends the block: pc[], prev[]
 *   }
 * Within a phase values stay in vector registers; at its end the
 * register file holds exactly what the interpreter would have written.
 * Every LLVM error is logged and the program left to the interpreter.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "hw/shader/jit.h"
#include "hw/shader/jit_run.h"
#include "hw/shader/interp_util.h"
#include "jit_alu.h"
#include "jit_cache.h"
#include "jit_emit.h"
#include "jit_engine.h"
#include "jit_frame_op.h"
#include "util/util.h"

/* The operands of in read as register values (bit 0 a .. bit 3 d) when
 * it is compiled, else -1; *cls its memory classes (jit_emit.h). */
int
jit_instr_uses(const struct ir_program *p, const struct ir_instr *in,
           unsigned *cls)
{
	int n = jit_alu_sources(in);

	*cls = 0;
	if (n >= 0)
		return (1 << n) - 1;
	if (jit_cf_is_phi(in)) {
		const uint32_t *pairs;
		uint32_t np;

		return jit_cf_phi_table(p, in, &pairs, &np) ? 0 : -1;
	}
	if (in->op == IR_SWITCH)
		return (uint64_t)in->b + 2ull * in->c <= p->ntable ? 1 : -1;
	if (in->op == IR_BRC)
		return 1;
	if (jit_cf_is_terminator(in))
		return 0;
	if (in->op == IR_FENCE) {
		*cls = JIT_MEM_FENCE;
		return 0;
	}
	if (in->op == IR_DERIV)
		return 1;
	if (jit_frame_op_is(in))      /* jitops2: interpreter calls */
		return jit_frame_op_sources(in, cls);
	return jit_mem_sources(p, in, cls);
}

/* Is in compiled: supported, every register in range. */
bool
jit_compilable(const struct ir_program *p, const struct ir_instr *in)
{
	unsigned cls;
	int uses = jit_instr_uses(p, in, &cls);
	const uint32_t src[4] = { in->a, in->b, in->c, in->d };

	if (uses < 0 || in->dst >= p->nregs ||
	    in->dst + (uint64_t)jit_alu_results(in) > p->nregs)
		return false;
	for (int k = 0; k < 4; k++)
		if ((uses >> k & 1) && src[k] >= p->nregs)
			return false;
	return true;
}

/* Constant registers nothing writes: folded into the code. Register 0
 * reads 0 unless written. */
static void
find_constants(struct seg_state *s)
{
	const struct ir_program *p = s->p;
	uint8_t *written = calloc(p->nregs, 1);

	if (!written)
		return;        /* no folding: still correct */
	for (uint32_t i = 0; i < p->ninstr; i++) {
		const struct ir_instr *in = &p->code[i];

		/* up to 4 results (texels, pairs) */
		for (uint32_t k = 0; k < 4; k++)
			if ((uint64_t)in->dst + k < p->nregs)
				written[in->dst + k] = 1;
		if (in->op == IR_STX)
			for (uint64_t r = in->b; r < (uint64_t)in->b + in->c &&
			     r < p->nregs; r++)
				written[r] = 1;
	}
	if (!written[0])
		s->is_const[0] = 1;
	for (uint32_t i = 0; i < p->nconsts; i++) {
		uint32_t r = p->const_regs[i];

		if (r < p->nregs && !written[r]) {
			s->is_const[r] = 1;
			s->const_val[r] = p->const_vals[i];
		}
	}
	free(written);
}

/* Pointer to lanes i.. of register r (i32 elements). */
static LLVMValueRef
reg_ptr(struct seg_state *s, uint32_t r)
{
	LLVMBuilderRef b = s->c.b;
	LLVMValueRef off = LLVMBuildAdd(b, LLVMBuildMul(b,
		LLVMConstInt(s->c.i64, r, false), s->k.width, ""), s->k.i, "");

	return LLVMBuildGEP2(b, s->c.i32, s->k.regs, &off, 1, "");
}

LLVMValueRef
jit_read_reg(struct seg_state *s, uint32_t r)
{
	if (s->val[r])
		return s->val[r];
	if (s->is_const[r]) {
		s->val[r] = jit_splat(&s->c, s->const_val[r]);
	} else {
		LLVMValueRef v = LLVMBuildLoad2(s->c.b, s->c.vi32,
		                                reg_ptr(s, r), "");

		LLVMSetAlignment(v, 4);
		s->val[r] = v;
	}
	s->touched[s->ntouched++] = r;
	return s->val[r];
}

void
jit_write_reg(struct seg_state *s, uint32_t r, LLVMValueRef v)
{
	if (!s->val[r])
		s->touched[s->ntouched++] = r;
	s->val[r] = v;
	if (!s->dirty[r]) {
		s->dirty[r] = 1;
		s->dirty_list[s->ndirty++] = r;
	}
}

/* Store dirty register r's value on the active lanes (a masked blend:
 * inactive lanes keep theirs, as in interp.c). */
static void
flush_reg(struct seg_state *s, uint32_t r)
{
	LLVMBuilderRef b = s->c.b;
	LLVMValueRef pr;
	LLVMValueRef old;
	LLVMValueRef st;

	if (!s->dirty[r])
		return;
	pr = reg_ptr(s, r);
	old = LLVMBuildLoad2(b, s->c.vi32, pr, "");
	LLVMSetAlignment(old, 4);
	st = LLVMBuildStore(b, LLVMBuildSelect(b, s->k.active, s->val[r], old,
	                                       ""), pr);
	LLVMSetAlignment(st, 4);
	s->dirty[r] = 0;
}

/* vi1 of the chunk's lanes of a byte mask array. */
static LLVMValueRef
load_mask(struct seg_state *s, LLVMValueRef base)
{
	LLVMBuilderRef b = s->c.b;
	LLVMValueRef i = s->k.i;
	LLVMValueRef m8 = LLVMBuildLoad2(b, s->c.vi8,
	                                 LLVMBuildGEP2(b, s->c.i8, base, &i, 1,
	                                               ""), "");

	LLVMSetAlignment(m8, 1);
	return LLVMBuildICmp(b, LLVMIntNE, m8, LLVMConstNull(s->c.vi8), "");
}

/*
 * IR_DERIV inside the chunk loop (chunks are whole quads: lanes is a
 * multiple of 4 and chunks start at multiples of it): lane i of a quad
 * takes A[hi(i)] - A[lo(i)] (interp.c deriv_quads' table) as two
 * shuffles and one subtraction. A quad mate that is not active reads
 * what the interpreter reads, its register's value in memory (the
 * chunk's value of A is computed on every lane; only active lanes are
 * ever stored).
 */
static LLVMValueRef
emit_deriv(struct seg_state *s, const struct ir_instr *in, LLVMValueRef a)
{
	static const uint8_t lo[4][4] = {
		{ 0, 0, 2, 2 }, { 0, 1, 0, 1 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
	static const uint8_t hi[4][4] = {
		{ 1, 1, 3, 3 }, { 2, 3, 2, 3 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 } };
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef b = c->b;
	const uint32_t kind = in->aux2 & 3;
	LLVMValueRef mlo[16], mhi[16];   /* lanes: 4, 8 or 16 */

	if (!s->is_const[in->a]) {
		LLVMValueRef mem = LLVMBuildLoad2(b, c->vi32,
		                                  reg_ptr(s, in->a), "");

		LLVMSetAlignment(mem, 4);
		a = LLVMBuildSelect(b, s->k.active, a, mem, "");
	}
	for (uint32_t l = 0; l < c->lanes; l++) {
		mlo[l] = LLVMConstInt(c->i32, (l & ~3u) + lo[kind][l & 3],
		                      false);
		mhi[l] = LLVMConstInt(c->i32, (l & ~3u) + hi[kind][l & 3],
		                      false);
	}
	LLVMValueRef f = LLVMBuildBitCast(b, a, c->vf32, "");
	LLVMValueRef vhi = LLVMBuildShuffleVector(b, f, f,
		LLVMConstVector(mhi, c->lanes), "");
	LLVMValueRef vlo = LLVMBuildShuffleVector(b, f, f,
		LLVMConstVector(mlo, c->lanes), "");

	return LLVMBuildBitCast(b, LLVMBuildFSub(b, vhi, vlo, ""), c->vi32, "");
}

/* One instruction of a chunk (not a terminator). */
void
jit_emit_instr(struct seg_state *s, const struct ir_instr *in)
{
	struct jit_ctx *c = &s->c;
	const uint32_t srcreg[4] = { in->a, in->b, in->c, in->d };
	LLVMValueRef src[4] = { NULL, NULL, NULL, NULL };
	unsigned cls;
	int uses = jit_instr_uses(s->p, in, &cls);
	LLVMValueRef v;

	if (jit_cf_is_phi(in)) {
		const uint32_t *pairs;
		uint32_t n;
		LLVMValueRef vp[JIT_PHI_MAX];

		jit_cf_phi_table(s->p, in, &pairs, &n);
		for (uint32_t q = 0; q < n; q++)
			vp[q] = jit_read_reg(s, pairs[2 * q + 1]);
		v = jit_cf_phi(c, s->prev_val ? s->prev_val
		                              : jit_cf_prev(c, &s->k),
		               pairs, n, jit_read_reg(s, in->dst), vp);
		jit_write_reg(s, in->dst, v);
		return;
	}
	if (cls & JIT_MEM_REGS) {
		/* the registers it reaches are in memory, up to date */
		uint32_t first, n;

		jit_mem_reg_range(in, &first, &n);
		for (uint32_t r = first; r < first + n; r++)
			flush_reg(s, r);
	}
	for (int q = 0; q < 4; q++)
		if (uses >> q & 1)
			src[q] = jit_read_reg(s, srcreg[q]);
	LLVMValueRef hi = NULL;

	if (in->op == IR_DERIV) {
		v = emit_deriv(s, in, src[0]);
	} else if (jit_alu_sources(in) >= 0) {
		v = jit_alu_emit(c, in, src);
		hi = c->hi;    /* dst + 1 of a register pair (jit_ext.c) */
	} else {
		v = jit_mem_emit(c, &s->k, in, src);
	}
	if (in->op == IR_STX) {
		uint32_t first, n;

		jit_mem_reg_range(in, &first, &n);
		for (uint32_t r = first; r < first + n; r++)
			s->val[r] = NULL;
	}
	if (v)
		jit_write_reg(s, in->dst, v);
	if (v && hi)
		jit_write_reg(s, in->dst + 1, hi);
}

/* End of the chunk loop's phase starting at code[0]: where a memory
 * instruction meets one of an earlier instruction of the phase on the
 * same memory with a write among them. Lanes run a phase chunk by
 * chunk, the interpreter instruction by instruction over all lanes:
 * cutting there keeps every cross-lane order the interpreter has. */
static uint32_t
phase_end(const struct ir_program *p, const struct ir_instr *code,
          uint32_t n)
{
	unsigned seen = 0;

	for (uint32_t k = 0; k < n; k++) {
		unsigned cls;

		jit_instr_uses(p, &code[k], &cls);
		bool buf = ((cls & JIT_MEM_BUF_W) &&
		            (seen & (JIT_MEM_BUF_R | JIT_MEM_BUF_W))) ||
		           ((cls & JIT_MEM_BUF_R) && (seen & JIT_MEM_BUF_W));
		bool sh = ((cls & JIT_MEM_SH_W) &&
		           (seen & (JIT_MEM_SH_R | JIT_MEM_SH_W))) ||
		          ((cls & JIT_MEM_SH_R) && (seen & JIT_MEM_SH_W));

		/* a fence runs once, alone, between the lanes' accesses
		 * before and after it */
		if (k && (buf || sh || (cls & JIT_MEM_FENCE) ||
		          (seen & JIT_MEM_FENCE)))
			return k;
		seen |= cls;
	}
	return n;
}

/* One chunk loop over code[0..n) (a phase); the builder is at the end
 * of the block before it, left at the end of the block after it.
 * Returns the terminator's hint when the phase ends with one. */
static LLVMValueRef
emit_phase(struct seg_state *s, const struct ir_instr *code, uint32_t n,
           uint32_t blk)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef b = c->b;
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
	LLVMBasicBlockRef before = LLVMGetInsertBlock(b);
	LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	const struct ir_instr *term = jit_cf_is_terminator(&code[n - 1])
	                              ? &code[n - 1] : NULL;
	LLVMValueRef f = LLVMConstInt(c->i1, 0, false);
	struct jit_cf_acc acc = { f, f };
	LLVMValueRef taken = NULL, not_taken = NULL;

	if (code[0].op == IR_FENCE) {
		/* interp.c's __atomic_thread_fence(__ATOMIC_SEQ_CST), once */
		LLVMDeleteBasicBlock(loop);
		LLVMDeleteBasicBlock(done);
		LLVMBuildFence(b, LLVMAtomicOrderingSequentiallyConsistent,
		               false, "");
		return NULL;
	}
	if (jit_frame_op_is(&code[0])) {
		/* jitops2: one call of the interpreter (a phase alone) */
		LLVMDeleteBasicBlock(loop);
		LLVMDeleteBasicBlock(done);
		return jit_frame_op_emit(s, &code[0], blk, (uint32_t)(code -
			s->p->code - s->p->blocks[blk].first));
	}
	LLVMBuildBr(b, loop);
	LLVMPositionBuilderAtEnd(b, loop);
	s->k.i = LLVMBuildPhi(b, c->i64, "");
	if (term && term->op == IR_BRC) {
		acc.taken = taken = LLVMBuildPhi(b, c->i1, "");
		acc.not_taken = not_taken = LLVMBuildPhi(b, c->i1, "");
	}
	s->k.active = load_mask(s, s->mask_ptr);
	s->k.store_active = load_mask(s, s->store_mask_ptr);
	for (uint32_t k = 0; k < n - (term != NULL); k++)
		jit_emit_instr(s, &code[k]);
	if (term) {
		LLVMValueRef a = term->op == IR_BRC || term->op == IR_SWITCH
		                 ? jit_read_reg(s, term->a) : NULL;

		jit_cf_terminator(c, &s->k, s->p, term, blk, a, &acc);
	}
	for (uint32_t k = 0; k < s->ndirty; k++)
		flush_reg(s, s->dirty_list[k]);
	s->ndirty = 0;
	for (uint32_t k = 0; k < s->ntouched; k++)
		s->val[s->touched[k]] = NULL;
	s->ntouched = 0;

	LLVMValueRef next = LLVMBuildAdd(b, s->k.i,
	                                 LLVMConstInt(c->i64, c->lanes, false),
	                                 "");
	LLVMBasicBlockRef last = LLVMGetInsertBlock(b);

	LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, s->k.width, ""),
	                loop, done);
	LLVMValueRef iv[2] = { LLVMConstInt(c->i64, 0, false), next };
	LLVMBasicBlockRef ib[2] = { before, last };

	LLVMAddIncoming(s->k.i, iv, ib, 2);
	if (taken) {
		LLVMValueRef tv[2] = { f, acc.taken }, nv[2] = { f, acc.not_taken };

		LLVMAddIncoming(taken, tv, ib, 2);
		LLVMAddIncoming(not_taken, nv, ib, 2);
	}
	LLVMPositionBuilderAtEnd(b, done);
	return term ? jit_cf_hint(c, term, &acc) : NULL;
}

/* The function of instructions code[0..n) of block blk: entry (the
 * frame's fields), then one chunk loop per phase. */
static LLVMValueRef
emit_segment(struct seg_state *s, const char *name,
             const struct ir_instr *code, uint32_t n, uint32_t blk)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef b = c->b;
	LLVMTypeRef ptr = LLVMPointerType(c->i8, 0);
	LLVMTypeRef fty = LLVMFunctionType(c->i32, &ptr, 1, false);
	LLVMValueRef fn = LLVMAddFunction(c->mod, name, fty);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMValueRef frame = LLVMGetParam(fn, 0);
	LLVMValueRef hint = LLVMConstInt(c->i32, INTERP_HINT_NONE, false);

	LLVMPositionBuilderAtEnd(b, entry);
	s->k.frame = frame;
	s->k.entry = entry;
	s->k.p = s->p;
	s->k.regs = jit_frame_load(c, frame, offsetof(struct jit_frame, regs),
	                           ptr);
	s->mask_ptr = jit_frame_load(c, frame, offsetof(struct jit_frame, mask),
	                             ptr);
	s->store_mask_ptr = jit_frame_load(c, frame,
		offsetof(struct jit_frame, store_mask), ptr);
	s->k.pc = jit_frame_load(c, frame, offsetof(struct jit_frame, pc), ptr);
	s->k.prev = jit_frame_load(c, frame, offsetof(struct jit_frame, prev),
	                           ptr);
	s->k.width = LLVMBuildZExt(b, jit_frame_load(c, frame,
		offsetof(struct jit_frame, width), c->i32), c->i64, "");
	for (uint32_t k0 = 0; k0 < n;) {
		uint32_t k1 = k0 + phase_end(s->p, code + k0, n - k0);
		LLVMValueRef h = emit_phase(s, code + k0, k1 - k0, blk);

		if (h)
			hint = h;
		k0 = k1;
	}
	LLVMBuildRet(b, hint);
	return fn;
}

/* Cut the blocks into segments (jp->blocks[].seg with fn NULL); a
 * segment may end with the block's terminator. */
static bool
plan_segments(const struct ir_program *p, struct jit_program *jp)
{
	for (uint32_t bi = 0; bi < p->nblocks; bi++) {
		const struct ir_block *bl = &p->blocks[bi];
		struct jit_block *jb = &jp->blocks[bi];
		uint32_t ii = 0;

		jp->total += bl->count;
		while (ii < bl->count) {
			if (!jit_compilable(p, &p->code[bl->first + ii])) {
				ii++;
				continue;
			}
			uint32_t end = ii + 1;

			/* a terminator ends the block (never mid-block) */
			while (end < bl->count &&
			       !jit_cf_is_terminator(&p->code[bl->first + end - 1]) &&
			       jit_compilable(p, &p->code[bl->first + end]))
				end++;
			if (jit_cf_is_terminator(&p->code[bl->first + end - 1]) &&
			    end != bl->count)
				end--;     /* malformed block: leave it */
			if (end == ii) {
				ii++;
				continue;
			}
			struct jit_seg *ns = realloc(jb->seg, (jb->nseg + 1) *
			                             sizeof(*ns));

			if (!ns)
				return false;
			jb->seg = ns;
			jb->seg[jb->nseg++] = (struct jit_seg){ ii, end, NULL };
			jp->compiled += end - ii;
			ii = end;
		}
	}
	return true;
}

static void
ctx_types(struct jit_ctx *c, LLVMContextRef ctx, uint32_t lanes)
{
	c->ctx = ctx;
	c->lanes = lanes;
	c->i1 = LLVMInt1TypeInContext(ctx);
	c->i8 = LLVMInt8TypeInContext(ctx);
	c->i32 = LLVMInt32TypeInContext(ctx);
	c->i64 = LLVMInt64TypeInContext(ctx);
	c->f32 = LLVMFloatTypeInContext(ctx);
	c->vi1 = LLVMVectorType(c->i1, lanes);
	c->vi8 = LLVMVectorType(c->i8, lanes);
	c->vi32 = LLVMVectorType(c->i32, lanes);
	c->vi64 = LLVMVectorType(c->i64, lanes);
	c->vf32 = LLVMVectorType(c->f32, lanes);
}

/* Emit every segment of jp into mod; false when out of memory. */
static bool
emit_module(const struct ir_program *p, struct jit_program *jp,
            LLVMContextRef ctx, LLVMModuleRef mod)
{
	struct seg_state s = { .p = p };
	bool ok = false;

	ctx_types(&s.c, ctx, jp->lanes);
	s.c.mod = mod;
	s.c.b = LLVMCreateBuilderInContext(ctx);
	s.val = calloc(p->nregs, sizeof(*s.val));
	s.dirty = calloc(p->nregs, 1);
	s.is_const = calloc(p->nregs, 1);
	s.const_val = calloc(p->nregs, sizeof(*s.const_val));
	/* every read_reg / write_reg adds at most one entry: up to 6 per
	 * instruction (4 sources, a register pair's 2 results) and one per
	 * phi pair; up to 2 dirty registers per instruction */
	s.touched = calloc((size_t)p->ninstr * 6 + p->ntable + 8,
	                   sizeof(*s.touched));
	s.dirty_list = calloc((size_t)p->ninstr * 2 + 8,
	                      sizeof(*s.dirty_list));
	if (!s.val || !s.dirty || !s.is_const || !s.const_val || !s.touched ||
	    !s.dirty_list)
		goto out;
	find_constants(&s);
	struct ir_live live;

	if (ir_live_compute(p, &live))
		s.live = &live;
	for (uint32_t bi = 0; bi < p->nblocks; bi++)
		for (uint32_t k = 0; k < jp->blocks[bi].nseg; k++) {
			const struct jit_seg *sg = &jp->blocks[bi].seg[k];
			char name[32];

			snprintf(name, sizeof(name), "b%u_s%u", bi, k);
			emit_segment(&s, name, p->code + p->blocks[bi].first +
			             sg->first, sg->end - sg->first, bi);
		}
	for (uint32_t h = 0; h < p->nblocks; h++) {
		char name[32];

		if (jp->blocks[h].loop_head != h)
			continue;
		snprintf(name, sizeof(name), "loop%u", h);
		if (!jit_loop_emit(&s, name, h, jp->blocks[h].loop_end))
			for (uint32_t b = h; b <= jp->blocks[h].loop_end; b++)
				jp->blocks[b].loop_head = UINT32_MAX;
	}
	ok = true;
	if (s.live)
		ir_live_free(&live);
out:
	LLVMDisposeBuilder(s.c.b);
	free(s.val);
	free(s.dirty);
	free(s.is_const);
	free(s.const_val);
	free(s.touched);
	free(s.dirty_list);
	return ok;
}

/* Look the segment functions up in jp->engine. */
static bool
lookup_segments(struct jit_program *jp)
{
	if (!jp->engine)
		return false;
	for (uint32_t bi = 0; bi < jp->nblocks; bi++)
		for (uint32_t k = 0; k < jp->blocks[bi].nseg; k++) {
			char name[32];
			uint64_t addr;

			snprintf(name, sizeof(name), "b%u_s%u", bi, k);
			addr = jit_engine_lookup(jp->engine, name);
			if (!addr)
				return false;
			jp->blocks[bi].seg[k].fn =
				(jit_seg_fn)(uintptr_t)addr;
		}
	for (uint32_t bi = 0; bi < jp->nblocks; bi++) {
		uint32_t h = jp->blocks[bi].loop_head;
		char name[32];
		uint64_t addr;

		if (h == UINT32_MAX)
			continue;
		snprintf(name, sizeof(name), "loop%u", h);
		addr = jit_engine_lookup(jp->engine, name);
		if (!addr)
			return false;
		jp->blocks[bi].loop = (jit_seg_fn)(uintptr_t)addr;
	}
	return true;
}

/* SWGPU_DEBUG: what was compiled, and the ops of each block left to
 * the interpreter. */
static void
log_plan(const struct ir_program *p, const struct jit_program *jp)
{
	swgpu_log("jit: %u of %u instructions compiled, %u lanes a vector",
	          jp->compiled, jp->total, jp->lanes);
	for (uint32_t bi = 0; bi < p->nblocks; bi++) {
		const struct jit_block *jb = &jp->blocks[bi];
		char ops[160];
		size_t len = 0;
		uint32_t ii = 0;

		ops[0] = 0;
		for (uint32_t k = 0; k <= jb->nseg; k++) {
			uint32_t to = k < jb->nseg ? jb->seg[k].first
			                           : p->blocks[bi].count;

			for (; ii < to && len < sizeof(ops) - 8; ii++)
				len += (size_t)snprintf(ops + len,
				                        sizeof(ops) - len, " %u",
				                        p->code[p->blocks[bi].first +
				                                ii].op);
			if (k < jb->nseg)
				ii = jb->seg[k].end;
		}
		swgpu_log("jit: block %u: %u instructions, %u segments, "
		          "loop %d, interpreted ops:%s", bi,
		          p->blocks[bi].count, jb->nseg,
		          (int)jb->loop_head, len ? ops : " none");
	}
}

struct jit_program *
jit_compile(const struct ir_program *p, uint32_t lanes)
{
	return jit_compile_io(p, lanes, NULL);
}

struct jit_program *
jit_compile_io(const struct ir_program *p, uint32_t lanes,
               struct jit_compile_io *io)
{
	struct jit_program *jp;

	if (!jit_llvm_init())
		return NULL;
	if (!lanes)
		lanes = jit_host_lanes();
	if (lanes != 4 && lanes != 8 && lanes != 16)
		return NULL;
	jp = calloc(1, sizeof(*jp));
	if (!jp)
		return NULL;
	jp->lanes = lanes;
	jp->nblocks = p->nblocks;
	jp->blocks = calloc(p->nblocks ? p->nblocks : 1, sizeof(*jp->blocks));
	if (!jp->blocks || !plan_segments(p, jp)) {
		swgpu_log("jit: out of memory; interpreting the shader");
		goto fail;
	}
	jit_loop_plan(p, jp);
	if (!jp->compiled) {
		swgpu_log("jit: no instruction of the shader (%u) is "
		          "supported yet; interpreting it", jp->total);
		goto fail;
	}
	if (jp->compiled > jit_engine_max_instrs()) {
		swgpu_log("jit: the shader has %u compilable instructions, "
		          "more than SWGPU_JIT_MAX_INSTRS=%u; interpreting it",
		          jp->compiled, jit_engine_max_instrs());
		goto fail;
	}
	/* jitcache: a cache hit skips emission and optimization */
	struct jit_cache_key key;

	jit_cache_key_make(p, lanes, &key);
	jp->engine = jit_engine_cached(&key, io);
	if (!jp->engine && io && io->cache_only)
		goto fail;   /* pcache: the caller compiles later */
	if (!jp->engine) {
		LLVMContextRef ctx = LLVMContextCreate();
		LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(
			"swgpu_shader", ctx);

		if (emit_module(p, jp, ctx, mod) && jit_engine_optimize(mod))
			jp->engine = jit_engine_build(mod, &key, io);
		else
			LLVMDisposeModule(mod);
		LLVMContextDispose(ctx);
	}
	if (!lookup_segments(jp))
		goto fail;
	if (swgpu_debug_env())
		log_plan(p, jp);
	return jp;
fail:
	jit_program_free(jp);
	return NULL;
}
