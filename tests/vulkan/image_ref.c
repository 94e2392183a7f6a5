/* SPDX-License-Identifier: MIT */
/*
 * image_ref: host reference for the image tests (see image_ref.h).
 */
#include "image_ref.h"

#include <math.h>
#include <string.h>

#define CH(o, b) { (o), (b) }
#define NOCH { 0, 0 }
/* Decodable colour format: name, bytes, type, R, G, B, A. */
#define COL(f, n, t, r, g, b, a) \
	{ VK_FORMAT_##f, #f, n, 1, 1, IR_##t, { r, g, b, a }, 0, 0, 0, 0 }
/* Copy-only block: compressed or packed-float formats. */
#define OPQ(f, n, w, h) \
	{ VK_FORMAT_##f, #f, n, w, h, IR_OPAQUE, { NOCH, NOCH, NOCH, NOCH }, \
	  0, 0, 0, 0 }
/* Depth/stencil: depth bytes in buffer, stencil bytes, depth type, bits. */
#define DS(f, db, sb, t, bits) \
	{ VK_FORMAT_##f, #f, (db) ? (db) : (sb), 1, 1, IR_OPAQUE, \
	  { NOCH, NOCH, NOCH, NOCH }, db, sb, IR_##t, bits }

static const struct ir_format formats[] = {
	COL(R8_UNORM, 1, UNORM, CH(0, 8), NOCH, NOCH, NOCH),
	COL(R8_SNORM, 1, SNORM, CH(0, 8), NOCH, NOCH, NOCH),
	COL(R8_UINT, 1, UINT, CH(0, 8), NOCH, NOCH, NOCH),
	COL(R8_SINT, 1, SINT, CH(0, 8), NOCH, NOCH, NOCH),
	COL(R8G8_UNORM, 2, UNORM, CH(0, 8), CH(8, 8), NOCH, NOCH),
	COL(R5G6B5_UNORM_PACK16, 2, UNORM, CH(11, 5), CH(5, 6), CH(0, 5),
	    NOCH),
	COL(R16_UNORM, 2, UNORM, CH(0, 16), NOCH, NOCH, NOCH),
	COL(R16_SFLOAT, 2, SFLOAT, CH(0, 16), NOCH, NOCH, NOCH),
	COL(R16_UINT, 2, UINT, CH(0, 16), NOCH, NOCH, NOCH),
	COL(R16_SINT, 2, SINT, CH(0, 16), NOCH, NOCH, NOCH),
	COL(R8G8B8_UNORM, 3, UNORM, CH(0, 8), CH(8, 8), CH(16, 8), NOCH),
	COL(R8G8B8A8_UNORM, 4, UNORM, CH(0, 8), CH(8, 8), CH(16, 8),
	    CH(24, 8)),
	COL(R8G8B8A8_SNORM, 4, SNORM, CH(0, 8), CH(8, 8), CH(16, 8),
	    CH(24, 8)),
	COL(R8G8B8A8_UINT, 4, UINT, CH(0, 8), CH(8, 8), CH(16, 8),
	    CH(24, 8)),
	COL(R8G8B8A8_SINT, 4, SINT, CH(0, 8), CH(8, 8), CH(16, 8),
	    CH(24, 8)),
	COL(R8G8B8A8_SRGB, 4, SRGB, CH(0, 8), CH(8, 8), CH(16, 8),
	    CH(24, 8)),
	COL(B8G8R8A8_UNORM, 4, UNORM, CH(16, 8), CH(8, 8), CH(0, 8),
	    CH(24, 8)),
	COL(B8G8R8A8_SRGB, 4, SRGB, CH(16, 8), CH(8, 8), CH(0, 8),
	    CH(24, 8)),
	COL(A2B10G10R10_UNORM_PACK32, 4, UNORM, CH(0, 10), CH(10, 10),
	    CH(20, 10), CH(30, 2)),
	/* Packed and reordered variants (bit positions per the spec's
	 * format descriptions: the first component in the MSBs). */
	COL(R4G4_UNORM_PACK8, 1, UNORM, CH(4, 4), CH(0, 4), NOCH, NOCH),
	COL(R4G4B4A4_UNORM_PACK16, 2, UNORM, CH(12, 4), CH(8, 4), CH(4, 4),
	    CH(0, 4)),
	COL(B4G4R4A4_UNORM_PACK16, 2, UNORM, CH(4, 4), CH(8, 4), CH(12, 4),
	    CH(0, 4)),
	COL(B5G6R5_UNORM_PACK16, 2, UNORM, CH(0, 5), CH(5, 6), CH(11, 5),
	    NOCH),
	COL(R5G5B5A1_UNORM_PACK16, 2, UNORM, CH(11, 5), CH(6, 5), CH(1, 5),
	    CH(0, 1)),
	COL(B5G5R5A1_UNORM_PACK16, 2, UNORM, CH(1, 5), CH(6, 5), CH(11, 5),
	    CH(0, 1)),
	COL(A1R5G5B5_UNORM_PACK16, 2, UNORM, CH(10, 5), CH(5, 5), CH(0, 5),
	    CH(15, 1)),
	COL(R8G8_SNORM, 2, SNORM, CH(0, 8), CH(8, 8), NOCH, NOCH),
	COL(R8G8_UINT, 2, UINT, CH(0, 8), CH(8, 8), NOCH, NOCH),
	COL(A8B8G8R8_SRGB_PACK32, 4, SRGB, CH(0, 8), CH(8, 8), CH(16, 8),
	    CH(24, 8)),
	COL(A8B8G8R8_SINT_PACK32, 4, SINT, CH(0, 8), CH(8, 8), CH(16, 8),
	    CH(24, 8)),
	COL(B8G8R8A8_SNORM, 4, SNORM, CH(16, 8), CH(8, 8), CH(0, 8),
	    CH(24, 8)),
	COL(A2R10G10B10_UNORM_PACK32, 4, UNORM, CH(20, 10), CH(10, 10),
	    CH(0, 10), CH(30, 2)),
	COL(A2B10G10R10_SNORM_PACK32, 4, SNORM, CH(0, 10), CH(10, 10),
	    CH(20, 10), CH(30, 2)),
	COL(A2B10G10R10_UINT_PACK32, 4, UINT, CH(0, 10), CH(10, 10),
	    CH(20, 10), CH(30, 2)),
	COL(R16G16_SNORM, 4, SNORM, CH(0, 16), CH(16, 16), NOCH, NOCH),
	COL(R16G16_SINT, 4, SINT, CH(0, 16), CH(16, 16), NOCH, NOCH),
	COL(R32G32_SFLOAT, 8, SFLOAT, CH(0, 32), CH(32, 32), NOCH, NOCH),
	COL(R16G16B16A16_SNORM, 8, SNORM, CH(0, 16), CH(16, 16), CH(32, 16),
	    CH(48, 16)),
	COL(R32_SFLOAT, 4, SFLOAT, CH(0, 32), NOCH, NOCH, NOCH),
	COL(R32_UINT, 4, UINT, CH(0, 32), NOCH, NOCH, NOCH),
	COL(R32_SINT, 4, SINT, CH(0, 32), NOCH, NOCH, NOCH),
	COL(R16G16_SFLOAT, 4, SFLOAT, CH(0, 16), CH(16, 16), NOCH, NOCH),
	COL(B10G11R11_UFLOAT_PACK32, 4, UFLOAT, CH(0, 11), CH(11, 11),
	    CH(22, 10), NOCH),
	OPQ(E5B9G9R9_UFLOAT_PACK32, 4, 1, 1),
	COL(R16G16B16_SFLOAT, 6, SFLOAT, CH(0, 16), CH(16, 16), CH(32, 16),
	    NOCH),
	COL(R16G16B16A16_UNORM, 8, UNORM, CH(0, 16), CH(16, 16), CH(32, 16),
	    CH(48, 16)),
	COL(R16G16B16A16_SFLOAT, 8, SFLOAT, CH(0, 16), CH(16, 16),
	    CH(32, 16), CH(48, 16)),
	COL(R16G16B16A16_UINT, 8, UINT, CH(0, 16), CH(16, 16), CH(32, 16),
	    CH(48, 16)),
	COL(R32G32_UINT, 8, UINT, CH(0, 32), CH(32, 32), NOCH, NOCH),
	COL(R64_SFLOAT, 8, SFLOAT, CH(0, 64), NOCH, NOCH, NOCH),
	COL(R32G32B32_SFLOAT, 12, SFLOAT, CH(0, 32), CH(32, 32), CH(64, 32),
	    NOCH),
	COL(R32G32B32A32_SFLOAT, 16, SFLOAT, CH(0, 32), CH(32, 32),
	    CH(64, 32), CH(96, 32)),
	COL(R32G32B32A32_UINT, 16, UINT, CH(0, 32), CH(32, 32), CH(64, 32),
	    CH(96, 32)),
	COL(R32G32B32A32_SINT, 16, SINT, CH(0, 32), CH(32, 32), CH(64, 32),
	    CH(96, 32)),
	COL(R64G64_SFLOAT, 16, SFLOAT, CH(0, 64), CH(64, 64), NOCH, NOCH),
	OPQ(BC1_RGB_UNORM_BLOCK, 8, 4, 4),
	OPQ(BC1_RGBA_SRGB_BLOCK, 8, 4, 4),
	OPQ(BC2_UNORM_BLOCK, 16, 4, 4),
	OPQ(BC3_UNORM_BLOCK, 16, 4, 4),
	OPQ(BC4_UNORM_BLOCK, 8, 4, 4),
	OPQ(BC5_SNORM_BLOCK, 16, 4, 4),
	OPQ(BC6H_UFLOAT_BLOCK, 16, 4, 4),
	OPQ(BC7_UNORM_BLOCK, 16, 4, 4),
	OPQ(BC7_SRGB_BLOCK, 16, 4, 4),
	OPQ(ETC2_R8G8B8_UNORM_BLOCK, 8, 4, 4),
	OPQ(ETC2_R8G8B8A8_SRGB_BLOCK, 16, 4, 4),
	OPQ(EAC_R11_UNORM_BLOCK, 8, 4, 4),
	OPQ(EAC_R11G11_SNORM_BLOCK, 16, 4, 4),
	OPQ(ASTC_4x4_UNORM_BLOCK, 16, 4, 4),
	OPQ(ASTC_5x4_SRGB_BLOCK, 16, 5, 4),
	OPQ(ASTC_8x8_UNORM_BLOCK, 16, 8, 8),
	OPQ(ASTC_12x12_SRGB_BLOCK, 16, 12, 12),
	DS(D16_UNORM, 2, 0, UNORM, 16),
	DS(X8_D24_UNORM_PACK32, 4, 0, UNORM, 24),
	DS(D32_SFLOAT, 4, 0, SFLOAT, 32),
	DS(S8_UINT, 0, 1, UNORM, 0),
	DS(D16_UNORM_S8_UINT, 2, 1, UNORM, 16),
	DS(D24_UNORM_S8_UINT, 4, 1, UNORM, 24),
	DS(D32_SFLOAT_S8_UINT, 4, 1, SFLOAT, 32),
};

/* Every core format with a block of at most 16 bytes, as opaque blocks
 * (generated once from vk.xml's <formats>: blockSize, blockExtent):
 * what copies need to move any format a device reports. Depth/stencil
 * formats are in the table above only. */
static const struct ir_format all_formats[] = {
	OPQ(R4G4_UNORM_PACK8, 1, 1, 1),
	OPQ(R4G4B4A4_UNORM_PACK16, 2, 1, 1),
	OPQ(B4G4R4A4_UNORM_PACK16, 2, 1, 1),
	OPQ(R5G6B5_UNORM_PACK16, 2, 1, 1),
	OPQ(B5G6R5_UNORM_PACK16, 2, 1, 1),
	OPQ(R5G5B5A1_UNORM_PACK16, 2, 1, 1),
	OPQ(B5G5R5A1_UNORM_PACK16, 2, 1, 1),
	OPQ(A1R5G5B5_UNORM_PACK16, 2, 1, 1),
	OPQ(R8_UNORM, 1, 1, 1),
	OPQ(R8_SNORM, 1, 1, 1),
	OPQ(R8_USCALED, 1, 1, 1),
	OPQ(R8_SSCALED, 1, 1, 1),
	OPQ(R8_UINT, 1, 1, 1),
	OPQ(R8_SINT, 1, 1, 1),
	OPQ(R8_SRGB, 1, 1, 1),
	OPQ(R8G8_UNORM, 2, 1, 1),
	OPQ(R8G8_SNORM, 2, 1, 1),
	OPQ(R8G8_USCALED, 2, 1, 1),
	OPQ(R8G8_SSCALED, 2, 1, 1),
	OPQ(R8G8_UINT, 2, 1, 1),
	OPQ(R8G8_SINT, 2, 1, 1),
	OPQ(R8G8_SRGB, 2, 1, 1),
	OPQ(R8G8B8_UNORM, 3, 1, 1),
	OPQ(R8G8B8_SNORM, 3, 1, 1),
	OPQ(R8G8B8_USCALED, 3, 1, 1),
	OPQ(R8G8B8_SSCALED, 3, 1, 1),
	OPQ(R8G8B8_UINT, 3, 1, 1),
	OPQ(R8G8B8_SINT, 3, 1, 1),
	OPQ(R8G8B8_SRGB, 3, 1, 1),
	OPQ(B8G8R8_UNORM, 3, 1, 1),
	OPQ(B8G8R8_SNORM, 3, 1, 1),
	OPQ(B8G8R8_USCALED, 3, 1, 1),
	OPQ(B8G8R8_SSCALED, 3, 1, 1),
	OPQ(B8G8R8_UINT, 3, 1, 1),
	OPQ(B8G8R8_SINT, 3, 1, 1),
	OPQ(B8G8R8_SRGB, 3, 1, 1),
	OPQ(R8G8B8A8_UNORM, 4, 1, 1),
	OPQ(R8G8B8A8_SNORM, 4, 1, 1),
	OPQ(R8G8B8A8_USCALED, 4, 1, 1),
	OPQ(R8G8B8A8_SSCALED, 4, 1, 1),
	OPQ(R8G8B8A8_UINT, 4, 1, 1),
	OPQ(R8G8B8A8_SINT, 4, 1, 1),
	OPQ(R8G8B8A8_SRGB, 4, 1, 1),
	OPQ(B8G8R8A8_UNORM, 4, 1, 1),
	OPQ(B8G8R8A8_SNORM, 4, 1, 1),
	OPQ(B8G8R8A8_USCALED, 4, 1, 1),
	OPQ(B8G8R8A8_SSCALED, 4, 1, 1),
	OPQ(B8G8R8A8_UINT, 4, 1, 1),
	OPQ(B8G8R8A8_SINT, 4, 1, 1),
	OPQ(B8G8R8A8_SRGB, 4, 1, 1),
	OPQ(A8B8G8R8_UNORM_PACK32, 4, 1, 1),
	OPQ(A8B8G8R8_SNORM_PACK32, 4, 1, 1),
	OPQ(A8B8G8R8_USCALED_PACK32, 4, 1, 1),
	OPQ(A8B8G8R8_SSCALED_PACK32, 4, 1, 1),
	OPQ(A8B8G8R8_UINT_PACK32, 4, 1, 1),
	OPQ(A8B8G8R8_SINT_PACK32, 4, 1, 1),
	OPQ(A8B8G8R8_SRGB_PACK32, 4, 1, 1),
	OPQ(A2R10G10B10_UNORM_PACK32, 4, 1, 1),
	OPQ(A2R10G10B10_SNORM_PACK32, 4, 1, 1),
	OPQ(A2R10G10B10_USCALED_PACK32, 4, 1, 1),
	OPQ(A2R10G10B10_SSCALED_PACK32, 4, 1, 1),
	OPQ(A2R10G10B10_UINT_PACK32, 4, 1, 1),
	OPQ(A2R10G10B10_SINT_PACK32, 4, 1, 1),
	OPQ(A2B10G10R10_UNORM_PACK32, 4, 1, 1),
	OPQ(A2B10G10R10_SNORM_PACK32, 4, 1, 1),
	OPQ(A2B10G10R10_USCALED_PACK32, 4, 1, 1),
	OPQ(A2B10G10R10_SSCALED_PACK32, 4, 1, 1),
	OPQ(A2B10G10R10_UINT_PACK32, 4, 1, 1),
	OPQ(A2B10G10R10_SINT_PACK32, 4, 1, 1),
	OPQ(R16_UNORM, 2, 1, 1),
	OPQ(R16_SNORM, 2, 1, 1),
	OPQ(R16_USCALED, 2, 1, 1),
	OPQ(R16_SSCALED, 2, 1, 1),
	OPQ(R16_UINT, 2, 1, 1),
	OPQ(R16_SINT, 2, 1, 1),
	OPQ(R16_SFLOAT, 2, 1, 1),
	OPQ(R16G16_UNORM, 4, 1, 1),
	OPQ(R16G16_SNORM, 4, 1, 1),
	OPQ(R16G16_USCALED, 4, 1, 1),
	OPQ(R16G16_SSCALED, 4, 1, 1),
	OPQ(R16G16_UINT, 4, 1, 1),
	OPQ(R16G16_SINT, 4, 1, 1),
	OPQ(R16G16_SFLOAT, 4, 1, 1),
	OPQ(R16G16B16_UNORM, 6, 1, 1),
	OPQ(R16G16B16_SNORM, 6, 1, 1),
	OPQ(R16G16B16_USCALED, 6, 1, 1),
	OPQ(R16G16B16_SSCALED, 6, 1, 1),
	OPQ(R16G16B16_UINT, 6, 1, 1),
	OPQ(R16G16B16_SINT, 6, 1, 1),
	OPQ(R16G16B16_SFLOAT, 6, 1, 1),
	OPQ(R16G16B16A16_UNORM, 8, 1, 1),
	OPQ(R16G16B16A16_SNORM, 8, 1, 1),
	OPQ(R16G16B16A16_USCALED, 8, 1, 1),
	OPQ(R16G16B16A16_SSCALED, 8, 1, 1),
	OPQ(R16G16B16A16_UINT, 8, 1, 1),
	OPQ(R16G16B16A16_SINT, 8, 1, 1),
	OPQ(R16G16B16A16_SFLOAT, 8, 1, 1),
	OPQ(R32_UINT, 4, 1, 1),
	OPQ(R32_SINT, 4, 1, 1),
	OPQ(R32_SFLOAT, 4, 1, 1),
	OPQ(R32G32_UINT, 8, 1, 1),
	OPQ(R32G32_SINT, 8, 1, 1),
	OPQ(R32G32_SFLOAT, 8, 1, 1),
	OPQ(R32G32B32_UINT, 12, 1, 1),
	OPQ(R32G32B32_SINT, 12, 1, 1),
	OPQ(R32G32B32_SFLOAT, 12, 1, 1),
	OPQ(R32G32B32A32_UINT, 16, 1, 1),
	OPQ(R32G32B32A32_SINT, 16, 1, 1),
	OPQ(R32G32B32A32_SFLOAT, 16, 1, 1),
	OPQ(R64_UINT, 8, 1, 1),
	OPQ(R64_SINT, 8, 1, 1),
	OPQ(R64_SFLOAT, 8, 1, 1),
	OPQ(R64G64_UINT, 16, 1, 1),
	OPQ(R64G64_SINT, 16, 1, 1),
	OPQ(R64G64_SFLOAT, 16, 1, 1),
	OPQ(B10G11R11_UFLOAT_PACK32, 4, 1, 1),
	OPQ(E5B9G9R9_UFLOAT_PACK32, 4, 1, 1),
	OPQ(BC1_RGB_UNORM_BLOCK, 8, 4, 4),
	OPQ(BC1_RGB_SRGB_BLOCK, 8, 4, 4),
	OPQ(BC1_RGBA_UNORM_BLOCK, 8, 4, 4),
	OPQ(BC1_RGBA_SRGB_BLOCK, 8, 4, 4),
	OPQ(BC2_UNORM_BLOCK, 16, 4, 4),
	OPQ(BC2_SRGB_BLOCK, 16, 4, 4),
	OPQ(BC3_UNORM_BLOCK, 16, 4, 4),
	OPQ(BC3_SRGB_BLOCK, 16, 4, 4),
	OPQ(BC4_UNORM_BLOCK, 8, 4, 4),
	OPQ(BC4_SNORM_BLOCK, 8, 4, 4),
	OPQ(BC5_UNORM_BLOCK, 16, 4, 4),
	OPQ(BC5_SNORM_BLOCK, 16, 4, 4),
	OPQ(BC6H_UFLOAT_BLOCK, 16, 4, 4),
	OPQ(BC6H_SFLOAT_BLOCK, 16, 4, 4),
	OPQ(BC7_UNORM_BLOCK, 16, 4, 4),
	OPQ(BC7_SRGB_BLOCK, 16, 4, 4),
	OPQ(ETC2_R8G8B8_UNORM_BLOCK, 8, 4, 4),
	OPQ(ETC2_R8G8B8_SRGB_BLOCK, 8, 4, 4),
	OPQ(ETC2_R8G8B8A1_UNORM_BLOCK, 8, 4, 4),
	OPQ(ETC2_R8G8B8A1_SRGB_BLOCK, 8, 4, 4),
	OPQ(ETC2_R8G8B8A8_UNORM_BLOCK, 16, 4, 4),
	OPQ(ETC2_R8G8B8A8_SRGB_BLOCK, 16, 4, 4),
	OPQ(EAC_R11_UNORM_BLOCK, 8, 4, 4),
	OPQ(EAC_R11_SNORM_BLOCK, 8, 4, 4),
	OPQ(EAC_R11G11_UNORM_BLOCK, 16, 4, 4),
	OPQ(EAC_R11G11_SNORM_BLOCK, 16, 4, 4),
	OPQ(ASTC_4x4_UNORM_BLOCK, 16, 4, 4),
	OPQ(ASTC_4x4_SRGB_BLOCK, 16, 4, 4),
	OPQ(ASTC_5x4_UNORM_BLOCK, 16, 5, 4),
	OPQ(ASTC_5x4_SRGB_BLOCK, 16, 5, 4),
	OPQ(ASTC_5x5_UNORM_BLOCK, 16, 5, 5),
	OPQ(ASTC_5x5_SRGB_BLOCK, 16, 5, 5),
	OPQ(ASTC_6x5_UNORM_BLOCK, 16, 6, 5),
	OPQ(ASTC_6x5_SRGB_BLOCK, 16, 6, 5),
	OPQ(ASTC_6x6_UNORM_BLOCK, 16, 6, 6),
	OPQ(ASTC_6x6_SRGB_BLOCK, 16, 6, 6),
	OPQ(ASTC_8x5_UNORM_BLOCK, 16, 8, 5),
	OPQ(ASTC_8x5_SRGB_BLOCK, 16, 8, 5),
	OPQ(ASTC_8x6_UNORM_BLOCK, 16, 8, 6),
	OPQ(ASTC_8x6_SRGB_BLOCK, 16, 8, 6),
	OPQ(ASTC_8x8_UNORM_BLOCK, 16, 8, 8),
	OPQ(ASTC_8x8_SRGB_BLOCK, 16, 8, 8),
	OPQ(ASTC_10x5_UNORM_BLOCK, 16, 10, 5),
	OPQ(ASTC_10x5_SRGB_BLOCK, 16, 10, 5),
	OPQ(ASTC_10x6_UNORM_BLOCK, 16, 10, 6),
	OPQ(ASTC_10x6_SRGB_BLOCK, 16, 10, 6),
	OPQ(ASTC_10x8_UNORM_BLOCK, 16, 10, 8),
	OPQ(ASTC_10x8_SRGB_BLOCK, 16, 10, 8),
	OPQ(ASTC_10x10_UNORM_BLOCK, 16, 10, 10),
	OPQ(ASTC_10x10_SRGB_BLOCK, 16, 10, 10),
	OPQ(ASTC_12x10_UNORM_BLOCK, 16, 12, 10),
	OPQ(ASTC_12x10_SRGB_BLOCK, 16, 12, 10),
	OPQ(ASTC_12x12_UNORM_BLOCK, 16, 12, 12),
	OPQ(ASTC_12x12_SRGB_BLOCK, 16, 12, 12),
};

/* Aspect planes of depth/stencil formats as buffer data. */
static const struct ir_format plane_d16 =
	COL(D16_UNORM, 2, UNORM, CH(0, 16), NOCH, NOCH, NOCH);
static const struct ir_format plane_d24 =
	COL(X8_D24_UNORM_PACK32, 4, UNORM, CH(0, 24), NOCH, NOCH, NOCH);
static const struct ir_format plane_d32f =
	COL(D32_SFLOAT, 4, SFLOAT, CH(0, 32), NOCH, NOCH, NOCH);
static const struct ir_format plane_s8 =
	COL(S8_UINT, 1, UINT, CH(0, 8), NOCH, NOCH, NOCH);

const struct ir_format *
ir_format_get(VkFormat vk)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].vk == vk)
			return &formats[i];
	for (size_t i = 0; i < sizeof(all_formats) / sizeof(all_formats[0]);
	     i++)
		if (all_formats[i].vk == vk)
			return &all_formats[i];
	return NULL;
}

