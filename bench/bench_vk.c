/* SPDX-License-Identifier: MIT */
/*
 * Instance, device and queue choice by capability, memory types by role,
 * buffers and one-shot submission. No validation layer: it would measure
 * itself, and the tests already run every path with it on.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

const char *
bench_vk_result(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return "VK_SUCCESS";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "OUT_OF_HOST_MEMORY";
	case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "OUT_OF_DEVICE_MEMORY";
	case VK_ERROR_INITIALIZATION_FAILED: return "INITIALIZATION_FAILED";
	case VK_ERROR_DEVICE_LOST: return "DEVICE_LOST";
	case VK_ERROR_INCOMPATIBLE_DRIVER: return "INCOMPATIBLE_DRIVER";
	case VK_ERROR_FEATURE_NOT_PRESENT: return "FEATURE_NOT_PRESENT";
	case VK_ERROR_FORMAT_NOT_SUPPORTED: return "FORMAT_NOT_SUPPORTED";
	default: return "VkResult error";
	}
}

/* Transfer queue: a transfer-only family first (that is where a real
 * application puts its uploads), the one with most queues among equals. */
static int
pick_xfer_family(const struct bench_vk *vk)
{
	const VkQueueFlags any = VK_QUEUE_TRANSFER_BIT | VK_QUEUE_COMPUTE_BIT |
	                         VK_QUEUE_GRAPHICS_BIT;
	int best = -1, best_score = -1;

	for (uint32_t i = 0; i < vk->family_count; i++) {
		VkQueueFlags f = vk->families[i].queueFlags;
		int score;

		if (!(f & any) || !vk->families[i].queueCount)
			continue;
		score = (f & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) ?
			0 : 100;
		score += vk->families[i].queueCount > 1 ? 10 : 0;
		if (score > best_score) {
			best = (int)i;
			best_score = score;
		}
	}
	return best;
}

static void
pick_queues(struct bench_vk *vk, uint32_t count[16])
{
	int xf = pick_xfer_family(vk);

	memset(count, 0, 16 * sizeof(count[0]));
	vk->xfer.family = (uint32_t)xf;
	count[xf] = 1;
	if (vk->families[xf].queueCount > 1) {
		vk->has_xfer2 = true;
		vk->xfer2.family = (uint32_t)xf;
		vk->xfer2.index = 1;
		count[xf] = 2;
		vk->xfer2_note = "same-family";
	} else {
		vk->xfer2_note = "single-transfer-queue";
		for (uint32_t i = 0; i < vk->family_count; i++) {
			if ((int)i == xf || !vk->families[i].queueCount)
				continue;
			vk->has_xfer2 = true;
			vk->xfer2.family = i;
			count[i] = 1;
			vk->xfer2_note = "other-family";
			break;
		}
	}
	/* Compute: an async compute family (no GRAPHICS) first, as an
	 * application would put its compute work there; else any. */
	for (int pass = 0; pass < 2 && !vk->has_compute; pass++)
		for (uint32_t i = 0; i < vk->family_count; i++) {
			VkQueueFlags f = vk->families[i].queueFlags;

			if (!(f & VK_QUEUE_COMPUTE_BIT) ||
			    (pass == 0 && (f & VK_QUEUE_GRAPHICS_BIT)))
				continue;
			vk->has_compute = true;
			vk->compute.family = i;
			if (!count[i])
				count[i] = 1;
			break;
		}
	for (uint32_t i = 0; i < vk->family_count; i++) {
		if (!(vk->families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
			continue;
		vk->has_gfx = true;
		vk->gfx.family = i;
		if (!count[i])
			count[i] = 1;
		break;
	}
}

static VkResult
queue_init(struct bench_vk *vk, struct bench_queue *q)
{
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = q->family,
	};
	VkFenceCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
	};
	VkResult r;

	vkGetDeviceQueue(vk->device, q->family, q->index, &q->queue);
	r = vkCreateCommandPool(vk->device, &pci, NULL, &q->pool);
	if (r == VK_SUCCESS)
		r = vkCreateFence(vk->device, &fci, NULL, &q->fence);
	return r;
}

static void
queue_finish(struct bench_vk *vk, struct bench_queue *q)
{
	if (q->fence)
		vkDestroyFence(vk->device, q->fence, NULL);
	if (q->pool)
		vkDestroyCommandPool(vk->device, q->pool, NULL);
	q->fence = VK_NULL_HANDLE;
	q->pool = VK_NULL_HANDLE;
}

