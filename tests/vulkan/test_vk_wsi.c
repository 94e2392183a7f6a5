/* SPDX-License-Identifier: MIT */
/*
 * test_vk_wsi: presentation through the loader with validation on, on the
 * window system named by WSI_TEST_PLATFORM (headless, xcb, xlib, wayland;
 * ctest starts Xvfb or weston for the windowed ones). Frames are
 * transfer-only: clears and buffer-to-image copies into swapchain images.
 *
 * Here: surface queries, swapchain life, acquire/present loops in every
 * present mode, a screenshot compared with the same frame read back
 * through a buffer, presenting from a queue other than the one that
 * rendered, a present waiting on a chain of binary semaphores behind a
 * timeline wait, acquire timeouts, retired swapchains, swapchain
 * maintenance (present fences, per-present modes, release), a present of
 * an image not acquired, and a lost device. Window events (resize,
 * destroyed window, broken connection, damage) are in
 * test_vk_wsi_window.c.
 */
#include "wsi_test.h"

#include <stdlib.h>
#include <string.h>

#define W 160
#define H 120

static uint32_t shot[W * H];

/* A window of W x H and the queue indices to render / present on. */
#define OPEN_WINDOW(h, w)                                                     \
	do {                                                                  \
		VKH_CHECK_VK(h, wt_window_open(h, W, H, &(w)));               \
	} while (0)

static void
test_surface_queries(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	VkSurfaceCapabilitiesKHR caps;
	VkSurfaceFormatKHR formats[16];
	VkPresentModeKHR modes[8];
	uint32_t nf = 16, nm = 8;
	bool unorm = false, srgb = false;

	OPEN_WINDOW(h, w);
	VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(
		h->phys, w.surface, &caps));
	VKH_CHECK(h, caps.minImageCount >= 1);
	VKH_CHECK(h, !caps.maxImageCount ||
	          caps.maxImageCount >= caps.minImageCount);
	VKH_CHECK(h, caps.supportedUsageFlags &
	          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
	VKH_CHECK(h, caps.supportedUsageFlags &
	          VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	VKH_CHECK(h, caps.supportedCompositeAlpha &
	          VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR);
	if (wt_platform == WT_XCB || wt_platform == WT_XLIB)
		VKH_CHECK_MSG(h, caps.currentExtent.width == W &&
		              caps.currentExtent.height == H,
		              "currentExtent %ux%u, the window is %ux%u",
		              caps.currentExtent.width,
		              caps.currentExtent.height, W, H);
	VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfaceFormatsKHR(
		h->phys, w.surface, &nf, formats));
	for (uint32_t i = 0; i < nf; i++) {
		unorm |= formats[i].format == VK_FORMAT_B8G8R8A8_UNORM;
		srgb |= formats[i].format == VK_FORMAT_B8G8R8A8_SRGB;
	}
	VKH_CHECK(h, unorm && srgb);
	VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfacePresentModesKHR(
		h->phys, w.surface, &nm, modes));
	VKH_CHECK(h, wt_mode_supported(h, &w, VK_PRESENT_MODE_FIFO_KHR));
	for (uint32_t f = 0; f < h->family_count; f++) {
		VkBool32 ok = VK_FALSE;

		VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfaceSupportKHR(
			h->phys, f, w.surface, &ok));
		VKH_CHECK_MSG(h, ok, "family %u cannot present", f);
	}
	if (wt_caps.surface_caps2) {
		VkPhysicalDeviceSurfaceInfo2KHR si = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR,
			.surface = w.surface,
		};
		VkSurfacePresentModeEXT pm = {
			.sType = VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_EXT,
			.presentMode = VK_PRESENT_MODE_MAILBOX_KHR,
		};
		VkPresentModeKHR compat[8];
		VkSurfacePresentModeCompatibilityEXT pmc = {
			.sType = VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_COMPATIBILITY_EXT,
			.presentModeCount = 8,
			.pPresentModes = compat,
		};
		VkSurfaceCapabilities2KHR c2 = {
			.sType = VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR,
		};
		VkSurfaceFormat2KHR f2[16];
		uint32_t n2 = 16;

		if (wt_caps.surface_maint1 &&
		    wt_mode_supported(h, &w, VK_PRESENT_MODE_MAILBOX_KHR)) {
			si.pNext = &pm;
			c2.pNext = &pmc;
		}
		VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfaceCapabilities2KHR(
			h->phys, &si, &c2));
		VKH_CHECK(h, c2.surfaceCapabilities.minImageCount ==
		          caps.minImageCount ||
		          (si.pNext && c2.surfaceCapabilities.minImageCount));
		if (si.pNext)
			VKH_CHECK(h, pmc.presentModeCount >= 1 &&
			          pmc.presentModeCount <= 8);
		for (uint32_t i = 0; i < 16; i++)
			f2[i] = (VkSurfaceFormat2KHR){
				.sType = VK_STRUCTURE_TYPE_SURFACE_FORMAT_2_KHR };
		VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfaceFormats2KHR(
			h->phys, &si, &n2, f2));
		VKH_CHECK(h, n2 == nf);
		VKH_CHECK(h, f2[0].surfaceFormat.format == formats[0].format);
	}
	wt_window_close(h, &w);
}

