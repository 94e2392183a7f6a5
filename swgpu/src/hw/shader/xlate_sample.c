/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: sampling (see xlate_image.c for the image
 * slots). OpSampledImage pairs an image with a sampler;
 * OpImageSampleExplicitLod becomes one IR_IMGSAMPLE, the filtering done
 * by interp_sample.c with the state of the sampler's descriptor;
 * OpImageGather is an IR_IMGSAMPLE too, aux2 naming the component.
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
	mask = in[first];
	for (uint32_t bit = 1; bit && bit <= mask; bit <<= 1) {
		if (!(mask & bit))
			continue;
		switch (bit) {
		case SpvImageOperandsLodMask:
			o->lod = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsConstOffsetMask:
		case SpvImageOperandsOffsetMask:
			o->offset = k < wc ? in[k] : 0;
			k++;
			break;
		case SpvImageOperandsConstOffsetsMask:
			o->offsets = k < wc ? in[k] : 0;
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
			        "is not supported (Lod, ConstOffset and Offset "
			        "are; compute shaders have no derivatives for "
			        "Bias or Grad)", bit);
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

/* OpImageSampleExplicitLod. */
static void
sample(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const struct xptr *p;
	const struct xtype *st, *it;
	struct xl_img_operands o;
	uint32_t n, base, dst, regs[4], spatial, k, lod;
	const uint32_t *r;

	if (wc < 5)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "short OpImageSampleExplicitLod");
	p = xl_image_of(x, in[3]);
	st = xl_type(x, xl_id(x, in[3])->type);
	if (!p->has_smp || st->op != SpvOpTypeSampledImage)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "OpImageSampleExplicitLod %u: not a sampled image",
		        in[2]);
	it = xl_type(x, st->elem);
	spatial = it->count == SpvDim1D ? 1 : it->count == SpvDim2D ? 2 : 3;
	xl_image_result(x, in[1], 4, "image sample");
	xl_image_operands(x, in, wc, 5, &o);
	if (o.offsets)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpImageSampleExplicitLod "
		        "%u: ConstOffsets is for gathers", in[2]);
	r = xl_val(x, in[4], &n);
	if (n < spatial + (it->width ? 1 : 0) ||
	    xl_type(x, xl_scalar_type(x, xl_id(x, in[4])->type))->op !=
	    SpvOpTypeFloat)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "sample coordinate %u: "
		        "needs %u floats", in[4], spatial + it->width);
	/* s, t, r, layer, then the texel offsets */
	base = xl_new_regs(x, 7);
	for (uint32_t c = 0; c < 3; c++)
		xl_emit(x, IR_MOV, base + c, c < spatial ? r[c] : IR_REG_ZERO,
		        0, 0);
	xl_emit(x, IR_MOV, base + 3, it->width ? r[spatial] : IR_REG_ZERO,
	        0, 0);
	{
		uint32_t no = 0;
		const uint32_t *ro = o.offset ? xl_val(x, o.offset, &no)
		                              : NULL;

		for (uint32_t c = 0; c < 3; c++)
			xl_emit(x, IR_MOV, base + 4 + c,
			        c < no ? ro[c] : IR_REG_ZERO, 0, 0);
	}
	lod = o.lod ? xl_val1(x, o.lod) : IR_REG_ZERO;
	dst = xl_new_regs(x, 4);
	k = xl_emit_img(x, IR_IMGSAMPLE, p, dst, base, lod,
	                p->smp_idx ? p->smp_idx : IR_REG_ZERO);
	if (p->smp_slot >= IR_MAX_BUFFERS || p->smp_nslots > 0xff)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "sampler slot %u (array of "
		        "%u) out of range", p->smp_slot, p->smp_nslots);
	xl_instr(x, k)->imm |= p->smp_slot << 16 |
	                       (p->smp_idx ? p->smp_nslots : 0) << 24;
	n = xl_type(x, in[1])->scalars;
	for (uint32_t c = 0; c < n; c++)
		regs[c] = dst + c;
	xl_set_val(x, in[2], in[1], regs, n);
}

/* OpImageGather: IR_IMGSAMPLE with aux2 = 1 + the component, on twelve
 * registers: s, t, r, layer, then an (x, y) texel offset for each of the
 * four results. Result k is the i0j0 texel of the LINEAR footprint at
 * offset k (GLSL's textureGatherOffsets rule); a plain gather's four
 * texels i0j1, i1j1, i1j0, i0j0 are that with the one offset plus
 * (0, 1), (1, 1), (1, 0), (0, 0), so both are one instruction. Level:
 * the view's base, as the spec says. */
