/* SPDX-License-Identifier: MIT */
/*
 * Compiled loops: a loop whose blocks are all compiled and per lane only
 * (no store, fence, indexed register, subgroup op or barrier: nothing
 * another lane could see) runs as one function that keeps each chunk of
 * `lanes` lanes in native code, its registers in vector registers,
 * until every lane of the chunk has left the loop, then takes the next
 * chunk. The registers kept so are those live at the loop's block
 * boundaries (hw/shader/ir_live.h) or read in a block before written
 * there; a register only one block uses, written before it is read, is
 * a temporary of that block (an SSA value: no phi, blend, load or
 * store), so a loop costs its live state, not every register its code
 * names. Inside, a chunk makes passes over the loop's blocks in order:
 * each block runs (masked) for the lanes of the chunk sitting at it and
 * is skipped when there are none, so a lane branching forward runs its
 * next block in the same pass and one branching back in the next pass;
 * divergent exits just leave lanes waiting past the loop. A block has
 * a second copy without blends for a chunk whose lanes are all at it
 * (uniform loops then cost their arithmetic only). As nothing in the
 * loop is seen by another lane, the order in which different lanes run
 * their blocks does not matter: each lane runs its own sequence of
 * blocks, and running the chunks one after the other ends in the state
 * the interpreter's whole-group lowest-block-first order gives.
 *
 * A loop is blocks [h, t] (structured order: h the header, t the last
 * block branching back to it); every branch of them stays inside or
 * goes past t (the merge blocks), so no lane runs a block after the
 * loop while another is still in it, as with lowest-block-first. The
 * function starts from every lane's own pc in [h, t], so the scheduler
 * may call it at any of those blocks.
 *
 * Stops: after JIT_LOOP_BUDGET blocks, or when the dispatch must stop
 * (preemption: d->stop and the engine's question asked every
 * JIT_LOOP_POLL blocks, as the interpreter asks at its back-edges, out
 * of the pass loop once the chunk's state is stored), both checked at
 * the end of a pass, a call returns with the current chunk's
 * registers, pc and prev stored (a block boundary for each lane), the
 * chunks after it untouched: the interpreter's state, from which the
 * scheduler (run_lanes) checks the watchdog and calls again, or, for a
 * stop (f->stopped), saves the workgroup (wg_save.h) for either back
 * end to resume. The registers not stored are dead there: nothing reads
 * them before writing them, whichever back end resumes.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hw/shader/interp_util.h"
#include "hw/shader/jit.h"
#include "jit_emit.h"
#include "jit_ext.h"

#define NONE UINT32_MAX
#define MAX_LOOP_REGS 512u

/* Block successors of terminator in; *n of them into out (cap). */
static uint32_t
successors(const struct ir_program *p, const struct ir_instr *in,
           uint32_t *out, uint32_t cap)
{
	uint32_t n = 0;

	switch ((enum ir_op)in->op) {
	case IR_BR:
		out[n++] = in->imm;
		break;
	case IR_BRC:
		out[n++] = in->imm;
		out[n++] = in->b;
		break;
	case IR_SWITCH:
		out[n++] = in->imm;
		for (uint32_t k = 0; k < in->c && n < cap; k++)
			out[n++] = p->table[in->b + 2 * k + 1];
		break;
	default:
		break;
	}
	return n;
}

static const struct ir_instr *
terminator(const struct ir_program *p, uint32_t b)
{
	const struct ir_block *bl = &p->blocks[b];

	return bl->count ? &p->code[bl->first + bl->count - 1] : NULL;
}