const struct ir_format *
ir_format_by_index(unsigned i)
{
	return i < sizeof(formats) / sizeof(formats[0]) ? &formats[i] : NULL;
}

bool
ir_format_is_ds(const struct ir_format *f)
{
	return f->depth_bytes || f->stencil_bytes;
}

bool
ir_format_is_compressed(const struct ir_format *f)
{
	return f->bw > 1 || f->bh > 1;
}

const struct ir_format *
ir_aspect_format(const struct ir_format *f, VkImageAspectFlagBits aspect)
{
	if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT)
		return f->stencil_bytes ? &plane_s8 : NULL;
	if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) {
		if (!f->depth_bytes)
			return NULL;
		if (f->depth_type == IR_SFLOAT)
			return &plane_d32f;
		return f->depth_bits == 16 ? &plane_d16 : &plane_d24;
	}
	return ir_format_is_ds(f) ? NULL : f;
}

uint32_t
ir_aspect_bytes(const struct ir_format *f, VkImageAspectFlagBits aspect)
{
	const struct ir_format *p = ir_aspect_format(f, aspect);

	return p ? p->bytes : 0;
}

void
ir_aspect_mask(const struct ir_format *f, VkImageAspectFlagBits aspect,
               uint8_t mask[16])
{
	memset(mask, 0xff, 16);
	/* "D24 in the LSBs of a 32-bit word, the 8 MSBs undefined". */
	if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && f->depth_bits == 24)
		mask[3] = 0;
}

