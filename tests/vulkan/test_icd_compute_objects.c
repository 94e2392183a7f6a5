/* SPDX-License-Identifier: MIT */
/*
 * The compute objects of a Vulkan driver, through the loader with the
 * validation layer: descriptor pools (limits, free, reset, fragmentation),
 * descriptor updates (writes rolling over consecutive bindings, copies,
 * update templates), pipeline layouts with push constants, dynamic offsets
 * across sets, specialization constants, vkCmdDispatchBase and
 * vkCmdDispatchIndirect; pipeline caches (header, two-call idiom,
 * truncation, foreign data ignored, merge), SPIR-V header checks and
 * pipeline layouts are in test_icd_compute_pipeline.c.
 *
 * Every shader-visible result is checked on the host. Runs on any driver
 * with a COMPUTE queue; the swgpu-only checks (exact error codes where the
 * spec leaves a choice) are marked.
 */
#include <stdlib.h>
#include <string.h>

#include "test_icd_compute_objects.h"

#include "ico_add.spv.h"
#include "ico_dyn.spv.h"
#include "ico_groups.spv.h"

const size_t ico_add_spv_size = sizeof(ico_add_spv);
const size_t ico_groups_spv_size = sizeof(ico_groups_spv);

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

VkResult
make_set_layout(struct vkh_device *d, uint32_t n, const VkDescriptorType *t,
                VkDescriptorSetLayout *out)
{
	VkDescriptorSetLayoutBinding b[8];
	VkDescriptorSetLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = n,
		.pBindings = b,
	};

	for (uint32_t i = 0; i < n; i++)
		b[i] = (VkDescriptorSetLayoutBinding){
			.binding = i,
			.descriptorType = t[i],
			.descriptorCount = 1,
			.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		};
	return vkCreateDescriptorSetLayout(d->device, &ci, NULL, out);
}

VkResult
make_pipeline(struct vkh_device *d, const uint32_t *spv, size_t spv_size,
              uint32_t nsets, const VkDescriptorSetLayout *sets,
              uint32_t push_size, const VkSpecializationInfo *spec,
              VkPipelineCreateFlags flags, VkPipelineCache cache,
              struct pipe *out)
{
	VkShaderModuleCreateInfo mci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = spv_size,
		.pCode = spv,
	};
	VkPushConstantRange range = {
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		.size = push_size,
	};
	VkPipelineLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = nsets,
		.pSetLayouts = sets,
		.pushConstantRangeCount = push_size ? 1 : 0,
		.pPushConstantRanges = &range,
	};
	VkComputePipelineCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.flags = flags,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.pName = "main",
			.pSpecializationInfo = spec,
		},
	};
	VkShaderModule module;
	VkResult r;

	memset(out, 0, sizeof(*out));
	r = vkCreateShaderModule(d->device, &mci, NULL, &module);
	if (r != VK_SUCCESS)
		return r;
	r = vkCreatePipelineLayout(d->device, &lci, NULL, &out->layout);
	if (r == VK_SUCCESS) {
		pci.stage.module = module;
		pci.layout = out->layout;
		r = vkCreateComputePipelines(d->device, cache, 1, &pci, NULL,
		                             &out->pipeline);
	}
	/* A module may go as soon as its pipelines exist. */
	vkDestroyShaderModule(d->device, module, NULL);
	return r;
}

void
destroy_pipeline(struct vkh_device *d, struct pipe *p)
{
	vkDestroyPipeline(d->device, p->pipeline, NULL);
	vkDestroyPipelineLayout(d->device, p->layout, NULL);
}

VkResult
make_pool(struct vkh_device *d, VkDescriptorPoolCreateFlags flags,
          uint32_t max_sets, VkDescriptorType type, uint32_t count,
          VkDescriptorPool *out)
{
	VkDescriptorPoolSize size = { .type = type, .descriptorCount = count };
	VkDescriptorPoolCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.flags = flags,
		.maxSets = max_sets,
		.poolSizeCount = 1,
		.pPoolSizes = &size,
	};

	return vkCreateDescriptorPool(d->device, &ci, NULL, out);
}

