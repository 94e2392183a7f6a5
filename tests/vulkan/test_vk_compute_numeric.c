/* SPDX-License-Identifier: MIT */
/*
 * Integer dot products (shaderIntegerDotProduct with shaderInt8/16/64)
 * and the RoundingModeRTZ execution mode (where the float controls
 * properties report it) through the loader with the validation layer
 * on: the hand-written SPIR-V of the engine tests (tests/swgpu/shaders/
 * sh_idot.spvasm, sh_rtz.spvasm) with the same hand-computed results,
 * on swgpu and on lavapipe. Skips (77) without a COMPUTE queue.
 */
#include "vkh_compute.h"

#include <stdio.h>
#include <string.h>

#include "sh_idot.spv.h"
#include "sh_rtz.spv.h"

static const uint32_t idot_in[14] = {
	0x80ff7f02u, 0x7f80ff03u, 0x80007000u, 0x01020304u, 5, 0x80000000u,
	0x000001fau, 0, 0, 1, 0x40000000u, 1, 0xffffffffu, 0x7ffffffeu,
};
/* d[16..36]: see tests/swgpu/test_shader_numeric.c for the sums */
static const uint32_t idot_out[21] = {
	0xffffc087u, 0xc087u, 81287u, 0x7fffu, 0x8000u, 0u, 0x80000000u,
	0xffffc087u, 255u, 31u, 0xc0417b86u, 1061387142u, 0x7fffffffu,
	0xfffffffbu, 2u, 0xffffffffu, 0xffffffffu, 0xffffffffu, 5u,
	0xffffffffu, 0x7fffffffu,
};

static const uint32_t rtz_in[9] = {
	0x3f800000u, 0x34400000u, 0x40400000u, 16777219u, 0x12003c00u, 0,
	0x3ff00000u, 0, 0x40240000u,
};
static const uint32_t rtz_out[6] = {
	0x3f800001u, 0x3eaaaaaau, 0x4b800001u, 0x3c003c00u, 0x99999999u,
	0x3fb99999u,
};

/* Run code on one buffer: in at word 0, compare words 16.. with out. */
static unsigned
run_words(struct vkh *h, struct vkh_device *d, const uint32_t *code,
          size_t size, const uint32_t *in, uint32_t nin,
          const uint32_t *out, uint32_t nout)
{
	struct vkh_buffer b = { 0 };
	unsigned bad = 0;

	if (vkh_host_buffer(h, d, 64 * 4, 0, &b) != VK_SUCCESS)
		return 1;
	memset(b.map, 0, 64 * 4);
	memcpy(b.map, in, nin * 4);
	if (vkh_compute_run(h, d, code, size, &b, 1, NULL, 0, 1, 1, 1) !=
	    VK_SUCCESS) {
		vkh_buffer_destroy(d, &b);
		return 1;
	}
	for (uint32_t i = 0; i < nout; i++)
		if (((const uint32_t *)b.map)[16 + i] != out[i]) {
			fprintf(stderr, "word %u: 0x%08x, expected 0x%08x\n",
			        16 + i,
			        ((const uint32_t *)b.map)[16 + i], out[i]);
			bad++;
		}
	vkh_buffer_destroy(d, &b);
	return bad;
}

static void
test_integer_dot(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.pNext = &f13,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	struct vkh_device d;
	unsigned bad;

	(void)unused;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f13.shaderIntegerDotProduct || !f12.shaderInt8 ||
	    !f2.features.shaderInt16 || !f2.features.shaderInt64) {
		vkh_skip(h, "integer dot product or 8/16/64-bit integers not "
		         "reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderInt16 = VK_TRUE;
	f2.features.shaderInt64 = VK_TRUE;
	memset(&f12, 0, sizeof(f12));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.pNext = &f13;
	f12.shaderInt8 = VK_TRUE;
	memset(&f13, 0, sizeof(f13));
	f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f13.shaderIntegerDotProduct = VK_TRUE;
	f13.maintenance4 = h->maintenance4;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	bad = run_words(h, &d, sh_idot_spv, sizeof(sh_idot_spv), idot_in, 14,
	                idot_out, 21);
	vkh_device_destroy(h, &d);
	VKH_CHECK_MSG(h, bad == 0, "%u integer dot result(s) wrong", bad);
}

static void
test_rounding_rtz(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan12Properties p12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &p12,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	struct vkh_device d;
	unsigned bad;

	(void)unused;
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!p12.shaderRoundingModeRTZFloat16 ||
	    !p12.shaderRoundingModeRTZFloat32 ||
	    !p12.shaderRoundingModeRTZFloat64 || !f12.shaderFloat16 ||
	    !f2.features.shaderFloat64) {
		vkh_skip(h, "RTZ rounding for 16/32/64 bits not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderFloat64 = VK_TRUE;
	memset(&f12, 0, sizeof(f12));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.pNext = &f13;
	f12.shaderFloat16 = VK_TRUE;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	bad = run_words(h, &d, sh_rtz_spv, sizeof(sh_rtz_spv), rtz_in, 9,
	                rtz_out, 6);
	vkh_device_destroy(h, &d);
	VKH_CHECK_MSG(h, bad == 0, "%u RTZ result(s) wrong", bad);
}

static const struct vkh_test tests[] = {
	{ "integer_dot", test_integer_dot, 1, VK_QUEUE_COMPUTE_BIT },
	{ "rounding_rtz", test_rounding_rtz, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_numeric", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