/* ---- conversions ---- */

double
ir_srgb_to_linear(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double
ir_linear_to_srgb(double l)
{
	if (l <= 0.0)
		return 0.0;
	if (l >= 1.0)
		return 1.0;
	return l < 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055;
}

float
ir_half_to_float(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v;

	if (e == 0)
		v = ldexpf((float)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexpf((float)(m | 0x400), e - 25);
	return (h & 0x8000) ? -v : v;
}

uint16_t
ir_float_to_half(float f)
{
	uint16_t sign = signbit(f) ? 0x8000 : 0;
	float a = fabsf(f);
	int e;

	if (isnan(f))
		return 0x7e00;
	if (a >= 65520.0f)
		return sign | 0x7c00;
	if (a < ldexpf(1.0f, -14)) /* subnormal: units of 2^-24 */
		return sign | (uint16_t)lrintf(ldexpf(a, 24));
	frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
	{
		/* 11 significant bits, round to nearest even. */
		long q = lrintf(ldexpf(a, 11 - e));
		if (q == 2048) {
			q = 1024;
			e++;
		}
		return sign | (uint16_t)(((e + 14) << 10) | (q & 0x3ff));
	}
}

/* Unsigned small floats (B10G11R11): 5-bit exponent (bias 15), mbits
 * mantissa bits, no sign; like half floats otherwise. */
static double
ufloat_decode(uint64_t v, unsigned mbits)
{
	unsigned e = (unsigned)(v >> mbits) & 0x1f;
	double m = (double)(v & ((1u << mbits) - 1));

	if (e == 0)
		return ldexp(m, -14 - (int)mbits);
	if (e == 31)
		return m ? NAN : INFINITY;
	return ldexp(m + (double)(1u << mbits), (int)e - 15 - (int)mbits);
}

static uint64_t
ufloat_encode(double v, unsigned mbits)
{
	int e;
	long q;

	if (isnan(v))
		return (31u << mbits) | 1u;
	if (v <= 0.0)
		return 0; /* negative values clamp to 0 */
	if (v < 0x1p-14) /* denormal: units of 2^(-14 - mbits) */
		return (uint64_t)lrint(ldexp(v, 14 + (int)mbits));
	frexp(v, &e); /* v = f * 2^e, f in [0.5, 1) */
	q = lrint(ldexp(v, (int)mbits + 1 - e));
	if (q == 2l << mbits) {
		q = 1l << mbits;
		e++;
	}
	if (e + 14 >= 31)
		return 31u << mbits; /* infinity */
	return ((uint64_t)(e + 14) << mbits) |
	       ((uint64_t)q & ((1u << mbits) - 1));
}

static uint64_t
get_bits(const uint8_t *p, unsigned off, unsigned bits)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bits; i++) {
		unsigned b = off + i;
		v |= (uint64_t)((p[b / 8] >> (b % 8)) & 1) << i;
	}
	return v;
}

