/* SPDX-License-Identifier: MIT */
/*
 * physical_device.c — one VkPhysicalDevice per swgpu device: properties,
 * limits, features, queue families and memory types, told truthfully.
 *
 * What the device can do: transfers, barriers, events, timestamps, fences
 * and semaphores on every queue, and compute shaders (DISPATCH) on the
 * compute-class family. Compute limits and shader features come from the
 * engine's own constants and capability query (swgpu.h "Shaders"); there
 * is no graphics engine, so graphics limits are the spec's minimums.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "icd.h"
#include "pipeline.h"
#include "format.h"
#include "wsi.h"

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
	/* Family order as on real GPUs: graphics engines first
	 * (GRAPHICS|COMPUTE|TRANSFER: a GFX ring runs every packet in ring
	 * order), then the async compute engines (COMPUTE|TRANSFER), then
	 * the copy engines (TRANSFER only). A class without engines has no
	 * family. */
	static const swgpu_engine_class order[] = {
		SWGPU_ENGINE_GRAPHICS, SWGPU_ENGINE_COMPUTE, SWGPU_ENGINE_COPY,
	};
	static const VkQueueFlags flags[] = {
		[SWGPU_ENGINE_GRAPHICS] = VK_QUEUE_GRAPHICS_BIT |
		                          VK_QUEUE_COMPUTE_BIT |
		                          VK_QUEUE_TRANSFER_BIT,
		[SWGPU_ENGINE_COMPUTE] = VK_QUEUE_COMPUTE_BIT |
		                         VK_QUEUE_TRANSFER_BIT,
		[SWGPU_ENGINE_COPY] = VK_QUEUE_TRANSFER_BIT,
	};

	/* Test knob, never a conformance claim: CTS object-management
	 * groups (alloc_callback_fail*, single_alloc_callbacks, ...) create
	 * their device on a GRAPHICS family and are NotSupported without
	 * one. On a device configured without graphics engines
	 * (SWGPU_GRAPHICS_ENGINES=0), SWGPU_TEST_CLAIM_GRAPHICS=1 makes the
	 * first family say GRAPHICS so those allocation-callback checks
	 * run; draws there fail with an error. */
	const char *claim = getenv("SWGPU_TEST_CLAIM_GRAPHICS");
	const bool claim_graphics = claim && *claim && strcmp(claim, "0") &&
		!pdev->info.engine_class_count[SWGPU_ENGINE_GRAPHICS];

	if (claim_graphics)
		icd_log("SWGPU_TEST_CLAIM_GRAPHICS: queue family 0 claims "
		        "GRAPHICS for tests; there is no graphics engine");
	pdev->queue_family_count = 0;
	for (uint32_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint32_t n = pdev->info.engine_class_count[order[i]];
		struct icd_queue_family *f;

		if (!n)
			continue;
		if (n > ICD_MAX_QUEUES_PER_FAMILY)
			n = ICD_MAX_QUEUES_PER_FAMILY;
		f = &pdev->queue_families[pdev->queue_family_count++];
		f->flags = flags[order[i]];
		if (claim_graphics && pdev->queue_family_count == 1)
			f->flags |= VK_QUEUE_GRAPHICS_BIT;
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
	/* Images: the engine addresses extents up to
	 * SWGPU_IMAGE_MAX_EXTENT; 1D/2D/cube 32768 (16 mip levels,
	 * ICD_MAX_MIP_LEVELS; lavapipe: 16384), 3D 2048, 2048 layers. */
	l->maxImageDimension1D = 32768;
	l->maxImageDimension2D = 32768;
	l->maxImageDimension3D = 2048;
	l->maxImageDimensionCube = 32768;
	l->maxImageArrayLayers = 2048;
	/* Texel buffer descriptors address any number of texels
	 * (buffer_view.c); 2^27 (2 GiB of 16-byte texels, as
	 * maxResourceSize) is what common drivers tell. */
	l->maxTexelBufferElements = 1u << 27;
	/* Buffer descriptors address up to SWGPU_SHADER_MAX_BUFFER_RANGE
	 * bytes; uniform buffers promise the common 64 KiB. */
	l->maxUniformBufferRange = 65536;
	l->maxStorageBufferRange = SWGPU_SHADER_MAX_BUFFER_RANGE;
	l->maxPushConstantsSize = SWGPU_SHADER_MAX_PUSH_CONSTANTS;
	l->maxMemoryAllocationCount = ICD_MAX_MEMORY_ALLOCATIONS;
	l->maxSamplerAllocationCount = 4000;
	/* No tiling: buffers and images may share a page freely. */
	l->bufferImageGranularity = 1;
	l->sparseAddressSpaceSize = 0;
	/* Descriptor limits: sets and dynamic offsets are the engine's
	 * bind table; buffer counts stay near the spec's minimums so a
	 * shader's bindings fit SWGPU_SHADER_MAX_BINDINGS. Compute is the
	 * only stage, so per-stage storage buffers = per-layout ones. */
	l->maxBoundDescriptorSets = SWGPU_SHADER_MAX_SETS;
	l->maxPerStageDescriptorSamplers = 16;
	l->maxPerStageDescriptorUniformBuffers = 12;
	l->maxPerStageDescriptorStorageBuffers = 24;
	l->maxPerStageDescriptorSampledImages = 16;
	l->maxPerStageDescriptorStorageImages = 4;
	l->maxPerStageDescriptorInputAttachments = 4;
	l->maxPerStageResources = 128;
	l->maxDescriptorSetSamplers = 96;
	l->maxDescriptorSetUniformBuffers = 72;
	/* 8 + 8 = SWGPU_SHADER_MAX_DYNAMIC_BUFFERS dynamic offsets. */
	l->maxDescriptorSetUniformBuffersDynamic = 8;
	l->maxDescriptorSetStorageBuffers = 24;
	l->maxDescriptorSetStorageBuffersDynamic = 8;
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
	/* What the compute engine executes (swgpu.h "Shaders"). */
	l->maxComputeSharedMemorySize = SWGPU_SHADER_MAX_SHARED_MEMORY;
	l->maxComputeWorkGroupCount[0] = SWGPU_SHADER_MAX_WORKGROUP_COUNT;
	l->maxComputeWorkGroupCount[1] = SWGPU_SHADER_MAX_WORKGROUP_COUNT;
	l->maxComputeWorkGroupCount[2] = SWGPU_SHADER_MAX_WORKGROUP_COUNT;
	l->maxComputeWorkGroupInvocations =
		SWGPU_SHADER_MAX_WORKGROUP_INVOCATIONS;
	l->maxComputeWorkGroupSize[0] = SWGPU_SHADER_MAX_WORKGROUP_SIZE_X;
	l->maxComputeWorkGroupSize[1] = SWGPU_SHADER_MAX_WORKGROUP_SIZE_Y;
	l->maxComputeWorkGroupSize[2] = SWGPU_SHADER_MAX_WORKGROUP_SIZE_Z;
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
	/* Not above the buffer alignment: a texel buffer's memory must be
	 * at least this aligned (dEQP-VK.memory.requirements.*.buffer). */
	l->minTexelBufferOffsetAlignment = ICD_RESOURCE_ALIGNMENT;
	l->minUniformBufferOffsetAlignment = SWGPU_SHADER_MIN_BUFFER_ALIGNMENT;
	l->minStorageBufferOffsetAlignment = SWGPU_SHADER_MIN_BUFFER_ALIGNMENT;
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
	/* TIMESTAMP packets run on every engine, so on every compute queue
	 * (there are no graphics queues). */
	l->timestampComputeAndGraphics = VK_TRUE;
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
	snprintf(p->deviceName, sizeof(p->deviceName), "swgpu (%u engine%s)",
	         info->engine_count, info->engine_count == 1 ? "" : "s");
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
	/* Fixed subgroups of SWGPU_SHADER_SUBGROUP_SIZE lanes; the
	 * operations the engine executes. */
	x->v11.subgroupSize = SWGPU_SHADER_SUBGROUP_SIZE;
	x->v11.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
	x->v11.subgroupSupportedOperations = SWGPU_SHADER_SUBGROUP_FEATURES;
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
	/* The shader engine computes 32- and 64-bit floats in host IEEE
	 * arithmetic: round to nearest even, denormals kept, no fast-math
	 * assumptions about zeros, infinities and NaN. No 16-bit floats. */
	x->v12.shaderDenormPreserveFloat32 =
		swgpu_shader_capability_supported(SpvCapabilityDenormPreserve);
	x->v12.shaderSignedZeroInfNanPreserveFloat32 =
		swgpu_shader_capability_supported(
			SpvCapabilitySignedZeroInfNanPreserve);
	x->v12.shaderRoundingModeRTEFloat32 =
		swgpu_shader_capability_supported(SpvCapabilityRoundingModeRTE);
	x->v12.shaderDenormPreserveFloat64 =
		x->v12.shaderDenormPreserveFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat64);
	x->v12.shaderSignedZeroInfNanPreserveFloat64 =
		x->v12.shaderSignedZeroInfNanPreserveFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat64);
	x->v12.shaderRoundingModeRTEFloat64 =
		x->v12.shaderRoundingModeRTEFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat64);
	x->v12.supportedDepthResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	x->v12.supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
	/* Timeline values are 64-bit counters that only grow. */
	x->v12.maxTimelineSemaphoreValueDifference = UINT64_MAX;
	/* No update-after-bind (descriptorIndexing is FALSE), but tools
	 * check pipeline layouts against these limits too: state the
	 * ordinary descriptor limits, which hold either way. */
	x->v12.maxUpdateAfterBindDescriptorsInAllPools = 1u << 20;
	x->v12.maxPerStageDescriptorUpdateAfterBindSamplers =
		p->limits.maxPerStageDescriptorSamplers;
	x->v12.maxPerStageDescriptorUpdateAfterBindUniformBuffers =
		p->limits.maxPerStageDescriptorUniformBuffers;
	x->v12.maxPerStageDescriptorUpdateAfterBindStorageBuffers =
		p->limits.maxPerStageDescriptorStorageBuffers;
	x->v12.maxPerStageDescriptorUpdateAfterBindSampledImages =
		p->limits.maxPerStageDescriptorSampledImages;
	x->v12.maxPerStageDescriptorUpdateAfterBindStorageImages =
		p->limits.maxPerStageDescriptorStorageImages;
	x->v12.maxPerStageDescriptorUpdateAfterBindInputAttachments =
		p->limits.maxPerStageDescriptorInputAttachments;
	x->v12.maxPerStageUpdateAfterBindResources =
		p->limits.maxPerStageResources;
	x->v12.maxDescriptorSetUpdateAfterBindSamplers =
		p->limits.maxDescriptorSetSamplers;
	x->v12.maxDescriptorSetUpdateAfterBindUniformBuffers =
		p->limits.maxDescriptorSetUniformBuffers;
	x->v12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic =
		p->limits.maxDescriptorSetUniformBuffersDynamic;
	x->v12.maxDescriptorSetUpdateAfterBindStorageBuffers =
		p->limits.maxDescriptorSetStorageBuffers;
	x->v12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic =
		p->limits.maxDescriptorSetStorageBuffersDynamic;
	x->v12.maxDescriptorSetUpdateAfterBindSampledImages =
		p->limits.maxDescriptorSetSampledImages;
	x->v12.maxDescriptorSetUpdateAfterBindStorageImages =
		p->limits.maxDescriptorSetStorageImages;
	x->v12.maxDescriptorSetUpdateAfterBindInputAttachments =
		p->limits.maxDescriptorSetInputAttachments;
	x->v12.framebufferIntegerColorSampleCounts = VK_SAMPLE_COUNT_1_BIT;

	/* One subgroup size: requiring it (subgroupSizeControl) is
	 * trivially honoured, and a workgroup whose X size is a multiple
	 * of it has only full subgroups (computeFullSubgroups). */
	x->v13.minSubgroupSize = SWGPU_SHADER_SUBGROUP_SIZE;
	x->v13.maxSubgroupSize = SWGPU_SHADER_SUBGROUP_SIZE;
	x->v13.maxComputeWorkgroupSubgroups =
		SWGPU_SHADER_MAX_WORKGROUP_INVOCATIONS /
		SWGPU_SHADER_SUBGROUP_SIZE;
	x->v13.requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
	x->v13.maxInlineUniformBlockSize = 256;
	x->v13.maxPerStageDescriptorInlineUniformBlocks = 4;
	x->v13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 4;
	x->v13.maxDescriptorSetInlineUniformBlocks = 4;
	x->v13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 4;
	x->v13.maxInlineUniformTotalSize = 256;
	/* Texel buffers need their texel's alignment only (the engine's
	 * texel atomics: 4 bytes); 16, the largest texel, covers any
	 * format (buffer_view.c applies these with a 1.3 API version). */
	x->v13.storageTexelBufferOffsetAlignmentBytes = 16;
	x->v13.storageTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
	x->v13.uniformTexelBufferOffsetAlignmentBytes = 16;
	x->v13.uniformTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
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
	 * groups. Now that shaders run, the feature also promises that
	 * shaders dereference those addresses (PhysicalStorageBuffer64),
	 * so it is on exactly when the engine executes that capability. */
	f->v12.bufferDeviceAddress = swgpu_shader_capability_supported(
		SpvCapabilityPhysicalStorageBufferAddresses);
	f->v13.synchronization2 = VK_TRUE;
	/* Shader features: exactly the SPIR-V capabilities the compute
	 * engine executes. */
	f->core.shaderInt64 = swgpu_shader_capability_supported(
		SpvCapabilityInt64);
	f->core.shaderInt16 = swgpu_shader_capability_supported(
		SpvCapabilityInt16);
	f->core.shaderFloat64 = swgpu_shader_capability_supported(
		SpvCapabilityFloat64);
	f->v12.shaderInt8 = swgpu_shader_capability_supported(
		SpvCapabilityInt8);
	f->v12.shaderFloat16 = swgpu_shader_capability_supported(
		SpvCapabilityFloat16);
	f->v11.storageBuffer16BitAccess = swgpu_shader_capability_supported(
		SpvCapabilityStorageBuffer16BitAccess);
	f->v11.uniformAndStorageBuffer16BitAccess =
		swgpu_shader_capability_supported(
			SpvCapabilityUniformAndStorageBuffer16BitAccess);
	f->v11.storagePushConstant16 = swgpu_shader_capability_supported(
		SpvCapabilityStoragePushConstant16);
	f->v12.storageBuffer8BitAccess = swgpu_shader_capability_supported(
		SpvCapabilityStorageBuffer8BitAccess);
	f->v12.uniformAndStorageBuffer8BitAccess =
		swgpu_shader_capability_supported(
			SpvCapabilityUniformAndStorageBuffer8BitAccess);
	f->v12.storagePushConstant8 = swgpu_shader_capability_supported(
		SpvCapabilityStoragePushConstant8);
	f->v12.shaderBufferInt64Atomics = swgpu_shader_capability_supported(
		SpvCapabilityInt64Atomics);
	/* The same engine path serves shared memory. */
	f->v12.shaderSharedInt64Atomics = f->v12.shaderBufferInt64Atomics;
	f->core.shaderUniformBufferArrayDynamicIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityUniformBufferArrayDynamicIndexing);
	/* Storage images and texel buffers (image_view.c, format.c). */
	f->core.shaderStorageImageExtendedFormats =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageImageExtendedFormats);
	f->core.shaderStorageImageReadWithoutFormat =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageImageReadWithoutFormat);
	f->core.shaderStorageImageWriteWithoutFormat =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageImageWriteWithoutFormat);
	f->core.shaderStorageImageArrayDynamicIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageImageArrayDynamicIndexing);
	f->v12.shaderUniformTexelBufferArrayDynamicIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityUniformTexelBufferArrayDynamicIndexing);
	f->v12.shaderStorageTexelBufferArrayDynamicIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageTexelBufferArrayDynamicIndexing);
	f->v12.shaderStorageImageArrayNonUniformIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageImageArrayNonUniformIndexing);
	f->v12.shaderUniformTexelBufferArrayNonUniformIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityUniformTexelBufferArrayNonUniformIndexing);
	f->v12.shaderStorageTexelBufferArrayNonUniformIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageTexelBufferArrayNonUniformIndexing);
	f->core.shaderStorageBufferArrayDynamicIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageBufferArrayDynamicIndexing);
	/* Sampled images (interp_sample.c): explicit-LOD sampling, every
	 * address mode of core 1.2 included. */
	f->core.shaderSampledImageArrayDynamicIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilitySampledImageArrayDynamicIndexing);
	f->v12.shaderSampledImageArrayNonUniformIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilitySampledImageArrayNonUniformIndexing);
	/* BC: every BC format sampled, LINEAR-filtered and a blit source
	 * (format_bc.c decodes them), as the feature promises. */
	f->core.textureCompressionBC = VK_TRUE;
	for (VkFormat bc = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
	     bc <= VK_FORMAT_BC7_SRGB_BLOCK; bc++) {
		const VkFormatFeatureFlags2 need =
			VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT |
			VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
			VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
			VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT |
			VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;

		if ((icd_format_features(bc, VK_IMAGE_TILING_OPTIMAL) &
		     need) != need)
			f->core.textureCompressionBC = VK_FALSE;
	}
	/* Cube array views: sampled (face + 6 x layer) and storage. */
	f->core.imageCubeArray = swgpu_shader_capability_supported(
		SpvCapabilitySampledCubeArray);
	f->v12.samplerMirrorClampToEdge =
		swgpu_shader_descriptor_type_supported(
			SWGPU_DESCRIPTOR_SAMPLER);
	f->v12.runtimeDescriptorArray = swgpu_shader_capability_supported(
		SpvCapabilityRuntimeDescriptorArray);
	f->v12.shaderUniformBufferArrayNonUniformIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityUniformBufferArrayNonUniformIndexing);
	f->v12.shaderStorageBufferArrayNonUniformIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilityStorageBufferArrayNonUniformIndexing);
	f->v12.vulkanMemoryModel = swgpu_shader_capability_supported(
		SpvCapabilityVulkanMemoryModel);
	f->v12.vulkanMemoryModelDeviceScope =
		swgpu_shader_capability_supported(
			SpvCapabilityVulkanMemoryModelDeviceScope);
	/* Required by Vulkan 1.3; executed as scalar multiply-adds. */
	f->v13.shaderIntegerDotProduct = swgpu_shader_capability_supported(
		SpvCapabilityDotProduct);
	/* maintenance4: the engine takes LocalSizeId (what glslang emits
	 * for SPIR-V 1.6), pipeline layouts are copied into what uses them
	 * (they may go right after use), vkGetDevice*MemoryRequirements
	 * exist and maxBufferSize is stated. */
	f->v13.maintenance4 = VK_TRUE;
	f->v13.subgroupSizeControl = VK_TRUE;
	f->v13.computeFullSubgroups = VK_TRUE;
	/* Vulkan 1.3 requires it; the engine translates every pipeline at
	 * creation and honours FAIL_ON_PIPELINE_COMPILE_REQUIRED by
	 * returning VK_PIPELINE_COMPILE_REQUIRED. */
	f->v13.pipelineCreationCacheControl = VK_TRUE;
	/* private_data.c: values per (object, slot), dropped when either
	 * goes away. */
	f->v13.privateData = VK_TRUE;
	/* Inline uniform blocks: bytes in the descriptor set behind a
	 * uniform buffer descriptor (descriptor.c). */
	f->v13.inlineUniformBlock = VK_TRUE;
	/* Every workgroup starts with zeroed shared memory (the engine's
	 * interpreter), so null-initialized Workgroup variables need
	 * nothing more. */
	f->v13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
	/* Buffer layouts come from the module's Offset/ArrayStride
	 * decorations, whatever rules produced them. */
	f->v12.uniformBufferStandardLayout = VK_TRUE;
	/* IR_BCAST reads the lane index from a register (dynamically
	 * uniform, as the feature requires). */
	f->v12.subgroupBroadcastDynamicId = VK_TRUE;
	/* Scalar block layout too: loads and stores copy bytes at any
	 * offset (atomics keep their natural alignment, as scalar layout
	 * does). */
	f->v12.scalarBlockLayout = VK_TRUE;
	/* Subgroup operations on 8/16/64-bit integers and half floats:
	 * the narrow, 64-bit and half-float translations wrap the 32-bit
	 * subgroup instructions like any other (test
	 * subgroup_extended_types). */
	f->v12.shaderSubgroupExtendedTypes = VK_TRUE;
	/* Storage images and texel buffers: loads outside the view read
	 * (0, 0, 0, 0), stores and atomics there do nothing (the engine's
	 * interp_image.c), which is what robustImageAccess asks. */
	f->v13.robustImageAccess = swgpu_shader_descriptor_type_supported(
		SWGPU_DESCRIPTOR_STORAGE_IMAGE);
}

