/* SPDX-License-Identifier: MIT */
/*
 * test_vk_image_clear: vkCmdClearColorImage and vkCmdClearDepthStencilImage
 * over subresource ranges (several ranges per command, VK_REMAINING_MIP_
 * LEVELS / VK_REMAINING_ARRAY_LAYERS, overlapping clears in order), with
 * float, int and uint clear values on formats of every numeric type, and
 * per aspect for depth/stencil. The image starts with random content;
 * afterwards every texel of a cleared subresource must hold the clear
 * value converted to the format, every other byte must be untouched.
 *
 * Tolerances (spec, "Fixed-Point Data Conversions" and "Floating-Point
 * Computation"): a normalized or sRGB channel may be off by one code
 * (rounding of the float -> fixed conversion is implementation-defined
 * within 1 ULP); 16-bit floats by one ULP; 32-bit floats and integers
 * exactly (the values used are representable).
 */
#include "image_vk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const VkFormat color_formats[] = {
	VK_FORMAT_R8G8B8A8_UNORM,
	VK_FORMAT_R8G8B8A8_SRGB,
	VK_FORMAT_B8G8R8A8_UNORM,
	VK_FORMAT_R8G8B8A8_SNORM,
	VK_FORMAT_R5G6B5_UNORM_PACK16,
	VK_FORMAT_A2B10G10R10_UNORM_PACK32,
	VK_FORMAT_R16G16B16A16_UNORM,
	VK_FORMAT_R16_SFLOAT,
	VK_FORMAT_R16G16B16A16_SFLOAT,
	VK_FORMAT_R32_SFLOAT,
	VK_FORMAT_R32G32B32A32_SFLOAT,
	VK_FORMAT_R64_SFLOAT,
	VK_FORMAT_B10G11R11_UFLOAT_PACK32,
	VK_FORMAT_R8G8B8A8_UINT,
	VK_FORMAT_R16_UINT,
	VK_FORMAT_R32G32B32A32_UINT,
	VK_FORMAT_R8G8B8A8_SINT,
	VK_FORMAT_R32_SINT,
};

static const struct timg_desc color_shapes[] = {
	{ VK_IMAGE_TYPE_1D, 0, 0, { 37, 1, 1 }, 2, 3, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 23, 17, 1 }, 3, 4, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 31, 9, 1 }, 1, 1, 0 },
	{ VK_IMAGE_TYPE_3D, 0, 0, { 13, 11, 5 }, 2, 1, 0 },
};

static const VkImageTiling tilings[] = {
	VK_IMAGE_TILING_LINEAR,
	VK_IMAGE_TILING_OPTIMAL,
};

/* What each (plane, mip, layer) should hold: untouched, or a value. */
struct expect {
	bool cleared;
	double v[4];
};

#define MAX_SUBRES 64

static struct expect *
expect_at(struct expect *e, const struct timg *t, unsigned p, uint32_t m,
          uint32_t l)
{
	return &e[(p * t->desc.mips + m) * t->desc.layers + l];
}

/* Apply a range to the expectation table, resolving VK_REMAINING_*. */
static void
expect_range(struct expect *e, const struct timg *t,
             const VkImageSubresourceRange *r, const double v[4],
             const double stencil)
{
	uint32_t mips = r->levelCount == VK_REMAINING_MIP_LEVELS ?
	                t->desc.mips - r->baseMipLevel : r->levelCount;
	uint32_t layers = r->layerCount == VK_REMAINING_ARRAY_LAYERS ?
	                  t->desc.layers - r->baseArrayLayer : r->layerCount;

	for (unsigned p = 0; p < t->nplanes; p++) {
		if (!(r->aspectMask & t->aspect[p]))
			continue;
		for (uint32_t m = 0; m < mips; m++)
		for (uint32_t l = 0; l < layers; l++) {
			struct expect *x = expect_at(e, t, p,
			                             r->baseMipLevel + m,
			                             r->baseArrayLayer + l);
			x->cleared = true;
			if (t->aspect[p] == VK_IMAGE_ASPECT_STENCIL_BIT) {
				x->v[0] = stencil;
				x->v[1] = x->v[2] = 0;
				x->v[3] = 1;
			} else {
				memcpy(x->v, v, sizeof(x->v));
			}
		}
	}
}

/* Expected channel value as the format stores it (sRGB: encoded). */
static double
stored(const struct ir_format *f, unsigned c, double v)
{
	v = ir_clamp(f, c, v);
	if (f->type == IR_SRGB && c < 3)
		v = ir_linear_to_srgb(v);
	/* UFLOAT (6/5-bit mantissas): exact value, one ULP of slack. */
	if (f->type == IR_SFLOAT && f->ch[c].bits == 16)
		v = ir_half_to_float(ir_float_to_half((float)v));
	else if (f->type == IR_SFLOAT)
		v = (float)v;
	return v;
}

