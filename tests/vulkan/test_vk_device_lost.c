/* SPDX-License-Identifier: MIT */
/*
 * Device lost on one VkDevice while another keeps working (swgpu only).
 *
 * swgpu's fault-injection knob SWGPU_FAULT=pagefault:queue=0:job=2 makes
 * the second job on swgpu queue 0 fault. swgpu reads it when it opens its
 * device, i.e. at vkCreateInstance, so main() sets it (unless the
 * environment already does) before the harness creates the instance.
 * VkDevice A is created first with exactly one queue, which becomes swgpu
 * queue 0; VkDevice B follows. A's first job copies correct data, its
 * second faults: A's submits and waits then return VK_ERROR_DEVICE_LOST,
 * within bounded time, while B's copies return correct data before, during
 * and after, and A is destroyed cleanly.
 *
 * Validation: after a device is lost the layer's view of A's in-flight
 * work is stale (it never saw A's fences complete), so it may report
 * "in use" errors when A's objects are destroyed. Those, and only those
 * naming A's objects, are tolerated (vkh_tolerate_object); any message
 * about B or unrelated objects still fails the test.
 *
 * ctest also runs it with SWGPU_FAULT=hang:queue=0:job=2 and a short
 * SWGPU_TIMEOUT_MS: the watchdog, not a page fault, then loses A.
 *
 * On any other driver the test is skipped with exit code 77.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define FAULT_SPEC "pagefault:queue=0:job=2"
#define LOST_BOUND_NS (15ull * 1000 * 1000 * 1000)

static uint64_t
handle(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

struct dev_bufs {
	struct vkh_buffer u, r;
};

static VkResult
bufs_create(struct vkh *h, struct vkh_device *d, struct dev_bufs *b)
{
	VkResult r = vkh_buffer_create(h, d, 1 << 20, XFER, VKH_MEM_UPLOAD,
	                               -1, &b->u);

	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, d, 1 << 20, XFER, VKH_MEM_READBACK,
		                      -1, &b->r);
	return r;
}

/* One copy on device d with fresh data; returns whether it round-tripped
 * (and *res the first failing VkResult). */
static bool
copy_ok(struct vkh *h, struct vkh_device *d, struct dev_bufs *b,
        uint32_t seed, VkResult *res)
{
	uint8_t *u = b->u.map;

	for (uint32_t i = 0; i < (1 << 20); i++)
		u[i] = vkh_pattern(seed, i);
	memset(b->r.map, 0, 1 << 20);
	*res = vkh_copy_sync(d, 0, b->u.buffer, 0, b->r.buffer, 0, 1 << 20);
	return *res == VK_SUCCESS && !memcmp(b->r.map, u, 1 << 20);
}

static void
tolerate_device(struct vkh_device *d, struct dev_bufs *b)
{
	vkh_tolerate_object(handle(d->device));
	vkh_tolerate_object(handle(d->queues[0].queue));
	vkh_tolerate_object((uint64_t)d->queues[0].pool);
	vkh_tolerate_object((uint64_t)b->u.buffer);
	vkh_tolerate_object((uint64_t)b->u.memory);
	vkh_tolerate_object((uint64_t)b->r.buffer);
	vkh_tolerate_object((uint64_t)b->r.memory);
}

