/* SPDX-License-Identifier: MIT */
/*
 * Transfer figures: big copies (device-local to device-local, upload,
 * readback), fill, the small-copy submit rate and two transfer queues
 * against one.
 *
 * Every timed run writes a destination that was poisoned just before (by
 * an untimed fill), and its result is read back and compared with the
 * host's copy of the source: each run must have done all of its work.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define XFER_USAGE (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define POISON 0xa5a5a5a5u
#define SMALL_COPY 4096u
#define SMALL_BATCH 64u

struct xfer_ctx {
	struct bench_vk *vk;
	const struct bench_opts *o;
	uint64_t size;
	struct bench_buffer up, a, b, rb;
	uint8_t *ref;       /* what up (and after the upload, a) holds */
};

static VkResult
run_cmd(struct xfer_ctx *x, VkCommandBuffer cb, uint64_t *ns)
{
	VkResult r = bench_submit_wait(x->vk, &x->vk->xfer, cb, ns);

	bench_cmd_free(x->vk, &x->vk->xfer, cb);
	return r;
}

/* Untimed: fill [off, off+size) of each given buffer with the poison. */
static VkResult
poison(struct xfer_ctx *x, struct bench_buffer *b1, struct bench_buffer *b2,
       VkDeviceSize off, VkDeviceSize size)
{
	VkCommandBuffer cb = bench_cmd_begin(x->vk, &x->vk->xfer);

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	vkCmdFillBuffer(cb, b1->buffer, off, size, POISON);
	if (b2)
		vkCmdFillBuffer(cb, b2->buffer, off, size, POISON);
	bench_cmd_end(cb);
	return run_cmd(x, cb, NULL);
}

/* Every 32-bit word of p is word. */
static bool
check_words(const char *what, const uint8_t *p, VkDeviceSize size,
            uint32_t word)
{
	const uint32_t *w = (const uint32_t *)p;

	for (VkDeviceSize i = 0; i < size / 4; i++) {
		if (w[i] != word) {
			fprintf(stderr, "swgpu_bench: %s: word %llu is 0x%08x, "
			        "want 0x%08x\n", what, (unsigned long long)i,
			        w[i], word);
			bench_failed = true;
			return false;
		}
	}
	return true;
}

/* Untimed: src [off, off+size) -> readback, then compare with want (or,
 * if want is NULL, with the fill word). */
static bool
read_and_check(struct xfer_ctx *x, struct bench_buffer *src,
               VkDeviceSize off, VkDeviceSize size, const void *want,
               const char *what, uint32_t word)
{
	VkCommandBuffer cb = bench_cmd_begin(x->vk, &x->vk->xfer);
	VkBufferCopy c = { .srcOffset = off, .dstOffset = off, .size = size };

	if (!cb)
		return false;
	if (src != &x->rb)
		vkCmdCopyBuffer(cb, src->buffer, x->rb.buffer, 1, &c);
	bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	              VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
	              VK_ACCESS_HOST_READ_BIT);
	bench_cmd_end(cb);
	if (run_cmd(x, cb, NULL) != VK_SUCCESS)
		return false;
	bench_buffer_invalidate(x->vk, &x->rb);
	if (!want)
		return check_words(what, (uint8_t *)x->rb.map + off, size,
		                   word);
	return bench_check(what, (uint8_t *)x->rb.map + off, want, size);
}

enum big_kind { BIG_UPLOAD, BIG_D2D, BIG_READBACK, BIG_FILL };

static uint32_t
fill_word(unsigned run)
{
	return 0x01020304u + run * 0x11111111u;
}

