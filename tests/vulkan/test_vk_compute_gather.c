/* SPDX-License-Identifier: MIT */
/*
 * Texel gathers in compute shaders (textureGather, textureGatherOffset
 * with a constant and a dynamic offset, textureGatherOffsets), through
 * the loader with validation on, on swgpu and lavapipe: an 8x8 RGBA8
 * image with 3 levels (gathers read the base level whatever the LOD
 * filters say) under REPEAT, MIRRORED_REPEAT and CLAMP_TO_EDGE samplers
 * (LINEAR and NEAREST: gathers ignore the filter), at positions a
 * quarter texel off the grid inside and outside [0, 1]. The reference
 * is the spec's "Texel Gathering": the four texels of the LINEAR
 * footprint, (i0, j1), (i1, j1), (i1, j0), (i0, j0), each wrapped by the
 * address mode; with four offsets, the i0j0 texel at each. Also checks
 * that the gather offset limits cover the spec's minimum (-8..7).
 * Shares test_vk_compute_sample's image and reference plumbing.
 */
#include "test_vk_compute_sample.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "smp_gather.spv.h"

#define SIZE 8

static int32_t
wrap(int32_t i, VkSamplerAddressMode m)
{
	switch (m) {
	case VK_SAMPLER_ADDRESS_MODE_REPEAT:
		return ((i % SIZE) + SIZE) % SIZE;
	case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
		int32_t t = ((i % (2 * SIZE)) + 2 * SIZE) % (2 * SIZE);

		return t < SIZE ? t : 2 * SIZE - 1 - t;
	}
	default:
		return i < 0 ? 0 : i >= SIZE ? SIZE - 1 : i;
	}
}

/* The expected gather of query q. */
static void
ref_gather(const struct rview *rv, const struct sdesc *s, const float q[4],
           double want[4])
{
	static const int32_t corner[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 },
	                                      { 0, 0 } };
	static const int32_t offs[4][2] = { { 0, 0 }, { 1, -1 }, { -2, 3 },
	                                    { 4, 0 } };
	const int mode = (int)q[2], o = (int)q[3];
	const int32_t i0 = (int32_t)floor(q[0] * SIZE - 0.5);
	const int32_t j0 = (int32_t)floor(q[1] * SIZE - 0.5);
	uint32_t comp = mode < 4 ? (uint32_t)mode : (uint32_t)mode - 3;

	for (uint32_t k = 0; k < 4; k++) {
		int32_t dx = corner[k][0], dy = corner[k][1];
		double t[4];

		if (mode == 4) {
			dx += -3;
			dy += 2;
		} else if (mode == 5) {
			dx = offs[k][0];
			dy = offs[k][1];
		} else if (mode == 6) {
			dx += o;
			dy += o - 1;
		}
		ref_texel(rv, 0, 0, wrap(i0 + dx, s->am[0]),
		          wrap(j0 + dy, s->am[1]), 0, t);
		want[k] = t[comp];
	}
}

static void
test_gather(struct vkh *h, struct vkh_device *unused)
{
	static const struct sdesc smp[] = {
		SD("linear_repeat", LINEAR, LINEAR, LINEAR, REPEAT),
		SD("nearest_mirrored_repeat", NEAREST, NEAREST, NEAREST,
		   MIRRORED_REPEAT),
		SD("linear_clamp_to_edge", LINEAR, LINEAR, NEAREST,
		   CLAMP_TO_EDGE),
	};
	static const double pos[] = { -1.25, -0.25, 0.25, 1.75, 3.25, 4.75,
	                              6.25, 7.75, 9.25, 13.75 };
	const VkPhysicalDeviceLimits *l = &h->props.limits;
	VkPhysicalDeviceFeatures have;
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = VK_TRUE,   /* glslang's LocalSizeId */
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
		.features.shaderImageGatherExtended = VK_TRUE,
	};
	struct timg_desc td = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { SIZE, SIZE, 1 }, 3,
	                        1, 0 };
	struct vkh_device d;
	struct timg t;
	struct io io;
	struct vkh_pipe p;
	struct rview rv;
	VkImageView v;

	(void)unused;
	VKH_CHECK_MSG(h, l->minTexelGatherOffset <= -8 &&
	              l->maxTexelGatherOffset >= 7, "gather offsets %d..%u "
	              "below the spec's -8..7", l->minTexelGatherOffset,
	              l->maxTexelGatherOffset);
	vkGetPhysicalDeviceFeatures(h->phys, &have);
	if (!have.shaderImageGatherExtended) {
		vkh_skip(h, "shaderImageGatherExtended");
		return;
	}
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VKH_CHECK_VK(h, image_make(h, &d, &td, 71, &t));
	VKH_CHECK_VK(h, image_ready(h, &d, &t));
	VKH_CHECK_VK(h, io_create(h, &d, &io));
	VKH_CHECK_VK(h, pipe_2d(&d, smp_gather_spv, sizeof(smp_gather_spv),
	                        &io, &p));
	rv = (struct rview){ &t, RV_2D, 0, td.mips, 0, 1 };
	v = make_view(&d, &rv, VK_IMAGE_VIEW_TYPE_2D);
	VKH_CHECK(h, v != VK_NULL_HANDLE);
	for (size_t si = 0; si < N(smp); si++) {
		char what[96];
		struct tally k = { what, 0, 0 };
		VkSampler s = make_sampler(&d, &smp[si]);
		uint32_t n = 0;

		snprintf(what, sizeof(what), "gathers, sampler %s",
		         smp[si].name);
		VKH_CHECK(h, s != VK_NULL_HANDLE);
		write_image(&d, p.sets[0], 0,
		            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, v, s);
		for (size_t yi = 0; yi < N(pos); yi += 3)
			for (size_t xi = 0; xi < N(pos); xi++)
				for (int mode = 0; mode < 7; mode++)
					set_q(io.q[n++], pos[xi] / SIZE,
					      pos[(yi + xi) % N(pos)] / SIZE,
					      mode, (double)(xi % 5) - 2.0);
		VKH_CHECK_VK(h, io_run(h, &d, &p, &io, n));
		for (uint32_t i = 0; i < n; i++) {
			double want[4];

			ref_gather(&rv, &smp[si], io.q[i], want);
			check_exact(&k, "gather", io.q[i], io.r[i], want,
			            TOL_FETCH8);
		}
		vkDestroySampler(d.device, s, NULL);
		TALLY_DONE(h, &k);
	}
	vkDestroyImageView(d.device, v, NULL);
	vkh_pipe_destroy(&d, &p);
	io_destroy(&d, &io);
	timg_destroy(&d, &t);
	vkh_device_destroy(h, &d);
}

int
main(int argc, char **argv)
{
	static const struct vkh_test tests[] = {
		{ "gather", test_gather, 0, 0 },
	};

	return vkh_run_tests(argc, argv, "test_vk_compute_gather", tests,
	                     N(tests));
}
