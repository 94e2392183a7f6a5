/* SPDX-License-Identifier: MIT */
/*
 * Storage images and texel buffers in compute shaders, through the loader
 * (validation on, synchronization validation included), on swgpu and
 * lavapipe:
 *  - the format features: STORAGE_IMAGE on the storage formats, the
 *    ATOMIC bits on R32_UINT/SINT, none on depth, texel-buffer bits;
 *  - img_basic: RGBA8 unorm image -> float -> RGBA32F image x 2, R32_UINT
 *    image atomics, imageSize, and with robustImageAccess loads outside
 *    the image read 0 and stores outside write nothing;
 *  - img_volume: a 3D R32F image, a view of layers 1-2 of a 3-layer
 *    RG16UI array image (so the view's base layer matters), two R32I
 *    storage texel buffers at offsets of one buffer, and an R16UI
 *    uniform texel buffer read with texelFetch. (Descriptor arrays
 *    indexed per invocation: swgpu's test_shader_image.)
 * Images go in and out with buffer copies; everything is checked on the
 * host.
 */
#include "image_vk.h"
#include "vkh_compute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "img_basic.spv.h"
#include "img_volume.spv.h"

#define STORAGE_USAGE VK_IMAGE_USAGE_STORAGE_BIT

static void
test_format_features(struct vkh *h, struct vkh_device *unused)
{
	static const VkFormat storage[] = {
		VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT,
		VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT, VK_FORMAT_R32_SFLOAT,
		VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_UINT,
	};
	VkFormatProperties p;

	(void)unused;
	for (size_t i = 0; i < sizeof(storage) / sizeof(storage[0]); i++) {
		vkGetPhysicalDeviceFormatProperties(h->phys, storage[i], &p);
		VKH_CHECK_MSG(h, p.optimalTilingFeatures &
		              VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT,
		              "format %d: no STORAGE_IMAGE", storage[i]);
		VKH_CHECK_MSG(h, p.bufferFeatures &
		              VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT,
		              "format %d: no STORAGE_TEXEL_BUFFER", storage[i]);
		VKH_CHECK(h, p.bufferFeatures &
		          VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT);
	}
	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_R32_UINT, &p);
	VKH_CHECK(h, p.optimalTilingFeatures &
	          VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT);
	VKH_CHECK(h, p.bufferFeatures &
	          VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT);
	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_D32_SFLOAT, &p);
	VKH_CHECK(h, !(p.optimalTilingFeatures &
	               VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
	VkPhysicalDeviceFeatures f;
	vkGetPhysicalDeviceFeatures(h->phys, &f);
	VKH_CHECK(h, f.shaderStorageImageExtendedFormats);
}

/* Every subresource to GENERAL, after and before any access. */
static void
to_general(VkCommandBuffer cb, struct timg *t)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
		                 VK_ACCESS_MEMORY_WRITE_BIT,
		.oldLayout = t->layout,
		.newLayout = VK_IMAGE_LAYOUT_GENERAL,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = t->image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0,
		                      VK_REMAINING_MIP_LEVELS, 0,
		                      VK_REMAINING_ARRAY_LAYERS },
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	                     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL,
	                     0, NULL, 1, &b);
	t->layout = VK_IMAGE_LAYOUT_GENERAL;
}

static VkImageView
make_view(struct vkh_device *d, struct timg *t, VkImageViewType type,
          uint32_t base_layer, uint32_t layers)
{
	VkImageViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = t->image, .viewType = type,
		.format = t->desc.format,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1,
		                      base_layer, layers },
	};
	VkImageView v = VK_NULL_HANDLE;

	if (vkCreateImageView(d->device, &ci, NULL, &v) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return v;
}

static VkBufferView
make_buffer_view(struct vkh_device *d, VkBuffer b, VkFormat f,
                 VkDeviceSize off, VkDeviceSize range)
{
	VkBufferViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
		.buffer = b, .format = f, .offset = off, .range = range,
	};
	VkBufferView v = VK_NULL_HANDLE;

	if (vkCreateBufferView(d->device, &ci, NULL, &v) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return v;
}

