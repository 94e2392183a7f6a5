/* SPDX-License-Identifier: MIT */
/*
 * Device memory and buffers through the loader: every memory type is
 * allocated, written (from the host when mappable, through the GPU when
 * not), copied by the GPU and read back; mapping at offsets; memory
 * requirements 2 / bind 2 with dedicated allocations; allocation failures
 * report VK_ERROR_OUT_OF_DEVICE_MEMORY.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)

static bool
host_visible(const struct vkh *h, int type)
{
	return h->mem.memoryTypes[type].propertyFlags &
	       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
}

static uint32_t
buffer_type_bits(struct vkh_device *d, VkDeviceSize size)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = XFER,
	};
	VkBuffer b;
	VkMemoryRequirements req = { 0 };

	if (vkCreateBuffer(d->device, &bci, NULL, &b) != VK_SUCCESS)
		return 0;
	vkGetBufferMemoryRequirements(d->device, b, &req);
	vkDestroyBuffer(d->device, b, NULL);
	return req.memoryTypeBits;
}

/* For every memory type a transfer buffer may use: fill it (host write or
 * GPU copy from an upload buffer), copy it to a readback buffer on the GPU,
 * compare every byte. Host-visible types are also read back directly. */
static void
test_every_memory_type(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 1 << 20;
	uint32_t bits = buffer_type_bits(d, size);
	struct vkh_buffer up, rb;
	uint8_t *want = malloc(size);
	unsigned tested = 0;

	VKH_CHECK(h, want);
	VKH_CHECK(h, bits != 0);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1,
	                                  &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK,
	                                  -1, &rb));
	for (uint32_t t = 0; t < h->mem.memoryTypeCount; t++) {
		struct vkh_buffer b;
		uint32_t seed = 100 + t;

		if (!(bits & (1u << t)))
			continue;
		printf("  memory ");
		vkh_print_memtype(h, stdout, (int)t);
		printf("\n");
		for (VkDeviceSize i = 0; i < size; i++)
			want[i] = vkh_pattern(seed, i);
		VKH_CHECK_VK(h, vkh_buffer_create(h, d, size, XFER, 0, (int)t,
		                                  &b));
		if (host_visible(h, (int)t)) {
			VKH_CHECK(h, b.map != NULL);
			memcpy(b.map, want, size);
		} else {
			memcpy(up.map, want, size);
			VKH_CHECK_VK(h, vkh_copy_sync(d, 0, up.buffer, 0,
			                              b.buffer, 0, size));
		}
		memset(rb.map, 0, size);
		VKH_CHECK_VK(h, vkh_copy_sync(d, 0, b.buffer, 0, rb.buffer, 0,
		                              size));
		vkh_buffer_invalidate(h, d, &rb);
		VKH_CHECK_MSG(h, !memcmp(rb.map, want, size),
		              "type %u: GPU copy read back wrong data", t);

		/* GPU write into the type, host reads it directly. */
		if (host_visible(h, (int)t)) {
			for (VkDeviceSize i = 0; i < size; i++)
				want[i] = vkh_pattern(seed + 50, i);
			memcpy(up.map, want, size);
			memset(b.map, 0, size);
			VKH_CHECK_VK(h, vkh_copy_sync(d, 0, up.buffer, 0,
			                              b.buffer, 0, size));
			vkh_buffer_invalidate(h, d, &b);
			VKH_CHECK_MSG(h, !memcmp(b.map, want, size),
			              "type %u: host read of GPU write wrong",
			              t);
		}
		vkh_buffer_destroy(d, &b);
		tested++;
	}
	printf("  %u memory type(s) checked\n", tested);
	vkh_buffer_destroy(d, &up);
	vkh_buffer_destroy(d, &rb);
	free(want);
}

/* Map at an offset, unmap, remap whole: contents persist; flush and
 * invalidate of coherent ranges are harmless. */
