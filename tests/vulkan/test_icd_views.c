/* SPDX-License-Identifier: MIT */
/*
 * Image views, buffer views and the format features behind them, through
 * the loader with the validation layer:
 *
 *   format_features   storage image / texel buffer / atomic features of a
 *                     few formats, image format properties with STORAGE
 *                     usage (a depth format refused), limits
 *   image_views       views of several kinds: mips and layers with
 *                     VK_REMAINING_*, 1D/2D/3D/cube/arrays, a 2D-array
 *                     view of a 3D image, a mutable-format view, a
 *                     restricted-usage view, an uncompressed view of a
 *                     compressed image (EXTENDED_USAGE)
 *   buffer_views      texel buffer views: offsets, VK_WHOLE_SIZE
 *   view_allocators   views use the allocation callbacks given, and fail
 *                     with VK_ERROR_OUT_OF_HOST_MEMORY when they fail
 *   views_dispatch    descriptors of views (writes, copies, a template)
 *                     read and written by a shader (test_icd_views_dispatch.c)
 *
 * Without the layer (it would stop the calls before the driver), swgpu
 * only: invalid_views (invalid create infos refused with the documented
 * errors, icd/image_view.c, icd/buffer_view.c) and null_descriptors
 * (VK_NULL_HANDLE views read as zero).
 *
 * The feature checks hold on every driver (lavapipe runs them) except
 * where marked swgpu-only; they are skipped on a swgpu whose shader
 * engine does not execute storage images yet (no STORAGE_IMAGE format
 * feature at all).
 */
#include <stdlib.h>
#include <string.h>

#include "test_icd_views.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

VkResult
views_image_create(struct vkh *h, struct vkh_device *d,
                   const VkImageCreateInfo *ci, struct views_image *out)
{
	VkMemoryRequirements req;
	VkResult r;
	int type;

	memset(out, 0, sizeof(*out));
	r = vkCreateImage(d->device, ci, NULL, &out->image);
	if (r != VK_SUCCESS)
		return r;
	vkGetImageMemoryRequirements(d->device, out->image, &req);
	type = vkh_memtype_device_local(h, req.memoryTypeBits);
	if (type < 0)
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	r = vkAllocateMemory(d->device, &(VkMemoryAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)type }, NULL, &out->memory);
	if (r != VK_SUCCESS)
		return r;
	return vkBindImageMemory(d->device, out->image, out->memory, 0);
}

void
views_image_destroy(struct vkh_device *d, struct views_image *img)
{
	vkDestroyImage(d->device, img->image, NULL);
	vkFreeMemory(d->device, img->memory, NULL);
	memset(img, 0, sizeof(*img));
}

VkResult
views_image_view(struct vkh_device *d, VkImage image, VkImageViewType type,
                 VkFormat format, uint32_t base_mip, uint32_t levels,
                 uint32_t base_layer, uint32_t layers, const void *next,
                 VkImageView *out)
{
	VkImageViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.pNext = next,
		.image = image,
		.viewType = type,
		.format = format,
		.subresourceRange = {
			.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
			.baseMipLevel = base_mip, .levelCount = levels,
			.baseArrayLayer = base_layer, .layerCount = layers,
		},
	};

	*out = VK_NULL_HANDLE;
	return vkCreateImageView(d->device, &ci, NULL, out);
}

VkResult
views_buffer_view(struct vkh_device *d, VkBuffer buffer, VkFormat format,
                  VkDeviceSize offset, VkDeviceSize range, VkBufferView *out)
{
	VkBufferViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
		.buffer = buffer,
		.format = format,
		.offset = offset,
		.range = range,
	};

	*out = VK_NULL_HANDLE;
	return vkCreateBufferView(d->device, &ci, NULL, out);
}

bool
views_storage_offered(struct vkh *h)
{
	VkFormatProperties p;

	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_R8G8B8A8_UNORM,
	                                    &p);
	return p.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
}

