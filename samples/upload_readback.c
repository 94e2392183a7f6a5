/* SPDX-License-Identifier: MIT */
/*
 * upload_readback: the D3D12 upload / readback flow in Vulkan terms.
 *
 *   host  --memcpy-->  UPLOAD buffer      (HOST_VISIBLE|COHERENT, not cached)
 *   GPU   --copy---->  DEFAULT buffer D   (DEVICE_LOCAL)
 *   GPU   transforms   D: fill a range, write a header (vkCmdUpdateBuffer),
 *                      then D -> T: swap halves and move odd sub-ranges
 *   GPU   --copy---->  READBACK buffer    (HOST_VISIBLE|HOST_CACHED)
 *   host  waits on a fence and checks every byte against its own model.
 *
 * Then the texture case (D3D12's placed footprints, see texture_upload()):
 *   host  --memcpy-->  UPLOAD buffer with a padded row pitch (256-byte
 *                      aligned, bufferRowLength > width) at a 512-byte
 *                      aligned offset
 *   GPU   --copy---->  OPTIMAL 2D texture
 *   GPU   --copy---->  READBACK buffer: a sub-rectangle, its own padded
 *                      footprint; every byte checked (padding untouched).
 *
 * Memory types are chosen by their flags, so this runs on any driver
 * (pick one with VK_DRIVER_FILES). The Khronos validation layer is on
 * (VKH_NO_VALIDATION=1 turns it off); any validation error fails the run.
 *
 * usage: upload_readback [-s SIZE_MIB]   (default 64 MiB)
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define NODD 16

static double
gbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / (double)ns : 0.0;
}

static void
usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-s SIZE_MIB]  (1..4096, default 64)\n",
	        prog);
}

/* The odd sub-range moves of step 3, shared by GPU recording and model:
 * D[src] -> T[dst], sizes and offsets deliberately unaligned. */
static VkBufferCopy
odd_region(VkDeviceSize size, unsigned k)
{
	VkDeviceSize slot = size / NODD;
	VkBufferCopy c = {
		.srcOffset = k * slot + 3 + 5 * k,
		.dstOffset = ((k * 7) % NODD) * slot + 1 + k,
		.size = slot / 2 + 11 * k + 1,
	};

	return c;
}

static void
model_fill(uint8_t *m, VkDeviceSize off, VkDeviceSize size, uint32_t word)
{
	for (VkDeviceSize i = 0; i < size; i++)
		m[off + i] = (uint8_t)(word >> (8 * (i % 4)));
}

static VkResult
submit_timed(struct vkh_device *d, VkCommandBuffer cb, uint64_t *ns)
{
	uint64_t t0 = vkh_now_ns();
	VkResult r = vkh_cmd_submit_wait(d, 0, cb);

	*ns = vkh_now_ns() - t0;
	return r;
}

/* D3D12 footprint rules the texture case follows: rows of a placed
 * footprint are D3D12_TEXTURE_DATA_PITCH_ALIGNMENT (256) bytes aligned,
 * the footprint D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT (512) aligned. */
#define PITCH_ALIGN 256u
#define PLACEMENT_ALIGN 512u
#define TEX_W 1000u
#define TEX_H 600u
#define TEXEL 4u /* R8G8B8A8_UNORM */

struct footprint {
	VkDeviceSize offset;
	uint32_t width, height, row_pitch;
	VkDeviceSize total;
};

static struct footprint
make_footprint(VkDeviceSize base, uint32_t w, uint32_t h)
{
	struct footprint f = {
		.offset = (base + PLACEMENT_ALIGN - 1) / PLACEMENT_ALIGN *
		          PLACEMENT_ALIGN,
		.width = w,
		.height = h,
		.row_pitch = (w * TEXEL + PITCH_ALIGN - 1) / PITCH_ALIGN *
		             PITCH_ALIGN,
	};

	/* The last row needs no padding (as GetCopyableFootprints). */
	f.total = f.offset + (VkDeviceSize)f.row_pitch * (h - 1) + w * TEXEL;
	return f;
}

static void
print_footprint(const char *what, const struct footprint *f)
{
	printf("  %s footprint: offset %llu, R8G8B8A8_UNORM %ux%u, row pitch "
	       "%u B (bufferRowLength %u texels, %u B padding/row), "
	       "%llu B\n", what, (unsigned long long)f->offset, f->width,
	       f->height, f->row_pitch, f->row_pitch / TEXEL,
	       f->row_pitch - f->width * TEXEL,
	       (unsigned long long)(f->total - f->offset));
}

