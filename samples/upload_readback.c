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
