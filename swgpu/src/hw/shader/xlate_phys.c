/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: physical storage buffer pointers (buffer
 * device addresses, PhysicalStorageBuffer64).
 *
 * A pointer to PhysicalStorageBuffer is a value: a 64-bit GPU address in
 * two registers, loaded from and stored to memory like a uint64_t. Used
 * as a pointer it becomes a PHYS xptr (the address's registers plus a
 * constant and a dynamic byte offset, in the pointee's explicit layout),
 * so access chains work as on buffers; every scalar access then computes
 * its full address into a register pair (IR_ADD64) and the interpreter
 * translates it in the context's VA space (interp_phys.c). A bad address
 * is a page fault of the context, as for any packet.
 */
#include "xlate.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

static bool
is_phys_ptr_type(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, type);

	return t->op == SpvOpTypePointer &&
	       t->storage == SpvStorageClassPhysicalStorageBuffer;
}

bool
xl_phys_ptr(struct xl *x, uint32_t id, struct xptr *out)
{
	const struct xid *d = xl_id(x, id);
	const uint32_t *r;
	uint32_t n;

	if ((d->kind != XK_VALUE && d->kind != XK_CONST) ||
	    !is_phys_ptr_type(x, d->type))
		return false;
	r = xl_val(x, id, &n);
	if (n != 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "pointer %u is not 64-bit",
		        id);
	memset(out, 0, sizeof(*out));
	out->space = XS_PHYS;
	out->explicit_layout = true;
	out->type = xl_type(x, d->type)->elem;
	out->comp_stride = 4;
	out->writable = true;
	out->addr_lo = r[0];
	out->addr_hi = r[1];
	return true;
}

uint32_t
xl_phys_addr(struct xl *x, const struct xptr *p, uint32_t extra)
{
	uint32_t off = p->off + extra, lo = xl_const_reg(x, off);
	uint32_t pair = xl_new_regs(x, 2);

	if (p->dyn) {
		uint32_t t = xl_new_regs(x, 1);

		xl_emit(x, IR_IADD, t, p->dyn, lo, 0);
		lo = t;
	}
	/* Offsets are 32-bit: the pointee's layout and its indices. */
	uint32_t k = xl_emit(x, IR_ADD64, pair, p->addr_lo, p->addr_hi, lo);
	xl_instr(x, k)->d = IR_REG_ZERO;
	return pair;
}

/* The two registers of the address a pointer id holds or names. */
static void
ptr_regs(struct xl *x, uint32_t id, uint32_t out[2])
{
	const struct xid *d = xl_id(x, id);

	if (d->kind == XK_PTR) {
		const struct xptr *p = &x->ptrs[d->ptr];
		uint32_t pair;

		if (p->space != XS_PHYS)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "pointer %u has no "
			        "address (not a physical storage buffer "
			        "pointer)", id);
		pair = xl_phys_addr(x, p, 0);
		out[0] = pair;
		out[1] = pair + 1;
		return;
	}
	uint32_t n;
	const uint32_t *r = xl_val(x, id, &n);

	if (n != 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "%u is not a 64-bit value",
		        id);
	out[0] = r[0];
	out[1] = r[1];
}

bool
xl_phys_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff, r[2];

	switch (op) {
	case SpvOpConvertUToPtr:
	case SpvOpConvertPtrToU:
		break;
	case SpvOpBitcast:
		/* Only bitcasts to or from a pointer are ours. */
		if (wc < 4 || (!is_phys_ptr_type(x, in[1]) &&
		               !is_phys_ptr_type(x, xl_id(x, in[3])->type)))
			return false;
		break;
	default:
		return false;
	}
	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short pointer conversion");
	if (xl_type(x, in[1])->scalars != 2)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "pointer conversion to or "
		        "from a %u-register type", xl_type(x, in[1])->scalars);
	ptr_regs(x, in[3], r);
	xl_set_val(x, in[2], in[1], r, 2);
	return true;
}

void
xl_phys_regs(struct xl *x, uint32_t id)
{
	struct xid *d = xl_id(x, id);
	uint32_t pair;

	if (d->kind != XK_PTR || d->nregs == 2 || !is_phys_ptr_type(x, d->type))
		return;
	pair = xl_phys_addr(x, &x->ptrs[d->ptr], 0);
	/* Still XK_PTR (keeps the layout for loads and further access
	 * chains); the registers ride along as for variable pointers. */
	x->rpool = xl_grow(x, x->rpool, &x->caprpool, x->nrpool + 2, 4);
	d->regs = x->nrpool;
	d->nregs = 2;
	x->rpool[x->nrpool++] = pair;
	x->rpool[x->nrpool++] = pair + 1;
}
