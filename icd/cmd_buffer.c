/* SPDX-License-Identifier: MIT */
/*
 * Command pools and command buffers: chunked command memory, recording
 * state, secondary command buffers. See cmd_buffer.h for the model.
 */
#include <stdlib.h>

#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "cmd_gfx.h"

/* 64 KiB chunks: big enough that a typical command buffer is one IB, small
 * enough that a pool of many short command buffers stays cheap. */
#define ICD_CMD_CHUNK_BYTES (64u * 1024u)

void *
icd_cmd_alloc(struct icd_cmd_pool *pool, size_t size,
              VkSystemAllocationScope scope)
{
	return icd_alloc(pool->has_alloc ? &pool->alloc : NULL,
	                 &pool->device->alloc, size, 8, scope);
}

void
icd_cmd_free(struct icd_cmd_pool *pool, void *p)
{
	icd_free(pool->has_alloc ? &pool->alloc : NULL, &pool->device->alloc,
	         p);
}

void
icd_cmd_set_error(struct icd_cmd_buffer *cb, VkResult r)
{
	if (cb->record_result == VK_SUCCESS)
		cb->record_result = r;
}

void
icd_cmd_unsupported(VkCommandBuffer commandBuffer, const char *name)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	icd_log("%s is not supported by this device", name);
	icd_cmd_set_error(cb, VK_ERROR_FEATURE_NOT_PRESENT);
}

/* ------------------------------------------------------------------ */
/* Chunks                                                              */
/* ------------------------------------------------------------------ */

static uint32_t
chunk_capacity_dw(const struct icd_device *dev)
{
	uint32_t cap = ICD_CMD_CHUNK_BYTES / 4;
	uint32_t max = dev->pdev->info.max_ib_size_dw;

	if (max && max < cap)
		cap = max;
	return cap;
}

static void
chunk_destroy(struct icd_cmd_pool *pool, struct icd_cmd_chunk *c)
{
	/* swgpu_va_unmap never waits: a packet still reading the chunk
	 * holds it until that packet ends (swgpu releases the BO then), so
	 * the handles may go right away; the Vulkan rules already forbid
	 * freeing command memory of a pending command buffer. */
	swgpu_va_unmap(pool->device->ctx, c->va);
	if (!c->offered)
		swgpu_bo_unmap(c->bo);
	swgpu_bo_destroy(c->bo);
	icd_cmd_free(pool, c);
}

static VkResult
chunk_create(struct icd_cmd_pool *pool, struct icd_cmd_chunk **out)
{
	struct icd_device *dev = pool->device;
	uint32_t cap = chunk_capacity_dw(dev);
	struct icd_cmd_chunk *c;
	swgpu_result r;
	void *map;

	c = icd_cmd_alloc(pool, sizeof(*c), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!c)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "command chunk");
	memset(c, 0, sizeof(*c));
	c->capacity_dw = cap;

	/* SYSTEM + CACHED: the host writes packets through the CPU cache
	 * and the engines read them coherently; the GPU only reads, so the
	 * mapping is READ-only and a stray packet write faults. */
	r = swgpu_bo_create(dev->pdev->swdev, (uint64_t)cap * 4,
	                    SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED, &c->bo);
	if (r != SWGPU_OK)
		goto fail_free;
	r = swgpu_bo_map(c->bo, &map);
	if (r != SWGPU_OK)
		goto fail_bo;
	c->map = map;
	r = swgpu_va_map(dev->ctx, c->bo, 0, (uint64_t)cap * 4,
	                 SWGPU_VA_READ, &c->va);
	if (r != SWGPU_OK)
		goto fail_map;
	*out = c;
	return VK_SUCCESS;

fail_map:
	swgpu_bo_unmap(c->bo);
fail_bo:
	swgpu_bo_destroy(c->bo);
fail_free:
	icd_cmd_free(pool, c);
	return icd_error(icd_result_from_swgpu(r), "command chunk: %s",
	                 swgpu_result_str(r));
}

/* An idle chunk goes to the free list offered: swgpu may discard its
 * pages under memory pressure. swgpu only offers BOs without a host
 * mapping; the pointer comes back the same on the next map. */
static void
chunk_offer(struct icd_cmd_chunk *c)
{
	swgpu_result r;

	swgpu_bo_unmap(c->bo);
	r = swgpu_bo_offer(c->bo, SWGPU_OFFER_LOW);
	if (r == SWGPU_OK) {
		c->offered = true;
		return;
	}
	/* Cannot happen (never offered twice, mapped once); keep it
	 * resident and mapped then. */
	icd_log("command chunk: swgpu_bo_offer: %s", swgpu_result_str(r));
	if (swgpu_bo_map(c->bo, (void **)&c->map) != SWGPU_OK)
		icd_log("command chunk: could not map it again");
}

