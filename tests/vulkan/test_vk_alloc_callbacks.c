/* SPDX-License-Identifier: MIT */
/*
 * VkAllocationCallbacks: a counting allocator fails its Nth allocation
 * (N = 0, 1, 2, ... until the whole sequence succeeds). Every failure must
 * come back as VK_ERROR_OUT_OF_HOST_MEMORY, and after the objects are
 * destroyed every allocation made through the callbacks must have been
 * freed. Covers command pools and command buffers (allocation, recording,
 * reset), fences, binary and timeline semaphores, events, query pools,
 * buffers and device memory.
 */
#include "vk_harness.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define MAX_STEPS 2000

struct counting {
	pthread_mutex_t lock;
	long calls;   /* allocation + reallocation calls */
	long fail_at; /* call index that fails, -1: none */
	long live;    /* allocations not yet freed */
	long failed;
	long scope_mask; /* VkSystemAllocationScope seen, as bits */
	bool disarmed;   /* calls from here on neither counted nor failed */
};

/* The sweep in progress, for attempts that disarm it. */
static struct counting *sweep;

/* Each block has a header in front: its size and the offset back to the
 * start of the real allocation, so free and realloc need no table. */
struct hdr {
	size_t size;
	size_t offset;
};

static void *
raw_alloc(size_t size, size_t align)
{
	size_t off;
	void *base;
	struct hdr *hd;

	if (align < sizeof(struct hdr))
		align = sizeof(struct hdr);
	off = (sizeof(struct hdr) + align - 1) / align * align;
	if (posix_memalign(&base, align, off + size))
		return NULL;
	hd = (struct hdr *)((char *)base + off) - 1;
	hd->size = size;
	hd->offset = off;
	return (char *)base + off;
}

static void
raw_free(void *p)
{
	struct hdr *hd = (struct hdr *)p - 1;

	free((char *)p - hd->offset);
}

static bool
take_call(struct counting *c, VkSystemAllocationScope scope)
{
	bool ok;

	pthread_mutex_lock(&c->lock);
	if (c->disarmed) {
		pthread_mutex_unlock(&c->lock);
		return true;
	}
	ok = c->calls != c->fail_at;
	c->calls++;
	c->scope_mask |= 1l << scope;
	if (!ok)
		c->failed++;
	pthread_mutex_unlock(&c->lock);
	return ok;
}

static void
count_live(struct counting *c, long delta)
{
	pthread_mutex_lock(&c->lock);
	c->live += delta;
	pthread_mutex_unlock(&c->lock);
}

static VKAPI_ATTR void *VKAPI_CALL
cb_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
	struct counting *c = user;
	void *p;

	if (!take_call(c, scope))
		return NULL;
	p = raw_alloc(size, align);
	if (p)
		count_live(c, 1);
	return p;
}

static VKAPI_ATTR void VKAPI_CALL
cb_free(void *user, void *p)
{
	if (!p)
		return;
	count_live(user, -1);
	raw_free(p);
}

static VKAPI_ATTR void *VKAPI_CALL
cb_realloc(void *user, void *old, size_t size, size_t align,
           VkSystemAllocationScope scope)
{
	struct counting *c = user;
	void *p;

	if (!old)
		return cb_alloc(user, size, align, scope);
	if (size == 0) {
		cb_free(user, old);
		return NULL;
	}
	/* On failure the old block stays valid, as the spec requires. */
	if (!take_call(c, scope))
		return NULL;
	p = raw_alloc(size, align);
	if (!p)
		return NULL;
	memcpy(p, old, size < ((struct hdr *)old - 1)->size ?
	               size : ((struct hdr *)old - 1)->size);
	raw_free(old);
	return p;
}

/* One attempt creates, uses and destroys its objects with the callbacks;
 * on a failure it cleans up and returns the failing VkResult. */
typedef VkResult (*attempt_fn)(struct vkh *h, struct vkh_device *d,
                               const VkAllocationCallbacks *ac);

