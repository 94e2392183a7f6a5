/* SPDX-License-Identifier: MIT */
/*
 * wsi_test, window side: test windows of each platform and their
 * surfaces, screenshots, resizing, destroying a window, breaking the
 * connection. See wsi_test.h.
 *
 * X11 windows have no window manager around them (Xvfb): they appear at
 * (0, 0) with exactly the asked size, and GetImage of the window returns
 * what the screen shows there. Wayland windows are xdg_toplevels (weston
 * --backend=headless-backend.so); weston places them where it likes, and
 * its screenshooter (weston --debug, WESTON_SCREENSHOOTER=1) shows the
 * whole screen, so a Wayland "screenshot" is whether the expected pixels
 * appear as one block anywhere on it.
 */
#define VK_USE_PLATFORM_XCB_KHR
#define VK_USE_PLATFORM_XLIB_KHR
#ifdef WT_HAVE_WAYLAND
#define VK_USE_PLATFORM_WAYLAND_KHR
#endif
#include "wsi_test.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <xcb/xcb.h>
#ifdef WT_HAVE_WAYLAND
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include <dirent.h>
#include <png.h>
#include <unistd.h>
#endif

struct wt_native {
	/* X11 (Xlib windows use the Display's xcb connection too) */
	xcb_connection_t *conn;
	xcb_window_t window;
	Display *dpy;
#ifdef WT_HAVE_WAYLAND
	struct wl_display *wl;
	struct wl_compositor *compositor;
	struct xdg_wm_base *wm_base;
	struct wl_surface *wl_surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	bool configured;
#endif
};

/* ------------------------------------------------------------------ */
/* X11                                                                 */
/* ------------------------------------------------------------------ */

/* A request with a reply: everything sent before it has been done. */
static void
x11_sync(xcb_connection_t *conn)
{
	free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
}

/* Counts X errors instead of exiting (Xlib's default). */
static int x11_errors;

static int
x11_error_handler(Display *dpy, XErrorEvent *e)
{
	x11_errors++;
	fprintf(stderr, "[wsi] X error %d, request %d.%d (ignored)\n",
	        e->error_code, e->request_code, e->minor_code);
	return 0;
}

static VkResult
x11_open(struct vkh *h, struct wt_window *w, struct wt_native *n)
{
	uint32_t black = 0;
	xcb_screen_t *screen;

	if (wt_platform == WT_XLIB) {
		n->dpy = XOpenDisplay(NULL);
		if (!n->dpy) {
			fprintf(stderr, "[wsi] XOpenDisplay failed\n");
			return VK_ERROR_INITIALIZATION_FAILED;
		}
		/* swgpu must never make the application's Xlib see an
		 * error (the default handler exits, which fails the test).
		 * lavapipe 22.3 sends a DRI3 request Xvfb refuses: its
		 * errors are only counted. */
		if (!h->is_swgpu)
			XSetErrorHandler(x11_error_handler);
		n->conn = XGetXCBConnection(n->dpy);
	} else {
		n->conn = xcb_connect(NULL, NULL);
		if (xcb_connection_has_error(n->conn)) {
			fprintf(stderr, "[wsi] xcb_connect: error %d\n",
			        xcb_connection_has_error(n->conn));
			xcb_disconnect(n->conn);
			n->conn = NULL;
			return VK_ERROR_INITIALIZATION_FAILED;
		}
	}
	screen = xcb_setup_roots_iterator(xcb_get_setup(n->conn)).data;
	n->window = xcb_generate_id(n->conn);
	xcb_create_window(n->conn, XCB_COPY_FROM_PARENT, n->window,
	                  screen->root, 0, 0, (uint16_t)w->width,
	                  (uint16_t)w->height, 0,
	                  XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
	                  XCB_CW_BACK_PIXEL, &black);
	xcb_map_window(n->conn, n->window);
	x11_sync(n->conn);

	if (wt_platform == WT_XLIB) {
		VkXlibSurfaceCreateInfoKHR ci = {
			.sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR,
			.dpy = n->dpy,
			.window = n->window,
		};
		return vkCreateXlibSurfaceKHR(h->instance, &ci, NULL,
		                              &w->surface);
	}
	VkXcbSurfaceCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR,
		.connection = n->conn,
		.window = n->window,
	};
	return vkCreateXcbSurfaceKHR(h->instance, &ci, NULL, &w->surface);
}

static void
x11_close(struct wt_native *n)
{
	if (!n->conn)
		return;
	if (!xcb_connection_has_error(n->conn) && n->window) {
		xcb_destroy_window(n->conn, n->window);
		xcb_flush(n->conn);
	}
	if (n->dpy)
		XCloseDisplay(n->dpy);
	else
		xcb_disconnect(n->conn);
}

/* ------------------------------------------------------------------ */
/* Wayland                                                             */
/* ------------------------------------------------------------------ */

#ifdef WT_HAVE_WAYLAND
static void
wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_ping,
};