static void
test_device_lost(struct vkh *h, struct vkh_device *unused)
{
	/* Static: a failed check returns early and the runner then destroys
	 * the devices still registered with the harness. */
	static struct vkh_device a, b;
	struct dev_bufs ab, bb;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence[3];
	VkCommandBuffer cb[3];
	VkSemaphore tl = VK_NULL_HANDLE;
	VkResult r;
	uint64_t t0, dt;

	if (!h->is_swgpu) {
		vkh_skip(h, "driver \"%s\" is not swgpu; the fault knob is "
		         "swgpu's", h->driver.driverName);
		return;
	}
	printf("  SWGPU_FAULT=%s\n", getenv("SWGPU_FAULT"));
	/* A's single queue is swgpu queue 0: create it first. */
	VKH_CHECK_VK(h, vkh_device_create(h, VK_QUEUE_TRANSFER_BIT, 1, NULL,
	                                  &a));
	VKH_CHECK_VK(h, vkh_device_create(h, VK_QUEUE_TRANSFER_BIT, 1, NULL,
	                                  &b));
	VKH_CHECK_VK(h, bufs_create(h, &a, &ab));
	VKH_CHECK_VK(h, bufs_create(h, &b, &bb));
	VKH_CHECK_MSG(h, copy_ok(h, &b, &bb, 1, &r), "B before: %s",
	              vkh_result_str(r));

	for (unsigned i = 0; i < 3; i++) {
		VkBufferCopy c = { .size = 1 << 20 };

		VKH_CHECK_VK(h, vkCreateFence(a.device, &fci, NULL,
		                              &fence[i]));
		vkh_tolerate_object((uint64_t)fence[i]);
		cb[i] = vkh_cmd_begin(&a, 0);
		VKH_CHECK(h, cb[i]);
		vkh_tolerate_object(handle(cb[i]));
		vkCmdCopyBuffer(cb[i], ab.u.buffer, ab.r.buffer, 1, &c);
		vkh_cmd_host_barrier(cb[i]);
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb[i]));
	}
	tolerate_device(&a, &ab);

	/* Job 1 on A: correct data. */
	for (uint32_t i = 0; i < (1 << 20); i++)
		((uint8_t *)ab.u.map)[i] = vkh_pattern(2, i);
	{
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[0],
		};
		VKH_CHECK_VK(h, vkQueueSubmit(a.queues[0].queue, 1, &si,
		                              fence[0]));
		r = vkWaitForFences(a.device, 1, &fence[0], VK_TRUE,
		                    VKH_TIMEOUT_NS);
		VKH_CHECK_MSG(h, r == VK_SUCCESS,
		              "A job 1 returned %s: did the ICD submit a job "
		              "of its own on swgpu queue 0 first?",
		              vkh_result_str(r));
		VKH_CHECK(h, !memcmp(ab.r.map, ab.u.map, 1 << 20));
	}

	/* Job 2 on A faults. The submit may already say so; the wait must,
	 * within bounded time, and must not report success. Job 2 also
	 * signals a timeline that a host waiter must not wait on forever. */
	{
		VkSemaphoreTypeCreateInfo tci = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
			.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		};
		VkSemaphoreCreateInfo sci = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
			.pNext = &tci,
		};
		uint64_t one = 1;
		VkTimelineSemaphoreSubmitInfo tsi = {
			.sType =
			VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
			.signalSemaphoreValueCount = 1,
			.pSignalSemaphoreValues = &one,
		};
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = &tsi,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[1],
			.signalSemaphoreCount = 1,
			.pSignalSemaphores = &tl,
		};

		VKH_CHECK_VK(h, vkCreateSemaphore(a.device, &sci, NULL, &tl));
		vkh_tolerate_object((uint64_t)tl);
		t0 = vkh_now_ns();
		r = vkQueueSubmit(a.queues[0].queue, 1, &si, fence[1]);
		printf("  A job 2: vkQueueSubmit -> %s\n", vkh_result_str(r));
		VKH_CHECK(h, r == VK_SUCCESS || r == VK_ERROR_DEVICE_LOST);
		r = vkWaitForFences(a.device, 1, &fence[1], VK_TRUE,
		                    LOST_BOUND_NS);
		dt = vkh_now_ns() - t0;
		printf("  A job 2: vkWaitForFences -> %s after %.1f ms\n",
		       vkh_result_str(r), (double)dt / 1e6);
		VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	}
	{
		VkSemaphoreWaitInfo wi = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
			.semaphoreCount = 1,
			.pSemaphores = &tl,
		};
		uint64_t one = 1;

		wi.pValues = &one;
		t0 = vkh_now_ns();
		r = vkWaitSemaphores(a.device, &wi, LOST_BOUND_NS);
		dt = vkh_now_ns() - t0;
		printf("  A timeline wait for the lost job -> %s after %.1f "
		       "ms\n", vkh_result_str(r), (double)dt / 1e6);
		VKH_CHECK_MSG(h, r == VK_ERROR_DEVICE_LOST,
		              "vkWaitSemaphores on a lost device: %s",
		              vkh_result_str(r));
	}
	/* From now on every submit and wait of A reports the loss. */
	t0 = vkh_now_ns();
	VKH_CHECK_RESULT(h, vkQueueWaitIdle(a.queues[0].queue),
	                 VK_ERROR_DEVICE_LOST);
	VKH_CHECK_RESULT(h, vkDeviceWaitIdle(a.device), VK_ERROR_DEVICE_LOST);
	{
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[2],
		};
		r = vkQueueSubmit(a.queues[0].queue, 1, &si, fence[2]);
		VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	}
	r = vkGetFenceStatus(a.device, fence[1]);
	VKH_CHECK_MSG(h, r == VK_ERROR_DEVICE_LOST || r == VK_SUCCESS,
	              "vkGetFenceStatus on A -> %s", vkh_result_str(r));
	dt = vkh_now_ns() - t0;
	VKH_CHECK_MSG(h, dt < LOST_BOUND_NS, "lost-device calls took %.1f ms",
	              (double)dt / 1e6);

	/* B is another context: unaffected. */
	for (uint32_t i = 0; i < 3; i++)
		VKH_CHECK_MSG(h, copy_ok(h, &b, &bb, 10 + i, &r),
		              "B after A was lost (round %u): %s", i,
		              vkh_result_str(r));

	/* Tear down A; must not hang. */
	t0 = vkh_now_ns();
	for (unsigned i = 0; i < 3; i++)
		vkDestroyFence(a.device, fence[i], NULL);
	vkDestroySemaphore(a.device, tl, NULL);
	vkFreeCommandBuffers(a.device, a.queues[0].pool, 3, cb);
	vkh_buffer_destroy(&a, &ab.u);
	vkh_buffer_destroy(&a, &ab.r);
	vkh_device_destroy(h, &a);
	dt = vkh_now_ns() - t0;
	printf("  A destroyed in %.1f ms\n", (double)dt / 1e6);
	VKH_CHECK(h, dt < LOST_BOUND_NS);
	vkh_tolerate_clear();

	VKH_CHECK_MSG(h, copy_ok(h, &b, &bb, 20, &r),
	              "B after A was destroyed: %s", vkh_result_str(r));
	vkh_buffer_destroy(&b, &bb.u);
	vkh_buffer_destroy(&b, &bb.r);
	vkh_device_destroy(h, &b);
}