static void
run_failure_sweep(struct vkh *h, struct vkh_device *d, const char *what,
                  attempt_fn attempt)
{
	struct counting c = { .lock = PTHREAD_MUTEX_INITIALIZER };
	VkAllocationCallbacks ac = {
		.pUserData = &c,
		.pfnAllocation = cb_alloc,
		.pfnReallocation = cb_realloc,
		.pfnFree = cb_free,
	};
	long n;
	VkResult r = VK_ERROR_UNKNOWN;

	/* The layer reports each VK_ERROR_OUT_OF_HOST_MEMORY return as an
	 * error message; here those returns are the point of the test. */
	vkh_expect_message("VK_ERROR_OUT_OF_HOST_MEMORY");
	for (n = 0; n < MAX_STEPS; n++) {
		c.calls = 0;
		c.failed = 0;
		c.fail_at = n;
		c.disarmed = false;
		sweep = &c;
		r = attempt(h, d, &ac);
		VKH_CHECK_MSG(h, c.live == 0,
		              "%s: failing call %ld: %ld allocation(s) leaked",
		              what, n, c.live);
		if (r == VK_SUCCESS)
			break;
		VKH_CHECK_MSG(h, r == VK_ERROR_OUT_OF_HOST_MEMORY,
		              "%s: failing call %ld returned %s", what, n,
		              vkh_result_str(r));
		VKH_CHECK_MSG(h, c.failed == 1,
		              "%s: failure at call %ld never happened but the "
		              "attempt failed", what, n);
	}
	VKH_CHECK_MSG(h, r == VK_SUCCESS, "%s: no success after %d steps",
	              what, MAX_STEPS);
	/* A run that succeeded at step n made n calls; all of them were
	 * failed once, each cleanly. */
	printf("  %-22s %3ld allocation call(s), each failure clean\n", what,
	       c.calls);
	VKH_CHECK_MSG(h, c.calls > 0,
	              "%s: the driver never used the allocation callbacks",
	              what);
	VKH_CHECK_MSG(h, c.calls == n,
	              "%s: %ld calls in the successful run, %ld failure "
	              "points", what, c.calls, n);
}

static VkResult
attempt_fence(struct vkh *h, struct vkh_device *d,
              const VkAllocationCallbacks *ac)
{
	VkFenceCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
		.flags = VK_FENCE_CREATE_SIGNALED_BIT,
	};
	VkFence f;
	VkResult r = vkCreateFence(d->device, &fci, ac, &f);

	if (r != VK_SUCCESS)
		return r;
	r = vkWaitForFences(d->device, 1, &f, VK_TRUE, 0);
	vkDestroyFence(d->device, f, ac);
	return r;
}

static VkResult
attempt_semaphores(struct vkh *h, struct vkh_device *d,
                   const VkAllocationCallbacks *ac)
{
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		.initialValue = 3,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
	};
	VkSemaphore bin, tl;
	uint64_t v = 0;
	VkResult r = vkCreateSemaphore(d->device, &sci, ac, &bin);

	if (r != VK_SUCCESS)
		return r;
	sci.pNext = &tci;
	r = vkCreateSemaphore(d->device, &sci, ac, &tl);
	if (r == VK_SUCCESS) {
		r = vkGetSemaphoreCounterValue(d->device, tl, &v);
		if (r == VK_SUCCESS && v != 3)
			r = VK_ERROR_UNKNOWN;
		vkDestroySemaphore(d->device, tl, ac);
	}
	vkDestroySemaphore(d->device, bin, ac);
	return r;
}

static VkResult
attempt_event(struct vkh *h, struct vkh_device *d,
              const VkAllocationCallbacks *ac)
{
	VkEventCreateInfo eci = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
	VkEvent e;
	VkResult r = vkCreateEvent(d->device, &eci, ac, &e);

	if (r != VK_SUCCESS)
		return r;
	r = vkSetEvent(d->device, e);
	if (r == VK_SUCCESS)
		r = vkGetEventStatus(d->device, e) == VK_EVENT_SET ?
		    VK_SUCCESS : VK_ERROR_UNKNOWN;
	vkDestroyEvent(d->device, e, ac);
	return r;
}

static VkResult
attempt_query_pool(struct vkh *h, struct vkh_device *d,
                   const VkAllocationCallbacks *ac)
{
	VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = 64,
	};
	VkQueryPool p;
	VkResult r = vkCreateQueryPool(d->device, &qci, ac, &p);

	if (r != VK_SUCCESS)
		return r;
	vkDestroyQueryPool(d->device, p, ac);
	return VK_SUCCESS;
}

static VkResult
attempt_sampler(struct vkh *h, struct vkh_device *d,
                const VkAllocationCallbacks *ac)
{
	VkSamplerCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
		.magFilter = VK_FILTER_LINEAR,
		.minFilter = VK_FILTER_NEAREST,
		.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
		.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
		.addressModeW = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
		.maxLod = VK_LOD_CLAMP_NONE,
		.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
	};
	VkSampler s[3];
	VkResult r = VK_SUCCESS;
	uint32_t n = 0;

	/* Several at once: distinct handles, each freed. */
	for (; n < 3; n++) {
		r = vkCreateSampler(d->device, &sci, ac, &s[n]);
		if (r != VK_SUCCESS)
			break;
	}
	if (n == 3 && (s[0] == s[1] || s[1] == s[2] || s[0] == s[2]))
		r = VK_ERROR_UNKNOWN;
	while (n--)
		vkDestroySampler(d->device, s[n], ac);
	return r;
}

