/* SPDX-License-Identifier: MIT */
/*
 * BPTC (BC6H, BC7) block decoding, per texel: the Khronos Data Format
 * Specification's "BPTC Compressed Texture Image Formats" chapter.
 * Reads exactly the 16 bytes of the block.
 */
#ifndef SWGPU_FORMAT_BPTC_H
#define SWGPU_FORMAT_BPTC_H

#include <stdbool.h>
#include <stdint.h>

/* BC7 (UNORM; sRGB decoding is the caller's job): texel (x, y), x,y in
 * 0..3, of the 16-byte block -> 8-bit R, G, B, A. Reserved mode (first
 * byte 0) decodes to 0,0,0,0 as the spec says. */
void bptc_decode_bc7(const uint8_t block[16], uint32_t x, uint32_t y,
                     uint8_t rgba[4]);

/* BC6H: texel (x, y) of the 16-byte block -> the three channel values as
 * IEEE half-float bit patterns (the spec's final unquantize/finish step
 * result). is_signed selects BC6H_SFLOAT vs BC6H_UFLOAT. Reserved/invalid
 * modes decode to 0 (all channels zero bits). */
void bptc_decode_bc6h(const uint8_t block[16], bool is_signed, uint32_t x,
                      uint32_t y, uint16_t rgb_half[3]);

#endif
