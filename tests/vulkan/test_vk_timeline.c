/* SPDX-License-Identifier: MIT */
/*
 * Timeline semaphores through the loader: host signal/wait/query,
 * vkWaitSemaphores any/all with timeouts, GPU signals, wait-before-signal on
 * a queue released by a host signal, wait-before-signal across two queues,
 * signals submitted out of value order, and vkQueueSubmit2 value chains.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define MS (1000ull * 1000)

static VkSemaphore
make_timeline(struct vkh_device *d, uint64_t initial)
{
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		.initialValue = initial,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VkSemaphore s = VK_NULL_HANDLE;

	vkCreateSemaphore(d->device, &sci, NULL, &s);
	return s;
}

static VkResult
host_wait(struct vkh_device *d, uint32_t n, const VkSemaphore *s,
          const uint64_t *v, bool any, uint64_t timeout)
{
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.flags = any ? VK_SEMAPHORE_WAIT_ANY_BIT : 0,
		.semaphoreCount = n,
		.pSemaphores = s,
		.pValues = v,
	};

	return vkWaitSemaphores(d->device, &wi, timeout);
}

static VkResult
host_signal(struct vkh_device *d, VkSemaphore s, uint64_t v)
{
	VkSemaphoreSignalInfo si = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
		.semaphore = s,
		.value = v,
	};

	return vkSignalSemaphore(d->device, &si);
}

static uint64_t
counter(struct vkh_device *d, VkSemaphore s)
{
	uint64_t v = ~0ull;

	vkGetSemaphoreCounterValue(d->device, s, &v);
	return v;
}

/* A wait that must time out, bounded from both sides. */
#define CHECK_TIMES_OUT(h, d, n, s, v, any, ms)                              \
	do {                                                                 \
		uint64_t t0_ = vkh_now_ns(), dt_;                            \
		VKH_CHECK_RESULT(h, host_wait(d, n, s, v, any, (ms) * MS),  \
		                 VK_TIMEOUT);                                \
		dt_ = vkh_now_ns() - t0_;                                    \
		VKH_CHECK_MSG(h, dt_ + MS >= (ms) * MS &&                    \
		                 dt_ < (ms) * MS + 2000 * MS,                \
		              "%u ms timeout took %.1f ms", (unsigned)(ms),  \
		              (double)dt_ / 1e6);                            \
	} while (0)

static void
test_host_ops(struct vkh *h, struct vkh_device *d)
{
	VkSemaphore s = make_timeline(d, 5);
	uint64_t v;

	VKH_CHECK(h, h->timeline_semaphore);
	VKH_CHECK(h, s);
	VKH_CHECK(h, counter(d, s) == 5);
	VKH_CHECK_VK(h, host_signal(d, s, 10));
	VKH_CHECK(h, counter(d, s) == 10);
	v = 10;
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, 0));
	v = 7; /* already passed */
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, 0));
	v = 11;
	VKH_CHECK_RESULT(h, host_wait(d, 1, &s, &v, false, 0), VK_TIMEOUT);
	CHECK_TIMES_OUT(h, d, 1, &s, &v, false, 20);
	VKH_CHECK_VK(h, host_signal(d, s, 1ull << 40));
	VKH_CHECK(h, counter(d, s) == 1ull << 40);
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	vkDestroySemaphore(d->device, s, NULL);
}

static void
test_wait_any_all(struct vkh *h, struct vkh_device *d)
{
	VkSemaphore s[2] = { make_timeline(d, 0), make_timeline(d, 0) };
	uint64_t v[2] = { 1, 2 };

	VKH_CHECK(h, s[0] && s[1]);
	CHECK_TIMES_OUT(h, d, 2, s, v, false, 10);
	CHECK_TIMES_OUT(h, d, 2, s, v, true, 10);
	VKH_CHECK_VK(h, host_signal(d, s[0], 1));
	VKH_CHECK_VK(h, host_wait(d, 2, s, v, true, VKH_TIMEOUT_NS));
	CHECK_TIMES_OUT(h, d, 2, s, v, false, 15);
	VKH_CHECK_VK(h, host_signal(d, s[1], 1));
	CHECK_TIMES_OUT(h, d, 2, s, v, false, 5); /* 1 < 2 */
	VKH_CHECK_VK(h, host_signal(d, s[1], 3));
	VKH_CHECK_VK(h, host_wait(d, 2, s, v, false, VKH_TIMEOUT_NS));
	VKH_CHECK_VK(h, host_wait(d, 2, s, v, true, 0));
	vkDestroySemaphore(d->device, s[0], NULL);
	vkDestroySemaphore(d->device, s[1], NULL);
}

