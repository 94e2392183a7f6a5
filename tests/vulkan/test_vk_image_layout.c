/* SPDX-License-Identifier: MIT */
/*
 * test_vk_image_layout: what an image's memory layout promises.
 *
 * linear_host_access: LINEAR images in host-visible memory. The host
 * writes every subresource through vkGetImageSubresourceLayout (offset,
 * rowPitch, depthPitch, arrayPitch) into a PREINITIALIZED image, the GPU
 * copies it out and every byte is compared; then the GPU writes new
 * content and the host reads it back through the same layout. The
 * reported layouts are checked for sanity (pitches hold a row/slice,
 * subresources inside the allocation and disjoint).
 *
 * array_3d_copy: vkCmdCopyImage between 2D array layers and 3D slices.
 *
 * large_images: big images and full mip chains through buffer copies.
 *
 * self_copy: vkCmdCopyImage from one image into itself.
 *
 * concurrent_disjoint_writes: two queues write disjoint bytes of the same
 * image rows at once.
 *
 * reported_formats: every core colour/compressed format reported for
 * transfers, round trip and a sub-box image copy (opaque blocks).
 *
 * layouts_ownership: content survives a chain of layout transitions
 * (TRANSFER_DST -> GENERAL -> TRANSFER_SRC -> TRANSFER_DST -> GENERAL)
 * and, when the device has two queue families, a queue family ownership
 * transfer (release on one family, acquire on the other) after which the
 * other family reads it.
 */
#include "image_vk.h"

#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const VkFormat linear_formats[] = {
	VK_FORMAT_R8_UNORM,
	VK_FORMAT_R8G8B8_UNORM,
	VK_FORMAT_R8G8B8A8_UNORM,
	VK_FORMAT_R16G16B16A16_SFLOAT,
	VK_FORMAT_R32G32B32A32_UINT,
	VK_FORMAT_BC1_RGB_UNORM_BLOCK,
};

static const struct timg_desc linear_shapes[] = {
	{ VK_IMAGE_TYPE_2D, 0, VK_IMAGE_TILING_LINEAR, { 45, 21, 1 }, 1, 1,
	  0 },
	{ VK_IMAGE_TYPE_2D, 0, VK_IMAGE_TILING_LINEAR, { 24, 16, 1 }, 2, 3,
	  0 },
	{ VK_IMAGE_TYPE_3D, 0, VK_IMAGE_TILING_LINEAR, { 11, 7, 5 }, 2, 1,
	  0 },
	{ VK_IMAGE_TYPE_1D, 0, VK_IMAGE_TILING_LINEAR, { 77, 1, 1 }, 1, 1,
	  0 },
};

/* Byte offset in mapped memory of block (x, y, z) of (mip, layer). */
static size_t
host_addr(const VkSubresourceLayout *sl, uint32_t bytes, uint32_t x,
          uint32_t y, uint32_t z)
{
	return sl->offset + z * sl->depthPitch + y * sl->rowPitch +
	       (size_t)x * bytes;
}

