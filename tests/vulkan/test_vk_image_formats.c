/* SPDX-License-Identifier: MIT */
/*
 * test_vk_image_formats: what the device reports for image formats.
 *
 * required_formats, required_blit_formats: the formats, features and image
 * shapes issue 4 requires of swgpu (on other drivers the gaps are only
 * printed and the test is skipped). format_queries: the 1.0 and ...2
 * queries agree (all drivers); no sample count above 1 on swgpu.
 * Whether reported formats actually work is checked by the copy, blit
 * and clear tests, which exercise every combination the device reports.
 */
#include "image_vk.h"

#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define STYPE_IMAGE_FORMAT_INFO_2 \
	VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2

static const VkImageTiling tilings[] = {
	VK_IMAGE_TILING_LINEAR,
	VK_IMAGE_TILING_OPTIMAL,
};

/* Blit-capable formats of every numeric type the blit tests use. */
static const VkFormat blit_formats[] = {
	VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SNORM,
	VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_UNORM,
	VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R16G16B16A16_UNORM,
	VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT,
	VK_FORMAT_R5G6B5_UNORM_PACK16, VK_FORMAT_A2B10G10R10_UNORM_PACK32,
	VK_FORMAT_R8_UNORM, VK_FORMAT_R16_SFLOAT, VK_FORMAT_R32_SFLOAT,
	VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R16G16B16A16_UINT,
	VK_FORMAT_R16_UINT, VK_FORMAT_R32_UINT, VK_FORMAT_R8G8B8A8_SINT,
	VK_FORMAT_R32G32B32A32_SINT, VK_FORMAT_R16_SINT, VK_FORMAT_R32_SINT,
	VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM,
};

/* What the issue requires swgpu to report (on other drivers: printed
 * only). Colour formats with 1..16-byte blocks: TRANSFER_SRC|DST for
 * LINEAR and OPTIMAL; compressed and depth/stencil: OPTIMAL; image
 * shapes: 1D, 2D arrays with mips, cube-compatible, 3D. */
