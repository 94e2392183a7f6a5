/* SPDX-License-Identifier: MIT */
/*
 * test_vk_wsi, window events: a resized X11 window makes its swapchain out
 * of date (and a new one at the new size presents), a destroyed window
 * and a broken connection lose the surface but not the device, and
 * damage rectangles (VK_KHR_incremental_present) limit what is updated.
 */
#include "wsi_test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 144
#define H 100

static uint32_t shot[2 * W * 2 * H];

static bool
is_x11(void)
{
	return wt_platform == WT_XCB || wt_platform == WT_XLIB;
}

/* The device still works: a copy through it, checked on the host. */
static void
check_device_alive(struct vkh *h, struct vkh_device *d)
{
	struct vkh_buffer a, b;

	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 4096,
	                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                                  VKH_MEM_UPLOAD, -1, &a));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 4096,
	                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                                  VKH_MEM_READBACK, -1, &b));
	for (uint32_t i = 0; i < 4096; i++)
		((uint8_t *)a.map)[i] = vkh_pattern(9, i);
	VKH_CHECK_VK(h, vkh_copy_sync(d, 0, a.buffer, 0, b.buffer, 0, 4096));
	vkh_buffer_invalidate(h, d, &b);
	VKH_CHECK(h, !memcmp(a.map, b.map, 4096));
	vkh_buffer_destroy(d, &a);
	vkh_buffer_destroy(d, &b);
}

/* Resize the window under a swapchain: presenting to it reports
 * VK_ERROR_OUT_OF_DATE_KHR (swgpu: the very next acquire; the spec also
 * allows VK_SUBOPTIMAL_KHR first), and a swapchain of the new size made
 * with oldSwapchain presents. */
static void
test_resize_out_of_date(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain a, b;
	struct wt_frame f;
	VkResult r = VK_SUCCESS;
	int n;

	if (!is_x11()) {
		vkh_skip(h, "only X11 windows have a size of their own");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &a));
	wt_frame_colors(1, &f);
	VKH_CHECK_VK(h, wt_frame_present(h, d, &a, 0, 0, &f, VKH_TIMEOUT_NS));
	wt_window_resize(&w, 2 * W, H + 37);
	for (n = 0; n < 8; n++) {
		r = wt_frame_present(h, d, &a, 0, 0, &f, VKH_TIMEOUT_NS);
		if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
			break;
		VKH_CHECK_MSG(h, r == VK_SUCCESS, "frame %d after the resize: "
		              "%s", n, vkh_result_str(r));
	}
	/* swgpu: out of date at the very next acquire (the window no
	 * longer has the only extent the surface allows). lavapipe 22.3
	 * says VK_SUBOPTIMAL_KHR, which the spec also permits. */
	if (h->is_swgpu) {
		VKH_CHECK_RESULT(h, r, VK_ERROR_OUT_OF_DATE_KHR);
		VKH_CHECK_MSG(h, n == 0, "out of date only %d frames after "
		              "the resize", n);
	} else {
		VKH_CHECK_MSG(h, r == VK_ERROR_OUT_OF_DATE_KHR ||
		              r == VK_SUBOPTIMAL_KHR,
		              "8 frames after the resize: %s",
		              vkh_result_str(r));
	}
	wt_wait_idle(d);
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, a.swapchain, NULL, &b));
	VKH_CHECK(h, b.extent.width == 2 * W && b.extent.height == H + 37);
	wt_swapchain_destroy(d, &a);
	wt_frame_colors(4, &f);
	VKH_CHECK_VK(h, wt_frame_present(h, d, &b, 0, 0, &f, VKH_TIMEOUT_NS));
	VKH_CHECK(h, wt_wait_shown(h, d, &w, &b, &f));
	wt_swapchain_destroy(d, &b);
	wt_window_close(h, &w);
}

/* The application destroys the X11 window first: the surface is lost
 * (no crash, no hang), the device is not. */