static long
check_planes(const struct timg *t, uint8_t *got[2], struct expect *e,
             const char *what)
{
	long bad = 0;

	for (unsigned p = 0; p < t->nplanes; p++) {
		const struct ir_format *pf = t->pf[p];
		uint8_t mask[16];
		ir_aspect_mask(t->fmt, t->aspect[p], mask);
		for (uint32_t m = 0; m < t->desc.mips; m++) {
			uint32_t b[3];
			timg_mip_blocks(t, m, b);
			for (uint32_t l = 0; l < t->desc.layers; l++)
			for (uint32_t z = 0; z < b[2]; z++)
			for (uint32_t y = 0; y < b[1]; y++)
			for (uint32_t x = 0; x < b[0]; x++) {
				const struct expect *ex =
					expect_at(e, t, p, m, l);
				const uint8_t *w =
					timg_block(t, p, m, l, x, y, z);
				const uint8_t *g = got[p] + (w - t->model[p]);
				double dv[4];
				bool ok = true;
				if (!ex->cleared) {
					for (unsigned i = 0; i < pf->bytes; i++)
						ok &= !((g[i] ^ w[i]) & mask[i]);
				} else {
					ir_decode(pf, g, true, dv);
					for (unsigned c = 0; c < 4; c++) {
						double want;
						if (!pf->ch[c].bits)
							continue;
						want = stored(pf, c, ex->v[c]);
						ok &= fabs(dv[c] - want) <=
						      ir_ulp(pf, c, want) *
						      1.0001;
					}
				}
				if (ok)
					continue;
				if (bad < 4) {
					fprintf(stderr, "    %s: aspect 0x%x mip"
					        " %u layer %u (%u,%u,%u) %s:",
					        what, t->aspect[p], m, l, x, y,
					        z, ex->cleared ? "cleared" :
					        "untouched");
					for (unsigned i = 0; i < pf->bytes; i++)
						fprintf(stderr, " %02x", g[i]);
					if (ex->cleared)
						fprintf(stderr, " want %g %g "
						        "%g %g", ex->v[0],
						        ex->v[1], ex->v[2],
						        ex->v[3]);
					fprintf(stderr, "\n");
				}
				bad++;
			}
		}
	}
	return bad;
}

/* Clear values exercising each numeric type (in range of the format:
 * out-of-range integer clear values are undefined). */
static void
clear_value(const struct ir_format *f, unsigned k, VkClearColorValue *cv,
            double v[4])
{
	static const float unorm[2][4] = { { 0.25f, 0.6f, 0.9f, 0.1f },
	                                   { 1.0f, 0.0f, 0.5f, 0.75f } };
	static const float snorm[2][4] = { { -0.5f, 0.25f, 0.75f, -1.0f },
	                                   { 1.0f, -0.125f, 0.0f, 0.3f } };
	static const float sfloat[2][4] = { { -2.5f, 1000.0f, 0.3f, 7.0f },
	                                    { 0.0f, -0.0625f, 65504.0f,
	                                      1e-3f } };

	for (unsigned c = 0; c < 4; c++) {
		unsigned bits = f->ch[c].bits ? f->ch[c].bits : 8;
		uint64_t max = bits >= 32 ? 0xffffffffull : (1ull << bits) - 1;
		/* Two's complement minimum of a bits-wide channel; for 64
		 * bits the negation of 2^63 must happen in unsigned. */
		int64_t smin = (int64_t)(0 - (1ull << (bits - 1)));
		switch (f->type) {
		case IR_UINT: {
			/* Near the top and a third of the range, kept in
			 * range for narrow (e.g. 2-bit alpha) channels. */
			uint64_t u = k ? max - (max >= 5 * c ? 5 * c : 0) :
			                 max / 3 + c;
			cv->uint32[c] = (uint32_t)(u > max ? max : u);
			v[c] = cv->uint32[c];
			break;
		}
		case IR_SINT: {
			int64_t smax = -smin - 1;
			int64_t i = k ? smin + 3 + c : smax - 1 - c;
			cv->int32[c] = (int32_t)(i < smin ? smin :
			                         i > smax ? smax : i);
			v[c] = cv->int32[c];
			break;
		}
		case IR_SNORM:
			cv->float32[c] = snorm[k][c];
			v[c] = cv->float32[c];
			break;
		case IR_SFLOAT:
			cv->float32[c] = sfloat[k][c];
			v[c] = cv->float32[c];
			break;
		default:
			cv->float32[c] = unorm[k][c];
			v[c] = cv->float32[c];
			break;
		}
	}
}

