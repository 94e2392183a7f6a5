/* SPDX-License-Identifier: MIT */
/*
 * test_icd_image_layout — image layout, format support reporting,
 * vkGetImageSubresourceLayout and host access to linear images, through
 * the loader with the validation layer on. (The image transfer commands
 * on those layouts: test_icd_image_cmd.c.)
 *
 *   formats        every core format: FormatProperties(2/3) agree, what
 *                  is offered can be created; on swgpu, the exact classes
 *                  (colour: transfer + blit [+ storage], compressed:
 *                  transfer only,
 *                  depth/stencil: transfer + nearest blit)
 *   image_limits   image format properties per type/tiling/flags/usage
 *   subresources   linear layouts of 2D arrays with mips, 1D arrays, 3D,
 *                  compressed and single-aspect depth/stencil: pitches
 *                  cover the texels and no two subresources overlap
 *   host_access    the host writes a linear image through the reported
 *                  layout, the device copies it out, copies a padded
 *                  buffer sub-box in, and the host reads it back through
 *                  the layout again, across layout transitions
 */
#include <stdlib.h>
#include <string.h>

#include "test_icd_image_util.h"

#define FORMAT_LAST VK_FORMAT_ASTC_12x12_SRGB_BLOCK

/* 64-bit channels: blitted, not sampled (the shader engine's channels
 * are 32-bit). */
static bool
is_r64(VkFormat f)
{
	return f >= VK_FORMAT_R64_UINT && f <= VK_FORMAT_R64G64B64A64_SFLOAT;
}

/* USCALED / SSCALED: blitted, not sampled (icd/format.c says why). */
static bool
is_scaled(VkFormat f)
{
	switch (f) {
	case VK_FORMAT_R8_USCALED: case VK_FORMAT_R8_SSCALED:
	case VK_FORMAT_R8G8_USCALED: case VK_FORMAT_R8G8_SSCALED:
	case VK_FORMAT_R8G8B8_USCALED: case VK_FORMAT_R8G8B8_SSCALED:
	case VK_FORMAT_B8G8R8_USCALED: case VK_FORMAT_B8G8R8_SSCALED:
	case VK_FORMAT_R8G8B8A8_USCALED: case VK_FORMAT_R8G8B8A8_SSCALED:
	case VK_FORMAT_B8G8R8A8_USCALED: case VK_FORMAT_B8G8R8A8_SSCALED:
	case VK_FORMAT_A8B8G8R8_USCALED_PACK32:
	case VK_FORMAT_A8B8G8R8_SSCALED_PACK32:
	case VK_FORMAT_A2R10G10B10_USCALED_PACK32:
	case VK_FORMAT_A2R10G10B10_SSCALED_PACK32:
	case VK_FORMAT_A2B10G10R10_USCALED_PACK32:
	case VK_FORMAT_A2B10G10R10_SSCALED_PACK32:
	case VK_FORMAT_R16_USCALED: case VK_FORMAT_R16_SSCALED:
	case VK_FORMAT_R16G16_USCALED: case VK_FORMAT_R16G16_SSCALED:
	case VK_FORMAT_R16G16B16_USCALED: case VK_FORMAT_R16G16B16_SSCALED:
	case VK_FORMAT_R16G16B16A16_USCALED:
	case VK_FORMAT_R16G16B16A16_SSCALED:
		return true;
	default:
		return false;
	}
}

static const VkFormatFeatureFlags transfer =
	VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
static const VkFormatFeatureFlags blit =
	VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
/* With BLIT_SRC: LINEAR blits. */
static const VkFormatFeatureFlags flin =
	VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;

/* Texel block of a format in the test's own words: bytes and extent. */
struct block {
	uint32_t bytes, w, h;
};

static struct block
format_block(VkFormat f)
{
	switch (f) {
	case VK_FORMAT_R8G8B8A8_UNORM:
	case VK_FORMAT_R32_SFLOAT:
		return (struct block){ 4, 1, 1 };
	case VK_FORMAT_R16G16B16_UNORM:
		return (struct block){ 6, 1, 1 };
	case VK_FORMAT_R8G8B8_UNORM:
		return (struct block){ 3, 1, 1 };
	case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
		return (struct block){ 8, 4, 4 };
	case VK_FORMAT_ASTC_5x4_UNORM_BLOCK:
		return (struct block){ 16, 5, 4 };
	default:
		return (struct block){ 0, 0, 0 };
	}
}