static void
test_window_destroyed(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;
	VkSurfaceCapabilitiesKHR caps;
	VkResult r = VK_SUCCESS;

	if (!is_x11()) {
		vkh_skip(h, "X11 windows only");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	wt_frame_colors(2, &f);
	VKH_CHECK_VK(h, wt_frame_present(h, d, &sc, 0, 0, &f, VKH_TIMEOUT_NS));
	wt_wait_idle(d);
	wt_window_destroy_native(&w);
	for (int n = 0; n < 8 && r >= 0; n++)
		r = wt_frame_present(h, d, &sc, 0, 0, &f, VKH_TIMEOUT_NS);
	if (h->is_swgpu) {
		VKH_CHECK_RESULT(h, r, VK_ERROR_SURFACE_LOST_KHR);
		VKH_CHECK_RESULT(h, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(
			h->phys, w.surface, &caps), VK_ERROR_SURFACE_LOST_KHR);
	} else {
		VKH_CHECK_MSG(h, r < 0, "presents to a destroyed window: %s",
		              vkh_result_str(r));
	}
	wt_wait_idle(d);
	check_device_alive(h, d);
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

/* The connection to the window system breaks (its socket shut down, as
 * when the server goes away): VK_ERROR_SURFACE_LOST_KHR, and the device
 * keeps working. */
static void
test_connection_dropped(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;
	VkResult r = VK_SUCCESS;

	if (wt_platform == WT_HEADLESS) {
		vkh_skip(h, "no connection");
		return;
	}
	if (wt_platform == WT_XLIB) {
		/* Xlib's default I/O error handler exits the process on a
		 * broken connection, before the driver can say anything. */
		vkh_skip(h, "Xlib exits on a broken connection");
		return;
	}
	if (!h->is_swgpu) {
		/* lavapipe 22.3 (Mesa's X11 and Wayland WSI) blocks in a
		 * reply or event that never comes on a dead connection. */
		vkh_skip(h, "checks swgpu's answer");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	wt_frame_colors(3, &f);
	VKH_CHECK_VK(h, wt_frame_present(h, d, &sc, 0, 0, &f, VKH_TIMEOUT_NS));
	wt_wait_idle(d);
	wt_window_break_connection(&w);
	for (int n = 0; n < 8 && r >= 0; n++)
		r = wt_frame_present(h, d, &sc, 0, 0, &f, VKH_TIMEOUT_NS);
	VKH_CHECK_RESULT(h, r, VK_ERROR_SURFACE_LOST_KHR);
	wt_wait_idle(d);
	check_device_alive(h, d);
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

/* A full frame of colour A, then a frame of colour B whose damage is one
 * rectangle: B shows inside it. swgpu updates nothing else, so A stays
 * outside (the spec lets a driver update more; lavapipe's check stops at
 * the rectangle). */
static void
test_incremental_present(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame a, b;
	VkSemaphore acquired;
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
	VkRectLayerKHR rect = { { 30, 20 }, { 50, 40 }, 0 };
	VkPresentRegionKHR region = { 1, &rect };
	VkPresentRegionsKHR regions = {
		.sType = VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR,
		.swapchainCount = 1,
		.pRegions = &region,
	};
	uint32_t index;

	if (!is_x11() || !wt_caps.incremental_present) {
		vkh_skip(h, "needs X11 screenshots and incremental present");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w,
	                                    VK_PRESENT_MODE_IMMEDIATE_KHR, 0,
	                                    VK_NULL_HANDLE, NULL, &sc));
	VKH_CHECK_VK(h, vkCreateSemaphore(d->device, &sci, NULL, &acquired));
	wt_frame_colors(1, &a);
	VKH_CHECK_VK(h, wt_frame_present(h, d, &sc, 0, 0, &a, VKH_TIMEOUT_NS));
	VKH_CHECK(h, wt_wait_shown(h, d, &w, &sc, &a));

	wt_frame_colors(6, &b);
	VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, sc.swapchain,
	                                      VKH_TIMEOUT_NS, acquired,
	                                      VK_NULL_HANDLE, &index));
	VKH_CHECK_VK(h, wt_render(h, d, 0, &sc, index, &b, acquired,
	                          sc.rendered[index], NULL));
	{
		uint64_t id = sc.present_id + 1;
		VkPresentIdKHR pid = {
			.sType = VK_STRUCTURE_TYPE_PRESENT_ID_KHR,
			.swapchainCount = 1,
			.pPresentIds = &id,
		};
		VkPresentInfoKHR pi = {
			.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
			.pNext = &regions,  /* the 1.3.239 layer wants it last */
			.waitSemaphoreCount = 1,
			.pWaitSemaphores = &sc.rendered[index],
			.swapchainCount = 1,
			.pSwapchains = &sc.swapchain,
			.pImageIndices = &index,
		};

		if (wt_caps.present_id) {
			pid.pNext = &regions;
			pi.pNext = &pid;
			sc.present_id = id;
		}
		VKH_CHECK_VK(h, vkQueuePresentKHR(d->queues[0].queue, &pi));
	}
	/* Inside the rectangle: B (swgpu: once the present wait says it
	 * is shown; else look again for a while). */
	VKH_CHECK(h, wt_wait_shown(h, d, &w, &sc, NULL));
	for (int tries = 0; tries < 500; tries++) {
		bool inside = true;

		VKH_CHECK(h, wt_screenshot(&w, NULL, shot));
		for (int32_t y = rect.offset.y;
		     y < rect.offset.y + (int32_t)rect.extent.height; y++)
			for (int32_t x = rect.offset.x;
			     x < rect.offset.x + (int32_t)rect.extent.width; x++)
				inside &= (shot[y * W + x] & 0xffffff) ==
				          (b.bgra[0] | b.bgra[1] << 8 |
				           (uint32_t)b.bgra[2] << 16);
		if (inside)
			break;
		VKH_CHECK_MSG(h, !wt_caps.present_id && tries < 499,
		              "the damaged rectangle does not show frame B");
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	if (h->is_swgpu) {
		/* Outside: still A. */
		struct wt_frame expect = a;

		expect.rect_bgra[0] = b.bgra[0];
		expect.rect_bgra[1] = b.bgra[1];
		expect.rect_bgra[2] = b.bgra[2];
		expect.rect_x = rect.offset.x;
		expect.rect_y = rect.offset.y;
		expect.rect_w = rect.extent.width;
		expect.rect_h = rect.extent.height;
		VKH_CHECK(h, wt_screenshot_matches(shot, W, H, &expect));
	}
	wt_swapchain_destroy(d, &sc);  /* idles the device */
	vkDestroySemaphore(d->device, acquired, NULL);
	wt_window_close(h, &w);
}

const struct vkh_test wsi_window_tests[] = {
	{ "resize_out_of_date", test_resize_out_of_date, 2, 0 },
	{ "window_destroyed", test_window_destroyed, 2, 0 },
	{ "connection_dropped", test_connection_dropped, 2, 0 },
	{ "incremental_present", test_incremental_present, 2, 0 },
};
const unsigned wsi_window_test_count =
	sizeof(wsi_window_tests) / sizeof(wsi_window_tests[0]);
