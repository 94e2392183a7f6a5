/* SPDX-License-Identifier: MIT */
/*
 * pipeline.c — pipeline layouts, shader builds and compute pipelines.
 *
 * A compute pipeline is one swgpu shader: the SPIR-V of its module,
 * specialized and translated once by swgpu_shader_create against the
 * resource layout its pipeline layout implies — for every (set, binding)
 * the descriptor type, the byte offset of its first descriptor in the set's
 * memory, its array size and, for dynamic buffers, its index in the flat
 * dynamic-offset array of vkCmdBindDescriptorSets — plus the push-constant
 * size. Dispatches name the shader by its code VA.
 *
 * Graphics pipelines build one such shader per stage (pipeline_gfx.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "pipeline.h"
#include "pipeline_cache.h"

/* ------------------------------------------------------------------ */
/* Pipeline layouts                                                    */
/* ------------------------------------------------------------------ */

VkResult
icd_CreatePipelineLayout(VkDevice device,
                         const VkPipelineLayoutCreateInfo *ci,
                         const VkAllocationCallbacks *pAllocator,
                         VkPipelineLayout *pPipelineLayout)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_layout *pl;
	uint32_t dyn = 0, push = 0;

	if (ci->setLayoutCount > ICD_MAX_SETS)
		return icd_error(VK_ERROR_UNKNOWN, "%u sets > "
		                 "maxBoundDescriptorSets", ci->setLayoutCount);
	for (uint32_t i = 0; i < ci->pushConstantRangeCount; i++) {
		const VkPushConstantRange *r = &ci->pPushConstantRanges[i];

		if (r->offset + r->size > push)
			push = r->offset + r->size;
	}
	if (push > ICD_MAX_PUSH_CONSTANTS)
		return icd_error(VK_ERROR_UNKNOWN, "%u push-constant bytes > "
		                 "maxPushConstantsSize", push);
	pl = icd_zalloc(pAllocator, &dev->alloc, sizeof(*pl), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!pl)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline layout");
	icd_object_init(&pl->base, VK_OBJECT_TYPE_PIPELINE_LAYOUT);
	pl->set_count = ci->setLayoutCount;
	for (uint32_t s = 0; s < ci->setLayoutCount; s++) {
		struct icd_set_layout *l =
			icd_set_layout_from_handle(ci->pSetLayouts[s]);

		pl->dynamic_start[s] = dyn;
		pl->hash = icd_hash64(&s, sizeof(s), pl->hash);
		if (!l)
			continue;
		icd_set_layout_ref(l);
		pl->sets[s] = l;
		dyn += l->dynamic_count;
		pl->hash = icd_hash64(&l->hash, sizeof(l->hash), pl->hash);
	}
	pl->dynamic_count = dyn;
	pl->push_size = push;
	pl->hash = icd_hash64(&push, sizeof(push), pl->hash);
	if (dyn > ICD_MAX_DYNAMIC_BUFFERS) {
		for (uint32_t s = 0; s < pl->set_count; s++)
			icd_set_layout_unref(pl->sets[s]);
		icd_free(pAllocator, &dev->alloc, pl);
		return icd_error(VK_ERROR_UNKNOWN, "%u dynamic buffers > "
		                 "the descriptor limits", dyn);
	}
	*pPipelineLayout = icd_pipeline_layout_to_handle(pl);
	return VK_SUCCESS;
}

void
icd_DestroyPipelineLayout(VkDevice device, VkPipelineLayout pipelineLayout,
                          const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_layout *pl =
		icd_pipeline_layout_from_handle(pipelineLayout);

	if (!pl)
		return;
	for (uint32_t s = 0; s < pl->set_count; s++)
		icd_set_layout_unref(pl->sets[s]);
	icd_free(pAllocator, &dev->alloc, pl);
}

/* ------------------------------------------------------------------ */
/* Compute pipelines                                                   */
/* ------------------------------------------------------------------ */

