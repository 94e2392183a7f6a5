/* SPDX-License-Identifier: MIT */
/*
 * VK_KHR_global_priority + VK_EXT_global_priority_query on swgpu: every
 * queue family lists LOW, MEDIUM, HIGH and REALTIME, globalPriorityQuery
 * is reported, and a device whose queues are created at each level runs
 * work on them: a fence submit on every queue of the family completes.
 * (That the levels share an engine by weight is tested in swgpu's
 * test_api_fairness.) In process no level needs a privilege; in shared
 * mode REALTIME needs CAP_SYS_NICE (or swgpud's SWGPUD_REALTIME list),
 * else vkCreateDevice returns VK_ERROR_NOT_PERMITTED_KHR: ctest runs
 * this test a second time with CAP_SYS_NICE dropped (setpriv) to see
 * that under `make shared-test`. Validation on; skipped on other
 * drivers.
 */
#include "vk_harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether this process has CAP_SYS_NICE in its effective set. */
static bool
has_sys_nice(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps >> 23 & 1; /* CAP_SYS_NICE */
}

/* swgpud's rule (README, "One GPU for the machine"): REALTIME in shared
 * mode only with CAP_SYS_NICE or the daemon's list. */
static bool
realtime_refused(void)
{
	const char *mode = getenv("SWGPU_MODE");

	return mode && !strcmp(mode, "shared") && !has_sys_nice() &&
	       !getenv("SWGPUD_REALTIME");
}

static void
test_global_priority(struct vkh *h, struct vkh_device *unused)
{
	static const VkQueueGlobalPriorityKHR levels[] = {
		VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR,
		VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR,
		VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR,
		VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR,
	};
	VkQueueFamilyGlobalPriorityPropertiesKHR gp[16];
	VkQueueFamilyProperties2 fp[16];
	uint32_t n = 16;

	(void)unused;
	if (!h->is_swgpu) {
		vkh_skip(h, "checks swgpu's level list");
		return;
	}
	VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR qf = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &qf,
	};
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	VKH_CHECK(h, qf.globalPriorityQuery == VK_TRUE);

	for (uint32_t i = 0; i < n; i++) {
		memset(&gp[i], 0, sizeof(gp[i]));
		gp[i].sType =
		  VK_STRUCTURE_TYPE_QUEUE_FAMILY_GLOBAL_PRIORITY_PROPERTIES_KHR;
		fp[i] = (VkQueueFamilyProperties2){
			.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2,
			.pNext = &gp[i],
		};
	}
	vkGetPhysicalDeviceQueueFamilyProperties2(h->phys, &n, fp);
	VKH_CHECK(h, n >= 1);
	for (uint32_t i = 0; i < n; i++) {
		VKH_CHECK_MSG(h, gp[i].priorityCount == 4,
		              "family %u: %u levels", i, gp[i].priorityCount);
		for (uint32_t l = 0; l < 4; l++)
			VKH_CHECK(h, gp[i].priorities[l] == levels[l]);
	}

	const char *ext = VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME;
	float prio[VKH_MAX_QUEUES];
	uint32_t qn = fp[0].queueFamilyProperties.queueCount;
	if (qn > VKH_MAX_QUEUES)
		qn = VKH_MAX_QUEUES;
	for (uint32_t i = 0; i < qn; i++)
		prio[i] = i & 1 ? 0.0f : 1.0f; /* both float levels too */
	for (uint32_t l = 0; l < 4; l++) {
		VkDeviceQueueGlobalPriorityCreateInfoKHR gci = {
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_GLOBAL_PRIORITY_CREATE_INFO_KHR,
			.globalPriority = levels[l],
		};
		VkDeviceQueueCreateInfo qci = {
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			.pNext = &gci,
			.queueFamilyIndex = 0,
			.queueCount = qn,
			.pQueuePriorities = prio,
		};
		VkDeviceCreateInfo dci = {
			.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
			.queueCreateInfoCount = 1,
			.pQueueCreateInfos = &qci,
			.enabledExtensionCount = 1,
			.ppEnabledExtensionNames = &ext,
		};
		VkDevice dev;
		if (levels[l] == VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR &&
		    realtime_refused()) {
			/* The loader reports any failing ICD vkCreateDevice
			 * (as an error message): expected here, nothing
			 * else. */
			vkh_expect_message("terminator_CreateDevice: Failed "
			                   "in ICD");
			vkh_expect_message("Failed to create device chain");
			VkResult cr = vkCreateDevice(h->phys, &dci, NULL, &dev);
			vkh_expect_clear();

			VKH_CHECK_MSG(h, cr == VK_ERROR_NOT_PERMITTED_KHR,
			              "REALTIME without CAP_SYS_NICE in shared "
			              "mode: %s", vkh_result_str(cr));
			printf("  REALTIME not permitted (shared mode, no "
			       "CAP_SYS_NICE)\n");
			continue;
		}
		VKH_CHECK_VK(h, vkCreateDevice(h->phys, &dci, NULL, &dev));
		VkFenceCreateInfo fci = {
			.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
		};
		VkResult r = VK_SUCCESS;
		for (uint32_t i = 0; i < qn && r == VK_SUCCESS; i++) {
			VkQueue q;
			VkFence fence;
			vkGetDeviceQueue(dev, 0, i, &q);
			r = vkCreateFence(dev, &fci, NULL, &fence);
			if (r != VK_SUCCESS)
				break;
			r = vkQueueSubmit(q, 0, NULL, fence);
			if (r == VK_SUCCESS)
				r = vkWaitForFences(dev, 1, &fence, VK_TRUE,
				                    VKH_TIMEOUT_NS);
			vkDestroyFence(dev, fence, NULL);
		}
		vkDestroyDevice(dev, NULL);
		VKH_CHECK_MSG(h, r == VK_SUCCESS, "level 0x%x: %s",
		              (unsigned)levels[l], vkh_result_str(r));
	}
}

static const struct vkh_test tests[] = {
	{ "global_priority_levels", test_global_priority, 0, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_global_priority", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
