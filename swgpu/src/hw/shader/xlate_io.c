/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: Input and Output variables — the stage
 * interface of vertex and fragment entry points, and the built-ins of
 * every stage.
 *
 * A user Input or Output variable is a range of registers, one per
 * scalar in the value's order, like a Private variable, so access chains
 * (dynamic indexing included), loads and stores need nothing new. Each
 * of those registers also gets its (Location, Component) by the Vulkan
 * spec's "Location Assignment" and "Component Assignment" rules, recorded
 * in ir_io: the graphics pipeline fills input registers before a batch
 * and reads output registers after it. Inputs are read-only, and a load
 * reads the input register itself. An input component no load reads and
 * an output component no store writes are left out of ir_io (register
 * 0), so the pipeline neither interpolates nor exports them.
 *
 * Input built-ins are fixed registers (IR_REG_*, ir.h) filled by the
 * interpreter (compute) or by the graphics pipeline (stage.h), but for
 * the fragment inputs ClipDistance[] and CullDistance[]: arrays of
 * registers like user inputs, recorded in ir_io by kind. Output
 * built-ins (Position, PointSize, ClipDistance, CullDistance, Layer,
 * ViewportIndex, FragDepth, SampleMask) are registers like user outputs,
 * recorded in ir_io by kind, whether they are variables of their own or
 * members of a gl_PerVertex-style block.
 *
 * An Input or Output variable outside the entry point's interface
 * belongs to another entry point of the module: it becomes private
 * registers that nothing reads.
 */
#include "xlate.h"

#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#define ST_C (1u << SWGPU_SHADER_STAGE_COMPUTE)
#define ST_V (1u << SWGPU_SHADER_STAGE_VERTEX)
#define ST_F (1u << SWGPU_SHADER_STAGE_FRAGMENT)
#define ST_ALL (ST_C | ST_V | ST_F)

static const struct builtin_input {
	uint32_t builtin, reg, n, stages;
} builtin_inputs[] = {
	{ SpvBuiltInLocalInvocationId, IR_REG_LOCAL_ID, 3, ST_C },
	{ SpvBuiltInGlobalInvocationId, IR_REG_GLOBAL_ID, 3, ST_C },
	{ SpvBuiltInWorkgroupId, IR_REG_WORKGROUP_ID, 3, ST_C },
	{ SpvBuiltInNumWorkgroups, IR_REG_NUM_WORKGROUPS, 3, ST_C },
	{ SpvBuiltInWorkgroupSize, IR_REG_WORKGROUP_SIZE, 3, ST_C },
	{ SpvBuiltInLocalInvocationIndex, IR_REG_LOCAL_INDEX, 1, ST_C },
	{ SpvBuiltInSubgroupId, IR_REG_SUBGROUP_ID, 1, ST_C },
	{ SpvBuiltInNumSubgroups, IR_REG_NUM_SUBGROUPS, 1, ST_C },
	{ SpvBuiltInSubgroupSize, IR_REG_SUBGROUP_SIZE, 1, ST_ALL },
	{ SpvBuiltInSubgroupLocalInvocationId, IR_REG_SUBGROUP_LOCAL_ID, 1,
	  ST_ALL },
	/* One physical device per device group: its index is always 0. */
	{ SpvBuiltInDeviceIndex, IR_REG_ZERO, 1, ST_ALL },
	{ SpvBuiltInSubgroupEqMask, IR_REG_EQ_MASK, 4, ST_ALL },
	{ SpvBuiltInSubgroupGeMask, IR_REG_GE_MASK, 4, ST_ALL },
	{ SpvBuiltInSubgroupGtMask, IR_REG_GT_MASK, 4, ST_ALL },
	{ SpvBuiltInSubgroupLeMask, IR_REG_LE_MASK, 4, ST_ALL },
	{ SpvBuiltInSubgroupLtMask, IR_REG_LT_MASK, 4, ST_ALL },
	{ SpvBuiltInVertexIndex, IR_REG_VERTEX_INDEX, 1, ST_V },
	{ SpvBuiltInInstanceIndex, IR_REG_INSTANCE_INDEX, 1, ST_V },
	{ SpvBuiltInBaseVertex, IR_REG_BASE_VERTEX, 1, ST_V },
	{ SpvBuiltInBaseInstance, IR_REG_BASE_INSTANCE, 1, ST_V },
	{ SpvBuiltInDrawIndex, IR_REG_DRAW_INDEX, 1, ST_V },
	{ SpvBuiltInViewIndex, IR_REG_VIEW_INDEX, 1, ST_V | ST_F },
	{ SpvBuiltInFragCoord, IR_REG_FRAG_COORD, 4, ST_F },
	{ SpvBuiltInFrontFacing, IR_REG_FRONT_FACING, 1, ST_F },
	{ SpvBuiltInPointCoord, IR_REG_POINT_COORD, 2, ST_F },
	{ SpvBuiltInHelperInvocation, IR_REG_HELPER, 1, ST_F },
	{ SpvBuiltInSampleId, IR_REG_SAMPLE_ID, 1, ST_F },
	{ SpvBuiltInSampleMask, IR_REG_SAMPLE_MASK_IN, 1, ST_F },
	{ SpvBuiltInSamplePosition, IR_REG_SAMPLE_POSITION, 2, ST_F },
	{ SpvBuiltInPrimitiveId, IR_REG_PRIMITIVE_ID, 1, ST_F },
	{ SpvBuiltInLayer, IR_REG_LAYER, 1, ST_F },
	{ SpvBuiltInViewportIndex, IR_REG_VIEWPORT_INDEX, 1, ST_F },
};

