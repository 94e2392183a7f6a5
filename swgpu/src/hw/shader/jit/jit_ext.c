/* SPDX-License-Identifier: MIT */
/*
 * Instruction selection beyond jit_alu.c (jit_ext.h): transcendentals
 * and the rest of libm's float functions, frexp / ldexp, half and
 * norm packing, byte dot products, 64-bit integers and doubles on
 * register pairs, rounding toward zero. Each lane's result is bit for
 * bit the interpreter's:
 *  - 64-bit add, sub, mul, shifts, comparisons, int64 <-> float and the
 *    4x8 dot product are plain LLVM integer IR (wrapping, shift counts
 *    masked as interp_int64.c's, saturating float -> int64 through the
 *    fpto*i.sat intrinsics: NaN -> 0 as d2s64 / d2u64; int64 -> float
 *    rounds to nearest, as C's conversion);
 *  - everything else is one call per vector of swgpu_jit_lanes
 *    (jit_ext_lanes.c), the interpreter's instruction loop itself on
 *    those lanes: libm's very functions, the same helpers, the same
 *    rounding-mode switch. A vectorized libm (or LLVM's own expansion)
 *    would round differently in the last place.
 */
#include <string.h>

#include "jit_ext.h"
#include "jit_frame_op.h"

/* Source registers of a lane-call op (-1: not one). */
static int
lane_call_sources(const struct ir_instr *in)
{
	switch ((enum ir_op)in->op) {
	case IR_EXP: case IR_EXP2: case IR_LOG: case IR_LOG2: case IR_SIN:
	case IR_COS: case IR_TAN: case IR_ASIN: case IR_ACOS: case IR_ATAN:
	case IR_SINH: case IR_COSH: case IR_TANH: case IR_ASINH:
	case IR_ACOSH: case IR_ATANH: case IR_FREXPM: case IR_FREXPE:
	case IR_QUANT16: case IR_UNPACKH_LO: case IR_UNPACKH_HI:
	case IR_UNPACKUN4: case IR_UNPACKSN4: case IR_UNPACKUN2:
	case IR_UNPACKSN2: case IR_FTZ:
		return 1;
	case IR_FREM: case IR_POW: case IR_ATAN2: case IR_LDEXP:
	case IR_PACKH2: case IR_PACKUN2: case IR_PACKSN2:
		return 2;
	/* 64-bit division: LLVM would scalarize it anyway */
	case IR_UDIV64: case IR_SDIV64: case IR_UMOD64: case IR_SREM64:
	case IR_SMOD64: case IR_PACKUN4: case IR_PACKSN4:
		return 4;
	case IR_F64:
		/* f64_lane reads both pairs whatever the operation */
		return 4;
	case IR_RTZ:
		switch ((enum ir_op)in->imm) {
		case IR_S2F: case IR_U2F: return 1;
		case IR_FADD: case IR_FSUB: case IR_FMUL: case IR_FDIV:
		case IR_S64TOF: case IR_U64TOF: return 2;
		case IR_FMA: return 3;
		default: return -1;   /* interp_rtz.c has no other */
		}
	default:
		return -1;
	}
}

/* Source registers of an op emitted as LLVM IR here (-1: not one). */
static int
native_sources(const struct ir_instr *in)
{
	switch ((enum ir_op)in->op) {
	case IR_NOP:       /* left by ir_opt.c when not compacted */
		return 0;
	case IR_F2S64: case IR_F2U64:
		return 1;
	case IR_DOT4X8: case IR_S64TOF: case IR_U64TOF:
		return 2;
	case IR_SHL64: case IR_SHR64: case IR_SAR64:
		return 3;
	case IR_ADD64: case IR_SUB64: case IR_MUL64:
	case IR_IEQ64: case IR_INE64: case IR_ULT64: case IR_ULE64:
	case IR_UGT64: case IR_UGE64: case IR_SLT64: case IR_SLE64:
	case IR_SGT64: case IR_SGE64:
		return 4;
	default:
		return -1;
	}
}

int
jit_ext_sources(const struct ir_instr *in)
{
	int n = native_sources(in);

	return n >= 0 ? n : lane_call_sources(in);
}

