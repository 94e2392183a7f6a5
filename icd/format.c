/* SPDX-License-Identifier: MIT */
/*
 * format.c — supported image formats, their planes, format features and
 * image format properties (see format.h for what is offered and why).
 */
#include <spirv/unified1/spirv.h>
#include <swgpu/swgpu.h>
#include <swgpu/swgpu_format.h>

#include "format.h"

static uint32_t
icd_engine_format(VkFormat format)
{
	const struct icd_format_desc *d = icd_format_describe(format);

	return d ? d->swgpu_format : 0;
}

static void
icd_plane_set(struct icd_plane_format *p, VkImageAspectFlagBits aspect,
              uint32_t block_size, VkFormat plane_format)
{
	p->aspect = aspect;
	p->block_size = block_size;
	p->block_w = 1;
	p->block_h = 1;
	p->swgpu_format = icd_engine_format(plane_format);
}

/* Depth/stencil: the depth plane holds the aspect's buffer packing, so its
 * engine format is the single-aspect format with that packing. */
static bool
icd_format_depth_stencil(const struct icd_format_desc *d,
                         struct icd_format *f)
{
	VkFormat depth;
	uint32_t depth_size;

	switch (d->depth_bits) {
	case 0:
		depth = VK_FORMAT_UNDEFINED;
		depth_size = 0;
		break;
	case 16:
		depth = VK_FORMAT_D16_UNORM;
		depth_size = 2;
		break;
	case 24:
		depth = VK_FORMAT_X8_D24_UNORM_PACK32;
		depth_size = 4;
		break;
	case 32:
		depth = VK_FORMAT_D32_SFLOAT;
		depth_size = 4;
		break;
	default:
		return false;
	}
	if (d->stencil_bits && d->stencil_bits != 8)
		return false;
	if (depth_size) {
		icd_plane_set(&f->planes[f->plane_count++],
		              VK_IMAGE_ASPECT_DEPTH_BIT, depth_size, depth);
		f->aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
	}
	if (d->stencil_bits) {
		icd_plane_set(&f->planes[f->plane_count++],
		              VK_IMAGE_ASPECT_STENCIL_BIT, 1,
		              VK_FORMAT_S8_UINT);
		f->aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
	}
	return true;
}

static bool
icd_format_compressed_ok(const struct icd_format_desc *d)
{
	switch (d->compression) {
	case ICD_COMPRESSION_BC:
	case ICD_COMPRESSION_ETC2:
	case ICD_COMPRESSION_EAC:
	case ICD_COMPRESSION_ASTC_LDR:
		return d->block_d == 1;
	default:
		/* ASTC HDR and PVRTC are extension formats. */
		return false;
	}
}

bool
icd_format_get(VkFormat format, struct icd_format *f)
{
	const struct icd_format_desc *d = icd_format_describe(format);

	memset(f, 0, sizeof(*f));
	if (!d)
		return false;
	f->desc = d;
	if (d->depth_bits || d->stencil_bits) {
		if (icd_format_depth_stencil(d, f))
			return true;
		memset(f, 0, sizeof(*f));
		return false;
	}
	if (d->compression != ICD_COMPRESSION_NONE) {
		if (!icd_format_compressed_ok(d)) {
			memset(f, 0, sizeof(*f));
			return false;
		}
	} else if (d->texels_per_block != 1 || d->block_size < 1 ||
	           d->block_size > 16) {
		/* 24- and 32-byte (R64G64B64[A64]) texels are beyond the
		 * 16-byte blocks the copy paths promise. */
		memset(f, 0, sizeof(*f));
		return false;
	}
	f->aspects = VK_IMAGE_ASPECT_COLOR_BIT;
	f->plane_count = 1;
	f->planes[0] = (struct icd_plane_format){
		.aspect = VK_IMAGE_ASPECT_COLOR_BIT,
		.block_size = d->block_size,
		.block_w = d->block_w,
		.block_h = d->block_h,
		.swgpu_format = d->swgpu_format,
	};
	return true;
}

