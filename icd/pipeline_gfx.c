/* SPDX-License-Identifier: MIT */
/*
 * pipeline_gfx.c — graphics pipelines.
 *
 * A graphics pipeline is two swgpu shaders (VERTEX, and FRAGMENT unless
 * the pipeline has none) translated at creation against the pipeline
 * layout like a compute shader (pipeline.c), plus one struct
 * swgpu_pipeline_state — vertex input, input assembly, rasterization,
 * depth/stencil, blend, viewports and which of them are dynamic — written
 * once into a BO of its own, mapped READ-only into the device's context.
 * vkCmdBindPipeline makes the next draw emit SET_PIPELINE with its VA.
 *
 * State the spec says is ignored (a NULL or garbage pointer is valid) is
 * never read: viewport, multisample, depth/stencil and blend state under
 * static rasterizer discard; depth/stencil state without a depth/stencil
 * attachment (the test then passes, so it is off in the state); blend
 * state without colour attachments. What the device cannot do yet —
 * tessellation and geometry stages, more than one sample, a sample mask
 * that drops the only sample, pipeline libraries — is refused with a log line and VK_ERROR_UNKNOWN (invalid use) or
 * VK_ERROR_FEATURE_NOT_PRESENT.
 */
#include <swgpu/swgpu_packet.h>

#include "format.h"
#include "pipeline.h"
#include "pipeline_cache.h"
#include "render_pass.h"

/* What the pipeline renders to: from its subpass or from
 * VkPipelineRenderingCreateInfo (dynamic rendering). */
struct gfx_targets {
	uint32_t color_count;
	bool depth, stencil;
};

static VkResult
gfx_targets(const VkGraphicsPipelineCreateInfo *ci, struct gfx_targets *t)
{
	const struct icd_render_pass *rp =
		icd_render_pass_from_handle(ci->renderPass);

	memset(t, 0, sizeof(*t));
	if (rp) {
		const struct icd_subpass *sp;

		if (ci->subpass >= rp->subpass_count)
			return icd_error(VK_ERROR_UNKNOWN, "subpass %u of a "
			                 "render pass with %u", ci->subpass,
			                 rp->subpass_count);
		sp = &rp->subpasses[ci->subpass];
		t->color_count = sp->color_count;
		if (sp->depth_stencil != VK_ATTACHMENT_UNUSED) {
			VkImageAspectFlags a =
				rp->attachments[sp->depth_stencil].aspects;

			t->depth = a & VK_IMAGE_ASPECT_DEPTH_BIT;
			t->stencil = a & VK_IMAGE_ASPECT_STENCIL_BIT;
		}
		return VK_SUCCESS;
	}
	const VkPipelineRenderingCreateInfo *ri = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
	if (!ri)
		return VK_SUCCESS; /* no attachments at all */
	/* The view mask needs nothing in the pipeline: the engine takes the
	 * views from the pass (hw/gfx/draw.c). */
	if (ri->viewMask >> ICD_MAX_VIEWS)
		return icd_error(VK_ERROR_UNKNOWN, "vkCreateGraphicsPipelines: "
		                 "view mask 0x%x has a view at or above "
		                 "maxMultiviewViewCount (6)", ri->viewMask);
	t->color_count = ri->colorAttachmentCount;
	t->depth = ri->depthAttachmentFormat != VK_FORMAT_UNDEFINED;
	t->stencil = ri->stencilAttachmentFormat != VK_FORMAT_UNDEFINED;
	return VK_SUCCESS;
}

