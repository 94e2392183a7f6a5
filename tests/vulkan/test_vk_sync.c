/* SPDX-License-Identifier: MIT */
/*
 * Fences and binary semaphores through the loader: fence states, resets,
 * waits any/all, waits that time out in bounded time, GPU-signalled fences
 * on several queues; copies chained across queues by binary semaphores
 * (vkQueueSubmit and vkQueueSubmit2), checked by their data.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)

static VkFence
make_fence(struct vkh_device *d, bool signaled)
{
	VkFenceCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
		.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0,
	};
	VkFence f = VK_NULL_HANDLE;

	vkCreateFence(d->device, &fci, NULL, &f);
	return f;
}

static VkSemaphore
make_binary(struct vkh_device *d)
{
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
	};
	VkSemaphore s = VK_NULL_HANDLE;

	vkCreateSemaphore(d->device, &sci, NULL, &s);
	return s;
}

/* A timed wait that must time out: returns VK_TIMEOUT no earlier than the
 * timeout and not much later. */
static void
test_fence_states(struct vkh *h, struct vkh_device *d)
{
	VkFence f[2];
	uint64_t t0, dt;

	f[0] = make_fence(d, true);
	f[1] = make_fence(d, false);
	VKH_CHECK(h, f[0] && f[1]);
	VKH_CHECK_RESULT(h, vkGetFenceStatus(d->device, f[0]), VK_SUCCESS);
	VKH_CHECK_RESULT(h, vkGetFenceStatus(d->device, f[1]), VK_NOT_READY);
	VKH_CHECK_RESULT(h, vkWaitForFences(d->device, 1, &f[0], VK_TRUE, 0),
	                 VK_SUCCESS);
	VKH_CHECK_RESULT(h, vkWaitForFences(d->device, 1, &f[1], VK_TRUE, 0),
	                 VK_TIMEOUT);

	/* any: one signalled is enough; all: times out. */
	VKH_CHECK_RESULT(h, vkWaitForFences(d->device, 2, f, VK_FALSE,
	                                    VKH_TIMEOUT_NS), VK_SUCCESS);
	t0 = vkh_now_ns();
	VKH_CHECK_RESULT(h, vkWaitForFences(d->device, 2, f, VK_TRUE,
	                                    30 * 1000 * 1000), VK_TIMEOUT);
	dt = vkh_now_ns() - t0;
	printf("  wait-all 30 ms timeout returned after %.1f ms\n",
	       (double)dt / 1e6);
	VKH_CHECK_MSG(h, dt >= 29 * 1000 * 1000 && dt < 2000ull * 1000 * 1000,
	              "30 ms wait took %.1f ms", (double)dt / 1e6);

	/* Reset both (one already unsignalled) in one call. */
	VKH_CHECK_VK(h, vkResetFences(d->device, 2, f));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(d->device, f[0]), VK_NOT_READY);
	t0 = vkh_now_ns();
	VKH_CHECK_RESULT(h, vkWaitForFences(d->device, 2, f, VK_FALSE,
	                                    20 * 1000 * 1000), VK_TIMEOUT);
	dt = vkh_now_ns() - t0;
	VKH_CHECK_MSG(h, dt >= 19 * 1000 * 1000 && dt < 2000ull * 1000 * 1000,
	              "20 ms wait-any took %.1f ms", (double)dt / 1e6);

	/* An empty submission signals its fence once earlier work is done. */
	VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 0, NULL, f[1]));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &f[1], VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK_RESULT(h, vkGetFenceStatus(d->device, f[1]), VK_SUCCESS);
	VKH_CHECK_RESULT(h, vkGetFenceStatus(d->device, f[0]), VK_NOT_READY);
	/* Signalled and re-used many times. */
	for (unsigned i = 0; i < 50; i++) {
		VKH_CHECK_VK(h, vkResetFences(d->device, 1, &f[1]));
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 0, NULL,
		                              f[1]));
		VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &f[1], VK_TRUE,
		                                VKH_TIMEOUT_NS));
	}
	vkDestroyFence(d->device, f[0], NULL);
	vkDestroyFence(d->device, f[1], NULL);
	vkDestroyFence(d->device, VK_NULL_HANDLE, NULL);
}