static const char *
stage_word(struct xl *x)
{
	switch (x->info->stage) {
	case SWGPU_SHADER_STAGE_VERTEX: return "vertex";
	case SWGPU_SHADER_STAGE_FRAGMENT: return "fragment";
	default: return "compute";
	}
}

static bool
in_interface(struct xl *x, uint32_t id)
{
	for (uint32_t i = 0; i < x->niface; i++)
		if (x->iface[i] == id)
			return true;
	return false;
}

/* Fragment inputs ClipDistance[] / CullDistance[]: registers like user
 * inputs (dynamic indexing works), recorded in ir_io; the graphics
 * pipeline fills them with the vertex stage's values, interpolated
 * perspective-correct. True when builtin is one of them. */
static bool
distance_input(struct xl *x, uint32_t id, uint32_t builtin, uint32_t type,
               struct xptr *ptr)
{
	const struct xtype *t = xl_type(x, type);
	struct ir_io *io = &x->p->io;
	const bool clip = builtin == SpvBuiltInClipDistance;

	if ((!clip && builtin != SpvBuiltInCullDistance) ||
	    x->info->stage != SWGPU_SHADER_STAGE_FRAGMENT)
		return false;
	if (t->op != SpvOpTypeArray || xl_type(x, t->elem)->op !=
	    SpvOpTypeFloat || xl_type(x, t->elem)->width != 32)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "built-in %u (variable %u) "
		        "is not an array of 32-bit floats", builtin, id);
	ptr->space = XS_INPUT;
	ptr->nslots = t->count;
	ptr->slot = xl_new_regs(x, t->count);
	if (clip) {
		io->clip_in_reg = ptr->slot;
		io->clip_in_count = t->count;
	} else {
		io->cull_in_reg = ptr->slot;
		io->cull_in_count = t->count;
	}
	return true;
}

static void
builtin_input(struct xl *x, uint32_t id, uint32_t builtin, uint32_t type,
              struct xptr *ptr)
{
	const uint32_t stage = 1u << x->info->stage;

	if (distance_input(x, id, builtin, type, ptr))
		return;

	for (size_t i = 0;
	     i < sizeof(builtin_inputs) / sizeof(builtin_inputs[0]); i++) {
		const struct builtin_input *b = &builtin_inputs[i];

		if (b->builtin != builtin)
			continue;
		if (!(b->stages & stage))
			break;
		if (xl_type(x, type)->scalars != b->n)
			xl_fail(x, SWGPU_ERR_INVALID_ARG,
			        "built-in %u (variable %u) has the wrong type",
			        builtin, id);
		ptr->space = XS_INPUT;
		ptr->slot = b->reg;
		ptr->nslots = b->n;
		return;
	}
	xl_fail(x, SWGPU_ERR_UNSUPPORTED,
	        "input built-in %u not supported in %s shaders", builtin,
	        stage_word(x));
}

