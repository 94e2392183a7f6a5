/* SPDX-License-Identifier: MIT */
/*
 * test_icd_cmd, part 2: events (host and device), timestamp queries
 * (host results with WAIT, vkCmdCopyQueryPoolResults), fences, binary and
 * timeline semaphores across queues. See test_icd_cmd.c.
 */
#include <string.h>

#include "test_icd_cmd.h"

void
test_events(void)
{
	VkEvent ev, ev2;
	VkEventCreateInfo eci = {
		.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO,
	};
	VK(vkCreateEvent(dev, &eci, NULL, &ev));
	VK(vkCreateEvent(dev, &eci, NULL, &ev2));

	/* Host side. */
	CHECK(vkGetEventStatus(dev, ev) == VK_EVENT_RESET);
	VK(vkSetEvent(dev, ev));
	CHECK(vkGetEventStatus(dev, ev) == VK_EVENT_SET);
	VK(vkResetEvent(dev, ev));
	CHECK(vkGetEventStatus(dev, ev) == VK_EVENT_RESET);

	/* Device waits for a host set: the copy must not run before it. */
	tolerate_cmdpool = !has_compute;
	struct buf a = buf_create(4096, true);
	struct buf b = buf_create(4096, true);
	for (uint32_t i = 0; i < 1024; i++) {
		a.map[i] = pattern(6, i);
		b.map[i] = 0;
	}
	VkCommandBuffer cb = cmd_begin();
	vkCmdWaitEvents(cb, 1, &ev, VK_PIPELINE_STAGE_HOST_BIT,
	                VK_PIPELINE_STAGE_TRANSFER_BIT, 0, NULL, 0, NULL, 0,
	                NULL);
	VkBufferCopy r = { 0, 0, 4096 };
	vkCmdCopyBuffer(cb, a.buf, b.buf, 1, &r);
	barrier_host(cb);
	/* then the device sets ev2 and resets ev */
	VkMemoryBarrier2 mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
		.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
	};
	VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.memoryBarrierCount = 1,
		.pMemoryBarriers = &mb,
	};
	vkCmdSetEvent2(cb, ev2, &di);
	vkCmdResetEvent2(cb, ev, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
	VK(vkEndCommandBuffer(cb));
	VkFence f = fence_create(false);
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VK(vkQueueSubmit(queues[0], 1, &si, f));
	/* The job is blocked on ev: the fence cannot be signalled yet. */
	CHECK(vkWaitForFences(dev, 1, &f, VK_TRUE, 20ull * 1000 * 1000) ==
	      VK_TIMEOUT);
	CHECK(vkGetFenceStatus(dev, f) == VK_NOT_READY);
	CHECK(b.map[0] == 0);
	VK(vkSetEvent(dev, ev));
	VK(vkWaitForFences(dev, 1, &f, VK_TRUE, TIMEOUT_NS));
	CHECK(vkGetEventStatus(dev, ev2) == VK_EVENT_SET);
	CHECK(vkGetEventStatus(dev, ev) == VK_EVENT_RESET);
	CHECK(memcmp(a.map, b.map, 4096) == 0);
	vkDestroyFence(dev, f, NULL);
	vkFreeCommandBuffers(dev, pool, 1, &cb);

	/* Set and wait on the device, sync2 forms, within one buffer. */
	VK(vkResetEvent(dev, ev2));
	memset(b.map, 0, 4096);
	cb = cmd_begin();
	vkCmdFillBuffer(cb, b.buf, 0, 2048, 0x5a5a5a5au);
	mb.dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
	mb.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
	vkCmdSetEvent2(cb, ev2, &di);
	vkCmdWaitEvents2(cb, 1, &ev2, &di);
	VkBufferCopy r3 = { 0, 2048, 2048 };
	vkCmdCopyBuffer(cb, b.buf, b.buf, 1, &r3);
	barrier_host(cb);
	cmd_submit_wait(cb, queues[0]);
	for (uint32_t i = 0; i < 1024; i++)
		if (b.map[i] != 0x5a5a5a5au) {
			CHECK(b.map[i] == 0x5a5a5a5au);
			break;
		}

	tolerate_cmdpool = false;
	vkDestroyEvent(dev, ev, NULL);
	vkDestroyEvent(dev, ev2, NULL);
	vkDestroyEvent(dev, VK_NULL_HANDLE, NULL);
	buf_destroy(&a);
	buf_destroy(&b);
}

/* A 64-bit result returned in 32 bits may wrap or saturate (spec). */
static bool
fits32(uint32_t got, uint64_t full)
{
	return got == (uint32_t)full ||
	       (full > UINT32_MAX && got == UINT32_MAX);
}