/* Copies on every queue, each with its fence; wait-any returns when one
 * is done, wait-all when all are; every fence then reads SUCCESS. */
static void
test_fence_gpu(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 8 << 20;
	uint32_t n = d->queue_count;
	struct vkh_buffer up, dst[VKH_MAX_QUEUES];
	VkFence f[VKH_MAX_QUEUES];

	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1,
	                                  &up));
	for (VkDeviceSize i = 0; i < size; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(9, i);
	for (uint32_t q = 0; q < n; q++) {
		VkCommandBuffer cb = vkh_cmd_begin(d, q);
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb,
		};
		VkBufferCopy c = { .size = size };

		VKH_CHECK(h, cb);
		VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
		                                  VKH_MEM_READBACK, -1,
		                                  &dst[q]));
		vkCmdCopyBuffer(cb, up.buffer, dst[q].buffer, 1, &c);
		vkh_cmd_host_barrier(cb);
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb));
		f[q] = make_fence(d, false);
		VKH_CHECK(h, f[q]);
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[q].queue, 1, &si,
		                              f[q]));
	}
	VKH_CHECK_VK(h, vkWaitForFences(d->device, n, f, VK_FALSE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, n, f, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	for (uint32_t q = 0; q < n; q++) {
		VKH_CHECK_RESULT(h, vkGetFenceStatus(d->device, f[q]),
		                 VK_SUCCESS);
		VKH_CHECK_MSG(h, !memcmp(dst[q].map, up.map, size),
		              "queue %u copy wrong", q);
		vkDestroyFence(d->device, f[q], NULL);
		vkh_buffer_destroy(d, &dst[q]);
		vkResetCommandPool(d->device, d->queues[q].pool, 0);
	}
	vkh_buffer_destroy(d, &up);
}

static VkCommandBuffer
record_copy(struct vkh_device *d, uint32_t q, VkBuffer src, VkBuffer dst,
            VkDeviceSize src_off, VkDeviceSize dst_off, VkDeviceSize size,
            bool host_barrier)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, q);
	VkBufferCopy c = {
		.srcOffset = src_off, .dstOffset = dst_off, .size = size,
	};

	if (!cb)
		return cb;
	vkCmdCopyBuffer(cb, src, dst, 1, &c);
	if (host_barrier)
		vkh_cmd_host_barrier(cb);
	if (vkEndCommandBuffer(cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return cb;
}

/* U -> A on queue 0, A -> B on queue 1, B -> R on queue 0, linked only by
 * two binary semaphores; the host waits on the last fence. Then the same
 * with vkQueueSubmit2. */
static void
test_binary_cross_queue(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 4 << 20;
	uint32_t q1 = d->queue_count > 1 ? 1 : 0;
	struct vkh_buffer u, a, b, r;
	VkSemaphore s1 = make_binary(d), s2 = make_binary(d);
	VkFence fence = make_fence(d, false);
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;

	printf("  queues: family %u/%u -> family %u/%u%s\n",
	       d->queues[0].family, d->queues[0].index, d->queues[q1].family,
	       d->queues[q1].index,
	       d->queues[q1].aliased || !q1 ? " (same queue)" : "");
	VKH_CHECK(h, s1 && s2 && fence);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1,
	                                  &u));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &a));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &b));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK,
	                                  -1, &r));

	for (unsigned round = 0; round < 2; round++) {
		VkCommandBuffer cb[3];
		uint32_t seed = 20 + round;

		for (VkDeviceSize i = 0; i < size; i++)
			((uint8_t *)u.map)[i] = vkh_pattern(seed, i);
		memset(r.map, 0, size);
		/* The middle copy rotates the data by 3 bytes in two parts. */
		cb[0] = record_copy(d, 0, u.buffer, a.buffer, 0, 0, size,
		                    false);
		cb[1] = vkh_cmd_begin(d, q1);
		VKH_CHECK(h, cb[0] && cb[1]);
		{
			VkBufferCopy c[2] = {
				{ .srcOffset = 0, .dstOffset = 3,
				  .size = size - 3 },
				{ .srcOffset = size - 3, .dstOffset = 0,
				  .size = 3 },
			};
			vkCmdCopyBuffer(cb[1], a.buffer, b.buffer, 2, c);
			VKH_CHECK_VK(h, vkEndCommandBuffer(cb[1]));
		}
		cb[2] = record_copy(d, 0, b.buffer, r.buffer, 0, 0, size,
		                    true);
		VKH_CHECK(h, cb[2]);

		if (round == 0) {
			VkSubmitInfo si[3] = {
				{ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				  .commandBufferCount = 1,
				  .pCommandBuffers = &cb[0],
				  .signalSemaphoreCount = 1,
				  .pSignalSemaphores = &s1 },
				{ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				  .waitSemaphoreCount = 1,
				  .pWaitSemaphores = &s1,
				  .pWaitDstStageMask = &stage,
				  .commandBufferCount = 1,
				  .pCommandBuffers = &cb[1],
				  .signalSemaphoreCount = 1,
				  .pSignalSemaphores = &s2 },
				{ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				  .waitSemaphoreCount = 1,
				  .pWaitSemaphores = &s2,
				  .pWaitDstStageMask = &stage,
				  .commandBufferCount = 1,
				  .pCommandBuffers = &cb[2] },
			};
			VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1,
			                              &si[0], VK_NULL_HANDLE));
			VKH_CHECK_VK(h, vkQueueSubmit(d->queues[q1].queue, 1,
			                              &si[1], VK_NULL_HANDLE));
			VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1,
			                              &si[2], fence));
		} else {
			VkSemaphoreSubmitInfo sem[2] = {
				{ .sType =
				  VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
				  .semaphore = s1,
				  .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT },
				{ .sType =
				  VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
				  .semaphore = s2,
				  .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT },
			};
			VkCommandBufferSubmitInfo cbi[3];
			VkSubmitInfo2 si[3];

			for (unsigned i = 0; i < 3; i++) {
				cbi[i] = (VkCommandBufferSubmitInfo){
					.sType =
				VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
					.commandBuffer = cb[i],
				};
				si[i] = (VkSubmitInfo2){
					.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
					.commandBufferInfoCount = 1,
					.pCommandBufferInfos = &cbi[i],
				};
			}
			si[0].signalSemaphoreInfoCount = 1;
			si[0].pSignalSemaphoreInfos = &sem[0];
			si[1].waitSemaphoreInfoCount = 1;
			si[1].pWaitSemaphoreInfos = &sem[0];
			si[1].signalSemaphoreInfoCount = 1;
			si[1].pSignalSemaphoreInfos = &sem[1];
			si[2].waitSemaphoreInfoCount = 1;
			si[2].pWaitSemaphoreInfos = &sem[1];
			VKH_CHECK_VK(h, vkQueueSubmit2(d->queues[0].queue, 1,
			                               &si[0], VK_NULL_HANDLE));
			VKH_CHECK_VK(h, vkQueueSubmit2(d->queues[q1].queue, 1,
			                               &si[1], VK_NULL_HANDLE));
			VKH_CHECK_VK(h, vkQueueSubmit2(d->queues[0].queue, 1,
			                               &si[2], fence));
		}
		VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
		                                VKH_TIMEOUT_NS));
		VKH_CHECK_VK(h, vkResetFences(d->device, 1, &fence));
		/* The fence covers queue 0's last submit; that submit waited
		 * for queue 1's, so every command buffer is done. */
		for (VkDeviceSize i = 0; i < size; i++) {
			uint8_t want = vkh_pattern(seed, (i + size - 3) % size);
			VKH_CHECK_MSG(h, ((uint8_t *)r.map)[i] == want,
			              "round %u byte %llu", round,
			              (unsigned long long)i);
		}
		vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb[0]);
		vkFreeCommandBuffers(d->device, d->queues[q1].pool, 1, &cb[1]);
		vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb[2]);
	}
	vkDestroySemaphore(d->device, s1, NULL);
	vkDestroySemaphore(d->device, s2, NULL);
	vkDestroyFence(d->device, fence, NULL);
	vkh_buffer_destroy(d, &u);
	vkh_buffer_destroy(d, &a);
	vkh_buffer_destroy(d, &b);
	vkh_buffer_destroy(d, &r);
}

