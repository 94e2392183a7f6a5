/* SPDX-License-Identifier: MIT */
/*
 * image_view.c — VkImageView: checked against its image and resolved, at
 * creation, into the storage-image descriptor the shader engine reads
 * (struct swgpu_descriptor_image, swgpu_packet.h): the VA of texel
 * (0,0,0) of the base level and layer, that level's extent, the layer
 * count, pitches, view type and the engine format of the view's format.
 *
 * Why at creation: the spec requires the image to be bound before a view
 * of it is made, and a bound image never moves or changes layout (OPTIMAL
 * is laid out like LINEAR, image.c), so everything is final; the view then
 * keeps no pointer to an image the application may destroy first, and a
 * descriptor write is a 64-byte copy.
 *
 * Shaders access one mip level of a view (storage images have no LOD).
 * 2D views of a 3D image (2D_ARRAY_COMPATIBLE) see depth slices as
 * layers, so their layer pitch is the level's depth pitch. An
 * uncompressed view of a compressed image (BLOCK_TEXEL_VIEW_COMPATIBLE)
 * sees one texel per block. The component swizzle is not kept: storage
 * image descriptors require the identity, and nothing samples.
 *
 * Invalid create infos (valid-usage violations) are refused with a log
 * line rather than made into views that would address the wrong memory:
 * VK_ERROR_UNKNOWN for invalid input, VK_ERROR_FORMAT_NOT_SUPPORTED when
 * the view's format lacks the feature its usage needs,
 * VK_ERROR_FEATURE_NOT_PRESENT for what the device does not offer.
 */
#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "format.h"
#include "image.h"
#include "render_pass.h"

struct icd_image_view {
	struct icd_object base;
	struct swgpu_descriptor_image desc;   /* storage image */
	/* Sampled descriptors: the view's levels and swizzle, in the bits
	 * swgpu_packet.h gives them. */
	uint32_t sampled_levels;
	uint32_t swizzle;
	/* As a render target: the surface of each aspect the view has
	 * (colour, or depth and/or stencil), in aspect order. */
	uint32_t surface_count;
	VkImageAspectFlagBits surface_aspect[2];
	struct icd_view_surface surface[2];
};

ICD_DEFINE_HANDLE_CASTS(icd_image_view, VkImageView,
                        VK_OBJECT_TYPE_IMAGE_VIEW)

/* The usages of VUID-VkImageViewCreateInfo-image-04441 a core image can
 * have: an image with none of them (transfer only) has no view. */
#define VIEW_USAGES (VK_IMAGE_USAGE_SAMPLED_BIT | \
                     VK_IMAGE_USAGE_STORAGE_BIT | \
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | \
                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | \
                     VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT | \
                     VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT)

