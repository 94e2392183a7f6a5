/* SPDX-License-Identifier: MIT */
/*
 * test_icd_image_cmd — the image transfer commands on the layouts of
 * test_icd_image_layout.c, through the loader with the validation layer
 * on. Commands the spec reserves for graphics queues run on swgpu's
 * compute/transfer queues with the layer's queue-type complaint expected
 * (the driver checked beyond the spec); on drivers with a graphics queue
 * they are plain valid usage.
 *
 *   depth_stencil  per-aspect buffer packing: host-written X8_D24/D16/S8
 *                  linear images copied out; D24S8 aspects up and down
 *                  through padded buffer rows
 *   clear_color    vkCmdClearColorImage over VK_REMAINING_* ranges and
 *                  layout transitions, read back byte by byte
 *   clear_depth_stencil
 *                  vkCmdClearDepthStencilImage per aspect and layer
 *   copy_3d_2d     vkCmdCopyImage(2) between 3D slices and array layers
 *   blit           nearest mirrored, linear 2:1 and sRGB decode blits
 */
#include <stdlib.h>
#include <string.h>

#include "test_icd_image_util.h"

/* ---- depth/stencil buffer packing ------------------------------------- */

/* Host-written linear single-aspect images copied out: the buffer gets the
 * aspect's packing, the 24 depth bits in the low bits of 4 bytes. */
static void
depth_stencil_linear(struct vkh *h, struct vkh_device *d, VkFormat f,
                     VkImageAspectFlags aspect, uint32_t bytes)
{
	const uint32_t w = 11, hh = 6;
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D, .format = f,
		.extent = { w, hh, 1 }, .mipLevels = 1, .arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_LINEAR,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED,
	};
	VkImageFormatProperties p;
	VkSubresourceLayout sl;
	struct linear_image li;
	struct vkh_buffer out;
	VkCommandBuffer cb;

	if (ifp(h, ci.format, ci.imageType, ci.tiling, ci.usage, 0, &p)) {
		VKH_CHECK(h, !h->is_swgpu);
		return;
	}
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &li));
	vkGetImageSubresourceLayout(d->device, li.image,
		&(VkImageSubresource){ aspect, 0, 0 }, &sl);
	for (uint32_t y = 0; y < hh; y++)
		for (uint32_t x = 0; x < w * bytes; x++)
			li.map[sl.offset + y * sl.rowPitch + x] =
				vkh_pattern(f, y * w * bytes + x);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, w * hh * bytes,
		VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKH_MEM_READBACK, -1, &out));
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	image_barrier(cb, li.image, aspect, VK_IMAGE_LAYOUT_PREINITIALIZED,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	vkCmdCopyImageToBuffer(cb, li.image,
		VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
		&(VkBufferImageCopy){
			.imageSubresource = { aspect, 0, 0, 1 },
			.imageExtent = { w, hh, 1 } });
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &out);
	for (uint32_t i = 0; i < w * hh * bytes; i++) {
		uint8_t got = ((uint8_t *)out.map)[i];

		/* The upper 8 bits of a D24 buffer texel are undefined. */
		if (f == VK_FORMAT_X8_D24_UNORM_PACK32 && i % 4 == 3)
			continue;
		VKH_CHECK_MSG(h, got == vkh_pattern(f, i),
		              "format %d byte %u: %02x", f, i, got);
	}
	vkh_buffer_destroy(d, &out);
	linear_image_destroy(d, &li);
}

/* Both aspects of an optimal D24S8 array: a padded buffer sub-box up
 * into layer 1 per aspect, the same box back down into a second buffer.
 * Writing depth/stencil aspects from a buffer is a graphics-queue
 * command; on a device without one (swgpu) the layer's complaint is
 * expected and the driver is checked beyond the spec. */
