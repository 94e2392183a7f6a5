/* SPDX-License-Identifier: MIT */
/*
 * vkh_compute: compute pipelines for the vk_harness tests and samples.
 * See vkh_compute.h.
 */
#include "vkh_compute.h"

#include <string.h>

bool
vkh_has_compute(const struct vkh *h)
{
	for (uint32_t f = 0; f < h->family_count; f++)
		if (h->families[f].queueFlags & VK_QUEUE_COMPUTE_BIT)
			return true;
	return false;
}

static VkResult
create_sets(struct vkh_device *d, const struct vkh_pipe_desc *desc,
            struct vkh_pipe *p)
{
	VkDescriptorPoolSize sizes[VKH_PIPE_MAX_SETS * VKH_PIPE_MAX_BINDINGS];
	uint32_t nsizes = 0;
	VkResult r;

	for (uint32_t s = 0; s < desc->set_count; s++) {
		VkDescriptorSetLayoutBinding b[VKH_PIPE_MAX_BINDINGS];
		VkDescriptorSetLayoutCreateInfo ci = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
			.bindingCount = desc->binding_count[s],
			.pBindings = b,
		};
		for (uint32_t i = 0; i < desc->binding_count[s]; i++) {
			b[i] = (VkDescriptorSetLayoutBinding){
				.binding = i,
				.descriptorType = desc->types[s][i],
				.descriptorCount = 1,
				.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
			};
			sizes[nsizes++] = (VkDescriptorPoolSize){
				.type = desc->types[s][i],
				.descriptorCount = 1,
			};
		}
		r = vkCreateDescriptorSetLayout(d->device, &ci, NULL,
		                                &p->set_layouts[s]);
		if (r != VK_SUCCESS)
			return r;
		p->set_count = s + 1;
	}
	if (desc->set_count) {
		VkDescriptorPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
			.maxSets = desc->set_count,
			.poolSizeCount = nsizes,
			.pPoolSizes = sizes,
		};
		VkDescriptorSetAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
			.descriptorSetCount = desc->set_count,
			.pSetLayouts = p->set_layouts,
		};
		VkDescriptorPoolSize dummy = {
			.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.descriptorCount = 1,
		};
		/* A pool needs at least one pool size even if every set is
		 * empty. */
		if (!nsizes) {
			pci.poolSizeCount = 1;
			pci.pPoolSizes = &dummy;
		}
		r = vkCreateDescriptorPool(d->device, &pci, NULL, &p->pool);
		if (r != VK_SUCCESS)
			return r;
		ai.descriptorPool = p->pool;
		r = vkAllocateDescriptorSets(d->device, &ai, p->sets);
		if (r != VK_SUCCESS)
			return r;
	}
	return VK_SUCCESS;
}

VkResult
vkh_pipe_create(struct vkh_device *d, const struct vkh_pipe_desc *desc,
                struct vkh_pipe *p)
{
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = desc->spv_size,
		.pCode = desc->spv,
	};
	VkPushConstantRange pcr = {
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		.size = desc->push_bytes,
	};
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.pushConstantRangeCount = desc->push_bytes ? 1 : 0,
		.pPushConstantRanges = &pcr,
	};
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.pNext = desc->pipeline_next,
		.flags = desc->flags,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.pNext = desc->stage_next,
			.flags = desc->stage_flags,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.pName = "main",
			.pSpecializationInfo = desc->spec,
		},
	};
	VkResult r;

	memset(p, 0, sizeof(*p));
	p->push_bytes = desc->push_bytes;
	if (desc->set_count > VKH_PIPE_MAX_SETS) {
		fprintf(stderr, "[vkh] %u sets: too many\n", desc->set_count);
		return VK_ERROR_INITIALIZATION_FAILED;
	}
	r = vkCreateShaderModule(d->device, &smci, NULL, &p->module);
	if (r != VK_SUCCESS)
		goto fail;
	r = create_sets(d, desc, p);
	if (r != VK_SUCCESS)
		goto fail;
	plci.setLayoutCount = p->set_count;
	plci.pSetLayouts = p->set_layouts;
	r = vkCreatePipelineLayout(d->device, &plci, NULL, &p->layout);
	if (r != VK_SUCCESS)
		goto fail;
	cpci.stage.module = p->module;
	cpci.layout = p->layout;
	r = vkCreateComputePipelines(d->device, desc->cache, 1, &cpci, NULL,
	                             &p->pipeline);
	if (r != VK_SUCCESS)
		goto fail;
	return VK_SUCCESS;
