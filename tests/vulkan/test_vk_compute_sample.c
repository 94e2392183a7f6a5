/* SPDX-License-Identifier: MIT */
/*
 * Sampled images in compute shaders, through the loader (validation on,
 * synchronization validation included), on swgpu and lavapipe. Every
 * result goes to a storage buffer and is compared on the host with a
 * reference that follows the spec's Texel Filtering, Wrapping Operation,
 * Image Level(s) Selection and Unnormalized Texel Coordinate rules
 * (ref_sample below); coordinates sit a quarter (at fractional LODs an
 * eighth) of a texel off the texel grid so the filter weights are exact
 * and NEAREST never lands on a texel boundary. Tolerances: 2/255 for
 * UNORM8, 1e-3 for half/float, exact for integers. NEAREST mip selection
 * at a LOD of exactly .5 may round either way (the spec's preferred
 * ceil(d + 0.5) - 1 or its alternative floor(d + 0.5)): both accepted.
 *  - format_features: SAMPLED_IMAGE (+ FILTER_LINEAR) on the formats the
 *    spec makes mandatory, image format properties with SAMPLED usage;
 *  - mips (smp_mips): sampler2D over an 8x8 RGBA8 image with 3 levels:
 *    textureLod at LOD -1, 0, 1, 2, 3 and 0.25 .. 1.75 for NEAREST and
 *    LINEAR mag/min filters and mipmap modes (mixed ones too, and a
 *    sampler minLod/maxLod clamp), texelFetch of every texel of every
 *    level, textureSize per level and textureQueryLevels (the lod the
 *    same in a workgroup, and, except on lavapipe, whose llvmpipe reads
 *    a size query's lod from the first SIMD lane only, different in
 *    neighbouring invocations);
 *  - address_modes (smp_wrap): a 4x4 image sampled outside [0,1] with
 *    REPEAT, MIRRORED_REPEAT, CLAMP_TO_EDGE, CLAMP_TO_BORDER (opaque
 *    white, transparent black), different modes on u and v, and
 *    MIRROR_CLAMP_TO_EDGE when samplerMirrorClampToEdge is reported (on
 *    a device created with it), each NEAREST and LINEAR;
 *  - separate_immutable (smp_separate): texture2D + sampler combined in
 *    the shader, the sampler descriptor rewritten between dispatches, an
 *    immutable sampler, and a combined image sampler whose sampler is
 *    immutable (pImmutableSamplers);
 *  - unnormalized (smp_wrap): unnormalizedCoordinates, lod 0, NEAREST
 *    and LINEAR, clamp to edge (and to border);
 *  - array_3d_cube (smp_kinds): seamless LINEAR cube filtering at an
 *    edge and a corner (check_cube_seams); sampler2DArray over 3 layers
 *    (layer = RNE(z) clamped), sampler3D RGBA16F LINEAR (interpolation in z),
 *    samplerCube with 6 distinctly coloured faces (axis directions) and
 *    per-texel alpha (face orientation), and their textureSize;
 *  - uint (smp_uint): usampler2D on R32_UINT, NEAREST, textureLod with
 *    clamp and repeat, texelFetch: (v, 0, 0, 1) exactly;
 *  - depth (smp_wrap): D32_SFLOAT filled by a buffer->image copy of the
 *    depth aspect, sampled NEAREST: .r is the depth. That copy needs a
 *    GRAPHICS queue: without one the test skips, unless
 *    VKH_RELAXED_QUEUE_TYPES=1, which runs it on the compute queue with
 *    the layer's VUID-...-07739 expected (to check the sampling);
 *  - views (smp_mips): a view with baseMipLevel 1 (its level 0 is image
 *    level 1: sizes, levels, fetches and filtering follow) and 2D views
 *    with baseArrayLayer 1 and 2 of a 3-layer image.
 * The reference and the checks are in test_vk_compute_sample_ref.c, the
 * Vulkan plumbing in test_vk_compute_sample_vk.c.
 */
#include "test_vk_compute_sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smp_kinds.spv.h"
#include "smp_mips.spv.h"
#include "smp_uint.spv.h"
#include "smp_wrap.spv.h"

/* The frame of most sub-tests: image t of td, filled from seed and
 * ready; the io buffers; pipeline p of spv (pipe_2d); and *v, a 2D view
 * of all its levels of layer 0 described by *rv (VK_NULL_HANDLE after a
 * failed check). */
static void
setup_2d(struct vkh *h, struct vkh_device *d, const struct timg_desc *td,
         uint32_t seed, const uint32_t *spv, size_t spv_size, struct timg *t,
         struct io *io, struct vkh_pipe *p, struct rview *rv, VkImageView *v)
{
	*v = VK_NULL_HANDLE;
	VKH_CHECK_VK(h, image_make(h, d, td, seed, t));
	VKH_CHECK_VK(h, image_ready(h, d, t));
	VKH_CHECK_VK(h, io_create(h, d, io));
	VKH_CHECK_VK(h, pipe_2d(d, spv, spv_size, io, p));
	*rv = (struct rview){ t, RV_2D, 0, td->mips, 0, 1 };
	*v = make_view(d, rv, VK_IMAGE_VIEW_TYPE_2D);
	VKH_CHECK(h, *v != VK_NULL_HANDLE);
}

static void
teardown_2d(struct vkh_device *d, VkImageView v, struct timg *t,
            struct io *io, struct vkh_pipe *p)
{
	vkDestroyImageView(d->device, v, NULL);
	vkh_pipe_destroy(d, p);
	io_destroy(d, io);
	timg_destroy(d, t);
}