VkDeviceSize
views_texel_offset(struct vkh *h)
{
	VkPhysicalDeviceVulkan13Properties p13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &p13,
	};
	VkDeviceSize a;

	vkGetPhysicalDeviceProperties2(h->phys, &p);
	/* All powers of two: the largest is a multiple of the others. */
	a = p.properties.limits.minTexelBufferOffsetAlignment;
	if (p13.storageTexelBufferOffsetAlignmentBytes > a)
		a = p13.storageTexelBufferOffsetAlignmentBytes;
	if (p13.uniformTexelBufferOffsetAlignmentBytes > a)
		a = p13.uniformTexelBufferOffsetAlignmentBytes;
	return a;
}

static VkImageCreateInfo
image_ci(VkImageType type, VkFormat format, uint32_t w, uint32_t h,
         uint32_t depth, uint32_t mips, uint32_t layers,
         VkImageUsageFlags usage, VkImageCreateFlags flags)
{
	return (VkImageCreateInfo){
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.flags = flags,
		.imageType = type,
		.format = format,
		.extent = { w, h, depth },
		.mipLevels = mips,
		.arrayLayers = layers,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = usage,
	};
}

/* ------------------------------------------------------------------ */
/* Format features                                                     */
/* ------------------------------------------------------------------ */

/* The SPIR-V storage image formats (StorageImageExtendedFormats
 * included): swgpu offers all of them. */
static const VkFormat spirv_storage_formats[] = {
	VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT,
	VK_FORMAT_R32_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM,
	VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R32G32_SFLOAT,
	VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_B10G11R11_UFLOAT_PACK32,
	VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16B16A16_UNORM,
	VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16G16_UNORM,
	VK_FORMAT_R8G8_UNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R8_UNORM,
	VK_FORMAT_R16G16B16A16_SNORM, VK_FORMAT_R16G16_SNORM,
	VK_FORMAT_R8G8_SNORM, VK_FORMAT_R16_SNORM, VK_FORMAT_R8_SNORM,
	VK_FORMAT_R32G32B32A32_SINT, VK_FORMAT_R16G16B16A16_SINT,
	VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT,
	VK_FORMAT_R16G16_SINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R16_SINT,
	VK_FORMAT_R8_SINT, VK_FORMAT_R32G32B32A32_UINT,
	VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R8G8B8A8_UINT,
	VK_FORMAT_R32_UINT, VK_FORMAT_A2B10G10R10_UINT_PACK32,
	VK_FORMAT_R32G32_UINT, VK_FORMAT_R16G16_UINT, VK_FORMAT_R8G8_UINT,
	VK_FORMAT_R16_UINT, VK_FORMAT_R8_UINT,
};

#define TEXEL_BITS (VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT | \
                    VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT)

