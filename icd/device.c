/* SPDX-License-Identifier: MIT */
/*
 * device.c — VkDevice = one swgpu context (GPU address space + fault
 * domain); VkQueue = one swgpu queue on an engine of the family's class.
 */
#include "icd.h"

#include <string.h>

static uint32_t
icd_api_minor_version(uint32_t v)
{
	return VK_API_VERSION_MAJOR(v) * 1000 + VK_API_VERSION_MINOR(v);
}

static void
icd_device_destroy_queues(struct icd_device *dev,
                          const VkAllocationCallbacks *alloc)
{
	for (uint32_t f = 0; f < ICD_MAX_QUEUE_FAMILIES; f++) {
		if (!dev->queues[f])
			continue;
		for (uint32_t i = 0; i < dev->queue_count[f]; i++)
			swgpu_queue_destroy(dev->queues[f][i].swq);
		icd_free(alloc, &dev->pdev->instance->alloc, dev->queues[f]);
		dev->queues[f] = NULL;
		dev->queue_count[f] = 0;
	}
}

/*
 * VK_KHR/EXT_global_priority: the global level picks the swgpu level.
 * MEDIUM is the default level; inside it the float priority keeps its
 * old meaning (discreteQueuePriorities = 2: below 0.5 is LOW). LOW, HIGH
 * and REALTIME are taken as they are. In shared mode swgpud decides who
 * may use REALTIME (README, "One GPU for the machine"): a refused level is
 * SWGPU_ERR_NOT_PERMITTED from swgpu_queue_create, which vkCreateDevice
 * returns as VK_ERROR_NOT_PERMITTED_KHR, as VK_KHR_global_priority says.
 */
static swgpu_priority
icd_queue_swgpu_priority(const VkDeviceQueueCreateInfo *qci, float prio)
{
	const VkDeviceQueueGlobalPriorityCreateInfoKHR *gp =
		icd_find_struct(qci->pNext,
		    VK_STRUCTURE_TYPE_DEVICE_QUEUE_GLOBAL_PRIORITY_CREATE_INFO_KHR);

	switch (gp ? gp->globalPriority : VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR) {
	case VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR:
		return SWGPU_PRIORITY_LOW;
	case VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR:
		return SWGPU_PRIORITY_HIGH;
	case VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR:
		return SWGPU_PRIORITY_REALTIME;
	default:
		return prio < 0.5f ? SWGPU_PRIORITY_LOW :
		                     SWGPU_PRIORITY_NORMAL;
	}
}

static VkResult
icd_device_create_queues(struct icd_device *dev,
                         const VkDeviceQueueCreateInfo *qci,
                         const VkAllocationCallbacks *alloc)
{
	const struct icd_queue_family *fam =
		&dev->pdev->queue_families[qci->queueFamilyIndex];
	struct icd_queue *queues;
	swgpu_result sr;

	queues = icd_zalloc(alloc, &dev->pdev->instance->alloc,
	                    qci->queueCount * sizeof(*queues), 8,
	                    VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
	if (!queues)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "queues");
	dev->queues[qci->queueFamilyIndex] = queues;
	for (uint32_t i = 0; i < qci->queueCount; i++) {
		struct icd_queue *q = &queues[i];
		float prio = qci->pQueuePriorities ?
		             qci->pQueuePriorities[i] : 1.0f;

		icd_object_init(&q->base, VK_OBJECT_TYPE_QUEUE);
		q->device = dev;
		q->family = qci->queueFamilyIndex;
		q->index = i;
		q->flags = qci->flags;
		q->priority = prio;
		/* Queue i runs on engine i of the class, so queues of a
		 * family overlap. */
		sr = swgpu_queue_create(dev->ctx, fam->engine_class, i,
		                        icd_queue_swgpu_priority(qci, prio),
		                        &q->swq);
		if (sr != SWGPU_OK)
			return icd_error(icd_result_from_swgpu(sr),
			                 "swgpu_queue_create: %s",
			                 swgpu_result_str(sr));
		/* Counted as created only now, so cleanup destroys exactly
		 * the swgpu queues that exist. */
		dev->queue_count[qci->queueFamilyIndex] = i + 1;
	}
	return VK_SUCCESS;
}

