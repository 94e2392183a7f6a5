/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: module level (header, entry points,
 * execution modes, the declarations pass) and the shared helpers
 * (pools, registers, emission). Decorations and types:
 * xlate_type.c; capabilities: xlate_caps.c; constants: xlate_const.c.
 */
#include "xlate.h"
#include "hw/shader/ir_opt.h"
#include "hw/shader/ir_uniform.h"
#include "hw/shader/jit.h"
#include "hw/shader/spirv_opnames.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

_Noreturn void
xl_fail(struct xl *x, swgpu_result r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->msg, sizeof(x->msg), fmt, ap);
	va_end(ap);
	x->err = r;
	longjmp(x->fail, 1);
}

void *
xl_grow(struct xl *x, void *arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return arr;
	if (need > (1u << 26))
		xl_limit(x, "shader too large");
	while (n < need)
		n *= 2;
	p = realloc(arr, (size_t)n * elem);
	if (!p)
		xl_fail(x, SWGPU_ERR_NO_HOST_MEMORY, "out of host memory");
	memset((char *)p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
	*cap = n;
	return p;
}

struct xid *
xl_id(struct xl *x, uint32_t id)
{
	if (id == 0 || id >= x->bound)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u out of bound %u", id,
		        x->bound);
	return &x->ids[id];
}

const struct xtype *
xl_type(struct xl *x, uint32_t id)
{
	if (xl_id(x, id)->kind != XK_TYPE)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u is not a type", id);
	return &x->types[id];
}

uint32_t
xl_scalar_type(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, type);

	while (t->op == SpvOpTypeVector || t->op == SpvOpTypeMatrix) {
		type = t->elem;
		t = xl_type(x, type);
	}
	return type;
}

const char *
xl_name(struct xl *x, uint32_t id, uint32_t slot)
{
	static _Thread_local char buf[XL_NAME_SLOTS][80];
	char *b = buf[slot % XL_NAME_SLOTS];
	uint32_t at = id && id < x->bound ? x->ids[id].name : 0;

	if (at)
		snprintf(b, sizeof(buf[0]), "\"%.64s\"",
		         (const char *)(x->w + at));
	else
		snprintf(b, sizeof(buf[0]), "%%%u", id);
	return b;
}

uint32_t
xl_new_regs(struct xl *x, uint32_t n)
{
	uint32_t r = x->p->nregs;

	/* n may be XL_HUGE (a stage interface array of any length):
	 * compared without wrapping */
	if (n > (1u << 20) - r)
		xl_limit(x, "too many registers");
	x->p->nregs += n;
	return r;
}

uint32_t
xl_const_reg(struct xl *x, uint32_t value)
{
	struct ir_program *p = x->p;
	uint32_t h;

	if (value == 0)
		return IR_REG_ZERO;
	if (p->nconsts * 2 + 2 > x->cmap_cap) {
		uint32_t cap = x->cmap_cap ? x->cmap_cap * 2 : 256;
		uint32_t *v = calloc(cap, 4), *r = calloc(cap, 4);

		if (!v || !r) {
			free(v);
			free(r);
			xl_fail(x, SWGPU_ERR_NO_HOST_MEMORY, "out of memory");
		}
		for (uint32_t i = 0; i < x->cmap_cap; i++) {
			if (!x->cmap_reg[i])
				continue;
			h = (x->cmap_val[i] * 2654435761u) & (cap - 1);
			while (r[h])
				h = (h + 1) & (cap - 1);
			v[h] = x->cmap_val[i];
			r[h] = x->cmap_reg[i];
		}
		free(x->cmap_val);
		free(x->cmap_reg);
		x->cmap_val = v;
		x->cmap_reg = r;
		x->cmap_cap = cap;
	}
	h = (value * 2654435761u) & (x->cmap_cap - 1);
	while (x->cmap_reg[h]) {
		if (x->cmap_val[h] == value)
			return x->cmap_reg[h];
		h = (h + 1) & (x->cmap_cap - 1);
	}
	p->const_regs = xl_grow(x, p->const_regs, &x->capconsts,
	                        p->nconsts + 1, 4);
	p->const_vals = xl_grow(x, p->const_vals, &x->capconstvals,
	                        p->nconsts + 1, 4);
	x->cmap_val[h] = value;
	x->cmap_reg[h] = xl_new_regs(x, 1);
	p->const_regs[p->nconsts] = x->cmap_reg[h];
	p->const_vals[p->nconsts] = value;
	p->nconsts++;
	return x->cmap_reg[h];
}

