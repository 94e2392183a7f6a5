/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: subgroup operations (interp_group.c runs
 * them). Every GroupNonUniform class of Vulkan 1.1 at Subgroup scope
 * (reductions, inclusive and exclusive scans, clustered reductions),
 * quad operations as shuffles within a quad, rotates (clustered or
 * not) as shuffles, and the scope-less
 * SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote instructions. Values of
 * several registers (vectors, 64-bit scalars) are moved register by
 * register; 64-bit and narrow arithmetic is adapted by xlate_int64.c and
 * xlate_narrow.c around these.
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <spirv/unified1/spirv.h>

/* The ClusterSize operand (in[6]) of a ClusteredReduce: a constant
 * power of two. One larger than the subgroup is undefined behaviour only
 * when executed (shaders written for any subgroup size carry them behind
 * gl_SubgroupSize checks), so it becomes the whole subgroup. */
uint32_t
xl_cluster_size(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t c;

	if (wc < 7 || !xl_const_u32(x, in[6], &c) || !c || (c & (c - 1)))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "ClusterSize must be a "
		        "constant power of two");
	return c < x->p->subgroup_size ? c : x->p->subgroup_size;
}

/* OpGroupNonUniformQuadBroadcast / QuadSwap: shuffles within the four
 * lanes of a quad (subgroup invocations 4q..4q+3): a broadcast reads lane
 * (id & ~3) | index, a swap lane id ^ (direction + 1) (horizontal 1,
 * vertical 2, diagonal 3). */
static void
quad(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t op)
{
	struct vals v;
	uint32_t r[16], scope, idx;

	if (wc < 6 || !xl_const_u32(x, in[3], &scope) ||
	    scope != SpvScopeSubgroup)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "quad operation %u: only Subgroup scope", op);
	x->p->uses_subgroup = true;
	xl_getv(x, in[4], &v);
	if (v.n > 16)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "malformed quad opcode");
	if (op == SpvOpGroupNonUniformQuadBroadcast) {
		idx = xl_emit1(x, IR_AND, xl_val1(x, in[5]),
		               xl_const_reg(x, 3), 0);
		idx = xl_emit1(x, IR_OR, idx,
		               xl_emit1(x, IR_AND, IR_REG_SUBGROUP_LOCAL_ID,
		                        xl_const_reg(x, ~3u), 0), 0);
		for (uint32_t i = 0; i < v.n; i++)
			r[i] = xl_emit1(x, IR_SHUFFLE, v.r[i], idx, 0);
	} else {
		uint32_t dir;

		if (!xl_const_u32(x, in[5], &dir) || dir > 2)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "QuadSwap direction "
			        "must be a constant 0..2");
		idx = xl_const_reg(x, dir + 1);
		for (uint32_t i = 0; i < v.n; i++)
			r[i] = xl_emit1(x, IR_SHUFXOR, v.r[i], idx, 0);
	}
	xl_set_regs(x, in, r, v.n);
}

/* OpGroupNonUniformRotateKHR (SPV_KHR_subgroup_rotate): lane id reads
 * lane ((id + Delta) & (c - 1)) + (id & ~(c - 1)) of its cluster of c =
 * ClusterSize lanes (the whole subgroup without one): a shuffle. */
static void
rotate(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct vals v;
	uint32_t r[16], scope, c, idx;

	if (wc < 6 || !xl_const_u32(x, in[3], &scope) ||
	    scope != SpvScopeSubgroup)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "OpGroupNonUniformRotateKHR: only Subgroup scope");
	x->p->uses_subgroup = true;
	c = wc >= 7 ? xl_cluster_size(x, in, wc) : x->p->subgroup_size;
	xl_getv(x, in[4], &v);
	if (v.n > 16)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "malformed rotate");
	idx = xl_emit1(x, IR_IADD, IR_REG_SUBGROUP_LOCAL_ID,
	               xl_val1(x, in[5]), 0);
	idx = xl_emit1(x, IR_AND, idx, xl_const_reg(x, c - 1), 0);
	idx = xl_emit1(x, IR_OR, idx,
	               xl_emit1(x, IR_AND, IR_REG_SUBGROUP_LOCAL_ID,
	                        xl_const_reg(x, ~(c - 1)), 0), 0);
	for (uint32_t i = 0; i < v.n; i++)
		r[i] = xl_emit1(x, IR_SHUFFLE, v.r[i], idx, 0);
	xl_set_regs(x, in, r, v.n);
}

/* SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote (Vulkan's
 * VK_EXT_shader_subgroup_ballot/_vote, GL_ARB_shader_ballot shaders): the
 * subgroup operations of Vulkan 1.1 without a scope operand. */
