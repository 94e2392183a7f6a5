/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter of the shader IR.
 *
 * A workgroup (or a graphics batch) runs as one group of lanes
 * (interp_run.c). Each step picks the lowest block index any live lane
 * sits at, builds the mask of lanes there and runs that block's
 * instructions (interp_exec_block, here); each instruction is one switch
 * dispatch followed by a tight loop over the lanes, so decoding cost is
 * paid once per instruction, not once per invocation. Since the whole
 * workgroup steps together, OpControlBarrier needs no waiting, and
 * shared memory is private to the thread running the workgroup.
 *
 * Defined results for what SPIR-V leaves undefined (so nothing traps):
 * integer division by zero gives all ones (UDiv/SDiv/UMod) or 0
 * (SRem/SMod); INT_MIN / -1 wraps; shift counts are taken modulo 32;
 * float -> int conversions saturate and map NaN to 0.
 */
/* The lane loops are the whole cost of a shader: let GCC vectorize them
 * with its full cost model (plain -O2 only vectorizes loops that need no
 * runtime alias checks, and register operands may alias). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("O3")
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include <swgpu/swgpu.h>

#include "interp_half.h"
#include "interp_mask.h"
#include "interp_scalar.h"
#include "interp_util.h"

/* ------------------------------------------------------------------ */
/* Block execution                                                     */
/* ------------------------------------------------------------------ */

/* True when lane l accesses byte offset A[0] + imm + 4 l, all inside the
 * range: the access is one memcpy (the common a[gl_GlobalInvocationID]). */
#if defined(__SANITIZE_THREAD__)
static unsigned interp_fence_word;
#endif

static inline bool
contiguous(const lane_t *A, uint32_t W, uint32_t imm, uint64_t range)
{
	uint32_t base = A[0].u, bad = 0;

	if ((uint64_t)base + imm + (uint64_t)W * 4 > range)
		return false;
	for (uint32_t l = 0; l < W; l++)
		bad |= A[l].u ^ (base + 4 * l);
	return !bad;
}

/* Any NaN among the W lanes of A and B? Without one, fmin_n / fmax_n
 * are plain comparisons (interp_scalar.h) and the loop vectorizes. */
static inline bool
any_nan(const lane_t *A, const lane_t *B, uint32_t W)
{
	uint32_t nan = 0;

	for (uint32_t l = 0; l < W; l++)
		nan |= (uint32_t)(A[l].f != A[l].f) | (uint32_t)(B[l].f != B[l].f);
	return nan != 0;
}

/*
 * IR_DERIV: lane l takes A[(l & cl) + st] - A[l & cl] (interp_exec_block
 * says which lanes). Quads whose four lanes are all active (m NULL: all
 * are) do it a quad per SSE vector, the same subtraction per lane;
 * lane i of a quad takes A[hi(i)] - A[lo(i)]:
 *   DX_FINE   lo = (0, 0, 2, 2), hi = (1, 1, 3, 3)
 *   DY_FINE   lo = (0, 1, 0, 1), hi = (2, 3, 2, 3)
 *   DX_COARSE lo = (0, 0, 0, 0), hi = (1, 1, 1, 1)
 *   DY_COARSE lo = (0, 0, 0, 0), hi = (2, 2, 2, 2)
 */
static void
deriv_quads(lane_t *D, const lane_t *A, uint32_t W, uint32_t kind,
            const uint8_t *m, uint32_t cl, uint32_t st)
{
	for (uint32_t q = 0; q < W; q += 4) {
		if (m && !(m[q] && m[q + 1] && m[q + 2] && m[q + 3])) {
			/* every difference before any store: D may be A */
			float r[4];

			for (uint32_t i = 0; i < 4; i++)
				r[i] = A[((q + i) & cl) + st].f -
				       A[(q + i) & cl].f;
			for (uint32_t i = 0; i < 4; i++)
				if (m[q + i])
					D[q + i].f = r[i];
			continue;
		}
#if defined(__SSE2__)
		const __m128 v = _mm_loadu_ps(&A[q].f);
		__m128 lo, hi;

		switch (kind) {
		case IR_DX_FINE:
			lo = _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 0, 0));
			hi = _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 1, 1));
			break;
		case IR_DY_FINE:
			lo = _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 1, 0));
			hi = _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 2, 3, 2));
			break;
		case IR_DX_COARSE:
			lo = _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0));
			hi = _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1));
			break;
		default:
			lo = _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0));
			hi = _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2));
			break;
		}
		_mm_storeu_ps(&D[q].f, _mm_sub_ps(hi, lo));
