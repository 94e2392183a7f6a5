/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: sampling (see xlate_image.c for the image
 * slots). OpSampledImage pairs an image with a sampler; every sampling
 * instruction (OpImageSample* in its implicit, explicit, Dref and Proj
 * forms, OpImageGather, OpImageDrefGather, OpImageQueryLod) becomes one
 * IR_IMGSAMPLE on a block of IR_SMP_REGS operand registers (ir.h), the
 * filtering done by interp_sample.c with the state of the sampler's
 * descriptor. Projection happens here: the coordinates (and Dref) are
 * divided by q first, so the LOD comes from the projected coordinates.
 * Implicit LODs need a quad, so only fragment shaders have them.
 */
#include "xlate.h"

#include <string.h>

#include <spirv/unified1/spirv.h>
#include <swgpu/swgpu_packet.h>

void
xl_image_operands(struct xl *x, const uint32_t *in, uint32_t wc,
                  uint32_t first, struct xl_img_operands *o)
{
	uint32_t mask, k = first + 1;

	memset(o, 0, sizeof(*o));
	if (wc <= first)
		return;
	mask = o->mask = in[first];
	for (uint32_t bit = 1; bit && bit <= mask; bit <<= 1) {
		if (!(mask & bit))
			continue;
		switch (bit) {
		case SpvImageOperandsBiasMask:
			o->bias = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsLodMask:
			o->lod = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsGradMask:
			o->grad_x = k < wc ? in[k] : 0;
			o->grad_y = k + 1 < wc ? in[k + 1] : 0;
			k += 2;
			break;
		case SpvImageOperandsConstOffsetMask:
		case SpvImageOperandsOffsetMask:
			o->offset = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsConstOffsetsMask:
		case SpvImageOperandsOffsetsMask:
			o->offsets = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsMinLodMask:
			o->min_lod = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsSampleMask:
			o->sample = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsMakeTexelAvailableMask:
		case SpvImageOperandsMakeTexelVisibleMask:
			k++;            /* memory scope: accesses are coherent */
			break;
		case SpvImageOperandsNonPrivateTexelMask:
		case SpvImageOperandsVolatileTexelMask:
		case SpvImageOperandsSignExtendMask:
		case SpvImageOperandsZeroExtendMask:
		case SpvImageOperandsNontemporalMask:
			break;
		default:
			xl_fail(x, SWGPU_ERR_UNSUPPORTED, "image operand 0x%x "
			        "is not supported", bit);
		}
		if (k > wc)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "image operands past the instruction");
	}
}

/* OpSampledImage: the image with the sampler's slot. */
static void
sampled_image(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct xptr p;
	const struct xptr *s;

	if (wc < 5)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpSampledImage");
	p = *xl_image_of(x, in[3]);
	s = xl_image_of(x, in[4]);
	if (xl_type(x, xl_id(x, in[4])->type)->op != SpvOpTypeSampler)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "OpSampledImage %u: %u is not a sampler", in[2], in[4]);
	p.has_smp = true;
	p.smp_slot = s->slot;
	p.smp_idx = s->desc_idx;
	p.smp_nslots = s->nslots;
	xl_set_ptr(x, in[2], in[1], &p, XK_IMAGE);
}

/* What a sampling opcode is. */
struct smp_kind {
	bool implicit, proj, dref, gather, query;
};

static struct smp_kind
smp_kind(uint32_t op)
{
	struct smp_kind k = { 0 };

	switch (op) {
	case SpvOpImageSampleProjDrefImplicitLod:
		k.proj = k.dref = k.implicit = true;
		break;
	case SpvOpImageSampleProjDrefExplicitLod:
		k.proj = k.dref = true;
		break;
	case SpvOpImageSampleProjImplicitLod:
		k.proj = k.implicit = true;
		break;
	case SpvOpImageSampleProjExplicitLod:
		k.proj = true;
		break;
	case SpvOpImageSampleDrefImplicitLod:
		k.dref = k.implicit = true;
		break;
	case SpvOpImageSampleDrefExplicitLod:
		k.dref = true;
		break;
	case SpvOpImageSampleImplicitLod:
		k.implicit = true;
		break;
	case SpvOpImageGather:
		k.gather = true;
		break;
	case SpvOpImageDrefGather:
		k.gather = k.dref = true;
		break;
	case SpvOpImageQueryLod:
		k.query = true;
		break;
	default:
		break;
	}
	return k;
}

static void
mov(struct xl *x, uint32_t dst, uint32_t src)
{
	xl_emit(x, IR_MOV, dst, src, 0, 0);
}

/* The float operand id's n registers, at least n. */
static const uint32_t *
floats(struct xl *x, uint32_t id, uint32_t n, const char *what)
{
	uint32_t have;
	const uint32_t *r = xl_val(x, id, &have);

	if (have < n || xl_type(x, xl_scalar_type(x,
	                        xl_id(x, id)->type))->op != SpvOpTypeFloat)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "%s %u: needs %u floats", what,
		        id, n);
	return r;
}

