/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: images and texel buffers (IR_IMG*; internal, called
 * from interp.c): storage image loads, stores, atomics, texel fetches
 * and size queries; the level arithmetic interp_sample.c shares.
 *
 * Images are linear (the ICD's layout): texel (x, y, slice) of a view
 * is at row_pitch * y + slice_pitch * slice + elem * x from the view's
 * base, where slice is the 3D depth or the array layer; the levels of a
 * sampled image follow each other (swgpu_descriptor_image). Texels convert
 * with the same format code as CLEAR_BOX and BLIT (format.c), so every
 * format the engine decodes and encodes is a storage format; the value's
 * domain (float, uint, sint) is the format's. Loads outside the view
 * read the replacement texel (zero, with 0, 0, 1 for missing G, B, A:
 * robustImageAccess2), stores and atomics there do nothing; null
 * descriptors and descriptor indices past the array read all zeros.
 */
#include <string.h>

#include "interp_util.h"

const struct ir_buffer_binding *
image_resource(const struct ir_dispatch *d, uint32_t slot, uint32_t idx,
               uint32_t count)
{
	const struct ir_buffer_binding *bb;

	if (idx >= (count ? count : 1u) || slot + idx >= IR_MAX_BUFFERS)
		return NULL;
	bb = &d->buffers[slot + idx];
	return bb->ptr && bb->img ? bb : NULL;
}

/* The resource of lane l, or NULL. */
static const struct ir_buffer_binding *
resource(const struct ir_dispatch *d, const struct ir_instr *in,
         uint32_t idx)
{
	return image_resource(d, in->aux, idx, in->imm & 0xffffu);
}

void
image_levels(const struct ir_image_binding *im, uint32_t n,
             struct img_level *lv)
{
	const uint32_t bw = im->fmt ? im->fmt->block_width : 1;
	const uint32_t bh = im->fmt ? im->fmt->block_height : 1;
	uint32_t w = im->width, h = im->height, dd = im->depth;
	uint32_t rp = im->row_pitch;
	uint64_t off = 0;

	for (uint32_t k = 0; k < n; k++) {
		if (k) {
			off += (uint64_t)rp * ((h + bh - 1) / bh) * dd;
			w = w > 1 ? w >> 1 : 1;
			h = h > 1 ? h >> 1 : 1;
			dd = dd > 1 ? dd >> 1 : 1;
			rp = ((w + bw - 1) / bw * im->elem +
			      SWGPU_IMAGE_ROW_PITCH_ALIGN - 1) &
			     ~(SWGPU_IMAGE_ROW_PITCH_ALIGN - 1);
		}
		lv[k].off = off;
		lv[k].w = w;
		lv[k].h = h;
		lv[k].d = dd;
		lv[k].cols = (w + bw - 1) / bw;
		lv[k].rows = (h + bh - 1) / bh;
		lv[k].row_pitch = rp;
		lv[k].slice_pitch = k && im->view_type == 2 ?
		                    (uint64_t)rp * lv[k].rows : im->slice_pitch;
	}
}

void
image_level(const struct ir_image_binding *im, uint32_t level,
            struct img_level *lv)
{
	const uint32_t bw = im->fmt ? im->fmt->block_width : 1;
	const uint32_t bh = im->fmt ? im->fmt->block_height : 1;
	uint32_t w = im->width, h = im->height, dd = im->depth;
	uint32_t rp = im->row_pitch;
	uint64_t off = 0;

	for (uint32_t k = 0; k < level; k++) {
		off += (uint64_t)rp * ((h + bh - 1) / bh) * dd;
		w = w > 1 ? w >> 1 : 1;
		h = h > 1 ? h >> 1 : 1;
		dd = dd > 1 ? dd >> 1 : 1;
		rp = ((w + bw - 1) / bw * im->elem +
		      SWGPU_IMAGE_ROW_PITCH_ALIGN - 1) &
		     ~(SWGPU_IMAGE_ROW_PITCH_ALIGN - 1);
	}
	lv->off = off;
	lv->w = w;
	lv->h = h;
	lv->d = dd;
	lv->cols = (w + bw - 1) / bw;
	lv->rows = (h + bh - 1) / bh;
	lv->row_pitch = rp;
	lv->slice_pitch = level && im->view_type == 2 ?
	                  (uint64_t)rp * lv->rows : im->slice_pitch;
}

/* Address of texel (x, y, slice) of level lv (compressed formats: of
 * its block), or NULL outside it. */
static uint8_t *
level_texel(const struct ir_buffer_binding *bb, const struct img_level *lv,
            uint32_t x, uint32_t y, uint32_t slice)
{
	const struct ir_image_binding *im = bb->img;
	uint64_t off;

	if (x >= lv->w || y >= lv->h ||
	    slice >= (im->view_type == 2 ? lv->d : im->layers))
		return NULL;
	if (im->fmt->caps & SWGPU_FORMAT_CAP_COMPRESSED) {
		x /= im->fmt->block_width;
		y /= im->fmt->block_height;
	}
	off = lv->off + (uint64_t)slice * lv->slice_pitch +
	      (uint64_t)y * lv->row_pitch + (uint64_t)x * im->elem;
	if (off + im->elem > bb->range)
		return NULL;
	return bb->ptr + off;
}

/* Address of the texel at (x, y, z) of level (multisampled: of sample
 * `sample`), or NULL outside the view: the coordinates as
 * OpImageRead/Write/Fetch give them. */
static uint8_t *
texel_at(const struct ir_buffer_binding *bb, uint32_t x, uint32_t y,
         uint32_t z, uint32_t level, uint32_t sample)
{
	const struct ir_image_binding *im = bb->img;
	struct img_level lv;
	uint32_t slice;

	if (level >= im->levels)
		return NULL;
	switch (im->view_type) {
	case 0:                         /* 1D */
		y = 0;
		slice = 0;
		break;
	case 4:                         /* 1D array: y is the layer */
		slice = y;
		y = 0;
		break;
	case 1:                         /* 2D */
		slice = 0;
		break;
	case UINT32_MAX:                /* texel buffer */
		y = slice = 0;
		break;
	default:                        /* 3D, 2D array, cube (array) */
		slice = z;
		break;
	}
	if (im->samples > 1) {
		/* 2D (array) only (bind_image): sample s of layer L is
		 * slice L * samples + s */
		if (sample >= im->samples || slice >= im->layers / im->samples)
			return NULL;
		slice = slice * im->samples + sample;
	}
	image_level(im, level, &lv);
	return level_texel(bb, &lv, x, y, slice);
}

static void
texel_to_lanes(const struct ir_image_binding *im, const struct texel *t,
               lane_t out[4])
{
	for (uint32_t c = 0; c < 4; c++) {
		switch (im->domain) {
		case SWGPU_BLIT_CLASS_UINT:
		case SWGPU_BLIT_CLASS_STENCIL:
			out[c].u = (uint32_t)t->u[c];
			break;
		case SWGPU_BLIT_CLASS_SINT:
			out[c].i = (int32_t)t->i[c];
			break;
		default:
			out[c].f = (float)t->f[c];
			break;
		}
	}
}

static void
lanes_to_texel(const struct ir_image_binding *im, const lane_t in[4],
               struct texel *t)
{
	for (uint32_t c = 0; c < 4; c++) {
		switch (im->domain) {
		case SWGPU_BLIT_CLASS_UINT:
			t->u[c] = in[c].u;
			break;
		case SWGPU_BLIT_CLASS_SINT:
			t->i[c] = in[c].i;
			break;
		default:
			t->f[c] = in[c].f;
			break;
		}
	}
}

bool
image_fetch(const struct ir_buffer_binding *bb, const struct img_level *lv,
            uint32_t x, uint32_t y, uint32_t slice, lane_t v[4])
{
	const uint8_t *src = level_texel(bb, lv, x, y, slice);
	struct texel t;

	if (!src)
		return false;
	format_decode_at(bb->img->fmt, bb->img->decode, src, x, y, &t);
	texel_to_lanes(bb->img, &t, v);
	return true;
}

/* Whether a format has an alpha channel (compressed ones by name: their
 * bit widths are not per channel). */
static bool
format_has_alpha(const swgpu_format_info *fi)
{
	if (!(fi->caps & SWGPU_FORMAT_CAP_COMPRESSED))
		return fi->bit_width[3] != 0;
	return !strncmp(fi->name, "BC1_RGBA", 8) ||
	       !strncmp(fi->name, "BC2", 3) || !strncmp(fi->name, "BC3", 3) ||
	       !strncmp(fi->name, "BC7", 3);
}

void
image_oob_texel(struct ir_image_binding *im)
{
	struct texel t;

	memset(&t, 0, sizeof(t));
	if (im->fmt && !format_has_alpha(im->fmt)) {
		if (im->domain == SWGPU_BLIT_CLASS_UINT ||
		    im->domain == SWGPU_BLIT_CLASS_STENCIL)
			t.u[3] = 1;
		else if (im->domain == SWGPU_BLIT_CLASS_SINT)
			t.i[3] = 1;
		else
			t.f[3] = 1.0;
	}
	texel_to_lanes(im, &t, im->oob);
	image_swizzle(im, im->oob);
}

void
image_swizzle(const struct ir_image_binding *im, lane_t v[4])
{
	const bool fl = im->domain != SWGPU_BLIT_CLASS_UINT &&
	                im->domain != SWGPU_BLIT_CLASS_SINT &&
	                im->domain != SWGPU_BLIT_CLASS_STENCIL;
	lane_t in[4];

	if (!(im->swizzle[0] | im->swizzle[1] | im->swizzle[2] |
	      im->swizzle[3]))
		return;
	memcpy(in, v, sizeof(in));
	for (uint32_t c = 0; c < 4; c++) {
		switch (im->swizzle[c]) {
		case 1:                 /* ZERO */
			v[c].u = 0;
			break;
		case 2:                 /* ONE */
			if (fl)
				v[c].f = 1.0f;
			else
				v[c].u = 1;
			break;
		case 3: case 4: case 5: case 6: /* R, G, B, A */
			v[c] = in[im->swizzle[c] - 3];
			break;
		default:                /* IDENTITY */
			break;
		}
	}
}

/* Components of the view's size at level, as OpImageQuerySize(Lod)
 * returns them; c 3: the level count (OpImageQueryLevels). */
static uint32_t
size_component(const struct ir_buffer_binding *bb, uint32_t c,
               uint32_t level)
{
	const struct ir_image_binding *im = bb->img;
	struct img_level lv;
	uint32_t v[3];

	if (c == 3)
		return im->levels;
	if (c == 4)
		return im->samples > 1 ? im->samples : 1;
	if (level >= im->levels)
		return 0;
	image_level(im, level, &lv);
	v[0] = lv.w;
	v[1] = v[2] = 0;

	switch (im->view_type) {
	case 4:                         /* 1D array */
		v[1] = im->layers;
		break;
	case 2:                         /* 3D */
		v[1] = lv.h;
		v[2] = lv.d;
		break;
	case 5:                         /* 2D array (multisampled: layers
	                                   count slices) */
		v[1] = lv.h;
		v[2] = im->samples > 1 ? im->layers / im->samples
		                       : im->layers;
		break;
	case 6:                         /* cube array: cubes */
		v[1] = lv.h;
		v[2] = im->layers / 6;
		break;
	default:                        /* 1D, 2D, cube, texel buffer */
		v[1] = lv.h;
		break;
	}
	return c < 3 ? v[c] : 0;
}

void
interp_image(struct ir_exec *e, const struct ir_dispatch *d,
             const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	const uint8_t *m = e->mask;
	lane_t *regs = e->regs;
	lane_t *D = regs + (size_t)in->dst * W;
	const lane_t *X = regs + (size_t)in->a * W;
	const lane_t *Y = X + W, *Z = Y + W;
	const lane_t *S = Z + W;     /* IR_IMGATOM's sample */
	const lane_t *B = regs + (size_t)in->b * W;
	const lane_t *C = regs + (size_t)in->c * W;
	const lane_t *Dd = regs + (size_t)in->d * W;

	switch (in->op) {
	case IR_IMGLD:
		LANES({
			const struct ir_buffer_binding *bb =
				resource(d, in, Dd[l].u);
			const uint8_t *src = bb ? texel_at(bb, X[l].u, Y[l].u,
			                                   Z[l].u, B[l].u,
			                                   C[l].u) : NULL;
			lane_t v[4] = { { 0 }, { 0 }, { 0 }, { 0 } };

			if (src) {
				struct texel t;

				format_decode_at(bb->img->fmt, bb->img->decode, src,
				                 X[l].u, Y[l].u, &t);
				texel_to_lanes(bb->img, &t, v);
				image_swizzle(bb->img, v);
			} else if (bb) {
				memcpy(v, bb->img->oob, sizeof(v));
			}
			for (uint32_t c = 0; c < 4; c++)
				D[(size_t)c * W + l] = v[c];
		});
		break;
	case IR_IMGST:
		LANES({
			const struct ir_buffer_binding *bb =
				resource(d, in, Dd[l].u);
			uint8_t *dst = bb ? texel_at(bb, X[l].u, Y[l].u,
			                             Z[l].u, 0, C[l].u)
			                  : NULL;

			if (dst) {
				lane_t v[4];
				struct texel t;

				for (uint32_t c = 0; c < 4; c++)
					v[c] = B[(size_t)c * W + l];
				lanes_to_texel(bb->img, v, &t);
				bb->img->encode(bb->img->fmt, &t, dst);
			}
		});
		break;
	case IR_IMGATOM:
		LANES({
			const struct ir_buffer_binding *bb =
				resource(d, in, Dd[l].u);
			uint8_t *p = bb && bb->img->elem == 4
			             ? texel_at(bb, X[l].u, Y[l].u, Z[l].u, 0,
			                        S[l].u)
			             : NULL;
			uint32_t r = 0;

			if (p && !((uintptr_t)p & 3))
				r = atomic_op((uint32_t *)(void *)p, in->aux2,
				              B[l].u, C[l].u);
			if (in->dst)
				D[l].u = r;
		});
		break;
	case IR_IMGSIZE:
		LANES({
			const struct ir_buffer_binding *bb =
				resource(d, in, Dd[l].u);

			D[l].u = bb ? size_component(bb, in->aux2, B[l].u)
			            : 0;
		});
		break;
	default:
		break;
	}
}