/* Submit one command buffer on queue q waiting for (ws, wv) and
 * signalling (ss, sv); wait/signal skipped when the semaphore is NULL. */
static VkResult
submit_timeline(struct vkh_device *d, uint32_t q, VkCommandBuffer cb,
                VkSemaphore ws, uint64_t wv, VkSemaphore ss, uint64_t sv,
                VkFence fence)
{
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkTimelineSemaphoreSubmitInfo tsi = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = ws ? 1 : 0,
		.pWaitSemaphoreValues = &wv,
		.signalSemaphoreValueCount = ss ? 1 : 0,
		.pSignalSemaphoreValues = &sv,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &tsi,
		.waitSemaphoreCount = ws ? 1 : 0,
		.pWaitSemaphores = &ws,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = cb ? 1 : 0,
		.pCommandBuffers = &cb,
		.signalSemaphoreCount = ss ? 1 : 0,
		.pSignalSemaphores = &ss,
	};

	return vkQueueSubmit(d->queues[q].queue, 1, &si, fence);
}

/* Per-test buffers: upload U with a pattern, device-local A, readback R
 * (cleared). */
struct tl_bufs {
	VkDeviceSize size;
	struct vkh_buffer u, a, r;
};

static VkResult
tl_bufs_create(struct vkh *h, struct vkh_device *d, VkDeviceSize size,
               uint32_t seed, struct tl_bufs *b)
{
	VkResult r;

	b->size = size;
	r = vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1, &b->u);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, d, size, XFER, VKH_MEM_DEVICE_LOCAL,
		                      -1, &b->a);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK, -1,
		                      &b->r);
	if (r != VK_SUCCESS)
		return r;
	for (VkDeviceSize i = 0; i < size; i++)
		((uint8_t *)b->u.map)[i] = vkh_pattern(seed, i);
	memset(b->r.map, 0, size);
	return VK_SUCCESS;
}

static void
tl_bufs_destroy(struct vkh_device *d, struct tl_bufs *b)
{
	vkh_buffer_destroy(d, &b->u);
	vkh_buffer_destroy(d, &b->a);
	vkh_buffer_destroy(d, &b->r);
}

static VkCommandBuffer
copy_cb(struct vkh_device *d, uint32_t q, VkBuffer src, VkBuffer dst,
        VkDeviceSize size, bool host_barrier)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, q);
	VkBufferCopy c = { .size = size };

	if (!cb)
		return cb;
	vkCmdCopyBuffer(cb, src, dst, 1, &c);
	if (host_barrier)
		vkh_cmd_host_barrier(cb);
	if (vkEndCommandBuffer(cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return cb;
}

/* GPU signal of a value that jumps ahead, seen by host wait and query. */
static void
test_gpu_signal(struct vkh *h, struct vkh_device *d)
{
	struct tl_bufs b;
	VkSemaphore s = make_timeline(d, 0);
	VkCommandBuffer cb;
	uint64_t v = 7;

	VKH_CHECK(h, s);
	VKH_CHECK_VK(h, tl_bufs_create(h, d, 1 << 20, 50, &b));
	cb = copy_cb(d, 0, b.u.buffer, b.r.buffer, b.size, true);
	VKH_CHECK(h, cb);
	VKH_CHECK_VK(h, submit_timeline(d, 0, cb, VK_NULL_HANDLE, 0, s, 7,
	                                VK_NULL_HANDLE));
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	VKH_CHECK(h, counter(d, s) == 7);
	VKH_CHECK(h, !memcmp(b.r.map, b.u.map, b.size));
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb);
	vkDestroySemaphore(d->device, s, NULL);
	tl_bufs_destroy(d, &b);
}