/*
 * The software GPUs of the process: physical device i of every VkInstance
 * is the same swgpu device (opened by the first instance, closed with the
 * last), as a real GPU is one whatever instance looks at it — so memory
 * one instance allocates shows in the budget another reads, and
 * deviceUUID is the same. Configuration (SWGPU_*) is read when it opens.
 */
static pthread_mutex_t icd_gpus_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	swgpu_device *dev;
	uint32_t refs;
} icd_gpus[ICD_MAX_PHYSICAL_DEVICES];

static swgpu_result
icd_gpu_get(uint32_t index, swgpu_device **out)
{
	swgpu_result sr = SWGPU_OK;

	pthread_mutex_lock(&icd_gpus_lock);
	if (!icd_gpus[index].dev) {
		swgpu_config cfg;
		swgpu_config_init(&cfg);
		sr = swgpu_device_open(&cfg, &icd_gpus[index].dev);
		if (sr != SWGPU_OK)
			icd_gpus[index].dev = NULL;
	}
	if (sr == SWGPU_OK) {
		icd_gpus[index].refs++;
		*out = icd_gpus[index].dev;
	}
	pthread_mutex_unlock(&icd_gpus_lock);
	return sr;
}

static void
icd_gpu_put(swgpu_device *dev)
{
	pthread_mutex_lock(&icd_gpus_lock);
	for (uint32_t i = 0; i < ICD_MAX_PHYSICAL_DEVICES; i++) {
		if (icd_gpus[i].dev != dev)
			continue;
		if (--icd_gpus[i].refs == 0) {
			swgpu_device_close(dev);
			icd_gpus[i].dev = NULL;
		}
		break;
	}
	pthread_mutex_unlock(&icd_gpus_lock);
}

