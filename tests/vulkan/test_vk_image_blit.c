/* SPDX-License-Identifier: MIT */
/*
 * test_vk_image_blit: vkCmdBlitImage against a host reference of the
 * spec's rules (image_ref.c: destination texel centers mapped into the
 * source region, clamp-to-edge, NEAREST or LINEAR, sRGB decoded before
 * filtering and encoded after, clamping to the destination's range,
 * missing components as (0, 0, 0, 1)).
 *
 * Each case blits six regions of a 2D array with mips -- scaling up,
 * scaling down from odd offsets, mirrored through the destination,
 * mirrored through the source, mirrored on both axes at 1:1, and mip 1
 * to mip 1 at a non-integer scale -- each into its own destination layer
 * (so no region overwrites another), plus two 3D regions with scaling and
 * mirroring in z. Every destination texel inside a region must lie in the
 * reference range; every byte outside must be untouched.
 *
 * Tolerances, from the spec's precision rules: the source coordinate may
 * be off by 2^-subTexelPrecisionBits texels (the reference returns the
 * range over that interval: NEAREST may pick either texel at a boundary,
 * LINEAR weights may move accordingly); the conversion to the destination
 * may be off by one ULP of the destination format, and filtering may
 * carry only the source format's precision: one ULP of the source per
 * interpolation (NEAREST: none, LINEAR: one per filtered axis, e.g.
 * llvmpipe filters UNORM8 in 8-bit fixed point).
 * Integer formats: exact.
 */
#include "image_vk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_REGIONS 6

struct pair {
	VkFormat src, dst;
};

static const struct pair pairs[] = {
	{ VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM },
	{ VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT },
	{ VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM },
	{ VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_SRGB },
	{ VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM },
	{ VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB },
	{ VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R16G16B16A16_UNORM },
	{ VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R16G16B16A16_SFLOAT },
	{ VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R8G8B8A8_SNORM },
	{ VK_FORMAT_R5G6B5_UNORM_PACK16, VK_FORMAT_R8G8B8A8_UNORM },
	{ VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16G16B16A16_SFLOAT },
	{ VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8B8A8_UNORM },
	{ VK_FORMAT_R32_SFLOAT, VK_FORMAT_R16_SFLOAT },
	{ VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R16G16B16A16_UINT },
	{ VK_FORMAT_R16_UINT, VK_FORMAT_R32_UINT },
	{ VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R32G32B32A32_SINT },
	{ VK_FORMAT_R16_SINT, VK_FORMAT_R32_SINT },
	{ VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT },
	{ VK_FORMAT_D16_UNORM, VK_FORMAT_D16_UNORM },
};

struct region {
	uint32_t src_mip, src_layer, dst_mip, dst_layer;
	int32_t s0[3], s1[3], d0[3], d1[3];
};

/* 2D: source 32x24 (2 mips, 2 layers), destination 41x30 (2 mips,
 * 6 layers). */
static const struct region regions_2d[MAX_REGIONS] = {
	/* scale up, whole to whole */
	{ 0, 0, 0, 0, { 0, 0, 0 }, { 32, 24, 1 }, { 0, 0, 0 },
	  { 41, 30, 1 } },
	/* scale down from odd offsets */
	{ 0, 1, 0, 1, { 1, 2, 0 }, { 31, 23, 1 }, { 3, 1, 0 },
	  { 17, 11, 1 } },
	/* mirrored in x through the destination corners */
	{ 0, 0, 0, 2, { 0, 0, 0 }, { 20, 16, 1 }, { 38, 3, 0 },
	  { 5, 27, 1 } },
	/* mirrored in y through the source corners */
	{ 0, 1, 0, 3, { 0, 24, 0 }, { 32, 0, 1 }, { 2, 2, 0 },
	  { 35, 26, 1 } },
	/* both axes mirrored, 1:1 */
	{ 0, 0, 0, 4, { 32, 0, 0 }, { 0, 24, 1 }, { 5, 30, 0 },
	  { 37, 6, 1 } },
	/* mip 1 -> mip 1, non-integer scale */
	{ 1, 0, 1, 5, { 0, 0, 0 }, { 16, 12, 1 }, { 1, 1, 0 },
	  { 19, 14, 1 } },
};

