/* SPDX-License-Identifier: MIT */
/*
 * test_icd_loader_iface: the loader-driver interface of libvulkan_swgpu.so
 * checked directly (dlopen, no loader), as LoaderDriverInterface.md
 * describes it:
 *  - vk_icdNegotiateLoaderICDInterfaceVersion settles on min(loader, 7)
 *    and refuses loaders older than interface 5;
 *  - vk_icdGetInstanceProcAddr(NULL, ...) returns the global commands and
 *    the vk_icd* functions, nothing instance- or device-level;
 *  - vk_icdGetPhysicalDeviceProcAddr returns physical-device-level
 *    commands only;
 *  - dispatchable objects (instance, physical device, device, queue) start
 *    with the loader magic the loader checks before it writes its dispatch
 *    table pointer there.
 * Usage: test_icd_loader_iface <path to libvulkan_swgpu.so>
 */
/* Every command is reached through the ICD's proc-address queries. */
#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>
#include <vulkan/vk_icd.h>

static int failures;

#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",      \
			        __FILE__, __LINE__, #cond);               \
			failures++;                                       \
		}                                                         \
	} while (0)

static int
has_magic(const void *dispatchable)
{
	return ((const VK_LOADER_DATA *)dispatchable)->loaderMagic ==
	       ICD_LOADER_MAGIC;
}