/* Two submissions wait for values nobody has signalled yet (the second
 * also for the first's signal): nothing runs until the host signals 1. */
static void
test_wait_before_signal_host(struct vkh *h, struct vkh_device *d)
{
	uint32_t q1 = d->queue_count > 1 ? 1 : 0;
	struct tl_bufs b;
	VkSemaphore s = make_timeline(d, 0);
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;
	VkCommandBuffer cb[2];
	uint64_t v = 3;

	VKH_CHECK(h, s);
	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
	VKH_CHECK_VK(h, tl_bufs_create(h, d, 1 << 20, 51, &b));
	cb[0] = copy_cb(d, 0, b.u.buffer, b.a.buffer, b.size, false);
	cb[1] = copy_cb(d, q1, b.a.buffer, b.r.buffer, b.size, true);
	VKH_CHECK(h, cb[0] && cb[1]);
	VKH_CHECK_VK(h, submit_timeline(d, 0, cb[0], s, 1, s, 2,
	                                VK_NULL_HANDLE));
	VKH_CHECK_VK(h, submit_timeline(d, q1, cb[1], s, 2, s, 3, fence));
	CHECK_TIMES_OUT(h, d, 1, &s, &v, false, 50);
	VKH_CHECK(h, counter(d, s) == 0);
	VKH_CHECK_RESULT(h, vkGetFenceStatus(d->device, fence), VK_NOT_READY);
	VKH_CHECK_MSG(h, ((uint8_t *)b.r.map)[0] == 0 &&
	                 !memcmp(b.r.map, (uint8_t *)b.r.map + 1, 4095),
	              "readback written before the release");
	VKH_CHECK_VK(h, host_signal(d, s, 1));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	VKH_CHECK(h, counter(d, s) == 3);
	VKH_CHECK(h, !memcmp(b.r.map, b.u.map, b.size));
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb[0]);
	vkFreeCommandBuffers(d->device, d->queues[q1].pool, 1, &cb[1]);
	vkDestroyFence(d->device, fence, NULL);
	vkDestroySemaphore(d->device, s, NULL);
	tl_bufs_destroy(d, &b);
}

/* The consumer (queue 1) is submitted before its producer (queue 0):
 * first with a GPU-only chain, then with the producer itself waiting on a
 * host signal. Needs two distinct queues: on one queue a wait submitted
 * before its signal would block the signal forever. */
