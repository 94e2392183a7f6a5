/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: atomics on storage buffers, shared memory,
 * storage images and buffer device addresses: 32-bit words and 64-bit
 * ones (Int64Atomics, register pairs), integers and floats (float add,
 * min and max: VK_EXT_shader_atomic_float / _float2; load, store and
 * exchange move bits whatever the type).
 */
#include "xlate.h"

#include <spirv/unified1/spirv.h>

/* The constant 1 as an increment: one register, or a pair. */
static uint32_t
one_operand(struct xl *x, bool wide)
{
	uint32_t one = xl_const_reg(x, 1), value;

	if (!wide)
		return one;
	value = xl_new_regs(x, 2);
	xl_emit(x, IR_MOV, value, one, 0, 0);
	xl_emit(x, IR_MOV, value + 1, IR_REG_ZERO, 0, 0);
	return value;
}

/* Registers of an atomic operand: one, or a consecutive pair for a
 * 64-bit atomic (the IR instruction names only the first). */
static uint32_t
atomic_operand(struct xl *x, uint32_t id, bool wide)
{
	uint32_t n, r;
	const uint32_t *v = xl_val(x, id, &n);

	if (n != (wide ? 2u : 1u))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "atomic operand size");
	if (!wide)
		return v[0];
	r = xl_new_regs(x, 2);
	xl_emit(x, IR_MOV, r, v[0], 0, 0);
	xl_emit(x, IR_MOV, r + 1, v[1], 0, 0);
	return r;
}

/* A 32-bit atomic on a storage image / texel buffer texel (TEXEL) or
 * through a buffer device address (PHYS): one IR_IMGATOM / IR_ATOMPHYS. */
static void
addr_atomic(struct xl *x, const uint32_t *in, const struct xptr *p,
            uint32_t kind, uint32_t value_id, uint32_t cmp_id, bool wide)
{
	uint32_t op = in[0] & 0xffff, value = 0, cmp = 0, dst = 0, k;
	const bool texel = p->space == XS_TEXEL;

	if (texel && wide)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "image atomics only on "
		        "32-bit values");
	if (value_id)
		value = atomic_operand(x, value_id, wide);
	else if (op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement)
		value = one_operand(x, wide);
	if (cmp_id)
		cmp = atomic_operand(x, cmp_id, wide);
	if (op != SpvOpAtomicStore) {
		uint32_t r[2];

		dst = xl_new_regs(x, wide ? 2 : 1);
		r[0] = dst;
		r[1] = dst + 1;
		xl_set_val(x, in[2], in[1], r, wide ? 2 : 1);
	}
	if (wide) {
		k = xl_emit(x, IR_ATOMPHYS64, dst, xl_phys_addr(x, p, 0), value,
		            cmp);
	} else if (texel) {
		k = xl_emit(x, IR_IMGATOM, dst, p->off, value, cmp);
		xl_instr(x, k)->d = p->desc_idx;
		xl_instr(x, k)->imm = p->desc_idx ? p->nslots : 0;
		xl_instr(x, k)->aux = (uint8_t)p->slot;
	} else {
		k = xl_emit(x, IR_ATOMPHYS, dst, xl_phys_addr(x, p, 0), value,
		            cmp);
	}
	xl_instr(x, k)->aux2 = (uint8_t)kind;
	x->p->uses_atomics = true;
}