static void
test_required_formats(struct vkh *h, struct vkh_device *d)
{
	const VkFormatFeatureFlags xfer = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
	                                  VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
	static const struct timg_desc shapes[] = {
		{ VK_IMAGE_TYPE_1D, VK_FORMAT_R8G8B8A8_UNORM,
		  VK_IMAGE_TILING_OPTIMAL, { 64, 1, 1 }, 7, 4, 0 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
		  VK_IMAGE_TILING_OPTIMAL, { 64, 64, 1 }, 7, 8, 0 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
		  VK_IMAGE_TILING_OPTIMAL, { 64, 64, 1 }, 7, 12,
		  VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT },
		{ VK_IMAGE_TYPE_3D, VK_FORMAT_R8G8B8A8_UNORM,
		  VK_IMAGE_TILING_OPTIMAL, { 32, 32, 32 }, 6, 1, 0 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_BC7_UNORM_BLOCK,
		  VK_IMAGE_TILING_OPTIMAL, { 64, 64, 1 }, 7, 4, 0 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_D24_UNORM_S8_UINT,
		  VK_IMAGE_TILING_OPTIMAL, { 64, 64, 1 }, 7, 4, 0 },
	};
	unsigned missing = 0;
	const struct ir_format *f;

	(void)d;
	for (unsigned i = 0; (f = ir_format_by_index(i)); i++) {
		VkFormatProperties fp;
		bool need_linear = !ir_format_is_ds(f) &&
		                   !ir_format_is_compressed(f);
		vkGetPhysicalDeviceFormatProperties(h->phys, f->vk, &fp);
		if ((fp.optimalTilingFeatures & xfer) != xfer ||
		    (need_linear && (fp.linearTilingFeatures & xfer) != xfer)) {
			printf("  %s: TRANSFER_SRC|DST not reported (optimal "
			       "0x%x, linear 0x%x)\n", f->name,
			       fp.optimalTilingFeatures,
			       fp.linearTilingFeatures);
			missing++;
		}
	}
	/* Every core format (1..184: colour, packed, sRGB, depth/stencil,
	 * BC, ETC2/EAC, ASTC LDR) except the 192/256-bit R64G64B64(A64)
	 * ones (116..121): TRANSFER_SRC|DST with OPTIMAL tiling. */
	for (int vf = VK_FORMAT_R4G4_UNORM_PACK8;
	     vf <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; vf++) {
		VkFormatProperties fp;
		if (vf >= VK_FORMAT_R64G64B64_UINT &&
		    vf <= VK_FORMAT_R64G64B64A64_SFLOAT)
			continue;
		vkGetPhysicalDeviceFormatProperties(h->phys, (VkFormat)vf,
		                                    &fp);
		if ((fp.optimalTilingFeatures & xfer) != xfer) {
			printf("  VkFormat %d: TRANSFER_SRC|DST not reported "
			       "(optimal 0x%x)\n", vf,
			       fp.optimalTilingFeatures);
			missing++;
		}
	}
	for (unsigned i = 0; i < N(shapes); i++) {
		const char *why = "";
		if (timg_supported(h, &shapes[i], 0, 0, &why) != VK_SUCCESS) {
			printf("  %s %s %ux%ux%u mips %u layers %u: not "
			       "reported (%s)\n",
			       ir_format_get(shapes[i].format)->name,
			       timg_type_name(&shapes[i]),
			       shapes[i].extent.width, shapes[i].extent.height,
			       shapes[i].extent.depth, shapes[i].mips,
			       shapes[i].layers, why);
			missing++;
		}
	}
	printf("  %u required format/shape combination(s) not reported\n",
	       missing);
	if (!h->is_swgpu) {
		vkh_skip(h, "requirements of issue 4 apply to swgpu only "
		         "(driver \"%s\")", h->driver.driverName);
		return;
	}
	VKH_CHECK_MSG(h, missing == 0, "swgpu does not report %u required "
	              "format/shape combination(s)", missing);
}

/* What the issue requires swgpu to report for blits (printed only on
 * other drivers): BLIT_SRC|DST for blit-capable colour formats of every
 * numeric type, FILTER_LINEAR where LINEAR blits are offered (vkCmdBlit-
 * Image requires it, VUID-vkCmdBlitImage-filter-02001), BLIT for depth. */
static void
test_required_blit_formats(struct vkh *h, struct vkh_device *d)
{
	const VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT |
	                                  VK_FORMAT_FEATURE_BLIT_DST_BIT;
	const VkFormatFeatureFlags lin =
		VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
	unsigned missing = 0;

	(void)d;
	for (unsigned i = 0; i < N(blit_formats); i++) {
		VkFormat f = blit_formats[i];
		const struct ir_format *rf = ir_format_get(f);
		VkFormatProperties fp;
		VkFormatFeatureFlags need = blit;
		if (rf->type != IR_UINT && rf->type != IR_SINT &&
		    !ir_format_is_ds(rf))
			need |= lin;
		vkGetPhysicalDeviceFormatProperties(h->phys, f, &fp);
		if ((fp.optimalTilingFeatures & need) != need) {
			printf("  %s: optimal features 0x%x lack 0x%x\n",
			       rf->name, fp.optimalTilingFeatures,
			       need & ~fp.optimalTilingFeatures);
			missing++;
		}
	}
	printf("  %u format/feature combination(s) not reported\n", missing);
	if (!h->is_swgpu) {
		vkh_skip(h, "requirements of issue 4 apply to swgpu only "
		         "(driver \"%s\")", h->driver.driverName);
		return;
	}
	VKH_CHECK_MSG(h, missing == 0, "swgpu does not report blit features "
	              "for %u format(s)", missing);
}