static void
test_format_features(struct vkh *h, struct vkh_device *unused)
{
	static const struct {
		VkFormat f;
		VkFormatFeatureFlags need;
	} fmts[] = {
		{ VK_FORMAT_R8G8B8A8_UNORM,
		  VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
		  VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT },
		{ VK_FORMAT_R16G16B16A16_SFLOAT,
		  VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
		  VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT },
		{ VK_FORMAT_R32G32B32A32_SFLOAT,
		  VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT },
		{ VK_FORMAT_R32_UINT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT },
		{ VK_FORMAT_D32_SFLOAT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT },
		{ VK_FORMAT_B10G11R11_UFLOAT_PACK32,
		  VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT },
	};
	VkFormatProperties p;
	VkImageFormatProperties ip;

	(void)unused;
	for (size_t i = 0; i < N(fmts); i++) {
		vkGetPhysicalDeviceFormatProperties(h->phys, fmts[i].f, &p);
		VKH_CHECK_MSG(h, (p.optimalTilingFeatures & fmts[i].need) ==
		              fmts[i].need, "format %d: optimal features 0x%x "
		              "lack 0x%x", fmts[i].f, p.optimalTilingFeatures,
		              fmts[i].need & ~p.optimalTilingFeatures);
		VkResult r = vkGetPhysicalDeviceImageFormatProperties(
			h->phys, fmts[i].f, VK_IMAGE_TYPE_2D,
			VK_IMAGE_TILING_OPTIMAL,
			VK_IMAGE_USAGE_SAMPLED_BIT |
			VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &ip);
		VKH_CHECK_MSG(h, r == VK_SUCCESS && ip.maxMipLevels > 1,
		              "format %d: SAMPLED 2D image: %s, %u levels",
		              fmts[i].f, vkh_result_str(r), ip.maxMipLevels);
	}
	vkGetPhysicalDeviceFormatProperties(h->phys,
	                                    VK_FORMAT_R32G32B32A32_SFLOAT, &p);
	printf("  (R32G32B32A32_SFLOAT FILTER_LINEAR: %s)\n",
	       p.optimalTilingFeatures &
	       VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT ? "yes" : "no");
}

/* texelFetch (mode 1) and textureSize/textureQueryLevels (mode 2)
 * results of check_view_2d. */
static void
check_fetch_size(struct tally *k, const struct rview *rv, struct io *io,
                 uint32_t n, double tol)
{
	for (uint32_t i = 0; i < n; i++) {
		const float *q = io->q[i];
		uint32_t l = (uint32_t)q[2];
		double want[4];

		if (q[3] == 1.0f) {
			ref_texel(rv, l, 0, (int32_t)q[0], (int32_t)q[1], 0,
			          want);
			check_exact(k, "texelFetch", q, io->r[i], want,
			            tol == TOL_UNORM8 ? TOL_FETCH8 : TOL_DEPTH);
		} else {
			VkExtent3D e = timg_mip_extent(rv->t,
			                               rv->base_mip + l);
			want[0] = e.width;
			want[1] = e.height;
			want[2] = rv->mips;
			want[3] = 0;
			check_exact(k, "textureSize, textureQueryLevels", q,
			            io->r[i], want, 0.0);
		}
	}
}

/* Every check of a sampler2D view through smp_mips: textureLod for each
 * sampler at each lod, at positions a quarter texel (at fractional lods
 * an eighth of the coarser level's texel) off the texel centers; then
 * texelFetch of every texel and textureSize/textureQueryLevels of every
 * level of the view. */