/* VkDynamicState -> SWGPU_DYN_* bits; 0 for a state not supported. */
static uint64_t
dynamic_bits(VkDynamicState s)
{
	switch (s) {
	case VK_DYNAMIC_STATE_VIEWPORT: return SWGPU_DYN_VIEWPORT;
	case VK_DYNAMIC_STATE_SCISSOR: return SWGPU_DYN_SCISSOR;
	case VK_DYNAMIC_STATE_LINE_WIDTH: return SWGPU_DYN_LINE_WIDTH;
	case VK_DYNAMIC_STATE_DEPTH_BIAS: return SWGPU_DYN_DEPTH_BIAS;
	case VK_DYNAMIC_STATE_BLEND_CONSTANTS:
		return SWGPU_DYN_BLEND_CONSTANTS;
	case VK_DYNAMIC_STATE_DEPTH_BOUNDS: return SWGPU_DYN_DEPTH_BOUNDS;
	case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
		return SWGPU_DYN_STENCIL_COMPARE_MASK;
	case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
		return SWGPU_DYN_STENCIL_WRITE_MASK;
	case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
		return SWGPU_DYN_STENCIL_REFERENCE;
	case VK_DYNAMIC_STATE_CULL_MODE: return SWGPU_DYN_CULL_MODE;
	case VK_DYNAMIC_STATE_FRONT_FACE: return SWGPU_DYN_FRONT_FACE;
	case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY:
		return SWGPU_DYN_TOPOLOGY;
	case VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT:
		return SWGPU_DYN_VIEWPORT | SWGPU_DYN_VIEWPORT_COUNT;
	case VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT:
		return SWGPU_DYN_SCISSOR | SWGPU_DYN_SCISSOR_COUNT;
	case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE:
		return SWGPU_DYN_VERTEX_STRIDE;
	case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE: return SWGPU_DYN_DEPTH_TEST;
	case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE:
		return SWGPU_DYN_DEPTH_WRITE;
	case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP:
		return SWGPU_DYN_DEPTH_COMPARE;
	case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE:
		return SWGPU_DYN_DEPTH_BOUNDS_TEST;
	case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE:
		return SWGPU_DYN_STENCIL_TEST;
	case VK_DYNAMIC_STATE_STENCIL_OP: return SWGPU_DYN_STENCIL_OP;
	case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE:
		return SWGPU_DYN_RASTERIZER_DISCARD;
	case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE:
		return SWGPU_DYN_DEPTH_BIAS_ENABLE;
	case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE:
		return SWGPU_DYN_PRIMITIVE_RESTART;
	case VK_DYNAMIC_STATE_LOGIC_OP_EXT: return SWGPU_DYN_LOGIC_OP;
	case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT:
		return SWGPU_DYN_COLOR_WRITE_ENABLE;
	default:
		return 0;
	}
}

static VkResult
vertex_input(struct swgpu_pipeline_state *ps,
             const VkPipelineVertexInputStateCreateInfo *vi)
{
	if (!vi)
		return VK_SUCCESS;
	if (vi->vertexBindingDescriptionCount > SWGPU_GFX_MAX_VERTEX_BINDINGS ||
	    vi->vertexAttributeDescriptionCount > SWGPU_GFX_MAX_VERTEX_ATTRIBS)
		return icd_error(VK_ERROR_UNKNOWN, "%u vertex bindings, %u "
		                 "attributes exceed the limits",
		                 vi->vertexBindingDescriptionCount,
		                 vi->vertexAttributeDescriptionCount);
	const VkPipelineVertexInputDivisorStateCreateInfoEXT *div =
		icd_find_struct(vi->pNext,
		                VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT);

	/* bindings[] is indexed by binding number. */
	for (uint32_t i = 0; i < vi->vertexBindingDescriptionCount; i++) {
		const VkVertexInputBindingDescription *b =
			&vi->pVertexBindingDescriptions[i];

		if (b->binding >= SWGPU_GFX_MAX_VERTEX_BINDINGS)
			return icd_error(VK_ERROR_UNKNOWN, "vertex binding %u",
			                 b->binding);
		ps->bindings[b->binding] = (struct swgpu_vertex_binding){
			.stride = b->stride,
			.input_rate = b->inputRate ==
			              VK_VERTEX_INPUT_RATE_INSTANCE,
			.divisor = 1,
		};
		if (b->binding + 1 > ps->binding_count)
			ps->binding_count = b->binding + 1;
	}
	/* VK_EXT_vertex_attribute_divisor: per-instance bindings stepping
	 * every N instances (0: never); the engine applies it. */
	for (uint32_t i = 0; div && i < div->vertexBindingDivisorCount; i++) {
		const VkVertexInputBindingDivisorDescriptionEXT *d =
			&div->pVertexBindingDivisors[i];

		if (d->binding >= SWGPU_GFX_MAX_VERTEX_BINDINGS)
			return icd_error(VK_ERROR_UNKNOWN, "vertex binding "
			                 "divisor of binding %u", d->binding);
		ps->bindings[d->binding].divisor = d->divisor;
	}
	for (uint32_t i = 0; i < vi->vertexAttributeDescriptionCount; i++) {
		const VkVertexInputAttributeDescription *a =
			&vi->pVertexAttributeDescriptions[i];
		const struct icd_format_desc *d = icd_format_describe(a->format);

		if (a->location >= SWGPU_GFX_MAX_LOCATIONS ||
		    a->binding >= SWGPU_GFX_MAX_VERTEX_BINDINGS || !d ||
		    !(icd_format_buffer_features(a->format) &
		      VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT))
			return icd_error(VK_ERROR_UNKNOWN, "vertex attribute "
			                 "location %u binding %u format %d "
			                 "(not a vertex buffer format?)",
			                 a->location, a->binding, a->format);
		ps->attribs[i] = (struct swgpu_vertex_attrib){
			.location = a->location,
			.binding = a->binding,
			.format = d->swgpu_format,
			.offset = a->offset,
		};
	}
	ps->attrib_count = vi->vertexAttributeDescriptionCount;
	return VK_SUCCESS;
}

