/* SPDX-License-Identifier: MIT */
/*
 * The swgpu format table and its public queries (swgpu_format.h).
 *
 * Every format is described by data only: bytes, numeric class, blit
 * class and where each channel's bits sit in the little-endian block.
 * format.c's one decoder and one encoder read these descriptions.
 */
#include "hw/format/format.h"

#include <stddef.h>

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

#define CAPS_ALL (SWGPU_FORMAT_CAP_DECODE | SWGPU_FORMAT_CAP_ENCODE | \
                  SWGPU_FORMAT_CAP_BLIT)
#define PK SWGPU_FORMAT_CAP_PACKED

/* One entry; the layout (bit_offset/bit_width initializers) comes last. */
#define E(fmt, bytes, num, cls, extra, ...) \
	[SWGPU_FORMAT_##fmt] = { .name = #fmt, .block_bytes = bytes, \
		.block_width = 1, .block_height = 1, .block_depth = 1, \
		.numeric = SWGPU_NUMERIC_##num, \
		.blit_class = SWGPU_BLIT_CLASS_##cls, \
		.caps = CAPS_ALL | (extra) | \
		        (SWGPU_BLIT_CLASS_##cls == SWGPU_BLIT_CLASS_FLOAT ? \
		         SWGPU_FORMAT_CAP_FILTER_LINEAR : 0), __VA_ARGS__ }

#define L(o0, w0, o1, w1, o2, w2, o3, w3) \
	.bit_offset = { o0, o1, o2, o3 }, .bit_width = { w0, w1, w2, w3 }

/* Byte-array layouts with n channels of b bits in R, G, B, A order, and
 * the BGR(A) swizzles. */
#define L1(b) L(0, b, 0, 0, 0, 0, 0, 0)
#define L2(b) L(0, b, b, b, 0, 0, 0, 0)
#define L3(b) L(0, b, b, b, 2 * (b), b, 0, 0)
#define L4(b) L(0, b, b, b, 2 * (b), b, 3 * (b), b)
#define L3_BGR L(16, 8, 8, 8, 0, 8, 0, 0)
#define L4_BGRA L(16, 8, 8, 8, 0, 8, 24, 8)