/* Output built-in `builtin` of type in the registers from reg. */
static void
builtin_output(struct xl *x, uint32_t builtin, uint32_t type, uint32_t reg)
{
	const struct xtype *t = xl_type(x, type);
	struct ir_io *io = &x->p->io;
	const bool vert = x->info->stage == SWGPU_SHADER_STAGE_VERTEX;
	const bool frag = x->info->stage == SWGPU_SHADER_STAGE_FRAGMENT;
	const bool is_array = t->op == SpvOpTypeArray;
	bool ok = false;

	switch (builtin) {
	case SpvBuiltInPosition:
		ok = vert && t->scalars == 4;
		io->position_reg = reg;
		break;
	case SpvBuiltInPointSize:
		ok = vert && t->scalars == 1;
		io->point_size_reg = reg;
		break;
	case SpvBuiltInClipDistance:
		ok = vert && is_array && xl_type(x, t->elem)->scalars == 1;
		io->clip_reg = reg;
		io->clip_count = t->count;
		break;
	case SpvBuiltInCullDistance:
		ok = vert && is_array && xl_type(x, t->elem)->scalars == 1;
		io->cull_reg = reg;
		io->cull_count = t->count;
		break;
	case SpvBuiltInLayer:
		ok = vert && t->scalars == 1;
		io->layer_reg = reg;
		break;
	case SpvBuiltInViewportIndex:
		ok = vert && t->scalars == 1;
		io->viewport_index_reg = reg;
		break;
	case SpvBuiltInFragDepth:
		ok = frag && t->scalars == 1;
		io->frag_depth_reg = reg;
		break;
	case SpvBuiltInSampleMask:
		/* SampleMask[0]: the samples of a pixel fit one word */
		ok = frag && is_array && t->scalars >= 1;
		io->sample_mask_reg = reg;
		break;
	default:
		break;
	}
	if (!ok)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "output built-in %u (type "
		        "%u) not supported in %s shaders", builtin, type,
		        stage_word(x));
}

/* ------------------------------------------------------------------ */
/* Location assignment                                                 */
/* ------------------------------------------------------------------ */

#define NO_LOCATION UINT32_MAX

struct io_walk {
	uint32_t var;              /* variable id, for messages */
	bool input;
	uint32_t index;            /* fragment output Index (0, 1) */
};

static uint8_t
io_type(struct xl *x, uint32_t scalar_type)
{
	const struct xtype *t = xl_type(x, scalar_type);

	if (t->op == SpvOpTypeFloat && t->width == 32)
		return IR_IO_FLOAT;
	/* 64-bit components are pairs of raw words */
	return t->op == SpvOpTypeInt && t->is_signed && t->width == 32
	       ? IR_IO_SINT : IR_IO_UINT;
}

/* Component (loc, comp) is register reg. */
static void
put(struct xl *x, const struct io_walk *w, uint32_t loc, uint32_t comp,
    uint32_t reg, uint8_t type, uint8_t interp)
{
	struct ir_io *io = &x->p->io;

	if (loc == NO_LOCATION)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "%s variable %u has no "
		        "Location", w->input ? "Input" : "Output", w->var);
	if (loc >= IR_MAX_LOCATIONS || comp >= 4)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "%s variable %u: Location %u "
		        "Component %u beyond the engine's %u locations",
		        w->input ? "Input" : "Output", w->var, loc, comp,
		        IR_MAX_LOCATIONS);
	if (w->input) {
		if (io->in_reg[loc][comp])
			goto twice;
		io->in_reg[loc][comp] = reg;
		io->in_type[loc][comp] = type;
		/* Integers and doubles are never interpolated (the spec
		 * makes them Flat). */
		if (type != IR_IO_FLOAT)
			interp = (interp & ~IR_INTERP_MODE_MASK) |
			         IR_INTERP_FLAT;
		io->in_interp[loc][comp] = interp;
	} else if (w->index) {
		if (loc != 0 || io->out_index1_reg[comp])
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "Output variable %u: "
			        "Index 1 at Location %u (dual-source blending "
			        "uses Location 0)", w->var, loc);
		io->out_index1_reg[comp] = reg;
	} else {
		if (io->out_reg[loc][comp])
			goto twice;
		io->out_reg[loc][comp] = reg;
		io->out_type[loc] = type;
	}
	return;
