/* SPDX-License-Identifier: MIT */
/*
 * priorities: a low-priority flood and a high-priority interactive stream
 * on the same engine, and the latency each sees.
 *
 * Three VkDevices on one queue family (the first transfer-only one when
 * there is one, so all three land on one copy engine), each with one
 * queue at a VK_KHR/EXT_global_priority level:
 *   flood  (LOW):  64 MiB device-local copies back to back, two in
 *                  flight, from its own thread, for the whole run;
 *   hi     (HIGH): a 4 KiB copy every 2 ms, submit -> fence latency
 *                  measured on the host, data checked;
 *   lo     (LOW):  the same interactive stream at the flood's level.
 * Phases: the interactive stream alone (baseline), HIGH under the flood,
 * LOW under the flood. Prints p50 / p99 / max latency per phase and the
 * flood's throughput, so one sees both that HIGH is served at once
 * (preemption at 1 MiB chunk boundaries, SWGPU_PREEMPT) and that the
 * flood keeps moving (fair share, no starvation). Nothing is asserted
 * about time; wrong data exits 1. Without a global priority extension it
 * exits 77 (skipped).
 *
 * usage: priorities [-t MS_PER_PHASE (1000)]
 */
#include "vk_harness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLOOD_BYTES (64ull << 20)
#define SMALL 4096u
#define PERIOD_NS 2000000ull
#define MAX_SAMPLES 4096

struct queue_dev {
	VkDevice dev;
	VkQueue queue;
	VkCommandPool pool;
};

struct app {
	struct vkh h;
	const char *ext;
	uint32_t family;
	struct queue_dev flood, hi, lo;
	atomic_bool stop;
	atomic_uint_fast64_t flood_bytes;
	VkResult flood_result;
};

static VkResult
make_device(struct app *a, VkQueueGlobalPriorityKHR level,
            struct queue_dev *q)
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
	VkResult r = vkCreateDevice(a->h.phys, &dci, NULL, &q->dev);

	if (r != VK_SUCCESS)
		return r;
	vkGetDeviceQueue(q->dev, a->family, 0, &q->queue);
	return vkCreateCommandPool(q->dev, &pci, NULL, &q->pool);
}

static void
destroy_device(struct queue_dev *q)
{
	if (!q->dev)
		return;
	vkDeviceWaitIdle(q->dev);
	vkDestroyCommandPool(q->dev, q->pool, NULL);
	vkDestroyDevice(q->dev, NULL);
	q->dev = VK_NULL_HANDLE;
}

/* A buffer with its own memory of a type with want (host-visible ones
 * mapped). */
struct buf {
	VkBuffer b;
	VkDeviceMemory m;
	void *map;
};

