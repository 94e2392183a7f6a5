/* SPDX-License-Identifier: MIT */
/*
 * test_icd_compute_objects, second part: pipeline caches (the spec's
 * header, the two-call idiom, truncation, foreign data ignored, merge),
 * SPIR-V header checks of vkCreateShaderModule, pipeline layouts (full
 * push range, set-number holes) and the compute properties.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_icd_compute_objects.h"

#include "ico_hole.spv.h"

/* ------------------------------------------------------------------ */
/* Pipeline caches                                                     */
/* ------------------------------------------------------------------ */

static VkResult
cache_create(struct vkh_device *d, const void *data, size_t size,
             VkPipelineCache *out)
{
	VkPipelineCacheCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
		.initialDataSize = size,
		.pInitialData = data,
	};

	return vkCreatePipelineCache(d->device, &ci, NULL, out);
}

/* The cache's data (two-call idiom), malloc'ed. */
static void *
cache_data(struct vkh *h, struct vkh_device *d, VkPipelineCache c,
           size_t *size)
{
	void *p;

	if (vkGetPipelineCacheData(d->device, c, size, NULL) != VK_SUCCESS)
		return NULL;
	p = malloc(*size ? *size : 1);
	if (p && vkGetPipelineCacheData(d->device, c, size, p) != VK_SUCCESS) {
		free(p);
		return NULL;
	}
	return p;
}

