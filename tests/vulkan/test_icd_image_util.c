/* SPDX-License-Identifier: MIT */
/*
 * test_icd_image_util — see test_icd_image_util.h.
 */
#include "test_icd_image_util.h"

VkResult
ifp(struct vkh *h, VkFormat f, VkImageType t, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags flags,
    VkImageFormatProperties *out)
{
	return vkGetPhysicalDeviceImageFormatProperties(h->phys, f, t, tiling,
	                                                usage, flags, out);
}

VkResult
linear_image_create(struct vkh *h, struct vkh_device *d,
                    const VkImageCreateInfo *ci, struct linear_image *li)
{
	VkMemoryRequirements req;
	VkResult r;
	int t;

	r = vkCreateImage(d->device, ci, NULL, &li->image);
	if (r != VK_SUCCESS)
		return r;
	vkGetImageMemoryRequirements(d->device, li->image, &req);
	t = vkh_find_memory_type(h, req.memoryTypeBits,
	                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
	if (t < 0)
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	r = vkAllocateMemory(d->device, &(VkMemoryAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size, .memoryTypeIndex = (uint32_t)t },
		NULL, &li->memory);
	if (r != VK_SUCCESS)
		return r;
	r = vkBindImageMemory(d->device, li->image, li->memory, 0);
	if (r != VK_SUCCESS)
		return r;
	return vkMapMemory(d->device, li->memory, 0, VK_WHOLE_SIZE, 0,
	                   (void **)&li->map);
}

void
linear_image_destroy(struct vkh_device *d, struct linear_image *li)
{
	vkDestroyImage(d->device, li->image, NULL);
	vkFreeMemory(d->device, li->memory, NULL);
}

void
image_barrier(VkCommandBuffer cb, VkImage img, VkImageAspectFlags aspects,
              VkImageLayout from, VkImageLayout to,
              VkPipelineStageFlags src_stage, VkAccessFlags src_access,
              VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = src_access, .dstAccessMask = dst_access,
		.oldLayout = from, .newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img,
		.subresourceRange = { aspects, 0, VK_REMAINING_MIP_LEVELS, 0,
		                      VK_REMAINING_ARRAY_LAYERS },
	};

	vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1,
	                     &b);
}
