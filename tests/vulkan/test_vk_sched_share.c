/* SPDX-License-Identifier: MIT */
/*
 * Engines shared under long and endless work (issue 20), as a new user
 * tries it: several VkDevices in one process, each on its own queue 0 of
 * the compute family.
 *
 * endless_beside_small: device A dispatches one workgroup that never
 * ends (sched_endless.comp); device B then submits a 4096-invocation
 * dispatch and waits. B's fence must signal, with B's data right, while
 * A is still running (A's fence not signalled, its workgroup not
 * finished): B never waits for A's hang to be detected. Then A is lost
 * (VK_ERROR_DEVICE_LOST, the watchdog) and a new device works. Drivers
 * without a watchdog (lavapipe) are released by the host instead: there
 * the test checks itself (B's data, validation).
 *
 * interactive_beside_long: three devices each run a long, legitimate
 * dispatch (sched_long.comp: many workgroups, each finishing); a fourth,
 * interactive device submits small dispatches one after the other and
 * waits for each. All of them complete, with correct data, while every
 * long dispatch is still running.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vkh_compute.h"

#include "sched_endless.spv.h"
#include "sched_long.spv.h"
#include "sched_small.spv.h"

#define SMALL_N 4096u
#define SMALL_GROUPS (SMALL_N / 64u)
#define LONG_DEVICES 3u
#define LONG_GROUPS 2048u
#define INTERACTIVE_ROUNDS 16u

struct flags {
	uint32_t go, started, finished;
};

static uint64_t
handle(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* The compute-only family (its own engines on swgpu), else the first
 * family with compute. */
static uint32_t
compute_family(const struct vkh *h)
{
	uint32_t first = UINT32_MAX;

	for (uint32_t f = 0; f < h->family_count; f++) {
		VkQueueFlags fl = h->families[f].queueFlags;
		if (!(fl & VK_QUEUE_COMPUTE_BIT))
			continue;
		if (!(fl & VK_QUEUE_GRAPHICS_BIT))
			return f;
		if (first == UINT32_MAX)
			first = f;
	}
	return first;
}

static bool
wait_flag(const volatile uint32_t *p, uint64_t ms)
{
	uint64_t deadline = vkh_now_ns() + ms * 1000000ull;

	while (!__atomic_load_n(p, __ATOMIC_ACQUIRE) &&
	       vkh_now_ns() < deadline) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return __atomic_load_n(p, __ATOMIC_ACQUIRE) != 0;
}

/* A device running one dispatch of spv over a flags buffer. */
struct held {
	struct vkh_device d;
	struct vkh_buffer flags;
	struct vkh_pipe pipe;
	VkCommandBuffer cb;
	VkFence fence;
};

/* Returns the first failing VkResult (the caller checks it). */
#define TRY(expr)                                                          \
	do {                                                               \
		VkResult try_r_ = (expr);                                  \
		if (try_r_ != VK_SUCCESS)                                  \
			return try_r_;                                     \
	} while (0)

static VkResult
held_start(struct vkh *h, struct held *x, uint32_t fam, const uint32_t *spv,
           size_t spv_size, uint32_t groups)
{
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };

	TRY(vkh_device_create_explicit(h, fam, 1, NULL, &x->d));
	TRY(vkh_host_buffer(h, &x->d, 4096, 0, &x->flags));
	memset(x->flags.map, 0, 4096);
	vkh_buffer_flush(h, &x->d, &x->flags);
	TRY(vkh_pipe_create_simple(&x->d, spv, spv_size, 1, 0, NULL,
	                           &x->pipe));
	vkh_pipe_set_buffer(&x->d, &x->pipe, 0, 0,
	                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    x->flags.buffer, 0, VK_WHOLE_SIZE);
	x->cb = vkh_cmd_begin(&x->d, 0);
	if (x->cb == VK_NULL_HANDLE)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	vkh_pipe_bind(x->cb, &x->pipe, 0, NULL, NULL);
	vkCmdDispatch(x->cb, groups, 1, 1);
	vkh_cmd_compute_host_barrier(x->cb);
	TRY(vkEndCommandBuffer(x->cb));
	TRY(vkCreateFence(x->d.device, &fci, NULL, &x->fence));
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &x->cb,
	};
	return vkQueueSubmit(x->d.queues[0].queue, 1, &si, x->fence);
}

static volatile struct flags *
held_flags(struct held *x)
{
	return x->flags.map;
}

