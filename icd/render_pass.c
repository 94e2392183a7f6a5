/* SPDX-License-Identifier: MIT */
/*
 * render_pass.c — VkRenderPass (vkCreateRenderPass and 2) and
 * VkFramebuffer (with views, or imageless). See render_pass.h for what a
 * render pass keeps and why dependencies need nothing.
 *
 * vkCreateRenderPass is turned into the VkRenderPassCreateInfo2 form
 * first, so one builder serves both. Multiview: each subpass keeps its
 * view mask (VkRenderPassMultiviewCreateInfo or the 2 form's viewMask);
 * correlation masks are hints and need nothing. Refused with a log
 * line: view masks beyond maxMultiviewViewCount, a mix of multiview
 * and non-multiview subpasses, and subpass or attachment counts beyond
 * the device's limits (the spec's valid usage; the validation layer
 * names them). Multisampling: attachments of 1, 2, 4 or 8 samples;
 * pResolveAttachments and VkSubpassDescriptionDepthStencilResolve keep
 * their indices and modes per subpass, resolved at the subpass's
 * END_PASS (cmd_pass.c); a resolve into a multisampled attachment or
 * from a single-sampled one is refused.
 */
#include <stdlib.h>

#include "format.h"
#include "render_pass.h"

/* Mark subpass s as a use of attachment a. */
static void
note_use(struct icd_render_pass *rp, uint32_t a, uint32_t s)
{
	struct icd_rp_attachment *att;

	if (a == VK_ATTACHMENT_UNUSED || a >= rp->attachment_count)
		return;
	att = &rp->attachments[a];
	if (att->first_use == ICD_SUBPASS_NONE)
		att->first_use = s;
	att->last_use = s;
}

static uint32_t
ref_index(const VkAttachmentReference2 *r)
{
	return r ? r->attachment : VK_ATTACHMENT_UNUSED;
}

/* Why ci cannot be a render pass of this device, or NULL. */
static const char *
render_pass_check(const VkRenderPassCreateInfo2 *ci)
{
	if (ci->attachmentCount > ICD_MAX_RP_ATTACHMENTS)
		return "more attachments than the device takes (64)";
	if (ci->subpassCount == 0)
		return "no subpass";
	const bool multiview = ci->pSubpasses[0].viewMask != 0;
	if (ci->correlatedViewMaskCount && !multiview)
		return "correlated view masks without multiview";
	for (uint32_t i = 0; i < ci->attachmentCount; i++) {
		const VkAttachmentDescription2 *d = &ci->pAttachments[i];
		struct icd_format f;

		if (d->samples != VK_SAMPLE_COUNT_1_BIT &&
		    d->samples != VK_SAMPLE_COUNT_2_BIT &&
		    d->samples != VK_SAMPLE_COUNT_4_BIT &&
		    d->samples != VK_SAMPLE_COUNT_8_BIT)
			return "an attachment's sample count is not 1, 2, 4 "
			       "or 8";
		if (!icd_format_get(d->format, &f))
			return "an attachment format is not supported";
	}
	for (uint32_t s = 0; s < ci->subpassCount; s++) {
		const VkSubpassDescription2 *sd = &ci->pSubpasses[s];

		if ((sd->viewMask != 0) != multiview)
			return "some subpasses have a view mask and others not";
		if (sd->viewMask >> ICD_MAX_VIEWS)
			return "a subpass view mask has a view at or above "
			       "maxMultiviewViewCount (6)";
		if (sd->pipelineBindPoint != VK_PIPELINE_BIND_POINT_GRAPHICS)
			return "a subpass is not a graphics subpass";
		if (sd->colorAttachmentCount > ICD_MAX_COLOR_ATTACHMENTS)
			return "a subpass has more colour attachments than "
			       "maxColorAttachments";
		for (uint32_t j = 0; j < sd->colorAttachmentCount; j++) {
			uint32_t c = sd->pColorAttachments[j].attachment;
			uint32_t r = sd->pResolveAttachments
			             ? sd->pResolveAttachments[j].attachment
			             : VK_ATTACHMENT_UNUSED;
			if (r == VK_ATTACHMENT_UNUSED)
				continue;
			if (r >= ci->attachmentCount ||
			    c >= ci->attachmentCount ||
			    ci->pAttachments[c].samples ==
			    VK_SAMPLE_COUNT_1_BIT ||
			    ci->pAttachments[r].samples !=
			    VK_SAMPLE_COUNT_1_BIT)
				return "a resolve attachment is not a "
				       "single-sampled target of a "
				       "multisampled colour attachment";
		}
		const VkSubpassDescriptionDepthStencilResolve *dr =
			icd_find_struct(sd->pNext,
			VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE);
		if (dr && dr->pDepthStencilResolveAttachment &&
		    dr->pDepthStencilResolveAttachment->attachment !=
		    VK_ATTACHMENT_UNUSED) {
			uint32_t r = dr->pDepthStencilResolveAttachment->attachment;
			uint32_t d = ref_index(sd->pDepthStencilAttachment);
			if (r >= ci->attachmentCount ||
			    d >= ci->attachmentCount ||
			    ci->pAttachments[d].samples ==
			    VK_SAMPLE_COUNT_1_BIT ||
			    ci->pAttachments[r].samples !=
			    VK_SAMPLE_COUNT_1_BIT)
				return "the depth/stencil resolve attachment "
				       "is not a single-sampled target of a "
				       "multisampled depth/stencil attachment";
		}
	}
	return NULL;
}