void
test_timestamps(void)
{
	const uint32_t nq = 6;
	uint64_t mask = ts_valid_bits >= 64 ? ~0ull :
	                (1ull << ts_valid_bits) - 1;
	VkQueryPool qp;
	VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = nq,
	};
	/* Occlusion pools (core, no feature) exist without a graphics
	 * queue: created, reset on the host, nothing available. */
	qci.queryType = VK_QUERY_TYPE_OCCLUSION;
	VK(vkCreateQueryPool(dev, &qci, NULL, &qp));
	vkResetQueryPool(dev, qp, 0, nq);
	{
		uint64_t occ[2] = { 7, 7 };
		CHECK(vkGetQueryPoolResults(dev, qp, 0, 1, sizeof(occ), occ,
		      16, VK_QUERY_RESULT_64_BIT |
		      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) == VK_NOT_READY);
		CHECK(occ[1] == 0);
	}
	vkDestroyQueryPool(dev, qp, NULL);
	qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
	VK(vkCreateQueryPool(dev, &qci, NULL, &qp));

	/* Host reset: nothing available, results not written. */
	vkResetQueryPool(dev, qp, 0, nq);
	uint64_t res[2 * 6];
	memset(res, 0xff, sizeof(res));
	CHECK(vkGetQueryPoolResults(dev, qp, 0, nq, sizeof(res), res, 16,
	      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
	      == VK_NOT_READY);
	for (uint32_t i = 0; i < nq; i++) {
		CHECK(res[2 * i + 1] == 0);
		CHECK(res[2 * i] == ~0ull);
	}

	/* Timestamps around real work; read back with WAIT right after the
	 * submit, while the GPU is still busy. */
	const uint32_t big = 8u << 20;
	struct buf a = buf_create(big, false);
	struct buf b = buf_create(big, false);
	struct buf out = buf_create(4096, true);
	memset(out.map, 0xcc, 4096);
	tolerate_cmdpool = !has_compute;
	VkCommandBuffer cb = cmd_begin();
	vkCmdResetQueryPool(cb, qp, 0, nq);
	vkCmdFillBuffer(cb, a.buf, 0, big, 7);
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, qp, 0);
	VkBufferCopy r = { 0, 0, big };
	for (uint32_t i = 1; i < nq; i++) {
		barrier(cb);
		vkCmdCopyBuffer(cb, (i & 1) ? a.buf : b.buf,
		                (i & 1) ? b.buf : a.buf, 1, &r);
		vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		                     qp, i);
	}
	/* GPU-side copies of the results in three layouts. */
	vkCmdCopyQueryPoolResults(cb, qp, 0, nq, out.buf, 0, 16,
	                          VK_QUERY_RESULT_64_BIT |
	                          VK_QUERY_RESULT_WAIT_BIT |
	                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkCmdCopyQueryPoolResults(cb, qp, 0, nq, out.buf, 1024, 8,
	                          VK_QUERY_RESULT_WAIT_BIT |
	                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkCmdCopyQueryPoolResults(cb, qp, 0, nq, out.buf, 2048, 8,
	                          VK_QUERY_RESULT_64_BIT |
	                          VK_QUERY_RESULT_WAIT_BIT);
	barrier_host(cb);
	VK(vkEndCommandBuffer(cb));
	VkFence f = fence_create(false);
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VK(vkQueueSubmit(queues[0], 1, &si, f));
	memset(res, 0, sizeof(res));
	VK(vkGetQueryPoolResults(dev, qp, 0, nq, sizeof(res), res, 16,
	   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
	   VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	VK(vkWaitForFences(dev, 1, &f, VK_TRUE, TIMEOUT_NS));
	tolerate_cmdpool = false;
	for (uint32_t i = 0; i < nq; i++) {
		CHECK(res[2 * i] != 0);
		CHECK(res[2 * i + 1] == 1);
		if (i)
			CHECK(res[2 * i] >= res[2 * (i - 1)]);
	}
	printf("timestamps: first %llu, span %llu ticks\n",
	       (unsigned long long)res[0],
	       (unsigned long long)(res[2 * (nq - 1)] - res[0]));

	/* 32-bit, no availability, host. */
	uint32_t r32[6];
	VK(vkGetQueryPoolResults(dev, qp, 0, nq, sizeof(r32), r32, 4,
	                         VK_QUERY_RESULT_WAIT_BIT));
	for (uint32_t i = 0; i < nq; i++)
		CHECK(fits32(r32[i], res[2 * i] & mask));

	/* The device copies agree with the host's results. */
	const uint64_t *o64 = (const uint64_t *)out.map;
	const uint32_t *o32 = out.map + 1024 / 4;
	const uint64_t *p64 = (const uint64_t *)(out.map + 2048 / 4);
	for (uint32_t i = 0; i < nq; i++) {
		CHECK(o64[2 * i] == res[2 * i]);
		CHECK(o64[2 * i + 1] == 1);
		CHECK(fits32(o32[2 * i], res[2 * i] & mask));
		CHECK(o32[2 * i + 1] == 1);
		CHECK(p64[i] == res[2 * i]);
	}
	/* Past the last written result nothing was touched. */
	CHECK(o32[2 * nq] == 0xccccccccu);

	vkDestroyFence(dev, f, NULL);
	vkFreeCommandBuffers(dev, pool, 1, &cb);
	vkDestroyQueryPool(dev, qp, NULL);
	buf_destroy(&a);
	buf_destroy(&b);
	buf_destroy(&out);
}

void
test_fences(void)
{
	VkFence s = fence_create(true), u = fence_create(false);
	VkFence both[2] = { s, u };

	CHECK(vkGetFenceStatus(dev, s) == VK_SUCCESS);
	CHECK(vkGetFenceStatus(dev, u) == VK_NOT_READY);
	CHECK(vkWaitForFences(dev, 2, both, VK_FALSE, 0) == VK_SUCCESS);
	CHECK(vkWaitForFences(dev, 2, both, VK_TRUE, 0) == VK_TIMEOUT);
	/* Never submitted: a bounded wait times out, not an error. */
	CHECK(vkWaitForFences(dev, 1, &u, VK_TRUE, 10ull * 1000 * 1000) ==
	      VK_TIMEOUT);
	VK(vkResetFences(dev, 1, &s));
	CHECK(vkGetFenceStatus(dev, s) == VK_NOT_READY);

	/* Zero submits with a fence: signalled once earlier work is done. */
	VK(vkQueueSubmit(queues[0], 0, NULL, u));
	VK(vkQueueSubmit2(queues[0], 0, NULL, s));
	VK(vkWaitForFences(dev, 2, both, VK_TRUE, TIMEOUT_NS));
	CHECK(vkGetFenceStatus(dev, u) == VK_SUCCESS);
	VK(vkResetFences(dev, 2, both));
	CHECK(vkGetFenceStatus(dev, s) == VK_NOT_READY);
	vkDestroyFence(dev, s, NULL);
	vkDestroyFence(dev, u, NULL);
	vkDestroyFence(dev, VK_NULL_HANDLE, NULL);
}

void
test_semaphores(void)
{
	const uint32_t n = 4096;
	struct buf a = buf_create(n * 4, true);
	struct buf b = buf_create(n * 4, false);
	struct buf c = buf_create(n * 4, true);
	for (uint32_t i = 0; i < n; i++)
		a.map[i] = pattern(8, i);
	memset(c.map, 0, n * 4);

	/* Binary: queue 0 copies a -> b and signals; queue 1 waits and
	 * copies b -> c (two command buffers in one submit). */
	VkSemaphore bin = semaphore_create(false, 0);
	VkCommandBuffer c1 = cmd_begin();
	VkBufferCopy r = { 0, 0, n * 4 };
	vkCmdCopyBuffer(c1, a.buf, b.buf, 1, &r);
	VK(vkEndCommandBuffer(c1));
	VkCommandBuffer c2 = cmd_begin();
	VkBufferCopy rh = { 0, 0, n * 2 };
	vkCmdCopyBuffer(c2, b.buf, c.buf, 1, &rh);
	VK(vkEndCommandBuffer(c2));
	VkCommandBuffer c3 = cmd_begin();
	VkBufferCopy rt = { n * 2, n * 2, n * 2 };
	vkCmdCopyBuffer(c3, b.buf, c.buf, 1, &rt);
	barrier_host(c3);
	VK(vkEndCommandBuffer(c3));
	VkSubmitInfo s1 = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1, .pCommandBuffers = &c1,
		.signalSemaphoreCount = 1, .pSignalSemaphores = &bin,
	};
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkCommandBuffer c23[2] = { c2, c3 };
	VkSubmitInfo s2 = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.waitSemaphoreCount = 1, .pWaitSemaphores = &bin,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = 2, .pCommandBuffers = c23,
	};
	VkFence f = fence_create(false);
	VK(vkQueueSubmit(queues[0], 1, &s1, VK_NULL_HANDLE));
	VK(vkQueueSubmit(queues[1], 1, &s2, f));
	VK(vkWaitForFences(dev, 1, &f, VK_TRUE, TIMEOUT_NS));
	CHECK(memcmp(a.map, c.map, n * 4) == 0);
	VK(vkQueueWaitIdle(queues[0]));
	vkFreeCommandBuffers(dev, pool, 1, &c1);
	vkFreeCommandBuffers(dev, pool, 2, c23);
	vkDestroySemaphore(dev, bin, NULL);

	/* Timeline, wait-before-signal: queue 1's submit waiting for 2 is
	 * made before anything signals; queue 0 signals 1 on the GPU, the
	 * host signals 2. Submit2 path. With a single queue the producer
	 * goes first (a queue runs its submissions in order). */
	VkSemaphore tl = semaphore_create(true, 0);
	for (uint32_t i = 0; i < n; i++)
		a.map[i] = pattern(9, i);
	memset(c.map, 0, n * 4);
	c1 = cmd_begin();
	vkCmdCopyBuffer(c1, a.buf, b.buf, 1, &r);
	VK(vkEndCommandBuffer(c1));
	c2 = cmd_begin();
	vkCmdCopyBuffer(c2, b.buf, c.buf, 1, &r);
	barrier_host(c2);
	VK(vkEndCommandBuffer(c2));

	VkSemaphoreSubmitInfo wait2 = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = tl, .value = 2,
		.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
	};
	VkSemaphoreSubmitInfo sig3 = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = tl, .value = 3,
		.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
	};
	VkCommandBufferSubmitInfo cbi2 = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
		.commandBuffer = c2,
	};
	VkSubmitInfo2 consumer = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
		.waitSemaphoreInfoCount = 1, .pWaitSemaphoreInfos = &wait2,
		.commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi2,
		.signalSemaphoreInfoCount = 1, .pSignalSemaphoreInfos = &sig3,
	};
	if (queue_count > 1)
		VK(vkQueueSubmit2(queues[1], 1, &consumer, VK_NULL_HANDLE));

	uint64_t one = 1;
	VkTimelineSemaphoreSubmitInfo tsi = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.signalSemaphoreValueCount = 1,
		.pSignalSemaphoreValues = &one,
	};
	VkSubmitInfo producer = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &tsi,
		.commandBufferCount = 1, .pCommandBuffers = &c1,
		.signalSemaphoreCount = 1, .pSignalSemaphores = &tl,
	};
	VK(vkQueueSubmit(queues[0], 1, &producer, VK_NULL_HANDLE));
	if (queue_count == 1)
		VK(vkQueueSubmit2(queues[1], 1, &consumer, VK_NULL_HANDLE));

	uint64_t v = 0;
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.semaphoreCount = 1, .pSemaphores = &tl, .pValues = &one,
	};
	VK(vkWaitSemaphores(dev, &wi, TIMEOUT_NS));
	VK(vkGetSemaphoreCounterValue(dev, tl, &v));
	CHECK(v == 1);
	/* The consumer must still be blocked on 2. */
	uint64_t three = 3;
	wi.pValues = &three;
	CHECK(vkWaitSemaphores(dev, &wi, 10ull * 1000 * 1000) == VK_TIMEOUT);
	CHECK(c.map[0] == 0);

	VkSemaphoreSignalInfo ssi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
		.semaphore = tl, .value = 2,
	};
	VK(vkSignalSemaphore(dev, &ssi));
	VK(vkWaitSemaphores(dev, &wi, TIMEOUT_NS));
	VK(vkGetSemaphoreCounterValue(dev, tl, &v));
	CHECK(v == 3);
	CHECK(memcmp(a.map, c.map, n * 4) == 0);

	/* ANY vs ALL over two timelines, one unreachable for now. */
	VkSemaphore tl2 = semaphore_create(true, 5);
	VkSemaphore two[2] = { tl, tl2 };
	uint64_t vals[2] = { 3, 6 };
	VkSemaphoreWaitInfo wany = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.flags = VK_SEMAPHORE_WAIT_ANY_BIT,
		.semaphoreCount = 2, .pSemaphores = two, .pValues = vals,
	};
	CHECK(vkWaitSemaphores(dev, &wany, 0) == VK_SUCCESS);
	wany.flags = 0;
	CHECK(vkWaitSemaphores(dev, &wany, 1000000) == VK_TIMEOUT);
	ssi.semaphore = tl2;
	ssi.value = 6;
	VK(vkSignalSemaphore(dev, &ssi));
	CHECK(vkWaitSemaphores(dev, &wany, 0) == VK_SUCCESS);

	VK(vkDeviceWaitIdle(dev));
	vkFreeCommandBuffers(dev, pool, 1, &c1);
	vkFreeCommandBuffers(dev, pool, 1, &c2);
	vkDestroySemaphore(dev, tl, NULL);
	vkDestroySemaphore(dev, tl2, NULL);
	vkDestroyFence(dev, f, NULL);
	buf_destroy(&a);
	buf_destroy(&b);
	buf_destroy(&c);
}

