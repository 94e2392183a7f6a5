/* SPDX-License-Identifier: MIT */
/*
 * wsi_wayland.c — Wayland surfaces (VK_KHR_wayland_surface) through
 * wl_shm buffers.
 *
 * Each swapchain binds wl_shm on its own event queue (a wrapper of the
 * application's wl_display, so our events never reach the application's
 * dispatch and its events never reach ours) and makes image_count + 1
 * buffers in one memfd pool, XRGB8888 (opaque) or ARGB8888 (premultiplied
 * alpha): the byte layout of B8G8R8A8. show() takes a buffer the
 * compositor has released, copies the image's rows into it, attaches it,
 * damages what changed (VK_KHR_incremental_present: the rectangles;
 * the copy is always whole, as the buffer held an older frame) and
 * commits. The compositor releases a buffer once it has the pixels, so a
 * buffer is free again a frame later.
 *
 * Pacing is the presenter's (60 Hz for FIFO), not frame callbacks: a
 * compositor sends none to a hidden window, and FIFO must still make
 * progress there. The window's size is the swapchain's (currentExtent
 * 0xFFFFFFFF), so a Wayland swapchain is never out of date; a broken
 * connection (a protocol error, the compositor gone) loses the surface.
 *
 * libwayland-client is loaded at run time (dlopen), for the reasons given
 * in wsi_x11.c; requests are sent with wl_proxy_marshal_flags and the
 * opcodes of wayland-client-protocol.h, whose inline wrappers would link
 * the library's interface symbols.
 */
#define VK_USE_PLATFORM_WAYLAND_KHR
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client-core.h>
#include <wayland-client-protocol.h>

#include "wsi.h"

#define WL_FUNCS(X)                                                           \
	X(wl_display_create_queue)                                            \
	X(wl_event_queue_destroy)                                             \
	X(wl_proxy_create_wrapper)                                            \
	X(wl_proxy_wrapper_destroy)                                           \
	X(wl_proxy_set_queue)                                                 \
	X(wl_proxy_marshal_flags)                                             \
	X(wl_proxy_add_listener)                                              \
	X(wl_proxy_destroy)                                                   \
	X(wl_proxy_get_version)                                               \
	X(wl_display_roundtrip_queue)                                         \
	X(wl_display_dispatch_queue_pending)                                  \
	X(wl_display_prepare_read_queue)                                      \
	X(wl_display_read_events)                                             \
	X(wl_display_cancel_read)                                             \
	X(wl_display_flush)                                                   \
	X(wl_display_get_fd)                                                  \
	X(wl_display_get_error)

#define WL_INTERFACES(X)                                                      \
	X(wl_registry_interface)                                              \
	X(wl_shm_interface)                                                   \
	X(wl_shm_pool_interface)                                              \
	X(wl_buffer_interface)

#define WL_DECLARE_FUNC(f) __typeof__(f) *f;
#define WL_DECLARE_IFACE(i) const struct wl_interface *i;

static struct {
	bool ok;
	WL_FUNCS(WL_DECLARE_FUNC)
	WL_INTERFACES(WL_DECLARE_IFACE)
} wl;

static pthread_once_t wl_once = PTHREAD_ONCE_INIT;

/* Loaded once, for the life of the process (see wsi_x11.c). */
static void
wl_load(void)
{
	void *lib = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		icd_log("Wayland presentation is off: libwayland-client.so.0: "
		        "%s", dlerror());
		return;
	}
	wl.ok = true;