static void
stencil_face(struct swgpu_stencil_face *f, const VkStencilOpState *s)
{
	*f = (struct swgpu_stencil_face){
		.fail_op = (uint32_t)s->failOp,
		.pass_op = (uint32_t)s->passOp,
		.depth_fail_op = (uint32_t)s->depthFailOp,
		.compare_op = (uint32_t)s->compareOp,
		.compare_mask = s->compareMask,
		.write_mask = s->writeMask,
		.reference = s->reference,
	};
}

/* Multisample state as the engine's (swgpu_raster_state): sample count,
 * sample mask (all samples without pSampleMask), alpha to coverage (the
 * lowest floor(alpha S + 0.5) samples) and alpha to one, sample shading
 * (the fragment-shading side). */
static VkResult
multisample(const VkPipelineMultisampleStateCreateInfo *ms,
            struct swgpu_raster_state *st)
{
	if (!ms)
		return VK_SUCCESS;
	switch (ms->rasterizationSamples) {
	case VK_SAMPLE_COUNT_1_BIT:
	case VK_SAMPLE_COUNT_2_BIT:
	case VK_SAMPLE_COUNT_4_BIT:
	case VK_SAMPLE_COUNT_8_BIT:
		break;
	default:
		return icd_error(VK_ERROR_FEATURE_NOT_PRESENT, "%u samples: "
		                 "not 1, 2, 4 or 8", ms->rasterizationSamples);
	}
	st->rasterization_samples = (uint32_t)ms->rasterizationSamples;
	st->sample_mask = ms->pSampleMask ? ms->pSampleMask[0] : 0xffffffffu;
	st->alpha_to_coverage = ms->alphaToCoverageEnable != VK_FALSE;
	st->alpha_to_one = ms->alphaToOneEnable != VK_FALSE;
	st->sample_shading = ms->sampleShadingEnable != VK_FALSE;
	st->min_sample_shading = ms->minSampleShading < 0.0f ? 0.0f
	                         : ms->minSampleShading > 1.0f ? 1.0f
	                         : ms->minSampleShading;
	return VK_SUCCESS;
}

