/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: variables, pointers and memory access.
 *
 * Logical addressing lets every pointer be resolved at translation time
 * to a root (a buffer descriptor, push constants, shared memory, or a
 * range of registers for Function/Private variables and built-ins) plus
 * a constant offset and at most one register with the dynamic part of
 * the offset. Loads and stores then become one scalar IR memory access
 * per scalar of the value, with the layout (Offset, ArrayStride,
 * MatrixStride, RowMajor) folded into constant offsets.
 */
#include "xlate.h"

#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <swgpu/swgpu_packet.h>

bool
xl_mdeco(struct xl *x, uint32_t sid, uint32_t member, uint32_t deco,
         uint32_t *value)
{
	for (uint32_t i = 0; i < x->nmdecos; i++) {
		const struct xmdeco *m = &x->mdecos[i];

		if (m->id == sid && m->member == member && m->deco == deco) {
			if (value)
				*value = m->value;
			return true;
		}
	}
	return false;
}

struct xptr *
xl_ptr(struct xl *x, uint32_t id)
{
	struct xid *d = xl_id(x, id);
	struct xptr phys;

	if (d->kind != XK_PTR && (xl_phys_ptr(x, id, &phys) ||
	                          xl_vptr_ptr(x, id, &phys))) {
		/* A pointer value (buffer device address, variable
		 * pointer): an xptr for this use. */
		x->ptrs = xl_grow(x, x->ptrs, &x->capptrs, x->nptrs + 1,
		                  sizeof(*x->ptrs));
		x->ptrs[x->nptrs] = phys;
		return &x->ptrs[x->nptrs++];
	}
	if (d->kind != XK_PTR)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u is not a pointer", id);
	return &x->ptrs[d->ptr];
}

void
xl_set_ptr(struct xl *x, uint32_t id, uint32_t type, const struct xptr *p,
           uint8_t kind)
{
	struct xid *d = xl_id(x, id);
	/* p may point into x->ptrs, which growing moves (OpImage). */
	const struct xptr copy = *p;

	x->ptrs = xl_grow(x, x->ptrs, &x->capptrs, x->nptrs + 1,
	                  sizeof(*x->ptrs));
	x->ptrs[x->nptrs] = copy;
	d->kind = kind;
	d->type = type;
	d->ptr = x->nptrs++;
	d->nregs = 0;  /* a variable pointer's registers: xl_vptr_regs */
}

static void
set_ptr(struct xl *x, uint32_t id, uint32_t ptr_type, const struct xptr *p)
{
	xl_set_ptr(x, id, ptr_type, p, XK_PTR);
}

static uint32_t
unit_scale(const struct xptr *p)
{
	return p->space == XS_SHARED ? 4 : 1;
}


/* Add index * stride to the pointer's dynamic offset. In buffers, push
 * constants and shared memory the sum saturates at 4 GiB: an index past
 * the end (or negative) stays out of range for the bounds checks
 * instead of wrapping onto another element, so arrays as large as a
 * buffer's range keep robust access. Registers (PRIV) are bounded by
 * IR_LDX/IR_STX; physical addresses keep modular arithmetic (offsets
 * may be negative there). */
void
xl_add_dyn(struct xl *x, struct xptr *p, uint32_t idx_reg, uint32_t stride)
{
	const bool sat = p->space == XS_BUF || p->space == XS_PUSH ||
	                 p->space == XS_SHARED;
	uint32_t t = idx_reg;

	if (stride != 1) {
		t = xl_new_regs(x, 1);
		xl_emit(x, sat ? IR_UMULSAT : IR_IMUL, t, idx_reg,
		        xl_const_reg(x, stride), 0);
	}
	if (p->dyn) {
		uint32_t s = xl_new_regs(x, 1);

		xl_emit(x, sat ? IR_ADDSAT_U : IR_IADD, s, p->dyn, t, 0);
		t = s;
	}
	p->dyn = t;
}

/* Distance between vector components of type elem: comp_stride is per
 * 32-bit component, so 64-bit ones take twice the room; 8/16-bit ones
 * in explicit layouts (buffers, push constants) their own size. */
static uint32_t
elem_stride(struct xl *x, const struct xptr *p, uint32_t elem,
            uint32_t comp_stride)
{
	const struct xtype *e = xl_type(x, elem);

	if (e->width < 32 && p->explicit_layout)
		return e->width / 8;
	return comp_stride * e->scalars;
}

static uint32_t
array_stride(struct xl *x, const struct xptr *p, uint32_t type)
{
	const struct xtype *t = xl_type(x, type);

	if (p->explicit_layout) {
		uint32_t s = x->ids[type].array_stride;

		if (!s)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "array type %u without ArrayStride", type);
		return s;
	}
	return xl_type(x, t->elem)->scalars * unit_scale(p);
}