void
test_pipeline_cache(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t[2] = { SSBO, SSBO };
	VkPipelineCacheHeaderVersionOne hdr;
	VkPipelineCache empty, c1, c2, c3;
	VkDescriptorSetLayout layout;
	size_t empty_size, size, size2, small;
	uint8_t *data, *data2, *bad;
	struct pipe p;
	VkResult r;

	VKH_CHECK_VK(h, make_set_layout(d, 2, t, &layout));
	VKH_CHECK_VK(h, cache_create(d, NULL, 0, &empty));
	VKH_CHECK_VK(h, cache_create(d, NULL, 0, &c1));
	VKH_CHECK_VK(h, make_pipeline(d, ico_add_spv, ico_add_spv_size, 1,
	                              &layout, 20, NULL, 0, c1, &p));
	destroy_pipeline(d, &p);

	free(cache_data(h, d, empty, &empty_size));
	data = cache_data(h, d, c1, &size);
	VKH_CHECK(h, data != NULL);
	VKH_CHECK(h, size >= sizeof(hdr) && empty_size >= sizeof(hdr));
	/* The header is the spec's, naming this device. */
	memcpy(&hdr, data, sizeof(hdr));
	VKH_CHECK(h, hdr.headerSize >= 32);
	VKH_CHECK(h, hdr.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
	VKH_CHECK(h, hdr.vendorID == h->props.vendorID);
	VKH_CHECK(h, hdr.deviceID == h->props.deviceID);
	VKH_CHECK(h, memcmp(hdr.pipelineCacheUUID,
	                    h->props.pipelineCacheUUID, VK_UUID_SIZE) == 0);
	if (h->is_swgpu)
		VKH_CHECK_MSG(h, size > empty_size, "a pipeline adds an "
		              "entry: %zu vs empty %zu", size, empty_size);

	/* Round trip: a cache created from the data gives the same data. */
	VKH_CHECK_VK(h, cache_create(d, data, size, &c2));
	data2 = cache_data(h, d, c2, &size2);
	VKH_CHECK(h, data2 != NULL);
	if (h->is_swgpu)
		VKH_CHECK(h, size2 == size && memcmp(data, data2, size) == 0);
	free(data2);

	/* Too small for everything: VK_INCOMPLETE, and what was written is
	 * itself valid initial data. Too small for the header: nothing. */
	small = size - 1;
	data2 = malloc(size);
	VKH_CHECK(h, data2 != NULL);
	r = vkGetPipelineCacheData(d->device, c1, &small, data2);
	VKH_CHECK_MSG(h, r == VK_INCOMPLETE, "short buffer: %s",
	              vkh_result_str(r));
	VKH_CHECK(h, small < size);
	if (small) {
		VKH_CHECK_VK(h, cache_create(d, data2, small, &c3));
		vkDestroyPipelineCache(d->device, c3, NULL);
	}
	small = sizeof(hdr) - 1;
	r = vkGetPipelineCacheData(d->device, c1, &small, data2);
	VKH_CHECK_MSG(h, r == VK_INCOMPLETE && small == 0,
	              "buffer below the header: %s, %zu bytes",
	              vkh_result_str(r), small);
	free(data2);

	/* Foreign data (another UUID, another header version, garbage) is
	 * ignored: creation succeeds and the cache is as empty as new. */
	bad = malloc(size);
	VKH_CHECK(h, bad != NULL);
	for (int k = 0; k < 3; k++) {
		memcpy(bad, data, size);
		if (k == 0)
			bad[16] ^= 0xff;        /* pipelineCacheUUID */
		else if (k == 1)
			bad[4] ^= 0x02;         /* headerVersion */
		else
			memset(bad + 8, 0x5a, size - 8);
		VKH_CHECK_VK(h, cache_create(d, bad, size, &c3));
		data2 = cache_data(h, d, c3, &size2);
		VKH_CHECK(h, data2 != NULL);
		if (h->is_swgpu)
			VKH_CHECK_MSG(h, size2 == empty_size, "foreign data "
			              "%d kept: %zu bytes", k, size2);
		free(data2);
		vkDestroyPipelineCache(d->device, c3, NULL);
	}
	free(bad);

	/* Merge c1 into an empty cache: it now holds c1's entries. */
	VKH_CHECK_VK(h, cache_create(d, NULL, 0, &c3));
	VKH_CHECK_VK(h, vkMergePipelineCaches(d->device, c3, 1, &c1));
	data2 = cache_data(h, d, c3, &size2);
	VKH_CHECK(h, data2 != NULL);
	if (h->is_swgpu)
		VKH_CHECK(h, size2 == size && memcmp(data, data2, size) == 0);
	free(data2);
	/* A pipeline created with the merged cache still works. */
	VKH_CHECK_VK(h, make_pipeline(d, ico_add_spv, ico_add_spv_size, 1,
	                              &layout, 20, NULL, 0, c3, &p));
	destroy_pipeline(d, &p);

	free(data);
	vkDestroyPipelineCache(d->device, empty, NULL);
	vkDestroyPipelineCache(d->device, c1, NULL);
	vkDestroyPipelineCache(d->device, c2, NULL);
	vkDestroyPipelineCache(d->device, c3, NULL);
	vkDestroyDescriptorSetLayout(d->device, layout, NULL);
}

/* Pipeline creation on several threads into one cache (caches are not
 * externally synchronised): every pipeline is created, and on swgpu the
 * cache ends up with one entry per distinct pipeline. */
#define CACHE_THREADS 4
#define CACHE_PIPELINES 6

struct cache_thread {
	struct vkh_device *d;
	VkDescriptorSetLayout layout;
	VkPipelineCache cache;
	uint32_t first_tag;
	VkResult result;
};

static void *
cache_thread_main(void *arg)
{
	struct cache_thread *t = arg;

	t->result = VK_SUCCESS;
	for (uint32_t i = 0; i < CACHE_PIPELINES && !t->result; i++) {
		/* Threads overlap in tags: the same pipeline is created on
		 * two threads at once. */
		uint32_t tag = t->first_tag + i;
		VkSpecializationMapEntry e = { 0, 0, 4 };
		VkSpecializationInfo spec = { 1, &e, 4, &tag };
		struct pipe p;

		t->result = make_pipeline(t->d, ico_groups_spv,
		                          ico_groups_spv_size, 1, &t->layout,
		                          0, &spec, 0, t->cache, &p);
		if (t->result == VK_SUCCESS)
			destroy_pipeline(t->d, &p);
	}
	return NULL;
}

void
test_pipeline_cache_threads(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t[1] = { SSBO };
	struct cache_thread th[CACHE_THREADS];
	pthread_t tid[CACHE_THREADS];
	VkDescriptorSetLayout layout;
	VkPipelineCache cache, empty;
	size_t size, empty_size;

	VKH_CHECK_VK(h, make_set_layout(d, 1, t, &layout));
	VKH_CHECK_VK(h, cache_create(d, NULL, 0, &cache));
	VKH_CHECK_VK(h, cache_create(d, NULL, 0, &empty));
	for (int i = 0; i < CACHE_THREADS; i++) {
		th[i] = (struct cache_thread){
			.d = d, .layout = layout, .cache = cache,
			.first_tag = (uint32_t)i * CACHE_PIPELINES / 2,
		};
		VKH_CHECK(h, pthread_create(&tid[i], NULL, cache_thread_main,
		                            &th[i]) == 0);
	}
	for (int i = 0; i < CACHE_THREADS; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < CACHE_THREADS; i++)
		VKH_CHECK_MSG(h, th[i].result == VK_SUCCESS, "thread %d: %s",
		              i, vkh_result_str(th[i].result));
	VKH_CHECK_VK(h, vkGetPipelineCacheData(d->device, cache, &size, NULL));
	VKH_CHECK_VK(h, vkGetPipelineCacheData(d->device, empty, &empty_size,
	                                       NULL));
	/* Tags 0 .. (THREADS - 1) * PIPELINES / 2 + PIPELINES - 1: 8 bytes
	 * each, plus, with the compiler (the default with LLVM), the compiled
	 * code of those whose compile has finished. */
	const size_t entries = empty_size + 8 *
		((CACHE_THREADS - 1) * CACHE_PIPELINES / 2 + CACHE_PIPELINES);
	if (vkh_swgpu_jit(h))
		VKH_CHECK_MSG(h, size >= entries, "cache of %zu bytes", size);
	else if (h->is_swgpu)
		VKH_CHECK_MSG(h, size == entries, "cache of %zu bytes", size);
	vkDestroyPipelineCache(d->device, cache, NULL);
	vkDestroyPipelineCache(d->device, empty, NULL);
	vkDestroyDescriptorSetLayout(d->device, layout, NULL);
}

/* ------------------------------------------------------------------ */
/* Shader modules and pipeline layouts                                 */
/* ------------------------------------------------------------------ */

void
test_shader_module_header(struct vkh *h, struct vkh_device *d)
{
	uint32_t *code = malloc(ico_add_spv_size);
	VkShaderModuleCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = ico_add_spv_size,
		.pCode = code,
	};
	VkShaderModule m = VK_NULL_HANDLE;
	VkResult r;

	VKH_CHECK(h, code != NULL);
	memcpy(code, ico_add_spv, ico_add_spv_size);
	/* A valid module, destroyed without any pipeline. */
	VKH_CHECK_VK(h, vkCreateShaderModule(d->device, &ci, NULL, &m));
	vkDestroyShaderModule(d->device, m, NULL);
	vkDestroyShaderModule(d->device, VK_NULL_HANDLE, NULL);
	if (!h->is_swgpu || h->validation) {
		/* Invalid SPIR-V is undefined behaviour; only our driver
		 * promises a clean error. The validation layer stops such
		 * a call before the driver (VK_ERROR_VALIDATION_FAILED), so
		 * this part runs in the VKH_NO_VALIDATION=1 ctest entry. */
		free(code);
		return;
	}
	/* swgpu: a bad magic, a SPIR-V 1.7 version word, and a size that
	 * is not a multiple of 4 are refused with VK_ERROR_UNKNOWN. */
	code[0] = 0x07230204;
	m = VK_NULL_HANDLE;
	r = vkCreateShaderModule(d->device, &ci, NULL, &m);
	VKH_CHECK_MSG(h, r == VK_ERROR_UNKNOWN && m == VK_NULL_HANDLE,
	              "bad magic: %s", vkh_result_str(r));
	code[0] = ico_add_spv[0];
	code[1] = 0x00010700;
	r = vkCreateShaderModule(d->device, &ci, NULL, &m);
	VKH_CHECK_MSG(h, r == VK_ERROR_UNKNOWN, "SPIR-V 1.7: %s",
	              vkh_result_str(r));
	code[1] = ico_add_spv[1];
	ci.codeSize = ico_add_spv_size - 2;
	r = vkCreateShaderModule(d->device, &ci, NULL, &m);
	VKH_CHECK_MSG(h, r == VK_ERROR_UNKNOWN, "odd size: %s",
	              vkh_result_str(r));
	free(code);
}