/* One binary semaphore reused 40 times, ping-ponging a buffer between two
 * queues; each hop adds its own fill so the result proves the order. */
static void
test_binary_ping_pong(struct vkh *h, struct vkh_device *d)
{
	enum { HOPS = 40 };
	const VkDeviceSize size = 64 * 1024;
	struct vkh_buffer buf[2], r;
	VkSemaphore s = make_binary(d);
	VkFence fence = make_fence(d, false);
	VkCommandBuffer cb[HOPS];
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	uint32_t *w;

	VKH_CHECK(h, s && fence);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &buf[0]));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &buf[1]));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK,
	                                  -1, &r));
	for (unsigned hop = 0; hop < HOPS; hop++) {
		uint32_t q = (hop & 1) && d->queue_count > 1 ? 1 : 0;
		VkBuffer from = buf[hop & 1].buffer, to = buf[!(hop & 1)].buffer;
		VkBufferCopy c = { .size = size };
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.waitSemaphoreCount = hop ? 1 : 0,
			.pWaitSemaphores = &s,
			.pWaitDstStageMask = &stage,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[hop],
			.signalSemaphoreCount = hop + 1 < HOPS ? 1 : 0,
			.pSignalSemaphores = &s,
		};

		cb[hop] = vkh_cmd_begin(d, q);
		VKH_CHECK(h, cb[hop]);
		if (hop == 0) {
			vkCmdFillBuffer(cb[hop], from, 0, VK_WHOLE_SIZE, 0);
			vkh_cmd_transfer_barrier(cb[hop]);
		}
		/* Word hop of "from" gets the hop number, then the whole
		 * buffer moves to "to". */
		vkCmdFillBuffer(cb[hop], from, 4 * hop, 4, 1000 + hop);
		vkh_cmd_transfer_barrier(cb[hop]);
		vkCmdCopyBuffer(cb[hop], from, to, 1, &c);
		if (hop + 1 == HOPS) {
			vkh_cmd_transfer_barrier(cb[hop]);
			vkCmdCopyBuffer(cb[hop], to, r.buffer, 1, &c);
			vkh_cmd_host_barrier(cb[hop]);
		}
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb[hop]));
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[q].queue, 1, &si,
		                              hop + 1 == HOPS ? fence :
		                                               VK_NULL_HANDLE));
	}
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	/* The last fence orders after every hop through the chain. */
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	w = r.map;
	for (unsigned i = 0; i < size / 4; i++)
		VKH_CHECK_MSG(h, w[i] == (i < HOPS ? 1000 + i : 0),
		              "word %u = %u", i, w[i]);
	for (unsigned hop = 0; hop < HOPS; hop++) {
		uint32_t q = (hop & 1) && d->queue_count > 1 ? 1 : 0;
		vkFreeCommandBuffers(d->device, d->queues[q].pool, 1, &cb[hop]);
	}
	vkDestroySemaphore(d->device, s, NULL);
	vkDestroyFence(d->device, fence, NULL);
	vkh_buffer_destroy(d, &buf[0]);
	vkh_buffer_destroy(d, &buf[1]);
	vkh_buffer_destroy(d, &r);
}