/* A has two queues (swgpu queues 0 and 1). A submission on queue 1 waits
 * (wait-before-signal) for a timeline value that job 2 on queue 0 -- the
 * faulting one -- would signal. The lost context's sync objects must
 * complete with an error: queue 1's fence and vkQueueWaitIdle report the
 * loss in bounded time instead of waiting forever. B keeps working.
 * Needs a fresh process (queue ids are counted per swgpu device, i.e. per
 * instance), so ctest runs it as its own entry. */
static void
test_device_lost_dependent_queue(struct vkh *h, struct vkh_device *unused)
{
	static struct vkh_device a, b;
	struct dev_bufs ab, bb;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	uint64_t one = 1;
	VkTimelineSemaphoreSubmitInfo tsi = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
	};
	VkSemaphore tl;
	VkFence fence[3];
	VkCommandBuffer cb[3];
	VkResult r;
	uint64_t t0, dt;

	if (!h->is_swgpu) {
		vkh_skip(h, "driver \"%s\" is not swgpu", h->driver.driverName);
		return;
	}
	/* Two queues of one family (on swgpu: the compute engines when
	 * the graphics family has one queue); the faulting job is on the
	 * first queue swgpu creates, queue 0 of device A. */
	uint32_t fam = 0;

	while (fam < h->family_count && h->families[fam].queueCount < 2)
		fam++;
	if (fam == h->family_count) {
		vkh_skip(h, "no family has 2 queues");
		return;
	}
	VKH_CHECK_VK(h, vkh_device_create_explicit(h, fam, 2, NULL, &a));
	VKH_CHECK_VK(h, vkh_device_create(h, VK_QUEUE_TRANSFER_BIT, 1, NULL,
	                                  &b));
	VKH_CHECK_VK(h, bufs_create(h, &a, &ab));
	VKH_CHECK_VK(h, bufs_create(h, &b, &bb));
	VKH_CHECK_VK(h, vkCreateSemaphore(a.device, &sci, NULL, &tl));
	tolerate_device(&a, &ab);
	vkh_tolerate_object(handle(a.queues[1].queue));
	vkh_tolerate_object((uint64_t)a.queues[1].pool);
	vkh_tolerate_object((uint64_t)tl);
	for (unsigned i = 0; i < 3; i++) {
		uint32_t q = i == 2 ? 1 : 0;
		VkBufferCopy c = { .size = 1 << 20 };

		VKH_CHECK_VK(h, vkCreateFence(a.device, &fci, NULL,
		                              &fence[i]));
		vkh_tolerate_object((uint64_t)fence[i]);
		cb[i] = vkh_cmd_begin(&a, q);
		VKH_CHECK(h, cb[i]);
		vkh_tolerate_object(handle(cb[i]));
		vkCmdCopyBuffer(cb[i], ab.u.buffer, ab.r.buffer, 1, &c);
		vkh_cmd_host_barrier(cb[i]);
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb[i]));
	}
	{
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[0],
		};
		VKH_CHECK_VK(h, vkQueueSubmit(a.queues[0].queue, 1, &si,
		                              fence[0]));
		VKH_CHECK_VK(h, vkWaitForFences(a.device, 1, &fence[0],
		                                VK_TRUE, VKH_TIMEOUT_NS));
	}
	/* The dependent submission on queue 1 goes first. */
	{
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = &tsi,
			.waitSemaphoreCount = 1,
			.pWaitSemaphores = &tl,
			.pWaitDstStageMask = &stage,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[2],
		};
		tsi.waitSemaphoreValueCount = 1;
		tsi.pWaitSemaphoreValues = &one;
		VKH_CHECK_VK(h, vkQueueSubmit(a.queues[1].queue, 1, &si,
		                              fence[2]));
	}
	{
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = &tsi,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[1],
			.signalSemaphoreCount = 1,
			.pSignalSemaphores = &tl,
		};
		tsi.waitSemaphoreValueCount = 0;
		tsi.signalSemaphoreValueCount = 1;
		tsi.pSignalSemaphoreValues = &one;
		r = vkQueueSubmit(a.queues[0].queue, 1, &si, fence[1]);
		VKH_CHECK(h, r == VK_SUCCESS || r == VK_ERROR_DEVICE_LOST);
	}
	t0 = vkh_now_ns();
	r = vkWaitForFences(a.device, 1, &fence[1], VK_TRUE, LOST_BOUND_NS);
	printf("  A queue 0 job 2 -> %s\n", vkh_result_str(r));
	VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	r = vkWaitForFences(a.device, 1, &fence[2], VK_TRUE, LOST_BOUND_NS);
	dt = vkh_now_ns() - t0;
	printf("  A queue 1 (waiting on the lost job) -> %s after %.1f ms\n",
	       vkh_result_str(r), (double)dt / 1e6);
	VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	VKH_CHECK_RESULT(h, vkQueueWaitIdle(a.queues[1].queue),
	                 VK_ERROR_DEVICE_LOST);
	VKH_CHECK_MSG(h, vkh_now_ns() - t0 < LOST_BOUND_NS,
	              "loss took too long to reach queue 1");
	VKH_CHECK_MSG(h, copy_ok(h, &b, &bb, 30, &r), "B after A was lost: %s",
	              vkh_result_str(r));

	for (unsigned i = 0; i < 3; i++)
		vkDestroyFence(a.device, fence[i], NULL);
	vkDestroySemaphore(a.device, tl, NULL);
	vkFreeCommandBuffers(a.device, a.queues[0].pool, 2, cb);
	vkFreeCommandBuffers(a.device, a.queues[1].pool, 1, &cb[2]);
	vkh_buffer_destroy(&a, &ab.u);
	vkh_buffer_destroy(&a, &ab.r);
	vkh_device_destroy(h, &a);
	vkh_tolerate_clear();
	VKH_CHECK_MSG(h, copy_ok(h, &b, &bb, 31, &r),
	              "B after A was destroyed: %s", vkh_result_str(r));
	vkh_buffer_destroy(&b, &bb.u);
	vkh_buffer_destroy(&b, &bb.r);
	vkh_device_destroy(h, &b);
}

/* Each test needs its own process: swgpu counts jobs per queue id and
 * queue ids per device (instance), and the fault fires once. */
static const struct vkh_test tests[] = {
	{ "device_lost_one_of_two", test_device_lost, 0, 0 },
	{ "device_lost_dependent_queue", test_device_lost_dependent_queue, 0,
	  0 },
};

int
main(int argc, char **argv)
{
	/* Before vkCreateInstance: swgpu reads it when opening its device.
	 * A hard bound as well, in case a lost device hangs a call. */
	setenv("SWGPU_FAULT", FAULT_SPEC, 0);
	alarm(100);
	if (argc < 2) {
		/* Without a name: the first test only (see tests[]). */
		static char *first[] = { NULL, "device_lost_one_of_two", NULL };
		first[0] = argv[0];
		return vkh_run_tests(2, first, "test_vk_device_lost", tests,
		                     sizeof(tests) / sizeof(tests[0]));
	}
	return vkh_run_tests(argc, argv, "test_vk_device_lost", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
