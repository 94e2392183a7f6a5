/* SPDX-License-Identifier: MIT */
/*
 * physical_device_props.c — what vkGetPhysicalDeviceProperties(2) tells:
 * identity, limits and the core 1.1-1.3 and extension properties. Compute
 * limits come from the engine's own constants (swgpu.h "Shaders"); limits
 * of graphics the device does not have yet are the spec's minimums, left
 * for the graphics engine to set. docs/ARCHITECTURE.md "Limits" says
 * where each differs from lavapipe's and why.
 */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "icd.h"
#include "pipeline.h"

#include <swgpu/swgpu_packet.h>

#ifndef ICD_VERSION_MAJOR
#define ICD_VERSION_MAJOR 0
#define ICD_VERSION_MINOR 0
#define ICD_VERSION_PATCH 0
#endif

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
	 * ICD_MAX_MIP_LEVELS; lavapipe: 16384), 3D 4096 (lavapipe's; the
	 * size of a deep image is what stops it: maxResourceSize), 2048
	 * layers. */
	l->maxImageDimension1D = 32768;
	l->maxImageDimension2D = 32768;
	l->maxImageDimension3D = 4096;
	l->maxImageDimensionCube = 32768;
	l->maxImageArrayLayers = 2048;
	/* Texel buffer descriptors address any number of texels
	 * (buffer_view.c); 2^27 (2 GiB of 16-byte texels, as
	 * maxResourceSize) is what common drivers tell. */
	l->maxTexelBufferElements = 1u << 27;
	/* Buffer descriptors address up to SWGPU_SHADER_MAX_BUFFER_RANGE
	 * bytes, uniform ones as storage ones (one engine path); uniform
	 * buffers tell 128 MiB, as Intel's drivers do (lavapipe and NVIDIA
	 * 64 KiB): more than any uniform block needs, and not so much that
	 * an application sizing a buffer by it allocates gigabytes. */
	l->maxUniformBufferRange = 1u << 27;
	l->maxStorageBufferRange = SWGPU_SHADER_MAX_BUFFER_RANGE;
	l->maxPushConstantsSize = SWGPU_SHADER_MAX_PUSH_CONSTANTS;
	l->maxMemoryAllocationCount = ICD_MAX_MEMORY_ALLOCATIONS;
	/* Samplers are host objects (their state is packed into the
	 * descriptors that use them): nothing on the device to run out of. */
	l->maxSamplerAllocationCount = 1u << 20;
	/* No tiling: buffers and images may share a page freely. */
	l->bufferImageGranularity = 1;
	l->sparseAddressSpaceSize = 0;
	/* Descriptor limits. A shader reaches each descriptor it uses
	 * through one of the engine's resource slots (IR_MAX_BUFFERS, 255
	 * per shader) and each binding through an swgpu_shader_binding
	 * (SWGPU_SHADER_MAX_BINDINGS): 128 resources per stage
	 * (maxPerStageResources, as lavapipe), of any kind (lavapipe: 32
	 * samplers, 15 uniform and 32 storage buffers, 128 sampled and 64
	 * storage images). A layout holds up to 1024 descriptors per set
	 * (maxPerSetDescriptors, descriptor memory), so each kind may use
	 * that many across the sets (lavapipe: 256, samplers 32768).
	 * Dynamic offsets are the bind table's 16
	 * (SWGPU_SHADER_MAX_DYNAMIC_BUFFERS: every DISPATCH writes the
	 * table, so it stays small): 8 uniform + 8 storage (lavapipe 256
	 * each). Input attachments are graphics: the spec's minimums. */
	l->maxBoundDescriptorSets = SWGPU_SHADER_MAX_SETS;
	l->maxPerStageResources = 128;
	l->maxPerStageDescriptorSamplers = l->maxPerStageResources;
	l->maxPerStageDescriptorUniformBuffers = l->maxPerStageResources;
	l->maxPerStageDescriptorStorageBuffers = l->maxPerStageResources;
	l->maxPerStageDescriptorSampledImages = l->maxPerStageResources;
	l->maxPerStageDescriptorStorageImages = l->maxPerStageResources;
	l->maxPerStageDescriptorInputAttachments = 4;
	l->maxDescriptorSetSamplers = ICD_MAX_PER_SET_DESCRIPTORS;
	l->maxDescriptorSetUniformBuffers = ICD_MAX_PER_SET_DESCRIPTORS;
	l->maxDescriptorSetUniformBuffersDynamic = 8;
	l->maxDescriptorSetStorageBuffers = ICD_MAX_PER_SET_DESCRIPTORS;
	l->maxDescriptorSetStorageBuffersDynamic = 8;
	l->maxDescriptorSetSampledImages = ICD_MAX_PER_SET_DESCRIPTORS;
	l->maxDescriptorSetStorageImages = ICD_MAX_PER_SET_DESCRIPTORS;
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
	l->maxComputeWorkGroupCount[0] = SWGPU_SHADER_MAX_WORKGROUP_COUNT_X;
	l->maxComputeWorkGroupCount[1] = SWGPU_SHADER_MAX_WORKGROUP_COUNT_Y;
	l->maxComputeWorkGroupCount[2] = SWGPU_SHADER_MAX_WORKGROUP_COUNT_Z;
	l->maxComputeWorkGroupInvocations =
		SWGPU_SHADER_MAX_WORKGROUP_INVOCATIONS;
	l->maxComputeWorkGroupSize[0] = SWGPU_SHADER_MAX_WORKGROUP_SIZE_X;
	l->maxComputeWorkGroupSize[1] = SWGPU_SHADER_MAX_WORKGROUP_SIZE_Y;
	l->maxComputeWorkGroupSize[2] = SWGPU_SHADER_MAX_WORKGROUP_SIZE_Z;
	l->subPixelPrecisionBits = 4;
	/* Filtering weights are floats (24-bit mantissa): 8 bits, as
	 * lavapipe, is honest; the spec's minimum 4 would promise results
	 * on a 1/16 grid, which the CTS checks (texture.explicit_lod). */
	l->subTexelPrecisionBits = 8;
	l->mipmapPrecisionBits = 4;
	l->maxDrawIndexedIndexValue = (1u << 24) - 1;
	l->maxDrawIndirectCount = 1;
	/* The bias is packed as 8.8 fixed point (sampler.c): +-16 as
	 * lavapipe, far inside it. */
	l->maxSamplerLodBias = SWGPU_SAMPLER_MAX_LOD_BIAS; /* what the engine clamps to */
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
	l->minTexelBufferOffsetAlignment = 16;
	l->minUniformBufferOffsetAlignment = SWGPU_SHADER_MIN_BUFFER_ALIGNMENT;
	l->minStorageBufferOffsetAlignment = SWGPU_SHADER_MIN_BUFFER_ALIGNMENT;
	/* The engine adds any integer offset to the coordinates
	 * (IR_IMGSAMPLE, gathers too: interp_sample.c keeps the sum in
	 * range); lavapipe's range. */
	l->minTexelOffset = -32;
	l->maxTexelOffset = 31;
	l->minTexelGatherOffset = -32;
	l->maxTexelGatherOffset = 31;
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

