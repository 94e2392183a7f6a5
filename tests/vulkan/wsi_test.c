/* SPDX-License-Identifier: MIT */
/*
 * wsi_test, Vulkan side: extensions, swapchains, transfer-only frames,
 * presents, waiting for a present to show. See wsi_test.h.
 */
#include "wsi_test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum wt_platform wt_platform;
struct wt_caps wt_caps;

/* ------------------------------------------------------------------ */
/* Extensions: the harness hooks                                        */
/* ------------------------------------------------------------------ */

static const char *
platform_extension(void)
{
	switch (wt_platform) {
	case WT_HEADLESS: return "VK_EXT_headless_surface";
	case WT_XCB: return "VK_KHR_xcb_surface";
	case WT_XLIB: return "VK_KHR_xlib_surface";
	case WT_WAYLAND: return "VK_KHR_wayland_surface";
	}
	return "";
}

static bool
has_extension(const VkExtensionProperties *p, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(p[i].extensionName, name))
			return true;
	return false;
}

static bool
instance_has(const char *name)
{
	VkExtensionProperties p[256];
	uint32_t n = 256;

	vkEnumerateInstanceExtensionProperties(NULL, &n, p);
	return has_extension(p, n, name);
}

static void
instance_hook(VkInstanceCreateInfo *ici)
{
	static const char *names[16];
	uint32_t n = 0;

	for (uint32_t i = 0; i < ici->enabledExtensionCount; i++)
		names[n++] = ici->ppEnabledExtensionNames[i];
	names[n++] = "VK_KHR_surface";
	names[n++] = platform_extension();
	wt_caps.surface_caps2 = instance_has("VK_KHR_get_surface_capabilities2");
	if (wt_caps.surface_caps2)
		names[n++] = "VK_KHR_get_surface_capabilities2";
	wt_caps.surface_maint1 = wt_caps.surface_caps2 &&
	                         instance_has("VK_EXT_surface_maintenance1");
	if (wt_caps.surface_maint1)
		names[n++] = "VK_EXT_surface_maintenance1";
	ici->enabledExtensionCount = n;
	ici->ppEnabledExtensionNames = names;
}

static void
device_hook(struct vkh *h, VkDeviceCreateInfo *dci)
{
	static const char *names[8];
	static VkPhysicalDevicePresentIdFeaturesKHR id = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR,
		.presentId = VK_TRUE,
	};
	static VkPhysicalDevicePresentWaitFeaturesKHR wait = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR,
		.presentWait = VK_TRUE,
	};
	static VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT maint = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT,
		.swapchainMaintenance1 = VK_TRUE,
	};
	VkExtensionProperties p[256];
	uint32_t count = 256, n = 0;

	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &count, p);
	names[n++] = "VK_KHR_swapchain";
	wt_caps.present_id = has_extension(p, count, "VK_KHR_present_id") &&
	                     has_extension(p, count, "VK_KHR_present_wait");
	if (wt_caps.present_id) {
		names[n++] = "VK_KHR_present_id";
		names[n++] = "VK_KHR_present_wait";
		id.pNext = (void *)dci->pNext;
		wait.pNext = &id;
		dci->pNext = &wait;
	}
	wt_caps.swapchain_maint1 =
		wt_caps.surface_maint1 &&
		has_extension(p, count, "VK_EXT_swapchain_maintenance1");
	if (wt_caps.swapchain_maint1) {
		names[n++] = "VK_EXT_swapchain_maintenance1";
		maint.pNext = (void *)dci->pNext;
		dci->pNext = &maint;
	}
	wt_caps.incremental_present =
		has_extension(p, count, "VK_KHR_incremental_present");
	if (wt_caps.incremental_present)
		names[n++] = "VK_KHR_incremental_present";
	dci->enabledExtensionCount = n;
	dci->ppEnabledExtensionNames = names;
}

