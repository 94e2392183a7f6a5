/* SPDX-License-Identifier: MIT */
/*
 * priorities: a low-priority flood and a high-priority interactive stream
 * on the same engine, and the latency each sees.
 *
 * Three VkDevices on one queue family (the first transfer-only one when
 * there is one), each with one queue at a VK_KHR/EXT_global_priority
 * level. Devices, not queues of one device: the level is per
 * VkDeviceQueueCreateInfo, one per family, so queues of one device and
 * one family share it; and queue 0 of each device is the same engine on
 * swgpu, so the three compete for one engine:
 *   flood  (LOW):  64 MiB device-local copies, three in flight, from its
 *                  own thread, for the whole run;
 *   hi     (HIGH): a 4 KiB copy every 2 ms, submit -> fence latency
 *                  measured on the host, data checked;
 *   lo     (LOW):  the same interactive stream at the flood's level.
 * Phases, a third of the run each: the interactive stream alone
 * (baseline), HIGH under the flood, LOW under the flood. Prints p50 / p99
 * / max latency per phase and the flood's throughput, so one sees both
 * that HIGH is served at once (preemption at 1 MiB chunk boundaries,
 * SWGPU_PREEMPT) and that the flood keeps moving (fair share, no
 * starvation). Nothing is asserted about time; wrong data exits 1.
 * Without a global priority extension (or the right to use HIGH) it
 * exits 77 (skipped).
 *
 * usage: priorities [-t TOTAL_MS (1500)]
 */
#include "vk_harness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLOOD_BYTES (64ull << 20)
#define FLOOD_DEPTH 3
#define SMALL 4096u
#define PERIOD_NS 2000000ull
#define MAX_SAMPLES 32768   /* -t 180000: 30000 per phase */
#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)

struct app {
	struct vkh h;
	const char *ext;
	uint32_t family;
	struct vkh_device flood, hi, lo;   /* one queue each: queues[0] */
	atomic_bool stop, flood_ready;   /* ready: set up, copies queued */
	atomic_uint_fast64_t flood_bytes;  /* copies completed */
	VkResult flood_result;
};

static VkResult
make_device(struct app *a, VkQueueGlobalPriorityKHR level,
            struct vkh_device *d)
{
	VkDeviceQueueGlobalPriorityCreateInfoKHR gci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_GLOBAL_PRIORITY_CREATE_INFO_KHR,
		.globalPriority = level,
	};
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.pNext = &gci, .queueFamilyIndex = a->family, .queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
		.enabledExtensionCount = 1, .ppEnabledExtensionNames = &a->ext,
	};
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = a->family,
	};
	struct vkh_queue *q = &d->queues[0];
	VkResult r = vkCreateDevice(a->h.phys, &dci, NULL, &d->device);

	if (r != VK_SUCCESS)
		return r;
	/* The harness's buffer and command helpers take a vkh_device. */
	d->queue_count = d->distinct_queues = d->distinct_families = 1;
	q->family = a->family;
	q->flags = a->h.families[a->family].queueFlags;
	vkGetDeviceQueue(d->device, a->family, 0, &q->queue);
	return vkCreateCommandPool(d->device, &pci, NULL, &q->pool);
}

static void
destroy_device(struct app *a, struct vkh_device *d)
{
	if (d->device)
		vkDeviceWaitIdle(d->device);
	vkh_device_destroy(&a->h, d);
}

/* A copy of size bytes from the start of src to dst, reusable. */
static VkCommandBuffer
record(struct vkh_device *d, VkBuffer src, VkBuffer dst, VkDeviceSize size,
       bool host_barrier)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = d->queues[0].pool, .commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkBufferCopy c = { 0, 0, size };
	VkCommandBuffer cb;

	if (vkAllocateCommandBuffers(d->device, &ai, &cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	vkBeginCommandBuffer(cb, &bi);
	vkCmdCopyBuffer(cb, src, dst, 1, &c);
	if (host_barrier)
		vkh_cmd_host_barrier(cb);
	return vkEndCommandBuffer(cb) == VK_SUCCESS ? cb : VK_NULL_HANDLE;
}

static VkResult
submit(struct vkh_device *d, VkCommandBuffer cb, VkFence fence)
{
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1, .pCommandBuffers = &cb,
	};

	return vkQueueSubmit(d->queues[0].queue, 1, &si, fence);
}

/* The flood: copy n goes into destination n % FLOOD_DEPTH once copy
 * n - FLOOD_DEPTH is done, so FLOOD_DEPTH copies are always queued (one
 * destination per copy in flight: two into one buffer would race). */