static void
set_image(struct vkh_device *d, struct vkh_pipe *p, uint32_t binding,
          VkImageView v)
{
	VkDescriptorImageInfo ii = { .imageView = v,
	                             .imageLayout = VK_IMAGE_LAYOUT_GENERAL };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = p->sets[0], .dstBinding = binding,
		.descriptorCount = 1,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		.pImageInfo = &ii,
	};
	vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
}

static void
set_texel(struct vkh_device *d, struct vkh_pipe *p, uint32_t binding,
          uint32_t element, VkDescriptorType type, VkBufferView v)
{
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = p->sets[0], .dstBinding = binding,
		.dstArrayElement = element, .descriptorCount = 1,
		.descriptorType = type, .pTexelBufferView = &v,
	};
	vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
}

/* Images to GENERAL, dispatch, make the writes visible to later
 * transfers and the host; submitted and waited. */
static VkResult
run(struct vkh_device *d, struct vkh_pipe *p, struct timg **imgs,
    uint32_t nimg, uint32_t gx, uint32_t gy)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
		                 VK_ACCESS_MEMORY_WRITE_BIT,
	};

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	for (uint32_t i = 0; i < nimg; i++)
		to_general(cb, imgs[i]);
	vkh_pipe_bind(cb, p, 0, NULL, NULL);
	vkCmdDispatch(cb, gx, gy, 1);
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT |
	                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
	                     0, NULL);
	return vkh_cmd_submit_wait(d, 0, cb);
}

/* The accesses outside the image are defined only with
 * robustImageAccess: a device of its own with it on (skipped without). */
static void
test_basic_body(struct vkh *h, struct vkh_device *d);

static void
test_basic(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_device d;

	(void)unused;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f13.robustImageAccess) {
		vkh_skip(h, "robustImageAccess not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	memset(&f13, 0, sizeof(f13));
	f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f13.robustImageAccess = VK_TRUE;
	f13.maintenance4 = h->maintenance4;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	test_basic_body(h, &d);
	vkh_device_destroy(h, &d);
}

static void
test_basic_body(struct vkh *h, struct vkh_device *d)
{
	struct vkh_pipe_desc pd = {
		.spv = img_basic_spv, .spv_size = sizeof(img_basic_spv),
		.set_count = 1, .binding_count = { 4 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
	};
	struct timg_desc ds = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
	                        VK_IMAGE_TILING_OPTIMAL, { 16, 16, 1 }, 1, 1,
	                        0 };
	struct timg_desc dd = ds, dc = ds;
	struct timg src, dst, cnt;
	struct vkh_buffer out;
	struct vkh_pipe p;
	uint8_t *got[2] = { NULL, NULL }, *gotc[2] = { NULL, NULL };

	dd.format = VK_FORMAT_R32G32B32A32_SFLOAT;
	dc.format = VK_FORMAT_R32_UINT;
	dc.extent = (VkExtent3D){ 4, 4, 1 };
	VKH_CHECK_VK(h, timg_create(h, d, &ds, STORAGE_USAGE, &src));
	VKH_CHECK_VK(h, timg_create(h, d, &dd, STORAGE_USAGE, &dst));
	VKH_CHECK_VK(h, timg_create(h, d, &dc, STORAGE_USAGE, &cnt));
	timg_randomize(&src, 7);
	memset(dst.model[0], 0, dst.plane_size[0]);
	memset(cnt.model[0], 0, cnt.plane_size[0]);
	VKH_CHECK_VK(h, timg_upload(h, d, &src));
	VKH_CHECK_VK(h, timg_upload(h, d, &dst));
	VKH_CHECK_VK(h, timg_upload(h, d, &cnt));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 4096, 0, &out));
	memset(out.map, 0, 4096);
	vkh_buffer_flush(h, d, &out);
	VKH_CHECK_VK(h, vkh_pipe_create(d, &pd, &p));
	VkImageView v[3] = {
		make_view(d, &src, VK_IMAGE_VIEW_TYPE_2D, 0, 1),
		make_view(d, &dst, VK_IMAGE_VIEW_TYPE_2D, 0, 1),
		make_view(d, &cnt, VK_IMAGE_VIEW_TYPE_2D, 0, 1),
	};
	for (int i = 0; i < 3; i++) {
		VKH_CHECK(h, v[i] != VK_NULL_HANDLE);
		set_image(d, &p, (uint32_t)i, v[i]);
	}
	vkh_pipe_set_buffer(d, &p, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    out.buffer, 0, 4096);
	struct timg *imgs[3] = { &src, &dst, &cnt };
	VKH_CHECK_VK(h, run(d, &p, imgs, 3, 2, 2));
	VKH_CHECK(h, timg_readback(h, d, &dst, got) == 0);
	VKH_CHECK(h, timg_readback(h, d, &cnt, gotc) == 0);
	vkh_buffer_invalidate(h, d, &out);

	const float *df = (const float *)got[0];
	const uint8_t *sm = src.model[0];
	long bad = 0;
	for (uint32_t i = 0; i < 16 * 16 * 4; i++) {
		float want = (float)sm[i] / 255.0f * 2.0f;
		if (fabsf(df[i] - want) > 1e-5f && bad++ < 4)
			printf("  texel %u comp %u: %f, want %f\n", i / 4, i % 4,
			       df[i], want);
	}
	VKH_CHECK_MSG(h, !bad, "%ld wrong components", bad);
	const uint32_t *c = (const uint32_t *)gotc[0];
	for (uint32_t i = 0; i < 16; i++)
		VKH_CHECK_MSG(h, c[i] == 16, "counter %u = %u", i, c[i]);
	const uint32_t *o = out.map;
	VKH_CHECK(h, o[0] == 16 && o[1] == 16 && o[2] == 16 && o[3] == 16);
	VKH_CHECK(h, o[8] == 15);          /* largest old counter value */
	for (int i = 0; i < 4; i++)        /* loads outside the image */
		VKH_CHECK(h, o[4 + i] == 0);
	free(got[0]);
	free(gotc[0]);
	for (int i = 0; i < 3; i++)
		vkDestroyImageView(d->device, v[i], NULL);
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &out);
	timg_destroy(d, &src);
	timg_destroy(d, &dst);
	timg_destroy(d, &cnt);
}