/* Two producers on two queues each copy one half and signal their own
 * semaphore; one consumer submit waits for both. */
static void
test_binary_multi_wait(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 2 << 20, half = size / 2;
	uint32_t q1 = d->queue_count > 1 ? 1 : 0;
	struct vkh_buffer u, a, r;
	VkSemaphore s[2] = { make_binary(d), make_binary(d) };
	VkPipelineStageFlags stages[2] = { VK_PIPELINE_STAGE_TRANSFER_BIT,
	                                   VK_PIPELINE_STAGE_TRANSFER_BIT };
	VkFence fence = make_fence(d, false);
	VkCommandBuffer cb[3];

	VKH_CHECK(h, s[0] && s[1] && fence);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1,
	                                  &u));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &a));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK,
	                                  -1, &r));
	for (VkDeviceSize i = 0; i < size; i++)
		((uint8_t *)u.map)[i] = vkh_pattern(33, i);
	cb[0] = record_copy(d, 0, u.buffer, a.buffer, 0, half, half, false);
	cb[1] = record_copy(d, q1, u.buffer, a.buffer, half, 0, half, false);
	cb[2] = record_copy(d, 0, a.buffer, r.buffer, 0, 0, size, true);
	VKH_CHECK(h, cb[0] && cb[1] && cb[2]);
	{
		VkSubmitInfo p0 = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1, .pCommandBuffers = &cb[0],
			.signalSemaphoreCount = 1, .pSignalSemaphores = &s[0],
		};
		VkSubmitInfo p1 = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1, .pCommandBuffers = &cb[1],
			.signalSemaphoreCount = 1, .pSignalSemaphores = &s[1],
		};
		VkSubmitInfo c = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.waitSemaphoreCount = 2, .pWaitSemaphores = s,
			.pWaitDstStageMask = stages,
			.commandBufferCount = 1, .pCommandBuffers = &cb[2],
		};
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[q1].queue, 1, &p1,
		                              VK_NULL_HANDLE));
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1, &p0,
		                              VK_NULL_HANDLE));
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1, &c,
		                              fence));
	}
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK(h, !memcmp(r.map, (uint8_t *)u.map + half, half));
	VKH_CHECK(h, !memcmp((uint8_t *)r.map + half, u.map, half));
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb[0]);
	vkFreeCommandBuffers(d->device, d->queues[q1].pool, 1, &cb[1]);
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb[2]);
	vkDestroySemaphore(d->device, s[0], NULL);
	vkDestroySemaphore(d->device, s[1], NULL);
	vkDestroyFence(d->device, fence, NULL);
	vkh_buffer_destroy(d, &u);
	vkh_buffer_destroy(d, &a);
	vkh_buffer_destroy(d, &r);
}

