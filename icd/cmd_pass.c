/* SPDX-License-Identifier: MIT */
/*
 * cmd_pass.c — render pass instances: vkCmdBeginRenderPass(2) /
 * NextSubpass(2) / EndRenderPass(2), dynamic rendering
 * (vkCmdBeginRendering / EndRendering) and vkCmdClearAttachments.
 *
 * Each subpass is one BEGIN_PASS .. END_PASS whose struct swgpu_pass
 * (written into command memory) lists the attachments that subpass
 * renders to: an attachment's load op applies in the first subpass that
 * uses it, its store op in the last; in between it is LOAD and STORE. An
 * attachment first used other than as a colour or depth/stencil target
 * (an input or resolve attachment) with a CLEAR load op is cleared by
 * CLEAR_BOX packets over the render area before that subpass begins. Input
 * attachments are read through their descriptors, as images.
 *
 * Multiview: the pass carries the subpass's (or rendering's) view mask
 * and renders layers 0 up to its highest view; the engine runs each
 * draw once per view and clears (load ops, vkCmdClearAttachments) the
 * views' layers. A view a later subpass uses for the first time gets
 * its attachment's CLEAR load op from CLEAR_BOX packets on its layer.
 * Queries use one query per view (icd_cmd_query_views).
 *
 * Dynamic rendering is one BEGIN_PASS .. END_PASS. A suspended instance
 * ends its pass (every store op leaves the texels in memory) and the
 * resuming one begins a new pass that loads them, so suspension spans
 * command buffers and submissions without engine state.
 */
#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "cmd_gfx.h"

struct icd_gfx_state *
icd_cmd_gfx(struct icd_cmd_buffer *cb)
{
	if (cb->gfx)
		return cb->gfx;
	cb->gfx = icd_cmd_alloc(cb->pool, sizeof(*cb->gfx),
	                        VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!cb->gfx) {
		icd_cmd_set_error(cb, icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
		                                "graphics state"));
		return NULL;
	}
	memset(cb->gfx, 0, sizeof(*cb->gfx));
	return cb->gfx;
}

void
icd_cmd_gfx_reset(struct icd_cmd_buffer *cb)
{
	if (cb->gfx)
		memset(cb->gfx, 0, sizeof(*cb->gfx));
}

void
icd_cmd_gfx_state_lost(struct icd_cmd_buffer *cb)
{
	struct icd_gfx_state *g = cb->gfx;

	if (!g)
		return;
	g->emitted_pipeline = 0;
	g->dyn_dirty = true;
	g->vb_dirty = g->vb_bound;
	g->ib_dirty = g->ib_index_size != 0;
}

void
icd_cmd_gfx_inherit_pass(struct icd_cmd_buffer *cb,
                         const VkCommandBufferInheritanceInfo *inh)
{
	struct icd_gfx_state *g = icd_cmd_gfx(cb);

	if (!g)
		return;
	g->pass.active = true;
	g->pass.inherited = true;
	g->pass.rp = inh ? icd_render_pass_from_handle(inh->renderPass) : NULL;
	g->pass.subpass = inh ? inh->subpass : 0;
	g->pass.dynamic = !g->pass.rp;
	g->pass.view_mask = 0;
	if (g->pass.rp && g->pass.subpass < g->pass.rp->subpass_count) {
		g->pass.view_mask =
			g->pass.rp->subpasses[g->pass.subpass].view_mask;
	} else if (inh) {
		const VkCommandBufferInheritanceRenderingInfo *ri =
			icd_find_struct(inh->pNext,
			VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO);
		g->pass.view_mask = ri ? ri->viewMask : 0;
	}
}

uint32_t
icd_cmd_query_views(struct icd_cmd_buffer *cb)
{
	const struct icd_gfx_state *g = cb->gfx;

	if (!g || !g->pass.active || !g->pass.view_mask)
		return 1;
	return (uint32_t)__builtin_popcount(g->pass.view_mask);
}