void
xl_set_val(struct xl *x, uint32_t id, uint32_t type, const uint32_t *regs,
           uint32_t n)
{
	struct xid *d = xl_id(x, id);
	uint32_t at = x->nrpool;
	bool inside = regs && x->rpool && regs >= x->rpool &&
	              regs < x->rpool + x->nrpool;
	size_t roff = inside ? (size_t)(regs - x->rpool) : 0;

	x->rpool = xl_grow(x, x->rpool, &x->caprpool, at + n, 4);
	/* regs may point into rpool, which just moved. */
	if (inside)
		regs = x->rpool + roff;
	for (uint32_t i = 0; i < n; i++)
		x->rpool[at + i] = regs ? regs[i] : 0;
	x->nrpool += n;
	d->kind = XK_VALUE;
	d->type = type;
	d->regs = at;
	d->nregs = n;
}

const uint32_t *
xl_val(struct xl *x, uint32_t id, uint32_t *n)
{
	struct xid *d = xl_id(x, id);

	if (d->kind == XK_CONST && d->nregs == 0) {
		uint32_t cnt = xl_type(x, d->type)->scalars;
		uint32_t at;

		x->rpool = xl_grow(x, x->rpool, &x->caprpool,
		                   x->nrpool + cnt, 4);
		at = x->nrpool;
		for (uint32_t i = 0; i < cnt; i++)
			x->rpool[at + i] = xl_const_reg(x,
			                                x->cpool[d->cval + i]);
		x->nrpool += cnt;
		d->regs = at;
		d->nregs = cnt;
	}
	/* A StorageBuffer / Workgroup pointer under variable pointers:
	 * its slot and offset (made lazily for roots that need no code). */
	if (d->kind == XK_PTR && d->nregs != 2)
		xl_vptr_regs(x, id);
	if (d->kind == XK_PTR && d->nregs == 2) {
		*n = 2;
		return x->rpool + d->regs;
	}
	if (d->kind != XK_CONST && d->kind != XK_VALUE)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "id %u used as a value before its definition", id);
	*n = d->nregs;
	return x->rpool + d->regs;
}

uint32_t
xl_val1(struct xl *x, uint32_t id)
{
	uint32_t n;
	const uint32_t *r = xl_val(x, id, &n);

	if (n != 1)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u is not a scalar", id);
	return r[0];
}

bool
xl_const_u32(struct xl *x, uint32_t id, uint32_t *out)
{
	struct xid *d = xl_id(x, id);

	if (d->kind != XK_CONST || xl_type(x, d->type)->scalars != 1)
		return false;
	*out = x->cpool[d->cval];
	return true;
}

uint32_t
xl_emit(struct xl *x, uint32_t op, uint32_t dst, uint32_t a, uint32_t b,
        uint32_t c)
{
	struct ir_program *p = x->p;
	struct ir_instr *in;

	p->code = xl_grow(x, p->code, &x->capcode, p->ninstr + 1,
	                  sizeof(*p->code));
	in = &p->code[p->ninstr];
	memset(in, 0, sizeof(*in));
	in->op = (uint16_t)op;
	in->dst = dst;
	in->a = a;
	in->b = b;
	in->c = c;
	return p->ninstr++;
}

struct ir_instr *
xl_instr(struct xl *x, uint32_t index)
{
	return &x->p->code[index];
}

uint32_t
xl_table_add(struct xl *x, uint32_t v)
{
	struct ir_program *p = x->p;

	p->table = xl_grow(x, p->table, &x->captable, p->ntable + 1, 4);
	p->table[p->ntable] = v;
	return p->ntable++;
}

void
xl_fixup(struct xl *x, uint8_t kind, uint32_t at, uint32_t id,
         uint32_t comp)
{
	x->fix = xl_grow(x, x->fix, &x->capfix, x->nfix + 1, sizeof(*x->fix));
	x->fix[x->nfix++] = (struct xfixup){ kind, at, id, comp };
}

void
xl_start_block(struct xl *x)
{
	struct ir_program *p = x->p;

	p->blocks = xl_grow(x, p->blocks, &x->capblocks, p->nblocks + 1,
	                    sizeof(*p->blocks));
	p->blocks[p->nblocks].first = p->ninstr;
	p->blocks[p->nblocks].count = 0;
	x->cur_block = p->nblocks++;
}

