/* SPDX-License-Identifier: MIT */
/*
 * ALU-bound compute figures (issue 19), where an interpreter pays its
 * dispatch cost on every loop iteration:
 *
 *   mandelbrot  escape-time iteration counts of a dim x dim image (1024;
 *               quick 128) of [-2.5, 1.5) x [-2, 2), at most 256
 *               iterations a pixel, ms per
 *               dispatch. Checked pixel for pixel against the host's
 *               counts computed with the same float operations: the
 *               shader's are all `precise` (no FMA contraction) and this
 *               file is built with -ffp-contract=off, so IEEE single
 *               precision gives both sides the same bits.
 *   alu_flops   GFLOPS of x = x * a + b on 16 independent chains per
 *               invocation (alu_madd.comp), multiplies and adds counted
 *               separately (2 flops a round per chain); every invocation's
 *               result checked bit for bit against the host's.
 */
#include "bench_kernel.h"

#include <stdlib.h>
#include <string.h>

#include "alu_madd.spv.h"
#include "mandelbrot.spv.h"

#define MANDEL_LOCAL 16u
#define ALU_LOCAL 256u
#define ALU_FLOPS_PER_ROUND 32u   /* 4 vec4 accumulators x (mul + add) */
#define ALU_START_VALUES 64u

struct alu_ctx {
	struct bench_vk *vk;
	struct bench_buffer out;
	struct bench_kernel k;
	uint32_t count;         /* output words */
	VkDeviceSize bytes;
	/* mandelbrot */
	struct { uint32_t w, max_iter; float scale; } mpush;
	uint32_t *want_counts;
	/* alu_flops */
	struct { float a, b; uint32_t iters; } apush;
	uint32_t groups;
	float want_sum[ALU_START_VALUES];
};

static VkResult
alu_poison(void *p)
{
	struct alu_ctx *c = p;

	return bench_untimed(c->vk, NULL, &c->out, c->bytes, false);
}

/* --- mandelbrot --------------------------------------------------------- */

static uint32_t
mandel_pixel(uint32_t x, uint32_t y, uint32_t max_iter, float scale)
{
	/* The shader's operations, in its order, one rounding each. */
	float cx = (float)x * scale - 2.5f;
	float cy = (float)y * scale - 2.0f;
	float zx = 0.0f, zy = 0.0f;
	uint32_t i = 0;

	while (i < max_iter) {
		float x2 = zx * zx, y2 = zy * zy, xy;

		if (x2 + y2 > 4.0f)
			break;
		xy = zx * zy;
		zy = xy + xy + cy;
		zx = x2 - y2 + cx;
		i++;
	}
	return i;
}

static void
mandel_record(void *p, VkCommandBuffer cb)
{
	struct alu_ctx *c = p;
	uint32_t g = c->mpush.w / MANDEL_LOCAL;

	bench_kernel_record(cb, &c->k, &c->mpush, sizeof(c->mpush), g, g);
}

static bool
mandel_check(void *p, const void *got)
{
	struct alu_ctx *c = p;

	return bench_check("mandelbrot", got, c->want_counts, c->bytes);
}

static void
mandelbrot_figure(struct bench_vk *vk, const struct bench_opts *o,
                  struct bench_buffer *rb)
{
	uint32_t dim = o->mandel_dim;
	struct alu_ctx c = {
		.vk = vk, .count = dim * dim,
		.bytes = (VkDeviceSize)dim * dim * 4,
		.mpush = { dim, o->mandel_iter, 4.0f / (float)dim },
	};
	struct bench_buffer *bufs[1] = { &c.out };
	struct bench_compute_figure f = {
		.figure = "mandelbrot", .unit = "ms", .ctx = &c,
		.prepare = alu_poison, .record = mandel_record,
		.check = mandel_check, .value = bench_ns_to_ms,
		.out = &c.out, .out_size = c.bytes,
	};
	VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;

	c.want_counts = malloc(c.bytes);
	if (c.want_counts) {
		for (uint32_t y = 0; y < dim; y++)
			for (uint32_t x = 0; x < dim; x++)
				c.want_counts[y * dim + x] =
					mandel_pixel(x, y, o->mandel_iter,
					             c.mpush.scale);
		r = bench_buffer_create(vk, c.bytes, BENCH_SSBO_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &c.out);
	}
	if (r == VK_SUCCESS)
		r = bench_kernel_create(vk, mandelbrot_spv,
		                        sizeof(mandelbrot_spv), bufs, 1,
		                        sizeof(c.mpush), &c.k);
	if (r == VK_SUCCESS) {
		bench_compute_run(vk, o, rb, &f);
	} else {
		fprintf(stderr, "swgpu_bench: mandelbrot setup: %s\n",
		        bench_vk_result(r));
		bench_failed = true;
	}
	bench_kernel_destroy(vk, &c.k);
	bench_buffer_destroy(vk, &c.out);
	free(c.want_counts);
}

