/* SPDX-License-Identifier: MIT */
/*
 * VK_KHR_push_descriptor in compute, through the loader (validation on,
 * synchronization validation included), on swgpu and lavapipe. Every test
 * skips when the device does not offer the extension; the others create
 * their own device with it enabled.
 *  - properties: maxPushDescriptors >= 32 (the extension's minimum);
 *  - push_writes (pd_scale): set 0 is a push set (0 input SSBO, 1 params
 *    UBO, 2 output SSBO), set 1 a normal set (addend SSBO) bound with
 *    vkCmdBindDescriptorSets after the first push (binding a compatible
 *    set 1 does not disturb set 0). One command buffer: push all three,
 *    dispatch; push only binding 2 (a second output), dispatch; push
 *    bindings 0 and 2 (a second input, a third output), dispatch. The
 *    spec (vkCmdPushDescriptorSetKHR) lets push descriptors be updated
 *    incrementally: a descriptor keeps its value until overwritten or the
 *    set is disturbed, so dispatches 2 and 3 still see the earlier pushes
 *    of the bindings they do not push. The host-side write structures are
 *    reused and changed between pushes (each push is consumed when it is
 *    recorded). out[i] = in[i] * scale + add[i], checked exactly;
 *  - push_template: the same three dispatches through
 *    vkCmdPushDescriptorSetWithTemplateKHR with templates of type
 *    PUSH_DESCRIPTORS (compute, the pipeline layout, set 0) reading a
 *    host struct whose members are out of binding order; the params are
 *    the second block of the UBO, at a non-zero offset;
 *  - storage_image (pd_image): a pushed R32_UINT 2D storage image written
 *    with imageStore, then a second image pushed alone by a template
 *    (VkDescriptorImageInfo data) while the input buffer stays pushed;
 *    images read back with image->buffer copies;
 *  - resubmit: push_writes' and push_template's recordings in one
 *    reusable command buffer, the host data redirected to a decoy
 *    buffer after recording, submitted, checked, outputs zeroed,
 *    submitted again, checked again: the pushes were captured at record
 *    time.
 */
#include "image_vk.h"
#include "vkh_compute.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pd_image.spv.h"
#include "pd_scale.spv.h"

#define N 256                    /* elements per buffer, 4 groups of 64 */
#define NOUT 6                   /* 0-2: push_writes, 3-5: push_template */
#define IMG 16                   /* storage image width and height */
#define BP VK_PIPELINE_BIND_POINT_COMPUTE
#define SSBO VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
#define UBO VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER

static const uint32_t scales[2] = { 3, 7 }; /* params blocks 0 and 1 */

struct pd_fns {
	PFN_vkCmdPushDescriptorSetKHR push;
	PFN_vkCmdPushDescriptorSetWithTemplateKHR push_tmpl;
};

static bool
pd_offered(struct vkh *h)
{
	VkExtensionProperties e[512];
	uint32_t n = 512;

	if (vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, e) < 0)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(e[i].extensionName,
		            VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
			return true;
	return false;
}

/* A compute device with VK_KHR_push_descriptor enabled, or a skip. */
static bool
pd_device(struct vkh *h, struct vkh_device *d, struct pd_fns *f)
{
	static const char *const ext[] = {
		VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	VkResult r;

	if (!pd_offered(h)) {
		vkh_skip(h, "%s does not offer VK_KHR_push_descriptor",
		         h->driver.driverName);
		return false;
	}
	if (!vkh_has_compute(h)) {
		vkh_skip(h, "no COMPUTE queue family");
		return false;
	}
	r = vkh_device_create_features_ext(h, VK_QUEUE_COMPUTE_BIT, &f2, ext,
	                                   1, d);
	if (r != VK_SUCCESS) {
		vkh_fail(h, __FILE__, __LINE__, "device with %s: %s", ext[0],
		         vkh_result_str(r));
		return false;
	}
	f->push = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(
		d->device, "vkCmdPushDescriptorSetKHR");
	f->push_tmpl = (PFN_vkCmdPushDescriptorSetWithTemplateKHR)
		vkGetDeviceProcAddr(d->device,
		                    "vkCmdPushDescriptorSetWithTemplateKHR");
	if (!f->push || !f->push_tmpl) {
		vkh_fail(h, __FILE__, __LINE__, "push entry points missing");
		return false;
	}
	return true;
}

static void
test_properties(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDevicePushDescriptorPropertiesKHR pp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &pp,
	};

	(void)unused;
	if (!pd_offered(h)) {
		vkh_skip(h, "%s does not offer VK_KHR_push_descriptor",
		         h->driver.driverName);
		return;
	}
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	printf("  maxPushDescriptors %u\n", pp.maxPushDescriptors);
	VKH_CHECK_MSG(h, pp.maxPushDescriptors >= 32,
	              "maxPushDescriptors: want >= 32, got %u",
	              pp.maxPushDescriptors);
}