void
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
	/* A pipeline cache is only valid for the same driver build and
	 * compiler (its native code: pipeline_cache.c); without LLVM, the
	 * version stands in. */
	memcpy(p->pipelineCacheUUID, "swgpu-pipecache", 15);
	p->pipelineCacheUUID[15] = (uint8_t)ICD_VERSION_MINOR;
	swgpu_shader_cache_uuid(p->pipelineCacheUUID);
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
	/* VK_KHR_shader_subgroup_rotate: the bits say what its features
	 * say (icd_features_write_ext) */
	if (swgpu_shader_capability_supported(
	        SpvCapabilityGroupNonUniformRotateKHR))
		x->v11.subgroupSupportedOperations |=
			VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR |
			VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR;
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
	/* What it is: version, the GPU it runs on, the shader back end. */
	snprintf(x->v12.driverInfo, sizeof(x->v12.driverInfo),
	         "swgpu %d.%d.%d: software GPU, %u engines, SPIR-V shaders "
	         "on a SIMT register IR, compiled with LLVM, interpreted "
	         "where not (swgpu API %u)",
	         ICD_VERSION_MAJOR, ICD_VERSION_MINOR, ICD_VERSION_PATCH,
	         info->engine_count, info->api_version);
	/* Not conformance tested: 0.0.0.0. */
	memset(&x->v12.conformanceVersion, 0,
	       sizeof(x->v12.conformanceVersion));
	/* Float controls: what the shader engine does, per bit width.
	 * 32- and 64-bit floats are host IEEE arithmetic: round to
	 * nearest even, denormals kept, no fast-math assumptions about
	 * signed zeros, infinities and NaN. Half floats are computed as
	 * floats and rounded back to nearest even (interp_half.h keeps
	 * half denormals, infinities and NaN), so the same three hold for
	 * 16 bits. DenormFlushToZero, per width, flushes every float
	 * instruction's denormal operands and results (xlate_fpmode.c);
	 * RoundingModeRTZ runs the correctly rounded instructions of that
	 * width with the host rounding toward zero (interp_rtz.c).
	 * The modes of each width are set apart from the others', so any
	 * combination can be asked for: independence ALL (lavapipe
	 * reports the same). */
	x->v12.denormBehaviorIndependence =
		VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
	x->v12.roundingModeIndependence =
		VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
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
	x->v12.shaderDenormPreserveFloat16 =
		x->v12.shaderDenormPreserveFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat16);
	x->v12.shaderSignedZeroInfNanPreserveFloat16 =
		x->v12.shaderSignedZeroInfNanPreserveFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat16);
	x->v12.shaderRoundingModeRTEFloat16 =
		x->v12.shaderRoundingModeRTEFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat16);
	x->v12.shaderRoundingModeRTZFloat32 =
		swgpu_shader_capability_supported(SpvCapabilityRoundingModeRTZ);
	x->v12.shaderRoundingModeRTZFloat16 =
		x->v12.shaderRoundingModeRTZFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat16);
	x->v12.shaderRoundingModeRTZFloat64 =
		x->v12.shaderRoundingModeRTZFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat64);
	x->v12.shaderDenormFlushToZeroFloat32 =
		swgpu_shader_capability_supported(
			SpvCapabilityDenormFlushToZero);
	x->v12.shaderDenormFlushToZeroFloat16 =
		x->v12.shaderDenormFlushToZeroFloat32 &&
		swgpu_shader_capability_supported(SpvCapabilityFloat16);
	x->v12.shaderDenormFlushToZeroFloat64 =
		x->v12.shaderDenormFlushToZeroFloat32 &&
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

	/* Subgroups of SWGPU_SHADER_SUBGROUP_SIZE lanes unless a pipeline
	 * stage requires a smaller power of two (subgroupSizeControl,
	 * pipeline.c: the engine's subgroup_size); a workgroup's
	 * invocations fill its subgroups in order, so one whose X size is
	 * a multiple of the size has only full subgroups
	 * (computeFullSubgroups). The smallest size makes the most
	 * subgroups per workgroup. */
	x->v13.minSubgroupSize = SWGPU_SHADER_MIN_SUBGROUP_SIZE;
	x->v13.maxSubgroupSize = SWGPU_SHADER_SUBGROUP_SIZE;
	x->v13.maxComputeWorkgroupSubgroups =
		SWGPU_SHADER_MAX_WORKGROUP_INVOCATIONS /
		SWGPU_SHADER_MIN_SUBGROUP_SIZE;
	x->v13.requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
	/* Inline uniform blocks are bytes of the set's memory behind a
	 * uniform buffer descriptor (descriptor.c): lavapipe's sizes. */
	x->v13.maxInlineUniformBlockSize = ICD_MAX_INLINE_UNIFORM_BLOCK;
	x->v13.maxPerStageDescriptorInlineUniformBlocks = 8;
	x->v13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 8;
	x->v13.maxDescriptorSetInlineUniformBlocks = 8;
	x->v13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 8;
	/* all that 8 blocks of the largest size can use (lavapipe tells
	 * 262144, more than its own blocks allow) */
	x->v13.maxInlineUniformTotalSize = 8 * ICD_MAX_INLINE_UNIFORM_BLOCK;
	/* Texel buffers need their texel's alignment only (the engine's
	 * texel atomics: 4 bytes); 16, the largest texel, covers any
	 * format (buffer_view.c applies these with a 1.3 API version). */
	x->v13.storageTexelBufferOffsetAlignmentBytes = 16;
	x->v13.storageTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
	x->v13.uniformTexelBufferOffsetAlignmentBytes = 16;
	x->v13.uniformTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
	x->v13.maxBufferSize = max_alloc;
	/* Integer dot products: a packed 4x8-bit OpSDot/UDot/SUDot is one
	 * engine instruction (IR_DOT4X8) where the application's own code
	 * would need four extracts per operand, four multiplies and three
	 * adds, so those (and their saturating accumulations, one more
	 * instruction) are faster than emulation: "accelerated". Vector
	 * forms (8-, 16-, 32- and 64-bit components, xlate_idot.c) become
	 * the same extend-multiply-add chain an application would write:
	 * not accelerated (lavapipe reports none accelerated). */
	x->v13.integerDotProduct4x8BitPackedUnsignedAccelerated =
		swgpu_shader_capability_supported(
			SpvCapabilityDotProductInput4x8BitPacked);
	x->v13.integerDotProduct4x8BitPackedSignedAccelerated =
		x->v13.integerDotProduct4x8BitPackedUnsignedAccelerated;
	x->v13.integerDotProduct4x8BitPackedMixedSignednessAccelerated =
		x->v13.integerDotProduct4x8BitPackedUnsignedAccelerated;
	x->v13.integerDotProductAccumulatingSaturating4x8BitPackedUnsignedAccelerated =
		x->v13.integerDotProduct4x8BitPackedUnsignedAccelerated;
	x->v13.integerDotProductAccumulatingSaturating4x8BitPackedSignedAccelerated =
		x->v13.integerDotProduct4x8BitPackedUnsignedAccelerated;
	x->v13.integerDotProductAccumulatingSaturating4x8BitPackedMixedSignednessAccelerated =
		x->v13.integerDotProduct4x8BitPackedUnsignedAccelerated;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                VkPhysicalDeviceProperties *pProperties)
{
	*pProperties = icd_physical_device_from_handle(physicalDevice)
		->properties;
}

