/* SPDX-License-Identifier: MIT */
/*
 * Prefix sum figure (issue 19): an inclusive scan of n uints (1 M; quick
 * 64 K) written as applications write one: scan_block.comp scans each
 * 1024-element block in place and writes the block totals, the same
 * shader scans the (at most 1024) totals in one workgroup, scan_add.comp
 * adds each block's preceding total. Timed: the three dispatches with
 * their barriers in one submit -> fence. Every element is checked against
 * the host's scan (uint arithmetic: exact).
 */
#include "bench_kernel.h"

#include <stdlib.h>

#include "scan_add.spv.h"
#include "scan_block.spv.h"

#define SCAN_BLOCK 1024u
#define SCAN_MAX_BLOCKS 1024u   /* totals must fit one block */

struct scan_ctx {
	struct bench_vk *vk;
	uint32_t n, blocks;
	struct bench_buffer up, data, sums, dummy;
	struct bench_kernel k_block, k_sums, k_add;
	uint32_t *want;
};

static VkResult
scan_prepare(void *p)
{
	struct scan_ctx *c = p;

	/* The scan works in place: the input again for every run. */
	return bench_untimed(c->vk, &c->up, &c->data,
	                     (VkDeviceSize)c->n * 4, false);
}

static void
scan_record(void *p, VkCommandBuffer cb)
{
	struct scan_ctx *c = p;

	bench_kernel_record(cb, &c->k_block, &c->n, 4, c->blocks, 1);
	bench_compute_barrier(cb);
	bench_kernel_record(cb, &c->k_sums, &c->blocks, 4, 1, 1);
	bench_compute_barrier(cb);
	bench_kernel_record(cb, &c->k_add, &c->n, 4, c->blocks, 1);
}

static bool
scan_check(void *p, const void *got)
{
	struct scan_ctx *c = p;

	return bench_check("prefix_sum", got, c->want,
	                   (uint64_t)c->n * 4);
}

static VkResult
scan_setup(struct scan_ctx *c, uint32_t n)
{
	VkDeviceSize bytes = (VkDeviceSize)n * 4;
	struct bench_buffer *b_block[2] = { &c->data, &c->sums };
	struct bench_buffer *b_sums[2] = { &c->sums, &c->dummy };
	uint32_t *u, acc = 0;
	VkResult r;

	c->n = n;
	c->blocks = (n + SCAN_BLOCK - 1) / SCAN_BLOCK;
	c->want = malloc(bytes);
	if (!c->want || c->blocks > SCAN_MAX_BLOCKS)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	r = bench_buffer_create(c->vk, bytes, BENCH_SSBO_USAGE,
	                        BENCH_MEM_UPLOAD, &c->up);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(c->vk, bytes, BENCH_SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c->data);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(c->vk, SCAN_MAX_BLOCKS * 4,
		                        BENCH_SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c->sums);
	/* Pass 2's total of totals lands here, unused. */
	if (r == VK_SUCCESS)
		r = bench_buffer_create(c->vk, 256, BENCH_SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c->dummy);
	if (r == VK_SUCCESS)
		r = bench_kernel_create(c->vk, scan_block_spv,
		                        sizeof(scan_block_spv), b_block, 2, 4,
		                        &c->k_block);
	if (r == VK_SUCCESS)
		r = bench_kernel_create(c->vk, scan_block_spv,
		                        sizeof(scan_block_spv), b_sums, 2, 4,
		                        &c->k_sums);
	if (r == VK_SUCCESS)
		r = bench_kernel_create(c->vk, scan_add_spv,
		                        sizeof(scan_add_spv), b_block, 2, 4,
		                        &c->k_add);
	if (r != VK_SUCCESS)
		return r;
	u = c->up.map;
	for (uint32_t i = 0; i < n; i++) {
		/* Hashed values over the whole range: sums wrap mod 2^32. */
		u[i] = (i * 2654435761u) ^ (i >> 3);
		acc += u[i];
		c->want[i] = acc;
	}
	return VK_SUCCESS;
}

static void
scan_teardown(struct scan_ctx *c)
{
	bench_kernel_destroy(c->vk, &c->k_block);
	bench_kernel_destroy(c->vk, &c->k_sums);
	bench_kernel_destroy(c->vk, &c->k_add);
	bench_buffer_destroy(c->vk, &c->up);
	bench_buffer_destroy(c->vk, &c->data);
	bench_buffer_destroy(c->vk, &c->sums);
	bench_buffer_destroy(c->vk, &c->dummy);
	free(c->want);
}

void
bench_compute_scan(struct bench_vk *vk, const struct bench_opts *o,
                   struct bench_buffer *rb)
{
	struct scan_ctx c = { .vk = vk };
	struct bench_compute_figure f = {
		.figure = "prefix_sum", .unit = "ms", .ctx = &c,
		.prepare = scan_prepare, .record = scan_record,
		.check = scan_check, .value = bench_ns_to_ms,
		.out = &c.data, .out_size = (VkDeviceSize)o->scan_n * 4,
	};
	VkResult r = scan_setup(&c, o->scan_n);

	if (r == VK_SUCCESS) {
		bench_compute_run(vk, o, rb, &f);
	} else {
		fprintf(stderr, "swgpu_bench: prefix_sum setup: %s\n",
		        bench_vk_result(r));
		bench_failed = true;
	}
	scan_teardown(&c);
}
