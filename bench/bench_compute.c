/* SPDX-License-Identifier: MIT */
/*
 * Compute figures (issue 5): SAXPY over n floats and a shared-memory
 * reduction over n uints, in ms per dispatch (submit -> fence). Inputs are
 * small integers, so a*x+y is exact in float with or without FMA and the
 * host checks every output element of every run, into a poisoned buffer.
 * Skipped (n/a) when no queue family has COMPUTE.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "reduce.spv.h"
#include "saxpy.spv.h"

#define LOCAL_SIZE 128u
#define REDUCE_PER_INVOCATION 8u
#define SAXPY_A 3.0f
#define SSBO_USAGE (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | \
                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT)

struct kernel {
	VkDescriptorSetLayout dsl;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkDescriptorPool pool;
	VkDescriptorSet set;
};

static void
kernel_destroy(struct bench_vk *vk, struct kernel *k)
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
static VkResult
kernel_create(struct bench_vk *vk, const uint32_t *code, size_t code_size,
              struct bench_buffer **bufs, uint32_t nbuf, uint32_t push_size,
              struct kernel *k)
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
static VkResult
untimed(struct bench_vk *vk, struct bench_buffer *from,
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
static void
grid(uint32_t groups, uint32_t *gx, uint32_t *gy)
{
	*gx = groups < 1024 ? groups : 1024;
	*gy = groups / *gx;
}

static uint64_t
timed_dispatch(struct bench_vk *vk, struct kernel *k, const void *push,
               uint32_t push_size, uint32_t groups, bool *ok)
{
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->compute);
	uint32_t gx, gy;
	uint64_t ns = 0;

	*ok = false;
	if (!cb)
		return 0;
	grid(groups, &gx, &gy);
	bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout,
	                        0, 1, &k->set, 0, NULL);
	vkCmdPushConstants(cb, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
	                   push_size, push);
	vkCmdDispatch(cb, gx, gy, 1);
	bench_cmd_end(cb);
	*ok = bench_submit_wait(vk, &vk->compute, cb, &ns) == VK_SUCCESS;
	bench_cmd_free(vk, &vk->compute, cb);
	return ns;
}

struct compute_ctx {
	struct bench_vk *vk;
	const struct bench_opts *o;
	uint32_t n;
	struct bench_buffer up, rb, x, y, z;
	float *want_z;
	uint32_t *want_partial;
};

static void
saxpy_figure(struct compute_ctx *c)
{
	struct bench_vk *vk = c->vk;
	struct bench_result r = {
		.figure = "saxpy", .unit = "ms", .verified = true,
	};
	struct bench_buffer *bufs[3] = { &c->x, &c->y, &c->z };
	struct { float a; uint32_t n; } push = { SAXPY_A, c->n };
	VkDeviceSize bytes = (VkDeviceSize)c->n * 4;
	struct kernel k;
	double s[64];
	unsigned n = 0;
	VkResult res;

	res = kernel_create(vk, saxpy_spv, sizeof(saxpy_spv), bufs, 3,
	                    sizeof(push), &k);
	for (unsigned i = 0; res == VK_SUCCESS &&
	     i < c->o->warmup + c->o->runs && n < 64; i++) {
		bool ok;
		uint64_t ns;

		if (untimed(vk, NULL, &c->z, bytes, false))
			break;
		ns = timed_dispatch(vk, &k, &push, sizeof(push),
		                    c->n / LOCAL_SIZE, &ok);
		if (!ok || untimed(vk, &c->z, &c->rb, bytes, true))
			break;
		bench_buffer_invalidate(vk, &c->rb);
		if (!bench_check("saxpy", c->rb.map, c->want_z, bytes))
			break;
		if (i >= c->o->warmup)
			s[n++] = (double)ns / 1e6;
	}
	if (res != VK_SUCCESS)
		fprintf(stderr, "swgpu_bench: saxpy pipeline: %s\n",
		        bench_vk_result(res));
	if (n < c->o->runs) {
		r.verified = false;
		bench_failed = true;
	}
	bench_stats(&r, s, n);
	bench_report(vk->driver, &r);
	kernel_destroy(vk, &k);
}

static void
reduce_figure(struct compute_ctx *c)
{
	struct bench_vk *vk = c->vk;
	struct bench_result r = {
		.figure = "reduce", .unit = "ms", .verified = true,
	};
	/* x holds the uint input; z receives one sum per workgroup. */
	struct bench_buffer *bufs[2] = { &c->x, &c->z };
	uint32_t push = c->n;
	uint32_t groups = c->n / (LOCAL_SIZE * REDUCE_PER_INVOCATION);
	VkDeviceSize bytes = (VkDeviceSize)groups * 4;
	struct kernel k;
	double s[64];
	unsigned n = 0;
	VkResult res;

	res = kernel_create(vk, reduce_spv, sizeof(reduce_spv), bufs, 2,
	                    sizeof(push), &k);
	for (unsigned i = 0; res == VK_SUCCESS &&
	     i < c->o->warmup + c->o->runs && n < 64; i++) {
		bool ok;
		uint64_t ns;

		if (untimed(vk, NULL, &c->z, bytes, false))
			break;
		ns = timed_dispatch(vk, &k, &push, sizeof(push), groups, &ok);
		if (!ok || untimed(vk, &c->z, &c->rb, bytes, true))
			break;
		bench_buffer_invalidate(vk, &c->rb);
		if (!bench_check("reduce", c->rb.map, c->want_partial, bytes))
			break;
		if (i >= c->o->warmup)
			s[n++] = (double)ns / 1e6;
	}
	if (res != VK_SUCCESS)
		fprintf(stderr, "swgpu_bench: reduce pipeline: %s\n",
		        bench_vk_result(res));
	if (n < c->o->runs) {
		r.verified = false;
		bench_failed = true;
	}
	bench_stats(&r, s, n);
	bench_report(vk->driver, &r);
	kernel_destroy(vk, &k);
}

