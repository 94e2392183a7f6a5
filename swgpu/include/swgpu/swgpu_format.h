/* SPDX-License-Identifier: MIT */
/*
 * swgpu_format.h — texel formats the swgpu engines understand.
 *
 * Image packets that interpret texels (CLEAR_BOX, BLIT; see
 * swgpu_packet.h) name a surface's format with an enum swgpu_format.
 * Formats that are only moved as bytes (COPY_PITCHED: anything) need no
 * swgpu format at all. The BC formats are here because BLIT and the
 * sampler decode them (a 4x4 block at a time, format_bc.c).
 *
 * Bit layout: a texel block is read as one little-endian bit string;
 * channel c (R, G, B, A) occupies bits [bit_offset[c], bit_offset[c] +
 * bit_width[c]) of it (width 0: channel absent; decodes as 0 for R, G, B
 * and 1 for A). So R8G8B8A8 has R in bits 0..7 (byte 0), and the packed
 * formats follow their Vulkan names: R5G6B5_UNORM_PACK16 has R in bits
 * 11..15 of the 16-bit word. Names match VkFormat names without the
 * VK_FORMAT_ prefix (A8B8G8R8_*_PACK32 share R8G8B8A8's layout).
 *
 * Depth/stencil formats describe one aspect plane each: D16_UNORM (2 B),
 * X8_D24_UNORM (4 B, depth in bits 0..23, bits 24..31 written 0), D32_SFLOAT
 * (4 B) and S8_UINT (1 B). Their value lives in channel R.
 *
 * Numeric classes: values convert through a double (UNORM, SNORM,
 * USCALED, SSCALED, UFLOAT, SFLOAT, SRGB, SHAREDEXP, depth) or a 64-bit
 * integer (UINT, SINT, stencil) intermediate. Blits go between formats of
 * the same blit class only.
 */
#ifndef SWGPU_FORMAT_H
#define SWGPU_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