int
main(int argc, char **argv)
{
	PFN_vk_icdNegotiateLoaderICDInterfaceVersion negotiate;
	PFN_vk_icdGetInstanceProcAddr gipa;
	PFN_vk_icdGetPhysicalDeviceProcAddr gpdpa;
	void *lib;
	uint32_t v;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <icd.so>\n", argv[0]);
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	negotiate = (PFN_vk_icdNegotiateLoaderICDInterfaceVersion)dlsym(
		lib, "vk_icdNegotiateLoaderICDInterfaceVersion");
	gipa = (PFN_vk_icdGetInstanceProcAddr)dlsym(
		lib, "vk_icdGetInstanceProcAddr");
	gpdpa = (PFN_vk_icdGetPhysicalDeviceProcAddr)dlsym(
		lib, "vk_icdGetPhysicalDeviceProcAddr");
	CHECK(negotiate && gipa && gpdpa);
	if (!negotiate || !gipa || !gpdpa)
		return 1;
	/* Nothing but the loader interface is visible. */
	CHECK(dlsym(lib, "vkCreateInstance") == NULL);
	CHECK(dlsym(lib, "icd_CreateInstance") == NULL);
	CHECK(dlsym(lib, "swgpu_device_open") == NULL);

	v = 7;
	CHECK(negotiate(&v) == VK_SUCCESS && v == 7);
	v = 9;
	CHECK(negotiate(&v) == VK_SUCCESS && v == 7);
	v = 5;
	CHECK(negotiate(&v) == VK_SUCCESS && v == 5);
	v = 4;
	CHECK(negotiate(&v) == VK_ERROR_INCOMPATIBLE_DRIVER);

	/* Global level. */
	CHECK(gipa(NULL, "vkCreateInstance") != NULL);
	CHECK(gipa(NULL, "vkEnumerateInstanceExtensionProperties") != NULL);
	CHECK(gipa(NULL, "vkEnumerateInstanceLayerProperties") != NULL);
	CHECK(gipa(NULL, "vkEnumerateInstanceVersion") != NULL);
	CHECK(gipa(NULL, "vkGetInstanceProcAddr") != NULL);
	CHECK(gipa(NULL, "vk_icdNegotiateLoaderICDInterfaceVersion") ==
	      (PFN_vkVoidFunction)negotiate);
	CHECK(gipa(NULL, "vk_icdGetPhysicalDeviceProcAddr") ==
	      (PFN_vkVoidFunction)gpdpa);
	CHECK(gipa(NULL, "vk_icdGetInstanceProcAddr") ==
	      (PFN_vkVoidFunction)gipa);
	CHECK(gipa(NULL, "vkEnumeratePhysicalDevices") == NULL);
	CHECK(gipa(NULL, "vkCreateBuffer") == NULL);
	CHECK(gipa(NULL, "vkNoSuchCommand") == NULL);

	/* Physical-device level only. */
	CHECK(gpdpa(NULL, "vkGetPhysicalDeviceProperties2") != NULL);
	CHECK(gpdpa(NULL, "vkCreateDevice") != NULL);
	CHECK(gpdpa(NULL, "vkCreateBuffer") == NULL);
	CHECK(gpdpa(NULL, "vkEnumeratePhysicalDevices") == NULL);
	CHECK(gpdpa(NULL, "vkNoSuchCommand") == NULL);

	/* Objects, created straight through the ICD. */
	PFN_vkCreateInstance create_instance =
		(PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	VkInstance inst;
	/* Any apiVersion, even of another variant, is accepted: a 1.1+
	 * implementation must not return VK_ERROR_INCOMPATIBLE_DRIVER for
	 * it (dEQP-VK.api.device_init.create_instance_invalid_api_version). */
	app.apiVersion = VK_MAKE_API_VERSION(1, 1, 0, 0);
	CHECK(create_instance(&ici, NULL, &inst) == VK_SUCCESS);
	((PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance"))(inst, NULL);
	/* A newer Vulkan than ours is accepted (interface >= 5). */
	app.apiVersion = VK_MAKE_API_VERSION(0, 1, 9, 0);
	CHECK(create_instance(&ici, NULL, &inst) == VK_SUCCESS);
	((PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance"))(inst, NULL);
	app.apiVersion = VK_API_VERSION_1_3;
	CHECK(create_instance(&ici, NULL, &inst) == VK_SUCCESS);
	CHECK(has_magic(inst));

#define GET(name) PFN_##name name = (PFN_##name)gipa(inst, #name); \
	CHECK(name != NULL)
	GET(vkEnumeratePhysicalDevices);
	GET(vkCreateDevice);
	GET(vkGetDeviceProcAddr);
	GET(vkDestroyInstance);
	/* Not enabled: the instance extension's alias is not offered. */
	CHECK(gipa(inst, "vkGetPhysicalDeviceProperties2KHR") == NULL);
	/* Device extension commands are available from the instance. */
	CHECK(gipa(inst, "vkWaitSemaphoresKHR") != NULL);

	VkPhysicalDevice pd;
	uint32_t n = 1;
	CHECK(vkEnumeratePhysicalDevices(inst, &n, &pd) >= 0 && n == 1);
	CHECK(has_magic(pd));

	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = 0, .queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
	};
	VkDevice dev;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev) == VK_SUCCESS);
	CHECK(has_magic(dev));

	PFN_vkGetDeviceQueue get_queue =
		(PFN_vkGetDeviceQueue)vkGetDeviceProcAddr(dev, "vkGetDeviceQueue");
	PFN_vkDestroyDevice destroy_device =
		(PFN_vkDestroyDevice)vkGetDeviceProcAddr(dev, "vkDestroyDevice");
	CHECK(get_queue && destroy_device);
	/* Instance-level commands and extensions not enabled: NULL. */
	CHECK(vkGetDeviceProcAddr(dev, "vkEnumeratePhysicalDevices") == NULL);
	CHECK(vkGetDeviceProcAddr(dev, "vkWaitSemaphoresKHR") == NULL);
	CHECK(vkGetDeviceProcAddr(dev, "vkWaitSemaphores") != NULL);
	VkQueue q;
	get_queue(dev, 0, 0, &q);
	CHECK(q && has_magic(q));
	destroy_device(dev, NULL);
	vkDestroyInstance(inst, NULL);

	/* An application asking for Vulkan 1.0 gets no 1.1+ device
	 * commands from vkGetDeviceProcAddr. */
	app.apiVersion = VK_API_VERSION_1_0;
	CHECK(create_instance(&ici, NULL, &inst) == VK_SUCCESS);
	vkEnumeratePhysicalDevices = (PFN_vkEnumeratePhysicalDevices)gipa(
		inst, "vkEnumeratePhysicalDevices");
	n = 1;
	CHECK(vkEnumeratePhysicalDevices(inst, &n, &pd) >= 0 && n == 1);
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev) == VK_SUCCESS);
	CHECK(vkGetDeviceProcAddr(dev, "vkCreateBuffer") != NULL);
	CHECK(vkGetDeviceProcAddr(dev, "vkWaitSemaphores") == NULL);
	CHECK(vkGetDeviceProcAddr(dev, "vkBindBufferMemory2") == NULL);
	destroy_device(dev, NULL);

	/* The spec's extension interaction rules (vk.xml require blocks
	 * with extension= / feature=), checked on the ICD itself: the loader
	 * and layers above it have their own opinions (the 1.3.239
	 * validation layer returns its entry point regardless).
	 * vkCmdPushDescriptorSetWithTemplateKHR is VK_KHR_push_descriptor
	 * with Vulkan 1.1 or VK_KHR_descriptor_update_template. */
	const char *push_only[] = { "VK_KHR_push_descriptor" };
	const char *push_tpl[] = { "VK_KHR_push_descriptor",
	                           "VK_KHR_descriptor_update_template" };
	dci.enabledExtensionCount = 1;
	dci.ppEnabledExtensionNames = push_only;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev) == VK_SUCCESS);
	CHECK(vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR") != NULL);
	CHECK(vkGetDeviceProcAddr(dev,
	      "vkCmdPushDescriptorSetWithTemplateKHR") == NULL);
	CHECK(vkGetDeviceProcAddr(dev,
	      "vkCreateDescriptorUpdateTemplateKHR") == NULL);
	destroy_device(dev, NULL);
	dci.enabledExtensionCount = 2;
	dci.ppEnabledExtensionNames = push_tpl;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev) == VK_SUCCESS);
	CHECK(vkGetDeviceProcAddr(dev,
	      "vkCmdPushDescriptorSetWithTemplateKHR") != NULL);
	CHECK(vkGetDeviceProcAddr(dev,
	      "vkCreateDescriptorUpdateTemplateKHR") != NULL);
	/* Not enabled: NULL, never a stub. */
	CHECK(vkGetDeviceProcAddr(dev, "vkGetCalibratedTimestampsEXT") ==
	      NULL);
	destroy_device(dev, NULL);
	vkDestroyInstance(inst, NULL);

	/* With Vulkan 1.1 the template push needs no second extension. */
	app.apiVersion = VK_API_VERSION_1_1;
	CHECK(create_instance(&ici, NULL, &inst) == VK_SUCCESS);
	n = 1;
	CHECK(vkEnumeratePhysicalDevices(inst, &n, &pd) >= 0 && n == 1);
	dci.enabledExtensionCount = 1;
	dci.ppEnabledExtensionNames = push_only;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev) == VK_SUCCESS);
	CHECK(vkGetDeviceProcAddr(dev,
	      "vkCmdPushDescriptorSetWithTemplateKHR") != NULL);
	/* The promoted name is a 1.1 command: the KHR alias needs its
	 * extension. */
	CHECK(vkGetDeviceProcAddr(dev, "vkCreateDescriptorUpdateTemplate") !=
	      NULL);
	CHECK(vkGetDeviceProcAddr(dev,
	      "vkCreateDescriptorUpdateTemplateKHR") == NULL);
	destroy_device(dev, NULL);
	vkDestroyInstance(inst, NULL);

	dlclose(lib);
	if (failures) {
		printf("test_icd_loader_iface: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test_icd_loader_iface: all checks passed\n");
	return 0;
}
