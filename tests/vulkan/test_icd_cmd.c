/* SPDX-License-Identifier: MIT */
/*
 * test_icd_cmd: command buffers, transfer commands, events, timestamp
 * queries, fences, semaphores and submission, through the real loader with
 * the Khronos validation layer on. Any validation error or warning fails
 * the test. Self-contained (no harness), so it also runs unchanged against
 * another driver (lavapipe) to check the test itself.
 *
 * Every wait is bounded (TIMEOUT_NS); data is checked word by word.
 * This file: setup, helpers, command buffers and transfers, allocation
 * failures; test_icd_cmd_sync.c: events, queries, fences, semaphores.
 */
#include <string.h>

#include "test_icd_cmd.h"

int failures;
static int validation_messages;
bool has_compute;
bool tolerate_cmdpool;
static int tolerated_messages;

static VkInstance instance;
static VkDebugUtilsMessengerEXT messenger;
static VkPhysicalDevice phys;
static VkPhysicalDeviceMemoryProperties memprops;
VkDevice dev;
uint32_t family;
uint32_t queue_count;         /* 1 or 2 queues of the family */
VkQueue queues[2];
VkCommandPool pool;           /* RESET_COMMAND_BUFFER_BIT */
uint32_t ts_valid_bits;
bool is_swgpu;

static VKAPI_ATTR VkBool32 VKAPI_CALL
on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
           VkDebugUtilsMessageTypeFlagsEXT types,
           const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
	if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
	                VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)) {
		if (tolerate_cmdpool && data->pMessageIdName &&
		    strstr(data->pMessageIdName, "-cmdpool")) {
			tolerated_messages++;
			return VK_FALSE;
		}
		fprintf(stderr, "validation: %s\n", data->pMessage);
		validation_messages++;
	}
	return VK_FALSE;
}

/* ------------------------------------------------------------------ */
/* Setup                                                               */
/* ------------------------------------------------------------------ */

static void
setup(void)
{
	const char *layers[] = { "VK_LAYER_KHRONOS_validation" };
	const char *exts[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
	VkDebugUtilsMessengerCreateInfoEXT mci = {
		.sType =
		    VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.messageSeverity =
			VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
			VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = on_message,
	};
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "test_icd_cmd",
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pNext = &mci,
		.pApplicationInfo = &app,
		.enabledLayerCount = 1,
		.ppEnabledLayerNames = layers,
		.enabledExtensionCount = 1,
		.ppEnabledExtensionNames = exts,
	};
	VK(vkCreateInstance(&ici, NULL, &instance));
	PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
		(PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
			instance, "vkCreateDebugUtilsMessengerEXT");
	VK(create_messenger(instance, &mci, NULL, &messenger));

	uint32_t n = 1;
	VkResult r = vkEnumeratePhysicalDevices(instance, &n, &phys);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
		fprintf(stderr, "no physical device (%d)\n", (int)r);
		exit(1);
	}
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(phys, &props);
	printf("device: %s\n", props.deviceName);
	is_swgpu = strncmp(props.deviceName, "swgpu", 5) == 0;
	vkGetPhysicalDeviceMemoryProperties(phys, &memprops);

	/* A family with transfer and timestamps; prefer two queues. */
	VkQueueFamilyProperties fams[16];
	uint32_t nf = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nf, fams);
	int best = -1;
	for (uint32_t i = 0; i < nf; i++) {
		bool xfer = fams[i].queueFlags & (VK_QUEUE_TRANSFER_BIT |
		                                  VK_QUEUE_COMPUTE_BIT |
		                                  VK_QUEUE_GRAPHICS_BIT);
		if (!xfer || !fams[i].timestampValidBits)
			continue;
		if (best < 0 || (fams[i].queueCount >= 2 &&
		                 fams[best].queueCount < 2))
			best = (int)i;
	}
	if (best < 0) {
		fprintf(stderr, "no transfer queue family with timestamps\n");
		exit(1);
	}
	family = (uint32_t)best;
	queue_count = fams[family].queueCount >= 2 ? 2 : 1;
	ts_valid_bits = fams[family].timestampValidBits;
	has_compute = fams[family].queueFlags & (VK_QUEUE_COMPUTE_BIT |
	                                         VK_QUEUE_GRAPHICS_BIT);
	printf("queue family %u: %u queue(s), flags 0x%x\n", family,
	       queue_count, fams[family].queueFlags);

	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.synchronization2 = VK_TRUE,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.pNext = &f13,
		.timelineSemaphore = VK_TRUE,
		.hostQueryReset = VK_TRUE,
	};
	float prio[2] = { 1.0f, 1.0f };
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = family,
		.queueCount = queue_count,
		.pQueuePriorities = prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &f12,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci,
	};
	VK(vkCreateDevice(phys, &dci, NULL, &dev));
	for (uint32_t i = 0; i < queue_count; i++)
		vkGetDeviceQueue(dev, family, i, &queues[i]);
	if (queue_count == 1)
		queues[1] = queues[0];

	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = family,
	};
	VK(vkCreateCommandPool(dev, &pci, NULL, &pool));
}