static void
image_barrier(VkCommandBuffer cb, VkImage img, VkImageLayout from,
              VkImageLayout to, VkAccessFlags src_access)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = src_access,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
		.oldLayout = from,
		.newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img,
		.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
	                     NULL, 1, &b);
}

/* Upload a texture from a padded footprint into an OPTIMAL image, read a
 * sub-rectangle back into another padded footprint, check every byte of
 * the readback buffer: texels where the sub-rectangle lands, the fill
 * pattern everywhere else. Returns 0 on success. */
static int
texture_upload(struct vkh *h, struct vkh_device *d)
{
	const uint32_t sx = 123, sy = 45, sw = 517, sh = 311;
	struct footprint up_fp = make_footprint(100, TEX_W, TEX_H);
	struct footprint rb_fp = make_footprint(300, sw, sh);
	VkImageCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = VK_FORMAT_R8G8B8A8_UNORM,
		.extent = { TEX_W, TEX_H, 1 },
		.mipLevels = 1,
		.arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	VkBufferImageCopy up_region = {
		.bufferOffset = up_fp.offset,
		.bufferRowLength = up_fp.row_pitch / TEXEL,
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageExtent = { TEX_W, TEX_H, 1 },
	};
	VkBufferImageCopy rb_region = {
		.bufferOffset = rb_fp.offset,
		.bufferRowLength = rb_fp.row_pitch / TEXEL,
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
		.imageOffset = { (int32_t)sx, (int32_t)sy, 0 },
		.imageExtent = { sw, sh, 1 },
	};
	struct vkh_buffer up = { 0 }, rb = { 0 };
	VkImage img = VK_NULL_HANDLE;
	VkDeviceMemory mem = VK_NULL_HANDLE;
	VkMemoryRequirements req;
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	VkCommandBuffer cb;
	uint64_t t0, t_tex;
	uint8_t *src;
	int type, status = 1;
	VkDeviceSize bad = 0, first = 0;
	VkResult r;

	print_footprint("upload  ", &up_fp);
	print_footprint("readback", &rb_fp);
	printf("  readback sub-rectangle: (%u,%u) %ux%u of the %ux%u "
	       "texture\n", sx, sy, sw, sh, TEX_W, TEX_H);
	r = vkh_buffer_create(h, d, up_fp.total,
	                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                      VKH_MEM_UPLOAD, -1, &up);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, d, rb_fp.total,
		                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		                      VKH_MEM_READBACK, -1, &rb);
	if (r == VK_SUCCESS)
		r = vkCreateImage(d->device, &ici, NULL, &img);
	if (r != VK_SUCCESS)
		goto out;
	vkGetImageMemoryRequirements(d->device, img, &req);
	type = vkh_memtype_device_local(h, req.memoryTypeBits);
	if (type < 0) {
		r = VK_ERROR_FEATURE_NOT_PRESENT;
		goto out;
	}
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)type;
	r = vkAllocateMemory(d->device, &mai, NULL, &mem);
	if (r == VK_SUCCESS)
		r = vkBindImageMemory(d->device, img, mem, 0);
	if (r != VK_SUCCESS)
		goto out;

	/* Texels in the footprint rows; the row padding gets a marker the
	 * copy must skip (it is never read into the texture). */
	src = up.map;
	memset(src, 0xee, up_fp.total);
	for (uint32_t y = 0; y < TEX_H; y++)
		for (uint32_t i = 0; i < TEX_W * TEXEL; i++)
			src[up_fp.offset + (VkDeviceSize)y * up_fp.row_pitch +
			    i] = vkh_pattern(0x7e7, (uint64_t)y * TEX_W *
			                             TEXEL + i);

	cb = vkh_cmd_begin(d, 0);
	if (!cb)
		goto out;
	/* The readback footprint's padding must survive: pre-fill it. */
	vkCmdFillBuffer(cb, rb.buffer, 0, VK_WHOLE_SIZE, 0xcdcdcdcd);
	image_barrier(cb, img, VK_IMAGE_LAYOUT_UNDEFINED,
	              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0);
	vkCmdCopyBufferToImage(cb, up.buffer, img,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
	                       &up_region);
	image_barrier(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	              VK_ACCESS_TRANSFER_WRITE_BIT);
	vkh_cmd_transfer_barrier(cb); /* fill -> copy into rb */
	vkCmdCopyImageToBuffer(cb, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	                       rb.buffer, 1, &rb_region);
	vkh_cmd_host_barrier(cb);
	t0 = vkh_now_ns();
	r = vkh_cmd_submit_wait(d, 0, cb);
	t_tex = vkh_now_ns() - t0;
	if (r != VK_SUCCESS)
		goto out;
	vkh_buffer_invalidate(h, d, &rb);

	for (VkDeviceSize i = 0; i < rb_fp.total; i++) {
		const uint8_t *got = rb.map;
		uint8_t want = 0xcd;
		if (i >= rb_fp.offset) {
			VkDeviceSize o = i - rb_fp.offset;
			uint32_t y = (uint32_t)(o / rb_fp.row_pitch);
			uint32_t xb = (uint32_t)(o % rb_fp.row_pitch);
			if (xb < sw * TEXEL)
				want = vkh_pattern(0x7e7,
				                   (uint64_t)(sy + y) * TEX_W *
				                   TEXEL + sx * TEXEL + xb);
		}
		if (got[i] != want) {
			if (!bad)
				first = i;
			bad++;
		}
	}
	if (bad) {
		printf("  texture FAILED: %llu readback byte(s) differ, first "
		       "at %llu (got 0x%02x)\n", (unsigned long long)bad,
		       (unsigned long long)first,
		       ((const uint8_t *)rb.map)[first]);
		goto out;
	}
	printf("  texture     %8.2f ms  (upload %u KiB + sub-rectangle "
	       "readback)\n", (double)t_tex / 1e6,
	       (unsigned)((TEX_W * TEX_H * TEXEL) >> 10));
	printf("  verified %llu readback bytes (texels + padding): OK\n",
	       (unsigned long long)rb_fp.total);
	status = 0;
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "upload_readback: texture: %s\n",
		        vkh_result_str(r));
	if (img)
		vkDestroyImage(d->device, img, NULL);
	if (mem)
		vkFreeMemory(d->device, mem, NULL);
	vkh_buffer_destroy(d, &up);
	vkh_buffer_destroy(d, &rb);
	return status;
}

