/* SPDX-License-Identifier: MIT */
/*
 * physical_device.c — one VkPhysicalDevice per swgpu device: properties,
 * limits, features, queue families and memory types, told truthfully.
 *
 * What the device can do today is the transfer subset: copies, fills,
 * updates, barriers, events, timestamps, fences and semaphores. There are
 * no shaders, so every shader/graphics feature is FALSE and every limit of
 * such a feature is the spec's required minimum, never more.
 */
#include <stdio.h>

#include "icd.h"
#include "format.h"

#ifndef ICD_VERSION_MAJOR
#define ICD_VERSION_MAJOR 0
#define ICD_VERSION_MINOR 0
#define ICD_VERSION_PATCH 0
#endif

/* Memory types (see icd_physical_device_init_memory). */
enum {
	ICD_MEM_TYPE_VRAM = 0,
	ICD_MEM_TYPE_UPLOAD = 1,
	ICD_MEM_TYPE_READBACK = 2,
	ICD_MEM_TYPE_BAR = 3,
};

static void
icd_physical_device_init_queues(struct icd_physical_device *pdev)
{
	/* Family order: compute-class engines first, then copy engines. For
	 * now both only advertise TRANSFER: COMPUTE comes with shaders. */
	static const swgpu_engine_class order[] = {
		SWGPU_ENGINE_COMPUTE, SWGPU_ENGINE_COPY,
	};

	pdev->queue_family_count = 0;
	for (uint32_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint32_t n = pdev->info.engine_class_count[order[i]];
		struct icd_queue_family *f;

		if (!n)
			continue;
		if (n > ICD_MAX_QUEUES_PER_FAMILY)
			n = ICD_MAX_QUEUES_PER_FAMILY;
		f = &pdev->queue_families[pdev->queue_family_count++];
		f->flags = VK_QUEUE_TRANSFER_BIT;
		f->queue_count = n;
		f->engine_class = order[i];
	}
}

/*
 * Heaps: 0 VRAM outside the BAR window, 1 SYSTEM, 2 the BAR window.
 * Types, in the order the spec asks for (a type whose flags are a subset of
 * another's comes first): 0 DEVICE_LOCAL, 1 upload (HOST_VISIBLE|COHERENT,
 * uncached system memory), 2 readback (+HOST_CACHED), 3 DEVICE_LOCAL|
 * HOST_VISIBLE|HOST_COHERENT (VRAM BOs in the BAR window).
 */
static void
icd_physical_device_init_memory(struct icd_physical_device *pdev)
{
	VkPhysicalDeviceMemoryProperties *m = &pdev->memory;
	const swgpu_device_info *info = &pdev->info;
	uint64_t vram = info->heap_size[SWGPU_HEAP_VRAM];
	uint64_t bar = info->bar_size < vram ? info->bar_size : vram;

	memset(m, 0, sizeof(*m));
	m->memoryHeapCount = 2;
	m->memoryHeaps[0] = (VkMemoryHeap){ vram - bar,
	                                    VK_MEMORY_HEAP_DEVICE_LOCAL_BIT };
	m->memoryHeaps[1] = (VkMemoryHeap){ info->heap_size[SWGPU_HEAP_SYSTEM],
	                                    0 };
	m->memoryTypeCount = 3;
	m->memoryTypes[ICD_MEM_TYPE_VRAM] = (VkMemoryType){
		VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0 };
	m->memoryTypes[ICD_MEM_TYPE_UPLOAD] = (VkMemoryType){
		VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 1 };
	m->memoryTypes[ICD_MEM_TYPE_READBACK] = (VkMemoryType){
		VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
		VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 1 };
	pdev->type_heap[ICD_MEM_TYPE_VRAM] = SWGPU_HEAP_VRAM;
	pdev->type_bo_flags[ICD_MEM_TYPE_VRAM] = 0;
	pdev->type_heap[ICD_MEM_TYPE_UPLOAD] = SWGPU_HEAP_SYSTEM;
	pdev->type_bo_flags[ICD_MEM_TYPE_UPLOAD] = 0;
	pdev->type_heap[ICD_MEM_TYPE_READBACK] = SWGPU_HEAP_SYSTEM;
	pdev->type_bo_flags[ICD_MEM_TYPE_READBACK] = SWGPU_BO_CACHED;
	if (bar) {
		m->memoryHeapCount = 3;
		m->memoryHeaps[2] = (VkMemoryHeap){
			bar, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT };
		m->memoryTypeCount = 4;
		m->memoryTypes[ICD_MEM_TYPE_BAR] = (VkMemoryType){
			VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
			VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
			VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 2 };
		pdev->type_heap[ICD_MEM_TYPE_BAR] = SWGPU_HEAP_VRAM;
		pdev->type_bo_flags[ICD_MEM_TYPE_BAR] = SWGPU_BO_BAR;
	}
}