/* Query and sanity-check the layout of every subresource. */
static bool
get_layouts(struct vkh_device *d, const struct timg *t, VkDeviceSize size,
            VkSubresourceLayout *sl)
{
	uint32_t n = t->desc.mips * t->desc.layers;
	/* Bytes each subresource's blocks span from its offset. (The
	 * reported size may be larger: lavapipe reports the whole image.) */
	VkDeviceSize used[16];

	for (uint32_t m = 0; m < t->desc.mips; m++)
	for (uint32_t l = 0; l < t->desc.layers; l++) {
		VkImageSubresource sub = { VK_IMAGE_ASPECT_COLOR_BIT, m, l };
		VkSubresourceLayout *s = &sl[m * t->desc.layers + l];
		uint32_t b[3];
		timg_mip_blocks(t, m, b);
		VkDeviceSize *u = &used[m * t->desc.layers + l];
		vkGetImageSubresourceLayout(d->device, t->image, &sub, s);
		*u = s->depthPitch * (b[2] - 1) + s->rowPitch * (b[1] - 1) +
		     (VkDeviceSize)b[0] * t->pf[0]->bytes;
		if (s->rowPitch < (VkDeviceSize)b[0] * t->pf[0]->bytes ||
		    (b[2] > 1 && s->depthPitch < s->rowPitch * b[1]) ||
		    s->size < *u || s->offset + *u > size) {
			fprintf(stderr, "    %s mip %u layer %u: layout offset "
			        "%llu size %llu rowPitch %llu depthPitch %llu "
			        "does not hold %ux%ux%u blocks in %llu bytes\n",
			        t->fmt->name, m, l,
			        (unsigned long long)s->offset,
			        (unsigned long long)s->size,
			        (unsigned long long)s->rowPitch,
			        (unsigned long long)s->depthPitch, b[0], b[1],
			        b[2], (unsigned long long)size);
			return false;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++)
			if (sl[i].offset < sl[j].offset + used[j] &&
			    sl[j].offset < sl[i].offset + used[i]) {
				fprintf(stderr, "    %s: subresources %u and %u "
				        "overlap\n", t->fmt->name, i, j);
				return false;
			}
	return true;
}

/* Copy between the host model and mapped memory, block by block. */
static void
host_transfer(struct timg *t, const VkSubresourceLayout *sl, uint8_t *map,
              bool to_image)
{
	uint32_t bytes = t->pf[0]->bytes;

	for (uint32_t m = 0; m < t->desc.mips; m++)
	for (uint32_t l = 0; l < t->desc.layers; l++) {
		const VkSubresourceLayout *s = &sl[m * t->desc.layers + l];
		uint32_t b[3];
		timg_mip_blocks(t, m, b);
		for (uint32_t z = 0; z < b[2]; z++)
		for (uint32_t y = 0; y < b[1]; y++) {
			uint8_t *img = map + host_addr(s, bytes, 0, y, z);
			uint8_t *mod = timg_block(t, 0, m, l, 0, y, z);
			if (to_image)
				memcpy(img, mod, (size_t)b[0] * bytes);
			else
				memcpy(mod, img, (size_t)b[0] * bytes);
		}
	}
}

static bool
case_linear(struct vkh *h, struct vkh_device *d, struct timg *t,
            uint32_t seed)
{
	VkSubresourceLayout sl[16];
	VkMemoryRequirements req;
	VkCommandBuffer cb;
	uint8_t *map, *want;
	bool ok = false;
	long bad;

	vkGetImageMemoryRequirements(d->device, t->image, &req);
	if (!get_layouts(d, t, req.size, sl))
		return false;
	if (vkMapMemory(d->device, t->mem, 0, VK_WHOLE_SIZE, 0,
	                (void **)&map) != VK_SUCCESS)
		return false;
	/* Host -> image -> GPU readback. */
	timg_randomize(t, seed);
	host_transfer(t, sl, map, true);
	bad = timg_check(h, d, t, "host-written linear image");
	if (bad) {
		fprintf(stderr, "  %s: GPU read %ld blocks the host did not "
		        "write\n", t->fmt->name, bad);
		goto out;
	}
	/* GPU upload -> host read through the same layout. */
	timg_randomize(t, seed + 1);
	want = malloc(t->plane_size[0]);
	if (!want || timg_upload(h, d, t) != VK_SUCCESS) {
		free(want);
		goto out;
	}
	memcpy(want, t->model[0], t->plane_size[0]);
	cb = vkh_cmd_begin(d, t->qi);
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_GENERAL);
	vkh_cmd_host_barrier(cb);
	if (vkh_cmd_submit_wait(d, t->qi, cb) != VK_SUCCESS) {
		free(want);
		goto out;
	}
	if (!(h->mem.memoryTypes[t->mem_type].propertyFlags &
	      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) {
		VkMappedMemoryRange r = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = t->mem,
			.size = VK_WHOLE_SIZE,
		};
		vkInvalidateMappedMemoryRanges(d->device, 1, &r);
	}
	host_transfer(t, sl, map, false);
	bad = timg_compare_bytes(t->model[0], want, t->plane_size[0],
	                         "host read of GPU-written linear image");
	free(want);
	if (bad)
		fprintf(stderr, "  %s: host read %ld wrong bytes\n",
		        t->fmt->name, bad);
	ok = bad == 0;
out:
	vkUnmapMemory(d->device, t->mem);
	return ok;
}

