/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: storage images and texel buffers.
 *
 * An image variable (UniformConstant) is one resource slot per
 * descriptor, like a buffer; loading it yields an XK_IMAGE id that names
 * the slot (and the register indexing a descriptor array). Reads,
 * writes, fetches from texel buffers, size queries and atomics through
 * OpImageTexelPointer become IR_IMG* instructions on three coordinate
 * registers (x, y, z: missing ones 0); the interpreter converts texels
 * with the format the descriptor names, so the shader's declared image
 * format does not matter (StorageImageRead/WriteWithoutFormat).
 *
 * An input attachment (Dim SubpassData, fragment shaders) is a sampled
 * image slot read with OpImageRead at the fragment's pixel plus the
 * coordinate, in layer ViewIndex (multiview reads each view's own
 * layer; 0 otherwise).
 *
 * Sampled images, samplers and combined image samplers are slots too.
 * OpSampledImage pairs an image with a sampler (has_smp in the xptr); a
 * combined image sampler is its own sampler. OpImageSample*, the
 * gathers and OpImageQueryLod become IR_IMGSAMPLE (xlate_sample.c,
 * interp_sample.c).
 */
#include "xlate.h"

#include <spirv/unified1/spirv.h>
#include <swgpu/swgpu_packet.h>

void
xl_image_type(struct xl *x, const uint32_t *in, uint32_t wc,
              struct xtype *t)
{
	uint32_t op = in[0] & 0xffff;

	t->scalars = 0;
	if (op == SpvOpTypeImage) {
		if (wc < 9)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpTypeImage");
		t->elem = in[2];          /* sampled type */
		t->count = in[3];         /* Dim */
		t->width = in[5];         /* Arrayed */
		t->nmembers = in[6];      /* MS */
		t->storage = in[7];       /* Sampled: 1 sampled, 2 storage */
		t->members = in[8];       /* Image Format */
	} else if (op == SpvOpTypeSampledImage) {
		if (wc < 3)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "short OpTypeSampledImage");
		t->elem = in[2];          /* image type */
	}
}

/* The image type behind type (an image, a sampled image or a sampler),
 * its resource kind and descriptor type. */
static void
classify(struct xl *x, uint32_t type, uint32_t id, uint8_t *kind,
         uint32_t *desc_type)
{
	const struct xtype *t = xl_type(x, type);

	if (t->op == SpvOpTypeSampler) {
		*kind = IR_RES_SAMPLER;
		*desc_type = SWGPU_DESCRIPTOR_SAMPLER;
		return;
	}
	if (t->op == SpvOpTypeSampledImage) {
		const struct xtype *img = xl_type(x, t->elem);

		if (img->op != SpvOpTypeImage)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "variable %u: "
			        "sampled image of a non-image", id);
		if (img->count == SpvDimBuffer) {
			*kind = IR_RES_TEXEL_BUFFER;
			*desc_type = SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER;
			return;
		}
		t = img;
		*desc_type = SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	} else if (t->op != SpvOpTypeImage) {
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "UniformConstant variable %u is not an image", id);
	} else if (t->count == SpvDimBuffer) {
		*kind = IR_RES_TEXEL_BUFFER;
		*desc_type = t->storage == 2 ?
		             SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER :
		             SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER;
		return;
	} else if (t->count == SpvDimSubpassData) {
		/* An input attachment: the ICD writes it as a sampled image
		 * of the attachment's view; read at the fragment's pixel. */
		if (x->info->stage != SWGPU_SHADER_STAGE_FRAGMENT)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED, "variable %u: an input "
			        "attachment outside a fragment shader", id);
		*kind = IR_RES_SAMPLED;
		*desc_type = SWGPU_DESCRIPTOR_SAMPLED_IMAGE;
		return;
	} else {
		*desc_type = t->storage == 2 ? SWGPU_DESCRIPTOR_STORAGE_IMAGE :
		             SWGPU_DESCRIPTOR_SAMPLED_IMAGE;
	}
	/* Multisampled: 2D images only (OpImageFetch / OpImageRead /
	 * OpImageWrite / OpImageTexelPointer with a Sample, size and
	 * sample queries). */
	if (t->nmembers && t->count != SpvDim2D)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "variable %u: multisampled "
		        "non-2D images are not supported", id);
	if (t->count != SpvDim1D && t->count != SpvDim2D &&
	    t->count != SpvDim3D && t->count != SpvDimCube)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "variable %u: image Dim %u "
		        "not supported", id, t->count);
	*kind = *desc_type == SWGPU_DESCRIPTOR_STORAGE_IMAGE ? IR_RES_IMAGE
	                                                     : IR_RES_SAMPLED;
}