/* 3D: source 16x12x8, destination 21x9x5; disjoint z ranges. */
static const struct region regions_3d[2] = {
	{ 0, 0, 0, 0, { 0, 0, 0 }, { 16, 12, 8 }, { 0, 0, 0 },
	  { 21, 9, 3 } },
	{ 0, 0, 0, 0, { 16, 0, 8 }, { 0, 12, 0 }, { 2, 1, 3 },
	  { 19, 8, 5 } },
};

/* LINEAR tiling (one mip, one layer): mirrored on both axes, scaled. */
static const struct region regions_lin[1] = {
	{ 0, 0, 0, 0, { 32, 0, 0 }, { 0, 24, 1 }, { 3, 28, 0 },
	  { 30, 2, 1 } },
};

/* 1D arrays: source 64 texels x 2 layers, destination 41 x 2. */
static const struct region regions_1d[2] = {
	/* mirrored, scaled down */
	{ 0, 0, 0, 0, { 0, 0, 0 }, { 64, 1, 1 }, { 41, 0, 0 },
	  { 0, 1, 1 } },
	/* part of layer 1, scaled up, offset */
	{ 0, 1, 0, 1, { 7, 0, 0 }, { 20, 1, 1 }, { 3, 0, 0 },
	  { 38, 1, 1 } },
};

/* Source content: random codes for normalized/integer formats, values in
 * [-0.25, 1.25] for floats (so float -> UNORM exercises clamping). */
static void
fill_content(struct timg *t, uint32_t seed)
{
	const struct ir_format *pf = t->pf[0];
	struct ir_rng rng = { seed };

	timg_randomize(t, seed);
	if ((pf->type != IR_SFLOAT && pf->type != IR_UFLOAT) ||
	    ir_format_is_ds(t->fmt))
		return;
	/* Finite values, no denormals: a destination's untouched texels
	 * are compared bit for bit, and NaN payloads or denormals need
	 * not survive a driver's tile load/store. */
	for (size_t i = 0; i + pf->bytes <= t->plane_size[0];
	     i += pf->bytes) {
		double v[4];
		for (int c = 0; c < 4; c++) {
			v[c] = -0.25 + 1.5 * ((ir_rand(&rng) & 0xffff) /
			                      65536.0);
			if (fabs(v[c]) < 1.0 / 1024)
				v[c] = 0.0;
		}
		ir_encode(pf, v, t->model[0] + i);
	}
}

static bool
in_region(const struct region *r, int32_t x, int32_t y, int32_t z)
{
	const int32_t p[3] = { x, y, z };

	for (int k = 0; k < 3; k++) {
		int32_t lo = r->d0[k] < r->d1[k] ? r->d0[k] : r->d1[k];
		int32_t hi = r->d0[k] < r->d1[k] ? r->d1[k] : r->d0[k];
		if (p[k] < lo || p[k] >= hi)
			return false;
	}
	return true;
}

/* Range check of one destination texel; see the file comment. */
static bool
texel_ok(const struct ir_format *sf, const struct ir_format *df,
         unsigned stages, const uint8_t *g, const double lo[4],
         const double hi[4], double got[4])
{
	bool ok = true;

	ir_decode(df, g, true, got);
	for (unsigned c = 0; c < 4; c++) {
		double l = ir_clamp(df, c, lo[c]), u = ir_clamp(df, c, hi[c]);
		double tol;
		if (!df->ch[c].bits)
			continue;
		if (df->type == IR_SRGB && c < 3) {
			l = ir_linear_to_srgb(l);
			u = ir_linear_to_srgb(u);
		}
		tol = ir_ulp(df, c, fmax(fabs(l), fabs(u)));
		if (sf->ch[c].bits)
			tol += stages * ir_ulp(sf, c, fmax(fabs(lo[c]),
			                                   fabs(hi[c])));
		ok &= got[c] >= l - tol * 1.0001 && got[c] <= u + tol * 1.0001;
	}
	return ok;
}