VkResult
alloc_set(struct vkh_device *d, VkDescriptorPool pool,
          VkDescriptorSetLayout layout, VkDescriptorSet *out)
{
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = pool,
		.descriptorSetCount = 1,
		.pSetLayouts = &layout,
	};

	return vkAllocateDescriptorSets(d->device, &ai, out);
}

void
write_buffer(struct vkh_device *d, VkDescriptorSet set, uint32_t binding,
             VkDescriptorType type, VkBuffer buf, VkDeviceSize offset,
             VkDeviceSize range)
{
	VkDescriptorBufferInfo bi = { buf, offset, range };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = set,
		.dstBinding = binding,
		.descriptorCount = 1,
		.descriptorType = type,
		.pBufferInfo = &bi,
	};

	vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
}

/* Compute writes -> host reads (and compute reads after transfer/host
 * writes are covered by the submission's implicit host ordering). */
void
compute_to_host(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
	                     0, NULL);
}

/* Run the add pipeline with set `set` bound, add/n pushed in two pieces. */
static VkResult
run_add(struct vkh_device *d, const struct pipe *p, VkDescriptorSet set,
        uint32_t add, uint32_t n)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);

	if (!cb)
		return VK_ERROR_UNKNOWN;
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout,
	                        0, 1, &set, 0, NULL);
	vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 16, 4,
	                   &n);
	vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4,
	                   &add);
	vkCmdDispatch(cb, (n + 63) / 64, 1, 1);
	compute_to_host(cb);
	return vkh_cmd_submit_wait(d, 0, cb);
}

/* ------------------------------------------------------------------ */
/* Descriptor pools                                                    */
/* ------------------------------------------------------------------ */

static void
test_descriptor_pool_limits(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t[2] = { SSBO, SSBO };
	VkDescriptorSetLayout one, two;
	VkDescriptorSet s[4];
	VkDescriptorPool pool;
	VkResult r;

	VKH_CHECK_VK(h, make_set_layout(d, 1, t, &one));
	VKH_CHECK_VK(h, make_set_layout(d, 2, t, &two));

	/* maxSets: swgpu refuses the third set with OUT_OF_POOL_MEMORY
	 * (the descriptors would fit); the spec lets other drivers
	 * succeed (lavapipe does). */
	VKH_CHECK_VK(h, make_pool(d, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
	                          2, SSBO, 8, &pool));
	VKH_CHECK_VK(h, alloc_set(d, pool, one, &s[0]));
	VKH_CHECK_VK(h, alloc_set(d, pool, one, &s[1]));
	if (h->is_swgpu) {
		r = alloc_set(d, pool, one, &s[2]);
		VKH_CHECK_MSG(h, r == VK_ERROR_OUT_OF_POOL_MEMORY,
		              "set beyond maxSets: %s", vkh_result_str(r));
		VKH_CHECK(h, s[2] == VK_NULL_HANDLE);
	}
	/* Free one, allocate again: the slot is reusable. */
	VKH_CHECK_VK(h, vkFreeDescriptorSets(d->device, pool, 1, &s[0]));
	VKH_CHECK_VK(h, alloc_set(d, pool, one, &s[0]));
	/* Reset frees everything. */
	VKH_CHECK_VK(h, vkResetDescriptorPool(d->device, pool, 0));
	VKH_CHECK_VK(h, alloc_set(d, pool, two, &s[0]));
	VKH_CHECK_VK(h, alloc_set(d, pool, two, &s[1]));
	vkDestroyDescriptorPool(d->device, pool, NULL);

	/* Fragmentation: 3 descriptors, sets A B C of one each, free A and
	 * C: 2 free descriptors but no 2 in a row. swgpu keeps sets
	 * contiguous and says FRAGMENTED_POOL; other drivers may succeed. */
	VKH_CHECK_VK(h, make_pool(d, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
	                          4, SSBO, 3, &pool));
	for (int i = 0; i < 3; i++)
		VKH_CHECK_VK(h, alloc_set(d, pool, one, &s[i]));
	VKH_CHECK_VK(h, vkFreeDescriptorSets(d->device, pool, 1, &s[0]));
	VKH_CHECK_VK(h, vkFreeDescriptorSets(d->device, pool, 1, &s[2]));
	r = alloc_set(d, pool, two, &s[3]);
	if (h->is_swgpu)
		VKH_CHECK_MSG(h, r == VK_ERROR_FRAGMENTED_POOL,
		              "fragmented pool: %s", vkh_result_str(r));
	else
		VKH_CHECK_MSG(h, r == VK_SUCCESS ||
		              r == VK_ERROR_FRAGMENTED_POOL ||
		              r == VK_ERROR_OUT_OF_POOL_MEMORY,
		              "fragmented pool: %s", vkh_result_str(r));
	/* Freeing B makes room for the two-descriptor set. */
	VKH_CHECK_VK(h, vkFreeDescriptorSets(d->device, pool, 1, &s[1]));
	if (r != VK_SUCCESS)
		VKH_CHECK_VK(h, alloc_set(d, pool, two, &s[3]));
	vkDestroyDescriptorPool(d->device, pool, NULL);

	/* A pool without FREE_DESCRIPTOR_SET: reset and refill. */
	VKH_CHECK_VK(h, make_pool(d, 0, 3, SSBO, 3, &pool));
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 3; i++)
			VKH_CHECK_VK(h, alloc_set(d, pool, one, &s[i]));
		VKH_CHECK_VK(h, vkResetDescriptorPool(d->device, pool, 0));
	}
	vkDestroyDescriptorPool(d->device, pool, NULL);

	/* Layouts may go before their sets' pool. */
	VKH_CHECK_VK(h, make_pool(d, 0, 1, SSBO, 2, &pool));
	VKH_CHECK_VK(h, alloc_set(d, pool, two, &s[0]));
	vkDestroyDescriptorSetLayout(d->device, one, NULL);
	vkDestroyDescriptorSetLayout(d->device, two, NULL);
	vkDestroyDescriptorPool(d->device, pool, NULL);
}

