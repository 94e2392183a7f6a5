/* SPDX-License-Identifier: MIT */
/*
 * Instruction selection of the shader compiler: IR -> LLVM IR for the
 * per-lane integer and float instructions, conversions, comparisons and
 * selects. Every lane's result is bit for bit interp.c's (with
 * interp_scalar.h's helpers):
 *  - nothing LLVM leaves undefined is emitted: divisors are replaced
 *    before a division that would trap, shift counts masked, float to
 *    int conversions are the saturating intrinsics (NaN -> 0, as f2s /
 *    f2u);
 *  - no fast-math flag and no FMA contraction: every float operation
 *    rounds on its own, as the C the interpreter is built from (C11
 *    mode, -ffp-contract=off); IR_FMA is llvm.fma, fmaf's single
 *    rounding;
 *  - min/max are selects, not minnum (whose +0/-0 choice is open).
 * The other per-lane ops are jit_ext.c's; an instruction neither
 * selects runs in the interpreter.
 */
#include <math.h>
#include <string.h>

#include "jit_alu.h"
#include "jit_ext.h"

/* Sources read by each instruction selected here (-1: not one). */
static int
alu_sources(const struct ir_instr *in)
{
	switch ((enum ir_op)in->op) {
	case IR_MOV: case IR_INEG: case IR_NOT: case IR_BITREV:
	case IR_BITCOUNT: case IR_FINDLSB: case IR_FINDSMSB:
	case IR_FINDUMSB: case IR_SABS: case IR_SSIGN: case IR_ISNAN:
	case IR_ISINF: case IR_LNOT: case IR_FNEG: case IR_FABS:
	case IR_FSIGN: case IR_FLOOR: case IR_CEIL: case IR_FRACT:
	case IR_ROUND: case IR_ROUNDEVEN: case IR_TRUNC: case IR_SQRT:
	case IR_RSQRT: case IR_RADIANS: case IR_DEGREES: case IR_F2S:
	case IR_F2U: case IR_S2F: case IR_U2F:
		return 1;
	case IR_FTZ:
		return in->aux2 == 32 || in->aux2 == 16 ||
		       in->aux2 == IR_FTZ_HALF_IN_F32 ? 1 : -1;
	case IR_IADD: case IR_ISUB: case IR_IMUL: case IR_UDIV:
	case IR_SDIV: case IR_UMOD: case IR_SREM: case IR_SMOD:
	case IR_UMULHI: case IR_SMULHI: case IR_ADDCARRY: case IR_SUBBORROW:
	case IR_SHL: case IR_SHR: case IR_SAR: case IR_AND: case IR_OR:
	case IR_XOR: case IR_SMIN: case IR_SMAX: case IR_UMIN: case IR_UMAX:
	case IR_ADDSAT_S: case IR_ADDSAT_U: case IR_UMULSAT:
	case IR_IEQ: case IR_INE: case IR_ULT: case IR_ULE: case IR_UGT:
	case IR_UGE: case IR_SLT: case IR_SLE: case IR_SGT: case IR_SGE:
	case IR_FOEQ: case IR_FONE: case IR_FOLT: case IR_FOLE:
	case IR_FOGT: case IR_FOGE: case IR_FUEQ: case IR_FUNE:
	case IR_FULT: case IR_FULE: case IR_FUGT: case IR_FUGE:
	case IR_FORD: case IR_FUNORD: case IR_FADD: case IR_FSUB:
	case IR_FMUL: case IR_FDIV: case IR_FMOD: case IR_FMIN:
	case IR_FMAX: case IR_STEP:
		return 2;
	case IR_BFE_U: case IR_BFE_S: case IR_SCLAMP: case IR_UCLAMP:
	case IR_SELECT: case IR_SELIDX: case IR_FCLAMP: case IR_FMIX:
	case IR_FMA: case IR_SSTEP: case IR_FMULADD: case IR_FADDMUL:
		return 3;
	case IR_BFI: case IR_FMULADD2: case IR_FMULSUB2:
		return 4;
	default:
		return -1;
	}
}

/* The ops of this file, then jit_ext.c's. */
int
jit_alu_sources(const struct ir_instr *in)
{
	int n = alu_sources(in);

	return n >= 0 ? n : jit_ext_sources(in);
}

