/* SPDX-License-Identifier: MIT */
/*
 * Sync objects shared by reference between two VkDevices of one process
 * (part of test_vk_external): a timeline signalled on one side is seen on
 * the other, and a fence fd carries its payload (temporary imports last
 * until the next reset).
 */
#include "external_util.h"

/* A timeline shared by reference: a GPU signal on A and a host signal on
 * B are both seen through the other handle. */
void
test_timeline(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct ext_fns fa, fb;
	VkSemaphore ta, tb;
	uint64_t v = 0;
	int fd;

	(void)unused;
	if (!ext_two_devices(h, &a, &b, &fa, &fb, true))
		return;
	if (!h->timeline_semaphore) {
		vkh_skip(h, "no timeline semaphores");
		goto out;
	}
	ta = ext_make_semaphore(a.device, true, true);
	tb = ext_make_semaphore(b.device, false, true);
	VKH_CHECK(h, ta && tb);
	fd = ext_semaphore_fd(&fa, a.device, ta);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, ext_import_semaphore(&fb, b.device, tb, fd, 0));

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
void
test_fence(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device a, b;
	struct ext_fns fa, fb;
	VkFence fa0, fb0, fb1;
	int fd;

	(void)unused;
	if (!ext_two_devices(h, &a, &b, &fa, &fb, true))
		return;
	fa0 = ext_make_fence(a.device, true);
	fb0 = ext_make_fence(b.device, false);
	fb1 = ext_make_fence(b.device, false);
	VKH_CHECK(h, fa0 && fb0 && fb1);
	VKH_CHECK_VK(h, vkResetFences(a.device, 1, &fa0));
	fd = ext_fence_fd(&fa, a.device, fa0);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, ext_import_fence(&fb, b.device, fb0, fd, 0));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(b.device, fb0), VK_NOT_READY);

	VKH_CHECK_VK(h, ext_submit(&a, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                           VK_NULL_HANDLE, fa0));
	VKH_CHECK_VK(h, vkWaitForFences(b.device, 1, &fb0, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(a.device, fa0), VK_SUCCESS);
	VKH_CHECK_VK(h, vkResetFences(b.device, 1, &fb0));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(a.device, fa0), VK_NOT_READY);

	/* Temporary: fb1 follows A's payload until its reset. */
	VKH_CHECK_VK(h, ext_submit(&a, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                           VK_NULL_HANDLE, fa0));
	VKH_CHECK_VK(h, vkWaitForFences(a.device, 1, &fa0, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	fd = ext_fence_fd(&fa, a.device, fa0);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK_VK(h, ext_import_fence(&fb, b.device, fb1, fd,
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