static void
test_descriptor_layout_support(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorSetLayoutBinding b = {
		.binding = 3,
		.descriptorType = SSBO,
		.descriptorCount = 4,
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
	};
	VkDescriptorSetLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1,
		.pBindings = &b,
	};
	VkDescriptorSetLayoutSupport sup = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT,
	};
	VkDescriptorSetLayout layout;

	vkGetDescriptorSetLayoutSupport(d->device, &ci, &sup);
	VKH_CHECK(h, sup.supported == VK_TRUE);
	/* A sparse binding number and an empty layout are both fine. */
	VKH_CHECK_VK(h, vkCreateDescriptorSetLayout(d->device, &ci, NULL,
	                                            &layout));
	vkDestroyDescriptorSetLayout(d->device, layout, NULL);
	ci.bindingCount = 0;
	VKH_CHECK_VK(h, vkCreateDescriptorSetLayout(d->device, &ci, NULL,
	                                            &layout));
	vkDestroyDescriptorSetLayout(d->device, layout, NULL);
}

/* ------------------------------------------------------------------ */
/* Descriptor updates through a shader                                 */
/* ------------------------------------------------------------------ */

#define N_ADD 200u

static bool
check_add(struct vkh *h, const struct vkh_buffer *dst, uint32_t add,
          uint32_t n, const char *what)
{
	const uint32_t *v = dst->map;

	for (uint32_t i = 0; i < n; i++) {
		if (v[i] != i * 3 + add) {
			vkh_fail(h, __FILE__, __LINE__, "%s: dst[%u] = %u, "
			         "want %u", what, i, v[i], i * 3 + add);
			return false;
		}
	}
	/* Nothing past n: the guard in the shader holds. */
	if (v[n] != 0xdeadbeef) {
		vkh_fail(h, __FILE__, __LINE__, "%s: dst[%u] overwritten",
		         what, n);
		return false;
	}
	return true;
}

static void
reset_dst(struct vkh_buffer *dst)
{
	uint32_t *v = dst->map;

	for (uint32_t i = 0; i <= N_ADD; i++)
		v[i] = 0xdeadbeef;
}