static VkResult
render_pass_build(struct icd_device *dev, const VkRenderPassCreateInfo2 *ci,
                  const VkAllocationCallbacks *alloc, VkRenderPass *out)
{
	struct icd_render_pass *rp;
	uint32_t ninput = 0;
	uint32_t *inputs;
	const char *why = render_pass_check(ci);
	size_t size;

	if (why) {
		icd_log("vkCreateRenderPass: %s", why);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	for (uint32_t s = 0; s < ci->subpassCount; s++)
		ninput += ci->pSubpasses[s].inputAttachmentCount;
	size = sizeof(*rp) +
	       ci->attachmentCount * sizeof(struct icd_rp_attachment) +
	       ci->subpassCount * sizeof(struct icd_subpass) +
	       ninput * sizeof(uint32_t);
	rp = icd_zalloc(alloc, &dev->alloc, size, 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!rp)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "render pass");
	icd_object_init(&rp->base, VK_OBJECT_TYPE_RENDER_PASS);
	rp->attachment_count = ci->attachmentCount;
	rp->subpass_count = ci->subpassCount;
	rp->attachments = (struct icd_rp_attachment *)(rp + 1);
	rp->subpasses = (struct icd_subpass *)(rp->attachments +
	                                       ci->attachmentCount);
	inputs = (uint32_t *)(rp->subpasses + ci->subpassCount);

	for (uint32_t i = 0; i < ci->attachmentCount; i++) {
		const VkAttachmentDescription2 *d = &ci->pAttachments[i];
		struct icd_rp_attachment *a = &rp->attachments[i];
		struct icd_format f;

		icd_format_get(d->format, &f);
		a->format = d->format;
		a->aspects = f.aspects;
		a->load_op = d->loadOp;
		a->store_op = d->storeOp;
		a->stencil_load_op = d->stencilLoadOp;
		a->stencil_store_op = d->stencilStoreOp;
		a->first_use = a->last_use = ICD_SUBPASS_NONE;
	}
	for (uint32_t s = 0; s < ci->subpassCount; s++) {
		const VkSubpassDescription2 *sd = &ci->pSubpasses[s];
		struct icd_subpass *sp = &rp->subpasses[s];

		sp->view_mask = sd->viewMask;
		sp->color_count = sd->colorAttachmentCount;
		for (uint32_t j = 0; j < sd->colorAttachmentCount; j++) {
			sp->color[j] = sd->pColorAttachments[j].attachment;
			note_use(rp, sp->color[j], s);
			sp->resolve[j] = sd->pResolveAttachments
			                 ? sd->pResolveAttachments[j].attachment
			                 : VK_ATTACHMENT_UNUSED;
			note_use(rp, sp->resolve[j], s);
		}
		const VkSubpassDescriptionDepthStencilResolve *dr =
			icd_find_struct(sd->pNext,
			VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE);
		sp->ds_resolve = dr ? ref_index(dr->pDepthStencilResolveAttachment)
		                    : VK_ATTACHMENT_UNUSED;
		sp->depth_resolve_mode = dr ? dr->depthResolveMode
		                            : VK_RESOLVE_MODE_NONE;
		sp->stencil_resolve_mode = dr ? dr->stencilResolveMode
		                              : VK_RESOLVE_MODE_NONE;
		note_use(rp, sp->ds_resolve, s);
		sp->depth_stencil = ref_index(sd->pDepthStencilAttachment);
		note_use(rp, sp->depth_stencil, s);
		sp->input_count = sd->inputAttachmentCount;
		sp->input = inputs;
		for (uint32_t j = 0; j < sd->inputAttachmentCount; j++) {
			inputs[j] = sd->pInputAttachments[j].attachment;
			note_use(rp, inputs[j], s);
		}
		inputs += sd->inputAttachmentCount;
	}
	*out = icd_render_pass_to_handle(rp);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2 *ci,
                      const VkAllocationCallbacks *pAllocator,
                      VkRenderPass *pRenderPass)
{
	return render_pass_build(icd_device_from_handle(device), ci,
	                         pAllocator, pRenderPass);
}

