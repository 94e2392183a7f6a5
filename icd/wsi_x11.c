/* SPDX-License-Identifier: MIT */
/*
 * wsi_x11.c — X11 windows, from xcb (VK_KHR_xcb_surface) or Xlib
 * (VK_KHR_xlib_surface: the Display's xcb connection, XGetXCBConnection).
 *
 * An image reaches the window through MIT-SHM when the server has it and
 * can attach our segments (a local server): each swapchain image's memory
 * is a SysV shared-memory segment of its own attached to the server
 * (image_pages; the device imports it as host memory), and show sends
 * ShmPutImage of the damaged rectangles straight from it, so the pixels
 * are neither copied nor sent. An image the device could not import
 * (shared mode: swgpud cannot reach our pages) has memory of its own: the
 * presenter copies its damaged rows into one more segment the size of the
 * image and puts from there. Otherwise
 * (a remote server, or one without the extension) PutImage requests carry
 * them, split into bands that fit the maximum request length. Either way
 * show() ends with a GetGeometry round trip: its reply proves the server
 * has read the segment (requests run in order), so the next frame may
 * overwrite it, and tells whether the window still has the swapchain's
 * size (VK_ERROR_OUT_OF_DATE_KHR) or still exists
 * (VK_ERROR_SURFACE_LOST_KHR).
 *
 * Every request without a reply is sent "checked" and its error, if any,
 * discarded (xcb_discard_reply): an unchecked request's error would go to
 * the application's event queue, and Xlib's default error handler exits
 * the process — for a window the application destroyed under us. What
 * went wrong is learnt from the GetGeometry reply instead.
 *
 * Windows must be TrueColor, depth 24 or 32, with the red/green/blue masks
 * 0xff0000/0xff00/0xff and 32-bit ZPixmap pixels — the byte layout of
 * B8G8R8A8 — as nearly every X server's default visual is.
 *
 * libxcb, libxcb-shm and libX11-xcb are loaded at run time (dlopen) the
 * first time an X11 surface needs them: the driver itself must load on a
 * machine without any X library (compute servers, containers), and an
 * application that creates an X11 surface has libxcb (or libX11) loaded
 * already. Without the libraries, X11 surfaces are lost, with a log line.
 */
#define VK_USE_PLATFORM_XCB_KHR
#define VK_USE_PLATFORM_XLIB_KHR
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <X11/Xlib-xcb.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include "wsi.h"

/* ------------------------------------------------------------------ */
/* The libraries, loaded once                                          */
/* ------------------------------------------------------------------ */

#define X11_XCB_FUNCS(X)                                                      \
	X(xcb_connection_has_error)                                           \
	X(xcb_get_setup)                                                      \
	X(xcb_setup_roots_iterator)                                           \
	X(xcb_screen_next)                                                    \
	X(xcb_screen_allowed_depths_iterator)                                 \
	X(xcb_depth_next)                                                     \
	X(xcb_depth_visuals_iterator)                                         \
	X(xcb_visualtype_next)                                                \
	X(xcb_setup_pixmap_formats_iterator)                                  \
	X(xcb_format_next)                                                    \
	X(xcb_get_geometry)                                                   \
	X(xcb_get_geometry_reply)                                             \
	X(xcb_get_window_attributes)                                          \
	X(xcb_get_window_attributes_reply)                                    \
	X(xcb_generate_id)                                                    \
	X(xcb_create_gc_checked)                                              \
	X(xcb_free_gc_checked)                                                \
	X(xcb_put_image_checked)                                              \
	X(xcb_discard_reply)                                                  \
	X(xcb_flush)                                                          \
	X(xcb_get_maximum_request_length)                                     \
	X(xcb_get_extension_data)                                             \
	X(xcb_request_check)

#define X11_SHM_FUNCS(X)                                                      \
	X(xcb_shm_attach_checked)                                             \
	X(xcb_shm_detach_checked)                                             \
	X(xcb_shm_put_image_checked)

#define X11_DECLARE(f) __typeof__(f) *f;