/* ---- pipelines with a push set 0 ---- */

struct pd_pipe {
	VkDescriptorSetLayout sl[2]; /* sl[0]: the push set */
	uint32_t nsets;
	VkPipelineLayout layout;
	VkShaderModule module;
	VkPipeline pipe;
};

static VkResult
make_layout(struct vkh_device *d, const VkDescriptorType *types, uint32_t n,
            VkDescriptorSetLayoutCreateFlags flags,
            VkDescriptorSetLayout *out)
{
	VkDescriptorSetLayoutBinding b[4];
	VkDescriptorSetLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.flags = flags, .bindingCount = n, .pBindings = b,
	};

	for (uint32_t i = 0; i < n; i++)
		b[i] = (VkDescriptorSetLayoutBinding){
			.binding = i, .descriptorType = types[i],
			.descriptorCount = 1,
			.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		};
	return vkCreateDescriptorSetLayout(d->device, &ci, NULL, out);
}

/* Set 0: a push set of push_types; set 1 (when n1): a normal set. */
static VkResult
pd_pipe_create(struct vkh_device *d, const uint32_t *spv, size_t spv_size,
               const VkDescriptorType *push_types, uint32_t n0,
               const VkDescriptorType *set1_types, uint32_t n1,
               struct pd_pipe *p)
{
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = spv_size, .pCode = spv,
	};
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.pSetLayouts = p->sl,
	};
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.pName = "main",
		},
	};
	VkResult r;

	memset(p, 0, sizeof(*p));
	r = make_layout(d, push_types, n0,
	                VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
	                &p->sl[0]);
	p->nsets = 1;
	if (r == VK_SUCCESS && n1) {
		r = make_layout(d, set1_types, n1, 0, &p->sl[1]);
		p->nsets = 2;
	}
	plci.setLayoutCount = p->nsets;
	if (r == VK_SUCCESS)
		r = vkCreatePipelineLayout(d->device, &plci, NULL, &p->layout);
	if (r == VK_SUCCESS)
		r = vkCreateShaderModule(d->device, &smci, NULL, &p->module);
	cpci.stage.module = p->module;
	cpci.layout = p->layout;
	if (r == VK_SUCCESS)
		r = vkCreateComputePipelines(d->device, VK_NULL_HANDLE, 1,
		                             &cpci, NULL, &p->pipe);
	return r;
}

static void
pd_pipe_destroy(struct vkh_device *d, struct pd_pipe *p)
{
	vkDestroyPipeline(d->device, p->pipe, NULL);
	vkDestroyShaderModule(d->device, p->module, NULL);
	vkDestroyPipelineLayout(d->device, p->layout, NULL);
	for (uint32_t s = 0; s < 2; s++)
		vkDestroyDescriptorSetLayout(d->device, p->sl[s], NULL);
}

/* A PUSH_DESCRIPTORS template for set 0 of layout. */
static VkDescriptorUpdateTemplate
make_template(struct vkh_device *d, VkPipelineLayout layout,
              const VkDescriptorUpdateTemplateEntry *e, uint32_t n)
{
	VkDescriptorUpdateTemplateCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
		.descriptorUpdateEntryCount = n,
		.pDescriptorUpdateEntries = e,
		.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
		.pipelineBindPoint = BP,
		.pipelineLayout = layout,
		.set = 0,
	};
	VkDescriptorUpdateTemplate t = VK_NULL_HANDLE;

	if (vkCreateDescriptorUpdateTemplate(d->device, &ci, NULL, &t) !=
	    VK_SUCCESS)
		return VK_NULL_HANDLE;
	return t;
}

