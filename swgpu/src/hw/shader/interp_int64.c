/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: 64-bit integer instructions on register pairs
 * (internal, called from interp.c). Same defined results as the 32-bit
 * ones: division by zero gives all ones (UDiv/SDiv/UMod) or 0
 * (SRem/SMod), INT64_MIN / -1 wraps, shift counts are taken modulo 64,
 * float -> int64 saturates and maps NaN to 0.
 */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("O3")
#endif

#include <stddef.h>
#include <string.h>

#include "interp_util.h"

static inline uint64_t
sdiv64(uint64_t a, uint64_t b)
{
	if (!b)
		return UINT64_MAX;
	if (b == UINT64_MAX)
		return 0 - a;
	return (uint64_t)((int64_t)a / (int64_t)b);
}

static inline uint64_t
srem64(uint64_t a, uint64_t b, bool floor_mod)
{
	int64_t r, sb = (int64_t)b;

	if (!b || b == UINT64_MAX)
		return 0;
	r = (int64_t)a % sb;
	if (floor_mod && r && ((r < 0) != (sb < 0)))
		r += sb;
	return (uint64_t)r;
}

/* atomic_op64: interp_util.h. */

/* Shared memory belongs to the one thread running the workgroup: plain
 * read-modify-write, through memcpy since its 64-bit variables need not
 * be 8-byte aligned. */
static inline uint64_t
shared_atomic64(uint8_t *p, uint32_t kind, uint64_t v, uint64_t cmp)
{
	uint64_t old, nv;

	memcpy(&old, p, 8);
	switch (kind) {
	case IR_AT_LOAD: return old;
	case IR_AT_STORE: nv = v; old = 0; break;
	case IR_AT_XCHG: nv = v; break;
	case IR_AT_CMPXCHG: nv = old == cmp ? v : old; break;
	case IR_AT_ADD: nv = old + v; break;
	case IR_AT_SUB: nv = old - v; break;
	case IR_AT_AND: nv = old & v; break;
	case IR_AT_OR: nv = old | v; break;
	case IR_AT_XOR: nv = old ^ v; break;
	case IR_AT_SMIN: nv = (int64_t)v < (int64_t)old ? v : old; break;
	case IR_AT_SMAX: nv = (int64_t)v > (int64_t)old ? v : old; break;
	case IR_AT_UMIN: nv = v < old ? v : old; break;
	case IR_AT_FADD: case IR_AT_FMIN: case IR_AT_FMAX:
		nv = float_atomic_bits(kind, old, v, 8);
		break;
	default: nv = v > old ? v : old; break;
	}
	memcpy(p, &nv, 8);
	return old;
}

#define OPA(l) ((uint64_t)A[l].u | (uint64_t)B[l].u << 32)
#define OPB(l) ((uint64_t)C[l].u | (uint64_t)Dd[l].u << 32)
#define BIN64(OP, EXPR)                                                 \
	case OP:                                                        \
		LANES({                                                 \
			uint64_t r_ = (EXPR);                           \
			D[l].u = (uint32_t)r_;                          \
			D[l + W].u = (uint32_t)(r_ >> 32);              \
		});                                                     \
		break
#define CMP64(OP, EXPR) case OP: LANES(D[l].u = (EXPR)); break

/* Operand pair registers of the 64-bit atomics. */
#define PAIR(X, l) ((uint64_t)(X)[l].u | (uint64_t)(X)[(l) + W].u << 32)

void
interp_int64(struct ir_exec *e, const struct ir_dispatch *d,
             const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	const uint8_t *m = e->mask;
	lane_t *D = e->regs + (size_t)in->dst * W;
	const lane_t *A = e->regs + (size_t)in->a * W;
	const lane_t *B = e->regs + (size_t)in->b * W;
	const lane_t *C = e->regs + (size_t)in->c * W;
	const lane_t *Dd = e->regs + (size_t)in->d * W;

	switch ((enum ir_op)in->op) {
	BIN64(IR_ADD64, OPA(l) + OPB(l));
	BIN64(IR_SUB64, OPA(l) - OPB(l));
	BIN64(IR_MUL64, OPA(l) * OPB(l));
	BIN64(IR_UDIV64, OPB(l) ? OPA(l) / OPB(l) : UINT64_MAX);
	BIN64(IR_SDIV64, sdiv64(OPA(l), OPB(l)));
	BIN64(IR_UMOD64, OPB(l) ? OPA(l) % OPB(l) : UINT64_MAX);
	BIN64(IR_SREM64, srem64(OPA(l), OPB(l), false));
	BIN64(IR_SMOD64, srem64(OPA(l), OPB(l), true));
	BIN64(IR_SHL64, OPA(l) << (C[l].u & 63));
	BIN64(IR_SHR64, OPA(l) >> (C[l].u & 63));
	BIN64(IR_SAR64, (uint64_t)((int64_t)OPA(l) >> (C[l].u & 63)));
	BIN64(IR_F2S64, (uint64_t)d2s64(A[l].f));
	BIN64(IR_F2U64, d2u64(A[l].f));
	CMP64(IR_IEQ64, OPA(l) == OPB(l));
	CMP64(IR_INE64, OPA(l) != OPB(l));
	CMP64(IR_ULT64, OPA(l) < OPB(l));
	CMP64(IR_ULE64, OPA(l) <= OPB(l));
	CMP64(IR_UGT64, OPA(l) > OPB(l));
	CMP64(IR_UGE64, OPA(l) >= OPB(l));
	CMP64(IR_SLT64, (int64_t)OPA(l) < (int64_t)OPB(l));
	CMP64(IR_SLE64, (int64_t)OPA(l) <= (int64_t)OPB(l));
	CMP64(IR_SGT64, (int64_t)OPA(l) > (int64_t)OPB(l));
	CMP64(IR_SGE64, (int64_t)OPA(l) >= (int64_t)OPB(l));
	case IR_S64TOF: LANES(D[l].f = (float)(int64_t)OPA(l)); break;
	case IR_U64TOF: LANES(D[l].f = (float)OPA(l)); break;
	case IR_ATOMBUF64:
		LANES({
			uint64_t k = in->d ? Dd[l].u : 0;
			uint64_t off = (uint64_t)A[l].u + in->imm, r = 0;

			if (k < IR_MAX_BUFFERS - in->aux) {
				const struct ir_buffer_binding *bb =
					&d->buffers[in->aux + k];
				uint8_t *base = bb->ptr;

				/* out of range or misaligned: no access */
				if (off + 8 <= bb->range &&
				    !((uintptr_t)(base + off) & 7))
					r = atomic_op64((uint64_t *)(void *)
					                (base + off), in->aux2,
					                PAIR(B, l), PAIR(C, l));
			}
			if (in->dst) {
				D[l].u = (uint32_t)r;
				D[l + W].u = (uint32_t)(r >> 32);
			}
		});
		break;
	case IR_ATOMSH64: {
		uint64_t size = e->p->shared_bytes;

		LANES({
			uint64_t off = (uint64_t)A[l].u + in->imm, r = 0;

			if (off + 8 <= size)
				r = shared_atomic64(e->shared + off, in->aux2,
				                    PAIR(B, l), PAIR(C, l));
			if (in->dst) {
				D[l].u = (uint32_t)r;
				D[l + W].u = (uint32_t)(r >> 32);
			}
		});
		break;
	}
	default:
		break;
	}
}