void
icd_cmd_gfx_end(struct icd_cmd_buffer *cb)
{
	if (cb->gfx && cb->gfx->pass.open) {
		/* The engine faults a job that ends inside a pass. */
		icd_log("vkEndCommandBuffer inside a render pass instance");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
	}
}

/* ------------------------------------------------------------------ */
/* Building a pass                                                     */
/* ------------------------------------------------------------------ */

static uint32_t
load_op(VkAttachmentLoadOp op)
{
	switch (op) {
	case VK_ATTACHMENT_LOAD_OP_CLEAR:
		return SWGPU_LOAD_CLEAR;
	case VK_ATTACHMENT_LOAD_OP_DONT_CARE:
		return SWGPU_LOAD_DONT_CARE;
	default:
		/* LOAD, and NONE_EXT (the contents stay as they are). */
		return SWGPU_LOAD_LOAD;
	}
}

static uint32_t
store_op(VkAttachmentStoreOp op)
{
	switch (op) {
	case VK_ATTACHMENT_STORE_OP_DONT_CARE:
		return SWGPU_STORE_DONT_CARE;
	case VK_ATTACHMENT_STORE_OP_NONE:
		return SWGPU_STORE_NONE;
	default:
		return SWGPU_STORE_STORE;
	}
}

/* A pass attachment on surface s (va 0: unused). */
static void
put_attachment(struct swgpu_attachment *a, const struct icd_view_surface *s,
               uint32_t load, uint32_t store, const uint32_t clear[4])
{
	memset(a, 0, sizeof(*a));
	if (!s->va)
		return;
	a->va = s->va;
	a->row_pitch = s->row_pitch;
	a->layer_pitch = s->layer_pitch;
	a->format = s->format;
	a->width = s->width;
	a->height = s->height;
	a->layers = s->layers;
	a->load_op = load;
	a->store_op = store;
	memcpy(a->clear, clear, sizeof(a->clear));
	a->samples = s->samples ? s->samples : 1;
}

/* The resolve target of attachment a: surface r (va 0: none) with the
 * Vulkan resolve mode (ICD_RESOLVE_COLOR: the format's colour mode). */
#define ICD_RESOLVE_COLOR ((VkResolveModeFlagBits)0x40000000)
static void
put_resolve(struct swgpu_attachment *a, const struct icd_view_surface *r,
            VkResolveModeFlagBits mode)
{
	if (!a->va || !r->va || mode == VK_RESOLVE_MODE_NONE)
		return;
	a->resolve_va = r->va;
	a->resolve_row_pitch = r->row_pitch;
	a->resolve_layer_pitch = r->layer_pitch;
	if (mode == ICD_RESOLVE_COLOR) {
		/* render pass colour resolves: the average, one sample of
		 * integer formats */
		const uint32_t cls = swgpu_format_blit_class(a->format);
		mode = cls == SWGPU_BLIT_CLASS_UINT || cls == SWGPU_BLIT_CLASS_SINT
		       ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT
		       : VK_RESOLVE_MODE_AVERAGE_BIT;
	}
	a->resolve_mode = mode == VK_RESOLVE_MODE_AVERAGE_BIT
	                  ? SWGPU_RESOLVE_AVERAGE
	                  : mode == VK_RESOLVE_MODE_MIN_BIT ? SWGPU_RESOLVE_MIN
	                  : mode == VK_RESOLVE_MODE_MAX_BIT ? SWGPU_RESOLVE_MAX
	                  : SWGPU_RESOLVE_SAMPLE_ZERO;
}

/* CLEAR_BOX encodings of a clear value. */
static void
clear_color(const VkClearValue *v, uint32_t out[4])
{
	memcpy(out, v->color.uint32, 4 * sizeof(uint32_t));
}

