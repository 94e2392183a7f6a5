/* SPDX-License-Identifier: MIT */
/*
 * Sharing on purpose (issue 22 item 5): VK_KHR_external_memory_fd,
 * _semaphore_fd and _fence_fd with opaque fds, between two VkDevices of
 * one process and between two processes.
 *
 * Device A exports memory and a semaphore, device B (on another engine)
 * imports them; A writes with a copy and signals, B waits on the imported
 * semaphore and reads the data (a large copy, so a B that did not wait
 * would read zeros). Timeline semaphores and fences are shared by
 * reference (a signal or reset on one side is seen on the other); a
 * temporary fence import ends at the reset. An image (linear and optimal,
 * same create info) is shared the same way. Bad fds, wrong types and size
 * mismatches fail with VK_ERROR_INVALID_EXTERNAL_HANDLE and leave the fd
 * to the caller (swgpu only: they are invalid usage, undefined
 * elsewhere); a fault of A fails only B's work that waited on it
 * (fault_isolation, with SWGPU_FAULT). The two-process test re-executes
 * this program as a child that receives the memory and semaphore fds over
 * a Unix socket (SCM_RIGHTS): its GPU waits on the parent's timeline
 * value before reading the parent's data, writes an answer and signals
 * the next value, which the parent waits for (where timeline fds are not
 * offered, the processes take turns by message).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include "vk_harness.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define MEM_FD VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
#define SEM_FD VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT
#define FENCE_FD VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT

/* Large enough that a copy takes a while on a software GPU: a reader
 * that did not wait sees zeros. */
#define BIG_SIZE (16u << 20)

static const char *const ext_names[] = {
	"VK_KHR_external_memory_fd",
	"VK_KHR_external_semaphore_fd",
	"VK_KHR_external_fence_fd",
};
#define EXT_COUNT (sizeof(ext_names) / sizeof(ext_names[0]))

/* What the device offers (set by the device hook): memory sharing is the
 * base; lavapipe, for one, shares memory but not semaphores or fences. */
static bool mem_ok, sem_ok, fence_ok;
static const char *dev_exts[32];

static void
device_hook(struct vkh *h, VkDeviceCreateInfo *dci)
{
	VkExtensionProperties props[512];
	uint32_t n = 512, k = 0;
	bool *ok[EXT_COUNT] = { &mem_ok, &sem_ok, &fence_ok };

	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, props);
	for (uint32_t i = 0; i < dci->enabledExtensionCount && k < 28; i++)
		dev_exts[k++] = dci->ppEnabledExtensionNames[i];
	for (uint32_t e = 0; e < EXT_COUNT; e++) {
		*ok[e] = false;
		for (uint32_t i = 0; i < n; i++)
			if (!strcmp(props[i].extensionName, ext_names[e]))
				*ok[e] = true;
		if (*ok[e])
			dev_exts[k++] = ext_names[e];
	}
	dci->enabledExtensionCount = k;
	dci->ppEnabledExtensionNames = dev_exts;
}

struct fns {
	PFN_vkGetMemoryFdKHR get_memory_fd;
	PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
	PFN_vkImportSemaphoreFdKHR import_semaphore_fd;
	PFN_vkGetFenceFdKHR get_fence_fd;
	PFN_vkImportFenceFdKHR import_fence_fd;
};

/* Commands of the extensions the device offers (others stay NULL). */
static void
load_fns(VkDevice d, struct fns *f)
{
	memset(f, 0, sizeof(*f));
	f->get_memory_fd = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(
		d, "vkGetMemoryFdKHR");
	if (sem_ok) {
		f->get_semaphore_fd = (PFN_vkGetSemaphoreFdKHR)
			vkGetDeviceProcAddr(d, "vkGetSemaphoreFdKHR");
		f->import_semaphore_fd = (PFN_vkImportSemaphoreFdKHR)
			vkGetDeviceProcAddr(d, "vkImportSemaphoreFdKHR");
	}
	if (fence_ok) {
		f->get_fence_fd = (PFN_vkGetFenceFdKHR)vkGetDeviceProcAddr(
			d, "vkGetFenceFdKHR");
		f->import_fence_fd = (PFN_vkImportFenceFdKHR)
			vkGetDeviceProcAddr(d, "vkImportFenceFdKHR");
	}
}

/* Two devices sharing memory (and sync objects if need_sync), or a
 * skip. */
static bool
two_devices(struct vkh *h, struct vkh_device *a, struct vkh_device *b,
            struct fns *fa, struct fns *fb, bool need_sync)
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
	if (!mem_ok || (need_sync && !(sem_ok && fence_ok))) {
		vkh_skip(h, "VK_KHR_external_%s_fd not offered",
		         !mem_ok ? "memory" : "semaphore/fence");
		vkh_device_destroy(h, a);
		return false;
	}
	if (vkh_device_create_explicit(h, h->family_count - 1, 1, NULL, b) !=
	    VK_SUCCESS) {
		vkh_fail(h, __FILE__, __LINE__, "device B");
		vkh_device_destroy(h, a);
		return false;
	}
	load_fns(a->device, fa);
	load_fns(b->device, fb);
	return true;
}

/* A buffer bound to memory that is exported (import_fd < 0) or imported
 * from import_fd; *type is the memory type (chosen device-local when
 * exporting, given when importing). Returns VK_SUCCESS or the failure of
 * vkAllocateMemory (the buffer is then destroyed). */
