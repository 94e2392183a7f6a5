/* SPDX-License-Identifier: MIT */
/*
 * compute_collatz: an integer kernel with data-dependent loops. Each
 * invocation computes the Collatz stopping time of one start value (its
 * loop runs 0..~350 times, so the lanes of a workgroup diverge heavily)
 * and F(start mod 64) modulo 2^32 (wrapping adds). The workgroup size is a
 * specialization constant; the range is given by push constants and
 * covered in several dispatches. The host recomputes every value.
 *
 * Start values stay below 100000 by default so every trajectory fits in
 * 32 bits (the largest value reached is 1 570 824 736).
 *
 * Exit status 77 (skip) when the device has no COMPUTE queue.
 *
 * usage: compute_collatz [-n COUNT] [-w WORKGROUP_SIZE]
 */
#include "vkh_compute.h"

#include <stdlib.h>
#include <string.h>

#include "collatz.spv.h"

#define MAX_STEPS 1000u
#define FIRST 1u
#define CHUNKS 4u

struct range {
	uint32_t first, count, max_steps;
};

static uint32_t
host_collatz(uint32_t x)
{
	uint32_t n = 0;

	while (x != 1 && n < MAX_STEPS) {
		x = (x & 1) ? 3 * x + 1 : x >> 1;
		n++;
	}
	return n;
}

static uint32_t
host_fib(uint32_t k)
{
	uint32_t a = 0, b = 1;

	for (uint32_t i = 0; i < k; i++) {
		uint32_t t = a + b;
		a = b;
		b = t;
	}
	return a;
}

int
main(int argc, char **argv)
{
	uint32_t count = 99999, wg = 64, dispatches = 0;
	struct vkh h;
	struct vkh_device d;
	struct vkh_buffer steps = { 0 }, fib = { 0 };
	struct vkh_pipe pipe = { 0 };
	VkCommandBuffer cb;
	VkResult r = VK_SUCCESS;
	uint64_t t0, t_gpu;
	int status = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i += 2) {
		long v = i + 1 < argc ? strtol(argv[i + 1], NULL, 0) : 0;
		if (!strcmp(argv[i], "-n") && v >= 1 && v <= 99999) {
			count = (uint32_t)v;
		} else if (!strcmp(argv[i], "-w") && v >= 1 && v <= 1024) {
			wg = (uint32_t)v;
		} else {
			fprintf(stderr, "usage: %s [-n COUNT (1..99999)] "
			        "[-w WORKGROUP_SIZE (1..1024)]\n", argv[0]);
			return 2;
		}
	}

	r = vkh_init(&h, "compute_collatz", VK_API_VERSION_1_3);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "compute_collatz: init: %s\n",
		        vkh_result_str(r));
		vkh_finish(&h);
		return 1;
	}
	printf("compute_collatz: device \"%s\" (driver %s), starts %u..%u, "
	       "workgroup %u\n", h.props.deviceName, h.driver.driverName,
	       FIRST, FIRST + count - 1, wg);
	if (!vkh_has_compute(&h)) {
		printf("compute_collatz: SKIP: no queue family with COMPUTE\n");
		vkh_finish(&h);
		return VKH_EXIT_SKIP;
	}
	if (wg > h.props.limits.maxComputeWorkGroupSize[0] ||
	    wg > h.props.limits.maxComputeWorkGroupInvocations) {
		fprintf(stderr, "compute_collatz: workgroup %u over the "
		        "device limit\n", wg);
		vkh_finish(&h);
		return 2;
	}
	r = vkh_device_create(&h, VK_QUEUE_COMPUTE_BIT, 1, NULL, &d);
	if (r != VK_SUCCESS)
		goto out;
	r = vkh_buffer_create(&h, &d, (VkDeviceSize)count * 4,
	                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                      VKH_MEM_READBACK, -1, &steps);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(&h, &d, (VkDeviceSize)count * 4,
		                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
		                      VKH_MEM_READBACK, -1, &fib);
	if (r != VK_SUCCESS || !steps.map || !fib.map)
		goto out_buf;
	{
		VkSpecializationMapEntry me = { 0, 0, 4 };
		VkSpecializationInfo si = { 1, &me, 4, &wg };
		struct vkh_pipe_desc pd = {
			.spv = collatz_spv,
			.spv_size = sizeof(collatz_spv),
			.set_count = 1,
			.binding_count = { 2 },
			.types = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
			.push_bytes = sizeof(struct range),
			.spec = &si,
			/* vkCmdDispatchBase with a non-zero base below. */
			.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
		};
		r = vkh_pipe_create(&d, &pd, &pipe);
	}
	if (r != VK_SUCCESS)
		goto out_buf;

	cb = vkh_cmd_begin(&d, 0);
	if (!cb) {
		r = VK_ERROR_OUT_OF_HOST_MEMORY;
		goto out_buf;
	}
	vkh_pipe_set_buffer(&d, &pipe, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    steps.buffer, 0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(&d, &pipe, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    fib.buffer, 0, VK_WHOLE_SIZE);
	{
		/* One dispatch per chunk with vkCmdDispatchBase: the chunk's
		 * base workgroup shifts gl_GlobalInvocationID, so the
		 * shader's index needs no per-chunk offset. */
		uint32_t groups = (count + wg - 1) / wg;
		uint32_t per = (groups + CHUNKS - 1) / CHUNKS;
		struct range rg = { FIRST, count, MAX_STEPS };
		vkh_pipe_bind(cb, &pipe, 0, NULL, &rg);
		for (uint32_t g = 0; g < groups; g += per) {
			uint32_t n = groups - g < per ? groups - g : per;
			vkCmdDispatchBase(cb, g, 0, 0, n, 1, 1);
			dispatches++;
		}
	}
	vkh_cmd_compute_host_barrier(cb);
	t0 = vkh_now_ns();
	/* Minutes, not VKH_TIMEOUT_NS: a big input under a sanitizer. */
	r = vkh_cmd_submit_wait_ns(&d, 0, cb, 300ull * 1000000000);
	t_gpu = vkh_now_ns() - t0;
	if (r != VK_SUCCESS)
		goto out_buf;
	vkh_buffer_invalidate(&h, &d, &steps);
	vkh_buffer_invalidate(&h, &d, &fib);

	{
		const uint32_t *s = steps.map, *f = fib.map;
		uint32_t bad = 0, best = 0, best_at = 0;
		for (uint32_t i = 0; i < count; i++) {
			uint32_t x = FIRST + i;
			uint32_t ws = host_collatz(x), wf = host_fib(x % 64);
			if (s[i] != ws || f[i] != wf) {
				if (!bad)
					printf("  FAILED at start %u: steps %u "
					       "(want %u) fib %u (want %u)\n",
					       x, s[i], ws, f[i], wf);
				bad++;
			}
			if (s[i] > best) {
				best = s[i];
				best_at = x;
			}
		}
		if (bad) {
			printf("  %u of %u wrong\n", bad, count);
			goto out_buf;
		}
		printf("  %.2f ms (submit + fence wait, %u dispatches)\n",
		       (double)t_gpu / 1e6, dispatches);
		printf("  longest: %u takes %u steps; F(63) mod 2^32 = %u\n",
		       best_at, best, host_fib(63));
		printf("  verified %u starts: OK\n", count);
	}
	status = 0;

out_buf:
	vkh_pipe_destroy(&d, &pipe);
	vkh_buffer_destroy(&d, &steps);
	vkh_buffer_destroy(&d, &fib);
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "compute_collatz: %s\n", vkh_result_str(r));
	if (vkh_finish(&h))
		status = 1;
	printf("compute_collatz: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