static bool
view_type_fits(const struct icd_image *img, VkImageViewType vt)
{
	switch (vt) {
	case VK_IMAGE_VIEW_TYPE_1D:
	case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
		return img->type == VK_IMAGE_TYPE_1D;
	case VK_IMAGE_VIEW_TYPE_2D:
	case VK_IMAGE_VIEW_TYPE_2D_ARRAY:
		return img->type == VK_IMAGE_TYPE_2D ||
		       (img->type == VK_IMAGE_TYPE_3D &&
		        (img->flags &
		         VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT));
	case VK_IMAGE_VIEW_TYPE_CUBE:
	case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY:
		return img->type == VK_IMAGE_TYPE_2D &&
		       (img->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
	case VK_IMAGE_VIEW_TYPE_3D:
		return img->type == VK_IMAGE_TYPE_3D;
	default:
		return false;
	}
}

/* Whether a view type may have n layers. */
static bool
layer_count_fits(VkImageViewType vt, uint32_t n)
{
	switch (vt) {
	case VK_IMAGE_VIEW_TYPE_1D:
	case VK_IMAGE_VIEW_TYPE_2D:
	case VK_IMAGE_VIEW_TYPE_3D:
		return n == 1;
	case VK_IMAGE_VIEW_TYPE_CUBE:
		return n == 6;
	case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY:
		return n % 6 == 0;
	default:
		return true;
	}
}

/* A view's usage needs these features of its format (the image's
 * tiling); a usage the device cannot serve fails here. */
static VkFormatFeatureFlags2
usage_features(VkImageUsageFlags u, VkImageAspectFlags aspects)
{
	VkFormatFeatureFlags2 f = 0;

	if (u & VK_IMAGE_USAGE_SAMPLED_BIT)
		f |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
	if (u & VK_IMAGE_USAGE_STORAGE_BIT)
		f |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT;
	if (u & (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	         VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
	         VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT))
		f |= aspects == VK_IMAGE_ASPECT_COLOR_BIT ?
		     VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT :
		     VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
	return f;
}

/* Resolve VK_REMAINING_* of [base, base + count) within n; false if the
 * range is empty or leaves [0, n). */
static bool
resolve_range(uint32_t base, uint32_t *count, uint32_t n)
{
	if (base >= n)
		return false;
	if (*count == VK_REMAINING_MIP_LEVELS) /* == _ARRAY_LAYERS */
		*count = n - base;
	return *count && (uint64_t)base + *count <= n;
}

/* Why the create info cannot become a view (*r the error), or NULL with
 * *range resolved. */
static const char *
view_check(const struct icd_device *dev, const struct icd_image *img,
           const VkImageViewCreateInfo *ci, VkImageSubresourceRange *range,
           VkResult *r)
{
	const VkImageViewUsageCreateInfo *vu = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO);
	VkImageAspectFlags a = ci->subresourceRange.aspectMask;
	/* The image's usage for the aspects viewed: a stencil view has the
	 * separate stencil usage, depth + stencil what both allow. */
	VkImageUsageFlags img_usage = !img ? 0 :
		!(a & VK_IMAGE_ASPECT_STENCIL_BIT) ? img->usage :
		(a & VK_IMAGE_ASPECT_DEPTH_BIT) ?
		img->usage & img->stencil_usage : img->stencil_usage;
	VkImageUsageFlags usage = vu ? vu->usage : img_usage;
	struct icd_format f;
	uint32_t layers;
	bool slices;

	*r = VK_ERROR_UNKNOWN;
	if (!img)
		return "no image";
	*r = VK_ERROR_FEATURE_NOT_PRESENT;
	if (icd_find_struct(ci->pNext,
	                    VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO))
		return "Y'CbCr conversion is not supported";
	if (ci->viewType == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY &&
	    !dev->pdev->features.core.imageCubeArray)
		return "cube array views need imageCubeArray";
	*r = VK_ERROR_UNKNOWN;
	if (ci->flags)
		return "view flags of extensions this device does not offer";
	if (!img->va)
		return "the image is not bound to memory";
	if (!view_type_fits(img, ci->viewType))
		return "the view type does not fit the image type and flags";
	if (!icd_format_view_compatible(img->format, img->flags, ci->format))
		return "the view format is not compatible with the image's";
	if (usage & ~img_usage)
		return "VkImageViewUsageCreateInfo asks for usage the image "
		       "does not have";
	if (!(img_usage & VIEW_USAGES))
		return "the image has no usage a view serves (SAMPLED, "
		       "STORAGE or an attachment)";
	/* The aspects of one plane, or depth+stencil of a D/S image. */
	if (!a || !icd_format_get(img->format, &f) || (a & ~f.aspects) ||
	    (a != f.aspects && a != VK_IMAGE_ASPECT_DEPTH_BIT &&
	     a != VK_IMAGE_ASPECT_STENCIL_BIT))
		return "the aspect mask does not name the image's aspects";
	*range = ci->subresourceRange;
	slices = img->type == VK_IMAGE_TYPE_3D &&
	         ci->viewType != VK_IMAGE_VIEW_TYPE_3D;
	if (!resolve_range(range->baseMipLevel, &range->levelCount,
	                   img->mip_levels))
		return "the mip levels are empty or outside the image";
	/* A 2D view of a 3D image: its layers are depth slices of one
	 * level. */
	layers = slices ? icd_image_mip_extent(img->extent.depth,
	                                       range->baseMipLevel) :
	                  img->array_layers;
	if (slices && range->levelCount != 1)
		return "a 2D view of a 3D image has one mip level";
	if (!resolve_range(range->baseArrayLayer, &range->layerCount, layers))
		return "the array layers are empty or outside the image";
	if (!layer_count_fits(ci->viewType, range->layerCount))
		return "the layer count does not fit the view type";
	*r = VK_ERROR_FORMAT_NOT_SUPPORTED;
	if (!icd_format_get(ci->format, &f))
		return "the view format is not supported";
	if ((icd_format_features(ci->format, img->tiling) &
	     usage_features(usage, f.aspects)) !=
	    usage_features(usage, f.aspects))
		return "the view format lacks a feature its usage needs (see "
		       "vkGetPhysicalDeviceFormatProperties)";
	*r = VK_SUCCESS;
	return NULL;
}