static void
test_format_features(struct vkh *h, struct vkh_device *d)
{
	const VkFormatFeatureFlags st = VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
	const VkFormatFeatureFlags at =
		VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
	VkFormatProperties rgba8, r32u, r32i, d32;
	VkImageFormatProperties ifp;
	const VkPhysicalDeviceLimits *l = &h->props.limits;

	/* Limits: at least the spec's minimums, on every driver. */
	VKH_CHECK(h, l->maxTexelBufferElements >= 65536);
	VKH_CHECK(h, l->maxPerStageDescriptorStorageImages >= 4);
	VKH_CHECK(h, l->maxDescriptorSetStorageImages >= 24);
	VKH_CHECK(h, l->minTexelBufferOffsetAlignment <= 256 &&
	             !(l->minTexelBufferOffsetAlignment &
	               (l->minTexelBufferOffsetAlignment - 1)));

	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_R8G8B8A8_UNORM,
	                                    &rgba8);
	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_R32_UINT, &r32u);
	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_R32_SINT, &r32i);
	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_D32_SFLOAT,
	                                    &d32);
	/* A depth format is never a storage image or texel buffer here. */
	VKH_CHECK(h, !(d32.optimalTilingFeatures & st) &&
	             !(d32.linearTilingFeatures & st) &&
	             !(d32.bufferFeatures & TEXEL_BITS));
	VKH_CHECK_RESULT(h, vkGetPhysicalDeviceImageFormatProperties(
		h->phys, VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D,
		VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, 0, &ifp),
		VK_ERROR_FORMAT_NOT_SUPPORTED);
	if (!views_storage_offered(h)) {
		/* Only a swgpu whose engine lacks storage images may. */
		VKH_CHECK(h, h->is_swgpu);
		VKH_CHECK(h, !(r32u.optimalTilingFeatures & (st | at)) &&
		             !r32u.bufferFeatures);
		VKH_CHECK_RESULT(h, vkGetPhysicalDeviceImageFormatProperties(
			h->phys, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
			VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, 0,
			&ifp), VK_ERROR_FORMAT_NOT_SUPPORTED);
		vkh_skip(h, "no storage images offered (shader engine "
		         "without them)");
		return;
	}
	/* The spec's required formats. */
	VKH_CHECK(h, (rgba8.optimalTilingFeatures & st) &&
	             (rgba8.bufferFeatures & TEXEL_BITS) == TEXEL_BITS);
	VKH_CHECK(h, (r32u.optimalTilingFeatures & (st | at)) == (st | at));
	VKH_CHECK(h, (r32i.optimalTilingFeatures & (st | at)) == (st | at));
	VKH_CHECK(h, (r32u.bufferFeatures & (TEXEL_BITS |
	              VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT)) ==
	             (TEXEL_BITS |
	              VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT));
	VKH_CHECK(h, !(rgba8.optimalTilingFeatures & at));
	/* STORAGE usage follows the feature, in both queries. */
	VKH_CHECK_VK(h, vkGetPhysicalDeviceImageFormatProperties(
		h->phys, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
		VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT |
		VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &ifp));
	VKH_CHECK(h, ifp.maxArrayLayers >= 1 && ifp.maxMipLevels >= 1);
	VKH_CHECK_VK(h, vkGetPhysicalDeviceImageFormatProperties(
		h->phys, VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_3D,
		VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT, 0, &ifp));
	VkImageFormatProperties2 ifp2 = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2,
	};
	VkPhysicalDeviceImageFormatInfo2 info = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
		.format = VK_FORMAT_D32_SFLOAT,
		.type = VK_IMAGE_TYPE_2D,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_STORAGE_BIT,
	};
	VKH_CHECK_RESULT(h, vkGetPhysicalDeviceImageFormatProperties2(
		h->phys, &info, &ifp2), VK_ERROR_FORMAT_NOT_SUPPORTED);
	info.format = VK_FORMAT_R32_UINT;
	VKH_CHECK_VK(h, vkGetPhysicalDeviceImageFormatProperties2(
		h->phys, &info, &ifp2));

	/* VkFormatProperties3 holds at least the 32-bit flags. */
	VkFormatProperties3 p3 = {
		.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3,
	};
	VkFormatProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2,
		.pNext = &p3,
	};
	vkGetPhysicalDeviceFormatProperties2(h->phys, VK_FORMAT_R32_UINT, &p2);
	VKH_CHECK(h, (p3.optimalTilingFeatures &
	              r32u.optimalTilingFeatures) ==
	             r32u.optimalTilingFeatures);
	VKH_CHECK(h, (p3.bufferFeatures & r32u.bufferFeatures) ==
	             r32u.bufferFeatures);
	if (!h->is_swgpu)
		return;

	/* swgpu: every SPIR-V storage format is offered for images in both
	 * tilings and for texel buffers, read and written without a
	 * declared format; the features say so. */
	const VkFormatFeatureFlags2 wo =
		VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
		VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
	/* shaderImageFloat32Atomics needs R32_SFLOAT atomics. */
	VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
		.sType =
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
	};
	VkPhysicalDeviceFeatures2 af2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &af,
	};
	vkGetPhysicalDeviceFeatures2(h->phys, &af2);
	const bool float_atomics = af.shaderImageFloat32Atomics;
	for (size_t i = 0; i < sizeof(spirv_storage_formats) /
	                       sizeof(spirv_storage_formats[0]); i++) {
		VkFormat f = spirv_storage_formats[i];

		vkGetPhysicalDeviceFormatProperties2(h->phys, f, &p2);
		VKH_CHECK_MSG(h, (p2.formatProperties.optimalTilingFeatures &
		                  st) &&
		                 (p2.formatProperties.linearTilingFeatures &
		                  st) &&
		                 (p2.formatProperties.bufferFeatures &
		                  TEXEL_BITS) == TEXEL_BITS,
		              "format %d: storage features 0x%x/0x%x/0x%x", f,
		              p2.formatProperties.optimalTilingFeatures,
		              p2.formatProperties.linearTilingFeatures,
		              p2.formatProperties.bufferFeatures);
		VKH_CHECK(h, (p3.optimalTilingFeatures & wo) == wo &&
		             (p3.bufferFeatures & wo) == wo);
		/* R32 integers; R32_SFLOAT for the float atomics. */
		VKH_CHECK(h, !(p2.formatProperties.optimalTilingFeatures &
		               at) == (f != VK_FORMAT_R32_UINT &&
		                       f != VK_FORMAT_R32_SINT &&
		                       (f != VK_FORMAT_R32_SFLOAT ||
		                        !float_atomics)));
	}
	/* sRGB, scaled and 64-bit channels are not storage formats
	 * (uniform texel buffers of what the engine converts are). */
	static const VkFormat none[] = {
		VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_USCALED,
		VK_FORMAT_R64_UINT, VK_FORMAT_R8G8B8_UNORM,
	};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		vkGetPhysicalDeviceFormatProperties(h->phys, none[i], &rgba8);
		VKH_CHECK(h, !(rgba8.optimalTilingFeatures & st) &&
		             !(rgba8.bufferFeatures &
		               VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT));
	}
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	VKH_CHECK(h, f2.features.shaderStorageImageExtendedFormats &&
	             f2.features.shaderStorageImageReadWithoutFormat &&
	             f2.features.shaderStorageImageWriteWithoutFormat &&
	             f2.features.shaderStorageImageArrayDynamicIndexing);
	VKH_CHECK(h, f12.shaderUniformTexelBufferArrayDynamicIndexing &&
	             f12.shaderStorageTexelBufferArrayDynamicIndexing);
	(void)d;
}