static void *
flood_main(void *arg)
{
	struct app *a = arg;
	struct vkh_device *d = &a->flood;
	struct vkh_buffer src, dst[FLOOD_DEPTH];
	VkCommandBuffer cb[FLOOD_DEPTH] = { 0 };
	VkFence f[FLOOD_DEPTH] = { 0 };
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkResult r;

	memset(dst, 0, sizeof(dst));
	r = vkh_buffer_create(&a->h, d, FLOOD_BYTES, XFER,
	                      VKH_MEM_DEVICE_LOCAL, -1, &src);
	for (int i = 0; i < FLOOD_DEPTH && r == VK_SUCCESS; i++) {
		r = vkh_buffer_create(&a->h, d, FLOOD_BYTES, XFER,
		                      VKH_MEM_DEVICE_LOCAL, -1, &dst[i]);
		if (r == VK_SUCCESS)
			r = vkCreateFence(d->device, &fci, NULL, &f[i]);
		if (r == VK_SUCCESS &&
		    !(cb[i] = record(d, src.buffer, dst[i].buffer, FLOOD_BYTES,
		                     false)))
			r = VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	/* Real bytes to move (untouched memory would read as the zero
	 * page, faster than any real copy). */
	if (r == VK_SUCCESS) {
		VkCommandBuffer fill = vkh_cmd_begin(d, 0);

		if (fill) {
			vkCmdFillBuffer(fill, src.buffer, 0, VK_WHOLE_SIZE,
			                0x5a5a5a5au);
			for (int i = 0; i < FLOOD_DEPTH; i++)
				vkCmdFillBuffer(fill, dst[i].buffer, 0,
				                VK_WHOLE_SIZE, 0);
		}
		r = vkh_cmd_submit_wait(d, 0, fill);
	}
	for (uint64_t n = 0; r == VK_SUCCESS && !atomic_load(&a->stop); n++) {
		uint32_t s = (uint32_t)(n % FLOOD_DEPTH);

		if (n >= FLOOD_DEPTH) {
			r = vkWaitForFences(d->device, 1, &f[s], VK_TRUE,
			                    VKH_TIMEOUT_NS);
			if (r == VK_SUCCESS) {
				atomic_fetch_add(&a->flood_bytes, FLOOD_BYTES);
				r = vkResetFences(d->device, 1, &f[s]);
			}
		}
		if (r == VK_SUCCESS)
			r = submit(d, cb[s], f[s]);
		if (n + 1 == FLOOD_DEPTH)
			atomic_store(&a->flood_ready, true);
	}
	atomic_store(&a->flood_ready, true);
	vkDeviceWaitIdle(d->device);
	for (int i = 0; i < FLOOD_DEPTH; i++) {
		if (f[i])
			vkDestroyFence(d->device, f[i], NULL);
		vkh_buffer_destroy(d, &dst[i]);
	}
	vkh_buffer_destroy(d, &src);
	a->flood_result = r;
	return NULL;
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static void
sleep_until(uint64_t t)
{
	uint64_t now = vkh_now_ns();

	if (t > now) {
		struct timespec ts = { (time_t)((t - now) / 1000000000u),
		                       (long)((t - now) % 1000000000u) };
		nanosleep(&ts, NULL);
	}
}

/* The interactive stream on d for ms: prints the latency percentiles
 * (and the flood's throughput meanwhile); returns non-zero on wrong data
 * or an error. */
static int
interactive(struct app *a, struct vkh_device *d, const char *what,
            uint64_t ms, bool with_flood)
{
	static uint64_t lat[MAX_SAMPLES];
	struct vkh_buffer src, dst;
	VkCommandBuffer cb = VK_NULL_HANDLE;
	VkFence fence = VK_NULL_HANDLE;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	uint32_t n = 0, bad = 0;
	uint64_t bytes0 = atomic_load(&a->flood_bytes);
	VkResult r;

	memset(&dst, 0, sizeof(dst));
	r = vkh_buffer_create(&a->h, d, SMALL, XFER, VKH_MEM_UPLOAD, -1, &src);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(&a->h, d, SMALL, XFER, VKH_MEM_READBACK,
		                      -1, &dst);
	if (r == VK_SUCCESS && !(cb = record(d, src.buffer, dst.buffer, SMALL,
	                                     true)))
		r = VK_ERROR_OUT_OF_HOST_MEMORY;
	if (r == VK_SUCCESS)
		r = vkCreateFence(d->device, &fci, NULL, &fence);
	uint64_t start = vkh_now_ns(), end = start + ms * 1000000u;
	/* Submission 0 warms the queue up (first-use costs of the driver):
	 * checked, not timed. */
	for (uint64_t next = start, it = 0; r == VK_SUCCESS &&
	     n < MAX_SAMPLES && vkh_now_ns() < end; next += PERIOD_NS, it++) {
		uint32_t *s = src.map;

		sleep_until(next);
		for (uint32_t i = 0; i < SMALL / 4; i++)
			s[i] = (uint32_t)it * 0x9e3779b9u + i;
		uint64_t t0 = vkh_now_ns();
		r = submit(d, cb, fence);
		if (r == VK_SUCCESS)
			r = vkWaitForFences(d->device, 1, &fence, VK_TRUE,
			                    VKH_TIMEOUT_NS);
		lat[n] = vkh_now_ns() - t0;
		if (r == VK_SUCCESS)
			r = vkResetFences(d->device, 1, &fence);
		vkh_buffer_invalidate(&a->h, d, &dst);
		bad += r == VK_SUCCESS && memcmp(s, dst.map, SMALL) != 0;
		n += it > 0;
	}
	double secs = (double)(vkh_now_ns() - start) / 1e9;
	uint64_t flood = atomic_load(&a->flood_bytes) - bytes0;
	if (r != VK_SUCCESS)
		fprintf(stderr, "  %s: %s\n", what, vkh_result_str(r));
	else if (!n)
		printf("  %-26s no copy timed: the warm-up one took the "
		       "whole phase\n", what);
	if (n) {
		qsort(lat, n, sizeof(lat[0]), cmp_u64);
		printf("  %-26s %4u copies  p50 %8.1f us  p99 %8.1f us  max "
		       "%8.1f us", what, n, lat[n / 2] / 1e3,
		       lat[n * 99 / 100] / 1e3, lat[n - 1] / 1e3);
		if (with_flood)
			printf("  | flood %.2f GB/s", (double)flood / secs / 1e9);
		printf("%s\n", bad ? "  WRONG DATA" : "");
	}
	if (fence)
		vkDestroyFence(d->device, fence, NULL);
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &dst);
	return bad + (r != VK_SUCCESS);
}

/* The extension (KHR preferred) and the first transfer-only family, else
 * family 0. */
static bool
pick(struct app *a)
{
	static const char *const names[] = {
		VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME,
		VK_EXT_GLOBAL_PRIORITY_EXTENSION_NAME,
	};
	VkExtensionProperties e[256];
	uint32_t n = 256;

	vkEnumerateDeviceExtensionProperties(a->h.phys, NULL, &n, e);
	for (uint32_t k = 0; k < 2 && !a->ext; k++)
		for (uint32_t i = 0; i < n; i++)
			if (!strcmp(e[i].extensionName, names[k]))
				a->ext = names[k];
	a->family = 0;
	for (uint32_t f = a->h.family_count; f-- > 0;) {
		VkQueueFlags fl = a->h.families[f].queueFlags;
		if ((fl & VK_QUEUE_TRANSFER_BIT) &&
		    !(fl & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
			a->family = f;
	}
	return a->ext != NULL;
}

int
main(int argc, char **argv)
{
	static struct app a;
	uint64_t ms = 1500;
	pthread_t flood;
	int bad = 0, status = 1;
	bool skip = false;
	VkResult r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "-t"))
		ms = strtoull(argv[2], NULL, 10);
	if (argc != 1 && (argc != 3 || ms < 30 || ms > 180000)) {
		fprintf(stderr, "usage: %s [-t TOTAL_MS (30..180000, "
		        "1500)]\n", argv[0]);
		return 2;
	}
	r = vkh_init(&a.h, "priorities", VK_API_VERSION_1_3);
	if (r != VK_SUCCESS)
		goto out;
	printf("priorities: device \"%s\" (driver %s)\n", a.h.props.deviceName,
	       a.h.driver.driverName);
	if (!pick(&a)) {
		printf("priorities: no VK_KHR/EXT_global_priority: skipped\n");
		vkh_finish(&a.h);
		return VKH_EXIT_SKIP;
	}
	printf("  %s, queue family %u; flood: 64 MiB copies at LOW, %d in "
	       "flight; interactive: 4 KiB copy every 2 ms, %llu ms per "
	       "phase\n", a.ext, a.family, FLOOD_DEPTH,
	       (unsigned long long)ms / 3);
	ms /= 3;
	r = make_device(&a, VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR, &a.flood);
	if (r == VK_SUCCESS)
		r = make_device(&a, VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR, &a.hi);
	if (r == VK_SUCCESS)
		r = make_device(&a, VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR, &a.lo);
	if (r == VK_ERROR_NOT_PERMITTED_KHR) {
		/* HIGH may need privileges on other drivers. */
		printf("priorities: HIGH global priority not permitted: "
		       "skipped\n");
		skip = true;
		status = 0;
		r = VK_SUCCESS;
	}
	if (r != VK_SUCCESS || skip)
		goto out_dev;
	bad += interactive(&a, &a.hi, "HIGH, alone", ms, false);
	if (pthread_create(&flood, NULL, flood_main, &a)) {
		r = VK_ERROR_INITIALIZATION_FAILED;
		goto out_dev;
	}
	/* Its set-up (256 MiB to allocate and fill) is not part of the
	 * phases: under load it could take one of them whole. */
	while (!atomic_load(&a.flood_ready))
		sleep_until(vkh_now_ns() + 1000000u);
	bad += interactive(&a, &a.hi, "HIGH, under the LOW flood", ms, true);
	bad += interactive(&a, &a.lo, "LOW, under the LOW flood", ms, true);
	atomic_store(&a.stop, true);
	pthread_join(flood, NULL);
	r = a.flood_result;
	printf("  flood moved %.1f GiB in all\n",
	       (double)atomic_load(&a.flood_bytes) / (1u << 30));
	status = bad || r != VK_SUCCESS;

out_dev:
	destroy_device(&a, &a.lo);
	destroy_device(&a, &a.hi);
	destroy_device(&a, &a.flood);
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "priorities: %s\n", vkh_result_str(r));
	if (vkh_finish(&a.h))
		status = 1;
	if (skip && !status)
		return VKH_EXIT_SKIP;
	printf("priorities: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