static void
view_descriptor(struct swgpu_descriptor_image *d, const struct icd_image *img,
                const VkImageViewCreateInfo *ci,
                const VkImageSubresourceRange *range)
{
	VkImageAspectFlags a = range->aspectMask;
	/* Depth+stencil views (attachments) describe the depth plane. */
	const struct icd_image_plane *pl = icd_image_plane(
		img, a == (VK_IMAGE_ASPECT_DEPTH_BIT |
		           VK_IMAGE_ASPECT_STENCIL_BIT) ?
		     VK_IMAGE_ASPECT_DEPTH_BIT : a);
	uint32_t m = range->baseMipLevel, pi;
	const struct icd_subresource_layout *l = &pl->mips[m];
	bool slices = img->type == VK_IMAGE_TYPE_3D &&
	              ci->viewType != VK_IMAGE_VIEW_TYPE_3D;
	uint32_t w = icd_image_mip_extent(img->extent.width, m);
	uint32_t h = icd_image_mip_extent(img->extent.height, m);
	struct icd_format f;

	icd_format_get(ci->format, &f);
	pi = (uint32_t)icd_format_plane(&f, pl->aspect);
	/* One texel per block: an uncompressed view of a compressed image
	 * addresses blocks. */
	if (f.planes[pi].block_w == 1 && pl->block_w > 1) {
		w = (w + pl->block_w - 1) / pl->block_w;
		h = (h + pl->block_h - 1) / pl->block_h;
	}
	memset(d, 0, sizeof(*d));
	/* The storage image descriptor; sampled ones add levels and
	 * swizzle when written (icd_write_image_view_descriptor). */
	d->type = SWGPU_DESCRIPTOR_STORAGE_IMAGE;
	d->format = f.planes[pi].swgpu_format;
	d->va = img->va + pl->offset + l->offset +
	        range->baseArrayLayer * (slices ? l->depth_pitch :
	                                          pl->array_pitch);
	d->width = w;
	d->height = h;
	d->depth = ci->viewType == VK_IMAGE_VIEW_TYPE_3D ?
	           icd_image_mip_extent(img->extent.depth, m) : 1;
	d->layers = ci->viewType == VK_IMAGE_VIEW_TYPE_3D ? 1 :
	            range->layerCount;
	/* Row pitches are at most 16 B x maxImageDimension (image.c). */
	d->row_pitch = (uint32_t)l->row_pitch;
	d->element_size = f.planes[pi].block_size;
	d->slice_pitch = ci->viewType == VK_IMAGE_VIEW_TYPE_3D || slices ?
	                 l->depth_pitch : pl->array_pitch;
	/* The VkImageViewType values are the engine's view types. */
	d->view_type = (uint32_t)ci->viewType;
	if (img->samples > 1) {
		/* The engine reads sample s of layer L at slice L*S + s
		 * (swgpu_packet.h, image.c). */
		d->slice_pitch = pl->sample_pitch;
		d->view_type |= (uint32_t)__builtin_ctz(img->samples)
		                << SWGPU_DESCRIPTOR_SAMPLES_SHIFT;
	}
}

/* The render-target surfaces of the view: one per stored aspect it
 * selects, at its base level and first layer (layers of a 2D view of a
 * 3D image are its depth slices). A view of a depth/stencil image has
 * both: "when an image view of a depth/stencil image is used as a
 * depth/stencil framebuffer attachment, the aspectMask is ignored and
 * both depth and stencil image subresources are used"
 * (VkImageSubresourceRange), so a depth-only view (one that is also an
 * input attachment) still clears and stores the stencil plane. */
static void
view_surfaces(struct icd_image_view *v, const struct icd_image *img,
              const VkImageViewCreateInfo *ci,
              const VkImageSubresourceRange *range)
{
	const VkImageAspectFlags ds = VK_IMAGE_ASPECT_DEPTH_BIT |
	                              VK_IMAGE_ASPECT_STENCIL_BIT;
	VkImageAspectFlags aspects = range->aspectMask;
	uint32_t m = range->baseMipLevel;
	bool slices = img->type == VK_IMAGE_TYPE_3D &&
	              ci->viewType != VK_IMAGE_VIEW_TYPE_3D;

	if (aspects & ds)
		aspects |= ds;

	v->surface_count = 0;
	for (uint32_t p = 0; p < img->plane_count; p++) {
		const struct icd_image_plane *pl = &img->planes[p];
		const struct icd_subresource_layout *l = &pl->mips[m];
		struct icd_view_surface *o = &v->surface[v->surface_count];
		struct icd_format f;
		int pi;

		if (!(aspects & pl->aspect))
			continue;
		icd_format_get(ci->format, &f);
		pi = icd_format_plane(&f, pl->aspect);
		o->layer_pitch = slices ? l->depth_pitch : pl->array_pitch;
		o->va = img->va + pl->offset + l->offset +
		        range->baseArrayLayer * o->layer_pitch;
		/* the engine's slices: layer * samples + sample (image.c) */
		o->samples = img->samples;
		if (!slices)
			o->layer_pitch = pl->sample_pitch;
		o->row_pitch = l->row_pitch;
		o->format = pi >= 0 ? f.planes[pi].swgpu_format :
		                      pl->swgpu_format;
		o->width = icd_image_mip_extent(img->extent.width, m);
		o->height = icd_image_mip_extent(img->extent.height, m);
		o->layers = ci->viewType == VK_IMAGE_VIEW_TYPE_3D ? 1 :
		            range->layerCount;
		v->surface_aspect[v->surface_count++] = pl->aspect;
	}
}