/* ------------------------------------------------------------------ */
/* Image and buffer views                                              */
/* ------------------------------------------------------------------ */

static void
test_image_views(struct vkh *h, struct vkh_device *d)
{
	const VkImageUsageFlags su = VK_IMAGE_USAGE_STORAGE_BIT |
	                             VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	struct views_image a, b, c, e, bc = { 0 };
	VkImageView v[16];
	uint32_t n = 0;
	VkImageCreateInfo ci;
	VkImageFormatProperties ifp;

	if (!views_storage_offered(h)) {
		vkh_skip(h, "no storage images offered");
		return;
	}
	/* 2D array with mips, mutable: levels/layers from a base with
	 * VK_REMAINING_*, a reinterpreting R32_UINT view, an sRGB view
	 * restricted to TRANSFER_SRC (sRGB has no storage). */
	ci = image_ci(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 1,
	              3, 4, su, VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT);
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &a));
	VKH_CHECK_VK(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_UNORM, 1, 1, 2, 1, NULL, &v[n++]));
	VKH_CHECK_VK(h, views_image_view(d, a.image,
		VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_UNORM, 1,
		VK_REMAINING_MIP_LEVELS, 1, VK_REMAINING_ARRAY_LAYERS, NULL,
		&v[n++]));
	VKH_CHECK_VK(h, views_image_view(d, a.image,
		VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R32_UINT, 0, 1, 0, 4,
		NULL, &v[n++]));
	VkImageViewUsageCreateInfo only_src = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
	};
	VKH_CHECK_VK(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_SRGB, 0, 1, 3, 1, &only_src, &v[n++]));

	/* 1D and 1D array. */
	ci = image_ci(VK_IMAGE_TYPE_1D, VK_FORMAT_R32_SFLOAT, 16, 1, 1, 2, 2,
	              su, 0);
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &b));
	VKH_CHECK_VK(h, views_image_view(d, b.image, VK_IMAGE_VIEW_TYPE_1D,
		VK_FORMAT_R32_SFLOAT, 1, 1, 1, 1, NULL, &v[n++]));
	VKH_CHECK_VK(h, views_image_view(d, b.image,
		VK_IMAGE_VIEW_TYPE_1D_ARRAY, VK_FORMAT_R32_SFLOAT, 0,
		VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS, NULL,
		&v[n++]));

	/* Cube-compatible: a cube view and a 2D array view of the faces. */
	ci = image_ci(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, 8, 8, 1, 1, 6,
	              su, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &c));
	VKH_CHECK_VK(h, views_image_view(d, c.image, VK_IMAGE_VIEW_TYPE_CUBE,
		VK_FORMAT_R32_UINT, 0, 1, 0, 6, NULL, &v[n++]));
	VKH_CHECK_VK(h, views_image_view(d, c.image,
		VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R32_UINT, 0, 1, 2, 3,
		NULL, &v[n++]));

	/* 3D, 2D-array compatible: the volume, and depth slices as layers
	 * (one level). */
	ci = image_ci(VK_IMAGE_TYPE_3D, VK_FORMAT_R16G16B16A16_SFLOAT, 8, 8,
	              4, 2, 1, su, VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT);
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &e));
	VKH_CHECK_VK(h, views_image_view(d, e.image, VK_IMAGE_VIEW_TYPE_3D,
		VK_FORMAT_R16G16B16A16_SFLOAT, 0, VK_REMAINING_MIP_LEVELS, 0, 1,
		NULL, &v[n++]));
	VKH_CHECK_VK(h, views_image_view(d, e.image,
		VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R16G16B16A16_SFLOAT, 0,
		1, 1, VK_REMAINING_ARRAY_LAYERS, NULL, &v[n++]));

	/* A BC1 image written through 8-byte uint texels, one per block
	 * (EXTENDED_USAGE: STORAGE is the view format's usage). Optional
	 * elsewhere, offered by swgpu. */
	ci = image_ci(VK_IMAGE_TYPE_2D, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 16,
	              16, 1, 1, 1, su,
	              VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
	              VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
	              VK_IMAGE_CREATE_EXTENDED_USAGE_BIT);
	VkResult r = vkGetPhysicalDeviceImageFormatProperties(
		h->phys, ci.format, ci.imageType, ci.tiling, ci.usage,
		ci.flags, &ifp);
	VKH_CHECK(h, r == VK_SUCCESS || (!h->is_swgpu &&
	                                 r == VK_ERROR_FORMAT_NOT_SUPPORTED));
	if (r == VK_SUCCESS) {
		VKH_CHECK_VK(h, views_image_create(h, d, &ci, &bc));
		VKH_CHECK_VK(h, views_image_view(d, bc.image,
			VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32G32_UINT, 0, 1, 0,
			1, NULL, &v[n++]));
	}

	while (n)
		vkDestroyImageView(d->device, v[--n], NULL);
	/* Destroying VK_NULL_HANDLE is a no-op. */
	vkDestroyImageView(d->device, VK_NULL_HANDLE, NULL);
	views_image_destroy(d, &a);
	views_image_destroy(d, &b);
	views_image_destroy(d, &c);
	views_image_destroy(d, &e);
	if (bc.image)
		views_image_destroy(d, &bc);
}

