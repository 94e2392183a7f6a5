/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: variable pointers (VariablePointers,
 * VariablePointersStorageBuffer; VK_KHR_variable_pointers) and pointer
 * arithmetic (OpPtrAccessChain, OpPtrEqual/NotEqual/Diff).
 *
 * Logical pointers are resolved at translation time (xlate_mem.c). A
 * variable pointer — the result of OpSelect or OpPhi on pointers, a
 * pointer loaded from a Function variable, returned by a function, or
 * any StorageBuffer / Workgroup pointer of a module that declares the
 * capability — is a value of two registers: the resource slot of the
 * buffer it points into (0 in shared memory) and a byte offset in it.
 * Every pointer of those storage classes gets them when it is made (so a
 * phi can name a pointer defined later in the loop), and a value used as
 * a pointer becomes a "canonical" xptr: slot chosen per lane through the
 * descriptor-array path (IR_LDBUFX & co.), offset in the dynamic
 * register. Bounds checks stay per buffer (robust access); a slot
 * outside the pointer's own descriptor array becomes XL_VPTR_NULL_SLOT,
 * which matches no binding, so nothing is reached through it.
 */
#include "xlate.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

/* The slot of a null (or out-of-array) variable pointer: never a bound
 * resource (IR_LDBUFX & co. check the index against IR_MAX_BUFFERS). */
#define XL_VPTR_NULL_SLOT IR_MAX_BUFFERS

bool
xl_is_vptr_type(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, type);

	return x->var_ptrs && t->op == SpvOpTypePointer &&
	       (t->storage == SpvStorageClassStorageBuffer ||
	        t->storage == SpvStorageClassWorkgroup);
}

uint32_t
xl_vptr_null_slot(void)
{
	return XL_VPTR_NULL_SLOT;
}

/* The byte offset of p in one register: constant, dynamic, or both. */
static uint32_t
offset_reg(struct xl *x, const struct xptr *p)
{
	uint32_t r;

	if (!p->dyn)
		return xl_const_reg(x, p->off);
	if (!p->off)
		return p->dyn;
	r = xl_new_regs(x, 1);
	xl_emit(x, IR_ADDSAT_U, r, p->dyn, xl_const_reg(x, p->off), 0);
	return r;
}

/* The slot of p in one register (see the file comment). */
static uint32_t
slot_reg(struct xl *x, const struct xptr *p)
{
	uint32_t ok, s, r;

	if (p->space == XS_SHARED)
		return IR_REG_ZERO;
	if (p->vptr)
		return p->desc_idx;
	if (!p->desc_idx)
		return xl_const_reg(x, p->slot);
	/* An index into the pointer's own descriptor array: past its end
	 * it must not reach the next binding's slot. */
	ok = xl_new_regs(x, 1);
	xl_emit(x, IR_ULT, ok, p->desc_idx, xl_const_reg(x, p->nslots), 0);
	s = xl_new_regs(x, 1);
	xl_emit(x, IR_IADD, s, p->desc_idx, xl_const_reg(x, p->slot), 0);
	r = xl_new_regs(x, 1);
	xl_emit(x, IR_SELECT, r, ok, s, xl_const_reg(x, XL_VPTR_NULL_SLOT));
	return r;
}

void
xl_vptr_regs(struct xl *x, uint32_t id)
{
	struct xid *d = xl_id(x, id);
	const struct xptr *p;
	uint32_t r[2];

	if (d->kind != XK_PTR || d->nregs == 2 || !xl_is_vptr_type(x, d->type))
		return;
	p = &x->ptrs[d->ptr];
	if ((p->space != XS_BUF && p->space != XS_SHARED) || p->desc_array ||
	    p->unbound)
		return;
	if (p->space == XS_BUF && !p->vptr) {
		/* Whatever the pointer may become reaches these slots. */
		for (uint32_t i = 0; i < (p->desc_idx ? p->nslots : 1); i++)
			x->p->buffers[p->slot + i].used = true;
	}
	r[0] = slot_reg(x, p);
	r[1] = offset_reg(x, p);
	/* Still XK_PTR: the registers ride along (xl_val reads them). */
	x->rpool = xl_grow(x, x->rpool, &x->caprpool, x->nrpool + 2, 4);
	d = xl_id(x, id);
	d->regs = x->nrpool;
	d->nregs = 2;
	x->rpool[x->nrpool++] = r[0];
	x->rpool[x->nrpool++] = r[1];
}

bool
xl_vptr_ptr(struct xl *x, uint32_t id, struct xptr *out)
{
	const struct xid *d = xl_id(x, id);
	const struct xtype *t;
	const uint32_t *r;
	uint32_t n;

	if ((d->kind != XK_VALUE && d->kind != XK_CONST) ||
	    !xl_is_vptr_type(x, d->type))
		return false;
	t = xl_type(x, d->type);
	r = xl_val(x, id, &n);
	if (n != 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "variable pointer %u", id);
	if (xl_type(x, t->elem)->op == SpvOpTypeMatrix)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "variable pointer %u to a "
		        "matrix (its layout decorations are its parent's)", id);
	memset(out, 0, sizeof(*out));
	out->vptr = true;
	out->type = t->elem;
	out->comp_stride = 4;
	out->writable = true;
	out->dyn = r[1] == IR_REG_ZERO ? 0 : r[1];
	if (t->storage == SpvStorageClassWorkgroup) {
		/* Block Workgroup variables (explicit layout) and plain
		 * ones cannot be mixed in a module. */
		out->space = XS_SHARED;
		out->explicit_layout = x->wg_block_base != UINT32_MAX;
		return true;
	}
	out->space = XS_BUF;
	out->explicit_layout = true;
	out->slot = 0;
	out->nslots = IR_MAX_BUFFERS;
	out->desc_idx = r[0] == IR_REG_ZERO ? 0 : r[0];
	return true;
}