static void
test_map_offsets(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 64 * 1024;
	int t = vkh_memtype_upload(h, ~0u);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = size,
	};
	VkDeviceMemory mem;
	uint8_t *p;
	VkMappedMemoryRange range = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.offset = 0,
		.size = VK_WHOLE_SIZE,
	};

	VKH_CHECK(h, t >= 0);
	mai.memoryTypeIndex = (uint32_t)t;
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &mai, NULL, &mem));
	/* Offsets need not be aligned for vkMapMemory. */
	VKH_CHECK_VK(h, vkMapMemory(d->device, mem, 4097, 1000, 0,
	                            (void **)&p));
	for (unsigned i = 0; i < 1000; i++)
		p[i] = (uint8_t)(i * 7 + 1);
	vkUnmapMemory(d->device, mem);
	VKH_CHECK_VK(h, vkMapMemory(d->device, mem, 0, VK_WHOLE_SIZE, 0,
	                            (void **)&p));
	range.memory = mem;
	VKH_CHECK_VK(h, vkFlushMappedMemoryRanges(d->device, 1, &range));
	VKH_CHECK_VK(h, vkInvalidateMappedMemoryRanges(d->device, 1, &range));
	for (unsigned i = 0; i < 1000; i++)
		VKH_CHECK_MSG(h, p[4097 + i] == (uint8_t)(i * 7 + 1),
		              "byte %u lost across unmap/remap", i);
	vkUnmapMemory(d->device, mem);
	vkFreeMemory(d->device, mem, NULL);
}

/* vkGetBufferMemoryRequirements2 with dedicated requirements,
 * VkMemoryDedicatedAllocateInfo, vkBindBufferMemory2 at a non-zero
 * offset, then a copy through the bound buffers. */
static void
test_requirements2_bind2(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = 12345;
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = XFER,
	};
	VkBuffer src, dst;
	VkMemoryDedicatedRequirements ded = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS,
	};
	VkMemoryRequirements2 req = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
		.pNext = &ded,
	};
	VkBufferMemoryRequirementsInfo2 ri = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
	};
	VkMemoryDedicatedAllocateInfo dai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
	};
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	VkDeviceMemory smem, dmem;
	VkBindBufferMemoryInfo bind[2];
	VkDeviceSize off;
	uint8_t *sp, *dp;
	int ts, td;

	VKH_CHECK_VK(h, vkCreateBuffer(d->device, &bci, NULL, &src));
	VKH_CHECK_VK(h, vkCreateBuffer(d->device, &bci, NULL, &dst));

	/* Source: dedicated allocation in the upload type. */
	ri.buffer = src;
	vkGetBufferMemoryRequirements2(d->device, &ri, &req);
	VKH_CHECK(h, req.memoryRequirements.size >= size);
	VKH_CHECK(h, req.memoryRequirements.alignment &&
	             !(req.memoryRequirements.alignment &
	               (req.memoryRequirements.alignment - 1)));
	ts = vkh_memtype_upload(h, req.memoryRequirements.memoryTypeBits);
	VKH_CHECK(h, ts >= 0);
	dai.buffer = src;
	mai.pNext = &dai;
	mai.allocationSize = req.memoryRequirements.size;
	mai.memoryTypeIndex = (uint32_t)ts;
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &mai, NULL, &smem));

	/* Destination: bound at an aligned non-zero offset in a readback
	 * allocation. */
	ri.buffer = dst;
	vkGetBufferMemoryRequirements2(d->device, &ri, &req);
	td = vkh_memtype_readback(h, req.memoryRequirements.memoryTypeBits);
	VKH_CHECK(h, td >= 0);
	off = req.memoryRequirements.alignment * 3;
	mai.pNext = NULL;
	mai.allocationSize = off + req.memoryRequirements.size;
	mai.memoryTypeIndex = (uint32_t)td;
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &mai, NULL, &dmem));

	bind[0] = (VkBindBufferMemoryInfo){
		.sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
		.buffer = src, .memory = smem, .memoryOffset = 0,
	};
	bind[1] = (VkBindBufferMemoryInfo){
		.sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
		.buffer = dst, .memory = dmem, .memoryOffset = off,
	};
	VKH_CHECK_VK(h, vkBindBufferMemory2(d->device, 2, bind));
	VKH_CHECK_VK(h, vkMapMemory(d->device, smem, 0, VK_WHOLE_SIZE, 0,
	                            (void **)&sp));
	VKH_CHECK_VK(h, vkMapMemory(d->device, dmem, 0, VK_WHOLE_SIZE, 0,
	                            (void **)&dp));
	for (VkDeviceSize i = 0; i < size; i++)
		sp[i] = vkh_pattern(7, i);
	memset(dp, 0xee, (size_t)(off + size));
	VKH_CHECK_VK(h, vkh_copy_sync(d, 0, src, 0, dst, 0, size));
	for (VkDeviceSize i = 0; i < off; i++)
		VKH_CHECK_MSG(h, dp[i] == 0xee,
		              "byte %llu before the bind offset written",
		              (unsigned long long)i);
	for (VkDeviceSize i = 0; i < size; i++)
		VKH_CHECK_MSG(h, dp[off + i] == vkh_pattern(7, i),
		              "byte %llu wrong", (unsigned long long)i);
	vkDestroyBuffer(d->device, src, NULL);
	vkDestroyBuffer(d->device, dst, NULL);
	vkFreeMemory(d->device, smem, NULL);
	vkFreeMemory(d->device, dmem, NULL);
}

