/* SPDX-License-Identifier: MIT */
/*
 * VK_EXT_device_fault on swgpu: a device lost by a page fault reports it.
 *
 * SWGPU_FAULT=pagefault:queue=0:job=1 (set by main() before the instance
 * exists; swgpu reads it when it opens its device) makes the first job of
 * swgpu queue 0 read an unmapped address (0xdead0000). The test creates
 * one VkDevice with VK_EXT_device_fault and deviceFault enabled; its only
 * queue is swgpu queue 0. A fence-only submit is that job: the fence wait
 * returns VK_ERROR_DEVICE_LOST, and vkGetDeviceFaultInfoEXT reports one
 * READ_INVALID address info with that address, a description with the
 * swgpu message, and one vendor info; a count of 0 gives VK_INCOMPLETE.
 * Validation on. On any other driver the test is skipped.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAULT_SPEC "pagefault:queue=0:job=1"
#define FAULT_VA 0xdead0000ull

static void
test_device_fault(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceFaultFeaturesEXT ff = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &ff,
	};
	const float prio = 1.0f;
	VkDevice dev = VK_NULL_HANDLE;
	VkQueue q;
	VkFence fence;
	VkResult r;

	(void)unused;
	if (!h->is_swgpu) {
		vkh_skip(h, "needs swgpu's fault injection");
		return;
	}
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	VKH_CHECK(h, ff.deviceFault == VK_TRUE);
	VKH_CHECK(h, ff.deviceFaultVendorBinary == VK_FALSE);
	ff.deviceFaultVendorBinary = VK_FALSE;

	const char *ext = VK_EXT_DEVICE_FAULT_EXTENSION_NAME;
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = 0,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &f2,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci,
		.enabledExtensionCount = 1,
		.ppEnabledExtensionNames = &ext,
	};
	VKH_CHECK_VK(h, vkCreateDevice(h->phys, &dci, NULL, &dev));
	PFN_vkGetDeviceFaultInfoEXT get_fault = (PFN_vkGetDeviceFaultInfoEXT)
		vkGetDeviceProcAddr(dev, "vkGetDeviceFaultInfoEXT");
	if (!get_fault) {
		vkDestroyDevice(dev, NULL);
		VKH_CHECK(h, get_fault != NULL);
	}
	vkGetDeviceQueue(dev, 0, 0, &q);
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VKH_CHECK_VK(h, vkCreateFence(dev, &fci, NULL, &fence));
	/* After the loss the layer never sees this fence signalled. */
	vkh_tolerate_object((uint64_t)(uintptr_t)dev);
	vkh_tolerate_object((uint64_t)(uintptr_t)q);
	vkh_tolerate_object((uint64_t)fence);

	r = vkQueueSubmit(q, 0, NULL, fence);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(dev, 1, &fence, VK_TRUE, VKH_TIMEOUT_NS);
	VKH_CHECK_MSG(h, r == VK_ERROR_DEVICE_LOST, "wait: %s",
	              vkh_result_str(r));

	VkDeviceFaultCountsEXT counts = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT,
	};
	VKH_CHECK_VK(h, get_fault(dev, &counts, NULL));
	printf("  fault counts: %u address infos, %u vendor infos, "
	       "%llu binary bytes\n", counts.addressInfoCount,
	       counts.vendorInfoCount,
	       (unsigned long long)counts.vendorBinarySize);
	VKH_CHECK(h, counts.addressInfoCount >= 1 &&
	             counts.addressInfoCount <= 2);
	VKH_CHECK(h, counts.vendorInfoCount == 1);
	VKH_CHECK(h, counts.vendorBinarySize == 0);

	VkDeviceFaultAddressInfoEXT addr[2];
	VkDeviceFaultVendorInfoEXT vendor;
	VkDeviceFaultInfoEXT info = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT,
		.pAddressInfos = addr,
		.pVendorInfos = &vendor,
	};
	memset(addr, 0, sizeof(addr));
	memset(&vendor, 0, sizeof(vendor));
	VKH_CHECK_VK(h, get_fault(dev, &counts, &info));
	printf("  description: %s\n  address 0x%llx type %d; vendor code %llu "
	       "\"%s\"\n", info.description,
	       (unsigned long long)addr[0].reportedAddress,
	       (int)addr[0].addressType,
	       (unsigned long long)vendor.vendorFaultCode,
	       vendor.description);
	VKH_CHECK(h, addr[0].addressType ==
	             VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT);
	VKH_CHECK(h, addr[0].reportedAddress == FAULT_VA);
	VKH_CHECK(h, strstr(info.description, "injected") != NULL);
	VKH_CHECK(h, vendor.description[0] != '\0');

	/* Too small an array: what fits, and VK_INCOMPLETE. */
	counts.addressInfoCount = 0;
	VKH_CHECK_RESULT(h, get_fault(dev, &counts, &info), VK_INCOMPLETE);
	VKH_CHECK(h, counts.addressInfoCount == 0);

	vkDestroyFence(dev, fence, NULL);
	vkDestroyDevice(dev, NULL);
	vkh_tolerate_clear();
}

static const struct vkh_test tests[] = {
	{ "device_fault_page_fault", test_device_fault, 0, 0 },
};

int
main(int argc, char **argv)
{
	/* Before vkCreateInstance: swgpu reads it when opening its device.
	 * A hard bound as well, in case a lost device hangs a call. */
	setenv("SWGPU_FAULT", FAULT_SPEC, 0);
	alarm(100);
	return vkh_run_tests(argc, argv, "test_vk_device_fault", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