void
xl_end_block(struct xl *x)
{
	struct ir_block *b = &x->p->blocks[x->cur_block];

	b->count = x->p->ninstr - b->first;
}

/* ------------------------------------------------------------------ */
/* Module level                                                        */
/* ------------------------------------------------------------------ */

void
xl_need(struct xl *x, uint32_t wc, uint32_t n, uint32_t op)
{
	if (wc < n)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "instruction (opcode %u) has %u words, needs %u", op,
		        wc, n);
}

/* The pipeline stage of an execution model, SWGPU_SHADER_STAGE_COUNT if
 * the engine has none. */
static uint32_t
model_stage(uint32_t model)
{
	switch (model) {
	case SpvExecutionModelGLCompute: return SWGPU_SHADER_STAGE_COMPUTE;
	case SpvExecutionModelVertex: return SWGPU_SHADER_STAGE_VERTEX;
	case SpvExecutionModelFragment: return SWGPU_SHADER_STAGE_FRAGMENT;
	default: return SWGPU_SHADER_STAGE_COUNT;
	}
}

static const char *
stage_name(uint32_t stage)
{
	static const char *const names[] = { "GLCompute", "Vertex",
	                                      "Fragment" };

	return stage < SWGPU_SHADER_STAGE_COUNT ? names[stage] : "other";
}

/* The entry point of that name whose execution model is the stage asked
 * for (a module may hold one per model under the same name). */
static void
entry_point(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const char *name = (const char *)(in + 3);
	size_t max = (size_t)(wc - 3) * 4;
	uint32_t name_words;

	xl_need(x, wc, 4, SpvOpEntryPoint);
	if (strnlen(name, max) == max)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "unterminated entry name");
	if (strcmp(name, x->info->entry_point))
		return;
	if (model_stage(in[1]) != x->info->stage) {
		x->other_model = in[1] + 1;
		return;
	}
	if (x->entry_func)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "two %s entry points named "
		        "\"%s\"", stage_name(x->info->stage), name);
	x->entry_func = in[2];
	name_words = (uint32_t)(strlen(name) / 4 + 1);
	x->iface = in + 3 + name_words;
	x->niface = wc - 3 - name_words;
}

static void
execution_mode(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct ir_io *io = &x->p->io;
	bool frag = x->info->stage == SWGPU_SHADER_STAGE_FRAGMENT;

	xl_need(x, wc, 3, SpvOpExecutionMode);
	if (in[1] != x->entry_func)
		return;
	switch (in[2]) {
	case SpvExecutionModeLocalSize:
		xl_need(x, wc, 6, SpvOpExecutionMode);
		memcpy(x->p->local_size, in + 3, 12);
		break;
	case SpvExecutionModeLocalSizeId:
		xl_need(x, wc, 6, SpvOpExecutionMode);
		memcpy(x->local_size_ids, in + 3, 12);
		x->local_size_from_id = true;
		break;
	case SpvExecutionModeOriginUpperLeft:
		break;          /* Vulkan's only origin: FragCoord's */
	case SpvExecutionModeEarlyFragmentTests:
		io->early_fragment_tests = frag;
		break;
	case SpvExecutionModeDepthReplacing:
		if (frag && io->depth_mode == IR_DEPTH_NONE)
			io->depth_mode = IR_DEPTH_ANY;
		break;
	case SpvExecutionModeDepthGreater:
		io->depth_mode = frag ? IR_DEPTH_GREATER : 0;
		break;
	case SpvExecutionModeDepthLess:
		io->depth_mode = frag ? IR_DEPTH_LESS : 0;
		break;
	case SpvExecutionModeDepthUnchanged:
		io->depth_mode = frag ? IR_DEPTH_UNCHANGED : 0;
		break;
	case SpvExecutionModeDenormFlushToZero:
		xl_need(x, wc, 4, SpvOpExecutionMode);
		x->ftz_widths |= in[3] == 16 ? XL_FTZ16 : in[3] == 32 ?
		                 XL_FTZ32 : in[3] == 64 ? XL_FTZ64 : 0;
		break;
	case SpvExecutionModeRoundingModeRTZ:
		xl_need(x, wc, 4, SpvOpExecutionMode);
		x->rtz_widths |= in[3] == 16 ? XL_FTZ16 : in[3] == 32 ?
		                 XL_FTZ32 : in[3] == 64 ? XL_FTZ64 : 0;
		break;
	case SpvExecutionModeOriginLowerLeft:
	case SpvExecutionModePixelCenterInteger:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "execution mode %u is not "
		        "allowed in Vulkan", in[2]);
	default:
		break;
	}
}

