/* SPDX-License-Identifier: MIT */
/*
 * wsi.h — presentation (window-system integration): surfaces, swapchains
 * and the presenter thread that shows their images.
 *
 *   wsi_surface.c    VK_KHR_surface queries common to every window system
 *                    (capabilities, formats, present modes, support)
 *   wsi_swapchain.c  swapchains: ordinary swgpu images in host-visible
 *                    memory, acquire, release
 *   wsi_present.c    vkQueuePresentKHR (queue work: a job that waits for
 *                    the present's semaphores) and the presenter thread
 *                    (present modes, pacing, trace)
 *   wsi_x11.c        xcb and Xlib windows: MIT-SHM or PutImage
 *   wsi_wayland.c    Wayland surfaces: wl_shm buffers
 *   wsi_headless.c   VK_EXT_headless_surface: shows nothing
 *
 * Surfaces are the ICD's own objects (the loader calls our
 * vkCreate*SurfaceKHR since interface 3, and hands our handle back to
 * every surface query and to vkCreateSwapchainKHR), so a surface keeps
 * window-system state (the connection, shared-memory support) and knows
 * its current swapchain.
 *
 * The window-system libraries are loaded at run time (wsi_x11.c,
 * wsi_wayland.c): the driver must load and run compute and offscreen work
 * on a machine that has neither X nor Wayland installed.
 */
#ifndef ICD_WSI_H
#define ICD_WSI_H

#include <pthread.h>

#include "icd.h"

struct icd_surface;
struct wsi_swapchain;

/* What a surface's window is like now (wsi_platform_ops.query). */
struct wsi_window {
	/* The window's size, or 0xFFFFFFFF x 0xFFFFFFFF when the swapchain
	 * decides it (Wayland, headless). */
	VkExtent2D current_extent;
	VkCompositeAlphaFlagsKHR composite_alpha;
};

/* One image handed to a window system: the first array layer of a
 * swapchain image, B8G8R8A8 texels (one 32-bit word each, 0xAARRGGBB),
 * rows row_pitch bytes apart. */
struct wsi_frame {
	const uint8_t *pixels;
	VkDeviceSize row_pitch;
	VkExtent2D extent;
	uint32_t image_index;
	/* pixels lie in the pages image_pages gave for image_index */
	bool shared;
	/* Damage (VK_KHR_incremental_present), clipped to the extent;
	 * rect_count 0: the whole image changed. */
	uint32_t rect_count;
	const VkRect2D *rects;
};

/*
 * A window system. Results: VK_SUCCESS, VK_ERROR_OUT_OF_DATE_KHR (the
 * window no longer matches the swapchain), VK_ERROR_SURFACE_LOST_KHR
 * (window destroyed, connection dropped), or an allocation error — each
 * with a log line.
 */
struct wsi_platform_ops {
	const char *name;
	/* The window's state now; may be called from any thread. */
	VkResult (*query)(struct icd_surface *surface, struct wsi_window *out);
	/* Window-system resources of a swapchain (shared memory, buffers),
	 * in sc->platform; finish releases them (sc->platform may be NULL
	 * after a failed init). */
	VkResult (*init)(struct wsi_swapchain *sc);
	void (*finish)(struct wsi_swapchain *sc);
	/* Pages the window system reads in place, to be the memory of
	 * swapchain image `index` (size bytes, a multiple of the page), or
	 * NULL: the image gets memory of its own and show copies it. Called
	 * after init, before the image exists; the pages stay valid until
	 * finish, which runs after the images are destroyed. NULL op: never
	 * (X11 without MIT-SHM, Wayland, headless). */
	void *(*image_pages)(struct wsi_swapchain *sc, uint32_t index,
	                     size_t size);
	/* The pages image_pages gave for index are not used (the device
	 * could not import them: shared mode); NULL when image_pages is. */
	void (*image_pages_unused)(struct wsi_swapchain *sc, uint32_t index);
	/* Put frame on the window; the presenter thread only. Returns once
	 * the window system has taken the pixels (they may be overwritten
	 * then). */
	VkResult (*show)(struct wsi_swapchain *sc, const struct wsi_frame *f);
	/* Release what the surface holds (NULL: nothing). */
	void (*destroy)(struct icd_surface *surface);
};

extern const struct wsi_platform_ops wsi_headless_ops;
extern const struct wsi_platform_ops wsi_x11_ops;
extern const struct wsi_platform_ops wsi_wayland_ops;

/*
 * A surface is a window, and the window's display engine: one presenter
 * thread (wsi_present.c) shows the presents of all the surface's
 * swapchains — the current one and retired ones whose acquired images
 * are still presented — in the order they were queued, on one vblank
 * clock. It runs while the surface has swapchains.
 *
 * lock guards everything below and the presentation state of the
 * surface's swapchains (image states, status, present counters); cond is
 * broadcast whenever any of it changes.
 */
struct icd_surface {
	struct icd_object base;
	const struct wsi_platform_ops *ops;
	struct icd_instance *instance;
	/* The application's window; the union member is the ops' own. */
	union {
		struct {
			void *conn;         /* xcb_connection_t * */
			uint32_t window;    /* xcb_window_t */
			bool xlib;          /* conn came from an Xlib Display */
		} x11;
		struct {
			void *display;      /* struct wl_display * */
			void *surface;      /* struct wl_surface * */
		} wl;
	};
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* The swapchain that is not retired, if any (a surface has at most
	 * one: VK_ERROR_NATIVE_WINDOW_IN_USE_KHR otherwise). */
	struct wsi_swapchain *swapchain;
	uint32_t swapchain_count;         /* alive, retired ones included */
	/* Presents waiting for the presenter, oldest first. */
	struct wsi_image *queue_head, *queue_tail;
	struct wsi_image *showing;        /* the presenter's, or NULL */
	bool stop;                        /* the presenter must end */
	bool thread_started;
	pthread_t thread;
	/* Presenter thread only. */
	uint64_t last_vblank_ns;          /* vblank of the last image shown */
};