/* Smallest heap that some memory type lives in, and that type. */
static int
smallest_heap_type(const struct vkh *h, uint32_t *heap_out)
{
	int best = -1;
	VkDeviceSize best_size = ~0ull;

	for (uint32_t t = 0; t < h->mem.memoryTypeCount; t++) {
		uint32_t heap = h->mem.memoryTypes[t].heapIndex;
		if (h->mem.memoryHeaps[heap].size < best_size) {
			best_size = h->mem.memoryHeaps[heap].size;
			best = (int)t;
			*heap_out = heap;
		}
	}
	return best;
}

/* An allocation larger than its heap fails with
 * VK_ERROR_OUT_OF_DEVICE_MEMORY. The validation layer reports such a size
 * as invalid usage (allocationSize <= heap size, VUID ...-01713); that one
 * message is expected here, every other still fails the test. */
static void
test_alloc_larger_than_heap(struct vkh *h, struct vkh_device *d)
{
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	VkDeviceMemory mem = VK_NULL_HANDLE;
	uint32_t heap = 0;
	int t = smallest_heap_type(h, &heap);
	VkResult r;

	VKH_CHECK(h, t >= 0);
	mai.memoryTypeIndex = (uint32_t)t;
	mai.allocationSize = h->mem.memoryHeaps[heap].size + (1ull << 30);
	printf("  allocating %llu MiB from ",
	       (unsigned long long)(mai.allocationSize >> 20));
	vkh_print_memtype(h, stdout, t);
	printf("\n");
	vkh_expect_message("01713");
	r = vkAllocateMemory(d->device, &mai, NULL, &mem);
	vkh_expect_clear();
	if (r == VK_SUCCESS)
		vkFreeMemory(d->device, mem, NULL);
	printf("  -> %s\n", vkh_result_str(r));
	/* Being invalid usage, the outcome is undefined by the spec; other
	 * drivers (lavapipe) may succeed. swgpu promises a clean error. */
	if (!h->is_swgpu && r == VK_SUCCESS) {
		printf("  (not swgpu: success on invalid usage accepted)\n");
		return;
	}
	VKH_CHECK_RESULT(h, r, VK_ERROR_OUT_OF_DEVICE_MEMORY);
}

/* Filling a small heap (at most 1 GiB, e.g. the host-visible VRAM window)
 * with allocations that each fit ends in VK_ERROR_OUT_OF_DEVICE_MEMORY, and
 * freeing makes room again. Skipped when every heap is larger (lavapipe):
 * exhausting gigabytes of host memory is not a test. */