/* --- alu_flops ---------------------------------------------------------- */

/* The shader's result for invocations with gid % 64 == s. */
static float
alu_expected(uint32_t s, float a, float b, uint32_t iters)
{
	float base = (float)s * (1.0f / 64.0f), x[16], t[4];

	for (unsigned k = 0; k < 4; k++)
		for (unsigned j = 0; j < 4; j++)
			x[k * 4 + j] = (base + (float)j * 0.25f) + (float)k;
	for (uint32_t i = 0; i < iters; i++)
		for (unsigned j = 0; j < 16; j++)
			x[j] = x[j] * a + b;
	for (unsigned j = 0; j < 4; j++)
		t[j] = (x[j] + x[4 + j]) + (x[8 + j] + x[12 + j]);
	return (t[0] + t[1]) + (t[2] + t[3]);
}

static void
alu_record(void *p, VkCommandBuffer cb)
{
	struct alu_ctx *c = p;
	uint32_t gx, gy;

	bench_grid(c->groups, &gx, &gy);
	bench_kernel_record(cb, &c->k, &c->apush, sizeof(c->apush), gx, gy);
}

static bool
alu_check(void *p, const void *got)
{
	struct alu_ctx *c = p;
	const float *g = got;

	for (uint32_t i = 0; i < c->count; i++) {
		float want = c->want_sum[i % ALU_START_VALUES];

		/* Bit patterns: the same IEEE operations give the same
		 * bits, and a NaN must not compare unequal to itself. */
		if (memcmp(&g[i], &want, 4)) {
			fprintf(stderr, "swgpu_bench: alu_flops: invocation "
			        "%u: %.9g, want %.9g\n", i, (double)g[i],
			        (double)want);
			return false;
		}
	}
	return true;
}

static double
alu_gflops(void *p, uint64_t ns)
{
	struct alu_ctx *c = p;
	double flops = (double)c->count * c->apush.iters *
	               ALU_FLOPS_PER_ROUND;

	return ns ? flops / (double)ns : 0.0;   /* flops per ns = GFLOPS */
}

static void
alu_flops_figure(struct bench_vk *vk, const struct bench_opts *o,
                 struct bench_buffer *rb)
{
	struct alu_ctx c = {
		.vk = vk, .groups = o->alu_groups,
		.count = o->alu_groups * ALU_LOCAL,
		.bytes = (VkDeviceSize)o->alu_groups * ALU_LOCAL * 4,
		/* Converges towards b / (1 - a) = 1 without overflow or
		 * denormals; nothing a compiler can fold. */
		.apush = { 0.999f, 0.001f, o->alu_iters },
	};
	struct bench_buffer *bufs[1] = { &c.out };
	struct bench_compute_figure f = {
		.figure = "alu_flops", .unit = "GFLOPS", .ctx = &c,
		.prepare = alu_poison, .record = alu_record,
		.check = alu_check, .value = alu_gflops,
		.out = &c.out, .out_size = c.bytes,
	};
	VkResult r;

	for (uint32_t s = 0; s < ALU_START_VALUES; s++)
		c.want_sum[s] = alu_expected(s, c.apush.a, c.apush.b,
		                             c.apush.iters);
	r = bench_buffer_create(vk, c.bytes, BENCH_SSBO_USAGE,
	                        BENCH_MEM_DEVICE_LOCAL, &c.out);
	if (r == VK_SUCCESS)
		r = bench_kernel_create(vk, alu_madd_spv, sizeof(alu_madd_spv),
		                        bufs, 1, sizeof(c.apush), &c.k);
	if (r == VK_SUCCESS) {
		bench_compute_run(vk, o, rb, &f);
	} else {
		fprintf(stderr, "swgpu_bench: alu_flops setup: %s\n",
		        bench_vk_result(r));
		bench_failed = true;
	}
	bench_kernel_destroy(vk, &c.k);
	bench_buffer_destroy(vk, &c.out);
}

void
bench_compute_alu(struct bench_vk *vk, const struct bench_opts *o,
                  struct bench_buffer *rb)
{
	if (bench_figure_wanted(o, "compute_mandelbrot"))
		mandelbrot_figure(vk, o, rb);
	if (bench_figure_wanted(o, "compute_alu"))
		alu_flops_figure(vk, o, rb);
}