uint32_t
jit_ext_results(const struct ir_instr *in)
{
	if (jit_ext_sources(in) < 0)
		return 0;
	switch ((enum ir_op)in->op) {
	case IR_NOP:
		return 0;
	case IR_ADD64: case IR_SUB64: case IR_MUL64: case IR_UDIV64:
	case IR_SDIV64: case IR_UMOD64: case IR_SREM64: case IR_SMOD64:
	case IR_SHL64: case IR_SHR64: case IR_SAR64: case IR_F2S64:
	case IR_F2U64:
		return 2;
	case IR_F64:
		/* f64_lane: comparisons and conversions to 32 bits write
		 * dst only */
		switch ((enum ir_f64)in->aux2) {
		case IR_D_OEQ: case IR_D_ONE: case IR_D_OLT: case IR_D_OLE:
		case IR_D_OGT: case IR_D_OGE: case IR_D_UEQ: case IR_D_UNE:
		case IR_D_ULT: case IR_D_ULE: case IR_D_UGT: case IR_D_UGE:
		case IR_D_ISNAN: case IR_D_ISINF: case IR_D_TO_F:
		case IR_D_TO_S: case IR_D_TO_U: case IR_D_TO_F_RTZ:
		case IR_D_TO_F_ODD:
			return 1;
		default:
			return 2;
		}
	default:
		return 1;
	}
}

/* ------------------------------------------------------------------ */
/* Lane calls                                                          */
/* ------------------------------------------------------------------ */

/* The segment function's io buffer (jit_ext.h), one alloca in its
 * entry block shared by all its lane calls (they run one after the
 * other): a stack slot per call in the loop would grow the stack every
 * iteration. */
static LLVMValueRef
io_buffer(struct jit_ctx *c)
{
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(c->b));

	if (c->ext_fn == fn && c->ext_io)
		return c->ext_io;
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
	LLVMValueRef first = LLVMGetFirstInstruction(entry);
	LLVMBuilderRef eb = LLVMCreateBuilderInContext(c->ctx);

	if (first)
		LLVMPositionBuilderBefore(eb, first);
	else
		LLVMPositionBuilderAtEnd(eb, entry);
	c->ext_io = LLVMBuildAlloca(eb, LLVMArrayType(c->i32, 6 * c->lanes),
	                            "io");
	LLVMSetAlignment(c->ext_io, 64);
	LLVMDisposeBuilder(eb);
	c->ext_fn = fn;
	return c->ext_io;
}

static LLVMValueRef
io_row(struct jit_ctx *c, LLVMValueRef io, uint32_t row)
{
	LLVMValueRef idx[2] = { LLVMConstInt(c->i32, 0, false),
	                        LLVMConstInt(c->i32, row * c->lanes, false) };

	return LLVMBuildInBoundsGEP2(c->b, LLVMArrayType(c->i32, 6 * c->lanes),
	                             io, idx, 2, "");
}

static void
add_fn_attr(struct jit_ctx *c, LLVMValueRef fn, const char *name)
{
	unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));

	if (kind)
		LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
		                        LLVMCreateEnumAttribute(c->ctx, kind, 0));
}

/* swgpu_jit_lanes on the sources; the results in *lo (and c->hi). */
static LLVMValueRef
emit_lane_call(struct jit_ctx *c, const struct ir_instr *in,
               LLVMValueRef const src[4], int nsrc)
{
	LLVMBuilderRef b = c->b;
	LLVMTypeRef ptr = LLVMPointerType(c->i32, 0);
	LLVMTypeRef params[5] = { ptr, c->i32, c->i32, c->i32, c->i32 };
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx),
	                                   params, 5, false);
	LLVMValueRef fn = LLVMGetNamedFunction(c->mod, JIT_LANES_SYMBOL);
	LLVMValueRef io = io_buffer(c);

	if (!fn) {
		fn = LLVMAddFunction(c->mod, JIT_LANES_SYMBOL, fty);
		/* touches io, errno and the FP environment only: LLVM may
		 * keep register values in vector registers across it */
		add_fn_attr(c, fn, "nounwind");
		add_fn_attr(c, fn, "inaccessiblemem_or_argmemonly");
	}
	for (int k = 0; k < nsrc; k++) {
		LLVMValueRef st = LLVMBuildStore(b, src[k], io_row(c, io, k));

		LLVMSetAlignment(st, 4);
	}
	LLVMValueRef args[5] = {
		io_row(c, io, 0), LLVMConstInt(c->i32, c->lanes, false),
		LLVMConstInt(c->i32, in->op, false),
		LLVMConstInt(c->i32, in->aux2, false),
		LLVMConstInt(c->i32, in->imm, false),
	};

	LLVMBuildCall2(b, fty, fn, args, 5, "");
	LLVMValueRef lo = LLVMBuildLoad2(b, c->vi32, io_row(c, io, 4), "");

	LLVMSetAlignment(lo, 4);
	if (jit_ext_results(in) == 2) {
		c->hi = LLVMBuildLoad2(b, c->vi32, io_row(c, io, 5), "");
		LLVMSetAlignment(c->hi, 4);
	}
	return lo;
}