static void
module_pass(struct xl *x)
{
	uint32_t i = 5;

	while (i < x->nw) {
		const uint32_t *in = x->w + i;
		uint32_t wc = in[0] >> 16, op = in[0] & 0xffff;

		if (wc == 0 || wc > x->nw - i)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "truncated instruction at word %u", i);
		x->cur_at = i;
		if (op == SpvOpFunction) {
			xl_need(x, wc, 5, op);
			struct xid *d = xl_id(x, in[2]);
			if (d->kind != XK_NONE)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "id %u defined twice", in[2]);
			d->kind = XK_FUNC;
			d->type = in[1];
			d->def = i;
			/* skip to OpFunctionEnd, checking lengths */
			while (i < x->nw) {
				wc = x->w[i] >> 16;
				op = x->w[i] & 0xffff;
				if (wc == 0 || wc > x->nw - i)
					xl_fail(x, SWGPU_ERR_INVALID_ARG,
					        "truncated instruction at "
					        "word %u", i);
				i += wc;
				if (op == SpvOpFunctionEnd)
					break;
			}
			if (op != SpvOpFunctionEnd)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "function without OpFunctionEnd");
			continue;
		}
		switch (op) {
		case SpvOpCapability:
			xl_need(x, wc, 2, op);
			if (!swgpu_shader_capability_supported(in[1]))
				xl_fail(x, SWGPU_ERR_UNSUPPORTED,
				        "capability %u not supported", in[1]);
			if (in[1] == SpvCapabilityVariablePointers ||
			    in[1] == SpvCapabilityVariablePointersStorageBuffer)
				x->var_ptrs = true;
			break;
		case SpvOpName:
			/* Kept for messages ("variable \"big\" ..."). */
			xl_need(x, wc, 3, op);
			if (strnlen((const char *)(in + 2), (size_t)(wc - 2) * 4)
			    < (size_t)(wc - 2) * 4)
				xl_id(x, in[1])->name = i + 2;
			break;
		case SpvOpExtension:
		case SpvOpSource: case SpvOpSourceContinued:
		case SpvOpSourceExtension:
		case SpvOpMemberName: case SpvOpLine: case SpvOpNoLine:
		case SpvOpModuleProcessed: case SpvOpNop:
			break;
		case SpvOpString:
			xl_need(x, wc, 2, op);
			xl_id(x, in[1])->kind = XK_STRING;
			break;
		case SpvOpExtInstImport: {
			const char *name = (const char *)(in + 2);
			size_t max = (size_t)(wc - 2) * 4;

			xl_need(x, wc, 3, op);
			if (strnlen(name, max) == max)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "unterminated string");
			if (!strcmp(name, "GLSL.std.450")) {
				x->glsl_set = in[1];
				xl_id(x, in[1])->kind = XK_EXTINST;
			} else if (!strncmp(name, "NonSemantic.", 12)) {
				xl_id(x, in[1])->kind = XK_IGNORED;
			} else {
				xl_fail(x, SWGPU_ERR_UNSUPPORTED,
				        "extended instruction set \"%s\" not "
				        "supported", name);
			}
			break;
		}
		case SpvOpMemoryModel:
			xl_need(x, wc, 3, op);
			if (in[1] != SpvAddressingModelLogical &&
			    in[1] != SpvAddressingModelPhysicalStorageBuffer64)
				xl_fail(x, SWGPU_ERR_UNSUPPORTED,
				        "addressing model %u not supported",
				        in[1]);
			break;
		case SpvOpEntryPoint:
			entry_point(x, in, wc);
			break;
		case SpvOpExecutionMode:
		case SpvOpExecutionModeId:
			execution_mode(x, in, wc);
			break;
		case SpvOpDecorate:
		case SpvOpDecorateId:
			xl_need(x, wc, 3, op);
			xl_decorate(x, in, wc);
			break;
		case SpvOpMemberDecorate:
			xl_member_decorate(x, in, wc);
			break;
		case SpvOpDecorateString:
		case SpvOpMemberDecorateString:
			break;
		case SpvOpDecorationGroup:
			/* its decorations come before it: applied at
			 * OpGroupDecorate (xl_group_decorate) */
			xl_need(x, wc, 2, op);
			if (xl_id(x, in[1])->kind != XK_NONE)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "id %u defined twice", in[1]);
			xl_id(x, in[1])->kind = XK_IGNORED;
			break;
		case SpvOpGroupDecorate:
		case SpvOpGroupMemberDecorate:
			xl_group_decorate(x, in, wc, i);
			break;
		case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt:
		case SpvOpTypeFloat: case SpvOpTypeVector:
		case SpvOpTypeMatrix: case SpvOpTypeArray:
		case SpvOpTypeRuntimeArray: case SpvOpTypeStruct:
		case SpvOpTypePointer: case SpvOpTypeFunction:
		case SpvOpTypeImage: case SpvOpTypeSampler:
		case SpvOpTypeSampledImage: case SpvOpTypeForwardPointer:
			xl_type_decl(x, in, wc);
			break;
		case SpvOpConstantTrue: case SpvOpConstantFalse:
		case SpvOpConstant: case SpvOpConstantComposite:
		case SpvOpConstantNull: case SpvOpSpecConstantTrue:
		case SpvOpSpecConstantFalse: case SpvOpSpecConstant:
		case SpvOpSpecConstantComposite: case SpvOpSpecConstantOp:
			xl_constant_decl(x, in, wc);
			break;
		case SpvOpUndef:
			xl_need(x, wc, 3, op);
			xl_new_const(x, in[1], in[2]);
			break;
		case SpvOpVariable:
			xl_global_var(x, in, wc);
			break;
		case SpvOpExtInst:
			/* NonSemantic debug info at module level */
			xl_need(x, wc, 5, op);
			if (xl_id(x, in[3])->kind != XK_IGNORED)
				xl_fail(x, SWGPU_ERR_UNSUPPORTED,
				        "OpExtInst outside a function");
			xl_id(x, in[2])->kind = XK_IGNORED;
			break;
		default:
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "unsupported opcode %u at word %u", op, i);
		}
		i += wc;
	}
	x->cur_at = 0;
}