void
test_pipeline_layouts(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t[2] = { SSBO, SSBO };
	VkDescriptorSetLayout sl[2];
	VkPushConstantRange range = {
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		.offset = 0,
		.size = h->props.limits.maxPushConstantsSize,
	};
	VkPipelineLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 2,
		.pSetLayouts = sl,
		.pushConstantRangeCount = 1,
		.pPushConstantRanges = &range,
	};
	VkPipelineLayout pl;

	VKH_CHECK(h, h->props.limits.maxPushConstantsSize >= 128);
	VKH_CHECK(h, h->props.limits.maxBoundDescriptorSets >= 4);
	/* The full push-constant range, two sets, set layouts destroyed
	 * while the pipeline layout lives. */
	VKH_CHECK_VK(h, make_set_layout(d, 0, t, &sl[0]));
	VKH_CHECK_VK(h, make_set_layout(d, 2, t, &sl[1]));
	VKH_CHECK_VK(h, vkCreatePipelineLayout(d->device, &ci, NULL, &pl));
	vkDestroyDescriptorSetLayout(d->device, sl[0], NULL);
	vkDestroyDescriptorSetLayout(d->device, sl[1], NULL);
	vkDestroyPipelineLayout(d->device, pl, NULL);
	/* An empty layout. */
	ci.setLayoutCount = 0;
	ci.pushConstantRangeCount = 0;
	VKH_CHECK_VK(h, vkCreatePipelineLayout(d->device, &ci, NULL, &pl));
	vkDestroyPipelineLayout(d->device, pl, NULL);
}