static void
test_volume_texel(struct vkh *h, struct vkh_device *d)
{
	struct vkh_pipe_desc pd = {
		.spv = img_volume_spv, .spv_size = sizeof(img_volume_spv),
		.set_count = 1, .binding_count = { 6 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		             VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
		             VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
	};
	struct timg_desc dv = { VK_IMAGE_TYPE_3D, VK_FORMAT_R32_SFLOAT,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 2 }, 1, 1,
	                        0 };
	struct timg_desc da = { VK_IMAGE_TYPE_2D, VK_FORMAT_R16G16_UINT,
	                        VK_IMAGE_TILING_OPTIMAL, { 4, 4, 1 }, 1, 3,
	                        0 };
	struct timg vol, arr;
	struct vkh_buffer tb, ub, out;
	struct vkh_pipe p;
	uint8_t *gv[2] = { NULL, NULL }, *ga[2] = { NULL, NULL };
	VkPhysicalDeviceProperties props;

	vkGetPhysicalDeviceProperties(h->phys, &props);
	VkDeviceSize align = props.limits.minTexelBufferOffsetAlignment;
	if (align < 64)
		align = 64;
	VKH_CHECK_VK(h, timg_create(h, d, &dv, STORAGE_USAGE, &vol));
	VKH_CHECK_VK(h, timg_create(h, d, &da, STORAGE_USAGE, &arr));
	memset(vol.model[0], 0, vol.plane_size[0]);
	memset(arr.model[0], 0xab, arr.plane_size[0]);
	VKH_CHECK_VK(h, timg_upload(h, d, &vol));
	VKH_CHECK_VK(h, timg_upload(h, d, &arr));
	/* Two storage texel buffers in one buffer, at aligned offsets. */
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 2 * align,
	                                VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
	                                &tb));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 64,
	                                VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
	                                &ub));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 4096, 0, &out));
	memset(tb.map, 0, 2 * align);
	for (uint32_t i = 0; i < 32; i++)
		((uint16_t *)ub.map)[i] = (uint16_t)(60000 + i);
	memset(out.map, 0, 4096);
	vkh_buffer_flush(h, d, &tb);
	vkh_buffer_flush(h, d, &ub);
	vkh_buffer_flush(h, d, &out);
	VKH_CHECK_VK(h, vkh_pipe_create(d, &pd, &p));
	VkImageView vv = make_view(d, &vol, VK_IMAGE_VIEW_TYPE_3D, 0, 1);
	VkImageView va = make_view(d, &arr, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 1, 2);
	VkBufferView bv[3] = {
		make_buffer_view(d, tb.buffer, VK_FORMAT_R32_SINT, 0, 64),
		make_buffer_view(d, tb.buffer, VK_FORMAT_R32_SINT, align, 64),
		make_buffer_view(d, ub.buffer, VK_FORMAT_R16_UINT, 0,
		                 VK_WHOLE_SIZE),
	};
	VKH_CHECK(h, vv && va && bv[0] && bv[1] && bv[2]);
	set_image(d, &p, 0, vv);
	set_image(d, &p, 1, va);
	set_texel(d, &p, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, bv[0]);
	set_texel(d, &p, 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, bv[1]);
	set_texel(d, &p, 4, 0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, bv[2]);
	vkh_pipe_set_buffer(d, &p, 0, 5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    out.buffer, 0, 4096);
	struct timg *imgs[2] = { &vol, &arr };
	VKH_CHECK_VK(h, run(d, &p, imgs, 2, 1, 1));
	VKH_CHECK(h, timg_readback(h, d, &vol, gv) == 0);
	VKH_CHECK(h, timg_readback(h, d, &arr, ga) == 0);
	vkh_buffer_invalidate(h, d, &tb);
	vkh_buffer_invalidate(h, d, &out);

	const float *fv = (const float *)gv[0];
	const uint32_t *ua = (const uint32_t *)ga[0];
	const int32_t *t0 = tb.map, *t1 = (const int32_t *)
		((const uint8_t *)tb.map + align), *o = out.map;
	for (uint32_t z = 0; z < 2; z++)
		for (uint32_t y = 0; y < 4; y++)
			for (uint32_t x = 0; x < 4; x++) {
				uint32_t i = x + 4 * y + 16 * z;

				VKH_CHECK_MSG(h, fv[i] == (float)(x + 10 * y +
				              100 * z), "vol %u: %f", i, fv[i]);
				/* view layer z is image layer z + 1 */
				VKH_CHECK_MSG(h, ua[16 * (z + 1) + 4 * y + x] ==
				              ((x + y) | z << 16), "arr %u: 0x%x",
				              i, ua[16 * (z + 1) + 4 * y + x]);
				VKH_CHECK(h, (i & 1 ? t1 : t0)[i / 2] ==
				             -(int32_t)i);
				VKH_CHECK(h, o[4 + i] == (int32_t)(60000 + i));
			}
	for (uint32_t i = 0; i < 16; i++)  /* layer 0: outside the view */
		VKH_CHECK(h, ua[i] == 0xabababab);
	VKH_CHECK(h, o[0] == 2 && o[1] == 2 && o[2] == 16 && o[3] == 32);
	free(gv[0]);
	free(ga[0]);
	vkDestroyImageView(d->device, vv, NULL);
	vkDestroyImageView(d->device, va, NULL);
	for (int i = 0; i < 3; i++)
		vkDestroyBufferView(d->device, bv[i], NULL);
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &tb);
	vkh_buffer_destroy(d, &ub);
	vkh_buffer_destroy(d, &out);
	timg_destroy(d, &vol);
	timg_destroy(d, &arr);
}

static const struct vkh_test tests[] = {
	{ "format_features", test_format_features, 1, VK_QUEUE_COMPUTE_BIT },
	{ "storage_images_2d", test_basic, 1, VK_QUEUE_COMPUTE_BIT },
	{ "volume_array_texel_buffers", test_volume_texel, 1,
	  VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_image", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
