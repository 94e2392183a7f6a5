/* SPDX-License-Identifier: MIT */
/* Helpers of the external memory / sync tests (external_util.h). */
#include "external_util.h"

#include <string.h>

static const char *const ext_names[] = {
	"VK_KHR_external_memory_fd",
	"VK_KHR_external_semaphore_fd",
	"VK_KHR_external_fence_fd",
};
#define EXT_COUNT (sizeof(ext_names) / sizeof(ext_names[0]))

bool ext_mem_ok, ext_sem_ok, ext_fence_ok;
static const char *ext_dev_exts[32];

void
ext_device_hook(struct vkh *h, VkDeviceCreateInfo *dci)
{
	VkExtensionProperties props[512];
	uint32_t n = 512, k = 0;
	bool *ok[EXT_COUNT] = { &ext_mem_ok, &ext_sem_ok, &ext_fence_ok };

	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, props);
	for (uint32_t i = 0; i < dci->enabledExtensionCount && k < 28; i++)
		ext_dev_exts[k++] = dci->ppEnabledExtensionNames[i];
	for (uint32_t e = 0; e < EXT_COUNT; e++) {
		*ok[e] = false;
		for (uint32_t i = 0; i < n; i++)
			if (!strcmp(props[i].extensionName, ext_names[e]))
				*ok[e] = true;
		if (*ok[e])
			ext_dev_exts[k++] = ext_names[e];
	}
	dci->enabledExtensionCount = k;
	dci->ppEnabledExtensionNames = ext_dev_exts;
}

/* Commands of the extensions the device offers (others stay NULL). */
void
ext_load_fns(VkDevice d, struct ext_fns *f)
{
	memset(f, 0, sizeof(*f));
	f->get_memory_fd = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(
		d, "vkGetMemoryFdKHR");
	if (ext_sem_ok) {
		f->get_semaphore_fd = (PFN_vkGetSemaphoreFdKHR)
			vkGetDeviceProcAddr(d, "vkGetSemaphoreFdKHR");
		f->import_semaphore_fd = (PFN_vkImportSemaphoreFdKHR)
			vkGetDeviceProcAddr(d, "vkImportSemaphoreFdKHR");
	}
	if (ext_fence_ok) {
		f->get_fence_fd = (PFN_vkGetFenceFdKHR)vkGetDeviceProcAddr(
			d, "vkGetFenceFdKHR");
		f->import_fence_fd = (PFN_vkImportFenceFdKHR)
			vkGetDeviceProcAddr(d, "vkImportFenceFdKHR");
	}
}

/* Two devices sharing memory (and sync objects if need_sync), or a
 * skip. */
bool
ext_two_devices(struct vkh *h, struct vkh_device *a, struct vkh_device *b,
                struct ext_fns *fa, struct ext_fns *fb, bool need_sync)
{
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	/* A on the first family, B on the last: on swgpu the graphics and
	 * a copy engine, which run in parallel, so only the shared
	 * semaphore orders B's read after A's write. */
	if (vkh_device_create_explicit(h, 0, 1, NULL, a) != VK_SUCCESS) {
		vkh_fail(h, __FILE__, __LINE__, "device A");
		return false;
	}
	if (!ext_mem_ok || (need_sync && !(ext_sem_ok && ext_fence_ok))) {
		vkh_skip(h, "VK_KHR_external_%s_fd not offered",
		         !ext_mem_ok ? "memory" : "semaphore/fence");
		vkh_device_destroy(h, a);
		return false;
	}
	if (vkh_device_create_explicit(h, h->family_count - 1, 1, NULL, b) !=
	    VK_SUCCESS) {
		vkh_fail(h, __FILE__, __LINE__, "device B");
		vkh_device_destroy(h, a);
		return false;
	}
	ext_load_fns(a->device, fa);
	ext_load_fns(b->device, fb);
	return true;
}

/* A buffer bound to memory that is exported (import_fd < 0) or imported
 * from import_fd; *type is the memory type (chosen device-local when
 * exporting, given when importing). Returns VK_SUCCESS or the failure of
 * vkAllocateMemory (the buffer is then destroyed). */
VkResult
ext_shared_buffer(struct vkh *h, VkDevice d, VkDeviceSize size, int import_fd,
                  int *type, VkBuffer *buf, VkDeviceMemory *mem,
                  VkDeviceSize *alloc_size)
{
	VkExternalMemoryBufferCreateInfo ext = {
		.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
		.handleTypes = MEM_FD,
	};
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.pNext = &ext,
		.size = size,
		.usage = XFER,
	};
	VkExportMemoryAllocateInfo export = {
		.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
		.handleTypes = MEM_FD,
	};
	VkImportMemoryFdInfoKHR import = {
		.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
		.handleType = MEM_FD,
		.fd = import_fd,
	};
	VkMemoryRequirements req;
	VkResult r;

	*mem = VK_NULL_HANDLE;
	r = vkCreateBuffer(d, &bci, NULL, buf);
	if (r != VK_SUCCESS)
		return r;
	vkGetBufferMemoryRequirements(d, *buf, &req);
	if (import_fd < 0)
		*type = vkh_memtype_device_local(h, req.memoryTypeBits);
	if (*alloc_size == 0)
		*alloc_size = req.size;
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.pNext = import_fd < 0 ? (void *)&export : (void *)&import,
		.allocationSize = *alloc_size,
		.memoryTypeIndex = (uint32_t)*type,
	};
	r = vkAllocateMemory(d, &mai, NULL, mem);
	if (r == VK_SUCCESS)
		r = vkBindBufferMemory(d, *buf, *mem, 0);
	if (r != VK_SUCCESS) {
		vkDestroyBuffer(d, *buf, NULL);
		*buf = VK_NULL_HANDLE;
	}
	return r;
}

