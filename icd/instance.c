/* SPDX-License-Identifier: MIT */
/*
 * instance.c — VkInstance: global commands, instance creation (which opens
 * one swgpu device per physical device) and physical-device enumeration.
 */
#include <stdio.h>
#include <stdlib.h>

#include "icd.h"

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumerateInstanceVersion(uint32_t *pApiVersion)
{
	*pApiVersion = ICD_API_VERSION;
	return VK_SUCCESS;
}

/* Fill a Vulkan "count + array" output with the standard INCOMPLETE rule. */
VkResult
icd_fill_array(void *out, uint32_t *count, const void *src, uint32_t n,
               size_t elem_size)
{
	uint32_t k;

	if (!out) {
		*count = n;
		return VK_SUCCESS;
	}
	k = *count < n ? *count : n;
	if (k)
		memcpy(out, src, (size_t)k * elem_size);
	*count = k;
	return k < n ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumerateInstanceExtensionProperties(const char *pLayerName,
                                         uint32_t *pPropertyCount,
                                         VkExtensionProperties *pProperties)
{
	if (pLayerName)
		return icd_error(VK_ERROR_LAYER_NOT_PRESENT, "layer %s",
		                 pLayerName);
	return icd_fill_array(pProperties, pPropertyCount,
	                      icd_instance_extensions, ICD_INSTANCE_EXT_COUNT,
	                      sizeof(VkExtensionProperties));
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumerateInstanceLayerProperties(uint32_t *pPropertyCount,
                                     VkLayerProperties *pProperties)
{
	/* Drivers have no layers; the loader provides them. */
	*pPropertyCount = 0;
	return VK_SUCCESS;
}

static uint32_t
icd_physical_device_count_from_env(void)
{
	const char *v = getenv("SWGPU_DEVICES");
	char *end;
	unsigned long n;

	if (!v || !*v)
		return 1;
	n = strtoul(v, &end, 10);
	if (*end || n < 1 || n > ICD_MAX_PHYSICAL_DEVICES) {
		icd_log("SWGPU_DEVICES=%s is not a number in 1..%d; using 1", v,
		        ICD_MAX_PHYSICAL_DEVICES);
		return 1;
	}
	return (uint32_t)n;
}

static void
icd_instance_close_devices(struct icd_instance *inst)
{
	for (uint32_t i = 0; i < inst->physical_device_count; i++)
		icd_physical_device_finish(&inst->physical_devices[i]);
	inst->physical_device_count = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                   const VkAllocationCallbacks *pAllocator,
                   VkInstance *pInstance)
{
	struct icd_instance *inst;
	struct icd_ext_set enabled;
	uint32_t count;
	VkResult r;

	/* Any apiVersion is accepted, whatever its variant or version: a
	 * 1.1+ implementation must not return VK_ERROR_INCOMPATIBLE_DRIVER
	 * for it (vkCreateInstance in the spec); the application uses no
	 * more than the device reports. */
	memset(&enabled, 0, sizeof(enabled));
	for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; i++) {
		const char *name = pCreateInfo->ppEnabledExtensionNames[i];
		int e = icd_instance_extension_index(name);

		if (e < 0) {
			icd_log("instance extension %s is not supported", name);
			return VK_ERROR_EXTENSION_NOT_PRESENT;
		}
		icd_ext_set_add(&enabled, (unsigned)e);
	}

	inst = icd_zalloc(pAllocator, NULL, sizeof(*inst), 8,
	                  VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
	if (!inst)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "instance");
	icd_object_init(&inst->base, VK_OBJECT_TYPE_INSTANCE);
	inst->alloc = pAllocator ? *pAllocator : icd_default_allocator;
	inst->enabled_extensions = enabled;
	/* No application info, or apiVersion 0, means 1.0. */
	inst->api_version = VK_API_VERSION_1_0;
	if (pCreateInfo->pApplicationInfo &&
	    pCreateInfo->pApplicationInfo->apiVersion)
		inst->api_version = pCreateInfo->pApplicationInfo->apiVersion;

	count = icd_physical_device_count_from_env();
	for (uint32_t i = 0; i < count; i++) {
		r = icd_physical_device_init(&inst->physical_devices[i], inst,
		                             i);
		if (r != VK_SUCCESS)
			goto fail;
		inst->physical_device_count = i + 1;
		for (uint32_t w = 0; w < ICD_EXT_SET_WORDS; w++)
			inst->available_device_extensions.w[w] |=
				inst->physical_devices[i]
				.supported_extensions.w[w];
	}
	*pInstance = icd_instance_to_handle(inst);
	return VK_SUCCESS;

fail:
	icd_instance_close_devices(inst);
	icd_free(pAllocator, NULL, inst);
	return r;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *pAllocator)
{
	struct icd_instance *inst = icd_instance_from_handle(instance);

	if (!inst)
		return;
	icd_instance_close_devices(inst);
	icd_free(pAllocator, &inst->alloc, inst);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumeratePhysicalDevices(VkInstance instance,
                             uint32_t *pPhysicalDeviceCount,
                             VkPhysicalDevice *pPhysicalDevices)
{
	struct icd_instance *inst = icd_instance_from_handle(instance);
	VkPhysicalDevice handles[ICD_MAX_PHYSICAL_DEVICES];

	for (uint32_t i = 0; i < inst->physical_device_count; i++)
		handles[i] = icd_physical_device_to_handle(
			&inst->physical_devices[i]);
	return icd_fill_array(pPhysicalDevices, pPhysicalDeviceCount, handles,
	                      inst->physical_device_count,
	                      sizeof(VkPhysicalDevice));
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumeratePhysicalDeviceGroups(VkInstance instance,
                                  uint32_t *pPhysicalDeviceGroupCount,
                                  VkPhysicalDeviceGroupProperties *pGroups)
{
	struct icd_instance *inst = icd_instance_from_handle(instance);
	uint32_t n = inst->physical_device_count, k;

	/* Each swgpu device is a group of its own: no device groups. */
	if (!pGroups) {
		*pPhysicalDeviceGroupCount = n;
		return VK_SUCCESS;
	}
	k = *pPhysicalDeviceGroupCount < n ? *pPhysicalDeviceGroupCount : n;
	for (uint32_t i = 0; i < k; i++) {
		VkPhysicalDeviceGroupProperties *g = &pGroups[i];

		/* Keep the caller's sType/pNext. */
		g->physicalDeviceCount = 1;
		memset(g->physicalDevices, 0, sizeof(g->physicalDevices));
		g->physicalDevices[0] = icd_physical_device_to_handle(
			&inst->physical_devices[i]);
		g->subsetAllocation = VK_FALSE;
	}
	*pPhysicalDeviceGroupCount = k;
	return k < n ? VK_INCOMPLETE : VK_SUCCESS;
}