#else
		float r[4];

		(void)kind;
		for (uint32_t i = 0; i < 4; i++)
			r[i] = A[((q + i) & cl) + st].f - A[(q + i) & cl].f;
		for (uint32_t i = 0; i < 4; i++)
			D[q + i].f = r[i];
#endif
	}
}

#define BIN(OP, F, EXPR) case OP: LANES(D[l].F = (EXPR)); break
#define UN(OP, F, EXPR) case OP: LANES(D[l].F = (EXPR)); break

/* Instructions that change memory outside the lane: helper lanes skip
 * them. */
static bool
writes_memory(uint32_t op)
{
	switch (op) {
	case IR_STBUF: case IR_STBUFX: case IR_STBUFN: case IR_ATOMBUF:
	case IR_ATOMBUFX: case IR_ATOMBUF64: case IR_IMGST: case IR_IMGATOM:
	case IR_STPHYS: case IR_ATOMPHYS: case IR_ATOMPHYS64:
		return true;
	default:
		return false;
	}
}

/* The block's mask without helper lanes, in e->mask for the
 * instruction helpers (interp_image.c, ...) too. */
static const uint8_t *
live_lanes(struct ir_exec *e, const uint8_t *mask, bool full)
{
	/* full: every lane of the block, so the live ones (x && x) */
	interp_mask_and(e->live_mask, full ? e->live : mask, e->live,
	                e->width);
	e->mask = e->live_mask;
	return e->live_mask;
}