bool
wt_setup(void)
{
	const char *p = getenv("WSI_TEST_PLATFORM");

	if (!p || !strcmp(p, "headless")) {
		wt_platform = WT_HEADLESS;
	} else if (!strcmp(p, "xcb")) {
		wt_platform = WT_XCB;
	} else if (!strcmp(p, "xlib")) {
		wt_platform = WT_XLIB;
	} else if (!strcmp(p, "wayland")) {
#ifndef WT_HAVE_WAYLAND
		fprintf(stderr, "[wsi] built without Wayland test windows\n");
		return false;
#endif
		wt_platform = WT_WAYLAND;
	} else {
		fprintf(stderr, "[wsi] WSI_TEST_PLATFORM=%s is not one of "
		        "headless, xcb, xlib, wayland\n", p);
		return false;
	}
	if ((wt_platform == WT_XCB || wt_platform == WT_XLIB) &&
	    !getenv("DISPLAY")) {
		fprintf(stderr, "[wsi] no DISPLAY\n");
		return false;
	}
	if (wt_platform == WT_WAYLAND && !getenv("WAYLAND_DISPLAY")) {
		fprintf(stderr, "[wsi] no WAYLAND_DISPLAY\n");
		return false;
	}
	if (!instance_has(platform_extension())) {
		fprintf(stderr, "[wsi] the driver has no %s\n",
		        platform_extension());
		return false;
	}
	vkh_instance_hook = instance_hook;
	vkh_device_hook = device_hook;
	return true;
}

/* ------------------------------------------------------------------ */
/* Swapchains                                                          */
/* ------------------------------------------------------------------ */

/* Frames in flight: an acquire semaphore, a fence and a command buffer
 * each; a slot is reused once its fence has signalled. */
#define WT_SLOTS 3

struct wt_slot {
	VkSemaphore acquired;
	VkFence done;
	bool pending;
	uint32_t qi;
	VkCommandBuffer cb;
	struct vkh_buffer scratch;       /* the rectangle's texels */
};

/* Per swapchain, kept outside the public struct. */
static struct wt_private {
	struct wt_swapchain *sc;
	struct vkh_device *d;
	struct wt_slot slots[WT_SLOTS];
} privs[8];

static struct wt_private *
priv_of(struct wt_swapchain *sc)
{
	for (unsigned i = 0; i < 8; i++)
		if (privs[i].sc == sc)
			return &privs[i];
	return NULL;
}

bool
wt_mode_supported(struct vkh *h, struct wt_window *w, VkPresentModeKHR mode)
{
	VkPresentModeKHR modes[16];
	uint32_t n = 16;

	vkGetPhysicalDeviceSurfacePresentModesKHR(h->phys, w->surface, &n,
	                                          modes);
	for (uint32_t i = 0; i < n; i++)
		if (modes[i] == mode)
			return true;
	return false;
}