static void
test_buffer_views(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize off = views_texel_offset(h);
	struct vkh_buffer b = { 0 };
	VkBufferView v[4];
	uint32_t n = 0;

	if (!views_storage_offered(h)) {
		vkh_skip(h, "no texel buffers offered");
		return;
	}
	/* An odd size: VK_WHOLE_SIZE takes the whole texels that fit. */
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 4 * off + 3,
		VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
		VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
		VKH_MEM_DEVICE_LOCAL, -1, &b));
	VKH_CHECK_VK(h, views_buffer_view(d, b.buffer, VK_FORMAT_R32_UINT, 0,
		VK_WHOLE_SIZE, &v[n++]));
	VKH_CHECK_VK(h, views_buffer_view(d, b.buffer,
		VK_FORMAT_R8G8B8A8_UNORM, off, VK_WHOLE_SIZE, &v[n++]));
	VKH_CHECK_VK(h, views_buffer_view(d, b.buffer,
		VK_FORMAT_R32G32B32A32_SFLOAT, 2 * off, 2 * off, &v[n++]));
	VKH_CHECK_VK(h, views_buffer_view(d, b.buffer, VK_FORMAT_R16_SINT,
		off, 2, &v[n++]));
	while (n)
		vkDestroyBufferView(d->device, v[--n], NULL);
	vkDestroyBufferView(d->device, VK_NULL_HANDLE, NULL);
	vkh_buffer_destroy(d, &b);
}