static bool
case_color(struct vkh *h, struct vkh_device *d, struct timg *t,
           uint32_t seed)
{
	struct expect e[MAX_SUBRES];
	VkClearColorValue cv[2];
	double v[2][4];
	uint32_t L = t->desc.layers, M = t->desc.mips;
	VkImageSubresourceRange first[2] = {
		/* mips 1.. of layers 1..2 (or everything past mip 0) */
		{ VK_IMAGE_ASPECT_COLOR_BIT, M > 1 ? 1 : 0,
		  VK_REMAINING_MIP_LEVELS, L > 1 ? 1 : 0, L > 2 ? 2 : 1 },
		/* mip 0 of the last layer onwards */
		{ VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, L - 1,
		  VK_REMAINING_ARRAY_LAYERS },
	};
	/* Overlaps the first: must win (commands execute in order). */
	VkImageSubresourceRange second = {
		VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, L > 1 ? L - 1 : 1,
	};
	VkCommandBuffer cb;
	uint8_t *got[2];
	char what[160];
	long bad;

	memset(e, 0, sizeof(e));
	clear_value(t->fmt, 0, &cv[0], v[0]);
	clear_value(t->fmt, 1, &cv[1], v[1]);
	timg_randomize(t, seed);
	if (timg_upload(h, d, t) != VK_SUCCESS)
		return false;
	cb = vkh_cmd_begin(d, 0);
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	vkCmdClearColorImage(cb, t->image, t->layout, &cv[0], 2, first);
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_GENERAL);
	vkCmdClearColorImage(cb, t->image, t->layout, &cv[1], 1, &second);
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS)
		return false;
	expect_range(e, t, &first[0], v[0], 0);
	expect_range(e, t, &first[1], v[0], 0);
	expect_range(e, t, &second, v[1], 0);
	if (timg_readback(h, d, t, got))
		return false;
	snprintf(what, sizeof(what), "%s %s %s mips %u layers %u",
	         t->fmt->name, timg_tiling_name(t->desc.tiling),
	         timg_type_name(&t->desc), M, L);
	bad = check_planes(t, got, e, what);
	free(got[0]);
	free(got[1]);
	if (bad)
		fprintf(stderr, "  clear %s: %ld bad texels\n", what, bad);
	return bad == 0;
}

static void
test_clear_color(struct vkh *h, struct vkh_device *d)
{
	unsigned run = 0, failed = 0, skipped = 0;
	uint32_t seed = 1;

	for (unsigned f = 0; f < N(color_formats); f++)
	for (unsigned ti = 0; ti < N(tilings); ti++)
	for (unsigned s = 0; s < N(color_shapes); s++, seed++) {
		struct timg_desc desc = color_shapes[s];
		const char *why = "";
		struct timg t;

		desc.format = color_formats[f];
		desc.tiling = tilings[ti];
		if (timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s %s %s: not reported (%s)\n",
			       ir_format_get(desc.format)->name,
			       timg_tiling_name(desc.tiling),
			       timg_type_name(&desc), why);
			skipped++;
			continue;
		}
		run++;
		if (timg_create(h, d, &desc, 0, &t) != VK_SUCCESS ||
		    !case_color(h, d, &t, seed)) {
			vkh_fail(h, __FILE__, __LINE__, "clear %s %s %s",
			         ir_format_get(desc.format)->name,
			         timg_tiling_name(desc.tiling),
			         timg_type_name(&desc));
			failed++;
		}
		timg_destroy(d, &t);
	}
	printf("  %u cases run, %u failed, %u not reported\n", run, failed,
	       skipped);
}

/* Every other decodable colour format of the reference table the device
 * reports for transfers: one 2D array with mips, both clear values. */
static void
test_clear_reported_formats(struct vkh *h, struct vkh_device *d)
{
	const struct ir_format *f;
	unsigned run = 0, failed = 0;

	for (unsigned i = 0; (f = ir_format_by_index(i)); i++) {
		struct timg_desc desc = { VK_IMAGE_TYPE_2D, f->vk,
		                          VK_IMAGE_TILING_OPTIMAL,
		                          { 23, 17, 1 }, 2, 3, 0 };
		const char *why = "";
		bool listed = false;
		struct timg t;

		for (unsigned k = 0; k < N(color_formats); k++)
			listed |= color_formats[k] == f->vk;
		if (listed || f->type == IR_OPAQUE || ir_format_is_ds(f) ||
		    timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS)
			continue;
		run++;
		if (timg_create(h, d, &desc, 0, &t) != VK_SUCCESS ||
		    !case_color(h, d, &t, 500 + i)) {
			vkh_fail(h, __FILE__, __LINE__, "clear %s", f->name);
			failed++;
		}
		timg_destroy(d, &t);
	}
	printf("  %u more formats cleared, %u failed\n", run, failed);
}