static void
test_linear_host_access(struct vkh *h, struct vkh_device *d)
{
	unsigned run = 0, failed = 0, skipped = 0;

	for (unsigned f = 0; f < N(linear_formats); f++)
	for (unsigned s = 0; s < N(linear_shapes); s++) {
		struct timg_desc desc = linear_shapes[s];
		const char *why = "";
		struct timg t;
		VkResult r;

		desc.format = linear_formats[f];
		if (ir_format_is_compressed(ir_format_get(desc.format)) &&
		    desc.type != VK_IMAGE_TYPE_2D)
			continue;
		if (timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s linear %s: not reported (%s)\n",
			       ir_format_get(desc.format)->name,
			       timg_type_name(&desc), why);
			skipped++;
			continue;
		}
		r = timg_create_mem(h, d, &desc, 0,
		                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
		                    VK_IMAGE_LAYOUT_PREINITIALIZED, &t);
		if (r == VK_ERROR_FEATURE_NOT_PRESENT) {
			/* The spec lets a driver refuse host-visible memory
			 * for images; the issue requires swgpu to offer it. */
			printf("  %s linear %s: no host-visible memory type "
			       "for the image\n", t.fmt->name,
			       timg_type_name(&desc));
			timg_destroy(d, &t);
			if (h->is_swgpu) {
				vkh_fail(h, __FILE__, __LINE__, "swgpu: linear "
				         "image not bindable to host-visible "
				         "memory");
				failed++;
			} else {
				skipped++;
			}
			continue;
		}
		run++;
		if (r != VK_SUCCESS || !case_linear(h, d, &t, 31 * f + s)) {
			vkh_fail(h, __FILE__, __LINE__, "linear host access "
			         "%s %s", ir_format_get(desc.format)->name,
			         timg_type_name(&desc));
			failed++;
		}
		timg_destroy(d, &t);
	}
	printf("  %u cases run, %u failed, %u not reported\n", run, failed,
	       skipped);
	if (!run && !failed)
		vkh_skip(h, "no linear image the host can access");
}

/* Barrier with a queue family ownership transfer; src/dst access per
 * side (release: writes made available; acquire: reads). */
static void
ownership_barrier(VkCommandBuffer cb, struct timg *t, uint32_t from,
                  uint32_t to, VkImageLayout layout, bool release)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = release ? VK_ACCESS_TRANSFER_WRITE_BIT : 0,
		.dstAccessMask = release ? 0 : VK_ACCESS_TRANSFER_READ_BIT,
		.oldLayout = t->layout,
		.newLayout = layout,
		.srcQueueFamilyIndex = from,
		.dstQueueFamilyIndex = to,
		.image = t->image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0,
		                      VK_REMAINING_MIP_LEVELS, 0,
		                      VK_REMAINING_ARRAY_LAYERS },
	};

	vkCmdPipelineBarrier(cb, release ? VK_PIPELINE_STAGE_TRANSFER_BIT :
	                                   VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	                     release ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT :
	                               VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     0, 0, NULL, 0, NULL, 1, &b);
}