/* Resources in set 1 with an empty set 0 (a hole in the set numbers),
 * and a push constant in the last dword of a 128-byte range. */
void
test_set_hole(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t[2] = { SSBO, SSBO };
	VkDescriptorSetLayout sl[2];
	VkDescriptorSet sets[2];
	VkDescriptorPool pool;
	struct vkh_buffer src, dst;
	VkCommandBuffer cb;
	struct pipe p;
	uint32_t add = 0x10000, *sv, *dv;

	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 256,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_UPLOAD, -1, &src));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 256,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_READBACK, -1, &dst));
	sv = src.map;
	dv = dst.map;
	for (uint32_t i = 0; i < 64; i++) {
		sv[i] = i * i;
		dv[i] = 0;
	}
	VKH_CHECK_VK(h, make_set_layout(d, 0, t, &sl[0]));
	VKH_CHECK_VK(h, make_set_layout(d, 2, t, &sl[1]));
	VKH_CHECK_VK(h, make_pipeline(d, ico_hole_spv, sizeof(ico_hole_spv),
	                              2, sl, 128, NULL, 0, VK_NULL_HANDLE,
	                              &p));
	VKH_CHECK_VK(h, make_pool(d, 0, 2, SSBO, 2, &pool));
	VKH_CHECK_VK(h, alloc_set(d, pool, sl[0], &sets[0]));
	VKH_CHECK_VK(h, alloc_set(d, pool, sl[1], &sets[1]));
	write_buffer(d, sets[1], 0, SSBO, src.buffer, 0, VK_WHOLE_SIZE);
	write_buffer(d, sets[1], 1, SSBO, dst.buffer, 0, VK_WHOLE_SIZE);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout,
	                        0, 2, sets, 0, NULL);
	vkCmdPushConstants(cb, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 124, 4,
	                   &add);
	vkCmdDispatch(cb, 1, 1, 1);
	compute_to_host(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	for (uint32_t i = 0; i < 64; i++)
		VKH_CHECK_MSG(h, dv[i] == i * i + add, "dst[%u] = %u", i,
		              dv[i]);
	vkDestroyDescriptorPool(d->device, pool, NULL);
	destroy_pipeline(d, &p);
	vkDestroyDescriptorSetLayout(d->device, sl[0], NULL);
	vkDestroyDescriptorSetLayout(d->device, sl[1], NULL);
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &dst);
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */
/* ------------------------------------------------------------------ */

void
test_compute_properties(struct vkh *h, struct vkh_device *d)
{
	const VkPhysicalDeviceLimits *l = &h->props.limits;
	VkPhysicalDeviceSubgroupProperties sg = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &sg,
	};
	bool compute = false;

	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	for (uint32_t f = 0; f < h->family_count; f++)
		if (h->families[f].queueFlags & VK_QUEUE_COMPUTE_BIT)
			compute = true;
	VKH_CHECK(h, compute);
	/* The spec's minimums. */
	VKH_CHECK(h, l->maxComputeWorkGroupInvocations >= 128);
	VKH_CHECK(h, l->maxComputeWorkGroupSize[0] >= 128 &&
	          l->maxComputeWorkGroupSize[1] >= 128 &&
	          l->maxComputeWorkGroupSize[2] >= 64);
	VKH_CHECK(h, l->maxComputeWorkGroupCount[0] >= 65535);
	VKH_CHECK(h, l->maxComputeSharedMemorySize >= 16384);
	VKH_CHECK(h, sg.subgroupSize >= 1 &&
	          (sg.subgroupSize & (sg.subgroupSize - 1)) == 0);
	VKH_CHECK(h, sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT);
	VKH_CHECK(h, sg.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);
	if (h->is_swgpu)
		VKH_CHECK(h, l->timestampComputeAndGraphics == VK_TRUE);
}