twice:
	xl_fail(x, SWGPU_ERR_INVALID_ARG, "%s variable %u: Location %u "
	        "Component %u is taken twice", w->input ? "Input" : "Output",
	        w->var, loc, comp);
}

/* Gives the scalars of a value of type, in registers from reg, their
 * locations from loc, component comp on. Returns the locations used. */
static uint32_t
assign(struct xl *x, const struct io_walk *w, uint32_t type, uint32_t loc,
       uint32_t comp, uint32_t reg, uint8_t interp)
{
	const struct xtype *t = xl_type(x, type);

	switch (t->op) {
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
	case SpvOpTypeVector: {
		const uint32_t st = xl_scalar_type(x, type);
		const struct xtype *s = xl_type(x, st);
		const uint32_t words = t->scalars;
		const uint8_t ty = io_type(x, st);

		if (s->width < 32)
			xl_fail(x, SWGPU_ERR_UNSUPPORTED, "variable %u: 8/16-bit "
			        "stage inputs and outputs are not supported",
			        w->var);
		/* 32-bit: within one location; 64-bit: a dvec3/dvec4
		 * continues at the next location, from component 0. */
		if (comp + words > (words > 4 ? 8u : 4u) ||
		    (words > 4 && comp))
			xl_fail(x, SWGPU_ERR_INVALID_ARG, "variable %u: Component "
			        "%u + %u words past the location", w->var, comp,
			        words);
		for (uint32_t k = 0; k < words; k++) {
			uint32_t c = comp + k;

			put(x, w, loc == NO_LOCATION ? loc : loc + c / 4, c % 4,
			    reg + k, ty, interp);
		}
		return words > 4 ? 2 : 1;
	}
	case SpvOpTypeMatrix:
	case SpvOpTypeArray: {
		/* columns / elements at consecutive locations */
		const uint32_t es = xl_type(x, t->elem)->scalars;
		uint32_t per = 0;

		for (uint32_t i = 0; i < t->count; i++) {
			uint32_t u = assign(x, w, t->elem, loc == NO_LOCATION ?
			                    loc : loc + i * per, comp,
			                    reg + i * es, interp);

			if (!i)
				per = u;
		}
		return per * t->count;
	}
	case SpvOpTypeStruct: {
		uint32_t cur = loc, run = 0, end = loc;

		for (uint32_t m = 0; m < t->nmembers; m++) {
			const uint32_t mt = x->pool[t->members + m];
			uint32_t ml = cur, mc = 0, used;
			uint8_t mi = interp;

			xl_mdeco(x, type, m, SpvDecorationLocation, &ml);
			xl_mdeco(x, type, m, SpvDecorationComponent, &mc);
			if (xl_mdeco(x, type, m, SpvDecorationFlat, NULL))
				mi |= IR_INTERP_FLAT;
			if (xl_mdeco(x, type, m, SpvDecorationNoPerspective,
			             NULL))
				mi |= IR_INTERP_NOPERSPECTIVE;
			if (xl_mdeco(x, type, m, SpvDecorationCentroid, NULL))
				mi |= IR_INTERP_CENTROID;
			if (xl_mdeco(x, type, m, SpvDecorationSample, NULL))
				mi |= IR_INTERP_SAMPLE;
			used = assign(x, w, mt, ml, mc, reg + run, mi);
			if (ml != NO_LOCATION) {
				cur = ml + used;
				if (end == NO_LOCATION || cur > end)
					end = cur;
			}
			run += xl_type(x, mt)->scalars;
		}
		return loc == NO_LOCATION || end == NO_LOCATION ? 0
		                                                : end - loc;
	}
	case SpvOpTypeBool:
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "variable %u: booleans "
		        "cannot be stage inputs or outputs", w->var);
	default:
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "variable %u: type %u "
		        "(opcode %u) as a stage input or output", w->var, type,
		        t->op);
	}
}

/* The members of struct type that are built-ins (member decorations),
 * recorded; false if none is. */