static VkResult
build_spec(struct icd_shader_build *b, const VkSpecializationInfo *si)
{
	if (!si)
		return VK_SUCCESS;
	if (si->mapEntryCount > sizeof(b->spec) / sizeof(b->spec[0]))
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "%u "
		                 "specialization constants: over the %zu a "
		                 "build holds", si->mapEntryCount,
		                 sizeof(b->spec) / sizeof(b->spec[0]));
	for (uint32_t i = 0; i < si->mapEntryCount; i++) {
		const VkSpecializationMapEntry *e = &si->pMapEntries[i];
		const uint8_t *src = (const uint8_t *)si->pData + e->offset;
		uint64_t v = 0;

		/* Little-endian host: the low bytes are the value. */
		if (e->size != 1 && e->size != 2 && e->size != 4 &&
		    e->size != 8)
			return icd_error(VK_ERROR_UNKNOWN, "specialization "
			                 "constant %u of %zu bytes",
			                 e->constantID, e->size);
		memcpy(&v, src, e->size);
		b->spec[i] = (swgpu_spec_constant){
			.id = e->constantID, .size = (uint32_t)e->size,
			.value = v };
	}
	b->info.spec_constants = b->spec;
	b->info.spec_constant_count = si->mapEntryCount;
	b->key = icd_hash64(si->pMapEntries,
	                    si->mapEntryCount * sizeof(*si->pMapEntries),
	                    b->key);
	b->key = icd_hash64(si->pData, si->dataSize, b->key);
	return VK_SUCCESS;
}

/*
 * Whether the module decorates a variable with (set, binding). Only asked
 * when a pipeline layout has more bindings than one shader_info carries
 * (SWGPU_SHADER_MAX_BINDINGS): then only those the module declares are
 * passed. The header was checked at module creation; a malformed
 * instruction stream just ends the scan (translation rejects it later).
 */
static bool
spirv_declares_binding(const struct icd_shader_module *m, uint32_t set,
                       uint32_t binding)
{
	const uint32_t *w = m->code;
	size_t n = m->code_size / 4;

	/* OpDecorate %id DescriptorSet s / Binding b: find an id with
	 * Binding b, then check that the same id has DescriptorSet s. */
	for (size_t i = 5; i < n;) {
		uint32_t op = w[i] & 0xffff, wc = w[i] >> 16;

		if (!wc || i + wc > n)
			return false;
		if (op == SpvOpDecorate && wc == 4 &&
		    w[i + 2] == SpvDecorationBinding && w[i + 3] == binding) {
			uint32_t id = w[i + 1];

			for (size_t j = 5; j < n;) {
				uint32_t op2 = w[j] & 0xffff, wc2 = w[j] >> 16;

				if (!wc2 || j + wc2 > n)
					return false;
				if (op2 == SpvOpDecorate && wc2 == 4 &&
				    w[j + 1] == id &&
				    w[j + 2] == SpvDecorationDescriptorSet &&
				    w[j + 3] == set)
					return true;
				j += wc2;
			}
		}
		i += wc;
	}
	return false;
}

static VkResult
build_bindings(struct icd_shader_build *b, const struct icd_pipeline_layout *pl,
               const struct icd_shader_module *m)
{
	uint32_t n = 0, total = 0;

	for (uint32_t s = 0; s < pl->set_count; s++)
		for (uint32_t i = 0; pl->sets[s] &&
		     i < pl->sets[s]->binding_count; i++)
			total += pl->sets[s]->bindings[i].count != 0;
	for (uint32_t s = 0; s < pl->set_count; s++) {
		const struct icd_set_layout *l = pl->sets[s];

		for (uint32_t i = 0; l && i < l->binding_count; i++) {
			const struct icd_set_binding *sb = &l->bindings[i];

			if (!sb->count)
				continue;
			if (total > SWGPU_SHADER_MAX_BINDINGS &&
			    !spirv_declares_binding(m, s, i))
				continue;
			if (n == SWGPU_SHADER_MAX_BINDINGS)
				return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
				                 "the shader uses more than %u "
				                 "bindings (the engine's limit)",
				                 n);
			b->bindings[n++] = (swgpu_shader_binding){
				.set = s,
				.binding = i,
				.type = icd_descriptor_type_to_swgpu(sb->type),
				.offset = sb->offset,
				.count = sb->count,
				.dynamic_index = pl->dynamic_start[s] +
				                 sb->dynamic_index,
			};
		}
	}
	b->info.bindings = b->bindings;
	b->info.binding_count = n;
	b->info.push_constant_size = pl->push_size;
	return VK_SUCCESS;
}