/* Can block b be inside a compiled loop [h, t]? */
static bool
loop_block_ok(const struct ir_program *p, uint32_t b, uint32_t h, uint32_t t)
{
	const struct ir_block *bl = &p->blocks[b];
	const struct ir_instr *term = terminator(p, b);
	uint32_t succ[64];

	if (!term || !jit_cf_is_terminator(term))
		return false;
	if (term->op == IR_SWITCH && term->c > 60)
		return false;
	for (uint32_t i = 0; i < bl->count; i++) {
		const struct ir_instr *in = &p->code[bl->first + i];
		unsigned cls;

		if (!jit_compilable(p, in))
			return false;
		jit_instr_uses(p, in, &cls);
		if (cls & (JIT_MEM_BUF_W | JIT_MEM_SH_W | JIT_MEM_REGS |
		           JIT_MEM_FENCE))
			return false;
		/* a quad's lanes may be at different iterations here; the
		 * interpreter's derivative reads them reconverged */
		if (in->op == IR_DERIV)
			return false;
		if (jit_cf_is_terminator(in) && i != bl->count - 1)
			return false;
	}
	uint32_t n = successors(p, term, succ, 64);

	for (uint32_t k = 0; k < n; k++)
		if (succ[k] < h || (succ[k] > t && succ[k] >= p->nblocks))
			return false;
	return true;
}

void
jit_loop_plan(const struct ir_program *p, struct jit_program *jp)
{
	for (uint32_t b = 0; b < jp->nblocks; b++)
		jp->blocks[b].loop_head = jp->blocks[b].loop_end = NONE;
	for (uint32_t h = 0; h < p->nblocks; h++) {
		uint32_t t = NONE, succ[64];
		bool ok = true;

		if (jp->blocks[h].loop_head != NONE)
			continue;
		for (uint32_t x = h; x < p->nblocks; x++) {
			const struct ir_instr *term = terminator(p, x);
			uint32_t n;

			if (!term)
				continue;
			n = successors(p, term, succ, 64);
			for (uint32_t k = 0; k < n; k++)
				if (succ[k] == h)
					t = x;
		}
		if (t == NONE)
			continue;
		for (uint32_t b = h; b <= t && ok; b++)
			ok = jp->blocks[b].loop_head == NONE &&
			     loop_block_ok(p, b, h, t);
		if (!ok)
			continue;
		for (uint32_t b = h; b <= t; b++) {
			jp->blocks[b].loop_head = h;
			jp->blocks[b].loop_end = t;
		}
	}
}

/* Is register r live where a call of loop [h, t] may start or end for
 * some lane: at the entry or the exit of one of its blocks (the exits
 * include the blocks past the loop its lanes go to and, after a
 * return, what is read of a finished lane)? Without liveness: yes. */
static bool
live_at_loop(const struct seg_state *s, uint32_t h, uint32_t t, uint32_t r)
{
	if (!s->live)
		return true;
	for (uint32_t b = h; b <= t; b++)
		if (ir_live_in(s->live, b, r) || ir_live_out(s->live, b, r))
			return true;
	return false;
}

/* live_at_loop remembered per register in memo (0: not asked yet,
 * 1: live, 2: not). */
static bool
live_memo(const struct seg_state *s, uint32_t h, uint32_t t, uint32_t r,
          uint8_t *memo)
{
	if (!memo[r])
		memo[r] = live_at_loop(s, h, t, r) ? 1 : 2;
	return memo[r] == 1;
}

/* The registers the loop carries from block to block (not constants)
 * into list (NONE past MAX_LOOP_REGS); written[r] set for those it
 * writes. A register read before it is written in a block is carried
 * (its value comes from an earlier block or from memory), one live at
 * the loop's blocks' boundaries too (its value goes on, or back to the
 * register file at the end); any other is a temporary of one block,
 * which stays in the block's SSA values: no phi, no blend, no load or
 * store. wrote: nregs bytes of zeros (left so); memo: nregs bytes of
 * zeros for live_memo. */
static uint32_t
loop_regs(struct seg_state *s, uint32_t h, uint32_t t, uint32_t *list,
          uint8_t *in_list, uint8_t *written, uint8_t *wrote, uint8_t *memo)
{
	const struct ir_program *p = s->p;
	uint32_t n = 0;

#define ADD(r) do {                                                     \
		uint32_t r_ = (r);                                      \
		if (!s->is_const[r_] && !in_list[r_]) {                 \
			if (n == MAX_LOOP_REGS)                         \
				return NONE;                            \
			in_list[r_] = 1;                                \
			list[n++] = r_;                                 \
		}                                                       \
	} while (0)
