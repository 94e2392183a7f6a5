/* SPDX-License-Identifier: MIT */
/*
 * compute_reduce: an inclusive prefix sum of N uints on the GPU, the
 * classic multi-level scan:
 *
 *   level 0: N elements; scan each 256-element block in workgroup shared
 *            memory (barriers between the steps), block totals -> level 1
 *   level k: the same over the block totals of level k-1, until one block
 *   down:    add the scanned totals of the earlier blocks back into each
 *            level, from the top level to level 0
 *
 * All levels live in one storage buffer (offsets in push constants); the
 * passes are separated by compute->compute barriers in one command buffer.
 * The last element is the reduction (the sum of all N). The host checks
 * every element against its own scan (uint arithmetic wraps the same way).
 *
 * Exit status 77 (skip) when the device has no COMPUTE queue.
 *
 * usage: compute_reduce [-n ELEMENTS]   (default 4 Mi)
 */
#include "vkh_compute.h"

#include <stdlib.h>
#include <string.h>

#include "reduce_add.spv.h"
#include "reduce_scan.spv.h"

#define BLOCK 256u
#define MAX_LEVELS 8

struct pass {
	uint32_t off, sums_off, n, write_sums;
};

int
main(int argc, char **argv)
{
	uint32_t n = 4u << 20, levels = 0, total = 0;
	uint32_t off[MAX_LEVELS], cnt[MAX_LEVELS];
	struct vkh h;
	struct vkh_device d;
	struct vkh_buffer buf = { 0 };
	struct vkh_pipe scan = { 0 }, add = { 0 };
	uint32_t *model = NULL;
	VkCommandBuffer cb;
	uint64_t t0, t_gpu;
	VkResult r = VK_SUCCESS;
	int status = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			long v = strtol(argv[++i], NULL, 0);
			if (v < 1 || v > (256l << 20)) {
				fprintf(stderr, "-n: 1..%ld\n", 256l << 20);
				return 2;
			}
			n = (uint32_t)v;
		} else {
			fprintf(stderr, "usage: %s [-n ELEMENTS]\n", argv[0]);
			return 2;
		}
	}
	/* Level layout: level k's elements, then level k+1's, ... */
	for (uint32_t c = n, o = 0; levels < MAX_LEVELS; levels++) {
		off[levels] = o;
		cnt[levels] = c;
		total = o + c;
		if (c <= BLOCK) {
			levels++;
			break;
		}
		o += c;
		c = (c + BLOCK - 1) / BLOCK;
	}

	r = vkh_init(&h, "compute_reduce", VK_API_VERSION_1_3);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "compute_reduce: init: %s\n",
		        vkh_result_str(r));
		vkh_finish(&h);
		return 1;
	}
	printf("compute_reduce: device \"%s\" (driver %s), %u elements, "
	       "%u level(s)\n", h.props.deviceName, h.driver.driverName, n,
	       levels);
	if (!vkh_has_compute(&h)) {
		printf("compute_reduce: SKIP: no queue family with COMPUTE\n");
		vkh_finish(&h);
		return VKH_EXIT_SKIP;
	}
	r = vkh_device_create(&h, VK_QUEUE_COMPUTE_BIT, 1, NULL, &d);
	if (r != VK_SUCCESS)
		goto out;
	r = vkh_buffer_create(&h, &d, (VkDeviceSize)total * 4,
	                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                      VKH_MEM_READBACK, -1, &buf);
	model = malloc((size_t)n * 4);
	if (r != VK_SUCCESS || !model || !buf.map) {
		fprintf(stderr, "compute_reduce: buffer: %s\n",
		        vkh_result_str(r));
		goto out_buf;
	}
	r = vkh_pipe_create_simple(&d, reduce_scan_spv, sizeof(reduce_scan_spv),
	                           1, sizeof(struct pass), NULL, &scan);
	if (r == VK_SUCCESS)
		r = vkh_pipe_create_simple(&d, reduce_add_spv,
		                           sizeof(reduce_add_spv), 1,
		                           sizeof(struct pass), NULL, &add);
	if (r != VK_SUCCESS)
		goto out_buf;
	vkh_pipe_set_buffer(&d, &scan, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    buf.buffer, 0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(&d, &add, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    buf.buffer, 0, VK_WHOLE_SIZE);

	/* Input: small pseudo-random values, with a few large ones so the
	 * running sum wraps around 2^32 on big runs. */
	{
		uint32_t *v = buf.map, acc = 0;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t x = i * 2654435761u;
			x ^= x >> 15;
			v[i] = (i % 4099 == 0) ? x : (x & 0xffff);
			acc += v[i];
			model[i] = acc;
		}
		memset(v + n, 0xcd, (size_t)(total - n) * 4);
		/* The memory may be non-coherent: flush the host writes. */
		VkMappedMemoryRange mr = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = buf.memory,
			.size = VK_WHOLE_SIZE,
		};
		vkFlushMappedMemoryRanges(d.device, 1, &mr);
	}

	cb = vkh_cmd_begin(&d, 0);
	if (!cb) {
		r = VK_ERROR_OUT_OF_HOST_MEMORY;
		goto out_buf;
	}
	for (uint32_t k = 0; k < levels; k++) {
		struct pass p = {
			off[k], k + 1 < levels ? off[k + 1] : 0, cnt[k],
			k + 1 < levels,
		};
		vkh_pipe_bind(cb, &scan, 0, NULL, &p);
		vkCmdDispatch(cb, (cnt[k] + BLOCK - 1) / BLOCK, 1, 1);
		vkh_cmd_compute_barrier(cb);
	}
	for (uint32_t k = levels - 1; k-- > 0;) {
		struct pass p = { off[k], off[k + 1], cnt[k], 0 };
		vkh_pipe_bind(cb, &add, 0, NULL, &p);
		vkCmdDispatch(cb, (cnt[k] + BLOCK - 1) / BLOCK, 1, 1);
		vkh_cmd_compute_barrier(cb);
	}
	vkh_cmd_compute_host_barrier(cb);
	t0 = vkh_now_ns();
	/* Minutes, not VKH_TIMEOUT_NS: a big input under a sanitizer. */
	r = vkh_cmd_submit_wait_ns(&d, 0, cb, 300ull * 1000000000);
	t_gpu = vkh_now_ns() - t0;
	if (r != VK_SUCCESS)
		goto out_buf;
	vkh_buffer_invalidate(&h, &d, &buf);

	{
		const uint32_t *got = buf.map;
		uint32_t bad = 0, first = n;
		for (uint32_t i = 0; i < n; i++) {
			if (got[i] != model[i]) {
				if (first == n)
					first = i;
				bad++;
			}
		}
		if (bad) {
			printf("  FAILED: %u of %u prefix sums wrong, first at "
			       "%u (got %u want %u)\n", bad, n, first,
			       got[first], model[first]);
			goto out_buf;
		}
		printf("  %u scan + %u add dispatches, %.2f ms (submit + "
		       "fence wait), %.1f M elements/s\n", levels, levels - 1,
		       (double)t_gpu / 1e6,
		       t_gpu ? (double)n * 1e3 / (double)t_gpu : 0.0);
		printf("  reduction (sum mod 2^32) = %u\n", got[n - 1]);
		printf("  verified %u prefix sums: OK\n", n);
	}
	status = 0;

out_buf:
	vkh_pipe_destroy(&d, &scan);
	vkh_pipe_destroy(&d, &add);
	vkh_buffer_destroy(&d, &buf);
	free(model);
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "compute_reduce: %s\n", vkh_result_str(r));
	if (vkh_finish(&h))
		status = 1;
	printf("compute_reduce: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
