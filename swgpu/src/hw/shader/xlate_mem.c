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

static bool
mdeco(struct xl *x, uint32_t sid, uint32_t member, uint32_t deco,
      uint32_t *value)
{
	return xl_mdeco(x, sid, member, deco, value);
}

struct xptr *
xl_ptr(struct xl *x, uint32_t id)
{
	struct xid *d = xl_id(x, id);
	struct xptr phys;

	if (d->kind != XK_PTR && xl_phys_ptr(x, id, &phys)) {
		/* A pointer value (buffer device address): a PHYS xptr for
		 * this use. */
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

const swgpu_shader_binding *
xl_find_binding(struct xl *x, uint32_t set, uint32_t binding)
{
	for (uint32_t i = 0; i < x->info->binding_count; i++) {
		const swgpu_shader_binding *b = &x->info->bindings[i];

		if (b->set == set && b->binding == binding)
			return b;
	}
	return NULL;
}

static void
buffer_var(struct xl *x, uint32_t id, uint32_t ptr_type, uint32_t pointee,
           uint32_t storage)
{
	const struct xid *d = xl_id(x, id);
	const struct xtype *t = xl_type(x, pointee);
	const struct xid *bd;
	const swgpu_shader_binding *b;
	struct xptr ptr = { 0 };
	uint32_t count = 1, block = pointee;
	bool storage_buf;

	if (t->op == SpvOpTypeArray || t->op == SpvOpTypeRuntimeArray) {
		count = t->op == SpvOpTypeArray ? t->count : 0;
		block = t->elem;
	}
	bd = xl_id(x, block);
	if (xl_type(x, block)->op != SpvOpTypeStruct)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "buffer variable %u is not a block", id);
	storage_buf = storage == SpvStorageClassStorageBuffer ||
	              bd->is_buffer_block;
	if (!d->has_set || !d->has_binding)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "buffer variable %u without set/binding", id);
	b = xl_find_binding(x, d->set, d->binding);
	if (b && t->op == SpvOpTypeRuntimeArray)
		count = b->count;    /* the layout sizes runtime arrays */
	ptr.space = XS_BUF;
	ptr.explicit_layout = true;
	ptr.desc_array = t->op != SpvOpTypeStruct;
	ptr.type = pointee;
	ptr.nslots = count;
	ptr.comp_stride = 4;
	ptr.set = d->set;
	ptr.binding = d->binding;
	if (!b) {
		/* Fine as long as the shader never accesses it (the layout
		 * only needs statically used bindings). */
		ptr.unbound = true;
		set_ptr(x, id, ptr_type, &ptr);
		return;
	}
	if (b->set >= SWGPU_SHADER_MAX_SETS || count > b->count)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "binding (set %u, binding %u): bad set or count",
		        d->set, d->binding);
	if (storage_buf ? (b->type != SWGPU_DESCRIPTOR_STORAGE_BUFFER &&
	                   b->type != SWGPU_DESCRIPTOR_STORAGE_BUFFER_DYNAMIC)
	                : (b->type != SWGPU_DESCRIPTOR_UNIFORM_BUFFER &&
	                   b->type != SWGPU_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC))
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "binding (set %u, binding %u): layout type %u does not "
		        "match the shader's %s buffer", d->set, d->binding,
		        b->type, storage_buf ? "storage" : "uniform");
	ptr.slot = xl_add_slots(x, b, count, IR_RES_BUFFER, storage_buf);
	ptr.writable = storage_buf;
	set_ptr(x, id, ptr_type, &ptr);
}