int
main(int argc, char **argv)
{
	VkDeviceSize size = 64ull << 20, half;
	struct vkh h;
	struct vkh_device d;
	struct vkh_buffer up, dl, tmp, rb;
	uint8_t *model_d = NULL, *model_t = NULL, header[256];
	uint64_t t_host, t_up, t_xform, t_down, t0;
	VkCommandBuffer cb;
	VkResult r;
	int status = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			long mib = strtol(argv[++i], NULL, 10);
			if (mib < 1 || mib > 4096) {
				usage(argv[0]);
				return 2;
			}
			size = (VkDeviceSize)mib << 20;
		} else {
			usage(argv[0]);
			return 2;
		}
	}
	half = size / 2;

	r = vkh_init(&h, "upload_readback", VK_API_VERSION_1_3);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "upload_readback: init failed: %s\n",
		        vkh_result_str(r));
		vkh_finish(&h);
		return 1;
	}
	printf("upload_readback: device \"%s\" (driver %s), %llu MiB\n",
	       h.props.deviceName, h.driver.driverName,
	       (unsigned long long)(size >> 20));
	r = vkh_device_create(&h, VK_QUEUE_TRANSFER_BIT, 1, NULL, &d);
	if (r != VK_SUCCESS)
		goto out;
	printf("  queue: family %u index %u (flags 0x%x)\n",
	       d.queues[0].family, d.queues[0].index, d.queues[0].flags);

	memset(&up, 0, sizeof(up));
	tmp = rb = dl = up;
	r = vkh_buffer_create(&h, &d, size, XFER, VKH_MEM_UPLOAD, -1, &up);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(&h, &d, size, XFER, VKH_MEM_DEVICE_LOCAL,
		                      -1, &dl);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(&h, &d, size, XFER, VKH_MEM_DEVICE_LOCAL,
		                      -1, &tmp);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(&h, &d, size, XFER, VKH_MEM_READBACK, -1,
		                      &rb);
	model_d = malloc(size);
	model_t = malloc(size);
	if (r != VK_SUCCESS || !model_d || !model_t) {
		fprintf(stderr, "upload_readback: buffers: %s\n",
		        vkh_result_str(r));
		goto out_bufs;
	}
	printf("  upload   buffer: ");
	vkh_print_memtype(&h, stdout, up.mem_type);
	printf("\n  default  buffers: ");
	vkh_print_memtype(&h, stdout, dl.mem_type);
	printf("\n  readback buffer: ");
	vkh_print_memtype(&h, stdout, rb.mem_type);
	printf("\n");

	/* 1. Host writes the upload buffer (write-combined on real GPUs:
	 * sequential writes only, never read back from it). */
	for (VkDeviceSize i = 0; i < size; i++)
		model_d[i] = vkh_pattern(0x5eed, i);
	t0 = vkh_now_ns();
	memcpy(up.map, model_d, size);
	t_host = vkh_now_ns() - t0;

	/* 2. Upload: UPLOAD -> DEFAULT. */
	cb = vkh_cmd_begin(&d, 0);
	if (!cb)
		goto out_bufs;
	{
		VkBufferCopy c = { .size = size };
		vkCmdCopyBuffer(cb, up.buffer, dl.buffer, 1, &c);
	}
	r = submit_timed(&d, cb, &t_up);
	if (r != VK_SUCCESS)
		goto out_bufs;

	/* 3. Transform on the GPU. */
	cb = vkh_cmd_begin(&d, 0);
	if (!cb)
		goto out_bufs;
	vkCmdFillBuffer(cb, dl.buffer, size / 4, size / 8, 0xdeadbeef);
	model_fill(model_d, size / 4, size / 8, 0xdeadbeef);
	for (unsigned i = 0; i < sizeof(header); i++)
		header[i] = (uint8_t)("upload_readback header "[i % 23] ^ i);
	vkCmdUpdateBuffer(cb, dl.buffer, 0, sizeof(header), header);
	memcpy(model_d, header, sizeof(header));
	vkh_cmd_transfer_barrier(cb);
	{
		VkBufferCopy swap[2] = {
			{ .srcOffset = 0, .dstOffset = half, .size = half },
			{ .srcOffset = half, .dstOffset = 0,
			  .size = size - half },
		};
		vkCmdCopyBuffer(cb, dl.buffer, tmp.buffer, 2, swap);
		memcpy(model_t + half, model_d, half);
		memcpy(model_t, model_d + half, size - half);
	}
	/* The odd moves overwrite parts of T just written: a write-after-
	 * write that needs the barrier. */
	vkh_cmd_transfer_barrier(cb);
	for (unsigned k = 0; k < NODD; k++) {
		VkBufferCopy c = odd_region(size, k);
		vkCmdCopyBuffer(cb, dl.buffer, tmp.buffer, 1, &c);
		memcpy(model_t + c.dstOffset, model_d + c.srcOffset, c.size);
	}
	r = submit_timed(&d, cb, &t_xform);
	if (r != VK_SUCCESS)
		goto out_bufs;

	/* 4. Readback: DEFAULT -> READBACK, made visible to the host. */
	memset(rb.map, 0, size);
	cb = vkh_cmd_begin(&d, 0);
	if (!cb)
		goto out_bufs;
	{
		VkBufferCopy c = { .size = size };
		vkCmdCopyBuffer(cb, tmp.buffer, rb.buffer, 1, &c);
	}
	vkh_cmd_host_barrier(cb);
	r = submit_timed(&d, cb, &t_down);
	if (r != VK_SUCCESS)
		goto out_bufs;
	vkh_buffer_invalidate(&h, &d, &rb);

	/* 5. Check every byte. */
	if (memcmp(rb.map, model_t, size)) {
		const uint8_t *got = rb.map;
		VkDeviceSize bad = 0, first = size;
		for (VkDeviceSize i = 0; i < size; i++) {
			if (got[i] != model_t[i]) {
				if (first == size)
					first = i;
				bad++;
			}
		}
		printf("  FAILED: %llu byte(s) differ, first at %llu "
		       "(got 0x%02x want 0x%02x)\n",
		       (unsigned long long)bad, (unsigned long long)first,
		       got[first], model_t[first]);
		goto out_bufs;
	}
	printf("  host write  %8.2f ms  %6.2f GB/s\n", (double)t_host / 1e6,
	       gbps(size, t_host));
	printf("  upload      %8.2f ms  %6.2f GB/s  (submit + fence wait)\n",
	       (double)t_up / 1e6, gbps(size, t_up));
	printf("  transform   %8.2f ms  (fill %llu MiB, header %zu B, swap "
	       "halves, %u odd moves)\n", (double)t_xform / 1e6,
	       (unsigned long long)(size >> 23), sizeof(header), NODD);
	printf("  readback    %8.2f ms  %6.2f GB/s  (submit + fence wait)\n",
	       (double)t_down / 1e6, gbps(size, t_down));
	printf("  verified %llu bytes: OK\n", (unsigned long long)size);

	/* 6. The texture case (D3D12 placed footprints). */
	if (texture_upload(&h, &d))
		goto out_bufs;
	status = 0;

out_bufs:
	vkh_buffer_destroy(&d, &up);
	vkh_buffer_destroy(&d, &dl);
	vkh_buffer_destroy(&d, &tmp);
	vkh_buffer_destroy(&d, &rb);
	free(model_d);
	free(model_t);
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "upload_readback: %s\n", vkh_result_str(r));
	if (vkh_finish(&h))
		status = 1;
	printf("upload_readback: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