static void
test_layouts_ownership(struct vkh *h, struct vkh_device *d)
{
	static const VkImageLayout chain[] = {
		VK_IMAGE_LAYOUT_GENERAL,
		VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		VK_IMAGE_LAYOUT_GENERAL,
	};
	static const VkFormat fmts[] = {
		VK_FORMAT_R8G8B8A8_UNORM,
		VK_FORMAT_R16G16B16A16_SFLOAT,
		VK_FORMAT_BC7_UNORM_BLOCK,
	};
	uint32_t fa = d->queues[0].family, fb = d->queues[1].family;

	for (unsigned f = 0; f < N(fmts); f++) {
		struct timg_desc desc = { VK_IMAGE_TYPE_2D, fmts[f],
		                          VK_IMAGE_TILING_OPTIMAL,
		                          { 32, 20, 1 }, 3, 4, 0 };
		const char *why = "";
		VkCommandBuffer cb;
		struct timg t;

		if (timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s: not reported (%s)\n",
			       ir_format_get(fmts[f])->name, why);
			continue;
		}
		VKH_CHECK_VK(h, timg_create(h, d, &desc, 0, &t));
		timg_randomize(&t, 77 + f);
		VKH_CHECK_VK(h, timg_upload(h, d, &t));
		cb = vkh_cmd_begin(d, 0);
		for (unsigned i = 0; i < N(chain); i++)
			timg_barrier(cb, &t, chain[i]);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
		VKH_CHECK_MSG(h, timg_check(h, d, &t, "after transitions") == 0,
		              "%s: content lost across layout transitions",
		              t.fmt->name);
		if (fa == fb) {
			printf("  %s: one queue family, ownership transfer "
			       "not exercised\n", t.fmt->name);
			timg_destroy(d, &t);
			continue;
		}
		/* Release on A (image now in TRANSFER_SRC_OPTIMAL after the
		 * check), acquire on B, read back on B. */
		cb = vkh_cmd_begin(d, 0);
		ownership_barrier(cb, &t, fa, fb,
		                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, true);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
		cb = vkh_cmd_begin(d, 1);
		ownership_barrier(cb, &t, fa, fb,
		                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, false);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 1, cb));
		t.qi = 1;
		VKH_CHECK_MSG(h, timg_check(h, d, &t, "after ownership "
		                            "transfer") == 0,
		              "%s: content lost across the ownership transfer "
		              "family %u -> %u", t.fmt->name, fa, fb);
		printf("  %s: transitions + ownership family %u -> %u: OK\n",
		       t.fmt->name, fa, fb);
		timg_destroy(d, &t);
	}
}

/* vkCmdCopyImage between the layers of a 2D array and the slices of a
 * 3D image (Vulkan 1.1: the array side's layerCount equals the 3D side's
 * extent.depth), both directions, checked against the model. */
static void
test_array_3d_copy(struct vkh *h, struct vkh_device *d)
{
	static const VkFormat fmts[] = {
		VK_FORMAT_R8G8B8A8_UNORM,
		VK_FORMAT_R16G16B16A16_SFLOAT,
		VK_FORMAT_R8_UNORM,
	};

	for (unsigned f = 0; f < N(fmts); f++) {
		struct timg_desc ad = { VK_IMAGE_TYPE_2D, fmts[f],
		                        VK_IMAGE_TILING_OPTIMAL, { 19, 13, 1 },
		                        1, 6, 0 };
		struct timg_desc bd = { VK_IMAGE_TYPE_3D, fmts[f],
		                        VK_IMAGE_TILING_OPTIMAL, { 19, 13, 6 },
		                        1, 1, 0 };
		VkImageCopy to3d = {
			.srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 3 },
			.srcOffset = { 2, 1, 0 },
			.dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
			.dstOffset = { 5, 3, 2 },
			.extent = { 11, 8, 3 },
		};
		VkImageCopy toarr = {
			.srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
			.srcOffset = { 0, 0, 3 },
			.dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 3, 3 },
			.dstOffset = { 0, 0, 0 },
			.extent = { 19, 13, 3 },
		};
		const char *why = "";
		struct timg a, b;
		VkCommandBuffer cb;
		uint32_t bytes;

		if (timg_supported(h, &ad, 0, 0, &why) != VK_SUCCESS ||
		    timg_supported(h, &bd, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s: not reported (%s)\n",
			       ir_format_get(fmts[f])->name, why);
			continue;
		}
		VKH_CHECK_VK(h, timg_create(h, d, &ad, 0, &a));
		VKH_CHECK_VK(h, timg_create(h, d, &bd, 0, &b));
		bytes = a.pf[0]->bytes;
		timg_randomize(&a, 5 + f);
		timg_randomize(&b, 9 + f);
		VKH_CHECK_VK(h, timg_upload(h, d, &a));
		VKH_CHECK_VK(h, timg_upload(h, d, &b));
		cb = vkh_cmd_begin(d, 0);
		timg_barrier(cb, &a, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		timg_barrier(cb, &b, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		vkCmdCopyImage(cb, a.image, a.layout, b.image, b.layout, 1,
		               &to3d);
		timg_barrier(cb, &a, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		timg_barrier(cb, &b, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		vkCmdCopyImage(cb, b.image, b.layout, a.image, a.layout, 1,
		               &toarr);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
		for (uint32_t k = 0; k < 3; k++)
			for (uint32_t y = 0; y < 8; y++)
				memcpy(timg_block(&b, 0, 0, 0, 5, 3 + y, 2 + k),
				       timg_block(&a, 0, 0, 1 + k, 2, 1 + y, 0),
				       11 * bytes);
		for (uint32_t k = 0; k < 3; k++)
			memcpy(timg_block(&a, 0, 0, 3 + k, 0, 0, 0),
			       timg_block(&b, 0, 0, 0, 0, 0, 3 + k),
			       19 * 13 * bytes);
		VKH_CHECK_MSG(h, timg_check(h, d, &b, "array -> 3d") == 0,
		              "%s: 2D array layers -> 3D slices", a.fmt->name);
		VKH_CHECK_MSG(h, timg_check(h, d, &a, "3d -> array") == 0,
		              "%s: 3D slices -> 2D array layers", a.fmt->name);
		printf("  %s: array <-> 3d OK\n", a.fmt->name);
		timg_destroy(d, &a);
		timg_destroy(d, &b);
	}
}

static void
layer_barrier(VkCommandBuffer cb, const struct timg *t, uint32_t layer,
              VkImageLayout from, VkImageLayout to)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
		.oldLayout = from,
		.newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = t->image,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0,
		                      VK_REMAINING_MIP_LEVELS, layer, 1 },
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &b);
}