static void
gather(struct xl *x, const uint32_t *in, uint32_t wc)
{
	static const uint32_t corner[4][2] = {
		{ 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 },
	};
	const struct xptr *p;
	const struct xtype *st, *it;
	struct xl_img_operands o;
	uint32_t n, base, dst, regs[4], spatial, k, comp;
	const uint32_t *r;

	if (wc < 6)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpImageGather");
	p = xl_image_of(x, in[3]);
	st = xl_type(x, xl_id(x, in[3])->type);
	if (!p->has_smp || st->op != SpvOpTypeSampledImage)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "OpImageGather %u: not a sampled image", in[2]);
	it = xl_type(x, st->elem);
	if (it->count != SpvDim2D && it->count != SpvDimCube)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpImageGather %u: only 2D "
		        "and cube images are gathered", in[2]);
	spatial = it->count == SpvDim2D ? 2 : 3;
	if (!xl_const_u32(x, in[5], &comp) || comp > 3)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpImageGather %u: the "
		        "component must be a constant 0..3", in[2]);
	xl_image_result(x, in[1], 4, "image gather");
	xl_image_operands(x, in, wc, 6, &o);
	if (o.lod)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "OpImageGather %u: no Lod operand", in[2]);
	r = xl_val(x, in[4], &n);
	if (n < spatial + (it->width ? 1 : 0) ||
	    xl_type(x, xl_scalar_type(x, xl_id(x, in[4])->type))->op !=
	    SpvOpTypeFloat)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "gather coordinate %u: "
		        "needs %u floats", in[4], spatial + it->width);
	base = xl_new_regs(x, 12);
	for (uint32_t c = 0; c < 3; c++)
		xl_emit(x, IR_MOV, base + c, c < spatial ? r[c] : IR_REG_ZERO,
		        0, 0);
	xl_emit(x, IR_MOV, base + 3, it->width ? r[spatial] : IR_REG_ZERO,
	        0, 0);
	if (o.offsets) {
		const uint32_t *ro = xl_val(x, o.offsets, &n);

		if (n != 8)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpImageGather %u: "
			        "ConstOffsets needs 4 (x, y) offsets", in[2]);
		for (uint32_t c = 0; c < 8; c++)
			xl_emit(x, IR_MOV, base + 4 + c, ro[c], 0, 0);
	} else {
		uint32_t no = 0;
		const uint32_t *ro = o.offset ? xl_val(x, o.offset, &no)
		                              : NULL;

		for (uint32_t t = 0; t < 4; t++)
			for (uint32_t c = 0; c < 2; c++) {
				uint32_t off = c < no ? ro[c] : IR_REG_ZERO;

				if (corner[t][c])
					xl_emit(x, IR_IADD, base + 4 + 2 * t + c,
					        off, xl_const_reg(x, 1), 0);
				else
					xl_emit(x, IR_MOV, base + 4 + 2 * t + c,
					        off, 0, 0);
			}
	}
	dst = xl_new_regs(x, 4);
	k = xl_emit_img(x, IR_IMGSAMPLE, p, dst, base, IR_REG_ZERO,
	                p->smp_idx ? p->smp_idx : IR_REG_ZERO);
	if (p->smp_slot >= IR_MAX_BUFFERS || p->smp_nslots > 0xff)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "sampler slot %u (array of "
		        "%u) out of range", p->smp_slot, p->smp_nslots);
	xl_instr(x, k)->imm |= p->smp_slot << 16 |
	                       (p->smp_idx ? p->smp_nslots : 0) << 24;
	xl_instr(x, k)->aux2 = (uint8_t)(1 + comp);
	n = xl_type(x, in[1])->scalars;
	for (uint32_t c = 0; c < n; c++)
		regs[c] = dst + c;
	xl_set_val(x, in[2], in[1], regs, n);
}

void
xl_sample_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	switch (in[0] & 0xffff) {
	case SpvOpSampledImage:
		sampled_image(x, in, wc);
		break;
	case SpvOpImageGather:
		gather(x, in, wc);
		break;
	default:
		sample(x, in, wc);
	}
}