/* Create, look at the images, destroy; then again on the same surface. */
static void
test_swapchain_life(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	VkSurfaceCapabilitiesKHR caps;

	OPEN_WINDOW(h, w);
	VKH_CHECK_VK(h, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(
		h->phys, w.surface, &caps));
	for (int round = 0; round < 2; round++) {
		VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w,
		                                    VK_PRESENT_MODE_FIFO_KHR,
		                                    caps.minImageCount + 1,
		                                    VK_NULL_HANDLE, NULL, &sc));
		VKH_CHECK_MSG(h, sc.image_count >= caps.minImageCount + 1,
		              "%u images, asked for %u", sc.image_count,
		              caps.minImageCount + 1);
		for (uint32_t i = 0; i < sc.image_count; i++)
			VKH_CHECK(h, sc.images[i] != VK_NULL_HANDLE);
		wt_swapchain_destroy(d, &sc);
	}
	wt_window_close(h, &w);
}

/* 24 frames in each present mode, the queue that renders presents. */
static void
test_present_modes(struct vkh *h, struct vkh_device *d)
{
	static const VkPresentModeKHR all[] = {
		VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR,
		VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR,
	};
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;

	OPEN_WINDOW(h, w);
	for (uint32_t m = 0; m < 4; m++) {
		if (!wt_mode_supported(h, &w, all[m]))
			continue;
		VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, all[m], 3,
		                                    VK_NULL_HANDLE, NULL, &sc));
		for (uint32_t n = 0; n < 24; n++) {
			wt_frame_colors(n + m, &f);
			VKH_CHECK_VK(h, wt_frame_present(h, d, &sc, 0, 0, &f,
			                                 VKH_TIMEOUT_NS));
		}
		VKH_CHECK_MSG(h, wt_wait_shown(h, d, &w, &sc, &f),
		              "mode %d: the last frame is not on the window",
		              all[m]);
		wt_swapchain_destroy(d, &sc);
	}
	wt_window_close(h, &w);
}

/* The window (ww x wh, at most W x H) shows exactly the frame the GPU
 * wrote: a screenshot against the same image copied into a buffer. */