static long
check_blit(const struct vkh *h, const struct timg *s, const struct timg *t,
           uint8_t *got, const struct region *rg, unsigned nr,
           VkFilter filter, const char *what)
{
	const struct ir_format *sf = s->pf[0], *df = t->pf[0];
	unsigned bits = h->props.limits.subTexelPrecisionBits;
	/* LINEAR: one interpolation per filtered axis, each of which may
	 * round to the source precision. */
	unsigned stages = filter == VK_FILTER_NEAREST ? 0 :
	                  s->desc.type == VK_IMAGE_TYPE_3D ? 3 : 2;
	uint8_t mask[16]; /* D24's top byte is undefined */
	long bad = 0;

	ir_aspect_mask(t->fmt, t->aspect[0], mask);

	for (uint32_t m = 0; m < t->desc.mips; m++)
	for (uint32_t l = 0; l < t->desc.layers; l++) {
		VkExtent3D e = timg_mip_extent(t, m);
		for (uint32_t z = 0; z < e.depth; z++)
		for (uint32_t y = 0; y < e.height; y++)
		for (uint32_t x = 0; x < e.width; x++) {
			const uint8_t *w = timg_block(t, 0, m, l, x, y, z);
			const uint8_t *g = got + (w - t->model[0]);
			const struct region *r = NULL;
			double lo[4], hi[4], v[4];
			bool ok;

			for (unsigned i = 0; i < nr; i++)
				if (rg[i].dst_mip == m && rg[i].dst_layer == l &&
				    in_region(&rg[i], (int32_t)x, (int32_t)y,
				              (int32_t)z))
					r = &rg[i];
			if (!r) {
				bool same = true;
				for (unsigned i = 0; i < df->bytes; i++)
					same &= !((g[i] ^ w[i]) & mask[i]);
				if (same)
					continue;
				if (bad++ < 4)
					fprintf(stderr, "    %s: untouched "
					        "texel mip %u layer %u (%u,%u,"
					        "%u) changed\n", what, m, l, x,
					        y, z);
				continue;
			}
			{
				VkExtent3D se = timg_mip_extent(s, r->src_mip);
				struct ir_surface src = {
					sf, se.width, se.height, se.depth,
					timg_block(s, 0, r->src_mip,
					           r->src_layer, 0, 0, 0),
				};
				ir_blit_range(&src, r->s0, r->s1, r->d0, r->d1,
				              filter, bits, (int32_t)x,
				              (int32_t)y, (int32_t)z, lo, hi);
			}
			ok = texel_ok(sf, df, stages, g, lo, hi, v);
			if (ok)
				continue;
			if (bad++ < 4)
				fprintf(stderr, "    %s: mip %u layer %u (%u,%u,"
				        "%u) got %g %g %g %g, want [%g,%g] "
				        "[%g,%g] [%g,%g] [%g,%g]\n", what, m,
				        l, x, y, z, v[0], v[1], v[2], v[3],
				        lo[0], hi[0], lo[1], hi[1], lo[2],
				        hi[2], lo[3], hi[3]);
		}
	}
	return bad;
}