/* Take an offered chunk back for recording. Its contents do not matter
 * (recording overwrites them), so OK and DISCARDED are both success. */
static VkResult
chunk_reclaim(struct icd_cmd_chunk *c)
{
	swgpu_result r;
	void *map;

	if (!c->offered)
		return VK_SUCCESS;
	r = swgpu_bo_reclaim(c->bo);
	if (r != SWGPU_OK && r != SWGPU_DISCARDED)
		return icd_error(icd_result_from_swgpu(r),
		                 "command chunk: swgpu_bo_reclaim: %s",
		                 swgpu_result_str(r));
	c->offered = false;
	r = swgpu_bo_map(c->bo, &map);
	if (r != SWGPU_OK) {
		/* Leave it offered again so chunk_destroy does not unmap. */
		if (swgpu_bo_offer(c->bo, SWGPU_OFFER_LOW) == SWGPU_OK)
			c->offered = true;
		return icd_error(icd_result_from_swgpu(r),
		                 "command chunk: swgpu_bo_map: %s",
		                 swgpu_result_str(r));
	}
	c->map = map;
	return VK_SUCCESS;
}

static void
pool_trim(struct icd_cmd_pool *pool)
{
	while (pool->free_chunks) {
		struct icd_cmd_chunk *c = pool->free_chunks;

		pool->free_chunks = c->next;
		chunk_destroy(pool, c);
	}
}

/* Make room for n more IB entries. */
static VkResult
ibs_reserve(struct icd_cmd_buffer *cb, uint32_t n)
{
	uint32_t want = cb->ib_count + n;
	uint32_t cap = cb->ib_capacity ? cb->ib_capacity : 4;
	swgpu_ib *ibs;

	if (want <= cb->ib_capacity)
		return VK_SUCCESS;
	while (cap < want)
		cap *= 2;
	ibs = icd_cmd_alloc(cb->pool, (size_t)cap * sizeof(*ibs),
	                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!ibs)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "IB list");
	if (cb->ib_count)
		memcpy(ibs, cb->ibs, cb->ib_count * sizeof(*ibs));
	icd_cmd_free(cb->pool, cb->ibs);
	cb->ibs = ibs;
	cb->ib_capacity = cap;
	return VK_SUCCESS;
}

/* Close the chunk being written: it becomes the next IB of the list.
 * Never fails: every chunk has its IB entry reserved when it is added. */
static void
close_chunk(struct icd_cmd_buffer *cb)
{
	if (!cb->cur || cb->cur_used_dw == 0)
		return;
	assert(cb->ib_count < cb->ib_capacity);
	cb->ibs[cb->ib_count].va = cb->cur->va;
	cb->ibs[cb->ib_count].size_dw = cb->cur_used_dw;
	cb->ib_count++;
	cb->cur_used_dw = 0;
}

static VkResult
next_chunk(struct icd_cmd_buffer *cb)
{
	struct icd_cmd_pool *pool = cb->pool;
	struct icd_cmd_chunk *c = NULL;
	VkResult r;

	/* One entry for the chunk being closed, one for the new one. */
	r = ibs_reserve(cb, 2);
	if (r != VK_SUCCESS)
		return r;
	if (pool->free_chunks) {
		c = pool->free_chunks;
		r = chunk_reclaim(c);
		if (r != VK_SUCCESS)
			return r; /* stays on the free list, offered */
		pool->free_chunks = c->next;
	} else {
		r = chunk_create(pool, &c);
		if (r != VK_SUCCESS)
			return r;
	}
	close_chunk(cb);
	c->next = NULL;
	if (cb->cur)
		cb->cur->next = c;
	else
		cb->chunks = c;
	cb->cur = c;
	cb->cur_used_dw = 0;
	return VK_SUCCESS;
}

uint32_t *
icd_cmd_emit(struct icd_cmd_buffer *cb, uint32_t ndw)
{
	uint32_t *p;

	assert(ndw > 0 && ndw <= ICD_CMD_MAX_PACKET_DW);
	if (cb->record_result != VK_SUCCESS || cb->device_lost)
		return NULL;
	if (!cb->cur || cb->cur_used_dw + ndw > cb->cur->capacity_dw) {
		VkResult r = next_chunk(cb);

		if (r == VK_ERROR_DEVICE_LOST) {
			/* Not an error of recording: nothing recorded now
			 * can run anyway, the submit says so. */
			cb->device_lost = true;
			return NULL;
		}
		if (r != VK_SUCCESS) {
			icd_cmd_set_error(cb, r);
			return NULL;
		}
	}
	p = cb->cur->map + cb->cur_used_dw;
	cb->cur_used_dw += ndw;
	return p;
}