/* Inputs into x and y through the upload buffer; expected outputs. */
static VkResult
compute_inputs(struct compute_ctx *c, bool for_reduce)
{
	VkDeviceSize bytes = (VkDeviceSize)c->n * 4;
	float *f = c->up.map;
	uint32_t *u = c->up.map;
	VkResult r;

	if (!for_reduce) {
		for (uint32_t i = 0; i < c->n; i++)
			f[i] = (float)(i % 1000);
		r = untimed(c->vk, &c->up, &c->x, bytes, false);
		for (uint32_t i = 0; i < c->n; i++) {
			f[i] = (float)(i % 777);
			c->want_z[i] = SAXPY_A * (float)(i % 1000) + f[i];
		}
		if (r == VK_SUCCESS)
			r = untimed(c->vk, &c->up, &c->y, bytes, false);
		return r;
	}
	memset(c->want_partial, 0,
	       c->n / (LOCAL_SIZE * REDUCE_PER_INVOCATION) * 4);
	for (uint32_t i = 0; i < c->n; i++) {
		u[i] = i * 2654435761u;
		c->want_partial[i / (LOCAL_SIZE * REDUCE_PER_INVOCATION)] +=
			u[i];
	}
	return untimed(c->vk, &c->up, &c->x, bytes, false);
}

bool
bench_compute(struct bench_vk *vk, const struct bench_opts *o)
{
	struct compute_ctx c = { .vk = vk, .o = o, .n = o->compute_n };
	VkDeviceSize bytes = (VkDeviceSize)c.n * 4;
	VkResult r = VK_SUCCESS;

	if (!vk->has_compute) {
		bench_report_na(vk->driver, "saxpy", "ms", "no-compute-queue");
		bench_report_na(vk->driver, "reduce", "ms", "no-compute-queue");
		return true;
	}
	c.want_z = malloc(bytes);
	c.want_partial = malloc(bytes);
	if (!c.want_z || !c.want_partial)
		r = VK_ERROR_OUT_OF_HOST_MEMORY;
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, SSBO_USAGE,
		                        BENCH_MEM_UPLOAD, &c.up);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, SSBO_USAGE,
		                        BENCH_MEM_READBACK, &c.rb);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.x);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.y);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.z);
	if (r == VK_SUCCESS)
		r = compute_inputs(&c, false);
	if (r == VK_SUCCESS)
		saxpy_figure(&c);
	if (r == VK_SUCCESS)
		r = compute_inputs(&c, true);
	if (r == VK_SUCCESS)
		reduce_figure(&c);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: compute setup: %s\n",
		        bench_vk_result(r));
		bench_failed = true;
	}
	bench_buffer_destroy(vk, &c.up);
	bench_buffer_destroy(vk, &c.rb);
	bench_buffer_destroy(vk, &c.x);
	bench_buffer_destroy(vk, &c.y);
	bench_buffer_destroy(vk, &c.z);
	free(c.want_z);
	free(c.want_partial);
	return r == VK_SUCCESS;
}