/* One vkQueueSubmit with four batches: batch 0 copies U -> A and signals
 * binary S; batch 1 has no command buffer, only waits S and signals
 * timeline T = 5 (semaphore forwarding); batch 2 waits T >= 5, copies
 * A -> B; batch 3 copies B -> R (ordered by its own barrier) under the
 * fence. Then the same with vkQueueSubmit2. */
static void
test_multi_batch_submit(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 1 << 20;
	struct vkh_buffer u, a, b, r;
	VkSemaphore s = make_binary(d);
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VkSemaphore t;
	VkFence fence = make_fence(d, false);
	VkCommandBuffer cb[3];
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	uint64_t zero = 0, five = 5, ten = 10;

	VKH_CHECK(h, s && fence);
	VKH_CHECK_VK(h, vkCreateSemaphore(d->device, &sci, NULL, &t));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1,
	                                  &u));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &a));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &b));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK,
	                                  -1, &r));
	for (unsigned round = 0; round < 2; round++) {
		for (VkDeviceSize i = 0; i < size; i++)
			((uint8_t *)u.map)[i] = vkh_pattern(80 + round, i);
		memset(r.map, 0, size);
		cb[0] = record_copy(d, 0, u.buffer, a.buffer, 0, 0, size,
		                    false);
		cb[1] = record_copy(d, 0, a.buffer, b.buffer, 0, 0, size,
		                    false);
		cb[2] = vkh_cmd_begin(d, 0);
		VKH_CHECK(h, cb[0] && cb[1] && cb[2]);
		vkh_cmd_transfer_barrier(cb[2]);
		vkCmdCopyBuffer(cb[2], b.buffer, r.buffer, 1,
		                &(VkBufferCopy){ .size = size });
		vkh_cmd_host_barrier(cb[2]);
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb[2]));
		if (round == 0) {
			VkTimelineSemaphoreSubmitInfo tsi1 = {
				.sType =
			VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
				.waitSemaphoreValueCount = 1,
				.pWaitSemaphoreValues = &zero,
				.signalSemaphoreValueCount = 1,
				.pSignalSemaphoreValues = &five,
			};
			VkTimelineSemaphoreSubmitInfo tsi2 = {
				.sType =
			VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
				.waitSemaphoreValueCount = 1,
				.pWaitSemaphoreValues = &five,
			};
			VkSubmitInfo si[4] = {
				{ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				  .commandBufferCount = 1,
				  .pCommandBuffers = &cb[0],
				  .signalSemaphoreCount = 1,
				  .pSignalSemaphores = &s },
				{ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				  .pNext = &tsi1,
				  .waitSemaphoreCount = 1,
				  .pWaitSemaphores = &s,
				  .pWaitDstStageMask = &stage,
				  .signalSemaphoreCount = 1,
				  .pSignalSemaphores = &t },
				{ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				  .pNext = &tsi2,
				  .waitSemaphoreCount = 1,
				  .pWaitSemaphores = &t,
				  .pWaitDstStageMask = &stage,
				  .commandBufferCount = 1,
				  .pCommandBuffers = &cb[1] },
				{ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				  .commandBufferCount = 1,
				  .pCommandBuffers = &cb[2] },
			};
			VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 4,
			                              si, fence));
		} else {
			VkSemaphoreSubmitInfo sbin = {
				.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
				.semaphore = s,
				.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
			};
			VkSemaphoreSubmitInfo st = sbin;
			VkCommandBufferSubmitInfo cbi[3];
			VkSubmitInfo2 si[4];

			st.semaphore = t;
			st.value = ten;
			for (unsigned i = 0; i < 3; i++)
				cbi[i] = (VkCommandBufferSubmitInfo){
					.sType =
				VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
					.commandBuffer = cb[i],
				};
			for (unsigned i = 0; i < 4; i++)
				si[i] = (VkSubmitInfo2){
					.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
				};
			si[0].commandBufferInfoCount = 1;
			si[0].pCommandBufferInfos = &cbi[0];
			si[0].signalSemaphoreInfoCount = 1;
			si[0].pSignalSemaphoreInfos = &sbin;
			si[1].waitSemaphoreInfoCount = 1;
			si[1].pWaitSemaphoreInfos = &sbin;
			si[1].signalSemaphoreInfoCount = 1;
			si[1].pSignalSemaphoreInfos = &st;
			si[2].waitSemaphoreInfoCount = 1;
			si[2].pWaitSemaphoreInfos = &st;
			si[2].commandBufferInfoCount = 1;
			si[2].pCommandBufferInfos = &cbi[1];
			si[3].commandBufferInfoCount = 1;
			si[3].pCommandBufferInfos = &cbi[2];
			VKH_CHECK_VK(h, vkQueueSubmit2(d->queues[0].queue, 4,
			                               si, fence));
		}
		VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
		                                VKH_TIMEOUT_NS));
		VKH_CHECK_VK(h, vkResetFences(d->device, 1, &fence));
		VKH_CHECK_MSG(h, !memcmp(r.map, u.map, size), "round %u",
		              round);
		{
			uint64_t v = 0;
			VKH_CHECK_VK(h, vkGetSemaphoreCounterValue(d->device, t,
			                                           &v));
			VKH_CHECK_MSG(h, v == (round ? ten : five),
			              "timeline at %llu", (unsigned long long)v);
		}
		vkFreeCommandBuffers(d->device, d->queues[0].pool, 3, cb);
	}
	vkDestroySemaphore(d->device, s, NULL);
	vkDestroySemaphore(d->device, t, NULL);
	vkDestroyFence(d->device, fence, NULL);
	vkh_buffer_destroy(d, &u);
	vkh_buffer_destroy(d, &a);
	vkh_buffer_destroy(d, &b);
	vkh_buffer_destroy(d, &r);
}

