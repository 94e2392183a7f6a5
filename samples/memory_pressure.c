/* SPDX-License-Identifier: MIT */
/*
 * memory_pressure: device-local memory past the VRAM budget.
 *
 *   1. allocate device-local buffers one by one up to 3x the VRAM budget;
 *      each is written on the GPU (upload copy, then vkCmdFillBuffer over
 *      a slice) and read back and checked byte for byte right away;
 *   2. read every buffer back again: the early ones were evicted to
 *      system memory and must come back exact;
 *   3. free every other buffer and check the rest again (VRAM has room:
 *      evicted buffers come back);
 *   4. with a small system heap: allocate until the driver says
 *      VK_ERROR_OUT_OF_DEVICE_MEMORY (command memory the pool offered is
 *      discarded on the way), free everything, check usage is back.
 *
 * After each step it prints VK_EXT_memory_budget's usage and budget of the
 * device-local heap and of the system heap. On swgpu the sample asks for a
 * 32 MiB VRAM budget and a 160 MiB system heap (SWGPU_VRAM_BUDGET_MB,
 * SWGPU_SYSTEM_MB, unless already set) and turns SWGPU_DEBUG on, so each
 * eviction, promotion and discard is logged by swgpu as it happens
 * ("swgpu: mem: evicted to SYSTEM ...", with running counts). Any driver
 * works (VK_DRIVER_FILES); step 4 runs only where the heaps are that small.
 *
 * usage: memory_pressure [-q]   (-q: no SWGPU_DEBUG log)
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define MIB (1024ull * 1024ull)
#define BUF (4 * MIB)
#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)

struct sample {
	struct vkh h;
	struct vkh_device d;
	struct vkh_buffer up, rb;
	uint32_t dl_heap;
	bool budget_ext;
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b0;
};

static void
budget(struct sample *s, VkPhysicalDeviceMemoryBudgetPropertiesEXT *b)
{
	VkPhysicalDeviceMemoryProperties2 p = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
		.pNext = b,
	};

	memset(b, 0, sizeof(*b));
	b->sType =
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
	if (s->budget_ext)
		vkGetPhysicalDeviceMemoryProperties2(s->h.phys, &p);
}

static void
print_budget(struct sample *s, const char *what)
{
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b;
	uint32_t dh = s->dl_heap;

	if (!s->budget_ext) {
		printf("  %-34s (no VK_EXT_memory_budget)\n", what);
		return;
	}
	budget(s, &b);
	printf("  %-34s device-local heap %u: %4llu / %4llu MiB   "
	       "system heap: %4llu / %4llu MiB\n", what, dh,
	       (unsigned long long)(b.heapUsage[dh] / MIB),
	       (unsigned long long)(b.heapBudget[dh] / MIB),
	       (unsigned long long)(b.heapUsage[1] / MIB),
	       (unsigned long long)(b.heapBudget[1] / MIB));
}

/* Pattern of buffer i: upload bytes, then a FILL of word over the second
 * quarter. */
static uint8_t
expected(uint32_t i, VkDeviceSize off)
{
	if (off >= BUF / 4 && off < BUF / 2) {
		uint32_t word = 0x01020304u * (i + 1);
		return (uint8_t)(word >> (8 * (off % 4)));
	}
	return vkh_pattern(7 + i, off);
}

static bool
write_buf(struct sample *s, struct vkh_buffer *b, uint32_t i)
{
	uint8_t *p = s->up.map;
	VkCommandBuffer cb = vkh_cmd_begin(&s->d, 0);
	VkBufferCopy c = { 0, 0, BUF };

	for (VkDeviceSize k = 0; k < BUF; k++)
		p[k] = vkh_pattern(7 + i, k);
	if (!cb)
		return false;
	vkCmdCopyBuffer(cb, s->up.buffer, b->buffer, 1, &c);
	vkh_cmd_transfer_barrier(cb);
	vkCmdFillBuffer(cb, b->buffer, BUF / 4, BUF / 4,
	                0x01020304u * (i + 1));
	return vkh_cmd_submit_wait(&s->d, 0, cb) == VK_SUCCESS;
}

static bool
check_buf(struct sample *s, struct vkh_buffer *b, uint32_t i)
{
	const uint8_t *p = s->rb.map;

	memset(s->rb.map, 0, BUF);
	if (vkh_copy_sync(&s->d, 0, b->buffer, 0, s->rb.buffer, 0, BUF) !=
	    VK_SUCCESS)
		return false;
	vkh_buffer_invalidate(&s->h, &s->d, &s->rb);
	for (VkDeviceSize k = 0; k < BUF; k++)
		if (p[k] != expected(i, k)) {
			fprintf(stderr, "memory_pressure: buffer %u byte %llu: "
			        "0x%02x, want 0x%02x\n", i,
			        (unsigned long long)k, p[k], expected(i, k));
			return false;
		}
	return true;
}

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