/* The spec's "Shader Resource and Descriptor Type Correspondence": a
 * VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER binding serves an
 * OpTypeSampledImage variable and also a separate OpTypeImage
 * (Sampled=1, not Dim Buffer or SubpassData: those classify as texel
 * buffers or input attachments) or OpTypeSampler variable, which then
 * read the descriptor's image or sampler half. Nothing else mixes:
 * a SAMPLED_IMAGE binding does not serve an OpTypeSampledImage. */
static bool
combined_serves(struct xl *x, uint32_t layout_type, uint32_t shader_type,
                uint32_t elem)
{
	const struct xtype *t = xl_type(x, elem);

	if (t->op == SpvOpTypeImage && t->count == SpvDimSubpassData)
		return false;   /* VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT only */
	return layout_type == SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER &&
	       (shader_type == SWGPU_DESCRIPTOR_SAMPLED_IMAGE ||
	        shader_type == SWGPU_DESCRIPTOR_SAMPLER);
}

void
xl_image_var(struct xl *x, uint32_t id, uint32_t ptr_type, uint32_t pointee)
{
	const struct xid *d = xl_id(x, id);
	const struct xtype *t = xl_type(x, pointee);
	const swgpu_shader_binding *b;
	struct xptr ptr = { 0 };
	uint32_t count = 1, elem = pointee, desc_type;
	uint8_t kind;

	if (t->op == SpvOpTypeArray || t->op == SpvOpTypeRuntimeArray) {
		count = t->op == SpvOpTypeArray ? t->count : 0;
		elem = t->elem;
	}
	classify(x, elem, id, &kind, &desc_type);
	if (!d->has_set || !d->has_binding)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "image variable %u without set/binding", id);
	ptr.space = XS_IMAGE;
	ptr.desc_array = elem != pointee;
	ptr.type = pointee;
	ptr.set = d->set;
	ptr.binding = d->binding;
	b = xl_find_binding(x, d->set, d->binding);
	if (b && t->op == SpvOpTypeRuntimeArray)
		count = b->count;
	if (!b) {
		/* Fine unless the shader uses it. */
		ptr.unbound = true;
		ptr.nslots = count;
		xl_set_ptr(x, id, ptr_type, &ptr, XK_PTR);
		return;
	}
	if (b->set >= SWGPU_SHADER_MAX_SETS || count > b->count)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "binding (set %u, binding %u): bad set or count",
		        d->set, d->binding);
	if (b->type != desc_type &&
	    !combined_serves(x, b->type, desc_type, elem))
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "binding (set %u, binding %u): layout type %u, the "
		        "shader's image needs %u", d->set, d->binding, b->type,
		        desc_type);
	ptr.writable = desc_type == SWGPU_DESCRIPTOR_STORAGE_IMAGE ||
	               desc_type == SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER;
	ptr.slot = xl_add_slots(x, b, count, kind, ptr.writable);
	ptr.nslots = count;
	xl_set_ptr(x, id, ptr_type, &ptr, XK_PTR);
}

void
xl_image_load(struct xl *x, uint32_t type, uint32_t result,
              const struct xptr *p)
{
	if (p->desc_array)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED,
		        "load of a whole image descriptor array");
	struct xptr v = *p;
	const struct xtype *t = xl_type(x, type);

	xl_mark_used(x, p);
	/* A combined image sampler samples with itself. */
	if (t->op == SpvOpTypeSampledImage &&
	    xl_type(x, t->elem)->count != SpvDimBuffer) {
		v.has_smp = true;
		v.smp_slot = p->slot;
		v.smp_idx = p->desc_idx;
		v.smp_nslots = p->nslots;
	}
	xl_set_ptr(x, result, type, &v, XK_IMAGE);
}

const struct xptr *
xl_image_of(struct xl *x, uint32_t id)
{
	const struct xid *d = xl_id(x, id);

	if (d->kind != XK_IMAGE)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "id %u is not an image", id);
	return &x->ptrs[d->ptr];
}

/* Three consecutive registers holding the coordinates of id (an integer
 * scalar or vector of up to 3 components; missing ones 0), then `extra`
 * more registers for the caller. */
static uint32_t
coords_plus(struct xl *x, uint32_t id, uint32_t extra)
{
	uint32_t n, base = xl_new_regs(x, 3 + extra);
	const uint32_t *r = xl_val(x, id, &n);

	if (n < 1 || n > 3 || xl_type(x, xl_scalar_type(x, xl_id(x,
	                                    id)->type))->op != SpvOpTypeInt)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "image coordinate %u is not 1-3 integers", id);
	for (uint32_t c = 0; c < 3; c++)
		xl_emit(x, IR_MOV, base + c, c < n ? r[c] : IR_REG_ZERO, 0, 0);
	return base;
}

static uint32_t
coords(struct xl *x, uint32_t id)
{
	return coords_plus(x, id, 0);
}

