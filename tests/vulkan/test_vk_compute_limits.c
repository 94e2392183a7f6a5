/* SPDX-License-Identifier: MIT */
/*
 * Compute limits and robustness: the largest workgroup with all the shared
 * memory the device reports, the largest workgroup counts (up to 65535
 * per dimension), and robustBufferAccess -- out-of-bounds loads, stores
 * and atomics as far as 2^32 words away complete without touching other
 * memory. Skips (77) without a COMPUTE queue.
 */
#include "vkh_compute.h"

#include <stdlib.h>
#include <string.h>

#include "lim_groups.spv.h"
#include "lim_shared.spv.h"
#include "robust_oob.spv.h"

static void
test_shared_limit(struct vkh *h, struct vkh_device *d)
{
	const VkPhysicalDeviceLimits *lim = &h->props.limits;
	uint32_t spec[2] = {
		lim->maxComputeWorkGroupInvocations <
				lim->maxComputeWorkGroupSize[0] ?
			lim->maxComputeWorkGroupInvocations :
			lim->maxComputeWorkGroupSize[0],
		lim->maxComputeSharedMemorySize / 4,
	};
	VkSpecializationMapEntry me[2] = { { 0, 0, 4 }, { 1, 4, 4 } };
	VkSpecializationInfo si = { 2, me, 8, spec };
	const uint32_t groups = 4, n = spec[0], words = spec[1];
	struct vkh_buffer b = { 0 };
	struct vkh_pipe p;
	unsigned bad = 0;

	printf("  workgroup %u invocations, %u bytes of shared memory\n", n,
	       words * 4);
	VKH_CHECK(h, n >= 128 && words * 4 >= 16384); /* Vulkan minimums */
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, (VkDeviceSize)groups * n * 4, 0,
	                                &b));
	VKH_CHECK_VK(h, vkh_pipe_create_simple(d, lim_shared_spv,
	                                       sizeof(lim_shared_spv), 1, 0,
	                                       &si, &p));
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    b.buffer, 0, VK_WHOLE_SIZE);
	VKH_CHECK_VK(h, vkh_dispatch_sync(d, 0, &p, NULL, groups, 1, 1));
	vkh_buffer_invalidate(h, d, &b);
	for (uint32_t g = 0; g < groups; g++) {
		for (uint32_t l = 0; l < n; l++) {
			uint32_t sum = 0, got = ((uint32_t *)b.map)[g * n + l];
			for (uint32_t k = (l + 1) % n; k < words; k += n)
				sum += k * 2654435761u + g;
			if (got != sum && bad++ < 4)
				fprintf(stderr, "  group %u lane %u: %u want "
				        "%u\n", g, l, got, sum);
		}
	}
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &b);
	VKH_CHECK_MSG(h, bad == 0, "%u invocation(s) wrong", bad);
}

static void
test_group_count_limit(struct vkh *h, struct vkh_device *d)
{
	const VkPhysicalDeviceLimits *lim = &h->props.limits;
	struct vkh_buffer b = { 0 };
	struct vkh_pipe p;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 65536 / 8, 0, &b));
	VKH_CHECK_VK(h, vkh_pipe_create_simple(d, lim_groups_spv,
	                                       sizeof(lim_groups_spv), 1, 0,
	                                       NULL, &p));
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    b.buffer, 0, VK_WHOLE_SIZE);
	for (int dim = 0; dim < 3; dim++) {
		uint32_t c[3] = { 1, 1, 1 }, count;
		const uint32_t *bits = b.map;
		c[dim] = lim->maxComputeWorkGroupCount[dim] < 65535 ?
		         lim->maxComputeWorkGroupCount[dim] : 65535;
		count = c[dim];
		memset(b.map, 0, 65536 / 8);
		vkh_buffer_flush(h, d, &b);
		VKH_CHECK_VK(h, vkh_dispatch_sync(d, 0, &p, NULL, c[0], c[1],
		                                  c[2]));
		vkh_buffer_invalidate(h, d, &b);
		for (uint32_t k = 0; k < 65536; k++) {
			bool set = (bits[k / 32] >> (k % 32)) & 1;
			if (set != (k < count) && bad++ < 4)
				fprintf(stderr, "  dimension %d, %u groups: "
				        "group %u %s\n", dim, count, k,
				        set ? "ran but should not exist" :
				              "did not run");
		}
		printf("  %u x %u x %u workgroups: %s\n", c[0], c[1], c[2],
		       bad ? "WRONG" : "ok");
	}
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &b);
	VKH_CHECK_MSG(h, bad == 0, "%u workgroup(s) wrong", bad);
}