ICD_DEFINE_HANDLE_CASTS(icd_surface, VkSurfaceKHR,
                        VK_OBJECT_TYPE_SURFACE_KHR)

/* A new surface with ops; the caller fills the platform union. */
VkResult wsi_surface_create(VkInstance instance,
                            const VkAllocationCallbacks *alloc,
                            const struct wsi_platform_ops *ops,
                            struct icd_surface **out);

enum wsi_image_state {
	WSI_IMAGE_FREE,       /* the application may acquire it */
	WSI_IMAGE_ACQUIRED,   /* the application owns it */
	WSI_IMAGE_QUEUED,     /* presented, the presenter has not shown it */
};

#define WSI_MAX_IMAGES 8
/* Damage rectangles kept per present (more: the whole image). */
#define WSI_MAX_RECTS 16

/* One vkQueuePresentKHR of one image. */
struct wsi_present {
	uint64_t serial;              /* 1, 2, ... per swapchain */
	uint64_t present_id;          /* VK_KHR_present_id, 0: none */
	VkPresentModeKHR mode;
	uint64_t queued_ns;
	uint32_t ctx_id, queue_id;    /* the present job, for the trace */
	uint64_t job_seqno;
	uint32_t rect_count;
	VkRect2D rects[WSI_MAX_RECTS];
};

struct wsi_image {
	struct wsi_swapchain *sc;
	uint32_t index;
	VkImage image;                /* an ordinary icd_image */
	VkDeviceMemory memory;        /* host-visible, mapped */
	bool shared;                  /* memory is image_pages' (no copy) */
	const uint8_t *pixels;        /* layer 0's first texel */
	VkDeviceSize row_pitch;
	/* Binary; the present job signals it when the present's waits are
	 * satisfied: the image's contents are final. */
	swgpu_syncobj *ready;
	/* Under the surface's lock: */
	enum wsi_image_state state;
	struct wsi_present present;   /* while QUEUED (one at a time) */
	struct wsi_image *next;       /* in the surface's queue */
};

struct wsi_swapchain {
	struct icd_object base;
	struct icd_device *device;
	struct icd_surface *surface;
	VkAllocationCallbacks alloc;
	VkFormat format;
	VkExtent2D extent;
	VkCompositeAlphaFlagBitsKHR composite_alpha;
	uint32_t image_count;
	struct wsi_image images[WSI_MAX_IMAGES];
	void *platform;                   /* wsi_platform_ops.init's */
	uint32_t trace_track;             /* swgpu trace track, 0: off */

	/* Under the surface's lock: */
	VkPresentModeKHR mode;            /* current (maintenance1: per present) */
	uint64_t serial;                  /* last present queued */
	uint64_t present_id_done;         /* VK_KHR_present_wait */
	/* VK_SUCCESS, VK_SUBOPTIMAL_KHR, VK_ERROR_OUT_OF_DATE_KHR,
	 * VK_ERROR_SURFACE_LOST_KHR or VK_ERROR_DEVICE_LOST: what acquire
	 * and present report from now on. */
	VkResult status;
	bool retired;                     /* replaced: acquire is OUT_OF_DATE */
	bool destroying;                  /* drop its presents, show no more */
};

ICD_DEFINE_HANDLE_CASTS(wsi_swapchain, VkSwapchainKHR,
                        VK_OBJECT_TYPE_SWAPCHAIN_KHR)

/* Formats a swapchain may have (wsi_surface.c). */
bool wsi_format_supported(VkFormat format, VkColorSpaceKHR space);

/* The present modes every surface offers, and whether mode is one. */
extern const VkPresentModeKHR wsi_present_modes[4];
bool wsi_present_mode_supported(VkPresentModeKHR mode);

/* Surface capabilities for present mode (wsi_surface.c). */
VkResult wsi_surface_capabilities(struct icd_physical_device *pdev,
                                  struct icd_surface *surface,
                                  VkSurfaceCapabilitiesKHR *caps);

/* The surface's presenter (wsi_present.c): a swapchain joins it at
 * creation (the first one starts the thread) and leaves it at
 * destruction, after its queued presents were shown if their images are
 * final, else dropped (the last one stops the thread). */
VkResult wsi_presenter_join(struct wsi_swapchain *sc);
void wsi_presenter_leave(struct wsi_swapchain *sc);

/* Set the swapchain's status (a worse one replaces a better one) and wake
 * its waiters; surface lock held. */
void wsi_swapchain_set_status(struct wsi_swapchain *sc, VkResult status);

/* Wait on the surface's cond until abs_ns (swgpu_now_ns clock,
 * UINT64_MAX: forever); its lock held. False once the deadline passed. */
bool wsi_cond_wait_until(struct icd_surface *s, uint64_t abs_ns);

/* Bind img to the memory of swapchain image `index`
 * (VkBindImageMemorySwapchainInfoKHR; image.c). */
VkResult wsi_bind_swapchain_image(struct icd_image *img,
                                  VkSwapchainKHR swapchain, uint32_t index);

/* Features of the WSI extensions (present id/wait, swapchain maintenance)
 * into s if it is one of their structs; false otherwise. */
bool wsi_features_write(VkBaseOutStructure *s);

#endif /* ICD_WSI_H */
