/* SPDX-License-Identifier: MIT */
/*
 * test_vk_wsi, synchronization: a present behind a chain of binary
 * semaphores that waits on a timeline, acquire timeouts and fences,
 * retired swapchains and a second swapchain on one surface, swapchain
 * maintenance (present fences, per-present modes, releasing images), a
 * present of an image that was not acquired, and a lost device.
 */
#include "wsi_test.h"

#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#define W 128
#define H 96

static VkSemaphore
make_semaphore(struct vkh_device *d, bool timeline)
{
	VkSemaphoreTypeCreateInfo type = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
	};
	VkSemaphoreCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = timeline ? &type : NULL,
	};
	VkSemaphore s = VK_NULL_HANDLE;

	vkCreateSemaphore(d->device, &ci, NULL, &s);
	return s;
}

/* Submit an empty batch: wait for `wait` (timeline value wait_value, or
 * binary when wait_value is 0), signal the binary `signal`. */
static VkResult
relay(struct vkh_device *d, uint32_t qi, VkSemaphore wait,
      uint64_t wait_value, VkSemaphore signal)
{
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	uint64_t zero = 0;
	VkTimelineSemaphoreSubmitInfo tl = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = 1,
		.pWaitSemaphoreValues = &wait_value,
		.signalSemaphoreValueCount = 1,
		.pSignalSemaphoreValues = &zero,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = wait_value ? &tl : NULL,
		.waitSemaphoreCount = 1,
		.pWaitSemaphores = &wait,
		.pWaitDstStageMask = &stage,
		.signalSemaphoreCount = 1,
		.pSignalSemaphores = &signal,
	};
	return vkQueueSubmit(d->queues[qi].queue, 1, &si, VK_NULL_HANDLE);
}

struct signaller {
	VkDevice device;
	VkSemaphore timeline;
	pthread_t thread;
};

/* Signal the timeline to 1 a moment after the present was issued. */
static void *
signal_later(void *arg)
{
	struct signaller *sg = arg;
	VkSemaphoreSignalInfo sig = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
		.semaphore = sg->timeline,
		.value = 1,
	};

	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	vkSignalSemaphore(sg->device, &sig);
	return NULL;
}

/*
 * The frame's copy waits (GPU side) for timeline T >= 1, which nobody has
 * signalled yet; it signals binary B1, a relay on the other queue waits
 * B1 and signals B2, and the present waits B2. Nothing may show before the
 * host signals T; then the frame shows.
 */