#define WL_LOAD(f)                                                            \
	if (!(wl.f = (__typeof__(wl.f))dlsym(lib, #f))) {                     \
		icd_log("Wayland: %s not found", #f);                         \
		wl.ok = false;                                                \
	}
	WL_FUNCS(WL_LOAD)
	WL_INTERFACES(WL_LOAD)
}

static bool
wl_loaded(void)
{
	pthread_once(&wl_once, wl_load);
	return wl.ok;
}

/* ------------------------------------------------------------------ */
/* Surfaces                                                            */
/* ------------------------------------------------------------------ */

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateWaylandSurfaceKHR(VkInstance instance,
                            const VkWaylandSurfaceCreateInfoKHR *pCreateInfo,
                            const VkAllocationCallbacks *pAllocator,
                            VkSurfaceKHR *pSurface)
{
	struct icd_surface *s = NULL;
	VkResult r = wsi_surface_create(instance, pAllocator,
	                                &wsi_wayland_ops, &s);

	if (r != VK_SUCCESS)
		return r;
	s->wl.display = pCreateInfo->display;
	s->wl.surface = pCreateInfo->surface;
	*pSurface = icd_surface_to_handle(s);
	return VK_SUCCESS;
}

VKAPI_ATTR VkBool32 VKAPI_CALL
icd_GetPhysicalDeviceWaylandPresentationSupportKHR(
	VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
	struct wl_display *display)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	return queueFamilyIndex < pdev->queue_family_count && display &&
	       wl_loaded() && !wl.wl_display_get_error(display);
}

static VkResult
wl_connection_check(struct wl_display *display)
{
	int e;

	if (!display || !wl_loaded())
		return VK_ERROR_SURFACE_LOST_KHR;
	e = wl.wl_display_get_error(display);
	if (e) {
		icd_log("Wayland: the connection to the compositor failed "
		        "(%s): the surface is lost", strerror(e));
		return VK_ERROR_SURFACE_LOST_KHR;
	}
	return VK_SUCCESS;
}

static VkResult
wl_query(struct icd_surface *surface, struct wsi_window *out)
{
	VkResult r = wl_connection_check(surface->wl.display);

	if (r != VK_SUCCESS)
		return r;
	out->current_extent = (VkExtent2D){ UINT32_MAX, UINT32_MAX };
	out->composite_alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR |
	                       VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR;
	return VK_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Swapchains                                                          */
/* ------------------------------------------------------------------ */

#define WL_MAX_BUFFERS (WSI_MAX_IMAGES + 1)
/* How long show() waits for the compositor to release a buffer before it
 * drops the frame (a compositor holds at most one or two). */
#define WL_RELEASE_TIMEOUT_MS 1000

struct wl_sc_buffer {
	struct wl_buffer *buffer;
	uint8_t *pixels;
	bool busy;                    /* attached, not yet released */
};

struct wl_swapchain {
	struct wl_display *display;
	struct wl_event_queue *queue;
	struct wl_display *wrapper;   /* the display, on our queue */
	struct wl_registry *registry;
	struct wl_proxy *shm;
	struct wl_surface *surface;   /* the application's */
	uint32_t format;              /* WL_SHM_FORMAT_* */
	uint8_t *map;
	size_t map_size;
	uint32_t buffer_count;
	struct wl_sc_buffer buffers[WL_MAX_BUFFERS];
};

static void
registry_global(void *data, struct wl_registry *registry, uint32_t name,
                const char *interface, uint32_t version)
{
	struct wl_swapchain *ws = data;

	if (!ws->shm && !strcmp(interface, "wl_shm"))
		ws->shm = wl.wl_proxy_marshal_flags(
			(struct wl_proxy *)registry, WL_REGISTRY_BIND,
			wl.wl_shm_interface, 1, 0, name,
			wl.wl_shm_interface->name, 1, NULL);
}

static void
registry_global_remove(void *data, struct wl_registry *registry,
                       uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

static void
buffer_release(void *data, struct wl_buffer *buffer)
{
	((struct wl_sc_buffer *)data)->busy = false;
}

static const struct wl_buffer_listener buffer_listener = {
	.release = buffer_release,
};

static VkResult
wl_make_buffers(struct wl_swapchain *ws, const struct wsi_swapchain *sc)
{
	int32_t stride = (int32_t)sc->extent.width * 4;
	size_t size = (size_t)stride * sc->extent.height;
	struct wl_proxy *pool;
	int fd;

	ws->buffer_count = sc->image_count + 1;
	ws->map_size = size * ws->buffer_count;
	fd = memfd_create("swgpu-wsi", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)ws->map_size) < 0) {
		icd_log("Wayland: shared memory of %zu bytes: %s",
		        ws->map_size, strerror(errno));
		if (fd >= 0)
			close(fd);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	ws->map = mmap(NULL, ws->map_size, PROT_READ | PROT_WRITE,
	               MAP_SHARED, fd, 0);
	if (ws->map == MAP_FAILED) {
		ws->map = NULL;
		close(fd);
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "Wayland mmap");
	}
	pool = wl.wl_proxy_marshal_flags(ws->shm, WL_SHM_CREATE_POOL,
	                                 wl.wl_shm_pool_interface, 1, 0, NULL,
	                                 fd, (int32_t)ws->map_size);
	close(fd);  /* the compositor has its own copy of the fd */
	for (uint32_t i = 0; i < ws->buffer_count; i++) {
		struct wl_sc_buffer *b = &ws->buffers[i];

		b->pixels = ws->map + i * size;
		b->buffer = (struct wl_buffer *)wl.wl_proxy_marshal_flags(
			pool, WL_SHM_POOL_CREATE_BUFFER, wl.wl_buffer_interface,
			1, 0, NULL, (int32_t)(i * size),
			(int32_t)sc->extent.width, (int32_t)sc->extent.height,
			stride, ws->format);
		if (b->buffer)
			wl.wl_proxy_add_listener((struct wl_proxy *)b->buffer,
			                         (void (**)(void))&buffer_listener,
			                         b);
	}
	/* The buffers keep the pool's memory. */
	wl.wl_proxy_marshal_flags(pool, WL_SHM_POOL_DESTROY, NULL, 1,
	                          WL_MARSHAL_FLAG_DESTROY);
	wl.wl_display_flush(ws->display);
	return VK_SUCCESS;
}

static VkResult
wl_init(struct wsi_swapchain *sc)
{
	struct icd_surface *s = sc->surface;
	struct wl_swapchain *ws;
	VkResult r = wl_connection_check(s->wl.display);

	if (r != VK_SUCCESS)
		return r;
	ws = icd_zalloc(NULL, &sc->alloc, sizeof(*ws), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!ws)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
		                 "Wayland swapchain");
	sc->platform = ws;
	ws->display = s->wl.display;
	ws->surface = s->wl.surface;
	ws->format = sc->composite_alpha ==
	             VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR
	             ? WL_SHM_FORMAT_ARGB8888 : WL_SHM_FORMAT_XRGB8888;
	ws->queue = wl.wl_display_create_queue(ws->display);
	ws->wrapper = wl.wl_proxy_create_wrapper(ws->display);
	if (!ws->queue || !ws->wrapper)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "Wayland queue");
	wl.wl_proxy_set_queue((struct wl_proxy *)ws->wrapper, ws->queue);
	ws->registry = (struct wl_registry *)wl.wl_proxy_marshal_flags(
		(struct wl_proxy *)ws->wrapper, WL_DISPLAY_GET_REGISTRY,
		wl.wl_registry_interface, 1, 0, NULL);
	if (!ws->registry)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
		                 "Wayland registry");
	wl.wl_proxy_add_listener((struct wl_proxy *)ws->registry,
	                         (void (**)(void))&registry_listener, ws);
	if (wl.wl_display_roundtrip_queue(ws->display, ws->queue) < 0)
		return wl_connection_check(ws->display) != VK_SUCCESS
		       ? VK_ERROR_SURFACE_LOST_KHR
		       : VK_ERROR_INITIALIZATION_FAILED;
	if (!ws->shm) {
		icd_log("vkCreateSwapchainKHR: the compositor has no wl_shm");
		return VK_ERROR_INITIALIZATION_FAILED;
	}
	/* XRGB8888 and ARGB8888 are formats every compositor must take. */
	return wl_make_buffers(ws, sc);
}

