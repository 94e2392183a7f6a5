/* SPDX-License-Identifier: MIT */
/*
 * Events through the loader: host set/reset/status; vkCmdSetEvent(2) and
 * vkCmdResetEvent(2) observed by the host; vkCmdSetEvent + vkCmdWaitEvents
 * (and the 2 forms) ordering dependent copies on one queue, with the
 * waiting command buffer recorded first; a queue blocked in vkCmdWaitEvents
 * released by vkSetEvent on the host, consuming data the host wrote after
 * the submission.
 *
 * Not tested on purpose: a vkCmdWaitEvents on one queue for a
 * vkCmdSetEvent on another. The spec forbids it ("Events must not be used
 * to insert a dependency between commands submitted to different
 * queues"); cross-queue dependencies are semaphores' job.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)

static VkEvent
make_event(struct vkh_device *d)
{
	VkEventCreateInfo eci = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
	VkEvent e = VK_NULL_HANDLE;

	vkCreateEvent(d->device, &eci, NULL, &e);
	return e;
}

static void
test_host_ops(struct vkh *h, struct vkh_device *d)
{
	VkEvent e = make_event(d);

	VKH_CHECK(h, e);
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_RESET);
	VKH_CHECK_VK(h, vkSetEvent(d->device, e));
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_SET);
	VKH_CHECK_VK(h, vkSetEvent(d->device, e));
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_SET);
	VKH_CHECK_VK(h, vkResetEvent(d->device, e));
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_RESET);
	vkDestroyEvent(d->device, e, NULL);
	vkDestroyEvent(d->device, VK_NULL_HANDLE, NULL);
}

static VkResult
run(struct vkh_device *d, void (*rec)(VkCommandBuffer, VkEvent), VkEvent e)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	rec(cb, e);
	return vkh_cmd_submit_wait(d, 0, cb);
}

static void
rec_set1(VkCommandBuffer cb, VkEvent e)
{
	vkCmdSetEvent(cb, e, VK_PIPELINE_STAGE_TRANSFER_BIT);
}

static void
rec_reset1(VkCommandBuffer cb, VkEvent e)
{
	vkCmdResetEvent(cb, e, VK_PIPELINE_STAGE_TRANSFER_BIT);
}

static void
rec_set2(VkCommandBuffer cb, VkEvent e)
{
	VkMemoryBarrier2 mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
		.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
	};
	VkDependencyInfo dep = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.memoryBarrierCount = 1,
		.pMemoryBarriers = &mb,
	};

	vkCmdSetEvent2(cb, e, &dep);
}

static void
rec_reset2(VkCommandBuffer cb, VkEvent e)
{
	vkCmdResetEvent2(cb, e, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
}

/* Device-side set/reset seen by vkGetEventStatus, interleaved with host
 * set/reset. */
static void
test_cmd_set_reset(struct vkh *h, struct vkh_device *d)
{
	VkEvent e = make_event(d);

	VKH_CHECK(h, e);
	VKH_CHECK_VK(h, run(d, rec_set1, e));
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_SET);
	VKH_CHECK_VK(h, run(d, rec_reset1, e));
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_RESET);
	VKH_CHECK_VK(h, vkSetEvent(d->device, e));
	VKH_CHECK_VK(h, run(d, rec_reset2, e));
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_RESET);
	if (h->synchronization2) {
		VKH_CHECK_VK(h, run(d, rec_set2, e));
		VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e),
		                 VK_EVENT_SET);
		VKH_CHECK_VK(h, vkResetEvent(d->device, e));
		VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e),
		                 VK_EVENT_RESET);
	}
	vkDestroyEvent(d->device, e, NULL);
}

struct ev_bufs {
	VkDeviceSize size;
	struct vkh_buffer u, a, r;
};

static VkResult
ev_bufs_create(struct vkh *h, struct vkh_device *d, VkDeviceSize size,
               uint32_t seed, struct ev_bufs *b)
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
ev_bufs_destroy(struct vkh_device *d, struct ev_bufs *b)
{
	vkh_buffer_destroy(d, &b->u);
	vkh_buffer_destroy(d, &b->a);
	vkh_buffer_destroy(d, &b->r);
}

/* cbWait (recorded first): wait for E, then copy A -> R.
 * cbSet (recorded second, submitted first): copy U -> A, set E.
 * Both on queue 0, as separate submissions. sync2 selects the 2 forms,
 * whose vkCmdWaitEvents2 must repeat the set's dependency info. */
static void
set_wait_same_queue(struct vkh *h, struct vkh_device *d, bool sync2)
{
	struct ev_bufs b;
	VkEvent e = make_event(d);
	VkCommandBuffer cb_wait, cb_set;
	VkBufferCopy c;
	VkMemoryBarrier2 mb2 = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
		.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
		.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
	};
	VkDependencyInfo dep = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.memoryBarrierCount = 1,
		.pMemoryBarriers = &mb2,
	};
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
	};
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
	};

	VKH_CHECK(h, e);
	VKH_CHECK_VK(h, ev_bufs_create(h, d, 2 << 20, sync2 ? 71 : 70, &b));
	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));

	cb_wait = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb_wait);
	if (sync2)
		vkCmdWaitEvents2(cb_wait, 1, &e, &dep);
	else
		vkCmdWaitEvents(cb_wait, 1, &e, VK_PIPELINE_STAGE_TRANSFER_BIT,
		                VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb, 0,
		                NULL, 0, NULL);
	c = (VkBufferCopy){ .size = b.size };
	vkCmdCopyBuffer(cb_wait, b.a.buffer, b.r.buffer, 1, &c);
	vkh_cmd_host_barrier(cb_wait);
	VKH_CHECK_VK(h, vkEndCommandBuffer(cb_wait));

	cb_set = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb_set);
	vkCmdCopyBuffer(cb_set, b.u.buffer, b.a.buffer, 1, &c);
	if (sync2)
		vkCmdSetEvent2(cb_set, e, &dep);
	else
		vkCmdSetEvent(cb_set, e, VK_PIPELINE_STAGE_TRANSFER_BIT);
	VKH_CHECK_VK(h, vkEndCommandBuffer(cb_set));

	si.pCommandBuffers = &cb_set;
	VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1, &si,
	                              VK_NULL_HANDLE));
	si.pCommandBuffers = &cb_wait;
	VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1, &si, fence));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK(h, !memcmp(b.r.map, b.u.map, b.size));
	VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e), VK_EVENT_SET);
	VKH_CHECK_VK(h, vkResetEvent(d->device, e));
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb_wait);
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb_set);
	vkDestroyFence(d->device, fence, NULL);
	vkDestroyEvent(d->device, e, NULL);
	ev_bufs_destroy(d, &b);
}