static VkAttachmentReference2
ref2(const VkAttachmentReference *r)
{
	return (VkAttachmentReference2){
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = r->attachment,
		.layout = r->layout,
	};
}

/* vkCreateRenderPass: the same render pass through its 2 form. Only
 * what render_pass_build reads is converted (dependencies are not). */
VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo *ci,
                     const VkAllocationCallbacks *pAllocator,
                     VkRenderPass *pRenderPass)
{
	struct icd_device *dev = icd_device_from_handle(device);
	const VkRenderPassMultiviewCreateInfo *mv = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
	VkAttachmentDescription2 *atts;
	VkSubpassDescription2 *subs;
	VkAttachmentReference2 *refs;
	uint32_t nref = 0;
	VkResult r;

	for (uint32_t s = 0; s < ci->subpassCount; s++) {
		const VkSubpassDescription *sd = &ci->pSubpasses[s];

		nref += sd->inputAttachmentCount + 2 * sd->colorAttachmentCount
		        + 1;
	}
	atts = icd_alloc(NULL, &dev->alloc,
	                 ci->attachmentCount * sizeof(*atts) +
	                 ci->subpassCount * sizeof(*subs) +
	                 nref * sizeof(*refs) + 1, 8,
	                 VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
	if (!atts)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "render pass");
	subs = (VkSubpassDescription2 *)(atts + ci->attachmentCount);
	refs = (VkAttachmentReference2 *)(subs + ci->subpassCount);
	for (uint32_t i = 0; i < ci->attachmentCount; i++) {
		const VkAttachmentDescription *d = &ci->pAttachments[i];

		atts[i] = (VkAttachmentDescription2){
			.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
			.flags = d->flags, .format = d->format,
			.samples = d->samples, .loadOp = d->loadOp,
			.storeOp = d->storeOp,
			.stencilLoadOp = d->stencilLoadOp,
			.stencilStoreOp = d->stencilStoreOp,
			.initialLayout = d->initialLayout,
			.finalLayout = d->finalLayout,
		};
	}
	for (uint32_t s = 0; s < ci->subpassCount; s++) {
		const VkSubpassDescription *sd = &ci->pSubpasses[s];
		VkSubpassDescription2 *o = &subs[s];

		*o = (VkSubpassDescription2){
			.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
			.flags = sd->flags,
			.pipelineBindPoint = sd->pipelineBindPoint,
			.viewMask = mv && s < mv->subpassCount ?
			            mv->pViewMasks[s] : 0,
			.inputAttachmentCount = sd->inputAttachmentCount,
			.colorAttachmentCount = sd->colorAttachmentCount,
		};
		o->pInputAttachments = refs;
		for (uint32_t j = 0; j < sd->inputAttachmentCount; j++)
			*refs++ = ref2(&sd->pInputAttachments[j]);
		o->pColorAttachments = refs;
		for (uint32_t j = 0; j < sd->colorAttachmentCount; j++)
			*refs++ = ref2(&sd->pColorAttachments[j]);
		if (sd->pResolveAttachments) {
			o->pResolveAttachments = refs;
			for (uint32_t j = 0; j < sd->colorAttachmentCount; j++)
				*refs++ = ref2(&sd->pResolveAttachments[j]);
		}
		if (sd->pDepthStencilAttachment) {
			o->pDepthStencilAttachment = refs;
			*refs++ = ref2(sd->pDepthStencilAttachment);
		}
	}
	VkRenderPassCreateInfo2 ci2 = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
		.flags = ci->flags,
		.attachmentCount = ci->attachmentCount,
		.pAttachments = atts,
		.subpassCount = ci->subpassCount,
		.pSubpasses = subs,
		.correlatedViewMaskCount = mv ? mv->correlationMaskCount : 0,
		.pCorrelatedViewMasks = mv ? mv->pCorrelationMasks : NULL,
	};
	r = render_pass_build(dev, &ci2, pAllocator, pRenderPass);
	icd_free(NULL, &dev->alloc, atts);
	return r;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyRenderPass(VkDevice device, VkRenderPass renderPass,
                      const VkAllocationCallbacks *pAllocator)
{
	struct icd_render_pass *rp = icd_render_pass_from_handle(renderPass);

	if (rp)
		icd_free(pAllocator, &icd_device_from_handle(device)->alloc,
		         rp);
}