static void
resolve_local_size(struct xl *x)
{
	uint32_t *ls = x->p->local_size;

	if (x->local_size_from_id)
		for (int i = 0; i < 3; i++)
			if (!xl_const_u32(x, x->local_size_ids[i], &ls[i]))
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "LocalSizeId operand not a constant");
	for (uint32_t id = 1; id < x->bound; id++) {
		const struct xid *d = &x->ids[id];

		if (d->kind == XK_CONST &&
		    d->builtin == SpvBuiltInWorkgroupSize + 1) {
			if (xl_type(x, d->type)->scalars != 3)
				xl_fail(x, SWGPU_ERR_INVALID_ARG,
				        "WorkgroupSize is not a uvec3");
			memcpy(ls, x->cpool + d->cval, 12);
		}
	}
	if (!ls[0] || !ls[1] || !ls[2])
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "no local size");
	if (ls[0] > SWGPU_SHADER_MAX_WORKGROUP_SIZE_X ||
	    ls[1] > SWGPU_SHADER_MAX_WORKGROUP_SIZE_Y ||
	    ls[2] > SWGPU_SHADER_MAX_WORKGROUP_SIZE_Z ||
	    (uint64_t)ls[0] * ls[1] * ls[2] >
	    SWGPU_SHADER_MAX_WORKGROUP_INVOCATIONS)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "local size %ux%ux%u over the limits", ls[0], ls[1],
		        ls[2]);
}

/* " (at OpLoad %42, word 120)": the instruction a failure happened
 * in, named from the grammar (spirv_opnames.c), or "". */
static const char *
failed_at(const struct xl *x, char *buf, size_t size)
{
	uint32_t at = x->cur_at, op, wc, rw;
	const char *name;

	if (!at || at >= x->nw)
		return "";
	op = x->w[at] & 0xffff;
	wc = x->w[at] >> 16;
	name = spirv_opname(op, &rw);
	if (!name)
		snprintf(buf, size, " (at opcode %u, word %u)", op, at);
	else if (rw && rw < wc && at + rw < x->nw)
		snprintf(buf, size, " (at %s %%%u, word %u)", name,
		         x->w[at + rw], at);
	else
		snprintf(buf, size, " (at %s, word %u)", name, at);
	return buf;
}

void
ir_program_free(struct ir_program *p)
{
	if (!p)
		return;
	/* first: a background compile in flight still reads p; then the
	 * compile thread frees it */
	if (!jit_program_release(p))
		ir_program_free_memory(p);
}

void
ir_program_free_memory(struct ir_program *p)
{
	free(p->code);
	free(p->blocks);
	free(p->table);
	free(p->const_regs);
	free(p->const_vals);
	free(p->buffers);
	free(p);
}

