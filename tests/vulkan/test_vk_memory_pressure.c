/* SPDX-License-Identifier: MIT */
/*
 * Device-local memory past the VRAM budget, through the loader (issue 9):
 * allocations keep succeeding while system memory lasts, the data of every
 * buffer survives eviction and promotion byte for byte, VK_EXT_memory_budget
 * shows VRAM within its budget and the excess in the system heap,
 * VK_EXT_memory_priority / VK_EXT_pageable_device_local_memory steer which
 * allocation is evicted, and running out of both heaps is
 * VK_ERROR_OUT_OF_DEVICE_MEMORY with every byte given back on free.
 *
 * ctest runs it with SWGPU_VRAM_BUDGET_MB=16 and SWGPU_SYSTEM_MB=128; the
 * data tests also run on lavapipe (no budget to pass there).
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024ull * 1024ull)
#define BUF_SIZE (4 * MIB)

static bool
has_ext(struct vkh *h, const char *name)
{
	VkExtensionProperties props[128];
	uint32_t n = 128;

	if (vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, props) <
	    0)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(props[i].extensionName, name))
			return true;
	return false;
}

static void
budget_query(struct vkh *h, VkPhysicalDeviceMemoryBudgetPropertiesEXT *b)
{
	VkPhysicalDeviceMemoryProperties2 p = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
		.pNext = b,
	};

	memset(b, 0, sizeof(*b));
	b->sType =
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
	vkGetPhysicalDeviceMemoryProperties2(h->phys, &p);
}

/* A buffer in its own device-local allocation (priority < 0: no
 * VkMemoryPriorityAllocateInfoEXT). */
struct dl_buf {
	VkBuffer buffer;
	VkDeviceMemory memory;
	uint32_t seed;
};

static VkResult
dl_create(struct vkh *h, struct vkh_device *d, VkDeviceSize size,
          float priority, struct dl_buf *out)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	};
	VkMemoryRequirements req;
	VkMemoryPriorityAllocateInfoEXT pri = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_PRIORITY_ALLOCATE_INFO_EXT,
		.priority = priority,
	};
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.pNext = priority >= 0.0f ? &pri : NULL,
	};
	VkResult r;

	memset(out, 0, sizeof(*out));
	r = vkCreateBuffer(d->device, &bci, NULL, &out->buffer);
	if (r != VK_SUCCESS)
		return r;
	vkGetBufferMemoryRequirements(d->device, out->buffer, &req);
	ai.allocationSize = req.size;
	ai.memoryTypeIndex =
		(uint32_t)vkh_memtype_device_local(h, req.memoryTypeBits);
	r = vkAllocateMemory(d->device, &ai, NULL, &out->memory);
	if (r == VK_SUCCESS)
		r = vkBindBufferMemory(d->device, out->buffer, out->memory, 0);
	if (r != VK_SUCCESS) {
		if (out->memory)
			vkFreeMemory(d->device, out->memory, NULL);
		vkDestroyBuffer(d->device, out->buffer, NULL);
		memset(out, 0, sizeof(*out));
	}
	return r;
}

static void
dl_destroy(struct vkh_device *d, struct dl_buf *b)
{
	if (b->buffer)
		vkDestroyBuffer(d->device, b->buffer, NULL);
	if (b->memory)
		vkFreeMemory(d->device, b->memory, NULL);
	memset(b, 0, sizeof(*b));
}

/* Upload pattern seed into b through the GPU (staging -> b). */
static bool
dl_write(struct vkh_device *d, struct vkh_buffer *up, struct dl_buf *b,
         VkDeviceSize size, uint32_t seed)
{
	uint8_t *p = up->map;

	for (VkDeviceSize i = 0; i < size; i++)
		p[i] = vkh_pattern(seed, i);
	b->seed = seed;
	return vkh_copy_sync(d, 0, up->buffer, 0, b->buffer, 0, size) ==
	       VK_SUCCESS;
}

/* Read b back through the GPU and compare every byte. */
static bool
dl_check(struct vkh *h, struct vkh_device *d, struct vkh_buffer *rb,
         struct dl_buf *b, VkDeviceSize size)
{
	const uint8_t *p = rb->map;

	memset(rb->map, 0x5a, size);
	if (vkh_copy_sync(d, 0, b->buffer, 0, rb->buffer, 0, size) !=
	    VK_SUCCESS)
		return false;
	vkh_buffer_invalidate(h, d, rb);
	for (VkDeviceSize i = 0; i < size; i++)
		if (p[i] != vkh_pattern(b->seed, i)) {
			fprintf(stderr, "  byte %llu: 0x%02x, want 0x%02x\n",
			        (unsigned long long)i, p[i],
			        vkh_pattern(b->seed, i));
			return false;
		}
	return true;
}