/* No tiling: any render area is as fast as any other. */
VKAPI_ATTR void VKAPI_CALL
icd_GetRenderAreaGranularity(VkDevice device, VkRenderPass renderPass,
                             VkExtent2D *pGranularity)
{
	*pGranularity = (VkExtent2D){ 1, 1 };
}

/* ------------------------------------------------------------------ */
/* Framebuffers                                                        */
/* ------------------------------------------------------------------ */

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateFramebuffer(VkDevice device, const VkFramebufferCreateInfo *ci,
                      const VkAllocationCallbacks *pAllocator,
                      VkFramebuffer *pFramebuffer)
{
	struct icd_device *dev = icd_device_from_handle(device);
	bool imageless = ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
	uint32_t nviews = imageless ? 0 : ci->attachmentCount;
	struct icd_framebuffer *fb;

	if (ci->attachmentCount > ICD_MAX_RP_ATTACHMENTS ||
	    ci->width > SWGPU_GFX_MAX_FRAMEBUFFER_DIM ||
	    ci->height > SWGPU_GFX_MAX_FRAMEBUFFER_DIM ||
	    ci->layers > SWGPU_GFX_MAX_FRAMEBUFFER_LAYERS)
		return icd_error(VK_ERROR_UNKNOWN, "vkCreateFramebuffer: %u "
		                 "attachments, %ux%ux%u exceed the limits",
		                 ci->attachmentCount, ci->width, ci->height,
		                 ci->layers);
	fb = icd_zalloc(pAllocator, &dev->alloc,
	                sizeof(*fb) + nviews * sizeof(VkImageView), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!fb)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "framebuffer");
	icd_object_init(&fb->base, VK_OBJECT_TYPE_FRAMEBUFFER);
	fb->width = ci->width;
	fb->height = ci->height;
	fb->layers = ci->layers;
	fb->imageless = imageless;
	fb->attachment_count = ci->attachmentCount;
	/* The views stay valid while the framebuffer is used (the spec
	 * forbids destroying them first). */
	for (uint32_t i = 0; i < nviews; i++)
		fb->views[i] = ci->pAttachments[i];
	*pFramebuffer = icd_framebuffer_to_handle(fb);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
                       const VkAllocationCallbacks *pAllocator)
{
	struct icd_framebuffer *fb = icd_framebuffer_from_handle(framebuffer);

	if (fb)
		icd_free(pAllocator, &icd_device_from_handle(device)->alloc,
		         fb);
}