static void
clear_depth(const VkClearValue *v, uint32_t out[4])
{
	memset(out, 0, 4 * sizeof(uint32_t));
	memcpy(&out[0], &v->depthStencil.depth, sizeof(float));
}

static void
clear_stencil(const VkClearValue *v, uint32_t out[4])
{
	memset(out, 0, 4 * sizeof(uint32_t));
	out[0] = v->depthStencil.stencil & 0xff;
}

/* Write pass into command memory and emit BEGIN_PASS naming it. */
static void
emit_begin_pass(struct icd_cmd_buffer *cb, struct icd_gfx_state *g,
                const struct swgpu_pass *pass)
{
	uint64_t va = icd_cmd_emit_data(cb, pass, sizeof(*pass), NULL);
	uint32_t *p;

	if (!va)
		return;
	p = icd_cmd_emit(cb, SWGPU_LEN_BEGIN_PASS);
	if (!p)
		return;
	swgpu_emit_begin_pass(p, va);
	g->pass.open = true;
}

static void
emit_end_pass(struct icd_cmd_buffer *cb, struct icd_gfx_state *g)
{
	uint32_t *p;

	if (!g->pass.open)
		return;
	p = icd_cmd_emit(cb, SWGPU_LEN_END_PASS);
	if (p)
		swgpu_emit_end_pass(p);
	g->pass.open = false;
}

/* CLEAR_BOX of the render area of surface s, layers [layer0, layer0 +
 * nlayers) (clipped to the view's). */
static void
clear_layers(struct icd_cmd_buffer *cb, const struct icd_pass_state *ps,
             const struct icd_view_surface *s, uint32_t layer0,
             uint32_t nlayers, const uint32_t value[4])
{
	const swgpu_format_info *fi = swgpu_format_get_info(s->format);
	uint32_t layers = layer0 >= s->layers ? 0 :
	                  nlayers < s->layers - layer0 ? nlayers :
	                  s->layers - layer0;
	struct swgpu_pitched dst;
	uint32_t *p;

	if (!s->va || !fi || !ps->area.extent.width ||
	    !ps->area.extent.height || !layers)
		return;
	/* multisampled: each layer's sample slices (image.c) */
	const uint32_t S = s->samples ? s->samples : 1;
	dst.va = s->va + (uint64_t)layer0 * S * s->layer_pitch +
	         (uint64_t)ps->area.offset.y * s->row_pitch +
	         (uint64_t)ps->area.offset.x * fi->block_bytes;
	dst.row_pitch = s->row_pitch;
	dst.slice_pitch = s->layer_pitch;
	p = icd_cmd_emit(cb, SWGPU_LEN_CLEAR_BOX);
	if (p)
		swgpu_emit_clear_box(p, &dst, s->format,
		                     ps->area.extent.width,
		                     ps->area.extent.height, layers * S, value);
}

/* CLEAR_BOX of the render area of surface s over the layers rendered:
 * all of them, or with multiview the layers of views. */
static void
clear_area(struct icd_cmd_buffer *cb, const struct icd_pass_state *ps,
           const struct icd_view_surface *s, uint32_t views,
           const uint32_t value[4])
{
	if (!ps->view_mask) {
		clear_layers(cb, ps, s, 0, ps->layers, value);
		return;
	}
	for (uint32_t v = 0; v < ICD_MAX_VIEWS; v++)
		if ((views >> v) & 1u)
			clear_layers(cb, ps, s, v, 1, value);
}

/* The CLEAR load ops of render pass attachment a on views (its first
 * use was not as a target, or these views are new in this subpass). */