/* A dynamic index: 32-bit, or the low word of a 64-bit one (indices
 * past 4 G are out of range anyway). */
uint32_t
xl_index_reg(struct xl *x, uint32_t id)
{
	uint32_t n;
	const uint32_t *r = xl_val(x, id, &n);

	if (n != 1 && n != 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "index %u is not a scalar",
		        id);
	return r[0];
}

/* A 64-bit integer constant index below 2^32 (OpInBoundsAccessChain
 * with an int64 struct member index): its low word. */
static bool
const_index64(struct xl *x, uint32_t id, uint32_t *out)
{
	const struct xid *d = xl_id(x, id);
	const struct xtype *t;

	if (d->kind != XK_CONST)
		return false;
	t = xl_type(x, d->type);
	if (t->op != SpvOpTypeInt || t->width != 64 || x->cpool[d->cval + 1])
		return false;
	*out = x->cpool[d->cval];
	return true;
}

void
xl_access_chain(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct xptr p;

	const uint32_t op = in[0] & 0xffff;
	const bool elem = op == SpvOpPtrAccessChain ||
	                  op == SpvOpInBoundsPtrAccessChain;
	uint32_t first = 4;

	if (wc < (elem ? 5u : 4u))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpAccessChain");
	p = *xl_ptr(x, in[3]);
	if (elem) {
		/* OpPtrAccessChain: first step over whole elements. */
		xl_ptr_element(x, &p, xl_id(x, in[3])->type, in[4]);
		first = 5;
	}
	for (uint32_t i = first; i < wc; i++) {
		const struct xtype *t = xl_type(x, p.type);
		uint32_t c = 0;
		bool is_const = xl_const_u32(x, in[i], &c) ||
		                const_index64(x, in[i], &c);

		if (p.desc_array) {
			if (!is_const) {
				/* chosen per lane at run time */
				p.desc_idx = xl_val1(x, in[i]);
			} else if (c >= p.nslots) {
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "descriptor array index %u out of "
				        "range", c);
			} else {
				p.slot += c;
				p.nslots = 1;
			}
			p.desc_array = false;
			p.type = t->elem;
			continue;
		}
		switch (t->op) {
		case SpvOpTypeStruct:
			if (!is_const || c >= t->nmembers)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "bad struct index");
			if (p.explicit_layout) {
				uint32_t o;

				if (!xl_mdeco(x, p.type, c, SpvDecorationOffset,
				           &o))
					xl_fail(x, SWGPU_ERR_INVALID_ARG,
					        "member %u of %u without "
					        "Offset", c, p.type);
				p.off = xl_off_add(p.off, o);
				p.row_major = xl_mdeco(x, p.type, c,
				                    SpvDecorationRowMajor, NULL);
				xl_mdeco(x, p.type, c, SpvDecorationMatrixStride,
				      &p.mstride);
			} else {
				for (uint32_t m = 0; m < c; m++)
					p.off = xl_off_add(p.off, (uint64_t)
					    xl_type(x,
					    x->pool[t->members + m])->scalars *
					    unit_scale(&p));
			}
			p.comp_stride = p.explicit_layout ? 4 : unit_scale(&p);
			p.type = x->pool[t->members + c];
			break;
		case SpvOpTypeArray:
		case SpvOpTypeRuntimeArray: {
			uint32_t s = array_stride(x, &p, p.type);

			if (is_const)
				p.off = xl_off_add(p.off, (uint64_t)c * s);
			else
				xl_add_dyn(x, &p, xl_index_reg(x, in[i]), s);
			p.type = t->elem;
			break;
		}
		case SpvOpTypeMatrix: {
			uint32_t s;

			if (p.explicit_layout) {
				/* row-major: the next column is the next
				 * element (8 bytes for a double) */
				s = p.row_major ? 4 * xl_type(x, xl_type(x,
				    t->elem)->elem)->scalars : p.mstride;
				p.comp_stride = p.row_major ? p.mstride : 4;
			} else {
				/* a column's registers: 2 per double */
				s = xl_type(x, t->elem)->scalars *
				    unit_scale(&p);
				p.comp_stride = unit_scale(&p);
			}
			if (is_const)
				p.off = xl_off_add(p.off, (uint64_t)c * s);
			else
				xl_add_dyn(x, &p, xl_index_reg(x, in[i]), s);
			p.type = t->elem;
			break;
		}
		case SpvOpTypeVector: {
			uint32_t s = elem_stride(x, &p, t->elem,
			                         p.comp_stride);

			if (is_const)
				p.off = xl_off_add(p.off, (uint64_t)c * s);
			else
				xl_add_dyn(x, &p, xl_index_reg(x, in[i]), s);
			p.type = t->elem;
			break;
		}
		default:
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "access chain into a scalar");
		}
	}
	if ((p.space == XS_PRIV || p.space == XS_INPUT) && !p.dyn &&
	    p.off + xl_type(x, p.type)->scalars > p.nslots)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "constant index out of the variable's range");
	set_ptr(x, in[2], in[1], &p);
	/* With variable pointers, every buffer or shared pointer is also
	 * a value, made here where its block is (a phi may name it). */
	xl_vptr_regs(x, in[2]);
	xl_phys_regs(x, in[2]);
}