static void
driver_name(struct bench_vk *vk)
{
	VkPhysicalDeviceDriverProperties drv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &drv,
	};

	vkGetPhysicalDeviceProperties2(vk->phys, &p2);
	/* The Vulkan driver is lavapipe; "llvmpipe" is its Gallium side. */
	if (drv.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
		snprintf(vk->driver, sizeof(vk->driver), "lavapipe");
	else if (drv.driverName[0])
		snprintf(vk->driver, sizeof(vk->driver), "%.63s",
		         drv.driverName);
	else
		snprintf(vk->driver, sizeof(vk->driver), "%.63s",
		         vk->props.deviceName);
	/* --driver-name / --driver-env of the parent (bench_main.c): two
	 * columns of one driver in different settings tell apart. */
	const char *name = getenv("SWGPU_BENCH_DRIVER_NAME");
	const char *suffix = getenv("SWGPU_BENCH_DRIVER_SUFFIX");
	if (name && name[0]) {
		snprintf(vk->driver, sizeof(vk->driver), "%.63s", name);
	} else if (suffix && suffix[0]) {
		size_t len = strlen(vk->driver);

		snprintf(vk->driver + len, sizeof(vk->driver) - len, "-%s",
		         suffix);
	}
	/* Keep the name one word for the machine-readable lines. */
	for (char *c = vk->driver; *c; c++)
		if (*c == ' ' || *c == '=')
			*c = '_';
}

VkResult
bench_vk_init(struct bench_vk *vk)
{
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "swgpu_bench",
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	VkDeviceQueueCreateInfo qci[16];
	float prio[2] = { 1.0f, 1.0f };
	uint32_t count[16], nq = 0, npd = 1;
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pQueueCreateInfos = qci,
	};
	VkResult r;

	memset(vk, 0, sizeof(*vk));
	r = vkCreateInstance(&ici, NULL, &vk->instance);
	if (r != VK_SUCCESS)
		return r;
	r = vkEnumeratePhysicalDevices(vk->instance, &npd, &vk->phys);
	if (r < 0 || npd == 0)
		return r < 0 ? r : VK_ERROR_INITIALIZATION_FAILED;
	vkGetPhysicalDeviceProperties(vk->phys, &vk->props);
	vkGetPhysicalDeviceMemoryProperties(vk->phys, &vk->mem);
	vk->family_count = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(vk->phys, &vk->family_count,
	                                         vk->families);
	driver_name(vk);
	if (pick_xfer_family(vk) < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	pick_queues(vk, count);

	if (vk->props.apiVersion >= VK_API_VERSION_1_3)
		f12.pNext = &f13;
	if (vk->props.apiVersion >= VK_API_VERSION_1_2) {
		vkGetPhysicalDeviceFeatures2(vk->phys, &f2);
		vk->timeline = f12.timelineSemaphore;
		/* Graphics figures render with dynamic rendering. */
		vk->has_gfx = vk->has_gfx && f13.dynamicRendering;
		/* Enable only what the figures use. */
		f12 = (VkPhysicalDeviceVulkan12Features){
			.sType = f12.sType,
			.pNext = vk->has_gfx ? &f13 : NULL,
			.timelineSemaphore = vk->timeline,
		};
		f13 = (VkPhysicalDeviceVulkan13Features){
			.sType = f13.sType,
			.dynamicRendering = vk->has_gfx,
		};
		dci.pNext = &f12;
	} else {
		vk->has_gfx = false;
	}
	for (uint32_t i = 0; i < vk->family_count; i++) {
		if (!count[i])
			continue;
		qci[nq++] = (VkDeviceQueueCreateInfo){
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			.queueFamilyIndex = i,
			.queueCount = count[i],
			.pQueuePriorities = prio,
		};
	}
	dci.queueCreateInfoCount = nq;
	r = vkCreateDevice(vk->phys, &dci, NULL, &vk->device);
	if (r != VK_SUCCESS)
		return r;
	r = queue_init(vk, &vk->xfer);
	if (r == VK_SUCCESS && vk->has_xfer2)
		r = queue_init(vk, &vk->xfer2);
	if (r == VK_SUCCESS && vk->has_compute)
		r = queue_init(vk, &vk->compute);
	if (r == VK_SUCCESS && vk->has_gfx)
		r = queue_init(vk, &vk->gfx);
	return r;
}

void
bench_vk_finish(struct bench_vk *vk)
{
	if (vk->device) {
		vkDeviceWaitIdle(vk->device);
		queue_finish(vk, &vk->xfer);
		queue_finish(vk, &vk->xfer2);
		queue_finish(vk, &vk->compute);
		queue_finish(vk, &vk->gfx);
		vkDestroyDevice(vk->device, NULL);
	}
	if (vk->instance)
		vkDestroyInstance(vk->instance, NULL);
	memset(vk, 0, sizeof(*vk));
}

/* By role, like an application would: required flags, then the most
 * preferred and fewest unwanted ones (the lowest index among equals). */
int
bench_mem_type(const struct bench_vk *vk, uint32_t type_bits,
               enum bench_mem_role role)
{
	VkMemoryPropertyFlags need = 0, want = 0, avoid = 0;
	int best = -1, best_score = -1000;