static void
wl_finish(struct wsi_swapchain *sc)
{
	struct wl_swapchain *ws = sc->platform;

	if (!ws)
		return;
	for (uint32_t i = 0; i < ws->buffer_count; i++)
		if (ws->buffers[i].buffer)
			wl.wl_proxy_marshal_flags(
				(struct wl_proxy *)ws->buffers[i].buffer,
				WL_BUFFER_DESTROY, NULL, 1,
				WL_MARSHAL_FLAG_DESTROY);
	if (ws->shm)
		wl.wl_proxy_destroy(ws->shm);
	if (ws->registry)
		wl.wl_proxy_destroy((struct wl_proxy *)ws->registry);
	if (ws->wrapper)
		wl.wl_proxy_wrapper_destroy(ws->wrapper);
	if (ws->queue) {
		wl.wl_display_flush(ws->display);
		wl.wl_event_queue_destroy(ws->queue);
	}
	if (ws->map)
		munmap(ws->map, ws->map_size);
	icd_free(NULL, &sc->alloc, ws);
	sc->platform = NULL;
}

/* Read and dispatch our queue's events, waiting at most timeout_ms for
 * some to arrive. False when the connection failed. */
static bool
wl_dispatch(struct wl_swapchain *ws, int timeout_ms)
{
	struct pollfd pfd = { .fd = wl.wl_display_get_fd(ws->display),
	                      .events = POLLIN };

	while (wl.wl_display_prepare_read_queue(ws->display, ws->queue) != 0)
		if (wl.wl_display_dispatch_queue_pending(ws->display,
		                                         ws->queue) < 0)
			return false;
	wl.wl_display_flush(ws->display);
	if (poll(&pfd, 1, timeout_ms) > 0) {
		if (wl.wl_display_read_events(ws->display) < 0)
			return false;
	} else {
		wl.wl_display_cancel_read(ws->display);
	}
	return wl.wl_display_dispatch_queue_pending(ws->display,
	                                            ws->queue) >= 0;
}

