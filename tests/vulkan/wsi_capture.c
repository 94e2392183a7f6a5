/* SPDX-License-Identifier: MIT */
/*
 * wsi_capture — run an X11 program and save the last frame its first
 * window showed, as a PNG:
 *
 *     wsi_capture OUT.png COMMAND [ARGS...]
 *
 * e.g. `wsi_capture cube.png vkcube --c 120` keeps frame 120 of vkcube,
 * whatever driver presents it, so two drivers' frames can be compared
 * texel by texel (make run compares swgpu's with lavapipe's).
 *
 * How: the Composite extension redirects every top-level window into a
 * pixmap of its own (automatic redirection: the screen still shows
 * them). When the program maps its window, wsi_capture names that
 * window's pixmap (NameWindowPixmap): the name keeps the pixmap alive
 * after the program destroys its window on exit, with the last frame in
 * it, and GetImage reads it then. A screenshot taken while the program
 * runs would catch an arbitrary frame.
 *
 * Exit status: the program's; 2 when nothing was captured.
 */
#include <png.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xcb/composite.h>
#include <xcb/xcb.h>

static int
write_png(const char *path, const uint8_t *bgrx, uint32_t w, uint32_t h,
          uint32_t stride)
{
	png_image png;

	memset(&png, 0, sizeof(png));
	png.version = PNG_IMAGE_VERSION;
	png.width = w;
	png.height = h;
	png.format = PNG_FORMAT_BGRA;
	/* X gives depth-24 pixels an undefined top byte: make it opaque. */
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			((uint8_t *)bgrx)[y * stride + x * 4 + 3] = 0xff;
	if (!png_image_write_to_file(&png, path, 0, bgrx, (int32_t)stride,
	                             NULL)) {
		fprintf(stderr, "wsi_capture: %s: %s\n", path, png.message);
		return 2;
	}
	return 0;
}

/* The named pixmap's pixels (ZPixmap, 32 bits a pixel) into OUT. */
static int
save_pixmap(xcb_connection_t *c, xcb_pixmap_t pix, uint16_t w, uint16_t h,
            const char *out)
{
	xcb_generic_error_t *err = NULL;
	xcb_get_image_reply_t *img = xcb_get_image_reply(
		c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, pix, 0, 0, w, h,
		                 ~0u), &err);
	int r;

	if (!img) {
		fprintf(stderr, "wsi_capture: GetImage of the window's pixmap "
		        "failed (error %d)\n", err ? err->error_code : -1);
		free(err);
		return 2;
	}
	if ((size_t)xcb_get_image_data_length(img) < (size_t)w * h * 4) {
		fprintf(stderr, "wsi_capture: the window is not 32 bits a "
		        "pixel\n");
		free(img);
		return 2;
	}
	r = write_png(out, xcb_get_image_data(img), w, h, (uint32_t)w * 4);
	free(img);
	return r;
}

int
main(int argc, char **argv)
{
	xcb_connection_t *c;
	xcb_screen_t *screen;
	xcb_window_t win = 0;
	xcb_pixmap_t pix = 0;
	uint16_t w = 0, h = 0;
	uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
	int status = 0, result;
	bool exited = false;
	pid_t child;

	if (argc < 3) {
		fprintf(stderr, "usage: wsi_capture OUT.png COMMAND [ARGS...]\n");
		return 2;
	}
	c = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c)) {
		fprintf(stderr, "wsi_capture: cannot connect to $DISPLAY\n");
		xcb_disconnect(c);
		return 2;
	}
	screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
	xcb_composite_query_version_reply_t *v =
		xcb_composite_query_version_reply(
			c, xcb_composite_query_version(c, 0, 4), NULL);
	if (!v || (v->major_version == 0 && v->minor_version < 2)) {
		fprintf(stderr, "wsi_capture: the X server has no Composite "
		        "0.2 (NameWindowPixmap)\n");
		free(v);
		xcb_disconnect(c);
		return 2;
	}
	free(v);
	xcb_composite_redirect_subwindows(c, screen->root,
	                                  XCB_COMPOSITE_REDIRECT_AUTOMATIC);
	xcb_change_window_attributes(c, screen->root, XCB_CW_EVENT_MASK,
	                             &mask);
	free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));

	child = fork();
	if (child == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "wsi_capture: %s: cannot run it\n", argv[2]);
		_exit(127);
	}
	/* The first top-level window the program maps is the one kept. */
	while (!pix) {
		xcb_generic_event_t *e = xcb_poll_for_event(c);
		struct pollfd pfd = { xcb_get_file_descriptor(c), POLLIN, 0 };

		if (!e) {
			if (exited || xcb_connection_has_error(c))
				break;
			if (waitpid(child, &status, WNOHANG) == child)
				exited = true;  /* one last look at the events */
			else
				poll(&pfd, 1, 100);
			continue;
		}
		if ((e->response_type & 0x7f) != XCB_MAP_NOTIFY) {
			free(e);
			continue;
		}
		xcb_map_notify_event_t *m = (void *)e;
		xcb_get_geometry_reply_t *g;

		win = m->window;
		free(e);
		g = xcb_get_geometry_reply(c, xcb_get_geometry(c, win), NULL);
		if (!g)
			continue;
		w = g->width;
		h = g->height;
		free(g);
		pix = xcb_generate_id(c);
		xcb_composite_name_window_pixmap(c, win, pix);
		free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c),
		                               NULL));
	}
	if (!exited)
		waitpid(child, &status, 0);
	if (!pix) {
		fprintf(stderr, "wsi_capture: the program mapped no window\n");
		xcb_disconnect(c);
		return 2;
	}
	result = save_pixmap(c, pix, w, h, argv[1]);
	xcb_disconnect(c);
	if (result)
		return result;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