static void
check_view_2d(struct vkh *h, struct vkh_device *d, struct vkh_pipe *p,
              struct io *io, const struct rview *rv, VkImageView view,
              const struct sdesc *smp, size_t nsmp, const double *lods,
              size_t nlods, const char *what)
{
	double tol = tol_of(rv->t);
	char kase[96];

	for (size_t si = 0; si < nsmp; si++) {
		struct tally k = { what, 0, 0 };
		VkSampler s = make_sampler(d, &smp[si]);
		uint32_t n = 0;

		VKH_CHECK(h, s != VK_NULL_HANDLE);
		write_image(d, p->sets[0], 0,
		            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, s);
		for (size_t li = 0; li < nlods; li++) {
			double l = fmin(fmax(lods[li], 0.0), rv->mips - 1.0);
			bool frac = l != floor(l);
			VkExtent3D e = timg_mip_extent(rv->t, rv->base_mip +
			                               (uint32_t)ceil(l));
			double o0 = frac ? 0.375 : 0.25, o1 = 1.0 - o0;
			uint32_t xs[3] = { 0, e.width / 2, e.width - 1 };
			uint32_t ys[3] = { 0, e.height / 2, e.height - 1 };
			for (int xi = 0; xi < 3; xi++)
				for (int yi = 0; yi < 3; yi++) {
					set_q(io->q[n++], (xs[xi] + o0) / e.width,
					      (ys[yi] + o1) / e.height, lods[li], 0);
					set_q(io->q[n++], (xs[xi] + o1) / e.width,
					      (ys[yi] + o0) / e.height, lods[li], 0);
				}
		}
		VKH_CHECK_VK(h, io_run(h, d, p, io, n));
		snprintf(kase, sizeof(kase), "textureLod, sampler %s",
		         smp[si].name);
		for (uint32_t i = 0; i < n; i++)
			check_sample(&k, kase, rv, &smp[si], io->q[i], io->r[i],
			             tol, 0xf);
		vkDestroySampler(d->device, s, NULL);
		snprintf(kase, sizeof(kase), "%s, sampler %s", what,
		         smp[si].name);
		k.what = kase;
		TALLY_DONE(h, &k);
	}

	/* texelFetch and sizes (the samplers above are destroyed: a fresh
	 * one, which these ignore, in the descriptor). */
	VkSampler s = make_sampler(d, &smp[0]);
	struct tally k = { what, 0, 0 };
	uint32_t n = 0;

	VKH_CHECK(h, s != VK_NULL_HANDLE);
	write_image(d, p->sets[0], 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	            view, s);
	for (uint32_t l = 0; l < rv->mips; l++) {
		VkExtent3D e = timg_mip_extent(rv->t, rv->base_mip + l);
		for (uint32_t y = 0; y < e.height; y++)
			for (uint32_t x = 0; x < e.width; x++)
				set_q(io->q[n++], x, y, l, 1);
	}
	VKH_CHECK_VK(h, io_run(h, d, p, io, n));
	check_fetch_size(&k, rv, io, n, tol);
	/* Sizes: a whole workgroup per level (lavapipe 22.3 takes the lod
	 * of a size query from the first SIMD lane, active or not). */
	n = 0;
	for (uint32_t l = 0; l < rv->mips; l++)
		for (uint32_t i = 0; i < 64; i++)
			set_q(io->q[n++], 0, 0, l, 2);
	VKH_CHECK_VK(h, io_run(h, d, p, io, n));
	check_fetch_size(&k, rv, io, n, tol);
	/* And with a different lod in neighbouring invocations, which the
	 * spec allows (not on lavapipe, see above). */
	if (h->driver.driverID != VK_DRIVER_ID_MESA_LLVMPIPE) {
		n = 0;
		for (uint32_t i = 0; i < 64; i++)
			set_q(io->q[n++], 0, 0, i % rv->mips, 2);
		VKH_CHECK_VK(h, io_run(h, d, p, io, n));
		check_fetch_size(&k, rv, io, n, tol);
	}
	vkDestroySampler(d->device, s, NULL);
	snprintf(kase, sizeof(kase), "%s: texelFetch, textureSize", what);
	k.what = kase;
	TALLY_DONE(h, &k);
}

static const double all_lods[] = { -1.0, 0.0, 1.0, 2.0, 3.0, 0.25, 0.5,
                                   0.75, 1.25, 1.5, 1.75 };

static void
test_mips(struct vkh *h, struct vkh_device *d)
{
	static const struct sdesc smp[] = {
		SD("nearest", NEAREST, NEAREST, NEAREST, CLAMP_TO_EDGE),
		SD("linear", LINEAR, LINEAR, LINEAR, CLAMP_TO_EDGE),
		SD("linear_mip_nearest", LINEAR, LINEAR, NEAREST,
		   CLAMP_TO_EDGE),
		SD("nearest_mip_linear", NEAREST, NEAREST, LINEAR,
		   CLAMP_TO_EDGE),
		SD("mag_nearest_min_linear", NEAREST, LINEAR, LINEAR,
		   CLAMP_TO_EDGE),
		SD("mag_linear_min_nearest", LINEAR, NEAREST, NEAREST,
		   CLAMP_TO_EDGE),
		{ .name = "linear_lod_clamp_0.5_1.5", .mag = VK_FILTER_LINEAR,
		  .min = VK_FILTER_LINEAR, .mip = VK_SAMPLER_MIPMAP_MODE_LINEAR,
		  .am = { VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		          VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		          VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE },
		  .min_lod = 0.5f, .max_lod = 1.5f },
	};
	struct timg_desc td = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 8, 8, 1 }, 3, 1,
	                        0 };
	struct timg t;
	struct io io;
	struct vkh_pipe p;
	struct rview rv;
	VkImageView v;

	setup_2d(h, d, &td, 11, smp_mips_spv, sizeof(smp_mips_spv), &t, &io, &p,
	         &rv, &v);
	if (!v)
		return;
	check_view_2d(h, d, &p, &io, &rv, v, smp, N(smp), all_lods,
	              N(all_lods), "8x8 RGBA8, 3 levels");
	teardown_2d(d, v, &t, &io, &p);
}

/* Coordinates (texel units of a 4x4 image) outside and inside [0, 4). */
static const double wrap_u[] = { -5.75, -4.25, -2.75, -1.25, -0.25, 0.25,
                                 1.75, 2.25, 3.75, 4.25, 5.75, 7.25, 8.75,
                                 11.25 };
static const double wrap_v[] = { -2.25, -0.75, 1.25, 3.75, 4.75, 9.25 };

static uint32_t
wrap_queries(struct io *io, double scale)
{
	uint32_t n = 0;

	for (size_t j = 0; j < N(wrap_v); j++)
		for (size_t i = 0; i < N(wrap_u); i++)
			set_q(io->q[n++], wrap_u[i] * scale, wrap_v[j] * scale,
			      0, 0);
	return n;
}

/* textureLod through smp_wrap for each sampler, checked. */
static void
run_wrap_samplers(struct vkh *h, struct vkh_device *d, struct vkh_pipe *p,
                  struct io *io, const struct rview *rv, VkImageView view,
                  const struct sdesc *smp, size_t nsmp, uint32_t n,
                  const char *what)
{
	for (size_t si = 0; si < nsmp; si++) {
		char kase[96];
		struct tally k = { kase, 0, 0 };
		VkSampler s = make_sampler(d, &smp[si]);

		snprintf(kase, sizeof(kase), "%s, sampler %s", what,
		         smp[si].name);
		VKH_CHECK(h, s != VK_NULL_HANDLE);
		write_image(d, p->sets[0], 0,
		            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, s);
		VKH_CHECK_VK(h, io_run(h, d, p, io, n));
		for (uint32_t i = 0; i < n; i++)
			check_sample(&k, "textureLod", rv, &smp[si], io->q[i],
			             io->r[i], tol_of(rv->t), 0xf);
		vkDestroySampler(d->device, s, NULL);
		TALLY_DONE(h, &k);
	}
}

