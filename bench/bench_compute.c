/* SPDX-License-Identifier: MIT */
/*
 * Compute figures (issue 5): SAXPY over n floats and a shared-memory
 * reduction over n uints, in ms per dispatch (submit -> fence). Inputs are
 * small integers, so a*x+y is exact in float with or without FMA and the
 * host checks every output element of every run, into a poisoned buffer.
 * Then issue 19's prefix sum (bench_compute_scan.c), Mandelbrot and ALU
 * throughput (bench_compute_alu.c). Skipped (n/a) when no queue family
 * has COMPUTE.
 */
#include "bench_kernel.h"

#include <stdlib.h>
#include <string.h>

#include "reduce.spv.h"
#include "saxpy.spv.h"

#define LOCAL_SIZE 128u
#define REDUCE_PER_INVOCATION 8u
#define SAXPY_A 3.0f
struct compute_ctx {
	struct bench_vk *vk;
	const struct bench_opts *o;
	uint32_t n;
	struct bench_buffer up, rb, x, y, z;
	float *want_z;
	uint32_t *want_partial;
};

static void
saxpy_figure(struct compute_ctx *c)
{
	struct bench_vk *vk = c->vk;
	struct bench_result r = {
		.figure = "saxpy", .unit = "ms", .verified = true,
	};
	struct bench_buffer *bufs[3] = { &c->x, &c->y, &c->z };
	struct { float a; uint32_t n; } push = { SAXPY_A, c->n };
	VkDeviceSize bytes = (VkDeviceSize)c->n * 4;
	struct bench_kernel k;
	double s[64];
	unsigned n = 0;
	VkResult res;

	res = bench_kernel_create(vk, saxpy_spv, sizeof(saxpy_spv), bufs, 3,
	                    sizeof(push), &k);
	for (unsigned i = 0; res == VK_SUCCESS &&
	     i < c->o->warmup + c->o->runs && n < 64; i++) {
		bool ok;
		uint64_t ns;

		if (bench_untimed(vk, NULL, &c->z, bytes, false))
			break;
		ns = bench_timed_dispatch(vk, &k, &push, sizeof(push),
		                    c->n / LOCAL_SIZE, &ok);
		if (!ok || bench_untimed(vk, &c->z, &c->rb, bytes, true))
			break;
		bench_buffer_invalidate(vk, &c->rb);
		if (!bench_check("saxpy", c->rb.map, c->want_z, bytes))
			break;
		if (i >= c->o->warmup)
			s[n++] = (double)ns / 1e6;
	}
	if (res != VK_SUCCESS)
		fprintf(stderr, "swgpu_bench: saxpy pipeline: %s\n",
		        bench_vk_result(res));
	if (n < c->o->runs) {
		r.verified = false;
		bench_failed = true;
	}
	bench_stats(&r, s, n);
	bench_report(vk->driver, &r);
	bench_kernel_destroy(vk, &k);
}

static void
reduce_figure(struct compute_ctx *c)
{
	struct bench_vk *vk = c->vk;
	struct bench_result r = {
		.figure = "reduce", .unit = "ms", .verified = true,
	};
	/* x holds the uint input; z receives one sum per workgroup. */
	struct bench_buffer *bufs[2] = { &c->x, &c->z };
	uint32_t push = c->n;
	uint32_t groups = c->n / (LOCAL_SIZE * REDUCE_PER_INVOCATION);
	VkDeviceSize bytes = (VkDeviceSize)groups * 4;
	struct bench_kernel k;
	double s[64];
	unsigned n = 0;
	VkResult res;

	res = bench_kernel_create(vk, reduce_spv, sizeof(reduce_spv), bufs, 2,
	                    sizeof(push), &k);
	for (unsigned i = 0; res == VK_SUCCESS &&
	     i < c->o->warmup + c->o->runs && n < 64; i++) {
		bool ok;
		uint64_t ns;

		if (bench_untimed(vk, NULL, &c->z, bytes, false))
			break;
		ns = bench_timed_dispatch(vk, &k, &push, sizeof(push), groups, &ok);
		if (!ok || bench_untimed(vk, &c->z, &c->rb, bytes, true))
			break;
		bench_buffer_invalidate(vk, &c->rb);
		if (!bench_check("reduce", c->rb.map, c->want_partial, bytes))
			break;
		if (i >= c->o->warmup)
			s[n++] = (double)ns / 1e6;
	}
	if (res != VK_SUCCESS)
		fprintf(stderr, "swgpu_bench: reduce pipeline: %s\n",
		        bench_vk_result(res));
	if (n < c->o->runs) {
		r.verified = false;
		bench_failed = true;
	}
	bench_stats(&r, s, n);
	bench_report(vk->driver, &r);
	bench_kernel_destroy(vk, &k);
}