static VkResult
icd_device_check_queue_infos(struct icd_physical_device *pdev,
                             const VkDeviceCreateInfo *ci)
{
	bool seen[ICD_MAX_QUEUE_FAMILIES] = { false };

	for (uint32_t i = 0; i < ci->queueCreateInfoCount; i++) {
		const VkDeviceQueueCreateInfo *q = &ci->pQueueCreateInfos[i];

		if (q->queueFamilyIndex >= pdev->queue_family_count ||
		    seen[q->queueFamilyIndex]) {
			icd_log("vkCreateDevice: bad or repeated queue family "
			        "%u", q->queueFamilyIndex);
			return VK_ERROR_INITIALIZATION_FAILED;
		}
		seen[q->queueFamilyIndex] = true;
		if (q->queueCount == 0 || q->queueCount >
		    pdev->queue_families[q->queueFamilyIndex].queue_count) {
			icd_log("vkCreateDevice: family %u has %u queues, %u "
			        "requested", q->queueFamilyIndex,
			        pdev->queue_families[q->queueFamilyIndex]
			        .queue_count, q->queueCount);
			return VK_ERROR_INITIALIZATION_FAILED;
		}
		if (q->flags) {
			/* Only VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT exists,
			 * and protected memory is not supported. */
			icd_log("vkCreateDevice: queue flags 0x%x not "
			        "supported", q->flags);
			return VK_ERROR_FEATURE_NOT_PRESENT;
		}
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateDevice(VkPhysicalDevice physicalDevice,
                 const VkDeviceCreateInfo *pCreateInfo,
                 const VkAllocationCallbacks *pAllocator, VkDevice *pDevice)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);
	const VkAllocationCallbacks *parent = &pdev->instance->alloc;
	struct icd_features req;
	struct icd_device *dev;
	const char *missing;
	struct icd_ext_set enabled;
	swgpu_result sr;
	VkResult r;

	r = icd_device_check_queue_infos(pdev, pCreateInfo);
	if (r != VK_SUCCESS)
		return r;
	memset(&enabled, 0, sizeof(enabled));
	for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; i++) {
		const char *name = pCreateInfo->ppEnabledExtensionNames[i];
		int e = icd_device_extension_index(name);

		if (e < 0 || !icd_ext_set_has(&pdev->supported_extensions,
		                              (unsigned)e)) {
			icd_log("device extension %s is not supported", name);
			return VK_ERROR_EXTENSION_NOT_PRESENT;
		}
		icd_ext_set_add(&enabled, (unsigned)e);
	}
	icd_features_read_chain(pCreateInfo->pEnabledFeatures,
	                        pCreateInfo->pNext, &req);
	missing = icd_features_missing(&req, &pdev->features);
	if (!missing)
		missing = icd_ext_features_missing(pCreateInfo->pNext);
	if (missing) {
		icd_log("vkCreateDevice: feature %s is not supported", missing);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}

	dev = icd_zalloc(pAllocator, parent, sizeof(*dev), 8,
	                 VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
	if (!dev)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "device");
	icd_object_init(&dev->base, VK_OBJECT_TYPE_DEVICE);
	dev->pdev = pdev;
	dev->alloc = pAllocator ? *pAllocator : *parent;
	dev->enabled_extensions = enabled;
	dev->api_version = icd_api_minor_version(pdev->instance->api_version) <
	                   icd_api_minor_version(ICD_API_VERSION) ?
	                   pdev->instance->api_version : ICD_API_VERSION;
	dev->timeline_semaphore = req.v12.timelineSemaphore;
	dev->synchronization2 = req.v13.synchronization2;
	dev->host_query_reset = req.v12.hostQueryReset;
	dev->buffer_device_address = req.v12.bufferDeviceAddress;
	const VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT *tba =
		icd_find_struct(pCreateInfo->pNext,
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT);
	dev->texel_buffer_alignment = tba && tba->texelBufferAlignment;

	sr = swgpu_context_create(pdev->swdev, &dev->ctx);
	if (sr != SWGPU_OK) {
		r = icd_error(icd_result_from_swgpu(sr),
		              "swgpu_context_create: %s", swgpu_result_str(sr));
		goto fail;
	}
	for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; i++) {
		r = icd_device_create_queues(dev,
		                             &pCreateInfo->pQueueCreateInfos[i],
		                             pAllocator);
		if (r != VK_SUCCESS)
			goto fail;
	}
	*pDevice = icd_device_to_handle(dev);
	return VK_SUCCESS;

fail:
	icd_device_destroy_queues(dev, pAllocator);
	swgpu_context_destroy(dev->ctx);
	icd_free(pAllocator, parent, dev);
	return r;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroyDevice(VkDevice device, const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);

	if (!dev)
		return;
	icd_device_destroy_queues(dev, pAllocator);
	/* Unmaps whatever the application leaked in this address space. */
	swgpu_context_destroy(dev->ctx);
	icd_free(pAllocator, &dev->pdev->instance->alloc, dev);
}

static struct icd_queue *
icd_device_find_queue(struct icd_device *dev, uint32_t family,
                      uint32_t index, VkDeviceQueueCreateFlags flags)
{
	if (family >= ICD_MAX_QUEUE_FAMILIES || !dev->queues[family] ||
	    index >= dev->queue_count[family])
		return NULL;
	if (dev->queues[family][index].flags != flags)
		return NULL;
	return &dev->queues[family][index];
}

