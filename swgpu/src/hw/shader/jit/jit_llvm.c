/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's LLVM side: cutting a program into segments
 * (jit.h), one LLVM function per segment, optimized (O2, no fast-math)
 * and compiled for the host CPU (jit_engine.c).
 *
 * A segment function loops over the width lanes `lanes` at a time:
 *   for (i = 0; i < width; i += lanes) {
 *       load each register the segment reads before writing it
 *       (constant registers are folded instead: nothing writes them);
 *       compute the instructions on <lanes x i32> values (jit_alu.c);
 *       store each register it wrote, blended with the old value
 *       under the mask (inactive lanes keep theirs, as in interp.c)
 *   }
 * Within a segment values stay in vector registers; at its end the
 * register file holds exactly what the interpreter would have written.
 * Every LLVM error is logged and the program left to the interpreter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "hw/shader/jit.h"
#include "hw/shader/jit_run.h"
#include "jit_alu.h"
#include "jit_cache.h"
#include "jit_engine.h"
#include "util/util.h"

/* Per-compile state: the program, the register values of the segment
 * being emitted and which registers are constants. */
struct seg_state {
	struct jit_ctx c;
	const struct ir_program *p;
	LLVMValueRef *val;         /* nregs: value in this iteration */
	uint8_t *dirty;            /* nregs: written by the segment */
	uint8_t *is_const;         /* nregs: constant, never written */
	uint32_t *const_val;       /* nregs */
	uint32_t *touched;         /* registers with val set */
	uint32_t ntouched;
	LLVMValueRef regs, mask, i, width;
};

/* Is in compiled: supported, every register in range. */
static bool
compilable(const struct ir_program *p, const struct ir_instr *in)
{
	int n = jit_alu_sources(in);
	const uint32_t src[4] = { in->a, in->b, in->c, in->d };

	if (n < 0 || in->dst >= p->nregs)
		return false;
	for (int k = 0; k < n; k++)
		if (src[k] >= p->nregs)
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
		LLVMConstInt(s->c.i64, r, false), s->width, ""), s->i, "");

	return LLVMBuildGEP2(b, s->c.i32, s->regs, &off, 1, "");
}

static LLVMValueRef
read_reg(struct seg_state *s, uint32_t r)
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

/* The function of instructions code[0..n). */
static LLVMValueRef
emit_segment(struct seg_state *s, const char *name,
             const struct ir_instr *code, uint32_t n)
{
	struct jit_ctx *c = &s->c;
	LLVMBuilderRef b = c->b;
	LLVMTypeRef ptr = LLVMPointerType(c->i32, 0);
	LLVMTypeRef params[3] = { ptr, LLVMPointerType(c->i8, 0), c->i32 };
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx),
	                                   params, 3, false);
	LLVMValueRef fn = LLVMAddFunction(c->mod, name, fty);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMValueRef zero64 = LLVMConstInt(c->i64, 0, false);

	s->regs = LLVMGetParam(fn, 0);
	s->mask = LLVMGetParam(fn, 1);
	LLVMPositionBuilderAtEnd(b, entry);
	s->width = LLVMBuildZExt(b, LLVMGetParam(fn, 2), c->i64, "");
	LLVMBuildBr(b, loop);
	LLVMPositionBuilderAtEnd(b, loop);
	s->i = LLVMBuildPhi(b, c->i64, "");

	uint32_t ndirty = 0;
	uint32_t *dirty_list = s->touched + s->p->nregs;

	for (uint32_t k = 0; k < n; k++) {
		const struct ir_instr *in = &code[k];
		const uint32_t srcreg[4] = { in->a, in->b, in->c, in->d };
		LLVMValueRef src[4] = { NULL, NULL, NULL, NULL };
		int ns = jit_alu_sources(in);

		for (int q = 0; q < ns; q++)
			src[q] = read_reg(s, srcreg[q]);
		LLVMValueRef v = jit_alu_emit(c, in, src);

		if (!s->val[in->dst])
			s->touched[s->ntouched++] = in->dst;
		s->val[in->dst] = v;
		if (!s->dirty[in->dst]) {
			s->dirty[in->dst] = 1;
			dirty_list[ndirty++] = in->dst;
		}
	}
	/* Blend the written registers under the mask. */
	LLVMValueRef mp = LLVMBuildGEP2(b, c->i8, s->mask, &s->i, 1, "");
	LLVMValueRef m8 = LLVMBuildLoad2(b, c->vi8, mp, "");

	LLVMSetAlignment(m8, 1);
	LLVMValueRef on = LLVMBuildICmp(b, LLVMIntNE, m8,
	                                LLVMConstNull(c->vi8), "");

	for (uint32_t k = 0; k < ndirty; k++) {
		uint32_t r = dirty_list[k];
		LLVMValueRef pr = reg_ptr(s, r);
		LLVMValueRef old = LLVMBuildLoad2(b, c->vi32, pr, "");

		LLVMSetAlignment(old, 4);
		LLVMValueRef st = LLVMBuildStore(b, LLVMBuildSelect(b, on,
		                                 s->val[r], old, ""), pr);

		LLVMSetAlignment(st, 4);
		s->dirty[r] = 0;
	}
	LLVMValueRef next = LLVMBuildAdd(b, s->i,
	                                 LLVMConstInt(c->i64, c->lanes, false),
	                                 "");
	LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, s->width, ""),
	                loop, done);
	LLVMValueRef in_v[2] = { zero64, next };
	LLVMBasicBlockRef in_b[2] = { entry, loop };

	LLVMAddIncoming(s->i, in_v, in_b, 2);
	LLVMPositionBuilderAtEnd(b, done);
	LLVMBuildRetVoid(b);
	for (uint32_t k = 0; k < s->ntouched; k++)
		s->val[s->touched[k]] = NULL;
	s->ntouched = 0;
	return fn;
}