static void
put_bits(uint8_t *p, unsigned off, unsigned bits, uint64_t v)
{
	for (unsigned i = 0; i < bits; i++) {
		unsigned b = off + i;
		p[b / 8] = (uint8_t)((p[b / 8] & ~(1u << (b % 8))) |
		                     (((v >> i) & 1) << (b % 8)));
	}
}

static int64_t
sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);

	return (int64_t)((v ^ m) - m);
}

void
ir_decode(const struct ir_format *f, const uint8_t *t, bool raw,
          double out[4])
{
	static const double def[4] = { 0, 0, 0, 1 };

	for (unsigned c = 0; c < 4; c++) {
		unsigned bits = f->ch[c].bits;
		uint64_t v;

		if (!bits) {
			out[c] = def[c];
			continue;
		}
		v = get_bits(t, f->ch[c].off, bits);
		switch (f->type) {
		case IR_UNORM:
			out[c] = (double)v / (double)((1ull << bits) - 1);
			break;
		case IR_SRGB:
			out[c] = (double)v / (double)((1ull << bits) - 1);
			if (c < 3 && !raw)
				out[c] = ir_srgb_to_linear(out[c]);
			break;
		case IR_SNORM:
			out[c] = fmax((double)sext(v, bits) /
			              (double)((1ull << (bits - 1)) - 1), -1.0);
			break;
		case IR_UINT:
			out[c] = (double)v;
			break;
		case IR_SINT:
			out[c] = (double)sext(v, bits);
			break;
		case IR_UFLOAT:
			out[c] = ufloat_decode(v, bits - 5);
			break;
		case IR_SFLOAT:
			if (bits == 64) {
				double db;
				memcpy(&db, &v, 8);
				out[c] = db;
			} else if (bits == 16) {
				out[c] = ir_half_to_float((uint16_t)v);
			} else {
				uint32_t u = (uint32_t)v;
				float fl;
				memcpy(&fl, &u, 4);
				out[c] = fl;
			}
			break;
		case IR_OPAQUE:
			out[c] = 0;
			break;
		}
	}
}