/* Offsets (in the pointer's units) of every scalar of a value of type,
 * and (nb) their size in bytes for the memory spaces. */
static void
flatten(struct xl *x, const struct xptr *p, uint32_t type, uint32_t off,
        uint32_t comp_stride, uint32_t mstride, bool row_major,
        uint32_t *outs, uint32_t *nb, uint32_t *n, uint32_t max)
{
	const struct xtype *t = xl_type(x, type);
	uint32_t scale = unit_scale(p);

	switch (t->op) {
	case SpvOpTypeBool:
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		if (*n + t->scalars > max)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "value too large");
		/* 8/16-bit values take their own size only in explicit
		 * layouts; elsewhere a 32-bit slot. The low word of a
		 * 64-bit scalar says 8: buffer accesses check its whole
		 * range (robustBufferAccess2), see IR_LDBUF. */
		nb[*n] = t->width < 32 && p->explicit_layout ?
		         t->width / 8 : t->scalars == 2 ? 8 : 4;
		outs[(*n)++] = off;
		if (t->scalars == 2) { /* 64-bit: high word next */
			nb[*n] = 4;
			outs[(*n)++] = xl_off_add(off, p->space == XS_PRIV ||
			                      p->space == XS_INPUT ? 1 : 4);
		}
		break;
	case SpvOpTypePointer:
		/* A physical pointer stored in memory: a 64-bit address. */
		if (t->scalars != 2 || *n + 2 > max)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "load/store of a logical pointer");
		nb[*n] = 8;
		outs[(*n)++] = off;
		nb[*n] = 4;
		outs[(*n)++] = xl_off_add(off, p->space == XS_PRIV ||
		                      p->space == XS_INPUT ? 1 : 4);
		break;
	case SpvOpTypeVector:
		for (uint32_t i = 0; i < t->count; i++)
			flatten(x, p, t->elem, xl_off_add(off, (uint64_t)i *
			        elem_stride(x, p, t->elem, comp_stride)),
			        comp_stride, mstride, row_major, outs, nb, n, max);
		break;
	case SpvOpTypeMatrix: {
		uint32_t cs, es;

		if (p->explicit_layout &&
		    xl_type(x, xl_type(x, t->elem)->elem)->width < 32)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "16-bit matrices in buffers not supported");
		/* a double takes two registers or 8 bytes */
		uint32_t words = xl_type(x, xl_type(x, t->elem)->elem)->scalars;

		if (p->explicit_layout) {
			cs = row_major ? 4 * words : mstride;
			es = row_major ? mstride : 4;
		} else {
			cs = xl_type(x, t->elem)->scalars * scale;
			es = scale;
		}
		for (uint32_t i = 0; i < t->count; i++)
			flatten(x, p, t->elem, xl_off_add(off, (uint64_t)i * cs),
			        es, mstride,
			        row_major, outs, nb, n, max);
		break;
	}
	case SpvOpTypeArray: {
		uint32_t s = array_stride(x, p, type);

		for (uint32_t i = 0; i < t->count; i++)
			flatten(x, p, t->elem, xl_off_add(off, (uint64_t)i * s),
			        p->explicit_layout ? 4 : scale, mstride,
			        row_major, outs, nb, n, max);
		break;
	}
	case SpvOpTypeStruct: {
		uint32_t run = 0;

		for (uint32_t m = 0; m < t->nmembers; m++) {
			uint32_t mt = x->pool[t->members + m];
			uint32_t mo = off + run * scale, ms = 0;
			bool rm = false;

			if (p->explicit_layout) {
				if (!xl_mdeco(x, type, m, SpvDecorationOffset,
				           &mo))
					xl_fail(x, SWGPU_ERR_INVALID_ARG,
					        "member without Offset");
				mo = xl_off_add(mo, off);
				rm = xl_mdeco(x, type, m, SpvDecorationRowMajor,
				           NULL);
				xl_mdeco(x, type, m, SpvDecorationMatrixStride,
				      &ms);
			}
			flatten(x, p, mt, mo, p->explicit_layout ? 4 : scale,
			        ms, rm, outs, nb, n, max);
			run += xl_type(x, mt)->scalars;
		}
		break;
	}
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "load/store of type %u (opcode %u) not supported",
		        type, t->op);
	}
}

