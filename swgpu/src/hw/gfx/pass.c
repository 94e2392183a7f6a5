/* SPDX-License-Identifier: MIT */
/*
 * Passes: validation of a swgpu_pass and the attachments' memory as a
 * draw or a clear reaches it (clears: clear.c).
 *
 * An attachment's memory is translated per use (BEGIN_PASS, each draw,
 * each clear) for exactly the texels it touches: the rows of the
 * region's bounding box over the layers used, read and write access.
 */
#include "hw/gfx/pass.h"

#include <stdio.h>
#include <string.h>

#include "kmd/vaspace.h"

static const char *
check_attachment(const struct swgpu_pass *ps,
                 const struct swgpu_attachment *a, uint32_t kind)
{
	if (!a->va)
		return NULL;
	bool ok = kind == GFX_ATT_COLOR ? swgpu_format_color_renderable(a->format)
	          : kind == GFX_ATT_DEPTH ? swgpu_format_depth_renderable(a->format)
	          : swgpu_format_stencil_renderable(a->format);
	if (!ok)
		return "format not renderable for this attachment";
	const swgpu_format_info *fi = swgpu_format_get_info(a->format);
	if (!a->width || !a->height ||
	    a->width > SWGPU_GFX_MAX_FRAMEBUFFER_DIM ||
	    a->height > SWGPU_GFX_MAX_FRAMEBUFFER_DIM)
		return "extent out of range";
	if (!a->layers || a->layers > SWGPU_GFX_MAX_FRAMEBUFFER_LAYERS ||
	    ps->layer_count > a->layers)
		return "layer count out of range";
	if (a->row_pitch < (uint64_t)a->width * fi->block_bytes)
		return "row pitch below the row's bytes";
	const uint32_t S = gfx_att_samples(a);
	if (S != 1 && S != 2 && S != 4 && S != 8)
		return "sample count not 1, 2, 4 or 8";
	if ((ps->layer_count > 1 || S > 1) &&
	    a->layer_pitch < a->row_pitch * a->height)
		return "layer pitch below the layer's bytes";
	if (a->load_op > SWGPU_LOAD_DONT_CARE ||
	    a->store_op > SWGPU_STORE_NONE)
		return "bad load or store op";
	if (a->resolve_va) {
		if (S == 1)
			return "resolve of a single-sampled attachment";
		if (a->resolve_mode < SWGPU_RESOLVE_SAMPLE_ZERO ||
		    a->resolve_mode > SWGPU_RESOLVE_MAX)
			return "bad resolve mode";
		if (!gfx_resolve_mode_ok(a->format, a->resolve_mode))
			return "resolve mode not allowed for the format";
		if (a->resolve_row_pitch < (uint64_t)a->width * fi->block_bytes ||
		    (ps->layer_count > 1 &&
		     a->resolve_layer_pitch < a->resolve_row_pitch * a->height))
			return "resolve pitch below the row's or layer's bytes";
	} else if (a->resolve_mode || a->resolve_row_pitch ||
	           a->resolve_layer_pitch) {
		return "resolve fields without a resolve target";
	}
	for (uint32_t i = 0; i < SWGPU_ARRAY_SIZE(a->reserved); i++)
		if (a->reserved[i])
			return "reserved field not 0";
	return NULL;
}

