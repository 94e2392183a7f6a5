/* SPDX-License-Identifier: MIT */
/*
 * Subgroup size control (issue 23): at every subgroup size the device
 * lets a compute stage require (minSubgroupSize .. maxSubgroupSize,
 * powers of two, VkPipelineShaderStageRequiredSubgroupSizeCreateInfo with
 * REQUIRE_FULL_SUBGROUPS), a workgroup of 64 invocations forms subgroups
 * of that size in invocation order, and the built-ins, reductions, scans
 * (bool exclusive scans' identities included), ballots, masks, shuffles
 * and quad swaps work per subgroup. Then VK_KHR_shader_subgroup_rotate
 * where offered: OpGroupNonUniformRotateKHR with a dynamic delta, with a
 * cluster size, and on 64-bit values, at every size. Expected values are
 * computed here from the inputs. Skips (77) without a COMPUTE queue.
 */
#include "vkh_compute.h"

#include <string.h>

#include "sg_size_ops.spv.h"
#include "sh_rotate.spv.h"

#define WG 64u
#define GROUPS 2u
#define N (WG * GROUPS)
#define OPS_WORDS 12u

/* VK_KHR_shader_subgroup_rotate is newer than these headers (1.3.239):
 * the ICD's own declarations of it. */
#include "vk_supplement.h"

struct sizes {
	VkPhysicalDeviceSubgroupSizeControlProperties sc;
	VkPhysicalDeviceSubgroupProperties sp;
	VkPhysicalDeviceVulkan13Features f13;
};

/* Size control properties and features; false (skipped) unless compute
 * stages can require sizes and have full subgroups and need_ops. */
