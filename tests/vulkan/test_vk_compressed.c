/* SPDX-License-Identifier: MIT */
/*
 * test_vk_compressed: the BC formats (textureCompressionBC) through the
 * loader, with validation on. For each of the 16 BC formats a 10x6 image
 * with 2 mip levels (partial edge blocks on both) is filled with the same
 * seeded random blocks and
 *  - read with texelFetch, every texel of both levels;
 *  - sampled with textureLod, LINEAR, at 48 coordinates (lod 0 and the
 *    trilinear lod 0.5), checked against the bilinear/trilinear mix of
 *    the fetched texels (clamp to edge);
 *  - blitted NEAREST 1:1 and LINEAR 2:1 into R32G32B32A32_SFLOAT,
 *    checked against the texels a compute device fetched and their 2x2
 *    averages ("blit": vkCmdBlitImage needs a GRAPHICS queue, so on
 *    swgpu it runs in the VKH_RELAXED_QUEUE_TYPES entry).
 * Those are checks of one driver against itself (filtering and blits of
 * what it decodes). "differential" also decodes everything on a second
 * driver in the process (VK_DRIVER_FILES naming two manifests; Mesa's
 * lavapipe in ctest) and compares the texelFetch results of the two
 * per texel: an independent decoder for all 16 formats. The tolerances
 * allow for 8-bit intermediate rounding in the other decoder (BC1-BC5),
 * nothing more; BC6H and BC7 are exact formulas and must agree to half-
 * float and byte precision.
 */
#include "test_vk_compute_sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smp_mips.spv.h"

#define W 10
#define H 6
#define W1 (W / 2)
#define H1 (H / 2)
#define NFETCH (W * H + W1 * H1)
#define NLIN 48
#define NFMT 16

struct decoded {
	bool ok;
	float fetch[NFETCH][4];
};

static const VkFormat bc_formats[NFMT] = {
	VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK,
	VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_SRGB_BLOCK,
	VK_FORMAT_BC2_UNORM_BLOCK, VK_FORMAT_BC2_SRGB_BLOCK,
	VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_BC3_SRGB_BLOCK,
	VK_FORMAT_BC4_UNORM_BLOCK, VK_FORMAT_BC4_SNORM_BLOCK,
	VK_FORMAT_BC5_UNORM_BLOCK, VK_FORMAT_BC5_SNORM_BLOCK,
	VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_FORMAT_BC6H_SFLOAT_BLOCK,
	VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK,
};

static bool
is_bc6h(VkFormat f)
{
	return f == VK_FORMAT_BC6H_UFLOAT_BLOCK ||
	       f == VK_FORMAT_BC6H_SFLOAT_BLOCK;
}

static bool
is_srgb(VkFormat f)
{
	return f == VK_FORMAT_BC1_RGB_SRGB_BLOCK ||
	       f == VK_FORMAT_BC1_RGBA_SRGB_BLOCK ||
	       f == VK_FORMAT_BC2_SRGB_BLOCK || f == VK_FORMAT_BC3_SRGB_BLOCK ||
	       f == VK_FORMAT_BC7_SRGB_BLOCK;
}

static const char *
fmt_name(VkFormat f)
{
	static const char *const names[NFMT] = {
		"BC1_RGB_UNORM", "BC1_RGB_SRGB", "BC1_RGBA_UNORM",
		"BC1_RGBA_SRGB", "BC2_UNORM", "BC2_SRGB", "BC3_UNORM",
		"BC3_SRGB", "BC4_UNORM", "BC4_SNORM", "BC5_UNORM", "BC5_SNORM",
		"BC6H_UFLOAT", "BC6H_SFLOAT", "BC7_UNORM", "BC7_SRGB",
	};

	return names[f - VK_FORMAT_BC1_RGB_UNORM_BLOCK];
}

/* Reserved BC6H modes (5-bit modes 10011, 10111, 11011, 11111) and the
 * reserved BC7 mode (first byte 0) decode to constants the other
 * decoder need not share; random blocks get a valid mode instead. */
static void
fix_modes(struct timg *t)
{
	const VkFormat f = t->desc.format;

	for (uint32_t m = 0; m < t->desc.mips; m++) {
		uint32_t b[3];

		timg_mip_blocks(t, m, b);
		for (uint32_t y = 0; y < b[1]; y++)
			for (uint32_t x = 0; x < b[0]; x++) {
				uint8_t *p = timg_block(t, 0, m, 0, x, y, 0);

				const uint8_t m5 = p[0] & 0x1f;

				if (is_bc6h(f) && (m5 == 0x13 || m5 == 0x17 ||
				                   m5 == 0x1b || m5 == 0x1f))
					p[0] = (uint8_t)((p[0] & ~0x1f) | 0x03);
				if (f >= VK_FORMAT_BC7_UNORM_BLOCK && !p[0])
					p[0] = 1;
			}
	}
}