uint64_t
icd_cmd_emit_data(struct icd_cmd_buffer *cb, const void *data, uint32_t bytes,
                  void **host)
{
	/* NOP header + one pad dword to reach 8-byte alignment. */
	const uint32_t ndw = 2 + bytes / 4;
	uint32_t *p, *dst;
	uint64_t va;

	assert(bytes % 4 == 0 && ndw <= ICD_CMD_MAX_PACKET_DW);
	p = icd_cmd_emit(cb, ndw);
	if (!p)
		return 0;
	va = cb->cur->va + (uint64_t)(p - cb->cur->map) * 4;
	/* Chunks are page aligned, so VA alignment is dword-index parity. */
	dst = ((va + 4) & 7) ? p + 2 : p + 1;
	swgpu_emit_nop(p, ndw);
	memcpy(dst, data, bytes);
	if (host)
		*host = dst;
	return va + (uint64_t)(dst - p) * 4;
}

/* Back to the initial state; the chunks return to the pool. */
static void
cmd_reset(struct icd_cmd_buffer *cb, bool release)
{
	struct icd_cmd_pool *pool = cb->pool;

	if (cb->cur) {
		for (struct icd_cmd_chunk *c = cb->chunks; c; c = c->next)
			chunk_offer(c);
		cb->cur->next = pool->free_chunks;
		pool->free_chunks = cb->chunks;
	}
	cb->chunks = cb->cur = NULL;
	cb->cur_used_dw = 0;
	cb->ib_count = 0;
	if (release) {
		icd_cmd_free(pool, cb->ibs);
		cb->ibs = NULL;
		cb->ib_capacity = 0;
	}
	cb->record_result = VK_SUCCESS;
	cb->device_lost = false;
	cb->usage = 0;
	cb->state = ICD_CMD_INITIAL;
	/* Bound state does not survive a reset: a dispatch without a new
	 * pipeline bind must not reach a pipeline destroyed since. */
	memset(cb->bind, 0, sizeof(cb->bind));
	for (uint32_t i = 0; i < ICD_BIND_POINT_COUNT; i++)
		cb->bind[i].dirty = true;
	cb->compute_pipeline = NULL;
	icd_cmd_gfx_reset(cb);
}

static void
cmd_free(struct icd_cmd_buffer *cb)
{
	struct icd_cmd_pool *pool = cb->pool;

	cmd_reset(cb, true);
	icd_cmd_free(pool, cb->gfx);
	cb->gfx = NULL;
	if (cb->pool_prev)
		cb->pool_prev->pool_next = cb->pool_next;
	else
		pool->buffers = cb->pool_next;
	if (cb->pool_next)
		cb->pool_next->pool_prev = cb->pool_prev;
	icd_cmd_free(pool, cb);
}

/* ------------------------------------------------------------------ */
/* Pools                                                               */
/* ------------------------------------------------------------------ */

VkResult
icd_CreateCommandPool(VkDevice device,
                      const VkCommandPoolCreateInfo *pCreateInfo,
                      const VkAllocationCallbacks *pAllocator,
                      VkCommandPool *pCommandPool)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_cmd_pool *pool;

	pool = icd_zalloc(pAllocator, &dev->alloc, sizeof(*pool), 8,
	                  VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!pool)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "command pool");
	icd_object_init(&pool->base, VK_OBJECT_TYPE_COMMAND_POOL);
	pool->device = dev;
	if (pAllocator) {
		pool->alloc = *pAllocator;
		pool->has_alloc = true;
	}
	pool->flags = pCreateInfo->flags;
	pool->queue_family = pCreateInfo->queueFamilyIndex;
	*pCommandPool = icd_cmd_pool_to_handle(pool);
	return VK_SUCCESS;
}

void
icd_DestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                       const VkAllocationCallbacks *pAllocator)
{
	struct icd_cmd_pool *pool = icd_cmd_pool_from_handle(commandPool);

	if (!pool)
		return;
	while (pool->buffers)
		cmd_free(pool->buffers);
	pool_trim(pool);
	icd_free(pAllocator, &pool->device->alloc, pool);
}

VkResult
icd_ResetCommandPool(VkDevice device, VkCommandPool commandPool,
                     VkCommandPoolResetFlags flags)
{
	struct icd_cmd_pool *pool = icd_cmd_pool_from_handle(commandPool);
	bool release = flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT;

	for (struct icd_cmd_buffer *cb = pool->buffers; cb; cb = cb->pool_next)
		cmd_reset(cb, release);
	if (release)
		pool_trim(pool);
	return VK_SUCCESS;
}

void
icd_TrimCommandPool(VkDevice device, VkCommandPool commandPool,
                    VkCommandPoolTrimFlags flags)
{
	pool_trim(icd_cmd_pool_from_handle(commandPool));
}

/* ------------------------------------------------------------------ */
/* Command buffers                                                     */
/* ------------------------------------------------------------------ */