static VkResult
shared_buffer(struct vkh *h, VkDevice d, VkDeviceSize size, int import_fd,
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

static VkSemaphore
make_semaphore(VkDevice d, bool exportable, bool timeline)
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

static VkFence
make_fence(VkDevice d, bool exportable)
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

static int
memory_fd(const struct fns *f, VkDevice d, VkDeviceMemory mem)
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

static int
semaphore_fd(const struct fns *f, VkDevice d, VkSemaphore s)
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

static VkResult
import_semaphore(const struct fns *f, VkDevice d, VkSemaphore s, int fd,
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

static int
fence_fd(const struct fns *f, VkDevice d, VkFence fence)
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

static VkResult
import_fence(const struct fns *f, VkDevice d, VkFence fence, int fd,
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
static VkResult
submit(struct vkh_device *d, VkCommandBuffer cb, VkSemaphore wait,
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

static void
copy(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, VkDeviceSize size)
{
	VkBufferCopy region = { 0, 0, size };

	vkCmdCopyBuffer(cb, src, dst, 1, &region);
}

static bool
check_pattern(const uint8_t *p, uint32_t seed, VkDeviceSize size,
              VkDeviceSize *bad)
{
	for (VkDeviceSize i = 0; i < size; i++)
		if (p[i] != vkh_pattern(seed, i)) {
			*bad = i;
			return false;
		}
	return true;
}

/* ------------------------------------------------------------------ */

static void
test_properties(struct vkh *h, struct vkh_device *d)
{
	VkPhysicalDeviceExternalBufferInfo bi = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
		.usage = XFER,
		.handleType = MEM_FD,
	};
	VkExternalBufferProperties bp = {
		.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES,
	};
	VkPhysicalDeviceExternalSemaphoreInfo si = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
		.handleType = SEM_FD,
	};
	VkExternalSemaphoreProperties sp = {
		.sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES,
	};
	VkPhysicalDeviceExternalFenceInfo fi = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO,
		.handleType = FENCE_FD,
	};
	VkExternalFenceProperties fp = {
		.sType = VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES,
	};
	VkPhysicalDeviceExternalImageFormatInfo ei = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
		.handleType = MEM_FD,
	};
	VkPhysicalDeviceImageFormatInfo2 ii = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
		.pNext = &ei,
		.format = VK_FORMAT_R8G8B8A8_UNORM,
		.type = VK_IMAGE_TYPE_2D,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	VkExternalImageFormatProperties ep = {
		.sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES,
	};
	VkImageFormatProperties2 ip = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2,
		.pNext = &ep,
	};
	VkPhysicalDeviceIDProperties id = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &id,
	};
	static const uint8_t zero[VK_UUID_SIZE];
	const VkExternalMemoryFeatureFlags mem_both =
		VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT |
		VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;

	(void)d;
	if (!mem_ok) {
		vkh_skip(h, "VK_KHR_external_memory_fd not offered");
		return;
	}
	vkGetPhysicalDeviceExternalBufferProperties(h->phys, &bi, &bp);
	VKH_CHECK(h, (bp.externalMemoryProperties.externalMemoryFeatures &
	              mem_both) == mem_both);
	VKH_CHECK(h, bp.externalMemoryProperties.compatibleHandleTypes &
	             MEM_FD);
	vkGetPhysicalDeviceExternalSemaphoreProperties(h->phys, &si, &sp);
	VKH_CHECK(h, !sem_ok || sp.externalSemaphoreFeatures ==
	             (VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
	              VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT));
	VKH_CHECK(h, !sem_ok || (sp.compatibleHandleTypes & SEM_FD));
	vkGetPhysicalDeviceExternalFenceProperties(h->phys, &fi, &fp);
	VKH_CHECK(h, !fence_ok || fp.externalFenceFeatures ==
	             (VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT |
	              VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT));
	VKH_CHECK_VK(h, vkGetPhysicalDeviceImageFormatProperties2(h->phys,
	                                                          &ii, &ip));
	VKH_CHECK(h, (ep.externalMemoryProperties.externalMemoryFeatures &
	              mem_both) == mem_both);
	/* What an application compares to know two devices can share. */
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	VKH_CHECK(h, memcmp(id.deviceUUID, zero, VK_UUID_SIZE) != 0);
	VKH_CHECK(h, memcmp(id.driverUUID, zero, VK_UUID_SIZE) != 0);
	if (h->is_swgpu) {
		/* Nothing else is exportable, and nothing pretends to be. */
		VkPhysicalDeviceExternalSemaphoreInfo sync_fd = si;

		sync_fd.handleType =
			VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT;
		vkGetPhysicalDeviceExternalSemaphoreProperties(h->phys,
		                                               &sync_fd, &sp);
		VKH_CHECK(h, sp.externalSemaphoreFeatures == 0);
	}
}

/* A writes a pattern into exported memory and signals an exported binary
 * semaphore; B imports both, waits on the semaphore and reads. Then the
 * other way round over the same memory, B to A, with a second semaphore
 * exported by B. Without semaphore fds (lavapipe) the host orders the
 * two devices with fences instead: the memory is still shared. */