bool
gfx_pass_validate(const struct swgpu_pass *ps, char *why, size_t why_size)
{
	const char *err = NULL;
	uint32_t which = 0;

	if (ps->color_count > SWGPU_GFX_MAX_COLOR_ATTACHMENTS)
		err = "too many colour attachments";
	else if (!ps->layer_count ||
	         ps->layer_count > SWGPU_GFX_MAX_FRAMEBUFFER_LAYERS)
		err = "layer count out of range";
	else if (ps->area_x < 0 || ps->area_y < 0 ||
	         ps->area_width > SWGPU_GFX_MAX_FRAMEBUFFER_DIM ||
	         ps->area_height > SWGPU_GFX_MAX_FRAMEBUFFER_DIM ||
	         (uint64_t)ps->area_x + ps->area_width >
	         SWGPU_GFX_MAX_FRAMEBUFFER_DIM ||
	         (uint64_t)ps->area_y + ps->area_height >
	         SWGPU_GFX_MAX_FRAMEBUFFER_DIM)
		err = "render area out of range";
	else if (ps->flags)
		err = "flags not 0";
	else if (ps->view_mask >> SWGPU_GFX_MAX_VIEWS)
		err = "view mask has a view at or above the view limit";
	else if (ps->view_mask &&
	         gfx_view_end(ps->view_mask) > ps->layer_count)
		err = "view mask has a view beyond the layer count";
	for (uint32_t i = 0; !err && i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2;
	     i++) {
		which = i;
		if (i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS) {
			if (i < ps->color_count)
				err = check_attachment(ps, &ps->color[i],
				                       GFX_ATT_COLOR);
		} else if (i == SWGPU_GFX_MAX_COLOR_ATTACHMENTS) {
			err = check_attachment(ps, &ps->depth, GFX_ATT_DEPTH);
		} else {
			err = check_attachment(ps, &ps->stencil,
			                       GFX_ATT_STENCIL);
		}
	}
	/* one sample count for the whole pass */
	uint32_t samples = 0;
	for (uint32_t i = 0; !err && i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2;
	     i++) {
		const struct swgpu_attachment *a = gfx_pass_attachment(ps, i);
		if (!a)
			continue;
		if (samples && gfx_att_samples(a) != samples) {
			err = "sample count differs from another attachment's";
			which = i;
		}
		samples = gfx_att_samples(a);
	}
	if (err && why)
		snprintf(why, why_size, "pass %s%u: %s",
		         which < 8 ? "colour " : which == 8 ? "depth " : "stencil ",
		         which < 8 ? which : 0, err);
	return !err;
}

const struct swgpu_attachment *
gfx_pass_attachment(const struct swgpu_pass *ps, uint32_t index)
{
	const struct swgpu_attachment *a;

	if (index < SWGPU_GFX_MAX_COLOR_ATTACHMENTS)
		a = index < ps->color_count ? &ps->color[index] : NULL;
	else if (index == SWGPU_ATTACHMENT_DEPTH)
		a = &ps->depth;
	else if (index == SWGPU_ATTACHMENT_STENCIL)
		a = &ps->stencil;
	else
		a = NULL;
	return a && a->va ? a : NULL;
}

bool
gfx_plane_map(struct exec_env *env, const struct pkt *p,
              const struct swgpu_attachment *a, const struct gfx_rect *r,
              uint32_t layer0, uint32_t nlayers, struct gfx_plane *pl)
{
	const swgpu_format_info *fi = swgpu_format_get_info(a->format);
	const uint32_t bpp = fi->block_bytes;

	memset(pl, 0, sizeof(*pl));
	if (r->x0 >= r->x1 || r->y0 >= r->y1 || !nlayers)
		return true;
	/* multisampled: the S slices of each layer */
	const uint32_t S = gfx_att_samples(a);
	uint64_t start = a->va + (uint64_t)layer0 * S * a->layer_pitch +
	                 (uint64_t)r->y0 * a->row_pitch +
	                 (uint64_t)r->x0 * bpp;
	uint64_t size = ((uint64_t)nlayers * S - 1) * a->layer_pitch +
	                (uint64_t)(r->y1 - r->y0 - 1) * a->row_pitch +
	                (uint64_t)(r->x1 - r->x0) * bpp;
	const uint32_t access = SWGPU_VA_READ | SWGPU_VA_WRITE;
	uint8_t *host = vaspace_translate(env->vs, start, size, access);
	if (!host)
		return page_fault(env, p, start, size, access);
	/* pixel (x0, y0) of layer layer0 is host; layers are counted from
	 * layer0 by the users of the plane. */
	pl->base = host;
	pl->ox = r->x0;
	pl->oy = r->y0;
	pl->row_pitch = a->row_pitch;
	pl->layer_pitch = a->layer_pitch;
	pl->samples = S;
	pl->bpp = bpp;
	pl->format = a->format;
	pl->fi = fi;
	pl->decode = format_decoder(fi);
	pl->encode = format_encoder(fi);
	return true;
}

void
gfx_pass_extent(const struct swgpu_pass *ps, struct gfx_rect *fb)
{
	fb->x0 = ps->area_x;
	fb->y0 = ps->area_y;
	fb->x1 = ps->area_x + (int32_t)ps->area_width;
	fb->y1 = ps->area_y + (int32_t)ps->area_height;
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++) {
		const struct swgpu_attachment *a = gfx_pass_attachment(ps, i);
		if (!a)
			continue;
		if (fb->x1 > (int32_t)a->width)
			fb->x1 = (int32_t)a->width;
		if (fb->y1 > (int32_t)a->height)
			fb->y1 = (int32_t)a->height;
	}
	if (fb->x1 < fb->x0)
		fb->x1 = fb->x0;
	if (fb->y1 < fb->y0)
		fb->y1 = fb->y0;
}
