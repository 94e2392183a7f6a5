/* SPDX-License-Identifier: MIT */
/*
 * VK_EXT_memory_budget through the loader: the extension is offered,
 * every allocation moves its heap's reported usage by exactly its
 * page-rounded size (and no other heap's), freeing moves it back, and the
 * budgets are those of SWGPU_VRAM_BUDGET_MB (default: the whole VRAM):
 * heap 0 (VRAM outside the BAR window) and heap 2 (the window) share the
 * VRAM budget, heap 1 (SYSTEM) has its size. An allocation past the VRAM
 * budget succeeds by evicting to (or starting in) the system heap, whose
 * usage shows it (test_vk_memory_pressure goes further). Usage is the
 * GPU's: another VkInstance's allocations on it count too.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define PAGE 4096ull
#define MIB (1024ull * 1024ull)

static bool
has_budget_ext(struct vkh *h)
{
	VkExtensionProperties props[128];
	uint32_t n = 128;

	if (vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, props) <
	    0)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(props[i].extensionName,
		            VK_EXT_MEMORY_BUDGET_EXTENSION_NAME))
			return true;
	return false;
}

static void
query(struct vkh *h, VkPhysicalDeviceMemoryBudgetPropertiesEXT *b)
{
	VkPhysicalDeviceMemoryProperties2 p = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
		.pNext = b,
	};

	memset(b, 0xab, sizeof(*b)); /* must all be overwritten */
	b->sType =
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
	b->pNext = NULL;
	vkGetPhysicalDeviceMemoryProperties2(h->phys, &p);
}

/* The spec's rules for the figures: zero past memoryHeapCount, budget
 * non-zero and within the heap, usage within the budget (we never
 * over-subscribe). */
static bool
figures_valid(struct vkh *h, const VkPhysicalDeviceMemoryBudgetPropertiesEXT *b)
{
	for (uint32_t i = 0; i < VK_MAX_MEMORY_HEAPS; i++) {
		if (i >= h->mem.memoryHeapCount) {
			if (b->heapBudget[i] || b->heapUsage[i])
				return false;
			continue;
		}
		if (!b->heapBudget[i] ||
		    b->heapBudget[i] > h->mem.memoryHeaps[i].size ||
		    b->heapUsage[i] > h->mem.memoryHeaps[i].size)
			return false;
	}
	return true;
}

static void
test_extension_offered(struct vkh *h, struct vkh_device *d)
{
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b;

	(void)d;
	if (!h->is_swgpu && !has_budget_ext(h)) {
		vkh_skip(h, "driver has no VK_EXT_memory_budget");
		return;
	}
	VKH_CHECK(h, has_budget_ext(h));
	query(h, &b);
	VKH_CHECK(h, figures_valid(h, &b));
}

/* Every memory type: allocations of awkward sizes move exactly their
 * heap's usage by the page-rounded size, and freeing undoes it. */
static void
test_usage_moves_exactly(struct vkh *h, struct vkh_device *d)
{
	static const VkDeviceSize sizes[] = { 1, 4096, 5000, MIB + 1,
	                                      3 * MIB };
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b0, b1, b2;

	if (!h->is_swgpu) {
		vkh_skip(h, "exact page-rounded usage is swgpu's contract");
		return;
	}
	for (uint32_t t = 0; t < h->mem.memoryTypeCount; t++) {
		uint32_t heap = h->mem.memoryTypes[t].heapIndex;

		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			VkMemoryAllocateInfo ai = {
				.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				.allocationSize = sizes[s],
				.memoryTypeIndex = t,
			};
			VkDeviceSize rounded = (sizes[s] + PAGE - 1) &
			                       ~(PAGE - 1);
			VkDeviceMemory mem;

			query(h, &b0);
			VKH_CHECK(h, figures_valid(h, &b0));
			VKH_CHECK_VK(h, vkAllocateMemory(d->device, &ai, NULL,
			                                 &mem));
			query(h, &b1);
			VKH_CHECK(h, figures_valid(h, &b1));
			for (uint32_t i = 0; i < h->mem.memoryHeapCount; i++) {
				unsigned long long was = b0.heapUsage[i];
				unsigned long long now = b1.heapUsage[i];
				uint64_t add = i == heap ? rounded : 0;

				VKH_CHECK_MSG(h, now == was + add,
				              "type %u size %llu: heap %u usage "
				              "%llu -> %llu", t,
				              (unsigned long long)sizes[s], i,
				              was, now);
			}
			vkFreeMemory(d->device, mem, NULL);
			query(h, &b2);
			for (uint32_t i = 0; i < h->mem.memoryHeapCount; i++)
				VKH_CHECK(h, b2.heapUsage[i] ==
				             b0.heapUsage[i]);
		}
		printf("  type %u (heap %u): usage exact\n", t, heap);
	}
}