/* vkCmdCopyImage with the same image as source and destination: layer 0
 * (TRANSFER_SRC) into other layers (TRANSFER_DST), other mips, offsets. */
static void
test_self_copy(struct vkh *h, struct vkh_device *d)
{
	static const VkFormat fmts[] = {
		VK_FORMAT_R8G8B8A8_UNORM,
		VK_FORMAT_R32G32B32A32_UINT,
		VK_FORMAT_BC1_RGB_UNORM_BLOCK,
	};

	for (unsigned f = 0; f < N(fmts); f++) {
		const struct ir_format *rf = ir_format_get(fmts[f]);
		struct timg_desc desc = { VK_IMAGE_TYPE_2D, fmts[f],
		                          VK_IMAGE_TILING_OPTIMAL,
		                          { 48, 32, 1 }, 2, 3, 0 };
		/* In blocks: (src mip, src layer, src x, y) -> (dst mip,
		 * dst layer, dst x, y), extent w x h blocks. */
		static const uint32_t rg[2][9] = {
			{ 0, 0, 0, 0, 0, 2, 1, 1, 4 },
			{ 1, 0, 1, 0, 1, 1, 0, 1, 2 },
		};
		const char *why = "";
		VkCommandBuffer cb;
		struct timg t;
		uint32_t bw = rf->bw, bh = rf->bh;

		if (timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s: not reported (%s)\n", rf->name, why);
			continue;
		}
		VKH_CHECK_VK(h, timg_create(h, d, &desc, 0, &t));
		timg_randomize(&t, 40 + f);
		VKH_CHECK_VK(h, timg_upload(h, d, &t));
		cb = vkh_cmd_begin(d, 0);
		layer_barrier(cb, &t, 0, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		for (unsigned i = 0; i < 2; i++) {
			const uint32_t *r = rg[i];
			VkImageCopy c = {
				.srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT,
				                    r[0], r[1], 1 },
				.srcOffset = { (int32_t)(r[2] * bw),
				               (int32_t)(r[3] * bh), 0 },
				.dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT,
				                    r[4], r[5], 1 },
				.dstOffset = { (int32_t)(r[6] * bw),
				               (int32_t)(r[7] * bh), 0 },
				.extent = { r[8] * bw, r[8] * bh, 1 },
			};
			vkCmdCopyImage(cb, t.image,
			               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			               t.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
			               &c);
			for (uint32_t y = 0; y < r[8]; y++)
				memcpy(timg_block(&t, 0, r[4], r[5], r[6],
				                  r[7] + y, 0),
				       timg_block(&t, 0, r[0], r[1], r[2],
				                  r[3] + y, 0),
				       (size_t)r[8] * t.pf[0]->bytes);
		}
		layer_barrier(cb, &t, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
		VKH_CHECK_MSG(h, timg_check(h, d, &t, "self copy") == 0,
		              "%s: copy within one image", rf->name);
		printf("  %s: copy within one image OK\n", rf->name);
		timg_destroy(d, &t);
	}
}