static void
test_descriptor_updates(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t[2] = { SSBO, SSBO };
	VkDescriptorSetLayout layout;
	VkDescriptorPool pool;
	VkDescriptorSet a, b, c;
	struct vkh_buffer src, dst;
	struct pipe p;
	uint32_t *sv;

	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 4 * (N_ADD + 1),
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_UPLOAD, -1, &src));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 4 * (N_ADD + 1),
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_READBACK, -1, &dst));
	sv = src.map;
	for (uint32_t i = 0; i <= N_ADD; i++)
		sv[i] = i * 3;
	VKH_CHECK_VK(h, make_set_layout(d, 2, t, &layout));
	VKH_CHECK_VK(h, make_pipeline(d, ico_add_spv, sizeof(ico_add_spv), 1,
	                              &layout, 20, NULL, 0, VK_NULL_HANDLE,
	                              &p));
	VKH_CHECK_VK(h, make_pool(d, 0, 3, SSBO, 6, &pool));
	VKH_CHECK_VK(h, alloc_set(d, pool, layout, &a));
	VKH_CHECK_VK(h, alloc_set(d, pool, layout, &b));
	VKH_CHECK_VK(h, alloc_set(d, pool, layout, &c));

	/* One write of two descriptors from binding 0 rolls over into
	 * binding 1 (same type and stages: consecutive binding update). */
	{
		VkDescriptorBufferInfo bi[2] = {
			{ src.buffer, 0, VK_WHOLE_SIZE },
			{ dst.buffer, 0, 4 * (N_ADD + 1) },
		};
		VkWriteDescriptorSet w = {
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.dstSet = a,
			.dstBinding = 0,
			.descriptorCount = 2,
			.descriptorType = SSBO,
			.pBufferInfo = bi,
		};
		vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
	}
	reset_dst(&dst);
	VKH_CHECK_VK(h, run_add(d, &p, a, 7, N_ADD));
	if (!check_add(h, &dst, 7, N_ADD, "write with rollover"))
		return;

	/* Copy both descriptors of a into b (one copy, rolling over). */
	{
		VkCopyDescriptorSet cp = {
			.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
			.srcSet = a,
			.srcBinding = 0,
			.dstSet = b,
			.dstBinding = 0,
			.descriptorCount = 2,
		};
		vkUpdateDescriptorSets(d->device, 0, NULL, 1, &cp);
	}
	reset_dst(&dst);
	VKH_CHECK_VK(h, run_add(d, &p, b, 1000, N_ADD - 1));
	if (!check_add(h, &dst, 1000, N_ADD - 1, "copied set"))
		return;

	/* A template with its own data layout (interleaved, stride 48):
	 * src from entry 0, dst from entry 1. */
	{
		struct {
			uint32_t tag;
			uint32_t pad;
			VkDescriptorBufferInfo dst_info;
			VkDescriptorBufferInfo src_info;
		} data = {
			.tag = 0x1234,
			.dst_info = { dst.buffer, 0, VK_WHOLE_SIZE },
			.src_info = { src.buffer, 0, VK_WHOLE_SIZE },
		};
		VkDescriptorUpdateTemplateEntry e[2] = {
			{ .dstBinding = 0, .descriptorCount = 1,
			  .descriptorType = SSBO,
			  .offset = offsetof(__typeof__(data), src_info),
			  .stride = sizeof(VkDescriptorBufferInfo) },
			{ .dstBinding = 1, .descriptorCount = 1,
			  .descriptorType = SSBO,
			  .offset = offsetof(__typeof__(data), dst_info),
			  .stride = sizeof(VkDescriptorBufferInfo) },
		};
		VkDescriptorUpdateTemplateCreateInfo tci = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
			.descriptorUpdateEntryCount = 2,
			.pDescriptorUpdateEntries = e,
			.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
			.descriptorSetLayout = layout,
		};
		VkDescriptorUpdateTemplate tmpl;

		VKH_CHECK_VK(h, vkCreateDescriptorUpdateTemplate(
			d->device, &tci, NULL, &tmpl));
		vkUpdateDescriptorSetWithTemplate(d->device, c, tmpl, &data);
		vkDestroyDescriptorUpdateTemplate(d->device, tmpl, NULL);
	}
	reset_dst(&dst);
	VKH_CHECK_VK(h, run_add(d, &p, c, 5, 64));
	if (!check_add(h, &dst, 5, 64, "template"))
		return;

	/* swgpu: the descriptor's range bounds the shader's stores
	 * (robustBufferAccess semantics: stores past it are dropped). */
	if (h->is_swgpu) {
		uint32_t *v = dst.map;

		write_buffer(d, c, 1, SSBO, dst.buffer, 0, 40);
		reset_dst(&dst);
		VKH_CHECK_VK(h, run_add(d, &p, c, 1, 20));
		for (uint32_t i = 0; i <= 20; i++)
			VKH_CHECK_MSG(h, v[i] == (i < 10 ? i * 3 + 1 :
			                          0xdeadbeef),
			              "range 40: dst[%u] = 0x%x", i, v[i]);
	}

	/* Rewriting a set after use takes effect for the next submit: src
	 * now starts minStorageBufferOffsetAlignment bytes in. */
	{
		VkDeviceSize off = h->props.limits.minStorageBufferOffsetAlignment;
		uint32_t *v = dst.map;

		if (off < 4)
			off = 4;
		if (off <= 4 * 100) {
			write_buffer(d, a, 0, SSBO, src.buffer, off,
			             VK_WHOLE_SIZE);
			reset_dst(&dst);
			VKH_CHECK_VK(h, run_add(d, &p, a, 0, 50));
			for (uint32_t i = 0; i < 50; i++)
				VKH_CHECK_MSG(h, v[i] == (i + off / 4) * 3,
				              "rewritten set: dst[%u] = %u",
				              i, v[i]);
		}
	}

	vkDestroyDescriptorPool(d->device, pool, NULL);
	destroy_pipeline(d, &p);
	vkDestroyDescriptorSetLayout(d->device, layout, NULL);
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &dst);
}