/* A command buffer recorded once (no ONE_TIME_SUBMIT) and submitted 20
 * times; the host changes the source between submissions. */
static void
test_resubmit(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 256 * 1024;
	struct vkh_buffer u, r;
	VkFence fence = make_fence(d, false);
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = d->queues[0].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkCommandBuffer cb;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};

	VKH_CHECK(h, fence);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1,
	                                  &u));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK,
	                                  -1, &r));
	VKH_CHECK_VK(h, vkAllocateCommandBuffers(d->device, &ai, &cb));
	VKH_CHECK_VK(h, vkBeginCommandBuffer(cb, &bi));
	vkCmdCopyBuffer(cb, u.buffer, r.buffer, 1,
	                &(VkBufferCopy){ .size = size });
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkEndCommandBuffer(cb));
	for (unsigned i = 0; i < 20; i++) {
		for (VkDeviceSize k = 0; k < size; k++)
			((uint8_t *)u.map)[k] = vkh_pattern(200 + i, k);
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1, &si,
		                              fence));
		VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
		                                VKH_TIMEOUT_NS));
		VKH_CHECK_VK(h, vkResetFences(d->device, 1, &fence));
		VKH_CHECK_MSG(h, !memcmp(r.map, u.map, size),
		              "submission %u", i);
	}
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb);
	vkDestroyFence(d->device, fence, NULL);
	vkh_buffer_destroy(d, &u);
	vkh_buffer_destroy(d, &r);
}