/* Cut the blocks into segments (jp->blocks[].seg with fn NULL). */
static bool
plan_segments(const struct ir_program *p, struct jit_program *jp)
{
	for (uint32_t bi = 0; bi < p->nblocks; bi++) {
		const struct ir_block *bl = &p->blocks[bi];
		struct jit_block *jb = &jp->blocks[bi];
		uint32_t ii = 0;

		jp->total += bl->count;
		/* the last instruction, the terminator, is never compiled */
		while (bl->count && ii < bl->count - 1) {
			if (!compilable(p, &p->code[bl->first + ii])) {
				ii++;
				continue;
			}
			uint32_t end = ii + 1;

			while (end < bl->count - 1 &&
			       compilable(p, &p->code[bl->first + end]))
				end++;
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
	/* touched (at most 5 per instruction... bounded by nregs, each
	 * register once) then the dirty list */
	s.touched = calloc((size_t)p->nregs * 2, sizeof(*s.touched));
	if (!s.val || !s.dirty || !s.is_const || !s.const_val || !s.touched)
		goto out;
	find_constants(&s);
	for (uint32_t bi = 0; bi < p->nblocks; bi++)
		for (uint32_t k = 0; k < jp->blocks[bi].nseg; k++) {
			const struct jit_seg *sg = &jp->blocks[bi].seg[k];
			char name[32];

			snprintf(name, sizeof(name), "b%u_s%u", bi, k);
			emit_segment(&s, name, p->code + p->blocks[bi].first +
			             sg->first, sg->end - sg->first);
		}
	ok = true;
out:
	LLVMDisposeBuilder(s.c.b);
	free(s.val);
	free(s.dirty);
	free(s.is_const);
	free(s.const_val);
	free(s.touched);
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
	return true;
}

struct jit_program *
jit_compile(const struct ir_program *p, uint32_t lanes)
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
	jp->engine = jit_engine_cached(&key);
	if (!jp->engine) {
		LLVMContextRef ctx = LLVMContextCreate();
		LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(
			"swgpu_shader", ctx);

		if (emit_module(p, jp, ctx, mod) && jit_engine_optimize(mod))
			jp->engine = jit_engine_build(mod, &key);
		else
			LLVMDisposeModule(mod);
		LLVMContextDispose(ctx);
	}
	if (!lookup_segments(jp))
		goto fail;
	if (swgpu_debug_env())
		swgpu_log("jit: %u of %u instructions compiled, %u lanes a "
		          "vector", jp->compiled, jp->total, lanes);
	return jp;
fail:
	jit_program_free(jp);
	return NULL;
}