static bool
case_blit(struct vkh *h, struct vkh_device *d, struct timg *s,
          struct timg *t, const struct region *rg, unsigned nr,
          VkFilter filter, uint32_t seed, const char *what)
{
	VkCommandBuffer cb;
	uint8_t *got[2];
	long bad;
	bool multi = seed % 3 == 0;
	VkImageBlit all[MAX_REGIONS];

	fill_content(s, seed);
	fill_content(t, seed + 3);
	if (timg_upload(h, d, s) != VK_SUCCESS ||
	    timg_upload(h, d, t) != VK_SUCCESS)
		return false;
	cb = vkh_cmd_begin(d, 0);
	timg_barrier(cb, s, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	for (unsigned i = 0; i < nr; i++) {
		VkImageBlit b = {
			.srcSubresource = { s->aspect[0], rg[i].src_mip,
			                    rg[i].src_layer, 1 },
			.srcOffsets = {
				{ rg[i].s0[0], rg[i].s0[1], rg[i].s0[2] },
				{ rg[i].s1[0], rg[i].s1[1], rg[i].s1[2] } },
			.dstSubresource = { t->aspect[0], rg[i].dst_mip,
			                    rg[i].dst_layer, 1 },
			.dstOffsets = {
				{ rg[i].d0[0], rg[i].d0[1], rg[i].d0[2] },
				{ rg[i].d1[0], rg[i].d1[1], rg[i].d1[2] } },
		};
		if (multi) {
			/* Every third case: all regions in one command (their
			 * destinations are disjoint). */
			all[i] = b;
			if (i + 1 < nr)
				continue;
			timg_barrier(cb, t,
			             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			vkCmdBlitImage(cb, s->image, s->layout, t->image,
			               t->layout, nr, all, filter);
			continue;
		}
		timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		if (seed & 1) {
			/* The vkCmdBlitImage2 form (Vulkan 1.3 core). */
			VkImageBlit2 b2 = {
				.sType = VK_STRUCTURE_TYPE_IMAGE_BLIT_2,
				.srcSubresource = b.srcSubresource,
				.srcOffsets = { b.srcOffsets[0],
				                b.srcOffsets[1] },
				.dstSubresource = b.dstSubresource,
				.dstOffsets = { b.dstOffsets[0],
				                b.dstOffsets[1] },
			};
			VkBlitImageInfo2 info = {
				.sType = VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2,
				.srcImage = s->image,
				.srcImageLayout = s->layout,
				.dstImage = t->image,
				.dstImageLayout = t->layout,
				.regionCount = 1,
				.pRegions = &b2,
				.filter = filter,
			};
			vkCmdBlitImage2(cb, &info);
		} else {
			vkCmdBlitImage(cb, s->image, s->layout, t->image,
			               t->layout, 1, &b, filter);
		}
	}
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS)
		return false;
	if (timg_readback(h, d, t, got))
		return false;
	bad = check_blit(h, s, t, got[0], rg, nr, filter, what);
	free(got[0]);
	free(got[1]);
	if (bad)
		fprintf(stderr, "  blit %s: %ld bad texels\n", what, bad);
	return bad == 0;
}

/* SHAPE_SMALL: 2D optimal, one mip and layer, the single region of
 * SHAPE_LINEAR (mirrored on both axes, scaled). */
enum shape { SHAPE_2D, SHAPE_3D, SHAPE_LINEAR, SHAPE_1D, SHAPE_SMALL };

static void
run_pairs(struct vkh *h, struct vkh_device *d, enum shape shape,
          const struct pair *list, unsigned npairs)
{
	bool three_d = shape == SHAPE_3D;
	bool small = shape == SHAPE_LINEAR || shape == SHAPE_SMALL;
	const struct region *rg = three_d ? regions_3d :
	                          small ? regions_lin :
	                          shape == SHAPE_1D ? regions_1d : regions_2d;
	unsigned nr = three_d ? N(regions_3d) :
	              small ? N(regions_lin) :
	              shape == SHAPE_1D ? N(regions_1d) : N(regions_2d);

	unsigned run = 0, failed = 0, skipped = 0;

	for (unsigned i = 0; i < npairs; i++)
	for (unsigned fi = 0; fi < 2; fi++) {
		VkFilter filter = fi ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
		struct timg_desc sd = { VK_IMAGE_TYPE_2D, list[i].src,
		                        VK_IMAGE_TILING_OPTIMAL, { 32, 24, 1 },
		                        2, 2, 0 };
		struct timg_desc dd = { VK_IMAGE_TYPE_2D, list[i].dst,
		                        VK_IMAGE_TILING_OPTIMAL, { 41, 30, 1 },
		                        2, 6, 0 };
		VkFormatFeatureFlags sneed = VK_FORMAT_FEATURE_BLIT_SRC_BIT;
		const char *why = "";
		struct timg s, t;
		char what[128];

		if (three_d) {
			sd.type = dd.type = VK_IMAGE_TYPE_3D;
			sd.extent = (VkExtent3D){ 16, 12, 8 };
			dd.extent = (VkExtent3D){ 21, 9, 5 };
			sd.mips = dd.mips = 1;
			sd.layers = dd.layers = 1;
		}
		if (shape == SHAPE_1D) {
			sd.type = dd.type = VK_IMAGE_TYPE_1D;
			sd.extent = (VkExtent3D){ 64, 1, 1 };
			dd.extent = (VkExtent3D){ 41, 1, 1 };
			sd.mips = dd.mips = 1;
			dd.layers = 2;
		}
		if (small) {
			if (shape == SHAPE_LINEAR)
				sd.tiling = dd.tiling = VK_IMAGE_TILING_LINEAR;
			sd.mips = dd.mips = 1;
			sd.layers = dd.layers = 1;
		}
		if (filter == VK_FILTER_LINEAR)
			sneed |=
			VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
		snprintf(what, sizeof(what), "%s -> %s %s %s",
		         ir_format_get(list[i].src)->name,
		         ir_format_get(list[i].dst)->name,
		         fi ? "linear" : "nearest", three_d ? "3d" :
		         shape == SHAPE_LINEAR ? "2d linear-tiling" :
		         shape == SHAPE_1D ? "1d array" : "2d");
		if (timg_supported(h, &sd, 0, sneed, &why) != VK_SUCCESS ||
		    timg_supported(h, &dd, 0, VK_FORMAT_FEATURE_BLIT_DST_BIT,
		                   &why) != VK_SUCCESS) {
			printf("  skip %s: not reported (%s)\n", what, why);
			skipped++;
			continue;
		}
		run++;
		memset(&t, 0, sizeof(t));
		if (timg_create(h, d, &sd, 0, &s) != VK_SUCCESS ||
		    timg_create(h, d, &dd, 0, &t) != VK_SUCCESS ||
		    !case_blit(h, d, &s, &t, rg, nr, filter, 7 * i + fi + 1,
		               what)) {
			vkh_fail(h, __FILE__, __LINE__, "blit %s", what);
			failed++;
		}
		timg_destroy(d, &s);
		timg_destroy(d, &t);
	}
	printf("  %u cases run, %u failed, %u not reported\n", run, failed,
	       skipped);
}

/* The depth/stencil content of the sources is uploaded with buffer ->
 * image copies of the depth aspect, which need graphics (07739). */
static void
test_blit_2d(struct vkh *h, struct vkh_device *d)
{
	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("07739");
	run_pairs(h, d, SHAPE_2D, pairs, N(pairs));
}

static void
test_blit_linear_tiling(struct vkh *h, struct vkh_device *d)
{
	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("07739");
	run_pairs(h, d, SHAPE_LINEAR, pairs, N(pairs));
}

/* Every decodable format of the reference table that the device reports
 * BLIT_SRC|BLIT_DST for (optimal tiling) is blitted to itself, NEAREST
 * and, where FILTER_LINEAR is reported, LINEAR: nothing may be
 * advertised that does not work. */
static void
test_reported_blit_formats(struct vkh *h, struct vkh_device *d)
{
	const VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT |
	                                  VK_FORMAT_FEATURE_BLIT_DST_BIT;
	struct pair list[96];
	const struct ir_format *f;
	unsigned n = 0;
	bool covered;

	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("07739");
	for (unsigned i = 0; (f = ir_format_by_index(i)) && n < N(list);
	     i++) {
		VkFormatProperties fp;
		/* Depth/stencil: the first aspect (depth, or stencil for
		 * S8) through its plane format. */
		bool decodable = f->type != IR_OPAQUE || ir_format_is_ds(f);
		vkGetPhysicalDeviceFormatProperties(h->phys, f->vk, &fp);
		if ((fp.optimalTilingFeatures & blit) != blit)
			continue;
		if (!decodable) {
			printf("  %s: blit reported, no host reference here "
			       "(not checked)\n", f->name);
			continue;
		}
		/* Same-format pairs the other blit tests cover already. */
		covered = false;
		for (unsigned j = 0; j < N(pairs); j++)
			covered |= pairs[j].src == f->vk &&
			           pairs[j].dst == f->vk;
		if (!covered)
			list[n++] = (struct pair){ f->vk, f->vk };
	}
	printf("  %u more blit-capable formats with a reference\n", n);
	run_pairs(h, d, SHAPE_SMALL, list, n);
}

static void
test_blit_1d(struct vkh *h, struct vkh_device *d)
{
	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("07739");
	run_pairs(h, d, SHAPE_1D, pairs, N(pairs));
}

static void
test_blit_3d(struct vkh *h, struct vkh_device *d)
{
	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("07739");
	run_pairs(h, d, SHAPE_3D, pairs, N(pairs));
}

static void
mip_barrier(VkCommandBuffer cb, const struct timg *t, uint32_t mip,
            VkImageLayout from, VkImageLayout to)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
		.oldLayout = from,
		.newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = t->image,
		.subresourceRange = { t->aspect[0], mip, 1, 0, 1 },
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &b);
}

