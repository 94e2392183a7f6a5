/* SPDX-License-Identifier: MIT */
/*
 * Image views and buffer views, and the descriptors they become
 * (storage images, uniform and storage texel buffers; swgpu_packet.h).
 *
 * A view is resolved when it is created — the image or buffer is bound
 * to memory by then (the spec requires it) — into the engine's
 * descriptor: the VA of its first texel, its extent, layers, pitches and
 * the engine format of the view's format. Writing a descriptor is then
 * a 64-byte copy. Views of every usage can be created (sampled and
 * attachment views included: tools create them up front); only storage
 * images and texel buffers reach a shader, the format features say which
 * formats (format.c).
 */
#include <swgpu/swgpu_packet.h>

#include "format.h"
#include "image.h"

struct icd_image_view {
	struct icd_object base;
	uint8_t desc[SWGPU_DESCRIPTOR_SIZE];   /* storage image descriptor */
};

struct icd_buffer_view {
	struct icd_object base;
	uint8_t desc[SWGPU_DESCRIPTOR_SIZE];   /* texel buffer descriptor,
	                                          type set when written */
};

ICD_DEFINE_HANDLE_CASTS(icd_image_view, VkImageView,
                        VK_OBJECT_TYPE_IMAGE_VIEW)
ICD_DEFINE_HANDLE_CASTS(icd_buffer_view, VkBufferView,
                        VK_OBJECT_TYPE_BUFFER_VIEW)