VkResult
icd_shader_build_prepare(struct icd_shader_build *b,
                         const struct icd_pipeline_layout *pl,
                         const VkPipelineShaderStageCreateInfo *st,
                         swgpu_shader_stage stage)
{
	const struct icd_shader_module *m =
		icd_shader_module_from_handle(st->module);
	const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *rss;
	VkResult r;

	if (!m)
		return icd_error(VK_ERROR_UNKNOWN, "shader stage 0x%x without "
		                 "a shader module", st->stage);
	rss = icd_find_struct(st->pNext,
		VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
	/* A required subgroup size becomes the engine's subgroup size;
	 * without one the shader gets SWGPU_SHADER_SUBGROUP_SIZE, which
	 * ALLOW_VARYING_SUBGROUP_SIZE and REQUIRE_FULL_SUBGROUPS allow
	 * (a workgroup's invocations fill its subgroups in order). */
	if (rss && (rss->requiredSubgroupSize < SWGPU_SHADER_MIN_SUBGROUP_SIZE ||
	            rss->requiredSubgroupSize > SWGPU_SHADER_SUBGROUP_SIZE ||
	            (rss->requiredSubgroupSize &
	             (rss->requiredSubgroupSize - 1))))
		return icd_error(VK_ERROR_UNKNOWN, "required subgroup size %u"
		                 " (minSubgroupSize %u, maxSubgroupSize %u)",
		                 rss->requiredSubgroupSize,
		                 SWGPU_SHADER_MIN_SUBGROUP_SIZE,
		                 SWGPU_SHADER_SUBGROUP_SIZE);
	b->info.subgroup_size = rss ? rss->requiredSubgroupSize : 0;
	b->info.code = m->code;
	b->info.code_size = m->code_size;
	b->info.entry_point = st->pName;
	b->info.error = b->error;
	b->info.error_size = sizeof(b->error);
	b->info.stage = stage;
	b->key = icd_hash64(&m->hash, sizeof(m->hash), 0);
	b->key = icd_hash64(st->pName, strlen(st->pName), b->key);
	b->key = icd_hash64(&stage, sizeof(stage), b->key);
	b->key = icd_hash64(&pl->hash, sizeof(pl->hash), b->key);
	b->key = icd_hash64(&b->info.subgroup_size,
	                    sizeof(b->info.subgroup_size), b->key);
	r = build_spec(b, st->pSpecializationInfo);
	if (r == VK_SUCCESS)
		r = build_bindings(b, pl, m);
	return r;
}

VkResult
icd_shader_build_create(struct icd_device *dev,
                        struct icd_pipeline_cache *cache,
                        struct icd_shader_build *b, const char *what,
                        swgpu_shader **out)
{
	swgpu_result sr;

	/* native code: from the cache if it has this shader's, and into
	 * the cache (fetched when its data is read) */
	icd_pipeline_cache_attach(cache, &b->info);
	sr = swgpu_shader_create(dev->ctx, &b->info, out);
	if (sr == SWGPU_OK) {
		swgpu_shader_properties props;

		swgpu_shader_query_properties(*out, &props);
		b->cache_hit = cache &&
		               props.code_source == SWGPU_SHADER_CODE_APP_CACHE;
		icd_pipeline_cache_add_shader(cache, *out);
		return VK_SUCCESS;
	}
	/* What translation failures become (the engine's classes are in
	 * swgpu/src/hw/shader/xlate.h; the message names the SPIR-V
	 * instruction and its result id):
	 *  - SWGPU_ERR_NO_HOST_MEMORY: a valid shader over one of the
	 *    engine's limits (registers, value sizes) or out of memory:
	 *    VK_ERROR_OUT_OF_HOST_MEMORY, an error pipeline creation may
	 *    return;
	 *  - SWGPU_ERR_INVALID_ARG: invalid SPIR-V, or a pipeline layout
	 *    that does not match the shader; SWGPU_ERR_UNSUPPORTED: a
	 *    construct the engine does not run, which needs a feature or
	 *    capability the device does not report. Both are invalid
	 *    input, for which the spec's code is VK_ERROR_UNKNOWN (see
	 *    shader_module.c); a valid shader never gets it. */
	*out = NULL;
	icd_log("%s: entry point \"%s\": %s: %s", what, b->info.entry_point,
	        swgpu_result_str(sr), b->error[0] ? b->error : "(no detail)");
	return sr == SWGPU_ERR_INVALID_ARG || sr == SWGPU_ERR_UNSUPPORTED ?
	       VK_ERROR_UNKNOWN : icd_result_from_swgpu(sr);
}

static void
pipeline_free(struct icd_device *dev, struct icd_pipeline *p,
              const VkAllocationCallbacks *pAllocator)
{
	if (p->bind_point == VK_PIPELINE_BIND_POINT_GRAPHICS)
		icd_graphics_pipeline_destroy(dev, p);
	swgpu_shader_destroy(p->shader);
	icd_free(pAllocator, &dev->alloc, p);
}

/* VkPipelineCreationFeedbackCreateInfo (core 1.3,
 * VK_EXT_pipeline_creation_feedback): the pipeline and its one stage were
 * made in ns nanoseconds; a cache hit is claimed when the shader's
 * native code came from the application's pipeline cache (SPIR-V is
 * still translated: that is cheap, compiling is not). */
static void
write_feedback(const VkComputePipelineCreateInfo *ci, uint64_t ns, bool hit)
{
	const VkPipelineCreationFeedbackCreateInfo *fb = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
	const VkPipelineCreationFeedback f = {
		.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
		         (hit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT
		              : 0),
		.duration = ns,
	};

	if (!fb)
		return;
	if (fb->pPipelineCreationFeedback)
		*fb->pPipelineCreationFeedback = f;
	for (uint32_t i = 0; i < fb->pipelineStageCreationFeedbackCount; i++)
		fb->pPipelineStageCreationFeedbacks[i] = f;
}

static VkResult
compute_pipeline_create(struct icd_device *dev,
                        struct icd_pipeline_cache *cache,
                        const VkComputePipelineCreateInfo *ci,
                        const VkAllocationCallbacks *pAllocator,
                        VkPipeline *out)
{
	const VkPipelineShaderStageCreateInfo *st = &ci->stage;
	struct icd_pipeline_layout *pl =
		icd_pipeline_layout_from_handle(ci->layout);
	swgpu_shader_properties props;
	struct icd_shader_build *b;
	struct icd_pipeline *p;
	const uint64_t t0 = swgpu_now_ns();
	VkResult r;

	if (st->stage != VK_SHADER_STAGE_COMPUTE_BIT)
		return icd_error(VK_ERROR_UNKNOWN, "compute pipeline without "
		                 "a compute shader stage");
	b = icd_zalloc(NULL, &dev->alloc, sizeof(*b), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
	if (!b)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline build");
	r = icd_shader_build_prepare(b, pl, st, SWGPU_SHADER_STAGE_COMPUTE);
	if (r != VK_SUCCESS)
		goto fail_build;

	if (ci->flags &
	    VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
		/* The cache keeps native code, not translated SPIR-V:
		 * every pipeline is translated at creation. */
		r = VK_PIPELINE_COMPILE_REQUIRED;
		goto fail_build;
	}

	p = icd_zalloc(pAllocator, &dev->alloc, sizeof(*p), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!p) {
		r = icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline");
		goto fail_build;
	}
	icd_object_init(&p->base, VK_OBJECT_TYPE_PIPELINE);
	p->device = dev;
	p->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
	p->set_count = pl->set_count;
	memcpy(p->dynamic_start, pl->dynamic_start, sizeof(p->dynamic_start));
	p->dynamic_count = pl->dynamic_count;
	p->push_size = pl->push_size;

	r = icd_shader_build_create(dev, cache, b, "vkCreateComputePipelines",
	                            &p->shader);
	if (r != VK_SUCCESS) {
		pipeline_free(dev, p, pAllocator);
		goto fail_build;
	}
	swgpu_shader_query_properties(p->shader, &props);
	memcpy(p->local_size, props.local_size, sizeof(p->local_size));
	p->code_va = swgpu_shader_code_va(p->shader);
	icd_pipeline_cache_insert(cache, b->key);
	const bool hit = b->cache_hit;

	icd_free(NULL, &dev->alloc, b);
	*out = icd_pipeline_to_handle(p);
	write_feedback(ci, swgpu_now_ns() - t0, hit);
	return VK_SUCCESS;

fail_build:
	icd_free(NULL, &dev->alloc, b);
	return r;
}

VkResult
icd_CreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache,
                           uint32_t count,
                           const VkComputePipelineCreateInfo *pCreateInfos,
                           const VkAllocationCallbacks *pAllocator,
                           VkPipeline *pPipelines)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_cache *cache =
		icd_pipeline_cache_from_handle(pipelineCache);
	VkResult result = VK_SUCCESS;
	uint32_t i;

	for (i = 0; i < count; i++)
		pPipelines[i] = VK_NULL_HANDLE;
	for (i = 0; i < count; i++) {
		VkResult r = compute_pipeline_create(dev, cache,
		                                     &pCreateInfos[i],
		                                     pAllocator,
		                                     &pPipelines[i]);

		if (r == VK_SUCCESS)
			continue;
		/* The spec: failed entries are VK_NULL_HANDLE, the others
		 * valid; the result is the failure's. */
		if (result == VK_SUCCESS)
			result = r;
		if (pCreateInfos[i].flags &
		    VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)
			break;
	}
	return result;
}

