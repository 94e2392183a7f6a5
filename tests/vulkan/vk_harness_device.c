/* SPDX-License-Identifier: MIT */
/*
 * vk_harness, device side: devices with queues picked by capability,
 * memory types picked by role, buffers, one-shot command buffers.
 * See vk_harness.h.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Devices and queues                                                  */
/* ------------------------------------------------------------------ */

void (*vkh_device_hook)(struct vkh *h, VkDeviceCreateInfo *dci);
bool vkh_robust_buffer_access;

static void
track_device(struct vkh *h, struct vkh_device *d, bool add)
{
	for (unsigned i = 0; i < VKH_MAX_DEVICES; i++) {
		if (add && !h->devices[i]) {
			h->devices[i] = d;
			return;
		}
		if (!add && h->devices[i] == d) {
			h->devices[i] = NULL;
			return;
		}
	}
}

/* Create the device for the (family, queue index) slots in d->queues. */
static VkResult
create_device(struct vkh *h, const VkAllocationCallbacks *alloc,
              struct vkh_device *d)
{
	VkDeviceQueueCreateInfo qci[16];
	float prio[VKH_MAX_QUEUES];
	uint32_t per_family[16] = { 0 };
	uint32_t nqci = 0;
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.timelineSemaphore = h->timeline_semaphore,
		.hostQueryReset = h->host_query_reset,
		.drawIndirectCount = h->draw_indirect_count,
		.imagelessFramebuffer = h->imageless_framebuffer,
	};
	VkPhysicalDeviceVulkan11Features f11 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
		.pNext = &f12,
		.shaderDrawParameters = h->shader_draw_parameters,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f11,
		.synchronization2 = h->synchronization2,
		.maintenance4 = h->maintenance4,
		.privateData = h->private_data,
		.dynamicRendering = h->dynamic_rendering,
	};
	/* The rasterization features graphics tests may use. */
	const VkPhysicalDeviceFeatures *s = &h->features;
	VkPhysicalDeviceFeatures core = {
		.robustBufferAccess = vkh_robust_buffer_access &&
		                      s->robustBufferAccess,
		.fullDrawIndexUint32 = s->fullDrawIndexUint32,
		.independentBlend = s->independentBlend,
		.dualSrcBlend = s->dualSrcBlend,
		.logicOp = s->logicOp,
		.multiDrawIndirect = s->multiDrawIndirect,
		.drawIndirectFirstInstance = s->drawIndirectFirstInstance,
		.depthClamp = s->depthClamp,
		.depthBiasClamp = s->depthBiasClamp,
		.fillModeNonSolid = s->fillModeNonSolid,
		.depthBounds = s->depthBounds,
		.largePoints = s->largePoints,
		.alphaToOne = s->alphaToOne,
		.multiViewport = s->multiViewport,
		.occlusionQueryPrecise = s->occlusionQueryPrecise,
		.vertexPipelineStoresAndAtomics =
			s->vertexPipelineStoresAndAtomics,
		.fragmentStoresAndAtomics = s->fragmentStoresAndAtomics,
		.shaderClipDistance = s->shaderClipDistance,
		.shaderCullDistance = s->shaderCullDistance,
		.sampleRateShading = s->sampleRateShading,
		.inheritedQueries = s->inheritedQueries,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &f13,
		.pQueueCreateInfos = qci,
		.pEnabledFeatures = &core,
	};
	VkResult r;

	for (unsigned i = 0; i < VKH_MAX_QUEUES; i++)
		prio[i] = 1.0f;
	for (uint32_t i = 0; i < d->queue_count; i++) {
		struct vkh_queue *q = &d->queues[i];
		if (!q->aliased && q->index + 1 > per_family[q->family])
			per_family[q->family] = q->index + 1;
	}
	for (uint32_t f = 0; f < h->family_count; f++) {
		if (!per_family[f])
			continue;
		qci[nqci++] = (VkDeviceQueueCreateInfo){
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			.queueFamilyIndex = f,
			.queueCount = per_family[f],
			.pQueuePriorities = prio,
		};
	}
	dci.queueCreateInfoCount = nqci;
	d->distinct_families = nqci;
	d->alloc = alloc;
	if (vkh_device_hook)
		vkh_device_hook(h, &dci);
	r = vkCreateDevice(h->phys, &dci, alloc, &d->device);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "[vkh] vkCreateDevice: %s\n", vkh_result_str(r));
		d->device = VK_NULL_HANDLE;
		return r;
	}
	for (uint32_t i = 0; i < d->queue_count; i++) {
		struct vkh_queue *q = &d->queues[i];
		VkCommandPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
			.queueFamilyIndex = q->family,
		};
		vkGetDeviceQueue(d->device, q->family, q->index, &q->queue);
		q->flags = h->families[q->family].queueFlags;
		q->timestamp_valid_bits =
			h->families[q->family].timestampValidBits;
		r = vkCreateCommandPool(d->device, &pci, alloc, &q->pool);
		if (r != VK_SUCCESS) {
			vkh_device_destroy(h, d);
			return r;
		}
		if (!q->aliased)
			d->distinct_queues++;
	}
	track_device(h, d, true);
	return VK_SUCCESS;
}