static void
test_timeline_chain(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;
	VkSemaphore t, b0, b1, b2;
	uint32_t index, q1 = d->distinct_queues > 1 ? 1 : 0;
	struct signaller sg;
	bool threaded;

	if (!h->timeline_semaphore) {
		vkh_skip(h, "no timeline semaphores");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	t = make_semaphore(d, true);
	sg.device = d->device;
	sg.timeline = t;
	b0 = make_semaphore(d, false);
	b1 = make_semaphore(d, false);
	b2 = make_semaphore(d, false);
	VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, sc.swapchain,
	                                      VKH_TIMEOUT_NS, b0,
	                                      VK_NULL_HANDLE, &index));
	/* A driver without present waits (so: not swgpu) may block in
	 * vkQueueSubmit or vkQueuePresentKHR until a binary semaphore's
	 * signal can run (lavapipe 22.3 does): the timeline is then
	 * signalled by another thread, a moment later. When does not
	 * matter for what is checked. */
	threaded = !wt_caps.present_id;
	if (threaded)
		VKH_CHECK(h, !pthread_create(&sg.thread, NULL, signal_later,
		                             &sg));
	/* B1: signalled once the timeline reaches 1. */
	VKH_CHECK_VK(h, relay(d, q1, t, 1, b1));
	wt_frame_colors(11, &f);
	VKH_CHECK_VK(h, wt_render(h, d, 0, &sc, index, &f, b0, b2, NULL));
	{
		VkSemaphore b3 = make_semaphore(d, false);

		/* B1 (timeline-gated) and the frame's B2 meet in one relay
		 * on the other queue, whose signal the present waits. */
		VkPipelineStageFlags stages[2] = {
			VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
			VK_PIPELINE_STAGE_ALL_COMMANDS_BIT };
		VkSemaphore both[2] = { b1, b2 };
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.waitSemaphoreCount = 2,
			.pWaitSemaphores = both,
			.pWaitDstStageMask = stages,
			.signalSemaphoreCount = 1,
			.pSignalSemaphores = &b3,
		};
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[q1].queue, 1, &si,
		                              VK_NULL_HANDLE));
		if (threaded) {
			VKH_CHECK_VK(h, wt_present(d, &sc, 0, index, b3));
			pthread_join(sg.thread, NULL);
			VKH_CHECK(h, wt_wait_shown(h, d, &w, &sc, &f));
			wt_wait_idle(d);
			vkDestroySemaphore(d->device, b3, NULL);
			goto done;
		}
		VKH_CHECK_VK(h, wt_present(d, &sc, 0, index, b3));
		{
			PFN_vkWaitForPresentKHR wait = (PFN_vkWaitForPresentKHR)
				vkGetDeviceProcAddr(d->device,
				                    "vkWaitForPresentKHR");

			/* Gated by the timeline: not shown yet. */
			VKH_CHECK_RESULT(h, wait(d->device, sc.swapchain,
			                         sc.present_id,
			                         20 * 1000 * 1000),
			                 VK_TIMEOUT);
		}
		VkSemaphoreSignalInfo sig = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
			.semaphore = t,
			.value = 1,
		};
		VKH_CHECK_VK(h, vkSignalSemaphore(d->device, &sig));
		VKH_CHECK(h, wt_wait_shown(h, d, &w, &sc, &f));
		wt_wait_idle(d);
		vkDestroySemaphore(d->device, b3, NULL);
	}
done:
	wt_swapchain_destroy(d, &sc);
	vkDestroySemaphore(d->device, t, NULL);
	vkDestroySemaphore(d->device, b0, NULL);
	vkDestroySemaphore(d->device, b1, NULL);
	vkDestroySemaphore(d->device, b2, NULL);
	wt_window_close(h, &w);
}

/* Acquire every image (with a fence), then: timeout 0 is NOT_READY, a
 * short timeout TIMEOUT; presenting one lets the next acquire through. */
static void
test_acquire_timeouts(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;
	VkSemaphore sems[16];
	VkFence fence;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	uint32_t index, got = 0;

	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
	for (uint32_t i = 0; i < sc.image_count; i++) {
		VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, sc.swapchain,
		                                      VKH_TIMEOUT_NS,
		                                      VK_NULL_HANDLE, fence,
		                                      &index));
		/* The fence says the image may be written now. */
		VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
		                                VKH_TIMEOUT_NS));
		VKH_CHECK_VK(h, vkResetFences(d->device, 1, &fence));
		got |= 1u << index;
	}
	VKH_CHECK(h, got == (1u << sc.image_count) - 1);
	VKH_CHECK_RESULT(h, vkAcquireNextImageKHR(d->device, sc.swapchain, 0,
	                                          VK_NULL_HANDLE, fence,
	                                          &index),
	                 VK_NOT_READY);
	{
		/* lavapipe 22.3 answers VK_NOT_READY here too; the spec
		 * (and swgpu) says VK_TIMEOUT once a timeout > 0 expired. */
		VkResult r = vkAcquireNextImageKHR(d->device, sc.swapchain,
		                                   5 * 1000 * 1000,
		                                   VK_NULL_HANDLE, fence,
		                                   &index);

		VKH_CHECK_MSG(h, r == VK_TIMEOUT ||
		              (!h->is_swgpu && r == VK_NOT_READY),
		              "acquire with a 5 ms timeout: %s",
		              vkh_result_str(r));
	}
	/* Present every image, unchanged but for image 0's frame. */
	wt_frame_colors(5, &f);
	for (uint32_t i = 0; i < sc.image_count; i++) {
		sems[i] = make_semaphore(d, false);
		VKH_CHECK_VK(h, wt_render(h, d, 0, &sc, i, &f, VK_NULL_HANDLE,
		                          sems[i], NULL));
		VKH_CHECK_VK(h, wt_present(d, &sc, 0, i, sems[i]));
	}
	VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, sc.swapchain,
	                                      VKH_TIMEOUT_NS, VK_NULL_HANDLE,
	                                      fence, &index));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	wt_wait_idle(d);
	if (wt_caps.swapchain_maint1) {
		VkReleaseSwapchainImagesInfoEXT rel = {
			.sType = VK_STRUCTURE_TYPE_RELEASE_SWAPCHAIN_IMAGES_INFO_EXT,
			.swapchain = sc.swapchain,
			.imageIndexCount = 1,
			.pImageIndices = &index,
		};
		PFN_vkReleaseSwapchainImagesEXT release =
			(PFN_vkReleaseSwapchainImagesEXT)vkGetDeviceProcAddr(
				d->device, "vkReleaseSwapchainImagesEXT");

		VKH_CHECK_VK(h, release(d->device, &rel));
	}
	wt_swapchain_destroy(d, &sc);
	for (uint32_t i = 0; i < sc.image_count; i++)
		vkDestroySemaphore(d->device, sems[i], NULL);
	vkDestroyFence(d->device, fence, NULL);
	wt_window_close(h, &w);
}