/* ------------------------------------------------------------------ */
/* Allocation callbacks                                                */
/* ------------------------------------------------------------------ */

struct counting {
	int allocs, frees;
	bool fail;
};

static void *VKAPI_PTR
count_alloc(void *user, size_t size, size_t align,
            VkSystemAllocationScope scope)
{
	struct counting *c = user;
	void *p;

	if (c->fail)
		return NULL;
	if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align,
	                   size ? size : 1))
		return NULL;
	c->allocs++;
	return p;
}

static void *VKAPI_PTR
count_realloc(void *user, void *old, size_t size, size_t align,
              VkSystemAllocationScope scope)
{
	struct counting *c = user;
	void *p;

	if (c->fail)
		return NULL;
	p = realloc(old, size);
	if (p && !old)
		c->allocs++;
	return p;
}

static void VKAPI_PTR
count_free(void *user, void *p)
{
	struct counting *c = user;

	if (p)
		c->frees++;
	free(p);
}

static void
test_view_allocators(struct vkh *h, struct vkh_device *d)
{
	struct counting c = { 0 };
	VkAllocationCallbacks ac = {
		.pUserData = &c,
		.pfnAllocation = count_alloc,
		.pfnReallocation = count_realloc,
		.pfnFree = count_free,
	};
	VkImageCreateInfo ci = image_ci(VK_IMAGE_TYPE_2D,
		VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, 1,
		VK_IMAGE_USAGE_STORAGE_BIT, 0);
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	VkBufferViewCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
		.format = VK_FORMAT_R32_UINT,
		.range = VK_WHOLE_SIZE,
	};
	struct views_image img;
	struct vkh_buffer buf = { 0 };
	VkImageView iv;
	VkBufferView bv;

	if (!views_storage_offered(h)) {
		vkh_skip(h, "no storage images offered");
		return;
	}
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &img));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 256,
		VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, VKH_MEM_DEVICE_LOCAL,
		-1, &buf));
	vci.image = img.image;
	bci.buffer = buf.buffer;
	VKH_CHECK_VK(h, vkCreateImageView(d->device, &vci, &ac, &iv));
	VKH_CHECK_VK(h, vkCreateBufferView(d->device, &bci, &ac, &bv));
	VKH_CHECK_MSG(h, c.allocs >= 2 && c.frees < c.allocs,
	              "%d allocations, %d frees", c.allocs, c.frees);
	vkDestroyImageView(d->device, iv, &ac);
	vkDestroyBufferView(d->device, bv, &ac);
	VKH_CHECK_MSG(h, c.allocs == c.frees, "%d allocations, %d frees",
	              c.allocs, c.frees);
	/* The layer may report an OUT_OF_HOST_MEMORY return as an error;
	 * here it is the point. */
	vkh_expect_message("VK_ERROR_OUT_OF_HOST_MEMORY");
	c.fail = true;
	VKH_CHECK_RESULT(h, vkCreateImageView(d->device, &vci, &ac, &iv),
	                 VK_ERROR_OUT_OF_HOST_MEMORY);
	VKH_CHECK_RESULT(h, vkCreateBufferView(d->device, &bci, &ac, &bv),
	                 VK_ERROR_OUT_OF_HOST_MEMORY);
	vkh_expect_clear();
	views_image_destroy(d, &img);
	vkh_buffer_destroy(d, &buf);
}

