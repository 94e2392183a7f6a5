/* SPDX-License-Identifier: MIT */
/*
 * Compute-figure plumbing (bench_kernel.h): pipelines over storage
 * buffers, untimed transfers on the compute queue, timed dispatches.
 */
#include "bench_kernel.h"

#include <string.h>

void
bench_kernel_destroy(struct bench_vk *vk, struct bench_kernel *k)
{
	VkDevice d = vk->device;

	if (k->pipeline)
		vkDestroyPipeline(d, k->pipeline, NULL);
	if (k->layout)
		vkDestroyPipelineLayout(d, k->layout, NULL);
	if (k->pool)
		vkDestroyDescriptorPool(d, k->pool, NULL);
	if (k->dsl)
		vkDestroyDescriptorSetLayout(d, k->dsl, NULL);
	memset(k, 0, sizeof(*k));
}

/* A compute pipeline over nbuf storage buffers (bindings 0..nbuf-1) with
 * push_size bytes of push constants. */
VkResult
bench_kernel_create(struct bench_vk *vk, const uint32_t *code,
                    size_t code_size, struct bench_buffer **bufs,
                    uint32_t nbuf, uint32_t push_size,
                    struct bench_kernel *k)
{
	VkDescriptorSetLayoutBinding b[4];
	VkDescriptorBufferInfo bi[4];
	VkWriteDescriptorSet w[4];
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nbuf };
	VkPushConstantRange pc = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size };
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = code_size,
		.pCode = code,
	};
	VkDescriptorSetLayoutCreateInfo dslci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = nbuf,
		.pBindings = b,
	};
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pushConstantRangeCount = 1,
		.pPushConstantRanges = &pc,
	};
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType =
			VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.pName = "main",
		},
	};
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1,
		.poolSizeCount = 1,
		.pPoolSizes = &ps,
	};
	VkDescriptorSetAllocateInfo dsai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorSetCount = 1,
	};
	VkShaderModule module = VK_NULL_HANDLE;
	VkResult r;

	memset(k, 0, sizeof(*k));
	for (uint32_t i = 0; i < nbuf; i++) {
		b[i] = (VkDescriptorSetLayoutBinding){
			.binding = i,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.descriptorCount = 1,
			.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		};
		bi[i] = (VkDescriptorBufferInfo){ bufs[i]->buffer, 0,
		                                  VK_WHOLE_SIZE };
	}
	r = vkCreateDescriptorSetLayout(vk->device, &dslci, NULL, &k->dsl);
	plci.pSetLayouts = &k->dsl;
	if (r == VK_SUCCESS)
		r = vkCreatePipelineLayout(vk->device, &plci, NULL, &k->layout);
	if (r == VK_SUCCESS)
		r = vkCreateShaderModule(vk->device, &smci, NULL, &module);
	cpci.stage.module = module;
	cpci.layout = k->layout;
	if (r == VK_SUCCESS)
		r = vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1,
		                             &cpci, NULL, &k->pipeline);
	/* The pipeline holds what it needs of the module. */
	if (module)
		vkDestroyShaderModule(vk->device, module, NULL);
	if (r == VK_SUCCESS)
		r = vkCreateDescriptorPool(vk->device, &dpci, NULL, &k->pool);
	dsai.descriptorPool = k->pool;
	dsai.pSetLayouts = &k->dsl;
	if (r == VK_SUCCESS)
		r = vkAllocateDescriptorSets(vk->device, &dsai, &k->set);
	if (r != VK_SUCCESS)
		return r;
	for (uint32_t i = 0; i < nbuf; i++)
		w[i] = (VkWriteDescriptorSet){
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.dstSet = k->set,
			.dstBinding = i,
			.descriptorCount = 1,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.pBufferInfo = &bi[i],
		};
	vkUpdateDescriptorSets(vk->device, nbuf, w, 0, NULL);
	return VK_SUCCESS;
}

/* Untimed on the compute queue: copy (or, with from == NULL, poison) a
 * buffer; with host_read the result is made visible to the host. */