static bool
is_compressed(VkFormat f)
{
	return f >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && f <= FORMAT_LAST;
}

static bool
is_depth_stencil(VkFormat f)
{
	return f >= VK_FORMAT_D16_UNORM && f <= VK_FORMAT_D32_SFLOAT_S8_UINT;
}

/* ---- formats -------------------------------------------------------- */

static void
test_formats(struct vkh *h, struct vkh_device *d)
{
	uint32_t n_colour = 0, n_blit = 0, n_linear = 0, n_ds = 0, n_comp = 0;
	uint32_t n_comp_bc = 0;
	uint32_t n_none = 0;

	for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= FORMAT_LAST; f++) {
		VkFormatProperties p;
		VkFormatProperties3 p3 = {
			.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3,
		};
		VkFormatProperties2 p2 = {
			.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2,
			.pNext = &p3,
		};
		VkImageFormatProperties ifp;
		VkFormatFeatureFlags opt;

		vkGetPhysicalDeviceFormatProperties(h->phys, f, &p);
		vkGetPhysicalDeviceFormatProperties2(h->phys, f, &p2);
		VKH_CHECK(h, !memcmp(&p, &p2.formatProperties, sizeof(p)));
		const VkFormatFeatureFlags2 only2 =
			VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
			VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT |
			VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
		opt = p.optimalTilingFeatures;
		VKH_CHECK(h, (p3.optimalTilingFeatures & opt) == opt);
		VKH_CHECK(h, (p3.linearTilingFeatures &
		              p.linearTilingFeatures) ==
		             p.linearTilingFeatures);
		if (!(opt & VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
			continue;
		/* Whatever is offered for transfer can be created. */
		VKH_CHECK_VK(h, vkGetPhysicalDeviceImageFormatProperties(
			h->phys, f, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
			VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &ifp));
		VKH_CHECK(h, ifp.sampleCounts & VK_SAMPLE_COUNT_1_BIT);
		if (!h->is_swgpu)
			continue;
		/* 2D optimal images of attachment formats: 1, 2, 4, 8 */
		VKH_CHECK(h, ifp.sampleCounts == VK_SAMPLE_COUNT_1_BIT ||
		             ifp.sampleCounts == (VK_SAMPLE_COUNT_1_BIT |
		             VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT |
		             VK_SAMPLE_COUNT_8_BIT));
		/* Plus only the 64-bit-only bits: storage without format,
		 * depth comparison. */
		VKH_CHECK(h, (p3.optimalTilingFeatures & ~only2) == opt &&
		             (p3.linearTilingFeatures & ~only2) ==
		             p.linearTilingFeatures);
		VkImage img;
		VkImageCreateInfo ci = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
			.imageType = VK_IMAGE_TYPE_2D, .format = f,
			.extent = { 24, 12, 1 }, .mipLevels = 2,
			.arrayLayers = 2, .samples = VK_SAMPLE_COUNT_1_BIT,
			.tiling = VK_IMAGE_TILING_OPTIMAL,
			.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		};
		VkMemoryRequirements req;

		VKH_CHECK_VK(h, vkCreateImage(d->device, &ci, NULL, &img));
		vkGetImageMemoryRequirements(d->device, img, &req);
		VKH_CHECK(h, req.size > 0 && req.memoryTypeBits);
		vkDestroyImage(d->device, img, NULL);
	}
	if (!h->is_swgpu)
		return;

	/* swgpu: exactly the documented classes (icd/format.h). */
	for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= FORMAT_LAST; f++) {
		VkFormatProperties p;

		vkGetPhysicalDeviceFormatProperties(h->phys, f, &p);
		/* One layout for both tilings; depth+stencil is OPTIMAL
		 * only (no per-aspect linear layout query in 1.3). */
		if (f == VK_FORMAT_D16_UNORM_S8_UINT ||
		    f == VK_FORMAT_D24_UNORM_S8_UINT ||
		    f == VK_FORMAT_D32_SFLOAT_S8_UINT)
			VKH_CHECK(h, p.linearTilingFeatures == 0);
		else
			VKH_CHECK(h, p.linearTilingFeatures ==
			             p.optimalTilingFeatures);
		/* Buffers: texel buffers and vertex input. */
		VKH_CHECK(h, !(p.bufferFeatures &
		               ~(VkFormatFeatureFlags)(
		                 VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT |
		                 VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT |
		                 VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT |
		                 VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT)));
		if (!p.optimalTilingFeatures) {
			n_none++;
			continue;
		}
		if (is_compressed(f)) {
			/* BC is decoded (sampled, blit source, linear
			 * filter); ETC2/EAC and ASTC are copied only. */
			const bool bc = f <= VK_FORMAT_BC7_SRGB_BLOCK;

			VKH_CHECK_MSG(h, p.optimalTilingFeatures ==
			              (bc ? transfer |
			                    VK_FORMAT_FEATURE_BLIT_SRC_BIT |
			                    VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
			                    flin
			                  : transfer), "format %d", f);
			n_comp++;
			n_comp_bc += bc;
		} else if (is_depth_stencil(f)) {
			/* Sampled like a blit reads them; every one is a
			 * depth/stencil attachment (test_vk_gfx_formats). */
			VKH_CHECK(h, p.optimalTilingFeatures ==
			             (transfer | blit |
			              VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
			              VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT));
			n_ds++;
		} else {
			/* ... and STORAGE_IMAGE (+ATOMIC on R32 ints) on
			 * the storage formats (test_vk_compute_image);
			 * SAMPLED_IMAGE wherever a blit reads the format
			 * (test_vk_compute_sample); the attachment bits on
			 * the formats the graphics engine renders
			 * (test_vk_gfx_formats). */
			VKH_CHECK(h, (p.optimalTilingFeatures &
			              ~(transfer | blit | flin |
			                VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
			                VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT |
			                VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT |
			                VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
			                VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT))
			             == 0);
			/* (not the 64-bit channels: R64*; not the SCALED formats) */
			VKH_CHECK_MSG(h, !(p.optimalTilingFeatures &
			                   VK_FORMAT_FEATURE_BLIT_SRC_BIT) ==
			                 !(p.optimalTilingFeatures &
			                   VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) ||
			              is_r64(f) || is_scaled(f), "format %d", f);
			VKH_CHECK_MSG(h, !is_scaled(f) ||
			                 !(p.optimalTilingFeatures &
			                   VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT),
			              "format %d", f);
			VKH_CHECK(h, (p.optimalTilingFeatures & transfer) ==
			             transfer);
			n_colour++;
			if ((p.optimalTilingFeatures & blit) == blit)
				n_blit++;
			if (p.optimalTilingFeatures & flin)
				n_linear++;
		}
	}
	printf("swgpu formats: %u colour (%u blit, %u linear-filter blit), "
	       "%u depth/stencil, %u compressed (%u BC decoded), %u not offered\n",
	       n_colour, n_blit, n_linear, n_ds, n_comp, n_comp_bc, n_none);
	/* Every core 1.0 colour format of 1..16-byte blocks: all but the
	 * six 24/32-byte R64G64B64(A64) formats; all seven depth/stencil
	 * formats; BC (16) + ETC2/EAC (10) + ASTC LDR (28). */
	VKH_CHECK(h, n_colour == 123 - 6);
	VKH_CHECK(h, n_ds == 7);
	VKH_CHECK(h, n_comp == 54);
	VKH_CHECK(h, n_comp_bc == 16);
	VKH_CHECK(h, n_none == 6);

	/* Core 1.3 single-plane formats are offered too; its Y'CbCr and
	 * ASTC HDR formats are not. */
	VkFormatProperties p13;

	vkGetPhysicalDeviceFormatProperties(h->phys,
		VK_FORMAT_A4R4G4B4_UNORM_PACK16, &p13);
	VKH_CHECK(h, (p13.optimalTilingFeatures & (transfer | blit)) ==
	             (transfer | blit));
	vkGetPhysicalDeviceFormatProperties(h->phys,
		VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, &p13);
	VKH_CHECK(h, p13.optimalTilingFeatures == 0);
	vkGetPhysicalDeviceFormatProperties(h->phys,
		VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, &p13);
	VKH_CHECK(h, p13.optimalTilingFeatures == 0);
	VkImage img13;

	VKH_CHECK_VK(h, vkCreateImage(d->device, &(VkImageCreateInfo){
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_A4B4G4R4_UNORM_PACK16,
		.extent = { 8, 8, 1 }, .mipLevels = 1, .arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT }, NULL, &img13));
	vkDestroyImage(d->device, img13, NULL);

	/* Spot checks of the filter rules. */
	static const struct { VkFormat f; bool linear; } spot[] = {
		{ VK_FORMAT_R8G8B8A8_UNORM, true },
		{ VK_FORMAT_R8G8B8A8_SRGB, true },
		{ VK_FORMAT_R16G16B16A16_SFLOAT, true },
		{ VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, true },
		{ VK_FORMAT_R8G8B8A8_UINT, false },
		{ VK_FORMAT_R32_SINT, false },
		{ VK_FORMAT_R64_UINT, false },
		{ VK_FORMAT_D24_UNORM_S8_UINT, false },
	};
	for (unsigned i = 0; i < sizeof(spot) / sizeof(spot[0]); i++) {
		VkFormatProperties p;

		vkGetPhysicalDeviceFormatProperties(h->phys, spot[i].f, &p);
		VKH_CHECK_MSG(h, !!(p.optimalTilingFeatures & flin) ==
		                 spot[i].linear, "format %d", spot[i].f);
		VKH_CHECK(h, (p.optimalTilingFeatures & blit) == blit);
	}
}

