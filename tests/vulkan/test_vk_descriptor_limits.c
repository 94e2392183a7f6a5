/* SPDX-License-Identifier: MIT */
/*
 * Descriptor and buffer limits used at their reported values (issue 16
 * raised several of swgpu's to lavapipe's or beyond): as many storage
 * buffers in one stage as maxPerStageDescriptorStorageBuffers and
 * maxPerStageResources allow (up to 128), an inline uniform block of
 * maxInlineUniformBlockSize, and a uniform buffer read at the end of a
 * range of maxUniformBufferRange (up to 64 MiB). Runs on swgpu and
 * lavapipe, validation layer on.
 */
#include <stdio.h>
#include <string.h>

#include "vkh_compute.h"

#include "lim_inline_ubo.spv.h"
#include "lim_many_ssbo.spv.h"

/* A pipeline of one set: its layout, pool and set made here (bindings of
 * any count, which vkh_pipe does not do). */
struct one_set {
	VkDescriptorSetLayout sl;
	VkPipelineLayout pl;
	VkPipeline pipe;
	VkShaderModule sm;
	VkDescriptorPool pool;
	VkDescriptorSet set;
};

static VkResult
one_set_create(struct vkh_device *d, const VkDescriptorSetLayoutBinding *b,
               uint32_t nb, const VkDescriptorPoolSize *ps, uint32_t nps,
               const void *pool_next, const uint32_t *spv, size_t spv_size,
               const VkSpecializationInfo *spec, uint32_t push,
               struct one_set *o)
{
	VkDevice dev = d->device;
	VkResult r;

	memset(o, 0, sizeof(*o));
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = nb, .pBindings = b,
	};
	r = vkCreateDescriptorSetLayout(dev, &lci, NULL, &o->sl);
	if (r != VK_SUCCESS)
		return r;
	VkPushConstantRange pr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push };
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &o->sl,
		.pushConstantRangeCount = push ? 1 : 0, .pPushConstantRanges = &pr,
	};
	r = vkCreatePipelineLayout(dev, &plci, NULL, &o->pl);
	if (r != VK_SUCCESS)
		return r;
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = spv_size, .pCode = spv,
	};
	r = vkCreateShaderModule(dev, &smci, NULL, &o->sm);
	if (r != VK_SUCCESS)
		return r;
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = o->sm, .pName = "main",
			.pSpecializationInfo = spec,
		},
		.layout = o->pl,
	};
	r = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL,
	                             &o->pipe);
	if (r != VK_SUCCESS)
		return r;
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.pNext = pool_next, .maxSets = 1,
		.poolSizeCount = nps, .pPoolSizes = ps,
	};
	r = vkCreateDescriptorPool(dev, &dpci, NULL, &o->pool);
	if (r != VK_SUCCESS)
		return r;
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = o->pool, .descriptorSetCount = 1,
		.pSetLayouts = &o->sl,
	};
	return vkAllocateDescriptorSets(dev, &ai, &o->set);
}

static void
one_set_destroy(struct vkh_device *d, struct one_set *o)
{
	VkDevice dev = d->device;

	vkDestroyDescriptorPool(dev, o->pool, NULL);
	vkDestroyPipeline(dev, o->pipe, NULL);
	vkDestroyShaderModule(dev, o->sm, NULL);
	vkDestroyPipelineLayout(dev, o->pl, NULL);
	vkDestroyDescriptorSetLayout(dev, o->sl, NULL);
}

static VkResult
run(struct vkh_device *d, const struct one_set *o, const void *push,
    uint32_t push_size, uint32_t groups)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, o->pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, o->pl, 0,
	                        1, &o->set, 0, NULL);
	if (push_size)
		vkCmdPushConstants(cb, o->pl, VK_SHADER_STAGE_COMPUTE_BIT, 0,
		                   push_size, push);
	vkCmdDispatch(cb, groups, 1, 1);
	vkh_cmd_compute_host_barrier(cb);
	return vkh_cmd_submit_wait(d, 0, cb);
}