static uint64_t
icd_min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static void
icd_physical_device_init_limits(struct icd_physical_device *pdev,
                                VkPhysicalDeviceLimits *l)
{
	const swgpu_device_info *info = &pdev->info;

	memset(l, 0, sizeof(*l));
	/* Images: creatable, bound and laid out (transfer usage only). */
	l->maxImageDimension1D = 4096;
	l->maxImageDimension2D = 4096;
	l->maxImageDimension3D = 256;
	l->maxImageDimensionCube = 4096;
	l->maxImageArrayLayers = 256;
	/* Shader-facing limits: the spec's required minimums. */
	l->maxTexelBufferElements = 65536;
	l->maxUniformBufferRange = 16384;
	l->maxStorageBufferRange = 1u << 27;
	l->maxPushConstantsSize = 128;
	l->maxMemoryAllocationCount = ICD_MAX_MEMORY_ALLOCATIONS;
	l->maxSamplerAllocationCount = 4000;
	/* No tiling: buffers and images may share a page freely. */
	l->bufferImageGranularity = 1;
	l->sparseAddressSpaceSize = 0;
	l->maxBoundDescriptorSets = 4;
	l->maxPerStageDescriptorSamplers = 16;
	l->maxPerStageDescriptorUniformBuffers = 12;
	l->maxPerStageDescriptorStorageBuffers = 4;
	l->maxPerStageDescriptorSampledImages = 16;
	l->maxPerStageDescriptorStorageImages = 4;
	l->maxPerStageDescriptorInputAttachments = 4;
	l->maxPerStageResources = 128;
	l->maxDescriptorSetSamplers = 96;
	l->maxDescriptorSetUniformBuffers = 72;
	l->maxDescriptorSetUniformBuffersDynamic = 8;
	l->maxDescriptorSetStorageBuffers = 24;
	l->maxDescriptorSetStorageBuffersDynamic = 4;
	l->maxDescriptorSetSampledImages = 96;
	l->maxDescriptorSetStorageImages = 24;
	l->maxDescriptorSetInputAttachments = 4;
	l->maxVertexInputAttributes = 16;
	l->maxVertexInputBindings = 16;
	l->maxVertexInputAttributeOffset = 2047;
	l->maxVertexInputBindingStride = 2048;
	l->maxVertexOutputComponents = 64;
	/* tessellation and geometry shaders: unsupported, limits 0 */
	l->maxFragmentInputComponents = 64;
	l->maxFragmentOutputAttachments = 4;
	l->maxFragmentDualSrcAttachments = 0;
	l->maxFragmentCombinedOutputResources = 4;
	l->maxComputeSharedMemorySize = 16384;
	l->maxComputeWorkGroupCount[0] = 65535;
	l->maxComputeWorkGroupCount[1] = 65535;
	l->maxComputeWorkGroupCount[2] = 65535;
	l->maxComputeWorkGroupInvocations = 128;
	l->maxComputeWorkGroupSize[0] = 128;
	l->maxComputeWorkGroupSize[1] = 128;
	l->maxComputeWorkGroupSize[2] = 64;
	l->subPixelPrecisionBits = 4;
	l->subTexelPrecisionBits = 4;
	l->mipmapPrecisionBits = 4;
	l->maxDrawIndexedIndexValue = (1u << 24) - 1;
	l->maxDrawIndirectCount = 1;
	l->maxSamplerLodBias = 2.0f;
	l->maxSamplerAnisotropy = 1.0f;
	l->maxViewports = 1;
	l->maxViewportDimensions[0] = 4096;
	l->maxViewportDimensions[1] = 4096;
	l->viewportBoundsRange[0] = -8192.0f;
	l->viewportBoundsRange[1] = 8191.0f;
	l->viewportSubPixelBits = 0;
	l->minMemoryMapAlignment = 64;
	l->minTexelBufferOffsetAlignment = 256;
	l->minUniformBufferOffsetAlignment = 256;
	l->minStorageBufferOffsetAlignment = 256;
	l->minTexelOffset = -8;
	l->maxTexelOffset = 7;
	l->minTexelGatherOffset = 0;
	l->maxTexelGatherOffset = 0;
	l->minInterpolationOffset = 0.0f;
	l->maxInterpolationOffset = 0.0f;
	l->subPixelInterpolationOffsetBits = 0;
	l->maxFramebufferWidth = 4096;
	l->maxFramebufferHeight = 4096;
	l->maxFramebufferLayers = 256;
	l->framebufferColorSampleCounts = VK_SAMPLE_COUNT_1_BIT |
	                                  VK_SAMPLE_COUNT_4_BIT;
	l->framebufferDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT |
	                                  VK_SAMPLE_COUNT_4_BIT;
	l->framebufferStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT |
	                                    VK_SAMPLE_COUNT_4_BIT;
	l->framebufferNoAttachmentsSampleCounts = VK_SAMPLE_COUNT_1_BIT |
	                                          VK_SAMPLE_COUNT_4_BIT;
	l->maxColorAttachments = 4;
	l->sampledImageColorSampleCounts = VK_SAMPLE_COUNT_1_BIT |
	                                   VK_SAMPLE_COUNT_4_BIT;
	l->sampledImageIntegerSampleCounts = VK_SAMPLE_COUNT_1_BIT;
	l->sampledImageDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT |
	                                   VK_SAMPLE_COUNT_4_BIT;
	l->sampledImageStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT |
	                                     VK_SAMPLE_COUNT_4_BIT;
	l->storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT;
	l->maxSampleMaskWords = 1;
	/* TIMESTAMP packets run on every engine, but no queue family has
	 * graphics or compute yet. */
	l->timestampComputeAndGraphics = VK_FALSE;
	l->timestampPeriod = info->timestamp_frequency ?
		(float)(1e9 / (double)info->timestamp_frequency) : 1.0f;
	l->maxClipDistances = 0;
	l->maxCullDistances = 0;
	l->maxCombinedClipAndCullDistances = 0;
	/* swgpu has LOW and NORMAL for application queues */
	l->discreteQueuePriorities = 2;
	l->pointSizeRange[0] = 1.0f;
	l->pointSizeRange[1] = 1.0f;
	l->lineWidthRange[0] = 1.0f;
	l->lineWidthRange[1] = 1.0f;
	l->pointSizeGranularity = 0.0f;
	l->lineWidthGranularity = 0.0f;
	l->strictLines = VK_FALSE;
	l->standardSampleLocations = VK_FALSE;
	/* COPY packets take any alignment; these are what runs fastest. */
	l->optimalBufferCopyOffsetAlignment = 16;
	l->optimalBufferCopyRowPitchAlignment = 16;
	/* All host-visible memory is coherent; the atom is the memory map
	 * alignment. */
	l->nonCoherentAtomSize = 64;
}

