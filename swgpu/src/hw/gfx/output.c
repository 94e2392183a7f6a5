/* SPDX-License-Identifier: MIT */
/*
 * Colour output: one fragment's colour into a colour attachment, through
 * the format table's encoders (sRGB encoded on write; hw/format).
 *
 *  - integer targets take the shader's integers (clamped to the channel
 *    by the encoder), float targets its floats;
 *  - blending (float targets with blending on) reads the destination
 *    through the decoder (sRGB decoded to linear), blends in float
 *    (blend.c) and encodes the result; targets whose channels are all
 *    8-bit UNORM blend in 8-bit fixed point instead (blend_unorm8.c);
 *  - logic ops (UNORM, SNORM, UINT, SINT targets) combine the encoded
 *    source bits with the destination bits channel by channel; blending
 *    is then off for that target, as the spec says;
 *  - the colour write mask keeps the destination bits of masked-off
 *    channels exactly (merged at the bit level after encoding).
 * RGBA8 / BGRA8 UNORM and sRGB targets have a batch path for the usual
 * case (all channels written, no logic op) that computes the same bytes
 * (output8.c).
 */
#include "hw/gfx/gfx_internal.h"

#include <math.h>
#include <string.h>

static uint64_t
get_bits(const uint8_t *blk, uint32_t off, uint32_t width)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < width; i++) {
		uint32_t b = off + i;
		v |= (uint64_t)((blk[b >> 3] >> (b & 7)) & 1u) << i;
	}
	return v;
}

static void
put_bits(uint8_t *blk, uint32_t off, uint32_t width, uint64_t v)
{
	for (uint32_t i = 0; i < width; i++) {
		uint32_t b = off + i;
		uint8_t m = (uint8_t)(1u << (b & 7));
		if ((v >> i) & 1u)
			blk[b >> 3] |= m;
		else
			blk[b >> 3] &= (uint8_t)~m;
	}
}

static bool
is_fast(const struct gfx_color_target *rt)
{
	return rt->fast != GFX_FAST_NONE && rt->write_mask == 0xf &&
	       !rt->logic;
}

bool
gfx_output_unorm8(const struct gfx_color_target *rt)
{
	return is_fast(rt) && !rt->srgb;
}

void
gfx_output_target_init(struct gfx_color_target *rt)
{
	const swgpu_format_info *fi = rt->pl.fi;

	rt->cls = fi->blit_class;
	rt->numeric = fi->numeric;
	rt->present = 0;
	for (uint32_t c = 0; c < 4; c++)
		if (fi->bit_width[c])
			rt->present |= 1u << c;
	rt->srgb = fi->numeric == SWGPU_NUMERIC_SRGB;
	rt->blend8 = fi->numeric == SWGPU_NUMERIC_UNORM;
	for (uint32_t c = 0; c < 4; c++)
		if (fi->bit_width[c] && fi->bit_width[c] != 8)
			rt->blend8 = false;
	switch (fi->numeric) {
	case SWGPU_NUMERIC_UNORM:
	case SWGPU_NUMERIC_SRGB:
		rt->clamp_lo = 0.0f;
		rt->clamp_hi = 1.0f;
		break;
	case SWGPU_NUMERIC_SNORM:
		rt->clamp_lo = -1.0f;
		rt->clamp_hi = 1.0f;
		break;
	default:
		rt->clamp_lo = -INFINITY;
		rt->clamp_hi = INFINITY;
		break;
	}
	rt->fast = GFX_FAST_NONE;
	switch (format_id(fi)) {
	case SWGPU_FORMAT_R8G8B8A8_UNORM:
		rt->fast = GFX_FAST_RGBA8_UNORM;
		break;
	case SWGPU_FORMAT_B8G8R8A8_UNORM:
		rt->fast = GFX_FAST_BGRA8_UNORM;
		break;
	case SWGPU_FORMAT_R8G8B8A8_SRGB:
		rt->fast = GFX_FAST_RGBA8_SRGB;
		break;
	case SWGPU_FORMAT_B8G8R8A8_SRGB:
		rt->fast = GFX_FAST_BGRA8_SRGB;
		break;
	default:
		break;
	}
	rt->pl.decode = format_decoder(fi);
	rt->pl.encode = format_encoder(fi);
}