VkResult
wt_swapchain_create(struct vkh *h, struct vkh_device *d,
                    struct wt_window *w, VkPresentModeKHR mode,
                    uint32_t min_images, VkSwapchainKHR old,
                    const void *chain, struct wt_swapchain *sc)
{
	VkSurfaceCapabilitiesKHR caps;
	uint32_t families[VKH_MAX_QUEUES], nfam = 0;
	struct wt_private *p;
	VkResult r;

	/* A test that failed half-way may have left sc's old entry. */
	while ((p = priv_of(sc)))
		memset(p, 0, sizeof(*p));
	p = priv_of(NULL);
	memset(sc, 0, sizeof(*sc));
	r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(h->phys, w->surface,
	                                              &caps);
	if (r != VK_SUCCESS)
		return r;
	for (uint32_t i = 0; i < d->queue_count; i++) {
		bool seen = false;

		for (uint32_t k = 0; k < nfam; k++)
			seen |= families[k] == d->queues[i].family;
		if (!seen)
			families[nfam++] = d->queues[i].family;
	}
	sc->extent = caps.currentExtent.width != UINT32_MAX
	             ? caps.currentExtent
	             : (VkExtent2D){ w->width, w->height };
	sc->mode = mode;
	VkSwapchainCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
		.pNext = chain,
		.surface = w->surface,
		.minImageCount = min_images > caps.minImageCount
		                 ? min_images : caps.minImageCount,
		.imageFormat = VK_FORMAT_B8G8R8A8_UNORM,
		.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
		.imageExtent = sc->extent,
		.imageArrayLayers = 1,
		.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT |
		              VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		.imageSharingMode = nfam > 1 ? VK_SHARING_MODE_CONCURRENT
		                             : VK_SHARING_MODE_EXCLUSIVE,
		.queueFamilyIndexCount = nfam > 1 ? nfam : 0,
		.pQueueFamilyIndices = families,
		.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
		.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
		.presentMode = mode,
		.clipped = VK_TRUE,
		.oldSwapchain = old,
	};
	if (ci.minImageCount > caps.maxImageCount && caps.maxImageCount)
		ci.minImageCount = caps.maxImageCount;
	r = vkCreateSwapchainKHR(d->device, &ci, NULL, &sc->swapchain);
	if (r != VK_SUCCESS)
		return r;
	sc->image_count = 16;
	vkGetSwapchainImagesKHR(d->device, sc->swapchain, &sc->image_count,
	                        sc->images);
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
	};
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	for (uint32_t i = 0; i < sc->image_count; i++)
		vkCreateSemaphore(d->device, &sci, NULL, &sc->rendered[i]);
	p->sc = sc;
	p->d = d;
	for (uint32_t i = 0; i < WT_SLOTS; i++) {
		struct wt_slot *s = &p->slots[i];

		memset(s, 0, sizeof(*s));
		vkCreateSemaphore(d->device, &sci, NULL, &s->acquired);
		vkCreateFence(d->device, &fci, NULL, &s->done);
		r = vkh_buffer_create(h, d, (VkDeviceSize)sc->extent.width *
		                      sc->extent.height * 4,
		                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		                      VKH_MEM_DEVICE_LOCAL, -1, &s->scratch);
		if (r != VK_SUCCESS)
			return r;
	}
	return VK_SUCCESS;
}

static void
slot_retire(struct vkh_device *d, struct wt_slot *s)
{
	if (!s->pending)
		return;
	/* A lost device never finishes the work: leave its objects to
	 * vkDestroyDevice. */
	if (vkWaitForFences(d->device, 1, &s->done, VK_TRUE,
	                    VKH_TIMEOUT_NS) != VK_SUCCESS)
		return;
	vkResetFences(d->device, 1, &s->done);
	vkFreeCommandBuffers(d->device, d->queues[s->qi].pool, 1, &s->cb);
	s->pending = false;
}

void
wt_wait_idle(struct vkh_device *d)
{
	vkDeviceWaitIdle(d->device);
}

void
wt_swapchain_destroy(struct vkh_device *d, struct wt_swapchain *sc)
{
	struct wt_private *p = priv_of(sc);

	if (!sc->swapchain)
		return;
	wt_wait_idle(d);
	for (uint32_t i = 0; p && i < WT_SLOTS; i++) {
		struct wt_slot *s = &p->slots[i];

		slot_retire(d, s);
		vkDestroySemaphore(d->device, s->acquired, NULL);
		vkDestroyFence(d->device, s->done, NULL);
		vkh_buffer_destroy(d, &s->scratch);
	}
	if (p)
		memset(p, 0, sizeof(*p));
	vkDestroySwapchainKHR(d->device, sc->swapchain, NULL);
	for (uint32_t i = 0; i < sc->image_count; i++)
		vkDestroySemaphore(d->device, sc->rendered[i], NULL);
	sc->swapchain = VK_NULL_HANDLE;
}

/* ------------------------------------------------------------------ */
/* Frames                                                              */
/* ------------------------------------------------------------------ */