static void
screenshot_readback(struct vkh *h, struct vkh_device *d, uint32_t ww,
                    uint32_t wh)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct vkh_buffer rb;
	struct wt_frame f;
	VkSemaphore acquired;
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
	uint32_t index;
	const uint32_t *texels;

	if (wt_platform == WT_HEADLESS ||
	    (wt_platform == WT_WAYLAND && !getenv("WESTON_SCREENSHOOTER"))) {
		vkh_skip(h, "no screenshots on this platform");
		return;
	}
	VKH_CHECK_VK(h, wt_window_open(h, ww, wh, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, ww * wh * 4,
	                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                                  VKH_MEM_READBACK, -1, &rb));
	VKH_CHECK_VK(h, vkCreateSemaphore(d->device, &sci, NULL, &acquired));
	wt_frame_colors(3, &f);
	f.rect_bgra[0] = 0x10;
	f.rect_bgra[1] = 0xe0;
	f.rect_bgra[2] = 0x70;
	f.rect_bgra[3] = 0xff;
	f.rect_x = ww / 9;
	f.rect_y = wh / 4;
	f.rect_w = ww * 5 / 8;
	f.rect_h = wh * 4 / 9;
	VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, sc.swapchain,
	                                      VKH_TIMEOUT_NS, acquired,
	                                      VK_NULL_HANDLE, &index));
	VKH_CHECK_VK(h, wt_render(h, d, 0, &sc, index, &f, acquired,
	                          sc.rendered[index], &rb));
	VKH_CHECK_VK(h, wt_present(d, &sc, 0, index, sc.rendered[index]));
	VKH_CHECK(h, wt_wait_shown(h, d, &w, &sc, &f));
	wt_wait_idle(d);
	vkh_buffer_invalidate(h, d, &rb);
	/* The buffer holds the frame the GPU made... */
	texels = rb.map;
	VKH_CHECK(h, wt_screenshot_matches(texels, ww, wh, &f));
	/* ...and the screen shows those texels. */
	VKH_CHECK(h, wt_screenshot(&w, texels, shot));
	for (uint32_t i = 0; i < ww * wh; i++)
		VKH_CHECK_MSG(h, (shot[i] & 0xffffff) == (texels[i] & 0xffffff),
		              "pixel %u: screen 0x%06x, buffer 0x%06x", i,
		              shot[i] & 0xffffff, texels[i] & 0xffffff);
	vkDestroySemaphore(d->device, acquired, NULL);
	vkh_buffer_destroy(d, &rb);
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

static void
test_screenshot_readback(struct vkh *h, struct vkh_device *d)
{
	screenshot_readback(h, d, W, H);
}

/* A width whose rows are not a multiple of 16 bytes: swgpu's image rows
 * are padded (row pitch 416 bytes for 101 pixels), and on X11 with
 * MIT-SHM the server reads the image in place with that pitch. */
static void
test_screenshot_odd_width(struct vkh *h, struct vkh_device *d)
{
	screenshot_readback(h, d, 101, 37);
}

/* Rendered on one queue, presented on the other (on swgpu: a compute
 * queue clears, a transfer-only queue copies, each presents the other's
 * frames). */