/* The 8-bit numeric family: UNORM SNORM USCALED SSCALED UINT SINT SRGB. */
#define G8(p, bytes, ...) \
	E(p##_UNORM, bytes, UNORM, FLOAT, 0, __VA_ARGS__), \
	E(p##_SNORM, bytes, SNORM, FLOAT, 0, __VA_ARGS__), \
	E(p##_USCALED, bytes, USCALED, FLOAT, 0, __VA_ARGS__), \
	E(p##_SSCALED, bytes, SSCALED, FLOAT, 0, __VA_ARGS__), \
	E(p##_UINT, bytes, UINT, UINT, 0, __VA_ARGS__), \
	E(p##_SINT, bytes, SINT, SINT, 0, __VA_ARGS__), \
	E(p##_SRGB, bytes, SRGB, FLOAT, 0, __VA_ARGS__)
/* The 16-bit family: SRGB replaced by SFLOAT. */
#define G16(p, bytes, ...) \
	E(p##_UNORM, bytes, UNORM, FLOAT, 0, __VA_ARGS__), \
	E(p##_SNORM, bytes, SNORM, FLOAT, 0, __VA_ARGS__), \
	E(p##_USCALED, bytes, USCALED, FLOAT, 0, __VA_ARGS__), \
	E(p##_SSCALED, bytes, SSCALED, FLOAT, 0, __VA_ARGS__), \
	E(p##_UINT, bytes, UINT, UINT, 0, __VA_ARGS__), \
	E(p##_SINT, bytes, SINT, SINT, 0, __VA_ARGS__), \
	E(p##_SFLOAT, bytes, SFLOAT, FLOAT, 0, __VA_ARGS__)
/* 10:10:10:2 packed family. */
#define G10(p, ...) \
	E(p##_UNORM_PACK32, 4, UNORM, FLOAT, PK, __VA_ARGS__), \
	E(p##_SNORM_PACK32, 4, SNORM, FLOAT, PK, __VA_ARGS__), \
	E(p##_USCALED_PACK32, 4, USCALED, FLOAT, PK, __VA_ARGS__), \
	E(p##_SSCALED_PACK32, 4, SSCALED, FLOAT, PK, __VA_ARGS__), \
	E(p##_UINT_PACK32, 4, UINT, UINT, PK, __VA_ARGS__), \
	E(p##_SINT_PACK32, 4, SINT, SINT, PK, __VA_ARGS__)
/* 32- and 64-bit component family: UINT SINT SFLOAT. */
#define GW(p, bytes, ...) \
	E(p##_UINT, bytes, UINT, UINT, 0, __VA_ARGS__), \
	E(p##_SINT, bytes, SINT, SINT, 0, __VA_ARGS__), \
	E(p##_SFLOAT, bytes, SFLOAT, FLOAT, 0, __VA_ARGS__)

/* A block-compressed format: 4x4 texels per block, decoded by
 * format_bc.c into the float domain; no channel layout. */
#define BC(fmt, bytes, num) \
	[SWGPU_FORMAT_##fmt] = { .name = #fmt, .block_bytes = bytes, \
		.block_width = 4, .block_height = 4, .block_depth = 1, \
		.numeric = SWGPU_NUMERIC_##num, \
		.blit_class = SWGPU_BLIT_CLASS_FLOAT, \
		.caps = SWGPU_FORMAT_CAP_DECODE | SWGPU_FORMAT_CAP_COMPRESSED | \
		        SWGPU_FORMAT_CAP_FILTER_LINEAR }

static const swgpu_format_info format_table[SWGPU_FORMAT_COUNT] = {
	E(R4G4_UNORM_PACK8, 1, UNORM, FLOAT, PK, L(4, 4, 0, 4, 0, 0, 0, 0)),
	G8(R8, 1, L1(8)),
	E(A8_UNORM, 1, UNORM, FLOAT, 0, L(0, 0, 0, 0, 0, 0, 0, 8)),

	E(R4G4B4A4_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(12, 4, 8, 4, 4, 4, 0, 4)),
	E(B4G4R4A4_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(4, 4, 8, 4, 12, 4, 0, 4)),
	E(A4R4G4B4_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(8, 4, 4, 4, 0, 4, 12, 4)),
	E(A4B4G4R4_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(0, 4, 4, 4, 8, 4, 12, 4)),
	E(R5G6B5_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(11, 5, 5, 6, 0, 5, 0, 0)),
	E(B5G6R5_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(0, 5, 5, 6, 11, 5, 0, 0)),
	E(R5G5B5A1_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(11, 5, 6, 5, 1, 5, 0, 1)),
	E(B5G5R5A1_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(1, 5, 6, 5, 11, 5, 0, 1)),
	E(A1R5G5B5_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(10, 5, 5, 5, 0, 5, 15, 1)),
	E(A1B5G5R5_UNORM_PACK16, 2, UNORM, FLOAT, PK,
	  L(0, 5, 5, 5, 10, 5, 15, 1)),
	G8(R8G8, 2, L2(8)),
	G16(R16, 2, L1(16)),

	G8(R8G8B8, 3, L3(8)),
	G8(B8G8R8, 3, L3_BGR),

	G8(R8G8B8A8, 4, L4(8)),
	G8(B8G8R8A8, 4, L4_BGRA),
	G10(A2R10G10B10, L(20, 10, 10, 10, 0, 10, 30, 2)),
	G10(A2B10G10R10, L(0, 10, 10, 10, 20, 10, 30, 2)),
	G16(R16G16, 4, L2(16)),
	GW(R32, 4, L1(32)),
	E(B10G11R11_UFLOAT_PACK32, 4, UFLOAT, FLOAT, PK,
	  L(0, 11, 11, 11, 22, 10, 0, 0)),
	E(E5B9G9R9_UFLOAT_PACK32, 4, SHAREDEXP, FLOAT, PK,
	  L(0, 9, 9, 9, 18, 9, 0, 0)),

	G16(R16G16B16, 6, L3(16)),
	G16(R16G16B16A16, 8, L4(16)),
	GW(R32G32, 8, L2(32)),
	GW(R64, 8, L1(64)),
	GW(R32G32B32, 12, L3(32)),
	GW(R32G32B32A32, 16, L4(32)),
	GW(R64G64, 16, L2(64)),
	GW(R64G64B64, 24, L3(64)),
	GW(R64G64B64A64, 32, L4(64)),

	E(D16_UNORM, 2, UNORM, DEPTH, SWGPU_FORMAT_CAP_DEPTH, L1(16)),
	E(X8_D24_UNORM, 4, UNORM, DEPTH, SWGPU_FORMAT_CAP_DEPTH, L1(24)),
	E(D32_SFLOAT, 4, SFLOAT, DEPTH, SWGPU_FORMAT_CAP_DEPTH, L1(32)),
	E(S8_UINT, 1, UINT, STENCIL, SWGPU_FORMAT_CAP_STENCIL, L1(8)),

	BC(BC1_RGB_UNORM, 8, UNORM), BC(BC1_RGB_SRGB, 8, SRGB),
	BC(BC1_RGBA_UNORM, 8, UNORM), BC(BC1_RGBA_SRGB, 8, SRGB),
	BC(BC2_UNORM, 16, UNORM), BC(BC2_SRGB, 16, SRGB),
	BC(BC3_UNORM, 16, UNORM), BC(BC3_SRGB, 16, SRGB),
	BC(BC4_UNORM, 8, UNORM), BC(BC4_SNORM, 8, SNORM),
	BC(BC5_UNORM, 16, UNORM), BC(BC5_SNORM, 16, SNORM),
	BC(BC6H_UFLOAT, 16, UFLOAT), BC(BC6H_SFLOAT, 16, SFLOAT),
	BC(BC7_UNORM, 16, UNORM), BC(BC7_SRGB, 16, SRGB),
};

const swgpu_format_info *
swgpu_format_get_info(uint32_t format)
{
	if (format >= SWGPU_FORMAT_COUNT || !format_table[format].name)
		return NULL;
	return &format_table[format];
}

uint32_t
format_id(const swgpu_format_info *fi)
{
	return (uint32_t)(fi - format_table);
}

bool
swgpu_format_blittable(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	return fi && (fi->caps & SWGPU_FORMAT_CAP_BLIT);
}

bool
swgpu_format_blit_source(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	return fi && (fi->caps & (SWGPU_FORMAT_CAP_BLIT |
	                          SWGPU_FORMAT_CAP_COMPRESSED));
}

bool
swgpu_format_shader_storage(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);
	const uint32_t need = SWGPU_FORMAT_CAP_DECODE | SWGPU_FORMAT_CAP_ENCODE;

	if (!fi || (fi->caps & need) != need)
		return false;
	for (uint32_t c = 0; c < 4; c++)
		if (fi->bit_width[c] > 32)
			return false;
	return fi->blit_class == SWGPU_BLIT_CLASS_FLOAT ||
	       fi->blit_class == SWGPU_BLIT_CLASS_UINT ||
	       fi->blit_class == SWGPU_BLIT_CLASS_SINT;
}

bool
swgpu_format_shader_sampled(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	if (!fi || !(fi->caps & SWGPU_FORMAT_CAP_DECODE) ||
	    fi->blit_class == SWGPU_BLIT_CLASS_NONE)
		return false;
	if (fi->caps & SWGPU_FORMAT_CAP_COMPRESSED)
		return true;
	if (fi->block_width != 1 || fi->block_height != 1 ||
	    fi->block_depth != 1)
		return false;
	for (uint32_t c = 0; c < 4; c++)
		if (fi->bit_width[c] > 32)
			return false;
	return true;
}

bool
swgpu_format_clearable(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	return fi && (fi->caps & SWGPU_FORMAT_CAP_ENCODE);
}

uint32_t
swgpu_format_blit_class(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	return fi ? fi->blit_class : SWGPU_BLIT_CLASS_NONE;
}
