/* SPDX-License-Identifier: MIT */
/*
 * Atomics on images and texel buffers beyond the R32_UINT image of
 * test_vk_compute_image (issue 23): the ATOMIC format features on
 * R32_UINT / R32_SINT storage texel buffers and on R32_SFLOAT storage
 * images and texel buffers where shaderImageFloat32Atomics is reported;
 * then imageAtomicAdd of floats on an R32_SFLOAT image (every add's old
 * value and the sum are exact: quarters), integer add and min on R32_UINT
 * and R32_SINT storage texel buffers. On swgpu and lavapipe; skips (77)
 * without a COMPUTE queue or shaderImageFloat32AtomicAdd.
 */
#include "image_vk.h"
#include "vkh_compute.h"

#include <stdlib.h>
#include <string.h>

#include "img_fatomic.spv.h"

#define N 256u          /* invocations */
#define TEXELS 16u

static VkFormatFeatureFlags
buffer_features(struct vkh *h, VkFormat f)
{
	VkFormatProperties p;

	vkGetPhysicalDeviceFormatProperties(h->phys, f, &p);
	return p.bufferFeatures;
}

static VkFormatFeatureFlags
image_features(struct vkh *h, VkFormat f)
{
	VkFormatProperties p;

	vkGetPhysicalDeviceFormatProperties(h->phys, f, &p);
	return p.optimalTilingFeatures;
}

static VkBufferView
texel_view(struct vkh_device *d, VkBuffer b, VkFormat f)
{
	VkBufferViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
		.buffer = b, .format = f, .offset = 0, .range = TEXELS * 4,
	};
	VkBufferView v = VK_NULL_HANDLE;

	if (vkCreateBufferView(d->device, &ci, NULL, &v) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return v;
}

static int
cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

static void
body(struct vkh *h, struct vkh_device *d)
{
	struct vkh_pipe_desc pd = {
		.spv = img_fatomic_spv, .spv_size = sizeof(img_fatomic_spv),
		.set_count = 1, .binding_count = { 4 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
	};
	struct timg_desc di = { VK_IMAGE_TYPE_2D, VK_FORMAT_R32_SFLOAT,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 1,
	                        0 };
	struct vkh_buffer ub = { 0 }, ib = { 0 }, out = { 0 };
	struct timg img;
	struct vkh_pipe p;
	uint8_t *got[2] = { NULL, NULL };

	VKH_CHECK_VK(h, timg_create(h, d, &di, VK_IMAGE_USAGE_STORAGE_BIT,
	                            &img));
	for (uint32_t t = 0; t < TEXELS; t++)
		((float *)img.model[0])[t] = 1.0f;
	VKH_CHECK_VK(h, timg_upload(h, d, &img));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, TEXELS * 4,
	             VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, &ub));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, TEXELS * 4,
	             VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, &ib));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, N * 4, 0, &out));
	for (uint32_t t = 0; t < TEXELS; t++) {
		((uint32_t *)ub.map)[t] = 1000u * t;
		((int32_t *)ib.map)[t] = 5;
	}
	memset(out.map, 0, N * 4);
	vkh_buffer_flush(h, d, &ub);
	vkh_buffer_flush(h, d, &ib);
	vkh_buffer_flush(h, d, &out);
	VKH_CHECK_VK(h, vkh_pipe_create(d, &pd, &p));

	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = img.image, .viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = VK_FORMAT_R32_SFLOAT,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	VkImageView iv = VK_NULL_HANDLE;
	VKH_CHECK_VK(h, vkCreateImageView(d->device, &vci, NULL, &iv));
	VkBufferView uv = texel_view(d, ub.buffer, VK_FORMAT_R32_UINT);
	VkBufferView sv = texel_view(d, ib.buffer, VK_FORMAT_R32_SINT);
	VKH_CHECK(h, uv != VK_NULL_HANDLE && sv != VK_NULL_HANDLE);
	VkDescriptorImageInfo ii = { .imageView = iv,
	                             .imageLayout = VK_IMAGE_LAYOUT_GENERAL };
	VkWriteDescriptorSet w[3] = {
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstSet = p.sets[0], .dstBinding = 0, .descriptorCount = 1,
		  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		  .pImageInfo = &ii },
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstSet = p.sets[0], .dstBinding = 1, .descriptorCount = 1,
		  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
		  .pTexelBufferView = &uv },
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstSet = p.sets[0], .dstBinding = 2, .descriptorCount = 1,
		  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
		  .pTexelBufferView = &sv },
	};
	vkUpdateDescriptorSets(d->device, 3, w, 0, NULL);
	vkh_pipe_set_buffer(d, &p, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    out.buffer, 0, VK_WHOLE_SIZE);

	VkCommandBuffer cb = vkh_cmd_begin(d, 0);
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
		                 VK_ACCESS_MEMORY_WRITE_BIT,
	};
	/* the upload's copy before the shader's atomics, into GENERAL */
	VkImageMemoryBarrier ib_general = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
		                 VK_ACCESS_MEMORY_WRITE_BIT,
		.oldLayout = img.layout,
		.newLayout = VK_IMAGE_LAYOUT_GENERAL,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img.image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	                     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL,
	                     0, NULL, 1, &ib_general);
	img.layout = VK_IMAGE_LAYOUT_GENERAL;
	vkh_pipe_bind(cb, &p, 0, NULL, NULL);
	vkCmdDispatch(cb, N / 64, 1, 1);
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT |
	                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
	                     0, NULL);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK(h, timg_readback(h, d, &img, got) == 0);
	vkh_buffer_invalidate(h, d, &ub);
	vkh_buffer_invalidate(h, d, &ib);
	vkh_buffer_invalidate(h, d, &out);

	/* Texel t of the image: 16 adds of 0.25 onto 1.0, in some order;
	 * the old values are 1.0, 1.25, ..., 4.75, each once. */
	const float *f = (const float *)got[0];
	const float *old = out.map;
	long bad = 0;
	for (uint32_t t = 0; t < TEXELS; t++) {
		float olds[N / TEXELS];
		uint32_t n = 0;

		if (f[t] != 5.0f && bad++ < 4)
			printf("  texel %u: %f, want 5.0\n", t, f[t]);
		for (uint32_t i = 0; i < N; i++)
			if (i % 16 == t)
				olds[n++] = old[i];
		qsort(olds, n, sizeof(olds[0]), cmp_float);
		for (uint32_t k = 0; k < n; k++)
			if (olds[k] != 1.0f + 0.25f * (float)k && bad++ < 4)
				printf("  texel %u: old values %f at %u\n", t,
				       olds[k], k);
	}
	/* Texel t of the buffers: 1000 t plus the invocations i = t +
	 * 16 j, j < 16 (16 t + 120 x 16); min(5, -i) = -(t + 240). */
	const uint32_t *u = ub.map;
	const int32_t *s = ib.map;
	for (uint32_t t = 0; t < TEXELS; t++) {
		if (u[t] != 1000u * t + 16u * t + 1920u && bad++ < 4)
			printf("  uint texel %u: %u\n", t, u[t]);
		if (s[t] != -(int32_t)(t + 240) && bad++ < 4)
			printf("  sint texel %u: %d\n", t, s[t]);
	}
	free(got[0]);
	vkDestroyBufferView(d->device, uv, NULL);
	vkDestroyBufferView(d->device, sv, NULL);
	vkDestroyImageView(d->device, iv, NULL);
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &out);
	vkh_buffer_destroy(d, &ib);
	vkh_buffer_destroy(d, &ub);
	timg_destroy(d, &img);
	VKH_CHECK_MSG(h, !bad, "%ld wrong value(s)", bad);
}