static void
load_clear(struct icd_cmd_buffer *cb, const struct icd_pass_state *ps,
           uint32_t a, uint32_t views)
{
	const struct icd_rp_attachment *ra = &ps->rp->attachments[a];
	const struct icd_pass_attachment *pa = &ps->att[a];
	uint32_t clear[4];

	if (ra->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) {
		if (ra->aspects & VK_IMAGE_ASPECT_COLOR_BIT) {
			clear_color(&pa->clear, clear);
			clear_area(cb, ps, &pa->color, views, clear);
		}
		if (ra->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) {
			clear_depth(&pa->clear, clear);
			clear_area(cb, ps, &pa->depth, views, clear);
		}
	}
	if ((ra->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) &&
	    ra->stencil_load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) {
		clear_stencil(&pa->clear, clear);
		clear_area(cb, ps, &pa->stencil, views, clear);
	}
}

/* Multiview: the layers up to the highest view must exist in every
 * attachment the subpass uses; false (logged) otherwise. */
static bool
views_fit(const struct icd_pass_state *ps, const struct icd_subpass *sp)
{
	const uint32_t need = icd_view_end(sp->view_mask);

	for (uint32_t a = 0; need && a < ps->rp->attachment_count; a++) {
		const struct icd_pass_attachment *pa = &ps->att[a];
		const struct icd_view_surface *s[3] = { &pa->color, &pa->depth,
		                                        &pa->stencil };
		bool used = a == sp->depth_stencil;

		for (uint32_t j = 0; j < sp->color_count; j++)
			used = used || sp->color[j] == a;
		for (uint32_t j = 0; j < sp->input_count; j++)
			used = used || sp->input[j] == a;
		for (int k = 0; used && k < 3; k++)
			if (s[k]->va && s[k]->layers < need) {
				icd_log("vkCmdBeginRenderPass: attachment %u "
				        "has %u layers, the view mask 0x%x "
				        "needs %u", a, s[k]->layers,
				        sp->view_mask, need);
				return false;
			}
	}
	return true;
}

/* Subpass ps->subpass of a render pass: its BEGIN_PASS (and the clears
 * of attachments it uses first other than as targets). */