static VkResult
attempt_buffer_memory(struct vkh *h, struct vkh_device *d,
                      const VkAllocationCallbacks *ac)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = 65536,
		.usage = XFER,
	};
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	VkMemoryRequirements req;
	VkBuffer b;
	VkDeviceMemory m;
	VkResult r = vkCreateBuffer(d->device, &bci, ac, &b);
	int t;

	if (r != VK_SUCCESS)
		return r;
	vkGetBufferMemoryRequirements(d->device, b, &req);
	t = vkh_memtype_upload(h, req.memoryTypeBits);
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)(t < 0 ? 0 : t);
	r = vkAllocateMemory(d->device, &mai, ac, &m);
	if (r == VK_SUCCESS) {
		r = vkBindBufferMemory(d->device, b, m, 0);
		vkDestroyBuffer(d->device, b, ac);
		vkFreeMemory(d->device, m, ac);
	} else {
		vkDestroyBuffer(d->device, b, ac);
	}
	return r;
}

/* Command pool, 2 primaries and a secondary, recording long enough to
 * need more command memory, a pool reset and a re-record. */
static VkResult
record(VkCommandBuffer cb, VkBuffer buf, VkCommandBuffer secondary)
{
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkResult r = vkBeginCommandBuffer(cb, &bi);

	if (r != VK_SUCCESS)
		return r;
	for (unsigned i = 0; i < 200; i++) {
		uint32_t data[16] = { i };
		vkCmdFillBuffer(cb, buf, 0, 256, i);
		vkh_cmd_transfer_barrier(cb);
		vkCmdUpdateBuffer(cb, buf, 256, sizeof(data), data);
		vkh_cmd_transfer_barrier(cb);
	}
	if (secondary)
		vkCmdExecuteCommands(cb, 1, &secondary);
	return vkEndCommandBuffer(cb);
}

static VkResult
attempt_command_buffers(struct vkh *h, struct vkh_device *d,
                        const VkAllocationCallbacks *ac)
{
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.queueFamilyIndex = d->queues[0].family,
	};
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 2,
	};
	VkCommandBufferInheritanceInfo inh = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
	};
	VkCommandBufferBeginInfo sbi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.pInheritanceInfo = &inh,
	};
	VkCommandPool pool;
	VkCommandBuffer cb[2] = { 0 }, sec = VK_NULL_HANDLE;
	struct vkh_buffer b;
	VkBuffer buf;
	VkResult r;

	/* The buffer is only a recording target; nothing executes. It is
	 * made without the callbacks: only the pool's objects are counted. */
	r = vkh_buffer_create(h, d, 4096, XFER, VKH_MEM_UPLOAD, -1, &b);
	if (r != VK_SUCCESS)
		return VK_ERROR_UNKNOWN;
	buf = b.buffer;
	r = vkCreateCommandPool(d->device, &pci, ac, &pool);
	if (r != VK_SUCCESS)
		goto out_buf;
	ai.commandPool = pool;
	r = vkAllocateCommandBuffers(d->device, &ai, cb);
	if (r != VK_SUCCESS) {
		if (cb[0] || cb[1])
			r = VK_ERROR_UNKNOWN; /* must be NULL on failure */
		goto out_pool;
	}
	ai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
	ai.commandBufferCount = 1;
	r = vkAllocateCommandBuffers(d->device, &ai, &sec);
	if (r != VK_SUCCESS)
		goto out_pool;
	r = vkBeginCommandBuffer(sec, &sbi);
	if (r != VK_SUCCESS)
		goto out_pool;
	vkCmdFillBuffer(sec, buf, 0, 64, 1);
	r = vkEndCommandBuffer(sec);
	/* Mesa 22.3's lavapipe crashes in the vkCmd* call after a failed
	 * allocation inside recording, where the spec wants the failure
	 * reported by vkEndCommandBuffer. Other drivers are swept through
	 * creation and allocation only. */
	if (!h->is_swgpu && !sweep->disarmed) {
		pthread_mutex_lock(&sweep->lock);
		sweep->disarmed = true;
		pthread_mutex_unlock(&sweep->lock);
	}
	if (r == VK_SUCCESS)
		r = record(cb[0], buf, sec);
	if (r == VK_SUCCESS)
		r = record(cb[1], buf, VK_NULL_HANDLE);
	if (r == VK_SUCCESS)
		r = vkResetCommandPool(d->device, pool,
		        VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT);
	if (r == VK_SUCCESS)
		r = record(cb[0], buf, VK_NULL_HANDLE);
	if (r == VK_SUCCESS)
		vkFreeCommandBuffers(d->device, pool, 2, cb);