static bool
view_type_fits(VkImageType it, VkImageViewType vt, VkImageCreateFlags flags)
{
	switch (vt) {
	case VK_IMAGE_VIEW_TYPE_1D:
	case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
		return it == VK_IMAGE_TYPE_1D;
	case VK_IMAGE_VIEW_TYPE_2D:
	case VK_IMAGE_VIEW_TYPE_2D_ARRAY:
		return it == VK_IMAGE_TYPE_2D ||
		       (it == VK_IMAGE_TYPE_3D &&
		        (flags & VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT));
	case VK_IMAGE_VIEW_TYPE_CUBE:
	case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY:
		return it == VK_IMAGE_TYPE_2D &&
		       (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT);
	case VK_IMAGE_VIEW_TYPE_3D:
		return it == VK_IMAGE_TYPE_3D;
	default:
		return false;
	}
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateImageView(VkDevice device, const VkImageViewCreateInfo *ci,
                    const VkAllocationCallbacks *pAllocator,
                    VkImageView *pView)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_image *img = icd_image_from_handle(ci->image);
	const VkImageSubresourceRange *r = &ci->subresourceRange;
	struct icd_format vf;
	uint32_t levels, layers;

	if (!img) {
		icd_log("vkCreateImageView: VK_NULL_HANDLE image");
		return VK_ERROR_UNKNOWN;
	}
	levels = r->levelCount == VK_REMAINING_MIP_LEVELS ?
	         img->mip_levels - r->baseMipLevel : r->levelCount;
	layers = r->layerCount == VK_REMAINING_ARRAY_LAYERS ?
	         img->array_layers - r->baseArrayLayer : r->layerCount;
	/* Valid usage the layer also checks; refused here with a line
	 * rather than turned into a view that reads outside the image. */
	if (!img->va || r->baseMipLevel >= img->mip_levels ||
	    !levels || levels > img->mip_levels - r->baseMipLevel ||
	    r->baseArrayLayer >= img->array_layers || !layers ||
	    layers > img->array_layers - r->baseArrayLayer ||
	    !view_type_fits(img->type, ci->viewType, img->flags) ||
	    !icd_format_get(ci->format, &vf)) {
		icd_log("vkCreateImageView: view type %d, format %d, mips "
		        "%u+%u, layers %u+%u does not fit the image (or it is "
		        "not bound to memory)", ci->viewType, ci->format,
		        r->baseMipLevel, levels, r->baseArrayLayer, layers);
		return VK_ERROR_UNKNOWN;
	}
	struct icd_image_view *v =
		icd_zalloc(pAllocator, &dev->alloc, sizeof(*v), 8,
		           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!v)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "image view");
	icd_object_init(&v->base, VK_OBJECT_TYPE_IMAGE_VIEW);

	/* The storage descriptor of a colour view (single aspect, one
	 * plane); other views keep a null one (no shader can use them). */
	const struct icd_image_plane *pl =
		icd_image_plane(img, VK_IMAGE_ASPECT_COLOR_BIT);
	if (pl && vf.plane_count == 1 && vf.planes[0].swgpu_format &&
	    vf.planes[0].block_size == pl->block_size &&
	    vf.planes[0].block_w == 1 && vf.planes[0].block_h == 1) {
		const struct icd_subresource_layout *m =
			&pl->mips[r->baseMipLevel];
		bool is3d = ci->viewType == VK_IMAGE_VIEW_TYPE_3D;
		struct swgpu_descriptor_image d = {
			.type = SWGPU_DESCRIPTOR_STORAGE_IMAGE,
			.format = vf.planes[0].swgpu_format,
			.va = img->va + pl->offset +
			      r->baseArrayLayer * pl->array_pitch + m->offset,
			.width = icd_image_mip_extent(img->extent.width,
			                              r->baseMipLevel),
			.height = icd_image_mip_extent(img->extent.height,
			                               r->baseMipLevel),
			.depth = is3d ? icd_image_mip_extent(
			                        img->extent.depth,
			                        r->baseMipLevel) : 1,
			.layers = is3d ? 1 : layers,
			.row_pitch = (uint32_t)m->row_pitch,
			.element_size = pl->block_size,
			.slice_pitch = is3d ? m->depth_pitch : pl->array_pitch,
			.view_type = (uint32_t)ci->viewType,
		};
		memcpy(v->desc, &d, sizeof(d));
	}
	*pView = icd_image_view_to_handle(v);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyImageView(VkDevice device, VkImageView view,
                     const VkAllocationCallbacks *pAllocator)
{
	struct icd_image_view *v = icd_image_view_from_handle(view);

	if (v)
		icd_free(pAllocator, &icd_device_from_handle(device)->alloc, v);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateBufferView(VkDevice device, const VkBufferViewCreateInfo *ci,
                     const VkAllocationCallbacks *pAllocator,
                     VkBufferView *pView)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_buffer *buf = icd_buffer_from_handle(ci->buffer);
	VkFormatFeatureFlags2 need = 0, have = icd_format_buffer_features(
		ci->format);
	uint32_t elem = icd_format_block_size(ci->format);
	struct icd_format f;
	VkDeviceSize range;

	if (buf && (buf->usage & VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT))
		need |= VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT;
	if (buf && (buf->usage & VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT))
		need |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT;
	range = !buf ? 0 : ci->range == VK_WHOLE_SIZE ?
	        (buf->size - ci->offset) / (elem ? elem : 1) * elem :
	        ci->range;
	if (!buf || !buf->va || !need || (have & need) != need || !elem ||
	    ci->offset >= buf->size || !range ||
	    ci->offset % dev->pdev->properties.limits
	                     .minTexelBufferOffsetAlignment ||
	    range > buf->size - ci->offset ||
	    range / elem > dev->pdev->properties.limits.maxTexelBufferElements ||
	    !icd_format_get(ci->format, &f)) {
		icd_log("vkCreateBufferView: format %d, offset %llu, range "
		        "%llu: not a texel buffer this device supports (or "
		        "the buffer is not bound)", ci->format,
		        (unsigned long long)ci->offset,
		        (unsigned long long)ci->range);
		return (have & need) != need ? VK_ERROR_FORMAT_NOT_SUPPORTED
		                             : VK_ERROR_UNKNOWN;
	}
	struct icd_buffer_view *v =
		icd_zalloc(pAllocator, &dev->alloc, sizeof(*v), 8,
		           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!v)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "buffer view");
	icd_object_init(&v->base, VK_OBJECT_TYPE_BUFFER_VIEW);
	struct swgpu_descriptor_texel_buffer d = {
		.format = f.planes[0].swgpu_format,
		.va = buf->va + ci->offset,
		.range = range / elem * elem,
		.element_size = elem,
	};
	memcpy(v->desc, &d, sizeof(d));
	*pView = icd_buffer_view_to_handle(v);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyBufferView(VkDevice device, VkBufferView view,
                      const VkAllocationCallbacks *pAllocator)
{
	struct icd_buffer_view *v = icd_buffer_view_from_handle(view);

	if (v)
		icd_free(pAllocator, &icd_device_from_handle(device)->alloc, v);
}

void
icd_write_image_view_descriptor(void *dst, VkImageView view)
{
	const struct icd_image_view *v = icd_image_view_from_handle(view);

	if (v)
		memcpy(dst, v->desc, SWGPU_DESCRIPTOR_SIZE);
	else
		memset(dst, 0, SWGPU_DESCRIPTOR_SIZE);
}

void
icd_write_buffer_view_descriptor(void *dst, VkBufferView view,
                                 VkDescriptorType type)
{
	const struct icd_buffer_view *v = icd_buffer_view_from_handle(view);
	struct swgpu_descriptor_texel_buffer d;

	if (!v) {
		memset(dst, 0, SWGPU_DESCRIPTOR_SIZE);
		return;
	}
	memcpy(&d, v->desc, sizeof(d));
	d.type = type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ?
	         SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER :
	         SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER;
	memcpy(dst, &d, sizeof(d));
}
