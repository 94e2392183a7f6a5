/* SPDX-License-Identifier: MIT */
/*
 * render_pass.h — VkRenderPass and VkFramebuffer (render_pass.c), and
 * the render-target view of an image view (image_view.c).
 *
 * A render pass (vkCreateRenderPass and vkCreateRenderPass2 both build
 * this form) keeps what recording needs: per attachment its format,
 * aspects, load/store ops and the first and last subpass that uses it;
 * per subpass its colour, depth/stencil and input attachment indices.
 * Dependencies need no state: an engine completes each packet before the
 * next (cmd_sync.c), so every subpass dependency holds by construction.
 */
#ifndef ICD_RENDER_PASS_H
#define ICD_RENDER_PASS_H

#include "icd.h"

/* Attachments of one render pass / framebuffer the device takes. */
#define ICD_MAX_RP_ATTACHMENTS 64u
/* Colour attachments of one subpass (maxColorAttachments). */
#define ICD_MAX_COLOR_ATTACHMENTS SWGPU_GFX_MAX_COLOR_ATTACHMENTS
/* View mask bits the device takes (maxMultiviewViewCount). */
#define ICD_MAX_VIEWS SWGPU_GFX_MAX_VIEWS
/* No subpass uses it (first_use / last_use). */
#define ICD_SUBPASS_NONE UINT32_MAX

struct icd_rp_attachment {
	VkFormat format;
	VkImageAspectFlags aspects;     /* of the format */
	VkAttachmentLoadOp load_op, stencil_load_op;
	VkAttachmentStoreOp store_op, stencil_store_op;
	uint32_t first_use, last_use;   /* subpass indices, or NONE */
};

struct icd_subpass {
	uint32_t color_count;
	uint32_t color[ICD_MAX_COLOR_ATTACHMENTS];  /* or ATTACHMENT_UNUSED */
	uint32_t depth_stencil;                      /* or ATTACHMENT_UNUSED */
	uint32_t input_count;
	const uint32_t *input;                       /* [input_count] */
	uint32_t view_mask;     /* multiview: bit v renders view v into
	                           layer v of every attachment; 0: none */
	/* resolves at the end of the subpass (or ATTACHMENT_UNUSED):
	 * colour j into resolve[j], depth/stencil into ds_resolve with
	 * its modes (VK_RESOLVE_MODE_NONE: that aspect not resolved) */
	uint32_t resolve[ICD_MAX_COLOR_ATTACHMENTS];
	uint32_t ds_resolve;
	VkResolveModeFlagBits depth_resolve_mode, stencil_resolve_mode;
};

struct icd_render_pass {
	struct icd_object base;
	uint32_t attachment_count;
	uint32_t subpass_count;
	struct icd_rp_attachment *attachments;
	struct icd_subpass *subpasses;
};

struct icd_framebuffer {
	struct icd_object base;
	uint32_t width, height, layers;
	bool imageless;         /* views come with vkCmdBeginRenderPass */
	uint32_t attachment_count;
	VkImageView views[];    /* [attachment_count]; none if imageless */
};

ICD_DEFINE_HANDLE_CASTS(icd_render_pass, VkRenderPass,
                        VK_OBJECT_TYPE_RENDER_PASS)
ICD_DEFINE_HANDLE_CASTS(icd_framebuffer, VkFramebuffer,
                        VK_OBJECT_TYPE_FRAMEBUFFER)

/*
 * One stored aspect of an image view as a render target: the pitched
 * surface of the view's base level and layers (image_view.c).
 */
struct icd_view_surface {
	uint64_t va;            /* texel (0, 0) of the first layer */
	uint64_t row_pitch;
	uint64_t layer_pitch;   /* 2D views of 3D images: the slice pitch;
	                           multisampled: of the sample slices */
	uint32_t samples;       /* the image's */
	uint32_t format;        /* enum swgpu_format of the plane */
	uint32_t width, height; /* of the view's base level */
	uint32_t layers;
};

/* The surface of aspect (COLOR, DEPTH or STENCIL) of view; false if the
 * view has no such aspect (or view is VK_NULL_HANDLE). */
bool icd_image_view_surface(VkImageView view, VkImageAspectFlagBits aspect,
                            struct icd_view_surface *out);

/* One past the highest view of a view mask (0 for 0): the layers a
 * multiview pass renders. */
static inline uint32_t
icd_view_end(uint32_t view_mask)
{
	return view_mask ? 32u - (uint32_t)__builtin_clz(view_mask) : 0u;
}

#endif /* ICD_RENDER_PASS_H */