#define READ(r) do {                                                    \
		uint32_t rr_ = (r);                                     \
		if (!wrote[rr_] || live_memo(s, h, t, rr_, memo))       \
			ADD(rr_);                                       \
	} while (0)
	for (uint32_t b = h; b <= t; b++) {
		const struct ir_block *bl = &p->blocks[b];

		for (uint32_t i = 0; i < bl->count; i++) {
			const struct ir_instr *in = &p->code[bl->first + i];
			const uint32_t src[4] = { in->a, in->b, in->c, in->d };
			unsigned cls;
			int uses = jit_instr_uses(p, in, &cls);

			for (int q = 0; q < 4; q++)
				if (uses >> q & 1)
					READ(src[q]);
			if (jit_cf_is_terminator(in))
				continue;
			if (jit_cf_is_phi(in)) {
				const uint32_t *pairs;
				uint32_t np;

				jit_cf_phi_table(p, in, &pairs, &np);
				for (uint32_t k = 0; k < np; k++)
					READ(pairs[2 * k + 1]);
				READ(in->dst);   /* lanes of no pair keep it */
			}
			/* both registers of a pair (jit_alu_results) */
			uint32_t nres = jit_alu_sources(in) >= 0
			                ? jit_alu_results(in) : 1;

			for (uint32_t q = 0; q < nres; q++) {
				if (live_memo(s, h, t, in->dst + q, memo))
					ADD(in->dst + q);
				written[in->dst + q] = 1;
				wrote[in->dst + q] = 1;
			}
		}
		for (uint32_t i = 0; i < bl->count; i++) {
			const struct ir_instr *in = &p->code[bl->first + i];

			for (uint32_t q = 0; q < 2 && in->dst + q < p->nregs; q++)
				wrote[in->dst + q] = 0;
		}
	}
#undef READ
#undef ADD
	return n;
}

static LLVMValueRef
vec_ptr(struct seg_state *s, LLVMValueRef base, LLVMValueRef el)
{
	return LLVMBuildGEP2(s->c.b, s->c.i32, base, &el, 1, "");
}

static LLVMValueRef
load_vec(struct seg_state *s, LLVMValueRef ptr)
{
	LLVMValueRef v = LLVMBuildLoad2(s->c.b, s->c.vi32, ptr, "");

	LLVMSetAlignment(v, 4);
	return v;
}

static void
store_vec(struct seg_state *s, LLVMValueRef v, LLVMValueRef ptr)
{
	LLVMSetAlignment(LLVMBuildStore(s->c.b, v, ptr), 4);
}

static LLVMValueRef
reg_el(struct seg_state *s, uint32_t r)
{
	return LLVMBuildAdd(s->c.b, LLVMBuildMul(s->c.b,
		LLVMConstInt(s->c.i64, r, false), s->k.width, ""), s->k.i, "");
}

/* The state a chunk carries through the loop: pc, prev, blocks run,
 * the registers. */
struct carried {
	LLVMValueRef pc, prev, steps;
	LLVMValueRef *reg;
};

static void
add_incoming(LLVMValueRef phi, LLVMValueRef v, LLVMBasicBlockRef from)
{
	LLVMAddIncoming(phi, &v, &from, 1);
}

/* Block b's body for the lanes m of the chunk sitting at it (m NULL:
 * all of them, nothing to blend), from state in into out; the builder
 * is left at the end of the body. */