out_pool:
	vkDestroyCommandPool(d->device, pool, ac);
out_buf:
	vkh_buffer_destroy(d, &b);
	return r;
}

/* A set layout (empty and with a binding) and a pipeline layout using it,
 * destroyed in creation order: the set layout's handle goes first while
 * the pipeline layout still refers to its bindings. */
static VkResult
attempt_set_layouts(struct vkh *h, struct vkh_device *d,
                    const VkAllocationCallbacks *ac)
{
	const VkDescriptorSetLayoutBinding b = {
		.binding = 3,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.descriptorCount = 2,
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
	};
	VkDescriptorSetLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
	};
	VkDescriptorSetLayout empty, one;
	VkPipelineLayout pl;
	VkResult r = vkCreateDescriptorSetLayout(d->device, &ci, ac, &empty);

	if (r != VK_SUCCESS)
		return r;
	ci.bindingCount = 1;
	ci.pBindings = &b;
	r = vkCreateDescriptorSetLayout(d->device, &ci, ac, &one);
	if (r != VK_SUCCESS) {
		vkDestroyDescriptorSetLayout(d->device, empty, ac);
		return r;
	}
	VkPipelineLayoutCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pSetLayouts = &one,
	};
	r = vkCreatePipelineLayout(d->device, &pci, ac, &pl);
	vkDestroyDescriptorSetLayout(d->device, empty, ac);
	vkDestroyDescriptorSetLayout(d->device, one, ac);
	if (r == VK_SUCCESS)
		vkDestroyPipelineLayout(d->device, pl, ac);
	return r;
}

/* Only the set layout: its own creation must call the callbacks (swgpu
 * allocates the handle with them; lavapipe's set and pipeline layouts do
 * not use them at all: CTS QualityWarning "Allocation callbacks not
 * called", so the sub-test is swgpu's only). */
static VkResult
attempt_set_layout_only(struct vkh *h, struct vkh_device *d,
                        const VkAllocationCallbacks *ac)
{
	VkDescriptorSetLayoutCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
	};
	VkDescriptorSetLayout l;
	VkResult r = vkCreateDescriptorSetLayout(d->device, &ci, ac, &l);

	if (r == VK_SUCCESS)
		vkDestroyDescriptorSetLayout(d->device, l, ac);
	return r;
}

static void
test_set_layouts(struct vkh *h, struct vkh_device *d)
{
	if (!h->is_swgpu) {
		printf("  (layouts: not with this driver's callbacks)\n");
		return;
	}
	run_failure_sweep(h, d, "set + pipeline layouts", attempt_set_layouts);
	run_failure_sweep(h, d, "set layout alone", attempt_set_layout_only);
}

static void
test_fence(struct vkh *h, struct vkh_device *d)
{
	run_failure_sweep(h, d, "fence", attempt_fence);
}

static void
test_semaphores(struct vkh *h, struct vkh_device *d)
{
	run_failure_sweep(h, d, "semaphores", attempt_semaphores);
}

static void
test_event(struct vkh *h, struct vkh_device *d)
{
	run_failure_sweep(h, d, "event", attempt_event);
}

static void
test_query_pool(struct vkh *h, struct vkh_device *d)
{
	run_failure_sweep(h, d, "query pool", attempt_query_pool);
}

static void
test_sampler(struct vkh *h, struct vkh_device *d)
{
	run_failure_sweep(h, d, "sampler", attempt_sampler);
}

static void
test_buffer_memory(struct vkh *h, struct vkh_device *d)
{
	run_failure_sweep(h, d, "buffer + memory", attempt_buffer_memory);
}

static void
test_command_buffers(struct vkh *h, struct vkh_device *d)
{
	run_failure_sweep(h, d, "command pool + buffers",
	                  attempt_command_buffers);
}

static const struct vkh_test tests[] = {
	{ "fence", test_fence, 1, 0 },
	{ "semaphores", test_semaphores, 1, 0 },
	{ "event", test_event, 1, 0 },
	{ "query_pool", test_query_pool, 1, 0 },
	{ "sampler", test_sampler, 1, 0 },
	{ "buffer_memory", test_buffer_memory, 1, 0 },
	{ "command_buffers", test_command_buffers, 1, 0 },
	{ "set_layouts", test_set_layouts, 1, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_alloc_callbacks", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