static void
test_cross_queue_wait_before_signal(struct vkh *h, struct vkh_device *d)
{
	struct tl_bufs b;
	VkSemaphore s;
	VkCommandBuffer cb[4];
	uint64_t v;

	if (d->distinct_queues < 2) {
		vkh_skip(h, "driver has a single queue");
		return;
	}
	printf("  producer family %u queue %u, consumer family %u queue %u\n",
	       d->queues[0].family, d->queues[0].index, d->queues[1].family,
	       d->queues[1].index);
	s = make_timeline(d, 0);
	VKH_CHECK(h, s);
	VKH_CHECK_VK(h, tl_bufs_create(h, d, 4 << 20, 52, &b));
	cb[0] = copy_cb(d, 1, b.a.buffer, b.r.buffer, b.size, true);
	cb[1] = copy_cb(d, 0, b.u.buffer, b.a.buffer, b.size, false);
	VKH_CHECK(h, cb[0] && cb[1]);
	VKH_CHECK_VK(h, submit_timeline(d, 1, cb[0], s, 1, s, 2,
	                                VK_NULL_HANDLE));
	VKH_CHECK_VK(h, submit_timeline(d, 0, cb[1], VK_NULL_HANDLE, 0, s, 1,
	                                VK_NULL_HANDLE));
	v = 2;
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	VKH_CHECK(h, !memcmp(b.r.map, b.u.map, b.size));

	/* Round 2: new data, producer released by the host. */
	for (VkDeviceSize i = 0; i < b.size; i++)
		((uint8_t *)b.u.map)[i] = vkh_pattern(53, i);
	cb[2] = copy_cb(d, 1, b.a.buffer, b.r.buffer, b.size, true);
	cb[3] = copy_cb(d, 0, b.u.buffer, b.a.buffer, b.size, false);
	VKH_CHECK(h, cb[2] && cb[3]);
	VKH_CHECK_VK(h, submit_timeline(d, 1, cb[2], s, 4, s, 5,
	                                VK_NULL_HANDLE));
	VKH_CHECK_VK(h, submit_timeline(d, 0, cb[3], s, 3, s, 4,
	                                VK_NULL_HANDLE));
	v = 5;
	CHECK_TIMES_OUT(h, d, 1, &s, &v, false, 30);
	VKH_CHECK(h, counter(d, s) == 2);
	VKH_CHECK_VK(h, host_signal(d, s, 3));
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	VKH_CHECK(h, counter(d, s) == 5);
	VKH_CHECK(h, !memcmp(b.r.map, b.u.map, b.size));
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	for (unsigned i = 0; i < 4; i++)
		vkFreeCommandBuffers(d->device, d->queues[i & 1 ? 0 : 1].pool,
		                     1, &cb[i]);
	vkDestroySemaphore(d->device, s, NULL);
	tl_bufs_destroy(d, &b);
}

/* Signals submitted in decreasing value order on two queues, released by
 * the host in increasing order: value 4 is submitted (on queue 0, waiting
 * for 3) before value 2 (on queue 1, waiting for 1). */
static void
test_out_of_order_signals(struct vkh *h, struct vkh_device *d)
{
	struct tl_bufs x, y;
	VkSemaphore s;
	VkCommandBuffer cb[2];
	uint64_t v;

	if (d->distinct_queues < 2) {
		vkh_skip(h, "driver has a single queue");
		return;
	}
	s = make_timeline(d, 0);
	VKH_CHECK(h, s);
	VKH_CHECK_VK(h, tl_bufs_create(h, d, 1 << 20, 54, &x));
	VKH_CHECK_VK(h, tl_bufs_create(h, d, 1 << 20, 55, &y));
	cb[0] = copy_cb(d, 0, x.u.buffer, x.r.buffer, x.size, true);
	cb[1] = copy_cb(d, 1, y.u.buffer, y.r.buffer, y.size, true);
	VKH_CHECK(h, cb[0] && cb[1]);
	VKH_CHECK_VK(h, submit_timeline(d, 0, cb[0], s, 3, s, 4,
	                                VK_NULL_HANDLE));
	VKH_CHECK_VK(h, submit_timeline(d, 1, cb[1], s, 1, s, 2,
	                                VK_NULL_HANDLE));
	VKH_CHECK_VK(h, host_signal(d, s, 1));
	v = 2;
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	VKH_CHECK(h, !memcmp(y.r.map, y.u.map, y.size));
	VKH_CHECK(h, counter(d, s) == 2);
	v = 4;
	CHECK_TIMES_OUT(h, d, 1, &s, &v, false, 30);
	VKH_CHECK(h, ((uint8_t *)x.r.map)[0] == 0);
	VKH_CHECK_VK(h, host_signal(d, s, 3));
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	VKH_CHECK(h, counter(d, s) == 4);
	VKH_CHECK(h, !memcmp(x.r.map, x.u.map, x.size));
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb[0]);
	vkFreeCommandBuffers(d->device, d->queues[1].pool, 1, &cb[1]);
	vkDestroySemaphore(d->device, s, NULL);
	tl_bufs_destroy(d, &x);
	tl_bufs_destroy(d, &y);
}

/* vkQueueSubmit2: 12 submits alternating between queues, step i waiting
 * for value i+1 and signalling i+2 (the semaphore starts at 1). Step i
 * writes word N+i and copies word N+i-1 (written by step i-1 on the other
 * queue) to word i, so a missing memory dependency shows in the data. */
