/* SPDX-License-Identifier: MIT */
/*
 * Memory instructions in compiled segments: storage/uniform buffers
 * (IR_LDBUF, IR_STBUF, the descriptor-array X and 8/16-bit N forms),
 * push constants, shared memory, dynamically indexed registers
 * (IR_LDX / IR_STX) and IR_ARRLEN, each lane exactly as interp.c and
 * interp_narrow.c do it:
 *  - a lane accesses memory only when it is active (frame->mask; buffer
 *    stores frame->store_mask, without helper lanes) and its bytes are
 *    all inside the binding's range (robustBufferAccess2: a load out of
 *    range reads 0, a store writes nothing; a null descriptor has range
 *    0), so masked gathers and scatters, never a plain access of a lane
 *    that may be out of range;
 *  - where the lanes of a chunk address consecutive words in range
 *    (a[gl_GlobalInvocationID]) one vector load / masked store;
 *  - scatters write lanes in ascending order (LLVM's masked.scatter
 *    semantics), as the interpreter's lane loop: with equal addresses
 *    the highest lane's value stays.
 * Binding pointers, ranges and the shared memory pointer are loaded from
 * the frame once, in the function's entry block.
 */
#include <stddef.h>
#include <string.h>

#include "hw/shader/jit.h"
#include "jit_emit.h"

LLVMValueRef
jit_frame_load(struct jit_ctx *c, LLVMValueRef frame, uint32_t offset,
               LLVMTypeRef t)
{
	LLVMValueRef off = LLVMConstInt(c->i64, offset, false);
	LLVMValueRef p = LLVMBuildGEP2(c->b, c->i8, frame, &off, 1, "");

	return LLVMBuildLoad2(c->b, t, p, "");
}

static LLVMTypeRef
ptr_type(struct jit_ctx *c)
{
	return LLVMPointerType(c->i8, 0);
}

/* The builder moved to the end of the entry block (before its branch);
 * returns where it was. */
static LLVMBasicBlockRef
to_entry(struct jit_ctx *c, const struct jit_chunk *k)
{
	LLVMBasicBlockRef here = LLVMGetInsertBlock(c->b);

	LLVMPositionBuilderBefore(c->b, LLVMGetBasicBlockTerminator(k->entry));
	return here;
}

static void
back_to(struct jit_ctx *c, LLVMBasicBlockRef here)
{
	LLVMPositionBuilderAtEnd(c->b, here);
}

static uint32_t
binding_offset(uint32_t slot, bool range)
{
	return (uint32_t)(offsetof(struct ir_dispatch, buffers) +
	                  slot * sizeof(struct ir_buffer_binding) +
	                  (range ? offsetof(struct ir_buffer_binding, range)
	                         : offsetof(struct ir_buffer_binding, ptr)));
}

/* Binding slot's pointer and range, loaded in the entry block. */
static void
binding(struct jit_ctx *c, const struct jit_chunk *k, uint32_t slot,
        LLVMValueRef *base, LLVMValueRef *range)
{
	LLVMBasicBlockRef here = to_entry(c, k);
	LLVMValueRef d = jit_frame_load(c, k->frame,
	                                offsetof(struct jit_frame, d),
	                                ptr_type(c));

	if (base)
		*base = jit_frame_load(c, d, binding_offset(slot, false),
		                       ptr_type(c));
	if (range)
		*range = jit_frame_load(c, d, binding_offset(slot, true),
		                        c->i64);
	back_to(c, here);
}

/* A vector of `lanes` copies of scalar x. */
static LLVMValueRef
splat(struct jit_ctx *c, LLVMValueRef x)
{
	LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(x), c->lanes);
	LLVMValueRef v = LLVMBuildInsertElement(c->b, LLVMGetUndef(vt), x,
	                                        LLVMConstInt(c->i32, 0, false),
	                                        "");
	LLVMValueRef zeros[16];

	for (uint32_t l = 0; l < c->lanes; l++)
		zeros[l] = LLVMConstInt(c->i32, 0, false);
	return LLVMBuildShuffleVector(c->b, v, LLVMGetUndef(vt),
	                              LLVMConstVector(zeros, c->lanes), "");
}