uint32_t
jit_alu_results(const struct ir_instr *in)
{
	return alu_sources(in) >= 0 ? 1 : jit_ext_results(in);
}

LLVMValueRef
jit_splat64(struct jit_ctx *c, uint64_t v)
{
	LLVMValueRef k[16];

	for (uint32_t l = 0; l < c->lanes; l++)
		k[l] = LLVMConstInt(c->i64, v, false);
	return LLVMConstVector(k, c->lanes);
}

LLVMValueRef
jit_splat(struct jit_ctx *c, uint32_t v)
{
	LLVMValueRef k[16];

	for (uint32_t l = 0; l < c->lanes; l++)
		k[l] = LLVMConstInt(c->i32, v, false);
	return LLVMConstVector(k, c->lanes);
}

static LLVMValueRef
splat_f(struct jit_ctx *c, float f)
{
	LLVMValueRef k[16];

	/* a float constant made exact: the double holds f's value */
	for (uint32_t l = 0; l < c->lanes; l++)
		k[l] = LLVMConstReal(c->f32, (double)f);
	return LLVMConstVector(k, c->lanes);
}

static LLVMValueRef
as_f(struct jit_ctx *c, LLVMValueRef v)
{
	return LLVMBuildBitCast(c->b, v, c->vf32, "");
}

static LLVMValueRef
as_i(struct jit_ctx *c, LLVMValueRef v)
{
	return LLVMBuildBitCast(c->b, v, c->vi32, "");
}

/* 0/1 lanes from a vector of i1. */
static LLVMValueRef
bool32(struct jit_ctx *c, LLVMValueRef v)
{
	return LLVMBuildZExt(c->b, v, c->vi32, "");
}

static LLVMValueRef
icmp(struct jit_ctx *c, LLVMIntPredicate p, LLVMValueRef x, LLVMValueRef y)
{
	return LLVMBuildICmp(c->b, p, x, y, "");
}

static LLVMValueRef
fcmp(struct jit_ctx *c, LLVMRealPredicate p, LLVMValueRef x, LLVMValueRef y)
{
	return LLVMBuildFCmp(c->b, p, as_f(c, x), as_f(c, y), "");
}

static LLVMValueRef
sel(struct jit_ctx *c, LLVMValueRef cond, LLVMValueRef x, LLVMValueRef y)
{
	return LLVMBuildSelect(c->b, cond, x, y, "");
}

LLVMValueRef
jit_intrinsic(struct jit_ctx *c, const char *name, LLVMTypeRef *types,
              unsigned ntypes, LLVMValueRef *args, unsigned nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(c->mod, id, types,
	                                              ntypes);
	LLVMTypeRef ty = LLVMIntrinsicGetType(c->ctx, id, types, ntypes);

	return LLVMBuildCall2(c->b, ty, fn, args, nargs, "");
}

/* A float intrinsic of one or three vf32 operands, as vi32. */
static LLVMValueRef
fcall(struct jit_ctx *c, const char *name, LLVMValueRef x, LLVMValueRef y,
      LLVMValueRef z)
{
	LLVMValueRef args[3] = { as_f(c, x), y ? as_f(c, y) : NULL,
	                         z ? as_f(c, z) : NULL };

	return as_i(c, jit_intrinsic(c, name, &c->vf32, 1, args, z ? 3 : 1));
}

static LLVMValueRef
icall(struct jit_ctx *c, const char *name, LLVMValueRef x, LLVMValueRef y)
{
	LLVMValueRef args[2] = { x, y };

	return jit_intrinsic(c, name, &c->vi32, 1, args, y ? 2 : 1);
}

/* Float arithmetic on vi32 operands, result vi32. */
static LLVMValueRef
fop(struct jit_ctx *c, LLVMOpcode op, LLVMValueRef x, LLVMValueRef y)
{
	return as_i(c, LLVMBuildBinOp(c->b, op, as_f(c, x), as_f(c, y), ""));
}

/* fmin_n / fmax_n (interp_scalar.h): a NaN gives the other operand,
 * equal operands the first. */