static bool
query_sizes(struct vkh *h, struct sizes *s, uint32_t need_ops)
{
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &s->sp,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &s->f13,
	};

	memset(s, 0, sizeof(*s));
	s->sc.sType =
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES;
	s->sp.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
	s->sp.pNext = &s->sc;
	s->f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	printf("  subgroup sizes %u..%u (default %u), required-size stages "
	       "0x%x, maxComputeWorkgroupSubgroups %u\n",
	       s->sc.minSubgroupSize, s->sc.maxSubgroupSize,
	       s->sp.subgroupSize, s->sc.requiredSubgroupSizeStages,
	       s->sc.maxComputeWorkgroupSubgroups);
	if (!s->f13.subgroupSizeControl || !s->f13.computeFullSubgroups ||
	    !(s->sc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
	    !(s->sp.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
	    (s->sp.supportedOperations & need_ops) != need_ops) {
		vkh_skip(h, "required compute subgroup sizes, full subgroups "
		         "or the subgroup operations 0x%x not offered",
		         need_ops);
		return false;
	}
	return true;
}

/* Run spv (2 buffers: in, out) with required subgroup size n and full
 * subgroups over GROUPS workgroups. */
static VkResult
run_sized(struct vkh *h, struct vkh_device *d, const uint32_t *spv,
          size_t spv_size, uint32_t n, struct vkh_buffer *in,
          struct vkh_buffer *out)
{
	VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
		.requiredSubgroupSize = n,
	};
	struct vkh_pipe_desc desc = {
		.spv = spv,
		.spv_size = spv_size,
		.set_count = 1,
		.binding_count = { 2 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
		.stage_flags =
			VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
		.stage_next = &rs,
	};
	struct vkh_pipe p;
	VkResult r;

	memset(out->map, 0xcc, out->size);
	vkh_buffer_flush(h, d, in);
	vkh_buffer_flush(h, d, out);
	r = vkh_pipe_create(d, &desc, &p);
	if (r != VK_SUCCESS)
		return r;
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    in->buffer, 0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(d, &p, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    out->buffer, 0, VK_WHOLE_SIZE);
	r = vkh_dispatch_sync(d, 0, &p, NULL, GROUPS, 1, 1);
	vkh_buffer_invalidate(h, d, out);
	vkh_pipe_destroy(d, &p);
	return r;
}

/* sg_size_ops.comp's outputs for invocation li of a workgroup whose
 * inputs start at wx, at subgroup size n (full subgroups). */
static void
ops_model(const uint32_t *wx, uint32_t li, uint32_t n, uint32_t *w)
{
	const uint32_t sgid = li / n, sl = li % n;
	const uint32_t *x = wx + sgid * n;
	uint32_t sum = 0, pre = 0, ballot = 0, mx = 0, eand = 1, eor = 0;

	for (uint32_t i = 0; i < n; i++) {
		sum += x[i];
		ballot |= (x[i] & 1u) << i;
		if (i <= sl)
			mx = x[i] > mx ? x[i] : mx;
		if (i < sl) {
			pre += x[i];
			eand &= x[i] != 30;
			eor |= x[i] == 30;
		}
	}
	w[0] = n | sl << 8 | sgid << 16 | (WG / n) << 24;
	w[1] = sum;
	w[2] = pre;
	w[3] = ballot;
	w[4] = (1u << sl) - 1;
	w[5] = x[sl ^ 1];
	w[6] = x[sl ^ 1];           /* horizontal swap: lane ^ 1 */
	w[7] = pre + x[sl];
	w[8] = eand | eor << 1;
	w[9] = n;
	w[10] = mx;
	w[11] = x[0];
}

static void
test_required_size_ops(struct vkh *h, struct vkh_device *unused)
{
	const uint32_t need = VK_SUBGROUP_FEATURE_BASIC_BIT |
	                      VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
	                      VK_SUBGROUP_FEATURE_BALLOT_BIT |
	                      VK_SUBGROUP_FEATURE_SHUFFLE_BIT |
	                      VK_SUBGROUP_FEATURE_QUAD_BIT;
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.subgroupSizeControl = VK_TRUE,
		.computeFullSubgroups = VK_TRUE,
		.maintenance4 = h->maintenance4,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_buffer in = { 0 }, out = { 0 };
	struct vkh_device d;
	struct sizes s;
	unsigned bad = 0, ran = 0;

	(void)unused;
	if (!query_sizes(h, &s, need))
		return;
	VKH_CHECK(h, s.sc.minSubgroupSize >= 1 &&
	          s.sc.maxSubgroupSize <= 128 &&
	          s.sc.minSubgroupSize <= s.sp.subgroupSize &&
	          s.sp.subgroupSize <= s.sc.maxSubgroupSize);
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, N * 4, 0, &in));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, N * OPS_WORDS * 4, 0, &out));
	for (uint32_t i = 0; i < N; i++)
		((uint32_t *)in.map)[i] = (i * 37u + 11u) % 101u;
	for (uint32_t n = s.sc.minSubgroupSize; n <= s.sc.maxSubgroupSize;
	     n *= 2) {
		const uint32_t *v = in.map, *o = out.map;

		/* quads need 4 lanes; a workgroup of 64 at most 64/n
		 * subgroups */
		if (n < 4 || n > WG || WG / n > s.sc.maxComputeWorkgroupSubgroups)
			continue;
		printf("  required subgroup size %u\n", n);
		VKH_CHECK_VK(h, run_sized(h, &d, sg_size_ops_spv,
		                          sizeof(sg_size_ops_spv), n, &in,
		                          &out));
		ran++;
		for (uint32_t g = 0; g < N; g++) {
			uint32_t w[OPS_WORDS];

			ops_model(v + g / WG * WG, g % WG, n, w);
			for (uint32_t k = 0; k < OPS_WORDS; k++)
				if (o[g * OPS_WORDS + k] != w[k] && bad++ < 8)
					fprintf(stderr, "  size %u invocation "
					        "%u word %u: 0x%x, want 0x%x\n",
					        n, g, k, o[g * OPS_WORDS + k],
					        w[k]);
		}
	}
	vkh_buffer_destroy(&d, &out);
	vkh_buffer_destroy(&d, &in);
	vkh_device_destroy(h, &d);
	VKH_CHECK(h, ran > 0);
	VKH_CHECK_MSG(h, bad == 0, "%u wrong output(s)", bad);
}

static bool
has_extension(struct vkh *h, const char *name)
{
	VkExtensionProperties props[512];
	uint32_t n = 512;

	if (vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, props) <
	    VK_SUCCESS)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(props[i].extensionName, name))
			return true;
	return false;
}