static void
test_per_stage_storage_buffers(struct vkh *h, struct vkh_device *unused)
{
	const VkPhysicalDeviceLimits *l = &h->props.limits;
	uint32_t n = l->maxPerStageDescriptorStorageBuffers;
	struct vkh_device d;
	struct vkh_buffer buf = { 0 };
	struct one_set o;
	/* maintenance4: glslang's Vulkan 1.3 output declares the workgroup
	 * size with LocalSizeId. */
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = VK_TRUE,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
		.features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE,
	};
	VkPhysicalDeviceFeatures have;

	(void)unused;
	vkGetPhysicalDeviceFeatures(h->phys, &have);
	if (!have.shaderStorageBufferArrayDynamicIndexing) {
		vkh_skip(h, "shaderStorageBufferArrayDynamicIndexing");
		return;
	}
	if (n > l->maxPerStageResources)
		n = l->maxPerStageResources;
	if (n > l->maxDescriptorSetStorageBuffers)
		n = l->maxDescriptorSetStorageBuffers;
	if (n > 128)
		n = 128;
	const VkDeviceSize stride =
		l->minStorageBufferOffsetAlignment > 256 ?
		l->minStorageBufferOffsetAlignment : 256;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, stride * n, 0, &buf));
	memset(buf.map, 0, stride * n);
	vkh_buffer_flush(h, &d, &buf);
	const VkDescriptorSetLayoutBinding b = {
		0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, n,
		VK_SHADER_STAGE_COMPUTE_BIT, NULL,
	};
	const VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, n };
	const VkSpecializationMapEntry me = { 0, 0, 4 };
	const int32_t spec_n = (int32_t)n;
	const VkSpecializationInfo spec = { 1, &me, 4, &spec_n };
	VKH_CHECK_VK(h, one_set_create(&d, &b, 1, &ps, 1, NULL,
	                               lim_many_ssbo_spv,
	                               sizeof(lim_many_ssbo_spv), &spec, 0,
	                               &o));
	VkDescriptorBufferInfo bi[128];
	for (uint32_t i = 0; i < n; i++)
		bi[i] = (VkDescriptorBufferInfo){ buf.buffer, stride * i, 256 };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = o.set, .descriptorCount = n,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = bi,
	};
	vkUpdateDescriptorSets(d.device, 1, &w, 0, NULL);
	VKH_CHECK_VK(h, run(&d, &o, NULL, 0, n));
	vkh_buffer_invalidate(h, &d, &buf);
	unsigned bad = 0;
	for (uint32_t g = 0; g < n; g++)
		for (uint32_t i = 0; i < 64; i++) {
			uint32_t v = ((const uint32_t *)((const char *)buf.map +
			                                 stride * g))[i];
			if (v != g * 1000 + i && bad++ < 4)
				fprintf(stderr, "  buffer %u [%u] = %u\n", g, i,
				        v);
		}
	printf("  %u storage buffers in one stage (limit %u, resources %u)\n",
	       n, l->maxPerStageDescriptorStorageBuffers,
	       l->maxPerStageResources);
	one_set_destroy(&d, &o);
	vkh_buffer_destroy(&d, &buf);
	vkh_device_destroy(h, &d);
	VKH_CHECK_MSG(h, !bad, "%u words wrong", bad);
}