static void
depth_stencil_optimal(struct vkh *h, struct vkh_device *d)
{
	const uint32_t w = 13, hh = 7, bw = 7, bh = 4, rl = 9;
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_D24_UNORM_S8_UINT, .extent = { w, hh, 1 },
		.mipLevels = 1, .arrayLayers = 2,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	const VkImageAspectFlags both = VK_IMAGE_ASPECT_DEPTH_BIT |
	                                VK_IMAGE_ASPECT_STENCIL_BIT;
	/* Buffer: depth rows of rl 4-byte texels, then stencil rows of rl
	 * bytes, both starting at 4-byte multiples. */
	const VkDeviceSize doff = 8, soff = 8 + rl * bh * 4;
	const VkDeviceSize size = soff + rl * bh;
	VkImageFormatProperties p;
	struct linear_image img;
	struct vkh_buffer in, out;
	VkCommandBuffer cb;
	VkBufferImageCopy regions[2] = {
		{ .bufferOffset = doff, .bufferRowLength = rl,
		  .imageSubresource = { VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 1 },
		  .imageOffset = { 2, 1, 0 }, .imageExtent = { bw, bh, 1 } },
		{ .bufferOffset = soff, .bufferRowLength = rl,
		  .imageSubresource = { VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 1 },
		  .imageOffset = { 2, 1, 0 }, .imageExtent = { bw, bh, 1 } },
	};

	if (ifp(h, ci.format, ci.imageType, ci.tiling, ci.usage, 0, &p)) {
		VKH_CHECK(h, !h->is_swgpu);
		return;
	}
	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("VUID-vkCmdCopyBufferToImage-commandBuffer-07739");
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &img));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size,
		VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKH_MEM_UPLOAD, -1, &in));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size,
		VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKH_MEM_READBACK, -1, &out));
	for (uint32_t i = 0; i < size; i++)
		((uint8_t *)in.map)[i] = vkh_pattern(24, i);
	memset(out.map, 0, size);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	image_barrier(cb, img.image, both, VK_IMAGE_LAYOUT_UNDEFINED,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdCopyBufferToImage(cb, in.buffer, img.image,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2,
	                       regions);
	image_barrier(cb, img.image, both,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	vkCmdCopyImageToBuffer(cb, img.image,
	                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	                       out.buffer, 2, regions);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_expect_clear();
	vkh_buffer_invalidate(h, d, &out);
	for (uint32_t y = 0; y < bh; y++) {
		for (uint32_t x = 0; x < bw; x++) {
			VkDeviceSize o = doff + (y * rl + x) * 4;
			VkDeviceSize so = soff + y * rl + x;
			const uint8_t *g = (uint8_t *)out.map;

			/* Depth: the low 24 bits survive. */
			for (uint32_t b = 0; b < 3; b++)
				VKH_CHECK_MSG(h, g[o + b] ==
				              vkh_pattern(24, o + b),
				              "depth (%u,%u) byte %u", x, y, b);
			VKH_CHECK_MSG(h, g[so] == vkh_pattern(24, so),
			              "stencil (%u,%u)", x, y);
		}
		/* Padding of the buffer rows is not written. */
		for (uint32_t x = bw; x < rl; x++) {
			VKH_CHECK(h, ((uint32_t *)out.map)[(doff + (y * rl +
			                                    x) * 4) / 4] == 0);
			VKH_CHECK(h, ((uint8_t *)out.map)[soff + y * rl + x] ==
			             0);
		}
	}
	vkh_buffer_destroy(d, &in);
	vkh_buffer_destroy(d, &out);
	linear_image_destroy(d, &img);
}

static void
test_depth_stencil(struct vkh *h, struct vkh_device *d)
{
	const int f0 = h->failures;

	depth_stencil_linear(h, d, VK_FORMAT_X8_D24_UNORM_PACK32,
	                     VK_IMAGE_ASPECT_DEPTH_BIT, 4);
	if (h->failures == f0)
		depth_stencil_linear(h, d, VK_FORMAT_D16_UNORM,
		                     VK_IMAGE_ASPECT_DEPTH_BIT, 2);
	if (h->failures == f0)
		depth_stencil_linear(h, d, VK_FORMAT_S8_UINT,
		                     VK_IMAGE_ASPECT_STENCIL_BIT, 1);
	if (h->failures == f0)
		depth_stencil_optimal(h, d);
}

/* ---- clears ------------------------------------------------------------ */

static void
test_clear_color(struct vkh *h, struct vkh_device *d)
{
	const uint32_t w = 16, hh = 8, mips = 3, layers = 4;
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = { w, hh, 1 },
		.mipLevels = mips, .arrayLayers = layers,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	struct linear_image img;
	struct vkh_buffer out;
	VkDeviceSize off = 0, size = 0;
	VkCommandBuffer cb;

	for (uint32_t m = 0; m < mips; m++)
		size += (VkDeviceSize)mip(w, m) * mip(hh, m) * 4 * layers;
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size,
		VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKH_MEM_READBACK, -1, &out));
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &img));

	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	image_barrier(cb, img.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_UNDEFINED,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	/* Everything to A, then mips 1.. of layers 2.. to B in GENERAL. */
	vkCmdClearColorImage(cb, img.image,
		VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		&(VkClearColorValue){ .float32 = { 1.0f, 0.0f, 0.5f, 1.0f } },
		1, &(VkImageSubresourceRange){ VK_IMAGE_ASPECT_COLOR_BIT, 0,
			VK_REMAINING_MIP_LEVELS, 0,
			VK_REMAINING_ARRAY_LAYERS });
	image_barrier(cb, img.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_IMAGE_LAYOUT_GENERAL,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdClearColorImage(cb, img.image, VK_IMAGE_LAYOUT_GENERAL,
		&(VkClearColorValue){ .float32 = { 0.0f, 0.2f, 1.0f, 0.0f } },
		1, &(VkImageSubresourceRange){ VK_IMAGE_ASPECT_COLOR_BIT, 1,
			VK_REMAINING_MIP_LEVELS, 2,
			VK_REMAINING_ARRAY_LAYERS });
	image_barrier(cb, img.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_GENERAL,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	for (uint32_t m = 0; m < mips; m++) {
		vkCmdCopyImageToBuffer(cb, img.image,
			VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
			&(VkBufferImageCopy){
				.bufferOffset = off,
				.imageSubresource = {
					VK_IMAGE_ASPECT_COLOR_BIT, m, 0,
					layers },
				.imageExtent = { mip(w, m), mip(hh, m), 1 },
			});
		off += (VkDeviceSize)mip(w, m) * mip(hh, m) * 4 * layers;
	}
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &out);

	off = 0;
	for (uint32_t m = 0; m < mips; m++) {
		uint32_t n = mip(w, m) * mip(hh, m);

		for (uint32_t l = 0; l < layers; l++) {
			static const uint8_t a[4] = { 255, 0, 128, 255 };
			static const uint8_t b[4] = { 0, 51, 255, 0 };
			const uint8_t *want = m >= 1 && l >= 2 ? b : a;
			const uint8_t *o = (uint8_t *)out.map + off;

			for (uint32_t i = 0; i < n * 4; i++)
				VKH_CHECK_MSG(h, o[i] == want[i % 4],
				              "mip %u layer %u byte %u: %u",
				              m, l, i, o[i]);
			off += n * 4;
		}
	}
	vkh_buffer_destroy(d, &out);
	linear_image_destroy(d, &img);
}

/* vkCmdClearDepthStencilImage is a graphics-queue command; without a
 * graphics queue (swgpu) the layer's complaint is expected and the driver
 * is checked beyond the spec. */
static void
test_clear_depth_stencil(struct vkh *h, struct vkh_device *d)
{
	const uint32_t w = 16, hh = 8;
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_D24_UNORM_S8_UINT, .extent = { w, hh, 1 },
		.mipLevels = 1, .arrayLayers = 3,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	const VkImageAspectFlags both = VK_IMAGE_ASPECT_DEPTH_BIT |
	                                VK_IMAGE_ASPECT_STENCIL_BIT;
	const VkDeviceSize dsz = w * hh * 4 * 2, ssz = w * hh * 2;
	VkImageFormatProperties p;
	struct linear_image img;
	struct vkh_buffer out;
	VkCommandBuffer cb;

	if (ifp(h, ci.format, ci.imageType, ci.tiling, ci.usage, 0, &p)) {
		VKH_CHECK(h, !h->is_swgpu);
		vkh_skip(h, "no D24S8");
		return;
	}
	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("VUID-vkCmdClearDepthStencilImage-commandBuffer-cmdpool");
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, dsz + ssz,
		VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKH_MEM_READBACK, -1, &out));
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &img));
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	image_barrier(cb, img.image, both, VK_IMAGE_LAYOUT_UNDEFINED,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	/* Layers 1.. : depth 0.5, stencil 0x5a; then layer 2's depth
	 * alone to 1.0 (stencil untouched). */
	vkCmdClearDepthStencilImage(cb, img.image,
		VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		&(VkClearDepthStencilValue){ 0.5f, 0x5a }, 1,
		&(VkImageSubresourceRange){ both, 0, 1, 1,
		                            VK_REMAINING_ARRAY_LAYERS });
	vkh_cmd_transfer_barrier(cb);
	vkCmdClearDepthStencilImage(cb, img.image,
		VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		&(VkClearDepthStencilValue){ 1.0f, 0x11 }, 1,
		&(VkImageSubresourceRange){ VK_IMAGE_ASPECT_DEPTH_BIT, 0,
		                            VK_REMAINING_MIP_LEVELS, 2, 1 });
	image_barrier(cb, img.image, both,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	vkCmdCopyImageToBuffer(cb, img.image,
		VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 2,
		(VkBufferImageCopy[]){
			{ .bufferOffset = 0,
			  .imageSubresource = { VK_IMAGE_ASPECT_DEPTH_BIT, 0,
			                        1, 2 },
			  .imageExtent = { w, hh, 1 } },
			{ .bufferOffset = dsz,
			  .imageSubresource = { VK_IMAGE_ASPECT_STENCIL_BIT,
			                        0, 1, 2 },
			  .imageExtent = { w, hh, 1 } },
		});
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_expect_clear();
	vkh_buffer_invalidate(h, d, &out);
	for (uint32_t i = 0; i < w * hh * 2; i++) {
		uint32_t v;
		/* 0.5 * (2^24 - 1) rounds to 0x800000. */
		uint32_t want = i < w * hh ? 0x800000 : 0xffffff;

		memcpy(&v, (uint8_t *)out.map + i * 4, 4);
		VKH_CHECK_MSG(h, (v & 0xffffff) == want, "depth %u: %08x",
		              i, v);
		VKH_CHECK_MSG(h, ((uint8_t *)out.map)[dsz + i] == 0x5a,
		              "stencil %u", i);
	}
	vkh_buffer_destroy(d, &out);
	linear_image_destroy(d, &img);
}

/* ---- 3D slices <-> array layers ----------------------------------------- */

/* vkCmdCopyImage between a 3D image and a 2D array (core 1.1): depth
 * slices map to layers one to one, in both directions. A 6x5x4 3D image
 * uploaded from a buffer; z 1..3 of a 4x3 box at (1,1) go to layers 2..4
 * of a 2D array at (2,0); layers 2..3 come back to z 0..1 of a second
 * 3D image; both read back whole and compared. */
static void
test_copy_3d_2d(struct vkh *h, struct vkh_device *d)
{
	const uint32_t w = 6, hh = 5, dd = 4, L = 6;
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_3D,
		.format = VK_FORMAT_R32_UINT, .extent = { w, hh, dd },
		.mipLevels = 1, .arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
	VkImageCreateInfo ai = ci;
	struct linear_image vol, arr, vol2;
	struct vkh_buffer in, out;
	const VkDeviceSize vsz = w * hh * dd * 4, asz = w * hh * L * 4;
	VkCommandBuffer cb;
	uint32_t *src, *o;

	ai.imageType = VK_IMAGE_TYPE_2D;
	ai.extent.depth = 1;
	ai.arrayLayers = L;
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &vol));
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &vol2));
	VKH_CHECK_VK(h, linear_image_create(h, d, &ai, &arr));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, vsz + asz,
		VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKH_MEM_UPLOAD, -1, &in));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, vsz + asz,
		VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKH_MEM_READBACK, -1, &out));
	src = in.map;
	/* The volume: 0x1000000 + index; everything else: 0xdd000000 +
	 * index. */
	for (uint32_t i = 0; i < (vsz + asz) / 4; i++)
		src[i] = (i < vsz / 4 ? 0x1000000u : 0xdd000000u) + i;

	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	const VkImageSubresourceLayers c1 = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0,
	                                      1 };
	const VkImageSubresourceLayers call = { VK_IMAGE_ASPECT_COLOR_BIT, 0,
	                                        0, L };
	struct linear_image *all[3] = { &vol, &vol2, &arr };

	for (int i = 0; i < 3; i++)
		image_barrier(cb, all[i]->image, VK_IMAGE_ASPECT_COLOR_BIT,
		              VK_IMAGE_LAYOUT_UNDEFINED,
		              VK_IMAGE_LAYOUT_GENERAL,
		              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
		              VK_PIPELINE_STAGE_TRANSFER_BIT,
		              VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdCopyBufferToImage(cb, in.buffer, vol.image,
		VK_IMAGE_LAYOUT_GENERAL, 1, &(VkBufferImageCopy){
			.imageSubresource = c1, .imageExtent = { w, hh, dd } });
	vkCmdCopyBufferToImage(cb, in.buffer, vol2.image,
		VK_IMAGE_LAYOUT_GENERAL, 1, &(VkBufferImageCopy){
			.bufferOffset = vsz,
			.imageSubresource = c1, .imageExtent = { w, hh, dd } });
	vkCmdCopyBufferToImage(cb, in.buffer, arr.image,
		VK_IMAGE_LAYOUT_GENERAL, 1, &(VkBufferImageCopy){
			.bufferOffset = vsz,
			.imageSubresource = call,
			.imageExtent = { w, hh, 1 } });
	vkh_cmd_transfer_barrier(cb);
	vkCmdCopyImage(cb, vol.image, VK_IMAGE_LAYOUT_GENERAL, arr.image,
		VK_IMAGE_LAYOUT_GENERAL, 1, &(VkImageCopy){
			.srcSubresource = c1, .srcOffset = { 1, 1, 1 },
			.dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 2,
			                    3 },
			.dstOffset = { 2, 0, 0 }, .extent = { 4, 3, 3 } });
	vkh_cmd_transfer_barrier(cb);
	vkCmdCopyImage2(cb, &(VkCopyImageInfo2){
		.sType = VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2,
		.srcImage = arr.image,
		.srcImageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.dstImage = vol2.image,
		.dstImageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.regionCount = 1,
		.pRegions = &(VkImageCopy2){
			.sType = VK_STRUCTURE_TYPE_IMAGE_COPY_2,
			.srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 2,
			                    2 },
			.dstSubresource = c1, .dstOffset = { 0, 0, 0 },
			.extent = { w, hh, 2 } } });
	vkh_cmd_transfer_barrier(cb);
	vkCmdCopyImageToBuffer(cb, vol2.image, VK_IMAGE_LAYOUT_GENERAL,
		out.buffer, 1, &(VkBufferImageCopy){
			.imageSubresource = c1, .imageExtent = { w, hh, dd } });
	vkCmdCopyImageToBuffer(cb, arr.image, VK_IMAGE_LAYOUT_GENERAL,
		out.buffer, 1, &(VkBufferImageCopy){ .bufferOffset = vsz,
			.imageSubresource = call,
			.imageExtent = { w, hh, 1 } });
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &out);
	o = out.map;

	/* Model: arr[l][y][x] starts as src[vsz/4 + ...]; the box from the
	 * volume lands in layers 2..4; then vol2 z 0..1 = arr layers 2..3. */
	uint32_t *model = malloc(vsz + asz);

	VKH_CHECK(h, model != NULL);
	memcpy(model, src, vsz + asz);
	for (uint32_t z = 0; z < 3; z++)
		for (uint32_t y = 0; y < 3; y++)
			for (uint32_t x = 0; x < 4; x++)
				model[vsz / 4 + ((2 + z) * hh + y) * w + 2 +
				      x] = src[((1 + z) * hh + 1 + y) * w + 1 +
				               x];
	/* vol2 starts as the array's initial layers 0..3 (same bytes). */
	for (uint32_t z = 0; z < 2; z++)
		for (uint32_t i = 0; i < w * hh; i++)
			model[z * w * hh + i] =
				model[vsz / 4 + (2 + z) * w * hh + i];
	for (uint32_t z = 2; z < dd; z++)
		for (uint32_t i = 0; i < w * hh; i++)
			model[z * w * hh + i] = src[vsz / 4 + z * w * hh + i];
	uint32_t bad = UINT32_MAX, got = 0, want = 0;
	for (uint32_t i = 0; i < (vsz + asz) / 4 && bad == UINT32_MAX; i++)
		if (o[i] != model[i]) {
			bad = i;
			got = o[i];
			want = model[i];
		}
	free(model);
	VKH_CHECK_MSG(h, bad == UINT32_MAX, "dword %u: %08x want %08x", bad,
	              got, want);
	vkh_buffer_destroy(d, &in);
	vkh_buffer_destroy(d, &out);
	for (int i = 0; i < 3; i++)
		linear_image_destroy(d, all[i]);
}

