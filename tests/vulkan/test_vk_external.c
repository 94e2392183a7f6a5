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
 *
 * Files: this one (memory, images, bad handles, fault isolation, the case
 * table), external_sync.c (timelines, fences), external_process.c (two
 * processes), external_util.c/.h (the shared helpers).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include "external_util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
	if (!ext_mem_ok) {
		vkh_skip(h, "VK_KHR_external_memory_fd not offered");
		return;
	}
	vkGetPhysicalDeviceExternalBufferProperties(h->phys, &bi, &bp);
	VKH_CHECK(h, (bp.externalMemoryProperties.externalMemoryFeatures &
	              mem_both) == mem_both);
	VKH_CHECK(h, bp.externalMemoryProperties.compatibleHandleTypes &
	             MEM_FD);
	vkGetPhysicalDeviceExternalSemaphoreProperties(h->phys, &si, &sp);
	VKH_CHECK(h, !ext_sem_ok || sp.externalSemaphoreFeatures ==
	             (VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
	              VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT));
	VKH_CHECK(h, !ext_sem_ok || (sp.compatibleHandleTypes & SEM_FD));
	vkGetPhysicalDeviceExternalFenceProperties(h->phys, &fi, &fp);
	VKH_CHECK(h, !ext_fence_ok || fp.externalFenceFeatures ==
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
	struct ext_fns fa, fb;
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
	if (!ext_two_devices(h, &a, &b, &fa, &fb, false))
		return;
	printf("  ordering the devices with %s\n",
	       ext_sem_ok ? "shared semaphores" : "host fence waits");
	VKH_CHECK_VK(h, vkh_buffer_create(h, &a, BIG_SIZE, XFER,
	                                  VKH_MEM_UPLOAD, -1, &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &b, BIG_SIZE, XFER,
	                                  VKH_MEM_READBACK, -1, &rb_b));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &a, BIG_SIZE, XFER,
	                                  VKH_MEM_READBACK, -1, &rb_a));
	for (VkDeviceSize i = 0; i < BIG_SIZE; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(22, i);

	VKH_CHECK_VK(h, ext_shared_buffer(h, a.device, BIG_SIZE, -1, &type, &sa,
	                                  &ma, &alloc_size));
	fd = ext_memory_fd(&fa, a.device, ma);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, ext_shared_buffer(h, b.device, BIG_SIZE, fd, &type, &sb,
	                                  &mb, &alloc_size));
	done_a = ext_make_fence(a.device, false);
	done_b = ext_make_fence(b.device, false);
	if (ext_sem_ok) {
		sem_a = ext_make_semaphore(a.device, true, false);
		sem_b = ext_make_semaphore(b.device, false, false);
		VKH_CHECK(h, sem_a && sem_b);
		fd = ext_semaphore_fd(&fa, a.device, sem_a);
		VKH_CHECK(h, fd >= 0);
		VKH_CHECK_VK(h, ext_import_semaphore(&fb, b.device, sem_b, fd,
		                                     0));
		sem_b2 = ext_make_semaphore(b.device, true, false);
		sem_a2 = ext_make_semaphore(a.device, false, false);
		fd = ext_semaphore_fd(&fb, b.device, sem_b2);
		VKH_CHECK(h, fd >= 0);
		VKH_CHECK_VK(h, ext_import_semaphore(&fa, a.device, sem_a2, fd,
		                                     0));
	}

	/* A: upload -> shared, signal. B: wait, shared -> readback. */
	cb = vkh_cmd_begin(&a, 0);
	ext_copy(cb, up.buffer, sa, BIG_SIZE);
	VKH_CHECK_VK(h, ext_submit(&a, cb, VK_NULL_HANDLE, sem_a, done_a));
	if (!ext_sem_ok)
		VKH_CHECK_VK(h, vkWaitForFences(a.device, 1, &done_a, VK_TRUE,
		                                VKH_TIMEOUT_NS));
	cb = vkh_cmd_begin(&b, 0);
	ext_copy(cb, sb, rb_b.buffer, BIG_SIZE);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, ext_submit(&b, cb, sem_b, VK_NULL_HANDLE, done_b));
	VKH_CHECK_VK(h, vkWaitForFences(b.device, 1, &done_b, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	vkh_buffer_invalidate(h, &b, &rb_b);
	VKH_CHECK_MSG(h, ext_check_pattern(rb_b.map, 22, BIG_SIZE, &bad),
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
	VKH_CHECK_VK(h, ext_submit(&b, cb, VK_NULL_HANDLE, sem_b2, done_b));
	if (!ext_sem_ok)
		VKH_CHECK_VK(h, vkWaitForFences(b.device, 1, &done_b, VK_TRUE,
		                                VKH_TIMEOUT_NS));
	cb = vkh_cmd_begin(&a, 0);
	ext_copy(cb, sa, rb_a.buffer, BIG_SIZE);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, ext_submit(&a, cb, sem_a2, VK_NULL_HANDLE, done_a));
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


/* An image of exported memory, the same create info on both sides: B
 * reads what A wrote, for linear and optimal tiling. */
static void
share_image(struct vkh *h, struct vkh_device *a, struct vkh_device *b,
            const struct ext_fns *fa, VkImageTiling tiling)
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
	fd = ext_memory_fd(fa, a->device, ma);
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
	VKH_CHECK_MSG(h, ext_check_pattern(rd.map, tiling + 5, size, &bad),
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
	struct ext_fns fa, fb;
	int failures = h->failures;

	(void)unused;
	if (!ext_two_devices(h, &a, &b, &fa, &fb, false))
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
	struct ext_fns fa, fb;
	VkBuffer sa = VK_NULL_HANDLE, sb = VK_NULL_HANDLE;
	VkDeviceMemory ma = VK_NULL_HANDLE, mb = VK_NULL_HANDLE;
	VkDeviceSize alloc_size = 0;
	VkSemaphore bin, tl, bin_b, tl_b;
	VkFence fence_b;
	int type = -1, mfd, fd, other;

	(void)unused;
	if (!ext_two_devices(h, &a, &b, &fa, &fb, true))
		return;
	if (!h->is_swgpu) {
		/* Importing a bad fd is invalid usage: undefined on other
		 * drivers. */
		vkh_skip(h, "bad handles are checked on swgpu only");
		goto out;
	}
	VKH_CHECK_VK(h, ext_shared_buffer(h, a.device, 1u << 16, -1, &type, &sa,
	                                  &ma, &alloc_size));
	mfd = ext_memory_fd(&fa, a.device, ma);
	VKH_CHECK(h, mfd >= 0);

	/* Size mismatch: twice the exported size. */
	alloc_size *= 2;
	VKH_CHECK_RESULT(h, ext_shared_buffer(h, b.device, 1u << 17, mfd, &type,
	                                      &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(mfd));
	/* Not an fd at all, and an fd that is not exported memory (an
	 * unsealed memfd of the right size, /dev/null). */
	alloc_size = 0;
	VKH_CHECK_RESULT(h, ext_shared_buffer(h, b.device, 1u << 16, 1 << 20,
	                                      &type, &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	other = memfd_create("not-swgpu", MFD_CLOEXEC);
	VKH_CHECK(h, other >= 0 && ftruncate(other, 1 << 16) == 0);
	VKH_CHECK_RESULT(h, ext_shared_buffer(h, b.device, 1u << 16, other,
	                                      &type, &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(other));
	close(other);
	other = open("/dev/null", O_RDWR | O_CLOEXEC);
	VKH_CHECK_RESULT(h, ext_shared_buffer(h, b.device, 1u << 16, other,
	                                      &type, &sb, &mb, &alloc_size),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);

	/* Sync: a memory fd, /dev/null, a timeline into a binary
	 * semaphore, a binary one into a timeline, a timeline into a
	 * fence. Each leaves the fd open. */
	bin = ext_make_semaphore(a.device, true, false);
	tl = ext_make_semaphore(a.device, true, true);
	bin_b = ext_make_semaphore(b.device, false, false);
	tl_b = ext_make_semaphore(b.device, false, true);
	fence_b = ext_make_fence(b.device, false);
	VKH_CHECK_RESULT(h, ext_import_semaphore(&fb, b.device, bin_b, mfd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK_RESULT(h, ext_import_semaphore(&fb, b.device, bin_b, other,
	                                         0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK_RESULT(h, ext_import_fence(&fb, b.device, fence_b, other, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	fd = ext_semaphore_fd(&fa, a.device, tl);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_RESULT(h, ext_import_semaphore(&fb, b.device, bin_b, fd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK_RESULT(h, ext_import_fence(&fb, b.device, fence_b, fd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(fd));
	close(fd);
	fd = ext_semaphore_fd(&fa, a.device, bin);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_RESULT(h, ext_import_semaphore(&fb, b.device, tl_b, fd, 0),
	                 VK_ERROR_INVALID_EXTERNAL_HANDLE);
	VKH_CHECK(h, fd_open(fd));
	/* And the right one still works afterwards. */
	VKH_CHECK_VK(h, ext_import_semaphore(&fb, b.device, bin_b, fd, 0));
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
	struct ext_fns fa, fb;
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
	if (!ext_two_devices(h, &a, &b, &fa, &fb, true))
		return;
	VKH_CHECK_VK(h, vkh_buffer_create(h, &a, 1 << 20, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &buf_a));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &b, 1 << 20, XFER,
	                                  VKH_MEM_READBACK, -1, &rb));
	sem_a = ext_make_semaphore(a.device, true, false);
	sem_b = ext_make_semaphore(b.device, false, false);
	fence_a = ext_make_fence(a.device, true);
	fence_ab = ext_make_fence(b.device, false);
	fence_b = ext_make_fence(b.device, false);
	VKH_CHECK(h, sem_a && sem_b && fence_a && fence_ab && fence_b);
	VKH_CHECK_VK(h, vkResetFences(a.device, 1, &fence_a));
	fd = ext_semaphore_fd(&fa, a.device, sem_a);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, ext_import_semaphore(&fb, b.device, sem_b, fd, 0));
	fd = ext_fence_fd(&fa, a.device, fence_a);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, ext_import_fence(&fb, b.device, fence_ab, fd, 0));
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
	r = ext_submit(&a, cb, VK_NULL_HANDLE, sem_a, fence_a);
	VKH_CHECK(h, r == VK_SUCCESS || r == VK_ERROR_DEVICE_LOST);
	/* B: a job waiting on A's semaphore. */
	cb = vkh_cmd_begin(&b, 0);
	vkCmdFillBuffer(cb, rb.buffer, 0, VK_WHOLE_SIZE, 0x11111111u);
	VKH_CHECK_VK(h, ext_submit(&b, cb, sem_b, VK_NULL_HANDLE, fence_b));
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
		return ext_child_main(atoi(argv[2]));
	vkh_device_hook = ext_device_hook;
	return vkh_run_tests(argc, argv, "test_vk_external", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