static void
wrap_body(struct vkh *h, struct vkh_device *d, bool mirror_clamp)
{
#define WR(nm, f, a) SD(nm, f, f, NEAREST, a)
	struct sdesc smp[] = {
		WR("repeat_nearest", NEAREST, REPEAT),
		WR("repeat_linear", LINEAR, REPEAT),
		WR("mirrored_repeat_nearest", NEAREST, MIRRORED_REPEAT),
		WR("mirrored_repeat_linear", LINEAR, MIRRORED_REPEAT),
		WR("clamp_to_edge_nearest", NEAREST, CLAMP_TO_EDGE),
		WR("clamp_to_edge_linear", LINEAR, CLAMP_TO_EDGE),
		WR("border_white_nearest", NEAREST, CLAMP_TO_BORDER),
		WR("border_white_linear", LINEAR, CLAMP_TO_BORDER),
		WR("border_transparent_black_nearest", NEAREST,
		   CLAMP_TO_BORDER),
		WR("border_transparent_black_linear", LINEAR, CLAMP_TO_BORDER),
		WR("u_repeat_v_mirrored_linear", LINEAR, REPEAT),
		WR("u_mirrored_v_border_white_nearest", NEAREST,
		   MIRRORED_REPEAT),
		WR("mirror_clamp_to_edge_nearest", NEAREST,
		   MIRROR_CLAMP_TO_EDGE),
		WR("mirror_clamp_to_edge_linear", LINEAR,
		   MIRROR_CLAMP_TO_EDGE),
	};
#undef WR
	struct timg_desc td = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 1,
	                        0 };
	size_t nsmp = N(smp) - (mirror_clamp ? 0 : 2);
	struct timg t;
	struct io io;
	struct vkh_pipe p;

	smp[6].border = smp[7].border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	smp[10].am[1] = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
	smp[11].am[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	smp[11].border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	struct rview rv;
	VkImageView v;

	setup_2d(h, d, &td, 21, smp_wrap_spv, sizeof(smp_wrap_spv), &t, &io, &p,
	         &rv, &v);
	if (!v)
		return;
	run_wrap_samplers(h, d, &p, &io, &rv, v, smp, nsmp,
	                  wrap_queries(&io, 0.25), "4x4 RGBA8");
	teardown_2d(d, v, &t, &io, &p);
}

/* MIRROR_CLAMP_TO_EDGE needs samplerMirrorClampToEdge enabled: a device
 * of its own with it when reported. */
static void
test_wrap(struct vkh *h, struct vkh_device *d)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f12,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_device md;

	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f12.samplerMirrorClampToEdge) {
		printf("  (samplerMirrorClampToEdge not reported: "
		       "MIRROR_CLAMP_TO_EDGE not checked)\n");
		wrap_body(h, d, false);
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	memset(&f12, 0, sizeof(f12));
	memset(&f13, 0, sizeof(f13));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.samplerMirrorClampToEdge = VK_TRUE;
	f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f13.pNext = &f12;
	f13.maintenance4 = h->maintenance4;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &md));
	wrap_body(h, &md, true);
	vkh_device_destroy(h, &md);
}

static void
test_separate(struct vkh *h, struct vkh_device *d)
{
	struct sdesc written[] = {
		SD("written_nearest_repeat", NEAREST, NEAREST, NEAREST,
		   REPEAT),
		SD("written_linear_clamp_to_edge", LINEAR, LINEAR, NEAREST,
		   CLAMP_TO_EDGE),
	};
	struct sdesc imm = SD("immutable_linear_mirrored_repeat", LINEAR,
	                      LINEAR, NEAREST, MIRRORED_REPEAT);
	struct sdesc cimm = SD("combined_immutable_nearest_border", NEAREST,
	                       NEAREST, NEAREST, CLAMP_TO_BORDER);
	struct timg_desc td = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 1,
	                        0 };
	struct timg t;
	struct io io;
	struct vkh_pipe p;
	VkSampler s_imm, s_cimm;

	cimm.border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	VKH_CHECK_VK(h, image_make(h, d, &td, 31, &t));
	VKH_CHECK_VK(h, image_ready(h, d, &t));
	VKH_CHECK_VK(h, io_create(h, d, &io));
	s_imm = make_sampler(d, &imm);
	s_cimm = make_sampler(d, &cimm);
	VKH_CHECK(h, s_imm && s_cimm);
	VKH_CHECK_VK(h, pipe_separate(d, s_imm, s_cimm, &p));
	io_bind(d, &p, &io, 4);
	struct rview rv = { &t, RV_2D, 0, 1, 0, 1 };
	VkImageView v = make_view(d, &rv, VK_IMAGE_VIEW_TYPE_2D);
	VKH_CHECK(h, v != VK_NULL_HANDLE);
	write_image(d, p.sets[0], 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, v,
	            VK_NULL_HANDLE);
	/* The sampler of binding 3 is immutable: only the view is read. */
	write_image(d, p.sets[0], 3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	            v, VK_NULL_HANDLE);
	uint32_t n = wrap_queries(&io, 0.25);
	for (size_t si = 0; si < N(written); si++) {
		const struct sdesc *sd[3] = { &written[si], &imm, &cimm };
		static const char *const kind[3] = {
			"sampler2D(t, s)", "sampler2D(t, immutable)",
			"combined, immutable",
		};
		VkSampler s = make_sampler(d, &written[si]);
		char what[96];
		struct tally k = { what, 0, 0 };

		VKH_CHECK(h, s != VK_NULL_HANDLE);
		write_image(d, p.sets[0], 1, VK_DESCRIPTOR_TYPE_SAMPLER,
		            VK_NULL_HANDLE, s);
		VKH_CHECK_VK(h, io_run(h, d, &p, &io, n));
		snprintf(what, sizeof(what), "dispatch %zu (s = %s)", si,
		         written[si].name);
		for (uint32_t i = 0; i < n; i++)
			for (int j = 0; j < 3; j++) {
				char kase[96];
				snprintf(kase, sizeof(kase), "%s [%s]",
				         kind[j], sd[j]->name);
				check_sample(&k, kase, &rv, sd[j], io.q[i],
				             io.r[3 * i + j], TOL_UNORM8, 0xf);
			}
		vkDestroySampler(d->device, s, NULL);
		TALLY_DONE(h, &k);
	}
	vkDestroyImageView(d->device, v, NULL);
	vkh_pipe_destroy(d, &p);
	vkDestroySampler(d->device, s_imm, NULL);
	vkDestroySampler(d->device, s_cimm, NULL);
	io_destroy(d, &io);
	timg_destroy(d, &t);
}