static uint64_t
min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Budgets follow SWGPU_VRAM_BUDGET_MB; allocating heap 0's whole budget
 * works, one more page does not, and the BAR heap's budget shrinks by
 * what heap 0 took. */
static void
test_budget_matches_env(struct vkh *h, struct vkh_device *d)
{
	const VkPhysicalDeviceMemoryProperties *m = &h->mem;
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b, a;
	const char *env = getenv("SWGPU_VRAM_BUDGET_MB");
	uint64_t vram = m->memoryHeaps[0].size +
	                (m->memoryHeapCount > 2 ? m->memoryHeaps[2].size : 0);
	uint64_t budget = vram;
	int type0 = -1;

	if (!h->is_swgpu) {
		vkh_skip(h, "SWGPU_VRAM_BUDGET_MB is swgpu's knob");
		return;
	}
	if (env && *env)
		budget = min_u64(strtoull(env, NULL, 10) * MIB, vram);
	printf("  VRAM %llu MiB, budget %llu MiB (SWGPU_VRAM_BUDGET_MB=%s)\n",
	       (unsigned long long)(vram / MIB),
	       (unsigned long long)(budget / MIB), env ? env : "unset");
	query(h, &b);
	VKH_CHECK(h, figures_valid(h, &b));
	VKH_CHECK(h, b.heapBudget[1] == m->memoryHeaps[1].size);
	VKH_CHECK(h, b.heapBudget[0] ==
	             min_u64(m->memoryHeaps[0].size,
	                     budget - (m->memoryHeapCount > 2 ?
	                               b.heapUsage[2] : 0)));
	if (m->memoryHeapCount > 2)
		VKH_CHECK(h, b.heapBudget[2] ==
		             min_u64(m->memoryHeaps[2].size,
		                     budget - b.heapUsage[0]));
	if (budget >= vram) {
		/* No budget below VRAM: filling heap 0 is the heap-size
		 * test of test_vk_memory. */
		return;
	}
	for (uint32_t t = 0; t < m->memoryTypeCount; t++)
		if (m->memoryTypes[t].heapIndex == 0 && type0 < 0)
			type0 = (int)t;
	VKH_CHECK(h, type0 >= 0);

	/* Heap 0's budget is below its size here: all of it fits (the
	 * backing is reserved lazily, so this costs no host memory). */
	VkDeviceSize room = b.heapBudget[0] - b.heapUsage[0];
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = room,
		.memoryTypeIndex = (uint32_t)type0,
	};
	VkDeviceMemory big, more = VK_NULL_HANDLE;

	VKH_CHECK(h, room >= PAGE);
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &ai, NULL, &big));
	query(h, &a);
	VKH_CHECK(h, figures_valid(h, &a));
	VKH_CHECK(h, a.heapUsage[0] == b.heapBudget[0]);
	VKH_CHECK(h, a.heapBudget[0] == b.heapBudget[0]);
	/* Past the budget the allocation still succeeds (issue 9:
	 * over-subscription): the idle big one is evicted to SYSTEM, so
	 * VRAM usage stays within the budget and SYSTEM's grows by it. */
	ai.allocationSize = PAGE;
	VkResult r = vkAllocateMemory(d->device, &ai, NULL, &more);
	VkPhysicalDeviceMemoryBudgetPropertiesEXT o;
	query(h, &o);
	if (r == VK_SUCCESS)
		vkFreeMemory(d->device, more, NULL);
	vkFreeMemory(d->device, big, NULL);
	VKH_CHECK_RESULT(h, r, VK_SUCCESS);
	VKH_CHECK(h, o.heapUsage[0] <= b.heapBudget[0]);
	if (room <= a.heapBudget[1] - a.heapUsage[1]) {
		/* SYSTEM can take it: evicted. */
		VKH_CHECK(h, o.heapUsage[0] == b.heapUsage[0] + PAGE);
		VKH_CHECK(h, o.heapUsage[1] == a.heapUsage[1] + room);
	} else {
		/* It cannot: the new page starts in SYSTEM instead. */
		VKH_CHECK(h, o.heapUsage[0] == a.heapUsage[0]);
		VKH_CHECK(h, o.heapUsage[1] == a.heapUsage[1] + PAGE);
	}
	query(h, &a);
	VKH_CHECK(h, a.heapUsage[0] == b.heapUsage[0]);
	VKH_CHECK(h, a.heapUsage[1] == b.heapUsage[1]);
}