/* ---- pd_scale: buffers, recording, checks ---- */

/* Template data: members deliberately not in binding order. */
struct tmpl_data {
	VkDescriptorBufferInfo out;      /* binding 2 */
	uint32_t pad[3];
	VkDescriptorBufferInfo params;   /* binding 1 */
	VkDescriptorBufferInfo in;       /* binding 0 */
};

struct scale_ctx {
	struct pd_fns f;
	struct pd_pipe p;
	VkDescriptorPool pool;
	VkDescriptorSet set1;
	VkDescriptorUpdateTemplate t_all, t_out, t_in_out;
	VkDeviceSize ubo_align;          /* offset of params block 1 */
	struct vkh_buffer in[2], params, add, out[NOUT], decoy;
	/* Host data of the pushes, reused between pushes. */
	VkDescriptorBufferInfo bi[3];
	VkWriteDescriptorSet w[3];
	struct tmpl_data td;
};

static VkResult
scale_init(struct vkh *h, struct vkh_device *d, struct scale_ctx *c)
{
	static const VkDescriptorType push_types[] = { SSBO, UBO, SSBO };
	static const VkDescriptorType set1_types[] = { SSBO };
	const VkDeviceSize sz = N * sizeof(uint32_t);
	VkDescriptorPoolSize ps = { SSBO, 1 };
	VkDescriptorPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorSetCount = 1,
	};
	const VkDescriptorUpdateTemplateEntry e_in = {
		0, 0, 1, SSBO, offsetof(struct tmpl_data, in),
		sizeof(VkDescriptorBufferInfo) };
	const VkDescriptorUpdateTemplateEntry e_params = {
		1, 0, 1, UBO, offsetof(struct tmpl_data, params),
		sizeof(VkDescriptorBufferInfo) };
	const VkDescriptorUpdateTemplateEntry e_out = {
		2, 0, 1, SSBO, offsetof(struct tmpl_data, out),
		sizeof(VkDescriptorBufferInfo) };
	const VkDescriptorUpdateTemplateEntry all[] = { e_out, e_in, e_params };
	const VkDescriptorUpdateTemplateEntry in_out[] = { e_in, e_out };
	VkResult r;

	c->ubo_align = h->props.limits.minUniformBufferOffsetAlignment;
	if (c->ubo_align < 256)
		c->ubo_align = 256;
	r = pd_pipe_create(d, pd_scale_spv, sizeof(pd_scale_spv), push_types,
	                   3, set1_types, 1, &c->p);
	for (int i = 0; i < 2 && r == VK_SUCCESS; i++)
		r = vkh_host_buffer(h, d, sz, 0, &c->in[i]);
	for (int i = 0; i < NOUT && r == VK_SUCCESS; i++)
		r = vkh_host_buffer(h, d, sz, 0, &c->out[i]);
	if (r == VK_SUCCESS)
		r = vkh_host_buffer(h, d, sz, 0, &c->add);
	if (r == VK_SUCCESS)
		r = vkh_host_buffer(h, d, 2 * c->ubo_align,
		                    VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
		                    &c->params);
	if (r == VK_SUCCESS)
		r = vkh_host_buffer(h, d, sz, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
		                    &c->decoy);
	if (r == VK_SUCCESS)
		r = vkCreateDescriptorPool(d->device, &pci, NULL, &c->pool);
	ai.descriptorPool = c->pool;
	ai.pSetLayouts = &c->p.sl[1];
	if (r == VK_SUCCESS)
		r = vkAllocateDescriptorSets(d->device, &ai, &c->set1);
	if (r != VK_SUCCESS)
		return r;

	VkDescriptorBufferInfo bi = { c->add.buffer, 0, VK_WHOLE_SIZE };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = c->set1, .descriptorCount = 1,
		.descriptorType = SSBO, .pBufferInfo = &bi,
	};
	vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);

	c->t_all = make_template(d, c->p.layout, all, 3);
	c->t_out = make_template(d, c->p.layout, &e_out, 1);
	c->t_in_out = make_template(d, c->p.layout, in_out, 2);
	if (!c->t_all || !c->t_out || !c->t_in_out)
		return VK_ERROR_INITIALIZATION_FAILED;

	uint32_t *in0 = c->in[0].map, *in1 = c->in[1].map, *add = c->add.map;
	for (uint32_t i = 0; i < N; i++) {
		in0[i] = 7 * i + 1;
		in1[i] = 1000 + i * i;
		add[i] = 100000 + 3 * i;
	}
	for (int b = 0; b < 2; b++) {
		uint32_t *pb = (uint32_t *)((uint8_t *)c->params.map +
		                            b * c->ubo_align);
		pb[0] = scales[b];
		pb[1] = N;
	}
	vkh_buffer_flush(h, d, &c->in[0]);
	vkh_buffer_flush(h, d, &c->in[1]);
	vkh_buffer_flush(h, d, &c->add);
	vkh_buffer_flush(h, d, &c->params);
	return VK_SUCCESS;
}