static void
test_unnormalized(struct vkh *h, struct vkh_device *d)
{
	static const double us[] = { -1.25, -0.25, 0.25, 0.75, 1.25, 2.75,
	                             3.25, 3.75, 4.25, 5.75 };
	static const double vs[] = { -0.75, 0.25, 1.75, 3.75, 4.25 };
	struct sdesc smp[] = {
		SD("unnormalized_nearest_clamp_to_edge", NEAREST, NEAREST,
		   NEAREST, CLAMP_TO_EDGE),
		SD("unnormalized_linear_clamp_to_edge", LINEAR, LINEAR,
		   NEAREST, CLAMP_TO_EDGE),
		SD("unnormalized_linear_border_white", LINEAR, LINEAR,
		   NEAREST, CLAMP_TO_BORDER),
	};
	struct timg_desc td = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 1,
	                        0 };
	struct timg t;
	struct io io;
	struct vkh_pipe p;
	uint32_t n = 0;

	for (size_t i = 0; i < N(smp); i++) {
		smp[i].unnorm = true;
		smp[i].max_lod = 0.0f;
	}
	smp[2].border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	struct rview rv;
	VkImageView v;

	setup_2d(h, d, &td, 41, smp_wrap_spv, sizeof(smp_wrap_spv), &t, &io, &p,
	         &rv, &v);
	if (!v)
		return;
	for (size_t j = 0; j < N(vs); j++)
		for (size_t i = 0; i < N(us); i++)
			set_q(io.q[n++], us[i], vs[j], 0, 0);
	run_wrap_samplers(h, d, &p, &io, &rv, v, smp, N(smp), n,
	                  "4x4 RGBA8, texel coordinates");
	teardown_2d(d, v, &t, &io, &p);
}

/* Cube faces +X, -X, +Y, -Y, +Z, -Z: solid RGB per face, alpha per texel
 * (so a wrong face orientation shows). */
static const uint8_t face_rgb[6][3] = {
	{ 255, 0, 0 }, { 0, 255, 255 }, { 0, 255, 0 },
	{ 255, 0, 255 }, { 0, 0, 255 }, { 255, 255, 0 },
};

static void
fill_kinds(struct timg *vol, struct timg *cube)
{
	for (uint32_t z = 0; z < 4; z++)
		for (uint32_t y = 0; y < 4; y++)
			for (uint32_t x = 0; x < 4; x++) {
				double c[4];
				for (uint32_t i = 0; i < 4; i++)
					c[i] = (double)((x * 5 + y * 3 + z * 7 +
					                 i * 11) % 17) / 16.0;
				ir_encode(vol->fmt, c,
				          timg_block(vol, 0, 0, 0, x, y, z));
			}
	for (uint32_t f = 0; f < 6; f++)
		for (uint32_t y = 0; y < 2; y++)
			for (uint32_t x = 0; x < 2; x++) {
				uint8_t *b = timg_block(cube, 0, 0, f, x, y, 0);
				memcpy(b, face_rgb[f], 3);
				b[3] = (uint8_t)(32 + 64 * (x + 2 * y));
			}
}

/* Texel (x, y) of face f of the cube fill_kinds makes, channel c. */
static double
cube_texel(uint32_t f, uint32_t x, uint32_t y, uint32_t c)
{
	return (c < 3 ? face_rgb[f][c] : 32 + 64 * (x + 2 * y)) / 255.0;
}

/* Seamless LINEAR cube filtering ("Cube Map Edge Handling"), on the 2x2
 * cube of test_kinds (binding 2, rewritten with a LINEAR sampler): near
 * +X's edge with -Z the texels beyond the edge are -Z's; near the corner
 * +X / +Y / -Z the texel beyond it is the average of the three texels
 * meeting there. */