VKAPI_ATTR void VKAPI_CALL
icd_GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex,
                   uint32_t queueIndex, VkQueue *pQueue)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_queue *q = icd_device_find_queue(dev, queueFamilyIndex,
	                                            queueIndex, 0);

	if (!q)
		icd_log("vkGetDeviceQueue: no queue %u of family %u",
		        queueIndex, queueFamilyIndex);
	*pQueue = icd_queue_to_handle(q);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *pQueueInfo,
                    VkQueue *pQueue)
{
	struct icd_device *dev = icd_device_from_handle(device);

	/* A queue created with other flags is not "this" queue: NULL. */
	*pQueue = icd_queue_to_handle(icd_device_find_queue(
		dev, pQueueInfo->queueFamilyIndex, pQueueInfo->queueIndex,
		pQueueInfo->flags));
}

VkResult
icd_device_check_lost(struct icd_device *dev)
{
	if (swgpu_context_query_state(dev->ctx, NULL) != SWGPU_CONTEXT_OK)
		return VK_ERROR_DEVICE_LOST;
	return VK_SUCCESS;
}

/*
 * VK_EXT_device_fault: the swgpu fault record of the device's context.
 * Address infos: the faulting VA of a page fault (READ/WRITE_INVALID),
 * then the VA of the faulting packet (INSTRUCTION_POINTER_FAULT) when it
 * came from an indirect buffer. One vendor info: the swgpu message, the
 * fault kind as code, engine << 32 | queue id as data. No vendor binary.
 */
VKAPI_ATTR VkResult VKAPI_CALL
icd_GetDeviceFaultInfoEXT(VkDevice device, VkDeviceFaultCountsEXT *pCounts,
                          VkDeviceFaultInfoEXT *pInfo)
{
	struct icd_device *dev = icd_device_from_handle(device);
	swgpu_fault_info f;
	VkDeviceFaultAddressInfoEXT addr[2];
	uint32_t naddr = 0, nvendor = 0;

	memset(&f, 0, sizeof(f));
	if (swgpu_context_query_state(dev->ctx, &f) != SWGPU_CONTEXT_OK &&
	    f.kind != SWGPU_FAULT_NONE) {
		if (f.kind == SWGPU_FAULT_PAGE_READ ||
		    f.kind == SWGPU_FAULT_PAGE_WRITE ||
		    (f.kind == SWGPU_FAULT_INJECTED && f.address)) {
			addr[naddr++] = (VkDeviceFaultAddressInfoEXT){
				.addressType = f.kind == SWGPU_FAULT_PAGE_WRITE ?
				  VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT :
				  VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT,
				.reportedAddress = f.address,
				.addressPrecision = 1,
			};
		}
		if (f.packet_va)
			addr[naddr++] = (VkDeviceFaultAddressInfoEXT){
				.addressType = VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT,
				.reportedAddress = f.packet_va,
				.addressPrecision = 4,
			};
		nvendor = 1;
	}
	if (!pInfo) {
		pCounts->addressInfoCount = naddr;
		pCounts->vendorInfoCount = nvendor;
		pCounts->vendorBinarySize = 0;
		return VK_SUCCESS;
	}
	VkResult r = VK_SUCCESS;
	if (pCounts->addressInfoCount < naddr ||
	    pCounts->vendorInfoCount < nvendor)
		r = VK_INCOMPLETE;
	if (pCounts->addressInfoCount > naddr)
		pCounts->addressInfoCount = naddr;
	if (pCounts->vendorInfoCount > nvendor)
		pCounts->vendorInfoCount = nvendor;
	pCounts->vendorBinarySize = 0;
	if (nvendor)
		snprintf(pInfo->description, sizeof(pInfo->description),
		         "swgpu engine %u queue %u job %llu: %s", f.engine,
		         f.queue_id, (unsigned long long)f.job_seqno,
		         f.message);
	else
		snprintf(pInfo->description, sizeof(pInfo->description),
		         "no fault");
	if (pInfo->pAddressInfos)
		memcpy(pInfo->pAddressInfos, addr,
		       pCounts->addressInfoCount * sizeof(addr[0]));
	if (pInfo->pVendorInfos && pCounts->vendorInfoCount) {
		VkDeviceFaultVendorInfoEXT *v = pInfo->pVendorInfos;
		snprintf(v->description, sizeof(v->description), "%s",
		         f.message);
		v->vendorFaultCode = (uint64_t)f.kind;
		v->vendorFaultData = (uint64_t)f.engine << 32 | f.queue_id;
	}
	return r;
}

/* Device groups (core 1.1, VK_KHR_device_group): every VkDevice is a
 * group of one physical device, whose memory it reaches in every way; the
 * spec asks for distinct device indices, which one device cannot give,
 * so this only answers for the device itself. */
VKAPI_ATTR void VKAPI_CALL
icd_GetDeviceGroupPeerMemoryFeatures(VkDevice device, uint32_t heapIndex,
                                     uint32_t localDeviceIndex,
                                     uint32_t remoteDeviceIndex,
                                     VkPeerMemoryFeatureFlags *pFeatures)
{
	(void)device;
	(void)heapIndex;
	(void)localDeviceIndex;
	(void)remoteDeviceIndex;
	*pFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT |
	             VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
	             VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT |
	             VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
}