static void
test_buffer_semaphore(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct fns fa, fb;
	struct vkh_buffer up, rb_b, rb_a;
	VkBuffer sa = VK_NULL_HANDLE, sb = VK_NULL_HANDLE;
	VkDeviceMemory ma = VK_NULL_HANDLE, mb = VK_NULL_HANDLE;
	VkDeviceSize alloc_size = 0, bad = 0;
	int type = -1, fd;
	VkSemaphore sem_a = VK_NULL_HANDLE, sem_b = VK_NULL_HANDLE;
	VkSemaphore sem_b2 = VK_NULL_HANDLE, sem_a2 = VK_NULL_HANDLE;
	VkFence done_b, done_a;
	VkCommandBuffer cb;

	(void)unused;
	if (!two_devices(h, &a, &b, &fa, &fb, false))
		return;
	printf("  ordering the devices with %s\n",
	       sem_ok ? "shared semaphores" : "host fence waits");
	VKH_CHECK_VK(h, vkh_buffer_create(h, &a, BIG_SIZE, XFER,
	                                  VKH_MEM_UPLOAD, -1, &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &b, BIG_SIZE, XFER,
	                                  VKH_MEM_READBACK, -1, &rb_b));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &a, BIG_SIZE, XFER,
	                                  VKH_MEM_READBACK, -1, &rb_a));
	for (VkDeviceSize i = 0; i < BIG_SIZE; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(22, i);

	VKH_CHECK_VK(h, shared_buffer(h, a.device, BIG_SIZE, -1, &type, &sa,
	                              &ma, &alloc_size));
	fd = memory_fd(&fa, a.device, ma);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, shared_buffer(h, b.device, BIG_SIZE, fd, &type, &sb,
	                              &mb, &alloc_size));
	done_a = make_fence(a.device, false);
	done_b = make_fence(b.device, false);
	if (sem_ok) {
		sem_a = make_semaphore(a.device, true, false);
		sem_b = make_semaphore(b.device, false, false);
		VKH_CHECK(h, sem_a && sem_b);
		fd = semaphore_fd(&fa, a.device, sem_a);
		VKH_CHECK(h, fd >= 0);
		VKH_CHECK_VK(h, import_semaphore(&fb, b.device, sem_b, fd, 0));
		sem_b2 = make_semaphore(b.device, true, false);
		sem_a2 = make_semaphore(a.device, false, false);
		fd = semaphore_fd(&fb, b.device, sem_b2);
		VKH_CHECK(h, fd >= 0);
		VKH_CHECK_VK(h, import_semaphore(&fa, a.device, sem_a2, fd,
		                                 0));
	}

	/* A: upload -> shared, signal. B: wait, shared -> readback. */
	cb = vkh_cmd_begin(&a, 0);
	copy(cb, up.buffer, sa, BIG_SIZE);
	VKH_CHECK_VK(h, submit(&a, cb, VK_NULL_HANDLE, sem_a, done_a));
	if (!sem_ok)
		VKH_CHECK_VK(h, vkWaitForFences(a.device, 1, &done_a, VK_TRUE,
		                                VKH_TIMEOUT_NS));
	cb = vkh_cmd_begin(&b, 0);
	copy(cb, sb, rb_b.buffer, BIG_SIZE);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, submit(&b, cb, sem_b, VK_NULL_HANDLE, done_b));
	VKH_CHECK_VK(h, vkWaitForFences(b.device, 1, &done_b, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	vkh_buffer_invalidate(h, &b, &rb_b);
	VKH_CHECK_MSG(h, check_pattern(rb_b.map, 22, BIG_SIZE, &bad),
	              "B read byte %llu = %u, A wrote %u",
	              (unsigned long long)bad, ((uint8_t *)rb_b.map)[bad],
	              vkh_pattern(22, bad));
	VKH_CHECK_VK(h, vkWaitForFences(a.device, 1, &done_a, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK_VK(h, vkResetFences(a.device, 1, &done_a));
	VKH_CHECK_VK(h, vkResetFences(b.device, 1, &done_b));

	/* B -> A: B overwrites the first MiB (fill), signals its own
	 * exported semaphore, A waits and reads. */
	cb = vkh_cmd_begin(&b, 0);
	vkCmdFillBuffer(cb, sb, 0, 1u << 20, 0x5a5a5a5au);
	VKH_CHECK_VK(h, submit(&b, cb, VK_NULL_HANDLE, sem_b2, done_b));
	if (!sem_ok)
		VKH_CHECK_VK(h, vkWaitForFences(b.device, 1, &done_b, VK_TRUE,
		                                VKH_TIMEOUT_NS));
	cb = vkh_cmd_begin(&a, 0);
	copy(cb, sa, rb_a.buffer, BIG_SIZE);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, submit(&a, cb, sem_a2, VK_NULL_HANDLE, done_a));
	VKH_CHECK_VK(h, vkWaitForFences(a.device, 1, &done_a, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	vkh_buffer_invalidate(h, &a, &rb_a);
	for (VkDeviceSize i = 0; i < BIG_SIZE; i += 4093) {
		uint8_t want = i < (1u << 20) ? 0x5a : vkh_pattern(22, i);

		VKH_CHECK_MSG(h, ((uint8_t *)rb_a.map)[i] == want,
		              "A read byte %llu = %u, want %u",
		              (unsigned long long)i,
		              ((uint8_t *)rb_a.map)[i], want);
	}
	VKH_CHECK_VK(h, vkDeviceWaitIdle(b.device));
	VKH_CHECK_VK(h, vkDeviceWaitIdle(a.device));
	vkDestroyFence(a.device, done_a, NULL);
	vkDestroyFence(b.device, done_b, NULL);
	vkDestroySemaphore(a.device, sem_a, NULL);
	vkDestroySemaphore(a.device, sem_a2, NULL);
	vkDestroySemaphore(b.device, sem_b, NULL);
	vkDestroySemaphore(b.device, sem_b2, NULL);
	vkDestroyBuffer(b.device, sb, NULL);
	vkFreeMemory(b.device, mb, NULL);
	vkDestroyBuffer(a.device, sa, NULL);
	vkFreeMemory(a.device, ma, NULL);
	vkh_buffer_destroy(&a, &up);
	vkh_buffer_destroy(&a, &rb_a);
	vkh_buffer_destroy(&b, &rb_b);
	vkh_device_destroy(h, &b);
	vkh_device_destroy(h, &a);
}

/* A timeline shared by reference: a GPU signal on A and a host signal on
 * B are both seen through the other handle. */
static void
test_timeline(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct fns fa, fb;
	VkSemaphore ta, tb;
	uint64_t v = 0;
	int fd;

	(void)unused;
	if (!two_devices(h, &a, &b, &fa, &fb, true))
		return;
	if (!h->timeline_semaphore) {
		vkh_skip(h, "no timeline semaphores");
		goto out;
	}
	ta = make_semaphore(a.device, true, true);
	tb = make_semaphore(b.device, false, true);
	VKH_CHECK(h, ta && tb);
	fd = semaphore_fd(&fa, a.device, ta);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, import_semaphore(&fb, b.device, tb, fd, 0));

	uint64_t one = 1;
	VkTimelineSemaphoreSubmitInfo tl = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.signalSemaphoreValueCount = 1,
		.pSignalSemaphoreValues = &one,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &tl,
		.signalSemaphoreCount = 1,
		.pSignalSemaphores = &ta,
	};
	VKH_CHECK_VK(h, vkQueueSubmit(a.queues[0].queue, 1, &si,
	                              VK_NULL_HANDLE));
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.semaphoreCount = 1,
		.pSemaphores = &tb,
		.pValues = &one,
	};
	VKH_CHECK_VK(h, vkWaitSemaphores(b.device, &wi, VKH_TIMEOUT_NS));
	VkSemaphoreSignalInfo sig = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
		.semaphore = tb,
		.value = 7,
	};
	VKH_CHECK_VK(h, vkSignalSemaphore(b.device, &sig));
	VKH_CHECK_VK(h, vkGetSemaphoreCounterValue(a.device, ta, &v));
	VKH_CHECK_MSG(h, v == 7, "A sees %llu after B signalled 7",
	              (unsigned long long)v);
	VKH_CHECK_VK(h, vkDeviceWaitIdle(a.device));
	vkDestroySemaphore(a.device, ta, NULL);
	vkDestroySemaphore(b.device, tb, NULL);
out:
	vkh_device_destroy(h, &b);
	vkh_device_destroy(h, &a);
}

