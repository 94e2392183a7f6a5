/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V capabilities the shader engine executes: the one list behind
 * swgpu_shader_capability_supported(), which the translator checks
 * every OpCapability against and the ICD reports features from.
 */
#include "xlate.h"

#include <spirv/unified1/spirv.h>

static const uint32_t supported_caps[] = {
	SpvCapabilityMatrix, SpvCapabilityShader,
	SpvCapabilityGroupNonUniform, SpvCapabilityGroupNonUniformVote,
	SpvCapabilityGroupNonUniformArithmetic,
	SpvCapabilityGroupNonUniformBallot,
	SpvCapabilityGroupNonUniformShuffle,
	SpvCapabilityGroupNonUniformShuffleRelative,
	SpvCapabilityGroupNonUniformClustered,
	SpvCapabilityGroupNonUniformQuad,
	SpvCapabilityGroupNonUniformRotateKHR,   /* xlate_group.c rotate */
	/* VK_EXT_shader_subgroup_ballot/_vote (xlate_ops.c subgroup_khr) */
	SpvCapabilitySubgroupBallotKHR, SpvCapabilitySubgroupVoteKHR,
	SpvCapabilityVulkanMemoryModel,
	SpvCapabilityUniformBufferArrayDynamicIndexing,
	SpvCapabilityStorageBufferArrayDynamicIndexing,
	SpvCapabilityShaderNonUniform,
	SpvCapabilityRuntimeDescriptorArray,
	SpvCapabilityUniformBufferArrayNonUniformIndexing,
	SpvCapabilityStorageBufferArrayNonUniformIndexing,
	SpvCapabilityDotProduct, SpvCapabilityDotProductInputAll,
	SpvCapabilityDotProductInput4x8BitPacked,
	SpvCapabilityDotProductInput4x8Bit,   /* xlate_idot.c */
	SpvCapabilityVulkanMemoryModelDeviceScope,
	SpvCapabilityInt64,          /* register pairs: xlate_int64.c */
	SpvCapabilityInt64Atomics,   /* xlate_atomic.c */
	SpvCapabilityFloat64,        /* register pairs: xlate_f64.c */
	SpvCapabilityInt8, SpvCapabilityInt16,   /* xlate_narrow.c */
	SpvCapabilityDeviceGroup,    /* DeviceIndex reads 0 (xlate_io.c) */
	SpvCapabilityFloat16,                    /* xlate_narrow.c */
	/* float controls: host IEEE arithmetic already behaves so (the
	 * execution modes need nothing) */
	SpvCapabilityDenormPreserve, SpvCapabilitySignedZeroInfNanPreserve,
	SpvCapabilityRoundingModeRTE,
	SpvCapabilityDenormFlushToZero,          /* xlate_fpmode.c */
	SpvCapabilityRoundingModeRTZ,     /* xlate_fpmode.c, interp_rtz.c */
	SpvCapabilityStorageBuffer8BitAccess,
	SpvCapabilityUniformAndStorageBuffer8BitAccess,
	SpvCapabilityStoragePushConstant8,
	SpvCapabilityStorageBuffer16BitAccess,
	SpvCapabilityUniformAndStorageBuffer16BitAccess,
	SpvCapabilityStoragePushConstant16,
	/* storage images and texel buffers (xlate_image.c): the format
	 * comes from the descriptor, so any declared format or none */
	SpvCapabilityImage1D, SpvCapabilityImageBuffer,
	SpvCapabilitySampledBuffer, SpvCapabilityImageQuery,
	SpvCapabilityStorageImageExtendedFormats,
	SpvCapabilityStorageImageReadWithoutFormat,
	SpvCapabilityStorageImageWriteWithoutFormat,
	SpvCapabilityStorageImageArrayDynamicIndexing,
	SpvCapabilityUniformTexelBufferArrayDynamicIndexing,
	SpvCapabilityStorageTexelBufferArrayDynamicIndexing,
	SpvCapabilityStorageImageArrayNonUniformIndexing,
	/* sampled images (xlate_image.c, interp_sample.c) */
	SpvCapabilitySampled1D, SpvCapabilitySampledCubeArray,
	SpvCapabilityImageCubeArray, SpvCapabilityImageGatherExtended,
	SpvCapabilitySampledImageArrayDynamicIndexing,
	SpvCapabilitySampledImageArrayNonUniformIndexing,
	SpvCapabilityUniformTexelBufferArrayNonUniformIndexing,
	SpvCapabilityStorageTexelBufferArrayNonUniformIndexing,
	/* Block Workgroup variables, aliased, explicit layout, 8/16-bit
	 * accesses (xlate_mem.c workgroup_block_var, interp_narrow.c) */
	SpvCapabilityWorkgroupMemoryExplicitLayoutKHR,
	SpvCapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR,
	SpvCapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR,
	/* buffer device addresses (xlate_phys.c, interp_phys.c) */
	SpvCapabilityPhysicalStorageBufferAddresses,
	/* float add/min/max atomics, 32 and 64 bits (xlate_atomic.c,
	 * float_atomic_bits in interp_util.h); no 16-bit ones */
	SpvCapabilityAtomicFloat32AddEXT, SpvCapabilityAtomicFloat64AddEXT,
	SpvCapabilityAtomicFloat32MinMaxEXT,
	SpvCapabilityAtomicFloat64MinMaxEXT,
	/* OpReadClockKHR (IR_CLOCK) */
	SpvCapabilityShaderClockKHR,
	/* variable pointers: slot + offset values (xlate_vptr.c) */
	SpvCapabilityVariablePointersStorageBuffer,
	SpvCapabilityVariablePointers,
	/* vertex and fragment stages (xlate_io.c, stage.h): clip and cull
	 * distances are outputs the graphics pipeline reads, the draw
	 * parameters inputs it fills, demoted lanes run on as helpers */
	SpvCapabilityClipDistance, SpvCapabilityCullDistance,
	SpvCapabilityDrawParameters,
	SpvCapabilityDemoteToHelperInvocation,
	/* Layer and ViewportIndex written by a vertex shader (the engine
	 * renders the primitive into that layer, through that viewport:
	 * hw/gfx/vertex_shade.c, setup.c) and read by a fragment shader */
	SpvCapabilityShaderViewportIndexLayerEXT,
	SpvCapabilityShaderViewportIndex, SpvCapabilityShaderLayer,
	SpvCapabilityMultiViewport,
	/* ViewIndex: the view a multiview draw is running (hw/gfx/draw.c
	 * runs the draw once per view) */
	SpvCapabilityMultiView,
	/* fine and coarse derivatives (xlate_deriv.c), the MinLod image
	 * operand (interp_lod.c) */
	SpvCapabilityDerivativeControl, SpvCapabilityMinLod,
	/* subpass inputs read at the fragment's pixel (xlate_image.c) */
	SpvCapabilityInputAttachment,
	/* multisampled storage images, arrayed too: imageLoad /
	 * imageStore / image atomics of one sample (xlate_image.c) */
	SpvCapabilityStorageImageMultisample, SpvCapabilityImageMSArray,
	/* per-sample shading: SampleId, SamplePosition and Sample inputs
	 * make a multisampled draw run the shader per sample, inputs and
	 * FragCoord at the sample (hw/gfx/draw.c, frag_shade.c) */
	SpvCapabilitySampleRateShading,
	/* interpolateAtSample / AtOffset: from FragCoord's point along the
	 * input's fine derivatives; AtCentroid: the evaluation point
	 * (xlate_glsl.c) */
	SpvCapabilityInterpolationFunction,
};

bool
swgpu_shader_capability_supported(uint32_t cap)
{
	for (size_t i = 0;
	     i < sizeof(supported_caps) / sizeof(supported_caps[0]); i++)
		if (supported_caps[i] == cap)
			return true;
	return false;
}
