/* SPDX-License-Identifier: MIT */
/*
 * physical_device_gfx.c — the graphics side of a physical device: the
 * limits and features of the graphics engine, told as the engine
 * executes them (SWGPU_GFX_* in swgpu.h, the packets of swgpu_packet.h
 * "Graphics packets"), applied on top of physical_device.c's when the
 * device has a graphics engine (queue family 0 is then GRAPHICS). A
 * device configured without one (SWGPU_GRAPHICS_ENGINES=0) keeps the
 * spec's minimums and FALSE.
 *
 * Multisampling: 1, 2, 4 and 8 samples for colour (integer too),
 * depth/stencil and no-attachment framebuffers and for sampled images
 * (storage: 1), the standard locations (hw/gfx/sample_pos.h), colour
 * resolves AVERAGE / SAMPLE_ZERO, depth resolves SAMPLE_ZERO / AVERAGE /
 * MIN / MAX and stencil SAMPLE_ZERO / MIN / MAX, independently.
 *
 * Not offered yet (later issues): tessellation and geometry shaders (so neither multiview with
 * them), wide lines, sample
 * rate shading (the shaders run, the 4 samples it comes with do not),
 * alpha to one, pipeline statistics queries.
 */
#include <spirv/unified1/spirv.h>

#include "icd.h"

static void
gfx_limits(VkPhysicalDeviceLimits *l)
{
	const VkSampleCountFlags ms = VK_SAMPLE_COUNT_1_BIT |
		VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT |
		VK_SAMPLE_COUNT_8_BIT;

	/* Vertex input: SET_VERTEX_BUFFERS bindings and pipeline
	 * attributes; offsets and strides are 32-bit in the packets, the
	 * spec's minimums are what we promise. */
	l->maxVertexInputAttributes = SWGPU_GFX_MAX_VERTEX_ATTRIBS;
	l->maxVertexInputBindings = SWGPU_GFX_MAX_VERTEX_BINDINGS;
	l->maxVertexInputAttributeOffset = 2047;
	l->maxVertexInputBindingStride = 2048;
	/* Varyings: SWGPU_GFX_MAX_LOCATIONS locations of 4 components. */
	l->maxVertexOutputComponents = 4 * SWGPU_GFX_MAX_LOCATIONS;
	l->maxFragmentInputComponents = 4 * SWGPU_GFX_MAX_LOCATIONS;
	l->maxFragmentOutputAttachments = SWGPU_GFX_MAX_COLOR_ATTACHMENTS;
	l->maxFragmentDualSrcAttachments = 1;
	l->maxFragmentCombinedOutputResources =
		SWGPU_GFX_MAX_COLOR_ATTACHMENTS +
		l->maxPerStageDescriptorStorageBuffers +
		l->maxPerStageDescriptorStorageImages;
	l->maxColorAttachments = SWGPU_GFX_MAX_COLOR_ATTACHMENTS;
	/* Rasterization: 8 subpixel bits, 32-bit indices, any number of
	 * indirect draws in one packet. */
	l->subPixelPrecisionBits = SWGPU_GFX_SUBPIXEL_BITS;
	l->maxDrawIndexedIndexValue = UINT32_MAX;
	l->maxDrawIndirectCount = UINT32_MAX;
	l->maxViewports = SWGPU_GFX_MAX_VIEWPORTS;
	l->maxViewportDimensions[0] = SWGPU_GFX_MAX_FRAMEBUFFER_DIM;
	l->maxViewportDimensions[1] = SWGPU_GFX_MAX_FRAMEBUFFER_DIM;
	l->viewportBoundsRange[0] = -(float)SWGPU_GFX_VIEWPORT_BOUNDS;
	l->viewportBoundsRange[1] = (float)SWGPU_GFX_VIEWPORT_BOUNDS - 1.0f;
	/* The viewport transform is float; vertices snap to the subpixel
	 * grid. */
	l->viewportSubPixelBits = SWGPU_GFX_SUBPIXEL_BITS;
	l->maxFramebufferWidth = SWGPU_GFX_MAX_FRAMEBUFFER_DIM;
	l->maxFramebufferHeight = SWGPU_GFX_MAX_FRAMEBUFFER_DIM;
	l->maxFramebufferLayers = SWGPU_GFX_MAX_FRAMEBUFFER_LAYERS;
	/* Sample slices of every attachment (BEGIN_PASS samples, the
	 * rasterizer's per-sample coverage, hw/gfx/raster_ms.c). */
	l->framebufferColorSampleCounts = ms;
	l->framebufferDepthSampleCounts = ms;
	l->framebufferStencilSampleCounts = ms;
	l->framebufferNoAttachmentsSampleCounts = ms;
	l->sampledImageColorSampleCounts = ms;
	l->sampledImageIntegerSampleCounts = ms;
	l->sampledImageDepthSampleCounts = ms;
	l->sampledImageStencilSampleCounts = ms;
	/* Multisampled storage images: imageLoad / imageStore / image
	 * atomics of one sample (xlate_image.c, interp_image.c). */
	l->storageImageSampleCounts = ms;
	l->maxSampleMaskWords = 1;
	/* interpolateAtOffset (sampleRateShading): any offset works (the
	 * input's derivatives, xlate_glsl.c); the spec's minimum range
	 * and precision are what we promise. */
	l->minInterpolationOffset = -0.5f;
	l->maxInterpolationOffset = 0.4375f;
	l->subPixelInterpolationOffsetBits = 4;
	l->maxClipDistances = SWGPU_GFX_MAX_CLIP_DISTANCES;
	l->maxCullDistances = SWGPU_GFX_MAX_CLIP_DISTANCES;
	l->maxCombinedClipAndCullDistances = SWGPU_GFX_MAX_CLIP_DISTANCES;
	/* Points from 1 to SWGPU_GFX_MAX_POINT_SIZE, any size in between
	 * (corners snap to the 1/256 subpixel grid); the granularity says
	 * a conservative 1/8 rather than 0, which applications divide by
	 * (the CTS multiview point_size cases found it). Lines one pixel
	 * wide. */
	l->pointSizeRange[0] = 1.0f;
	l->pointSizeRange[1] = SWGPU_GFX_MAX_POINT_SIZE;
	l->pointSizeGranularity = 0.125f;
	l->lineWidthRange[0] = 1.0f;
	l->lineWidthRange[1] = SWGPU_GFX_MAX_LINE_WIDTH;
	l->lineWidthGranularity = 0.0f;
	l->strictLines = VK_FALSE;
	/* The spec's standard sample locations (hw/gfx/sample_pos.h). */
	l->standardSampleLocations = VK_TRUE;
	/* TIMESTAMP runs on the graphics engines as on every other. */
	l->timestampComputeAndGraphics = VK_TRUE;
}