	switch (role) {
	case BENCH_MEM_DEVICE_LOCAL:
		need = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
		avoid = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
		break;
	case BENCH_MEM_UPLOAD:
		need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
		avoid = VK_MEMORY_PROPERTY_HOST_CACHED_BIT |
		        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
		break;
	case BENCH_MEM_READBACK:
		need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
		want = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
		avoid = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
		break;
	}
	for (uint32_t i = 0; i < vk->mem.memoryTypeCount; i++) {
		VkMemoryPropertyFlags f = vk->mem.memoryTypes[i].propertyFlags;
		int score;

		if (!(type_bits & (1u << i)) || (f & need) != need)
			continue;
		score = 2 * __builtin_popcount(f & want) -
		        __builtin_popcount(f & avoid);
		if (score > best_score) {
			best = (int)i;
			best_score = score;
		}
	}
	return best;
}

VkResult
bench_buffer_create(struct bench_vk *vk, VkDeviceSize size,
                    VkBufferUsageFlags usage, enum bench_mem_role role,
                    struct bench_buffer *b)
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
	VkMemoryPropertyFlags f;
	VkResult r;
	int type;

	memset(b, 0, sizeof(*b));
	b->size = size;
	r = vkCreateBuffer(vk->device, &bci, NULL, &b->buffer);
	if (r != VK_SUCCESS)
		return r;
	vkGetBufferMemoryRequirements(vk->device, b->buffer, &req);
	type = bench_mem_type(vk, req.memoryTypeBits, role);
	if (type < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	b->mem_type = (uint32_t)type;
	f = vk->mem.memoryTypes[type].propertyFlags;
	b->coherent = f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = b->mem_type;
	r = vkAllocateMemory(vk->device, &mai, NULL, &b->memory);
	if (r == VK_SUCCESS)
		r = vkBindBufferMemory(vk->device, b->buffer, b->memory, 0);
	if (r == VK_SUCCESS && role != BENCH_MEM_DEVICE_LOCAL)
		r = vkMapMemory(vk->device, b->memory, 0, VK_WHOLE_SIZE, 0,
		                &b->map);
	return r;
}

void
bench_buffer_destroy(struct bench_vk *vk, struct bench_buffer *b)
{
	if (b->buffer)
		vkDestroyBuffer(vk->device, b->buffer, NULL);
	if (b->memory)
		vkFreeMemory(vk->device, b->memory, NULL);
	memset(b, 0, sizeof(*b));
}

void
bench_buffer_invalidate(struct bench_vk *vk, struct bench_buffer *b)
{
	VkMappedMemoryRange range = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.memory = b->memory,
		.size = VK_WHOLE_SIZE,
	};

	if (!b->coherent)
		vkInvalidateMappedMemoryRanges(vk->device, 1, &range);
}

VkCommandBuffer
bench_cmd_begin(struct bench_vk *vk, struct bench_queue *q)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = q->pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkCommandBuffer cb;

	if (vkAllocateCommandBuffers(vk->device, &ai, &cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	if (vkBeginCommandBuffer(cb, &bi) != VK_SUCCESS) {
		vkFreeCommandBuffers(vk->device, q->pool, 1, &cb);
		return VK_NULL_HANDLE;
	}
	return cb;
}

VkResult
bench_cmd_end(VkCommandBuffer cb)
{
	return vkEndCommandBuffer(cb);
}

void
bench_cmd_free(struct bench_vk *vk, struct bench_queue *q,
               VkCommandBuffer cb)
{
	if (cb)
		vkFreeCommandBuffers(vk->device, q->pool, 1, &cb);
}

/* Submit one recorded command buffer and wait for its fence; *ns (if
 * given) is the time from submit to the fence seen signalled. */
VkResult
bench_submit_wait(struct bench_vk *vk, struct bench_queue *q,
                  VkCommandBuffer cb, uint64_t *ns)
{
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = cb ? 1 : 0,
		.pCommandBuffers = &cb,
	};
	uint64_t t0 = bench_now_ns();
	VkResult r = vkQueueSubmit(q->queue, 1, &si, q->fence);

	if (r == VK_SUCCESS)
		r = vkWaitForFences(vk->device, 1, &q->fence, VK_TRUE,
		                    BENCH_TIMEOUT_NS);
	if (ns)
		*ns = bench_now_ns() - t0;
	if (r == VK_SUCCESS)
		r = vkResetFences(vk->device, 1, &q->fence);
	else
		fprintf(stderr, "swgpu_bench: submit/wait: %s\n",
		        bench_vk_result(r));
	return r;
}

void
bench_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage,
              VkAccessFlags src, VkPipelineStageFlags dst_stage,
              VkAccessFlags dst)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = src,
		.dstAccessMask = dst,
	};

	vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0,
	                     NULL);
}