VkResult
icd_physical_device_init(struct icd_physical_device *pdev,
                         struct icd_instance *inst, uint32_t index)
{
	swgpu_result sr;

	memset(pdev, 0, sizeof(*pdev));
	icd_object_init(&pdev->base, VK_OBJECT_TYPE_PHYSICAL_DEVICE);
	pdev->instance = inst;
	sr = icd_gpu_get(index, &pdev->swdev);
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
	/* Graphics limits and features (physical_device_gfx.c). */
	icd_physical_device_init_gfx(pdev);
	return VK_SUCCESS;
}

void
icd_physical_device_finish(struct icd_physical_device *pdev)
{
	if (pdev->swdev)
		icd_gpu_put(pdev->swdev);
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
	for (VkBaseOutStructure *o = pProperties->pNext; o; o = o->pNext)
		if (o->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR)
			((VkPhysicalDevicePushDescriptorPropertiesKHR *)(void *)o)
				->maxPushDescriptors = ICD_MAX_PUSH_DESCRIPTORS;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                              VkPhysicalDeviceFeatures *pFeatures)
{
	*pFeatures = icd_physical_device_from_handle(physicalDevice)
		->features.core;
}

/* Feature structs of extensions outside core 1.3. */
void
icd_features_write_ext(VkBaseOutStructure *s)
{
	switch (s->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR:
		((VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR *)s)
			->globalPriorityQuery = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT:
		((VkPhysicalDeviceMemoryPriorityFeaturesEXT *)s)
			->memoryPriority = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT:
		((VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT *)s)
			->pageableDeviceLocalMemory = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT:
		((VkPhysicalDeviceFaultFeaturesEXT *)s)->deviceFault = VK_TRUE;
		((VkPhysicalDeviceFaultFeaturesEXT *)s)
			->deviceFaultVendorBinary = VK_FALSE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR: {
		/* Block Workgroup variables (the engine's xlate_mem.c), in
		 * any layout the decorations give (scalar included). */
		VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *w =
			(void *)s;
		w->workgroupMemoryExplicitLayout =
			swgpu_shader_capability_supported(
				SpvCapabilityWorkgroupMemoryExplicitLayoutKHR);
		w->workgroupMemoryExplicitLayoutScalarBlockLayout =
			w->workgroupMemoryExplicitLayout;
		w->workgroupMemoryExplicitLayout8BitAccess =
			swgpu_shader_capability_supported(
				SpvCapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR);
		w->workgroupMemoryExplicitLayout16BitAccess =
			swgpu_shader_capability_supported(
				SpvCapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR);
		break;
	}
	default:
		/* presentation (wsi_surface.c), then graphics */
		if (!wsi_features_write(s))
			icd_features_write_gfx_ext(s);
		break;
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                               VkPhysicalDeviceFeatures2 *pFeatures)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	pFeatures->features = pdev->features.core;
	icd_features_write_chain(pFeatures->pNext, &pdev->features,
	                         icd_features_write_ext);
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

/* VK_KHR/EXT_global_priority(_query): every family offers every level
 * (the scheduler weights them, see swgpu sched.c). */
static void
icd_queue_family_global_priorities(void *chain)
{
	for (VkBaseOutStructure *s = chain; s; s = s->pNext) {
		if (s->sType !=
		    VK_STRUCTURE_TYPE_QUEUE_FAMILY_GLOBAL_PRIORITY_PROPERTIES_KHR)
			continue;
		VkQueueFamilyGlobalPriorityPropertiesKHR *gp = (void *)s;
		static const VkQueueGlobalPriorityKHR levels[] = {
			VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR,
			VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR,
			VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR,
			VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR,
		};
		gp->priorityCount = sizeof(levels) / sizeof(levels[0]);
		memset(gp->priorities, 0, sizeof(gp->priorities));
		memcpy(gp->priorities, levels, sizeof(levels));
	}
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
	for (uint32_t i = 0; i < *pCount; i++) {
		pProps[i].queueFamilyProperties = props[i];
		icd_queue_family_global_priorities(pProps[i].pNext);
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceMemoryProperties(
	VkPhysicalDevice physicalDevice,
	VkPhysicalDeviceMemoryProperties *pMemoryProperties)
{
	*pMemoryProperties = icd_physical_device_from_handle(physicalDevice)
		->memory;
}

#define ICD_STYPE_MEMORY_BUDGET \
	VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT

static uint64_t
icd_sat_sub_u64(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * VK_EXT_memory_budget: the swgpu VRAM budget is shared by heap 0 (VRAM
 * outside the BAR window) and heap 2 (the window), so each heap's budget
 * is what is left of it after the other heap's usage, capped at the heap
 * size: an allocation within a heap's budget fits. Usage is the process's
 * (every VkDevice and the driver's own command memory on this swgpu
 * device), page rounded.
 */
static void
icd_memory_budget(const struct icd_physical_device *pdev,
                  VkPhysicalDeviceMemoryBudgetPropertiesEXT *b)
{
	const VkPhysicalDeviceMemoryProperties *m = &pdev->memory;
	uint64_t vram_used, vram_budget, sys_used, sys_budget, bar_used;
	uint64_t heap0_used;

	memset(b->heapBudget, 0, sizeof(b->heapBudget));
	memset(b->heapUsage, 0, sizeof(b->heapUsage));
	if (swgpu_heap_budget(pdev->swdev, SWGPU_HEAP_VRAM, &vram_used,
	                      &vram_budget) != SWGPU_OK ||
	    swgpu_heap_budget(pdev->swdev, SWGPU_HEAP_SYSTEM, &sys_used,
	                      &sys_budget) != SWGPU_OK) {
		icd_log("memory budget: swgpu_heap_budget failed");
		return;
	}
	/* Two reads: clamp so a racing allocation cannot wrap a figure. */
	bar_used = swgpu_bar_usage(pdev->swdev);
	if (bar_used > vram_used)
		bar_used = vram_used;
	heap0_used = vram_used - bar_used;
	b->heapUsage[0] = heap0_used;
	b->heapBudget[0] = icd_min_u64(m->memoryHeaps[0].size,
	                               icd_sat_sub_u64(vram_budget, bar_used));
	b->heapUsage[1] = sys_used;
	b->heapBudget[1] = icd_min_u64(m->memoryHeaps[1].size, sys_budget);
	if (m->memoryHeapCount > 2) {
		b->heapUsage[2] = bar_used;
		b->heapBudget[2] = icd_min_u64(
			m->memoryHeaps[2].size,
			icd_sat_sub_u64(vram_budget, heap0_used));
	}
	/* The spec wants a non-zero budget for every heap; 0 happens only
	 * when the other VRAM heap holds the whole budget. One page is an
	 * honest "next to nothing" (allocations will fail until the other
	 * heap shrinks). */
	for (uint32_t i = 0; i < m->memoryHeapCount; i++)
		if (!b->heapBudget[i])
			b->heapBudget[i] = icd_min_u64(pdev->info.page_size,
			                               m->memoryHeaps[i].size);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceMemoryProperties2(
	VkPhysicalDevice physicalDevice,
	VkPhysicalDeviceMemoryProperties2 *pMemoryProperties)
{
	const struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	pMemoryProperties->memoryProperties = pdev->memory;
	for (VkBaseOutStructure *s = pMemoryProperties->pNext; s;
	     s = s->pNext) {
		if (s->sType == ICD_STYPE_MEMORY_BUDGET)
			icd_memory_budget(pdev, (void *)s);
	}
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