static void
icd_physical_device_init_properties(struct icd_physical_device *pdev)
{
	VkPhysicalDeviceProperties *p = &pdev->properties;
	struct icd_properties *x = &pdev->properties_1x;
	const swgpu_device_info *info = &pdev->info;
	uint64_t max_alloc;

	memset(p, 0, sizeof(*p));
	p->apiVersion = ICD_API_VERSION;
	p->driverVersion = VK_MAKE_API_VERSION(0, ICD_VERSION_MAJOR,
	                                       ICD_VERSION_MINOR,
	                                       ICD_VERSION_PATCH);
	p->vendorID = ICD_VENDOR_ID;
	p->deviceID = 0x0001;
	p->deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
	snprintf(p->deviceName, sizeof(p->deviceName), "swgpu (%u engines)",
	         info->engine_count);
	/* A pipeline cache is only valid for the same driver build. */
	memcpy(p->pipelineCacheUUID, "swgpu-pipecache", 15);
	p->pipelineCacheUUID[15] = (uint8_t)ICD_VERSION_MINOR;
	icd_physical_device_init_limits(pdev, &p->limits);
	memset(&p->sparseProperties, 0, sizeof(p->sparseProperties));

	memset(x, 0, sizeof(*x));
	x->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
	x->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
	x->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;

	memcpy(x->v11.deviceUUID, info->uuid, VK_UUID_SIZE);
	memcpy(x->v11.driverUUID, "swgpu-driver", 12);
	x->v11.driverUUID[12] = (uint8_t)ICD_VERSION_MAJOR;
	x->v11.driverUUID[13] = (uint8_t)ICD_VERSION_MINOR;
	x->v11.driverUUID[14] = (uint8_t)ICD_VERSION_PATCH;
	x->v11.deviceLUIDValid = VK_FALSE; /* LUIDs are a Windows concept */
	x->v11.subgroupSize = 1;
	x->v11.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
	x->v11.subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT;
	x->v11.subgroupQuadOperationsInAllStages = VK_FALSE;
	x->v11.pointClippingBehavior =
		VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
	x->v11.maxMultiviewViewCount = 6;
	x->v11.maxMultiviewInstanceIndex = (1u << 27) - 1;
	x->v11.protectedNoFault = VK_FALSE;
	x->v11.maxPerSetDescriptors = 1024;
	max_alloc = icd_min_u64(info->max_bo_size,
	                        info->heap_size[SWGPU_HEAP_SYSTEM]);
	x->v11.maxMemoryAllocationSize = max_alloc;

	x->v12.driverID = ICD_DRIVER_ID;
	snprintf(x->v12.driverName, sizeof(x->v12.driverName), "swgpu");
	snprintf(x->v12.driverInfo, sizeof(x->v12.driverInfo),
	         "swgpu %d.%d.%d (software GPU, swgpu API %u)",
	         ICD_VERSION_MAJOR, ICD_VERSION_MINOR, ICD_VERSION_PATCH,
	         info->api_version);
	/* Not conformance tested: 0.0.0.0. */
	memset(&x->v12.conformanceVersion, 0,
	       sizeof(x->v12.conformanceVersion));
	x->v12.denormBehaviorIndependence =
		VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
	x->v12.roundingModeIndependence =
		VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
	x->v12.supportedDepthResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	x->v12.supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	/* Timeline values are 64-bit counters that only grow. */
	x->v12.maxTimelineSemaphoreValueDifference = UINT64_MAX;
	x->v12.framebufferIntegerColorSampleCounts = VK_SAMPLE_COUNT_1_BIT;

	x->v13.minSubgroupSize = 1;
	x->v13.maxSubgroupSize = 1;
	x->v13.maxComputeWorkgroupSubgroups = 1;
	x->v13.requiredSubgroupSizeStages = 0;
	x->v13.maxInlineUniformBlockSize = 256;
	x->v13.maxPerStageDescriptorInlineUniformBlocks = 4;
	x->v13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 4;
	x->v13.maxDescriptorSetInlineUniformBlocks = 4;
	x->v13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 4;
	x->v13.maxInlineUniformTotalSize = 256;
	x->v13.storageTexelBufferOffsetAlignmentBytes = 256;
	x->v13.uniformTexelBufferOffsetAlignmentBytes = 256;
	x->v13.maxBufferSize = max_alloc;
}