VkResult
icd_CreateGraphicsPipelines(VkDevice device, VkPipelineCache pipelineCache,
                            uint32_t count,
                            const VkGraphicsPipelineCreateInfo *pCreateInfos,
                            const VkAllocationCallbacks *pAllocator,
                            VkPipeline *pPipelines)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_cache *cache =
		icd_pipeline_cache_from_handle(pipelineCache);
	VkResult result = VK_SUCCESS;
	uint32_t i;

	for (i = 0; i < count; i++)
		pPipelines[i] = VK_NULL_HANDLE;
	for (i = 0; i < count; i++) {
		VkResult r = icd_graphics_pipeline_create(
			dev, cache, &pCreateInfos[i], pAllocator,
			&pPipelines[i]);

		if (r == VK_SUCCESS)
			continue;
		if (result == VK_SUCCESS)
			result = r;
		if (pCreateInfos[i].flags &
		    VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)
			break;
	}
	return result;
}

void
icd_DestroyPipeline(VkDevice device, VkPipeline pipeline,
                    const VkAllocationCallbacks *pAllocator)
{
	struct icd_pipeline *p = icd_pipeline_from_handle(pipeline);

	if (!p)
		return;
	/* The spec forbids destroying a pipeline that pending command
	 * buffers use, so no DISPATCH can name its code VA any more. */
	pipeline_free(icd_device_from_handle(device), p, pAllocator);
}