VkResult
bench_untimed(struct bench_vk *vk, struct bench_buffer *from,
              struct bench_buffer *to, VkDeviceSize size, bool host_read)
{
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->compute);
	VkBufferCopy c = { .size = size };
	VkResult r;

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	/* The dispatch before wrote with the shader. */
	bench_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	              VK_ACCESS_SHADER_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT |
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	if (from)
		vkCmdCopyBuffer(cb, from->buffer, to->buffer, 1, &c);
	else
		vkCmdFillBuffer(cb, to->buffer, 0, size, 0xdeadbeefu);
	if (host_read)
		bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
		              VK_ACCESS_TRANSFER_WRITE_BIT,
		              VK_PIPELINE_STAGE_HOST_BIT,
		              VK_ACCESS_HOST_READ_BIT);
	bench_cmd_end(cb);
	r = bench_submit_wait(vk, &vk->compute, cb, NULL);
	bench_cmd_free(vk, &vk->compute, cb);
	return r;
}

/* Workgroup grid for `groups` workgroups: x up to 1024, y the rest
 * (groups is a power of two, so it divides exactly). */
void
bench_grid(uint32_t groups, uint32_t *gx, uint32_t *gy)
{
	*gx = groups < 1024 ? groups : 1024;
	*gy = groups / *gx;
}

void
bench_kernel_record(VkCommandBuffer cb, const struct bench_kernel *k,
                    const void *push, uint32_t push_size, uint32_t gx,
                    uint32_t gy)
{
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout,
	                        0, 1, &k->set, 0, NULL);
	vkCmdPushConstants(cb, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
	                   push_size, push);
	vkCmdDispatch(cb, gx, gy, 1);
}

uint64_t
bench_timed_dispatch(struct bench_vk *vk, struct bench_kernel *k,
                     const void *push, uint32_t push_size, uint32_t groups,
                     bool *ok)
{
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->compute);
	uint32_t gx, gy;
	uint64_t ns = 0;

	*ok = false;
	if (!cb)
		return 0;
	bench_grid(groups, &gx, &gy);
	bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
	bench_kernel_record(cb, k, push, push_size, gx, gy);
	bench_cmd_end(cb);
	*ok = bench_submit_wait(vk, &vk->compute, cb, &ns) == VK_SUCCESS;
	bench_cmd_free(vk, &vk->compute, cb);
	return ns;
}

void
bench_compute_barrier(VkCommandBuffer cb)
{
	bench_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	              VK_ACCESS_SHADER_WRITE_BIT,
	              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

double
bench_ns_to_ms(void *ctx, uint64_t ns)
{
	(void)ctx;
	return (double)ns / 1e6;
}

static bool
compute_run_once(struct bench_vk *vk, const struct bench_compute_figure *f,
                 uint64_t *ns)
{
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->compute);
	VkResult r;

	if (!cb)
		return false;
	bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
	f->record(f->ctx, cb);
	r = bench_cmd_end(cb);
	if (r == VK_SUCCESS)
		r = bench_submit_wait(vk, &vk->compute, cb, ns);
	bench_cmd_free(vk, &vk->compute, cb);
	return r == VK_SUCCESS;
}

void
bench_compute_run(struct bench_vk *vk, const struct bench_opts *o,
                  struct bench_buffer *rb,
                  const struct bench_compute_figure *f)
{
	struct bench_result r = {
		.figure = f->figure, .unit = f->unit, .verified = true,
	};
	double s[64];
	unsigned n = 0;

	for (unsigned i = 0; i < o->warmup + o->runs && n < 64; i++) {
		uint64_t ns = 0;

		if (f->prepare(f->ctx) != VK_SUCCESS ||
		    !compute_run_once(vk, f, &ns) ||
		    bench_untimed(vk, f->out, rb, f->out_size, true) !=
		    VK_SUCCESS)
			break;
		bench_buffer_invalidate(vk, rb);
		if (!f->check(f->ctx, rb->map))
			break;
		if (i >= o->warmup)
			s[n++] = f->value(f->ctx, ns);
	}
	if (n < o->runs) {
		fprintf(stderr, "swgpu_bench: %s failed or wrong after %u "
		        "runs\n", f->figure, n);
		r.verified = false;
		bench_failed = true;
	}
	bench_stats(&r, s, n);
	bench_report(vk->driver, &r);
}