fail:
	fprintf(stderr, "[vkh] compute pipeline: %s\n", vkh_result_str(r));
	vkh_pipe_destroy(d, p);
	return r;
}

VkResult
vkh_pipe_create_simple(struct vkh_device *d, const uint32_t *spv,
                       size_t spv_size, uint32_t nbuf, uint32_t push_bytes,
                       const VkSpecializationInfo *spec, struct vkh_pipe *out)
{
	struct vkh_pipe_desc desc = {
		.spv = spv,
		.spv_size = spv_size,
		.set_count = 1,
		.binding_count = { nbuf },
		.push_bytes = push_bytes,
		.spec = spec,
	};

	for (uint32_t i = 0; i < nbuf && i < VKH_PIPE_MAX_BINDINGS; i++)
		desc.types[0][i] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	return vkh_pipe_create(d, &desc, out);
}

void
vkh_pipe_destroy(struct vkh_device *d, struct vkh_pipe *p)
{
	if (!d->device)
		return;
	vkDestroyPipeline(d->device, p->pipeline, NULL);
	vkDestroyPipelineLayout(d->device, p->layout, NULL);
	/* Destroying the pool frees its sets. */
	vkDestroyDescriptorPool(d->device, p->pool, NULL);
	for (uint32_t s = 0; s < p->set_count; s++)
		vkDestroyDescriptorSetLayout(d->device, p->set_layouts[s],
		                             NULL);
	vkDestroyShaderModule(d->device, p->module, NULL);
	memset(p, 0, sizeof(*p));
}

void
vkh_pipe_set_buffer(struct vkh_device *d, struct vkh_pipe *p, uint32_t set,
                    uint32_t binding, VkDescriptorType type, VkBuffer buf,
                    VkDeviceSize offset, VkDeviceSize range)
{
	VkDescriptorBufferInfo bi = {
		.buffer = buf,
		.offset = offset,
		.range = range,
	};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = p->sets[set],
		.dstBinding = binding,
		.descriptorCount = 1,
		.descriptorType = type,
		.pBufferInfo = &bi,
	};

	vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
}

void
vkh_pipe_bind(VkCommandBuffer cb, const struct vkh_pipe *p,
              uint32_t dyn_count, const uint32_t *dyn, const void *push)
{
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
	if (p->set_count)
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
		                        p->layout, 0, p->set_count, p->sets,
		                        dyn_count, dyn);
	if (p->push_bytes && push)
		vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_COMPUTE_BIT,
		                   0, p->push_bytes, push);
}

static void
memory_barrier(VkCommandBuffer cb, VkPipelineStageFlags dst_stage,
               VkAccessFlags dst_access)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = dst_access,
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}

void
vkh_cmd_compute_barrier(VkCommandBuffer cb)
{
	memory_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void
vkh_cmd_compute_host_barrier(VkCommandBuffer cb)
{
	memory_barrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

VkResult
vkh_dispatch_sync(struct vkh_device *d, uint32_t qi, const struct vkh_pipe *p,
                  const void *push, uint32_t gx, uint32_t gy, uint32_t gz)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, qi);

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	vkh_pipe_bind(cb, p, 0, NULL, push);
	vkCmdDispatch(cb, gx, gy, gz);
	vkh_cmd_compute_host_barrier(cb);
	return vkh_cmd_submit_wait(d, qi, cb);
}

VkResult
vkh_host_buffer(struct vkh *h, struct vkh_device *d, VkDeviceSize size,
                VkBufferUsageFlags extra_usage, struct vkh_buffer *out)
{
	VkResult r = vkh_buffer_create(h, d, size,
	                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
	                               extra_usage, VKH_MEM_READBACK, -1, out);

	if (r == VK_SUCCESS && !out->map) {
		fprintf(stderr, "[vkh] readback buffer not mapped\n");
		vkh_buffer_destroy(d, out);
		return VK_ERROR_MEMORY_MAP_FAILED;
	}
	if (r == VK_SUCCESS)
		memset(out->map, 0, size);
	return r;
}

