/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: variables. Buffer variables become resource
 * slots, push constants and Workgroup variables byte ranges, Private and
 * Function variables and built-ins ranges of registers; the pointers to
 * them are the roots every access chain starts from (xlate_mem.c). Only
 * what lives in registers or shared memory has a size limit, and a
 * variable over it fails with its name.
 */
#include "xlate.h"

#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <swgpu/swgpu_packet.h>

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
		xl_set_ptr(x, id, ptr_type, &ptr, XK_PTR);
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
	xl_set_ptr(x, id, ptr_type, &ptr, XK_PTR);
}

uint32_t
xl_add_slots(struct xl *x, const swgpu_shader_binding *b, uint32_t count,
             uint8_t kind, bool writable)
{
	struct ir_program *p = x->p;
	uint32_t first = p->nbuffers;

	if (p->nbuffers + count > IR_MAX_BUFFERS)
		xl_limit(x,
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

			if (!xl_mdeco(x, type, m, SpvDecorationOffset, &o))
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "member %u of %u without Offset", m,
				        type);
			xl_mdeco(x, type, m, SpvDecorationMatrixStride, &ms);
			uint64_t e = o + explicit_size(
				x, x->pool[t->members + m], ms,
				xl_mdeco(x, type, m, SpvDecorationRowMajor,
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

/* Workgroup variables share maxComputeSharedMemorySize bytes. */
static _Noreturn void
shared_too_large(struct xl *x, uint32_t id, uint64_t end)
{
	xl_fail(x, SWGPU_ERR_INVALID_ARG, "Workgroup variable %s would end "
	        "at byte %llu of shared memory: over the %u bytes of "
	        "maxComputeSharedMemorySize", xl_name(x, id, 0),
	        (unsigned long long)end, SWGPU_SHADER_MAX_SHARED_MEMORY);
}

/* Private and Function variables live in registers, one per 32-bit
 * scalar for every invocation: the largest one is remembered for the
 * register-file check, and one over XL_MAX_VALUE_SCALARS fails here,
 * by name. */
static uint32_t
register_var_size(struct xl *x, uint32_t id, uint32_t type,
                  const char *storage)
{
	uint32_t n = xl_type(x, type)->scalars;

	if (n > XL_MAX_VALUE_SCALARS)
		xl_limit(x, "%s variable %s holds %s%u "
		        "32-bit scalars: variables in registers are limited "
		        "to %u per invocation (arrays that large belong in a "
		        "storage buffer)", storage, xl_name(x, id, 0),
		        n == XL_HUGE ? "over " : "", n, XL_MAX_VALUE_SCALARS);
	if (n > x->big_var_scalars) {
		x->big_var = id;
		x->big_var_scalars = n;
	}
	return n;
}

void
xl_check_register_file(struct xl *x)
{
	const uint32_t *ls = x->p->local_size;
	uint64_t lanes = (uint64_t)ls[0] * ls[1] * ls[2];

	lanes = (lanes + 31) / 32 * 32;
	if ((uint64_t)x->p->nregs * lanes * 4 <= IR_MAX_REGFILE_BYTES)
		return;
	if (x->big_var)
		xl_limit(x, "shader needs %u registers "
		        "x %llu invocations, over the engine's %llu MiB "
		        "register file; the largest Function/Private "
		        "variable, %s, holds %u of them", x->p->nregs,
		        (unsigned long long)lanes,
		        (unsigned long long)(IR_MAX_REGFILE_BYTES >> 20),
		        xl_name(x, x->big_var, 0), x->big_var_scalars);
	xl_limit(x, "shader needs %u registers x %llu "
	        "invocations, over the engine's %llu MiB register file",
	        x->p->nregs, (unsigned long long)lanes,
	        (unsigned long long)(IR_MAX_REGFILE_BYTES >> 20));
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
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "Workgroup variable %s "
		        "initialized with other than OpConstantNull",
		        xl_name(x, id, 0));
	if (x->wg_block_base == UINT32_MAX)
		x->wg_block_base = x->p->shared_bytes;
	if (x->wg_block_base + size > SWGPU_SHADER_MAX_SHARED_MEMORY)
		shared_too_large(x, id, x->wg_block_base + size);
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
	xl_set_ptr(x, id, in[1], &ptr, XK_PTR);
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
			shared_too_large(x, id, x->p->shared_bytes + size);
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
		ptr.nslots = register_var_size(x, id, pointee, "Private");
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
	xl_set_ptr(x, id, in[1], &ptr, XK_PTR);
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
	ptr.nslots = register_var_size(x, in[2], pt->elem, "Function");
	ptr.slot = xl_new_regs(x, ptr.nslots);
	ptr.comp_stride = 1;
	ptr.writable = true;
	/* Inlined again for every call: a fresh variable each time. */
	xl_id(x, in[2])->kind = XK_NONE;
	xl_set_ptr(x, in[2], in[1], &ptr, XK_PTR);
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