bool
icd_image_view_surface(VkImageView view, VkImageAspectFlagBits aspect,
                       struct icd_view_surface *out)
{
	const struct icd_image_view *v = icd_image_view_from_handle(view);

	for (uint32_t i = 0; v && i < v->surface_count; i++) {
		if (v->surface_aspect[i] == aspect) {
			*out = v->surface[i];
			return true;
		}
	}
	memset(out, 0, sizeof(*out));
	return false;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateImageView(VkDevice device, const VkImageViewCreateInfo *pCreateInfo,
                    const VkAllocationCallbacks *pAllocator,
                    VkImageView *pView)
{
	struct icd_device *dev = icd_device_from_handle(device);
	const struct icd_image *img = icd_image_from_handle(pCreateInfo->image);
	VkImageSubresourceRange range;
	struct icd_image_view *v;
	const char *why;
	VkResult r;

	why = view_check(dev, img, pCreateInfo, &range, &r);
	if (why) {
		icd_log("vkCreateImageView: view type %d, format %d, aspects "
		        "0x%x, levels %u+%u, layers %u+%u of an image of type "
		        "%d, format %d: %s", pCreateInfo->viewType,
		        pCreateInfo->format,
		        pCreateInfo->subresourceRange.aspectMask,
		        pCreateInfo->subresourceRange.baseMipLevel,
		        pCreateInfo->subresourceRange.levelCount,
		        pCreateInfo->subresourceRange.baseArrayLayer,
		        pCreateInfo->subresourceRange.layerCount,
		        img ? (int)img->type : -1,
		        img ? (int)img->format : -1, why);
		return r;
	}
	v = icd_zalloc(pAllocator, &dev->alloc, sizeof(*v), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!v)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "image view");
	icd_object_init(&v->base, VK_OBJECT_TYPE_IMAGE_VIEW);
	view_descriptor(&v->desc, img, pCreateInfo, &range);
	view_surfaces(v, img, pCreateInfo, &range);
	v->sampled_levels = range.levelCount;
	/* An uncompressed view of a compressed image addresses blocks,
	 * whose mip chain is not the engine's rule: its base level only
	 * (such views are storage views). A compressed view samples its
	 * levels, counted in blocks like the image's. */
	const swgpu_format_info *vf = swgpu_format_get_info(v->desc.format);
	if (img->planes[0].block_w > 1 &&
	    !(vf && (vf->caps & SWGPU_FORMAT_CAP_COMPRESSED)))
		v->sampled_levels = 1;
	v->swizzle = (uint32_t)pCreateInfo->components.r |
	             (uint32_t)pCreateInfo->components.g << 3 |
	             (uint32_t)pCreateInfo->components.b << 6 |
	             (uint32_t)pCreateInfo->components.a << 9;
	*pView = icd_image_view_to_handle(v);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyImageView(VkDevice device, VkImageView imageView,
                     const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_image_view *v = icd_image_view_from_handle(imageView);

	if (v)
		icd_free(pAllocator, &dev->alloc, v);
}

void
icd_write_image_view_descriptor(void *dst, VkImageView view,
                                VkDescriptorType type,
                                const struct swgpu_sampler_state *smp)
{
	const struct icd_image_view *v = icd_image_view_from_handle(view);
	struct swgpu_descriptor_image d;

	/* VK_NULL_HANDLE (nullDescriptor, or an invalid write): null. */
	if (!v) {
		memset(dst, 0, SWGPU_DESCRIPTOR_SIZE);
		return;
	}
	d = v->desc;
	if (type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) {
		/* Sampled image, combined image sampler (input
		 * attachments reach no compute shader but have a place). */
		d.type = type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ?
		         SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER :
		         SWGPU_DESCRIPTOR_SAMPLED_IMAGE;
		d.view_type |= v->sampled_levels << 8;
		d.format |= v->swizzle << 16;
		if (smp && type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
			d.sampler = *smp;
	}
	memcpy(dst, &d, sizeof(d));
}
