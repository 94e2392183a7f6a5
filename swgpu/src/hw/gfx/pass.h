/* SPDX-License-Identifier: MIT */
/*
 * Passes and attachments (pass.c): what BEGIN_PASS, CLEAR_ATTACHMENTS
 * and draws use to reach attachment memory.
 */
#ifndef SWGPU_GFX_PASS_H
#define SWGPU_GFX_PASS_H

#include <stddef.h>

#include "hw/gfx/gfx_internal.h"
#include "hw/packet/packet_internal.h"

enum gfx_attachment_kind { GFX_ATT_COLOR, GFX_ATT_DEPTH, GFX_ATT_STENCIL };

/* One past the highest view of a multiview pass's view mask (0 for 0):
 * the layers a multiview pass reaches. */
static inline uint32_t
gfx_view_end(uint32_t view_mask)
{
	return view_mask ? 32u - (uint32_t)__builtin_clz(view_mask) : 0u;
}

/* Item of a raster-thread loop over bands of `rows` rows of rect fb
 * (bands per layer, layer-major): its layer and rows [*y0, *y1); false
 * when a multiview pass does not render that layer. */
static inline bool
gfx_pass_band(const struct swgpu_pass *ps, const struct gfx_rect *fb,
              uint32_t bands, uint32_t rows, uint32_t item, uint32_t *layer,
              int32_t *y0, int32_t *y1)
{
	*layer = item / bands;
	*y0 = fb->y0 + (int32_t)((item % bands) * rows);
	*y1 = *y0 + (int32_t)rows < fb->y1 ? *y0 + (int32_t)rows : fb->y1;
	return !ps->view_mask || ((ps->view_mask >> *layer) & 1u);
}

/* Samples of an attachment (0 means 1). */
static inline uint32_t
gfx_att_samples(const struct swgpu_attachment *a)
{
	return a->samples ? a->samples : 1u;
}

/* resolve.c: a resolve mode is defined for the format. */
bool gfx_resolve_mode_ok(uint32_t format, uint32_t mode);
/* The resolves of the pass's attachments that have a resolve target,
 * over its render area and layers (multiview: the views' layers);
 * false: a page fault. VA read lock held. pool: the engine's raster
 * threads (NULL: the caller alone). */
bool gfx_pass_resolve(struct exec_env *env, const struct pkt *p,
                      const struct swgpu_pass *ps, struct gfx_pool *pool);

/* Everything about a pass that does not need memory; false with a
 * reason in why. */
bool gfx_pass_validate(const struct swgpu_pass *ps, char *why,
                       size_t why_size);
/* Attachment index (0..7 colour, SWGPU_ATTACHMENT_DEPTH/_STENCIL) of
 * the pass, NULL when unused. */
const struct swgpu_attachment *gfx_pass_attachment(const struct swgpu_pass *ps,
                                                   uint32_t index);
/* The render area within every used attachment's extent. */
void gfx_pass_extent(const struct swgpu_pass *ps, struct gfx_rect *fb);
/* Translate rect r of layers [layer0, layer0 + nlayers) of attachment a
 * (read/write) into pl; a page fault (false) otherwise. An empty rect
 * gives a plane with base NULL. VA read lock held. */
bool gfx_plane_map(struct exec_env *env, const struct pkt *p,
                   const struct swgpu_attachment *a, const struct gfx_rect *r,
                   uint32_t layer0, uint32_t nlayers, struct gfx_plane *pl);
/* clear.c: write value (CLEAR_BOX encoding) into rect r of nlayers
 * layers. */
void gfx_plane_clear(const struct gfx_plane *pl, const struct gfx_rect *r,
                     uint32_t nlayers, const uint32_t value[4]);
/* BEGIN_PASS's memory work: translate every attachment, then the CLEAR
 * load ops, in bands of rows over pool's threads (NULL: the caller
 * alone). VA read lock held. */
bool gfx_pass_begin(struct exec_env *env, const struct pkt *p,
                    const struct swgpu_pass *ps, struct gfx_pool *pool);
/* CLEAR_ATTACHMENTS on attachment index. VA read lock held. */
bool gfx_clear_attachments(struct exec_env *env, const struct pkt *p,
                           const struct swgpu_pass *ps, uint32_t index,
                           const uint32_t value[4], uint32_t nrects,
                           const uint32_t *rects);

#endif