/* A new swapchain with oldSwapchain retires the old one: its acquires are
 * out of date, its acquired images may still be presented. */
static void
test_retired_swapchain(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain a, b;
	struct wt_frame f;
	VkSemaphore s = VK_NULL_HANDLE, acquired;
	uint32_t index;

	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &a));
	acquired = make_semaphore(d, false);
	VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, a.swapchain,
	                                      VKH_TIMEOUT_NS, acquired,
	                                      VK_NULL_HANDLE, &index));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, a.swapchain, NULL, &b));
	wt_frame_colors(2, &f);
	s = make_semaphore(d, false);
	VKH_CHECK_VK(h, wt_render(h, d, 0, &a, index, &f, acquired, s, NULL));
	if (!h->is_swgpu && wt_platform == WT_WAYLAND) {
		/* lavapipe 22.3's Wayland WSI crashes presenting to a
		 * retired swapchain: its image stays acquired instead. */
		wt_wait_idle(d);
	} else {
		VkResult r = wt_present(d, &a, 0, index, s);

		VKH_CHECK_MSG(h, r == VK_SUCCESS ||
		              r == VK_ERROR_OUT_OF_DATE_KHR,
		              "present to a retired swapchain: %s",
		              vkh_result_str(r));
	}
	wt_wait_idle(d);
	if (h->is_swgpu) {
		/* Invalid usage, so swgpu's own answer: out of date. */
		VkFence fence;
		VkFenceCreateInfo fci = {
			.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };

		VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
		vkh_expect_message("VUID-vkAcquireNextImageKHR-swapchain-01285");
		VKH_CHECK_RESULT(h, vkAcquireNextImageKHR(d->device,
		                                          a.swapchain, 0,
		                                          VK_NULL_HANDLE, fence,
		                                          &index),
		                 VK_ERROR_OUT_OF_DATE_KHR);
		vkh_expect_clear();
		vkDestroyFence(d->device, fence, NULL);
	}
	wt_frame_colors(3, &f);
	VKH_CHECK_VK(h, wt_frame_present(h, d, &b, 0, 0, &f, VKH_TIMEOUT_NS));
	VKH_CHECK(h, wt_wait_shown(h, d, &w, &b, &f));
	wt_swapchain_destroy(d, &a);
	wt_swapchain_destroy(d, &b);
	vkDestroySemaphore(d->device, s, NULL);
	vkDestroySemaphore(d->device, acquired, NULL);
	wt_window_close(h, &w);
}

/* VK_EXT_swapchain_maintenance1: a fence per present, the mode switched
 * per present among those the swapchain was created for. */