uint32_t
xl_add_slots(struct xl *x, const swgpu_shader_binding *b, uint32_t count,
             uint8_t kind, bool writable)
{
	struct ir_program *p = x->p;
	uint32_t first = p->nbuffers;

	if (p->nbuffers + count > IR_MAX_BUFFERS)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "too many buffers, images and texel buffers");
	p->buffers = realloc(p->buffers,
	                     (p->nbuffers + count) * sizeof(*p->buffers));
	if (!p->buffers)
		xl_fail(x, SWGPU_ERR_NO_HOST_MEMORY, "out of memory");
	for (uint32_t i = 0; i < count; i++) {
		struct ir_buffer *ib = &p->buffers[first + i];
		bool dyn = b->type == SWGPU_DESCRIPTOR_STORAGE_BUFFER_DYNAMIC ||
		           b->type == SWGPU_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC;

		memset(ib, 0, sizeof(*ib));
		ib->set = b->set;
		ib->desc_offset = b->offset + i * SWGPU_DESCRIPTOR_SIZE;
		ib->dynamic_index = dyn ? b->dynamic_index + i : UINT32_MAX;
		if (dyn && b->dynamic_index + i >= SWGPU_BIND_TABLE_MAX_DYNAMIC)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "dynamic index over the limit");
		ib->writable = writable;
		ib->kind = kind;
		ib->desc_type = (uint8_t)b->type;
	}
	p->nbuffers += count;
	return first;
}

/* A constant whose every word is 0 (OpConstantNull, or equal to it). */
static bool
const_is_zero(struct xl *x, uint32_t id)
{
	const struct xid *d = xl_id(x, id);

	if (d->kind != XK_CONST)
		return false;
	for (uint32_t i = 0; i < xl_type(x, d->type)->scalars; i++)
		if (x->cpool[d->cval + i])
			return false;
	return true;
}

/* Bytes a value of type takes in an explicit layout (Offset,
 * ArrayStride, MatrixStride decorations); mstride/row_major of the
 * member holding it. */
static uint64_t
explicit_size(struct xl *x, uint32_t type, uint32_t mstride, bool row_major)
{
	const struct xtype *t = xl_type(x, type);

	switch (t->op) {
	case SpvOpTypeBool:
		return 4;
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		return t->width / 8;
	case SpvOpTypeVector:
		return (uint64_t)t->count * explicit_size(x, t->elem, 0, false);
	case SpvOpTypeMatrix: {
		const struct xtype *col = xl_type(x, t->elem);
		uint64_t es = explicit_size(x, col->elem, 0, false);

		if (!mstride)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "matrix without MatrixStride");
		return row_major ? (uint64_t)(col->count - 1) * mstride +
		                   t->count * es
		                 : (uint64_t)(t->count - 1) * mstride +
		                   col->count * es;
	}
	case SpvOpTypeArray:
		if (!x->ids[type].array_stride)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "array type %u without ArrayStride", type);
		return (uint64_t)x->ids[type].array_stride * t->count;
	case SpvOpTypeStruct: {
		uint64_t end = 0;

		for (uint32_t m = 0; m < t->nmembers; m++) {
			uint32_t o, ms = 0;

			if (!mdeco(x, type, m, SpvDecorationOffset, &o))
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "member %u of %u without Offset", m,
				        type);
			mdeco(x, type, m, SpvDecorationMatrixStride, &ms);
			uint64_t e = o + explicit_size(
				x, x->pool[t->members + m], ms,
				mdeco(x, type, m, SpvDecorationRowMajor,
				      NULL));
			if (e > end)
				end = e;
		}
		return end;
	}
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "type %u (opcode %u) in an explicit layout", type,
		        t->op);
	}
}

/*
 * A Block-decorated Workgroup variable (VK_KHR_workgroup_memory_
 * explicit_layout): laid out by its Offset/ArrayStride decorations, and
 * every such variable of the shader aliases the same bytes (the
 * extension's rule; they cannot be mixed with plain Workgroup
 * variables). A null initializer needs nothing: shared memory starts
 * zeroed in every workgroup.
 */