/* The fixed-function state of ci into ps (shaders and BO aside). */
static VkResult
fixed_function(struct swgpu_pipeline_state *ps,
               const VkGraphicsPipelineCreateInfo *ci,
               const struct gfx_targets *t)
{
	const VkPipelineRasterizationStateCreateInfo *rs =
		ci->pRasterizationState;
	const VkPipelineDynamicStateCreateInfo *dy = ci->pDynamicState;
	struct swgpu_raster_state *st = &ps->state;
	bool discard;
	VkResult r;

	for (uint32_t i = 0; dy && i < dy->dynamicStateCount; i++) {
		uint64_t bits = dynamic_bits(dy->pDynamicStates[i]);

		if (!bits)
			return icd_error(VK_ERROR_FEATURE_NOT_PRESENT, "dynamic "
			                 "state %d is not supported",
			                 dy->pDynamicStates[i]);
		ps->dynamic_mask |= bits;
	}
	r = vertex_input(ps, ci->pVertexInputState);
	if (r != VK_SUCCESS)
		return r;
	if (ci->pInputAssemblyState) {
		st->topology = (uint32_t)ci->pInputAssemblyState->topology;
		st->primitive_restart =
			ci->pInputAssemblyState->primitiveRestartEnable != 0;
		if (st->topology > VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY)
			return icd_error(VK_ERROR_FEATURE_NOT_PRESENT, "patch "
			                 "lists need tessellation");
	}
	if (!rs)
		return icd_error(VK_ERROR_UNKNOWN, "no rasterization state");
	st->rasterizer_discard = rs->rasterizerDiscardEnable != 0;
	st->polygon_mode = (uint32_t)rs->polygonMode;
	if (st->polygon_mode > VK_POLYGON_MODE_POINT)
		return icd_error(VK_ERROR_FEATURE_NOT_PRESENT, "polygon mode "
		                 "%d", rs->polygonMode);
	st->cull_mode = rs->cullMode;
	st->front_face = (uint32_t)rs->frontFace;
	st->line_width = rs->lineWidth;
	st->depth_clamp = rs->depthClampEnable != 0;
	st->depth_bias_enable = rs->depthBiasEnable != 0;
	st->depth_bias_constant = rs->depthBiasConstantFactor;
	st->depth_bias_clamp = rs->depthBiasClamp;
	st->depth_bias_slope = rs->depthBiasSlopeFactor;
	st->color_write_enable = (1u << SWGPU_GFX_MAX_COLOR_ATTACHMENTS) - 1;

	/* Under static rasterizer discard the rest is ignored. */
	discard = st->rasterizer_discard &&
	          !(ps->dynamic_mask & SWGPU_DYN_RASTERIZER_DISCARD);
	if (discard)
		return VK_SUCCESS;

	if (ci->pViewportState) {
		const VkPipelineViewportStateCreateInfo *vp =
			ci->pViewportState;

		if (vp->viewportCount > SWGPU_GFX_MAX_VIEWPORTS ||
		    vp->scissorCount > SWGPU_GFX_MAX_VIEWPORTS)
			return icd_error(VK_ERROR_UNKNOWN, "%u viewports",
			                 vp->viewportCount);
		st->viewport_count = vp->viewportCount;
		st->scissor_count = vp->scissorCount;
		for (uint32_t i = 0; vp->pViewports &&
		     !(ps->dynamic_mask & SWGPU_DYN_VIEWPORT) &&
		     i < vp->viewportCount; i++) {
			const VkViewport *v = &vp->pViewports[i];

			st->viewports[i] = (struct swgpu_viewport){
				v->x, v->y, v->width, v->height, v->minDepth,
				v->maxDepth };
		}
		for (uint32_t i = 0; vp->pScissors &&
		     !(ps->dynamic_mask & SWGPU_DYN_SCISSOR) &&
		     i < vp->scissorCount; i++) {
			const VkRect2D *s = &vp->pScissors[i];

			st->scissors[i] = (struct swgpu_scissor){
				s->offset.x, s->offset.y, s->extent.width,
				s->extent.height };
		}
	}
	r = multisample(ci->pMultisampleState, st);
	if (r != VK_SUCCESS)
		return r;
	if ((t->depth || t->stencil) && ci->pDepthStencilState) {
		const VkPipelineDepthStencilStateCreateInfo *ds =
			ci->pDepthStencilState;

		/* Without the aspect the test passes and nothing is
		 * written: off in the state. */
		st->depth_test = t->depth && ds->depthTestEnable;
		st->depth_write = t->depth && ds->depthWriteEnable;
		st->depth_compare = (uint32_t)ds->depthCompareOp;
		st->depth_bounds_test = t->depth && ds->depthBoundsTestEnable;
		st->min_depth_bounds = ds->minDepthBounds;
		st->max_depth_bounds = ds->maxDepthBounds;
		st->stencil_test = t->stencil && ds->stencilTestEnable;
		stencil_face(&st->front, &ds->front);
		stencil_face(&st->back, &ds->back);
	}
	if (t->color_count && ci->pColorBlendState) {
		const VkPipelineColorBlendStateCreateInfo *cb =
			ci->pColorBlendState;
		const VkPipelineColorWriteCreateInfoEXT *cw = icd_find_struct(
			cb->pNext,
			VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT);

		if (cb->attachmentCount > SWGPU_GFX_MAX_COLOR_ATTACHMENTS)
			return icd_error(VK_ERROR_UNKNOWN, "%u blend "
			                 "attachments", cb->attachmentCount);
		st->logic_op_enable = cb->logicOpEnable != 0;
		st->logic_op = (uint32_t)cb->logicOp;
		memcpy(st->blend_constants, cb->blendConstants,
		       sizeof(st->blend_constants));
		for (uint32_t i = 0; cb->pAttachments &&
		     i < cb->attachmentCount; i++) {
			const VkPipelineColorBlendAttachmentState *a =
				&cb->pAttachments[i];

			if (a->colorBlendOp > VK_BLEND_OP_MAX ||
			    a->alphaBlendOp > VK_BLEND_OP_MAX)
				return icd_error(VK_ERROR_FEATURE_NOT_PRESENT,
				                 "advanced blend operations are "
				                 "not supported");
			st->blend[i] = (struct swgpu_blend_attachment){
				.enable = a->blendEnable != 0,
				.src_color = (uint32_t)a->srcColorBlendFactor,
				.dst_color = (uint32_t)a->dstColorBlendFactor,
				.color_op = (uint32_t)a->colorBlendOp,
				.src_alpha = (uint32_t)a->srcAlphaBlendFactor,
				.dst_alpha = (uint32_t)a->dstAlphaBlendFactor,
				.alpha_op = (uint32_t)a->alphaBlendOp,
				.write_mask = a->colorWriteMask,
			};
		}
		if (cw && !(ps->dynamic_mask & SWGPU_DYN_COLOR_WRITE_ENABLE)) {
			st->color_write_enable = 0;
			for (uint32_t i = 0; i < cw->attachmentCount &&
			     i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS; i++)
				if (cw->pColorWriteEnables[i])
					st->color_write_enable |= 1u << i;
		}
	}
	return VK_SUCCESS;
}