static bool
builtin_members(struct xl *x, uint32_t id, uint32_t type, bool input,
                uint32_t reg)
{
	const struct xtype *t = xl_type(x, type);
	uint32_t run = 0, b = 0, n = 0;

	if (t->op != SpvOpTypeStruct)
		return false;
	for (uint32_t m = 0; m < t->nmembers; m++)
		n += xl_mdeco(x, type, m, SpvDecorationBuiltIn, NULL);
	if (!n)
		return false;
	if (input || n != t->nmembers)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "%s block %u mixes built-in "
		        "and user members, or is a per-vertex input",
		        input ? "Input" : "Output", id);
	for (uint32_t m = 0; m < t->nmembers; m++) {
		const uint32_t mt = x->pool[t->members + m];

		xl_mdeco(x, type, m, SpvDecorationBuiltIn, &b);
		builtin_output(x, b, mt, reg + run);
		run += xl_type(x, mt)->scalars;
	}
	return true;
}

void
xl_io_var(struct xl *x, uint32_t id, uint32_t pointee, uint32_t storage,
          struct xptr *ptr)
{
	const struct xid *d = xl_id(x, id);
	const bool input = storage == SpvStorageClassInput;
	struct io_walk w = { .var = id, .input = input, .index = d->index };

	ptr->comp_stride = 1;
	if (!in_interface(x, id)) {
		/* another entry point's: registers nothing reads */
		ptr->space = XS_PRIV;
		ptr->nslots = xl_type(x, pointee)->scalars;
		ptr->slot = xl_new_regs(x, ptr->nslots);
		ptr->writable = true;
		return;
	}
	if (input && d->builtin) {
		builtin_input(x, id, d->builtin - 1, pointee, ptr);
		/* SampleId / SamplePosition in the interface are a static
		 * use ("gl_SampleID;" loads nothing) and make the shader run
		 * per sample (hw/gfx/draw.c): count them as read */
		if (x->info->stage == SWGPU_SHADER_STAGE_FRAGMENT &&
		    (d->builtin - 1 == SpvBuiltInSampleId ||
		     d->builtin - 1 == SpvBuiltInSamplePosition))
			xl_io_mark_read(x, ptr, NULL, 0);
		return;
	}
	if (x->info->stage == SWGPU_SHADER_STAGE_COMPUTE)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "%s variable %u is not a "
		        "built-in", input ? "Input" : "Output", id);
	if (d->patch)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "Patch variable %u outside "
		        "tessellation", id);
	ptr->nslots = xl_type(x, pointee)->scalars;
	if (!ptr->nslots)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "%s variable %u of an empty "
		        "type", input ? "Input" : "Output", id);
	ptr->slot = xl_new_regs(x, ptr->nslots);
	ptr->space = input ? XS_INPUT : XS_PRIV;
	ptr->writable = !input;
	if (d->builtin) {
		builtin_output(x, d->builtin - 1, pointee, ptr->slot);
		return;
	}
	if (builtin_members(x, id, pointee, input, ptr->slot))
		return;
	if (d->index > 1 || (d->index && (input || x->info->stage !=
	                                  SWGPU_SHADER_STAGE_FRAGMENT)))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "variable %u: Index %u",
		        id, d->index);
	assign(x, &w, pointee, d->has_location ? d->location : NO_LOCATION,
	       d->component, ptr->slot, d->interp);
}