swgpu_result
xlate_module(const swgpu_shader_info *info, struct ir_program **out,
             char *msg, size_t msg_size)
{
	struct xl *x = calloc(1, sizeof(*x));
	swgpu_result r;

	if (!x)
		return SWGPU_ERR_NO_HOST_MEMORY;
	x->info = info;
	x->w = info->code;
	x->nw = (uint32_t)(info->code_size / 4);
	if (setjmp(x->fail)) {
		char where[96];

		if (msg && msg_size)
			snprintf(msg, msg_size, "%s%s", x->msg,
			         failed_at(x, where, sizeof(where)));
		ir_program_free(x->p);
		goto done;
	}
	if (!info->code || info->code_size % 4 || info->code_size < 20 ||
	    info->code_size > (64u << 20))
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "SPIR-V size %zu is not a positive multiple of 4",
		        info->code_size);
	if (x->w[0] != SpvMagicNumber)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad SPIR-V magic 0x%08x",
		        x->w[0]);
	if (x->w[1] > 0x00010600u || x->w[1] < 0x00010000u)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "SPIR-V version 0x%x",
		        x->w[1]);
	x->bound = x->w[3];
	if (x->bound == 0 || x->bound > (1u << 22))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad id bound %u", x->bound);
	if (!info->entry_point)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "no entry point name");
	x->ids = calloc(x->bound, sizeof(*x->ids));
	x->types = calloc(x->bound, sizeof(*x->types));
	x->p = calloc(1, sizeof(*x->p));
	if (!x->ids || !x->types || !x->p)
		xl_fail(x, SWGPU_ERR_NO_HOST_MEMORY, "out of host memory");
	if ((uint32_t)info->stage >= SWGPU_SHADER_STAGE_COUNT)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad shader stage %u",
		        (uint32_t)info->stage);
	if (info->subgroup_size &&
	    (info->subgroup_size < SWGPU_SHADER_MIN_SUBGROUP_SIZE ||
	     info->subgroup_size > SWGPU_SHADER_SUBGROUP_SIZE ||
	     (info->subgroup_size & (info->subgroup_size - 1))))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "subgroup size %u: a power "
		        "of two from %u to %u", info->subgroup_size,
		        SWGPU_SHADER_MIN_SUBGROUP_SIZE,
		        SWGPU_SHADER_SUBGROUP_SIZE);
	x->p->nregs = IR_REG_FIRST_FREE;
	x->p->stage = info->stage;
	x->p->outputs_only = true;   /* the engine reads io only */
	x->p->subgroup_size = info->subgroup_size ? info->subgroup_size :
	                      SWGPU_SHADER_SUBGROUP_SIZE;
	x->wg_block_base = UINT32_MAX;
	module_pass(x);
	if (!x->entry_func && x->other_model &&
	    model_stage(x->other_model - 1) == SWGPU_SHADER_STAGE_COUNT)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "entry point \"%s\" has "
		        "execution model %u, which the engine does not run "
		        "(GLCompute, Vertex and Fragment only)",
		        info->entry_point, x->other_model - 1);
	if (!x->entry_func && x->other_model)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "entry point \"%s\" is a "
		        "%s shader, the stage asked for is %s",
		        info->entry_point,
		        stage_name(model_stage(x->other_model - 1)),
		        stage_name(info->stage));
	if (!x->entry_func)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "no %s entry point \"%s\"",
		        stage_name(info->stage), info->entry_point);
	if (xl_id(x, x->entry_func)->kind != XK_FUNC)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "entry point not a function");
	if (info->stage == SWGPU_SHADER_STAGE_COMPUTE)
		resolve_local_size(x);
	xl_translate_entry(x);
	xl_io_finish(x);
	xl_check_register_file(x);
	ir_opt_program(x->p);
	x->p->uniform_outputs = ir_fs_outputs_uniform(x->p);
	x->p->uniform_push_only = ir_fs_outputs_push_only(x->p);
	*out = x->p;
done:
	r = x->err;
	free(x->ids);
	free(x->types);
	free(x->pool);
	free(x->rpool);
	free(x->cpool);
	free(x->ptrs);
	free(x->mdecos);
	free(x->fix);
	free(x->cmap_val);
	free(x->cmap_reg);
	free(x->globals);
	free(x->s_offs);
	free(x->s_regs);
	free(x->s_copy);
	free(x->io_read);
	free(x);
	return r;
}
