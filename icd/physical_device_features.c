/* SPDX-License-Identifier: MIT */
/*
 * physical_device_features.c — what vkGetPhysicalDeviceFeatures(2) tells:
 * exactly what works. Shader features are the SPIR-V capabilities the
 * compute engine executes (swgpu_shader_capability_supported); the device
 * extension list follows these (extensions.txt gates, evaluated at
 * vkCreateInstance), so a feature turned off here also takes its
 * extension off the list.
 */
#include <stddef.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "icd.h"
#include "wsi.h"
#include "format.h"

/*
 * Features: what really works. robustBufferAccess is required by every
 * Vulkan version and holds trivially while no shader can access a buffer;
 * the shader engine must keep it true (and must read buffer device
 * addresses as the VAs they are).
 */
void
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
	/* Variable pointers: StorageBuffer and Workgroup pointers chosen
	 * per invocation, kept in Function variables, stepped by
	 * OpPtrAccessChain (the engine's xlate_vptr.c). */
	f->v11.variablePointersStorageBuffer =
		swgpu_shader_capability_supported(
			SpvCapabilityVariablePointersStorageBuffer);
	f->v11.variablePointers = swgpu_shader_capability_supported(
		SpvCapabilityVariablePointers);
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
	/* Sampled images (interp_sample.c): explicit-LOD sampling and
	 * gathers, every address mode of core 1.2 included. */
	f->core.shaderSampledImageArrayDynamicIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilitySampledImageArrayDynamicIndexing);
	f->v12.shaderSampledImageArrayNonUniformIndexing =
		swgpu_shader_capability_supported(
			SpvCapabilitySampledImageArrayNonUniformIndexing);
	/* Gathers with dynamic and four constant offsets (OpImageGather,
	 * interp_sample.c). */
	f->core.shaderImageGatherExtended =
		swgpu_shader_capability_supported(
			SpvCapabilityImageGatherExtended);
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
	/* Not an enumerator of the system headers (vk_supplement.h). */
	if (s->sType ==
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR) {
		/* Rotates are shuffles (the engine's xlate_group.c), with
		 * or without a cluster size. */
		VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR *r =
			(void *)s;

		r->shaderSubgroupRotate = swgpu_shader_capability_supported(
			SpvCapabilityGroupNonUniformRotateKHR);
		r->shaderSubgroupRotateClustered = r->shaderSubgroupRotate;
		return;
	}
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
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT: {
		/* Float atomics (xlate_atomic.c): add on 32/64-bit floats in
		 * storage buffers (buffer device addresses too) and shared
		 * memory, and on R32_SFLOAT storage images; load, store and
		 * exchange move bits. No sparse images exist. */
		VkPhysicalDeviceShaderAtomicFloatFeaturesEXT *a = (void *)s;
		const VkBool32 add32 = swgpu_shader_capability_supported(
			SpvCapabilityAtomicFloat32AddEXT);
		const VkBool32 add64 = swgpu_shader_capability_supported(
			SpvCapabilityAtomicFloat64AddEXT) &&
			swgpu_shader_capability_supported(SpvCapabilityFloat64);

		a->shaderBufferFloat32Atomics = add32;
		a->shaderBufferFloat32AtomicAdd = add32;
		a->shaderBufferFloat64Atomics = add64;
		a->shaderBufferFloat64AtomicAdd = add64;
		a->shaderSharedFloat32Atomics = add32;
		a->shaderSharedFloat32AtomicAdd = add32;
		a->shaderSharedFloat64Atomics = add64;
		a->shaderSharedFloat64AtomicAdd = add64;
		a->shaderImageFloat32Atomics = add32;
		a->shaderImageFloat32AtomicAdd = add32;
		a->sparseImageFloat32Atomics = VK_FALSE;
		a->sparseImageFloat32AtomicAdd = VK_FALSE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT: {
		/* Min/max on 32/64-bit floats; no 16-bit float atomics (a
		 * half in a buffer would need a sub-word atomic). */
		VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT *a = (void *)s;
		const VkBool32 mm32 = swgpu_shader_capability_supported(
			SpvCapabilityAtomicFloat32MinMaxEXT);
		const VkBool32 mm64 = swgpu_shader_capability_supported(
			SpvCapabilityAtomicFloat64MinMaxEXT) &&
			swgpu_shader_capability_supported(SpvCapabilityFloat64);

		memset(&a->shaderBufferFloat16Atomics, 0,
		       sizeof(*a) - offsetof(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT,
		                             shaderBufferFloat16Atomics));
		a->shaderBufferFloat32AtomicMinMax = mm32;
		a->shaderBufferFloat64AtomicMinMax = mm64;
		a->shaderSharedFloat32AtomicMinMax = mm32;
		a->shaderSharedFloat64AtomicMinMax = mm64;
		a->shaderImageFloat32AtomicMinMax = mm32;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT: {
		/* The engine checks every buffer access against the exact
		 * range of its descriptor (loads outside read 0, stores and
		 * atomics do nothing; a 64-bit scalar straddling the end is
		 * outside as a whole), replaces image and texel-buffer
		 * texels outside the view by zero with 0, 0, 1 for missing
		 * G, B, A (image_oob_texel), and reads null descriptors
		 * (VK_NULL_HANDLE in a write, descriptor_update.c) as zero
		 * ranges. There is no vertex input yet: the graphics engine
		 * must keep these promises for vertex buffers. */
		VkPhysicalDeviceRobustness2FeaturesEXT *r = (void *)s;

		r->robustBufferAccess2 = VK_TRUE;
		r->robustImageAccess2 = swgpu_shader_descriptor_type_supported(
			SWGPU_DESCRIPTOR_STORAGE_IMAGE);
		r->nullDescriptor = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR: {
		/* OpReadClockKHR reads CLOCK_MONOTONIC in nanoseconds: one
		 * value per subgroup instruction, and the same clock for
		 * every engine of the device. */
		VkPhysicalDeviceShaderClockFeaturesKHR *c = (void *)s;

		c->shaderSubgroupClock = swgpu_shader_capability_supported(
			SpvCapabilityShaderClockKHR);
		c->shaderDeviceClock = c->shaderSubgroupClock;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT:
		/* Promoted to 1.3 without its struct: buffer_view.c applies
		 * the alignment properties when this is enabled too. */
		((VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT *)s)
			->texelBufferAlignment = VK_TRUE;
		break;
	default:
		/* presentation (wsi_surface.c), then graphics
		 * (physical_device_gfx.c) */
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

/*
 * Feature structs of extensions outside core 1.3 in a vkCreateDevice
 * chain: every feature asked for must be supported. These structs hold
 * only VkBool32 members after the header (gen_entrypoints.py checks, and
 * lists every such struct of a candidate extension), so the request is
 * compared member by member with what icd_features_write_ext fills in
 * (a struct it does not know stays zero: nothing of it is supported).
 */
const char *
icd_ext_features_missing(const void *chain)
{
	for (const VkBaseInStructure *s = chain; s; s = s->pNext)
		for (uint32_t i = 0; i < icd_ext_feature_struct_count; i++) {
			const struct icd_ext_feature_struct *e =
				&icd_ext_feature_structs[i];
			union {
				VkBaseOutStructure base;
				VkBool32 words[64];
			} sup;

			if (s->sType != e->type)
				continue;
			if (e->count > 64 - sizeof(VkBaseOutStructure) / 4)
				return e->name;
			memset(&sup, 0, sizeof(sup));
			sup.base.sType = s->sType;
			icd_features_write_ext(&sup.base);
			const VkBool32 *req = (const VkBool32 *)
				((const char *)s + sizeof(VkBaseOutStructure));
			const VkBool32 *have = (const VkBool32 *)
				((const char *)&sup + sizeof(VkBaseOutStructure));
			for (uint32_t k = 0; k < e->count; k++)
				if (req[k] && !have[k])
					return e->name;
		}
	return NULL;
}