static void
emit_loop_block(struct seg_state *s, uint32_t b, LLVMValueRef m,
                const struct carried *in, const uint32_t *regs,
                uint32_t nregs, struct carried *out)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef bd = c->b;
	const struct ir_program *p = s->p;
	const struct ir_block *bl = &p->blocks[b];
	const struct ir_instr *term = &p->code[bl->first + bl->count - 1];
	LLVMValueRef all = LLVMConstAllOnes(c->vi1);

	for (uint32_t k = 0; k < nregs; k++)
		s->val[regs[k]] = in->reg[k];
	s->prev_val = in->prev;
	s->k.active = s->k.store_active = m ? m : all;
	for (uint32_t i = 0; i + 1 < bl->count; i++)
		jit_emit_instr(s, &p->code[bl->first + i]);
	LLVMValueRef a = term->op == IR_BRC || term->op == IR_SWITCH
	                 ? jit_read_reg(s, term->a) : NULL;
	LLVMValueRef to = jit_cf_target(c, p, term, a);

	out->pc = m ? LLVMBuildSelect(bd, m, to, in->pc, "") : to;
	out->prev = term->op == IR_RET ? in->prev
	            : m ? LLVMBuildSelect(bd, m, jit_splat(c, b), in->prev, "")
	            : jit_splat(c, b);
	out->steps = LLVMBuildAdd(bd, in->steps,
	                          LLVMConstInt(c->i32, 1, false), "");
	for (uint32_t k = 0; k < nregs; k++) {
		uint32_t r = regs[k];

		out->reg[k] = !s->dirty[r] ? in->reg[k]
		              : m ? LLVMBuildSelect(bd, m, s->val[r], in->reg[k],
		                                    "")
		              : s->val[r];
	}
	for (uint32_t k = 0; k < s->ndirty; k++)
		s->dirty[s->dirty_list[k]] = 0;
	s->ndirty = 0;
	for (uint32_t k = 0; k < s->ntouched; k++)
		s->val[s->touched[k]] = NULL;
	s->ntouched = 0;
	for (uint32_t k = 0; k < nregs; k++)
		s->val[regs[k]] = NULL;
	s->prev_val = NULL;
}

/* A loop whose blocks have at most this many instructions in all gets
 * a second copy of each block for a chunk whose lanes are all at it
 * (no blends: a uniform loop runs at the speed of its arithmetic). */
#define FULL_COPY_MAX 256u

static LLVMValueRef
reduce(struct jit_ctx *c, const char *name, LLVMValueRef v)
{
	LLVMTypeRef t = c->vi1;

	return jit_intrinsic(c, name, &t, 1, &v, 1);
}

/* One block of the pass: skipped when no lane of the chunk is at b,
 * else run (for all lanes without blends when they all are, full);
 * *st becomes the state after it. */
static void
emit_pass_block(struct seg_state *s, uint32_t b, struct carried *st,
                const uint32_t *regs, uint32_t n, bool full,
                LLVMValueRef *tmp_a, LLVMValueRef *tmp_b)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef bd = c->b;
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(bd));
	LLVMBasicBlockRef test = LLVMGetInsertBlock(bd);
	LLVMBasicBlockRef part = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef whole = full ? LLVMAppendBasicBlockInContext(c->ctx,
	                                 fn, "") : NULL;
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMValueRef m = LLVMBuildICmp(bd, LLVMIntEQ, st->pc, jit_splat(c, b),
	                               "");
	LLVMValueRef any = reduce(c, "llvm.vector.reduce.or", m);
	struct carried pa = { .reg = tmp_a }, wh = { .reg = tmp_b };
	LLVMBasicBlockRef pa_end, wh_end = NULL;

	if (full) {
		LLVMBasicBlockRef some = LLVMAppendBasicBlockInContext(c->ctx,
		                                                       fn, "");

		LLVMBuildCondBr(bd, any, some, join);
		LLVMPositionBuilderAtEnd(bd, some);
		LLVMBuildCondBr(bd, reduce(c, "llvm.vector.reduce.and", m),
		                whole, part);
		LLVMPositionBuilderAtEnd(bd, whole);
		emit_loop_block(s, b, NULL, st, regs, n, &wh);
		wh_end = LLVMGetInsertBlock(bd);
		LLVMBuildBr(bd, join);
	} else {
		LLVMBuildCondBr(bd, any, part, join);
	}
	LLVMPositionBuilderAtEnd(bd, part);
	emit_loop_block(s, b, m, st, regs, n, &pa);
	pa_end = LLVMGetInsertBlock(bd);
	LLVMBuildBr(bd, join);

	LLVMPositionBuilderAtEnd(bd, join);