/* ------------------------------------------------------------------ */
/* Invalid create infos (swgpu, without the layer)                     */
/* ------------------------------------------------------------------ */

static bool
no_layer_swgpu(struct vkh *h)
{
	if (!h->is_swgpu || h->validation) {
		vkh_skip(h, "swgpu without the validation layer only (it "
		         "stops invalid calls before the driver)");
		return false;
	}
	if (!views_storage_offered(h)) {
		vkh_skip(h, "no storage images offered");
		return false;
	}
	return true;
}

static void
test_invalid_views(struct vkh *h, struct vkh_device *d)
{
	const VkImageUsageFlags su = VK_IMAGE_USAGE_STORAGE_BIT |
	                             VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	struct views_image a, t, m;
	struct vkh_buffer b = { 0 }, nb = { 0 };
	VkImageCreateInfo ci;
	VkImageView v;
	VkBufferView bv;
	VkImage unbound;

	if (!no_layer_swgpu(h))
		return;
	ci = image_ci(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 2,
	              2, su, 0);
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &a));
	ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &m));
	ci.flags = 0;
	ci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	VKH_CHECK_VK(h, views_image_create(h, d, &ci, &t));
	ci.usage = su;
	VKH_CHECK_VK(h, vkCreateImage(d->device, &ci, NULL, &unbound));

	/* Subresources outside the image. */
	VKH_CHECK_RESULT(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_UNORM, 2, 1, 0, 1, NULL, &v),
		VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_image_view(d, a.image,
		VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_UNORM, 0, 1, 1,
		2, NULL, &v), VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_UNORM, 0, 0, 0, 1, NULL, &v),
		VK_ERROR_UNKNOWN);
	/* A 2D view of two layers; a 3D view of a 2D image; a cube of a
	 * non-cube image. */
	VKH_CHECK_RESULT(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_UNORM, 0, 1, 0, 2, NULL, &v),
		VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_3D,
		VK_FORMAT_R8G8B8A8_UNORM, 0, 1, 0, 1, NULL, &v),
		VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_image_view(d, a.image,
		VK_IMAGE_VIEW_TYPE_CUBE, VK_FORMAT_R8G8B8A8_UNORM, 0, 1, 0, 2,
		NULL, &v), VK_ERROR_UNKNOWN);
	/* Another format without MUTABLE_FORMAT; a storage view of a
	 * format without storage (mutable image, inherited usage). */
	VKH_CHECK_RESULT(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R32_UINT, 0, 1, 0, 1, NULL, &v), VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_image_view(d, m.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_SRGB, 0, 1, 0, 1, NULL, &v),
		VK_ERROR_FORMAT_NOT_SUPPORTED);
	VKH_CHECK_RESULT(h, views_image_view(d, m.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R16G16B16A16_UINT, 0, 1, 0, 1, NULL, &v),
		VK_ERROR_UNKNOWN);
	/* Usage the image lacks; an image with no view usage; unbound. */
	VkImageViewUsageCreateInfo u = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
		.usage = VK_IMAGE_USAGE_STORAGE_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	VKH_CHECK_RESULT(h, views_image_view(d, a.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_UNORM, 0, 1, 0, 1, &u, &v),
		VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_image_view(d, t.image, VK_IMAGE_VIEW_TYPE_2D,
		VK_FORMAT_R8G8B8A8_UNORM, 0, 1, 0, 1, NULL, &v),
		VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_image_view(d, unbound,
		VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 0, 1, 0, 1,
		NULL, &v), VK_ERROR_UNKNOWN);
	/* Storage usage of a depth format. */
	ci = image_ci(VK_IMAGE_TYPE_2D, VK_FORMAT_D32_SFLOAT, 8, 8, 1, 1, 1,
	              su, 0);
	VKH_CHECK_RESULT(h, vkCreateImage(d->device, &ci, NULL, &unbound),
	                 VK_ERROR_FORMAT_NOT_SUPPORTED);

	/* Buffer views. */
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 1024,
		VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, VKH_MEM_DEVICE_LOCAL,
		-1, &b));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 1024,
		VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKH_MEM_DEVICE_LOCAL, -1,
		&nb));
	/* Offset not aligned to the texel; range not whole texels; past
	 * the end; empty; offset past the end. */
	VKH_CHECK_RESULT(h, views_buffer_view(d, b.buffer, VK_FORMAT_R32_UINT,
		2, 16, &bv), VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_buffer_view(d, b.buffer, VK_FORMAT_R32_UINT,
		0, 6, &bv), VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_buffer_view(d, b.buffer, VK_FORMAT_R32_UINT,
		64, 1024, &bv), VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_buffer_view(d, b.buffer, VK_FORMAT_R32_UINT,
		0, 0, &bv), VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_buffer_view(d, b.buffer, VK_FORMAT_R32_UINT,
		1024, VK_WHOLE_SIZE, &bv), VK_ERROR_UNKNOWN);
	/* No texel usage; formats without the texel buffer feature. */
	VKH_CHECK_RESULT(h, views_buffer_view(d, nb.buffer, VK_FORMAT_R32_UINT,
		0, VK_WHOLE_SIZE, &bv), VK_ERROR_UNKNOWN);
	VKH_CHECK_RESULT(h, views_buffer_view(d, b.buffer,
		VK_FORMAT_R8G8B8A8_SRGB, 0, VK_WHOLE_SIZE, &bv),
		VK_ERROR_FORMAT_NOT_SUPPORTED);
	VKH_CHECK_RESULT(h, views_buffer_view(d, b.buffer, VK_FORMAT_D32_SFLOAT,
		0, VK_WHOLE_SIZE, &bv), VK_ERROR_FORMAT_NOT_SUPPORTED);

	vkDestroyImage(d->device, unbound, NULL);
	views_image_destroy(d, &a);
	views_image_destroy(d, &m);
	views_image_destroy(d, &t);
	vkh_buffer_destroy(d, &b);
	vkh_buffer_destroy(d, &nb);
}

static void
test_null_descriptors(struct vkh *h, struct vkh_device *d)
{
	if (no_layer_swgpu(h))
		test_views_null_descriptors(h, d);
}

static const struct vkh_test tests[] = {
	{ "format_features", test_format_features, 1, 0 },
	{ "image_views", test_image_views, 1, 0 },
	{ "buffer_views", test_buffer_views, 1, 0 },
	{ "view_allocators", test_view_allocators, 1, 0 },
	{ "views_dispatch", test_views_dispatch, 1, VK_QUEUE_COMPUTE_BIT },
	{ "invalid_views", test_invalid_views, 1, 0 },
	{ "null_descriptors", test_null_descriptors, 1,
	  VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_icd_views", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