/* Offsets of the scalars; *nb gets their sizes (same count). */
static uint32_t *
ptr_offsets(struct xl *x, const struct xptr *p, uint32_t *n, uint32_t **nb)
{
	uint32_t cnt = xl_type(x, p->type)->scalars;
	uint32_t *outs;

	if (cnt == 0 && !xl_is_empty_composite(x, p->type))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "load/store of opaque type "
		        "%u", p->type);
	/* A whole value goes through registers; a huge array in a buffer
	 * is fine, loading or storing all of it at once is not. */
	if (cnt > XL_MAX_VALUE_SCALARS)
		xl_limit(x, "load/store of a whole value "
		        "of %s%u scalars (type %u): over the %u a value may "
		        "hold; access it element by element",
		        cnt == XL_HUGE ? "over " : "", cnt, p->type,
		        XL_MAX_VALUE_SCALARS);
	x->s_offs = xl_grow(x, x->s_offs, &x->cap_offs, 2 * cnt, 4);
	outs = x->s_offs;
	*nb = outs + cnt;
	*n = 0;
	flatten(x, p, p->type, p->off, p->comp_stride, p->mstride,
	        p->row_major, outs, *nb, n, cnt);
	return outs;
}

void
xl_mark_used(struct xl *x, const struct xptr *p)
{
	if (p->vptr)
		return;        /* marked when its sources were made */
	if (p->space == XS_BUF || p->space == XS_IMAGE ||
	    p->space == XS_TEXEL) {
		if (p->unbound)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "binding (set %u, binding %u) used by the shader "
			        "is missing from the layout", p->set, p->binding);
		if (p->desc_array)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "whole descriptor array access");
		for (uint32_t i = 0; i < (p->desc_idx ? p->nslots : 1); i++)
			x->p->buffers[p->slot + i].used = true;
	}
}

void
xl_load(struct xl *x, uint32_t type, uint32_t result, uint32_t ptr_id)
{
	struct xptr p = *xl_ptr(x, ptr_id);
	uint32_t n, *offs, *regs, *nb;

	if (p.space == XS_IMAGE) {
		xl_image_load(x, type, result, &p);
		return;
	}
	xl_mark_used(x, &p);
	offs = ptr_offsets(x, &p, &n, &nb);
	if (p.space == XS_INPUT)
		xl_io_mark_read(x, &p, offs, n);
	x->s_regs = xl_grow(x, x->s_regs, &x->cap_regs, n, 4);
	regs = x->s_regs;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r, k;

		/* input registers never change: a load is the register
		 * itself, but for HelperInvocation, which a demote sets */
		if (p.space == XS_INPUT && !p.dyn &&
		    p.slot != IR_REG_HELPER) {
			regs[i] = p.slot + offs[i];
			continue;
		}
		r = regs[i] = xl_new_regs(x, 1);
		switch (p.space) {
		case XS_PRIV:
		case XS_INPUT:
			if (!p.dyn) {
				xl_emit(x, IR_MOV, r, p.slot + offs[i], 0, 0);
			} else {
				k = xl_emit(x, IR_LDX, r, p.dyn, p.slot,
				            p.nslots);
				xl_instr(x, k)->imm = offs[i];
			}
			break;
		case XS_SHARED:
			k = xl_emit(x, nb[i] < 4 ? IR_LDSHN : IR_LDSH, r,
			            p.dyn, 0, 0);
			xl_instr(x, k)->imm = offs[i];
			xl_instr(x, k)->aux2 = (uint8_t)nb[i];
			break;
		case XS_PUSH:
			k = xl_emit(x, nb[i] < 4 ? IR_LDPUSHN : IR_LDPUSH, r,
			            p.dyn, 0, 0);
			xl_instr(x, k)->imm = offs[i];
			xl_instr(x, k)->aux2 = (uint8_t)nb[i];
			if (p.dyn)
				x->p->push_bytes = SWGPU_SHADER_MAX_PUSH_CONSTANTS;
			else if (offs[i] + nb[i] > x->p->push_bytes)
				x->p->push_bytes = offs[i] + nb[i];
			break;
		case XS_PHYS:
			k = xl_emit(x, IR_LDPHYS, r,
			            xl_phys_addr(x, &p, offs[i] - p.off), 0, 0);
			xl_instr(x, k)->aux2 = (uint8_t)(nb[i] > 4 ? 4 : nb[i]);
			break;
		case XS_BUF:
			k = xl_emit(x, nb[i] < 4 ? IR_LDBUFN : p.desc_idx ?
			            IR_LDBUFX : IR_LDBUF, r, p.dyn, 0, p.nslots);
			xl_instr(x, k)->aux2 = (uint8_t)nb[i];
			xl_instr(x, k)->imm = offs[i];
			xl_instr(x, k)->aux = (uint8_t)p.slot;
			xl_instr(x, k)->d = p.desc_idx;
			break;
		}
	}
	if (n != xl_type(x, type)->scalars)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "load type mismatch");
	xl_set_val(x, result, type, regs, n);
}