void
xl_atomic(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff;
	uint32_t ptr_id, kind, value = 0, cmp = 0, dst = 0, k;
	uint32_t value_id = 0, cmp_id = 0;
	bool wide;
	struct xptr p;

	switch (op) {
	case SpvOpAtomicStore:
		if (wc < 5)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short atomic");
		ptr_id = in[1];
		value_id = in[4];
		kind = IR_AT_STORE;
		break;
	case SpvOpAtomicCompareExchange:
		if (wc < 9)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short atomic");
		ptr_id = in[3];
		value_id = in[7];
		cmp_id = in[8];
		kind = IR_AT_CMPXCHG;
		break;
	default:
		if (wc < 6)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short atomic");
		ptr_id = in[3];
		switch (op) {
		case SpvOpAtomicLoad: kind = IR_AT_LOAD; break;
		case SpvOpAtomicIIncrement: kind = IR_AT_ADD; break;
		case SpvOpAtomicIDecrement: kind = IR_AT_SUB; break;
		default:
			if (wc < 7)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "short atomic");
			value_id = in[6];
			switch (op) {
			case SpvOpAtomicExchange: kind = IR_AT_XCHG; break;
			case SpvOpAtomicIAdd: kind = IR_AT_ADD; break;
			case SpvOpAtomicISub: kind = IR_AT_SUB; break;
			case SpvOpAtomicSMin: kind = IR_AT_SMIN; break;
			case SpvOpAtomicUMin: kind = IR_AT_UMIN; break;
			case SpvOpAtomicSMax: kind = IR_AT_SMAX; break;
			case SpvOpAtomicUMax: kind = IR_AT_UMAX; break;
			case SpvOpAtomicAnd: kind = IR_AT_AND; break;
			case SpvOpAtomicOr: kind = IR_AT_OR; break;
			case SpvOpAtomicXor: kind = IR_AT_XOR; break;
			case SpvOpAtomicFAddEXT: kind = IR_AT_FADD; break;
			case SpvOpAtomicFMinEXT: kind = IR_AT_FMIN; break;
			case SpvOpAtomicFMaxEXT: kind = IR_AT_FMAX; break;
			default:
				xl_fail(x, SWGPU_ERR_UNSUPPORTED,
				        "atomic opcode %u not supported", op);
			}
		}
	}
	p = *xl_ptr(x, ptr_id);
	xl_mark_used(x, &p);
	/* 32- and 64-bit integer and float scalars (a 16-bit one would
	 * need a sub-word atomic: no float16 atomics are offered). */
	const struct xtype *vt = xl_type(x, p.type);
	bool fp = vt->op == SpvOpTypeFloat;
	if ((vt->op != SpvOpTypeInt && !fp) ||
	    (vt->width != 32 && vt->width != 64))
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "atomics only on 32/64-bit "
		        "integer or float scalars (type %u)", p.type);
	if ((kind >= IR_AT_FADD) != fp &&
	    kind != IR_AT_LOAD && kind != IR_AT_STORE && kind != IR_AT_XCHG)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "%s atomic on a%s value",
		        fp ? "integer" : "float", fp ? " float" : "n integer");
	wide = vt->width == 64;
	if (p.space == XS_TEXEL || p.space == XS_PHYS) {
		addr_atomic(x, in, &p, kind, value_id, cmp_id, wide);
		return;
	}
	if (p.space != XS_BUF && p.space != XS_SHARED)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "atomics only on storage buffers, shared memory, "
		        "images and buffer device addresses");
	if (p.space == XS_BUF && !p.writable)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "atomic on a uniform buffer");
	xl_mark_used(x, &p);
	if (value_id)
		value = atomic_operand(x, value_id, wide);
	else if (op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement)
		value = one_operand(x, wide);
	if (cmp_id)
		cmp = atomic_operand(x, cmp_id, wide);
	if (op != SpvOpAtomicStore) {
		uint32_t r[2];

		dst = xl_new_regs(x, wide ? 2 : 1);
		r[0] = dst;
		r[1] = dst + 1;
		xl_set_val(x, in[2], in[1], r, wide ? 2 : 1);
	}
	if (wide)
		k = xl_emit(x, p.space != XS_BUF ? IR_ATOMSH64 : IR_ATOMBUF64,
		            dst, p.dyn, value, cmp);
	else
		k = xl_emit(x, p.space != XS_BUF ? IR_ATOMSH : p.desc_idx ?
		            IR_ATOMBUFX : IR_ATOMBUF, dst, p.dyn, value, cmp);
	xl_instr(x, k)->d = p.desc_idx;
	xl_instr(x, k)->imm = p.off;
	xl_instr(x, k)->aux = (uint8_t)p.slot;
	xl_instr(x, k)->aux2 = (uint8_t)kind;
	x->p->uses_atomics = true;
}
