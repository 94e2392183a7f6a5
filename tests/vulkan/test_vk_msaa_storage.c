/* SPDX-License-Identifier: MIT */
/*
 * Multisampled storage images (issue 21): shaderStorageImageMultisample
 * and storageImageSampleCounts. For every sample count the device offers
 * for R32_UINT storage images (swgpu: 2, 4, 8; lavapipe: 4), a 2-layer
 * 8 x 4 image cleared to 7 gets, per (layer, sample, texel), an
 * imageAtomicAdd of a unique code (every old value must be 7),
 * imageSamples (must be S), then imageLoad of that sample and
 * imageStore of 2 v + 1 into the same sample of a second image, read
 * back by imageLoad: every sample must hold exactly its own value, so a
 * sample or layer addressed in another's place fails. Skips (77)
 * without a COMPUTE queue or the feature.
 */
#include "vkh_compute.h"

#include <string.h>

#include "img_ms_storage.spv.h"

#define W 8u
#define H 4u
#define LAYERS 2u

struct ms_img {
	VkImage image;
	VkDeviceMemory mem;
	VkImageView view;
};

static VkResult
ms_img_create(struct vkh *h, struct vkh_device *d, uint32_t S,
              struct ms_img *m)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D, .format = VK_FORMAT_R32_UINT,
		.extent = { W, H, 1 }, .mipLevels = 1, .arrayLayers = LAYERS,
		.samples = (VkSampleCountFlagBits)S,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_STORAGE_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	VkMemoryRequirements req;
	VkResult r;

	memset(m, 0, sizeof(*m));
	r = vkCreateImage(d->device, &ci, NULL, &m->image);
	if (r != VK_SUCCESS)
		return r;
	vkGetImageMemoryRequirements(d->device, m->image, &req);
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)vkh_memtype_device_local(
			h, req.memoryTypeBits),
	};
	r = vkAllocateMemory(d->device, &ai, NULL, &m->mem);
	if (r == VK_SUCCESS)
		r = vkBindImageMemory(d->device, m->image, m->mem, 0);
	if (r != VK_SUCCESS)
		return r;
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = m->image, .viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY,
		.format = VK_FORMAT_R32_UINT,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0,
		                      LAYERS },
	};
	return vkCreateImageView(d->device, &vci, NULL, &m->view);
}

/* Also of a partly made one (null handles are ignored). */
static void
ms_img_destroy(struct vkh_device *d, struct ms_img *m)
{
	vkDestroyImageView(d->device, m->view, NULL);
	vkDestroyImage(d->device, m->image, NULL);
	vkFreeMemory(d->device, m->mem, NULL);
}

/* Both images UNDEFINED -> GENERAL, src cleared to 7, dst to 0. */
static void
record_clears(VkCommandBuffer cb, const struct ms_img img[2])
{
	const VkImageSubresourceRange all = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1,
	                                      0, LAYERS };
	VkImageMemoryBarrier b[2];

	for (uint32_t k = 0; k < 2; k++)
		b[k] = (VkImageMemoryBarrier){
			.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
			.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
			.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
			.newLayout = VK_IMAGE_LAYOUT_GENERAL,
			.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.image = img[k].image, .subresourceRange = all,
		};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 2, b);
	for (uint32_t k = 0; k < 2; k++) {
		VkClearColorValue v = { .uint32 = { k ? 0u : 7u } };

		vkCmdClearColorImage(cb, img[k].image, VK_IMAGE_LAYOUT_GENERAL,
		                     &v, 1, &all);
	}
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
		                 VK_ACCESS_SHADER_WRITE_BIT,
	};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb,
	                     0, NULL, 0, NULL);
}