void
vkh_buffer_flush(struct vkh *h, struct vkh_device *d, struct vkh_buffer *b)
{
	VkMappedMemoryRange mr = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.memory = b->memory,
		.size = VK_WHOLE_SIZE,
	};

	if (b->map && !(h->mem.memoryTypes[b->mem_type].propertyFlags &
	                VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
		vkFlushMappedMemoryRanges(d->device, 1, &mr);
}

VkResult
vkh_compute_run(struct vkh *h, struct vkh_device *d, const uint32_t *spv,
                size_t spv_size, struct vkh_buffer *bufs, uint32_t nbuf,
                const void *push, uint32_t push_bytes, uint32_t gx,
                uint32_t gy, uint32_t gz)
{
	struct vkh_pipe p;
	VkResult r;

	r = vkh_pipe_create_simple(d, spv, spv_size, nbuf, push_bytes, NULL,
	                           &p);
	if (r != VK_SUCCESS)
		return r;
	for (uint32_t i = 0; i < nbuf; i++) {
		vkh_pipe_set_buffer(d, &p, 0, i,
		                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		                    bufs[i].buffer, 0, VK_WHOLE_SIZE);
		vkh_buffer_flush(h, d, &bufs[i]);
	}
	r = vkh_dispatch_sync(d, 0, &p, push, gx, gy, gz);
	if (r != VK_SUCCESS)
		fprintf(stderr, "[vkh] dispatch %ux%ux%u: %s\n", gx, gy, gz,
		        vkh_result_str(r));
	for (uint32_t i = 0; i < nbuf; i++)
		vkh_buffer_invalidate(h, d, &bufs[i]);
	vkh_pipe_destroy(d, &p);
	return r;
}

VkResult
vkh_device_create_features(struct vkh *h, VkQueueFlags required,
                           const VkPhysicalDeviceFeatures2 *features,
                           struct vkh_device *out)
{
	return vkh_device_create_features_ext(h, required, features, NULL, 0,
	                                      out);
}

VkResult
vkh_device_create_features_ext(struct vkh *h, VkQueueFlags required,
                               const VkPhysicalDeviceFeatures2 *features,
                               const char *const *exts, uint32_t next,
                               struct vkh_device *out)
{
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = features,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci,
		.enabledExtensionCount = next,
		.ppEnabledExtensionNames = exts,
	};
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
	};
	struct vkh_queue *q = &out->queues[0];
	uint32_t f;
	VkResult r;

	memset(out, 0, sizeof(*out));
	for (f = 0; f < h->family_count; f++)
		if ((h->families[f].queueFlags & required) == required)
			break;
	if (f == h->family_count) {
		fprintf(stderr, "[vkh] no queue family with flags 0x%x\n",
		        required);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	qci.queueFamilyIndex = f;
	r = vkCreateDevice(h->phys, &dci, NULL, &out->device);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "[vkh] vkCreateDevice: %s\n",
		        vkh_result_str(r));
		out->device = VK_NULL_HANDLE;
		return r;
	}
	out->queue_count = 1;
	out->distinct_queues = 1;
	out->distinct_families = 1;
	q->family = f;
	q->flags = h->families[f].queueFlags;
	q->timestamp_valid_bits = h->families[f].timestampValidBits;
	vkGetDeviceQueue(out->device, f, 0, &q->queue);
	pci.queueFamilyIndex = f;
	r = vkCreateCommandPool(out->device, &pci, NULL, &q->pool);
	if (r != VK_SUCCESS)
		vkh_device_destroy(h, out);
	return r;
}

VkResult
vkh_cmd_submit_wait_ns(struct vkh_device *d, uint32_t qi, VkCommandBuffer cb,
                       uint64_t timeout_ns)
{
	VkFenceCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VkFence fence = VK_NULL_HANDLE;
	VkResult r;

	if (!cb)
		return VK_ERROR_INITIALIZATION_FAILED;
	r = vkEndCommandBuffer(cb);
	if (r == VK_SUCCESS)
		r = vkCreateFence(d->device, &fci, d->alloc, &fence);
	if (r == VK_SUCCESS)
		r = vkQueueSubmit(d->queues[qi].queue, 1, &si, fence);
	if (r == VK_SUCCESS) {
		r = vkWaitForFences(d->device, 1, &fence, VK_TRUE, timeout_ns);
		if (r == VK_TIMEOUT) {
			fprintf(stderr, "[vkh] submit on queue %u: not done "
			        "after %llu ms\n", qi,
			        (unsigned long long)(timeout_ns / 1000000));
			return r;
		}
	}
	if (fence)
		vkDestroyFence(d->device, fence, d->alloc);
	vkFreeCommandBuffers(d->device, d->queues[qi].pool, 1, &cb);
	return r;
}