/* Large images with full mip chains through the upload/readback path
 * (one buffer -> image and one image -> buffer command with a region per
 * mip level covering all layers): row pitches far beyond any small-copy
 * fast path, many mips, odd sizes. */
static void
test_large_images(struct vkh *h, struct vkh_device *d)
{
	static const struct timg_desc shapes[] = {
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
		  VK_IMAGE_TILING_OPTIMAL, { 1031, 517, 1 }, 11, 1, 0 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_UINT,
		  VK_IMAGE_TILING_OPTIMAL, { 300, 203, 1 }, 2, 7, 0 },
		{ VK_IMAGE_TYPE_3D, VK_FORMAT_R16G16B16A16_SFLOAT,
		  VK_IMAGE_TILING_OPTIMAL, { 67, 45, 33 }, 3, 1, 0 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_BC7_UNORM_BLOCK,
		  VK_IMAGE_TILING_OPTIMAL, { 1024, 512, 1 }, 11, 2, 0 },
		{ VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
		  VK_IMAGE_TILING_LINEAR, { 1031, 517, 1 }, 1, 1, 0 },
	};

	for (unsigned i = 0; i < N(shapes); i++) {
		const char *why = "";
		struct timg t;
		long bad;

		if (timg_supported(h, &shapes[i], 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s %s: not reported (%s)\n",
			       ir_format_get(shapes[i].format)->name,
			       timg_type_name(&shapes[i]), why);
			continue;
		}
		VKH_CHECK_VK(h, timg_create(h, d, &shapes[i], 0, &t));
		timg_randomize(&t, 1000 + i);
		VKH_CHECK_VK(h, timg_upload(h, d, &t));
		bad = timg_check(h, d, &t, "large image");
		VKH_CHECK_MSG(h, bad == 0, "%s %s %ux%ux%u: %ld bad blocks",
		              t.fmt->name, timg_type_name(&t.desc),
		              t.desc.extent.width, t.desc.extent.height,
		              t.desc.extent.depth, bad);
		printf("  %s %s %s %ux%ux%u mips %u layers %u: OK\n",
		       t.fmt->name, timg_tiling_name(t.desc.tiling),
		       timg_type_name(&t.desc), t.desc.extent.width,
		       t.desc.extent.height, t.desc.extent.depth,
		       t.desc.mips, t.desc.layers);
		timg_destroy(d, &t);
	}
}

/* Every core format the device reports TRANSFER_SRC|DST for (per
 * tiling), colour and compressed, as opaque blocks: a 2D array with
 * mips is uploaded and read back whole, then a sub-box at an odd block
 * offset is copied into a second image of the format and both are
 * checked. Nothing may be advertised that does not work. */
