/* SPDX-License-Identifier: MIT */
/*
 * test_vk_compute_sample: Vulkan plumbing (query/result buffers, sampled
 * images, views, samplers, pipelines). See test_vk_compute_sample.h.
 */
#include "test_vk_compute_sample.h"

#include <string.h>

#include "smp_separate.spv.h"

VkResult
io_create(struct vkh *h, struct vkh_device *d, struct io *io)
{
	VkResult r = vkh_host_buffer(h, d, MAXQ * 16, 0, &io->in);

	if (r == VK_SUCCESS)
		r = vkh_host_buffer(h, d, 3 * MAXQ * 16, 0, &io->out);
	io->q = io->in.map;
	io->r = io->out.map;
	return r;
}

void
io_destroy(struct vkh_device *d, struct io *io)
{
	vkh_buffer_destroy(d, &io->in);
	vkh_buffer_destroy(d, &io->out);
}

/* Storage buffers at bindings in_b and in_b + 1. */
void
io_bind(struct vkh_device *d, struct vkh_pipe *p, struct io *io,
        uint32_t in_b)
{
	vkh_pipe_set_buffer(d, p, 0, in_b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    io->in.buffer, 0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(d, p, 0, in_b + 1,
	                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, io->out.buffer,
	                    0, VK_WHOLE_SIZE);
}

/* n queries through p (push constant: n); results invalidated. */
VkResult
io_run(struct vkh *h, struct vkh_device *d, struct vkh_pipe *p,
       struct io *io, uint32_t n)
{
	VkResult r;

	memset(io->out.map, 0xff, io->out.size); /* NaN: nothing written */
	vkh_buffer_flush(h, d, &io->in);
	vkh_buffer_flush(h, d, &io->out);
	r = vkh_dispatch_sync(d, 0, p, &n, (n + 63) / 64, 1, 1);
	vkh_buffer_invalidate(h, d, &io->out);
	return r;
}

/* Model -> image, then every subresource to SHADER_READ_ONLY_OPTIMAL
 * for compute-shader reads. */
VkResult
image_ready(struct vkh *h, struct vkh_device *d, struct timg *t)
{
	VkResult r = timg_upload(h, d, t);
	VkCommandBuffer cb;
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
		.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = t->image,
		.subresourceRange = { t->aspect[0], 0, VK_REMAINING_MIP_LEVELS,
		                      0, VK_REMAINING_ARRAY_LAYERS },
	};

	if (r != VK_SUCCESS)
		return r;
	cb = vkh_cmd_begin(d, 0);
	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	b.oldLayout = t->layout;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL,
	                     0, NULL, 1, &b);
	t->layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	return vkh_cmd_submit_wait(d, 0, cb);
}

VkResult
image_make(struct vkh *h, struct vkh_device *d, const struct timg_desc *td,
           uint32_t seed, struct timg *t)
{
	VkResult r = timg_create(h, d, td, SAMPLED_USAGE, t);

	if (r == VK_SUCCESS && seed)
		timg_randomize(t, seed);
	return r;
}

VkImageView
make_view(struct vkh_device *d, const struct rview *rv, VkImageViewType type)
{
	VkImageViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = rv->t->image, .viewType = type,
		.format = rv->t->desc.format,
		.subresourceRange = { rv->t->aspect[0], rv->base_mip, rv->mips,
		                      rv->base_layer, rv->layers },
	};
	VkImageView v = VK_NULL_HANDLE;

	if (vkCreateImageView(d->device, &ci, NULL, &v) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return v;
}

VkSampler
make_sampler(struct vkh_device *d, const struct sdesc *s)
{
	VkSamplerCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
		.magFilter = s->mag, .minFilter = s->min,
		.mipmapMode = s->mip,
		.addressModeU = s->am[0], .addressModeV = s->am[1],
		.addressModeW = s->am[2],
		.minLod = s->min_lod, .maxLod = s->max_lod,
		.borderColor = s->border,
		.unnormalizedCoordinates = s->unnorm,
	};
	VkSampler smp = VK_NULL_HANDLE;

	if (vkCreateSampler(d->device, &ci, NULL, &smp) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return smp;
}

void
write_image(struct vkh_device *d, VkDescriptorSet set, uint32_t binding,
            VkDescriptorType type, VkImageView v, VkSampler s)
{
	VkDescriptorImageInfo ii = {
		.sampler = s, .imageView = v,
		.imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
	};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = set, .dstBinding = binding, .descriptorCount = 1,
		.descriptorType = type, .pImageInfo = &ii,
	};

	vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
}

/* A sampler2D shader (smp_mips, smp_wrap, smp_uint): binding 0 the
 * sampler, 1 queries, 2 results, push constant n. */
VkResult
pipe_2d(struct vkh_device *d, const uint32_t *spv, size_t size,
        struct io *io, struct vkh_pipe *p)
{
	struct vkh_pipe_desc pd = {
		.spv = spv, .spv_size = size, .set_count = 1,
		.binding_count = { 3 },
		.types = { { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
		.push_bytes = 4,
	};
	VkResult r = vkh_pipe_create(d, &pd, p);

	if (r == VK_SUCCESS)
		io_bind(d, p, io, 1);
	return r;
}

void
set_q(float q[4], double x, double y, double z, double mode)
{
	q[0] = (float)x;
	q[1] = (float)y;
	q[2] = (float)z;
	q[3] = (float)mode;
}

/* smp_separate: its own set layout, with immutable samplers. */
VkResult
pipe_separate(struct vkh_device *d, VkSampler imm, VkSampler cimm,
              struct vkh_pipe *p)
{
	const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
	VkDescriptorSetLayoutBinding b[6] = {
		{ 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, cs, NULL },
		{ 1, VK_DESCRIPTOR_TYPE_SAMPLER, 1, cs, NULL },
		{ 2, VK_DESCRIPTOR_TYPE_SAMPLER, 1, cs, &imm },
		{ 3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, &cimm },
		{ 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, NULL },
		{ 5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, NULL },
	};
	VkDescriptorPoolSize sizes[6];
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 6, .pBindings = b,
	};
	VkDescriptorPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 6, .pPoolSizes = sizes,
	};
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = sizeof(smp_separate_spv),
		.pCode = smp_separate_spv,
	};
	VkPushConstantRange pcr = { cs, 0, 4 };
	VkResult r;

	memset(p, 0, sizeof(*p));
	p->push_bytes = 4;
	for (int i = 0; i < 6; i++)
		sizes[i] = (VkDescriptorPoolSize){ b[i].descriptorType, 1 };
	r = vkCreateShaderModule(d->device, &smci, NULL, &p->module);
	if (r == VK_SUCCESS)
		r = vkCreateDescriptorSetLayout(d->device, &lci, NULL,
		                                &p->set_layouts[0]);
	if (r != VK_SUCCESS)
		return r;
	p->set_count = 1;
	r = vkCreateDescriptorPool(d->device, &pci, NULL, &p->pool);
	if (r != VK_SUCCESS)
		return r;
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = p->pool, .descriptorSetCount = 1,
		.pSetLayouts = p->set_layouts,
	};
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = p->set_layouts,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	r = vkAllocateDescriptorSets(d->device, &ai, p->sets);
	if (r == VK_SUCCESS)
		r = vkCreatePipelineLayout(d->device, &plci, NULL, &p->layout);
	if (r != VK_SUCCESS)
		return r;
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = p->module, .pName = "main",
		},
		.layout = p->layout,
	};
	return vkCreateComputePipelines(d->device, VK_NULL_HANDLE, 1, &cpci,
	                                NULL, &p->pipeline);
}