/* ---- image format properties ---------------------------------------- */

static void
test_image_limits(struct vkh *h, struct vkh_device *d)
{
	const VkPhysicalDeviceLimits *l = &h->props.limits;
	const VkImageUsageFlags tu = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	                             VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	VkImageFormatProperties p;
	uint32_t full = 0;

	for (uint32_t v = l->maxImageDimension2D; v; v >>= 1)
		full++;
	VKH_CHECK_VK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                    VK_IMAGE_TILING_OPTIMAL, tu, 0, &p));
	VKH_CHECK(h, p.maxExtent.width == l->maxImageDimension2D &&
	             p.maxExtent.depth == 1 && p.maxMipLevels == full &&
	             p.maxArrayLayers == l->maxImageArrayLayers);
	VKH_CHECK_VK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D,
	                    VK_IMAGE_TILING_OPTIMAL, tu, 0, &p));
	VKH_CHECK(h, p.maxExtent.depth == l->maxImageDimension3D &&
	             p.maxArrayLayers == 1);
	VKH_CHECK_VK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                    VK_IMAGE_TILING_OPTIMAL, tu,
	                    VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, &p));
	VKH_CHECK(h, p.maxArrayLayers >= 6);
	if (!h->is_swgpu)
		return;
	VKH_CHECK(h, p.maxExtent.width == l->maxImageDimensionCube);
	VKH_CHECK(h, p.sampleCounts == VK_SAMPLE_COUNT_1_BIT);
	/* Linear tiling has the optimal layout, so the same limits. */
	VKH_CHECK_VK(h, ifp(h, VK_FORMAT_R16_UINT, VK_IMAGE_TYPE_3D,
	                    VK_IMAGE_TILING_LINEAR, tu, 0, &p));
	VKH_CHECK(h, p.maxMipLevels > 1);
	VKH_CHECK_VK(h, ifp(h, VK_FORMAT_X8_D24_UNORM_PACK32,
	                    VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_LINEAR, tu, 0,
	                    &p));
	VKH_CHECK(h, p.maxArrayLayers == l->maxImageArrayLayers);
	VKH_CHECK(h, ifp(h, VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D,
	                 VK_IMAGE_TILING_LINEAR, tu, 0, &p) ==
	             VK_ERROR_FORMAT_NOT_SUPPORTED);
	/* What is not there. */
	VKH_CHECK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D,
	                 VK_IMAGE_TILING_OPTIMAL, tu,
	                 VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT, &p) ==
	             VK_ERROR_FORMAT_NOT_SUPPORTED);
	VKH_CHECK(h, ifp(h, VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_TYPE_1D,
	                 VK_IMAGE_TILING_OPTIMAL, tu, 0, &p) ==
	             VK_ERROR_FORMAT_NOT_SUPPORTED);
	VKH_CHECK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                 VK_IMAGE_TILING_OPTIMAL,
	                 VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &p) ==
	             VK_ERROR_FORMAT_NOT_SUPPORTED);
	/* Attachments and storage (shaderStorageImageMultisample): 1, 2,
	 * 4 and 8 samples. */
	VKH_CHECK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                 VK_IMAGE_TILING_OPTIMAL,
	                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &p) ==
	             VK_SUCCESS);
	VKH_CHECK(h, p.sampleCounts == (VK_SAMPLE_COUNT_1_BIT |
	             VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT |
	             VK_SAMPLE_COUNT_8_BIT));
	VKH_CHECK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                 VK_IMAGE_TILING_OPTIMAL,
	                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	                 VK_IMAGE_USAGE_STORAGE_BIT, 0, &p) == VK_SUCCESS);
	VKH_CHECK(h, p.sampleCounts == (VK_SAMPLE_COUNT_1_BIT |
	             VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT |
	             VK_SAMPLE_COUNT_8_BIT));
	VKH_CHECK(h, ifp(h, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                 VK_IMAGE_TILING_OPTIMAL, tu,
	                 VK_IMAGE_CREATE_SPARSE_BINDING_BIT, &p) ==
	             VK_ERROR_FORMAT_NOT_SUPPORTED);
	VKH_CHECK(h, ifp(h, VK_FORMAT_R64G64B64A64_SFLOAT, VK_IMAGE_TYPE_2D,
	                 VK_IMAGE_TILING_OPTIMAL, tu, 0, &p) ==
	             VK_ERROR_FORMAT_NOT_SUPPORTED);

	/* A cube-compatible 2D array with a full mip chain. */
	VkImage img;
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = { 64, 64, 1 },
		.mipLevels = 7, .arrayLayers = 12,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL, .usage = tu,
	};
	VkMemoryRequirements req;

	VKH_CHECK_VK(h, vkCreateImage(d->device, &ci, NULL, &img));
	vkGetImageMemoryRequirements(d->device, img, &req);
	/* At least every texel of 12 layers of a 64x64 chain. */
	VKH_CHECK(h, req.size >= 12ull * 4 * (64 * 64 * 4 / 3));
	vkDestroyImage(d->device, img, NULL);
}