static void
test_set_wait_same_queue(struct vkh *h, struct vkh_device *d)
{
	set_wait_same_queue(h, d, false);
}

static void
test_set_wait2_same_queue(struct vkh *h, struct vkh_device *d)
{
	VKH_CHECK(h, h->synchronization2);
	set_wait_same_queue(h, d, true);
}

/* Set and wait inside one command buffer, several events at once. */
static void
test_set_wait_one_cb(struct vkh *h, struct vkh_device *d)
{
	struct ev_bufs b;
	VkEvent e[3] = { make_event(d), make_event(d), make_event(d) };
	VkCommandBuffer cb;
	VkDeviceSize third;
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
	};

	VKH_CHECK(h, e[0] && e[1] && e[2]);
	VKH_CHECK_VK(h, ev_bufs_create(h, d, 3 << 20, 72, &b));
	third = b.size / 3;
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	for (unsigned i = 0; i < 3; i++) {
		VkBufferCopy c = { .srcOffset = i * third,
		                   .dstOffset = i * third, .size = third };
		vkCmdCopyBuffer(cb, b.u.buffer, b.a.buffer, 1, &c);
		vkCmdSetEvent(cb, e[i], VK_PIPELINE_STAGE_TRANSFER_BIT);
	}
	vkCmdWaitEvents(cb, 3, e, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb, 0, NULL, 0,
	                NULL);
	{
		VkBufferCopy c = { .size = b.size };
		vkCmdCopyBuffer(cb, b.a.buffer, b.r.buffer, 1, &c);
	}
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK(h, !memcmp(b.r.map, b.u.map, b.size));
	for (unsigned i = 0; i < 3; i++) {
		VKH_CHECK_RESULT(h, vkGetEventStatus(d->device, e[i]),
		                 VK_EVENT_SET);
		vkDestroyEvent(d->device, e[i], NULL);
	}
	ev_bufs_destroy(d, &b);
}

/* A queue blocked in vkCmdWaitEvents (source stage HOST) until the host
 * calls vkSetEvent. The host writes the upload buffer after submitting;
 * the event's HOST_WRITE -> TRANSFER_READ dependency makes that write
 * visible to the copy. */
static void
test_host_release(struct vkh *h, struct vkh_device *d)
{
	struct ev_bufs b;
	VkEvent e = make_event(d);
	VkCommandBuffer cb;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
	};
	VkBufferCopy c;

	VKH_CHECK(h, e);
	VKH_CHECK_VK(h, ev_bufs_create(h, d, 1 << 20, 73, &b));
	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
	c = (VkBufferCopy){ .size = b.size };
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	vkCmdWaitEvents(cb, 1, &e, VK_PIPELINE_STAGE_HOST_BIT,
	                VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb, 0, NULL, 0,
	                NULL);
	vkCmdCopyBuffer(cb, b.u.buffer, b.r.buffer, 1, &c);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkEndCommandBuffer(cb));
	VKH_CHECK_VK(h, vkQueueSubmit(d->queues[0].queue, 1, &si, fence));

	/* Blocked: the fence does not signal and nothing was copied. */
	VKH_CHECK_RESULT(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                    50ull * 1000 * 1000), VK_TIMEOUT);
	VKH_CHECK(h, ((uint8_t *)b.r.map)[0] == 0 &&
	             ((uint8_t *)b.r.map)[b.size - 1] == 0);
	for (VkDeviceSize i = 0; i < b.size; i++)
		((uint8_t *)b.u.map)[i] = vkh_pattern(74, i);
	VKH_CHECK_VK(h, vkSetEvent(d->device, e));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK(h, !memcmp(b.r.map, b.u.map, b.size));
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb);
	vkDestroyFence(d->device, fence, NULL);
	vkDestroyEvent(d->device, e, NULL);
	ev_bufs_destroy(d, &b);
}

/* The vkCmd* event commands are valid only on GRAPHICS or COMPUTE queues
 * (their "Supported Queue Types" in Vulkan 1.3); on a TRANSFER-only driver
 * those tests are skipped and only the host operations run. */
#define GC VK_QUEUE_COMPUTE_BIT

static const struct vkh_test tests[] = {
	{ "host_ops", test_host_ops, 1, 0 },
	{ "cmd_set_reset", test_cmd_set_reset, 1, GC },
	{ "set_wait_same_queue", test_set_wait_same_queue, 1, GC },
	{ "set_wait2_same_queue", test_set_wait2_same_queue, 1, GC },
	{ "set_wait_one_cb", test_set_wait_one_cb, 1, GC },
	{ "host_release", test_host_release, 1, GC },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_event", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
