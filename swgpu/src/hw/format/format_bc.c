/* SPDX-License-Identifier: MIT */
/*
 * Decoding of the block-compressed BC formats (Vulkan's "Block-Compressed
 * Image Formats", defined by the Khronos Data Format Specification's
 * S3TC and RGTC chapters; BPTC, i.e. BC6H and BC7, is format_bptc.c).
 *
 * BLIT and the sampler read one texel at a time, so this decodes texel
 * (x, y) of a 4x4 block: the endpoints, the texel's index and the
 * palette entry it selects. Arithmetic is in doubles on the normalized
 * endpoint values, as the specification writes the interpolation (no
 * intermediate rounding to 8 bits); sRGB formats linearize R, G, B after
 * the interpolation.
 */
#include "hw/format/format.h"
#include "hw/format/format_bptc.h"

static inline uint16_t
le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint64_t
le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* BC1 colour block (8 bytes) at p, texel i (0..15): R, G, B into t->f[0..2]
 * and A into t->f[3]. four_colour: always interpolate 4 colours, as BC2
 * and BC3 do; else colour0 <= colour1 selects 3 colours and "transparent
 * black" (alpha 0 only where the format has alpha: rgba). */
static void
bc1_texel(const uint8_t *p, uint32_t i, bool four_colour, bool rgba,
          struct texel *t)
{
	const uint16_t c[2] = { le16(p), le16(p + 2) };
	const uint32_t idx = (uint32_t)(le64(p) >> (32 + 2 * i)) & 3;
	double e[2][3];

	for (int k = 0; k < 2; k++) {
		e[k][0] = (double)(c[k] >> 11) / 31.0;
		e[k][1] = (double)((c[k] >> 5) & 63) / 63.0;
		e[k][2] = (double)(c[k] & 31) / 31.0;
	}
	t->f[3] = 1.0;
	for (int ch = 0; ch < 3; ch++) {
		const double a = e[0][ch], b = e[1][ch];

		if (idx < 2)
			t->f[ch] = e[idx][ch];
		else if (four_colour || c[0] > c[1])
			t->f[ch] = idx == 2 ? (2.0 * a + b) / 3.0
			                    : (a + 2.0 * b) / 3.0;
		else
			t->f[ch] = idx == 2 ? (a + b) / 2.0 : 0.0;
	}
	if (rgba && !four_colour && c[0] <= c[1] && idx == 3)
		t->f[3] = 0.0;
}

/* One BC4 channel block (8 bytes; BC3's alpha, BC5's R and G), texel i. */
static double
bc4_channel(const uint8_t *p, uint32_t i, bool snorm)
{
	const uint32_t idx = (uint32_t)(le64(p) >> (16 + 3 * i)) & 7;
	double e0, e1;
	bool six;

	if (snorm) {
		const int8_t r0 = (int8_t)p[0], r1 = (int8_t)p[1];

		/* -128 is -1.0, like -127. */
		e0 = r0 < -127 ? -1.0 : r0 / 127.0;
		e1 = r1 < -127 ? -1.0 : r1 / 127.0;
		six = r0 > r1;
	} else {
		e0 = p[0] / 255.0;
		e1 = p[1] / 255.0;
		six = p[0] > p[1];
	}
	if (idx < 2)
		return idx ? e1 : e0;
	if (six)
		return ((8.0 - idx) * e0 + (idx - 1.0) * e1) / 7.0;
	if (idx == 6)
		return snorm ? -1.0 : 0.0;
	if (idx == 7)
		return 1.0;
	return ((6.0 - idx) * e0 + (idx - 1.0) * e1) / 5.0;
}

void
format_decode_compressed(const swgpu_format_info *fi, const uint8_t *src,
                         uint32_t x, uint32_t y, struct texel *t)
{
	const uint32_t i = (y & 3) * 4 + (x & 3);
	const bool snorm = fi->numeric == SWGPU_NUMERIC_SNORM;
	uint8_t rgba[4];
	uint16_t h[3];

	t->f[0] = t->f[1] = t->f[2] = 0.0;
	t->f[3] = 1.0;
	switch (format_id(fi)) {
	case SWGPU_FORMAT_BC1_RGB_UNORM:
	case SWGPU_FORMAT_BC1_RGB_SRGB:
		bc1_texel(src, i, false, false, t);
		break;
	case SWGPU_FORMAT_BC1_RGBA_UNORM:
	case SWGPU_FORMAT_BC1_RGBA_SRGB:
		bc1_texel(src, i, false, true, t);
		break;
	case SWGPU_FORMAT_BC2_UNORM:
	case SWGPU_FORMAT_BC2_SRGB:
		bc1_texel(src + 8, i, true, false, t);
		t->f[3] = (double)((le64(src) >> (4 * i)) & 15) / 15.0;
		break;
	case SWGPU_FORMAT_BC3_UNORM:
	case SWGPU_FORMAT_BC3_SRGB:
		bc1_texel(src + 8, i, true, false, t);
		t->f[3] = bc4_channel(src, i, false);
		break;
	case SWGPU_FORMAT_BC4_UNORM:
	case SWGPU_FORMAT_BC4_SNORM:
		t->f[0] = bc4_channel(src, i, snorm);
		break;
	case SWGPU_FORMAT_BC5_UNORM:
	case SWGPU_FORMAT_BC5_SNORM:
		t->f[0] = bc4_channel(src, i, snorm);
		t->f[1] = bc4_channel(src + 8, i, snorm);
		break;
	case SWGPU_FORMAT_BC6H_UFLOAT:
	case SWGPU_FORMAT_BC6H_SFLOAT:
		bptc_decode_bc6h(src, fi->numeric == SWGPU_NUMERIC_SFLOAT,
		                 x & 3, y & 3, h);
		for (int c = 0; c < 3; c++)
			t->f[c] = format_half_to_double(h[c]);
		break;
	case SWGPU_FORMAT_BC7_UNORM:
	case SWGPU_FORMAT_BC7_SRGB:
		bptc_decode_bc7(src, x & 3, y & 3, rgba);
		for (int c = 0; c < 4; c++)
			t->f[c] = rgba[c] / 255.0;
		break;
	default:
		/* Not a compressed format: callers check CAP_COMPRESSED. */
		return;
	}
	if (fi->numeric == SWGPU_NUMERIC_SRGB)
		for (int c = 0; c < 3; c++)
			t->f[c] = format_srgb_to_linear(t->f[c]);
}
