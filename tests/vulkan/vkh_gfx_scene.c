/* SPDX-License-Identifier: MIT */
/*
 * vkh_gfx_scene: the two-driver scene runner and PNG output. See
 * vkh_gfx.h.
 */
#include "vkh_gfx.h"

#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

static bool
format_float32(VkFormat f)
{
	return f == VK_FORMAT_R32_SFLOAT || f == VK_FORMAT_R32G32_SFLOAT ||
	       f == VK_FORMAT_R32G32B32A32_SFLOAT;
}

static bool
format_float16(VkFormat f)
{
	return f == VK_FORMAT_R16_SFLOAT || f == VK_FORMAT_R16G16_SFLOAT ||
	       f == VK_FORMAT_R16G16B16A16_SFLOAT;
}

static float
half_to_float(uint16_t h)
{
	uint32_t s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
	float v;

	if (e == 0)
		v = ldexpf((float)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexpf((float)(m | 1024), (int)e - 25);
	return s ? -v : v;
}

bool
gfx_write_png(const char *path, const struct gfx_out *o)
{
	FILE *f = fopen(path, "wb");
	png_structp png;
	png_infop info;

	if (!f)
		return false;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	if (!info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		fclose(f);
		return false;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, o->w, o->h, 8, PNG_COLOR_TYPE_RGBA,
	             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
	             PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < o->h; y++)
		png_write_row(png, (png_const_bytep)(o->color +
		                                     (size_t)y * o->w * 4));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return fclose(f) == 0;
}

/* ------------------------------------------------------------------ */
/* The scene runner                                                    */
/* ------------------------------------------------------------------ */

/* The second driver of the process, set up at the first scene that
 * finds one (state 1) or finds none (-1). */
static struct vkh other;
static int other_state;

static void
other_finish(void)
{
	if (other_state == 1 && vkh_finish(&other))
		fprintf(stderr, "[vkh_gfx] second driver: errors at exit\n");
}

static struct vkh *
other_driver(struct vkh *h)
{
	VkPhysicalDevice phys[8];
	uint32_t n = 8;
	char idx[16];

	if (other_state)
		return other_state > 0 ? &other : NULL;
	other_state = -1;
	if (vkEnumeratePhysicalDevices(h->instance, &n, phys) < 0)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		VkPhysicalDeviceDriverProperties dp = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
		};
		VkPhysicalDeviceProperties2 p2 = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
			.pNext = &dp,
		};

		vkGetPhysicalDeviceProperties2(phys[i], &p2);
		if (dp.driverID == h->driver.driverID)
			continue;
		snprintf(idx, sizeof(idx), "%u", i);
		setenv("VKH_DEVICE_INDEX", idx, 1);
		if (vkh_init(&other, "vkh_gfx.other", VK_API_VERSION_1_3) ==
		    VK_SUCCESS && gfx_has_graphics(&other)) {
			other_state = 1;
			atexit(other_finish);
			printf("  (second driver: %s)\n",
			       other.driver.driverName);
		} else {
			vkh_finish(&other);
		}
		unsetenv("VKH_DEVICE_INDEX");
		break;
	}
	return other_state > 0 ? &other : NULL;
}

static void
out_free(struct gfx_out *o)
{
	free(o->color);
	free(o->depth);
	free(o->stencil);
	memset(o, 0, sizeof(*o));
}

/* Channel k of texel t as a number for the tolerance compare. */
static double
channel(const struct gfx_out *o, const uint8_t *t, uint32_t k)
{
	if (format_float32(o->format)) {
		float f;

		memcpy(&f, t + 4 * k, 4);
		return f;
	}
	if (format_float16(o->format)) {
		uint16_t v;

		memcpy(&v, t + 2 * k, 2);
		return half_to_float(v);
	}
	return t[k];
}