/* Values are part of the packet ABI: never renumber, only append. */
typedef enum swgpu_format {
	SWGPU_FORMAT_UNDEFINED = 0,

	/* 8-bit blocks */
	SWGPU_FORMAT_R4G4_UNORM_PACK8 = 1,
	SWGPU_FORMAT_R8_UNORM = 2,
	SWGPU_FORMAT_R8_SNORM = 3,
	SWGPU_FORMAT_R8_USCALED = 4,
	SWGPU_FORMAT_R8_SSCALED = 5,
	SWGPU_FORMAT_R8_UINT = 6,
	SWGPU_FORMAT_R8_SINT = 7,
	SWGPU_FORMAT_R8_SRGB = 8,
	SWGPU_FORMAT_A8_UNORM = 9,

	/* 16-bit blocks */
	SWGPU_FORMAT_R4G4B4A4_UNORM_PACK16 = 16,
	SWGPU_FORMAT_B4G4R4A4_UNORM_PACK16 = 17,
	SWGPU_FORMAT_A4R4G4B4_UNORM_PACK16 = 18,
	SWGPU_FORMAT_A4B4G4R4_UNORM_PACK16 = 19,
	SWGPU_FORMAT_R5G6B5_UNORM_PACK16 = 20,
	SWGPU_FORMAT_B5G6R5_UNORM_PACK16 = 21,
	SWGPU_FORMAT_R5G5B5A1_UNORM_PACK16 = 22,
	SWGPU_FORMAT_B5G5R5A1_UNORM_PACK16 = 23,
	SWGPU_FORMAT_A1R5G5B5_UNORM_PACK16 = 24,
	SWGPU_FORMAT_A1B5G5R5_UNORM_PACK16 = 25,
	SWGPU_FORMAT_R8G8_UNORM = 26,
	SWGPU_FORMAT_R8G8_SNORM = 27,
	SWGPU_FORMAT_R8G8_USCALED = 28,
	SWGPU_FORMAT_R8G8_SSCALED = 29,
	SWGPU_FORMAT_R8G8_UINT = 30,
	SWGPU_FORMAT_R8G8_SINT = 31,
	SWGPU_FORMAT_R8G8_SRGB = 32,
	SWGPU_FORMAT_R16_UNORM = 33,
	SWGPU_FORMAT_R16_SNORM = 34,
	SWGPU_FORMAT_R16_USCALED = 35,
	SWGPU_FORMAT_R16_SSCALED = 36,
	SWGPU_FORMAT_R16_UINT = 37,
	SWGPU_FORMAT_R16_SINT = 38,
	SWGPU_FORMAT_R16_SFLOAT = 39,

	/* 24-bit blocks */
	SWGPU_FORMAT_R8G8B8_UNORM = 48,
	SWGPU_FORMAT_R8G8B8_SNORM = 49,
	SWGPU_FORMAT_R8G8B8_USCALED = 50,
	SWGPU_FORMAT_R8G8B8_SSCALED = 51,
	SWGPU_FORMAT_R8G8B8_UINT = 52,
	SWGPU_FORMAT_R8G8B8_SINT = 53,
	SWGPU_FORMAT_R8G8B8_SRGB = 54,
	SWGPU_FORMAT_B8G8R8_UNORM = 55,
	SWGPU_FORMAT_B8G8R8_SNORM = 56,
	SWGPU_FORMAT_B8G8R8_USCALED = 57,
	SWGPU_FORMAT_B8G8R8_SSCALED = 58,
	SWGPU_FORMAT_B8G8R8_UINT = 59,
	SWGPU_FORMAT_B8G8R8_SINT = 60,
	SWGPU_FORMAT_B8G8R8_SRGB = 61,

	/* 32-bit blocks */
	SWGPU_FORMAT_R8G8B8A8_UNORM = 64,
	SWGPU_FORMAT_R8G8B8A8_SNORM = 65,
	SWGPU_FORMAT_R8G8B8A8_USCALED = 66,
	SWGPU_FORMAT_R8G8B8A8_SSCALED = 67,
	SWGPU_FORMAT_R8G8B8A8_UINT = 68,
	SWGPU_FORMAT_R8G8B8A8_SINT = 69,
	SWGPU_FORMAT_R8G8B8A8_SRGB = 70,
	SWGPU_FORMAT_B8G8R8A8_UNORM = 71,
	SWGPU_FORMAT_B8G8R8A8_SNORM = 72,
	SWGPU_FORMAT_B8G8R8A8_USCALED = 73,
	SWGPU_FORMAT_B8G8R8A8_SSCALED = 74,
	SWGPU_FORMAT_B8G8R8A8_UINT = 75,
	SWGPU_FORMAT_B8G8R8A8_SINT = 76,
	SWGPU_FORMAT_B8G8R8A8_SRGB = 77,
	SWGPU_FORMAT_A2R10G10B10_UNORM_PACK32 = 78,
	SWGPU_FORMAT_A2R10G10B10_SNORM_PACK32 = 79,
	SWGPU_FORMAT_A2R10G10B10_USCALED_PACK32 = 80,
	SWGPU_FORMAT_A2R10G10B10_SSCALED_PACK32 = 81,
	SWGPU_FORMAT_A2R10G10B10_UINT_PACK32 = 82,
	SWGPU_FORMAT_A2R10G10B10_SINT_PACK32 = 83,
	SWGPU_FORMAT_A2B10G10R10_UNORM_PACK32 = 84,
	SWGPU_FORMAT_A2B10G10R10_SNORM_PACK32 = 85,
	SWGPU_FORMAT_A2B10G10R10_USCALED_PACK32 = 86,
	SWGPU_FORMAT_A2B10G10R10_SSCALED_PACK32 = 87,
	SWGPU_FORMAT_A2B10G10R10_UINT_PACK32 = 88,
	SWGPU_FORMAT_A2B10G10R10_SINT_PACK32 = 89,
	SWGPU_FORMAT_R16G16_UNORM = 90,
	SWGPU_FORMAT_R16G16_SNORM = 91,
	SWGPU_FORMAT_R16G16_USCALED = 92,
	SWGPU_FORMAT_R16G16_SSCALED = 93,
	SWGPU_FORMAT_R16G16_UINT = 94,
	SWGPU_FORMAT_R16G16_SINT = 95,
	SWGPU_FORMAT_R16G16_SFLOAT = 96,
	SWGPU_FORMAT_R32_UINT = 97,
	SWGPU_FORMAT_R32_SINT = 98,
	SWGPU_FORMAT_R32_SFLOAT = 99,
	SWGPU_FORMAT_B10G11R11_UFLOAT_PACK32 = 100,
	SWGPU_FORMAT_E5B9G9R9_UFLOAT_PACK32 = 101,

	/* 48-bit blocks */
	SWGPU_FORMAT_R16G16B16_UNORM = 112,
	SWGPU_FORMAT_R16G16B16_SNORM = 113,
	SWGPU_FORMAT_R16G16B16_USCALED = 114,
	SWGPU_FORMAT_R16G16B16_SSCALED = 115,
	SWGPU_FORMAT_R16G16B16_UINT = 116,
	SWGPU_FORMAT_R16G16B16_SINT = 117,
	SWGPU_FORMAT_R16G16B16_SFLOAT = 118,

	/* 64-bit blocks */
	SWGPU_FORMAT_R16G16B16A16_UNORM = 128,
	SWGPU_FORMAT_R16G16B16A16_SNORM = 129,
	SWGPU_FORMAT_R16G16B16A16_USCALED = 130,
	SWGPU_FORMAT_R16G16B16A16_SSCALED = 131,
	SWGPU_FORMAT_R16G16B16A16_UINT = 132,
	SWGPU_FORMAT_R16G16B16A16_SINT = 133,
	SWGPU_FORMAT_R16G16B16A16_SFLOAT = 134,
	SWGPU_FORMAT_R32G32_UINT = 135,
	SWGPU_FORMAT_R32G32_SINT = 136,
	SWGPU_FORMAT_R32G32_SFLOAT = 137,
	SWGPU_FORMAT_R64_UINT = 138,
	SWGPU_FORMAT_R64_SINT = 139,
	SWGPU_FORMAT_R64_SFLOAT = 140,

	/* 96-bit blocks */
	SWGPU_FORMAT_R32G32B32_UINT = 144,
	SWGPU_FORMAT_R32G32B32_SINT = 145,
	SWGPU_FORMAT_R32G32B32_SFLOAT = 146,

	/* 128-bit blocks */
	SWGPU_FORMAT_R32G32B32A32_UINT = 160,
	SWGPU_FORMAT_R32G32B32A32_SINT = 161,
	SWGPU_FORMAT_R32G32B32A32_SFLOAT = 162,
	SWGPU_FORMAT_R64G64_UINT = 163,
	SWGPU_FORMAT_R64G64_SINT = 164,
	SWGPU_FORMAT_R64G64_SFLOAT = 165,

	/* 192- and 256-bit blocks */
	SWGPU_FORMAT_R64G64B64_UINT = 176,
	SWGPU_FORMAT_R64G64B64_SINT = 177,
	SWGPU_FORMAT_R64G64B64_SFLOAT = 178,
	SWGPU_FORMAT_R64G64B64A64_UINT = 179,
	SWGPU_FORMAT_R64G64B64A64_SINT = 180,
	SWGPU_FORMAT_R64G64B64A64_SFLOAT = 181,

	/* Depth / stencil aspect planes */
	SWGPU_FORMAT_D16_UNORM = 192,
	SWGPU_FORMAT_X8_D24_UNORM = 193,
	SWGPU_FORMAT_D32_SFLOAT = 194,
	SWGPU_FORMAT_S8_UINT = 195,

	/* Block-compressed (4x4 texel blocks; BLIT source and sampled
	 * images only: decoded, never encoded) */
	SWGPU_FORMAT_BC1_RGB_UNORM = 208,
	SWGPU_FORMAT_BC1_RGB_SRGB = 209,
	SWGPU_FORMAT_BC1_RGBA_UNORM = 210,
	SWGPU_FORMAT_BC1_RGBA_SRGB = 211,
	SWGPU_FORMAT_BC2_UNORM = 212,
	SWGPU_FORMAT_BC2_SRGB = 213,
	SWGPU_FORMAT_BC3_UNORM = 214,
	SWGPU_FORMAT_BC3_SRGB = 215,
	SWGPU_FORMAT_BC4_UNORM = 216,
	SWGPU_FORMAT_BC4_SNORM = 217,
	SWGPU_FORMAT_BC5_UNORM = 218,
	SWGPU_FORMAT_BC5_SNORM = 219,
	SWGPU_FORMAT_BC6H_UFLOAT = 220,
	SWGPU_FORMAT_BC6H_SFLOAT = 221,
	SWGPU_FORMAT_BC7_UNORM = 222,
	SWGPU_FORMAT_BC7_SRGB = 223,

	SWGPU_FORMAT_COUNT = 224        /* table size, not a format */
} swgpu_format;

