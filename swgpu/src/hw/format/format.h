/* SPDX-License-Identifier: MIT */
/*
 * Texel decode/encode (internal): the conversions CLEAR_BOX and BLIT use.
 *
 * A texel value is four channels R, G, B, A in one of three domains,
 * chosen by the format's blit class: doubles (FLOAT and DEPTH classes:
 * normalized, scaled, float, sRGB already linearized), uint64 (UINT,
 * STENCIL) or int64 (SINT). Conversions follow the Vulkan spec's rules
 * ("Fixed-Point Data Conversions", "Floating Point Formats", "sRGB
 * transfer functions", "Shared Exponent"): float to normalized rounds to
 * nearest even after clamping, NaN becomes 0; float to half/11/10-bit
 * float rounds to nearest even with denormals, Inf and NaN kept; integer
 * encodes clamp to the channel's range.
 */
#ifndef SWGPU_FORMAT_INTERNAL_H
#define SWGPU_FORMAT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu_format.h>

/* Largest block any swgpu format has (R64G64B64A64). */
#define FORMAT_MAX_BLOCK_BYTES 32u

struct texel {
	union {
		double f[4];
		uint64_t u[4];
		int64_t i[4];
	};
};

/* Decode one block at src (fi->block_bytes readable bytes) into t in the
 * format's domain; absent channels read as 0, 0, 0, 1. */
void format_decode(const swgpu_format_info *fi, const uint8_t *src,
                   struct texel *t);

/* Encode t (in the format's domain) into fi->block_bytes bytes at dst.
 * Bits of the block no channel covers are written 0. */
void format_encode(const swgpu_format_info *fi, const struct texel *t,
                   uint8_t *dst);

/* The fastest codec for fi: a specialised one for the common layouts
 * (byte channels of UNORM/sRGB, 32-bit float channels), computing
 * exactly what format_decode/format_encode compute, else those. Chosen
 * once per packet by the blit. */
typedef void (*format_decode_fn)(const swgpu_format_info *fi,
                                 const uint8_t *src, struct texel *t);
typedef void (*format_encode_fn)(const swgpu_format_info *fi,
                                 const struct texel *t, uint8_t *dst);
format_decode_fn format_decoder(const swgpu_format_info *fi);
format_encode_fn format_encoder(const swgpu_format_info *fi);

/* Formats whose channels are whole bytes decoded by table (the 8-bit
 * UNORM and sRGB layouts format_decoder specialises): per channel c the
 * byte of the texel holding it (byte[c]) and tab[c][value], the float
 * of what format_decoder's function gives (a channel the format lacks:
 * a table of its constant, byte[c] 0). False for any other format. */
bool format_byte_tables(const swgpu_format_info *fi, const float *tab[4],
                        uint8_t byte[4]);

/* The enum swgpu_format of a swgpu_format_get_info() result. */
uint32_t format_id(const swgpu_format_info *fi);

/* Texel (x, y) of the compressed block at src (fi->block_bytes bytes;
 * fi has SWGPU_FORMAT_CAP_COMPRESSED; x, y taken modulo the 4x4 block)
 * into t, in the float domain (format_bc.c). */
void format_decode_compressed(const swgpu_format_info *fi,
                              const uint8_t *src, uint32_t x, uint32_t y,
                              struct texel *t);

/* Texel (x, y) whose data is at src: the texel itself (decode, fi's
 * format_decoder()) or, for a compressed format, the block holding it.
 * (BLIT's inner loop branches itself: it also picks the address.) */
static inline void
format_decode_at(const swgpu_format_info *fi, format_decode_fn decode,
                 const uint8_t *src, uint32_t x, uint32_t y, struct texel *t)
{
	if (fi->caps & SWGPU_FORMAT_CAP_COMPRESSED)
		format_decode_compressed(fi, src, x, y, t);
	else
		decode(fi, src, t);
}

/* The CLEAR_BOX value dwords as a texel in fi's domain. */
void format_clear_value(const swgpu_format_info *fi, const uint32_t v[4],
                        struct texel *t);

/* Scalar conversions, exported for the tests. */
double format_half_to_double(uint16_t h);
uint16_t format_double_to_half(double v);
double format_srgb_to_linear(double c);
double format_linear_to_srgb(double l);

#endif