static void
gfx_features(struct icd_features *f)
{
	VkPhysicalDeviceFeatures *c = &f->core;

	c->fullDrawIndexUint32 = VK_TRUE;
	c->independentBlend = VK_TRUE;
	c->dualSrcBlend = VK_TRUE;
	c->logicOp = VK_TRUE;
	c->multiDrawIndirect = VK_TRUE;
	c->drawIndirectFirstInstance = VK_TRUE;
	c->depthClamp = VK_TRUE;
	c->depthBiasClamp = VK_TRUE;
	c->fillModeNonSolid = VK_TRUE;
	c->depthBounds = VK_TRUE;
	c->largePoints = VK_TRUE;
	/* The engine's alpha_to_one (the alpha of every colour output
	 * becomes 1 after alpha to coverage). */
	c->alphaToOne = VK_TRUE;
	c->multiViewport = VK_TRUE;
	c->occlusionQueryPrecise = VK_TRUE;
	/* Queries and draws of a secondary run in the primary's job. */
	c->inheritedQueries = VK_TRUE;
	/* Vertex and fragment stages execute what compute does: buffers,
	 * images and atomics. */
	c->vertexPipelineStoresAndAtomics = VK_TRUE;
	c->fragmentStoresAndAtomics = VK_TRUE;
	c->shaderClipDistance = swgpu_shader_capability_supported(
		SpvCapabilityClipDistance);
	c->shaderCullDistance = swgpu_shader_capability_supported(
		SpvCapabilityCullDistance);
	f->v11.shaderDrawParameters = swgpu_shader_capability_supported(
		SpvCapabilityDrawParameters);
	f->v12.drawIndirectCount = VK_TRUE;
	f->v12.imagelessFramebuffer = VK_TRUE;
	/* Layouts change no bytes (image.c), separate ones included. */
	f->v12.separateDepthStencilLayouts = VK_TRUE;
	f->v13.dynamicRendering = VK_TRUE;
	/* View masks in render passes and dynamic rendering: the engine
	 * runs each draw once per view into layer = view (hw/gfx/draw.c),
	 * ViewIndex in vertex and fragment shaders. */
	f->v11.multiview = swgpu_shader_capability_supported(
		SpvCapabilityMultiView);
	/* Fragment-only instructions the shader engine executes
	 * (xlate_func.c; tests/swgpu/test_shader_fragment.c): demote keeps
	 * the lane as a helper, OpTerminateInvocation (SPIR-V 1.6 or
	 * SPV_KHR_terminate_invocation, no capability) ends it. */
	f->v13.shaderDemoteToHelperInvocation =
		swgpu_shader_capability_supported(
			SpvCapabilityDemoteToHelperInvocation);
	f->v13.shaderTerminateInvocation = VK_TRUE;
	/* Layer and ViewportIndex from the vertex stage (layered rendering,
	 * multiViewport); their extension's gate is both. */
	f->v12.shaderOutputViewportIndex = swgpu_shader_capability_supported(
		SpvCapabilityShaderViewportIndex);
	f->v12.shaderOutputLayer = swgpu_shader_capability_supported(
		SpvCapabilityShaderLayer);
}