static void
teardown(void)
{
	vkDestroyCommandPool(dev, pool, NULL);
	vkDestroyDevice(dev, NULL);
	PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
		(PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
			instance, "vkDestroyDebugUtilsMessengerEXT");
	destroy_messenger(instance, messenger, NULL);
	vkDestroyInstance(instance, NULL);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */


static uint32_t
pick_type(uint32_t bits, VkMemoryPropertyFlags want)
{
	for (uint32_t i = 0; i < memprops.memoryTypeCount; i++)
		if ((bits & (1u << i)) &&
		    (memprops.memoryTypes[i].propertyFlags & want) == want)
			return i;
	fprintf(stderr, "no memory type with flags 0x%x\n", want);
	exit(1);
}

/* host: a HOST_VISIBLE|HOST_COHERENT buffer (mapped), else device-local. */
struct buf
buf_create(VkDeviceSize size, bool host)
{
	struct buf b = { .size = size };
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	};
	VK(vkCreateBuffer(dev, &bci, NULL, &b.buf));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(dev, b.buf, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = pick_type(req.memoryTypeBits, host ?
			VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
			VK_MEMORY_PROPERTY_HOST_COHERENT_BIT :
			VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT),
	};
	VK(vkAllocateMemory(dev, &mai, NULL, &b.mem));
	VK(vkBindBufferMemory(dev, b.buf, b.mem, 0));
	if (host)
		VK(vkMapMemory(dev, b.mem, 0, VK_WHOLE_SIZE, 0,
		               (void **)&b.map));
	return b;
}

void
buf_destroy(struct buf *b)
{
	vkDestroyBuffer(dev, b->buf, NULL);
	vkFreeMemory(dev, b->mem, NULL);
}

VkCommandBuffer
cmd_begin_level(VkCommandBufferLevel level, VkCommandBufferUsageFlags usage)
{
	VkCommandBuffer cb;
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = pool,
		.level = level,
		.commandBufferCount = 1,
	};
	VkCommandBufferInheritanceInfo inh = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = usage,
		.pInheritanceInfo = &inh,
	};
	VK(vkAllocateCommandBuffers(dev, &ai, &cb));
	VK(vkBeginCommandBuffer(cb, &bi));
	return cb;
}

VkCommandBuffer
cmd_begin(void)
{
	return cmd_begin_level(VK_COMMAND_BUFFER_LEVEL_PRIMARY,
	                       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
}

/* Every transfer write before, every transfer access after. */
void
barrier(VkCommandBuffer cb)
{
	VkMemoryBarrier2 mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT |
		                 VK_ACCESS_2_TRANSFER_WRITE_BIT,
	};
	VkDependencyInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.memoryBarrierCount = 1,
		.pMemoryBarriers = &mb,
	};
	vkCmdPipelineBarrier2(cb, &di);
}

/* Transfer writes made visible to the host (for mapped readback). */
void
barrier_host(VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
	                     0, NULL);
}

VkFence
fence_create(bool signaled)
{
	VkFence f;
	VkFenceCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
		.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0,
	};
	VK(vkCreateFence(dev, &fci, NULL, &f));
	return f;
}

/* End, submit on q with a fence, wait (bounded), free. */
void
cmd_submit_wait(VkCommandBuffer cb, VkQueue q)
{
	VkFence f = fence_create(false);
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VK(vkEndCommandBuffer(cb));
	VK(vkQueueSubmit(q, 1, &si, f));
	VK(vkWaitForFences(dev, 1, &f, VK_TRUE, TIMEOUT_NS));
	vkDestroyFence(dev, f, NULL);
	vkFreeCommandBuffers(dev, pool, 1, &cb);
}

VkSemaphore
semaphore_create(bool timeline, uint64_t initial)
{
	VkSemaphore s;
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		.initialValue = initial,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = timeline ? &tci : NULL,
	};
	VK(vkCreateSemaphore(dev, &sci, NULL, &s));
	return s;
}