static void
begin_subpass(struct icd_cmd_buffer *cb, struct icd_gfx_state *g)
{
	struct icd_pass_state *ps = &g->pass;
	const struct icd_render_pass *rp = ps->rp;
	const uint32_t s = ps->subpass;
	const struct icd_subpass *sp = &rp->subpasses[s];
	struct swgpu_pass pass;
	uint32_t clear[4];

	ps->view_mask = sp->view_mask;
	if (!views_fit(ps, sp)) {
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	/* First uses that are not targets of this subpass, and (multiview)
	 * views of a target this subpass renders for the first time. */
	for (uint32_t a = 0; a < rp->attachment_count; a++) {
		const struct icd_rp_attachment *ra = &rp->attachments[a];
		struct icd_pass_attachment *pa = &ps->att[a];
		bool target = a == sp->depth_stencil;
		bool used;

		for (uint32_t j = 0; j < sp->color_count; j++)
			target = target || sp->color[j] == a;
		used = target || a == sp->ds_resolve;
		for (uint32_t j = 0; j < sp->input_count; j++)
			used = used || sp->input[j] == a;
		/* a resolve attachment's load op applies too (an aspect
		 * whose resolve mode is NONE keeps what it loads) */
		for (uint32_t j = 0; j < sp->color_count; j++)
			used = used || sp->resolve[j] == a;
		if (!used || ra->first_use > s)
			continue;
		if (ra->first_use == s && !target)
			load_clear(cb, ps, a, sp->view_mask);
		else if (ra->first_use != s && sp->view_mask &
		         ~pa->views_loaded)
			load_clear(cb, ps, a, sp->view_mask & ~pa->views_loaded);
		pa->views_loaded |= sp->view_mask;
	}

	memset(&pass, 0, sizeof(pass));
	pass.color_count = sp->color_count;
	pass.view_mask = sp->view_mask;
	pass.layer_count = sp->view_mask ? icd_view_end(sp->view_mask) :
	                                   ps->layers;
	pass.area_x = ps->area.offset.x;
	pass.area_y = ps->area.offset.y;
	pass.area_width = ps->area.extent.width;
	pass.area_height = ps->area.extent.height;
	for (uint32_t j = 0; j < sp->color_count; j++) {
		uint32_t a = sp->color[j];
		const struct icd_rp_attachment *ra;

		if (a == VK_ATTACHMENT_UNUSED || a >= rp->attachment_count)
			continue;
		ra = &rp->attachments[a];
		clear_color(&ps->att[a].clear, clear);
		put_attachment(&pass.color[j], &ps->att[a].color,
		               ra->first_use == s ? load_op(ra->load_op) :
		                                    SWGPU_LOAD_LOAD,
		               ra->last_use == s ? store_op(ra->store_op) :
		                                   SWGPU_STORE_STORE, clear);
		if (sp->resolve[j] < rp->attachment_count)
			put_resolve(&pass.color[j], &ps->att[sp->resolve[j]].color,
			            ICD_RESOLVE_COLOR);
	}
	if (sp->depth_stencil < rp->attachment_count) {
		uint32_t a = sp->depth_stencil;
		const struct icd_rp_attachment *ra = &rp->attachments[a];

		clear_depth(&ps->att[a].clear, clear);
		put_attachment(&pass.depth, &ps->att[a].depth,
		               ra->first_use == s ? load_op(ra->load_op) :
		                                    SWGPU_LOAD_LOAD,
		               ra->last_use == s ? store_op(ra->store_op) :
		                                   SWGPU_STORE_STORE, clear);
		clear_stencil(&ps->att[a].clear, clear);
		put_attachment(&pass.stencil, &ps->att[a].stencil,
		               ra->first_use == s ?
		               load_op(ra->stencil_load_op) : SWGPU_LOAD_LOAD,
		               ra->last_use == s ?
		               store_op(ra->stencil_store_op) :
		               SWGPU_STORE_STORE, clear);
		if (sp->ds_resolve < rp->attachment_count) {
			const struct icd_pass_attachment *r =
				&ps->att[sp->ds_resolve];
			put_resolve(&pass.depth, &r->depth,
			            sp->depth_resolve_mode);
			put_resolve(&pass.stencil, &r->stencil,
			            sp->stencil_resolve_mode);
		}
	}
	emit_begin_pass(cb, g, &pass);
}

/* The graphics state of cb for a command that starts a render pass
 * instance, or NULL (logged, recording error) if one is active. */
static struct icd_gfx_state *
pass_start(struct icd_cmd_buffer *cb, const char *cmd)
{
	struct icd_gfx_state *g = icd_cmd_gfx(cb);

	if (!g)
		return NULL;
	if (g->pass.active) {
		icd_log("%s inside a render pass instance", cmd);
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return NULL;
	}
	memset(&g->pass, 0, sizeof(g->pass));
	return g;
}

/* Surfaces of the view for the aspects of a render pass attachment. */
static void
attachment_surfaces(struct icd_pass_attachment *pa, VkImageView view,
                    VkImageAspectFlags aspects)
{
	if (aspects & VK_IMAGE_ASPECT_COLOR_BIT)
		icd_image_view_surface(view, VK_IMAGE_ASPECT_COLOR_BIT,
		                       &pa->color);
	if (aspects & VK_IMAGE_ASPECT_DEPTH_BIT)
		icd_image_view_surface(view, VK_IMAGE_ASPECT_DEPTH_BIT,
		                       &pa->depth);
	if (aspects & VK_IMAGE_ASPECT_STENCIL_BIT)
		icd_image_view_surface(view, VK_IMAGE_ASPECT_STENCIL_BIT,
		                       &pa->stencil);
}

void
icd_CmdBeginRenderPass2(VkCommandBuffer commandBuffer,
                        const VkRenderPassBeginInfo *bi,
                        const VkSubpassBeginInfo *si)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = pass_start(cb, "vkCmdBeginRenderPass");
	const struct icd_render_pass *rp =
		icd_render_pass_from_handle(bi->renderPass);
	const struct icd_framebuffer *fb =
		icd_framebuffer_from_handle(bi->framebuffer);
	const VkRenderPassAttachmentBeginInfo *abi = icd_find_struct(
		bi->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO);
	struct icd_pass_state *ps;

	if (!g)
		return;
	ps = &g->pass;
	if (!rp || !fb || rp->attachment_count > fb->attachment_count ||
	    (fb->imageless && (!abi ||
	                       abi->attachmentCount < rp->attachment_count))) {
		icd_log("vkCmdBeginRenderPass: the framebuffer does not have "
		        "the render pass's attachments");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	ps->active = true;
	ps->rp = rp;
	ps->subpass = 0;
	ps->area = bi->renderArea;
	ps->layers = fb->layers;
	ps->attachment_count = rp->attachment_count;
	for (uint32_t a = 0; a < rp->attachment_count; a++) {
		VkImageView v = fb->imageless ? abi->pAttachments[a] :
		                                fb->views[a];

		attachment_surfaces(&ps->att[a], v,
		                    rp->attachments[a].aspects);
		if (a < bi->clearValueCount)
			ps->att[a].clear = bi->pClearValues[a];
	}
	begin_subpass(cb, g);
}

void
icd_CmdBeginRenderPass(VkCommandBuffer commandBuffer,
                       const VkRenderPassBeginInfo *bi,
                       VkSubpassContents contents)
{
	VkSubpassBeginInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO,
		.contents = contents,
	};

	icd_CmdBeginRenderPass2(commandBuffer, bi, &si);
}