static void
test_inline_block_and_uniform_range(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan13Properties p13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &p13,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_device d;
	struct vkh_buffer big = { 0 }, out = { 0 };
	struct one_set o;

	(void)unused;
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f13.inlineUniformBlock || !f13.maintenance4 ||
	    p13.maxInlineUniformBlockSize < 4096) {
		vkh_skip(h, "no 4096-byte inline uniform blocks");
		return;
	}
	memset(&f13, 0, sizeof(f13));
	f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f13.inlineUniformBlock = VK_TRUE;
	f13.maintenance4 = VK_TRUE; /* LocalSizeId, as above */
	memset(&f2.features, 0, sizeof(f2.features));
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VkDeviceSize range = h->props.limits.maxUniformBufferRange;
	if (range > (64u << 20))
		range = 64u << 20;
	range &= ~(VkDeviceSize)15;
	VKH_CHECK_VK(h, vkh_buffer_create(h, &d, range,
	                                  VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
	                                  VKH_MEM_UPLOAD, -1, &big));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, 64, 0, &out));
	uint32_t *bw = big.map;
	for (uint32_t c = 0; c < 4; c++) {
		bw[c] = 0xb0 + c;
		bw[range / 4 - 4 + c] = 0xe0 + c;
	}
	vkh_buffer_flush(h, &d, &big);
	const VkDescriptorSetLayoutBinding b[3] = {
		{ 0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 4096,
		  VK_SHADER_STAGE_COMPUTE_BIT, NULL },
		{ 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
		  VK_SHADER_STAGE_COMPUTE_BIT, NULL },
		{ 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
		  VK_SHADER_STAGE_COMPUTE_BIT, NULL },
	};
	const VkDescriptorPoolSize ps[3] = {
		{ VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 4096 },
		{ VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 },
		{ VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
	};
	const VkDescriptorPoolInlineUniformBlockCreateInfo ipci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
		.maxInlineUniformBlockBindings = 1,
	};
	VKH_CHECK_VK(h, one_set_create(&d, b, 3, ps, 3, &ipci,
	                               lim_inline_ubo_spv,
	                               sizeof(lim_inline_ubo_spv), NULL, 4,
	                               &o));
	uint32_t block[1024];
	for (uint32_t i = 0; i < 1024; i++)
		block[i] = 0x1000 + i;
	VkWriteDescriptorSetInlineUniformBlock iw = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK,
		.dataSize = sizeof(block), .pData = block,
	};
	VkDescriptorBufferInfo ub = { big.buffer, 0, range };
	VkDescriptorBufferInfo ob = { out.buffer, 0, 64 };
	VkWriteDescriptorSet w[3] = {
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &iw,
		  .dstSet = o.set, .dstBinding = 0, .descriptorCount = 4096,
		  .descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK },
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstSet = o.set, .dstBinding = 1, .descriptorCount = 1,
		  .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
		  .pBufferInfo = &ub },
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstSet = o.set, .dstBinding = 2, .descriptorCount = 1,
		  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		  .pBufferInfo = &ob },
	};
	vkUpdateDescriptorSets(d.device, 3, w, 0, NULL);
	const uint32_t last = (uint32_t)(range / 16 - 1);
	VKH_CHECK_VK(h, run(&d, &o, &last, 4, 1));
	vkh_buffer_invalidate(h, &d, &out);
	const uint32_t *r = out.map;
	unsigned bad = 0;
	for (uint32_t c = 0; c < 4; c++) {
		bad += r[c] != 0x1000 + c;
		bad += r[4 + c] != 0x1000 + 1020 + c;
		bad += r[8 + c] != 0xb0 + c;
		bad += r[12 + c] != 0xe0 + c;
	}
	printf("  inline block of 4096 bytes; uniform buffer range %llu "
	       "(maxUniformBufferRange %u)\n", (unsigned long long)range,
	       h->props.limits.maxUniformBufferRange);
	one_set_destroy(&d, &o);
	vkh_buffer_destroy(&d, &big);
	vkh_buffer_destroy(&d, &out);
	vkh_device_destroy(h, &d);
	VKH_CHECK_MSG(h, !bad, "%u words wrong", bad);
}

int
main(int argc, char **argv)
{
	static const struct vkh_test tests[] = {
		{ "per_stage_storage_buffers", test_per_stage_storage_buffers,
		  0, 0 },
		{ "inline_block_and_uniform_range",
		  test_inline_block_and_uniform_range, 0, 0 },
	};

	return vkh_run_tests(argc, argv, "test_vk_descriptor_limits", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