static void
scale_fini(struct vkh_device *d, struct scale_ctx *c)
{
	vkDestroyDescriptorUpdateTemplate(d->device, c->t_all, NULL);
	vkDestroyDescriptorUpdateTemplate(d->device, c->t_out, NULL);
	vkDestroyDescriptorUpdateTemplate(d->device, c->t_in_out, NULL);
	vkDestroyDescriptorPool(d->device, c->pool, NULL);
	pd_pipe_destroy(d, &c->p);
	for (int i = 0; i < 2; i++)
		vkh_buffer_destroy(d, &c->in[i]);
	for (int i = 0; i < NOUT; i++)
		vkh_buffer_destroy(d, &c->out[i]);
	vkh_buffer_destroy(d, &c->add);
	vkh_buffer_destroy(d, &c->params);
	vkh_buffer_destroy(d, &c->decoy);
}

/* Host writes and earlier submissions' shader accesses -> this one's. */
static void
begin_barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT |
		                 VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
		                 VK_ACCESS_SHADER_WRITE_BIT,
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT |
	                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb,
	                     0, NULL, 0, NULL);
}

static VkDescriptorBufferInfo
whole(const struct vkh_buffer *b)
{
	return (VkDescriptorBufferInfo){ b->buffer, 0, VK_WHOLE_SIZE };
}

/* Dispatches 1-3 with vkCmdPushDescriptorSetKHR into out[0..2]. */
static void
record_writes(struct scale_ctx *c, VkCommandBuffer cb)
{
	VkDescriptorBufferInfo *bi = c->bi;
	VkWriteDescriptorSet *w = c->w;

	vkCmdBindPipeline(cb, BP, c->p.pipe);
	bi[0] = whole(&c->in[0]);
	bi[1] = (VkDescriptorBufferInfo){ c->params.buffer, 0, 16 };
	bi[2] = whole(&c->out[0]);
	for (uint32_t i = 0; i < 3; i++)
		w[i] = (VkWriteDescriptorSet){
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.dstBinding = i, .descriptorCount = 1,
			.descriptorType = i == 1 ? UBO : SSBO,
			.pBufferInfo = &bi[i],
		};
	c->f.push(cb, BP, c->p.layout, 0, 3, w);
	/* Set 1 bound after the push: same layout, set 0 not disturbed. */
	vkCmdBindDescriptorSets(cb, BP, c->p.layout, 1, 1, &c->set1, 0, NULL);
	vkCmdDispatch(cb, N / 64, 1, 1);

	bi[2] = whole(&c->out[1]);       /* only the output */
	c->f.push(cb, BP, c->p.layout, 0, 1, &w[2]);
	vkCmdDispatch(cb, N / 64, 1, 1);

	bi[0] = whole(&c->in[1]);        /* input and output, not params */
	bi[2] = whole(&c->out[2]);
	VkWriteDescriptorSet w02[2] = { w[0], w[2] };
	c->f.push(cb, BP, c->p.layout, 0, 2, w02);
	vkCmdDispatch(cb, N / 64, 1, 1);
}