uint32_t
pattern(uint32_t seed, uint32_t i)
{
	return seed * 0x9e3779b9u ^ (i * 2654435761u + 7);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

/* Copy (both forms), fill (explicit and WHOLE_SIZE), update (small and
 * the 64 KiB maximum, which spans several WRITE_DATA packets). */
static void
test_transfer(void)
{
	const uint32_t n = 64 * 1024 / 4 + 64;  /* words */
	struct buf up = buf_create(n * 4, true);
	struct buf mid = buf_create(n * 4 + 2, false);
	struct buf down = buf_create(n * 4, true);
	uint32_t *expect = malloc(n * 4);
	uint32_t *upd = malloc(65536);

	for (uint32_t i = 0; i < n; i++)
		up.map[i] = expect[i] = pattern(1, i);
	for (uint32_t i = 0; i < 65536 / 4; i++)
		upd[i] = pattern(2, i);

	VkCommandBuffer cb = cmd_begin();
	VkBufferCopy whole = { 0, 0, n * 4 };
	vkCmdCopyBuffer(cb, up.buf, mid.buf, 1, &whole);
	barrier(cb);
	/* 64 KiB update at word 64 */
	vkCmdUpdateBuffer(cb, mid.buf, 256, 65536, upd);
	memcpy(expect + 64, upd, 65536);
	barrier(cb);
	/* fill words [100, 300) */
	vkCmdFillBuffer(cb, mid.buf, 400, 800, 0xdeadbeefu);
	for (uint32_t i = 100; i < 300; i++)
		expect[i] = 0xdeadbeefu;
	/* small update at word 1000 */
	uint32_t small[5] = { 1, 2, 3, 4, 5 };
	vkCmdUpdateBuffer(cb, mid.buf, 4000, sizeof(small), small);
	memcpy(expect + 1000, small, sizeof(small));
	barrier(cb);
	/* WHOLE_SIZE fill of the last 3 words + 2 bytes: rounded down to
	 * the 3 words (the 2 odd bytes stay as copied, not compared) */
	vkCmdFillBuffer(cb, mid.buf, (n - 3) * 4, VK_WHOLE_SIZE, 0x01020304u);
	for (uint32_t i = n - 3; i < n; i++)
		expect[i] = 0x01020304u;
	barrier(cb);
	/* copy back in two regions (swapped halves) with CopyBuffer2 */
	VkBufferCopy2 regions[2] = {
		{ .sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2,
		  .srcOffset = 0, .dstOffset = n * 2, .size = n * 2 },
		{ .sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2,
		  .srcOffset = n * 2, .dstOffset = 0, .size = n * 2 },
	};
	VkCopyBufferInfo2 cbi = {
		.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2,
		.srcBuffer = mid.buf, .dstBuffer = down.buf,
		.regionCount = 2, .pRegions = regions,
	};
	vkCmdCopyBuffer2(cb, &cbi);
	barrier_host(cb);
	cmd_submit_wait(cb, queues[0]);

	uint32_t bad = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = expect[(i + n / 2) % n];
		if (down.map[i] != want && bad++ < 5)
			fprintf(stderr, "transfer: word %u = 0x%08x, want "
			        "0x%08x\n", i, down.map[i], want);
	}
	CHECK(bad == 0);
	free(expect);
	free(upd);
	buf_destroy(&up);
	buf_destroy(&mid);
	buf_destroy(&down);
}