void
wt_frame_colors(uint32_t n, struct wt_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->bgra[0] = (uint8_t)(40 + 37 * n);
	f->bgra[1] = (uint8_t)(200 - 23 * n);
	f->bgra[2] = (uint8_t)(90 + 61 * n);
	f->bgra[3] = 255;
}

static void
image_barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from,
              VkImageLayout to, VkAccessFlags src_access,
              VkAccessFlags dst_access, VkPipelineStageFlags src,
              VkPipelineStageFlags dst)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = src_access,
		.dstAccessMask = dst_access,
		.oldLayout = from,
		.newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	vkCmdPipelineBarrier(cb, src, dst, 0, 0, NULL, 0, NULL, 1, &b);
}

/* A uint32 pattern for vkCmdFillBuffer that is the texel bgra. */
static uint32_t
bgra_word(const uint8_t *c)
{
	return c[0] | c[1] << 8 | c[2] << 16 | (uint32_t)c[3] << 24;
}

/* Fill (a prefix of) the scratch buffer with a colour and copy it into a
 * box of the image: the transfer-queue way to paint. Barriers order it
 * after earlier scratch reads and image writes. */
static void
paint_box(VkCommandBuffer cb, VkImage image, VkBuffer scratch,
          const uint8_t *bgra, int32_t x, int32_t y, uint32_t w, uint32_t h)
{
	const VkPipelineStageFlags T = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkBufferImageCopy region = {
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageOffset = { x, y, 0 },
		.imageExtent = { w, h, 1 },
	};
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
	};

	vkCmdPipelineBarrier(cb, T, T, 0, 1, &mb, 0, NULL, 0, NULL);
	vkCmdFillBuffer(cb, scratch, 0, (VkDeviceSize)w * h * 4,
	                bgra_word(bgra));
	vkCmdPipelineBarrier(cb, T, T, 0, 1, &mb, 0, NULL, 0, NULL);
	vkCmdCopyBufferToImage(cb, scratch, image,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
}

/* The frame: on a queue that may clear images, a clear; on a
 * transfer-only queue, a copy of a filled buffer. */
static void
record_frame(VkCommandBuffer cb, VkImage image, VkExtent2D extent,
             const struct wt_frame *f, VkBuffer scratch, VkBuffer readback,
             bool can_clear)
{
	const VkPipelineStageFlags T = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkClearColorValue c = { .float32 = {
		f->bgra[2] / 255.0f, f->bgra[1] / 255.0f, f->bgra[0] / 255.0f,
		f->bgra[3] / 255.0f } };
	VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0,
	                                  1 };
	VkImageSubresourceLayers layers = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0,
	                                    1 };

	image_barrier(cb, image, VK_IMAGE_LAYOUT_UNDEFINED,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
	              VK_ACCESS_TRANSFER_WRITE_BIT, T, T);
	if (can_clear)
		vkCmdClearColorImage(cb, image,
		                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1,
		                     &range);
	else
		paint_box(cb, image, scratch, f->bgra, 0, 0, extent.width,
		          extent.height);
	if (f->rect_w)
		paint_box(cb, image, scratch, f->rect_bgra, f->rect_x,
		          f->rect_y, f->rect_w, f->rect_h);
	if (readback) {
		VkBufferImageCopy region = {
			.imageSubresource = layers,
			.imageExtent = { extent.width, extent.height, 1 },
		};
		VkBufferMemoryBarrier hb = {
			.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
			.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
			.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
			.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.buffer = readback,
			.size = VK_WHOLE_SIZE,
		};

		image_barrier(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		              VK_ACCESS_TRANSFER_WRITE_BIT,
		              VK_ACCESS_TRANSFER_READ_BIT, T, T);
		vkCmdCopyImageToBuffer(cb, image,
		                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		                       readback, 1, &region);
		vkCmdPipelineBarrier(cb, T, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
		                     NULL, 1, &hb, 0, NULL);
		image_barrier(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		              VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
		              VK_ACCESS_TRANSFER_READ_BIT, 0, T,
		              VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
	} else {
		/* The semaphore signal after the submit makes the writes
		 * available to the present. */
		image_barrier(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		              VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
		              VK_ACCESS_TRANSFER_WRITE_BIT, 0, T,
		              VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
	}
}

static struct wt_slot *
next_slot(struct vkh_device *d, struct wt_swapchain *sc)
{
	struct wt_private *p = priv_of(sc);
	struct wt_slot *s = &p->slots[sc->frame % WT_SLOTS];

	slot_retire(d, s);
	return s;
}

VkResult
wt_render(struct vkh *h, struct vkh_device *d, uint32_t qi,
          struct wt_swapchain *sc, uint32_t index, const struct wt_frame *f,
          VkSemaphore wait, VkSemaphore signal, struct vkh_buffer *readback)
{
	struct wt_slot *s = next_slot(d, sc);
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkCommandBuffer cb = vkh_cmd_begin(d, qi);
	VkResult r;

	sc->frame++;
	record_frame(cb, sc->images[index], sc->extent, f, s->scratch.buffer,
	             readback ? readback->buffer : VK_NULL_HANDLE,
	             d->queues[qi].flags & (VK_QUEUE_GRAPHICS_BIT |
	                                    VK_QUEUE_COMPUTE_BIT));
	r = vkEndCommandBuffer(cb);
	if (r != VK_SUCCESS)
		return r;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.waitSemaphoreCount = wait ? 1 : 0,
		.pWaitSemaphores = &wait,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
		.signalSemaphoreCount = signal ? 1 : 0,
		.pSignalSemaphores = &signal,
	};
	r = vkQueueSubmit(d->queues[qi].queue, 1, &si, s->done);
	s->cb = cb;
	s->qi = qi;
	s->pending = r == VK_SUCCESS;
	if (!s->pending)
		vkFreeCommandBuffers(d->device, d->queues[qi].pool, 1, &cb);
	return r;
}