static void
test_rotate(struct vkh *h, struct vkh_device *unused)
{
	static const char *const exts[] = {
		VK_KHR_SHADER_SUBGROUP_ROTATE_EXTENSION_NAME,
	};
	VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR rf = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &rf,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_buffer in = { 0 }, out = { 0 };
	struct vkh_device d;
	struct sizes s;
	unsigned bad = 0;

	(void)unused;
	if (!query_sizes(h, &s, VK_SUBGROUP_FEATURE_BASIC_BIT))
		return;
	if (!has_extension(h, VK_KHR_SHADER_SUBGROUP_ROTATE_EXTENSION_NAME)) {
		vkh_skip(h, "VK_KHR_shader_subgroup_rotate not offered");
		return;
	}
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	VKH_CHECK(h, rf.shaderSubgroupRotate &&
	          rf.shaderSubgroupRotateClustered && f2.features.shaderInt64);
	{
		/* the spec ties the features to supportedOperations */
		VkPhysicalDeviceSubgroupProperties sp = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
		};
		VkPhysicalDeviceProperties2 p2 = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
			.pNext = &sp,
		};
		const VkSubgroupFeatureFlags rot =
			0x200u /* VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR */ |
			0x400u /* ..._ROTATE_CLUSTERED_BIT_KHR */;

		vkGetPhysicalDeviceProperties2(h->phys, &p2);
		VKH_CHECK(h, (sp.supportedOperations & rot) == rot);
	}
#ifdef ICD_VK_SUPPLEMENT_SUBGROUP_ROTATE
	/* The validation layer of these headers (1.3.239) predates the
	 * extension: it calls its feature struct unknown and its SPIR-V
	 * capability and extension unsupported. Those three messages,
	 * and only those, are the layer's age, not errors of the test. */
	vkh_expect_message("unknown VkStructureType (1000416000)");
	vkh_expect_message("(Unhandled OpCapability) was declared");
	vkh_expect_message("(SPV_KHR_subgroup_rotate) was declared");
#endif
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderInt64 = VK_TRUE;
	f13 = (VkPhysicalDeviceVulkan13Features){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &rf,
		.subgroupSizeControl = VK_TRUE,
		.computeFullSubgroups = VK_TRUE,
		.maintenance4 = h->maintenance4,
	};
	VKH_CHECK_VK(h, vkh_device_create_features_ext(h, VK_QUEUE_COMPUTE_BIT,
	                                               &f2, exts, 1, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, N * 4, 0, &in));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, N * 16, 0, &out));
	for (uint32_t i = 0; i < N; i++)
		((uint32_t *)in.map)[i] = 1000u + i * 7u;
	for (uint32_t n = s.sc.minSubgroupSize; n <= s.sc.maxSubgroupSize;
	     n *= 2) {
		const uint32_t *v = in.map, *o = out.map;
		const uint32_t c8 = n < 8 ? n : 8;

		if (n < 4 || n > WG)
			continue;
		printf("  rotate at subgroup size %u\n", n);
		VKH_CHECK_VK(h, run_sized(h, &d, sh_rotate_spv,
		                          sizeof(sh_rotate_spv), n, &in, &out));
		for (uint32_t g = 0; g < N; g++) {
			/* sh_rotate.spvasm: delta WorkgroupId.x + 3; 5 in
			 * clusters of 4; 1 in clusters of 8 on
			 * (g << 32 | x) */
			const uint32_t sl = g % WG % n, base = g - sl;
			const uint32_t c8s = ((sl + 1) & (c8 - 1)) |
			                     (sl & ~(c8 - 1));
			const uint32_t w[4] = {
				v[base + ((sl + g / WG + 3) & (n - 1))],
				v[base + (((sl + 5) & 3) | (sl & ~3u))],
				v[base + c8s],
				base + c8s,
			};

			for (uint32_t k = 0; k < 4; k++)
				if (o[g * 4 + k] != w[k] && bad++ < 8)
					fprintf(stderr, "  size %u invocation "
					        "%u word %u: %u, want %u\n", n,
					        g, k, o[g * 4 + k], w[k]);
		}
	}
	vkh_buffer_destroy(&d, &out);
	vkh_buffer_destroy(&d, &in);
	vkh_device_destroy(h, &d);
	VKH_CHECK_MSG(h, bad == 0, "%u wrong output(s)", bad);
}

static const struct vkh_test tests[] = {
	/* These make their own devices with the features they test. */
	{ "required_size_ops", test_required_size_ops, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "rotate", test_rotate, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_subgroup_size", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