/* ---- subresource layouts --------------------------------------------- */

struct range {
	VkDeviceSize lo, hi;
};

static int
range_cmp(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Check the linear layout of every subresource of ci (aspect by aspect)
 * and that none overlaps another or leaves the memory requirements. */
static void
check_layout(struct vkh *h, struct vkh_device *d,
             const VkImageCreateInfo *ci, const VkImageAspectFlags *aspects,
             const struct block *blocks, uint32_t naspects)
{
	struct range r[64];
	uint32_t nr = 0;
	VkMemoryRequirements req;
	VkImageFormatProperties p;
	VkImage img;

	if (ifp(h, ci->format, ci->imageType, ci->tiling, ci->usage,
	        ci->flags, &p) != VK_SUCCESS ||
	    p.maxMipLevels < ci->mipLevels ||
	    p.maxArrayLayers < ci->arrayLayers) {
		/* swgpu offers every linear case this test makes. */
		VKH_CHECK_MSG(h, !h->is_swgpu, "linear format %d type %d "
		              "not offered", ci->format, ci->imageType);
		return;
	}
	VKH_CHECK_VK(h, vkCreateImage(d->device, ci, NULL, &img));
	vkGetImageMemoryRequirements(d->device, img, &req);
	for (uint32_t a = 0; a < naspects; a++) {
		const struct block *b = &blocks[a];

		for (uint32_t m = 0; m < ci->mipLevels; m++) {
			uint32_t bw = (mip(ci->extent.width, m) + b->w - 1) /
			              b->w;
			uint32_t bh = (mip(ci->extent.height, m) + b->h - 1) /
			              b->h;
			uint32_t dd = mip(ci->extent.depth, m);
			VkSubresourceLayout first = { 0 };

			for (uint32_t l = 0; l < ci->arrayLayers; l++) {
				VkSubresourceLayout sl;
				VkDeviceSize need;

				vkGetImageSubresourceLayout(d->device, img,
					&(VkImageSubresource){ aspects[a], m,
					                       l }, &sl);
				VKH_CHECK(h, sl.rowPitch >=
				             (VkDeviceSize)bw * b->bytes);
				need = (dd - 1) * sl.depthPitch +
				       (bh - 1) * sl.rowPitch +
				       (VkDeviceSize)bw * b->bytes;
				if (dd > 1)
					VKH_CHECK(h, sl.depthPitch >=
					             sl.rowPitch * bh);
				VKH_CHECK(h, sl.size >= need);
				VKH_CHECK(h, sl.offset + need <= req.size);
				/* (lavapipe's size spans every layer.) */
				VKH_CHECK(h, !h->is_swgpu ||
				             sl.offset + sl.size <= req.size);
				if (l == 0)
					first = sl;
				else
					VKH_CHECK(h, sl.offset ==
					             first.offset +
					             l * sl.arrayPitch);
				VKH_CHECK(h, nr < 64);
				r[nr++] = (struct range){ sl.offset,
				                          sl.offset + need };
			}
		}
	}
	qsort(r, nr, sizeof(r[0]), range_cmp);
	for (uint32_t i = 1; i < nr; i++)
		VKH_CHECK_MSG(h, r[i - 1].hi <= r[i].lo, "subresources "
		              "overlap: [%llu,%llu) [%llu,%llu)",
		              (unsigned long long)r[i - 1].lo,
		              (unsigned long long)r[i - 1].hi,
		              (unsigned long long)r[i].lo,
		              (unsigned long long)r[i].hi);
	vkDestroyImage(d->device, img, NULL);
}

static void
test_subresources(struct vkh *h, struct vkh_device *d)
{
	static const struct {
		VkImageType type;
		VkFormat f;
		VkExtent3D e;
		uint32_t mips, layers;
	} cases[] = {
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, { 33, 17, 1 },
		  1, 1 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, { 33, 17, 1 },
		  4, 3 },
		{ VK_IMAGE_TYPE_1D, VK_FORMAT_R8G8B8_UNORM, { 61, 1, 1 },
		  3, 4 },
		{ VK_IMAGE_TYPE_3D, VK_FORMAT_R16G16B16_UNORM, { 9, 7, 5 },
		  3, 1 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_BC1_RGB_UNORM_BLOCK,
		  { 10, 10, 1 }, 2, 2 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_ASTC_5x4_UNORM_BLOCK,
		  { 23, 9, 1 }, 3, 1 },
	};
	const VkImageAspectFlags colour = VK_IMAGE_ASPECT_COLOR_BIT;
	const int f0 = h->failures;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		VkImageCreateInfo ci = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
			.imageType = cases[i].type, .format = cases[i].f,
			.extent = cases[i].e, .mipLevels = cases[i].mips,
			.arrayLayers = cases[i].layers,
			.samples = VK_SAMPLE_COUNT_1_BIT,
			.tiling = VK_IMAGE_TILING_LINEAR,
			.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
			         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		};
		struct block b = format_block(cases[i].f);

		check_layout(h, d, &ci, &colour, &b, 1);
		if (h->failures != f0)
			return;
	}

	/* Single-aspect depth and stencil formats: the aspect's buffer
	 * packing (X8_D24: 4 bytes, S8: 1 byte) is the texel. */
	static const struct { VkFormat f; VkImageAspectFlags a;
	                      struct block b; } ds[] = {
		{ VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_ASPECT_DEPTH_BIT,
		  { 4, 1, 1 } },
		{ VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT,
		  { 2, 1, 1 } },
		{ VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT,
		  { 1, 1, 1 } },
	};
	for (unsigned i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		VkImageCreateInfo ci = {
			.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
			.imageType = VK_IMAGE_TYPE_2D, .format = ds[i].f,
			.extent = { 13, 5, 1 }, .mipLevels = 2,
			.arrayLayers = 2, .samples = VK_SAMPLE_COUNT_1_BIT,
			.tiling = VK_IMAGE_TILING_LINEAR,
			.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
			         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		};

		if (!h->is_swgpu)
			break;
		check_layout(h, d, &ci, &ds[i].a, &ds[i].b, 1);
		if (h->failures != f0)
			return;
	}
}