/* A fence fd round trip: B's imported fence is A's payload (signalled by
 * A's submit, reset by B for both); a temporary import lasts until the
 * reset, after which B's fence is its own again. */
static void
test_fence(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct fns fa, fb;
	VkFence fa0, fb0, fb1;
	int fd;

	(void)unused;
	if (!two_devices(h, &a, &b, &fa, &fb, true))
		return;
	fa0 = make_fence(a.device, true);
	fb0 = make_fence(b.device, false);
	fb1 = make_fence(b.device, false);
	VKH_CHECK(h, fa0 && fb0 && fb1);
	VKH_CHECK_VK(h, vkResetFences(a.device, 1, &fa0));
	fd = fence_fd(&fa, a.device, fa0);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, import_fence(&fb, b.device, fb0, fd, 0));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(b.device, fb0), VK_NOT_READY);

	VKH_CHECK_VK(h, submit(&a, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                       VK_NULL_HANDLE, fa0));
	VKH_CHECK_VK(h, vkWaitForFences(b.device, 1, &fb0, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(a.device, fa0), VK_SUCCESS);
	VKH_CHECK_VK(h, vkResetFences(b.device, 1, &fb0));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(a.device, fa0), VK_NOT_READY);

	/* Temporary: fb1 follows A's payload until its reset. */
	VKH_CHECK_VK(h, submit(&a, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                       VK_NULL_HANDLE, fa0));
	VKH_CHECK_VK(h, vkWaitForFences(a.device, 1, &fa0, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	fd = fence_fd(&fa, a.device, fa0);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, import_fence(&fb, b.device, fb1, fd,
	                             VK_FENCE_IMPORT_TEMPORARY_BIT));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(b.device, fb1), VK_SUCCESS);
	VKH_CHECK_VK(h, vkResetFences(b.device, 1, &fb1));
	/* The reset restored fb1's own (unsignalled) payload and reset
	 * that, not A's. */
	VKH_CHECK_RESULT(h, vkGetFenceStatus(a.device, fa0), VK_SUCCESS);
	VKH_CHECK_RESULT(h, vkGetFenceStatus(b.device, fb1), VK_NOT_READY);
	vkDestroyFence(a.device, fa0, NULL);
	vkDestroyFence(b.device, fb0, NULL);
	vkDestroyFence(b.device, fb1, NULL);
	vkh_device_destroy(h, &b);
	vkh_device_destroy(h, &a);
}

/* An image of exported memory, the same create info on both sides: B
 * reads what A wrote, for linear and optimal tiling. */
static void
share_image(struct vkh *h, struct vkh_device *a, struct vkh_device *b,
            const struct fns *fa, VkImageTiling tiling)
{
	const uint32_t W = 64, H = 48;
	const VkDeviceSize size = (VkDeviceSize)W * H * 4;
	VkExternalMemoryImageCreateInfo ext = {
		.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO,
		.handleTypes = MEM_FD,
	};
	VkImageCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.pNext = &ext,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM,
		.extent = { W, H, 1 },
		.mipLevels = 1,
		.arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = tiling,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	VkImage ia = VK_NULL_HANDLE, ib = VK_NULL_HANDLE;
	VkDeviceMemory ma = VK_NULL_HANDLE, mb = VK_NULL_HANDLE;
	VkMemoryRequirements ra, rb;
	struct vkh_buffer up, rd;
	VkDeviceSize bad = 0;
	VkCommandBuffer cb;
	int type, fd;

	VKH_CHECK_VK(h, vkh_buffer_create(h, a, size, XFER, VKH_MEM_UPLOAD,
	                                  -1, &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, b, size, XFER,
	                                  VKH_MEM_READBACK, -1, &rd));
	for (VkDeviceSize i = 0; i < size; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(tiling + 5, i);
	VKH_CHECK_VK(h, vkCreateImage(a->device, &ici, NULL, &ia));
	VKH_CHECK_VK(h, vkCreateImage(b->device, &ici, NULL, &ib));
	vkGetImageMemoryRequirements(a->device, ia, &ra);
	vkGetImageMemoryRequirements(b->device, ib, &rb);
	VKH_CHECK(h, ra.size == rb.size);
	type = vkh_memtype_device_local(h, ra.memoryTypeBits & rb.memoryTypeBits);
	VKH_CHECK(h, type >= 0);
	VkExportMemoryAllocateInfo export = {
		.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
		.handleTypes = MEM_FD,
	};
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.pNext = &export,
		.allocationSize = ra.size,
		.memoryTypeIndex = (uint32_t)type,
	};
	VKH_CHECK_VK(h, vkAllocateMemory(a->device, &mai, NULL, &ma));
	VKH_CHECK_VK(h, vkBindImageMemory(a->device, ia, ma, 0));
	fd = memory_fd(fa, a->device, ma);
	VKH_CHECK(h, fd >= 0);
	VkImportMemoryFdInfoKHR import = {
		.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
		.handleType = MEM_FD,
		.fd = fd,
	};
	mai.pNext = &import;
	VKH_CHECK_VK(h, vkAllocateMemory(b->device, &mai, NULL, &mb));
	VKH_CHECK_VK(h, vkBindImageMemory(b->device, ib, mb, 0));

	const VkImageLayout DST = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	const VkImageLayout SRC = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	VkImageMemoryBarrier bar = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		.newLayout = DST,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = ib,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	VkBufferImageCopy region = {
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageExtent = { W, H, 1 },
	};
	/* B brings its handle to A's release layout before A writes
	 * anything (a transition from UNDEFINED may discard contents, so
	 * never after). */
	cb = vkh_cmd_begin(b, 0);
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &bar);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(b, 0, cb));
	bar.image = ia;
	cb = vkh_cmd_begin(a, 0);
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &bar);
	vkCmdCopyBufferToImage(cb, up.buffer, ia, DST, 1, &region);
	/* Release to the external "queue family" (the other device), with
	 * the transition to the layout B reads in. */
	bar.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	bar.dstAccessMask = 0;
	bar.oldLayout = DST;
	bar.newLayout = SRC;
	bar.srcQueueFamilyIndex = a->queues[0].family;
	bar.dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, NULL,
	                     0, NULL, 1, &bar);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(a, 0, cb));

	/* B acquires it from outside with the same transition. */
	bar.image = ib;
	bar.srcAccessMask = 0;
	bar.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	bar.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
	bar.dstQueueFamilyIndex = b->queues[0].family;
	cb = vkh_cmd_begin(b, 0);
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &bar);
	vkCmdCopyImageToBuffer(cb, ib, SRC, rd.buffer, 1, &region);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(b, 0, cb));
	vkh_buffer_invalidate(h, b, &rd);
	VKH_CHECK_MSG(h, check_pattern(rd.map, tiling + 5, size, &bad),
	              "tiling %d: B read byte %llu = %u, A wrote %u", tiling,
	              (unsigned long long)bad, ((uint8_t *)rd.map)[bad],
	              vkh_pattern(tiling + 5, bad));
	vkDestroyImage(b->device, ib, NULL);
	vkFreeMemory(b->device, mb, NULL);
	vkDestroyImage(a->device, ia, NULL);
	vkFreeMemory(a->device, ma, NULL);
	vkh_buffer_destroy(a, &up);
	vkh_buffer_destroy(b, &rd);
}