static void
held_destroy(struct vkh *h, struct held *x)
{
	vkDestroyFence(x->d.device, x->fence, NULL);
	vkFreeCommandBuffers(x->d.device, x->d.queues[0].pool, 1, &x->cb);
	vkh_pipe_destroy(&x->d, &x->pipe);
	vkh_buffer_destroy(&x->d, &x->flags);
	vkh_device_destroy(h, &x->d);
}

/* The small dispatch on d with seed; true when every word is right. */
static bool
small_ok(struct vkh *h, struct vkh_device *d, struct vkh_pipe *p,
         struct vkh_buffer *out, uint32_t seed, VkResult *res)
{
	memset(out->map, 0, SMALL_N * 4u);
	vkh_buffer_flush(h, d, out);
	*res = vkh_dispatch_sync(d, 0, p, &seed, SMALL_GROUPS, 1, 1);
	if (*res != VK_SUCCESS)
		return false;
	const uint32_t *v = out->map;
	for (uint32_t i = 0; i < SMALL_N; i++)
		if (v[i] != ((i * 2654435761u) ^ seed))
			return false;
	return true;
}

struct small {
	struct vkh_device d;
	struct vkh_buffer out;
	struct vkh_pipe pipe;
};

static VkResult
small_create(struct vkh *h, struct small *s, uint32_t fam)
{
	TRY(vkh_device_create_explicit(h, fam, 1, NULL, &s->d));
	TRY(vkh_host_buffer(h, &s->d, SMALL_N * 4u, 0, &s->out));
	TRY(vkh_pipe_create_simple(&s->d, sched_small_spv,
	                           sizeof(sched_small_spv), 1, 4, NULL,
	                           &s->pipe));
	vkh_pipe_set_buffer(&s->d, &s->pipe, 0, 0,
	                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, s->out.buffer,
	                    0, VK_WHOLE_SIZE);
	return VK_SUCCESS;
}

static void
small_destroy(struct vkh *h, struct small *s)
{
	vkh_pipe_destroy(&s->d, &s->pipe);
	vkh_buffer_destroy(&s->d, &s->out);
	vkh_device_destroy(h, &s->d);
}

static void
test_endless_beside_small(struct vkh *h, struct vkh_device *unused)
{
	/* Static: a failed check returns early and the runner destroys
	 * the devices still registered with the harness. */
	static struct held a;
	static struct small b, c;
	uint32_t fam = compute_family(h);
	VkResult r;

	(void)unused;
	VKH_CHECK(h, fam != UINT32_MAX);
	/* A first: its queue 0 is the first queue of the family. */
	VKH_CHECK_VK(h, held_start(h, &a, fam, sched_endless_spv,
	                           sizeof(sched_endless_spv), 1));
	volatile struct flags *af = held_flags(&a);
	VKH_CHECK_MSG(h, wait_flag(&af->started, 30000),
	              "A's workgroup never started");
	VKH_CHECK_VK(h, small_create(h, &b, fam));

	bool b_ok = small_ok(h, &b.d, &b.pipe, &b.out, 0x5eed0001u, &r);
	/* Read before anything can end A. */
	VkResult a_status = vkGetFenceStatus(a.d.device, a.fence);
	uint32_t a_finished = __atomic_load_n(&af->finished,
	                                      __ATOMIC_ACQUIRE);
	printf("  B: %s, data %s; A then: %s\n", vkh_result_str(r),
	       b_ok ? "right" : "WRONG", vkh_result_str(a_status));
	VKH_CHECK_MSG(h, b_ok, "B's dispatch: %s", vkh_result_str(r));
	/* llvmpipe bounds every loop (65535 rounds): there A may end. */
	if (h->is_swgpu)
		VKH_CHECK_MSG(h, a_status == VK_NOT_READY && !a_finished,
		              "A was no longer running when B completed (%s)",
		              vkh_result_str(a_status));

	if (h->is_swgpu) {
		/* Nobody ever writes go: the watchdog declares A lost. */
		vkh_tolerate_object(handle(a.d.device));
		vkh_tolerate_object(handle(a.d.queues[0].queue));
		vkh_tolerate_object((uint64_t)a.d.queues[0].pool);
		vkh_tolerate_object((uint64_t)a.fence);
		vkh_tolerate_object(handle(a.cb));
		r = vkWaitForFences(a.d.device, 1, &a.fence, VK_TRUE,
		                    4 * VKH_TIMEOUT_NS);
		VKH_CHECK_RESULT(h, r, VK_ERROR_DEVICE_LOST);
	} else {
		__atomic_store_n(&af->go, 1u, __ATOMIC_RELEASE);
		VKH_CHECK_VK(h, vkWaitForFences(a.d.device, 1, &a.fence,
		                                VK_TRUE, VKH_TIMEOUT_NS));
	}
	/* B is another context: unaffected by A's loss. */
	VKH_CHECK_MSG(h, small_ok(h, &b.d, &b.pipe, &b.out, 0x5eed0002u, &r),
	              "B after A: %s", vkh_result_str(r));
	held_destroy(h, &a);
	vkh_tolerate_clear();
	small_destroy(h, &b);

	/* A new device works. */
	VKH_CHECK_VK(h, small_create(h, &c, fam));
	VKH_CHECK_MSG(h, small_ok(h, &c.d, &c.pipe, &c.out, 0x5eed0003u, &r),
	              "new device: %s", vkh_result_str(r));
	small_destroy(h, &c);
}