VkResult
vkh_device_create(struct vkh *h, VkQueueFlags required, uint32_t want,
                  const VkAllocationCallbacks *alloc, struct vkh_device *out)
{
	uint32_t used[16] = { 0 };
	uint32_t n = 0;
	bool progress = true;

	memset(out, 0, sizeof(*out));
	if (want == 0 || want > VKH_MAX_QUEUES)
		want = want ? VKH_MAX_QUEUES : 1;
	/* Round-robin over eligible families: a second queue comes from a
	 * second family (a different engine class on swgpu) before a second
	 * queue of the first family. */
	while (n < want && progress) {
		progress = false;
		for (uint32_t f = 0; f < h->family_count && n < want; f++) {
			if ((h->families[f].queueFlags & required) != required)
				continue;
			if (used[f] >= h->families[f].queueCount)
				continue;
			out->queues[n].family = f;
			out->queues[n].index = used[f]++;
			n++;
			progress = true;
		}
	}
	if (n == 0) {
		fprintf(stderr, "[vkh] no queue family with flags 0x%x\n",
		        required);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	for (uint32_t i = n; i < want; i++) {
		out->queues[i] = out->queues[i % n];
		out->queues[i].aliased = true;
	}
	out->queue_count = want;
	return create_device(h, alloc, out);
}

VkResult
vkh_device_create_explicit(struct vkh *h, uint32_t family, uint32_t count,
                           const VkAllocationCallbacks *alloc,
                           struct vkh_device *out)
{
	memset(out, 0, sizeof(*out));
	if (family >= h->family_count || count == 0 ||
	    count > h->families[family].queueCount || count > VKH_MAX_QUEUES)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	for (uint32_t i = 0; i < count; i++) {
		out->queues[i].family = family;
		out->queues[i].index = i;
	}
	out->queue_count = count;
	return create_device(h, alloc, out);
}

void
vkh_device_destroy(struct vkh *h, struct vkh_device *d)
{
	if (!d->device)
		return;
	for (uint32_t i = 0; i < d->queue_count; i++) {
		if (d->queues[i].pool)
			vkDestroyCommandPool(d->device, d->queues[i].pool,
			                     d->alloc);
		d->queues[i].pool = VK_NULL_HANDLE;
	}
	vkDestroyDevice(d->device, d->alloc);
	d->device = VK_NULL_HANDLE;
	track_device(h, d, false);
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */
/* ------------------------------------------------------------------ */

int
vkh_find_memory_type(const struct vkh *h, uint32_t type_bits,
                     VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid)
{
	for (uint32_t i = 0; i < h->mem.memoryTypeCount; i++) {
		VkMemoryPropertyFlags f = h->mem.memoryTypes[i].propertyFlags;
		if (!(type_bits & (1u << i)))
			continue;
		if ((f & want) == want && !(f & avoid))
			return (int)i;
	}
	return -1;
}

int
vkh_memtype_device_local(const struct vkh *h, uint32_t bits)
{
	int t = vkh_find_memory_type(h, bits,
	                             VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
	                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
	if (t < 0)
		t = vkh_find_memory_type(h, bits,
		                         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
	return t;
}

int
vkh_memtype_upload(const struct vkh *h, uint32_t bits)
{
	const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	/* Write-combined system memory is the upload heap; the BAR window
	 * (DEVICE_LOCAL|HOST_VISIBLE) is small and reserved for the app. */
	int t = vkh_find_memory_type(h, bits, hv,
	                             VK_MEMORY_PROPERTY_HOST_CACHED_BIT |
	                             VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	if (t < 0)
		t = vkh_find_memory_type(h, bits, hv,
		                         VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
	if (t < 0)
		t = vkh_find_memory_type(h, bits, hv, 0);
	return t;
}

int
vkh_memtype_readback(const struct vkh *h, uint32_t bits)
{
	const VkMemoryPropertyFlags hc = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                                 VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
	int t = vkh_find_memory_type(h, bits,
	                             hc | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
	                             VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	if (t < 0)
		t = vkh_find_memory_type(h, bits, hc, 0);
	if (t < 0)
		t = vkh_find_memory_type(h, bits,
		                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
		                         0);
	return t;
}

void
vkh_print_memtype(const struct vkh *h, FILE *f, int type)
{
	VkMemoryPropertyFlags fl;
	uint32_t heap;

	if (type < 0 || (uint32_t)type >= h->mem.memoryTypeCount) {
		fprintf(f, "type ? (none)");
		return;
	}
	fl = h->mem.memoryTypes[type].propertyFlags;
	heap = h->mem.memoryTypes[type].heapIndex;
	fprintf(f, "type %d (heap %u, %llu MiB:%s%s%s%s)", type, heap,
	        (unsigned long long)(h->mem.memoryHeaps[heap].size >> 20),
	        fl & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT ? " DEVICE_LOCAL" : "",
	        fl & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT ? " HOST_VISIBLE" : "",
	        fl & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT ? " HOST_COHERENT" :
	                                                    "",
	        fl & VK_MEMORY_PROPERTY_HOST_CACHED_BIT ? " HOST_CACHED" : "");
}

VkResult
vkh_buffer_create(struct vkh *h, struct vkh_device *d, VkDeviceSize size,
                  VkBufferUsageFlags usage, enum vkh_mem_role role,
                  int mem_type, struct vkh_buffer *out)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = usage,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VkMemoryRequirements req;
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	VkResult r;

	uint32_t fams[VKH_MAX_QUEUES], nfam = 0;

	/* Buffers shared by queues of several families are CONCURRENT:
	 * with EXCLUSIVE they would need ownership transfers, and without
	 * those their contents are undefined on the other family. */
	for (uint32_t i = 0; i < d->queue_count; i++) {
		bool seen = false;
		for (uint32_t j = 0; j < nfam; j++)
			seen |= fams[j] == d->queues[i].family;
		if (!seen)
			fams[nfam++] = d->queues[i].family;
	}
	if (nfam > 1) {
		bci.sharingMode = VK_SHARING_MODE_CONCURRENT;
		bci.queueFamilyIndexCount = nfam;
		bci.pQueueFamilyIndices = fams;
	}
	memset(out, 0, sizeof(*out));
	out->size = size;
	out->mem_type = -1;
	r = vkCreateBuffer(d->device, &bci, d->alloc, &out->buffer);
	if (r != VK_SUCCESS)
		goto fail;
	vkGetBufferMemoryRequirements(d->device, out->buffer, &req);
	if (mem_type < 0) {
		switch (role) {
		case VKH_MEM_DEVICE_LOCAL:
			mem_type = vkh_memtype_device_local(h,
			                                    req.memoryTypeBits);
			break;
		case VKH_MEM_UPLOAD:
			mem_type = vkh_memtype_upload(h, req.memoryTypeBits);
			break;
		case VKH_MEM_READBACK:
			mem_type = vkh_memtype_readback(h, req.memoryTypeBits);
			break;
		}
	}
	if (mem_type < 0 || !(req.memoryTypeBits & (1u << mem_type))) {
		fprintf(stderr, "[vkh] no usable memory type (bits 0x%x)\n",
		        req.memoryTypeBits);
		r = VK_ERROR_FEATURE_NOT_PRESENT;
		goto fail;
	}
	out->mem_type = mem_type;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)mem_type;
	r = vkAllocateMemory(d->device, &mai, d->alloc, &out->memory);
	if (r != VK_SUCCESS)
		goto fail;
	r = vkBindBufferMemory(d->device, out->buffer, out->memory, 0);
	if (r != VK_SUCCESS)
		goto fail;
	if (h->mem.memoryTypes[mem_type].propertyFlags &
	    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
		r = vkMapMemory(d->device, out->memory, 0, VK_WHOLE_SIZE, 0,
		                &out->map);
		if (r != VK_SUCCESS)
			goto fail;
	}
	return VK_SUCCESS;
fail:
	fprintf(stderr, "[vkh] buffer of %llu bytes: %s\n",
	        (unsigned long long)size, vkh_result_str(r));
	vkh_buffer_destroy(d, out);
	return r;
}

void
vkh_buffer_destroy(struct vkh_device *d, struct vkh_buffer *b)
{
	if (b->buffer)
		vkDestroyBuffer(d->device, b->buffer, d->alloc);
	if (b->memory)
		vkFreeMemory(d->device, b->memory, d->alloc);
	b->buffer = VK_NULL_HANDLE;
	b->memory = VK_NULL_HANDLE;
	b->map = NULL;
}

void
vkh_buffer_invalidate(struct vkh *h, struct vkh_device *d,
                      struct vkh_buffer *b)
{
	VkMappedMemoryRange range = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.memory = b->memory,
		.size = VK_WHOLE_SIZE,
	};

	if (b->map && !(h->mem.memoryTypes[b->mem_type].propertyFlags &
	                VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
		vkInvalidateMappedMemoryRanges(d->device, 1, &range);
}

/* ------------------------------------------------------------------ */
/* Command buffers                                                     */
/* ------------------------------------------------------------------ */

VkCommandBuffer
vkh_cmd_begin(struct vkh_device *d, uint32_t qi)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = d->queues[qi].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VkCommandBuffer cb = VK_NULL_HANDLE;

	if (vkAllocateCommandBuffers(d->device, &ai, &cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	if (vkBeginCommandBuffer(cb, &bi) != VK_SUCCESS) {
		vkFreeCommandBuffers(d->device, d->queues[qi].pool, 1, &cb);
		return VK_NULL_HANDLE;
	}
	return cb;
}

VkResult
vkh_cmd_submit_wait(struct vkh_device *d, uint32_t qi, VkCommandBuffer cb)
{
	VkFenceCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VkFence fence = VK_NULL_HANDLE;
	VkResult r;

	if (!cb)
		return VK_ERROR_INITIALIZATION_FAILED;
	r = vkEndCommandBuffer(cb);
	if (r == VK_SUCCESS)
		r = vkCreateFence(d->device, &fci, d->alloc, &fence);
	if (r == VK_SUCCESS)
		r = vkQueueSubmit(d->queues[qi].queue, 1, &si, fence);
	if (r == VK_SUCCESS) {
		r = vkWaitForFences(d->device, 1, &fence, VK_TRUE,
		                    VKH_TIMEOUT_NS);
		if (r == VK_TIMEOUT) {
			/* The command buffer is still pending: leak it rather
			 * than free pending work; the test fails anyway. */
			fprintf(stderr, "[vkh] submit on queue %u timed out\n",
			        qi);
			return r;
		}
	}
	if (fence)
		vkDestroyFence(d->device, fence, d->alloc);
	vkFreeCommandBuffers(d->device, d->queues[qi].pool, 1, &cb);
	return r;
}

void
vkh_cmd_transfer_barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0,
	                     NULL, 0, NULL);
}

void
vkh_cmd_host_barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
	                     NULL);
}

VkResult
vkh_copy_sync(struct vkh_device *d, uint32_t qi, VkBuffer src,
              VkDeviceSize src_off, VkBuffer dst, VkDeviceSize dst_off,
              VkDeviceSize size)
{
	VkBufferCopy region = {
		.srcOffset = src_off,
		.dstOffset = dst_off,
		.size = size,
	};
	VkCommandBuffer cb = vkh_cmd_begin(d, qi);

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	vkCmdCopyBuffer(cb, src, dst, 1, &region);
	vkh_cmd_host_barrier(cb);
	return vkh_cmd_submit_wait(d, qi, cb);
}