/*
 * Features: what really works. robustBufferAccess is required by every
 * Vulkan version and holds trivially while no shader can access a buffer;
 * the shader engine must keep it true (and must read buffer device
 * addresses as the VAs they are).
 */
static void
icd_physical_device_init_features(struct icd_physical_device *pdev)
{
	struct icd_features *f = &pdev->features;

	memset(f, 0, sizeof(*f));
	f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
	f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f->core.robustBufferAccess = VK_TRUE;
	f->v12.hostQueryReset = VK_TRUE;
	f->v12.timelineSemaphore = VK_TRUE;
	/* Every VkDeviceMemory has a GPU VA for its whole life in the
	 * device's context, so a buffer's address is simply its VA. No
	 * capture/replay (addresses are chosen by swgpu) and no device
	 * groups. */
	f->v12.bufferDeviceAddress = VK_TRUE;
	f->v13.synchronization2 = VK_TRUE;
}

VkResult
icd_physical_device_init(struct icd_physical_device *pdev,
                         struct icd_instance *inst)
{
	swgpu_config cfg;
	swgpu_result sr;

	memset(pdev, 0, sizeof(*pdev));
	icd_object_init(&pdev->base, VK_OBJECT_TYPE_PHYSICAL_DEVICE);
	pdev->instance = inst;
	swgpu_config_init(&cfg);
	sr = swgpu_device_open(&cfg, &pdev->swdev);
	if (sr != SWGPU_OK) {
		icd_log("cannot open swgpu device: %s", swgpu_result_str(sr));
		pdev->swdev = NULL;
		return sr == SWGPU_ERR_NO_HOST_MEMORY ?
		       VK_ERROR_OUT_OF_HOST_MEMORY :
		       VK_ERROR_INITIALIZATION_FAILED;
	}
	swgpu_device_query_info(pdev->swdev, &pdev->info);
	icd_physical_device_init_queues(pdev);
	icd_physical_device_init_memory(pdev);
	icd_physical_device_init_properties(pdev);
	icd_physical_device_init_features(pdev);
	return VK_SUCCESS;
}