static void
test_interactive_beside_long(struct vkh *h, struct vkh_device *unused)
{
	static struct held l[LONG_DEVICES];
	static struct small s;
	uint32_t fam = compute_family(h);
	uint32_t rounds = 0;
	VkResult r = VK_SUCCESS;

	(void)unused;
	VKH_CHECK(h, fam != UINT32_MAX);
	for (uint32_t i = 0; i < LONG_DEVICES; i++)
		VKH_CHECK_VK(h, held_start(h, &l[i], fam, sched_long_spv,
		                           sizeof(sched_long_spv), LONG_GROUPS));
	for (uint32_t i = 0; i < LONG_DEVICES; i++)
		VKH_CHECK_MSG(h, wait_flag(&held_flags(&l[i])->started, 30000),
		              "long dispatch %u never started", i);
	VKH_CHECK_VK(h, small_create(h, &s, fam));
	/* lavapipe shares one compute thread pool between devices: the
	 * small dispatches would wait for the long ones. There the test
	 * only checks itself (data, validation): let the long ones end. */
	if (!h->is_swgpu)
		for (uint32_t i = 0; i < LONG_DEVICES; i++)
			__atomic_store_n(&held_flags(&l[i])->go, 1u,
			                 __ATOMIC_RELEASE);
	for (; rounds < INTERACTIVE_ROUNDS; rounds++)
		if (!small_ok(h, &s.d, &s.pipe, &s.out, 0x1000u + rounds, &r))
			break;
	/* Still running, all of them, after the last interactive round. */
	uint32_t running = 0;
	for (uint32_t i = 0; i < LONG_DEVICES; i++) {
		VkResult st = vkGetFenceStatus(l[i].d.device, l[i].fence);
		uint32_t fin = __atomic_load_n(&held_flags(&l[i])->finished,
		                               __ATOMIC_ACQUIRE);
		printf("  long %u: %s, %u of %u groups done\n", i,
		       vkh_result_str(st), fin, LONG_GROUPS);
		running += st == VK_NOT_READY && fin < LONG_GROUPS;
	}
	for (uint32_t i = 0; i < LONG_DEVICES; i++)
		__atomic_store_n(&held_flags(&l[i])->go, 1u,
		                 __ATOMIC_RELEASE);
	printf("  %u interactive rounds (%s)\n", rounds, vkh_result_str(r));
	VKH_CHECK_MSG(h, rounds == INTERACTIVE_ROUNDS,
	              "interactive round %u: %s", rounds, vkh_result_str(r));
	for (uint32_t i = 0; i < LONG_DEVICES; i++) {
		VKH_CHECK_VK(h, vkWaitForFences(l[i].d.device, 1, &l[i].fence,
		                                VK_TRUE, 6 * VKH_TIMEOUT_NS));
		VKH_CHECK(h, held_flags(&l[i])->finished == LONG_GROUPS);
	}
	/* swgpu shares its engines by time slices; lavapipe runs each
	 * device on its own thread, which the OS shares: reported there. */
	if (h->is_swgpu)
		VKH_CHECK_MSG(h, running == LONG_DEVICES, "only %u of %u long "
		              "dispatches still ran after the interactive "
		              "rounds", running, LONG_DEVICES);
	small_destroy(h, &s);
	for (uint32_t i = 0; i < LONG_DEVICES; i++)
		held_destroy(h, &l[i]);
}

int
main(int argc, char **argv)
{
	static const struct vkh_test tests[] = {
		{ "endless_beside_small", test_endless_beside_small, 0,
		  VK_QUEUE_COMPUTE_BIT },
		{ "interactive_beside_long", test_interactive_beside_long, 0,
		  VK_QUEUE_COMPUTE_BIT },
	};

	return vkh_run_tests(argc, argv, "test_vk_sched_share", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