/* Inputs into x and y through the upload buffer; expected outputs. */
static VkResult
compute_inputs(struct compute_ctx *c, bool for_reduce)
{
	VkDeviceSize bytes = (VkDeviceSize)c->n * 4;
	float *f = c->up.map;
	uint32_t *u = c->up.map;
	VkResult r;

	if (!for_reduce) {
		for (uint32_t i = 0; i < c->n; i++)
			f[i] = (float)(i % 1000);
		r = bench_untimed(c->vk, &c->up, &c->x, bytes, false);
		for (uint32_t i = 0; i < c->n; i++) {
			f[i] = (float)(i % 777);
			c->want_z[i] = SAXPY_A * (float)(i % 1000) + f[i];
		}
		if (r == VK_SUCCESS)
			r = bench_untimed(c->vk, &c->up, &c->y, bytes, false);
		return r;
	}
	memset(c->want_partial, 0,
	       c->n / (LOCAL_SIZE * REDUCE_PER_INVOCATION) * 4);
	for (uint32_t i = 0; i < c->n; i++) {
		u[i] = i * 2654435761u;
		c->want_partial[i / (LOCAL_SIZE * REDUCE_PER_INVOCATION)] +=
			u[i];
	}
	return bench_untimed(c->vk, &c->up, &c->x, bytes, false);
}

/* The readback buffer serves every figure: the largest output. */
static VkDeviceSize
readback_bytes(const struct bench_opts *o)
{
	uint64_t words = o->compute_n;

	if (o->scan_n > words)
		words = o->scan_n;
	if ((uint64_t)o->mandel_dim * o->mandel_dim > words)
		words = (uint64_t)o->mandel_dim * o->mandel_dim;
	if ((uint64_t)o->alu_groups * 256 > words)
		words = (uint64_t)o->alu_groups * 256;
	return words * 4;
}

bool
bench_compute(struct bench_vk *vk, const struct bench_opts *o)
{
	struct compute_ctx c = { .vk = vk, .o = o, .n = o->compute_n };
	VkDeviceSize bytes = (VkDeviceSize)c.n * 4;
	VkResult r = VK_SUCCESS;

	if (!vk->has_compute) {
		static const char *const names[][2] = {
			{ "saxpy", "ms" }, { "reduce", "ms" },
			{ "prefix_sum", "ms" }, { "mandelbrot", "ms" },
			{ "alu_flops", "GFLOPS" },
		};

		for (unsigned i = 0; i < 5; i++)
			bench_report_na(vk->driver, names[i][0], names[i][1],
			                "no-compute-queue");
		return true;
	}
	c.want_z = malloc(bytes);
	c.want_partial = malloc(bytes);
	if (!c.want_z || !c.want_partial)
		r = VK_ERROR_OUT_OF_HOST_MEMORY;
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, BENCH_SSBO_USAGE,
		                        BENCH_MEM_UPLOAD, &c.up);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, readback_bytes(o), BENCH_SSBO_USAGE,
		                        BENCH_MEM_READBACK, &c.rb);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, BENCH_SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.x);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, BENCH_SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.y);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, bytes, BENCH_SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.z);
	if (r == VK_SUCCESS && bench_figure_wanted(o, "compute_saxpy")) {
		r = compute_inputs(&c, false);
		if (r == VK_SUCCESS)
			saxpy_figure(&c);
	}
	if (r == VK_SUCCESS && bench_figure_wanted(o, "compute_reduce")) {
		r = compute_inputs(&c, true);
		if (r == VK_SUCCESS)
			reduce_figure(&c);
	}
	/* The big buffers are not needed any more. */
	bench_buffer_destroy(vk, &c.x);
	bench_buffer_destroy(vk, &c.y);
	bench_buffer_destroy(vk, &c.z);
	if (r == VK_SUCCESS && bench_figure_wanted(o, "compute_prefix_sum"))
		bench_compute_scan(vk, o, &c.rb);
	if (r == VK_SUCCESS)
		bench_compute_alu(vk, o, &c.rb);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: compute setup: %s\n",
		        bench_vk_result(r));
		bench_failed = true;
	}
	bench_buffer_destroy(vk, &c.up);
	bench_buffer_destroy(vk, &c.rb);
	bench_buffer_destroy(vk, &c.x);
	bench_buffer_destroy(vk, &c.y);
	bench_buffer_destroy(vk, &c.z);
	free(c.want_z);
	free(c.want_partial);
	return r == VK_SUCCESS;
}