double
ir_clamp(const struct ir_format *f, unsigned c, double v)
{
	(void)c;
	switch (f->type) {
	case IR_UNORM:
	case IR_SRGB:
		return fmin(fmax(v, 0.0), 1.0);
	case IR_UFLOAT:
		return fmax(v, 0.0);
	case IR_SNORM:
		return fmin(fmax(v, -1.0), 1.0);
	default:
		return v;
	}
}

void
ir_encode(const struct ir_format *f, const double in[4], uint8_t *t)
{
	for (unsigned c = 0; c < 4; c++) {
		unsigned bits = f->ch[c].bits;
		double v = ir_clamp(f, c, in[c]);
		uint64_t u = 0;

		if (!bits)
			continue;
		switch (f->type) {
		case IR_SRGB:
			if (c < 3)
				v = ir_linear_to_srgb(v);
			/* fall through */
		case IR_UNORM:
			u = (uint64_t)llround(v * (double)((1ull << bits) - 1));
			break;
		case IR_SNORM:
			u = (uint64_t)llround(v *
			                      (double)((1ull << (bits - 1)) - 1));
			break;
		case IR_UINT:
		case IR_SINT:
			u = (uint64_t)(int64_t)v;
			break;
		case IR_UFLOAT:
			u = ufloat_encode(v, bits - 5);
			break;
		case IR_SFLOAT:
			if (bits == 64) {
				memcpy(&u, &v, 8);
			} else if (bits == 16) {
				u = ir_float_to_half((float)v);
			} else {
				float fl = (float)v;
				uint32_t w;
				memcpy(&w, &fl, 4);
				u = w;
			}
			break;
		case IR_OPAQUE:
			break;
		}
		put_bits(t, f->ch[c].off, bits, u & ((bits == 64) ? ~0ull :
		                                     ((1ull << bits) - 1)));
	}
}