/* One sample count; returns the number of wrong values. */
static long
run_count(struct vkh *h, struct vkh_device *d, uint32_t S)
{
	const uint32_t n = LAYERS * S * W * H;
	struct vkh_pipe_desc pd = {
		.spv = img_ms_storage_spv, .spv_size = sizeof(img_ms_storage_spv),
		.set_count = 1, .binding_count = { 3 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
		.push_bytes = 12,
	};
	struct ms_img img[2];
	struct vkh_buffer out = { 0 };
	struct vkh_pipe p;
	long bad = 0;

	memset(img, 0, sizeof(img));
	memset(&p, 0, sizeof(p));
	if (ms_img_create(h, d, S, &img[0]) != VK_SUCCESS ||
	    ms_img_create(h, d, S, &img[1]) != VK_SUCCESS ||
	    vkh_host_buffer(h, d, 3ull * n * 4, 0, &out) != VK_SUCCESS ||
	    vkh_pipe_create(d, &pd, &p) != VK_SUCCESS) {
		vkh_fail(h, __FILE__, __LINE__, "%u samples: setup", S);
		bad = 1;
		goto out;
	}
	memset(out.map, 0xee, 3ull * n * 4);
	vkh_buffer_flush(h, d, &out);
	VkDescriptorImageInfo ii[2] = {
		{ .imageView = img[0].view,
		  .imageLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .imageView = img[1].view,
		  .imageLayout = VK_IMAGE_LAYOUT_GENERAL },
	};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = p.sets[0], .dstBinding = 0, .descriptorCount = 2,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		.pImageInfo = ii,
	};
	vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
	vkh_pipe_set_buffer(d, &p, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    out.buffer, 0, VK_WHOLE_SIZE);

	VkCommandBuffer cb = vkh_cmd_begin(d, 0);
	if (!cb) {
		vkh_fail(h, __FILE__, __LINE__, "command buffer");
		bad = 1;
		goto out;
	}
	record_clears(cb, img);
	for (uint32_t phase = 0; phase < 3; phase++) {
		const uint32_t push[3] = { phase, S, n };

		vkh_pipe_bind(cb, &p, 0, NULL, push);
		vkCmdDispatch(cb, 1, 1, LAYERS * S);
		vkh_cmd_compute_barrier(cb);
	}
	vkh_cmd_compute_host_barrier(cb);
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS) {
		vkh_fail(h, __FILE__, __LINE__, "%u samples: submit", S);
		bad = 1;
		goto out;
	}
	vkh_buffer_invalidate(h, d, &out);
	const uint32_t *v = out.map;
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t want = 2u * (7u + i + 1u) + 1u;

		if (v[i] != 7u && bad++ < 6)
			printf("  S=%u invocation %u: atomic returned %u, "
			       "want 7\n", S, i, v[i]);
		if (v[n + i] != S && bad++ < 6)
			printf("  S=%u invocation %u: imageSamples %u\n", S,
			       i, v[n + i]);
		if (v[2 * n + i] != want && bad++ < 6)
			printf("  S=%u layer %u sample %u texel %u: %u, want "
			       "%u\n", S, i / 32u / S, i / 32u % S, i % 32u,
			       v[2 * n + i], want);
	}
	printf("  %u samples: %u sample texels checked, %ld wrong\n", S, n,
	       bad);
out:
	if (p.pipeline)
		vkh_pipe_destroy(d, &p);
	if (out.buffer)
		vkh_buffer_destroy(d, &out);
	ms_img_destroy(d, &img[0]);
	ms_img_destroy(d, &img[1]);
	return bad;
}

static void
test_load_store_atomic(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
	};
	VkPhysicalDeviceProperties props;
	struct vkh_device d;
	uint32_t tried = 0;
	long bad = 0;

	(void)unused;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	vkGetPhysicalDeviceProperties(h->phys, &props);
	if (!f2.features.shaderStorageImageMultisample) {
		vkh_skip(h, "shaderStorageImageMultisample not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderStorageImageMultisample = VK_TRUE;
	/* glslang's SPIR-V 1.6 uses LocalSizeId */
	f13.maintenance4 = h->maintenance4;
	f2.pNext = &f13;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	for (uint32_t S = 2; S <= 8; S *= 2) {
		VkImageFormatProperties ip;
		const bool limit = props.limits.storageImageSampleCounts & S;
		VkResult r = vkGetPhysicalDeviceImageFormatProperties(
			h->phys, VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D,
			VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_STORAGE_BIT |
			VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &ip);

		/* the format query must not offer more than the limit */
		VKH_CHECK(h, r == VK_SUCCESS);
		VKH_CHECK_MSG(h, limit || !(ip.sampleCounts & S),
		              "%u samples offered beyond "
		              "storageImageSampleCounts", S);
		if (!(ip.sampleCounts & S)) {
			printf("  %u samples: not offered\n", S);
			continue;
		}
		tried++;
		bad += run_count(h, &d, S);
	}
	vkh_device_destroy(h, &d);
	VKH_CHECK_MSG(h, tried > 0, "shaderStorageImageMultisample without "
	              "a multisampled R32_UINT storage image");
	VKH_CHECK_MSG(h, !bad, "%ld wrong value(s)", bad);
}

static const struct vkh_test tests[] = {
	/* Makes its own device with shaderStorageImageMultisample. */
	{ "load_store_atomic", test_load_store_atomic, 1,
	  VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_msaa_storage", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