/* Mip chain generation inside one image, the common use of blits: mip
 * i-1 -> mip i for every level, each level's source in TRANSFER_SRC and
 * its destination in TRANSFER_DST layout. Level i is checked against the
 * reference computed from what the device produced for level i-1. */
static void
test_mipgen(struct vkh *h, struct vkh_device *d)
{
	static const struct {
		VkFormat f;
		VkFilter filter;
	} cases[] = {
		{ VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_LINEAR },
		{ VK_FORMAT_R8G8B8A8_SRGB, VK_FILTER_LINEAR },
		{ VK_FORMAT_R16G16B16A16_SFLOAT, VK_FILTER_LINEAR },
		{ VK_FORMAT_R32_SFLOAT, VK_FILTER_NEAREST },
		{ VK_FORMAT_R8G8B8A8_UINT, VK_FILTER_NEAREST },
	};

	for (unsigned c = 0; c < N(cases); c++) {
		struct timg_desc desc = { VK_IMAGE_TYPE_2D, cases[c].f,
		                          VK_IMAGE_TILING_OPTIMAL,
		                          { 37, 29, 1 }, 6, 1, 0 };
		VkFormatFeatureFlags need = VK_FORMAT_FEATURE_BLIT_SRC_BIT |
		                            VK_FORMAT_FEATURE_BLIT_DST_BIT;
		struct region rg[MAX_REGIONS];
		const char *why = "";
		VkCommandBuffer cb;
		struct timg t, g;
		uint8_t *got[2];
		char what[96];
		long bad;

		if (cases[c].filter == VK_FILTER_LINEAR)
			need |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
		if (timg_supported(h, &desc, 0, need, &why) != VK_SUCCESS) {
			printf("  skip mipgen %s: not reported (%s)\n",
			       ir_format_get(cases[c].f)->name, why);
			continue;
		}
		snprintf(what, sizeof(what), "mipgen %s %s",
		         ir_format_get(cases[c].f)->name,
		         cases[c].filter == VK_FILTER_LINEAR ? "linear" :
		                                              "nearest");
		VKH_CHECK_VK(h, timg_create(h, d, &desc, 0, &t));
		fill_content(&t, 300 + c);
		VKH_CHECK_VK(h, timg_upload(h, d, &t));
		cb = vkh_cmd_begin(d, 0);
		for (uint32_t m = 1; m < desc.mips; m++) {
			VkExtent3D a = timg_mip_extent(&t, m - 1);
			VkExtent3D b = timg_mip_extent(&t, m);
			VkImageBlit blit = {
				.srcSubresource = { t.aspect[0], m - 1, 0, 1 },
				.srcOffsets = { { 0, 0, 0 },
				                { (int32_t)a.width,
				                  (int32_t)a.height, 1 } },
				.dstSubresource = { t.aspect[0], m, 0, 1 },
				.dstOffsets = { { 0, 0, 0 },
				                { (int32_t)b.width,
				                  (int32_t)b.height, 1 } },
			};
			rg[m - 1] = (struct region){
				m - 1, 0, m, 0, { 0, 0, 0 },
				{ (int32_t)a.width, (int32_t)a.height, 1 },
				{ 0, 0, 0 },
				{ (int32_t)b.width, (int32_t)b.height, 1 } };
			mip_barrier(cb, &t, m - 1,
			            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			vkCmdBlitImage(cb, t.image,
			               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			               t.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
			               &blit, cases[c].filter);
		}
		mip_barrier(cb, &t, desc.mips - 1,
		            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		t.layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
		VKH_CHECK(h, timg_readback(h, d, &t, got) == 0);
		/* The source of each level is what the device made. */
		g = t;
		g.model[0] = got[0];
		bad = check_blit(h, &g, &t, got[0], rg, desc.mips - 1,
		                 cases[c].filter, what);
		free(got[0]);
		free(got[1]);
		timg_destroy(d, &t);
		VKH_CHECK_MSG(h, bad == 0, "%s: %ld bad texels", what, bad);
		printf("  %s: %u levels OK\n", what, desc.mips);
	}
}

static const struct vkh_test tests[] = {
	{ "blit_2d", test_blit_2d, 1, VK_QUEUE_GRAPHICS_BIT },
	{ "blit_3d", test_blit_3d, 1, VK_QUEUE_GRAPHICS_BIT },
	{ "blit_1d", test_blit_1d, 1, VK_QUEUE_GRAPHICS_BIT },
	{ "mipgen", test_mipgen, 1, VK_QUEUE_GRAPHICS_BIT },
	{ "reported_blit_formats", test_reported_blit_formats, 1,
	  VK_QUEUE_GRAPHICS_BIT },
	{ "blit_linear_tiling", test_blit_linear_tiling, 1,
	  VK_QUEUE_GRAPHICS_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_image_blit", tests,
	                     N(tests));
}