/* ------------------------------------------------------------------ */
/* 64-bit integers and the byte dot product as LLVM IR                 */
/* ------------------------------------------------------------------ */

/* The 64-bit lanes of the pair (lo, hi). */
static LLVMValueRef
pair(struct jit_ctx *c, LLVMValueRef lo, LLVMValueRef hi)
{
	LLVMBuilderRef b = c->b;

	return LLVMBuildOr(b, LLVMBuildZExt(b, lo, c->vi64, ""),
	                   LLVMBuildShl(b, LLVMBuildZExt(b, hi, c->vi64, ""),
	                                jit_splat64(c, 32), ""), "");
}

/* r's low word; its high word in c->hi. */
static LLVMValueRef
split(struct jit_ctx *c, LLVMValueRef r)
{
	c->hi = LLVMBuildTrunc(c->b, LLVMBuildLShr(c->b, r, jit_splat64(c, 32),
	                                           ""), c->vi32, "");
	return LLVMBuildTrunc(c->b, r, c->vi32, "");
}

/* dot4x8 (interp_scalar.h): kind 0 s*s, 1 u*u, 2 s*u. */
static LLVMValueRef
emit_dot4x8(struct jit_ctx *c, LLVMValueRef a, LLVMValueRef bv,
            uint32_t kind)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef acc = jit_splat(c, 0), k24 = jit_splat(c, 24);

	for (uint32_t k = 0; k < 32; k += 8) {
		/* byte k/8 at the top, then down signed or unsigned */
		LLVMValueRef sh = jit_splat(c, 24 - k);
		LLVMValueRef x = LLVMBuildShl(b, a, sh, "");
		LLVMValueRef y = LLVMBuildShl(b, bv, sh, "");

		x = kind == 1 ? LLVMBuildLShr(b, x, k24, "")
		              : LLVMBuildAShr(b, x, k24, "");
		y = kind != 0 ? LLVMBuildLShr(b, y, k24, "")
		              : LLVMBuildAShr(b, y, k24, "");
		acc = LLVMBuildAdd(b, acc, LLVMBuildMul(b, x, y, ""), "");
	}
	return acc;
}

static LLVMValueRef
cmp64(struct jit_ctx *c, LLVMIntPredicate p, LLVMValueRef x, LLVMValueRef y)
{
	return LLVMBuildZExt(c->b, LLVMBuildICmp(c->b, p, x, y, ""), c->vi32,
	                     "");
}