static void
subgroup_khr(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t op)
{
	struct vals v;
	uint32_t r[16], n = 0;

	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short opcode %u", op);
	x->p->uses_subgroup = true;
	xl_getv(x, in[3], &v);
	if (v.n > 16)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "malformed opcode %u", op);
	switch (op) {
	case SpvOpSubgroupBallotKHR:
		r[n++] = xl_emit1(x, IR_BALLOT, v.r[0], 0, 0);
		r[n++] = IR_REG_ZERO;
		r[n++] = IR_REG_ZERO;
		r[n++] = IR_REG_ZERO;
		break;
	case SpvOpSubgroupFirstInvocationKHR:
		for (uint32_t i = 0; i < v.n; i++)
			r[n++] = xl_emit1(x, IR_BCASTFIRST, v.r[i], 0, 0);
		break;
	case SpvOpSubgroupAllKHR:
		r[n++] = xl_emit1(x, IR_VALL, v.r[0], 0, 0);
		break;
	case SpvOpSubgroupAnyKHR:
		r[n++] = xl_emit1(x, IR_VANY, v.r[0], 0, 0);
		break;
	case SpvOpSubgroupAllEqualKHR: {
		uint32_t acc = xl_emit1(x, IR_VALLEQ, v.r[0], 0, 0);

		for (uint32_t i = 1; i < v.n; i++)
			acc = xl_emit1(x, IR_AND, acc,
			               xl_emit1(x, IR_VALLEQ, v.r[i], 0, 0), 0);
		r[n++] = acc;
		break;
	}
	default: {                  /* OpSubgroupReadInvocationKHR */
		/* the index is dynamically uniform: IR_BCAST's */
		uint32_t id;

		if (wc < 5)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short opcode %u", op);
		id = xl_val1(x, in[4]);
		for (uint32_t i = 0; i < v.n; i++)
			r[n++] = xl_emit1(x, IR_BCAST, v.r[i], id, 0);
		break;
	}
	}
	xl_set_regs(x, in, r, n);
}