/* The same into out[3..5] with templates, params block 1. */
static void
record_templates(struct scale_ctx *c, VkCommandBuffer cb)
{
	struct tmpl_data *td = &c->td;

	vkCmdBindPipeline(cb, BP, c->p.pipe);
	vkCmdBindDescriptorSets(cb, BP, c->p.layout, 1, 1, &c->set1, 0, NULL);
	memset(td, 0, sizeof(*td));
	td->in = whole(&c->in[0]);
	td->params = (VkDescriptorBufferInfo){ c->params.buffer,
	                                       c->ubo_align, 16 };
	td->out = whole(&c->out[3]);
	c->f.push_tmpl(cb, c->t_all, c->p.layout, 0, td);
	vkCmdDispatch(cb, N / 64, 1, 1);

	td->out = whole(&c->out[4]);
	c->f.push_tmpl(cb, c->t_out, c->p.layout, 0, td);
	vkCmdDispatch(cb, N / 64, 1, 1);

	td->in = whole(&c->in[1]);
	td->out = whole(&c->out[5]);
	c->f.push_tmpl(cb, c->t_in_out, c->p.layout, 0, td);
	vkCmdDispatch(cb, N / 64, 1, 1);
}

static void
zero_outputs(struct vkh *h, struct vkh_device *d, struct scale_ctx *c)
{
	for (int k = 0; k < NOUT; k++) {
		memset(c->out[k].map, 0, N * sizeof(uint32_t));
		vkh_buffer_flush(h, d, &c->out[k]);
	}
}

/* Check out[k]; returns the number of wrong elements. */
static long
check_out(struct vkh *h, struct vkh_device *d, struct scale_ctx *c, int k,
          const char *what)
{
	/* out 0,1,3,4 from in[0]; 2,5 from in[1]; 0-2 scale 3, 3-5 scale 7 */
	const uint32_t *in = c->in[k % 3 == 2].map, *add = c->add.map;
	const uint32_t scale = scales[k / 3];
	const uint32_t *o = c->out[k].map;
	long bad = 0;

	vkh_buffer_invalidate(h, d, &c->out[k]);
	for (uint32_t i = 0; i < N; i++) {
		uint32_t want = in[i] * scale + add[i];

		if (o[i] != want && bad++ < 4)
			printf("  %s, dispatch %d: out[%u] = %u, want %u "
			       "(input %u * scale %u + addend %u)\n", what,
			       k % 3 + 1, i, o[i], want, in[i], scale,
			       add[i]);
	}
	return bad;
}

static VkResult
submit(struct vkh_device *d, VkCommandBuffer cb)
{
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1, .pCommandBuffers = &cb,
	};
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;
	VkResult r = vkCreateFence(d->device, &fci, NULL, &fence);

	if (r != VK_SUCCESS)
		return r;
	r = vkQueueSubmit(d->queues[0].queue, 1, &si, fence);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(d->device, 1, &fence, VK_TRUE,
		                    VKH_TIMEOUT_NS);
	vkDestroyFence(d->device, fence, NULL);
	return r;
}

/* push_writes (templates false) or push_template (true). */
static void
scale_body(struct vkh *h, struct vkh_device *d, struct scale_ctx *c,
           bool templates)
{
	const char *what = templates ? "template push" : "write push";
	VkCommandBuffer cb;
	int k0 = templates ? 3 : 0;

	VKH_CHECK_VK(h, scale_init(h, d, c));
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	begin_barrier(cb);
	if (templates)
		record_templates(c, cb);
	else
		record_writes(c, cb);
	vkh_cmd_compute_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	for (int k = k0; k < k0 + 3; k++) {
		long bad = check_out(h, d, c, k, what);

		VKH_CHECK_MSG(h, !bad, "%s, dispatch %d (%s): %ld of %d "
		              "wrong", what, k - k0 + 1,
		              k - k0 == 0 ? "all bindings pushed" :
		              k - k0 == 1 ? "only binding 2 pushed" :
		              "bindings 0 and 2 pushed", bad, N);
	}
}

static void
test_scale(struct vkh *h, bool templates)
{
	struct vkh_device d;
	struct scale_ctx c;

	memset(&c, 0, sizeof(c));
	if (!pd_device(h, &d, &c.f))
		return;
	scale_body(h, &d, &c, templates);
	scale_fini(&d, &c);
	vkh_device_destroy(h, &d);
}