static void
test_submit2_chain(struct vkh *h, struct vkh_device *d)
{
	enum { N = 12 };
	const VkDeviceSize size = 4096;
	struct vkh_buffer a, r;
	VkSemaphore s = make_timeline(d, 1);
	VkCommandBuffer cb[N];
	uint32_t *w;
	uint64_t v = N + 1;

	VKH_CHECK(h, s);
	VKH_CHECK(h, h->synchronization2);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &a));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK,
	                                  -1, &r));
	for (unsigned i = 0; i < N; i++) {
		uint32_t q = (i & 1) && d->queue_count > 1 ? 1 : 0;
		VkSemaphoreSubmitInfo wait = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
			.semaphore = s,
			.value = i + 1,
			.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		};
		VkSemaphoreSubmitInfo sig = wait;
		VkCommandBufferSubmitInfo cbi = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
		};
		VkSubmitInfo2 si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
			.waitSemaphoreInfoCount = 1,
			.pWaitSemaphoreInfos = &wait,
			.commandBufferInfoCount = 1,
			.pCommandBufferInfos = &cbi,
			.signalSemaphoreInfoCount = 1,
			.pSignalSemaphoreInfos = &sig,
		};
		VkBufferCopy c = { .size = size };

		sig.value = i + 2;
		cb[i] = vkh_cmd_begin(d, q);
		VKH_CHECK(h, cb[i]);
		if (i == 0) {
			vkCmdFillBuffer(cb[i], a.buffer, 0, VK_WHOLE_SIZE, 0);
			vkh_cmd_transfer_barrier(cb[i]);
		}
		if (i > 0) {
			VkBufferCopy prev = {
				.srcOffset = 4 * (N + i - 1),
				.dstOffset = 4 * i,
				.size = 4,
			};
			vkCmdCopyBuffer(cb[i], a.buffer, a.buffer, 1, &prev);
			vkh_cmd_transfer_barrier(cb[i]);
		}
		vkCmdFillBuffer(cb[i], a.buffer, 4 * N + 4 * i, 4, 100 + i);
		if (i + 1 == N) {
			vkh_cmd_transfer_barrier(cb[i]);
			vkCmdCopyBuffer(cb[i], a.buffer, r.buffer, 1, &c);
			vkh_cmd_host_barrier(cb[i]);
		}
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb[i]));
		cbi.commandBuffer = cb[i];
		VKH_CHECK_VK(h, vkQueueSubmit2(d->queues[q].queue, 1, &si,
		                               VK_NULL_HANDLE));
	}
	VKH_CHECK_VK(h, host_wait(d, 1, &s, &v, false, VKH_TIMEOUT_NS));
	w = r.map;
	for (unsigned i = 0; i < N; i++) {
		VKH_CHECK_MSG(h, w[i] == (i ? 100 + i - 1 : 0),
		              "word %u = %u", i, w[i]);
		VKH_CHECK_MSG(h, w[N + i] == 100 + i, "word %u = %u", N + i,
		              w[N + i]);
	}
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	for (unsigned i = 0; i < N; i++) {
		uint32_t q = (i & 1) && d->queue_count > 1 ? 1 : 0;
		vkFreeCommandBuffers(d->device, d->queues[q].pool, 1, &cb[i]);
	}
	vkDestroySemaphore(d->device, s, NULL);
	vkh_buffer_destroy(d, &a);
	vkh_buffer_destroy(d, &r);
}

static const struct vkh_test tests[] = {
	{ "host_ops", test_host_ops, 1, 0 },
	{ "wait_any_all", test_wait_any_all, 1, 0 },
	{ "gpu_signal", test_gpu_signal, 1, 0 },
	{ "wait_before_signal_host", test_wait_before_signal_host, 2, 0 },
	{ "cross_queue_wait_before_signal",
	  test_cross_queue_wait_before_signal, 2, 0 },
	{ "out_of_order_signals", test_out_of_order_signals, 2, 0 },
	{ "submit2_chain", test_submit2_chain, 2, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_timeline", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
