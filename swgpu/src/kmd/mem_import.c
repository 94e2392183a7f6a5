/* SPDX-License-Identifier: MIT */
/*
 * Host memory as a BO (swgpu_bo_import_host; VK_EXT_external_memory_host):
 * the BO's backing is the caller's pages. The GPU reaches them like any
 * SYSTEM BO (a VA mapping, packets, shaders); swgpu never allocates,
 * accounts (the pages are not the heap's), offers, moves or frees them,
 * so the caller's pointer stays valid and must outlive the BO and every
 * job using it.
 */
#include <stdlib.h>

#include "kmd/device.h"
#include "kmd/mem.h"
#include "util/util.h"
#include "remote/remote.h"

swgpu_result
swgpu_bo_import_host(swgpu_device *dev, void *ptr, uint64_t size,
                     uint32_t flags, swgpu_bo **out)
{
	if (remote_is(dev))
		return SWGPU_ERR(true, SWGPU_ERR_UNSUPPORTED, "host memory cannot be imported in shared mode (swgpud cannot reach this process's memory)");
	bool debug = dev ? dev->mem.debug : swgpu_debug_env();
	struct swgpu_mem *mem;
	struct swgpu_bo *bo;

	if (out)
		*out = NULL;
	if (!dev || !ptr || !out)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG, "NULL argument");
	mem = &dev->mem;
	if (((uintptr_t)ptr | size) & (mem->page_size - 1) || !size)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "host pointer %p size 0x%llx not page aligned",
		                 ptr, (unsigned long long)size);
	if (flags & ~SWGPU_BO_CACHED)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "BO flags 0x%x for imported memory", flags);
	bo = calloc(1, sizeof(*bo));
	if (!bo)
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY, "calloc");
	mem_publish_imported(dev, bo, ptr, size, SWGPU_HEAP_SYSTEM, flags);
	*out = bo;
	return SWGPU_OK;
}

void
mem_publish_imported(swgpu_device *dev, struct swgpu_bo *bo, void *cpu,
                     uint64_t size, swgpu_heap heap, uint32_t flags)
{
	struct swgpu_mem *mem = &dev->mem;

	bo->dev = dev;
	bo->mem = mem;
	bo->size = size;
	bo->heap = bo->loc = heap;
	bo->flags = flags;
	bo->priority = SWGPU_BO_PRIORITY_DEFAULT;
	/* The pages are not the heap's: never accounted, moved or freed
	 * by the heap. */
	bo->imported = true;
	bo->cpu = cpu;
	atomic_init(&bo->refcount, 1);
	atomic_init(&bo->map_count, 0);
	atomic_init(&bo->gpu_busy, 0);
	pthread_mutex_lock(&mem->lock);
	mem_list_add_locked(mem, bo);
	pthread_mutex_unlock(&mem->lock);
}