void
icd_physical_device_finish(struct icd_physical_device *pdev)
{
	swgpu_device_close(pdev->swdev);
	pdev->swdev = NULL;
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                VkPhysicalDeviceProperties *pProperties)
{
	*pProperties = icd_physical_device_from_handle(physicalDevice)
		->properties;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                 VkPhysicalDeviceProperties2 *pProperties)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	pProperties->properties = pdev->properties;
	/* Structs of extensions we do not offer are left untouched. */
	icd_properties_write_chain(pProperties->pNext, &pdev->properties_1x,
	                           NULL);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                              VkPhysicalDeviceFeatures *pFeatures)
{
	*pFeatures = icd_physical_device_from_handle(physicalDevice)
		->features.core;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                               VkPhysicalDeviceFeatures2 *pFeatures)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	pFeatures->features = pdev->features.core;
	icd_features_write_chain(pFeatures->pNext, &pdev->features, NULL);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceQueueFamilyProperties(
	VkPhysicalDevice physicalDevice, uint32_t *pCount,
	VkQueueFamilyProperties *pProps)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);
	VkQueueFamilyProperties props[ICD_MAX_QUEUE_FAMILIES];

	for (uint32_t i = 0; i < pdev->queue_family_count; i++) {
		props[i] = (VkQueueFamilyProperties){
			.queueFlags = pdev->queue_families[i].flags,
			.queueCount = pdev->queue_families[i].queue_count,
			.timestampValidBits = pdev->info.timestamp_valid_bits,
			.minImageTransferGranularity = { 1, 1, 1 },
		};
	}
	(void)icd_fill_array(pProps, pCount, props, pdev->queue_family_count,
	                     sizeof(props[0]));
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceQueueFamilyProperties2(
	VkPhysicalDevice physicalDevice, uint32_t *pCount,
	VkQueueFamilyProperties2 *pProps)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);
	VkQueueFamilyProperties props[ICD_MAX_QUEUE_FAMILIES];
	uint32_t n = ICD_MAX_QUEUE_FAMILIES;

	icd_GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &n, props);
	if (!pProps) {
		*pCount = n;
		return;
	}
	if (*pCount > pdev->queue_family_count)
		*pCount = pdev->queue_family_count;
	for (uint32_t i = 0; i < *pCount; i++)
		pProps[i].queueFamilyProperties = props[i];
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceMemoryProperties(
	VkPhysicalDevice physicalDevice,
	VkPhysicalDeviceMemoryProperties *pMemoryProperties)
{
	*pMemoryProperties = icd_physical_device_from_handle(physicalDevice)
		->memory;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceMemoryProperties2(
	VkPhysicalDevice physicalDevice,
	VkPhysicalDeviceMemoryProperties2 *pMemoryProperties)
{
	pMemoryProperties->memoryProperties =
		icd_physical_device_from_handle(physicalDevice)->memory;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                       const char *pLayerName,
                                       uint32_t *pPropertyCount,
                                       VkExtensionProperties *pProperties)
{
	if (pLayerName)
		return icd_error(VK_ERROR_LAYER_NOT_PRESENT, "layer %s",
		                 pLayerName);
	return icd_fill_array(pProperties, pPropertyCount,
	                      icd_device_extensions, ICD_DEVICE_EXT_COUNT,
	                      sizeof(VkExtensionProperties));
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumerateDeviceLayerProperties(VkPhysicalDevice physicalDevice,
                                   uint32_t *pPropertyCount,
                                   VkLayerProperties *pProperties)
{
	*pPropertyCount = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceToolProperties(VkPhysicalDevice physicalDevice,
                                    uint32_t *pToolCount,
                                    VkPhysicalDeviceToolProperties *pTools)
{
	*pToolCount = 0;
	return VK_SUCCESS;
}

/* No external memory, fences or semaphores: export/import of nothing. */
VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceExternalBufferProperties(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceExternalBufferInfo *pInfo,
	VkExternalBufferProperties *pProps)
{
	memset(&pProps->externalMemoryProperties, 0,
	       sizeof(pProps->externalMemoryProperties));
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceExternalFenceProperties(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceExternalFenceInfo *pInfo,
	VkExternalFenceProperties *pProps)
{
	pProps->exportFromImportedHandleTypes = 0;
	pProps->compatibleHandleTypes = 0;
	pProps->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceExternalSemaphoreProperties(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceExternalSemaphoreInfo *pInfo,
	VkExternalSemaphoreProperties *pProps)
{
	pProps->exportFromImportedHandleTypes = 0;
	pProps->compatibleHandleTypes = 0;
	pProps->externalSemaphoreFeatures = 0;
}

/* No sparse resources. */
VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceSparseImageFormatProperties(
	VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
	VkSampleCountFlagBits samples, VkImageUsageFlags usage,
	VkImageTiling tiling, uint32_t *pPropertyCount,
	VkSparseImageFormatProperties *pProperties)
{
	*pPropertyCount = 0;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceSparseImageFormatProperties2(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
	uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
	*pPropertyCount = 0;
}
