/* SPDX-License-Identifier: MIT */
/*
 * VK_KHR_global_priority + VK_EXT_global_priority_query on swgpu: every
 * queue family lists LOW, MEDIUM, HIGH and REALTIME, globalPriorityQuery
 * is reported, and a device whose queues are created at each level (no
 * privilege needed) runs work on them: a fence submit on every queue of
 * the family completes. (That the levels share an engine by weight is
 * tested in swgpu's test_api_fairness.) Validation on; skipped on other
 * drivers.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

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