/* ------------------------------------------------------------------ */
/* Dynamic offsets across two sets                                     */
/* ------------------------------------------------------------------ */

static void
test_dynamic_offsets(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t0[1] = { SSBO_DYN };
	VkDescriptorType t1[2] = { UBO_DYN, SSBO_DYN };
	const VkPhysicalDeviceLimits *lim = &h->props.limits;
	VkDeviceSize sa = lim->minStorageBufferOffsetAlignment;
	VkDeviceSize ua = lim->minUniformBufferOffsetAlignment;
	VkDeviceSize align = sa > ua ? sa : ua;
	VkDescriptorSetLayout layouts[2];
	VkDescriptorPoolSize sizes[2] = {
		{ SSBO_DYN, 2 }, { UBO_DYN, 1 },
	};
	VkDescriptorPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 2,
		.poolSizeCount = 2,
		.pPoolSizes = sizes,
	};
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorSetCount = 2,
		.pSetLayouts = layouts,
	};
	struct vkh_buffer src, uni, dst;
	VkDescriptorPool pool;
	VkDescriptorSet sets[2];
	struct pipe p;
	uint8_t *sp, *up;
	uint32_t *dp;

	/* Three slots per buffer, each `align` apart (>= 64 bytes for the
	 * 16 uints of the shader). */
	if (align < 64)
		align = 64;
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 3 * align,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_UPLOAD, -1, &src));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 3 * align,
	                                  VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
	                                  VKH_MEM_UPLOAD, -1, &uni));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 3 * align,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_READBACK, -1, &dst));
	sp = src.map;
	up = uni.map;
	dp = dst.map;
	for (uint32_t slot = 0; slot < 3; slot++) {
		uint32_t *s = (uint32_t *)(sp + slot * align);
		uint32_t *u = (uint32_t *)(up + slot * align);

		for (uint32_t i = 0; i < 16; i++)
			s[i] = 100 * (slot + 1) + i;
		*u = slot + 2; /* multipliers 2, 3, 4 */
	}
	memset(dp, 0xff, 3 * align);

	VKH_CHECK_VK(h, make_set_layout(d, 1, t0, &layouts[0]));
	VKH_CHECK_VK(h, make_set_layout(d, 2, t1, &layouts[1]));
	VKH_CHECK_VK(h, make_pipeline(d, ico_dyn_spv, sizeof(ico_dyn_spv), 2,
	                              layouts, 0, NULL, 0, VK_NULL_HANDLE,
	                              &p));
	VKH_CHECK_VK(h, vkCreateDescriptorPool(d->device, &pci, NULL, &pool));
	ai.descriptorPool = pool;
	VKH_CHECK_VK(h, vkAllocateDescriptorSets(d->device, &ai, sets));
	write_buffer(d, sets[0], 0, SSBO_DYN, src.buffer, 0, 64);
	write_buffer(d, sets[1], 0, UBO_DYN, uni.buffer, 0, 4);
	write_buffer(d, sets[1], 1, SSBO_DYN, dst.buffer, 0, 64);

	{
		VkCommandBuffer cb = vkh_cmd_begin(d, 0);
		/* (src slot, mul slot, dst slot) per dispatch */
		static const uint32_t runs[3][3] = {
			{ 2, 0, 1 }, { 0, 1, 2 }, { 1, 2, 0 },
		};

		VKH_CHECK(h, cb != VK_NULL_HANDLE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
		                  p.pipeline);
		for (int r = 0; r < 3; r++) {
			uint32_t off[3] = {
				(uint32_t)(runs[r][0] * align),
				(uint32_t)(runs[r][1] * align),
				(uint32_t)(runs[r][2] * align),
			};

			/* Bind the sets separately: set 1's offsets must
			 * land after set 0's in the flat array. */
			vkCmdBindDescriptorSets(cb,
				VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1,
				&sets[0], 1, &off[0]);
			vkCmdBindDescriptorSets(cb,
				VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 1, 1,
				&sets[1], 2, &off[1]);
			vkCmdDispatch(cb, 1, 1, 1);
		}
		compute_to_host(cb);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
		for (int r = 0; r < 3; r++) {
			const uint32_t *out = (const uint32_t *)
				((uint8_t *)dp + runs[r][2] * align);

			for (uint32_t i = 0; i < 16; i++) {
				uint32_t want = (100 * (runs[r][0] + 1) + i) *
				                (runs[r][1] + 2);

				VKH_CHECK_MSG(h, out[i] == want, "run %d: "
				              "dst[%u] = %u, want %u", r, i,
				              out[i], want);
			}
		}
	}
	vkDestroyDescriptorPool(d->device, pool, NULL);
	destroy_pipeline(d, &p);
	vkDestroyDescriptorSetLayout(d->device, layouts[0], NULL);
	vkDestroyDescriptorSetLayout(d->device, layouts[1], NULL);
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &uni);
	vkh_buffer_destroy(d, &dst);
}