static void
test_swapchain_maintenance(struct vkh *h, struct vkh_device *d)
{
	static const VkPresentModeKHR modes[] = {
		VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR,
		VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR,
	};
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;
	VkFence fences[8];
	VkSemaphore acquired[8];
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };

	if (!wt_caps.swapchain_maint1) {
		vkh_skip(h, "no VK_EXT_swapchain_maintenance1");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VkSwapchainPresentModesCreateInfoEXT pmci = {
		.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_EXT,
		.presentModeCount = 4,
		.pPresentModes = modes,
	};
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, &pmci, &sc));
	for (uint32_t n = 0; n < 8; n++) {
		VkSemaphore acq = acquired[n] = make_semaphore(d, false);
		VkPresentModeKHR mode = modes[n % 4];
		VkSwapchainPresentModeInfoEXT pm = {
			.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODE_INFO_EXT,
			.swapchainCount = 1,
			.pPresentModes = &mode,
		};
		VkSwapchainPresentFenceInfoEXT pf = {
			.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT,
			.pNext = &pm,
			.swapchainCount = 1,
			.pFences = &fences[n],
		};
		uint32_t index;

		VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL,
		                              &fences[n]));
		VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, sc.swapchain,
		                                      VKH_TIMEOUT_NS, acq,
		                                      VK_NULL_HANDLE, &index));
		wt_frame_colors(n, &f);
		VKH_CHECK_VK(h, wt_render(h, d, 0, &sc, index, &f, acq,
		                          sc.rendered[index], NULL));
		VkPresentInfoKHR pi = {
			.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
			.pNext = &pf,
			.waitSemaphoreCount = 1,
			.pWaitSemaphores = &sc.rendered[index],
			.swapchainCount = 1,
			.pSwapchains = &sc.swapchain,
			.pImageIndices = &index,
		};
		VKH_CHECK_VK(h, vkQueuePresentKHR(d->queues[0].queue, &pi));
		/* The fence: the present's wait semaphore is free again. */
		VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fences[n],
		                                VK_TRUE, VKH_TIMEOUT_NS));
	}
	wt_wait_idle(d);
	for (uint32_t n = 0; n < 8; n++) {
		vkDestroyFence(d->device, fences[n], NULL);
		vkDestroySemaphore(d->device, acquired[n], NULL);
	}
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

/* swgpu only: presenting an image the application does not own is a log
 * line and an error, not a crash; nothing was queued. */