/* Bytes between elements for OpPtrAccessChain: the ArrayStride of the
 * base pointer's type, or the pointee's size in a plain layout. */
static uint32_t
element_stride(struct xl *x, uint32_t ptr_type, const struct xptr *p)
{
	uint32_t s = x->ids[ptr_type].array_stride;

	if (s)
		return s;
	if (!p->explicit_layout && p->space == XS_SHARED)
		return xl_type(x, p->type)->scalars * 4;
	xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpPtrAccessChain base type %u "
	        "without ArrayStride", ptr_type);
}

void
xl_ptr_element(struct xl *x, struct xptr *p, uint32_t ptr_type,
               uint32_t index_id)
{
	uint32_t stride = element_stride(x, ptr_type, p), c;

	if (p->space == XS_PHYS) {
		/* A new base address: addr + sext(index) * stride in 64
		 * bits, so elements before the base work too. */
		uint32_t n;
		const uint32_t *iv = xl_val(x, index_id, &n);
		uint32_t base = xl_phys_addr(x, p, 0), idx = xl_new_regs(x, 2);
		uint32_t prod = xl_new_regs(x, 2), sum = xl_new_regs(x, 2);
		uint32_t k;

		xl_emit(x, IR_MOV, idx, iv[0], 0, 0);
		if (n == 2)
			xl_emit(x, IR_MOV, idx + 1, iv[1], 0, 0);
		else
			xl_emit(x, IR_SAR, idx + 1, iv[0],
			        xl_const_reg(x, 31), 0);
		k = xl_emit(x, IR_MUL64, prod, idx, idx + 1,
		            xl_const_reg(x, stride));
		xl_instr(x, k)->d = IR_REG_ZERO;
		k = xl_emit(x, IR_ADD64, sum, base, base + 1, prod);
		xl_instr(x, k)->d = prod + 1;
		p->addr_lo = sum;
		p->addr_hi = sum + 1;
		p->off = 0;
		p->dyn = 0;
		return;
	}
	if (p->space != XS_BUF && p->space != XS_SHARED)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "OpPtrAccessChain outside "
		        "storage buffers, shared memory and buffer device "
		        "addresses");
	if (xl_const_u32(x, index_id, &c)) {
		p->off = xl_off_add(p->off, (uint64_t)c * stride);
		return;
	}
	xl_add_dyn(x, p, xl_index_reg(x, index_id), stride);
}

/* OpPtrEqual, OpPtrNotEqual, OpPtrDiff on variable pointers (slot and
 * offset registers) or buffer device addresses (64-bit values). */
bool
xl_vptr_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff, na, nb, r;
	const uint32_t *a, *b;

	if (op != SpvOpPtrEqual && op != SpvOpPtrNotEqual &&
	    op != SpvOpPtrDiff)
		return false;
	if (wc < 5)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short pointer comparison");
	a = xl_val(x, in[3], &na);
	b = xl_val(x, in[4], &nb);
	if (na != 2 || nb != 2)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "pointer comparison of "
		        "pointers that are not variable pointers or device "
		        "addresses");
	if (op == SpvOpPtrDiff) {
		const uint32_t ptype = xl_id(x, in[3])->type;
		const struct xtype *t = xl_type(x, ptype);
		const bool phys = t->storage ==
		                  SpvStorageClassPhysicalStorageBuffer;
		uint32_t stride = x->ids[ptype].array_stride;
		uint32_t diff = xl_new_regs(x, 1);

		if (!stride)
			stride = xl_type(x, t->elem)->scalars * 4;
		/* Pointers into one buffer (the only valid use) are less
		 * than 4 GiB apart: the low address words, or the offsets,
		 * subtract exactly. */
		xl_emit(x, IR_ISUB, diff, phys ? a[0] : a[1],
		        phys ? b[0] : b[1], 0);
		r = xl_new_regs(x, 1);
		xl_emit(x, IR_SDIV, r, diff, xl_const_reg(x, stride), 0);
		xl_set_val(x, in[2], in[1], &r, 1);
		return true;
	}
	uint32_t e0 = xl_new_regs(x, 1), e1 = xl_new_regs(x, 1);

	xl_emit(x, IR_IEQ, e0, a[0], b[0], 0);
	xl_emit(x, IR_IEQ, e1, a[1], b[1], 0);
	r = xl_new_regs(x, 1);
	xl_emit(x, IR_AND, r, e0, e1, 0);
	if (op == SpvOpPtrNotEqual) {
		uint32_t nr = xl_new_regs(x, 1);

		xl_emit(x, IR_LNOT, nr, r, 0, 0);
		r = nr;
	}
	xl_set_val(x, in[2], in[1], &r, 1);
	return true;
}