static LLVMValueRef
fminmax(struct jit_ctx *c, LLVMValueRef x, LLVMValueRef y, bool max)
{
	LLVMValueRef pick = fcmp(c, max ? LLVMRealOGE : LLVMRealOLE, x, y);
	LLVMValueRef r = sel(c, pick, x, y);

	r = sel(c, fcmp(c, LLVMRealUNO, y, y), x, r);
	return sel(c, fcmp(c, LLVMRealUNO, x, x), y, r);
}

/* bfmask(n) (interp_scalar.h): n >= 32 ? ~0 : (1 << n) - 1. */
static LLVMValueRef
bfmask(struct jit_ctx *c, LLVMValueRef n)
{
	LLVMValueRef one = jit_splat(c, 1);
	LLVMValueRef m = LLVMBuildSub(c->b, LLVMBuildShl(c->b, one,
	                              LLVMBuildAnd(c->b, n, jit_splat(c, 31),
	                                           ""), ""), one, "");

	return sel(c, icmp(c, LLVMIntUGE, n, jit_splat(c, 32)),
	           jit_splat(c, ~0u), m);
}

/* bfe (interp_scalar.h). */
static LLVMValueRef
emit_bfe(struct jit_ctx *c, LLVMValueRef v, LLVMValueRef off,
         LLVMValueRef cnt, bool sext)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef k31 = jit_splat(c, 31), k32 = jit_splat(c, 32);
	LLVMValueRef o = LLVMBuildAnd(b, off, k31, "");
	LLVMValueRef room = LLVMBuildSub(b, k32, o, "");
	LLVMValueRef n = sel(c, icmp(c, LLVMIntUGT, cnt, room), room, cnt);
	LLVMValueRef r = LLVMBuildAnd(b, LLVMBuildLShr(b, v, o, ""),
	                              bfmask(c, n), "");

	if (sext) {
		/* n in 1..32: shift the field's top bit to bit 31 and back */
		LLVMValueRef sh = LLVMBuildAnd(b, LLVMBuildSub(b, k32, n, ""),
		                               k31, "");

		r = LLVMBuildAShr(b, LLVMBuildShl(b, r, sh, ""), sh, "");
	}
	return sel(c, icmp(c, LLVMIntEQ, n, jit_splat(c, 0)),
	           jit_splat(c, 0), r);
}

/* IR_BFI as interp.c. */
static LLVMValueRef
emit_bfi(struct jit_ctx *c, LLVMValueRef base, LLVMValueRef ins,
         LLVMValueRef off, LLVMValueRef cnt)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef o = LLVMBuildAnd(b, off, jit_splat(c, 31), "");
	LLVMValueRef room = LLVMBuildSub(b, jit_splat(c, 32), o, "");
	LLVMValueRef n = sel(c, icmp(c, LLVMIntUGE, cnt, room), room, cnt);
	LLVMValueRef mk = LLVMBuildShl(b, bfmask(c, n), o, "");

	return LLVMBuildOr(b, LLVMBuildAnd(b, base, LLVMBuildNot(b, mk, ""),
	                                   ""),
	                   LLVMBuildAnd(b, LLVMBuildShl(b, ins, o, ""), mk, ""),
	                   "");
}

/* Integer division and remainder with interp.c's results where C (and
 * LLVM) have none: x / 0, x % 0, INT_MIN / -1. */
static LLVMValueRef
emit_div(struct jit_ctx *c, enum ir_op op, LLVMValueRef x, LLVMValueRef y)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef zero = jit_splat(c, 0), ones = jit_splat(c, ~0u);
	LLVMValueRef one = jit_splat(c, 1);
	LLVMValueRef y0 = icmp(c, LLVMIntEQ, y, zero);
	LLVMValueRef ym1 = icmp(c, LLVMIntEQ, y, ones);
	LLVMValueRef bad = LLVMBuildOr(b, y0, ym1, "");

	switch (op) {
	case IR_UDIV:
		return sel(c, y0, ones, LLVMBuildUDiv(b, x, sel(c, y0, one, y),
		                                      ""));
	case IR_UMOD:
		return sel(c, y0, ones, LLVMBuildURem(b, x, sel(c, y0, one, y),
		                                      ""));
	case IR_SDIV:
		return sel(c, y0, ones, sel(c, ym1, LLVMBuildSub(b, zero, x, ""),
		           LLVMBuildSDiv(b, x, sel(c, bad, one, y), "")));
	default: {     /* SREM, SMOD */
		LLVMValueRef r = sel(c, bad, zero,
		                     LLVMBuildSRem(b, x, sel(c, bad, one, y),
		                                   ""));

		if (op == IR_SREM)
			return r;
		/* r && (r < 0) != (y < 0): r + y */
		LLVMValueRef fix = LLVMBuildAnd(b,
			icmp(c, LLVMIntNE, r, zero),
			LLVMBuildXor(b, icmp(c, LLVMIntSLT, r, zero),
			             icmp(c, LLVMIntSLT, y, zero), ""), "");

		return sel(c, fix, LLVMBuildAdd(b, r, y, ""), r);
	}
	}
}