uint32_t
xl_emit_img(struct xl *x, uint32_t op, const struct xptr *p, uint32_t dst,
         uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t k = xl_emit(x, op, dst, a, b, c);
	struct ir_instr *in = xl_instr(x, k);

	in->d = p->desc_idx;
	in->imm = p->desc_idx ? p->nslots : 0;
	in->aux = (uint8_t)p->slot;
	return k;
}

void
xl_image_result(struct xl *x, uint32_t type, uint32_t max, const char *what)
{
	const struct xtype *t = xl_type(x, type);
	const struct xtype *s = xl_type(x, xl_scalar_type(x, type));

	if (t->scalars < 1 || t->scalars > max || s->width != 32)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "%s of type %u: only 1-%u "
		        "32-bit components", what, type, max);
}

/* The register of an image access's Sample operand (IR_REG_ZERO when
 * it has none): required on multisampled images, refused on the
 * others. */
static uint32_t
sample_of(struct xl *x, bool ms, uint32_t sample_id, uint32_t result_id)
{
	if (ms != (sample_id != 0))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "image access %u: a Sample "
		        "operand %s a multisampled image", result_id,
		        sample_id ? "without" : "is required by");
	return sample_id ? xl_val1(x, sample_id) : IR_REG_ZERO;
}

/* The same for an access to the image object image_id. */
static uint32_t
sample_operand(struct xl *x, uint32_t image_id, uint32_t sample_id,
               uint32_t result_id)
{
	return sample_of(x, xl_type(x, xl_id(x, image_id)->type)->nmembers
	                    != 0, sample_id, result_id);
}

static void
image_read(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const struct xptr *p;
	struct xl_img_operands o;
	uint32_t dst, regs[4], n, xyz, sample;

	if (wc < 5)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short image read");
	p = xl_image_of(x, in[3]);
	xl_image_result(x, in[1], 4, "image read");
	xl_image_operands(x, in, wc, 5, &o);
	if (o.bias || o.grad_x || o.offsets || o.min_lod)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "image read/fetch %u with "
		        "sampling operands (mask 0x%x)", in[2], o.mask);
	/* A multisampled image is read one sample at a time. */
	sample = sample_operand(x, in[3], o.sample, in[2]);
	n = xl_type(x, in[1])->scalars;
	dst = xl_new_regs(x, 4);
	xyz = coords(x, in[4]);
	if (xl_type(x, xl_id(x, in[3])->type)->count == SpvDimSubpassData) {
		/* relative to the fragment's pixel (FragCoord: centres) */
		x->p->io.reads_input_attachment = true;
		for (uint32_t c = 0; c < 2; c++) {
			uint32_t px = xl_new_regs(x, 1);

			x->p->builtins_used |= 1ull << (IR_REG_FRAG_COORD + c);
			xl_emit(x, IR_F2S, px, IR_REG_FRAG_COORD + c, 0, 0);
			xl_emit(x, IR_IADD, xyz + c, xyz + c, px, 0);
		}
		x->p->builtins_used |= 1ull << IR_REG_VIEW_INDEX;
		xl_emit(x, IR_IADD, xyz + 2, xyz + 2, IR_REG_VIEW_INDEX, 0);
	}
	if (o.offset) {
		/* Fetch offsets move the spatial coordinates. */
		uint32_t no;
		const uint32_t *r = xl_val(x, o.offset, &no);

		for (uint32_t c = 0; c < no && c < 3; c++)
			xl_emit(x, IR_IADD, xyz + c, xyz + c, r[c], 0);
	}
	xl_emit_img(x, IR_IMGLD, p, dst, xyz,
	            o.lod ? xl_val1(x, o.lod) : IR_REG_ZERO, sample);
	for (uint32_t c = 0; c < n; c++)
		regs[c] = dst + c;
	xl_set_val(x, in[2], in[1], regs, n);
}

static void
image_write(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const struct xptr *p;
	struct xl_img_operands o;
	uint32_t n, base, xyz, sample;
	const uint32_t *r;

	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpImageWrite");
	p = xl_image_of(x, in[1]);
	if (!p->writable)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "write to a uniform texel "
		        "buffer");
	xl_image_operands(x, in, wc, 4, &o);
	if (o.bias || o.lod || o.grad_x || o.offset || o.offsets ||
	    o.min_lod)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "OpImageWrite with "
		        "sampling operands (mask 0x%x)", o.mask);
	sample = sample_operand(x, in[1], o.sample, 0);
	xyz = coords(x, in[2]);
	xl_image_result(x, xl_id(x, in[3])->type, 4, "image write");
	r = xl_val(x, in[3], &n);
	base = xl_new_regs(x, 4);
	for (uint32_t c = 0; c < 4; c++)
		xl_emit(x, IR_MOV, base + c, c < n ? r[c] : IR_REG_ZERO, 0, 0);
	xl_emit_img(x, IR_IMGST, p, 0, xyz, base, sample);
}