/* One timed run of a big transfer, with its poison and its check. */
static bool
big_run(struct xfer_ctx *x, enum big_kind k, unsigned run, uint64_t *ns,
        double *cpu)
{
	struct bench_buffer *dst = k == BIG_UPLOAD ? &x->a :
	                           k == BIG_READBACK ? &x->rb : &x->b;
	struct bench_buffer *src = k == BIG_UPLOAD ? &x->up : &x->a;
	VkBufferCopy c = { .size = x->size };
	VkCommandBuffer cb;

	/* Poisoning the readback buffer too: its old content must not pass
	 * for this run's result. */
	if (poison(x, dst, dst == &x->rb ? NULL : &x->rb, 0, x->size))
		return false;
	cb = bench_cmd_begin(x->vk, &x->vk->xfer);
	if (!cb)
		return false;
	if (k == BIG_FILL)
		vkCmdFillBuffer(cb, dst->buffer, 0, x->size, fill_word(run));
	else
		vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 1, &c);
	/* Readback into host memory: the host reads it next, as an
	 * application would, so the barrier is part of the figure. */
	if (k == BIG_READBACK)
		bench_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
		              VK_ACCESS_TRANSFER_WRITE_BIT,
		              VK_PIPELINE_STAGE_HOST_BIT,
		              VK_ACCESS_HOST_READ_BIT);
	bench_cmd_end(cb);
	*cpu = bench_cpu_s();
	if (run_cmd(x, cb, ns) != VK_SUCCESS)
		return false;
	*cpu = bench_cpu_s() - *cpu;
	if (k == BIG_FILL)
		return read_and_check(x, dst, 0, x->size, NULL, "fill",
		                      fill_word(run));
	return read_and_check(x, dst, 0, x->size, x->ref,
	                      k == BIG_UPLOAD ? "upload" :
	                      k == BIG_D2D ? "copy_d2d" : "readback", 0);
}

static void
big_figure(struct xfer_ctx *x, enum big_kind k, const char *name)
{
	struct bench_result r = {
		.figure = name, .unit = "GB/s", .verified = true,
	};
	double samples[64], cpu = 0, wall = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < x->o->warmup + x->o->runs && n < 64; i++) {
		uint64_t ns;
		double c;

		if (!big_run(x, k, i, &ns, &c)) {
			r.verified = false;
			break;
		}
		if (i >= x->o->warmup) {
			samples[n++] = (double)x->size / (double)ns;
			wall += (double)ns / 1e9;
			cpu += c;
		}
	}
	bench_stats(&r, samples, n);
	r.cpu = wall > 0 ? cpu / wall : 0;
	bench_report(x->vk->driver, &r);
}

/* Submits per second of 4 KiB copies, one fence per 64 submits. Every
 * submit copies its own 4 KiB, so each one is checked. */
static void
small_copy_figure(struct xfer_ctx *x)
{
	struct bench_vk *vk = x->vk;
	struct bench_result r = {
		.figure = "small_copy_rate", .unit = "submits/s",
		.verified = true,
	};
	unsigned total = x->o->small_batches * SMALL_BATCH;
	VkDeviceSize span = (VkDeviceSize)total * SMALL_COPY;
	VkCommandBuffer *cbs;
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = vk->xfer.pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = total,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	double samples[64], cpu = 0, cpu0, wall = 0;
	unsigned n = 0;

	if (span > x->size) {
		span = x->size;
		total = (unsigned)(span / SMALL_COPY) / SMALL_BATCH *
			SMALL_BATCH;
	}
	cbs = calloc(total, sizeof(*cbs));
	ai.commandBufferCount = total;
	if (!cbs || vkAllocateCommandBuffers(vk->device, &ai, cbs)) {
		free(cbs);
		r.verified = false;
		bench_report(vk->driver, &r);
		return;
	}
	/* Submit i copies a[i * 4K] -> b[i * 4K]; a holds ref. */
	for (unsigned i = 0; i < total; i++) {
		VkBufferCopy c = {
			.srcOffset = (VkDeviceSize)i * SMALL_COPY,
			.dstOffset = (VkDeviceSize)i * SMALL_COPY,
			.size = SMALL_COPY,
		};
		vkBeginCommandBuffer(cbs[i], &bi);
		vkCmdCopyBuffer(cbs[i], x->a.buffer, x->b.buffer, 1, &c);
		vkEndCommandBuffer(cbs[i]);
	}
	for (unsigned run = 0; run < x->o->warmup + x->o->runs && n < 64;
	     run++) {
		uint64_t t0;
		VkResult res = VK_SUCCESS;

		if (poison(x, &x->b, &x->rb, 0, span)) {
			r.verified = false;
			break;
		}
		cpu0 = bench_cpu_s();
		t0 = bench_now_ns();
		for (unsigned i = 0; i < total && res == VK_SUCCESS; i++) {
			VkSubmitInfo si = {
				.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				.commandBufferCount = 1,
				.pCommandBuffers = &cbs[i],
			};
			bool last = i % SMALL_BATCH == SMALL_BATCH - 1;

			res = vkQueueSubmit(vk->xfer.queue, 1, &si,
			                    last ? vk->xfer.fence :
			                    VK_NULL_HANDLE);
			if (res == VK_SUCCESS && last)
				res = vkWaitForFences(vk->device, 1,
				                      &vk->xfer.fence, VK_TRUE,
				                      BENCH_TIMEOUT_NS);
			if (res == VK_SUCCESS && last)
				res = vkResetFences(vk->device, 1,
				                    &vk->xfer.fence);
		}
		if (run >= x->o->warmup) {
			uint64_t ns = bench_now_ns() - t0;

			samples[n++] = (double)total * 1e9 / (double)ns;
			wall += (double)ns / 1e9;
			cpu += bench_cpu_s() - cpu0;
		}
		if (res != VK_SUCCESS ||
		    !read_and_check(x, &x->b, 0, span, x->ref, "small_copy",
		                    0)) {
			r.verified = false;
			break;
		}
	}
	r.cpu = wall > 0 ? cpu / wall : 0;
	vkFreeCommandBuffers(vk->device, vk->xfer.pool, total, cbs);
	free(cbs);
	bench_stats(&r, samples, n);
	bench_report(vk->driver, &r);
}