/* Byte offsets a + imm of each lane, as i64. */
static LLVMValueRef
lane_offsets(struct jit_ctx *c, LLVMValueRef a, uint32_t imm)
{
	return LLVMBuildAdd(c->b, LLVMBuildZExt(c->b, a, c->vi64, ""),
	                    jit_splat64(c, imm), "");
}

static LLVMTypeRef
elem_type(struct jit_ctx *c, uint32_t bytes)
{
	return bytes == 1 ? c->i8 : bytes == 2 ? LLVMInt16TypeInContext(c->ctx)
	                                       : c->i32;
}

/* Per-lane access of `bytes` at ptrs (a vector of pointers) on lanes
 * `on` (vi1): a load returns vi32 (zero-extended, 0 where off),
 * a store (val non-NULL) writes the low bytes of val. */
static LLVMValueRef
gather_scatter(struct jit_ctx *c, LLVMValueRef ptrs, uint32_t bytes,
               LLVMValueRef on, LLVMValueRef val)
{
	LLVMTypeRef et = LLVMVectorType(elem_type(c, bytes), c->lanes);
	LLVMTypeRef types[2] = { et, LLVMTypeOf(ptrs) };
	LLVMValueRef align = LLVMConstInt(c->i32, 1, false);

	if (val) {
		LLVMValueRef v = bytes == 4 ? val
		                 : LLVMBuildTrunc(c->b, val, et, "");
		LLVMValueRef args[4] = { v, ptrs, align, on };

		jit_intrinsic(c, "llvm.masked.scatter", types, 2, args, 4);
		return NULL;
	}
	LLVMValueRef args[4] = { ptrs, align, on, LLVMConstNull(et) };
	LLVMValueRef v = jit_intrinsic(c, "llvm.masked.gather", types, 2,
	                                args, 4);

	return bytes == 4 ? v : LLVMBuildZExt(c->b, v, c->vi32, "");
}

/* The access of every active lane at base + off (off: vi64 byte
 * offsets), in range when off + need <= range (range: i64 scalar or
 * vi64 vector; base: a pointer or a vector of them). */
static LLVMValueRef
access(struct jit_ctx *c, LLVMValueRef base, LLVMValueRef off,
       uint32_t bytes, uint32_t need, LLVMValueRef range, LLVMValueRef on,
       LLVMValueRef val)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef rv = LLVMGetTypeKind(LLVMTypeOf(range)) ==
	                  LLVMVectorTypeKind ? range : splat(c, range);
	LLVMValueRef inr = LLVMBuildICmp(b, LLVMIntULE,
	                                 LLVMBuildAdd(b, off, jit_splat64(c, need),
	                                              ""), rv, "");
	LLVMValueRef ptrs = LLVMBuildGEP2(b, c->i8, base, &off, 1, "");

	return gather_scatter(c, ptrs, bytes, LLVMBuildAnd(b, on, inr, ""),
	                      val);
}

/* A 32-bit access at base + a + imm: the fast path when the chunk's
 * lanes address consecutive words all in range (one vector load, one
 * masked store), else access(). */