/* The active render pass (not dynamic rendering) of cb, or NULL after a
 * log line and a recording error. */
static struct icd_gfx_state *
in_render_pass(struct icd_cmd_buffer *cb, const char *cmd)
{
	struct icd_gfx_state *g = icd_cmd_gfx(cb);

	if (!g)
		return NULL;
	if (!g->pass.active || g->pass.dynamic || g->pass.inherited ||
	    !g->pass.rp) {
		icd_log("%s outside a render pass begun by this command "
		        "buffer", cmd);
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return NULL;
	}
	return g;
}

void
icd_CmdNextSubpass2(VkCommandBuffer commandBuffer,
                    const VkSubpassBeginInfo *si, const VkSubpassEndInfo *ei)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = in_render_pass(cb, "vkCmdNextSubpass");

	if (!g)
		return;
	if (g->pass.subpass + 1 >= g->pass.rp->subpass_count) {
		icd_log("vkCmdNextSubpass past the last subpass");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	emit_end_pass(cb, g);
	g->pass.subpass++;
	begin_subpass(cb, g);
}

void
icd_CmdNextSubpass(VkCommandBuffer commandBuffer, VkSubpassContents contents)
{
	VkSubpassBeginInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO,
		.contents = contents,
	};
	VkSubpassEndInfo ei = { .sType = VK_STRUCTURE_TYPE_SUBPASS_END_INFO };

	icd_CmdNextSubpass2(commandBuffer, &si, &ei);
}

void
icd_CmdEndRenderPass2(VkCommandBuffer commandBuffer,
                      const VkSubpassEndInfo *ei)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = in_render_pass(cb, "vkCmdEndRenderPass");

	if (!g)
		return;
	emit_end_pass(cb, g);
	memset(&g->pass, 0, sizeof(g->pass));
}

void
icd_CmdEndRenderPass(VkCommandBuffer commandBuffer)
{
	VkSubpassEndInfo ei = { .sType = VK_STRUCTURE_TYPE_SUBPASS_END_INFO };

	icd_CmdEndRenderPass2(commandBuffer, &ei);
}

/* ------------------------------------------------------------------ */
/* Dynamic rendering                                                   */
/* ------------------------------------------------------------------ */