static void
test_push_writes(struct vkh *h, struct vkh_device *unused)
{
	(void)unused;
	test_scale(h, false);
}

static void
test_push_template(struct vkh *h, struct vkh_device *unused)
{
	(void)unused;
	test_scale(h, true);
}

/* ---- resubmit ---- */

static void
resubmit_body(struct vkh *h, struct vkh_device *d, struct scale_ctx *c)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = d->queues[0].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkCommandBuffer cb;

	VKH_CHECK_VK(h, scale_init(h, d, c));
	VKH_CHECK_VK(h, vkAllocateCommandBuffers(d->device, &ai, &cb));
	VKH_CHECK_VK(h, vkBeginCommandBuffer(cb, &bi));
	begin_barrier(cb);
	record_writes(c, cb);
	record_templates(c, cb);
	vkh_cmd_compute_host_barrier(cb);
	VKH_CHECK_VK(h, vkEndCommandBuffer(cb));
	/* The pushes' host data now names a decoy buffer: a driver that
	 * read it at submit time would write there, not into out[]. */
	for (int i = 0; i < 3; i++)
		c->bi[i] = whole(&c->decoy);
	c->td.in = c->td.params = c->td.out = whole(&c->decoy);

	for (int pass = 1; pass <= 2; pass++) {
		zero_outputs(h, d, c);
		VKH_CHECK_VK(h, submit(d, cb));
		for (int k = 0; k < NOUT; k++) {
			long bad = check_out(h, d, c, k, k < 3 ?
			                     "resubmit write push" :
			                     "resubmit template push");

			VKH_CHECK_MSG(h, !bad, "submission %d, output %d: "
			              "%ld of %d wrong", pass, k, bad, N);
		}
	}
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb);
}

static void
test_resubmit(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device d;
	struct scale_ctx c;

	(void)unused;
	memset(&c, 0, sizeof(c));
	if (!pd_device(h, &d, &c.f))
		return;
	resubmit_body(h, &d, &c);
	scale_fini(&d, &c);
	vkh_device_destroy(h, &d);
}

/* ---- storage image ---- */

/* Every subresource to GENERAL (after the upload's copy). */
static void
to_general(VkCommandBuffer cb, struct timg *t)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.oldLayout = t->layout,
		.newLayout = VK_IMAGE_LAYOUT_GENERAL,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = t->image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL,
	                     0, NULL, 1, &b);
	t->layout = VK_IMAGE_LAYOUT_GENERAL;
}