/* ---- host access ------------------------------------------------------ */

#define HA_W 37u
#define HA_H 19u
#define HA_MIPS 2u
#define HA_LAYERS 2u

static void
test_host_access(struct vkh *h, struct vkh_device *d)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM,
		.extent = { HA_W, HA_H, 1 }, .mipLevels = HA_MIPS,
		.arrayLayers = HA_LAYERS, .samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_LINEAR,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED,
	};
	VkImageFormatProperties p;
	struct linear_image li;
	struct vkh_buffer out, in;
	VkSubresourceLayout sl[HA_MIPS][HA_LAYERS];
	VkDeviceSize boff[HA_MIPS][HA_LAYERS], total = 0;
	VkCommandBuffer cb;

	if (ifp(h, ci.format, ci.imageType, ci.tiling, ci.usage, 0, &p) ||
	    p.maxMipLevels < HA_MIPS || p.maxArrayLayers < HA_LAYERS) {
		VKH_CHECK(h, !h->is_swgpu);
		/* The single-subresource case every driver offers. */
		ci.mipLevels = ci.arrayLayers = 1;
	}
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &li));
	/* The host writes every texel through the reported layout. */
	for (uint32_t m = 0; m < ci.mipLevels; m++) {
		for (uint32_t l = 0; l < ci.arrayLayers; l++) {
			uint32_t w = mip(HA_W, m), hh = mip(HA_H, m);

			vkGetImageSubresourceLayout(d->device, li.image,
				&(VkImageSubresource){
					VK_IMAGE_ASPECT_COLOR_BIT, m, l },
				&sl[m][l]);
			for (uint32_t y = 0; y < hh; y++)
				for (uint32_t x = 0; x < w * 4; x++)
					li.map[sl[m][l].offset +
					       y * sl[m][l].rowPitch + x] =
						vkh_pattern(m * 8 + l,
						            y * w * 4 + x);
			boff[m][l] = total;
			total += (VkDeviceSize)w * hh * 4;
		}
	}
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, total,
		VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKH_MEM_READBACK, -1, &out));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 24 * 9 * 4,
		VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKH_MEM_UPLOAD, -1, &in));
	memset(out.map, 0xee, total);
	for (uint32_t i = 0; i < 24 * 9 * 4; i++)
		((uint8_t *)in.map)[i] = vkh_pattern(99, i);

	/* Device reads what the host wrote, then writes a sub-box of
	 * (mip 0, last layer) from a buffer with a padded row length; the
	 * layouts change on the way (nothing may be lost). */
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	image_barrier(cb, li.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_PREINITIALIZED,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	for (uint32_t m = 0; m < ci.mipLevels; m++)
		for (uint32_t l = 0; l < ci.arrayLayers; l++)
			vkCmdCopyImageToBuffer(cb, li.image,
				VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
				out.buffer, 1, &(VkBufferImageCopy){
					.bufferOffset = boff[m][l],
					.imageSubresource = {
						VK_IMAGE_ASPECT_COLOR_BIT, m,
						l, 1 },
					.imageExtent = { mip(HA_W, m),
					                 mip(HA_H, m), 1 },
				});
	image_barrier(cb, li.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdCopyBufferToImage(cb, in.buffer, li.image,
		VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &(VkBufferImageCopy){
			.bufferOffset = 4, .bufferRowLength = 24,
			.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0,
			                      ci.arrayLayers - 1, 1 },
			.imageOffset = { 3, 2, 0 },
			.imageExtent = { 20, 8, 1 },
		});
	image_barrier(cb, li.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_IMAGE_LAYOUT_GENERAL,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &out);

	for (uint32_t m = 0; m < ci.mipLevels; m++) {
		for (uint32_t l = 0; l < ci.arrayLayers; l++) {
			uint32_t w = mip(HA_W, m), hh = mip(HA_H, m);
			const uint8_t *o = (uint8_t *)out.map + boff[m][l];

			for (uint32_t i = 0; i < w * hh * 4; i++)
				VKH_CHECK_MSG(h, o[i] ==
				              vkh_pattern(m * 8 + l, i),
				              "mip %u layer %u byte %u", m, l,
				              i);
			/* And the host sees the device's write in place. */
			for (uint32_t y = 0; y < hh; y++) {
				for (uint32_t x = 0; x < w * 4; x++) {
					uint8_t got = li.map[sl[m][l].offset +
						y * sl[m][l].rowPitch + x];
					uint8_t want = vkh_pattern(m * 8 + l,
						y * w * 4 + x);
					uint32_t tx = x / 4;

					if (m == 0 &&
					    l == ci.arrayLayers - 1 &&
					    tx >= 3 && tx < 23 && y >= 2 &&
					    y < 10)
						want = vkh_pattern(99, 4 +
							(y - 2) * 24 * 4 +
							(tx - 3) * 4 + x % 4);
					VKH_CHECK_MSG(h, got == want,
					              "mip %u layer %u (%u,%u) "
					              "byte %u: %02x want %02x",
					              m, l, tx, y, x % 4, got,
					              want);
				}
			}
		}
	}
	vkh_buffer_destroy(d, &out);
	vkh_buffer_destroy(d, &in);
	linear_image_destroy(d, &li);
}

static const struct vkh_test tests[] = {
	{ "formats", test_formats, 1, 0 },
	{ "image_limits", test_image_limits, 1, 0 },
	{ "subresources", test_subresources, 1, 0 },
	{ "host_access", test_host_access, 1, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_icd_image_layout", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