void
xl_store_regs(struct xl *x, const struct xptr *pp, const uint32_t *regs,
              uint32_t nregs)
{
	struct xptr p = *pp;
	uint32_t n, *offs, *nb;
	uint32_t *copy;

	x->s_copy = xl_grow(x, x->s_copy, &x->cap_copy, nregs + 1, 4);
	copy = x->s_copy;
	/* regs may live in a pool that grows while emitting. */
	memcpy(copy, regs, nregs * sizeof(*copy));
	xl_mark_used(x, &p);
	if (!p.writable)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "store through a read-only pointer");
	offs = ptr_offsets(x, &p, &n, &nb);
	if (n != nregs)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "store type mismatch");
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k;

		switch (p.space) {
		case XS_PRIV:
			if (!p.dyn) {
				xl_emit(x, IR_MOV, p.slot + offs[i], copy[i],
				        0, 0);
			} else {
				k = xl_emit(x, IR_STX, 0, p.dyn, p.slot,
				            p.nslots);
				xl_instr(x, k)->d = copy[i];
				xl_instr(x, k)->imm = offs[i];
			}
			break;
		case XS_SHARED:
			k = xl_emit(x, nb[i] < 4 ? IR_STSHN : IR_STSH, 0,
			            p.dyn, copy[i], 0);
			xl_instr(x, k)->imm = offs[i];
			xl_instr(x, k)->aux2 = (uint8_t)nb[i];
			break;
		case XS_PHYS:
			k = xl_emit(x, IR_STPHYS, 0,
			            xl_phys_addr(x, &p, offs[i] - p.off),
			            copy[i], 0);
			xl_instr(x, k)->aux2 = (uint8_t)(nb[i] > 4 ? 4 : nb[i]);
			break;
		case XS_BUF:
			k = xl_emit(x, nb[i] < 4 ? IR_STBUFN : p.desc_idx ?
			            IR_STBUFX : IR_STBUF, 0, p.dyn, copy[i],
			            p.nslots);
			xl_instr(x, k)->aux2 = (uint8_t)nb[i];
			xl_instr(x, k)->imm = offs[i];
			xl_instr(x, k)->aux = (uint8_t)p.slot;
			xl_instr(x, k)->d = p.desc_idx;
			break;
		default:
			break;
		}
	}
}

void
xl_store(struct xl *x, uint32_t ptr_id, uint32_t value)
{
	uint32_t n;
	const uint32_t *r = xl_val(x, value, &n);

	xl_store_regs(x, xl_ptr(x, ptr_id), r, n);
}

void
xl_array_length(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct xptr p;
	const struct xtype *t;
	uint32_t off, rt, r, k;

	if (wc < 5)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpArrayLength");
	p = *xl_ptr(x, in[3]);
	t = xl_type(x, p.type);
	if (p.vptr)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "OpArrayLength through a "
		        "variable pointer");
	if (p.space != XS_BUF || p.desc_array || p.desc_idx ||
	    t->op != SpvOpTypeStruct ||
	    in[4] >= t->nmembers ||
	    !xl_mdeco(x, p.type, in[4], SpvDecorationOffset, &off))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad OpArrayLength");
	rt = x->pool[t->members + in[4]];
	if (xl_type(x, rt)->op != SpvOpTypeRuntimeArray ||
	    !x->ids[rt].array_stride)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpArrayLength of non "
		        "runtime array");
	xl_mark_used(x, &p);
	r = xl_new_regs(x, 1);
	k = xl_emit(x, IR_ARRLEN, r, 0, x->ids[rt].array_stride, 0);
	xl_instr(x, k)->imm = xl_off_add(p.off, off);
	xl_instr(x, k)->aux = (uint8_t)p.slot;
	xl_set_val(x, in[2], in[1], &r, 1);
}