/* Fill the whole buffer with value on queue 0 and check it from the
 * host. */
static bool
fill_and_check(struct vkh *h, struct vkh_device *d, struct vkh_buffer *rb,
               uint32_t value)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);

	if (!cb)
		return false;
	vkCmdFillBuffer(cb, rb->buffer, 0, rb->size, value);
	vkh_cmd_host_barrier(cb);
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS)
		return false;
	vkh_buffer_invalidate(h, d, rb);
	for (VkDeviceSize i = 0; i < rb->size / 4; i++)
		if (((const uint32_t *)rb->map)[i] != value)
			return false;
	return true;
}

/* The ICD offers the command memory chunks a pool keeps for reuse: with
 * the SYSTEM heap full, an allocation one chunk too big fails while no
 * chunk is offered and succeeds once a recorded command buffer was freed
 * (its chunk is discarded), and the pool records and runs correctly on
 * the discarded chunk afterwards. */
static void
test_command_chunks_offered(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize chunk = 64 * 1024; /* ICD_CMD_CHUNK_BYTES */
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b;
	struct vkh_buffer rb;
	VkDeviceMemory big = VK_NULL_HANDLE;
	int type = -1;

	if (!h->is_swgpu) {
		vkh_skip(h, "chunk offers are swgpu's");
		return;
	}
	if (h->mem.memoryHeaps[1].size > 1024 * MIB) {
		vkh_skip(h, "needs SWGPU_SYSTEM_MB <= 1024 to fill the heap");
		return;
	}
	for (uint32_t t = 0; t < h->mem.memoryTypeCount && type < 0; t++)
		if (h->mem.memoryTypes[t].heapIndex == 1)
			type = (int)t;
	VKH_CHECK(h, type >= 0);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 16 * 1024,
	                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                                  VKH_MEM_READBACK, -1, &rb));

	/* Ballast, so "the rest of the heap plus one chunk" stays within
	 * the heap size (a larger request would be invalid usage). */
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = MIB,
		.memoryTypeIndex = (uint32_t)type,
	};
	VkDeviceMemory ballast;
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &ai, NULL, &ballast));

	/* Nothing offered yet: one chunk over the budget fails. */
	query(h, &b);
	ai.allocationSize = b.heapBudget[1] - b.heapUsage[1] + chunk;
	VkResult r = vkAllocateMemory(d->device, &ai, NULL, &big);
	if (r == VK_SUCCESS)
		vkFreeMemory(d->device, big, NULL);
	VKH_CHECK_RESULT(h, r, VK_ERROR_OUT_OF_DEVICE_MEMORY);

	/* A command buffer recorded, run and freed: its chunk goes back to
	 * the pool, offered. */
	VKH_CHECK(h, fill_and_check(h, d, &rb, 0x11223344u));
	query(h, &b);
	ai.allocationSize = b.heapBudget[1] - b.heapUsage[1] + chunk;
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &ai, NULL, &big));
	query(h, &b);
	VKH_CHECK(h, figures_valid(h, &b));
	VKH_CHECK(h, b.heapUsage[1] == b.heapBudget[1]);
	vkFreeMemory(d->device, big, NULL);

	/* Recording reclaims the discarded chunk and rewrites it. */
	VKH_CHECK(h, fill_and_check(h, d, &rb, 0x55667788u));
	VKH_CHECK(h, fill_and_check(h, d, &rb, 0x99aabbccu));
	vkFreeMemory(d->device, ballast, NULL);
	vkh_buffer_destroy(d, &rb);
}