static const VkFormat ds_formats[] = {
	VK_FORMAT_D16_UNORM,
	VK_FORMAT_X8_D24_UNORM_PACK32,
	VK_FORMAT_D32_SFLOAT,
	VK_FORMAT_S8_UINT,
	VK_FORMAT_D16_UNORM_S8_UINT,
	VK_FORMAT_D24_UNORM_S8_UINT,
	VK_FORMAT_D32_SFLOAT_S8_UINT,
};

static bool
case_ds(struct vkh *h, struct vkh_device *d, struct timg *t, uint32_t seed)
{
	struct expect e[MAX_SUBRES];
	VkImageAspectFlags all = 0;
	const VkImageAspectFlags D = VK_IMAGE_ASPECT_DEPTH_BIT,
	                         S = VK_IMAGE_ASPECT_STENCIL_BIT;
	VkClearDepthStencilValue v1 = { 0.4f, 0x5a }, v2 = { 0.875f, 0xa5 };
	double dv1[4] = { 0.4f, 0, 0, 1 }, dv2[4] = { 0.875f, 0, 0, 1 };
	VkImageSubresourceRange r[3];
	unsigned nr = 0;
	VkCommandBuffer cb;
	uint8_t *got[2];
	char what[160];
	long bad;

	for (unsigned p = 0; p < t->nplanes; p++)
		all |= t->aspect[p];
	/* Per aspect where there are two, then both on one layer. */
	if (all & D)
		r[nr++] = (VkImageSubresourceRange){ D, 0, 1, 0, 2 };
	if (all & S)
		r[nr++] = (VkImageSubresourceRange){
			S, 1, VK_REMAINING_MIP_LEVELS, 0,
			VK_REMAINING_ARRAY_LAYERS };
	memset(e, 0, sizeof(e));
	timg_randomize(t, seed);
	if (timg_upload(h, d, t) != VK_SUCCESS)
		return false;
	cb = vkh_cmd_begin(d, 0);
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	vkCmdClearDepthStencilImage(cb, t->image, t->layout, &v1, nr, r);
	for (unsigned i = 0; i < nr; i++)
		expect_range(e, t, &r[i], dv1, v1.stencil);
	r[0] = (VkImageSubresourceRange){ all, 0, VK_REMAINING_MIP_LEVELS,
	                                  2, 1 };
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	vkCmdClearDepthStencilImage(cb, t->image, t->layout, &v2, 1, r);
	expect_range(e, t, &r[0], dv2, v2.stencil);
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS)
		return false;
	if (timg_readback(h, d, t, got))
		return false;
	snprintf(what, sizeof(what), "%s %s", t->fmt->name,
	         timg_tiling_name(t->desc.tiling));
	bad = check_planes(t, got, e, what);
	free(got[0]);
	free(got[1]);
	if (bad)
		fprintf(stderr, "  clear %s: %ld bad texels\n", what, bad);
	return bad == 0;
}

/* vkCmdClearDepthStencilImage needs a graphics queue; so does uploading
 * the random initial content of a depth/stencil aspect (07739). */
static void
test_clear_depth_stencil(struct vkh *h, struct vkh_device *d)
{
	unsigned run = 0, failed = 0, skipped = 0;

	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("07739");
	for (unsigned f = 0; f < N(ds_formats); f++)
	for (unsigned ti = 0; ti < N(tilings); ti++) {
		struct timg_desc desc = { VK_IMAGE_TYPE_2D, ds_formats[f],
		                          tilings[ti], { 19, 13, 1 }, 2, 3,
		                          0 };
		const char *why = "";
		struct timg t;

		if (timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s %s: not reported (%s)\n",
			       ir_format_get(desc.format)->name,
			       timg_tiling_name(desc.tiling), why);
			skipped++;
			continue;
		}
		run++;
		if (timg_create(h, d, &desc, 0, &t) != VK_SUCCESS ||
		    !case_ds(h, d, &t, 50 + f)) {
			vkh_fail(h, __FILE__, __LINE__, "clear %s %s",
			         ir_format_get(desc.format)->name,
			         timg_tiling_name(desc.tiling));
			failed++;
		}
		timg_destroy(d, &t);
	}
	printf("  %u cases run, %u failed, %u not reported\n", run, failed,
	       skipped);
}

static const struct vkh_test tests[] = {
	/* GRAPHICS or COMPUTE: the runner takes a family with COMPUTE. */
	{ "clear_color", test_clear_color, 1, VK_QUEUE_COMPUTE_BIT },
	{ "clear_reported_formats", test_clear_reported_formats, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "clear_depth_stencil", test_clear_depth_stencil, 1,
	  VK_QUEUE_GRAPHICS_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_image_clear", tests,
	                     N(tests));
}