static LLVMValueRef
access32(struct jit_ctx *c, LLVMValueRef base, LLVMValueRef a, uint32_t imm,
         LLVMValueRef range, LLVMValueRef on, LLVMValueRef val)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
	LLVMValueRef iota[16];

	for (uint32_t l = 0; l < c->lanes; l++)
		iota[l] = LLVMConstInt(c->i32, 4 * l, false);
	LLVMValueRef first = LLVMBuildExtractElement(b, a,
		LLVMConstInt(c->i32, 0, false), "");
	LLVMValueRef want = LLVMBuildAdd(b, splat(c, first),
	                                 LLVMConstVector(iota, c->lanes), "");
	LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, a, want, "");
	LLVMTypeRef vt = c->vi1;
	LLVMValueRef contig = jit_intrinsic(c, "llvm.vector.reduce.and",
	                                     &vt, 1, &same, 1);
	LLVMValueRef off0 = LLVMBuildAdd(b, LLVMBuildZExt(b, first, c->i64, ""),
	                                 LLVMConstInt(c->i64, imm, false), "");
	LLVMValueRef end = LLVMBuildAdd(b, off0,
	                                LLVMConstInt(c->i64, 4 * c->lanes,
	                                             false), "");
	LLVMValueRef fast = LLVMBuildAnd(b, contig,
	                                 LLVMBuildICmp(b, LLVMIntULE, end, range,
	                                               ""), "");
	LLVMBasicBlockRef bf = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef bs = LLVMAppendBasicBlockInContext(c->ctx, fn, "");
	LLVMBasicBlockRef bj = LLVMAppendBasicBlockInContext(c->ctx, fn, "");

	LLVMBuildCondBr(b, fast, bf, bs);
	LLVMPositionBuilderAtEnd(b, bf);
	LLVMValueRef p = LLVMBuildGEP2(b, c->i8, base, &off0, 1, "");
	LLVMValueRef vf = NULL;

	if (val) {
		LLVMTypeRef types[2] = { c->vi32, LLVMTypeOf(p) };
		LLVMValueRef args[4] = { val, p, LLVMConstInt(c->i32, 1, false),
		                         on };

		jit_intrinsic(c, "llvm.masked.store", types, 2, args, 4);
	} else {
		vf = LLVMBuildLoad2(b, c->vi32, p, "");
		LLVMSetAlignment(vf, 1);
	}
	LLVMBuildBr(b, bj);
	LLVMPositionBuilderAtEnd(b, bs);
	LLVMValueRef vs = access(c, base, lane_offsets(c, a, imm), 4, 4, range,
	                         on, val);
	LLVMBasicBlockRef bs_end = LLVMGetInsertBlock(b);

	LLVMBuildBr(b, bj);
	LLVMPositionBuilderAtEnd(b, bj);
	if (val)
		return NULL;
	LLVMValueRef phi = LLVMBuildPhi(b, c->vi32, "");
	LLVMValueRef iv[2] = { vf, vs };
	LLVMBasicBlockRef ib[2] = { bf, bs_end };

	LLVMAddIncoming(phi, iv, ib, 2);
	return phi;
}

/* A load at the constant offset imm (a is register 0): one scalar load
 * for all lanes when in range, else 0 (interp.c loads once too). */
static LLVMValueRef
uniform_load(struct jit_ctx *c, const struct jit_chunk *k, LLVMValueRef base,
             uint32_t imm, uint32_t need, uint32_t bytes, LLVMValueRef range)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef inr = LLVMBuildICmp(b, LLVMIntULE,
		LLVMConstInt(c->i64, (uint64_t)imm + need, false), range, "");
	LLVMValueRef off = LLVMConstInt(c->i64, imm, false);
	/* out of range: read the frame instead (always readable), then 0 */
	LLVMValueRef p = LLVMBuildSelect(b, inr,
	                                 LLVMBuildGEP2(b, c->i8, base, &off, 1,
	                                               ""), k->frame, "");
	LLVMValueRef v = LLVMBuildLoad2(b, elem_type(c, bytes), p, "");

	LLVMSetAlignment(v, 1);
	if (bytes != 4)
		v = LLVMBuildZExt(b, v, c->i32, "");
	return splat(c, LLVMBuildSelect(b, inr, v,
	                                LLVMConstInt(c->i32, 0, false), ""));
}

/* Per-lane binding slot aux + idx (idx: vi32 register value) where
 * valid (vi1): the vectors of pointers and ranges (null, 0 elsewhere). */