static void
xdg_surface_configure(void *data, struct xdg_surface *s, uint32_t serial)
{
	struct wt_native *n = data;

	xdg_surface_ack_configure(s, serial);
	n->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
	.configure = xdg_surface_configure,
};

static void
toplevel_configure(void *data, struct xdg_toplevel *t, int32_t width,
                   int32_t height, struct wl_array *states)
{
}

static void
toplevel_close(void *data, struct xdg_toplevel *t)
{
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

static void
registry_global(void *data, struct wl_registry *reg, uint32_t name,
                const char *interface, uint32_t version)
{
	struct wt_native *n = data;

	if (!strcmp(interface, wl_compositor_interface.name))
		n->compositor = wl_registry_bind(reg, name,
		                                 &wl_compositor_interface,
		                                 version < 4 ? version : 4);
	else if (!strcmp(interface, xdg_wm_base_interface.name))
		n->wm_base = wl_registry_bind(reg, name,
		                              &xdg_wm_base_interface, 1);
}

static void
registry_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_remove,
};

static VkResult
wl_open(struct vkh *h, struct wt_window *w, struct wt_native *n)
{
	struct wl_registry *reg;

	n->wl = wl_display_connect(NULL);
	if (!n->wl)
		return VK_ERROR_INITIALIZATION_FAILED;
	reg = wl_display_get_registry(n->wl);
	wl_registry_add_listener(reg, &registry_listener, n);
	wl_display_roundtrip(n->wl);
	wl_registry_destroy(reg);
	if (!n->compositor || !n->wm_base)
		return VK_ERROR_INITIALIZATION_FAILED;
	xdg_wm_base_add_listener(n->wm_base, &wm_base_listener, n);
	n->wl_surface = wl_compositor_create_surface(n->compositor);
	n->xdg_surface = xdg_wm_base_get_xdg_surface(n->wm_base,
	                                             n->wl_surface);
	xdg_surface_add_listener(n->xdg_surface, &xdg_surface_listener, n);
	n->toplevel = xdg_surface_get_toplevel(n->xdg_surface);
	xdg_toplevel_add_listener(n->toplevel, &toplevel_listener, n);
	xdg_toplevel_set_title(n->toplevel, "swgpu wsi test");
	wl_surface_commit(n->wl_surface);
	while (!n->configured)
		if (wl_display_dispatch(n->wl) < 0)
			return VK_ERROR_INITIALIZATION_FAILED;

	VkWaylandSurfaceCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR,
		.display = n->wl,
		.surface = n->wl_surface,
	};
	return vkCreateWaylandSurfaceKHR(h->instance, &ci, NULL, &w->surface);
}

static void
wl_close(struct wt_native *n)
{
	if (!n->wl)
		return;
	if (n->toplevel)
		xdg_toplevel_destroy(n->toplevel);
	if (n->xdg_surface)
		xdg_surface_destroy(n->xdg_surface);
	if (n->wl_surface)
		wl_surface_destroy(n->wl_surface);
	if (n->wm_base)
		xdg_wm_base_destroy(n->wm_base);
	if (n->compositor)
		wl_compositor_destroy(n->compositor);
	wl_display_flush(n->wl);
	wl_display_disconnect(n->wl);
}
#endif

/* ------------------------------------------------------------------ */
/* Common                                                              */
/* ------------------------------------------------------------------ */

VkResult
wt_window_open(struct vkh *h, uint32_t width, uint32_t height,
               struct wt_window *w)
{
	struct wt_native *n = calloc(1, sizeof(*n));
	VkResult r = VK_ERROR_INITIALIZATION_FAILED;

	memset(w, 0, sizeof(*w));
	w->width = width;
	w->height = height;
	w->native = n;
	switch (wt_platform) {
	case WT_HEADLESS: {
		VkHeadlessSurfaceCreateInfoEXT ci = {
			.sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT,
		};
		PFN_vkCreateHeadlessSurfaceEXT create =
			(PFN_vkCreateHeadlessSurfaceEXT)vkGetInstanceProcAddr(
				h->instance, "vkCreateHeadlessSurfaceEXT");

		r = create ? create(h->instance, &ci, NULL, &w->surface)
		           : VK_ERROR_EXTENSION_NOT_PRESENT;
		break;
	}
	case WT_XCB:
	case WT_XLIB:
		r = x11_open(h, w, n);
		break;
	case WT_WAYLAND:
#ifdef WT_HAVE_WAYLAND
		r = wl_open(h, w, n);
#endif
		break;
	}
	if (r != VK_SUCCESS) {
		fprintf(stderr, "[wsi] cannot open a window: %s\n",
		        vkh_result_str(r));
		wt_window_close(h, w);
	}
	return r;
}

void
wt_window_close(struct vkh *h, struct wt_window *w)
{
	struct wt_native *n = w->native;

	vkDestroySurfaceKHR(h->instance, w->surface, NULL);
	w->surface = VK_NULL_HANDLE;
	if (!n)
		return;
	x11_close(n);
#ifdef WT_HAVE_WAYLAND
	wl_close(n);
#endif
	free(n);
	w->native = NULL;
}