static void
test_reported_formats(struct vkh *h, struct vkh_device *d)
{
	const VkFormatFeatureFlags xfer = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
	                                  VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
	unsigned run = 0, failed = 0;

	for (int vf = VK_FORMAT_R4G4_UNORM_PACK8;
	     vf <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; vf++)
	for (unsigned ti = 0; ti < 2; ti++) {
		const struct ir_format *f = ir_format_get((VkFormat)vf);
		struct timg_desc desc = { VK_IMAGE_TYPE_2D, (VkFormat)vf,
		                          ti ? VK_IMAGE_TILING_OPTIMAL :
		                               VK_IMAGE_TILING_LINEAR,
		                          { 0, 0, 1 }, 2, 2, 0 };
		VkFormatProperties fp;
		const char *why = "";
		struct timg a, b;
		VkImageCopy c;
		VkCommandBuffer cb;
		bool ok;

		if (!f || ir_format_is_ds(f))
			continue;
		vkGetPhysicalDeviceFormatProperties(h->phys, f->vk, &fp);
		if (((ti ? fp.optimalTilingFeatures :
		           fp.linearTilingFeatures) & xfer) != xfer)
			continue;
		desc.extent.width = 7u * f->bw;
		desc.extent.height = 5u * f->bh;
		if (timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS) {
			desc.mips = desc.layers = 1;
			if (timg_supported(h, &desc, 0, 0, &why) !=
			    VK_SUCCESS) {
				printf("  %s %s: features reported but no 2D "
				       "image (%s)\n", f->name,
				       timg_tiling_name(desc.tiling), why);
				continue;
			}
		}
		run++;
		memset(&b, 0, sizeof(b));
		ok = timg_create(h, d, &desc, 0, &a) == VK_SUCCESS &&
		     timg_create(h, d, &desc, 0, &b) == VK_SUCCESS;
		if (ok) {
			timg_randomize(&a, (uint32_t)vf);
			timg_randomize(&b, (uint32_t)vf + 1000);
			ok = timg_upload(h, d, &a) == VK_SUCCESS &&
			     timg_upload(h, d, &b) == VK_SUCCESS &&
			     timg_check(h, d, &a, f->name) == 0;
		}
		if (ok) {
			/* 3x2 blocks from (1,1) of the last layer -> (3,2)
			 * of layer 0 (mip 0). */
			uint32_t L = desc.layers - 1;
			c = (VkImageCopy){
				{ VK_IMAGE_ASPECT_COLOR_BIT, 0, L, 1 },
				{ (int32_t)f->bw, (int32_t)f->bh, 0 },
				{ VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
				{ 3 * (int32_t)f->bw, 2 * (int32_t)f->bh, 0 },
				{ 3u * f->bw, 2u * f->bh, 1 },
			};
			cb = vkh_cmd_begin(d, 0);
			timg_barrier(cb, &a,
			             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
			timg_barrier(cb, &b,
			             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			vkCmdCopyImage(cb, a.image, a.layout, b.image,
			               b.layout, 1, &c);
			for (uint32_t y = 0; y < 2; y++)
				memcpy(timg_block(&b, 0, 0, 0, 3, 2 + y, 0),
				       timg_block(&a, 0, 0, L, 1, 1 + y, 0),
				       3u * f->bytes);
			ok = vkh_cmd_submit_wait(d, 0, cb) == VK_SUCCESS &&
			     timg_check(h, d, &b, f->name) == 0;
		}
		if (!ok) {
			vkh_fail(h, __FILE__, __LINE__, "%s %s: reported "
			         "TRANSFER_SRC|DST but copies fail", f->name,
			         timg_tiling_name(desc.tiling));
			failed++;
		}
		timg_destroy(d, &a);
		timg_destroy(d, &b);
	}
	printf("  %u format/tiling combinations reported and checked, %u "
	       "failed\n", run, failed);
}

/* Two queues of one family write disjoint column ranges of the same
 * rows of one image at the same time (no synchronization needed: the
 * bytes differ). A copy engine that rounds partial rows out to wider
 * read-modify-write stores would lose the other queue's bytes. */
#define HALF 2260 /* >= 61 * 37, multiple of 4 */

static void
test_concurrent_disjoint_writes(struct vkh *h, struct vkh_device *unused)
{
	struct timg_desc desc = { VK_IMAGE_TYPE_2D, VK_FORMAT_R8_UNORM,
	                          VK_IMAGE_TILING_OPTIMAL, { 61, 37, 1 }, 1,
	                          1, 0 };
	struct vkh_device dev;
	uint32_t fam = 0, count;
	struct vkh_buffer src;
	struct ir_rng rng = { 4242 };
	struct timg t;
	const char *why = "";

	(void)unused;
	for (uint32_t f = 0; f < h->family_count; f++)
		if ((h->families[f].queueFlags & VK_QUEUE_TRANSFER_BIT) &&
		    h->families[f].queueCount >
		    h->families[fam].queueCount)
			fam = f;
	count = h->families[fam].queueCount >= 2 ? 2 : 1;
	VKH_CHECK_VK(h, vkh_device_create_explicit(h, fam, count, NULL,
	                                           &dev));
	printf("  family %u, %u queue(s)%s\n", fam, count,
	       count < 2 ? " (no concurrency possible)" : "");
	VKH_CHECK(h, timg_supported(h, &desc, 0, 0, &why) == VK_SUCCESS);
	VKH_CHECK_VK(h, timg_create(h, &dev, &desc, 0, &t));
	timg_randomize(&t, 99);
	VKH_CHECK_VK(h, timg_upload(h, &dev, &t));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &dev, 2 * HALF,
	                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                                  VKH_MEM_UPLOAD, -1, &src));
	for (uint32_t round = 0; round < 16; round++) {
		/* Split column: odd positions, never word aligned twice. */
		uint32_t split = 1 + (round * 7) % 59;
		VkCommandBuffer cb[2];
		VkFence fence[2];
		VkFenceCreateInfo fci = {
			.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
		};

		ir_fill_random(&rng, NULL, src.map, 2 * HALF);
		for (unsigned q = 0; q < 2; q++) {
			uint32_t qi = q % count;
			/* Each side has its own half of the buffer (offsets
			 * multiple of 4 for transfer-only queues). */
			VkBufferImageCopy r = {
				.bufferOffset = q * HALF,
				.bufferRowLength = 61,
				.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT,
				                      0, 0, 1 },
				.imageOffset = { q ? (int32_t)split : 0, 0, 0 },
				.imageExtent = { q ? 61 - split : split, 37,
				                 1 },
			};
			VkSubmitInfo si = {
				.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				.commandBufferCount = 1,
			};
			cb[q] = vkh_cmd_begin(&dev, qi);
			VKH_CHECK(h, cb[q] != VK_NULL_HANDLE);
			vkCmdCopyBufferToImage(cb[q], src.buffer, t.image,
			                       t.layout, 1, &r);
			VKH_CHECK_VK(h, vkEndCommandBuffer(cb[q]));
			VKH_CHECK_VK(h, vkCreateFence(dev.device, &fci, NULL,
			                              &fence[q]));
			si.pCommandBuffers = &cb[q];
			VKH_CHECK_VK(h, vkQueueSubmit(dev.queues[qi].queue, 1,
			                              &si, fence[q]));
			for (uint32_t y = 0; y < 37; y++)
				memcpy(timg_block(&t, 0, 0, 0, q ? split : 0, y,
				                  0),
				       (uint8_t *)src.map + q * HALF + y * 61,
				       q ? 61 - split : split);
		}
		VKH_CHECK_VK(h, vkWaitForFences(dev.device, 2, fence, VK_TRUE,
		                                VKH_TIMEOUT_NS));
		for (unsigned q = 0; q < 2; q++) {
			vkDestroyFence(dev.device, fence[q], NULL);
			vkFreeCommandBuffers(dev.device,
			                     dev.queues[q % count].pool, 1,
			                     &cb[q]);
		}
		VKH_CHECK_MSG(h, timg_check(h, &dev, &t, "concurrent") == 0,
		              "round %u (split at column %u): bytes lost",
		              round, split);
		/* timg_check left it in TRANSFER_SRC: back to DST. */
		{
			VkCommandBuffer c = vkh_cmd_begin(&dev, 0);
			timg_barrier(c, &t,
			             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			VKH_CHECK_VK(h, vkh_cmd_submit_wait(&dev, 0, c));
		}
	}
	printf("  16 rounds of concurrent disjoint writes: OK\n");
	vkh_buffer_destroy(&dev, &src);
	timg_destroy(&dev, &t);
	vkh_device_destroy(h, &dev);
}

static const struct vkh_test tests[] = {
	{ "concurrent_disjoint_writes", test_concurrent_disjoint_writes, 0,
	  0 },
	{ "reported_formats", test_reported_formats, 1, 0 },
	{ "array_3d_copy", test_array_3d_copy, 1, 0 },
	{ "large_images", test_large_images, 1, 0 },
	{ "self_copy", test_self_copy, 1, 0 },
	{ "linear_host_access", test_linear_host_access, 1, 0 },
	{ "layouts_ownership", test_layouts_ownership, 2, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_image_layout", tests,
	                     N(tests));
}