uint32_t
interp_exec_range(struct ir_exec *e, const struct ir_dispatch *d,
                  uint32_t blk, bool full_block, uint32_t from,
                  uint32_t end)
{
	const struct ir_program *p = e->p;
	const struct ir_block *b = &p->blocks[blk];
	const uint32_t W = e->width;
	uint8_t *const block_mask = e->mask;
	lane_t *regs = e->regs;

	for (uint32_t ii = from; ii < end; ii++) {
		const struct ir_instr *in = &p->code[b->first + ii];
		lane_t *D = regs + (size_t)in->dst * W;
		const lane_t *A = regs + (size_t)in->a * W;
		const lane_t *B = regs + (size_t)in->b * W;
		const lane_t *C = regs + (size_t)in->c * W;
		const lane_t *Dd = regs + (size_t)in->d * W;
		const uint32_t imm = in->imm;
		const uint8_t *m = block_mask;
		bool full = full_block;

		if (__builtin_expect(e->helpers, 0) && writes_memory(in->op)) {
			m = live_lanes(e, block_mask, full_block);
			full = false;
		}
		switch ((enum ir_op)in->op) {
		case IR_NOP: break;
		UN(IR_MOV, u, A[l].u);
		BIN(IR_IADD, u, A[l].u + B[l].u);
		BIN(IR_ISUB, u, A[l].u - B[l].u);
		BIN(IR_IMUL, u, A[l].u * B[l].u);
		BIN(IR_UDIV, u, B[l].u ? A[l].u / B[l].u : UINT32_MAX);
		BIN(IR_SDIV, u, !B[l].u ? UINT32_MAX : B[l].i == -1
		    ? 0u - A[l].u : (uint32_t)(A[l].i / B[l].i));
		BIN(IR_UMOD, u, B[l].u ? A[l].u % B[l].u : UINT32_MAX);
		BIN(IR_SREM, i, (!B[l].u || B[l].i == -1) ? 0
		    : A[l].i % B[l].i);
		case IR_SMOD:
			LANES({
				int32_t r = (!B[l].u || B[l].i == -1) ? 0
				            : A[l].i % B[l].i;
				if (r && ((r < 0) != (B[l].i < 0)))
					r += B[l].i;
				D[l].i = r;
			});
			break;
		UN(IR_INEG, u, 0u - A[l].u);
		BIN(IR_UMULHI, u, (uint32_t)(((uint64_t)A[l].u * B[l].u) >> 32));
		BIN(IR_SMULHI, u, (uint32_t)((uint64_t)((int64_t)A[l].i *
		    B[l].i) >> 32));
		BIN(IR_ADDCARRY, u, A[l].u + B[l].u < A[l].u);
		BIN(IR_SUBBORROW, u, A[l].u < B[l].u);
		BIN(IR_SHL, u, A[l].u << (B[l].u & 31));
		BIN(IR_SHR, u, A[l].u >> (B[l].u & 31));
		BIN(IR_SAR, i, A[l].i >> (B[l].u & 31));
		BIN(IR_AND, u, A[l].u & B[l].u);
		BIN(IR_OR, u, A[l].u | B[l].u);
		BIN(IR_XOR, u, A[l].u ^ B[l].u);
		UN(IR_NOT, u, ~A[l].u);
		case IR_BFI:
			LANES({
				uint32_t o = C[l].u & 31, c = Dd[l].u;
				uint32_t mk = c >= 32 - o ? bfmask(32 - o) << o
				              : bfmask(c) << o;
				D[l].u = (A[l].u & ~mk) | ((B[l].u << o) & mk);
			});
			break;
		BIN(IR_BFE_U, u, bfe(A[l].u, B[l].u, C[l].u, false));
		BIN(IR_BFE_S, u, bfe(A[l].u, B[l].u, C[l].u, true));
		UN(IR_BITREV, u, bitrev(A[l].u));
		UN(IR_BITCOUNT, u, (uint32_t)__builtin_popcount(A[l].u));
		UN(IR_FINDLSB, u, A[l].u ? (uint32_t)__builtin_ctz(A[l].u)
		   : UINT32_MAX);
		UN(IR_FINDUMSB, u, A[l].u ? 31u - (uint32_t)
		   __builtin_clz(A[l].u) : UINT32_MAX);
		case IR_FINDSMSB:
			LANES({
				uint32_t v = A[l].i < 0 ? ~A[l].u : A[l].u;
				D[l].u = v ? 31u - (uint32_t)__builtin_clz(v)
				           : UINT32_MAX;
			});
			break;
		BIN(IR_SMIN, i, A[l].i < B[l].i ? A[l].i : B[l].i);
		BIN(IR_SMAX, i, A[l].i > B[l].i ? A[l].i : B[l].i);
		BIN(IR_UMIN, u, A[l].u < B[l].u ? A[l].u : B[l].u);
		BIN(IR_UMAX, u, A[l].u > B[l].u ? A[l].u : B[l].u);
		BIN(IR_SCLAMP, i, A[l].i < B[l].i ? B[l].i
		    : A[l].i > C[l].i ? C[l].i : A[l].i);
		BIN(IR_UCLAMP, u, A[l].u < B[l].u ? B[l].u
		    : A[l].u > C[l].u ? C[l].u : A[l].u);
		UN(IR_SABS, u, A[l].i < 0 ? 0u - A[l].u : A[l].u);
		UN(IR_SSIGN, i, A[l].i > 0 ? 1 : A[l].i < 0 ? -1 : 0);
		BIN(IR_DOT4X8, u, dot4x8(A[l].u, B[l].u, in->aux2));
		BIN(IR_ADDSAT_S, i, addsat_s(A[l].i, B[l].i));
		BIN(IR_UMULSAT, u, (uint64_t)A[l].u * B[l].u > UINT32_MAX ?
		    UINT32_MAX : A[l].u * B[l].u);
		BIN(IR_ADDSAT_U, u, A[l].u + B[l].u < A[l].u ? UINT32_MAX
		    : A[l].u + B[l].u);
		BIN(IR_IEQ, u, A[l].u == B[l].u);
		BIN(IR_INE, u, A[l].u != B[l].u);
		BIN(IR_ULT, u, A[l].u < B[l].u);
		BIN(IR_ULE, u, A[l].u <= B[l].u);
		BIN(IR_UGT, u, A[l].u > B[l].u);
		BIN(IR_UGE, u, A[l].u >= B[l].u);
		BIN(IR_SLT, u, A[l].i < B[l].i);
		BIN(IR_SLE, u, A[l].i <= B[l].i);
		BIN(IR_SGT, u, A[l].i > B[l].i);
		BIN(IR_SGE, u, A[l].i >= B[l].i);
		BIN(IR_FOEQ, u, A[l].f == B[l].f);
		BIN(IR_FONE, u, A[l].f < B[l].f || A[l].f > B[l].f);
		BIN(IR_FOLT, u, A[l].f < B[l].f);
		BIN(IR_FOLE, u, A[l].f <= B[l].f);
		BIN(IR_FOGT, u, A[l].f > B[l].f);
		BIN(IR_FOGE, u, A[l].f >= B[l].f);
		BIN(IR_FUEQ, u, !(A[l].f < B[l].f || A[l].f > B[l].f));
		BIN(IR_FUNE, u, !(A[l].f == B[l].f));
		BIN(IR_FULT, u, !(A[l].f >= B[l].f));
		BIN(IR_FULE, u, !(A[l].f > B[l].f));
		BIN(IR_FUGT, u, !(A[l].f <= B[l].f));
		BIN(IR_FUGE, u, !(A[l].f < B[l].f));
		BIN(IR_FORD, u, A[l].f == A[l].f && B[l].f == B[l].f);
		BIN(IR_FUNORD, u, A[l].f != A[l].f || B[l].f != B[l].f);
		UN(IR_ISNAN, u, A[l].f != A[l].f);
		UN(IR_ISINF, u, isinf(A[l].f) != 0);
		UN(IR_LNOT, u, !A[l].u);
		BIN(IR_SELECT, u, A[l].u ? B[l].u : C[l].u);
		BIN(IR_SELIDX, u, A[l].u == imm ? B[l].u : C[l].u);
		BIN(IR_FADD, f, A[l].f + B[l].f);
		BIN(IR_FSUB, f, A[l].f - B[l].f);
		BIN(IR_FMUL, f, A[l].f * B[l].f);
		BIN(IR_FDIV, f, A[l].f / B[l].f);
		BIN(IR_FREM, f, fmodf(A[l].f, B[l].f));
		BIN(IR_FMOD, f, A[l].f - B[l].f * floorf(A[l].f / B[l].f));
		UN(IR_FNEG, f, -A[l].f);
		case IR_FMIN:
			if (full && !any_nan(A, B, W)) {
				LANES(D[l].f = A[l].f <= B[l].f ? A[l].f
				                                : B[l].f);
				break;
			}
			LANES(D[l].f = fmin_n(A[l].f, B[l].f));
			break;
		case IR_FMAX:
			if (full && !any_nan(A, B, W)) {
				LANES(D[l].f = A[l].f >= B[l].f ? A[l].f
				                                : B[l].f);
				break;
			}
			LANES(D[l].f = fmax_n(A[l].f, B[l].f));
			break;
		BIN(IR_FCLAMP, f, clampf(A[l].f, B[l].f, C[l].f));
		BIN(IR_FMIX, f, A[l].f * (1.0f - C[l].f) + B[l].f * C[l].f);
		BIN(IR_FMA, f, fmaf(A[l].f, B[l].f, C[l].f));
		BIN(IR_STEP, f, B[l].f < A[l].f ? 0.0f : 1.0f);
		BIN(IR_SSTEP, f, sstep(A[l].f, B[l].f, C[l].f));
		UN(IR_FABS, f, fabsf(A[l].f));
		UN(IR_FSIGN, f, fsign(A[l].f));
		UN(IR_FLOOR, f, floorf(A[l].f));
		UN(IR_CEIL, f, ceilf(A[l].f));
		UN(IR_FRACT, f, A[l].f - floorf(A[l].f));
		UN(IR_ROUND, f, roundf(A[l].f));
		UN(IR_ROUNDEVEN, f, rintf(A[l].f));
		UN(IR_TRUNC, f, truncf(A[l].f));
		UN(IR_SQRT, f, sqrtf(A[l].f));
		UN(IR_RSQRT, f, 1.0f / sqrtf(A[l].f));
		UN(IR_EXP, f, expf(A[l].f));
		UN(IR_EXP2, f, exp2f(A[l].f));
		UN(IR_LOG, f, logf(A[l].f));
		UN(IR_LOG2, f, log2f(A[l].f));
		BIN(IR_POW, f, powf(A[l].f, B[l].f));
		UN(IR_SIN, f, sinf(A[l].f));
		UN(IR_COS, f, cosf(A[l].f));
		UN(IR_TAN, f, tanf(A[l].f));
		UN(IR_ASIN, f, asinf(A[l].f));
		UN(IR_ACOS, f, acosf(A[l].f));
		UN(IR_ATAN, f, atanf(A[l].f));
		BIN(IR_ATAN2, f, atan2f(A[l].f, B[l].f));
		UN(IR_SINH, f, sinhf(A[l].f));
		UN(IR_COSH, f, coshf(A[l].f));
		UN(IR_TANH, f, tanhf(A[l].f));
		UN(IR_ASINH, f, asinhf(A[l].f));
		UN(IR_ACOSH, f, acoshf(A[l].f));
		UN(IR_ATANH, f, atanhf(A[l].f));
		UN(IR_RADIANS, f, A[l].f * 0.017453292519943295f);
		UN(IR_DEGREES, f, A[l].f * 57.29577951308232f);
		BIN(IR_LDEXP, f, ldexpf(A[l].f, B[l].i < -300 ? -300
		    : B[l].i > 300 ? 300 : B[l].i));
		UN(IR_FREXPM, f, frexp_m(A[l].f));
		UN(IR_FREXPE, i, frexp_e(A[l].f));
		UN(IR_QUANT16, f, interp_quantize_f16(A[l].f));
		UN(IR_FTZ, u, flush_denorm(A[l].u, in->aux2));
		/* ir_opt.c's fused products: separate statements, so no
		 * compiler contracts them into an FMA (the unfused FMULs
		 * and FADD/FSUB they replace rounded each step) */
		case IR_FMULADD2:
			LANES({
				const float p0 = A[l].f * B[l].f;
				const float p1 = C[l].f * Dd[l].f;
				D[l].f = p0 + p1;
			});
			break;
		case IR_FMULSUB2:
			LANES({
				const float p0 = A[l].f * B[l].f;
				const float p1 = C[l].f * Dd[l].f;
				D[l].f = p0 - p1;
			});
			break;
		case IR_FMULADD:
			LANES({
				const float p0 = A[l].f * B[l].f;
				D[l].f = p0 + C[l].f;
			});
			break;
		case IR_FADDMUL:
			LANES({
				const float p1 = B[l].f * C[l].f;
				D[l].f = A[l].f + p1;
			});
			break;
		UN(IR_F2S, i, f2s(A[l].f));
		UN(IR_F2U, u, f2u(A[l].f));
		UN(IR_S2F, f, (float)A[l].i);
		UN(IR_U2F, f, (float)A[l].u);
		BIN(IR_PACKH2, u, interp_f32_to_f16_mode(A[l].f, in->aux2) |
		    ((uint32_t)interp_f32_to_f16_mode(B[l].f, in->aux2)
		     << 16));
		UN(IR_UNPACKH_LO, f, interp_f16_to_f32((uint16_t)A[l].u));
		UN(IR_UNPACKH_HI, f, interp_f16_to_f32(
		   (uint16_t)(A[l].u >> 16)));
		case IR_PACKUN4:
		case IR_PACKSN4: {
			bool sn = in->op == IR_PACKSN4;

			LANES(D[l].u = pack_n(A[l].f, sn, 8) |
			      pack_n(B[l].f, sn, 8) << 8 |
			      pack_n(C[l].f, sn, 8) << 16 |
			      pack_n(Dd[l].f, sn, 8) << 24);
			break;
		}
		BIN(IR_PACKUN2, u, pack_n(A[l].f, false, 16) |
		    pack_n(B[l].f, false, 16) << 16);
		BIN(IR_PACKSN2, u, pack_n(A[l].f, true, 16) |
		    pack_n(B[l].f, true, 16) << 16);
		UN(IR_UNPACKUN4, f, unpack_n(A[l].u, false, 8, imm));
		UN(IR_UNPACKSN4, f, unpack_n(A[l].u, true, 8, imm));
		UN(IR_UNPACKUN2, f, unpack_n(A[l].u, false, 16, imm));
		UN(IR_UNPACKSN2, f, unpack_n(A[l].u, true, 16, imm));
		/* Buffer words: aux2 8 marks the low word of a 64-bit
		 * scalar, which is in range only if all 8 bytes are (so a
		 * scalar straddling the range's end reads 0 in both words
		 * and writes neither: robustBufferAccess2). */
		case IR_LDBUF: {
			const uint8_t *base = d->buffers[in->aux].ptr;
			uint64_t range = d->buffers[in->aux].range;
			const uint64_t need = in->aux2 == 8 ? 8 : 4;

			if (in->a == IR_REG_ZERO) {
				/* a constant offset (uniform data): one load */
				uint32_t v = 0;

				if ((uint64_t)imm + need <= range)
					memcpy(&v, base + imm, 4);
				LANES(D[l].u = v);
				break;
			}
			if (full && need == 4 && contiguous(A, W, imm, range)) {
				memcpy(D, base + A[0].u + imm, (size_t)W * 4);
				break;
			}
			LANES({
				uint64_t off = (uint64_t)A[l].u + imm;
				uint32_t v = 0;

				if (off + need <= range)
					memcpy(&v, base + off, 4);
				D[l].u = v;
			});
			break;
		}
		case IR_STBUF: {
			uint8_t *base = d->buffers[in->aux].ptr;
			uint64_t range = d->buffers[in->aux].range;
			const uint64_t need = in->aux2 == 8 ? 8 : 4;

			if (full && need == 4 && contiguous(A, W, imm, range)) {
				memcpy(base + A[0].u + imm, B, (size_t)W * 4);
				break;
			}
			LANES({
				uint64_t off = (uint64_t)A[l].u + imm;

				if (off + need <= range)
					memcpy(base + off, &B[l].u, 4);
			});
			break;
		}
		case IR_LDPUSH:
			if (in->a == IR_REG_ZERO) {
				/* a constant offset: one load for all lanes
				 * (push constants of a fragment shader) */
				uint32_t v = 0;

				if ((uint64_t)imm + 4 <= sizeof(d->push))
					memcpy(&v, d->push + imm, 4);
				LANES(D[l].u = v);
				break;
			}
			LANES({
				uint64_t off = (uint64_t)A[l].u + imm;
				uint32_t v = 0;

				if (off + 4 <= sizeof(d->push))
					memcpy(&v, d->push + off, 4);
				D[l].u = v;
			});
			break;
		case IR_LDSH: {
			uint64_t size = p->shared_bytes;

			if (full && contiguous(A, W, imm, size)) {
				memcpy(D, e->shared + A[0].u + imm,
				       (size_t)W * 4);
				break;
			}
			LANES({
				uint64_t off = (uint64_t)A[l].u + imm;
				uint32_t v = 0;

				if (off + 4 <= size)
					memcpy(&v, e->shared + off, 4);
				D[l].u = v;
			});
			break;
		}
		case IR_STSH: {
			uint64_t size = p->shared_bytes;

			if (full && contiguous(A, W, imm, size)) {
				memcpy(e->shared + A[0].u + imm, B,
				       (size_t)W * 4);
				break;
			}
			LANES({
				uint64_t off = (uint64_t)A[l].u + imm;

				if (off + 4 <= size)
					memcpy(e->shared + off, &B[l].u, 4);
			});
			break;
		}
		case IR_LDX:
			LANES({
				uint64_t k = (uint64_t)A[l].u + imm;

				D[l].u = k < in->c
				         ? regs[(in->b + k) * W + l].u : 0;
			});
			break;
		case IR_STX:
			LANES({
				uint64_t k = (uint64_t)A[l].u + imm;

				if (k < in->c)
					regs[(in->b + k) * W + l].u = Dd[l].u;
			});
			break;
		case IR_ATOMBUF: {
			uint8_t *base = d->buffers[in->aux].ptr;
			uint64_t range = d->buffers[in->aux].range;

			LANES({
				uint64_t off = (uint64_t)A[l].u + imm;
				uint32_t r = 0;

				if (off + 4 <= range &&
				    !((uintptr_t)(base + off) & 3))
					r = atomic_op((uint32_t *)(void *)
					              (base + off), in->aux2,
					              B[l].u, C[l].u);
				if (in->dst)
					D[l].u = r;
			});
			break;
		}
		case IR_ATOMSH: {
			uint64_t size = p->shared_bytes;

			LANES({
				uint64_t off = (uint64_t)A[l].u + imm;
				uint32_t r = 0;

				if (off + 4 <= size && !(off & 3))
					r = shared_atomic((uint32_t *)(void *)
					                  (e->shared + off),
					                  in->aux2, B[l].u,
					                  C[l].u);
				if (in->dst)
					D[l].u = r;
			});
			break;
		}
		case IR_LDBUFX:
			LANES({
				uint64_t k = Dd[l].u;
				uint32_t v = 0;

				if (k < in->c) {
					const struct ir_buffer_binding *bb =
						&d->buffers[in->aux + k];
					uint64_t off = (uint64_t)A[l].u + imm;

					if (off + (in->aux2 == 8 ? 8 : 4) <=
					    bb->range)
						memcpy(&v, bb->ptr + off, 4);
				}
				D[l].u = v;
			});
			break;
		case IR_STBUFX:
			LANES({
				uint64_t k = Dd[l].u;

				if (k < in->c) {
					const struct ir_buffer_binding *bb =
						&d->buffers[in->aux + k];
					uint64_t off = (uint64_t)A[l].u + imm;

					if (off + (in->aux2 == 8 ? 8 : 4) <=
					    bb->range)
						memcpy(bb->ptr + off, &B[l].u, 4);
				}
			});
			break;
		case IR_ATOMBUFX:
			LANES({
				uint64_t k = Dd[l].u;
				uint64_t off = (uint64_t)A[l].u + imm;
				uint32_t r = 0;

				if (k < IR_MAX_BUFFERS - in->aux) {
					const struct ir_buffer_binding *bb =
						&d->buffers[in->aux + k];
					uint8_t *base = bb->ptr;

					if (off + 4 <= bb->range &&
					    !((uintptr_t)(base + off) & 3))
						r = atomic_op((uint32_t *)(void *)
						              (base + off), in->aux2,
						              B[l].u, C[l].u);
				}
				if (in->dst)
					D[l].u = r;
			});
			break;
		case IR_ARRLEN: {
			uint64_t range = d->buffers[in->aux].range;
			uint32_t v = range > imm ? (uint32_t)((range - imm) /
			                                      in->b) : 0;

			LANES(D[l].u = v);
			break;
		}
		case IR_LDPHYS: case IR_STPHYS: case IR_ATOMPHYS:
		case IR_ATOMPHYS64:
			interp_phys(e, (struct ir_dispatch *)d, in, full);
			break;
		case IR_CLOCK: {
			/* VK_KHR_shader_clock: one read for the whole group,
			 * so a subgroup sees one value; CLOCK_MONOTONIC is
			 * shared by every engine (device scope too). */
			const uint64_t t = swgpu_now_ns();

			LANES({
				D[l].u = (uint32_t)t;
				D[l + W].u = (uint32_t)(t >> 32);
			});
			break;
		}
		case IR_IMGLD: case IR_IMGST: case IR_IMGATOM:
		case IR_IMGSIZE:
			interp_image(e, d, in, full);
			break;
		case IR_IMGSAMPLE:
			interp_sample(e, d, in, full);
			break;
		case IR_FENCE:
#if defined(__SANITIZE_THREAD__)
			/* gcc's TSan rejects standalone fences; a seq_cst
			 * RMW is a full barrier on every target we build. */
			__atomic_fetch_add(&interp_fence_word, 0,
			                   __ATOMIC_SEQ_CST);
#else
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
			break;
		case IR_ELECT: case IR_VALL: case IR_VANY: case IR_VALLEQ:
		case IR_BCAST: case IR_BCASTFIRST: case IR_BALLOT:
		case IR_INVBALLOT: case IR_BALLOTEXT: case IR_BALLOTCOUNT:
		case IR_BALLOTLSB: case IR_BALLOTMSB: case IR_SHUFFLE:
		case IR_SHUFXOR: case IR_SHUFUP: case IR_SHUFDOWN:
		case IR_GIADD: case IR_GFADD: case IR_GIMUL: case IR_GFMUL:
		case IR_GSMIN: case IR_GUMIN: case IR_GFMIN: case IR_GSMAX:
		case IR_GUMAX: case IR_GFMAX: case IR_GAND: case IR_GOR:
		case IR_GXOR: case IR_G64:
			interp_group(e, in, full);
			break;
		case IR_ADD64: case IR_SUB64: case IR_MUL64: case IR_UDIV64:
		case IR_SDIV64: case IR_UMOD64: case IR_SREM64: case IR_SMOD64:
		case IR_SHL64: case IR_SHR64: case IR_SAR64: case IR_IEQ64:
		case IR_INE64: case IR_ULT64: case IR_ULE64: case IR_UGT64:
		case IR_UGE64: case IR_SLT64: case IR_SLE64: case IR_SGT64:
		case IR_SGE64: case IR_S64TOF: case IR_U64TOF: case IR_F2S64:
		case IR_F2U64: case IR_ATOMBUF64: case IR_ATOMSH64:
			interp_int64(e, d, in, full);
			break;
		case IR_F64:
			interp_f64(e, in, full);
			break;
		case IR_LDBUFN: case IR_STBUFN: case IR_LDPUSHN:
		case IR_LDSHN: case IR_STSHN:
			interp_narrow(e, d, in, full);
			break;
		case IR_BR:
			LANES({ e->pc[l] = imm; e->prev[l] = blk; });
			return imm;
		case IR_BRC: {
			uint32_t taken = 0, n = 0;

			LANES({
				uint32_t t = A[l].u != 0;

				e->pc[l] = t ? imm : in->b;
				e->prev[l] = blk;
				taken += t;
				n++;
			});
			return taken == n ? imm : taken == 0 ? in->b
			                                      : INTERP_HINT_NONE;
		}
		case IR_SWITCH: {
			const uint32_t *t = p->table + in->b;

			LANES({
				uint32_t to = imm;

				for (uint32_t k = 0; k < in->c; k++)
					if (t[2 * k] == A[l].u) {
						to = t[2 * k + 1];
						break;
					}
				e->pc[l] = to;
				e->prev[l] = blk;
			});
			return INTERP_HINT_NONE;
		}
		case IR_RET:
			LANES(e->pc[l] = IR_PC_DONE);
			return IR_PC_DONE;
		case IR_DERIV: {
			/* lanes 4q..4q+3 are the quad (x, y), (x+1, y),
			 * (x, y+1), (x+1, y+1): the difference between the
			 * lane's row (lane & ~1) or column (lane & ~2) pair,
			 * or the quad's first row or column (coarse) */
			static const uint32_t clear[4] = { 1, 2, 3, 3 };
			static const uint32_t step[4] = { 1, 2, 1, 2 };
			const uint32_t cl = ~clear[in->aux2 & 3];
			const uint32_t st = step[in->aux2 & 3];

			deriv_quads(D, A, W, in->aux2 & 3, full ? NULL : m,
			            cl, st);
			break;
		}
		case IR_KILL:
			LANES({ e->pc[l] = IR_PC_DONE; e->disc[l] = 1; });
			return IR_PC_DONE;
		case IR_DEMOTE: {
			lane_t *H = regs + (size_t)IR_REG_HELPER * W;

			LANES({ e->live[l] = 0; e->disc[l] = 1; H[l].u = 1; });
			e->helpers = true;
			break;
		}
		case IR_PHI: {
			const uint32_t *t = p->table + in->b;

			LANES({
				for (uint32_t k = 0; k < in->c; k++)
					if (t[2 * k] == e->prev[l]) {
						D[l].u = regs[(size_t)t[2 * k + 1]
						              * W + l].u;
						break;
					}
			});
			break;
		}
		case IR_RTZ:
			interp_rtz(e, in, full);
			break;
		case IR_OP_COUNT:
			break;
		}
		e->mask = block_mask;
	}
	return INTERP_HINT_NONE;
}