void
wt_window_resize(struct wt_window *w, uint32_t width, uint32_t height)
{
	struct wt_native *n = w->native;
	uint32_t size[2] = { width, height };

	if (!n->conn)
		return;
	xcb_configure_window(n->conn, n->window,
	                     XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
	                     size);
	x11_sync(n->conn);
	w->width = width;
	w->height = height;
}

void
wt_window_destroy_native(struct wt_window *w)
{
	struct wt_native *n = w->native;

	if (!n->conn)
		return;
	xcb_destroy_window(n->conn, n->window);
	x11_sync(n->conn);
	n->window = 0;
}

void
wt_window_break_connection(struct wt_window *w)
{
	struct wt_native *n = w->native;

	if (n->conn)
		shutdown(xcb_get_file_descriptor(n->conn), SHUT_RDWR);
#ifdef WT_HAVE_WAYLAND
	if (n->wl)
		shutdown(wl_display_get_fd(n->wl), SHUT_RDWR);
#endif
}

#ifdef WT_HAVE_WAYLAND
/*
 * The whole screen of weston (started with --debug, which offers its
 * screenshooter to clients): weston-screenshooter writes a PNG into the
 * current directory; it is read back as 0x00RRGGBB words.
 */
static uint32_t *
wl_screen(uint32_t *sw, uint32_t *sh)
{
	char dir[] = "/tmp/swgpu-shot.XXXXXX", cmd[256], path[300];
	png_image png;
	uint32_t *px = NULL;
	struct dirent *e;
	DIR *dp;

	if (!mkdtemp(dir))
		return NULL;
	snprintf(cmd, sizeof(cmd), "cd %s && timeout 10 weston-screenshooter "
	         ">/dev/null 2>&1", dir);
	if (system(cmd) != 0)
		goto out;
	dp = opendir(dir);
	path[0] = 0;
	while (dp && (e = readdir(dp)))
		if (strstr(e->d_name, ".png"))
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
	if (dp)
		closedir(dp);
	memset(&png, 0, sizeof(png));
	png.version = PNG_IMAGE_VERSION;
	if (!path[0] || !png_image_begin_read_from_file(&png, path))
		goto out;
	png.format = PNG_FORMAT_BGRA;
	px = malloc(PNG_IMAGE_SIZE(png));
	if (px && !png_image_finish_read(&png, NULL, px, 0, NULL)) {
		free(px);
		px = NULL;
	}
	*sw = png.width;
	*sh = png.height;
	for (size_t i = 0; px && i < (size_t)png.width * png.height; i++)
		px[i] &= 0xffffff;
	if (path[0])
		unlink(path);
out:
	rmdir(dir);
	return px;
}

/* Where on the screen is the w x h block `want` (alpha ignored)? */
static bool
find_block(const uint32_t *scr, uint32_t sw, uint32_t sh, const uint32_t *want,
           uint32_t w, uint32_t h)
{
	for (uint32_t y0 = 0; y0 + h <= sh; y0++) {
		for (uint32_t x0 = 0; x0 + w <= sw; x0++) {
			bool same = true;

			for (uint32_t y = 0; same && y < h; y++)
				for (uint32_t x = 0; same && x < w; x++)
					same = scr[(size_t)(y0 + y) * sw + x0 +
					           x] ==
					       (want[(size_t)y * w + x] &
					        0xffffff);
			if (same)
				return true;
		}
	}
	return false;
}
#endif

bool
wt_screenshot(struct wt_window *w, const uint32_t *hint, uint32_t *out)
{
	struct wt_native *n = w->native;
	xcb_get_image_reply_t *img;

	if (!n)
		return false;
#ifdef WT_HAVE_WAYLAND
	if (n->wl) {
		uint32_t sw = 0, sh = 0, *scr;
		bool found;

		if (!hint || !getenv("WESTON_SCREENSHOOTER"))
			return false;
		scr = wl_screen(&sw, &sh);
		if (!scr)
			return false;
		found = find_block(scr, sw, sh, hint, w->width, w->height);
		free(scr);
		if (found)
			memcpy(out, hint, (size_t)w->width * w->height * 4);
		else
			memset(out, 0, (size_t)w->width * w->height * 4);
		return true;
	}
#endif
	if (!n->conn)
		return false;
	img = xcb_get_image_reply(n->conn,
	                          xcb_get_image(n->conn,
	                                        XCB_IMAGE_FORMAT_Z_PIXMAP,
	                                        n->window, 0, 0,
	                                        (uint16_t)w->width,
	                                        (uint16_t)w->height, ~0u),
	                          NULL);
	if (!img)
		return false;
	if ((size_t)xcb_get_image_data_length(img) <
	    (size_t)w->width * w->height * 4) {
		free(img);
		return false;
	}
	memcpy(out, xcb_get_image_data(img), (size_t)w->width * w->height * 4);
	free(img);
	return true;
}