static struct {
	bool xcb_ok, shm_ok;
	X11_XCB_FUNCS(X11_DECLARE)
	X11_SHM_FUNCS(X11_DECLARE)
	xcb_extension_t *xcb_shm_id;
	__typeof__(XGetXCBConnection) *XGetXCBConnection;
} x11;

static pthread_once_t x11_once = PTHREAD_ONCE_INIT;

static void *
x11_sym(void *lib, const char *name, bool *ok)
{
	void *f = lib ? dlsym(lib, name) : NULL;


	if (lib && !f) {
		icd_log("X11: %s not found: %s", name, dlerror());
		*ok = false;
	}
	return f;
}

/* The libraries stay loaded for the life of the process: presenter
 * threads and the application's own use of them outlive any object. */
static void
x11_load(void)
{
	void *xcb = dlopen("libxcb.so.1", RTLD_NOW | RTLD_LOCAL);
	void *shm = dlopen("libxcb-shm.so.0", RTLD_NOW | RTLD_LOCAL);
	void *x11_xcb = dlopen("libX11-xcb.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!xcb) {
		icd_log("X11 presentation is off: libxcb.so.1: %s", dlerror());
		return;
	}
	x11.xcb_ok = true;
#define X11_LOAD_XCB(f)                                                       \
	x11.f = (__typeof__(x11.f))x11_sym(xcb, #f, &x11.xcb_ok);
	X11_XCB_FUNCS(X11_LOAD_XCB)
	x11.shm_ok = shm != NULL;
#define X11_LOAD_SHM(f)                                                       \
	x11.f = (__typeof__(x11.f))x11_sym(shm, #f, &x11.shm_ok);
	X11_SHM_FUNCS(X11_LOAD_SHM)
	x11.xcb_shm_id = x11_sym(shm, "xcb_shm_id", &x11.shm_ok);
	if (x11_xcb)
		x11.XGetXCBConnection = (__typeof__(XGetXCBConnection) *)
			dlsym(x11_xcb, "XGetXCBConnection");
}

static bool
x11_loaded(void)
{
	pthread_once(&x11_once, x11_load);
	return x11.xcb_ok;
}

/* A checked request whose error nobody wants (see the top). */
static void
x11_discard(xcb_connection_t *conn, xcb_void_cookie_t cookie)
{
	x11.xcb_discard_reply(conn, cookie.sequence);
}

/* ------------------------------------------------------------------ */
/* Visuals                                                             */
/* ------------------------------------------------------------------ */

/* Is visual (of a window of depth) one whose pixels are B8G8R8A8? */
static bool
x11_visual_ok(xcb_connection_t *conn, xcb_visualid_t visual, uint8_t *depth)
{
	const xcb_setup_t *setup = x11.xcb_get_setup(conn);
	bool pixmap_32bpp[33] = { false };

	for (xcb_format_iterator_t f =
	             x11.xcb_setup_pixmap_formats_iterator(setup);
	     f.rem; x11.xcb_format_next(&f))
		if (f.data->depth <= 32)
			pixmap_32bpp[f.data->depth] =
				f.data->bits_per_pixel == 32 &&
				f.data->scanline_pad == 32;
	for (xcb_screen_iterator_t s = x11.xcb_setup_roots_iterator(setup);
	     s.rem; x11.xcb_screen_next(&s)) {
		for (xcb_depth_iterator_t d =
		             x11.xcb_screen_allowed_depths_iterator(s.data);
		     d.rem; x11.xcb_depth_next(&d)) {
			for (xcb_visualtype_iterator_t v =
			             x11.xcb_depth_visuals_iterator(d.data);
			     v.rem; x11.xcb_visualtype_next(&v)) {
				const xcb_visualtype_t *t = v.data;

				if (t->visual_id != visual)
					continue;
				if (depth)
					*depth = d.data->depth;
				return (d.data->depth == 24 ||
				        d.data->depth == 32) &&
				       pixmap_32bpp[d.data->depth] &&
				       t->_class == XCB_VISUAL_CLASS_TRUE_COLOR &&
				       t->red_mask == 0xff0000 &&
				       t->green_mask == 0xff00 &&
				       t->blue_mask == 0xff;
			}
		}
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Surfaces                                                            */
/* ------------------------------------------------------------------ */

static VkResult
x11_create_surface(VkInstance instance, const VkAllocationCallbacks *alloc,
                   xcb_connection_t *conn, xcb_window_t window, bool xlib,
                   VkSurfaceKHR *out)
{
	struct icd_surface *s = NULL;
	VkResult r = wsi_surface_create(instance, alloc, &wsi_x11_ops, &s);

	if (r != VK_SUCCESS)
		return r;
	s->x11.conn = conn;
	s->x11.window = window;
	s->x11.xlib = xlib;
	*out = icd_surface_to_handle(s);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateXcbSurfaceKHR(VkInstance instance,
                        const VkXcbSurfaceCreateInfoKHR *pCreateInfo,
                        const VkAllocationCallbacks *pAllocator,
                        VkSurfaceKHR *pSurface)
{
	return x11_create_surface(instance, pAllocator,
	                          pCreateInfo->connection,
	                          pCreateInfo->window, false, pSurface);
}

/* The Display's xcb connection: Xlib and xcb share the socket and keep
 * their request sequence in step, so the presenter thread may use it
 * while the application draws with Xlib. */
static xcb_connection_t *
x11_xlib_connection(Display *dpy)
{
	if (!x11_loaded() || !x11.XGetXCBConnection) {
		icd_log("X11: libX11-xcb.so.1 (XGetXCBConnection) is missing: "
		        "Xlib surfaces cannot present");
		return NULL;
	}
	return x11.XGetXCBConnection(dpy);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateXlibSurfaceKHR(VkInstance instance,
                         const VkXlibSurfaceCreateInfoKHR *pCreateInfo,
                         const VkAllocationCallbacks *pAllocator,
                         VkSurfaceKHR *pSurface)
{
	/* A NULL connection makes the surface lost at its first query. */
	return x11_create_surface(instance, pAllocator,
	                          x11_xlib_connection(pCreateInfo->dpy),
	                          (xcb_window_t)pCreateInfo->window, true,
	                          pSurface);
}

VKAPI_ATTR VkBool32 VKAPI_CALL
icd_GetPhysicalDeviceXcbPresentationSupportKHR(
	VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
	xcb_connection_t *connection, xcb_visualid_t visual_id)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	return queueFamilyIndex < pdev->queue_family_count && connection &&
	       x11_loaded() && !x11.xcb_connection_has_error(connection) &&
	       x11_visual_ok(connection, visual_id, NULL);
}

VKAPI_ATTR VkBool32 VKAPI_CALL
icd_GetPhysicalDeviceXlibPresentationSupportKHR(
	VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
	Display *dpy, VisualID visualID)
{
	return icd_GetPhysicalDeviceXcbPresentationSupportKHR(
		physicalDevice, queueFamilyIndex, x11_xlib_connection(dpy),
		(xcb_visualid_t)visualID);
}

/* The window's geometry (NULL with a log line: no window, no server). */
static xcb_get_geometry_reply_t *
x11_geometry(xcb_connection_t *conn, xcb_window_t window)
{
	xcb_generic_error_t *err = NULL;
	xcb_get_geometry_reply_t *g;

	if (x11.xcb_connection_has_error(conn)) {
		icd_log("X11: the connection to the X server is broken: the "
		        "surface is lost");
		return NULL;
	}
	g = x11.xcb_get_geometry_reply(conn, x11.xcb_get_geometry(conn,
	                                                          window),
	                               &err);
	if (!g) {
		icd_log("X11: window 0x%x is gone (error %d): the surface is "
		        "lost", window, err ? err->error_code : -1);
		free(err);
	}
	return g;
}

static VkResult
x11_query(struct icd_surface *surface, struct wsi_window *out)
{
	xcb_get_geometry_reply_t *g;

	if (!surface->x11.conn || !x11_loaded())
		return VK_ERROR_SURFACE_LOST_KHR;
	g = x11_geometry(surface->x11.conn, surface->x11.window);
	if (!g)
		return VK_ERROR_SURFACE_LOST_KHR;
	out->current_extent = (VkExtent2D){ g->width, g->height };
	out->composite_alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
	free(g);
	return VK_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Swapchains                                                          */
/* ------------------------------------------------------------------ */

/* A SysV shared-memory segment attached to the server as seg. */
struct x11_segment {
	xcb_shm_seg_t seg;
	uint8_t *addr;
	size_t size;
};

struct x11_swapchain {
	xcb_connection_t *conn;
	xcb_window_t window;
	xcb_gcontext_t gc;
	uint8_t depth;
	/* MIT-SHM: a segment of the image's size, attached to the server,
	 * that images not in segments of their own are copied to */
	bool shm;
	struct x11_segment copy;
	/* image_pages: swapchain image i's memory (addr NULL: none) */
	struct x11_segment image[WSI_MAX_IMAGES];
	/* PutImage: the largest request, and a buffer for packed rows */
	size_t max_request_bytes;
	uint8_t *rows;
};

/* Attach a segment of size bytes to the server; false (and nothing
 * allocated) when the server cannot, e.g. it runs on another machine. */
static bool
x11_shm_attach(struct x11_swapchain *xs, size_t size, struct x11_segment *sg)
{
	const xcb_query_extension_reply_t *ext;
	xcb_generic_error_t *err;
	int id;

	if (!x11.shm_ok)
		return false;
	ext = x11.xcb_get_extension_data(xs->conn, x11.xcb_shm_id);
	if (!ext || !ext->present)
		return false;
	id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
	if (id < 0)
		return false;
	sg->addr = shmat(id, NULL, 0);
	if (sg->addr == (void *)-1) {
		sg->addr = NULL;
		shmctl(id, IPC_RMID, NULL);
		return false;
	}
	sg->seg = x11.xcb_generate_id(xs->conn);
	err = x11.xcb_request_check(xs->conn, x11.xcb_shm_attach_checked(
		xs->conn, sg->seg, (uint32_t)id, 0));
	/* The segment lives on until both sides have detached it. */
	shmctl(id, IPC_RMID, NULL);
	if (err) {
		free(err);
		shmdt(sg->addr);
		sg->addr = NULL;
		return false;
	}
	sg->size = size;
	return true;
}

/* Detach sg from the server (when the connection still works) and from
 * this process. */
static void
x11_shm_detach(struct x11_swapchain *xs, struct x11_segment *sg, bool conn_ok)
{
	if (!sg->addr)
		return;
	if (conn_ok)
		x11_discard(xs->conn, x11.xcb_shm_detach_checked(xs->conn,
		                                                 sg->seg));
	shmdt(sg->addr);
	sg->addr = NULL;
}

static VkResult
x11_init(struct wsi_swapchain *sc)
{
	struct icd_surface *s = sc->surface;
	xcb_connection_t *conn = s->x11.conn;
	xcb_get_window_attributes_reply_t *attr;
	size_t image_bytes = (size_t)sc->extent.width * sc->extent.height * 4;
	struct x11_swapchain *xs;
	bool visual_ok;

	if (!conn || !x11_loaded() || x11.xcb_connection_has_error(conn))
		return VK_ERROR_SURFACE_LOST_KHR;
	attr = x11.xcb_get_window_attributes_reply(
		conn, x11.xcb_get_window_attributes(conn, s->x11.window), NULL);
	if (!attr) {
		icd_log("X11: window 0x%x is gone: the surface is lost",
		        s->x11.window);
		return VK_ERROR_SURFACE_LOST_KHR;
	}
	xs = icd_zalloc(NULL, &sc->alloc, sizeof(*xs), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!xs) {
		free(attr);
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "X11 swapchain");
	}
	sc->platform = xs;
	xs->conn = conn;
	xs->window = s->x11.window;
	visual_ok = x11_visual_ok(conn, attr->visual, &xs->depth);
	free(attr);
	if (!visual_ok) {
		icd_log("vkCreateSwapchainKHR: window 0x%x has a visual whose "
		        "pixels are not B8G8R8A8 (TrueColor, depth 24/32, "
		        "32-bit pixels)", xs->window);
		return VK_ERROR_INITIALIZATION_FAILED;
	}
	xs->gc = x11.xcb_generate_id(conn);
	x11_discard(conn, x11.xcb_create_gc_checked(conn, xs->gc, xs->window,
	                                            0, NULL));
	xs->shm = x11_shm_attach(xs, image_bytes, &xs->copy);
	if (!xs->shm) {
		xs->max_request_bytes =
			(size_t)x11.xcb_get_maximum_request_length(conn) * 4;
		xs->rows = icd_alloc(NULL, &sc->alloc, image_bytes, 64,
		                     VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
		if (!xs->rows)
			return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
			                 "X11 swapchain rows");
	}
	if (getenv("SWGPU_DEBUG"))
		icd_log("X11: window 0x%x, depth %u, %s", xs->window, xs->depth,
		        xs->shm ? "MIT-SHM" : "PutImage");
	return VK_SUCCESS;
}

static void
x11_finish(struct wsi_swapchain *sc)
{
	struct x11_swapchain *xs = sc->platform;

	if (!xs)
		return;
	const bool conn_ok = !x11.xcb_connection_has_error(xs->conn);

	x11_shm_detach(xs, &xs->copy, conn_ok);
	for (uint32_t i = 0; i < WSI_MAX_IMAGES; i++)
		x11_shm_detach(xs, &xs->image[i], conn_ok);
	if (conn_ok) {
		if (xs->gc)
			x11_discard(xs->conn, x11.xcb_free_gc_checked(
				xs->conn, xs->gc));
		x11.xcb_flush(xs->conn);
	}
	icd_free(NULL, &sc->alloc, xs->rows);
	icd_free(NULL, &sc->alloc, xs);
	sc->platform = NULL;
}

/* A segment for swapchain image index's memory (wsi_platform_ops.
 * image_pages), when the server takes segments. */
static void *
x11_image_pages(struct wsi_swapchain *sc, uint32_t index, size_t size)
{
	struct x11_swapchain *xs = sc->platform;

	if (!xs || !xs->shm || index >= WSI_MAX_IMAGES ||
	    !x11_shm_attach(xs, size, &xs->image[index]))
		return NULL;
	if (getenv("SWGPU_DEBUG"))
		icd_log("X11: image %u: a segment of its own offered as its "
		        "memory (%zu bytes)", index, size);
	return xs->image[index].addr;
}

static void
x11_image_pages_unused(struct wsi_swapchain *sc, uint32_t index)
{
	struct x11_swapchain *xs = sc->platform;

	x11_shm_detach(xs, &xs->image[index],
	               !x11.xcb_connection_has_error(xs->conn));
	if (getenv("SWGPU_DEBUG"))
		icd_log("X11: image %u: the device could not import its "
		        "segment; copied into the swapchain's at each present",
		        index);
}

/* ShmPutImage of rect r of the frame from segment sg, which holds the
 * image at byte offset `offset` with rows `pitch` bytes apart. */
static void
x11_shm_put(struct x11_swapchain *xs, const struct wsi_frame *f,
            const struct x11_segment *sg, size_t offset, size_t pitch,
            const VkRect2D *r)
{
	x11_discard(xs->conn, x11.xcb_shm_put_image_checked(
		xs->conn, xs->window, xs->gc, (uint16_t)(pitch / 4),
		(uint16_t)f->extent.height, (uint16_t)r->offset.x,
		(uint16_t)r->offset.y, (uint16_t)r->extent.width,
		(uint16_t)r->extent.height, (int16_t)r->offset.x,
		(int16_t)r->offset.y, xs->depth, XCB_IMAGE_FORMAT_Z_PIXMAP, 0,
		sg->seg, (uint32_t)offset));
}

/* Does the frame lie, rows and all, in its image's own segment (which
 * ShmPutImage can describe: 4-byte pixels, at most 65535 of them a row)? */
static const struct x11_segment *
x11_frame_segment(const struct x11_swapchain *xs, const struct wsi_frame *f)
{
	const struct x11_segment *sg;

	if (!f->shared || f->image_index >= WSI_MAX_IMAGES)
		return NULL;
	sg = &xs->image[f->image_index];
	if (!sg->addr || f->pixels < sg->addr || f->row_pitch % 4 ||
	    f->row_pitch / 4 > UINT16_MAX ||
	    (size_t)(f->pixels - sg->addr) +
	    (size_t)f->row_pitch * f->extent.height > sg->size)
		return NULL;
	return sg;
}

/* Rows of rect into the segment, at the same place as in the image. */
static void
x11_copy_to_shm(struct x11_swapchain *xs, const struct wsi_frame *f,
                const VkRect2D *r)
{
	size_t stride = (size_t)f->extent.width * 4;

	for (uint32_t y = 0; y < r->extent.height; y++) {
		size_t row = (size_t)r->offset.y + y;

		memcpy(xs->copy.addr + row * stride + (size_t)r->offset.x * 4,
		       f->pixels + row * f->row_pitch + (size_t)r->offset.x * 4,
		       (size_t)r->extent.width * 4);
	}
}

/* PutImage of rect, in bands of rows that fit one request. */
static void
x11_put_rows(struct x11_swapchain *xs, const struct wsi_frame *f,
             const VkRect2D *r)
{
	size_t row_bytes = (size_t)r->extent.width * 4;
	/* The request header is 24 bytes; keep some slack. */
	size_t band = (xs->max_request_bytes - 64) / row_bytes;

	if (band == 0)
		band = 1;  /* cannot happen: the minimum is 16 KiB */
	for (uint32_t y = 0; y < r->extent.height; y += band) {
		uint32_t n = r->extent.height - y < band
		             ? r->extent.height - y : (uint32_t)band;

		for (uint32_t k = 0; k < n; k++)
			memcpy(xs->rows + k * row_bytes,
			       f->pixels + ((size_t)r->offset.y + y + k) *
			                   f->row_pitch +
			       (size_t)r->offset.x * 4, row_bytes);
		x11_discard(xs->conn, x11.xcb_put_image_checked(
			xs->conn, XCB_IMAGE_FORMAT_Z_PIXMAP, xs->window,
			xs->gc, r->extent.width, n, r->offset.x,
			r->offset.y + y, 0, xs->depth, n * row_bytes,
			xs->rows));
	}
}

static VkResult
x11_show(struct wsi_swapchain *sc, const struct wsi_frame *f)
{
	struct x11_swapchain *xs = sc->platform;
	const VkRect2D whole = { { 0, 0 }, f->extent };
	const VkRect2D *rects = f->rect_count ? f->rects : &whole;
	uint32_t n = f->rect_count ? f->rect_count : 1;
	const struct x11_segment *own = xs->shm ? x11_frame_segment(xs, f)
	                                        : NULL;
	xcb_get_geometry_reply_t *g;
	VkResult r = VK_SUCCESS;

	if (x11.xcb_connection_has_error(xs->conn)) {
		icd_log("X11: the connection to the X server is broken: the "
		        "surface is lost");
		return VK_ERROR_SURFACE_LOST_KHR;
	}
	for (uint32_t i = 0; i < n; i++) {
		const VkRect2D *rc = &rects[i];

		if (!rc->extent.width || !rc->extent.height)
			continue;
		if (own) {
			x11_shm_put(xs, f, own,
			            (size_t)(f->pixels - own->addr),
			            (size_t)f->row_pitch, rc);
		} else if (xs->shm) {
			x11_copy_to_shm(xs, f, rc);
			x11_shm_put(xs, f, &xs->copy, 0,
			            (size_t)f->extent.width * 4, rc);
		} else {
			x11_put_rows(xs, f, rc);
		}
	}
	/* Its reply comes after the server has read the segment. */
	g = x11_geometry(xs->conn, xs->window);
	if (!g)
		return VK_ERROR_SURFACE_LOST_KHR;
	if (g->width != f->extent.width || g->height != f->extent.height)
		r = VK_ERROR_OUT_OF_DATE_KHR;
	free(g);
	return r;
}

const struct wsi_platform_ops wsi_x11_ops = {
	.name = "x11",
	.query = x11_query,
	.init = x11_init,
	.finish = x11_finish,
	.image_pages = x11_image_pages,
	.image_pages_unused = x11_image_pages_unused,
	.show = x11_show,
};