static void
lane_bindings(struct jit_ctx *c, const struct jit_chunk *k, uint32_t aux,
              LLVMValueRef idx, LLVMValueRef valid, LLVMValueRef *ptrs,
              LLVMValueRef *ranges)
{
	LLVMBuilderRef b = c->b;
	LLVMBasicBlockRef here = to_entry(c, k);
	LLVMValueRef d = jit_frame_load(c, k->frame,
	                                offsetof(struct jit_frame, d),
	                                ptr_type(c));

	back_to(c, here);
	LLVMValueRef slot = LLVMBuildAdd(b, LLVMBuildZExt(b, idx, c->vi64, ""),
	                                 jit_splat64(c, aux), "");

	slot = LLVMBuildSelect(b, valid, slot, jit_splat64(c, aux), "");
	LLVMValueRef off = LLVMBuildAdd(b, LLVMBuildMul(b, slot,
		jit_splat64(c, sizeof(struct ir_buffer_binding)), ""),
		jit_splat64(c, binding_offset(0, false)), "");
	LLVMValueRef pp = LLVMBuildGEP2(b, c->i8, d, &off, 1, "");
	LLVMValueRef roff = LLVMBuildAdd(b, off, jit_splat64(c,
		offsetof(struct ir_buffer_binding, range) -
		offsetof(struct ir_buffer_binding, ptr)), "");
	LLVMValueRef rp = LLVMBuildGEP2(b, c->i8, d, &roff, 1, "");
	LLVMTypeRef vptr = LLVMVectorType(ptr_type(c), c->lanes);
	LLVMTypeRef t1[2] = { vptr, vptr }, t2[2] = { c->vi64, vptr };
	LLVMValueRef a1[4] = { pp, LLVMConstInt(c->i32, 8, false), valid,
	                       LLVMConstNull(vptr) };
	LLVMValueRef a2[4] = { rp, LLVMConstInt(c->i32, 8, false), valid,
	                       LLVMConstNull(c->vi64) };

	*ptrs = jit_intrinsic(c, "llvm.masked.gather", t1, 2, a1, 4);
	*ranges = jit_intrinsic(c, "llvm.masked.gather", t2, 2, a2, 4);
}

void
jit_mem_reg_range(const struct ir_instr *in, uint32_t *first, uint32_t *n)
{
	*first = in->b;
	*n = in->c;
}

int
jit_mem_sources(const struct ir_program *p, const struct ir_instr *in,
                unsigned *cls)
{
	const bool narrow_ok = in->aux2 == 1 || in->aux2 == 2;

	*cls = 0;
	switch ((enum ir_op)in->op) {
	case IR_LDBUF:
		*cls = JIT_MEM_BUF_R;
		return 1;
	case IR_STBUF:
		*cls = JIT_MEM_BUF_W;
		return 3;
	case IR_LDPUSH:
		return 1;
	case IR_LDSH:
		*cls = JIT_MEM_SH_R;
		return 1;
	case IR_STSH:
		*cls = JIT_MEM_SH_W;
		return 3;
	case IR_LDX: case IR_STX:
		if ((uint64_t)in->b + in->c > p->nregs)
			return -1;
		*cls = JIT_MEM_REGS;
		return in->op == IR_LDX ? 1 : 1 | 8;
	case IR_ARRLEN:
		return in->b ? 0 : -1;
	case IR_LDBUFX: case IR_STBUFX:
		if ((uint32_t)in->aux + in->c > IR_MAX_BUFFERS)
			return -1;
		*cls = in->op == IR_LDBUFX ? JIT_MEM_BUF_R : JIT_MEM_BUF_W;
		return in->op == IR_LDBUFX ? 1 | 8 : 1 | 2 | 8;
	case IR_LDBUFN: case IR_STBUFN:
		if (!narrow_ok || (!in->d && in->aux >= IR_MAX_BUFFERS))
			return -1;
		*cls = in->op == IR_LDBUFN ? JIT_MEM_BUF_R : JIT_MEM_BUF_W;
		return (in->op == IR_LDBUFN ? 1 : 3) | (in->d ? 8 : 0);
	case IR_LDPUSHN:
		return narrow_ok ? 1 : -1;
	case IR_LDSHN:
		*cls = JIT_MEM_SH_R;
		return narrow_ok ? 1 : -1;
	case IR_STSHN:
		*cls = JIT_MEM_SH_W;
		return narrow_ok ? 3 : -1;
	default:
		return -1;
	}
}

