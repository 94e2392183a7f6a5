/* SPDX-License-Identifier: MIT */
/*
 * Vertex fetch: attribute values of one vertex from the bound vertex
 * buffers into the vertex shader's input registers.
 *
 * Addressing is the spec's "Vertex Input Address Calculation": per
 * vertex element = vertex index, per instance element = firstInstance +
 * (InstanceIndex - firstInstance) / divisor (divisor 0: firstInstance).
 * Robust buffer access: an attribute whose bytes do not all lie inside
 * the binding's range (or an unbound binding) reads as an all-zero
 * texel, i.e. zero components with the format's defaults for absent
 * ones (w = 1 when the format has no alpha). Conversions are the format
 * table's decoders (hw/format), with a few layouts done directly.
 */
#include "hw/gfx/gfx_internal.h"

#include <string.h>

enum fetch_fast {
	FETCH_GENERIC = 0,
	FETCH_RAW32,              /* 32-bit channels copied as they are */
	FETCH_UNORM8,             /* R8..R8G8B8A8_UNORM */
};

bool
gfx_fetch_attrib_init(struct gfx_fetch_attrib *a, uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	if (!fi || !swgpu_format_vertex_fetchable(format))
		return false;
	a->fi = fi;
	a->bytes = fi->block_bytes;
	a->decode = format_decoder(fi);
	a->cls = fi->blit_class;
	a->fast = FETCH_GENERIC;
	uint32_t nch = 0;
	bool w32 = true, w8 = true;
	for (uint32_t c = 0; c < 4; c++) {
		if (!fi->bit_width[c])
			continue;
		if (fi->bit_offset[c] != nch * fi->bit_width[c])
			w32 = w8 = false;
		w32 &= fi->bit_width[c] == 32 && fi->bit_offset[c] == 32 * c;
		w8 &= fi->bit_width[c] == 8 && fi->bit_offset[c] == 8 * c;
		nch++;
	}
	/* Channels present must be R, G, B, A in order from bit 0. */
	for (uint32_t c = 0; c < nch; c++)
		if (!fi->bit_width[c])
			w32 = w8 = false;
	if (w32 && (fi->numeric == SWGPU_NUMERIC_SFLOAT ||
	            fi->numeric == SWGPU_NUMERIC_UINT ||
	            fi->numeric == SWGPU_NUMERIC_SINT))
		a->fast = FETCH_RAW32;
	else if (w8 && fi->numeric == SWGPU_NUMERIC_UNORM)
		a->fast = FETCH_UNORM8;
	return true;
}

/* Channel count of a fast-path format (channels are R.. in order). */
static uint32_t
channels(const swgpu_format_info *fi)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < 4; c++)
		n += fi->bit_width[c] != 0;
	return n;
}

static void
store_texel(struct gfx_fetch_attrib *a, const struct texel *t,
            uint32_t lane)
{
	for (uint32_t c = 0; c < 4; c++) {
		lane_t *r = a->reg[c];

		if (!r)
			continue;
		switch (a->cls) {
		case SWGPU_BLIT_CLASS_UINT:
			r[lane].u = (uint32_t)t->u[c];
			break;
		case SWGPU_BLIT_CLASS_SINT:
			r[lane].i = (int32_t)t->i[c];
			break;
		default:
			r[lane].f = (float)t->f[c];
			break;
		}
	}
}

void
gfx_fetch_vertex(const struct gfx_draw *d, struct gfx_fetch_attrib *attr,
                 uint32_t nattr, uint32_t vertex, uint32_t instance,
                 uint32_t lane)
{
	static const uint8_t zero[FORMAT_MAX_BLOCK_BYTES];

	for (uint32_t i = 0; i < nattr; i++) {
		struct gfx_fetch_attrib *a = &attr[i];
		const struct gfx_fetch_binding *b = &d->bind[a->binding];
		uint64_t elem;

		if (!b->per_instance)
			elem = vertex;
		else if (!b->divisor)
			elem = d->first_instance;
		else
			elem = d->first_instance +
			       (instance - d->first_instance) / b->divisor;
		uint64_t off;
		const uint8_t *src = zero;
		if (b->ptr &&
		    !__builtin_mul_overflow(elem, (uint64_t)b->stride, &off) &&
		    !__builtin_add_overflow(off, (uint64_t)a->offset, &off) &&
		    off < b->size && b->size - off >= a->bytes)
			src = b->ptr + off;

		if (a->fast == FETCH_RAW32) {
			uint32_t n = channels(a->fi);
			for (uint32_t c = 0; c < 4; c++) {
				lane_t *r = a->reg[c];
				if (!r)
					continue;
				if (c < n)
					memcpy(&r[lane].u, src + 4 * c, 4);
				else if (c < 3)
					r[lane].u = 0;
				else if (a->cls == SWGPU_BLIT_CLASS_FLOAT)
					r[lane].f = 1.0f;
				else
					r[lane].u = 1;
			}
			continue;
		}
		if (a->fast == FETCH_UNORM8) {
			uint32_t n = channels(a->fi);
			for (uint32_t c = 0; c < 4; c++) {
				lane_t *r = a->reg[c];
				if (!r)
					continue;
				r[lane].f = c < n ? (float)src[c] / 255.0f
				            : c < 3 ? 0.0f : 1.0f;
			}
			continue;
		}
		struct texel t;
		a->decode(a->fi, src, &t);
		store_texel(a, &t, lane);
	}
}