static void
check_cube_seams(struct vkh *h, struct vkh_device *d, struct vkh_pipe *p,
                 struct io *io, VkImageView cube)
{
	static const struct sdesc lin =
		SD("cube_linear", LINEAR, LINEAR, NEAREST, CLAMP_TO_EDGE);
	/* +X maps (sc, tc) to (1, -tc, -sc) */
	static const double dir[2][3] = { { 1.0, 0.5, -0.999 },
	                                  { 1.0, 0.999, -0.999 } };
	struct tally k = { "samplerCube LINEAR across edges", 0, 0 };
	VkSampler s = make_sampler(d, &lin);

	VKH_CHECK(h, s != VK_NULL_HANDLE);
	write_image(d, p->sets[0], 2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	            cube, s);
	for (int i = 0; i < 2; i++)
		set_q(io->q[i], dir[i][0], dir[i][1], dir[i][2], 2);
	VKH_CHECK_VK(h, io_run(h, d, p, io, 2));
	for (uint32_t i = 0; i < 2; i++) {
		/* weights on +X, 2x2: u = s * 2 - 0.5, v likewise */
		double u = (-dir[i][2] + 1.0) - 0.5, v = (-dir[i][1] + 1.0) - 0.5;
		double a = u - floor(u), b = v - floor(v), want[4];

		for (uint32_t c = 0; c < 4; c++) {
			double x1 = cube_texel(0, 1, 0, c);   /* +X (1, 0) */
			double nz = cube_texel(5, 0, 0, c);   /* -Z (0, 0) */
			double py = cube_texel(2, 1, 0, c);   /* +Y (1, 0) */

			if (i == 0)     /* row 0: (1, 0) and beyond: -Z */
				want[c] = (1 - a) * x1 + a * nz;
			else            /* rows -1 (+Y, corner) and 0 */
				want[c] = (1 - a) * (1 - b) * py +
				          a * (1 - b) * (x1 + nz + py) / 3 +
				          (1 - a) * b * x1 + a * b * nz;
		}
		check_exact(&k, i ? "corner" : "edge", io->q[i], io->r[i], want,
		            0.01);
	}
	TALLY_DONE(h, &k);
	vkDestroySampler(d->device, s, NULL);
}