void
xl_io_mark_read(struct xl *x, const struct xptr *p, const uint32_t *offs,
                uint32_t n)
{
	if (p->slot < IR_REG_FIRST_FREE) {
		/* built-in registers: the whole variable */
		for (uint32_t i = 0; i < p->nslots; i++)
			if (p->slot + i < 64)
				x->p->builtins_used |= 1ull << (p->slot + i);
		return;
	}
	x->io_read = xl_grow(x, x->io_read, &x->cap_io_read,
	                     p->slot + p->nslots, 1);
	if (p->dyn) {
		memset(x->io_read + p->slot, 1, p->nslots);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		x->io_read[p->slot + offs[i]] = 1;
}

/* ------------------------------------------------------------------ */
/* Facts after translation                                             */
/* ------------------------------------------------------------------ */

/* Register r, or 0 unless one of its n registers is written. */
static uint32_t
if_written(const uint8_t *written, uint32_t r, uint32_t n)
{
	for (uint32_t i = 0; r && i < n; i++)
		if (written[r + i])
			return r;
	return 0;
}

/* Whether one of input registers [r, r + n) is read (r 0: none). */
static bool
if_read(struct xl *x, uint32_t r, uint32_t n)
{
	for (uint32_t i = 0; r && i < n; i++)
		if (r + i < x->cap_io_read && x->io_read[r + i])
			return true;
	return false;
}

void
xl_io_finish(struct xl *x)
{
	struct ir_program *p = x->p;
	struct ir_io *io = &p->io;
	uint8_t *written;

	for (uint32_t i = 0; i < p->ninstr; i++) {
		switch (p->code[i].op) {
		case IR_KILL: case IR_DEMOTE:
			io->discards = true;
			break;
		case IR_STBUF: case IR_STBUFX: case IR_STBUFN:
		case IR_ATOMBUF: case IR_ATOMBUFX: case IR_ATOMBUF64:
		case IR_IMGST: case IR_IMGATOM: case IR_STPHYS:
		case IR_ATOMPHYS:
			io->side_effects = true;
			break;
		case IR_DERIV:
			io->uses_derivatives = true;
			break;
		case IR_IMGSAMPLE:
			if ((p->code[i].aux2 & IR_SMP_LOD_MASK) ==
			    IR_SMP_LOD_IMPLICIT ||
			    (p->code[i].aux2 & IR_SMP_LOD_MASK) ==
			    IR_SMP_LOD_QUERY)
				io->uses_derivatives = true;
			break;
		default:
			break;
		}
	}
	if (p->stage == SWGPU_SHADER_STAGE_COMPUTE)
		return;
	/* Output registers are written by stores only: IR_MOV into them,
	 * or IR_STX into their range (dynamic index). */
	written = calloc(p->nregs, 1);
	if (!written)
		xl_fail(x, SWGPU_ERR_NO_HOST_MEMORY, "out of host memory");
	for (uint32_t i = 0; i < p->ninstr; i++) {
		const struct ir_instr *in = &p->code[i];

		if (in->op == IR_MOV)
			written[in->dst] = 1;
		else if (in->op == IR_STX)
			memset(written + in->b, 1, in->c);
	}
	for (uint32_t l = 0; l < IR_MAX_LOCATIONS; l++)
		for (uint32_t c = 0; c < 4; c++) {
			uint32_t r = io->in_reg[l][c];

			io->out_reg[l][c] = if_written(written,
			                               io->out_reg[l][c], 1);
			if (r && !(r < x->cap_io_read && x->io_read[r]))
				io->in_reg[l][c] = 0;
		}
	for (uint32_t c = 0; c < 4; c++)
		io->out_index1_reg[c] = if_written(written,
		                                   io->out_index1_reg[c], 1);
	io->position_reg = if_written(written, io->position_reg, 4);
	io->point_size_reg = if_written(written, io->point_size_reg, 1);
	io->clip_reg = if_written(written, io->clip_reg, io->clip_count);
	io->clip_count = io->clip_reg ? io->clip_count : 0;
	io->cull_reg = if_written(written, io->cull_reg, io->cull_count);
	io->cull_count = io->cull_reg ? io->cull_count : 0;
	io->layer_reg = if_written(written, io->layer_reg, 1);
	io->viewport_index_reg = if_written(written, io->viewport_index_reg,
	                                    1);
	io->frag_depth_reg = if_written(written, io->frag_depth_reg, 1);
	io->sample_mask_reg = if_written(written, io->sample_mask_reg, 1);
	free(written);
	/* ClipDistance / CullDistance inputs: kept whole if any element
	 * is read */
	if (!if_read(x, io->clip_in_reg, io->clip_in_count))
		io->clip_in_reg = io->clip_in_count = 0;
	if (!if_read(x, io->cull_in_reg, io->cull_in_count))
		io->cull_in_reg = io->cull_in_count = 0;
	if (io->clip_in_count + io->cull_in_count >
	    SWGPU_GFX_MAX_CLIP_DISTANCES)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "%u clip + %u cull distance "
		        "inputs over the engine's %u", io->clip_in_count,
		        io->cull_in_count, SWGPU_GFX_MAX_CLIP_DISTANCES);
	if (io->clip_count + io->cull_count > SWGPU_GFX_MAX_CLIP_DISTANCES)
		xl_fail(x, SWGPU_ERR_UNSUPPORTED, "%u clip + %u cull distances "
		        "over the engine's %u", io->clip_count, io->cull_count,
		        SWGPU_GFX_MAX_CLIP_DISTANCES);
}