static void
test_image(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct fns fa, fb;
	int failures = h->failures;

	(void)unused;
	if (!two_devices(h, &a, &b, &fa, &fb, false))
		return;
	share_image(h, &a, &b, &fa, VK_IMAGE_TILING_LINEAR);
	if (h->failures == failures)
		share_image(h, &a, &b, &fa, VK_IMAGE_TILING_OPTIMAL);
	vkh_device_destroy(h, &b);
	vkh_device_destroy(h, &a);
}

/* A failed import leaves the fd to the application: it is still open. */
static bool
fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

static void
test_bad_handles(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct fns fa, fb;
	VkBuffer sa = VK_NULL_HANDLE, sb = VK_NULL_HANDLE;
	VkDeviceMemory ma = VK_NULL_HANDLE, mb = VK_NULL_HANDLE;
	VkDeviceSize alloc_size = 0;
	VkSemaphore bin, tl, bin_b, tl_b;
	VkFence fence_b;
	int type = -1, mfd, fd, other;

	(void)unused;
	if (!two_devices(h, &a, &b, &fa, &fb, true))
		return;
	if (!h->is_swgpu) {
		/* Importing a bad fd is invalid usage: undefined on other
		 * drivers. */
		vkh_skip(h, "bad handles are checked on swgpu only");
		goto out;
	}
	VKH_CHECK_VK(h, shared_buffer(h, a.device, 1u << 16, -1, &type, &sa,
	                              &ma, &alloc_size));
	mfd = memory_fd(&fa, a.device, ma);
	VKH_CHECK(h, mfd >= 0);

	/* Size mismatch: twice the exported size. */
	alloc_size *= 2;
	VKH_CHECK_RESULT(h, shared_buffer(h, b.device, 1u << 17, mfd, &type,
	                                  &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(mfd));
	/* Not an fd at all, and an fd that is not exported memory (an
	 * unsealed memfd of the right size, /dev/null). */
	alloc_size = 0;
	VKH_CHECK_RESULT(h, shared_buffer(h, b.device, 1u << 16, 1 << 20,
	                                  &type, &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	other = memfd_create("not-swgpu", MFD_CLOEXEC);
	VKH_CHECK(h, other >= 0 && ftruncate(other, 1 << 16) == 0);
	VKH_CHECK_RESULT(h, shared_buffer(h, b.device, 1u << 16, other,
	                                  &type, &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(other));
	close(other);
	other = open("/dev/null", O_RDWR | O_CLOEXEC);
	VKH_CHECK_RESULT(h, shared_buffer(h, b.device, 1u << 16, other,
	                                  &type, &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);

	/* Sync: a memory fd, /dev/null, a timeline into a binary
	 * semaphore, a binary one into a timeline, a timeline into a
	 * fence. Each leaves the fd open. */
	bin = make_semaphore(a.device, true, false);
	tl = make_semaphore(a.device, true, true);
	bin_b = make_semaphore(b.device, false, false);
	tl_b = make_semaphore(b.device, false, true);
	fence_b = make_fence(b.device, false);
	VKH_CHECK_RESULT(h, import_semaphore(&fb, b.device, bin_b, mfd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK_RESULT(h, import_semaphore(&fb, b.device, bin_b, other, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK_RESULT(h, import_fence(&fb, b.device, fence_b, other, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	fd = semaphore_fd(&fa, a.device, tl);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_RESULT(h, import_semaphore(&fb, b.device, bin_b, fd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK_RESULT(h, import_fence(&fb, b.device, fence_b, fd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(fd));
	close(fd);
	fd = semaphore_fd(&fa, a.device, bin);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_RESULT(h, import_semaphore(&fb, b.device, tl_b, fd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(fd));
	/* And the right one still works afterwards. */
	VKH_CHECK_VK(h, import_semaphore(&fb, b.device, bin_b, fd, 0));
	close(other);
	close(mfd);
	vkDestroySemaphore(a.device, bin, NULL);
	vkDestroySemaphore(a.device, tl, NULL);
	vkDestroySemaphore(b.device, bin_b, NULL);
	vkDestroySemaphore(b.device, tl_b, NULL);
	vkDestroyFence(b.device, fence_b, NULL);
	vkDestroyBuffer(a.device, sa, NULL);
	vkFreeMemory(a.device, ma, NULL);
out:
	vkh_device_destroy(h, &b);
	vkh_device_destroy(h, &a);
}

/* A fault in A costs B only what depended on it: with swgpu's fault knob
 * (SWGPU_FAULT=pagefault:queue=0:job=1: A's first job), B's job waiting
 * on A's shared semaphore fails and B's wait on A's shared fence reports
 * the loss, yet B is not lost: its next job runs and its data is right.
 * Skipped unless the knob is set (ctest runs it alone with it). */
static void
test_fault_isolation(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct fns fa, fb;
	struct vkh_buffer buf_a, rb;
	VkSemaphore sem_a, sem_b;
	VkFence fence_a, fence_ab, fence_b;
	VkCommandBuffer cb;
	VkResult r;
	int fd;

	(void)unused;
	if (!h->is_swgpu || !getenv("SWGPU_FAULT")) {
		vkh_skip(h, "needs swgpu's SWGPU_FAULT knob");
		return;
	}
	/* A's single queue is swgpu queue 0: created first. */
	if (!two_devices(h, &a, &b, &fa, &fb, true))
		return;
	VKH_CHECK_VK(h, vkh_buffer_create(h, &a, 1 << 20, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &buf_a));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &b, 1 << 20, XFER,
	                                  VKH_MEM_READBACK, -1, &rb));
	sem_a = make_semaphore(a.device, true, false);
	sem_b = make_semaphore(b.device, false, false);
	fence_a = make_fence(a.device, true);
	fence_ab = make_fence(b.device, false);
	fence_b = make_fence(b.device, false);
	VKH_CHECK(h, sem_a && sem_b && fence_a && fence_ab && fence_b);
	VKH_CHECK_VK(h, vkResetFences(a.device, 1, &fence_a));
	fd = semaphore_fd(&fa, a.device, sem_a);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, import_semaphore(&fb, b.device, sem_b, fd, 0));
	fd = fence_fd(&fa, a.device, fence_a);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, import_fence(&fb, b.device, fence_ab, fd, 0));
	vkh_tolerate_object((uint64_t)(uintptr_t)a.device);
	vkh_tolerate_object((uint64_t)(uintptr_t)a.queues[0].queue);
	vkh_tolerate_object((uint64_t)sem_a);
	vkh_tolerate_object((uint64_t)sem_b);
	vkh_tolerate_object((uint64_t)fence_a);
	vkh_tolerate_object((uint64_t)fence_ab);

	/* A's job faults; it was to signal both shared objects. */
	cb = vkh_cmd_begin(&a, 0);
	vkh_tolerate_object((uint64_t)(uintptr_t)cb);
	vkCmdFillBuffer(cb, buf_a.buffer, 0, VK_WHOLE_SIZE, 1);
	r = submit(&a, cb, VK_NULL_HANDLE, sem_a, fence_a);
	VKH_CHECK(h, r == VK_SUCCESS || r == VK_ERROR_DEVICE_LOST);
	/* B: a job waiting on A's semaphore. */
	cb = vkh_cmd_begin(&b, 0);
	vkCmdFillBuffer(cb, rb.buffer, 0, VK_WHOLE_SIZE, 0x11111111u);
	VKH_CHECK_VK(h, submit(&b, cb, sem_b, VK_NULL_HANDLE, fence_b));
	r = vkWaitForFences(b.device, 1, &fence_ab, VK_TRUE, VKH_TIMEOUT_NS);
	printf("  B's wait on A's shared fence -> %s\n", vkh_result_str(r));
	VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	r = vkWaitForFences(b.device, 1, &fence_b, VK_TRUE, VKH_TIMEOUT_NS);
	printf("  B's job after A's failed semaphore -> %s\n",
	       vkh_result_str(r));
	VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	VKH_CHECK_RESULT(h, vkDeviceWaitIdle(a.device), VK_ERROR_DEVICE_LOST);

	/* B itself is fine. */
	cb = vkh_cmd_begin(&b, 0);
	vkCmdFillBuffer(cb, rb.buffer, 0, VK_WHOLE_SIZE, 0x22222222u);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(&b, 0, cb));
	vkh_buffer_invalidate(h, &b, &rb);
	for (uint32_t i = 0; i < (1u << 20); i += 4099)
		VKH_CHECK(h, ((uint8_t *)rb.map)[i] == 0x22);
	VKH_CHECK_VK(h, vkDeviceWaitIdle(b.device));
	vkDestroyFence(b.device, fence_b, NULL);
	vkDestroyFence(b.device, fence_ab, NULL);
	vkDestroyFence(a.device, fence_a, NULL);
	vkDestroySemaphore(b.device, sem_b, NULL);
	vkDestroySemaphore(a.device, sem_a, NULL);
	vkh_buffer_destroy(&a, &buf_a);
	vkh_buffer_destroy(&b, &rb);
	vkh_device_destroy(h, &b);
	vkh_device_destroy(h, &a);
	vkh_tolerate_clear();
}

/* ------------------------------------------------------------------ */
/* Two processes                                                       */
/* ------------------------------------------------------------------ */

#define XP_SIZE (4u << 20)

struct xp_msg {
	uint64_t alloc_size;
	int32_t mem_type;
	int32_t status;       /* child: 0 ok, else failure */
	int32_t timeline;     /* fds[1] is a shared timeline: sync on it */
};

#define XP_FDS 3

static bool
send_fds(int sock, const struct xp_msg *m, const int *fds, int nfds)
{
	char cbuf[CMSG_SPACE(XP_FDS * sizeof(int))];
	struct iovec iov = { (void *)m, sizeof(*m) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};

	if (nfds) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == (ssize_t)sizeof(*m);
}

static int
recv_fds(int sock, struct xp_msg *m, int *fds, int max)
{
	char cbuf[CMSG_SPACE(XP_FDS * sizeof(int))];
	struct iovec iov = { m, sizeof(*m) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	int n = 0;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(*m))
		return -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
	     c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_RIGHTS)
			for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) /
			                       sizeof(int) && n < max; i++)
				memcpy(&fds[n++], CMSG_DATA(c) + i * sizeof(int),
				       sizeof(int));
	return n;
}

/* Submit cb on d's queue 0 waiting for and/or signalling timeline tl
 * (values 0: none), with fence. */
static VkResult
submit_timeline(struct vkh_device *d, VkCommandBuffer cb, VkSemaphore tl,
                uint64_t wait, uint64_t signal, VkFence fence)
{
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkTimelineSemaphoreSubmitInfo tsi = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = wait ? 1 : 0,
		.pWaitSemaphoreValues = &wait,
		.signalSemaphoreValueCount = signal ? 1 : 0,
		.pSignalSemaphoreValues = &signal,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &tsi,
		.waitSemaphoreCount = wait ? 1 : 0,
		.pWaitSemaphores = &tl,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
		.signalSemaphoreCount = signal ? 1 : 0,
		.pSignalSemaphores = &tl,
	};
	VkResult r = vkEndCommandBuffer(cb);

	if (r != VK_SUCCESS)
		return r;
	return vkQueueSubmit(d->queues[0].queue, 1, &si, fence);
}

/* The child: its own instance and device (its own GPU in in-process
 * mode), the memory fd, a timeline and a binary semaphore fd from the
 * socket. With the timeline its GPU waits for the parent's value 1
 * before reading (the parent writes only after sending the fds) and
 * signals 2 after writing seed 33 into the first half; without, the
 * parent wrote before sending and waits for this process to exit. */
static int
child_main(int sock)
{
	struct vkh h;
	struct vkh_device d = { 0 };
	struct fns f;
	struct xp_msg m;
	struct vkh_buffer rd, up;
	VkBuffer sb = VK_NULL_HANDLE;
	VkDeviceMemory mb = VK_NULL_HANDLE;
	VkSemaphore tl = VK_NULL_HANDLE;
	VkFence fence = VK_NULL_HANDLE;
	VkDeviceSize bad = 0, alloc_size;
	VkCommandBuffer cb;
	VkResult r;
	int fds[XP_FDS], type, status = 1;

	memset(&h, 0, sizeof(h));
	vkh_device_hook = device_hook;
	if (vkh_init(&h, "test_vk_external child", VK_API_VERSION_1_3) !=
	    VK_SUCCESS || vkh_device_create(&h, 0, 1, NULL, &d) !=
	    VK_SUCCESS || !mem_ok)
		goto report;
	load_fns(d.device, &f);
	if (recv_fds(sock, &m, fds, XP_FDS) != XP_FDS)
		goto report;
	alloc_size = m.alloc_size;
	type = m.mem_type;
	if (shared_buffer(&h, d.device, XP_SIZE, fds[0], &type, &sb, &mb,
	                  &alloc_size) != VK_SUCCESS) {
		fprintf(stderr, "child: memory import failed\n");
		goto report;
	}
	if (m.timeline) {
		tl = make_semaphore(d.device, false, true);
		r = import_semaphore(&f, d.device, tl, fds[1], 0);
		if (r != VK_SUCCESS) {
			fprintf(stderr, "child: timeline import: %s\n",
			        vkh_result_str(r));
			goto report;
		}
	} else {
		close(fds[1]);
	}
	/* A binary semaphore is another process's scheduler state: swgpu
	 * in in-process mode refuses it (the daemon will share it); the
	 * fd stays ours. */
	if (h.is_swgpu && sem_ok) {
		VkSemaphore s = make_semaphore(d.device, false, false);

		r = import_semaphore(&f, d.device, s, fds[2], 0);
		vkDestroySemaphore(d.device, s, NULL);
		if (r != VK_ERROR_INVALID_EXTERNAL_HANDLE) {
			fprintf(stderr, "child: binary semaphore import gave "
			        "%s\n", vkh_result_str(r));
			goto report;
		}
	}
	close(fds[2]);
	fence = make_fence(d.device, false);
	if (!fence ||
	    vkh_buffer_create(&h, &d, XP_SIZE, XFER, VKH_MEM_READBACK, -1,
	                      &rd) != VK_SUCCESS ||
	    vkh_buffer_create(&h, &d, XP_SIZE / 2, XFER, VKH_MEM_UPLOAD, -1,
	                      &up) != VK_SUCCESS)
		goto report;
	cb = vkh_cmd_begin(&d, 0);
	copy(cb, sb, rd.buffer, XP_SIZE);
	vkh_cmd_host_barrier(cb);
	r = m.timeline ? submit_timeline(&d, cb, tl, 1, 0, fence)
	               : submit(&d, cb, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                        fence);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(d.device, 1, &fence, VK_TRUE,
		                    VKH_TIMEOUT_NS);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "child: read: %s\n", vkh_result_str(r));
		goto report;
	}
	vkh_buffer_invalidate(&h, &d, &rd);
	if (!check_pattern(rd.map, 44, XP_SIZE, &bad)) {
		fprintf(stderr, "child: byte %llu = %u, parent wrote %u\n",
		        (unsigned long long)bad, ((uint8_t *)rd.map)[bad],
		        vkh_pattern(44, bad));
		goto report;
	}
	for (VkDeviceSize i = 0; i < XP_SIZE / 2; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(33, i);
	cb = vkh_cmd_begin(&d, 0);
	copy(cb, up.buffer, sb, XP_SIZE / 2);
	if (vkResetFences(d.device, 1, &fence) != VK_SUCCESS)
		goto report;
	r = m.timeline ? submit_timeline(&d, cb, tl, 0, 2, fence)
	               : submit(&d, cb, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                        fence);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(d.device, 1, &fence, VK_TRUE,
		                    VKH_TIMEOUT_NS);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "child: write: %s\n", vkh_result_str(r));
		goto report;
	}
	vkh_buffer_destroy(&d, &rd);
	vkh_buffer_destroy(&d, &up);
	vkDestroyBuffer(d.device, sb, NULL);
	vkFreeMemory(d.device, mb, NULL);
	status = 0;
report:
	if (d.device) {
		vkDeviceWaitIdle(d.device);
		vkDestroyFence(d.device, fence, NULL);
		vkDestroySemaphore(d.device, tl, NULL);
		vkh_device_destroy(&h, &d);
	}
	if (h.instance && vkh_finish(&h) != 0)
		status = 1;
	m.status = status;
	send_fds(sock, &m, NULL, 0);
	return status;
}

/* Memory between two processes, each with its own GPU; with timeline
 * semaphore fds (swgpu), their GPUs also order each other's work. */
static void
test_two_process(struct vkh *h, struct vkh_device *d)
{
	struct fns f;
	struct vkh_buffer up, rd;
	VkBuffer sa = VK_NULL_HANDLE;
	VkDeviceMemory ma = VK_NULL_HANDLE;
	VkDeviceSize alloc_size = 0, bad = 0;
	VkSemaphore sem, tl = VK_NULL_HANDLE;
	VkCommandBuffer cb;
	struct xp_msg m = { 0 };
	int sv[2], fds[XP_FDS], type = -1, status = 0;
	bool timeline;
	char arg[32];
	pid_t pid;

	if (!mem_ok) {
		vkh_skip(h, "VK_KHR_external_memory_fd not offered");
		return;
	}
	load_fns(d->device, &f);
	timeline = sem_ok && h->timeline_semaphore;
	printf("  ordering the processes with %s\n",
	       timeline ? "a shared timeline semaphore" : "messages");
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, XP_SIZE, XFER, VKH_MEM_UPLOAD,
	                                  -1, &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, XP_SIZE, XFER,
	                                  VKH_MEM_READBACK, -1, &rd));
	for (VkDeviceSize i = 0; i < XP_SIZE; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(44, i);
	VKH_CHECK_VK(h, shared_buffer(h, d->device, XP_SIZE, -1, &type, &sa,
	                              &ma, &alloc_size));
	/* Without semaphore fds copies of the memory fd stand in (the
	 * child then only closes them). */
	sem = make_semaphore(d->device, sem_ok, false);
	fds[0] = memory_fd(&f, d->device, ma);
	if (timeline) {
		tl = make_semaphore(d->device, true, true);
		fds[1] = semaphore_fd(&f, d->device, tl);
	} else {
		fds[1] = memory_fd(&f, d->device, ma);
	}
	fds[2] = sem_ok ? semaphore_fd(&f, d->device, sem)
	                : memory_fd(&f, d->device, ma);
	VKH_CHECK(h, fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0);
	if (!timeline) {
		cb = vkh_cmd_begin(d, 0);
		copy(cb, up.buffer, sa, XP_SIZE);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	}

	/* The child starts afresh (exec): a forked copy of a process with
	 * a live Vulkan instance and its threads may not use it. */
	VKH_CHECK(h, socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	snprintf(arg, sizeof(arg), "%d", sv[1]);
	pid = fork();
	VKH_CHECK(h, pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		execl("/proc/self/exe", "test_vk_external", "--child", arg,
		      (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	m.alloc_size = alloc_size;
	m.mem_type = type;
	m.timeline = timeline;
	VKH_CHECK(h, send_fds(sv[0], &m, fds, XP_FDS));
	for (int i = 0; i < XP_FDS; i++)
		close(fds[i]);
	if (timeline) {
		/* Written only now: the child's GPU waits for value 1. */
		uint64_t two = 2;
		VkSemaphoreWaitInfo wi = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
			.semaphoreCount = 1,
			.pSemaphores = &tl,
			.pValues = &two,
		};
		VkResult r;

		cb = vkh_cmd_begin(d, 0);
		copy(cb, up.buffer, sa, XP_SIZE);
		VKH_CHECK_VK(h, submit_timeline(d, cb, tl, 0, 1,
		                                VK_NULL_HANDLE));
		r = vkWaitSemaphores(d->device, &wi, VKH_TIMEOUT_NS);
		printf("  the child's GPU signalled 2: %s\n",
		       vkh_result_str(r));
		VKH_CHECK_VK(h, r);
	}
	/* Bounded by the test's ctest timeout: the child always reports or
	 * exits, which closes the socket. */
	if (recv_fds(sv[0], &m, fds, 0) < 0)
		m.status = -1;
	close(sv[0]);
	VKH_CHECK(h, waitpid(pid, &status, 0) == pid);
	VKH_CHECK_MSG(h, m.status == 0 && WIFEXITED(status) &&
	              WEXITSTATUS(status) == 0,
	              "child failed (status %d, exit 0x%x)", m.status,
	              status);

	/* The child's answer, through this process's own device. */
	cb = vkh_cmd_begin(d, 0);
	copy(cb, sa, rd.buffer, XP_SIZE);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &rd);
	VKH_CHECK_MSG(h, check_pattern(rd.map, 33, XP_SIZE / 2, &bad),
	              "parent: byte %llu = %u, child wrote %u",
	              (unsigned long long)bad, ((uint8_t *)rd.map)[bad],
	              vkh_pattern(33, bad));
	for (VkDeviceSize i = XP_SIZE / 2; i < XP_SIZE; i += 997)
		VKH_CHECK(h, ((uint8_t *)rd.map)[i] == vkh_pattern(44, i));
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	vkDestroySemaphore(d->device, sem, NULL);
	vkDestroySemaphore(d->device, tl, NULL);
	vkDestroyBuffer(d->device, sa, NULL);
	vkFreeMemory(d->device, ma, NULL);
	vkh_buffer_destroy(d, &up);
	vkh_buffer_destroy(d, &rd);
}

static const struct vkh_test tests[] = {
	{ "properties", test_properties, 1, 0 },
	{ "buffer_semaphore", test_buffer_semaphore, 0, 0 },
	{ "timeline", test_timeline, 0, 0 },
	{ "fence", test_fence, 0, 0 },
	{ "image", test_image, 0, 0 },
	{ "bad_handles", test_bad_handles, 0, 0 },
	{ "two_process", test_two_process, 1, 0 },
	{ "fault_isolation", test_fault_isolation, 0, 0 },
};

int
main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--child"))
		return child_main(atoi(argv[2]));
	vkh_device_hook = device_hook;
	return vkh_run_tests(argc, argv, "test_vk_external", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
