/* SPDX-License-Identifier: MIT */
/*
 * buffer_view.c — VkBufferView: a texel format over a range of a bound
 * buffer, resolved at creation into the texel buffer descriptor the
 * shader engine reads (struct swgpu_descriptor_texel_buffer,
 * swgpu_packet.h): VA of the first texel, range in whole texels, texel
 * size and engine format. The descriptor type (uniform or storage texel
 * buffer) is the one it is written as.
 *
 * Invalid create infos are refused with a log line, as image views are
 * (image_view.c): VK_ERROR_UNKNOWN for invalid input,
 * VK_ERROR_FORMAT_NOT_SUPPORTED when the format lacks the texel buffer
 * feature the buffer's usage needs.
 */
#include <swgpu/swgpu_packet.h>

#include "format.h"

struct icd_buffer_view {
	struct icd_object base;
	struct swgpu_descriptor_texel_buffer desc; /* type set when written */
};

ICD_DEFINE_HANDLE_CASTS(icd_buffer_view, VkBufferView,
                        VK_OBJECT_TYPE_BUFFER_VIEW)

#define TEXEL_USAGES (VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | \
                      VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT)

/* The offset alignment one texel buffer usage needs. With a Vulkan 1.3
 * API version texelBufferAlignment is on (VK_EXT_texel_buffer_alignment
 * promoted without its feature struct): the smaller of the byte
 * alignment and, when single-texel alignment is told, the texel (or, for
 * 3-component texels, component) size; before 1.3 the same when the
 * application enabled the feature of VK_EXT_texel_buffer_alignment, else
 * minTexelBufferOffsetAlignment. */
static VkDeviceSize
offset_alignment(const struct icd_device *dev,
                 const struct icd_format_desc *d, bool storage)
{
	const VkPhysicalDeviceVulkan13Properties *p =
		&dev->pdev->properties_1x.v13;
	VkDeviceSize bytes = storage ?
		p->storageTexelBufferOffsetAlignmentBytes :
		p->uniformTexelBufferOffsetAlignmentBytes;
	VkBool32 single = storage ?
		p->storageTexelBufferOffsetSingleTexelAlignment :
		p->uniformTexelBufferOffsetSingleTexelAlignment;
	VkDeviceSize texel = d->block_size % 3 || !d->components ?
	                     d->block_size : d->block_size / d->components;

	if (dev->api_version < VK_API_VERSION_1_3 &&
	    !dev->texel_buffer_alignment)
		return dev->pdev->properties.limits.minTexelBufferOffsetAlignment;
	return single && texel < bytes ? texel : bytes;
}

/* Why the create info cannot become a view (*r the error), or NULL with
 * *range the view's bytes. */
static const char *
view_check(const struct icd_device *dev, const struct icd_buffer *buf,
           const VkBufferViewCreateInfo *ci, VkDeviceSize *range,
           VkResult *r)
{
	const struct icd_format_desc *d = icd_format_describe(ci->format);
	VkFormatFeatureFlags2 have = icd_format_buffer_features(ci->format);
	uint32_t max = dev->pdev->properties.limits.maxTexelBufferElements;

	*r = VK_ERROR_UNKNOWN;
	if (!buf)
		return "no buffer";
	if (ci->flags)
		return "flags must be 0";
	if (!buf->va)
		return "the buffer is not bound to memory";
	if (!(buf->usage & TEXEL_USAGES))
		return "the buffer has no UNIFORM_ or STORAGE_TEXEL_BUFFER "
		       "usage";
	*r = VK_ERROR_FORMAT_NOT_SUPPORTED;
	if (!d || !have)
		return "the format is not a texel buffer format (see "
		       "vkGetPhysicalDeviceFormatProperties bufferFeatures)";
	if (((buf->usage & VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT) &&
	     !(have & VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT)) ||
	    ((buf->usage & VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT) &&
	     !(have & VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT)))
		return "the format lacks the texel buffer feature of the "
		       "buffer's usage";
	*r = VK_ERROR_UNKNOWN;
	if (ci->offset >= buf->size)
		return "the offset is past the buffer's end";
	if (((buf->usage & VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT) &&
	     ci->offset % offset_alignment(dev, d, false)) ||
	    ((buf->usage & VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT) &&
	     ci->offset % offset_alignment(dev, d, true)))
		return "the offset is not aligned as the texel buffer "
		       "alignment limits ask";
	if (ci->range == VK_WHOLE_SIZE) {
		/* The whole texels up to the buffer's end. */
		*range = (buf->size - ci->offset) / d->block_size *
		         d->block_size;
	} else {
		*range = ci->range;
		if (!ci->range || ci->range % d->block_size ||
		    ci->range > buf->size - ci->offset)
			return "the range is empty, not whole texels or past "
			       "the buffer's end";
	}
	if (*range / d->block_size > max)
		return "more texels than maxTexelBufferElements";
	*r = VK_SUCCESS;
	return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateBufferView(VkDevice device, const VkBufferViewCreateInfo *pCreateInfo,
                     const VkAllocationCallbacks *pAllocator,
                     VkBufferView *pView)
{
	struct icd_device *dev = icd_device_from_handle(device);
	const struct icd_buffer *buf =
		icd_buffer_from_handle(pCreateInfo->buffer);
	const struct icd_format_desc *d;
	struct icd_buffer_view *v;
	VkDeviceSize range = 0;
	const char *why;
	VkResult r;

	why = view_check(dev, buf, pCreateInfo, &range, &r);
	if (why) {
		icd_log("vkCreateBufferView: format %d, offset %llu, range "
		        "%llu of a buffer of %llu bytes, usage 0x%x: %s",
		        pCreateInfo->format,
		        (unsigned long long)pCreateInfo->offset,
		        (unsigned long long)pCreateInfo->range,
		        (unsigned long long)(buf ? buf->size : 0),
		        buf ? buf->usage : 0, why);
		return r;
	}
	v = icd_zalloc(pAllocator, &dev->alloc, sizeof(*v), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!v)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "buffer view");
	icd_object_init(&v->base, VK_OBJECT_TYPE_BUFFER_VIEW);
	d = icd_format_describe(pCreateInfo->format);
	/* The table's engine format: A8B8G8R8_*_PACK32 is R8G8B8A8_*. */
	v->desc.format = d->swgpu_format;
	v->desc.va = buf->va + pCreateInfo->offset;
	v->desc.range = range;
	v->desc.element_size = d->block_size;
	*pView = icd_buffer_view_to_handle(v);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyBufferView(VkDevice device, VkBufferView bufferView,
                      const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_buffer_view *v = icd_buffer_view_from_handle(bufferView);

	if (v)
		icd_free(pAllocator, &dev->alloc, v);
}

void
icd_write_buffer_view_descriptor(void *dst, VkBufferView view,
                                 VkDescriptorType type)
{
	const struct icd_buffer_view *v = icd_buffer_view_from_handle(view);
	struct swgpu_descriptor_texel_buffer d;

	/* VK_NULL_HANDLE (nullDescriptor, or an invalid write): null. */
	if (!v) {
		memset(dst, 0, SWGPU_DESCRIPTOR_SIZE);
		return;
	}
	d = v->desc;
	d.type = type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ?
	         SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER :
	         SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER;
	memcpy(dst, &d, sizeof(d));
}