/* Both halves a -> b, either on one queue (one submit of two command
 * buffers) or one half per queue. Returns the wall time to both fences. */
static bool
two_queue_run(struct xfer_ctx *x, bool two, uint64_t *ns)
{
	struct bench_vk *vk = x->vk;
	VkDeviceSize half = x->size / 2;
	struct bench_queue *q[2] = { &vk->xfer, two ? &vk->xfer2 : &vk->xfer };
	VkCommandBuffer cb[2];
	VkResult r = VK_SUCCESS;
	VkFence fences[2] = { vk->xfer.fence, vk->xfer2.fence };
	uint64_t t0;

	if (poison(x, &x->b, &x->rb, 0, x->size))
		return false;
	for (unsigned i = 0; i < 2; i++) {
		VkBufferCopy c = {
			.srcOffset = i * half, .dstOffset = i * half,
			.size = half,
		};
		cb[i] = bench_cmd_begin(vk, q[i]);
		if (!cb[i])
			return false;
		vkCmdCopyBuffer(cb[i], x->a.buffer, x->b.buffer, 1, &c);
		bench_cmd_end(cb[i]);
	}
	t0 = bench_now_ns();
	if (two) {
		for (unsigned i = 0; i < 2 && r == VK_SUCCESS; i++) {
			VkSubmitInfo si = {
				.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				.commandBufferCount = 1,
				.pCommandBuffers = &cb[i],
			};
			r = vkQueueSubmit(q[i]->queue, 1, &si, q[i]->fence);
		}
		if (r == VK_SUCCESS)
			r = vkWaitForFences(vk->device, 2, fences, VK_TRUE,
			                    BENCH_TIMEOUT_NS);
		*ns = bench_now_ns() - t0;
		if (r == VK_SUCCESS)
			r = vkResetFences(vk->device, 2, fences);
	} else {
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 2,
			.pCommandBuffers = cb,
		};
		r = vkQueueSubmit(q[0]->queue, 1, &si, q[0]->fence);
		if (r == VK_SUCCESS)
			r = vkWaitForFences(vk->device, 1, &q[0]->fence,
			                    VK_TRUE, BENCH_TIMEOUT_NS);
		*ns = bench_now_ns() - t0;
		if (r == VK_SUCCESS)
			r = vkResetFences(vk->device, 1, &q[0]->fence);
	}
	for (unsigned i = 0; i < 2; i++)
		bench_cmd_free(vk, q[i], cb[i]);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: two queues: %s\n",
		        bench_vk_result(r));
		return false;
	}
	return read_and_check(x, &x->b, 0, x->size, x->ref,
	                      two ? "two_queues" : "one_queue", 0);
}