static void
workgroup_block_var(struct xl *x, const uint32_t *in, uint32_t wc,
                    uint32_t id, uint32_t pointee)
{
	struct xptr ptr = { 0 };
	uint64_t size = explicit_size(x, pointee, 0, false);

	if (wc > 4 && !const_is_zero(x, in[4]))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "Workgroup variable %u "
		        "initialized with other than OpConstantNull", id);
	if (x->wg_block_base == UINT32_MAX)
		x->wg_block_base = x->p->shared_bytes;
	if (x->wg_block_base + size > SWGPU_SHADER_MAX_SHARED_MEMORY)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "shared memory over %u "
		        "bytes", SWGPU_SHADER_MAX_SHARED_MEMORY);
	size = (size + 3) & ~3ull;   /* whole words for 32-bit accesses */
	if (x->wg_block_base + size > x->p->shared_bytes)
		x->p->shared_bytes = (uint32_t)(x->wg_block_base + size);
	ptr.space = XS_SHARED;
	ptr.explicit_layout = true;
	ptr.off = x->wg_block_base;
	ptr.comp_stride = 4;
	ptr.nslots = (uint32_t)size;
	ptr.writable = true;
	ptr.type = pointee;
	set_ptr(x, id, in[1], &ptr);
}

void
xl_global_var(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const struct xtype *pt;
	uint32_t pointee, storage, id;
	struct xptr ptr = { 0 };

	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpVariable");
	pt = xl_type(x, in[1]);
	id = in[2];
	storage = in[3];
	if (pt->op != SpvOpTypePointer || pt->storage != storage)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad OpVariable type");
	if (xl_id(x, id)->kind != XK_NONE)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u defined twice", id);
	pointee = pt->elem;
	switch (storage) {
	case SpvStorageClassStorageBuffer:
	case SpvStorageClassUniform:
		buffer_var(x, id, in[1], pointee, storage);
		return;
	case SpvStorageClassUniformConstant:
		xl_image_var(x, id, in[1], pointee);
		return;
	case SpvStorageClassPushConstant:
		ptr.space = XS_PUSH;
		ptr.explicit_layout = true;
		ptr.comp_stride = 4;
		break;
	case SpvStorageClassWorkgroup: {
		uint64_t size = (uint64_t)xl_type(x, pointee)->scalars * 4;

		if (xl_id(x, pointee)->is_block) {
			workgroup_block_var(x, in, wc, id, pointee);
			return;
		}

		if (x->p->shared_bytes + size > SWGPU_SHADER_MAX_SHARED_MEMORY)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "shared memory over %u bytes",
			        SWGPU_SHADER_MAX_SHARED_MEMORY);
		/* VK_KHR_zero_initialize_workgroup_memory: the initializer
		 * can only be OpConstantNull, and every workgroup starts
		 * with its shared memory zeroed (interp.c) anyway. */
		if (wc > 4 && !const_is_zero(x, in[4]))
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "Workgroup variable "
			        "%u initialized with other than OpConstantNull",
			        id);
		ptr.space = XS_SHARED;
		ptr.off = x->p->shared_bytes;
		ptr.comp_stride = 4;
		ptr.nslots = (uint32_t)size;
		ptr.writable = true;
		x->p->shared_bytes += (uint32_t)size;
		break;
	}
	case SpvStorageClassPrivate:
		ptr.space = XS_PRIV;
		ptr.nslots = xl_type(x, pointee)->scalars;
		ptr.slot = xl_new_regs(x, ptr.nslots);
		ptr.comp_stride = 1;
		ptr.writable = true;
		if (wc > 4) {
			x->globals = xl_grow(x, x->globals, &x->capglobals,
			                     x->nglobals + 2, 4);
			x->globals[x->nglobals++] = id;
			x->globals[x->nglobals++] = in[4];
		}
		break;
	case SpvStorageClassInput:
	case SpvStorageClassOutput:
		xl_io_var(x, id, pointee, storage, &ptr);
		if (wc > 4 && storage == SpvStorageClassOutput) {
			/* an initialized output: stored at entry */
			x->globals = xl_grow(x, x->globals, &x->capglobals,
			                     x->nglobals + 2, 4);
			x->globals[x->nglobals++] = id;
			x->globals[x->nglobals++] = in[4];
		}
		break;
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "storage class %u not supported", storage);
	}
	ptr.type = pointee;
	set_ptr(x, id, in[1], &ptr);
}