static void
test_float_image_and_texel_atomics(struct vkh *h, struct vkh_device *unused)
{
	static const char *const exts[] = {
		VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME,
	};
	VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &af,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	const VkFormatFeatureFlags tb = VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT |
		VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
	const VkFormatFeatureFlags im = VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT |
		VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
	struct vkh_device d;

	(void)unused;
	/* Required of every device (Vulkan 1.3 "Required Format
	 * Support"). */
	VKH_CHECK(h, (buffer_features(h, VK_FORMAT_R32_UINT) & tb) == tb);
	VKH_CHECK(h, (buffer_features(h, VK_FORMAT_R32_SINT) & tb) == tb);
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	printf("  shaderImageFloat32Atomics %u, AtomicAdd %u; R32_SFLOAT "
	       "image 0x%x, texel buffer 0x%x\n", af.shaderImageFloat32Atomics,
	       af.shaderImageFloat32AtomicAdd,
	       image_features(h, VK_FORMAT_R32_SFLOAT) & im,
	       buffer_features(h, VK_FORMAT_R32_SFLOAT) & tb);
	if (!af.shaderImageFloat32Atomics || !af.shaderImageFloat32AtomicAdd) {
		vkh_skip(h, "shaderImageFloat32AtomicAdd not reported");
		return;
	}
	/* The float image atomics need an R32_SFLOAT format with the
	 * ATOMIC bit (the spec requires it with shaderImageFloat32Atomics). */
	VKH_CHECK(h, (image_features(h, VK_FORMAT_R32_SFLOAT) & im) == im);
	memset(&f2.features, 0, sizeof(f2.features));
	memset(&af, 0, sizeof(af));
	af.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
	af.shaderImageFloat32Atomics = VK_TRUE;
	af.shaderImageFloat32AtomicAdd = VK_TRUE;
	f13 = (VkPhysicalDeviceVulkan13Features){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &af,
		.maintenance4 = h->maintenance4,
	};
	VKH_CHECK_VK(h, vkh_device_create_features_ext(h, VK_QUEUE_COMPUTE_BIT,
	                                               &f2, exts, 1, &d));
	body(h, &d);
	vkh_device_destroy(h, &d);
}

static const struct vkh_test tests[] = {
	/* Makes its own device with the float atomic features. */
	{ "float_image_and_texel_atomics", test_float_image_and_texel_atomics,
	  1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_image_atomics", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