int
icd_format_plane(const struct icd_format *f, VkImageAspectFlags aspect)
{
	for (uint32_t p = 0; p < f->plane_count; p++)
		if (f->planes[p].aspect == aspect)
			return (int)p;
	return -1;
}

uint32_t
icd_format_block_size(VkFormat format)
{
	struct icd_format f;

	return icd_format_get(format, &f) ? f.desc->block_size : 0;
}

/* The engine blits a plane when it decodes and encodes its format. */
static bool
icd_plane_blittable(const struct icd_plane_format *p)
{
	return p->swgpu_format &&
	       swgpu_format_blittable((enum swgpu_format)p->swgpu_format);
}

/* The storage image formats: those with a SPIR-V Image Format (the
 * spec's list), plus the packed RGBA8 orders of the same bit layouts
 * (A8B8G8R8_*_PACK32, which the mandatory format table asks storage for,
 * and B8G8R8A8_UNORM). R64 formats are not: the engine keeps channels of
 * at most 32 bits. */
static const VkFormat icd_storage_formats[] = {
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
	VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_A8B8G8R8_SNORM_PACK32,
	VK_FORMAT_A8B8G8R8_UINT_PACK32, VK_FORMAT_A8B8G8R8_SINT_PACK32,
	VK_FORMAT_B8G8R8A8_UNORM,
};

/* The shader engine converts texels of the format (storage images,
 * texel buffers): one colour plane whose engine format passes
 * swgpu_format_shader_storage(), the rule DISPATCH applies to
 * descriptors. */
static bool
icd_engine_converts(VkFormat format)
{
	struct icd_format f;

	if (!icd_format_get(format, &f) ||
	    f.aspects != VK_IMAGE_ASPECT_COLOR_BIT ||
	    !f.planes[0].swgpu_format)
		return false;
	return swgpu_format_shader_storage(f.planes[0].swgpu_format);
}

static bool
icd_storage_format(VkFormat format)
{
	for (size_t i = 0; i < sizeof(icd_storage_formats) /
	                       sizeof(icd_storage_formats[0]); i++)
		if (icd_storage_formats[i] == format)
			return icd_engine_converts(format);
	return false;
}

/* The engine's texel atomics are 32-bit integer ones. */
static bool
icd_atomic_format(VkFormat format)
{
	/* 32-bit texel words; R32_SFLOAT for the float atomics
	 * (shaderImageFloat32Atomics, VK_EXT_shader_atomic_float). */
	return format == VK_FORMAT_R32_UINT || format == VK_FORMAT_R32_SINT ||
	       (format == VK_FORMAT_R32_SFLOAT &&
	        swgpu_shader_capability_supported(
			SpvCapabilityAtomicFloat32AddEXT));
}

/* What shaders may do with images of the format: asked of the engine,
 * so nothing is offered before it executes it. */
static VkFormatFeatureFlags2
icd_format_image_shader_features(VkFormat format)
{
	VkFormatFeatureFlags2 feat;

	if (!swgpu_shader_descriptor_type_supported(
		    SWGPU_DESCRIPTOR_STORAGE_IMAGE) ||
	    !icd_storage_format(format))
		return 0;
	/* The engine converts by the descriptor's format, so a shader may
	 * read and write without declaring one. */
	feat = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT |
	       VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
	       VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
	if (icd_atomic_format(format))
		feat |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT;
	return feat;
}

VkFormatFeatureFlags2
icd_format_buffer_features(VkFormat format)
{
	VkFormatFeatureFlags2 feat = icd_format_vertex_features(format);

	if (swgpu_shader_descriptor_type_supported(
		    SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER) &&
	    icd_engine_converts(format))
		feat |= VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT;
	if (swgpu_shader_descriptor_type_supported(
		    SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER) &&
	    icd_storage_format(format)) {
		feat |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT |
		        VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
		        VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
		if (icd_atomic_format(format))
			feat |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
	}
	return feat;
}