/* One VkRenderingAttachmentInfo as the pass attachment of aspect. */
static bool
rendering_attachment(struct swgpu_attachment *out,
                     const VkRenderingAttachmentInfo *ai,
                     VkImageAspectFlagBits aspect, bool resuming)
{
	struct icd_view_surface s;
	uint32_t clear[4];

	memset(out, 0, sizeof(*out));
	if (!ai || ai->imageView == VK_NULL_HANDLE)
		return true;
	if (!icd_image_view_surface(ai->imageView, aspect, &s))
		return true;
	if (aspect == VK_IMAGE_ASPECT_COLOR_BIT)
		clear_color(&ai->clearValue, clear);
	else if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT)
		clear_depth(&ai->clearValue, clear);
	else
		clear_stencil(&ai->clearValue, clear);
	put_attachment(out, &s,
	               resuming ? SWGPU_LOAD_LOAD : load_op(ai->loadOp),
	               store_op(ai->storeOp), clear);
	if (ai->resolveMode != VK_RESOLVE_MODE_NONE &&
	    ai->resolveImageView != VK_NULL_HANDLE) {
		struct icd_view_surface r;
		if (s.samples <= 1) {
			icd_log("vkCmdBeginRendering: a resolve of a "
			        "single-sampled attachment");
			return false;
		}
		if (icd_image_view_surface(ai->resolveImageView, aspect, &r)) {
			if (r.samples > 1) {
				icd_log("vkCmdBeginRendering: a resolve into a "
				        "multisampled image");
				return false;
			}
			put_resolve(out, &r, ai->resolveMode);
		}
	}
	return true;
}

void
icd_CmdBeginRendering(VkCommandBuffer commandBuffer,
                      const VkRenderingInfo *ri)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = pass_start(cb, "vkCmdBeginRendering");
	bool resuming = ri->flags & VK_RENDERING_RESUMING_BIT;
	struct swgpu_pass pass;
	bool ok = true;

	if (!g)
		return;
	if ((ri->viewMask >> ICD_MAX_VIEWS) || ri->colorAttachmentCount >
	    ICD_MAX_COLOR_ATTACHMENTS) {
		icd_log("vkCmdBeginRendering: %s", ri->viewMask ?
		        "the view mask has a view at or above "
		        "maxMultiviewViewCount (6)" :
		        "more colour attachments than maxColorAttachments");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	memset(&pass, 0, sizeof(pass));
	pass.color_count = ri->colorAttachmentCount;
	/* With a view mask, layerCount is ignored: the views' layers. */
	pass.view_mask = ri->viewMask;
	pass.layer_count = ri->viewMask ? icd_view_end(ri->viewMask) :
	                                  ri->layerCount;
	pass.area_x = ri->renderArea.offset.x;
	pass.area_y = ri->renderArea.offset.y;
	pass.area_width = ri->renderArea.extent.width;
	pass.area_height = ri->renderArea.extent.height;
	for (uint32_t j = 0; j < ri->colorAttachmentCount; j++)
		ok = ok && rendering_attachment(&pass.color[j],
		                                &ri->pColorAttachments[j],
		                                VK_IMAGE_ASPECT_COLOR_BIT,
		                                resuming);
	ok = ok && rendering_attachment(&pass.depth, ri->pDepthAttachment,
	                                VK_IMAGE_ASPECT_DEPTH_BIT, resuming);
	ok = ok && rendering_attachment(&pass.stencil, ri->pStencilAttachment,
	                                VK_IMAGE_ASPECT_STENCIL_BIT, resuming);
	if (!ok) {
		icd_cmd_set_error(cb, VK_ERROR_FEATURE_NOT_PRESENT);
		return;
	}
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++) {
		const struct swgpu_attachment *a =
			i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS ? &pass.color[i] :
			i == SWGPU_GFX_MAX_COLOR_ATTACHMENTS ? &pass.depth :
			&pass.stencil;

		if (a->va && a->layers < pass.layer_count) {
			icd_log("vkCmdBeginRendering: an attachment has %u "
			        "layers, %u are rendered (view mask 0x%x)",
			        a->layers, pass.layer_count, ri->viewMask);
			icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
			return;
		}
	}
	g->pass.active = true;
	g->pass.dynamic = true;
	g->pass.area = ri->renderArea;
	g->pass.layers = pass.layer_count;
	g->pass.view_mask = ri->viewMask;
	g->pass.suspending = ri->flags & VK_RENDERING_SUSPENDING_BIT;
	emit_begin_pass(cb, g, &pass);
}