/* Memory a second VkInstance allocates on the same physical device (same
 * deviceUUID) shows in the usage the first instance reads: the budget is
 * the GPU's, not one instance's (dEQP-VK.info.device_memory_budget_
 * multi_instance). */
static void
test_second_instance_counts(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 16 * MIB;
	VkPhysicalDeviceIDProperties id = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &id,
	};
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.apiVersion = VK_API_VERSION_1_1,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b0, b1, b2;
	VkPhysicalDevice phys[8], other = VK_NULL_HANDLE;
	uint32_t n = 8;
	VkInstance inst2;
	(void)d;

	if (!h->is_swgpu && !has_budget_ext(h)) {
		vkh_skip(h, "driver has no VK_EXT_memory_budget");
		return;
	}
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	uint8_t uuid[VK_UUID_SIZE];
	memcpy(uuid, id.deviceUUID, VK_UUID_SIZE);
	VKH_CHECK_VK(h, vkCreateInstance(&ici, NULL, &inst2));
	VKH_CHECK(h, vkEnumeratePhysicalDevices(inst2, &n, phys) >= 0);
	for (uint32_t i = 0; i < n && !other; i++) {
		vkGetPhysicalDeviceProperties2(phys[i], &p2);
		if (!memcmp(id.deviceUUID, uuid, VK_UUID_SIZE))
			other = phys[i];
	}
	VKH_CHECK_MSG(h, other, "no physical device of the second instance "
	              "has the first one's deviceUUID");
	if (!other) {
		vkDestroyInstance(inst2, NULL);
		return;
	}
	int type = vkh_memtype_device_local(h, ~0u);
	VKH_CHECK(h, type >= 0);
	uint32_t heap = h->mem.memoryTypes[type].heapIndex;
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = 0,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci,
	};
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = size,
		.memoryTypeIndex = (uint32_t)type,
	};
	VkDevice dev2;
	VkDeviceMemory mem;

	VKH_CHECK_VK(h, vkCreateDevice(other, &dci, NULL, &dev2));
	query(h, &b0);
	VKH_CHECK_VK(h, vkAllocateMemory(dev2, &ai, NULL, &mem));
	query(h, &b1);
	vkFreeMemory(dev2, mem, NULL);
	query(h, &b2);
	vkDestroyDevice(dev2, NULL);
	vkDestroyInstance(inst2, NULL);
	printf("  heap %u usage seen by the first instance: %llu -> %llu "
	       "-> %llu (16 MiB allocated and freed by the second)\n", heap,
	       (unsigned long long)b0.heapUsage[heap],
	       (unsigned long long)b1.heapUsage[heap],
	       (unsigned long long)b2.heapUsage[heap]);
	VKH_CHECK(h, b1.heapUsage[heap] >= b0.heapUsage[heap] + size);
	if (h->is_swgpu) /* exact on swgpu: page-rounded, nothing else */
		VKH_CHECK(h, b1.heapUsage[heap] == b0.heapUsage[heap] + size &&
		             b2.heapUsage[heap] == b0.heapUsage[heap]);
}

static const struct vkh_test tests[] = {
	{ "extension_offered", test_extension_offered, 1, 0 },
	{ "usage_moves_exactly", test_usage_moves_exactly, 1, 0 },
	{ "budget_matches_env", test_budget_matches_env, 1, 0 },
	{ "command_chunks_offered", test_command_chunks_offered, 1, 0 },
	{ "second_instance_counts", test_second_instance_counts, 1, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_memory_budget", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