VkResult
icd_graphics_pipeline_fill_state(struct swgpu_pipeline_state *ps,
                                 const VkGraphicsPipelineCreateInfo *ci)
{
	struct gfx_targets t;
	VkResult r;

	memset(ps, 0, sizeof(*ps));
	ps->size = sizeof(*ps);
	r = gfx_targets(ci, &t);
	return r != VK_SUCCESS ? r : fixed_function(ps, ci, &t);
}

/* The state into a fresh BO mapped READ-only into the context. */
static VkResult
state_upload(struct icd_device *dev, struct icd_pipeline *p,
             const struct swgpu_pipeline_state *ps)
{
	swgpu_result sr;
	void *map;

	sr = swgpu_bo_create(dev->pdev->swdev, sizeof(*ps), SWGPU_HEAP_SYSTEM,
	                     SWGPU_BO_CACHED, &p->state_bo);
	if (sr != SWGPU_OK)
		goto fail;
	sr = swgpu_bo_map(p->state_bo, &map);
	if (sr != SWGPU_OK)
		goto fail;
	memcpy(map, ps, sizeof(*ps));
	p->state = map;
	sr = swgpu_va_map(dev->ctx, p->state_bo, 0, sizeof(*ps),
	                  SWGPU_VA_READ, &p->state_va);
	if (sr != SWGPU_OK)
		goto fail;
	return VK_SUCCESS;
fail:
	return icd_error(icd_result_from_swgpu(sr), "pipeline state: %s",
	                 swgpu_result_str(sr));
}