static LLVMValueRef
shared_base(struct jit_ctx *c, const struct jit_chunk *k)
{
	LLVMBasicBlockRef here = to_entry(c, k);
	LLVMValueRef v = jit_frame_load(c, k->frame,
	                                offsetof(struct jit_frame, shared),
	                                ptr_type(c));

	back_to(c, here);
	return v;
}

/* IR_LDX / IR_STX: register b + a + imm of each lane, a + imm < c. */
static LLVMValueRef
indexed_reg(struct jit_ctx *c, const struct jit_chunk *k,
            const struct ir_instr *in, LLVMValueRef a, LLVMValueRef val)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef kk = lane_offsets(c, a, in->imm);
	LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntULT, kk, jit_splat64(c, in->c),
	                                "");
	LLVMValueRef iota[16];

	for (uint32_t l = 0; l < c->lanes; l++)
		iota[l] = LLVMConstInt(c->i64, l, false);
	/* element ((b + k) * width + i + lane), k clamped on the others */
	LLVMValueRef reg = LLVMBuildAdd(b, LLVMBuildSelect(b, ok, kk,
	                                jit_splat64(c, 0), ""), jit_splat64(c, in->b),
	                                "");
	LLVMValueRef el = LLVMBuildAdd(b, LLVMBuildMul(b, reg,
		splat(c, k->width), ""), LLVMBuildAdd(b, splat(c, k->i),
		LLVMConstVector(iota, c->lanes), ""), "");
	LLVMValueRef ptrs = LLVMBuildGEP2(b, c->i32, k->regs, &el, 1, "");

	return gather_scatter(c, ptrs, 4, LLVMBuildAnd(b, k->active, ok, ""),
	                      val);
}

/* IR_LDBUFX .. IR_STBUFN with a per-lane descriptor index. */
static LLVMValueRef
indexed_buffer(struct jit_ctx *c, const struct jit_chunk *k,
               const struct ir_instr *in, LLVMValueRef const src[4],
               uint32_t bytes, uint32_t need, LLVMValueRef on,
               LLVMValueRef val)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef valid = LLVMBuildICmp(b, LLVMIntULT, src[3],
	                                   jit_splat(c, in->c), "");
	LLVMValueRef ptrs, ranges;

	if (in->op == IR_LDBUFN || in->op == IR_STBUFN)
		valid = LLVMBuildAnd(b, valid, LLVMBuildICmp(b, LLVMIntULT,
		                     src[3], jit_splat(c, IR_MAX_BUFFERS - in->aux),
		                     ""), "");
	lane_bindings(c, k, in->aux, src[3], valid, &ptrs, &ranges);
	return access(c, ptrs, lane_offsets(c, src[0], in->imm), bytes, need,
	              ranges, LLVMBuildAnd(b, on, valid, ""), val);
}