static VkResult
make_buffer(struct app *a, VkDevice dev, VkDeviceSize size,
            VkMemoryPropertyFlags want, struct buf *out)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	};
	VkMemoryRequirements mr;
	VkResult r;

	memset(out, 0, sizeof(*out));
	r = vkCreateBuffer(dev, &bci, NULL, &out->b);
	if (r != VK_SUCCESS)
		return r;
	vkGetBufferMemoryRequirements(dev, out->b, &mr);
	int t = vkh_find_memory_type(&a->h, mr.memoryTypeBits, want, 0);
	if (t < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = mr.size, .memoryTypeIndex = (uint32_t)t,
	};
	r = vkAllocateMemory(dev, &ai, NULL, &out->m);
	if (r == VK_SUCCESS)
		r = vkBindBufferMemory(dev, out->b, out->m, 0);
	if (r == VK_SUCCESS && (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
		r = vkMapMemory(dev, out->m, 0, VK_WHOLE_SIZE, 0, &out->map);
	return r;
}

static void
free_buffer(VkDevice dev, struct buf *b)
{
	if (b->b)
		vkDestroyBuffer(dev, b->b, NULL);
	if (b->m)
		vkFreeMemory(dev, b->m, NULL);
}

static VkCommandBuffer
record(VkDevice dev, VkCommandPool pool, VkBuffer src, VkBuffer dst,
       VkDeviceSize size, bool host_barrier)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = pool, .commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkBufferCopy c = { 0, 0, size };
	VkCommandBuffer cb;

	if (vkAllocateCommandBuffers(dev, &ai, &cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	vkBeginCommandBuffer(cb, &bi);
	vkCmdCopyBuffer(cb, src, dst, 1, &c);
	if (host_barrier)
		vkh_cmd_host_barrier(cb);
	return vkEndCommandBuffer(cb) == VK_SUCCESS ? cb : VK_NULL_HANDLE;
}

/* The flood: two 64 MiB copies in flight until stop. */
static void *
flood_main(void *arg)
{
	struct app *a = arg;
	struct queue_dev *q = &a->flood;
	struct buf src, dst;
	VkCommandBuffer cb = VK_NULL_HANDLE;
	VkFence f[2] = { VK_NULL_HANDLE, VK_NULL_HANDLE };
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkResult r;

	r = make_buffer(a, q->dev, FLOOD_BYTES,
	                VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &src);
	if (r == VK_SUCCESS)
		r = make_buffer(a, q->dev, FLOOD_BYTES,
		                VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &dst);
	if (r == VK_SUCCESS)
		cb = record(q->dev, q->pool, src.b, dst.b, FLOOD_BYTES, false);
	for (int i = 0; i < 2 && r == VK_SUCCESS; i++)
		r = vkCreateFence(q->dev, &fci, NULL, &f[i]);
	/* Real bytes to move (untouched memory would read as the zero
	 * page, faster than any real copy). */
	if (r == VK_SUCCESS && cb) {
		VkCommandBufferBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		};
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = q->pool, .commandBufferCount = 1,
		};
		VkCommandBuffer fill;
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1, .pCommandBuffers = &fill,
		};
		r = vkAllocateCommandBuffers(q->dev, &ai, &fill);
		if (r == VK_SUCCESS) {
			vkBeginCommandBuffer(fill, &bi);
			vkCmdFillBuffer(fill, src.b, 0, VK_WHOLE_SIZE,
			                0x5a5a5a5au);
			vkCmdFillBuffer(fill, dst.b, 0, VK_WHOLE_SIZE, 0);
			r = vkEndCommandBuffer(fill);
		}
		if (r == VK_SUCCESS)
			r = vkQueueSubmit(q->queue, 1, &si, f[1]);
		if (r == VK_SUCCESS)
			r = vkWaitForFences(q->dev, 1, &f[1], VK_TRUE,
			                    VKH_TIMEOUT_NS);
		if (r == VK_SUCCESS)
			r = vkResetFences(q->dev, 1, &f[1]);
	}
	if (!cb && r == VK_SUCCESS)
		r = VK_ERROR_OUT_OF_HOST_MEMORY;
	/* The same command buffer twice in flight needs SIMULTANEOUS_USE;
	 * simpler: alternate waits, one submission at a time per fence. */
	for (uint64_t n = 0; r == VK_SUCCESS && !atomic_load(&a->stop); n++) {
		VkFence fence = f[n & 1];
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1, .pCommandBuffers = &cb,
		};
		if (n >= 1) {
			/* cb is pending until the previous submit ends. */
			r = vkWaitForFences(q->dev, 1, &f[(n - 1) & 1], VK_TRUE,
			                    VKH_TIMEOUT_NS);
			if (r == VK_SUCCESS)
				atomic_fetch_add(&a->flood_bytes, FLOOD_BYTES);
		}
		if (r == VK_SUCCESS)
			r = vkResetFences(q->dev, 1, &fence);
		if (r == VK_SUCCESS)
			r = vkQueueSubmit(q->queue, 1, &si, fence);
	}
	vkDeviceWaitIdle(q->dev);
	for (int i = 0; i < 2; i++)
		if (f[i])
			vkDestroyFence(q->dev, f[i], NULL);
	free_buffer(q->dev, &src);
	free_buffer(q->dev, &dst);
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

/* The interactive stream on q for ms: returns the number of wrong
 * copies, prints the latency percentiles. */