static void
compare(struct vkh *h, const struct gfx_scene *s, const char *a,
        const struct gfx_out *x, const char *b, const struct gfx_out *y)
{
	uint32_t bad = 0, nch;

	if (x->w != y->w || x->h != y->h || x->texel != y->texel ||
	    x->nvalues != y->nvalues || !x->depth != !y->depth ||
	    !x->stencil != !y->stencil) {
		vkh_fail(h, __FILE__, __LINE__, "%s: outputs differ in shape",
		         s->name);
		return;
	}
	nch = format_float32(x->format) ? x->texel / 4 :
	      format_float16(x->format) ? x->texel / 2 : x->texel;
	for (uint32_t y0 = 0; x->color && y0 < x->h; y0++)
		for (uint32_t x0 = 0; x0 < x->w; x0++) {
			const uint8_t *p = gfx_texel(x, x0, y0);
			const uint8_t *q = gfx_texel(y, x0, y0);
			bool same = true;

			for (uint32_t k = 0; k < nch; k++)
				same = same &&
				       fabs(channel(x, p, k) - channel(y, q, k)) <=
				       s->tolerance;
			if (same)
				continue;
			if (bad++ < 8) {
				printf("  (%u,%u): %s", x0, y0, a);
				for (uint32_t k = 0; k < x->texel; k++)
					printf(" %02x", p[k]);
				printf(", %s", b);
				for (uint32_t k = 0; k < x->texel; k++)
					printf(" %02x", q[k]);
				printf("\n");
			}
		}
	for (uint32_t i = 0; x->depth && i < x->w * x->h; i++)
		if (fabsf(x->depth[i] - y->depth[i]) > s->depth_tolerance &&
		    bad++ < 8)
			printf("  depth (%u,%u): %s %.9g, %s %.9g\n", i % x->w,
			       i / x->w, a, x->depth[i], b, y->depth[i]);
	for (uint32_t i = 0; x->stencil && i < x->w * x->h; i++)
		if (x->stencil[i] != y->stencil[i] && bad++ < 8)
			printf("  stencil (%u,%u): %s %u, %s %u\n", i % x->w,
			       i / x->w, a, x->stencil[i], b, y->stencil[i]);
	for (uint32_t i = 0; i < x->nvalues; i++)
		if (x->values[i] != y->values[i] && bad++ < 8)
			printf("  value %u: %s %llu, %s %llu\n", i, a,
			       (unsigned long long)x->values[i], b,
			       (unsigned long long)y->values[i]);
	if (bad > s->allowed_mismatches)
		vkh_fail(h, __FILE__, __LINE__, "%s: %u differences between "
		         "%s and %s", s->name, bad, a, b);
	else if (bad)
		printf("  %s: %s and %s agree but for %u texels (%u allowed)\n",
		       s->name, a, b, bad, s->allowed_mismatches);
	else
		printf("  %s: %s and %s agree\n", s->name, a, b);
}

static void
save_png(const struct gfx_scene *s, const char *driver,
         const struct gfx_out *o)
{
	const char *dir = getenv("GFX_PNG_DIR");
	char path[512];

	if (!dir || !o->color || o->texel != 4)
		return;
	snprintf(path, sizeof(path), "%s/%s.%s.png", dir, s->name, driver);
	if (!gfx_write_png(path, o))
		fprintf(stderr, "[vkh_gfx] could not write %s\n", path);
}

static bool
run_on(struct vkh *h, struct vkh_device *d, const struct gfx_scene *s,
       struct gfx_out *o)
{
	struct gfx_ctx c = {
		.h = h, .d = d, .dev = d->device, .queue = d->queues[0].queue,
		.pool = d->queues[0].pool, .driver = h->driver.driverName,
	};
	int before = h->failures;

	memset(o, 0, sizeof(*o));
	if (s->render(&c, o) && h->failures == before && s->check)
		s->check(&c, o);
	vkDeviceWaitIdle(c.dev);
	gfx_forget_layout(c.dev);
	save_png(s, c.driver, o);
	return h->failures == before;
}

void
gfx_scene(struct vkh *h, struct vkh_device *d, const struct gfx_scene *s)
{
	struct gfx_out mine, theirs;
	struct vkh *o2;
	struct vkh_device d2;

	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT)) {
		vkh_fail(h, __FILE__, __LINE__, "no graphics queue");
		return;
	}
	if (s->supported && !s->supported(h)) {
		vkh_skip(h, "%s does not offer what %s needs",
		         h->driver.driverName, s->name);
		return;
	}
	if (!run_on(h, d, s, &mine)) {
		out_free(&mine);
		return;
	}
	o2 = other_driver(h);
	if (!o2) {
		printf("  %s: checked on %s alone\n", s->name,
		       h->driver.driverName);
		out_free(&mine);
		return;
	}
	if (s->supported && !s->supported(o2)) {
		printf("  %s: checked on %s alone (%s does not offer what it "
		       "needs)\n", s->name, h->driver.driverName,
		       o2->driver.driverName);
		out_free(&mine);
		return;
	}
	if (vkh_device_create(o2, VK_QUEUE_GRAPHICS_BIT, 1, NULL, &d2) !=
	    VK_SUCCESS) {
		vkh_fail(h, __FILE__, __LINE__, "second driver's device");
		out_free(&mine);
		return;
	}
	if (run_on(o2, &d2, s, &theirs))
		compare(h, s, h->driver.driverName, &mine,
		        o2->driver.driverName, &theirs);
	else
		vkh_fail(h, __FILE__, __LINE__, "%s: the second driver (%s) "
		         "failed the scene's checks", s->name,
		         o2->driver.driverName);
	vkh_device_destroy(o2, &d2);
	out_free(&mine);
	out_free(&theirs);
}