static void
subgroup(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t op)
{
	struct vals v, w;
	uint32_t r[16], n = 0, scope, gop = 0, vi = 4, csize = 0;
	uint32_t irop = 0;

	if (wc < 4 || !xl_const_u32(x, in[3], &scope) ||
	    scope != SpvScopeSubgroup)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "group operation %u: only Subgroup scope", op);
	x->p->uses_subgroup = true;
	if (op >= SpvOpGroupNonUniformIAdd &&
	    op <= SpvOpGroupNonUniformLogicalXor) {
		if (wc < 6)
			goto bad;
		gop = in[4];
		vi = 5;
		if (gop == SpvGroupOperationClusteredReduce)
			csize = xl_cluster_size(x, in, wc);
		else if (gop > SpvGroupOperationExclusiveScan)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "group operation %u not supported", gop);
	}
	if (op == SpvOpGroupNonUniformBallotBitCount) {
		if (wc < 6)
			goto bad;
		gop = in[4];
		vi = 5;
		if (gop > SpvGroupOperationExclusiveScan)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "group operation %u not supported", gop);
	}
	if (op == SpvOpGroupNonUniformElect) {
		r[n++] = xl_emit1(x, IR_ELECT, 0, 0, 0);
		goto done;
	}
	if (wc <= vi)
		goto bad;
	xl_getv(x, in[vi], &v);
	if (v.n > 16)
		goto bad;
	switch (op) {
	case SpvOpGroupNonUniformAll:
		r[n++] = xl_emit1(x, IR_VALL, v.r[0], 0, 0);
		break;
	case SpvOpGroupNonUniformAny:
		r[n++] = xl_emit1(x, IR_VANY, v.r[0], 0, 0);
		break;
	case SpvOpGroupNonUniformAllEqual: {
		uint32_t acc = xl_emit1(x, IR_VALLEQ, v.r[0], 0, 0);

		for (uint32_t i = 1; i < v.n; i++)
			acc = xl_emit1(x, IR_AND, acc,
			            xl_emit1(x, IR_VALLEQ, v.r[i], 0, 0), 0);
		r[n++] = acc;
		break;
	}
	case SpvOpGroupNonUniformBroadcastFirst:
		for (uint32_t i = 0; i < v.n; i++)
			r[n++] = xl_emit1(x, IR_BCASTFIRST, v.r[i], 0, 0);
		break;
	case SpvOpGroupNonUniformBallot:
		r[n++] = xl_emit1(x, IR_BALLOT, v.r[0], 0, 0);
		r[n++] = IR_REG_ZERO;
		r[n++] = IR_REG_ZERO;
		r[n++] = IR_REG_ZERO;
		break;
	case SpvOpGroupNonUniformInverseBallot:
		r[n++] = xl_emit1(x, IR_INVBALLOT, v.r[0], 0, 0);
		break;
	case SpvOpGroupNonUniformBallotBitCount:
		r[n++] = xl_emit1(x, IR_BALLOTCOUNT, v.r[0], 0, 0);
		xl_instr(x, x->p->ninstr - 1)->aux2 = (uint8_t)gop;
		break;
	case SpvOpGroupNonUniformBallotFindLSB:
		r[n++] = xl_emit1(x, IR_BALLOTLSB, v.r[0], 0, 0);
		break;
	case SpvOpGroupNonUniformBallotFindMSB:
		r[n++] = xl_emit1(x, IR_BALLOTMSB, v.r[0], 0, 0);
		break;
	case SpvOpGroupNonUniformBroadcast:
	case SpvOpGroupNonUniformShuffle:
	case SpvOpGroupNonUniformShuffleXor:
	case SpvOpGroupNonUniformShuffleUp:
	case SpvOpGroupNonUniformShuffleDown:
	case SpvOpGroupNonUniformBallotBitExtract: {
		uint32_t id;

		if (wc < 6)
			goto bad;
		xl_getv(x, in[5], &w);
		if (w.n != 1)
			goto bad;
		id = w.r[0];
		irop = op == SpvOpGroupNonUniformBroadcast ? IR_BCAST :
		       op == SpvOpGroupNonUniformShuffle ? IR_SHUFFLE :
		       op == SpvOpGroupNonUniformShuffleXor ? IR_SHUFXOR :
		       op == SpvOpGroupNonUniformShuffleUp ? IR_SHUFUP :
		       op == SpvOpGroupNonUniformShuffleDown ? IR_SHUFDOWN :
		       IR_BALLOTEXT;
		if (irop == IR_BALLOTEXT) {
			r[n++] = xl_emit1(x, irop, v.r[0], id, 0);
			break;
		}
		for (uint32_t i = 0; i < v.n; i++)
			r[n++] = xl_emit1(x, irop, v.r[i], id, 0);
		break;
	}
	default:
		irop = op == SpvOpGroupNonUniformIAdd ? IR_GIADD :
		       op == SpvOpGroupNonUniformFAdd ? IR_GFADD :
		       op == SpvOpGroupNonUniformIMul ? IR_GIMUL :
		       op == SpvOpGroupNonUniformFMul ? IR_GFMUL :
		       op == SpvOpGroupNonUniformSMin ? IR_GSMIN :
		       op == SpvOpGroupNonUniformUMin ? IR_GUMIN :
		       op == SpvOpGroupNonUniformFMin ? IR_GFMIN :
		       op == SpvOpGroupNonUniformSMax ? IR_GSMAX :
		       op == SpvOpGroupNonUniformUMax ? IR_GUMAX :
		       op == SpvOpGroupNonUniformFMax ? IR_GFMAX :
		       op == SpvOpGroupNonUniformBitwiseAnd ? IR_GAND :
		       op == SpvOpGroupNonUniformLogicalAnd ? IR_GAND :
		       op == SpvOpGroupNonUniformBitwiseOr ? IR_GOR :
		       op == SpvOpGroupNonUniformLogicalOr ? IR_GOR : IR_GXOR;
		for (uint32_t i = 0; i < v.n; i++) {
			r[n++] = xl_emit1(x, irop, v.r[i], 0, 0);
			xl_instr(x, x->p->ninstr - 1)->aux2 = (uint8_t)gop;
			xl_instr(x, x->p->ninstr - 1)->d = csize;
			/* a bool is 0 or 1: an exclusive AND's first lane
			 * gets the all-ones identity, which is true */
			if (op == SpvOpGroupNonUniformLogicalAnd)
				r[n - 1] = xl_emit1(x, IR_AND, r[n - 1],
				                    xl_const_reg(x, 1), 0);
		}
		break;
	}
done:
	xl_set_regs(x, in, r, n);
	return;
bad:
	xl_fail(x, SWGPU_ERR_INVALID_ARG, "malformed group opcode %u", op);
}

bool
xl_group_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff;

	if (op >= SpvOpGroupNonUniformElect &&
	    op <= SpvOpGroupNonUniformLogicalXor) {
		subgroup(x, in, wc, op);
		return true;
	}
	switch (op) {
	case SpvOpGroupNonUniformQuadBroadcast:
	case SpvOpGroupNonUniformQuadSwap:
		quad(x, in, wc, op);
		return true;
	case SpvOpGroupNonUniformRotateKHR:
		rotate(x, in, wc);
		return true;
	case SpvOpSubgroupBallotKHR: case SpvOpSubgroupFirstInvocationKHR:
	case SpvOpSubgroupAllKHR: case SpvOpSubgroupAnyKHR:
	case SpvOpSubgroupAllEqualKHR: case SpvOpSubgroupReadInvocationKHR:
		subgroup_khr(x, in, wc, op);
		return true;
	default:
		return false;
	}
}