/* ------------------------------------------------------------------ */
/* Specialization, DispatchBase, DispatchIndirect                      */
/* ------------------------------------------------------------------ */

#define GROUPS_LOCAL 4u
#define GROUPS_SLOTS 64u

static bool
check_groups(struct vkh *h, const uint32_t *v, uint32_t first_group,
             uint32_t groups, uint32_t tag, const char *what)
{
	for (uint32_t g = 0; g < GROUPS_SLOTS / GROUPS_LOCAL; g++) {
		for (uint32_t l = 0; l < GROUPS_LOCAL; l++) {
			uint32_t i = g * GROUPS_LOCAL + l;
			bool ran = g >= first_group && g < first_group + groups;
			uint32_t want = ran ? (g << 16) | (l << 8) | tag :
			                      0xcdcdcdcd;

			if (v[i] != want) {
				vkh_fail(h, __FILE__, __LINE__, "%s: slot %u "
				         "= 0x%08x, want 0x%08x", what, i,
				         v[i], want);
				return false;
			}
		}
	}
	return true;
}

static void
test_dispatch_base_indirect(struct vkh *h, struct vkh_device *d)
{
	VkDescriptorType t[1] = { SSBO };
	/* An entry for an id the shader does not have is ignored. */
	uint32_t spec_data[2] = { 0x5a, 99 };
	VkSpecializationMapEntry entries[2] = {
		{ .constantID = 0, .offset = 0, .size = 4 },
		{ .constantID = 7, .offset = 4, .size = 4 },
	};
	VkSpecializationInfo spec = {
		.mapEntryCount = 2,
		.pMapEntries = entries,
		.dataSize = sizeof(spec_data),
		.pData = spec_data,
	};
	VkDescriptorSetLayout layout;
	VkDescriptorPool pool;
	VkDescriptorSet set;
	struct vkh_buffer dst, args;
	VkCommandBuffer cb;
	struct pipe p;
	uint32_t *v;

	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 4 * GROUPS_SLOTS,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_READBACK, -1, &dst));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 64,
	                                  VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
	                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &args));
	v = dst.map;
	VKH_CHECK_VK(h, make_set_layout(d, 1, t, &layout));
	VKH_CHECK_VK(h, make_pipeline(d, ico_groups_spv,
	                              sizeof(ico_groups_spv), 1, &layout, 0,
	                              &spec,
	                              VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
	                              VK_NULL_HANDLE, &p));
	VKH_CHECK_VK(h, make_pool(d, 0, 1, SSBO, 1, &pool));
	VKH_CHECK_VK(h, alloc_set(d, pool, layout, &set));
	write_buffer(d, set, 0, SSBO, dst.buffer, 0, VK_WHOLE_SIZE);

	/* vkCmdDispatchBase: groups 3, 4, 5 only; WorkgroupId starts at 3
	 * and the global id follows it. */
	memset(v, 0xcd, 4 * GROUPS_SLOTS);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout,
	                        0, 1, &set, 0, NULL);
	vkCmdDispatchBase(cb, 3, 0, 0, 3, 1, 1);
	compute_to_host(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	if (!check_groups(h, v, 3, 3, 0x5a, "vkCmdDispatchBase"))
		return;

	/* vkCmdDispatchIndirect: the counts come from a buffer written by
	 * a transfer earlier in the same command buffer. */
	memset(v, 0xcd, 4 * GROUPS_SLOTS);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	{
		VkDispatchIndirectCommand cmd = { 5, 1, 1 };
		VkMemoryBarrier mb = {
			.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
			.dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT,
		};

		vkCmdUpdateBuffer(cb, args.buffer, 16, sizeof(cmd), &cmd);
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
		                     VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1,
		                     &mb, 0, NULL, 0, NULL);
	}
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout,
	                        0, 1, &set, 0, NULL);
	vkCmdDispatchIndirect(cb, args.buffer, 16);
	compute_to_host(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	if (!check_groups(h, v, 0, 5, 0x5a, "vkCmdDispatchIndirect"))
		return;

	/* A zero-group dispatch does nothing. */
	memset(v, 0xcd, 4 * GROUPS_SLOTS);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout,
	                        0, 1, &set, 0, NULL);
	vkCmdDispatch(cb, 0, 1, 1);
	compute_to_host(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	if (!check_groups(h, v, 0, 0, 0x5a, "empty dispatch"))
		return;

	vkDestroyDescriptorPool(d->device, pool, NULL);
	destroy_pipeline(d, &p);
	vkDestroyDescriptorSetLayout(d->device, layout, NULL);
	vkh_buffer_destroy(d, &dst);
	vkh_buffer_destroy(d, &args);
}

static const struct vkh_test tests[] = {
	{ "compute_properties", test_compute_properties, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "descriptor_pool_limits", test_descriptor_pool_limits, 1, 0 },
	{ "descriptor_layout_support", test_descriptor_layout_support, 1, 0 },
	{ "shader_module_header", test_shader_module_header, 1, 0 },
	{ "pipeline_layouts", test_pipeline_layouts, 1, 0 },
	{ "pipeline_cache", test_pipeline_cache, 1, VK_QUEUE_COMPUTE_BIT },
	{ "pipeline_cache_threads", test_pipeline_cache_threads, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "descriptor_updates", test_descriptor_updates, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "dynamic_offsets", test_dynamic_offsets, 1, VK_QUEUE_COMPUTE_BIT },
	{ "dispatch_base_indirect", test_dispatch_base_indirect, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "set_hole", test_set_hole, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_icd_compute_objects", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