/* High word of the 64-bit product. */
static LLVMValueRef
emit_mulhi(struct jit_ctx *c, LLVMValueRef x, LLVMValueRef y, bool sgn)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef x64 = sgn ? LLVMBuildSExt(b, x, c->vi64, "")
	                       : LLVMBuildZExt(b, x, c->vi64, "");
	LLVMValueRef y64 = sgn ? LLVMBuildSExt(b, y, c->vi64, "")
	                       : LLVMBuildZExt(b, y, c->vi64, "");
	LLVMValueRef k[16];

	for (uint32_t l = 0; l < c->lanes; l++)
		k[l] = LLVMConstInt(c->i64, 32, false);
	return LLVMBuildTrunc(b, LLVMBuildLShr(b, LLVMBuildMul(b, x64, y64,
	                      ""), LLVMConstVector(k, c->lanes), ""),
	                      c->vi32, "");
}

/* Integer instructions; NULL: not one of them. */
static LLVMValueRef
emit_int(struct jit_ctx *c, const struct ir_instr *in, LLVMValueRef A,
         LLVMValueRef B, LLVMValueRef C, LLVMValueRef D)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef zero = jit_splat(c, 0), k31 = jit_splat(c, 31);

	switch ((enum ir_op)in->op) {
	case IR_MOV: return A;
	case IR_IADD: return LLVMBuildAdd(b, A, B, "");
	case IR_ISUB: return LLVMBuildSub(b, A, B, "");
	case IR_IMUL: return LLVMBuildMul(b, A, B, "");
	case IR_UDIV: case IR_SDIV: case IR_UMOD: case IR_SREM: case IR_SMOD:
		return emit_div(c, (enum ir_op)in->op, A, B);
	case IR_INEG: return LLVMBuildSub(b, zero, A, "");
	case IR_UMULHI: return emit_mulhi(c, A, B, false);
	case IR_SMULHI: return emit_mulhi(c, A, B, true);
	case IR_ADDCARRY:
		return bool32(c, icmp(c, LLVMIntULT, LLVMBuildAdd(b, A, B, ""),
		                      A));
	case IR_SUBBORROW: return bool32(c, icmp(c, LLVMIntULT, A, B));
	case IR_SHL: return LLVMBuildShl(b, A, LLVMBuildAnd(b, B, k31, ""), "");
	case IR_SHR: return LLVMBuildLShr(b, A, LLVMBuildAnd(b, B, k31, ""),
	                                  "");
	case IR_SAR: return LLVMBuildAShr(b, A, LLVMBuildAnd(b, B, k31, ""),
	                                  "");
	case IR_AND: return LLVMBuildAnd(b, A, B, "");
	case IR_OR: return LLVMBuildOr(b, A, B, "");
	case IR_XOR: return LLVMBuildXor(b, A, B, "");
	case IR_NOT: return LLVMBuildNot(b, A, "");
	case IR_BFI: return emit_bfi(c, A, B, C, D);
	case IR_BFE_U: return emit_bfe(c, A, B, C, false);
	case IR_BFE_S: return emit_bfe(c, A, B, C, true);
	case IR_BITREV: return icall(c, "llvm.bitreverse", A, NULL);
	case IR_BITCOUNT: return icall(c, "llvm.ctpop", A, NULL);
	case IR_FINDLSB:
		return sel(c, icmp(c, LLVMIntEQ, A, zero), jit_splat(c, ~0u),
		           icall(c, "llvm.cttz", A,
		                 LLVMConstInt(c->i1, 0, false)));
	case IR_FINDUMSB: case IR_FINDSMSB: {
		/* 31 - ctlz(v): ctlz(0) = 32 gives UINT32_MAX, as interp */
		LLVMValueRef v = A;

		if (in->op == IR_FINDSMSB)
			v = sel(c, icmp(c, LLVMIntSLT, A, zero),
			        LLVMBuildNot(b, A, ""), A);
		return LLVMBuildSub(b, k31, icall(c, "llvm.ctlz", v,
		                    LLVMConstInt(c->i1, 0, false)), "");
	}
	case IR_SMIN: return sel(c, icmp(c, LLVMIntSLT, A, B), A, B);
	case IR_SMAX: return sel(c, icmp(c, LLVMIntSGT, A, B), A, B);
	case IR_UMIN: return sel(c, icmp(c, LLVMIntULT, A, B), A, B);
	case IR_UMAX: return sel(c, icmp(c, LLVMIntUGT, A, B), A, B);
	case IR_SCLAMP:
		return sel(c, icmp(c, LLVMIntSLT, A, B), B,
		           sel(c, icmp(c, LLVMIntSGT, A, C), C, A));
	case IR_UCLAMP:
		return sel(c, icmp(c, LLVMIntULT, A, B), B,
		           sel(c, icmp(c, LLVMIntUGT, A, C), C, A));
	case IR_SABS:
		return sel(c, icmp(c, LLVMIntSLT, A, zero),
		           LLVMBuildSub(b, zero, A, ""), A);
	case IR_SSIGN:
		return sel(c, icmp(c, LLVMIntSGT, A, zero), jit_splat(c, 1),
		           sel(c, icmp(c, LLVMIntSLT, A, zero),
		               jit_splat(c, ~0u), zero));
	case IR_ADDSAT_S: return icall(c, "llvm.sadd.sat", A, B);
	case IR_ADDSAT_U: return icall(c, "llvm.uadd.sat", A, B);
	case IR_UMULSAT: {
		LLVMValueRef p = LLVMBuildMul(b, LLVMBuildZExt(b, A, c->vi64, ""),
		                              LLVMBuildZExt(b, B, c->vi64, ""),
		                              "");
		LLVMValueRef k[16];

		for (uint32_t l = 0; l < c->lanes; l++)
			k[l] = LLVMConstInt(c->i64, UINT32_MAX, false);
		return sel(c, LLVMBuildICmp(b, LLVMIntUGT, p,
		                            LLVMConstVector(k, c->lanes), ""),
		           jit_splat(c, UINT32_MAX),
		           LLVMBuildTrunc(b, p, c->vi32, ""));
	}
	case IR_IEQ: return bool32(c, icmp(c, LLVMIntEQ, A, B));
	case IR_INE: return bool32(c, icmp(c, LLVMIntNE, A, B));
	case IR_ULT: return bool32(c, icmp(c, LLVMIntULT, A, B));
	case IR_ULE: return bool32(c, icmp(c, LLVMIntULE, A, B));
	case IR_UGT: return bool32(c, icmp(c, LLVMIntUGT, A, B));
	case IR_UGE: return bool32(c, icmp(c, LLVMIntUGE, A, B));
	case IR_SLT: return bool32(c, icmp(c, LLVMIntSLT, A, B));
	case IR_SLE: return bool32(c, icmp(c, LLVMIntSLE, A, B));
	case IR_SGT: return bool32(c, icmp(c, LLVMIntSGT, A, B));
	case IR_SGE: return bool32(c, icmp(c, LLVMIntSGE, A, B));
	case IR_LNOT: return bool32(c, icmp(c, LLVMIntEQ, A, zero));
	case IR_SELECT: return sel(c, icmp(c, LLVMIntNE, A, zero), B, C);
	case IR_SELIDX:
		return sel(c, icmp(c, LLVMIntEQ, A, jit_splat(c, in->imm)), B, C);
	default:
		return NULL;
	}
}