static int
interactive(struct app *a, struct queue_dev *q, const char *what,
            uint64_t ms, bool with_flood)
{
	static uint64_t lat[MAX_SAMPLES];
	struct buf src, dst;
	VkCommandBuffer cb = VK_NULL_HANDLE;
	VkFence fence = VK_NULL_HANDLE;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	uint32_t n = 0, bad = 0;
	uint64_t bytes0 = atomic_load(&a->flood_bytes);
	VkResult r;

	r = make_buffer(a, q->dev, SMALL, hv, &src);
	if (r == VK_SUCCESS)
		r = make_buffer(a, q->dev, SMALL, hv, &dst);
	if (r == VK_SUCCESS)
		cb = record(q->dev, q->pool, src.b, dst.b, SMALL, true);
	if (r == VK_SUCCESS)
		r = vkCreateFence(q->dev, &fci, NULL, &fence);
	uint64_t start = vkh_now_ns(), end = start + ms * 1000000u;
	for (uint64_t next = start; r == VK_SUCCESS && cb && n < MAX_SAMPLES &&
	     vkh_now_ns() < end; next += PERIOD_NS) {
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1, .pCommandBuffers = &cb,
		};
		uint32_t *s = src.map, *d = dst.map;

		sleep_until(next);
		for (uint32_t i = 0; i < SMALL / 4; i++)
			s[i] = n * 0x9e3779b9u + i;
		uint64_t t0 = vkh_now_ns();
		r = vkQueueSubmit(q->queue, 1, &si, fence);
		if (r == VK_SUCCESS)
			r = vkWaitForFences(q->dev, 1, &fence, VK_TRUE,
			                    VKH_TIMEOUT_NS);
		lat[n] = vkh_now_ns() - t0;
		if (r == VK_SUCCESS)
			r = vkResetFences(q->dev, 1, &fence);
		bad += memcmp(s, d, SMALL) != 0;
		n++;
	}
	double secs = (double)(vkh_now_ns() - start) / 1e9;
	uint64_t flood = atomic_load(&a->flood_bytes) - bytes0;
	if (r != VK_SUCCESS || !n)
		fprintf(stderr, "  %s: %s\n", what, vkh_result_str(r));
	if (n) {
		qsort(lat, n, sizeof(lat[0]), cmp_u64);
		printf("  %-28s %5u copies  p50 %8.1f us  p99 %8.1f us  max "
		       "%8.1f us", what, n, lat[n / 2] / 1e3,
		       lat[n * 99 / 100] / 1e3, lat[n - 1] / 1e3);
		if (with_flood)
			printf("  | flood %.2f GB/s", (double)flood / secs / 1e9);
		printf("%s\n", bad ? "  WRONG DATA" : "");
	}
	if (fence)
		vkDestroyFence(q->dev, fence, NULL);
	free_buffer(q->dev, &src);
	free_buffer(q->dev, &dst);
	return bad + (r != VK_SUCCESS || !n);
}

static bool
pick(struct app *a)
{
	VkExtensionProperties e[256];
	uint32_t n = 256;

	vkEnumerateDeviceExtensionProperties(a->h.phys, NULL, &n, e);
	for (uint32_t i = 0; i < n && !a->ext; i++)
		if (!strcmp(e[i].extensionName,
		            VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME))
			a->ext = VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME;
	for (uint32_t i = 0; i < n && !a->ext; i++)
		if (!strcmp(e[i].extensionName,
		            VK_EXT_GLOBAL_PRIORITY_EXTENSION_NAME))
			a->ext = VK_EXT_GLOBAL_PRIORITY_EXTENSION_NAME;
	a->family = 0;
	for (uint32_t f = 0; f < a->h.family_count; f++) {
		VkQueueFlags fl = a->h.families[f].queueFlags;
		if ((fl & VK_QUEUE_TRANSFER_BIT) &&
		    !(fl & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))) {
			a->family = f;
			break;
		}
	}
	return a->ext != NULL;
}

int
main(int argc, char **argv)
{
	static struct app a;
	uint64_t ms = 1000;
	pthread_t flood;
	int bad = 0, status = 1;
	VkResult r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "-t"))
		ms = strtoull(argv[2], NULL, 10);
	if (argc != 1 && (argc != 3 || ms < 10 || ms > 60000)) {
		fprintf(stderr, "usage: %s [-t MS_PER_PHASE (10..60000, "
		        "1000)]\n", argv[0]);
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
	printf("  %s, queue family %u; flood: 64 MiB copies at LOW; "
	       "interactive: 4 KiB copy every 2 ms\n", a.ext, a.family);
	r = make_device(&a, VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR, &a.flood);
	if (r == VK_SUCCESS)
		r = make_device(&a, VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR, &a.hi);
	if (r == VK_SUCCESS)
		r = make_device(&a, VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR, &a.lo);
	if (r != VK_SUCCESS)
		goto out_dev;
	bad += interactive(&a, &a.hi, "HIGH, alone", ms, false);
	if (pthread_create(&flood, NULL, flood_main, &a)) {
		r = VK_ERROR_INITIALIZATION_FAILED;
		goto out_dev;
	}
	/* Let the flood get going. */
	sleep_until(vkh_now_ns() + 50000000u);
	bad += interactive(&a, &a.hi, "HIGH, under the LOW flood", ms, true);
	bad += interactive(&a, &a.lo, "LOW, under the LOW flood", ms, true);
	atomic_store(&a.stop, true);
	pthread_join(flood, NULL);
	r = a.flood_result;
	printf("  flood moved %.1f GiB in all\n",
	       (double)atomic_load(&a.flood_bytes) / (1u << 30));
	status = bad || r != VK_SUCCESS;

out_dev:
	destroy_device(&a.lo);
	destroy_device(&a.hi);
	destroy_device(&a.flood);
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "priorities: %s\n", vkh_result_str(r));
	if (vkh_finish(&a.h))
		status = 1;
	printf("priorities: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
