/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: decorations (OpDecorate, OpMemberDecorate:
 * bindings, built-ins, layout, the stage interface's Location,
 * Component and interpolation) and type declarations (OpType*: each
 * type's register count, saturated at XL_HUGE for arrays of any size).
 */
#include "xlate.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

void
xl_decorate(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct xid *d = xl_id(x, in[1]);
	uint32_t v = wc > 3 ? in[3] : 0;

	switch (in[2]) {
	case SpvDecorationBuiltIn: d->builtin = v + 1; break;
	case SpvDecorationDescriptorSet: d->set = v; d->has_set = true; break;
	case SpvDecorationBinding: d->binding = v; d->has_binding = true;
		break;
	case SpvDecorationSpecId: d->spec_id = v; d->has_spec = true; break;
	case SpvDecorationArrayStride: d->array_stride = v; break;
	case SpvDecorationBlock: d->is_block = true; break;
	case SpvDecorationBufferBlock: d->is_buffer_block = true; break;
	case SpvDecorationLocation: d->location = v; d->has_location = true;
		break;
	case SpvDecorationComponent: d->component = v;
		d->has_component = true; break;
	case SpvDecorationIndex: d->index = v; break;
	case SpvDecorationFlat: d->interp |= IR_INTERP_FLAT; break;
	case SpvDecorationNoPerspective: d->interp |= IR_INTERP_NOPERSPECTIVE;
		break;
	case SpvDecorationCentroid: d->interp |= IR_INTERP_CENTROID; break;
	case SpvDecorationSample: d->interp |= IR_INTERP_SAMPLE; break;
	case SpvDecorationPatch: d->patch = true; break;
	case SpvDecorationFPRoundingMode:
		d->round_rtz = v == SpvFPRoundingModeRTZ;
		break;
	default: break;
	}
}

void
xl_member_decorate(struct xl *x, const uint32_t *in, uint32_t wc)
{
	xl_need(x, wc, 4, in[0] & 0xffff);
	xl_id(x, in[1]);
	x->mdecos = xl_grow(x, x->mdecos, &x->capmdecos, x->nmdecos + 1,
	                    sizeof(*x->mdecos));
	x->mdecos[x->nmdecos++] = (struct xmdeco){
		in[1], in[2], in[3], wc > 4 ? in[4] : 1 };
}

/* OpGroupDecorate / OpGroupMemberDecorate at word `at`: every
 * OpDecorate(Id) naming the group (they all come before its
 * OpDecorationGroup, so before `at`) applied again to each target, as a
 * member decoration for OpGroupMemberDecorate's (target, member) pairs. */
void
xl_group_decorate(struct xl *x, const uint32_t *in, uint32_t wc, uint32_t at)
{
	const bool member = (in[0] & 0xffff) == SpvOpGroupMemberDecorate;
	uint32_t copy[16];

	xl_need(x, wc, 2, in[0] & 0xffff);
	if (xl_id(x, in[1])->kind != XK_IGNORED)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "%s of %u, which is not an "
		        "OpDecorationGroup", member ? "OpGroupMemberDecorate"
		        : "OpGroupDecorate", in[1]);
	if (member && (wc - 2) % 2)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpGroupMemberDecorate with "
		        "an odd operand count");
	for (uint32_t i = 5; i < at;) {
		const uint32_t *d = x->w + i;
		uint32_t dwc = d[0] >> 16, op = d[0] & 0xffff;

		i += dwc;
		if ((op != SpvOpDecorate && op != SpvOpDecorateId) ||
		    dwc < 3 || d[1] != in[1])
			continue;
		if (dwc > 15)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "decoration of %u "
			        "words on a group", dwc);
		for (uint32_t t = 2; t < wc; t += member ? 2 : 1) {
			if (member) {
				/* OpMemberDecorate target member deco ... */
				copy[0] = (dwc + 1) << 16 |
				          SpvOpMemberDecorate;
				copy[1] = in[t];
				copy[2] = in[t + 1];
				memcpy(copy + 3, d + 2, (dwc - 2) * 4);
				xl_member_decorate(x, copy, dwc + 1);
			} else {
				memcpy(copy, d, dwc * 4);
				copy[1] = in[t];
				xl_decorate(x, copy, dwc);
			}
		}
	}
}

static struct xtype *
new_type(struct xl *x, uint32_t id, uint32_t op)
{
	struct xid *d = xl_id(x, id);

	if (d->kind != XK_NONE)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u defined twice", id);
	/* kind becomes XK_TYPE once complete: no type can contain itself */
	d->type = id;
	memset(&x->types[id], 0, sizeof(x->types[id]));
	x->types[id].op = op;
	return &x->types[id];
}