/* Texel (x, y) of level l of the fetched texels. */
static const float *
fetched(const struct decoded *d, uint32_t l, int32_t x, int32_t y)
{
	const int32_t w = l ? W1 : W, h = l ? H1 : H;

	x = x < 0 ? 0 : x >= w ? w - 1 : x;
	y = y < 0 ? 0 : y >= h ? h - 1 : y;
	return d->fetch[(l ? W * H : 0) + y * w + x];
}

/* Bilinear sample of level l at normalized (s, t), clamp to edge. */
static void
bilinear(const struct decoded *d, uint32_t l, double s, double t,
         double out[4])
{
	const double u = s * (l ? W1 : W) - 0.5, v = t * (l ? H1 : H) - 0.5;
	const double i0 = floor(u), j0 = floor(v);
	const double a = u - i0, b = v - j0;

	for (int c = 0; c < 4; c++)
		out[c] = (1 - a) * (1 - b) * fetched(d, l, (int)i0, (int)j0)[c] +
		         a * (1 - b) * fetched(d, l, (int)i0 + 1, (int)j0)[c] +
		         (1 - a) * b * fetched(d, l, (int)i0, (int)j0 + 1)[c] +
		         a * b * fetched(d, l, (int)i0 + 1, (int)j0 + 1)[c];
}

/* Largest magnitude among the texels of d (BC6H tolerances scale). */
static double
max_abs(const struct decoded *d)
{
	double m = 0;

	for (uint32_t i = 0; i < NFETCH; i++)
		for (int c = 0; c < 4; c++)
			m = fmax(m, fabs(d->fetch[i][c]));
	return m;
}

/* How far a filtered or blitted result may be from the exact mix of
 * decoded texels: swgpu filters in float on the decoded values; other
 * drivers may quantize weights or filter 8-bit values. */
static double
filter_tol(const struct vkh *h, VkFormat f, const struct decoded *d)
{
	if (is_bc6h(f))
		return (h->is_swgpu ? 1e-5 : 1.0 / 64) * fmax(max_abs(d), 1e-3);
	return h->is_swgpu ? 1e-5 : 3.0 / 255;
}

static void
count(struct tally *k, bool ok, const char *what, VkFormat f, uint32_t i,
      const float *got, const double *want)
{
	k->n++;
	if (ok)
		return;
	if (k->bad++ < MAX_REPORT)
		printf("    %s %s #%u: got (%g %g %g %g) want (%g %g %g %g)\n",
		       fmt_name(f), what, i, got[0], got[1], got[2], got[3],
		       want[0], want[1], want[2], want[3]);
}

static bool
close4(const float *got, const double *want, double tol)
{
	for (int c = 0; c < 4; c++)
		if (!(fabs(got[c] - want[c]) <= tol))
			return false;
	return true;
}