static void
two_queue_figure(struct xfer_ctx *x)
{
	struct bench_result one = {
		.figure = "two_copies_1q", .unit = "GB/s", .verified = true,
	}, two = {
		.figure = "two_copies_2q", .unit = "GB/s", .verified = true,
		.note = x->vk->xfer2_note,
	}, ratio = {
		.figure = "two_queue_speedup", .unit = "x", .verified = true,
		.note = x->vk->xfer2_note,
	};
	double s1[64], s2[64];
	unsigned n = 0;

	/* Interleaved so that drift in machine load hits both alike. */
	for (unsigned i = 0; i < x->o->warmup + x->o->runs && n < 64; i++) {
		uint64_t ns1, ns2 = 0;

		if (!two_queue_run(x, false, &ns1)) {
			one.verified = two.verified = ratio.verified = false;
			break;
		}
		if (x->vk->has_xfer2 && !two_queue_run(x, true, &ns2)) {
			two.verified = ratio.verified = false;
			break;
		}
		if (i < x->o->warmup)
			continue;
		s1[n] = (double)x->size / (double)ns1;
		s2[n] = ns2 ? (double)x->size / (double)ns2 : 0;
		n++;
	}
	bench_stats(&one, s1, n);
	bench_report(x->vk->driver, &one);
	if (!x->vk->has_xfer2) {
		bench_report_na(x->vk->driver, "two_copies_2q", "GB/s",
		                x->vk->xfer2_note);
		bench_report_na(x->vk->driver, "two_queue_speedup", "x",
		                x->vk->xfer2_note);
		return;
	}
	bench_stats(&two, s2, n);
	bench_report(x->vk->driver, &two);
	ratio.value = one.value > 0 ? two.value / one.value : 0;
	ratio.min = one.max > 0 ? two.min / one.max : 0;
	ratio.max = one.min > 0 ? two.max / one.min : 0;
	ratio.runs = n;
	bench_report(x->vk->driver, &ratio);
}

bool
bench_transfer(struct bench_vk *vk, const struct bench_opts *o)
{
	struct xfer_ctx x = { .vk = vk, .o = o, .size = o->copy_size };
	bool ok = false;
	VkResult r;

	x.ref = malloc(x.size);
	r = x.ref ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, x.size, XFER_USAGE,
		                        BENCH_MEM_UPLOAD, &x.up);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, x.size, XFER_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &x.a);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, x.size, XFER_USAGE,
		                        BENCH_MEM_DEVICE_LOCAL, &x.b);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(vk, x.size, XFER_USAGE,
		                        BENCH_MEM_READBACK, &x.rb);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: transfer buffers: %s\n",
		        bench_vk_result(r));
		goto out;
	}
	bench_pattern(x.ref, x.size, 42);
	memcpy(x.up.map, x.ref, x.size);

	/* Upload first: it leaves a == ref for every later figure. */
	if (bench_figure_wanted(o, "copy")) {
		big_figure(&x, BIG_UPLOAD, "upload");
		big_figure(&x, BIG_D2D, "copy_d2d");
		big_figure(&x, BIG_READBACK, "readback");
		big_figure(&x, BIG_FILL, "fill");
	} else {
		uint64_t ns;
		double c;

		if (!big_run(&x, BIG_UPLOAD, 0, &ns, &c))
			goto out;
	}
	if (bench_figure_wanted(o, "small"))
		small_copy_figure(&x);
	if (bench_figure_wanted(o, "queues"))
		two_queue_figure(&x);
	ok = true;
out:
	bench_buffer_destroy(vk, &x.up);
	bench_buffer_destroy(vk, &x.a);
	bench_buffer_destroy(vk, &x.b);
	bench_buffer_destroy(vk, &x.rb);
	free(x.ref);
	return ok;
}