void
xl_type_decl(struct xl *x, const uint32_t *in, uint32_t wc)
{
	uint32_t op = in[0] & 0xffff;
	struct xtype *t;

	xl_need(x, wc, 2, op);
	if (op == SpvOpTypePointer && wc >= 4 &&
	    xl_id(x, in[1])->kind == XK_TYPE &&
	    x->types[in[1]].op == SpvOpTypePointer &&
	    x->types[in[1]].storage == SpvStorageClassPhysicalStorageBuffer &&
	    !x->types[in[1]].elem) {
		/* Completes an OpTypeForwardPointer. */
		x->types[in[1]].elem = in[3];
		return;
	}
	if (op == SpvOpTypeForwardPointer) {
		/* A physical pointer declared before its pointee (a struct
		 * that may contain it): a 64-bit value already. */
		if (wc < 3 || in[2] != SpvStorageClassPhysicalStorageBuffer)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED, "forward pointer "
			        "of storage class %u", wc < 3 ? 0 : in[2]);
		t = new_type(x, in[1], SpvOpTypePointer);
		t->storage = in[2];
		t->scalars = 2;
		xl_id(x, in[1])->kind = XK_TYPE;
		return;
	}
	t = new_type(x, in[1], op);
	switch (op) {
	case SpvOpTypeVoid:
	case SpvOpTypeFunction:
		t->scalars = 0;
		break;
	case SpvOpTypeBool:
		t->scalars = 1;
		t->width = 32;
		break;
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		xl_need(x, wc, 3, op);
		/* 64-bit values are register pairs (xlate_int64.c,
		 * xlate_f64.c); 8/16-bit integers and 16-bit floats one
		 * zero-extended register (xlate_narrow.c) */
		if (in[2] != 32 && in[2] != 64 && in[2] != 16 &&
		    !(op == SpvOpTypeInt && in[2] == 8))
			xl_fail(x, SWGPU_ERR_UNSUPPORTED,
			        "%u-bit %s type not supported", in[2],
			        op == SpvOpTypeInt ? "integer" : "float");
		t->width = in[2];
		t->is_signed = op == SpvOpTypeInt && wc > 3 && in[3];
		t->scalars = in[2] == 64 ? 2 : 1;
		break;
	case SpvOpTypeVector:
	case SpvOpTypeMatrix:
		xl_need(x, wc, 4, op);
		t->elem = in[2];
		t->count = in[3];
		if (t->count < 2 || t->count > 4)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad vector size");
		t->scalars = xl_type(x, in[2])->scalars * t->count;
		break;
	case SpvOpTypeArray: {
		uint32_t len;

		xl_need(x, wc, 4, op);
		t->elem = in[2];
		if (!xl_const_u32(x, in[3], &len) || len == 0)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "bad array length");
		t->count = len;
		/* Any length: what the array is used for decides whether
		 * its size matters (a buffer addresses up to 4 GiB; only
		 * register-held values are limited, xlate_mem.c). */
		uint64_t sc = (uint64_t)len * xl_type(x, in[2])->scalars;
		t->scalars = sc > XL_HUGE ? XL_HUGE : (uint32_t)sc;
		break;
	}
	case SpvOpTypeRuntimeArray:
		xl_need(x, wc, 3, op);
		t->elem = in[2];
		xl_type(x, in[2]);
		t->scalars = 0;
		break;
	case SpvOpTypeStruct:
		t->members = x->npool;
		t->nmembers = wc - 2;
		x->pool = xl_grow(x, x->pool, &x->cappool, x->npool + wc, 4);
		for (uint32_t i = 2; i < wc; i++) {
			x->pool[x->npool++] = in[i];
			t->scalars = xl_off_add(t->scalars,
			                        xl_type(x, in[i])->scalars);
		}
		break;
	case SpvOpTypePointer:
		xl_need(x, wc, 4, op);
		t->storage = in[2];
		t->elem = in[3];
		xl_type(x, in[3]);
		/* A physical storage buffer pointer is a value (a 64-bit
		 * address, xlate_phys.c); the others are resolved at
		 * translation time and hold no registers. */
		t->scalars = in[2] == SpvStorageClassPhysicalStorageBuffer ? 2
		                                                            : 0;
		/* With variable pointers, StorageBuffer and Workgroup
		 * pointers are values too: slot and offset (xlate_vptr.c). */
		if (x->var_ptrs && (in[2] == SpvStorageClassStorageBuffer ||
		                    in[2] == SpvStorageClassWorkgroup))
			t->scalars = 2;
		break;
	case SpvOpTypeImage:
	case SpvOpTypeSampler:
	case SpvOpTypeSampledImage:
		xl_image_type(x, in, wc, t);
		break;
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "unsupported type opcode %u",
		        op);
	}
	xl_id(x, in[1])->kind = XK_TYPE;
}

bool
xl_is_empty_composite(struct xl *x, uint32_t type)
{
	const struct xtype *t = xl_type(x, type);

	if (t->op == SpvOpTypeArray)
		return xl_is_empty_composite(x, t->elem);
	if (t->op != SpvOpTypeStruct)
		return false;
	for (uint32_t m = 0; m < t->nmembers; m++)
		if (!xl_is_empty_composite(x, x->pool[t->members + m]))
			return false;
	return true;
}