typedef enum swgpu_numeric {
	SWGPU_NUMERIC_NONE = 0,
	SWGPU_NUMERIC_UNORM,
	SWGPU_NUMERIC_SNORM,
	SWGPU_NUMERIC_USCALED,
	SWGPU_NUMERIC_SSCALED,
	SWGPU_NUMERIC_UINT,
	SWGPU_NUMERIC_SINT,
	SWGPU_NUMERIC_UFLOAT,       /* unsigned 10/11-bit floats */
	SWGPU_NUMERIC_SFLOAT,       /* IEEE half, single, double */
	SWGPU_NUMERIC_SRGB,         /* R, G, B sRGB-encoded, A UNORM */
	SWGPU_NUMERIC_SHAREDEXP,    /* E5B9G9R9 */
} swgpu_numeric;

/* What a blit may convert between: same class only. */
typedef enum swgpu_blit_class {
	SWGPU_BLIT_CLASS_NONE = 0,  /* not blittable */
	SWGPU_BLIT_CLASS_FLOAT,     /* colour through a double */
	SWGPU_BLIT_CLASS_UINT,
	SWGPU_BLIT_CLASS_SINT,
	SWGPU_BLIT_CLASS_DEPTH,     /* same format only, nearest only */
	SWGPU_BLIT_CLASS_STENCIL,   /* same format only, nearest only */
} swgpu_blit_class;