bool
icd_physical_device_has_graphics(const struct icd_physical_device *pdev)
{
	return pdev->info.engine_class_count[SWGPU_ENGINE_GRAPHICS] != 0;
}

void
icd_physical_device_init_gfx(struct icd_physical_device *pdev)
{
	if (!icd_physical_device_has_graphics(pdev))
		return;
	gfx_limits(&pdev->properties.limits);
	gfx_features(&pdev->features);
	/* Per-sample shading: minSampleShading runs, SampleId /
	 * SamplePosition / Sample inputs forcing an invocation per sample
	 * with inputs and FragCoord at its location (hw/gfx/draw.c,
	 * frag_shade.c); interpolateAtSample / AtOffset (xlate_glsl.c). */
	pdev->features.core.sampleRateShading = VK_TRUE;
	pdev->features.core.shaderStorageImageMultisample = VK_TRUE;
	/* hw/gfx/resolve.c: depth SAMPLE_ZERO, AVERAGE, MIN, MAX; stencil
	 * SAMPLE_ZERO, MIN, MAX; each attachment's mode on its own. */
	pdev->properties_1x.v12.supportedDepthResolveModes =
		VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT |
		VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
	pdev->properties_1x.v12.supportedStencilResolveModes =
		VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT |
		VK_RESOLVE_MODE_MAX_BIT;
	pdev->properties_1x.v12.independentResolveNone = VK_TRUE;
	pdev->properties_1x.v12.independentResolve = VK_TRUE;
	pdev->properties_1x.v12.framebufferIntegerColorSampleCounts =
		VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT |
		VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;
	/* Every pipeline of a subpass without attachments may pick its own
	 * count (the engine takes the pipeline's when nothing is
	 * attached). */
	pdev->features.core.variableMultisampleRate = VK_TRUE;
}

/* Feature structs of the graphics extensions outside core 1.3
 * (physical_device.c's icd_features_write_ext hands them here). */
void
icd_features_write_gfx_ext(VkBaseOutStructure *s)
{
	switch (s->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT:
		((VkPhysicalDeviceExtendedDynamicStateFeaturesEXT *)s)
			->extendedDynamicState = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT: {
		VkPhysicalDeviceExtendedDynamicState2FeaturesEXT *e = (void *)s;

		e->extendedDynamicState2 = VK_TRUE;
		e->extendedDynamicState2LogicOp = VK_TRUE;
		/* No tessellation. */
		e->extendedDynamicState2PatchControlPoints = VK_FALSE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT:
		((VkPhysicalDeviceColorWriteEnableFeaturesEXT *)s)
			->colorWriteEnable = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT:
		((VkPhysicalDeviceIndexTypeUint8FeaturesEXT *)s)
			->indexTypeUint8 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT: {
		/* Vertex fetch steps an instance-rate binding every divisor
		 * instances, or never for 0 (hw/gfx/vertex_fetch.c). */
		VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT *d =
			(void *)s;

		d->vertexAttributeInstanceRateDivisor = VK_TRUE;
		d->vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT:
		/* One DRAW / DRAW_INDEXED packet per element (cmd_draw.c). */
		((VkPhysicalDeviceMultiDrawFeaturesEXT *)s)->multiDraw =
			VK_TRUE;
		break;
	default:
		break;
	}
}

/* Property structs of the graphics extensions outside core 1.3. */
void
icd_properties_write_gfx_ext(VkBaseOutStructure *o)
{
	switch (o->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT:
		((VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT *)
		 (void *)o)->maxVertexAttribDivisor = UINT32_MAX;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT:
		/* Each element is a packet in command memory, which grows
		 * as needed; the spec's minimum is 1024. */
		((VkPhysicalDeviceMultiDrawPropertiesEXT *)(void *)o)
			->maxMultiDrawCount = ICD_MAX_MULTI_DRAW_COUNT;
		break;
	default:
		break;
	}
}