static void
sample(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const uint32_t op = in[0] & 0xffff;
	const struct smp_kind kind = smp_kind(op);
	const struct xptr *p;
	const struct xtype *st, *it;
	struct xl_img_operands o;
	uint32_t n, base, dst, regs[4], spatial, k, lod = IR_REG_ZERO;
	uint32_t first = kind.dref || kind.gather ? 6 : 5, q = 0;
	uint8_t flags;
	const uint32_t *r;

	if (wc < first)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short sampling instruction "
		        "(opcode %u)", op);
	p = xl_image_of(x, in[3]);
	st = xl_type(x, xl_id(x, in[3])->type);
	if (!p->has_smp || st->op != SpvOpTypeSampledImage)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "sampling instruction %u: not a sampled image", in[2]);
	it = xl_type(x, st->elem);
	spatial = it->count == SpvDim1D ? 1 : it->count == SpvDim2D ? 2 : 3;
	if ((kind.implicit || kind.query) &&
	    x->info->stage != SWGPU_SHADER_STAGE_FRAGMENT)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "sampling instruction %u "
		        "(opcode %u): an implicit LOD outside a fragment "
		        "shader", in[2], op);
	if (kind.query)
		xl_image_result(x, in[1], 2, "LOD query");
	else if (kind.dref && !kind.gather)
		xl_image_result(x, in[1], 1, "depth-comparison sample");
	else
		xl_image_result(x, in[1], 4, "image sample");
	xl_image_operands(x, in, wc, first, &o);
	/* which operands each form takes (the rest is invalid SPIR-V) */
	if ((o.bias && !kind.implicit) || (o.lod && (kind.implicit ||
	    kind.gather || kind.query)) || (o.grad_x && (kind.implicit ||
	    kind.gather || kind.query)) || (o.offsets && !kind.gather) ||
	    (o.min_lod && !kind.implicit && !o.grad_x) ||
	    (!kind.implicit && !kind.gather && !kind.query && !o.lod &&
	     !o.grad_x) || (kind.query && o.mask))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "sampling instruction %u "
		        "(opcode %u): image operands 0x%x do not fit it",
		        in[2], op, o.mask);
	if (kind.gather && it->count != SpvDim2D && it->count != SpvDimCube)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "gather %u from a Dim %u "
		        "image", in[2], it->count);
	if (kind.proj && (it->width || it->count == SpvDimCube))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "projective sample %u of an "
		        "arrayed or cube image", in[2]);
	/* coordinates: (s, t, r) [q] [layer]; a LOD query has no layer */
	r = floats(x, in[4], spatial + (kind.proj ? 1 : it->width &&
	                                 !kind.query ? 1 : 0), "coordinate");
	base = xl_new_regs(x, IR_SMP_REGS);
	if (kind.proj)
		q = r[spatial];
	for (uint32_t c = 0; c < spatial; c++)
		xl_emit(x, kind.proj ? IR_FDIV : IR_MOV, base + c, r[c], q, 0);
	if (it->width && !kind.query)
		mov(x, base + 3, r[spatial]);
	if (o.offset) {
		uint32_t no;
		const uint32_t *ro = xl_val(x, o.offset, &no);

		for (uint32_t c = 0; c < no && c < 3; c++)
			mov(x, base + 4 + c, ro[c]);
	}
	if (o.bias)
		mov(x, base + 7, floats(x, o.bias, 1, "Bias")[0]);
	if (o.min_lod)
		mov(x, base + 8, floats(x, o.min_lod, 1, "MinLod")[0]);
	if (kind.dref)
		xl_emit(x, kind.proj ? IR_FDIV : IR_MOV, base + 9,
		        floats(x, in[5], 1, "Dref")[0], q, 0);
	if (o.grad_x) {
		const uint32_t *gx = floats(x, o.grad_x, spatial, "Grad x");
		uint32_t gy[3];

		memcpy(gy, floats(x, o.grad_y, spatial, "Grad y"),
		       spatial * 4);
		gx = floats(x, o.grad_x, spatial, "Grad x");
		for (uint32_t c = 0; c < spatial; c++) {
			mov(x, base + 10 + c, gx[c]);
			mov(x, base + 13 + c, gy[c]);
		}
	}
	if (o.offsets) {
		uint32_t no;
		const uint32_t *ro = xl_val(x, o.offsets, &no);

		if (no != 8)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "ConstOffsets %u: not "
			        "4 ivec2", o.offsets);
		for (uint32_t c = 0; c < 8; c++)
			mov(x, base + 16 + c, ro[c]);
	}
	flags = kind.query ? IR_SMP_LOD_QUERY : kind.implicit ?
	        IR_SMP_LOD_IMPLICIT : o.grad_x ? IR_SMP_LOD_GRAD
	                                       : IR_SMP_LOD_EXPLICIT;
	if (kind.dref)
		flags |= IR_SMP_DREF;
	if (kind.gather) {
		uint32_t comp = 0;

		if (!kind.dref && (!xl_const_u32(x, in[5], &comp) || comp > 3))
			xl_fail(x, SWGPU_ERR_UNSUPPORTED, "gather %u: the "
			        "component is not a constant 0-3", in[2]);
		flags |= IR_SMP_GATHER | comp << IR_SMP_COMP_SHIFT;
		if (o.offsets)
			flags |= IR_SMP_OFFSETS;
	}
	if (o.lod)
		lod = floats(x, o.lod, 1, "Lod")[0];
	dst = xl_new_regs(x, 4);
	k = xl_emit_img(x, IR_IMGSAMPLE, p, dst, base, lod,
	                p->smp_idx ? p->smp_idx : IR_REG_ZERO);
	if (p->smp_slot >= IR_MAX_BUFFERS || p->smp_nslots > 0xff)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "sampler slot %u (array of "
		        "%u) out of range", p->smp_slot, p->smp_nslots);
	xl_instr(x, k)->imm |= p->smp_slot << 16 |
	                       (p->smp_idx ? p->smp_nslots : 0) << 24;
	xl_instr(x, k)->aux2 = flags;
	n = xl_type(x, in[1])->scalars;
	for (uint32_t c = 0; c < n; c++)
		regs[c] = dst + c;
	xl_set_val(x, in[2], in[1], regs, n);
}

void
xl_sample_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	if ((in[0] & 0xffff) == SpvOpSampledImage)
		sampled_image(x, in, wc);
	else
		sample(x, in, wc);
}