void
icd_graphics_pipeline_destroy(struct icd_device *dev, struct icd_pipeline *p)
{
	/* The spec forbids destroying a pipeline pending command buffers
	 * use, so no SET_PIPELINE names the state any more. */
	if (p->state_va)
		swgpu_va_unmap(dev->ctx, p->state_va);
	if (p->state)
		swgpu_bo_unmap(p->state_bo);
	if (p->state_bo)
		swgpu_bo_destroy(p->state_bo);
	swgpu_shader_destroy(p->fs);
	p->state_va = 0;
	p->state = NULL;
	p->state_bo = NULL;
	p->fs = NULL;
}

/* The vertex and fragment stages of ci, or an error for any other. */
static VkResult
find_stages(const VkGraphicsPipelineCreateInfo *ci,
            const VkPipelineShaderStageCreateInfo **vs,
            const VkPipelineShaderStageCreateInfo **fs)
{
	*vs = *fs = NULL;
	for (uint32_t i = 0; i < ci->stageCount; i++) {
		const VkPipelineShaderStageCreateInfo *st = &ci->pStages[i];

		if (st->stage == VK_SHADER_STAGE_VERTEX_BIT)
			*vs = st;
		else if (st->stage == VK_SHADER_STAGE_FRAGMENT_BIT)
			*fs = st;
		else
			return icd_error(VK_ERROR_FEATURE_NOT_PRESENT, "shader "
			                 "stage 0x%x is not supported (vertex "
			                 "and fragment only)", st->stage);
	}
	if (!*vs)
		return icd_error(VK_ERROR_UNKNOWN, "no vertex shader stage");
	return VK_SUCCESS;
}

/* VkPipelineCreationFeedbackCreateInfo: made in ns; a stage whose
 * native code came from the application's pipeline cache is a hit, the
 * pipeline when all its stages are (pipeline.c's write_feedback). */
static void
write_gfx_feedback(const VkGraphicsPipelineCreateInfo *ci, uint64_t ns,
                   bool vs_hit, bool fs_hit, bool has_fs)
{
	const VkPipelineCreationFeedbackCreateInfo *fb = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
	const VkPipelineCreationFeedbackFlags hit =
		VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
	VkPipelineCreationFeedback f = {
		.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
		         (vs_hit && (fs_hit || !has_fs) ? hit : 0),
		.duration = ns,
	};

	if (!fb)
		return;
	if (fb->pPipelineCreationFeedback)
		*fb->pPipelineCreationFeedback = f;
	for (uint32_t i = 0; i < fb->pipelineStageCreationFeedbackCount &&
	                     i < ci->stageCount; i++) {
		bool h = ci->pStages[i].stage == VK_SHADER_STAGE_VERTEX_BIT
		         ? vs_hit : fs_hit;

		fb->pPipelineStageCreationFeedbacks[i] = (VkPipelineCreationFeedback){
			.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
			         (h ? hit : 0),
			.duration = ns,
		};
	}
}

/* Create flags the device honours (derivatives share nothing: every
 * pipeline is built whole). */
#define GFX_PIPELINE_FLAGS \
	(VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT | \
	 VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT | \
	 VK_PIPELINE_CREATE_DERIVATIVE_BIT | \
	 VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT | \
	 VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)

