/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: subgroup operations. A subgroup is the program's
 * subgroup_size (4..32) consecutive lanes of the workgroup; only active lanes take part (the reduction of
 * an inactive lane's value is never observed). Clustered reductions
 * reduce each aligned cluster of d lanes alone; quad operations are
 * shuffles (xlate_ops.c).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "interp_util.h"

static uint32_t
identity(uint32_t op)
{
	union { float f; uint32_t u; } v;

	switch (op) {
	case IR_GIMUL: return 1;
	case IR_GFMUL: v.f = 1.0f; return v.u;
	case IR_GSMIN: return INT32_MAX;
	case IR_GUMIN: return UINT32_MAX;
	case IR_GFMIN: v.f = INFINITY; return v.u;
	case IR_GSMAX: return (uint32_t)INT32_MIN;
	case IR_GFMAX: v.f = -INFINITY; return v.u;
	case IR_GAND: return UINT32_MAX;
	default: return 0;
	}
}

static uint32_t
combine(uint32_t op, lane_t a, lane_t b)
{
	lane_t r;

	switch (op) {
	case IR_GIADD: return a.u + b.u;
	case IR_GFADD: r.f = a.f + b.f; return r.u;
	case IR_GIMUL: return a.u * b.u;
	case IR_GFMUL: r.f = a.f * b.f; return r.u;
	case IR_GSMIN: return a.i < b.i ? a.u : b.u;
	case IR_GUMIN: return a.u < b.u ? a.u : b.u;
	case IR_GFMIN: r.f = fminf(a.f, b.f); return r.u;
	case IR_GSMAX: return a.i > b.i ? a.u : b.u;
	case IR_GUMAX: return a.u > b.u ? a.u : b.u;
	case IR_GFMAX: r.f = fmaxf(a.f, b.f); return r.u;
	case IR_GAND: return a.u & b.u;
	case IR_GOR: return a.u | b.u;
	default: return a.u ^ b.u;
	}
}

/* 64-bit reductions: integers, and doubles for the float operations. */
static uint64_t
dbits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double
dval(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static uint64_t
identity64(uint32_t op)
{
	switch (op) {
	case IR_GFADD: return dbits(0.0);
	case IR_GFMUL: return dbits(1.0);
	case IR_GFMIN: return dbits(INFINITY);
	case IR_GFMAX: return dbits(-INFINITY);
	case IR_GIMUL: return 1;
	case IR_GSMIN: return INT64_MAX;
	case IR_GUMIN: return UINT64_MAX;
	case IR_GSMAX: return (uint64_t)INT64_MIN;
	case IR_GAND: return UINT64_MAX;
	default: return 0;
	}
}

static uint64_t
combine64(uint32_t op, uint64_t a, uint64_t b)
{
	switch (op) {
	case IR_GFADD: return dbits(dval(a) + dval(b));
	case IR_GFMUL: return dbits(dval(a) * dval(b));
	case IR_GFMIN: return dbits(fmin(dval(a), dval(b)));
	case IR_GFMAX: return dbits(fmax(dval(a), dval(b)));
	case IR_GIADD: return a + b;
	case IR_GIMUL: return a * b;
	case IR_GSMIN: return (int64_t)a < (int64_t)b ? a : b;
	case IR_GUMIN: return a < b ? a : b;
	case IR_GSMAX: return (int64_t)a > (int64_t)b ? a : b;
	case IR_GUMAX: return a > b ? a : b;
	case IR_GAND: return a & b;
	case IR_GOR: return a | b;
	default: return a ^ b;
	}
}

/* The lanes c0 .. c0 + n - 1 of a subgroup (clustered reductions). */
static uint32_t
cluster_mask(uint32_t c0, uint32_t n)
{
	return (uint32_t)(((1ull << n) - 1) << c0);
}

void
interp_group(struct ir_exec *e, const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	lane_t *D = e->regs + (size_t)in->dst * W;
	const lane_t *A = e->regs + (size_t)in->a * W;
	const lane_t *B = e->regs + (size_t)in->b * W;
	const uint8_t *m = e->mask;
	const uint32_t sg = interp_subgroup_size(e->p);
	/* the bits of a ballot naming lanes of the subgroup */
	const uint32_t all = sg == 32 ? UINT32_MAX : (1u << sg) - 1;

	for (uint32_t s = 0; s < W; s += sg) {
		uint32_t act = 0, first;

		for (uint32_t i = 0; i < sg; i++)
			if (full || m[s + i])
				act |= 1u << i;
		if (!act)
			continue;
		first = s + (uint32_t)__builtin_ctz(act);
#define EACH(...) for (uint32_t i = 0; i < sg; i++) \
		if (act & (1u << i)) { uint32_t l = s + i; __VA_ARGS__; }
		switch (in->op) {
		case IR_ELECT:
			EACH(D[l].u = l == first);
			break;
		case IR_VALL: {
			uint32_t v = 1;

			EACH(v &= A[l].u != 0);
			EACH(D[l].u = v);
			break;
		}
		case IR_VANY: {
			uint32_t v = 0;

			EACH(v |= A[l].u != 0);
			EACH(D[l].u = v);
			break;
		}
		case IR_VALLEQ: {
			uint32_t v = 1, f = A[first].u;

			EACH(v &= A[l].u == f);
			EACH(D[l].u = v);
			break;
		}
		case IR_BCAST: {
			uint32_t v = A[s + (B[first].u & (sg - 1))].u;

			EACH(D[l].u = v);
			break;
		}
		case IR_BCASTFIRST: {
			uint32_t v = A[first].u;

			EACH(D[l].u = v);
			break;
		}
		case IR_BALLOT: {
			uint32_t v = 0;

			EACH(if (A[l].u) v |= 1u << i);
			EACH(D[l].u = v);
			break;
		}
		case IR_INVBALLOT:
			EACH(D[l].u = (A[l].u >> i) & 1);
			break;
		case IR_BALLOTEXT:
			EACH(D[l].u = B[l].u < sg ? (A[l].u >> B[l].u) & 1 : 0);
			break;
		case IR_BALLOTCOUNT:
			EACH({
				uint32_t mk = in->aux2 == IR_GROUP_REDUCE
				              ? all
				              : in->aux2 == IR_GROUP_INCLUSIVE
				              ? (uint32_t)((2ull << i) - 1)
				              : (uint32_t)((1ull << i) - 1);
				D[l].u = (uint32_t)__builtin_popcount(
				                 A[l].u & mk);
			});
			break;
		case IR_BALLOTLSB:
			EACH(D[l].u = A[l].u & all
			             ? (uint32_t)__builtin_ctz(A[l].u & all)
			             : UINT32_MAX);
			break;
		case IR_BALLOTMSB:
			EACH(D[l].u = A[l].u & all
			             ? 31u - (uint32_t)__builtin_clz(A[l].u & all)
			             : UINT32_MAX);
			break;
		case IR_SHUFFLE:
			EACH(D[l].u = A[s + (B[l].u & (sg - 1))].u);
			break;
		case IR_SHUFXOR:
			EACH(D[l].u = A[s + ((i ^ B[l].u) & (sg - 1))].u);
			break;
		case IR_SHUFUP:
			EACH(D[l].u = B[l].u <= i ? A[l - B[l].u].u : A[l].u);
			break;
		case IR_SHUFDOWN:
			EACH(D[l].u = B[l].u < sg - i ? A[l + B[l].u].u
			                              : A[l].u);
			break;
		case IR_G64: {
			/* 64-bit reductions and scans (register pairs). */
			uint64_t acc = identity64(in->imm);
			lane_t *DH = D + W;

#define V64(l) ((uint64_t)B[l].u << 32 | A[l].u)
#define PUT64(l, v) (D[l].u = (uint32_t)(v), DH[l].u = (uint32_t)((v) >> 32))
			if (in->aux2 == IR_GROUP_CLUSTERED) {
				/* each cluster of d lanes on its own */
				for (uint32_t c0 = 0; c0 < sg; c0 += in->d) {
					const uint32_t cm = cluster_mask(c0,
					                                 in->d);

					acc = identity64(in->imm);
					EACH(if (cm >> i & 1)
					     acc = combine64(in->imm, acc,
					                     V64(l)));
					EACH(if (cm >> i & 1) PUT64(l, acc));
				}
			} else if (in->aux2 == IR_GROUP_REDUCE) {
				EACH(acc = combine64(in->imm, acc, V64(l)));
				EACH(PUT64(l, acc));
			} else if (in->aux2 == IR_GROUP_INCLUSIVE) {
				EACH({
					acc = combine64(in->imm, acc, V64(l));
					PUT64(l, acc);
				});
			} else {
				EACH({
					uint64_t v = V64(l);

					PUT64(l, acc);
					acc = combine64(in->imm, acc, v);
				});
			}
#undef V64
#undef PUT64
			break;
		}
		default: {
			/* Reductions and scans, in lane order. */
			lane_t acc;

			acc.u = identity(in->op);
			if (in->aux2 == IR_GROUP_CLUSTERED) {
				for (uint32_t c0 = 0; c0 < sg; c0 += in->d) {
					const uint32_t cm = cluster_mask(c0,
					                                 in->d);

					acc.u = identity(in->op);
					EACH(if (cm >> i & 1)
					     acc.u = combine(in->op, acc, A[l]));
					EACH(if (cm >> i & 1) D[l].u = acc.u);
				}
			} else if (in->aux2 == IR_GROUP_REDUCE) {
				EACH(acc.u = combine(in->op, acc, A[l]));
				EACH(D[l].u = acc.u);
			} else if (in->aux2 == IR_GROUP_INCLUSIVE) {
				EACH({
					acc.u = combine(in->op, acc, A[l]);
					D[l].u = acc.u;
				});
			} else {
				EACH({
					lane_t v = A[l];

					D[l].u = acc.u;
					acc.u = combine(in->op, acc, v);
				});
			}
			break;
		}
		}
#undef EACH
	}
}