static VkImageView
make_view(struct vkh_device *d, struct timg *t)
{
	VkImageViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = t->image, .viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = t->desc.format,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	VkImageView v = VK_NULL_HANDLE;

	if (vkCreateImageView(d->device, &ci, NULL, &v) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return v;
}

struct image_ctx {
	struct pd_fns f;
	struct pd_pipe p;
	struct timg img[2];
	bool have_img[2];
	VkImageView view[2];
	struct vkh_buffer in;
	VkDescriptorUpdateTemplate t_img;
};

/* Image 0 pushed with the input (vkCmdPushDescriptorSetKHR), dispatch;
 * image 1 pushed alone through a template, dispatch. */
static void
image_body(struct vkh *h, struct vkh_device *d, struct image_ctx *c)
{
	static const VkDescriptorType types[] = {
		VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, SSBO,
	};
	struct timg_desc desc = { VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT,
	                          VK_IMAGE_TILING_OPTIMAL, { IMG, IMG, 1 }, 1,
	                          1, 0 };
	const VkDescriptorUpdateTemplateEntry e = {
		0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 0,
		sizeof(VkDescriptorImageInfo) };
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
		                 VK_ACCESS_MEMORY_WRITE_BIT,
	};

	VKH_CHECK_VK(h, pd_pipe_create(d, pd_image_spv, sizeof(pd_image_spv),
	                               types, 2, NULL, 0, &c->p));
	c->t_img = make_template(d, c->p.layout, &e, 1);
	VKH_CHECK(h, c->t_img != VK_NULL_HANDLE);
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, IMG * IMG * 4, 0, &c->in));
	uint32_t *in = c->in.map;
	for (uint32_t i = 0; i < IMG * IMG; i++)
		in[i] = 0x100 * i + 5;
	vkh_buffer_flush(h, d, &c->in);
	for (int k = 0; k < 2; k++) {
		VKH_CHECK_VK(h, timg_create(h, d, &desc,
		                            VK_IMAGE_USAGE_STORAGE_BIT,
		                            &c->img[k]));
		c->have_img[k] = true;
		memset(c->img[k].model[0], 0xde, c->img[k].plane_size[0]);
		VKH_CHECK_VK(h, timg_upload(h, d, &c->img[k]));
		c->view[k] = make_view(d, &c->img[k]);
		VKH_CHECK(h, c->view[k] != VK_NULL_HANDLE);
	}

	VkCommandBuffer cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	to_general(cb, &c->img[0]);
	to_general(cb, &c->img[1]);
	vkCmdBindPipeline(cb, BP, c->p.pipe);
	VkDescriptorImageInfo ii = { VK_NULL_HANDLE, c->view[0],
	                             VK_IMAGE_LAYOUT_GENERAL };
	VkDescriptorBufferInfo bi = whole(&c->in);
	VkWriteDescriptorSet w[2] = {
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstBinding = 0, .descriptorCount = 1,
		  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		  .pImageInfo = &ii },
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstBinding = 1, .descriptorCount = 1,
		  .descriptorType = SSBO, .pBufferInfo = &bi },
	};
	c->f.push(cb, BP, c->p.layout, 0, 2, w);
	vkCmdDispatch(cb, IMG / 8, IMG / 8, 1);
	ii.imageView = c->view[1];
	c->f.push_tmpl(cb, c->t_img, c->p.layout, 0, &ii);
	vkCmdDispatch(cb, IMG / 8, IMG / 8, 1);
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT |
	                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
	                     0, NULL);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));

	for (int k = 0; k < 2; k++) {
		uint8_t *got[2] = { NULL, NULL };
		long bad = 0;

		VKH_CHECK(h, timg_readback(h, d, &c->img[k], got) == 0);
		const uint32_t *g = (const uint32_t *)got[0];
		for (uint32_t y = 0; y < IMG; y++)
			for (uint32_t x = 0; x < IMG; x++) {
				uint32_t want = in[y * IMG + x] +
				                (x << 16 | y);
				uint32_t v = g[y * IMG + x];

				if (v != want && bad++ < 4)
					printf("  image %d (%s): (%u, %u) = "
					       "0x%x, want 0x%x\n", k,
					       k ? "template push" :
					       "write push", x, y, v, want);
			}
		free(got[0]);
		VKH_CHECK_MSG(h, !bad, "storage image %d (%s): %ld of %d "
		              "texels wrong", k, k ? "pushed alone by a "
		              "template" : "pushed with the input", bad,
		              IMG * IMG);
	}
}

static void
test_storage_image(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device d;
	struct image_ctx c;

	(void)unused;
	memset(&c, 0, sizeof(c));
	if (!pd_device(h, &d, &c.f))
		return;
	image_body(h, &d, &c);
	vkDestroyDescriptorUpdateTemplate(d.device, c.t_img, NULL);
	for (int k = 0; k < 2; k++) {
		vkDestroyImageView(d.device, c.view[k], NULL);
		if (c.have_img[k])
			timg_destroy(&d, &c.img[k]);
	}
	vkh_buffer_destroy(&d, &c.in);
	pd_pipe_destroy(&d, &c.p);
	vkh_device_destroy(h, &d);
}

static const struct vkh_test tests[] = {
	{ "properties", test_properties, 0, VK_QUEUE_COMPUTE_BIT },
	{ "push_writes", test_push_writes, 0, VK_QUEUE_COMPUTE_BIT },
	{ "push_template", test_push_template, 0, VK_QUEUE_COMPUTE_BIT },
	{ "storage_image", test_storage_image, 0, VK_QUEUE_COMPUTE_BIT },
	{ "resubmit", test_resubmit, 0, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_push_descriptor", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
