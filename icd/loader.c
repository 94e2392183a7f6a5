/* SPDX-License-Identifier: MIT */
/*
 * loader.c — the loader-driver interface (Vulkan-Loader
 * LoaderDriverInterface.md) and the proc-address queries.
 *
 * The ICD exports exactly three symbols (see icd.map); every Vulkan command
 * reaches the loader through vk_icdGetInstanceProcAddr and
 * vkGetDeviceProcAddr, looked up in the generated per-level tables.
 */
#include "icd.h"

#define ICD_EXPORT __attribute__((visibility("default")))

/* Interface 7: vk_icd* are queryable through vk_icdGetInstanceProcAddr.
 * Interface 5 is the oldest we accept: from 5 on the loader checks the
 * application's apiVersion itself, so an ICD may create 1.1+ instances. */
#define ICD_LOADER_INTERFACE_MAX 7u
#define ICD_LOADER_INTERFACE_MIN 5u

ICD_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion)
{
	if (!pSupportedVersion)
		return VK_ERROR_INCOMPATIBLE_DRIVER;
	if (*pSupportedVersion < ICD_LOADER_INTERFACE_MIN) {
		icd_log("loader interface %u is too old (need >= %u)",
		        *pSupportedVersion, ICD_LOADER_INTERFACE_MIN);
		return VK_ERROR_INCOMPATIBLE_DRIVER;
	}
	if (*pSupportedVersion > ICD_LOADER_INTERFACE_MAX)
		*pSupportedVersion = ICD_LOADER_INTERFACE_MAX;
	return VK_SUCCESS;
}

static PFN_vkVoidFunction
icd_loader_export(const char *name)
{
	if (!strcmp(name, "vk_icdNegotiateLoaderICDInterfaceVersion"))
		return (PFN_vkVoidFunction)vk_icdNegotiateLoaderICDInterfaceVersion;
	if (!strcmp(name, "vk_icdGetInstanceProcAddr"))
		return (PFN_vkVoidFunction)vk_icdGetInstanceProcAddr;
	if (!strcmp(name, "vk_icdGetPhysicalDeviceProcAddr"))
		return (PFN_vkVoidFunction)vk_icdGetPhysicalDeviceProcAddr;
	return NULL;
}

static bool
icd_core_available(const struct icd_entrypoint *e, uint32_t api_version)
{
	return e->core_version &&
	       VK_API_VERSION_MAJOR(e->core_version) * 1000 +
	       VK_API_VERSION_MINOR(e->core_version) <=
	       VK_API_VERSION_MAJOR(api_version) * 1000 +
	       VK_API_VERSION_MINOR(api_version);
}

/* Some clause of the command holds (gen_entrypoints.py: an extension,
 * with the other extension or core version its require block names). */
static bool
icd_ext_available(const struct icd_entrypoint *e,
                  const struct icd_ext_set *inst,
                  const struct icd_ext_set *dev, uint32_t api_version)
{
	for (uint32_t i = 0; i < e->nclauses; i++)
		if (icd_ep_clause_holds(&e->clauses[i], inst, dev,
		                        api_version))
			return true;
	return false;
}

/*
 * vkGetInstanceProcAddr per the spec's table: with a NULL instance only
 * the global commands (and vkGetInstanceProcAddr itself); with an instance
 * every instance-, physical-device- and device-level command: core ones and
 * those of the extensions (device extensions count when a physical device
 * lists them — "available" —, instance ones must be enabled; a clause's
 * core version is the instance's).
 */
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
icd_GetInstanceProcAddr(VkInstance instance, const char *pName)
{
	struct icd_instance *inst = icd_instance_from_handle(instance);
	const struct icd_entrypoint *e;

	if (!pName)
		return NULL;
	if (!strcmp(pName, "vkGetInstanceProcAddr"))
		return (PFN_vkVoidFunction)icd_GetInstanceProcAddr;
	if (!inst) {
		e = icd_entrypoint_lookup(ICD_LEVEL_GLOBAL, pName);
		return e ? e->func : NULL;
	}

	e = icd_entrypoint_lookup(ICD_LEVEL_INSTANCE, pName);
	if (!e)
		e = icd_entrypoint_lookup(ICD_LEVEL_PHYSICAL_DEVICE, pName);
	if (!e)
		e = icd_entrypoint_lookup(ICD_LEVEL_DEVICE, pName);
	if (e && (icd_core_available(e, ICD_API_VERSION) ||
	          icd_ext_available(e, &inst->enabled_extensions,
	                            &inst->available_device_extensions,
	                            inst->api_version)))
		return e->func;
	return icd_loader_export(pName);
}

/*
 * vkGetDeviceProcAddr: device-level commands only, core ones up to the
 * device's effective API version and those of the extensions enabled on
 * this device (and the instance), following the spec's interaction rules
 * (vkCmdPushDescriptorSetWithTemplateKHR needs VK_KHR_push_descriptor and
 * Vulkan 1.1 or VK_KHR_descriptor_update_template); NULL for everything
 * else (instance-level commands, commands of extensions not enabled).
 */
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
icd_GetDeviceProcAddr(VkDevice device, const char *pName)
{
	struct icd_device *dev = icd_device_from_handle(device);
	const struct icd_entrypoint *e;

	if (!dev || !pName)
		return NULL;
	e = icd_entrypoint_lookup(ICD_LEVEL_DEVICE, pName);
	if (!e)
		return NULL;
	if (icd_core_available(e, dev->api_version) ||
	    icd_ext_available(e, &dev->pdev->instance->enabled_extensions,
	                      &dev->enabled_extensions, dev->api_version))
		return e->func;
	return NULL;
}

ICD_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char *pName)
{
	PFN_vkVoidFunction f;

	if (!pName)
		return NULL;
	/* Interface 7: the loader may ask for the vk_icd* functions here,
	 * with or without an instance. */
	f = icd_loader_export(pName);
	if (f)
		return f;
	return icd_GetInstanceProcAddr(instance, pName);
}

/* Physical-device-level commands only: the loader uses this for commands
 * it does not know itself and builds a trampoline for them. */
ICD_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char *pName)
{
	const struct icd_entrypoint *e;

	if (!pName)
		return NULL;
	e = icd_entrypoint_lookup(ICD_LEVEL_PHYSICAL_DEVICE, pName);
	return e ? e->func : NULL;
}