/* Three times the VRAM budget (at least 12 buffers) of device-local
 * buffers, each written on the GPU; all read back exact, twice (after
 * the allocations, and after rewriting some), with VRAM usage within its
 * budget and the excess in the system heap. */
static void
test_oversubscribe_round_trip(struct vkh *h, struct vkh_device *d)
{
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b0, b;
	struct vkh_buffer up, rb;
	struct dl_buf *bufs;
	uint32_t n = 12, dl_type, dl_heap;
	bool budget = has_ext(h, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);

	dl_type = (uint32_t)vkh_memtype_device_local(h, ~0u);
	dl_heap = h->mem.memoryTypes[dl_type].heapIndex;
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, BUF_SIZE,
	                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                                  VKH_MEM_UPLOAD, -1, &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, BUF_SIZE,
	                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                                  VKH_MEM_READBACK, -1, &rb));
	if (budget) {
		budget_query(h, &b0);
		if (h->is_swgpu && b0.heapBudget[dl_heap] < 64 * MIB)
			n = (uint32_t)(3 * b0.heapBudget[dl_heap] / BUF_SIZE);
	}
	if (n < 12)
		n = 12;
	bufs = calloc(n, sizeof(*bufs));
	VKH_CHECK(h, bufs);
	for (uint32_t i = 0; i < n; i++) {
		VKH_CHECK_VK(h, dl_create(h, d, BUF_SIZE, -1.0f, &bufs[i]));
		VKH_CHECK(h, dl_write(d, &up, &bufs[i], BUF_SIZE, 1000 + i));
	}
	if (budget) {
		budget_query(h, &b);
		printf("  %u x %llu MiB device-local; heap %u: %llu of %llu "
		       "MiB budget used; system heap +%llu MiB\n", n,
		       (unsigned long long)(BUF_SIZE / MIB), dl_heap,
		       (unsigned long long)(b.heapUsage[dl_heap] / MIB),
		       (unsigned long long)(b.heapBudget[dl_heap] / MIB),
		       (unsigned long long)((b.heapUsage[1] -
		                             b0.heapUsage[1]) / MIB));
		VKH_CHECK(h, b.heapUsage[dl_heap] <= b.heapBudget[dl_heap]);
		if (h->is_swgpu && n * BUF_SIZE > b0.heapBudget[dl_heap])
			VKH_CHECK(h, b.heapUsage[1] - b0.heapUsage[1] >=
			             n * BUF_SIZE - b0.heapBudget[dl_heap]);
	}
	for (uint32_t i = 0; i < n; i++)
		VKH_CHECK_MSG(h, dl_check(h, d, &rb, &bufs[i], BUF_SIZE),
		              "buffer %u after allocation", i);
	for (uint32_t i = 0; i < n; i += 3)
		VKH_CHECK(h, dl_write(d, &up, &bufs[i], BUF_SIZE, 5000 + i));
	for (uint32_t i = n; i-- > 0;)
		VKH_CHECK_MSG(h, dl_check(h, d, &rb, &bufs[i], BUF_SIZE),
		              "buffer %u after rewrite", i);
	for (uint32_t i = 0; i < n; i++)
		dl_destroy(d, &bufs[i]);
	free(bufs);
	if (budget) {
		budget_query(h, &b);
		VKH_CHECK(h, b.heapUsage[dl_heap] == b0.heapUsage[dl_heap]);
	}
	vkh_buffer_destroy(d, &up);
	vkh_buffer_destroy(d, &rb);
}

/* Allocate 8 MiB device-local blocks until the driver refuses: swgpu
 * goes past the VRAM budget into system memory, then says
 * VK_ERROR_OUT_OF_DEVICE_MEMORY; freeing gives back every byte. */
static void
test_both_heaps_exhausted(struct vkh *h, struct vkh_device *d)
{
	enum { MAX = 64 };
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b0, b;
	VkDeviceMemory mem[MAX];
	uint32_t n = 0, type = (uint32_t)vkh_memtype_device_local(h, ~0u);
	uint32_t heap = h->mem.memoryTypes[type].heapIndex;
	VkResult r = VK_SUCCESS;

	if (!h->is_swgpu || h->mem.memoryHeaps[1].size > 256 * MIB) {
		vkh_skip(h, "needs swgpu with SWGPU_SYSTEM_MB <= 256");
		return;
	}
	budget_query(h, &b0);
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = 8 * MIB,
		.memoryTypeIndex = type,
	};
	while (n < MAX) {
		r = vkAllocateMemory(d->device, &ai, NULL, &mem[n]);
		if (r != VK_SUCCESS)
			break;
		n++;
	}
	budget_query(h, &b);
	printf("  %u x 8 MiB allocated (VRAM budget %llu MiB, system heap "
	       "%llu MiB), then %s\n", n,
	       (unsigned long long)(b0.heapBudget[heap] / MIB),
	       (unsigned long long)(h->mem.memoryHeaps[1].size / MIB),
	       vkh_result_str(r));
	for (uint32_t i = 0; i < n; i++)
		vkFreeMemory(d->device, mem[i], NULL);
	VKH_CHECK_RESULT(h, r, VK_ERROR_OUT_OF_DEVICE_MEMORY);
	VKH_CHECK(h, b.heapUsage[heap] <= b.heapBudget[heap]);
	/* Past the budget, and by about the system heap's free room. */
	VKH_CHECK(h, n * 8 * MIB > b0.heapBudget[heap]);
	VKH_CHECK(h, (n + 1) * 8 * MIB >
	             b0.heapBudget[heap] - b0.heapUsage[heap] +
	             b0.heapBudget[1] - b0.heapUsage[1]);
	budget_query(h, &b);
	VKH_CHECK(h, b.heapUsage[heap] == b0.heapUsage[heap]);
	VKH_CHECK(h, b.heapUsage[1] == b0.heapUsage[1]);
	VkDeviceMemory again;
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &ai, NULL, &again));
	vkFreeMemory(d->device, again, NULL);
}