void
xl_function_var(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const struct xtype *pt;
	struct xptr ptr = { 0 };

	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpVariable");
	pt = xl_type(x, in[1]);
	if (pt->op != SpvOpTypePointer || in[3] != SpvStorageClassFunction)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "function variable %u with storage class %u", in[2],
		        in[3]);
	ptr.space = XS_PRIV;
	ptr.type = pt->elem;
	ptr.nslots = xl_type(x, pt->elem)->scalars;
	ptr.slot = xl_new_regs(x, ptr.nslots);
	ptr.comp_stride = 1;
	ptr.writable = true;
	/* Inlined again for every call: a fresh variable each time. */
	xl_id(x, in[2])->kind = XK_NONE;
	set_ptr(x, in[2], in[1], &ptr);
	if (wc > 4) {
		uint32_t n;
		const uint32_t *r = xl_val(x, in[4], &n);

		xl_store_regs(x, xl_ptr(x, in[2]), r, n);
	}
}

void
xl_init_privates(struct xl *x)
{
	for (uint32_t i = 0; i < x->nglobals; i += 2) {
		uint32_t n;
		const uint32_t *r = xl_val(x, x->globals[i + 1], &n);

		xl_store_regs(x, xl_ptr(x, x->globals[i]), r, n);
	}
}