void
icd_CmdEndRendering(VkCommandBuffer commandBuffer)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = icd_cmd_gfx(cb);

	if (!g)
		return;
	if (!g->pass.active || !g->pass.dynamic || g->pass.inherited) {
		icd_log("vkCmdEndRendering outside dynamic rendering begun "
		        "by this command buffer");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	emit_end_pass(cb, g);
	memset(&g->pass, 0, sizeof(g->pass));
}

/* ------------------------------------------------------------------ */
/* vkCmdClearAttachments                                               */
/* ------------------------------------------------------------------ */

/* Rects per CLEAR_ATTACHMENTS packet that fit ICD_CMD_MAX_PACKET_DW. */
#define CLEAR_RECTS_PER_PACKET ((ICD_CMD_MAX_PACKET_DW - 7u) / 6u)

static void
emit_clear(struct icd_cmd_buffer *cb, uint32_t attachment,
           const uint32_t value[4], uint32_t n, const VkClearRect *rects)
{
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < CLEAR_RECTS_PER_PACKET ?
		             n - done : CLEAR_RECTS_PER_PACKET;
		uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_CLEAR_ATTACHMENTS(k));

		if (!p)
			return;
		p[0] = swgpu_pkt_header(SWGPU_OP_CLEAR_ATTACHMENTS, 0,
		                        SWGPU_LEN_CLEAR_ATTACHMENTS(k));
		p[1] = attachment;
		memcpy(&p[2], value, 4 * sizeof(uint32_t));
		p[6] = k;
		for (uint32_t i = 0; i < k; i++) {
			const VkClearRect *r = &rects[done + i];
			uint32_t *q = &p[7 + 6 * i];

			q[0] = (uint32_t)r->rect.offset.x;
			q[1] = (uint32_t)r->rect.offset.y;
			q[2] = r->rect.extent.width;
			q[3] = r->rect.extent.height;
			q[4] = r->baseArrayLayer;
			q[5] = r->layerCount;
		}
		done += k;
	}
}

void
icd_CmdClearAttachments(VkCommandBuffer commandBuffer,
                        uint32_t attachmentCount,
                        const VkClearAttachment *pAttachments,
                        uint32_t rectCount, const VkClearRect *pRects)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = icd_cmd_gfx(cb);
	uint32_t value[4];

	if (!g)
		return;
	if (!g->pass.active) {
		icd_log("vkCmdClearAttachments outside a render pass instance");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	if (!rectCount)
		return;
	for (uint32_t i = 0; i < attachmentCount; i++) {
		const VkClearAttachment *ca = &pAttachments[i];
		VkClearValue v = ca->clearValue;

		if (ca->aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) {
			if (ca->colorAttachment >= ICD_MAX_COLOR_ATTACHMENTS)
				continue;
			clear_color(&v, value);
			emit_clear(cb, ca->colorAttachment, value, rectCount,
			           pRects);
		}
		if (ca->aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) {
			clear_depth(&v, value);
			emit_clear(cb, SWGPU_ATTACHMENT_DEPTH, value, rectCount,
			           pRects);
		}
		if (ca->aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) {
			clear_stencil(&v, value);
			emit_clear(cb, SWGPU_ATTACHMENT_STENCIL, value,
			           rectCount, pRects);
		}
	}
}