/* swgpu_format_info.caps */
#define SWGPU_FORMAT_CAP_DECODE  (1u << 0)  /* texel -> value exists */
#define SWGPU_FORMAT_CAP_ENCODE  (1u << 1)  /* value -> texel (CLEAR_BOX) */
#define SWGPU_FORMAT_CAP_BLIT    (1u << 2)  /* BLIT src and dst */
#define SWGPU_FORMAT_CAP_DEPTH   (1u << 3)
#define SWGPU_FORMAT_CAP_STENCIL (1u << 4)
#define SWGPU_FORMAT_CAP_PACKED  (1u << 5)  /* channels share a word */
#define SWGPU_FORMAT_CAP_FILTER_LINEAR (1u << 6) /* BLIT with LINEAR */
/* Block-compressed: decoded per texel from its block (BLIT source,
 * sampled images); no ENCODE, so never a BLIT destination or cleared. */
#define SWGPU_FORMAT_CAP_COMPRESSED (1u << 7)

typedef struct swgpu_format_info {
	const char *name;           /* "R8G8B8A8_UNORM" */
	uint32_t block_bytes;
	uint32_t block_width;       /* texels per block: 4x4x1 for the */
	uint32_t block_height;      /* compressed formats, 1x1x1 for the */
	uint32_t block_depth;       /* others */
	uint32_t numeric;           /* enum swgpu_numeric */
	uint32_t blit_class;        /* enum swgpu_blit_class */
	uint32_t caps;              /* SWGPU_FORMAT_CAP_* */
	uint8_t bit_offset[4];      /* R, G, B, A (see the top comment) */
	uint8_t bit_width[4];
} swgpu_format_info;

/* The description of format, or NULL if it is not a known swgpu format. */
const swgpu_format_info *swgpu_format_get_info(uint32_t format);

/* True if format can be a BLIT source and destination (and is clearable). */
bool swgpu_format_blittable(uint32_t format);

/* True if format can be a BLIT source: the blittable formats and the
 * compressed ones. */
bool swgpu_format_blit_source(uint32_t format);

/* True if storage image and texel buffer descriptors may have this format:
 * decoded and encoded, channels of at most 32 bits, a float or integer
 * value (what the shader engine's image instructions convert). */
bool swgpu_format_shader_storage(uint32_t format);

/* True if sampled image descriptors may have this format: decoded,
 * channels of at most 32 bits (colour, depth or stencil) or a compressed
 * colour format; what IR_IMGSAMPLE filters. */
bool swgpu_format_shader_sampled(uint32_t format);

/* True if CLEAR_BOX accepts format. */
bool swgpu_format_clearable(uint32_t format);

/* enum swgpu_blit_class of format (NONE for unknown formats). */
uint32_t swgpu_format_blit_class(uint32_t format);

/*
 * Graphics (swgpu_packet.h, "Graphics packets"): what the graphics
 * engine really renders, blends and fetches, so a front end can report
 * format features truthfully.
 *
 * Colour attachments: decoded and encoded, one texel per block,
 * channels of at most 32 bits, UNORM, SNORM, UINT, SINT, SFLOAT, SRGB
 * (encoded on write, decoded for blending) or UFLOAT. Blending (and the
 * blend constants) on the float ones of those; logic ops on UNORM,
 * SNORM, UINT and SINT ones.
 */
bool swgpu_format_color_renderable(uint32_t format);
bool swgpu_format_blendable(uint32_t format);
/* Depth attachment planes: D16_UNORM, X8_D24_UNORM, D32_SFLOAT. */
bool swgpu_format_depth_renderable(uint32_t format);
/* Stencil attachment planes: S8_UINT. */
bool swgpu_format_stencil_renderable(uint32_t format);
/* Vertex attributes (swgpu_vertex_attrib.format): decoded, not
 * compressed, depth or stencil, channels of at most 32 bits, not sRGB
 * or shared-exponent. */
bool swgpu_format_vertex_fetchable(uint32_t format);

#endif /* SWGPU_FORMAT_H */