LLVMValueRef
jit_mem_emit(struct jit_ctx *c, const struct jit_chunk *k,
             const struct ir_instr *in, LLVMValueRef const src[4])
{
	const uint32_t need = in->aux2 == 8 ? 8 : 4;
	const uint32_t nb = in->aux2 == 1 ? 1 : 2;   /* N forms */
	LLVMValueRef base, range;

	switch ((enum ir_op)in->op) {
	case IR_LDBUF:
		binding(c, k, in->aux, &base, &range);
		if (in->a == IR_REG_ZERO)
			return uniform_load(c, k, base, in->imm, need, 4, range);
		if (need == 4)
			return access32(c, base, src[0], in->imm, range, k->active,
			                NULL);
		return access(c, base, lane_offsets(c, src[0], in->imm), 4, need,
		              range, k->active, NULL);
	case IR_STBUF:
		binding(c, k, in->aux, &base, &range);
		if (need == 4)
			return access32(c, base, src[0], in->imm, range,
			                k->store_active, src[1]);
		return access(c, base, lane_offsets(c, src[0], in->imm), 4, need,
		              range, k->store_active, src[1]);
	case IR_LDPUSH: case IR_LDPUSHN: {
		const uint32_t bytes = in->op == IR_LDPUSH ? 4 : nb;
		LLVMBasicBlockRef here = to_entry(c, k);
		LLVMValueRef d = jit_frame_load(c, k->frame,
		                                offsetof(struct jit_frame, d),
		                                ptr_type(c));
		LLVMValueRef po = LLVMConstInt(c->i64,
		                               offsetof(struct ir_dispatch, push),
		                               false);

		base = LLVMBuildGEP2(c->b, c->i8, d, &po, 1, "");
		back_to(c, here);
		range = LLVMConstInt(c->i64, sizeof(((struct ir_dispatch *)0)->push),
		                     false);
		if (in->a == IR_REG_ZERO)
			return uniform_load(c, k, base, in->imm, bytes, bytes,
			                    range);
		return access(c, base, lane_offsets(c, src[0], in->imm), bytes,
		              bytes, range, k->active, NULL);
	}
	case IR_LDSH: case IR_STSH:
		base = shared_base(c, k);
		range = LLVMConstInt(c->i64, k->p->shared_bytes, false);
		return access32(c, base, src[0], in->imm, range, k->active,
		                in->op == IR_STSH ? src[1] : NULL);
	case IR_LDSHN: case IR_STSHN:
		base = shared_base(c, k);
		range = LLVMConstInt(c->i64, k->p->shared_bytes, false);
		return access(c, base, lane_offsets(c, src[0], in->imm), nb, nb,
		              range, k->active, in->op == IR_STSHN ? src[1]
		                                                  : NULL);
	case IR_LDX:
		return indexed_reg(c, k, in, src[0], NULL);
	case IR_STX:
		return indexed_reg(c, k, in, src[0], src[3]);
	case IR_ARRLEN: {
		LLVMBuilderRef b = c->b;
		LLVMValueRef imm = LLVMConstInt(c->i64, in->imm, false);

		binding(c, k, in->aux, NULL, &range);
		LLVMValueRef q = LLVMBuildUDiv(b, LLVMBuildSub(b, range, imm, ""),
		                               LLVMConstInt(c->i64, in->b, false),
		                               "");
		LLVMValueRef v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT,
		                                 range, imm, ""), q,
		                                 LLVMConstInt(c->i64, 0, false), "");

		return splat(c, LLVMBuildTrunc(b, v, c->i32, ""));
	}
	case IR_LDBUFX:
		return indexed_buffer(c, k, in, src, 4, need, k->active, NULL);
	case IR_STBUFX:
		return indexed_buffer(c, k, in, src, 4, need, k->store_active,
		                      src[1]);
	case IR_LDBUFN: case IR_STBUFN: {
		const bool st = in->op == IR_STBUFN;
		LLVMValueRef on = st ? k->store_active : k->active;

		if (in->d)
			return indexed_buffer(c, k, in, src, nb, nb, on,
			                      st ? src[1] : NULL);
		binding(c, k, in->aux, &base, &range);
		return access(c, base, lane_offsets(c, src[0], in->imm), nb, nb,
		              range, on, st ? src[1] : NULL);
	}
	default:
		return NULL;
	}
}