static LLVMValueRef
emit_native(struct jit_ctx *c, const struct ir_instr *in,
            LLVMValueRef const src[4])
{
	LLVMBuilderRef b = c->b;
	enum ir_op op = (enum ir_op)in->op;

	if (op == IR_NOP)
		return NULL;       /* writes nothing */
	if (op == IR_DOT4X8)
		return emit_dot4x8(c, src[0], src[1], in->aux2);
	if (op == IR_F2S64 || op == IR_F2U64) {
		LLVMTypeRef t[2] = { c->vi64, c->vf32 };
		const char *name = op == IR_F2S64 ? "llvm.fptosi.sat"
		                                  : "llvm.fptoui.sat";
		LLVMValueRef x = LLVMBuildBitCast(b, src[0], c->vf32, "");

		return split(c, jit_intrinsic(c, name, t, 2, &x, 1));
	}
	LLVMValueRef x = pair(c, src[0], src[1]);

	switch (op) {
	case IR_S64TOF:
		return LLVMBuildBitCast(b, LLVMBuildSIToFP(b, x, c->vf32, ""),
		                        c->vi32, "");
	case IR_U64TOF:
		return LLVMBuildBitCast(b, LLVMBuildUIToFP(b, x, c->vf32, ""),
		                        c->vi32, "");
	case IR_SHL64: case IR_SHR64: case IR_SAR64: {
		LLVMValueRef n = LLVMBuildZExt(b, LLVMBuildAnd(b, src[2],
		                 jit_splat(c, 63), ""), c->vi64, "");

		return split(c, op == IR_SHL64 ? LLVMBuildShl(b, x, n, "")
		                : op == IR_SHR64 ? LLVMBuildLShr(b, x, n, "")
		                : LLVMBuildAShr(b, x, n, ""));
	}
	default:
		break;
	}
	LLVMValueRef y = pair(c, src[2], src[3]);

	switch (op) {
	case IR_ADD64: return split(c, LLVMBuildAdd(b, x, y, ""));
	case IR_SUB64: return split(c, LLVMBuildSub(b, x, y, ""));
	case IR_MUL64: return split(c, LLVMBuildMul(b, x, y, ""));
	case IR_IEQ64: return cmp64(c, LLVMIntEQ, x, y);
	case IR_INE64: return cmp64(c, LLVMIntNE, x, y);
	case IR_ULT64: return cmp64(c, LLVMIntULT, x, y);
	case IR_ULE64: return cmp64(c, LLVMIntULE, x, y);
	case IR_UGT64: return cmp64(c, LLVMIntUGT, x, y);
	case IR_UGE64: return cmp64(c, LLVMIntUGE, x, y);
	case IR_SLT64: return cmp64(c, LLVMIntSLT, x, y);
	case IR_SLE64: return cmp64(c, LLVMIntSLE, x, y);
	case IR_SGT64: return cmp64(c, LLVMIntSGT, x, y);
	default: return cmp64(c, LLVMIntSGE, x, y);   /* IR_SGE64 */
	}
}

LLVMValueRef
jit_ext_emit(struct jit_ctx *c, const struct ir_instr *in,
             LLVMValueRef const src[4])
{
	int n = native_sources(in);

	if (n >= 0)
		return emit_native(c, in, src);
	n = lane_call_sources(in);
	return n >= 0 ? emit_lane_call(c, in, src, n) : NULL;
}

LLVMErrorRef
jit_ext_define_symbols(LLVMOrcLLJITRef j, LLVMOrcJITDylibRef jd)
{
	const LLVMJITSymbolFlags flags = {
		.GenericFlags = LLVMJITSymbolGenericFlagsExported |
		                LLVMJITSymbolGenericFlagsCallable,
	};
	LLVMOrcCSymbolMapPair sym[3] = {
		{ .Name = LLVMOrcLLJITMangleAndIntern(j, JIT_LANES_SYMBOL),
		  .Sym = { .Address = (LLVMOrcExecutorAddress)(uintptr_t)
		                      &swgpu_jit_lanes, .Flags = flags } },
		/* jit_frame_op.h: the interpreter on the whole frame */
		{ .Name = LLVMOrcLLJITMangleAndIntern(j, JIT_FRAME_OP_SYMBOL),
		  .Sym = { .Address = (LLVMOrcExecutorAddress)(uintptr_t)
		                      &swgpu_jit_frame_op, .Flags = flags } },
		/* jit_loop.c: a compiled loop asks whether to stop */
		{ .Name = LLVMOrcLLJITMangleAndIntern(j, JIT_LOOP_STOP_SYMBOL),
		  .Sym = { .Address = (LLVMOrcExecutorAddress)(uintptr_t)
		                      &swgpu_jit_loop_stop, .Flags = flags } },
	};
	LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(sym, 3);
	LLVMErrorRef err = LLVMOrcJITDylibDefine(jd, mu);

	if (err)
		LLVMOrcDisposeMaterializationUnit(mu);
	return err;
}