/* ---- memory priority ---------------------------------------------- */

/* A device with VK_EXT_memory_priority and, when offered,
 * VK_EXT_pageable_device_local_memory enabled; queue 0 on a transfer
 * capable family. */
static VkResult
priority_device(struct vkh *h, bool pageable, struct vkh_device *d)
{
	float prio = 1.0f;
	uint32_t fam = 0;
	const char *exts[2] = { VK_EXT_MEMORY_PRIORITY_EXTENSION_NAME,
	                        VK_EXT_PAGEABLE_DEVICE_LOCAL_MEMORY_EXTENSION_NAME };
	VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT pf = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT,
		.pageableDeviceLocalMemory = VK_TRUE,
	};
	VkPhysicalDeviceMemoryPriorityFeaturesEXT mf = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT,
		.pNext = pageable ? &pf : NULL,
		.memoryPriority = VK_TRUE,
	};
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &mf,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci,
		.enabledExtensionCount = pageable ? 2 : 1,
		.ppEnabledExtensionNames = exts,
	};
	VkResult r;

	memset(d, 0, sizeof(*d));
	for (fam = 0; fam < h->family_count; fam++)
		if (h->families[fam].queueFlags &
		    (VK_QUEUE_TRANSFER_BIT | VK_QUEUE_GRAPHICS_BIT |
		     VK_QUEUE_COMPUTE_BIT))
			break;
	qci.queueFamilyIndex = fam;
	r = vkCreateDevice(h->phys, &dci, NULL, &d->device);
	if (r != VK_SUCCESS)
		return r;
	d->queue_count = 1;
	d->distinct_queues = 1;
	d->distinct_families = 1;
	d->queues[0].family = fam;
	d->queues[0].flags = h->families[fam].queueFlags;
	vkGetDeviceQueue(d->device, fam, 0, &d->queues[0].queue);
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = fam,
	};
	r = vkCreateCommandPool(d->device, &pci, NULL, &d->queues[0].pool);
	if (r != VK_SUCCESS)
		vkDestroyDevice(d->device, NULL);
	return r;
}

/* Count "evicted to SYSTEM a N-byte VRAM BO (priority P" lines of an
 * SWGPU_DEBUG log, keeping the priorities in order. */
static uint32_t
evicted_priorities(FILE *log, uint32_t *prio, uint32_t max)
{
	char line[512];
	uint32_t n = 0;

	rewind(log);
	while (fgets(line, sizeof(line), log)) {
		const char *s = strstr(line, "evicted to SYSTEM a ");
		unsigned long long bytes;
		unsigned p;

		if (s && sscanf(s, "evicted to SYSTEM a %llu-byte VRAM BO "
		                   "(priority %u", &bytes, &p) == 2 &&
		    n < max)
			prio[n++] = p;
	}
	return n;
}

/* Features and extensions offered; allocations with a priority and
 * vkSetDeviceMemoryPriorityEXT work and keep data. On swgpu with a small
 * budget and SWGPU_DEBUG=1, the eviction log shows the lowest priority
 * going first: B (0.0) before the older A (1.0); after lowering A to 0.2
 * and raising C to 0.9, A goes next. */