VkResult
wt_present(struct vkh_device *d, struct wt_swapchain *sc, uint32_t pi,
           uint32_t index, VkSemaphore wait)
{
	uint64_t id = sc->present_id + 1;
	VkPresentIdKHR pid = {
		.sType = VK_STRUCTURE_TYPE_PRESENT_ID_KHR,
		.swapchainCount = 1,
		.pPresentIds = &id,
	};
	VkResult result = VK_SUCCESS, r;
	VkPresentInfoKHR pi_ = {
		.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
		.pNext = wt_caps.present_id ? &pid : NULL,
		.waitSemaphoreCount = wait ? 1 : 0,
		.pWaitSemaphores = &wait,
		.swapchainCount = 1,
		.pSwapchains = &sc->swapchain,
		.pImageIndices = &index,
		.pResults = &result,
	};

	r = vkQueuePresentKHR(d->queues[pi].queue, &pi_);
	if (wt_caps.present_id)
		sc->present_id = id;
	return r != VK_SUCCESS ? r : result;
}

VkResult
wt_frame_present(struct vkh *h, struct vkh_device *d, struct wt_swapchain *sc,
                 uint32_t qi, uint32_t pi, const struct wt_frame *f,
                 uint64_t timeout)
{
	struct wt_private *p = priv_of(sc);
	struct wt_slot *s = &p->slots[sc->frame % WT_SLOTS];
	uint32_t index;
	VkResult r, acq;

	slot_retire(d, s);   /* its acquire semaphore is free again */
	acq = vkAcquireNextImageKHR(d->device, sc->swapchain, timeout,
	                            s->acquired, VK_NULL_HANDLE, &index);
	if (acq != VK_SUCCESS && acq != VK_SUBOPTIMAL_KHR)
		return acq;
	r = wt_render(h, d, qi, sc, index, f, s->acquired,
	              sc->rendered[index], NULL);
	if (r != VK_SUCCESS)
		return r;
	r = wt_present(d, sc, pi, index, sc->rendered[index]);
	return r != VK_SUCCESS ? r : acq;
}