/* smoothstep as interp_scalar.h's sstep. */
static LLVMValueRef
emit_sstep(struct jit_ctx *c, LLVMValueRef e0, LLVMValueRef e1,
           LLVMValueRef v)
{
	LLVMValueRef t = fop(c, LLVMFDiv, fop(c, LLVMFSub, v, e0),
	                     fop(c, LLVMFSub, e1, e0));

	t = fminmax(c, fminmax(c, t, as_i(c, splat_f(c, 0.0f)), true),
	            as_i(c, splat_f(c, 1.0f)), false);
	return fop(c, LLVMFMul, fop(c, LLVMFMul, t, t),
	           fop(c, LLVMFSub, as_i(c, splat_f(c, 3.0f)),
	               fop(c, LLVMFMul, as_i(c, splat_f(c, 2.0f)), t)));
}

/* IR_FTZ (flush_denorm in interp_scalar.h). */
static LLVMValueRef
emit_ftz(struct jit_ctx *c, LLVMValueRef u, uint32_t width)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef zero = jit_splat(c, 0);

	if (width == 16)
		return sel(c, icmp(c, LLVMIntNE, LLVMBuildAnd(b, u,
		           jit_splat(c, 0x7c00u), ""), zero), u,
		           LLVMBuildAnd(b, u, jit_splat(c, 0x8000u), ""));
	LLVMValueRef sign = LLVMBuildAnd(b, u, jit_splat(c, 0x80000000u), "");
	LLVMValueRef expo = LLVMBuildAnd(b, u, jit_splat(c, 0x7f800000u), "");

	if (width == 32)
		return sel(c, icmp(c, LLVMIntNE, expo, zero), u, sign);
	LLVMValueRef keep = LLVMBuildOr(b,
		icmp(c, LLVMIntUGE, LLVMBuildAnd(b, u, jit_splat(c, 0x7fffffffu),
		                                 ""), jit_splat(c, 0x38800000u)),
		icmp(c, LLVMIntEQ, expo, jit_splat(c, 0x7f800000u)), "");

	return sel(c, keep, u, sign);
}