static struct wl_sc_buffer *
wl_free_buffer(struct wl_swapchain *ws)
{
	for (uint32_t i = 0; i < ws->buffer_count; i++)
		if (ws->buffers[i].buffer && !ws->buffers[i].busy)
			return &ws->buffers[i];
	return NULL;
}

static VkResult
wl_show(struct wsi_swapchain *sc, const struct wsi_frame *f)
{
	struct wl_swapchain *ws = sc->platform;
	uint64_t deadline = swgpu_now_ns() +
	                    WL_RELEASE_TIMEOUT_MS * UINT64_C(1000000);
	size_t stride = (size_t)f->extent.width * 4;
	struct wl_sc_buffer *b;
	bool damage_buffer;

	if (!wl_dispatch(ws, 0))
		return wl_connection_check(ws->display);
	while (!(b = wl_free_buffer(ws))) {
		if (swgpu_now_ns() >= deadline) {
			icd_log("Wayland: the compositor released no buffer "
			        "in %d ms: frame dropped", WL_RELEASE_TIMEOUT_MS);
			return VK_SUCCESS;
		}
		if (!wl_dispatch(ws, 10))
			return wl_connection_check(ws->display);
	}
	for (uint32_t y = 0; y < f->extent.height; y++)
		memcpy(b->pixels + y * stride, f->pixels + y * f->row_pitch,
		       stride);
	b->busy = true;
	wl.wl_proxy_marshal_flags((struct wl_proxy *)ws->surface,
	                          WL_SURFACE_ATTACH, NULL,
	                          wl.wl_proxy_get_version(
	                                  (struct wl_proxy *)ws->surface),
	                          0, b->buffer, 0, 0);
	damage_buffer = wl.wl_proxy_get_version((struct wl_proxy *)ws->surface)
	                >= WL_SURFACE_DAMAGE_BUFFER_SINCE_VERSION;
	for (uint32_t i = 0; i < (f->rect_count ? f->rect_count : 1); i++) {
		VkRect2D r = f->rect_count ? f->rects[i]
		             : (VkRect2D){ { 0, 0 }, f->extent };

		if (!r.extent.width || !r.extent.height)
			continue;
		/* Without a scale or transform, buffer and surface
		 * coordinates are the same. */
		wl.wl_proxy_marshal_flags(
			(struct wl_proxy *)ws->surface,
			damage_buffer ? WL_SURFACE_DAMAGE_BUFFER
			              : WL_SURFACE_DAMAGE, NULL,
			wl.wl_proxy_get_version((struct wl_proxy *)ws->surface),
			0, r.offset.x, r.offset.y, (int32_t)r.extent.width,
			(int32_t)r.extent.height);
	}
	wl.wl_proxy_marshal_flags((struct wl_proxy *)ws->surface,
	                          WL_SURFACE_COMMIT, NULL,
	                          wl.wl_proxy_get_version(
	                                  (struct wl_proxy *)ws->surface),
	                          0);
	/* EAGAIN keeps the rest buffered for the next flush. */
	wl.wl_display_flush(ws->display);
	return wl_connection_check(ws->display);
}

const struct wsi_platform_ops wsi_wayland_ops = {
	.name = "wayland",
	.query = wl_query,
	.init = wl_init,
	.finish = wl_finish,
	.show = wl_show,
};