/* vkGetPhysicalDeviceFormatProperties, ...2 and VkFormatProperties3
 * agree, and so do vkGetPhysicalDeviceImageFormatProperties and ...2
 * (spec: the 2 variants return the same core properties); on swgpu,
 * no sample count above 1 (no MSAA, hence no resolve). */
static void
test_format_queries(struct vkh *h, struct vkh_device *d)
{
	const struct ir_format *f;
	unsigned bad = 0;

	(void)d;
	for (unsigned i = 0; (f = ir_format_by_index(i)); i++) {
		VkFormatProperties p1;
		VkFormatProperties3 p3 = {
			.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3,
		};
		VkFormatProperties2 p2 = {
			.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2,
			.pNext = &p3,
		};
		vkGetPhysicalDeviceFormatProperties(h->phys, f->vk, &p1);
		vkGetPhysicalDeviceFormatProperties2(h->phys, f->vk, &p2);
		/* VkFormatProperties3 may add the bits that exist only as
		 * 64-bit flags (storage read/write without format). */
		const VkFormatFeatureFlags2 only2 =
			VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
			VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
		if (memcmp(&p1, &p2.formatProperties, sizeof(p1)) ||
		    (uint32_t)(p3.linearTilingFeatures & ~only2) !=
		    p1.linearTilingFeatures ||
		    (uint32_t)(p3.optimalTilingFeatures & ~only2) !=
		    p1.optimalTilingFeatures ||
		    (uint32_t)(p3.bufferFeatures & ~only2) !=
		    p1.bufferFeatures) {
			printf("  %s: format properties differ between the "
			       "1.0 query, ...2 and VkFormatProperties3\n",
			       f->name);
			bad++;
		}
		for (unsigned t = 0; t < 2; t++) {
			VkImageFormatProperties i1;
			VkImageFormatProperties2 i2 = {
				.sType =
				VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2,
			};
			VkPhysicalDeviceImageFormatInfo2 info = {
				.sType = STYPE_IMAGE_FORMAT_INFO_2,
				.format = f->vk,
				.type = VK_IMAGE_TYPE_2D,
				.tiling = tilings[t],
				.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
				         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
			};
			VkResult r1, r2;
			memset(&i1, 0, sizeof(i1));
			r1 = vkGetPhysicalDeviceImageFormatProperties(
				h->phys, f->vk, VK_IMAGE_TYPE_2D, tilings[t],
				info.usage, 0, &i1);
			r2 = vkGetPhysicalDeviceImageFormatProperties2(
				h->phys, &info, &i2);
			if (r1 != r2 || (r1 == VK_SUCCESS &&
			    memcmp(&i1, &i2.imageFormatProperties,
			           sizeof(i1)))) {
				printf("  %s %s: image format properties differ "
				       "(%s / %s)\n", f->name,
				       timg_tiling_name(tilings[t]),
				       vkh_result_str(r1), vkh_result_str(r2));
				bad++;
			}
			/* swgpu: 1, 2, 4 and 8 samples for optimal
			 * attachment formats, one sample otherwise */
			if (h->is_swgpu && r1 == VK_SUCCESS &&
			    i1.sampleCounts != VK_SAMPLE_COUNT_1_BIT &&
			    (tilings[t] != VK_IMAGE_TILING_OPTIMAL ||
			     i1.sampleCounts != 0xfu)) {
				printf("  %s %s: sampleCounts 0x%x\n",
				       f->name, timg_tiling_name(tilings[t]),
				       i1.sampleCounts);
				bad++;
			}
		}
	}
	VKH_CHECK_MSG(h, bad == 0, "%u inconsistent format queries", bad);
}

static const struct vkh_test tests[] = {
	{ "required_formats", test_required_formats, 0, 0 },
	{ "required_blit_formats", test_required_blit_formats, 0, 0 },
	{ "format_queries", test_format_queries, 0, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_image_formats", tests,
	                     N(tests));
}