#define JOIN(field, type) do {                                           \
		LLVMValueRef ph_ = LLVMBuildPhi(bd, (type), "");         \
		add_incoming(ph_, st->field, test);                      \
		add_incoming(ph_, pa.field, pa_end);                     \
		if (wh_end)                                              \
			add_incoming(ph_, wh.field, wh_end);             \
		st->field = ph_;                                         \
	} while (0)
	JOIN(pc, c->vi32);
	JOIN(prev, c->vi32);
	JOIN(steps, c->i32);
	for (uint32_t k = 0; k < n; k++)
		JOIN(reg[k], c->vi32);
#undef JOIN
}

/* A field of the dispatch d (offset from offsetof) of type t. */
static LLVMValueRef
dispatch_load(struct jit_ctx *c, LLVMValueRef d, uint32_t offset,
              LLVMTypeRef t)
{
	LLVMValueRef off = LLVMConstInt(c->i64, offset, false);

	return LLVMBuildLoad2(c->b, t, LLVMBuildGEP2(c->b, c->i8, d, &off, 1,
	                                             ""), "");
}

/*
 * The stop poll of a chunk's end (its state stored: a block boundary
 * for every lane, the place interp_run.c's run_lanes stops at a
 * back-edge) when ask: the call of swgpu_jit_loop_stop (d->stop, then
 * the engine's question). An i1, true: stop; the builder is left after
 * it.
 */
static LLVMValueRef
emit_stop_poll(struct seg_state *s, LLVMValueRef ask)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef b = c->b;
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
	LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
	LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, fn, "");

	LLVMBuildCondBr(b, ask, call, done);
	LLVMPositionBuilderAtEnd(b, call);
	LLVMTypeRef ptr = LLVMPointerType(c->i8, 0);
	LLVMTypeRef fty = LLVMFunctionType(c->i32, &ptr, 1, false);
	LLVMValueRef poll = LLVMGetNamedFunction(c->mod, JIT_LOOP_STOP_SYMBOL);

	if (!poll) {
		poll = LLVMAddFunction(c->mod, JIT_LOOP_STOP_SYMBOL, fty);
		LLVMAddAttributeAtIndex(poll, LLVMAttributeFunctionIndex,
			LLVMCreateEnumAttribute(c->ctx,
				LLVMGetEnumAttributeKindForName("nounwind", 8),
				0));
	}
	LLVMValueRef r = LLVMBuildCall2(b, fty, poll, &s->k.frame, 1, "");
	LLVMValueRef asked = LLVMBuildICmp(b, LLVMIntNE, r,
	                                   LLVMConstInt(c->i32, 0, false), "");

	LLVMBuildBr(b, done);
	LLVMPositionBuilderAtEnd(b, done);
	LLVMValueRef stop = LLVMBuildPhi(b, c->i1, "");

	add_incoming(stop, LLVMConstInt(c->i1, 0, false), from);
	add_incoming(stop, asked, call);
	return stop;
}