static void
test_kinds(struct vkh *h, struct vkh_device *d)
{
	static const double layers[] = { 0, 1, 2, 0.8, 1.3, -0.7, 3.6, 1.7 };
	static const double pos2[][2] = { { 0.25, 0.25 }, { 1.75, 2.25 },
	                                  { 3.75, 0.75 }, { 2.25, 3.25 } };
	static const double zs[] = { 0.25, 0.75, 1.5, 2.25, 3.75, 1.25 };
	static const double pos3[][2] = { { 0.75, 1.25 }, { 2.5, 3.5 },
	                                   { 3.25, 0.25 } };
	static const struct sdesc smp[3] = {
		SD("array_linear", LINEAR, LINEAR, NEAREST, CLAMP_TO_EDGE),
		SD("3d_linear", LINEAR, LINEAR, NEAREST, CLAMP_TO_EDGE),
		SD("cube_nearest", NEAREST, NEAREST, NEAREST, CLAMP_TO_EDGE),
	};
	static const char *const kind[3] = { "sampler2DArray", "sampler3D",
	                                     "samplerCube" };
	struct timg_desc da = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 3,
	                        0 };
	struct timg_desc dv = { VK_IMAGE_TYPE_3D,
	                        VK_FORMAT_R16G16B16A16_SFLOAT,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 4 }, 1, 1,
	                        0 };
	struct timg_desc dc = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 2, 2, 1 }, 1, 6,
	                        VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT };
	struct vkh_pipe_desc pd = {
		.spv = smp_kinds_spv, .spv_size = sizeof(smp_kinds_spv),
		.set_count = 1, .binding_count = { 5 },
		.types = { { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		             VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		             VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
		.push_bytes = 4,
	};
	struct timg arr, vol, cube;
	struct io io;
	struct vkh_pipe p;
	uint32_t n = 0, nmask[64], m = 0;

	VKH_CHECK_VK(h, image_make(h, d, &da, 51, &arr));
	VKH_CHECK_VK(h, image_make(h, d, &dv, 0, &vol));
	VKH_CHECK_VK(h, image_make(h, d, &dc, 0, &cube));
	fill_kinds(&vol, &cube);
	VKH_CHECK_VK(h, image_ready(h, d, &arr));
	VKH_CHECK_VK(h, image_ready(h, d, &vol));
	VKH_CHECK_VK(h, image_ready(h, d, &cube));
	VKH_CHECK_VK(h, io_create(h, d, &io));
	VKH_CHECK_VK(h, vkh_pipe_create(d, &pd, &p));
	io_bind(d, &p, &io, 3);
	struct rview rv[3] = {
		{ &arr, RV_ARRAY, 0, 1, 0, 3 },
		{ &vol, RV_3D, 0, 1, 0, 1 },
		{ &cube, RV_CUBE, 0, 1, 0, 6 },
	};
	static const VkImageViewType vt[3] = {
		VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_3D,
		VK_IMAGE_VIEW_TYPE_CUBE,
	};
	VkImageView v[3];
	VkSampler s[3];
	for (int i = 0; i < 3; i++) {
		v[i] = make_view(d, &rv[i], vt[i]);
		s[i] = make_sampler(d, &smp[i]);
		VKH_CHECK(h, v[i] && s[i]);
		write_image(d, p.sets[0], (uint32_t)i,
		            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, v[i],
		            s[i]);
	}
	for (size_t l = 0; l < N(layers); l++)
		for (size_t i = 0; i < N(pos2); i++)
			set_q(io.q[n++], pos2[i][0] / 4, pos2[i][1] / 4,
			      layers[l], 0);
	for (size_t z = 0; z < N(zs); z++)
		for (size_t i = 0; i < N(pos3); i++)
			set_q(io.q[n++], pos3[i][0] / 4, pos3[i][1] / 4,
			      zs[z] / 4, 1);
	/* Axis directions hit the middle of a face: its RGB only. Then
	 * each face's four texel centres (alpha too). */
	for (int a = 0; a < 3; a++)
		for (int sg = 1; sg >= -1; sg -= 2) {
			double r[3] = { 0, 0, 0 };
			r[a] = sg;
			nmask[m++] = n;
			set_q(io.q[n++], r[0], r[1], r[2], 2);
			for (int j = 0; j < 4; j++) {
				r[(a + 1) % 3] = j & 1 ? 0.5 : -0.5;
				r[(a + 2) % 3] = j & 2 ? 0.5 : -0.5;
				set_q(io.q[n++], r[0], r[1], r[2], 2);
			}
		}
	for (int i = 3; i < 6; i++)
		set_q(io.q[n++], 0, 0, 0, i);
	VKH_CHECK_VK(h, io_run(h, d, &p, &io, n));

	struct tally k = { "array, 3D, cube", 0, 0 };
	static const double sizes[3][4] = { { 4, 4, 3, 0 }, { 4, 4, 4, 0 },
	                                    { 2, 2, 0, 0 } };
	for (uint32_t i = 0, mi = 0; i < n; i++) {
		int mode = (int)io.q[i][3];
		unsigned mask = 0xf;
		if (mode >= 3) {
			check_exact(&k, "textureSize", io.q[i], io.r[i],
			            sizes[mode - 3], 0.0);
			continue;
		}
		if (mi < m && nmask[mi] == i) {
			mask = 0x7;
			mi++;
		}
		check_sample(&k, kind[mode], &rv[mode], &smp[mode], io.q[i],
		             io.r[i], tol_of(rv[mode].t), mask);
	}
	TALLY_DONE(h, &k);
	check_cube_seams(h, d, &p, &io, v[2]);
	for (int i = 0; i < 3; i++) {
		vkDestroyImageView(d->device, v[i], NULL);
		vkDestroySampler(d->device, s[i], NULL);
	}
	vkh_pipe_destroy(d, &p);
	io_destroy(d, &io);
	timg_destroy(d, &arr);
	timg_destroy(d, &vol);
	timg_destroy(d, &cube);
}

static void
test_uint(struct vkh *h, struct vkh_device *d)
{
	static const double out[][2] = { { -1.25, 0.75 }, { 5.25, 2.25 },
	                                 { 1.75, -3.25 }, { 6.75, 7.25 } };
	static const struct sdesc smp[] = {
		SD("nearest_clamp_to_edge", NEAREST, NEAREST, NEAREST,
		   CLAMP_TO_EDGE),
		SD("nearest_repeat", NEAREST, NEAREST, NEAREST, REPEAT),
	};
	struct timg_desc td = { VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 1,
	                        0 };
	struct timg t;
	struct io io;
	struct vkh_pipe p;
	struct rview rv;
	VkImageView v;

	setup_2d(h, d, &td, 61, smp_uint_spv, sizeof(smp_uint_spv), &t, &io, &p,
	         &rv, &v);
	if (!v)
		return;
	for (size_t si = 0; si < N(smp); si++) {
		char what[96];
		struct tally k = { what, 0, 0 };
		VkSampler s = make_sampler(d, &smp[si]);
		uint32_t n = 0;

		snprintf(what, sizeof(what), "R32_UINT, sampler %s",
		         smp[si].name);
		VKH_CHECK(h, s != VK_NULL_HANDLE);
		write_image(d, p.sets[0], 0,
		            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, v, s);
		for (uint32_t y = 0; y < 4; y++)
			for (uint32_t x = 0; x < 4; x++) {
				set_q(io.q[n++], (x + 0.25) / 4, (y + 0.75) / 4,
				      0, 0);
				set_q(io.q[n++], x, y, 0, 1);
			}
		for (size_t i = 0; i < N(out); i++)
			set_q(io.q[n++], out[i][0] / 4, out[i][1] / 4, 0, 0);
		VKH_CHECK_VK(h, io_run(h, d, &p, &io, n));
		for (uint32_t i = 0; i < n; i++) {
			const float *q = io.q[i];
			uint32_t got[4];
			double want[4], c[3] = { q[0], q[1], 0 };
			memcpy(got, io.r[i], sizeof(got));
			if (q[3] == 1.0f)
				ref_texel(&rv, 0, 0, (int32_t)q[0],
				          (int32_t)q[1], 0, want);
			else
				ref_sample(&rv, &smp[si], c, 0.0, false, want);
			k.n++;
			if (got[0] == (uint32_t)want[0] && got[1] == 0 &&
			    got[2] == 0 && got[3] == 1)
				continue;
			if (k.bad++ < MAX_REPORT)
				printf("  %s: %s at (%g, %g): got (%u, %u, %u, "
				       "%u), want (%u, 0, 0, 1)\n", what,
				       q[3] == 1.0f ? "texelFetch" :
				       "textureLod", q[0], q[1], got[0], got[1],
				       got[2], got[3], (uint32_t)want[0]);
		}
		vkDestroySampler(d->device, s, NULL);
		TALLY_DONE(h, &k);
	}
	teardown_2d(d, v, &t, &io, &p);
}

static void
test_depth(struct vkh *h, struct vkh_device *d)
{
	static const struct sdesc smp = SD("nearest", NEAREST, NEAREST,
	                                   NEAREST, CLAMP_TO_EDGE);
	const char *relaxed = getenv("VKH_RELAXED_QUEUE_TYPES");
	struct timg_desc td = { VK_IMAGE_TYPE_2D, VK_FORMAT_D32_SFLOAT,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 1,
	                        0 };
	struct timg t;
	struct io io;
	struct vkh_pipe p;

	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT)) {
		if (!relaxed || strcmp(relaxed, "1")) {
			vkh_skip(h, "a depth buffer->image copy needs a "
			         "GRAPHICS queue (VKH_RELAXED_QUEUE_TYPES=1 "
			         "runs it on the compute queue)");
			return;
		}
		printf("  (relaxed: depth upload on a queue without "
		       "GRAPHICS)\n");
		vkh_expect_message("07739");
	}
	struct rview rv;
	VkImageView v;

	setup_2d(h, d, &td, 71, smp_wrap_spv, sizeof(smp_wrap_spv), &t, &io, &p,
	         &rv, &v);
	if (!v)
		return;
	VkSampler s = make_sampler(d, &smp);
	struct tally k = { "D32_SFLOAT, NEAREST, .r", 0, 0 };
	uint32_t n = 0;

	VKH_CHECK(h, v && s);
	write_image(d, p.sets[0], 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	            v, s);
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 4; x++) {
			set_q(io.q[n++], (x + 0.25) / 4, (y + 0.75) / 4, 0, 0);
			set_q(io.q[n++], (x + 0.75) / 4, (y + 0.25) / 4, 0, 0);
		}
	set_q(io.q[n++], -0.3, 1.2, 0, 0);
	set_q(io.q[n++], 1.7, 0.4, 0, 0);
	VKH_CHECK_VK(h, io_run(h, d, &p, &io, n));
	for (uint32_t i = 0; i < n; i++)
		check_sample(&k, "textureLod", &rv, &smp, io.q[i], io.r[i],
		             TOL_DEPTH, 0x1);
	TALLY_DONE(h, &k);
	vkDestroySampler(d->device, s, NULL);
	teardown_2d(d, v, &t, &io, &p);
}