void
gfx_output_batch(const struct gfx_thread *t, const struct gfx_draw *d,
                 const struct gfx_color_target *rt, const uint8_t *qmask,
                 const lane_t *const src[4], const lane_t *const src1[4])
{
	if (is_fast(rt)) {
		gfx_output_batch8(t, d, rt, qmask, src, src1);
		return;
	}
	for (uint32_t q = 0; q < t->nquads_out; q++) {
		const struct gfx_quad *qd = &t->quad[q];
		for (uint32_t i = 0; i < 4; i++) {
			if (!(qmask[q] & (1u << i)))
				continue;
			const uint32_t l = 4 * q + i;
			lane_t s[4], s1[4];
			for (int c = 0; c < 4; c++) {
				s[c] = src[c][l];
				if (src1[0])
					s1[c] = src1[c][l];
			}
			gfx_output_pixel(d, rt, qd->x + (int32_t)(i & 1),
			                 qd->y + (int32_t)(i >> 1),
			                 qd->prim->layer * d->samples +
			                 t->out_sample, s,
			                 src1[0] ? s1 : NULL);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Any renderable format                                               */
/* ------------------------------------------------------------------ */

void
gfx_output_pixel(const struct gfx_draw *d, const struct gfx_color_target *rt,
                 int32_t x, int32_t y, uint32_t layer, const lane_t src[4],
                 const lane_t *src1)
{
	const swgpu_format_info *fi = rt->pl.fi;
	uint8_t *px = gfx_texel(&rt->pl, x, y, layer);
	struct texel t;
	uint8_t blk[16], old[16];

	if (rt->cls == SWGPU_BLIT_CLASS_FLOAT) {
		float s[4], s1[4] = { 0, 0, 0, 0 };
		for (int c = 0; c < 4; c++) {
			s[c] = src[c].f;
			if (src1)
				s1[c] = src1[c].f;
		}
		if (rt->blend && !rt->logic && rt->blend8) {
			struct texel dt;
			uint8_t dst[4], out[4];
			rt->pl.decode(fi, px, &dt);
			for (int c = 0; c < 4; c++)   /* exact: i / 255 */
				dst[c] = (uint8_t)lrint(dt.f[c] * 255.0);
			gfx_blend_unorm8(&rt->b, d->blend_const, s, s1, dst,
			                 out);
			/* encodes back to out exactly */
			for (int c = 0; c < 4; c++)
				s[c] = (float)out[c] / 255.0f;
		} else if (rt->blend && !rt->logic) {
			struct texel dt;
			float dst[4], out[4];
			rt->pl.decode(fi, px, &dt);
			for (int c = 0; c < 4; c++)
				dst[c] = (float)dt.f[c];
			gfx_blend(rt, d->blend_const, s, s1, dst, out);
			for (int c = 0; c < 4; c++)
				s[c] = out[c];
		}
		for (int c = 0; c < 4; c++)
			t.f[c] = s[c];
	} else if (rt->cls == SWGPU_BLIT_CLASS_UINT) {
		for (int c = 0; c < 4; c++)
			t.u[c] = src[c].u;
	} else {
		for (int c = 0; c < 4; c++)
			t.i[c] = src[c].i;
	}
	rt->pl.encode(fi, &t, blk);
	if (rt->write_mask == 0xf && !rt->logic) {
		memcpy(px, blk, fi->block_bytes);
		return;
	}
	memcpy(old, px, fi->block_bytes);
	for (uint32_t c = 0; c < 4; c++) {
		uint32_t w = fi->bit_width[c], o = fi->bit_offset[c];
		if (!w)
			continue;
		uint64_t dv = get_bits(old, o, w);
		uint64_t v = (rt->write_mask >> c) & 1u ? get_bits(blk, o, w)
		                                         : dv;
		if (rt->logic && ((rt->write_mask >> c) & 1u))
			v = gfx_logic_op(d->logic_op, v, dv);
		put_bits(old, o, w, v);
	}
	/* Bits no channel covers keep their old value. */
	memcpy(px, old, fi->block_bytes);
}