/* Float instructions and conversions; NULL: not one of them. */
static LLVMValueRef
emit_float(struct jit_ctx *c, const struct ir_instr *in, LLVMValueRef A,
           LLVMValueRef B, LLVMValueRef C, LLVMValueRef D)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef one = as_i(c, splat_f(c, 1.0f));
	LLVMValueRef zero = as_i(c, splat_f(c, 0.0f));

	switch ((enum ir_op)in->op) {
	case IR_FOEQ: return bool32(c, fcmp(c, LLVMRealOEQ, A, B));
	case IR_FONE: return bool32(c, fcmp(c, LLVMRealONE, A, B));
	case IR_FOLT: return bool32(c, fcmp(c, LLVMRealOLT, A, B));
	case IR_FOLE: return bool32(c, fcmp(c, LLVMRealOLE, A, B));
	case IR_FOGT: return bool32(c, fcmp(c, LLVMRealOGT, A, B));
	case IR_FOGE: return bool32(c, fcmp(c, LLVMRealOGE, A, B));
	case IR_FUEQ: return bool32(c, fcmp(c, LLVMRealUEQ, A, B));
	case IR_FUNE: return bool32(c, fcmp(c, LLVMRealUNE, A, B));
	case IR_FULT: return bool32(c, fcmp(c, LLVMRealULT, A, B));
	case IR_FULE: return bool32(c, fcmp(c, LLVMRealULE, A, B));
	case IR_FUGT: return bool32(c, fcmp(c, LLVMRealUGT, A, B));
	case IR_FUGE: return bool32(c, fcmp(c, LLVMRealUGE, A, B));
	case IR_FORD: return bool32(c, fcmp(c, LLVMRealORD, A, B));
	case IR_FUNORD: return bool32(c, fcmp(c, LLVMRealUNO, A, B));
	case IR_ISNAN: return bool32(c, fcmp(c, LLVMRealUNO, A, A));
	case IR_ISINF:
		return bool32(c, fcmp(c, LLVMRealOEQ,
		                      fcall(c, "llvm.fabs", A, NULL, NULL),
		                      as_i(c, splat_f(c, INFINITY))));
	case IR_FADD: return fop(c, LLVMFAdd, A, B);
	case IR_FSUB: return fop(c, LLVMFSub, A, B);
	case IR_FMUL: return fop(c, LLVMFMul, A, B);
	case IR_FDIV: return fop(c, LLVMFDiv, A, B);
	case IR_FMOD:
		return fop(c, LLVMFSub, A, fop(c, LLVMFMul, B,
		           fcall(c, "llvm.floor", fop(c, LLVMFDiv, A, B),
		                 NULL, NULL)));
	case IR_FNEG: return as_i(c, LLVMBuildFNeg(b, as_f(c, A), ""));
	case IR_FMIN: return fminmax(c, A, B, false);
	case IR_FMAX: return fminmax(c, A, B, true);
	case IR_FCLAMP: return fminmax(c, fminmax(c, A, B, true), C, false);
	case IR_FMIX:
		return fop(c, LLVMFAdd, fop(c, LLVMFMul, A,
		                            fop(c, LLVMFSub, one, C)),
		           fop(c, LLVMFMul, B, C));
	case IR_FMA: return fcall(c, "llvm.fma", A, B, C);
	case IR_STEP: return sel(c, fcmp(c, LLVMRealOLT, B, A), zero, one);
	case IR_SSTEP: return emit_sstep(c, A, B, C);
	case IR_FABS: return fcall(c, "llvm.fabs", A, NULL, NULL);
	case IR_FSIGN:
		return sel(c, fcmp(c, LLVMRealOGT, A, zero), one,
		           sel(c, fcmp(c, LLVMRealOLT, A, zero),
		               as_i(c, splat_f(c, -1.0f)), A));
	case IR_FLOOR: return fcall(c, "llvm.floor", A, NULL, NULL);
	case IR_CEIL: return fcall(c, "llvm.ceil", A, NULL, NULL);
	case IR_FRACT:
		return fop(c, LLVMFSub, A, fcall(c, "llvm.floor", A, NULL, NULL));
	case IR_ROUND: return fcall(c, "llvm.round", A, NULL, NULL);
	/* rintf in the default rounding mode: ties to even */
	case IR_ROUNDEVEN: return fcall(c, "llvm.rint", A, NULL, NULL);
	case IR_TRUNC: return fcall(c, "llvm.trunc", A, NULL, NULL);
	case IR_SQRT: return fcall(c, "llvm.sqrt", A, NULL, NULL);
	case IR_RSQRT:
		return fop(c, LLVMFDiv, one, fcall(c, "llvm.sqrt", A, NULL, NULL));
	case IR_RADIANS:
		return fop(c, LLVMFMul, A, as_i(c, splat_f(c,
		           0.017453292519943295f)));
	case IR_DEGREES:
		return fop(c, LLVMFMul, A, as_i(c, splat_f(c,
		           57.29577951308232f)));
	case IR_FMULADD2: case IR_FMULSUB2:
		return fop(c, in->op == IR_FMULADD2 ? LLVMFAdd : LLVMFSub,
		           fop(c, LLVMFMul, A, B), fop(c, LLVMFMul, C, D));
	case IR_FMULADD: return fop(c, LLVMFAdd, fop(c, LLVMFMul, A, B), C);
	case IR_FADDMUL: return fop(c, LLVMFAdd, A, fop(c, LLVMFMul, B, C));
	case IR_FTZ: return emit_ftz(c, A, in->aux2);
	case IR_F2S: case IR_F2U: {
		LLVMTypeRef t[2] = { c->vi32, c->vf32 };
		LLVMValueRef x = as_f(c, A);

		return jit_intrinsic(c, in->op == IR_F2S ? "llvm.fptosi.sat"
		                                     : "llvm.fptoui.sat",
		                 t, 2, &x, 1);
	}
	case IR_S2F: return as_i(c, LLVMBuildSIToFP(b, A, c->vf32, ""));
	case IR_U2F: return as_i(c, LLVMBuildUIToFP(b, A, c->vf32, ""));
	default:
		return NULL;
	}
}

LLVMValueRef
jit_alu_emit(struct jit_ctx *c, const struct ir_instr *in,
             LLVMValueRef const src[4])
{
	c->hi = NULL;
	if (alu_sources(in) < 0)
		return jit_ext_emit(c, in, src);
	LLVMValueRef v = emit_int(c, in, src[0], src[1], src[2], src[3]);

	return v ? v : emit_float(c, in, src[0], src[1], src[2], src[3]);
}
