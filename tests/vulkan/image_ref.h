/* SPDX-License-Identifier: MIT */
/*
 * image_ref: host reference code for the image tests. Texel block sizes of
 * the formats the tests move, texel decode/encode for the formats they
 * blit and clear, sRGB and half-float conversion, and a vkCmdBlitImage
 * reference that follows the spec's texel-center sampling rules and
 * returns, per destination texel, the range of values a conforming
 * implementation may produce (coordinate precision of
 * subTexelPrecisionBits).
 *
 * No Vulkan calls here: only VkFormat/VkFilter names from the headers.
 */
#ifndef IMAGE_REF_H
#define IMAGE_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

enum ir_type {
	IR_OPAQUE,  /* copy-only: compressed blocks, packed floats */
	IR_UNORM,
	IR_SNORM,
	IR_UINT,
	IR_SINT,
	IR_SFLOAT,  /* 16, 32 or 64-bit components */
	IR_UFLOAT,  /* unsigned 10/11-bit floats (B10G11R11) */
	IR_SRGB,    /* UNORM codes, RGB channels sRGB-encoded */
};

/* One channel of a texel: bit offset and width inside the little-endian
 * texel word (width 0: channel absent). */
struct ir_channel {
	uint8_t off;
	uint8_t bits;
};

struct ir_format {
	VkFormat vk;
	const char *name;
	uint8_t bytes;       /* texel block bytes (color) */
	uint8_t bw, bh;      /* texel block extent */
	enum ir_type type;
	struct ir_channel ch[4]; /* R, G, B, A (decodable formats only) */
	/* Depth/stencil: bytes of each aspect in buffer memory (spec's
	 * packing rules), 0 if the aspect is absent. */
	uint8_t depth_bytes, stencil_bytes;
	enum ir_type depth_type; /* IR_UNORM or IR_SFLOAT */
	uint8_t depth_bits;      /* 16, 24 or 32 */
};

const struct ir_format *ir_format_get(VkFormat vk);
const struct ir_format *ir_format_by_index(unsigned i); /* NULL at end */
bool ir_format_is_ds(const struct ir_format *f);
bool ir_format_is_compressed(const struct ir_format *f);

/* The single-channel format of one aspect plane of a depth/stencil
 * format as it appears in buffer memory (for D24: 24 bits in a 32-bit
 * word), or f itself for COLOR. */
const struct ir_format *ir_aspect_format(const struct ir_format *f,
                                         VkImageAspectFlagBits aspect);

/* Bytes of a block in buffer memory for one aspect. */
uint32_t ir_aspect_bytes(const struct ir_format *f,
                         VkImageAspectFlagBits aspect);

/* Bytes of a block whose value is defined after a copy: D24 in 32 bits
 * leaves the top byte undefined. mask[i] = bits that must match for byte
 * i of the block. */
void ir_aspect_mask(const struct ir_format *f, VkImageAspectFlagBits aspect,
                    uint8_t mask[16]);

/* Decode/encode one texel of a decodable format. Values are doubles:
 * normalized formats in [0,1]/[-1,1], floats as is, integers as exact
 * integers. sRGB: decode returns linear values unless raw. Absent
 * channels decode as (0, 0, 0, 1). encode clamps normalized values,
 * rounds to nearest. */
void ir_decode(const struct ir_format *f, const uint8_t *texel, bool raw,
               double out[4]);
void ir_encode(const struct ir_format *f, const double in[4], uint8_t *texel);

/* One unit in the last place of channel c of f around value v (1 for
 * integer formats): the rounding error the spec allows a conversion to
 * this format. */
double ir_ulp(const struct ir_format *f, unsigned c, double v);

/* Clamp v to what channel c of f can represent (normalized ranges; none
 * for floats and integers). */
double ir_clamp(const struct ir_format *f, unsigned c, double v);

double ir_srgb_to_linear(double c);
double ir_linear_to_srgb(double l);
float ir_half_to_float(uint16_t h);
uint16_t ir_float_to_half(float f);

/* A tightly packed surface of texels: one 2D layer or a 3D volume. */
struct ir_surface {
	const struct ir_format *fmt;
	uint32_t w, h, d;
	const uint8_t *data;
};

/* vkCmdBlitImage reference for destination texel (x, y, z) inside the
 * destination region: the smallest and largest value per channel a
 * conforming implementation may produce before conversion to the
 * destination format, with the source coordinate anywhere within
 * +-2^-subtexel_bits texels of the exact one. src0/src1, dst0/dst1 are
 * the regions' corners (z = 0/1 for 2D). sRGB sources are decoded to
 * linear before filtering. LINEAR weights are exact; NEAREST picks any
 * texel the perturbed coordinate can reach. */
void ir_blit_range(const struct ir_surface *src, const int32_t src0[3],
                   const int32_t src1[3], const int32_t dst0[3],
                   const int32_t dst1[3], VkFilter filter,
                   unsigned subtexel_bits, int32_t x, int32_t y, int32_t z,
                   double lo[4], double hi[4]);

/* Deterministic random generator for test content. */
struct ir_rng {
	uint64_t s;
};

static inline uint32_t
ir_rand(struct ir_rng *r)
{
	/* splitmix64: tiny, deterministic, good enough for test data. */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 16);
}

/* Fill n bytes with random bytes, or, for a plane holding depth values,
 * with valid depth values (D32F in [0,1]; the spec leaves values outside
 * [0,1] undefined for copies to D32F without depth_range_unrestricted). */
void ir_fill_random(struct ir_rng *r, const struct ir_format *plane,
                    uint8_t *p, size_t n);

#endif /* IMAGE_REF_H */