/* OpImageQuerySize, OpImageQuerySizeLod (lod: its level operand) and
 * OpImageQueryLevels (levels: component 3 of IR_IMGSIZE). */
static void
image_size(struct xl *x, const uint32_t *in, uint32_t wc, bool lod,
           bool levels)
{
	const struct xptr *p;
	uint32_t regs[3], n, level = IR_REG_ZERO;

	if (wc < (lod ? 5u : 4u))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short image size query");
	p = xl_image_of(x, in[3]);
	xl_image_result(x, in[1], levels ? 1 : 3, "image size");
	n = xl_type(x, in[1])->scalars;
	if (lod)
		level = xl_val1(x, in[4]);
	for (uint32_t c = 0; c < n; c++) {
		regs[c] = xl_new_regs(x, 1);
		xl_instr(x, xl_emit_img(x, IR_IMGSIZE, p, regs[c], 0, level,
		                        0))->aux2 = (uint8_t)(levels ? 3 : c);
	}
	xl_set_val(x, in[2], in[1], regs, n);
}

/* OpImageQuerySamples: component 4 of IR_IMGSIZE. */
static void
image_samples(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const struct xptr *p;
	uint32_t reg;

	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpImageQuerySamples");
	p = xl_image_of(x, in[3]);
	xl_image_result(x, in[1], 1, "image sample count");
	reg = xl_new_regs(x, 1);
	xl_instr(x, xl_emit_img(x, IR_IMGSIZE, p, reg, 0, IR_REG_ZERO,
	                        0))->aux2 = 4;
	xl_set_val(x, in[2], in[1], &reg, 1);
}

static void
texel_pointer(struct xl *x, const uint32_t *in, uint32_t wc)
{
	struct xptr p;
	const struct xtype *pt;

	if (wc < 6)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "short OpImageTexelPointer");
	p = *xl_ptr(x, in[3]);
	pt = xl_type(x, in[1]);
	if (p.space != XS_IMAGE || p.desc_array ||
	    pt->op != SpvOpTypePointer)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "OpImageTexelPointer %u: not a single image", in[2]);
	if (!p.writable)
		xl_fail(x, SWGPU_ERR_INVALID_ARG,
		        "atomic on a uniform texel buffer");
	p.space = XS_TEXEL;
	/* x, y, z and the sample: IR_IMGATOM reads off .. off + 3 */
	p.off = coords_plus(x, in[4], 1);
	/* The Sample operand is always there; it must be 0 unless the
	 * image is multisampled. */
	const struct xtype *it = xl_type(x, p.type);
	if (it->op == SpvOpTypeArray || it->op == SpvOpTypeRuntimeArray)
		it = xl_type(x, it->elem);
	const bool ms = it->op == SpvOpTypeImage && it->nmembers != 0;
	xl_emit(x, IR_MOV, p.off + 3,
	        ms ? sample_of(x, true, in[5], in[2]) : IR_REG_ZERO, 0, 0);
	p.type = pt->elem;
	xl_set_ptr(x, in[2], in[1], &p, XK_PTR);
}

bool
xl_image_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	switch (in[0] & 0xffff) {
	case SpvOpImage:
		if (wc < 4)
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "short OpImage");
		xl_set_ptr(x, in[2], in[1], xl_image_of(x, in[3]), XK_IMAGE);
		return true;
	case SpvOpImageRead:
	case SpvOpImageFetch:
		image_read(x, in, wc);
		return true;
	case SpvOpImageWrite:
		image_write(x, in, wc);
		return true;
	case SpvOpImageQuerySize:
		image_size(x, in, wc, false, false);
		return true;
	case SpvOpImageQuerySizeLod:
		image_size(x, in, wc, true, false);
		return true;
	case SpvOpImageQueryLevels:
		image_size(x, in, wc, false, true);
		return true;
	case SpvOpImageTexelPointer:
		texel_pointer(x, in, wc);
		return true;
	case SpvOpSampledImage:
	case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod:
	case SpvOpImageSampleDrefImplicitLod:
	case SpvOpImageSampleDrefExplicitLod:
	case SpvOpImageSampleProjImplicitLod:
	case SpvOpImageSampleProjExplicitLod:
	case SpvOpImageSampleProjDrefImplicitLod:
	case SpvOpImageSampleProjDrefExplicitLod:
	case SpvOpImageGather: case SpvOpImageDrefGather:
	case SpvOpImageQueryLod:
		xl_sample_op(x, in, wc);
		return true;
	case SpvOpImageQuerySamples:
		image_samples(x, in, wc);
		return true;
	default:
		return false;
	}
}