static void
add_dyn(struct xl *x, struct xptr *p, uint32_t idx_reg, uint32_t stride)
{
	uint32_t t = idx_reg;

	if (stride != 1) {
		t = xl_new_regs(x, 1);
		xl_emit(x, IR_IMUL, t, idx_reg, xl_const_reg(x, stride), 0);
	}
	if (p->dyn) {
		uint32_t s = xl_new_regs(x, 1);

		xl_emit(x, IR_IADD, s, p->dyn, t, 0);
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
static uint32_t
index_reg(struct xl *x, uint32_t id)
{
	uint32_t n;
	const uint32_t *r = xl_val(x, id, &n);

	if (n != 1 && n != 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "index %u is not a scalar",
		        id);
	return r[0];
}

void
xl_access_chain(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct xptr p;

	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpAccessChain");
	p = *xl_ptr(x, in[3]);
	for (uint32_t i = 4; i < wc; i++) {
		const struct xtype *t = xl_type(x, p.type);
		uint32_t c = 0;
		bool is_const = xl_const_u32(x, in[i], &c);

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

				if (!mdeco(x, p.type, c, SpvDecorationOffset,
				           &o))
					xl_fail(x, SWGPU_ERR_INVALID_ARG,
					        "member %u of %u without "
					        "Offset", c, p.type);
				p.off += o;
				p.row_major = mdeco(x, p.type, c,
				                    SpvDecorationRowMajor, NULL);
				mdeco(x, p.type, c, SpvDecorationMatrixStride,
				      &p.mstride);
			} else {
				for (uint32_t m = 0; m < c; m++)
					p.off += xl_type(x,
					    x->pool[t->members + m])->scalars *
					    unit_scale(&p);
			}
			p.comp_stride = p.explicit_layout ? 4 : unit_scale(&p);
			p.type = x->pool[t->members + c];
			break;
		case SpvOpTypeArray:
		case SpvOpTypeRuntimeArray: {
			uint32_t s = array_stride(x, &p, p.type);

			if (is_const)
				p.off += c * s;
			else
				add_dyn(x, &p, index_reg(x, in[i]), s);
			p.type = t->elem;
			break;
		}
		case SpvOpTypeMatrix: {
			uint32_t rows = xl_type(x, t->elem)->count, s;

			if (p.explicit_layout) {
				s = p.row_major ? 4 : p.mstride;
				p.comp_stride = p.row_major ? p.mstride : 4;
			} else {
				s = rows * unit_scale(&p);
				p.comp_stride = unit_scale(&p);
			}
			if (is_const)
				p.off += c * s;
			else
				add_dyn(x, &p, index_reg(x, in[i]), s);
			p.type = t->elem;
			break;
		}
		case SpvOpTypeVector: {
			uint32_t s = elem_stride(x, &p, t->elem,
			                         p.comp_stride);

			if (is_const)
				p.off += c * s;
			else
				add_dyn(x, &p, index_reg(x, in[i]), s);
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
		 * layouts; elsewhere a 32-bit slot */
		nb[*n] = t->width < 32 && p->explicit_layout ?
		         t->width / 8 : 4;
		outs[(*n)++] = off;
		if (t->scalars == 2) { /* 64-bit: high word next */
			nb[*n] = 4;
			outs[(*n)++] = off + (p->space == XS_PRIV ||
			                      p->space == XS_INPUT ? 1 : 4);
		}
		break;
	case SpvOpTypePointer:
		/* A physical pointer stored in memory: a 64-bit address. */
		if (t->scalars != 2 || *n + 2 > max)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "load/store of a logical pointer");
		nb[*n] = 4;
		outs[(*n)++] = off;
		nb[*n] = 4;
		outs[(*n)++] = off + (p->space == XS_PRIV ||
		                      p->space == XS_INPUT ? 1 : 4);
		break;
	case SpvOpTypeVector:
		for (uint32_t i = 0; i < t->count; i++)
			flatten(x, p, t->elem, off + i *
			        elem_stride(x, p, t->elem, comp_stride),
			        comp_stride, mstride, row_major, outs, nb, n, max);
		break;
	case SpvOpTypeMatrix: {
		uint32_t rows = xl_type(x, t->elem)->count;
		uint32_t cs, es;

		if (p->explicit_layout &&
		    xl_type(x, xl_type(x, t->elem)->elem)->width < 32)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "16-bit matrices in buffers not supported");
		if (p->explicit_layout) {
			cs = row_major ? 4 : mstride;
			es = row_major ? mstride : 4;
		} else {
			cs = rows * scale;
			es = scale;
		}
		for (uint32_t i = 0; i < t->count; i++)
			flatten(x, p, t->elem, off + i * cs, es, mstride,
			        row_major, outs, nb, n, max);
		break;
	}
	case SpvOpTypeArray: {
		uint32_t s = array_stride(x, p, type);

		for (uint32_t i = 0; i < t->count; i++)
			flatten(x, p, t->elem, off + i * s,
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
				if (!mdeco(x, type, m, SpvDecorationOffset,
				           &mo))
					xl_fail(x, SWGPU_ERR_INVALID_ARG,
					        "member without Offset");
				mo += off;
				rm = mdeco(x, type, m, SpvDecorationRowMajor,
				           NULL);
				mdeco(x, type, m, SpvDecorationMatrixStride,
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

	if (cnt == 0)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "load/store of opaque type");
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
			xl_instr(x, k)->aux2 = (uint8_t)nb[i];
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
			xl_instr(x, k)->aux2 = (uint8_t)nb[i];
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
	if (p.space != XS_BUF || p.desc_array || p.desc_idx ||
	    t->op != SpvOpTypeStruct ||
	    in[4] >= t->nmembers ||
	    !mdeco(x, p.type, in[4], SpvDecorationOffset, &off))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad OpArrayLength");
	rt = x->pool[t->members + in[4]];
	if (xl_type(x, rt)->op != SpvOpTypeRuntimeArray ||
	    !x->ids[rt].array_stride)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpArrayLength of non "
		        "runtime array");
	xl_mark_used(x, &p);
	r = xl_new_regs(x, 1);
	k = xl_emit(x, IR_ARRLEN, r, 0, x->ids[rt].array_stride, 0);
	xl_instr(x, k)->imm = p.off + off;
	xl_instr(x, k)->aux = (uint8_t)p.slot;
	xl_set_val(x, in[2], in[1], &r, 1);
}