static void
test_heap_exhaustion(struct vkh *h, struct vkh_device *d)
{
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	};
	VkDeviceMemory mem[9] = { 0 };
	uint32_t heap = 0, n = 0;
	int t = smallest_heap_type(h, &heap);
	VkDeviceSize heap_size;
	VkResult r = VK_SUCCESS;

	VKH_CHECK(h, t >= 0);
	heap_size = h->mem.memoryHeaps[heap].size;
	if (heap_size > (1ull << 30)) {
		vkh_skip(h, "smallest heap is %llu MiB (> 1 GiB)",
		         (unsigned long long)(heap_size >> 20));
		return;
	}
	mai.memoryTypeIndex = (uint32_t)t;
	mai.allocationSize = heap_size / 4;
	while (n < 9) {
		r = vkAllocateMemory(d->device, &mai, NULL, &mem[n]);
		if (r != VK_SUCCESS)
			break;
		n++;
	}
	printf("  heap %u (%llu MiB): %u x %llu MiB allocated, then %s\n",
	       heap, (unsigned long long)(heap_size >> 20), n,
	       (unsigned long long)(mai.allocationSize >> 20),
	       vkh_result_str(r));
	for (uint32_t i = 0; i < n; i++)
		vkFreeMemory(d->device, mem[i], NULL);
	if (h->is_swgpu && (h->mem.memoryTypes[t].propertyFlags &
	                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
		/* swgpu over-subscribes device-local heaps (idle memory is
		 * evicted to system memory): all of them fit. Running out
		 * of both heaps is test_vk_memory_pressure's. */
		VKH_CHECK_MSG(h, n == 9, "%u quarter-heap allocations", n);
		return;
	}
	VKH_CHECK_MSG(h, n >= 1 && n <= 4, "%u quarter-heap allocations", n);
	VKH_CHECK_RESULT(h, r, VK_ERROR_OUT_OF_DEVICE_MEMORY);
	/* Everything was freed: the whole budget is available again. */
	VKH_CHECK_VK(h, vkAllocateMemory(d->device, &mai, NULL, &mem[0]));
	vkFreeMemory(d->device, mem[0], NULL);
}

/* 1000 small allocations alive at once in every host-visible type, each
 * mapped and stamped with its index, all checked before being freed. */
static void
test_many_allocations(struct vkh *h, struct vkh_device *d)
{
	enum { N = 1000 };
	VkDeviceMemory *mem = calloc(N, sizeof(*mem));
	uint32_t **ptr = calloc(N, sizeof(*ptr));
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = 4096,
	};

	VKH_CHECK(h, mem && ptr);
	VKH_CHECK(h, h->props.limits.maxMemoryAllocationCount >= N);
	for (uint32_t t = 0; t < h->mem.memoryTypeCount; t++) {
		if (!host_visible(h, (int)t))
			continue;
		mai.memoryTypeIndex = t;
		for (uint32_t i = 0; i < N; i++) {
			VKH_CHECK_VK(h, vkAllocateMemory(d->device, &mai, NULL,
			                                 &mem[i]));
			VKH_CHECK_VK(h, vkMapMemory(d->device, mem[i], 0,
			                            VK_WHOLE_SIZE, 0,
			                            (void **)&ptr[i]));
			for (uint32_t k = 0; k < 1024; k++)
				ptr[i][k] = i * 7919 + k + t;
		}
		for (uint32_t i = 0; i < N; i++) {
			for (uint32_t k = 0; k < 1024; k++)
				VKH_CHECK_MSG(h, ptr[i][k] == i * 7919 + k + t,
				              "type %u allocation %u word %u", t,
				              i, k);
			vkUnmapMemory(d->device, mem[i]);
			vkFreeMemory(d->device, mem[i], NULL);
		}
		printf("  type %u: %u allocations of 4 KiB\n", t, N);
	}
	free(mem);
	free(ptr);
}

static const struct vkh_test tests[] = {
	{ "every_memory_type", test_every_memory_type, 1, 0 },
	{ "map_offsets", test_map_offsets, 1, 0 },
	{ "requirements2_bind2", test_requirements2_bind2, 1, 0 },
	{ "alloc_larger_than_heap", test_alloc_larger_than_heap, 1, 0 },
	{ "heap_exhaustion", test_heap_exhaustion, 1, 0 },
	{ "many_allocations", test_many_allocations, 1, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_memory", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