/* Step 4: allocate 8 MiB device-local blocks until refused. */
static bool
exhaust(struct sample *s)
{
	enum { MAX = 128 };
	VkDeviceMemory *mem = calloc(MAX, sizeof(*mem));
	VkPhysicalDeviceMemoryBudgetPropertiesEXT b;
	uint32_t n = 0;
	VkResult r = VK_SUCCESS;
	bool ok;

	if (!mem)
		return false;
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = 8 * MIB,
		.memoryTypeIndex =
			(uint32_t)vkh_memtype_device_local(&s->h, ~0u),
	};
	budget(s, &s->b0);
	while (n < MAX &&
	       (r = vkAllocateMemory(s->d.device, &ai, NULL, &mem[n])) ==
	               VK_SUCCESS)
		n++;
	printf("  %u more 8 MiB blocks, then %s\n", n, vkh_result_str(r));
	print_budget(s, "both heaps full:");
	for (uint32_t i = 0; i < n; i++)
		vkFreeMemory(s->d.device, mem[i], NULL);
	free(mem);
	budget(s, &b);
	print_budget(s, "blocks freed:");
	/* The kept buffers evicted meanwhile stay in system memory until a
	 * job uses them, so compare both heaps together; discarded command
	 * memory (64 KiB chunks the pool offered) may be missing. */
	uint64_t before = s->b0.heapUsage[s->dl_heap] + s->b0.heapUsage[1];
	uint64_t after = b.heapUsage[s->dl_heap] + b.heapUsage[1];
	ok = r == VK_ERROR_OUT_OF_DEVICE_MEMORY && after <= before &&
	     before - after <= MIB;
	if (!ok)
		fprintf(stderr, "memory_pressure: expected a clean "
		        "VK_ERROR_OUT_OF_DEVICE_MEMORY and usage back\n");
	return ok;
}

int
main(int argc, char **argv)
{
	struct sample s;
	struct vkh_buffer *bufs = NULL;
	uint32_t n = 12, live = 0;
	bool ok = false;

	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-q")) {
			fprintf(stderr, "usage: %s [-q]\n", argv[0]);
			return 2;
		}
		setenv("SWGPU_DEBUG", "0", 0);
	}
	/* Read by swgpu when the driver opens its device. */
	setenv("SWGPU_VRAM_BUDGET_MB", "32", 0);
	setenv("SWGPU_SYSTEM_MB", "160", 0);
	setenv("SWGPU_DEBUG", "1", 0);

	memset(&s, 0, sizeof(s));
	if (vkh_init(&s.h, "memory_pressure", VK_API_VERSION_1_3) !=
	            VK_SUCCESS ||
	    vkh_device_create(&s.h, VK_QUEUE_TRANSFER_BIT, 1, NULL, &s.d) !=
	            VK_SUCCESS ||
	    vkh_buffer_create(&s.h, &s.d, BUF, XFER, VKH_MEM_UPLOAD, -1,
	                      &s.up) != VK_SUCCESS ||
	    vkh_buffer_create(&s.h, &s.d, BUF, XFER, VKH_MEM_READBACK, -1,
	                      &s.rb) != VK_SUCCESS) {
		fprintf(stderr, "memory_pressure: setup failed\n");
		goto out;
	}
	s.budget_ext = has_budget_ext(&s.h);
	s.dl_heap = s.h.mem.memoryTypes[vkh_memtype_device_local(&s.h, ~0u)]
	                    .heapIndex;
	budget(&s, &s.b0);
	if (s.budget_ext && s.b0.heapBudget[s.dl_heap] <= 256 * MIB)
		n = (uint32_t)(3 * s.b0.heapBudget[s.dl_heap] / BUF);
	if (n < 12)
		n = 12;
	printf("memory_pressure: device \"%s\" (driver %s), %u x %llu MiB "
	       "device-local buffers\n", s.h.props.deviceName,
	       s.h.driver.driverName, n, (unsigned long long)(BUF / MIB));
	print_budget(&s, "start:");

	bufs = calloc(n, sizeof(*bufs));
	if (!bufs)
		goto out;
	printf("step 1: allocate, write on the GPU, check\n");
	for (uint32_t i = 0; i < n; i++) {
		char what[64];

		if (vkh_buffer_create(&s.h, &s.d, BUF, XFER,
		                      VKH_MEM_DEVICE_LOCAL, -1, &bufs[i]) !=
		    VK_SUCCESS) {
			fprintf(stderr, "memory_pressure: buffer %u: "
			        "allocation failed\n", i);
			goto out;
		}
		live = i + 1;
		if (!write_buf(&s, &bufs[i], i) || !check_buf(&s, &bufs[i], i))
			goto out;
		snprintf(what, sizeof(what), "buffer %2u written, checked:", i);
		print_budget(&s, what);
	}
	printf("step 2: check every buffer again\n");
	for (uint32_t i = 0; i < n; i++)
		if (!check_buf(&s, &bufs[i], i))
			goto out;
	print_budget(&s, "all checked:");
	printf("step 3: free every other buffer, check the rest\n");
	for (uint32_t i = 0; i < n; i += 2)
		vkh_buffer_destroy(&s.d, &bufs[i]);
	print_budget(&s, "half freed:");
	for (uint32_t i = 1; i < n; i += 2)
		if (!check_buf(&s, &bufs[i], i))
			goto out;
	print_budget(&s, "rest checked:");
	if (s.h.is_swgpu && s.budget_ext &&
	    s.h.mem.memoryHeaps[1].size <= 256 * MIB) {
		printf("step 4: allocate until both heaps are full\n");
		if (!exhaust(&s))
			goto out;
		for (uint32_t i = 1; i < n; i += 2)
			if (!check_buf(&s, &bufs[i], i))
				goto out;
		print_budget(&s, "rest checked again:");
	} else {
		printf("step 4: skipped (needs swgpu with a small system "
		       "heap)\n");
	}
	ok = true;
	printf("memory_pressure: every byte of every buffer verified\n");
out:
	for (uint32_t i = 0; i < live; i++)
		if (bufs[i].buffer)
			vkh_buffer_destroy(&s.d, &bufs[i]);
	free(bufs);
	if (s.up.buffer)
		vkh_buffer_destroy(&s.d, &s.up);
	if (s.rb.buffer)
		vkh_buffer_destroy(&s.d, &s.rb);
	if (vkh_finish(&s.h))
		ok = false;
	return ok ? 0 : 1;
}