double
ir_ulp(const struct ir_format *f, unsigned c, double v)
{
	unsigned bits = f->ch[c].bits;

	switch (f->type) {
	case IR_UNORM:
	case IR_SRGB:
		return 1.0 / (double)((1ull << bits) - 1);
	case IR_SNORM:
		return 1.0 / (double)((1ull << (bits - 1)) - 1);
	case IR_UFLOAT:
		/* 11/10-bit unsigned floats: 6/5 mantissa bits. */
		return fmax(fabs(v) * ldexp(1.0, -(int)(bits - 5)), 0x1p-20);
	case IR_SFLOAT:
		/* One ulp of the format (half: 10 mantissa bits, float: 23,
		 * double: 52), with the subnormal floor. */
		if (bits == 64)
			return fmax(fabs(v) * 0x1p-50, 0x1p-1000);
		if (bits == 16)
			return fmax(fabs(v) * 0x1p-10, 0x1p-24);
		return fmax(fabs(v) * 0x1p-22, 0x1p-126);
	default:
		return 0.0;
	}
}

void
ir_fill_random(struct ir_rng *r, const struct ir_format *plane, uint8_t *p,
               size_t n)
{
	if (plane && plane->vk == VK_FORMAT_D32_SFLOAT) {
		for (size_t i = 0; i + 4 <= n; i += 4) {
			float v = (float)(ir_rand(r) & 0xffffff) / 16777215.0f;
			memcpy(p + i, &v, 4);
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)ir_rand(r);
}

/* ---- blit reference ---- */

static void
fetch(const struct ir_surface *s, int32_t x, int32_t y, int32_t z,
      double out[4])
{
	/* Clamp-to-edge addressing, as vkCmdBlitImage specifies. */
	x = x < 0 ? 0 : x >= (int32_t)s->w ? (int32_t)s->w - 1 : x;
	y = y < 0 ? 0 : y >= (int32_t)s->h ? (int32_t)s->h - 1 : y;
	z = z < 0 ? 0 : z >= (int32_t)s->d ? (int32_t)s->d - 1 : z;
	ir_decode(s->fmt, s->data + (((size_t)z * s->h + (size_t)y) * s->w +
	                             (size_t)x) * s->fmt->bytes,
	          false, out);
}

static void
sample(const struct ir_surface *s, VkFilter filter, const double u[3],
       double out[4])
{
	if (filter == VK_FILTER_NEAREST) {
		fetch(s, (int32_t)floor(u[0]), (int32_t)floor(u[1]),
		      (int32_t)floor(u[2]), out);
		return;
	}
	{
		int32_t i0[3];
		double a[3], t[4];

		for (int k = 0; k < 3; k++) {
			double p = u[k] - 0.5;
			i0[k] = (int32_t)floor(p);
			a[k] = p - floor(p);
		}
		memset(out, 0, 4 * sizeof(double));
		for (int corner = 0; corner < 8; corner++) {
			double w = 1.0;
			int32_t c[3];
			for (int k = 0; k < 3; k++) {
				int bit = (corner >> k) & 1;
				c[k] = i0[k] + bit;
				w *= bit ? a[k] : 1.0 - a[k];
			}
			if (w == 0.0)
				continue;
			fetch(s, c[0], c[1], c[2], t);
			for (int ch = 0; ch < 4; ch++)
				out[ch] += w * t[ch];
		}
	}
}

void
ir_blit_range(const struct ir_surface *src, const int32_t src0[3],
              const int32_t src1[3], const int32_t dst0[3],
              const int32_t dst1[3], VkFilter filter, unsigned subtexel_bits,
              int32_t x, int32_t y, int32_t z, double lo[4], double hi[4])
{
	const int32_t d[3] = { x, y, z };
	const double eps = ldexp(1.0, -(int)subtexel_bits);
	double u[3], pu[3];
	int n[3];

	/* Destination texel center -> source coordinate (the spec's inverse
	 * of the unnormalized-to-integer conversion, scaled and offset). */
	for (int k = 0; k < 3; k++) {
		double scale = (double)(src1[k] - src0[k]) /
		               (double)(dst1[k] - dst0[k]);
		u[k] = src0[k] + ((double)d[k] + 0.5 - dst0[k]) * scale;
		/* A one-texel source axis cannot be affected by precision. */
		n[k] = (k == 0 || (k == 1 && src->h > 1) ||
		        (k == 2 && src->d > 1)) ? 3 : 1;
	}
	for (int c = 0; c < 4; c++) {
		lo[c] = INFINITY;
		hi[c] = -INFINITY;
	}
	for (int i = 0; i < n[0]; i++)
	for (int j = 0; j < n[1]; j++)
	for (int k = 0; k < n[2]; k++) {
		const int sel[3] = { i, j, k };
		double v[4];
		for (int a = 0; a < 3; a++)
			pu[a] = u[a] + (n[a] == 1 ? 0.0 : (sel[a] - 1) * eps);
		sample(src, filter, pu, v);
		for (int c = 0; c < 4; c++) {
			lo[c] = fmin(lo[c], v[c]);
			hi[c] = fmax(hi[c], v[c]);
		}
	}
}