bool
jit_loop_emit(struct seg_state *s, const char *name, uint32_t h, uint32_t t)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef b = c->b;
	const struct ir_program *p = s->p;
	uint32_t *regs = calloc(p->nregs, sizeof(*regs));
	uint8_t *in_list = calloc(p->nregs, 1), *written = calloc(p->nregs, 1);
	uint8_t *wrote = calloc(p->nregs, 1), *memo = calloc(p->nregs, 1);
	LLVMValueRef *phi_reg = calloc(p->nregs, sizeof(*phi_reg));
	LLVMValueRef *init = calloc(p->nregs, sizeof(*init));
	LLVMValueRef *cur_reg = calloc(p->nregs, sizeof(*cur_reg));
	LLVMValueRef *tmp_a = calloc(p->nregs, sizeof(*tmp_a));
	LLVMValueRef *tmp_b = calloc(p->nregs, sizeof(*tmp_b));
	uint32_t ninstr = 0;
	bool ok = false;

	if (!regs || !in_list || !written || !wrote || !memo || !phi_reg ||
	    !init || !cur_reg || !tmp_a || !tmp_b)
		goto out;
	uint32_t n = loop_regs(s, h, t, regs, in_list, written, wrote, memo);

	if (n == NONE)
		goto out;
	for (uint32_t bb = h; bb <= t; bb++)
		ninstr += p->blocks[bb].count;
	const bool full = ninstr <= FULL_COPY_MAX;
	LLVMTypeRef ptr = LLVMPointerType(c->i8, 0);
	LLVMTypeRef fty = LLVMFunctionType(c->i32, &ptr, 1, false);
	LLVMValueRef fn = LLVMAddFunction(c->mod, name, fty);
	LLVMValueRef frame = LLVMGetParam(fn, 0);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef chunk = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef pass = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef leave = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMValueRef zero32 = LLVMConstInt(c->i32, 0, false);
	LLVMValueRef budget = LLVMConstInt(c->i32, JIT_LOOP_BUDGET, false);

	LLVMPositionBuilderAtEnd(b, entry);
	s->k.frame = frame;
	s->k.entry = entry;
	s->k.p = p;
	s->k.regs = jit_frame_load(c, frame, offsetof(struct jit_frame, regs),
	                           ptr);
	s->k.pc = jit_frame_load(c, frame, offsetof(struct jit_frame, pc), ptr);
	s->k.prev = jit_frame_load(c, frame, offsetof(struct jit_frame, prev),
	                           ptr);
	s->k.width = LLVMBuildZExt(b, jit_frame_load(c, frame,
		offsetof(struct jit_frame, width), c->i32), c->i64, "");
	/* preemptible (ir.h: stop_poll set): the stop checks run */
	LLVMValueRef d = jit_frame_load(c, frame,
		offsetof(struct jit_frame, d), ptr);
	LLVMValueRef armed = LLVMBuildIsNotNull(b, dispatch_load(c, d,
		offsetof(struct ir_dispatch, stop_poll), ptr), "");
	LLVMBuildBr(b, chunk);

	/* chunk: i, steps so far; the chunk's state from memory */
	LLVMPositionBuilderAtEnd(b, chunk);
	LLVMValueRef i = LLVMBuildPhi(b, c->i64, "");
	LLVMValueRef steps0 = LLVMBuildPhi(b, c->i32, "");

	s->k.i = i;
	struct carried first = {
		.pc = load_vec(s, vec_ptr(s, s->k.pc, i)),
		.prev = load_vec(s, vec_ptr(s, s->k.prev, i)),
		.steps = steps0, .reg = init,
	};

	for (uint32_t k = 0; k < n; k++)
		init[k] = load_vec(s, vec_ptr(s, s->k.regs, reg_el(s, regs[k])));
	LLVMBuildBr(b, pass);

	/* pass: blocks h..t in order, each run for the lanes at it (a lane
	 * branching forward runs its next block in the same pass); lanes
	 * are independent here, so any order per lane is the
	 * interpreter's result */
	LLVMPositionBuilderAtEnd(b, pass);
	struct carried top = {
		.pc = LLVMBuildPhi(b, c->vi32, ""),
		.prev = LLVMBuildPhi(b, c->vi32, ""),
		.steps = LLVMBuildPhi(b, c->i32, ""),
		.reg = phi_reg,
	};

	for (uint32_t k = 0; k < n; k++)
		phi_reg[k] = LLVMBuildPhi(b, c->vi32, "");
	add_incoming(top.pc, first.pc, chunk);
	add_incoming(top.prev, first.prev, chunk);
	add_incoming(top.steps, first.steps, chunk);
	for (uint32_t k = 0; k < n; k++)
		add_incoming(phi_reg[k], init[k], chunk);
	struct carried st = top;

	st.reg = cur_reg;
	memcpy(cur_reg, phi_reg, n * sizeof(*cur_reg));
	for (uint32_t bb = h; bb <= t; bb++)
		emit_pass_block(s, bb, &st, regs, n, full, tmp_a, tmp_b);

	/* another pass while a lane is in the loop, budget is left and
	 * no stop poll is due (ask: the pass took the blocks run past a
	 * multiple of JIT_LOOP_POLL in a preemptible dispatch) */
	LLVMValueRef inside = LLVMBuildAnd(b,
		LLVMBuildICmp(b, LLVMIntUGE, st.pc, jit_splat(c, h), ""),
		LLVMBuildICmp(b, LLVMIntULE, st.pc, jit_splat(c, t), ""), "");
	LLVMValueRef inside_any = reduce(c, "llvm.vector.reduce.or", inside);
	LLVMValueRef spent = LLVMBuildICmp(b, LLVMIntUGE, st.steps, budget, "");
	LLVMValueRef ask = LLVMBuildAnd(b, armed, LLVMBuildICmp(b, LLVMIntUGE,
		LLVMBuildXor(b, top.steps, st.steps, ""),
		LLVMConstInt(c->i32, JIT_LOOP_POLL, false), ""), "");

	LLVMBuildCondBr(b, LLVMBuildAnd(b, inside_any, LLVMBuildNot(b,
	                                LLVMBuildOr(b, spent, ask, ""), ""),
	                                ""),
	                again, end);
	LLVMPositionBuilderAtEnd(b, again);
	LLVMBuildBr(b, pass);
	add_incoming(top.pc, st.pc, again);
	add_incoming(top.prev, st.prev, again);
	add_incoming(top.steps, st.steps, again);
	for (uint32_t k = 0; k < n; k++)
		add_incoming(phi_reg[k], cur_reg[k], again);

	/* end: the chunk's state back to memory; the stop poll if due
	 * (here, out of the pass loop: a call there made LLVM spill its
	 * vector registers every pass, a third of alu_flops' speed);
	 * leave when out of budget or stopping, else go on with the same
	 * chunk (lanes still inside) or the next */
	LLVMPositionBuilderAtEnd(b, end);
	for (uint32_t k = 0; k < n; k++)
		if (written[regs[k]])
			store_vec(s, cur_reg[k], vec_ptr(s, s->k.regs,
			                                 reg_el(s, regs[k])));
	store_vec(s, st.pc, vec_ptr(s, s->k.pc, i));
	store_vec(s, st.prev, vec_ptr(s, s->k.prev, i));
	LLVMValueRef stop = emit_stop_poll(s, ask);
	LLVMValueRef ni = LLVMBuildSelect(b, inside_any, i,
		LLVMBuildAdd(b, i, LLVMConstInt(c->i64, c->lanes, false), ""),
		"");
	LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, ni, s->k.width, "");
	LLVMValueRef go = LLVMBuildAnd(b, more, LLVMBuildNot(b,
		LLVMBuildOr(b, spent, stop, ""), ""), "");

	LLVMBuildCondBr(b, go, next, leave);
	LLVMPositionBuilderAtEnd(b, next);
	LLVMBuildBr(b, chunk);
	add_incoming(i, LLVMConstInt(c->i64, 0, false), entry);
	add_incoming(i, ni, next);
	add_incoming(steps0, zero32, entry);
	add_incoming(steps0, st.steps, next);
	LLVMPositionBuilderAtEnd(b, leave);
	LLVMValueRef off = LLVMConstInt(c->i64, offsetof(struct jit_frame, steps),
	                                false);

	LLVMBuildStore(b, st.steps, LLVMBuildGEP2(b, c->i8, frame, &off, 1, ""));
	off = LLVMConstInt(c->i64, offsetof(struct jit_frame, stopped), false);
	LLVMBuildStore(b, LLVMBuildZExt(b, stop, c->i32, ""),
	               LLVMBuildGEP2(b, c->i8, frame, &off, 1, ""));
	LLVMBuildRet(b, LLVMConstInt(c->i32, INTERP_HINT_NONE, false));
	ok = true;
out:
	free(regs);
	free(in_list);
	free(written);
	free(wrote);
	free(memo);
	free(phi_reg);
	free(init);
	free(cur_reg);
	free(tmp_a);
	free(tmp_b);
	return ok;
}