static void
test_present_other_queue(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct wt_frame f;

	if (d->distinct_queues < 2) {
		vkh_skip(h, "one queue only");
		return;
	}
	OPEN_WINDOW(h, w);
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	for (uint32_t n = 0; n < 6; n++) {
		wt_frame_colors(n + 7, &f);
		VKH_CHECK_VK(h, wt_frame_present(h, d, &sc, n & 1, 1 - (n & 1),
		                                 &f, VKH_TIMEOUT_NS));
	}
	VKH_CHECK(h, wt_wait_shown(h, d, &w, &sc, &f));
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

/* An image created with VkImageSwapchainCreateInfoKHR and bound with
 * VkBindImageMemorySwapchainInfoKHR is the swapchain image's memory: a
 * pattern copied into the alias reads back through the swapchain image
 * itself. */
static void
test_swapchain_image_alias(struct vkh *h, struct vkh_device *d)
{
	struct wt_window w;
	struct wt_swapchain sc;
	struct vkh_buffer src, dst;
	VkImage alias;
	VkFence fence;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	uint32_t index;

	VKH_CHECK_VK(h, wt_window_open(h, W, H, &w));
	VKH_CHECK_VK(h, wt_swapchain_create(h, d, &w, VK_PRESENT_MODE_FIFO_KHR,
	                                    0, VK_NULL_HANDLE, NULL, &sc));
	VkImageSwapchainCreateInfoKHR isc = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_SWAPCHAIN_CREATE_INFO_KHR,
		.swapchain = sc.swapchain,
	};
	uint32_t families[2] = { d->queues[0].family, d->queues[1].family };
	VkImageCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.pNext = &isc,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_B8G8R8A8_UNORM,
		.extent = { sc.extent.width, sc.extent.height, 1 },
		.mipLevels = 1,
		.arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT |
		         VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		.sharingMode = d->distinct_families > 1
		               ? VK_SHARING_MODE_CONCURRENT
		               : VK_SHARING_MODE_EXCLUSIVE,
		.queueFamilyIndexCount = d->distinct_families > 1 ? 2 : 0,
		.pQueueFamilyIndices = families,
	};
	VKH_CHECK_VK(h, vkCreateImage(d->device, &ici, NULL, &alias));
	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
	VKH_CHECK_VK(h, vkAcquireNextImageKHR(d->device, sc.swapchain,
	                                      VKH_TIMEOUT_NS, VK_NULL_HANDLE,
	                                      fence, &index));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VkBindImageMemorySwapchainInfoKHR bsc = {
		.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_SWAPCHAIN_INFO_KHR,
		.swapchain = sc.swapchain,
		.imageIndex = index,
	};
	VkBindImageMemoryInfo bind = {
		.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO,
		.pNext = &bsc,
		.image = alias,
	};
	VKH_CHECK_VK(h, vkBindImageMemory2(d->device, 1, &bind));

	VkDeviceSize size = (VkDeviceSize)W * H * 4;
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size,
	                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                                  VKH_MEM_UPLOAD, -1, &src));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size,
	                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                                  VKH_MEM_READBACK, -1, &dst));
	for (VkDeviceSize i = 0; i < size; i++)
		((uint8_t *)src.map)[i] = vkh_pattern(18, i);
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);
	VkBufferImageCopy region = {
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageExtent = { W, H, 1 },
	};
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = alias,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &b);
	vkCmdCopyBufferToImage(cb, src.buffer, alias,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
	/* Read through the swapchain image itself. (Its UNDEFINED old
	 * layout lets a driver drop contents; none of the two here does:
	 * the alias and the image are the same bytes.) */
	b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	b.image = sc.images[index];
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &b);
	vkCmdCopyImageToBuffer(cb, sc.images[index],
	                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.buffer,
	                       1, &region);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &dst);
	VKH_CHECK(h, !memcmp(src.map, dst.map, size));
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &dst);
	vkDestroyImage(d->device, alias, NULL);
	vkDestroyFence(d->device, fence, NULL);
	wt_swapchain_destroy(d, &sc);
	wt_window_close(h, &w);
}

static const struct vkh_test core_tests[] = {
	{ "surface_queries", test_surface_queries, 2, 0 },
	{ "swapchain_life", test_swapchain_life, 2, 0 },
	{ "present_modes", test_present_modes, 2, 0 },
	{ "screenshot_readback", test_screenshot_readback, 2, 0 },
	{ "screenshot_odd_width", test_screenshot_odd_width, 2, 0 },
	{ "present_other_queue", test_present_other_queue, 2, 0 },
	{ "swapchain_image_alias", test_swapchain_image_alias, 2, 0 },
};

extern const struct vkh_test wsi_sync_tests[];
extern const unsigned wsi_sync_test_count;
extern const struct vkh_test wsi_window_tests[];
extern const unsigned wsi_window_test_count;

int
main(int argc, char **argv)
{
	struct vkh_test all[64];
	unsigned n = 0;

	if (!wt_setup())
		return VKH_EXIT_SKIP;
	for (unsigned i = 0; i < sizeof(core_tests) / sizeof(core_tests[0]);
	     i++)
		all[n++] = core_tests[i];
	for (unsigned i = 0; i < wsi_sync_test_count; i++)
		all[n++] = wsi_sync_tests[i];
	for (unsigned i = 0; i < wsi_window_test_count; i++)
		all[n++] = wsi_window_tests[i];
	return vkh_run_tests(argc, argv, "test_vk_wsi", all, n);
}
