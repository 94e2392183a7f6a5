/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: storage images and texel buffers (IR_IMG*; internal,
 * called from interp.c).
 *
 * Images are linear (the ICD's layout): texel (x, y, slice) of a view
 * is at row_pitch * y + slice_pitch * slice + elem * x from the view's
 * base, where slice is the 3D depth or the array layer. Texels convert
 * with the same format code as CLEAR_BOX and BLIT (format.c), so every
 * format the engine decodes and encodes is a storage format; the value's
 * domain (float, uint, sint) is the format's. Accesses outside the view
 * read zeros and write nothing (robustImageAccess), as do null
 * descriptors and descriptor indices past the array.
 */
#include <string.h>

#include "interp_util.h"

/* The resource of lane l, or NULL. */
static const struct ir_buffer_binding *
resource(const struct ir_dispatch *d, const struct ir_instr *in,
         uint32_t idx)
{
	const struct ir_buffer_binding *bb;

	if (idx >= (in->imm ? in->imm : 1u))
		return NULL;
	bb = &d->buffers[in->aux + idx];
	return bb->ptr && bb->img ? bb : NULL;
}

/* Address of the texel at (x, y, z), or NULL outside the view. */
static uint8_t *
texel_at(const struct ir_buffer_binding *bb, uint32_t x, uint32_t y,
         uint32_t z)
{
	const struct ir_image_binding *im = bb->img;
	uint64_t off;
	uint32_t slice;

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
	case 2:                         /* 3D */
		if (z >= im->depth)
			return NULL;
		slice = z;
		break;
	case UINT32_MAX:                /* texel buffer */
		y = slice = 0;
		break;
	default:                        /* 2D array, cube (array) */
		slice = z;
		break;
	}
	if (x >= im->width || y >= im->height ||
	    (im->view_type != 2 && slice >= im->layers))
		return NULL;
	off = (uint64_t)slice * im->slice_pitch +
	      (uint64_t)y * im->row_pitch + (uint64_t)x * im->elem;
	if (off + im->elem > bb->range)
		return NULL;
	return bb->ptr + off;
}

static void
texel_to_lanes(const struct ir_image_binding *im, const struct texel *t,
               lane_t out[4])
{
	for (uint32_t c = 0; c < 4; c++) {
		switch (im->domain) {
		case SWGPU_BLIT_CLASS_UINT:
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

/* Components of the view's size, as OpImageQuerySize returns them. */
static uint32_t
size_component(const struct ir_buffer_binding *bb, uint32_t c)
{
	const struct ir_image_binding *im = bb->img;
	uint32_t v[3] = { im->width, 0, 0 };

	switch (im->view_type) {
	case 4:                         /* 1D array */
		v[1] = im->layers;
		break;
	case 2:                         /* 3D */
		v[1] = im->height;
		v[2] = im->depth;
		break;
	case 5:                         /* 2D array */
		v[1] = im->height;
		v[2] = im->layers;
		break;
	case 6:                         /* cube array: cubes */
		v[1] = im->height;
		v[2] = im->layers / 6;
		break;
	default:                        /* 1D, 2D, cube, texel buffer */
		v[1] = im->height;
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
	const lane_t *B = regs + (size_t)in->b * W;
	const lane_t *C = regs + (size_t)in->c * W;
	const lane_t *Dd = regs + (size_t)in->d * W;

	switch (in->op) {
	case IR_IMGLD:
		LANES({
			const struct ir_buffer_binding *bb =
				resource(d, in, Dd[l].u);
			const uint8_t *src = bb ? texel_at(bb, X[l].u, Y[l].u,
			                                   Z[l].u) : NULL;
			lane_t v[4] = { { 0 }, { 0 }, { 0 }, { 0 } };

			if (src) {
				struct texel t;

				bb->img->decode(bb->img->fmt, src, &t);
				texel_to_lanes(bb->img, &t, v);
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
			                             Z[l].u) : NULL;

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
			             ? texel_at(bb, X[l].u, Y[l].u, Z[l].u)
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

			D[l].u = bb ? size_component(bb, in->aux2) : 0;
		});
		break;
	default:
		break;
	}
}