/* SIMULTANEOUS_USE: one command buffer pending on two queues of its
 * family at once (or twice on one queue); both runs complete. */
static void
test_simultaneous_use(struct vkh *h, struct vkh_device *unused)
{
	static struct vkh_device d;
	const VkDeviceSize size = 1 << 20;
	uint32_t fam = 0, nq;
	struct vkh_buffer u, r;
	VkFence fence[2];
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT,
	};
	VkCommandBuffer cb;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSemaphore sem;

	for (uint32_t f = 0; f < h->family_count; f++)
		if (h->families[f].queueCount > h->families[fam].queueCount)
			fam = f;
	nq = h->families[fam].queueCount >= 2 ? 2 : 1;
	printf("  family %u, %u queue(s)\n", fam, nq);
	VKH_CHECK_VK(h, vkh_device_create_explicit(h, fam, nq, NULL, &d));
	fence[0] = make_fence(&d, false);
	fence[1] = make_fence(&d, false);
	VKH_CHECK(h, fence[0] && fence[1]);
	VKH_CHECK_VK(h, vkh_buffer_create(h, &d, size, XFER, VKH_MEM_UPLOAD,
	                                  -1, &u));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &d, size, XFER,
	                                  VKH_MEM_READBACK, -1, &r));
	for (VkDeviceSize k = 0; k < size; k++)
		((uint8_t *)u.map)[k] = vkh_pattern(300, k);
	ai.commandPool = d.queues[0].pool;
	VKH_CHECK_VK(h, vkAllocateCommandBuffers(d.device, &ai, &cb));
	VKH_CHECK_VK(h, vkBeginCommandBuffer(cb, &bi));
	vkCmdCopyBuffer(cb, u.buffer, r.buffer, 1,
	                &(VkBufferCopy){ .size = size });
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkEndCommandBuffer(cb));
	/* The second submission is made while the first is still pending
	 * (that needs SIMULTANEOUS_USE); a semaphore orders the two runs,
	 * since both write the same bytes. */
	sem = make_binary(&d);
	VKH_CHECK(h, sem);
	si.signalSemaphoreCount = 1;
	si.pSignalSemaphores = &sem;
	VKH_CHECK_VK(h, vkQueueSubmit(d.queues[0].queue, 1, &si, fence[0]));
	si.signalSemaphoreCount = 0;
	si.waitSemaphoreCount = 1;
	si.pWaitSemaphores = &sem;
	si.pWaitDstStageMask = &stage;
	VKH_CHECK_VK(h, vkQueueSubmit(d.queues[nq - 1].queue, 1, &si,
	                              fence[1]));
	VKH_CHECK_VK(h, vkWaitForFences(d.device, 2, fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK(h, !memcmp(r.map, u.map, size));
	vkFreeCommandBuffers(d.device, d.queues[0].pool, 1, &cb);
	vkDestroyFence(d.device, fence[0], NULL);
	vkDestroyFence(d.device, fence[1], NULL);
	vkDestroySemaphore(d.device, sem, NULL);
	vkh_buffer_destroy(&d, &u);
	vkh_buffer_destroy(&d, &r);
	vkh_device_destroy(h, &d);
}

static const struct vkh_test tests[] = {
	{ "fence_states", test_fence_states, 1, 0 },
	{ "fence_gpu", test_fence_gpu, 4, 0 },
	{ "binary_cross_queue", test_binary_cross_queue, 2, 0 },
	{ "binary_ping_pong", test_binary_ping_pong, 2, 0 },
	{ "binary_multi_wait", test_binary_multi_wait, 2, 0 },
	{ "multi_batch_submit", test_multi_batch_submit, 1, 0 },
	{ "resubmit", test_resubmit, 1, 0 },
	{ "simultaneous_use", test_simultaneous_use, 0, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_sync", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