static void
test_views(struct vkh *h, struct vkh_device *d)
{
	static const struct sdesc smp[] = {
		SD("linear", LINEAR, LINEAR, LINEAR, CLAMP_TO_EDGE),
		SD("nearest", NEAREST, NEAREST, NEAREST, CLAMP_TO_EDGE),
	};
	static const double lods_mip[] = { -1.0, 0.0, 0.5, 1.0, 1.25, 2.0 };
	static const double lods_layer[] = { 0.0 };
	struct timg_desc dm = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 8, 8, 1 }, 3, 1,
	                        0 };
	struct timg_desc dl = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 3,
	                        0 };
	struct timg tm, tl;
	struct io io;
	struct vkh_pipe p;

	VKH_CHECK_VK(h, image_make(h, d, &dm, 81, &tm));
	VKH_CHECK_VK(h, image_make(h, d, &dl, 82, &tl));
	VKH_CHECK_VK(h, image_ready(h, d, &tm));
	VKH_CHECK_VK(h, image_ready(h, d, &tl));
	VKH_CHECK_VK(h, io_create(h, d, &io));
	VKH_CHECK_VK(h, pipe_2d(d, smp_mips_spv, sizeof(smp_mips_spv), &io,
	                        &p));
	struct rview rv[3] = {
		{ &tm, RV_2D, 1, 2, 0, 1 },
		{ &tl, RV_2D, 0, 1, 1, 1 },
		{ &tl, RV_2D, 0, 1, 2, 1 },
	};
	static const char *const what[3] = {
		"view baseMipLevel 1 (levels 1-2 of 3)",
		"2D view baseArrayLayer 1 of 3",
		"2D view baseArrayLayer 2 of 3",
	};
	for (int i = 0; i < 3; i++) {
		VkImageView v = make_view(d, &rv[i], VK_IMAGE_VIEW_TYPE_2D);
		VKH_CHECK(h, v != VK_NULL_HANDLE);
		if (i == 0)
			check_view_2d(h, d, &p, &io, &rv[i], v, smp, N(smp),
			              lods_mip, N(lods_mip), what[i]);
		else
			check_view_2d(h, d, &p, &io, &rv[i], v, smp, N(smp),
			              lods_layer, N(lods_layer), what[i]);
		vkDestroyImageView(d->device, v, NULL);
	}
	vkh_pipe_destroy(d, &p);
	io_destroy(d, &io);
	timg_destroy(d, &tm);
	timg_destroy(d, &tl);
}

static const struct vkh_test tests[] = {
	{ "format_features", test_format_features, 1, VK_QUEUE_COMPUTE_BIT },
	{ "mips", test_mips, 1, VK_QUEUE_COMPUTE_BIT },
	{ "address_modes", test_wrap, 1, VK_QUEUE_COMPUTE_BIT },
	{ "separate_immutable", test_separate, 1, VK_QUEUE_COMPUTE_BIT },
	{ "unnormalized", test_unnormalized, 1, VK_QUEUE_COMPUTE_BIT },
	{ "array_3d_cube", test_kinds, 1, VK_QUEUE_COMPUTE_BIT },
	{ "uint", test_uint, 1, VK_QUEUE_COMPUTE_BIT },
	{ "depth", test_depth, 1, VK_QUEUE_COMPUTE_BIT },
	{ "views", test_views, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_sample", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