/* Two secondaries executed by one primary, one of them twice. */
static void
test_secondary(void)
{
	const uint32_t n = 1024;
	struct buf a = buf_create(n * 4, true);
	struct buf b = buf_create(n * 4, true);

	for (uint32_t i = 0; i < n; i++)
		a.map[i] = pattern(3, i);
	memset(b.map, 0, n * 4);

	VkCommandBuffer s1 = cmd_begin_level(VK_COMMAND_BUFFER_LEVEL_SECONDARY,
		VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
	vkCmdFillBuffer(s1, b.buf, 0, 256 * 4, 0x11111111u);
	VK(vkEndCommandBuffer(s1));
	VkCommandBuffer s2 = cmd_begin_level(VK_COMMAND_BUFFER_LEVEL_SECONDARY,
		VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
	VkBufferCopy r = { 512 * 4, 512 * 4, 512 * 4 };
	vkCmdCopyBuffer(s2, a.buf, b.buf, 1, &r);
	VK(vkEndCommandBuffer(s2));

	VkCommandBuffer p = cmd_begin();
	VkCommandBuffer secs[2] = { s1, s2 };
	vkCmdExecuteCommands(p, 2, secs);
	barrier(p);
	/* words [256, 512) from the primary itself, then s1 again after */
	VkBufferCopy r2 = { 0, 256 * 4, 256 * 4 };
	vkCmdCopyBuffer(p, a.buf, b.buf, 1, &r2);
	barrier(p);
	vkCmdExecuteCommands(p, 1, &s1);
	barrier_host(p);
	cmd_submit_wait(p, queues[0]);

	uint32_t bad = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = i < 256 ? 0x11111111u :
		                i < 512 ? pattern(3, i - 256) : pattern(3, i);
		if (b.map[i] != want && bad++ < 5)
			fprintf(stderr, "secondary: word %u = 0x%08x, want "
			        "0x%08x\n", i, b.map[i], want);
	}
	CHECK(bad == 0);
	vkFreeCommandBuffers(dev, pool, 2, secs);
	buf_destroy(&a);
	buf_destroy(&b);
}

/* 20,000 4-byte copies reversing a buffer: ~140,000 dwords of packets,
 * several command chunks. Recorded twice (reset + re-record reuses the
 * pool's chunks), then the pool is trimmed. The second round submits the
 * buffer 8 times in one batch (SIMULTANEOUS_USE): a job of ~72 IBs. */
static void
test_big_cmd_buffer(void)
{
	const uint32_t n = 20000;
	struct buf src = buf_create(n * 4, true);
	struct buf dst = buf_create(n * 4, true);
	VkCommandBuffer cb;
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkCommandBuffer same[8];
	VK(vkAllocateCommandBuffers(dev, &ai, &cb));
	for (uint32_t i = 0; i < 8; i++)
		same[i] = cb;

	for (int round = 0; round < 2; round++) {
		for (uint32_t i = 0; i < n; i++)
			src.map[i] = pattern(4 + round, i);
		memset(dst.map, 0, n * 4);
		bi.flags = round ? VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT
		                 : 0;
		VK(vkBeginCommandBuffer(cb, &bi));  /* implicit reset */
		for (uint32_t i = 0; i < n; i++) {
			VkBufferCopy r = { i * 4, (n - 1 - i) * 4, 4 };
			vkCmdCopyBuffer(cb, src.buf, dst.buf, 1, &r);
		}
		barrier_host(cb);
		VK(vkEndCommandBuffer(cb));
		VkFence f = fence_create(false);
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = round ? 8 : 1,
			.pCommandBuffers = same,
		};
		VK(vkQueueSubmit(queues[0], 1, &si, f));
		VK(vkWaitForFences(dev, 1, &f, VK_TRUE, TIMEOUT_NS));
		vkDestroyFence(dev, f, NULL);

		uint32_t bad = 0;
		for (uint32_t i = 0; i < n; i++)
			if (dst.map[n - 1 - i] != pattern(4 + round, i) &&
			    bad++ < 5)
				fprintf(stderr, "big: word %u wrong\n", i);
		CHECK(bad == 0);
	}
	VK(vkResetCommandBuffer(cb,
	        VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT));
	vkFreeCommandBuffers(dev, pool, 1, &cb);
	vkTrimCommandPool(dev, pool, 0);
	VK(vkResetCommandPool(dev, pool, 0));
	buf_destroy(&src);
	buf_destroy(&dst);
}

/* A pool with a reset flag reused many times (chunk recycling), and an
 * empty command buffer. */
static void
test_pool_recycle(void)
{
	struct buf a = buf_create(4096, true);
	for (uint32_t round = 0; round < 50; round++) {
		VkCommandBuffer cb = cmd_begin();
		vkCmdFillBuffer(cb, a.buf, 0, VK_WHOLE_SIZE, round);
		barrier_host(cb);
		cmd_submit_wait(cb, queues[round % 2]);
		CHECK(a.map[1023] == round);
	}
	VkCommandBuffer empty = cmd_begin();
	cmd_submit_wait(empty, queues[0]);
	VK(vkQueueWaitIdle(queues[1]));
	buf_destroy(&a);
}

/* Allocation callbacks that count live allocations and fail from the
 * fail_at-th call on. */
struct counting_alloc {
	int live;
	int calls;
	int fail_at;            /* -1: never */
};