/* ---- blits -------------------------------------------------------------- */

/* Texel (x, y) of the blit source: R constant-ish per 2x2 block so that a
 * LINEAR 2:1 reduction has an exact average, G = x, B = y. */
static void
blit_src_texel(uint32_t x, uint32_t y, uint8_t t[4])
{
	t[0] = (uint8_t)(16 * (x / 2) + (x % 2) * 4 + (y % 2) * 8);
	t[1] = (uint8_t)x;
	t[2] = (uint8_t)y;
	t[3] = 0x80;
}

/* vkCmdBlitImage is a graphics-queue command; without a graphics queue
 * (swgpu) the layer's complaint is expected and the driver is checked
 * beyond the spec. One 16x16 source, three 8x8 destinations: NEAREST
 * mirrored in x, LINEAR 2:1, and sRGB -> UNORM 1:1 of the top-left
 * 8x8 (decode only). */
static void
test_blit(struct vkh *h, struct vkh_device *d)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = { 16, 16, 1 },
		.mipLevels = 1, .arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_LINEAR,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED,
	};
	struct linear_image src, srgb, dst[3];
	struct vkh_buffer out;
	VkSubresourceLayout sl;
	VkCommandBuffer cb;
	VkFormatProperties fp;
	const VkImageSubresourceLayers colour = {
		VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 };

	vkGetPhysicalDeviceFormatProperties(h->phys, VK_FORMAT_R8G8B8A8_SRGB,
	                                    &fp);
	if (!(fp.linearTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT)) {
		VKH_CHECK(h, !h->is_swgpu);
		vkh_skip(h, "no linear sRGB blit source");
		return;
	}
	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT)) {
		vkh_expect_message("VUID-vkCmdBlitImage-commandBuffer-cmdpool");
		vkh_expect_message("VUID-vkCmdBlitImage2-commandBuffer-cmdpool");
	}
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &src));
	ci.format = VK_FORMAT_R8G8B8A8_SRGB;
	VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &srgb));
	ci.format = VK_FORMAT_R8G8B8A8_UNORM;
	ci.extent = (VkExtent3D){ 8, 8, 1 };
	ci.tiling = VK_IMAGE_TILING_OPTIMAL;
	ci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	           VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	for (int i = 0; i < 3; i++)
		VKH_CHECK_VK(h, linear_image_create(h, d, &ci, &dst[i]));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 3 * 8 * 8 * 4,
		VK_BUFFER_USAGE_TRANSFER_DST_BIT, VKH_MEM_READBACK, -1, &out));
	vkGetImageSubresourceLayout(d->device, src.image,
		&(VkImageSubresource){ VK_IMAGE_ASPECT_COLOR_BIT, 0, 0 }, &sl);
	for (uint32_t y = 0; y < 16; y++) {
		for (uint32_t x = 0; x < 16; x++) {
			blit_src_texel(x, y, src.map + sl.offset +
			                     y * sl.rowPitch + x * 4);
			/* sRGB source: R = 0x80 everywhere. */
			memcpy(srgb.map + sl.offset + y * sl.rowPitch + x * 4,
			       (uint8_t[4]){ 0x80, 0xff, 0x00, 0x40 }, 4);
		}
	}

	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	image_barrier(cb, src.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_PREINITIALIZED,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	image_barrier(cb, srgb.image, VK_IMAGE_ASPECT_COLOR_BIT,
	              VK_IMAGE_LAYOUT_PREINITIALIZED,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
	              VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_READ_BIT);
	for (int i = 0; i < 3; i++)
		image_barrier(cb, dst[i].image, VK_IMAGE_ASPECT_COLOR_BIT,
		              VK_IMAGE_LAYOUT_UNDEFINED,
		              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
		              VK_PIPELINE_STAGE_TRANSFER_BIT,
		              VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdBlitImage(cb, src.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		dst[0].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
		&(VkImageBlit){ colour, { { 16, 0, 0 }, { 0, 16, 1 } },
		                colour, { { 0, 0, 0 }, { 8, 8, 1 } } },
		VK_FILTER_NEAREST);
	vkCmdBlitImage2(cb, &(VkBlitImageInfo2){
		.sType = VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2,
		.srcImage = src.image,
		.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		.dstImage = dst[1].image,
		.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		.regionCount = 1,
		.pRegions = &(VkImageBlit2){
			.sType = VK_STRUCTURE_TYPE_IMAGE_BLIT_2,
			.srcSubresource = colour,
			.srcOffsets = { { 0, 0, 0 }, { 16, 16, 1 } },
			.dstSubresource = colour,
			.dstOffsets = { { 0, 0, 0 }, { 8, 8, 1 } } },
		.filter = VK_FILTER_LINEAR });
	vkCmdBlitImage(cb, srgb.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		dst[2].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
		&(VkImageBlit){ colour, { { 0, 0, 0 }, { 8, 8, 1 } },
		                colour, { { 0, 0, 0 }, { 8, 8, 1 } } },
		VK_FILTER_NEAREST);
	for (int i = 0; i < 3; i++) {
		image_barrier(cb, dst[i].image, VK_IMAGE_ASPECT_COLOR_BIT,
		              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		              VK_PIPELINE_STAGE_TRANSFER_BIT,
		              VK_ACCESS_TRANSFER_WRITE_BIT,
		              VK_PIPELINE_STAGE_TRANSFER_BIT,
		              VK_ACCESS_TRANSFER_READ_BIT);
		vkCmdCopyImageToBuffer(cb, dst[i].image,
			VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
			&(VkBufferImageCopy){ .bufferOffset = i * 256,
				.imageSubresource = colour,
				.imageExtent = { 8, 8, 1 } });
	}
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_expect_clear();
	vkh_buffer_invalidate(h, d, &out);
	for (uint32_t y = 0; y < 8; y++) {
		for (uint32_t x = 0; x < 8; x++) {
			const uint8_t *o = (uint8_t *)out.map + (y * 8 + x) * 4;
			uint8_t want[4];

			/* Nearest, mirrored: centre (x + 0.5) maps to
			 * 16 - 2x - 1 in x and 2y + 1 in y. */
			blit_src_texel(15 - 2 * x, 2 * y + 1, want);
			VKH_CHECK_MSG(h, !memcmp(o, want, 4),
			              "nearest (%u,%u)", x, y);
			/* Linear 2:1: the 2x2 average, exact here. */
			o += 256;
			VKH_CHECK_MSG(h, o[0] == 16 * x + 6 && o[3] == 0x80,
			              "linear (%u,%u): %u", x, y, o[0]);
			/* sRGB 0x80 decodes to 0.2158 -> UNORM 55; alpha is
			 * linear in both. */
			o += 256;
			VKH_CHECK_MSG(h, o[0] == 55 && o[1] == 255 &&
			              o[2] == 0 && o[3] == 0x40,
			              "srgb (%u,%u): %u %u %u %u", x, y, o[0],
			              o[1], o[2], o[3]);
		}
	}
	vkh_buffer_destroy(d, &out);
	linear_image_destroy(d, &src);
	linear_image_destroy(d, &srgb);
	for (int i = 0; i < 3; i++)
		linear_image_destroy(d, &dst[i]);
}

static const struct vkh_test tests[] = {
	{ "depth_stencil", test_depth_stencil, 1, 0 },
	/* Colour clears are graphics/compute queue commands. */
	{ "clear_color", test_clear_color, 1, VK_QUEUE_COMPUTE_BIT },
	{ "clear_depth_stencil", test_clear_depth_stencil, 1, 0 },
	{ "copy_3d_2d", test_copy_3d_2d, 1, 0 },
	{ "blit", test_blit, 1, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_icd_image_cmd", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
