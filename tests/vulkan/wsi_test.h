/* SPDX-License-Identifier: MIT */
/*
 * wsi_test: what the presentation tests share — a window of the platform
 * under test (WSI_TEST_PLATFORM=headless|xcb|xlib|wayland), its
 * VkSurfaceKHR, swapchains, transfer-only frames (clears and copies into
 * swapchain images), readback, and screenshots of the window (X11:
 * GetImage of the window, which under Xvfb is what the screen shows).
 *
 * Nothing here depends on the driver: the same tests run on swgpu and on
 * lavapipe; what a driver does not offer (headless surfaces, present
 * waits, swapchain maintenance) is skipped or checked another way.
 */
#ifndef WSI_TEST_H
#define WSI_TEST_H

#include "vk_harness.h"

enum wt_platform {
	WT_HEADLESS,
	WT_XCB,
	WT_XLIB,
	WT_WAYLAND,
};

/* What the driver offers, found by wt_setup's hooks. */
struct wt_caps {
	bool surface_caps2;         /* VK_KHR_get_surface_capabilities2 */
	bool surface_maint1;        /* VK_EXT_surface_maintenance1 */
	bool swapchain_maint1;      /* VK_EXT_swapchain_maintenance1 */
	bool present_id;            /* VK_KHR_present_id + present_wait */
	bool incremental_present;   /* VK_KHR_incremental_present */
};

extern enum wt_platform wt_platform;
extern struct wt_caps wt_caps;

/* A test window and its surface. */
struct wt_window {
	uint32_t width, height;
	VkSurfaceKHR surface;
	void *native;                /* platform state (wsi_test.c) */
};

/* Parse WSI_TEST_PLATFORM and install the harness hooks that enable the
 * surface and swapchain extensions. Call first in main; returns false
 * (after a message) when the platform cannot run here (no display). */
bool wt_setup(void);

/* Open a window of the platform, mapped, and its surface. */
VkResult wt_window_open(struct vkh *h, uint32_t width, uint32_t height,
                        struct wt_window *w);
void wt_window_close(struct vkh *h, struct wt_window *w);
/* X11: resize the window and wait until the server has done it. */
void wt_window_resize(struct wt_window *w, uint32_t width, uint32_t height);
/* X11: destroy the window (the surface stays, now without a window). */
void wt_window_destroy_native(struct wt_window *w);
/* Break the connection to the window system (shutdown of its socket):
 * X11 and Wayland. */
void wt_window_break_connection(struct wt_window *w);

/* Take a screenshot of the window: width * height BGRX words. False if
 * the platform has none (headless). Wayland (weston with its
 * screenshooter): out is `hint` if the screen shows those pixels as a
 * block somewhere, else zeros; without a hint, false. */
bool wt_screenshot(struct wt_window *w, const uint32_t *hint, uint32_t *out);

struct wt_swapchain {
	VkSwapchainKHR swapchain;
	VkExtent2D extent;
	VkPresentModeKHR mode;
	uint32_t image_count;
	VkImage images[16];
	/* One acquire and one render semaphore per frame in flight. */
	VkSemaphore acquired[16], rendered[16];
	uint32_t frame;
	uint64_t present_id;          /* last id given (present_id) */
};

/* Swapchain on w's surface: B8G8R8A8_UNORM, usage TRANSFER_DST|SRC,
 * min_images (0: the surface's minimum), CONCURRENT over the device's
 * families when it has several; chain is put into the create info's
 * pNext. */
VkResult wt_swapchain_create(struct vkh *h, struct vkh_device *d,
                             struct wt_window *w, VkPresentModeKHR mode,
                             uint32_t min_images, VkSwapchainKHR old,
                             const void *chain, struct wt_swapchain *sc);
void wt_swapchain_destroy(struct vkh_device *d, struct wt_swapchain *sc);

/* Is mode offered for w's surface? */
bool wt_mode_supported(struct vkh *h, struct wt_window *w,
                       VkPresentModeKHR mode);

/* A frame's contents: a clear colour (B, G, R, A bytes) and, when
 * rect_w > 0, a rectangle of a second colour copied from a buffer. */
struct wt_frame {
	uint8_t bgra[4];
	uint8_t rect_bgra[4];
	int32_t rect_x, rect_y;
	uint32_t rect_w, rect_h;
};

/* The colour frame n of a sequence gets. */
void wt_frame_colors(uint32_t n, struct wt_frame *f);

/* Record and submit the frame into image `index` on queue qi: waits for
 * `wait` (binary, may be NULL) at TRANSFER, leaves the image in
 * PRESENT_SRC_KHR, signals `signal` (binary, may be NULL). With readback,
 * also copies the finished image into it (width * height BGRA words,
 * mapped; the caller waits with wt_wait_idle). */
VkResult wt_render(struct vkh *h, struct vkh_device *d, uint32_t qi,
                   struct wt_swapchain *sc, uint32_t index,
                   const struct wt_frame *f, VkSemaphore wait,
                   VkSemaphore signal, struct vkh_buffer *readback);

/* Acquire (timeout), render frame f on queue qi, present on queue pi.
 * Returns the first result that is not VK_SUCCESS (SUBOPTIMAL included),
 * or VK_SUCCESS. */
VkResult wt_frame_present(struct vkh *h, struct vkh_device *d,
                          struct wt_swapchain *sc, uint32_t qi,
                          uint32_t pi, const struct wt_frame *f,
                          uint64_t timeout);

/* Present `index` on queue pi waiting for `wait`, with the next present
 * id when the driver has them. */
VkResult wt_present(struct vkh_device *d, struct wt_swapchain *sc,
                    uint32_t pi, uint32_t index, VkSemaphore wait);

/* The last present is on the window: vkWaitForPresentKHR where offered;
 * else, with a screenshot, until it shows `expect` (bounded); else idle
 * queues. False if it never showed. */
bool wt_wait_shown(struct vkh *h, struct vkh_device *d, struct wt_window *w,
                   struct wt_swapchain *sc, const struct wt_frame *expect);

/* The pixels of frame f (0x00RRGGBB words). */
void wt_frame_pixels(const struct wt_frame *f, uint32_t width,
                     uint32_t height, uint32_t *out);

/* Does the screenshot show f (the whole window; alpha ignored)? On a
 * mismatch, print the first differing pixel to stderr. */
bool wt_screenshot_matches(const uint32_t *shot, uint32_t width,
                           uint32_t height, const struct wt_frame *f);

/* Every queue of d idle. */
void wt_wait_idle(struct vkh_device *d);

#endif /* WSI_TEST_H */