#define IN_RANGE 200u
#define LANES 512u
#define GUARD_WORDS 1024u

struct robust_objs {
	struct vkh_device d;
	struct vkh_buffer src, dst, out, guard[2];
	struct vkh_pipe p;
};

static void
robust_body(struct vkh *h, struct robust_objs *o)
{
	const uint32_t *src, *out;
	unsigned bad = 0;
	uint32_t push = IN_RANGE;

	/* Guards allocated around dst: any stray write lands in memory of
	 * this process, where only a check can see it. */
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, GUARD_WORDS * 4, 0,
	                                &o->guard[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, IN_RANGE * 8, 0, &o->src));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, IN_RANGE * 4, 0, &o->dst));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, LANES * 4, 0, &o->out));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, GUARD_WORDS * 4, 0,
	                                &o->guard[1]));
	for (int g = 0; g < 2; g++) {
		memset(o->guard[g].map, 0x5a, GUARD_WORDS * 4);
		vkh_buffer_flush(h, &o->d, &o->guard[g]);
	}
	for (uint32_t i = 0; i < IN_RANGE * 2; i++)
		((uint32_t *)o->src.map)[i] = 0x10000u + i * 3;
	vkh_buffer_flush(h, &o->d, &o->src);
	VKH_CHECK_VK(h, vkh_pipe_create_simple(&o->d, robust_oob_spv,
	                                       sizeof(robust_oob_spv), 3, 4,
	                                       NULL, &o->p));
	/* src bound to its first half: the second half is out of the
	 * descriptor's range but inside the buffer's memory. */
	vkh_pipe_set_buffer(&o->d, &o->p, 0, 0,
	                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, o->src.buffer,
	                    0, IN_RANGE * 4);
	vkh_pipe_set_buffer(&o->d, &o->p, 0, 1,
	                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, o->dst.buffer,
	                    0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(&o->d, &o->p, 0, 2,
	                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, o->out.buffer,
	                    0, VK_WHOLE_SIZE);
	VKH_CHECK_VK(h, vkh_dispatch_sync(&o->d, 0, &o->p, &push, LANES / 64,
	                                  1, 1));
	vkh_buffer_invalidate(h, &o->d, &o->out);
	vkh_buffer_invalidate(h, &o->d, &o->guard[0]);
	vkh_buffer_invalidate(h, &o->d, &o->guard[1]);
	src = o->src.map;
	out = o->out.map;
	for (uint32_t i = 0; i < LANES; i++) {
		uint32_t v = out[i];
		bool ok = i < IN_RANGE ? v == src[i] :
		          v == 0 || (v >= 0x10000u && v < 0x10000u +
		                     IN_RANGE * 6 && (v - 0x10000u) % 3 == 0);
		if (!ok && bad++ < 4)
			fprintf(stderr, "  lane %u loaded 0x%x\n", i, v);
	}
	for (int g = 0; g < 2; g++)
		for (uint32_t k = 0; k < GUARD_WORDS; k++)
			if (((uint32_t *)o->guard[g].map)[k] != 0x5a5a5a5au &&
			    bad++ < 4)
				fprintf(stderr, "  guard %d word %u changed\n",
				        g, k);
	VKH_CHECK_MSG(h, bad == 0, "%u robustness violation(s)", bad);
}

static void
test_robust(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
		.features.robustBufferAccess = VK_TRUE,
	};
	struct robust_objs o;

	memset(&o, 0, sizeof(o));
	/* robustBufferAccess is required by every Vulkan version. */
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &o.d));
	robust_body(h, &o);
	vkh_pipe_destroy(&o.d, &o.p);
	vkh_buffer_destroy(&o.d, &o.src);
	vkh_buffer_destroy(&o.d, &o.dst);
	vkh_buffer_destroy(&o.d, &o.out);
	vkh_buffer_destroy(&o.d, &o.guard[0]);
	vkh_buffer_destroy(&o.d, &o.guard[1]);
	vkh_device_destroy(h, &o.d);
	(void)unused;
}

static const struct vkh_test tests[] = {
	{ "max_workgroup_shared_memory", test_shared_limit, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "max_workgroup_count", test_group_count_limit, 1,
	  VK_QUEUE_COMPUTE_BIT },
	/* Makes its own device with robustBufferAccess enabled. */
	{ "robust_buffer_access", test_robust, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_limits", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