VkResult
icd_AllocateCommandBuffers(VkDevice device,
                           const VkCommandBufferAllocateInfo *pAllocateInfo,
                           VkCommandBuffer *pCommandBuffers)
{
	struct icd_cmd_pool *pool =
		icd_cmd_pool_from_handle(pAllocateInfo->commandPool);
	uint32_t n = pAllocateInfo->commandBufferCount;
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct icd_cmd_buffer *cb;

		cb = icd_cmd_alloc(pool, sizeof(*cb),
		                   VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
		if (!cb)
			goto fail;
		memset(cb, 0, sizeof(*cb));
		icd_object_init(&cb->base, VK_OBJECT_TYPE_COMMAND_BUFFER);
		cb->device = pool->device;
		cb->pool = pool;
		cb->level = pAllocateInfo->level;
		cb->state = ICD_CMD_INITIAL;
		cb->pool_next = pool->buffers;
		if (pool->buffers)
			pool->buffers->pool_prev = cb;
		pool->buffers = cb;
		pCommandBuffers[i] = icd_cmd_buffer_to_handle(cb);
	}
	return VK_SUCCESS;

fail:
	/* All or nothing: the spec wants every handle NULL on failure. */
	while (i-- > 0)
		cmd_free(icd_cmd_buffer_from_handle(pCommandBuffers[i]));
	for (i = 0; i < n; i++)
		pCommandBuffers[i] = VK_NULL_HANDLE;
	return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "command buffer");
}

void
icd_FreeCommandBuffers(VkDevice device, VkCommandPool commandPool,
                       uint32_t commandBufferCount,
                       const VkCommandBuffer *pCommandBuffers)
{
	for (uint32_t i = 0; i < commandBufferCount; i++) {
		struct icd_cmd_buffer *cb =
			icd_cmd_buffer_from_handle(pCommandBuffers[i]);

		if (cb)
			cmd_free(cb);
	}
}

VkResult
icd_BeginCommandBuffer(VkCommandBuffer commandBuffer,
                       const VkCommandBufferBeginInfo *pBeginInfo)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	/* Begin on a recorded buffer is an implicit reset (allowed only in
	 * pools created with RESET_COMMAND_BUFFER_BIT; the validation layer
	 * checks that). The chunks go back to the pool and are reused. */
	if (cb->state != ICD_CMD_INITIAL)
		cmd_reset(cb, false);
	cb->usage = pBeginInfo->flags;
	cb->state = ICD_CMD_RECORDING;
	/* A secondary that continues a render pass instance records inside
	 * the primary's open pass. */
	if (cb->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY &&
	    (pBeginInfo->flags &
	     VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT))
		icd_cmd_gfx_inherit_pass(cb, pBeginInfo->pInheritanceInfo);
	return VK_SUCCESS;
}

VkResult
icd_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	icd_cmd_gfx_end(cb);
	close_chunk(cb);
	if (cb->record_result != VK_SUCCESS) {
		cb->state = ICD_CMD_INVALID;
		return cb->record_result;
	}
	cb->state = ICD_CMD_EXECUTABLE;
	return VK_SUCCESS;
}

VkResult
icd_ResetCommandBuffer(VkCommandBuffer commandBuffer,
                       VkCommandBufferResetFlags flags)
{
	cmd_reset(icd_cmd_buffer_from_handle(commandBuffer),
	          flags & VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT);
	return VK_SUCCESS;
}

void
icd_CmdExecuteCommands(VkCommandBuffer commandBuffer,
                       uint32_t commandBufferCount,
                       const VkCommandBuffer *pCommandBuffers)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	/* One INDIRECT_BUFFER per chunk of the secondary: a call one level
	 * deep, so the nesting limit is never approached. The secondary's
	 * chunks stay valid while the primary is pending (the spec forbids
	 * resetting or freeing it meanwhile). */
	for (uint32_t i = 0; i < commandBufferCount; i++) {
		struct icd_cmd_buffer *sec =
			icd_cmd_buffer_from_handle(pCommandBuffers[i]);

		if (sec->record_result != VK_SUCCESS)
			icd_cmd_set_error(cb, sec->record_result);
		for (uint32_t j = 0; j < sec->ib_count; j++) {
			uint32_t *p = icd_cmd_emit(cb,
			                           SWGPU_LEN_INDIRECT_BUFFER);

			if (!p)
				return;
			swgpu_emit_indirect(p, sec->ibs[j].va,
			                    sec->ibs[j].size_dw);
		}
	}
	/* The secondaries set graphics state of their own in the engine:
	 * whatever the primary draws next emits its state again. */
	icd_cmd_gfx_state_lost(cb);
}

void
icd_CmdSetDeviceMask(VkCommandBuffer commandBuffer, uint32_t deviceMask)
{
	/* One physical device per VkDevice: the only valid mask is 1, and
	 * there is nothing to record for it. */
}