bool
icd_format_view_compatible(VkFormat image_format, VkImageCreateFlags flags,
                           VkFormat view_format)
{
	const struct icd_format_desc *i = icd_format_describe(image_format);
	const struct icd_format_desc *v = icd_format_describe(view_format);
	bool ic, vc;

	if (image_format == view_format)
		return true;
	if (!i || !v || !(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
		return false;
	/* Depth/stencil formats are each their own class. */
	if (i->depth_bits || i->stencil_bits || v->depth_bits ||
	    v->stencil_bits || i->block_size != v->block_size)
		return false;
	ic = i->compression != ICD_COMPRESSION_NONE;
	vc = v->compression != ICD_COMPRESSION_NONE;
	/* Colour formats of one texel size share a class; compressed ones
	 * need the same scheme and block shape; an uncompressed view of a
	 * compressed image sees one texel per block and needs
	 * BLOCK_TEXEL_VIEW_COMPATIBLE. */
	if (!ic)
		return !vc;
	if (vc)
		return v->compression == i->compression &&
		       v->block_w == i->block_w && v->block_h == i->block_h;
	return (flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) != 0;
}

/* A compressed format the engine decodes (the BC family, format_bc.c)
 * is a BLIT source, LINEAR included, and a sampled image; it is never a
 * BLIT destination or a storage image (nothing encodes blocks). */
static VkFormatFeatureFlags2
icd_format_compressed_features(const struct icd_format *f)
{
	const uint32_t sw = f->planes[0].swgpu_format;
	VkFormatFeatureFlags2 feat = 0;

	if (!swgpu_format_blit_source(sw))
		return 0;
	feat |= VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
	        VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
	if (swgpu_shader_descriptor_type_supported(
		    SWGPU_DESCRIPTOR_SAMPLED_IMAGE) &&
	    swgpu_format_shader_sampled(sw))
		feat |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
	return feat;
}

VkFormatFeatureFlags2
icd_format_features(VkFormat format, VkImageTiling tiling)
{
	VkFormatFeatureFlags2 feat = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT |
	                             VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
	struct icd_format f;
	bool blit = true;

	if (!icd_format_get(format, &f))
		return 0;
	/* LINEAR and OPTIMAL share one layout (image.c). */
	if (tiling != VK_IMAGE_TILING_LINEAR &&
	    tiling != VK_IMAGE_TILING_OPTIMAL)
		return 0;
	/* Except: no LINEAR depth+stencil formats. The host would need
	 * vkGetImageSubresourceLayout per aspect plane, which Vulkan 1.3
	 * (VUID-vkGetImageSubresourceLayout-format-04462/04463, as the
	 * validation layer checks them) does not let an application ask
	 * for; single-aspect depth or stencil formats are fine. */
	if (tiling == VK_IMAGE_TILING_LINEAR && f.plane_count > 1)
		return 0;
	if (f.desc->compression != ICD_COMPRESSION_NONE)
		return feat | icd_format_compressed_features(&f);
	/* vkCmdClearColorImage/ClearDepthStencilImage need TRANSFER_DST
	 * only, and they encode the clear value like a blit writes texels:
	 * a format the engine cannot encode is not offered at all rather
	 * than offered with a clear that cannot work. */
	for (uint32_t p = 0; p < f.plane_count; p++)
		blit = blit && icd_plane_blittable(&f.planes[p]);
	if (!blit)
		return 0;
	feat |= VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
	        VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
	/* Depth/stencil blits are NEAREST only; integer formats have no
	 * LINEAR filtering. With BLIT_SRC this bit means LINEAR blits. */
	if (f.aspects == VK_IMAGE_ASPECT_COLOR_BIT &&
	    f.desc->numeric != ICD_NUMERIC_UINT &&
	    f.desc->numeric != ICD_NUMERIC_SINT)
		feat |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
	/* Sampling decodes like a blit reads (every plane: a view picks
	 * depth or stencil); LINEAR filtering on the same formats. */
	if (swgpu_shader_descriptor_type_supported(
		    SWGPU_DESCRIPTOR_SAMPLED_IMAGE)) {
		/* Not the SCALED formats: the spec requires no sampling of
		 * them, lavapipe offers none, and the CTS samples them with
		 * an integer sampled type where the spec's numeric format
		 * says float, so no behaviour would be portable. */
		bool sampled = f.desc->numeric != ICD_NUMERIC_USCALED &&
		               f.desc->numeric != ICD_NUMERIC_SSCALED;

		for (uint32_t p = 0; p < f.plane_count; p++)
			sampled = sampled && swgpu_format_shader_sampled(
				f.planes[p].swgpu_format);
		if (sampled)
			feat |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
		/* Depth comparison (Dref sampling, SWGPU_SAMPLER_COMPARE_*)
		 * on every sampled depth format. */
		if (sampled && (f.aspects & VK_IMAGE_ASPECT_DEPTH_BIT))
			feat |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
	}
	return feat | icd_format_image_shader_features(format) |
	       icd_format_attachment_features(&f);
}

/* Whether some format a view of the image may have (MUTABLE_FORMAT) is a
 * storage format: what EXTENDED_USAGE asks of STORAGE usage, e.g. a BC
 * image written through R32G32B32A32_UINT texels, one per block. */
static bool
icd_storage_view_exists(VkFormat format, VkImageCreateFlags flags)
{
	for (size_t i = 0; i < sizeof(icd_storage_formats) /
	                       sizeof(icd_storage_formats[0]); i++)
		if (icd_format_view_compatible(format, flags,
		                               icd_storage_formats[i]) &&
		    icd_format_image_shader_features(icd_storage_formats[i]))
			return true;
	return false;
}

VkImageUsageFlags
icd_image_usage_supported(VkFormat format, VkImageTiling tiling,
                          VkImageCreateFlags flags)
{
	VkImageUsageFlags u = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	                      VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	VkFormatFeatureFlags2 feat = icd_format_features(format, tiling);

	if (feat & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT)
		u |= VK_IMAGE_USAGE_SAMPLED_BIT;
	u |= icd_format_attachment_usage(feat);
	if ((icd_format_features(format, tiling) &
	     VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT) ||
	    ((flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT) &&
	     icd_storage_view_exists(format, flags)))
		u |= VK_IMAGE_USAGE_STORAGE_BIT;
	return u;
}

static uint32_t
icd_log2_floor(uint32_t v)
{
	uint32_t r = 0;

	while (v >>= 1)
		r++;
	return r;
}

/* Create flags whose meaning the layout honours: the layout of an image
 * does not depend on them (views, cube and 2D-array views of 3D images
 * only reinterpret it) and aliasing images with identical create infos
 * get identical layouts. */
#define ICD_IMAGE_CREATE_SUPPORTED \
	(VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | \
	 VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT | \
	 VK_IMAGE_CREATE_ALIAS_BIT | \
	 VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | \
	 VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT | \
	 VK_IMAGE_CREATE_EXTENDED_USAGE_BIT)

/* Sample counts of an image (the rules of VkImageFormatProperties):
 * only 2D optimal non-cube images of an attachment format get more than
 * one, and every usage narrows them to its limit. */
static VkSampleCountFlags
image_sample_counts(struct icd_physical_device *pdev, const struct icd_format *f,
                    VkFormatFeatureFlags2 feat, VkImageType type,
                    VkImageTiling tiling, VkImageUsageFlags usage,
                    VkImageCreateFlags flags)
{
	const VkPhysicalDeviceLimits *l = &pdev->properties.limits;
	const uint32_t cls = swgpu_format_blit_class(f->planes[0].swgpu_format);
	const bool integer = cls == SWGPU_BLIT_CLASS_UINT ||
	                     cls == SWGPU_BLIT_CLASS_SINT;
	VkSampleCountFlags c = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT |
	                       VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;

	if (!icd_physical_device_has_graphics(pdev) ||
	    type != VK_IMAGE_TYPE_2D || tiling != VK_IMAGE_TILING_OPTIMAL ||
	    (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) ||
	    !(feat & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT |
	              VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)))
		return VK_SAMPLE_COUNT_1_BIT;
	if (f->aspects & VK_IMAGE_ASPECT_COLOR_BIT) {
		c &= integer ? pdev->properties_1x.v12
		               .framebufferIntegerColorSampleCounts
		             : l->framebufferColorSampleCounts;
		if (usage & VK_IMAGE_USAGE_SAMPLED_BIT)
			c &= integer ? l->sampledImageIntegerSampleCounts
			             : l->sampledImageColorSampleCounts;
	}
	if (f->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) {
		c &= l->framebufferDepthSampleCounts;
		if (usage & VK_IMAGE_USAGE_SAMPLED_BIT)
			c &= l->sampledImageDepthSampleCounts;
	}
	if (f->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) {
		c &= l->framebufferStencilSampleCounts;
		if (usage & VK_IMAGE_USAGE_SAMPLED_BIT)
			c &= l->sampledImageStencilSampleCounts;
	}
	if (usage & VK_IMAGE_USAGE_STORAGE_BIT)
		c &= l->storageImageSampleCounts;
	return c;
}

VkResult
icd_image_format_properties(struct icd_physical_device *pdev,
                            VkFormat format, VkImageType type,
                            VkImageTiling tiling, VkImageUsageFlags usage,
                            VkImageCreateFlags flags,
                            VkImageFormatProperties *props)
{
	const VkPhysicalDeviceLimits *l = &pdev->properties.limits;
	VkFormatFeatureFlags2 feat = icd_format_features(format, tiling);
	struct icd_format f;
	VkExtent3D max;
	uint32_t layers, m;

	memset(props, 0, sizeof(*props));
	if (!feat || !icd_format_get(format, &f))
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if (!usage || (usage & ~icd_image_usage_supported(format, tiling,
	                                                  flags)))
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	/* No sparse, protected, disjoint or split-instance images. */
	if (flags & ~ICD_IMAGE_CREATE_SUPPORTED)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
	    type != VK_IMAGE_TYPE_2D)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((flags & VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT) &&
	    type != VK_IMAGE_TYPE_3D)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	if ((flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) &&
	    f.desc->compression == ICD_COMPRESSION_NONE)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	/* Compressed blocks: 2D images only (1D and 3D block images are
	 * optional and not what block-compressed content is made for). */
	if (f.desc->compression != ICD_COMPRESSION_NONE &&
	    type != VK_IMAGE_TYPE_2D)
		return VK_ERROR_FORMAT_NOT_SUPPORTED;

	switch (type) {
	case VK_IMAGE_TYPE_1D:
		max = (VkExtent3D){ l->maxImageDimension1D, 1, 1 };
		layers = l->maxImageArrayLayers;
		break;
	case VK_IMAGE_TYPE_2D:
		if (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT)
			max = (VkExtent3D){ l->maxImageDimensionCube,
			                    l->maxImageDimensionCube, 1 };
		else
			max = (VkExtent3D){ l->maxImageDimension2D,
			                    l->maxImageDimension2D, 1 };
		layers = l->maxImageArrayLayers;
		break;
	case VK_IMAGE_TYPE_3D:
		max = (VkExtent3D){ l->maxImageDimension3D,
		                    l->maxImageDimension3D,
		                    l->maxImageDimension3D };
		layers = 1;
		break;
	default:
		return VK_ERROR_FORMAT_NOT_SUPPORTED;
	}
	/* LINEAR images have the OPTIMAL layout (image.c), so they get the
	 * same limits: mips, layers and 1D/3D included. */
	m = max.width > max.height ? max.width : max.height;
	m = m > max.depth ? m : max.depth;
	props->maxExtent = max;
	props->maxMipLevels = icd_log2_floor(m) + 1;
	if (props->maxMipLevels > ICD_MAX_MIP_LEVELS)
		props->maxMipLevels = ICD_MAX_MIP_LEVELS;
	props->maxArrayLayers = layers;
	props->sampleCounts = image_sample_counts(pdev, &f, feat, type, tiling,
	                                          usage, flags);
	/* 2 GiB: the spec's minimum, and below every heap. */
	props->maxResourceSize = UINT64_C(1) << 31;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFormatProperties(VkPhysicalDevice physicalDevice,
                                      VkFormat format,
                                      VkFormatProperties *pFormatProperties)
{
	/* The 32-bit VkFormatFeatureFlagBits: all but STORAGE_READ/WRITE_
	 * WITHOUT_FORMAT, which exist only as 64-bit flags (bits 31, 32). */
	const VkFormatFeatureFlags2 only2 =
		VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
		VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;

	pFormatProperties->linearTilingFeatures = (VkFormatFeatureFlags)
		(icd_format_features(format, VK_IMAGE_TILING_LINEAR) & ~only2);
	pFormatProperties->optimalTilingFeatures = (VkFormatFeatureFlags)
		(icd_format_features(format, VK_IMAGE_TILING_OPTIMAL) & ~only2);
	pFormatProperties->bufferFeatures = (VkFormatFeatureFlags)
		(icd_format_buffer_features(format) & ~only2);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice,
                                       VkFormat format,
                                       VkFormatProperties2 *pFormatProperties)
{
	VkFormatProperties *p = &pFormatProperties->formatProperties;

	icd_GetPhysicalDeviceFormatProperties(physicalDevice, format, p);
	for (VkBaseOutStructure *s = pFormatProperties->pNext; s;
	     s = s->pNext) {
		if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
			/* Core 1.3: the same features in 64-bit flags. */
			VkFormatProperties3 *p3 = (void *)s;

			p3->linearTilingFeatures = icd_format_features(
				format, VK_IMAGE_TILING_LINEAR);
			p3->optimalTilingFeatures = icd_format_features(
				format, VK_IMAGE_TILING_OPTIMAL);
			p3->bufferFeatures =
				icd_format_buffer_features(format);
		}
	}
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceImageFormatProperties(
	VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
	VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
	VkImageFormatProperties *pImageFormatProperties)
{
	return icd_image_format_properties(
		icd_physical_device_from_handle(physicalDevice), format, type,
		tiling, usage, flags, pImageFormatProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceImageFormatProperties2(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceImageFormatInfo2 *pInfo,
	VkImageFormatProperties2 *pProps)
{
	const VkPhysicalDeviceExternalImageFormatInfo *ext = icd_find_struct(
		pInfo->pNext,
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO);
	const VkImageStencilUsageCreateInfo *su = icd_find_struct(
		pInfo->pNext,
		VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO);
	VkResult r;

	r = icd_image_format_properties(
		icd_physical_device_from_handle(physicalDevice),
		pInfo->format, pInfo->type, pInfo->tiling, pInfo->usage,
		pInfo->flags, &pProps->imageFormatProperties);
	/* Opaque fds only (an image's layout depends on its create info
	 * alone, so the same create info on both sides agrees); host
	 * allocations back buffers only. */
	if (r == VK_SUCCESS && ext && ext->handleType &&
	    ext->handleType != ICD_MEMORY_FD_HANDLE_TYPES)
		r = VK_ERROR_FORMAT_NOT_SUPPORTED;
	/* A separate stencil usage must be supported too (core 1.2). */
	if (r == VK_SUCCESS && su &&
	    (su->stencilUsage & ~icd_image_usage_supported(
	            pInfo->format, pInfo->tiling, pInfo->flags)))
		r = VK_ERROR_FORMAT_NOT_SUPPORTED;
	for (VkBaseOutStructure *s = pProps->pNext; s; s = s->pNext) {
		VkExternalImageFormatProperties *e = (void *)s;

		if (s->sType !=
		    VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES)
			continue;
		memset(&e->externalMemoryProperties, 0,
		       sizeof(e->externalMemoryProperties));
		if (r == VK_SUCCESS && ext &&
		    ext->handleType == ICD_MEMORY_FD_HANDLE_TYPES)
			icd_external_memory_opaque_fd(
				&e->externalMemoryProperties);
	}
	if (r != VK_SUCCESS)
		memset(&pProps->imageFormatProperties, 0,
		       sizeof(pProps->imageFormatProperties));
	return r;
}