static VKAPI_ATTR void *VKAPI_CALL
ca_alloc(void *user, size_t size, size_t align,
         VkSystemAllocationScope scope)
{
	struct counting_alloc *ca = user;

	if (ca->fail_at >= 0 && ca->calls++ >= ca->fail_at)
		return NULL;
	size = (size + align - 1) / align * align;
	void *p = aligned_alloc(align, size ? size : align);
	if (p)
		ca->live++;
	return p;
}

static VKAPI_ATTR void VKAPI_CALL
ca_free(void *user, void *p)
{
	struct counting_alloc *ca = user;

	if (p)
		ca->live--;
	free(p);
}

static VKAPI_ATTR void *VKAPI_CALL
ca_realloc(void *user, void *old, size_t size, size_t align,
           VkSystemAllocationScope scope)
{
	/* Not used by a driver that only allocates and frees; refuse so a
	 * use would show up as a failure. */
	return NULL;
}

/* Every allocation failure while allocating and recording a multi-chunk
 * command buffer gives VK_ERROR_OUT_OF_HOST_MEMORY (at allocation or at
 * vkEndCommandBuffer) and leaks nothing once the pool is destroyed.
 * swgpu only: lavapipe (Mesa 22/23) crashes on failing callbacks. */
static void
test_alloc_failure(void)
{
	if (!is_swgpu) {
		printf("alloc_failure: skipped (not swgpu)\n");
		return;
	}

	struct buf src = buf_create(4096, true);
	struct buf dst = buf_create(4096, true);
	const VkCommandBufferBeginInfo begin_info = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	bool succeeded = false;

	for (int fail_at = 0; fail_at < 64 && !succeeded; fail_at++) {
		struct counting_alloc ca = { .fail_at = fail_at };
		VkAllocationCallbacks cbs = {
			.pUserData = &ca,
			.pfnAllocation = ca_alloc,
			.pfnReallocation = ca_realloc,
			.pfnFree = ca_free,
		};
		VkCommandPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.queueFamilyIndex = family,
		};
		VkCommandPool p;
		VkResult r = vkCreateCommandPool(dev, &pci, &cbs, &p);

		if (r != VK_SUCCESS) {
			CHECK(r == VK_ERROR_OUT_OF_HOST_MEMORY);
			CHECK(ca.live == 0);
			continue;
		}
		VkCommandBuffer cb[3] = { 0 };
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = p,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
			.commandBufferCount = 3,
		};
		r = vkAllocateCommandBuffers(dev, &ai, cb);
		if (r != VK_SUCCESS) {
			CHECK(r == VK_ERROR_OUT_OF_HOST_MEMORY);
			CHECK(cb[0] == VK_NULL_HANDLE &&
			      cb[2] == VK_NULL_HANDLE);
		} else {
			VK(vkBeginCommandBuffer(cb[1], &begin_info));
			for (uint32_t i = 0; i < 20000; i++) {
				VkBufferCopy c = { (i % 1024) * 4,
				                   (i % 1024) * 4, 4 };
				vkCmdCopyBuffer(cb[1], src.buf, dst.buf, 1, &c);
			}
			r = vkEndCommandBuffer(cb[1]);
			CHECK(r == VK_SUCCESS ||
			      r == VK_ERROR_OUT_OF_HOST_MEMORY);
			succeeded = r == VK_SUCCESS;
			vkFreeCommandBuffers(dev, p, 3, cb);
		}
		vkDestroyCommandPool(dev, p, &cbs);
		CHECK(ca.live == 0);
	}
	CHECK(succeeded);
	buf_destroy(&src);
	buf_destroy(&dst);
}

int
main(void)
{
	setup();
	struct { const char *name; void (*fn)(void); } tests[] = {
		{ "transfer", test_transfer },
		{ "secondary", test_secondary },
		{ "big_cmd_buffer", test_big_cmd_buffer },
		{ "events", test_events },
		{ "timestamps", test_timestamps },
		{ "fences", test_fences },
		{ "semaphores", test_semaphores },
		{ "pool_recycle", test_pool_recycle },
		{ "alloc_failure", test_alloc_failure },
	};
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		int f0 = failures, v0 = validation_messages;

		tests[i].fn();
		printf("%-16s %s\n", tests[i].name,
		       failures == f0 && validation_messages == v0 ?
		       "ok" : "FAILED");
	}
	teardown();
	if (validation_messages)
		fprintf(stderr, "%d validation messages\n",
		        validation_messages);
	if (tolerated_messages)
		printf("%d queue-capability (-cmdpool) messages expected on "
		       "a transfer-only queue\n", tolerated_messages);
	return failures || validation_messages ? 1 : 0;
}