VkResult
icd_graphics_pipeline_create(struct icd_device *dev,
                             struct icd_pipeline_cache *cache,
                             const VkGraphicsPipelineCreateInfo *ci,
                             const VkAllocationCallbacks *alloc,
                             VkPipeline *out)
{
	const struct icd_pipeline_layout *pl =
		icd_pipeline_layout_from_handle(ci->layout);
	const VkPipelineShaderStageCreateInfo *vs, *fs;
	struct swgpu_pipeline_state *ps = NULL;
	struct icd_shader_build *b = NULL;
	struct icd_pipeline *p = NULL;
	uint64_t key;
	VkResult r;
	const uint64_t t0 = swgpu_now_ns();
	bool vs_hit, fs_hit = false;

	if (ci->flags & ~GFX_PIPELINE_FLAGS)
		return icd_error(VK_ERROR_FEATURE_NOT_PRESENT, "pipeline "
		                 "create flags 0x%x", ci->flags);
	r = find_stages(ci, &vs, &fs);
	if (r != VK_SUCCESS || !pl) {
		icd_log("vkCreateGraphicsPipelines: invalid or unsupported "
		        "create info");
		return r != VK_SUCCESS ? r : VK_ERROR_UNKNOWN;
	}
	ps = icd_zalloc(NULL, &dev->alloc, sizeof(*ps), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
	b = icd_zalloc(NULL, &dev->alloc, sizeof(*b), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
	p = icd_zalloc(alloc, &dev->alloc, sizeof(*p), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!ps || !b || !p) {
		r = icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline");
		goto fail;
	}
	icd_object_init(&p->base, VK_OBJECT_TYPE_PIPELINE);
	p->device = dev;
	p->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
	p->set_count = pl->set_count;
	memcpy(p->dynamic_start, pl->dynamic_start, sizeof(p->dynamic_start));
	p->dynamic_count = pl->dynamic_count;
	p->push_size = pl->push_size;

	r = icd_graphics_pipeline_fill_state(ps, ci);
	if (r != VK_SUCCESS)
		goto fail;
	/* The cache key: both stages and the fixed-function state. */
	key = icd_hash64(ps, sizeof(*ps), 0);
	r = icd_shader_build_prepare(b, pl, vs, SWGPU_SHADER_STAGE_VERTEX);
	if (r != VK_SUCCESS)
		goto fail;
	key = icd_hash64(&b->key, sizeof(b->key), key);
	if (ci->flags &
	    VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
		r = VK_PIPELINE_COMPILE_REQUIRED;
		goto fail;
	}
	r = icd_shader_build_create(dev, cache, b,
	                            "vkCreateGraphicsPipelines", &p->shader);
	if (r != VK_SUCCESS)
		goto fail;
	vs_hit = b->cache_hit;
	if (fs) {
		memset(b, 0, sizeof(*b));
		r = icd_shader_build_prepare(b, pl, fs,
		                             SWGPU_SHADER_STAGE_FRAGMENT);
		if (r == VK_SUCCESS)
			r = icd_shader_build_create(
				dev, cache, b, "vkCreateGraphicsPipelines",
				&p->fs);
		if (r != VK_SUCCESS)
			goto fail;
		fs_hit = b->cache_hit;
		key = icd_hash64(&b->key, sizeof(b->key), key);
	}
	p->code_va = swgpu_shader_code_va(p->shader);
	ps->vs_code_va = p->code_va;
	ps->fs_code_va = p->fs ? swgpu_shader_code_va(p->fs) : 0;
	p->dynamic_mask = ps->dynamic_mask;
	r = state_upload(dev, p, ps);
	if (r != VK_SUCCESS)
		goto fail;
	icd_pipeline_cache_insert(cache, key);
	icd_free(NULL, &dev->alloc, b);
	icd_free(NULL, &dev->alloc, ps);
	*out = icd_pipeline_to_handle(p);
	write_gfx_feedback(ci, swgpu_now_ns() - t0, vs_hit, fs_hit, fs);
	return VK_SUCCESS;

fail:
	if (p) {
		icd_graphics_pipeline_destroy(dev, p);
		swgpu_shader_destroy(p->shader);
		icd_free(alloc, &dev->alloc, p);
	}
	icd_free(NULL, &dev->alloc, b);
	icd_free(NULL, &dev->alloc, ps);
	return r;
}