VkSemaphore
ext_make_semaphore(VkDevice d, bool exportable, bool timeline)
{
	VkExportSemaphoreCreateInfo export = {
		.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
		.handleTypes = SEM_FD,
	};
	VkSemaphoreTypeCreateInfo type = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.pNext = exportable ? &export : NULL,
		.semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE
		                          : VK_SEMAPHORE_TYPE_BINARY,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &type,
	};
	VkSemaphore s = VK_NULL_HANDLE;

	vkCreateSemaphore(d, &sci, NULL, &s);
	return s;
}

VkFence
ext_make_fence(VkDevice d, bool exportable)
{
	VkExportFenceCreateInfo export = {
		.sType = VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO,
		.handleTypes = FENCE_FD,
	};
	VkFenceCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
		.pNext = exportable ? &export : NULL,
	};
	VkFence f = VK_NULL_HANDLE;

	vkCreateFence(d, &fci, NULL, &f);
	return f;
}

int
ext_memory_fd(const struct ext_fns *f, VkDevice d, VkDeviceMemory mem)
{
	VkMemoryGetFdInfoKHR gi = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
		.memory = mem,
		.handleType = MEM_FD,
	};
	int fd = -1;

	if (f->get_memory_fd(d, &gi, &fd) != VK_SUCCESS)
		return -1;
	return fd;
}

int
ext_semaphore_fd(const struct ext_fns *f, VkDevice d, VkSemaphore s)
{
	VkSemaphoreGetFdInfoKHR gi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
		.semaphore = s,
		.handleType = SEM_FD,
	};
	int fd = -1;

	if (f->get_semaphore_fd(d, &gi, &fd) != VK_SUCCESS)
		return -1;
	return fd;
}

VkResult
ext_import_semaphore(const struct ext_fns *f, VkDevice d, VkSemaphore s, int fd,
                     VkSemaphoreImportFlags flags)
{
	VkImportSemaphoreFdInfoKHR ii = {
		.sType = VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR,
		.semaphore = s,
		.flags = flags,
		.handleType = SEM_FD,
		.fd = fd,
	};

	return f->import_semaphore_fd(d, &ii);
}

int
ext_fence_fd(const struct ext_fns *f, VkDevice d, VkFence fence)
{
	VkFenceGetFdInfoKHR gi = {
		.sType = VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR,
		.fence = fence,
		.handleType = FENCE_FD,
	};
	int fd = -1;

	if (f->get_fence_fd(d, &gi, &fd) != VK_SUCCESS)
		return -1;
	return fd;
}

VkResult
ext_import_fence(const struct ext_fns *f, VkDevice d, VkFence fence, int fd,
                 VkFenceImportFlags flags)
{
	VkImportFenceFdInfoKHR ii = {
		.sType = VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR,
		.fence = fence,
		.flags = flags,
		.handleType = FENCE_FD,
		.fd = fd,
	};

	return f->import_fence_fd(d, &ii);
}

/* Submit cb (ended here) on d's queue 0, waiting/signalling one binary
 * semaphore each (may be null), with fence (may be null). */
VkResult
ext_submit(struct vkh_device *d, VkCommandBuffer cb, VkSemaphore wait,
           VkSemaphore signal, VkFence fence)
{
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.waitSemaphoreCount = wait ? 1 : 0,
		.pWaitSemaphores = &wait,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = cb ? 1 : 0,
		.pCommandBuffers = &cb,
		.signalSemaphoreCount = signal ? 1 : 0,
		.pSignalSemaphores = &signal,
	};
	VkResult r = cb ? vkEndCommandBuffer(cb) : VK_SUCCESS;

	if (r != VK_SUCCESS)
		return r;
	return vkQueueSubmit(d->queues[0].queue, 1, &si, fence);
}

void
ext_copy(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, VkDeviceSize size)
{
	VkBufferCopy region = { 0, 0, size };

	vkCmdCopyBuffer(cb, src, dst, 1, &region);
}

bool
ext_check_pattern(const uint8_t *p, uint32_t seed, VkDeviceSize size,
                  VkDeviceSize *bad)
{
	for (VkDeviceSize i = 0; i < size; i++)
		if (p[i] != vkh_pattern(seed, i)) {
			*bad = i;
			return false;
		}
	return true;
}