/* Property structs of extensions outside core 1.3. */
static void
properties_write_ext(const struct icd_physical_device *pdev,
                     VkBaseOutStructure *o)
{
	(void)pdev;
	switch (o->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR:
		((VkPhysicalDevicePushDescriptorPropertiesKHR *)(void *)o)
			->maxPushDescriptors = ICD_MAX_PUSH_DESCRIPTORS;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT:
		/* Imported pages become the BO's backing as they are. */
		((VkPhysicalDeviceExternalMemoryHostPropertiesEXT *)(void *)o)
			->minImportedHostPointerAlignment =
			ICD_HOST_POINTER_ALIGNMENT;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT: {
		/* Every buffer access is checked against the exact byte
		 * range of its descriptor (the engine's IR_LDBUF & co.,
		 * a 64-bit scalar as a whole), so nothing is rounded up. */
		VkPhysicalDeviceRobustness2PropertiesEXT *r = (void *)o;

		r->robustStorageBufferAccessSizeAlignment = 1;
		r->robustUniformBufferAccessSizeAlignment = 1;
		break;
	}
	default:
		icd_properties_write_gfx_ext(o);
		break;
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                 VkPhysicalDeviceProperties2 *pProperties)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	pProperties->properties = pdev->properties;
	/* Core structs from properties_1x; those of extensions here;
	 * structs of extensions we do not offer are left untouched. */
	icd_properties_write_chain(pProperties->pNext, &pdev->properties_1x,
	                           NULL);
	for (VkBaseOutStructure *o = pProperties->pNext; o; o = o->pNext)
		properties_write_ext(pdev, o);
}