static void
test_present_not_acquired(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	uint32_t index = 0;
	VkPresentInfoKHR pi = {
		.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
		.swapchainCount = 1,
		.pImageIndices = &index,
	};

	if (!h->is_swgpu) {
		vkh_skip(h, "undefined behaviour; checks swgpu's answer");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	pi.pSwapchains = &sc.swapchain;
	vkh_expect_message("VUID-VkPresentInfoKHR-pImageIndices-01296");
	VKH_CHECK_RESULT(h, vkQueuePresentKHR(d->queues[0].queue, &pi),
	                 VK_ERROR_UNKNOWN);
	vkh_expect_clear();
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

/* swgpu only: a swapchain of a format the surface does not offer, or
 * larger than the surface allows, is refused with a log line and
 * VK_ERROR_INITIALIZATION_FAILED (the layer reports the application's
 * mistake first); nothing is left behind, and a good one still works. */
static void
test_bad_swapchain(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;
	VkSurfaceCapabilitiesKHR caps;
	VkSwapchainKHR bad = VK_NULL_HANDLE;

	if (!h->is_swgpu) {
		vkh_skip(h, "invalid usage; checks swgpu's answer");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(
		h->phys, w.surface, &caps));
	VkSwapchainCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
		.surface = w.surface,
		.minImageCount = caps.minImageCount,
		.imageFormat = VK_FORMAT_R8G8B8A8_UNORM,
		.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
		.imageExtent = { W, H },
		.imageArrayLayers = 1,
		.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
		.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
		.presentMode = VK_PRESENT_MODE_FIFO_KHR,
		.clipped = VK_TRUE,
	};
	vkh_expect_message("VUID-VkSwapchainCreateInfoKHR-imageFormat-01273");
	VKH_CHECK_RESULT(h, vkCreateSwapchainKHR(d->device, &ci, NULL, &bad),
	                 VK_ERROR_INITIALIZATION_FAILED);
	VKH_CHECK(h, bad == VK_NULL_HANDLE);
	vkh_expect_clear();
	ci.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
	ci.imageExtent = (VkExtent2D){ caps.maxImageExtent.width + 1,
	                               caps.maxImageExtent.height };
	vkh_expect_message("VUID-VkSwapchainCreateInfoKHR-pNext-07781");
	VKH_CHECK_RESULT(h, vkCreateSwapchainKHR(d->device, &ci, NULL, &bad),
	                 VK_ERROR_INITIALIZATION_FAILED);
	VKH_CHECK(h, bad == VK_NULL_HANDLE);
	vkh_expect_clear();
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	wt_frame_colors(9, &f);
	VKH_CHECK_VK(h, wt_frame_present(h, d, &sc, 0, 0, &f, VKH_TIMEOUT_NS));
	VKH_CHECK(h, wt_wait_shown(h, d, &w, &sc, &f));
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

/* SWGPU_FAULT makes queue 0's first job fault: present and acquire then
 * return VK_ERROR_DEVICE_LOST, bounded, and never hang. Run alone. */
static void
test_device_lost(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;
	VkResult r = VK_SUCCESS;

	if (!h->is_swgpu || !getenv("SWGPU_FAULT")) {
		vkh_skip(h, "needs SWGPU_FAULT (ctest runs it so)");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	vkh_tolerate_object((uint64_t)(uintptr_t)d->device);
	/* The lost work never completes: its fences and command buffers
	 * stay "in use" for the layer when they are destroyed. */
	vkh_expect_message("VUID-vkDestroyFence-fence-01120");
	vkh_expect_message("VUID-vkDestroyCommandPool-commandPool-00041");
	/* A submit refused with VK_ERROR_DEVICE_LOST counts as pending
	 * for the layer; the helper frees its command buffer. */
	vkh_expect_message("VUID-vkFreeCommandBuffers-pCommandBuffers-00047");
	wt_frame_colors(1, &f);
	for (int n = 0; n < 20 && r != VK_ERROR_DEVICE_LOST; n++)
		r = wt_frame_present(h, d, &sc, 0, 0, &f, VKH_TIMEOUT_NS);
	VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	{
		VkFenceCreateInfo fci = {
			.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
		VkFence fence;
		uint32_t index;

		VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
		VKH_CHECK_RESULT(h, vkAcquireNextImageKHR(d->device,
		                                          sc.swapchain,
		                                          VKH_TIMEOUT_NS,
		                                          VK_NULL_HANDLE, fence,
		                                          &index),
		                 VK_ERROR_DEVICE_LOST);
		vkDestroyFence(d->device, fence, NULL);
	}
	if (wt_caps.present_id) {
		PFN_vkWaitForPresentKHR wait = (PFN_vkWaitForPresentKHR)
			vkGetDeviceProcAddr(d->device, "vkWaitForPresentKHR");

		VKH_CHECK_RESULT(h, wait(d->device, sc.swapchain, 1000,
		                         VKH_TIMEOUT_NS),
		                 VK_ERROR_DEVICE_LOST);
	}
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

const struct vkh_test wsi_sync_tests[] = {
	{ "timeline_chain", test_timeline_chain, 2, 0 },
	{ "acquire_timeouts", test_acquire_timeouts, 2, 0 },
	{ "retired_swapchain", test_retired_swapchain, 2, 0 },
	{ "swapchain_maintenance", test_swapchain_maintenance, 2, 0 },
	{ "present_not_acquired", test_present_not_acquired, 2, 0 },
	{ "bad_swapchain", test_bad_swapchain, 2, 0 },
	{ "device_lost", test_device_lost, 2, 0 },
};
const unsigned wsi_sync_test_count =
	sizeof(wsi_sync_tests) / sizeof(wsi_sync_tests[0]);