/* ------------------------------------------------------------------ */
/* Seeing a present                                                    */
/* ------------------------------------------------------------------ */

static bool
frame_matches(const uint32_t *shot, uint32_t width, uint32_t height,
              const struct wt_frame *f, bool verbose)
{
	for (uint32_t y = 0; y < height; y++) {
		for (uint32_t x = 0; x < width; x++) {
			bool in = f->rect_w &&
			          (int32_t)x >= f->rect_x &&
			          (int32_t)x < f->rect_x + (int32_t)f->rect_w &&
			          (int32_t)y >= f->rect_y &&
			          (int32_t)y < f->rect_y + (int32_t)f->rect_h;
			const uint8_t *c = in ? f->rect_bgra : f->bgra;
			uint32_t want = c[0] | c[1] << 8 | (uint32_t)c[2] << 16;
			uint32_t got = shot[(size_t)y * width + x] & 0xffffff;

			if (got != want) {
				if (verbose)
					fprintf(stderr, "[wsi] pixel (%u, %u) "
					        "is 0x%06x, want 0x%06x\n", x,
					        y, got, want);
				return false;
			}
		}
	}
	return true;
}

void
wt_frame_pixels(const struct wt_frame *f, uint32_t width, uint32_t height,
                uint32_t *out)
{
	for (uint32_t y = 0; y < height; y++) {
		for (uint32_t x = 0; x < width; x++) {
			bool in = f->rect_w &&
			          (int32_t)x >= f->rect_x &&
			          (int32_t)x < f->rect_x + (int32_t)f->rect_w &&
			          (int32_t)y >= f->rect_y &&
			          (int32_t)y < f->rect_y + (int32_t)f->rect_h;
			const uint8_t *c = in ? f->rect_bgra : f->bgra;

			out[(size_t)y * width + x] =
				c[0] | c[1] << 8 | (uint32_t)c[2] << 16;
		}
	}
}

bool
wt_screenshot_matches(const uint32_t *shot, uint32_t width, uint32_t height,
                      const struct wt_frame *f)
{
	return frame_matches(shot, width, height, f, true);
}

bool
wt_wait_shown(struct vkh *h, struct vkh_device *d, struct wt_window *w,
              struct wt_swapchain *sc, const struct wt_frame *expect)
{
	size_t n = (size_t)w->width * w->height;
	uint32_t *shot, *hint;
	bool ok = false;
	int max_tries = wt_platform == WT_WAYLAND ? 10
	                : wt_caps.present_id ? 1 : 500;

	if (wt_caps.present_id) {
		PFN_vkWaitForPresentKHR wait = (PFN_vkWaitForPresentKHR)
			vkGetDeviceProcAddr(d->device, "vkWaitForPresentKHR");
		VkResult r = wait(d->device, sc->swapchain, sc->present_id,
		                  VKH_TIMEOUT_NS);

		if (r != VK_SUCCESS) {
			fprintf(stderr, "[wsi] vkWaitForPresentKHR: %s\n",
			        vkh_result_str(r));
			return false;
		}
	} else {
		wt_wait_idle(d);
	}
	if (!expect)
		return true;
	shot = malloc(n * 4);
	hint = malloc(n * 4);
	wt_frame_pixels(expect, w->width, w->height, hint);
	if (!wt_screenshot(w, hint, shot)) {
		free(shot);
		free(hint);
		return true;  /* nothing to look at on this platform */
	}
	/* With present waits the window must show the frame now (X11; a
	 * compositor paints it at its next repaint: look again a few times);
	 * without, the driver's presentation may still be on its way: look
	 * again for a while (bounded). */
	for (int tries = 0; tries < max_tries; tries++) {
		if (tries && !wt_screenshot(w, hint, shot))
			break;
		ok = frame_matches(shot, w->width, w->height, expect,
		                   tries == max_tries - 1);
		if (ok)
			break;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	free(shot);
	free(hint);
	return ok;
}