/* The blit dst: R32G32B32A32_SFLOAT, w x h. */
static VkResult
blit_into(struct vkh *h, struct vkh_device *d, struct timg *src,
          uint32_t w, uint32_t hgt, VkFilter filter, float **out)
{
	const struct timg_desc dd = {
		.type = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R32G32B32A32_SFLOAT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.extent = { w, hgt, 1 }, .mips = 1, .layers = 1,
	};
	const VkImageBlit r = {
		.srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.srcOffsets = { { 0, 0, 0 }, { (int32_t)(w == W ? W : 2 * w),
		                               (int32_t)(w == W ? H : 2 * hgt),
		                               1 } },
		.dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.dstOffsets = { { 0, 0, 0 }, { (int32_t)w, (int32_t)hgt, 1 } },
	};
	struct timg dst;
	uint8_t *got[2];
	VkResult res = timg_create(h, d, &dd, 0, &dst);
	VkCommandBuffer cb;

	*out = NULL;
	if (res != VK_SUCCESS)
		return res;
	cb = vkh_cmd_begin(d, 0);
	if (!cb) {
		timg_destroy(d, &dst);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	timg_barrier(cb, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	timg_barrier(cb, &dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	vkCmdBlitImage(cb, src->image, src->layout, dst.image, dst.layout, 1,
	               &r, filter);
	res = vkh_cmd_submit_wait(d, 0, cb);
	if (res == VK_SUCCESS && timg_readback(h, d, &dst, got) != 0)
		res = VK_ERROR_UNKNOWN;
	if (res == VK_SUCCESS) {
		*out = (float *)got[0];
		free(got[1]);
	}
	timg_destroy(d, &dst);
	return res;
}

/* Blits of the image against the fetched texels. */
static void
check_blits(struct vkh *h, struct vkh_device *d, struct timg *t,
            const struct decoded *dec, struct tally *k)
{
	const VkFormat f = t->desc.format;
	const double tol = filter_tol(h, f, dec);
	float *near, *lin;

	VKH_CHECK(h, blit_into(h, d, t, W, H, VK_FILTER_NEAREST, &near) ==
	             VK_SUCCESS);
	for (uint32_t i = 0; i < W * H; i++) {
		double want[4];

		for (int c = 0; c < 4; c++)
			want[c] = dec->fetch[i][c];
		count(k, close4(near + 4 * i, want, is_bc6h(f) ? 0 : tol),
		      "blit nearest", f, i, near + 4 * i, want);
	}
	free(near);
	VKH_CHECK(h, blit_into(h, d, t, W1, H1, VK_FILTER_LINEAR, &lin) ==
	             VK_SUCCESS);
	for (uint32_t y = 0; y < H1; y++)
		for (uint32_t x = 0; x < W1; x++) {
			const float *g = lin + 4 * (y * W1 + x);
			double want[4] = { 0, 0, 0, 0 };

			for (uint32_t n = 0; n < 4; n++)
				for (int c = 0; c < 4; c++)
					want[c] += fetched(dec, 0,
					                   2 * x + (n & 1),
					                   2 * y + (n >> 1))[c] / 4;
			count(k, close4(g, want, tol), "blit linear", f,
			      y * W1 + x, g, want);
		}
	free(lin);
}

/* texelFetch of every texel, then textureLod against their mix. */
static void
check_sampling(struct vkh *h, struct vkh_device *d, struct timg *t,
               struct decoded *dec, struct tally *k)
{
	static const struct sdesc lin = SD("linear", LINEAR, LINEAR, LINEAR,
	                                   CLAMP_TO_EDGE);
	const VkFormat f = t->desc.format;
	const struct rview rv = { t, RV_2D, 0, 2, 0, 1 };
	struct io io;
	struct vkh_pipe p;
	VkImageView v;
	VkSampler s;
	uint32_t n = 0;

	VKH_CHECK(h, io_create(h, d, &io) == VK_SUCCESS);
	v = make_view(d, &rv, VK_IMAGE_VIEW_TYPE_2D);
	s = make_sampler(d, &lin);
	VKH_CHECK(h, v && s);
	VKH_CHECK(h, pipe_2d(d, smp_mips_spv, sizeof(smp_mips_spv), &io,
	                     &p) == VK_SUCCESS);
	write_image(d, p.sets[0], 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	            v, s);
	for (uint32_t l = 0; l < 2; l++)
		for (uint32_t y = 0; y < (l ? H1 : H); y++)
			for (uint32_t x = 0; x < (l ? W1 : W); x++)
				set_q(io.q[n++], x, y, l, 1);
	for (uint32_t i = 0; i < NLIN; i++) {
		/* Spread over the image and past its edges, half of them
		 * between the two levels. */
		double sx = ((i * 37) % 61) / 50.0 - 0.1;
		double ty = ((i * 23) % 53) / 43.0 - 0.1;

		set_q(io.q[n++], sx, ty, i % 2 ? 0.5 : 0.0, 0);
	}
	VKH_CHECK(h, io_run(h, d, &p, &io, n) == VK_SUCCESS);
	memcpy(dec->fetch, io.r, sizeof(dec->fetch));
	dec->ok = true;

	const double tol = filter_tol(h, f, dec);
	for (uint32_t i = 0; i < NLIN; i++) {
		const float *q = io.q[NFETCH + i], *g = io.r[NFETCH + i];
		double want[4], l1[4];

		bilinear(dec, 0, q[0], q[1], want);
		if (q[2] > 0) {
			bilinear(dec, 1, q[0], q[1], l1);
			for (int c = 0; c < 4; c++)
				want[c] = (want[c] + l1[c]) / 2;
		}
		count(k, close4(g, want, tol), "textureLod", f, i, g, want);
	}
	vkh_pipe_destroy(d, &p);
	vkDestroySampler(d->device, s, NULL);
	vkDestroyImageView(d->device, v, NULL);
	io_destroy(d, &io);
}

/* A BC test image with the format's seeded random blocks: the same
 * content on every device and driver. */
static bool
bc_image(struct vkh *h, struct vkh_device *d, uint32_t i, struct timg *t)
{
	const struct timg_desc td = {
		.type = VK_IMAGE_TYPE_2D, .format = bc_formats[i],
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.extent = { W, H, 1 }, .mips = 2, .layers = 1,
	};

	if (image_make(h, d, &td, 0xbc00 + i, t) != VK_SUCCESS)
		return false;
	fix_modes(t);
	return true;
}

/* Decode all 16 formats on (h, d) with texelFetch into dec[], checking
 * textureLod against the fetched texels. */
static void
sample_all(struct vkh *h, struct vkh_device *d, struct decoded dec[NFMT])
{
	struct tally k = { .what = "textureLod vs fetched texels" };

	for (uint32_t i = 0; i < NFMT; i++) {
		struct timg t;

		dec[i].ok = false;
		VKH_CHECK(h, bc_image(h, d, i, &t));
		VKH_CHECK(h, image_ready(h, d, &t) == VK_SUCCESS);
		check_sampling(h, d, &t, &dec[i], &k);
		timg_destroy(d, &t);
		if (h->failures)
			return;
	}
	TALLY_DONE(h, &k);
}

static void
test_features(struct vkh *h, struct vkh_device *d)
{
	VkPhysicalDeviceFeatures f;
	const VkFormatFeatureFlags need =
		VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
		VK_FORMAT_FEATURE_BLIT_SRC_BIT |
		VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
		VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
		VK_FORMAT_FEATURE_TRANSFER_DST_BIT;

	(void)d;
	vkGetPhysicalDeviceFeatures(h->phys, &f);
	if (!f.textureCompressionBC) {
		vkh_skip(h, "no textureCompressionBC");
		return;
	}
	for (uint32_t i = 0; i < NFMT; i++) {
		VkFormatProperties p;

		vkGetPhysicalDeviceFormatProperties(h->phys, bc_formats[i], &p);
		if ((p.optimalTilingFeatures & need) != need)
			vkh_fail(h, __FILE__, __LINE__, "%s: features 0x%x",
			         fmt_name(bc_formats[i]),
			         p.optimalTilingFeatures);
		/* Nothing encodes blocks: no blit or storage writes. */
		if (h->is_swgpu && (p.optimalTilingFeatures &
		                    (VK_FORMAT_FEATURE_BLIT_DST_BIT |
		                     VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)))
			vkh_fail(h, __FILE__, __LINE__, "%s: dst features",
			         fmt_name(bc_formats[i]));
	}
}

static void
test_sample(struct vkh *h, struct vkh_device *d)
{
	static struct decoded dec[NFMT];
	VkPhysicalDeviceFeatures f;

	vkGetPhysicalDeviceFeatures(h->phys, &f);
	if (!f.textureCompressionBC) {
		vkh_skip(h, "no textureCompressionBC");
		return;
	}
	sample_all(h, d, dec);
}

/* Blits (a GRAPHICS queue: swgpu runs them in the relaxed ctest entry on
 * its transfer queue) against the texels a compute device fetched. */
static void
test_blit(struct vkh *h, struct vkh_device *d)
{
	static struct decoded dec[NFMT];
	struct tally k = { .what = "blits vs fetched texels" };
	struct vkh_device dc;
	VkPhysicalDeviceFeatures f;

	vkGetPhysicalDeviceFeatures(h->phys, &f);
	if (!f.textureCompressionBC || !vkh_has_compute(h)) {
		vkh_skip(h, "no textureCompressionBC or no compute queue");
		return;
	}
	VKH_CHECK(h, vkh_device_create(h, VK_QUEUE_COMPUTE_BIT, 1, NULL,
	                               &dc) == VK_SUCCESS);
	sample_all(h, &dc, dec);
	vkh_device_destroy(h, &dc);
	for (uint32_t i = 0; i < NFMT && !h->failures; i++) {
		struct timg t;

		VKH_CHECK(h, dec[i].ok && bc_image(h, d, i, &t));
		VKH_CHECK(h, timg_upload(h, d, &t) == VK_SUCCESS);
		check_blits(h, d, &t, &dec[i], &k);
		timg_destroy(d, &t);
	}
	TALLY_DONE(h, &k);
}

/* Index of a physical device of another driver with BC, or -1. */
static int
other_driver(struct vkh *h)
{
	VkPhysicalDevice phys[8];
	uint32_t n = 8;

	if (vkEnumeratePhysicalDevices(h->instance, &n, phys) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		VkPhysicalDeviceDriverProperties dp = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
		};
		VkPhysicalDeviceProperties2 p2 = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
			.pNext = &dp,
		};
		VkPhysicalDeviceFeatures f;

		vkGetPhysicalDeviceProperties2(phys[i], &p2);
		vkGetPhysicalDeviceFeatures(phys[i], &f);
		if (dp.driverID != h->driver.driverID && f.textureCompressionBC)
			return (int)i;
	}
	return -1;
}

/* Per-format agreement of two decoders: 8-bit intermediates in BC1-BC5
 * (sRGB compared encoded), exact BC7 bytes, BC6H to a half-float ulp. */
static bool
agree(VkFormat f, uint32_t c, float a, float b)
{
	if (is_bc6h(f))
		return fabsf(a - b) <= 1e-3f * fmaxf(fabsf(a), 1e-4f);
	if (is_srgb(f) && c < 3) {
		a = a <= 0.0031308f ? a * 12.92f
		                    : 1.055f * powf(a, 1 / 2.4f) - 0.055f;
		b = b <= 0.0031308f ? b * 12.92f
		                    : 1.055f * powf(b, 1 / 2.4f) - 0.055f;
	}
	if (f >= VK_FORMAT_BC7_UNORM_BLOCK)
		return fabsf(a - b) <= 0.6f / 255;
	if (f == VK_FORMAT_BC4_SNORM_BLOCK || f == VK_FORMAT_BC5_SNORM_BLOCK)
		return fabsf(a - b) <= 2.0f / 127;
	return fabsf(a - b) <= 2.0f / 255;
}

static void
test_differential(struct vkh *h, struct vkh_device *d)
{
	static struct decoded mine[NFMT], theirs[NFMT];
	struct tally k = { .what = "texels equal to the other driver's" };
	struct vkh h2;
	struct vkh_device d2;
	char idx[16];
	int other = other_driver(h);
	VkPhysicalDeviceFeatures f;

	vkGetPhysicalDeviceFeatures(h->phys, &f);
	if (!f.textureCompressionBC || other < 0) {
		vkh_skip(h, "needs BC on this driver and on a second one "
		         "(VK_DRIVER_FILES with two manifests)");
		return;
	}
	sample_all(h, d, mine);
	if (h->failures)
		return;
	snprintf(idx, sizeof(idx), "%d", other);
	setenv("VKH_DEVICE_INDEX", idx, 1);
	VKH_CHECK(h, vkh_init(&h2, "test_vk_compressed.other",
	                      VK_API_VERSION_1_3) == VK_SUCCESS);
	unsetenv("VKH_DEVICE_INDEX");
	printf("  comparing %s with %s\n", h->driver.driverName,
	       h2.driver.driverName);
	if (vkh_device_create(&h2, VK_QUEUE_COMPUTE_BIT, 1, NULL, &d2) !=
	    VK_SUCCESS) {
		vkh_finish(&h2);
		vkh_fail(h, __FILE__, __LINE__, "second driver's device");
		return;
	}
	sample_all(&h2, &d2, theirs);
	if (h2.failures)
		vkh_fail(h, __FILE__, __LINE__, "%s failed its self checks",
		         h2.driver.driverName);
	for (uint32_t i = 0; i < NFMT && theirs[i].ok && mine[i].ok; i++)
		for (uint32_t t = 0; t < NFETCH; t++) {
			const float *a = mine[i].fetch[t];
			const float *b = theirs[i].fetch[t];
			bool ok = true;
			double want[4];

			for (uint32_t c = 0; c < 4; c++) {
				ok = ok && agree(bc_formats[i], c, a[c], b[c]);
				want[c] = b[c];
			}
			count(&k, ok, "texelFetch vs other driver",
			      bc_formats[i], t, a, want);
		}
	if (vkh_finish(&h2))
		vkh_fail(h, __FILE__, __LINE__, "second driver: errors");
	VKH_CHECK(h, k.n == NFMT * NFETCH);
	TALLY_DONE(h, &k);
}

static const struct vkh_test tests[] = {
	{ "features", test_features, 1, VK_QUEUE_COMPUTE_BIT },
	{ "sample", test_sample, 1, VK_QUEUE_COMPUTE_BIT },
	{ "blit", test_blit, 1, VK_QUEUE_GRAPHICS_BIT },
	{ "differential", test_differential, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compressed", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