static void
test_priority_steers_eviction(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b0;
	struct vkh_device dev, *d = &dev;
	struct vkh_buffer up, rb;
	struct dl_buf a, b, c, e;
	bool pageable;
	FILE *log = NULL;
	int saved_err = -1;

	(void)unused;
	if (!has_ext(h, VK_EXT_MEMORY_PRIORITY_EXTENSION_NAME)) {
		VKH_CHECK(h, !h->is_swgpu);
		vkh_skip(h, "VK_EXT_memory_priority not offered");
		return;
	}
	pageable = has_ext(h,
	                   VK_EXT_PAGEABLE_DEVICE_LOCAL_MEMORY_EXTENSION_NAME);
	VKH_CHECK(h, pageable || !h->is_swgpu);
	{
		VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT pf = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT,
		};
		VkPhysicalDeviceMemoryPriorityFeaturesEXT mf = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT,
			.pNext = &pf,
		};
		VkPhysicalDeviceFeatures2 f2 = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
			.pNext = &mf,
		};
		vkGetPhysicalDeviceFeatures2(h->phys, &f2);
		VKH_CHECK(h, mf.memoryPriority);
		VKH_CHECK(h, !pageable || pf.pageableDeviceLocalMemory);
	}
	VKH_CHECK_VK(h, priority_device(h, pageable, d));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 8 * MIB,
	                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                                  VKH_MEM_UPLOAD, -1, &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 8 * MIB,
	                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                                  VKH_MEM_READBACK, -1, &rb));
	budget_query(h, &b0);
	uint32_t heap = h->mem.memoryTypes[vkh_memtype_device_local(h, ~0u)]
	                        .heapIndex;
	bool observe = h->is_swgpu && b0.heapUsage[heap] == 0 &&
	               b0.heapBudget[heap] == 16 * MIB &&
	               getenv("SWGPU_DEBUG") &&
	               !strcmp(getenv("SWGPU_DEBUG"), "1") &&
	               /* shared mode: the lines are in swgpud's log */
	               !(getenv("SWGPU_MODE") &&
	                 !strcmp(getenv("SWGPU_MODE"), "shared"));
	if (observe) {
		/* The eviction log lines go to stderr: catch them. */
		log = tmpfile();
		VKH_CHECK(h, log);
		fflush(stderr);
		saved_err = dup(2);
		dup2(fileno(log), 2);
	}
	VkResult r = dl_create(h, d, 8 * MIB, 1.0f, &a);
	if (r == VK_SUCCESS)
		r = dl_create(h, d, 8 * MIB, 0.0f, &b);
	bool ok = r == VK_SUCCESS && dl_write(d, &up, &a, 8 * MIB, 1) &&
	          dl_write(d, &up, &b, 8 * MIB, 2);
	/* Budget full: C evicts B, the lowest priority. */
	if (ok)
		ok = dl_create(h, d, 8 * MIB, 0.5f, &c) == VK_SUCCESS &&
		     dl_write(d, &up, &c, 8 * MIB, 3);
	if (ok && pageable) {
		PFN_vkSetDeviceMemoryPriorityEXT set_prio =
			(PFN_vkSetDeviceMemoryPriorityEXT)vkGetDeviceProcAddr(
				d->device, "vkSetDeviceMemoryPriorityEXT");
		ok = set_prio != NULL;
		if (ok) {
			set_prio(d->device, a.memory, 0.2f);
			set_prio(d->device, c.memory, 0.9f);
		}
	}
	/* E evicts A now (0.2 < 0.9). */
	if (ok)
		ok = dl_create(h, d, 8 * MIB, 0.5f, &e) == VK_SUCCESS &&
		     dl_write(d, &up, &e, 8 * MIB, 4);
	if (observe) {
		fflush(stderr);
		dup2(saved_err, 2);
		close(saved_err);
	}
	VKH_CHECK(h, ok);
	VKH_CHECK(h, dl_check(h, d, &rb, &a, 8 * MIB));
	VKH_CHECK(h, dl_check(h, d, &rb, &b, 8 * MIB));
	VKH_CHECK(h, dl_check(h, d, &rb, &c, 8 * MIB));
	VKH_CHECK(h, dl_check(h, d, &rb, &e, 8 * MIB));
	if (observe) {
		uint32_t prio[8];
		uint32_t n = evicted_priorities(log, prio, 8);

		fclose(log);
		printf("  evictions seen: %u, priorities", n);
		for (uint32_t i = 0; i < n; i++)
			printf(" %u", prio[i]);
		printf("\n");
		VKH_CHECK(h, n == 2);
		VKH_CHECK(h, prio[0] == 0 && prio[1] == 200);
	}
	dl_destroy(d, &a);
	dl_destroy(d, &b);
	dl_destroy(d, &c);
	dl_destroy(d, &e);
	vkh_buffer_destroy(d, &up);
	vkh_buffer_destroy(d, &rb);
	vkDestroyCommandPool(d->device, d->queues[0].pool, NULL);
	vkDestroyDevice(d->device, NULL);
}

static const struct vkh_test tests[] = {
	{ "oversubscribe_round_trip", test_oversubscribe_round_trip, 1, 0 },
	{ "both_heaps_exhausted", test_both_heaps_exhausted, 1, 0 },
	{ "priority_steers_eviction", test_priority_steers_eviction, 1, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_memory_pressure", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
