/* SPDX-License-Identifier: MIT */
/*
 * Timestamp and occlusion query pools.
 *
 * A pool of N queries is 2N GPU words (event.h): N result words, then N
 * availability words (0 unavailable, 1 available). Keeping the results
 * contiguous lets a plain 64-bit vkCmdCopyQueryPoolResults be one COPY.
 *
 * vkCmdWriteTimestamp emits TIMESTAMP into the result word and then
 * SEM_SIGNAL 1 into the availability word; both wait for every earlier
 * packet, and SEM_SIGNAL is a single 64-bit store made after the
 * timestamp is written, so a host that sees availability 1 (acquire
 * load) sees the result.
 *
 * Occlusion queries: vkCmdBeginQuery emits QUERY_BEGIN on the result word
 * (the engine counts the samples passing the depth and stencil tests
 * from there, exactly: precise and non-precise queries are the same
 * count), vkCmdEndQuery QUERY_END (the engine writes the 64-bit count
 * once every earlier draw completed) and then SEM_SIGNAL 1 into the
 * availability word, as for timestamps.
 */
#include <time.h>

#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "cmd_gfx.h"
#include "event.h"

struct icd_query_pool {
	struct icd_object base;
	VkQueryType type;
	uint32_t count;
	struct icd_words words;
};

ICD_DEFINE_HANDLE_CASTS(icd_query_pool, VkQueryPool,
                        VK_OBJECT_TYPE_QUERY_POOL)

static uint64_t *
result_cpu(struct icd_query_pool *qp, uint32_t q)
{
	return qp->words.cpu + q;
}

static uint64_t *
avail_cpu(struct icd_query_pool *qp, uint32_t q)
{
	return qp->words.cpu + qp->count + q;
}

static uint64_t
result_va(const struct icd_query_pool *qp, uint32_t q)
{
	return qp->words.va + (uint64_t)q * 8;
}

static uint64_t
avail_va(const struct icd_query_pool *qp, uint32_t q)
{
	return qp->words.va + ((uint64_t)qp->count + q) * 8;
}

VkResult
icd_CreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo *pCreateInfo,
                    const VkAllocationCallbacks *pAllocator,
                    VkQueryPool *pQueryPool)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_query_pool *qp;
	VkResult r;

	if (pCreateInfo->queryType != VK_QUERY_TYPE_TIMESTAMP &&
	    pCreateInfo->queryType != VK_QUERY_TYPE_OCCLUSION) {
		/* Pipeline statistics need pipelineStatisticsQuery (not
		 * offered); no other query type exists on this device. */
		icd_log("vkCreateQueryPool: query type %d is not supported "
		        "by this device (timestamp and occlusion pools only)",
		        (int)pCreateInfo->queryType);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	qp = icd_zalloc(pAllocator, &dev->alloc, sizeof(*qp), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!qp)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "query pool");
	icd_object_init(&qp->base, VK_OBJECT_TYPE_QUERY_POOL);
	qp->type = pCreateInfo->queryType;
	qp->count = pCreateInfo->queryCount;
	r = icd_words_alloc(dev, 2 * qp->count, &qp->words);
	if (r != VK_SUCCESS) {
		icd_free(pAllocator, &dev->alloc, qp);
		return r;
	}
	*pQueryPool = icd_query_pool_to_handle(qp);
	return VK_SUCCESS;
}

void
icd_DestroyQueryPool(VkDevice device, VkQueryPool queryPool,
                     const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);

	if (!qp)
		return;
	icd_words_free(dev, &qp->words);
	icd_free(pAllocator, &dev->alloc, qp);
}

/* ------------------------------------------------------------------ */
/* Recording                                                           */
/* ------------------------------------------------------------------ */

/*
 * Inside a multiview render pass instance a query or timestamp uses N
 * consecutive queries, N = the views of the subpass; the spec lets the
 * implementation say how the result is spread: the first query gets it
 * all (the engine adds the views' occlusion counts; a timestamp is
 * taken once), the N - 1 others read 0 and become available with it.
 */
static void
other_views_zero(struct icd_cmd_buffer *cb, struct icd_query_pool *qp,
                 uint32_t query)
{
	const uint32_t n = icd_cmd_query_views(cb);

	/* past the pool's end is the application's error (a VUID): not
	 * written, rather than into the availability words */
	for (uint32_t i = 1; i < n && query + i < qp->count; i++) {
		uint32_t *p = icd_cmd_emit(cb, 2 * SWGPU_LEN_SEM_SIGNAL);

		if (!p)
			return;
		p += swgpu_emit_sem_signal(p, result_va(qp, query + i), 0, 0);
		swgpu_emit_sem_signal(p, avail_va(qp, query + i), 1, 0);
	}
}

static void
emit_timestamp(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
               uint32_t query)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);
	uint32_t *p;

	/* Any stage: the engine runs one packet at a time, so a timestamp
	 * taken after every earlier packet completed is valid for all. */
	p = icd_cmd_emit(cb, SWGPU_LEN_TIMESTAMP + SWGPU_LEN_SEM_SIGNAL);
	if (!p)
		return;
	p += swgpu_emit_timestamp(p, result_va(qp, query));
	swgpu_emit_sem_signal(p, avail_va(qp, query), 1, 0);
	other_views_zero(cb, qp, query);
}

void
icd_CmdWriteTimestamp(VkCommandBuffer commandBuffer,
                      VkPipelineStageFlagBits pipelineStage,
                      VkQueryPool queryPool, uint32_t query)
{
	emit_timestamp(commandBuffer, queryPool, query);
}

void
icd_CmdWriteTimestamp2(VkCommandBuffer commandBuffer,
                       VkPipelineStageFlags2 stage, VkQueryPool queryPool,
                       uint32_t query)
{
	emit_timestamp(commandBuffer, queryPool, query);
}

void
icd_CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                  uint32_t query, VkQueryControlFlags flags)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);
	uint32_t *p;

	if (qp->type != VK_QUERY_TYPE_OCCLUSION) {
		icd_log("vkCmdBeginQuery: only occlusion queries are begun");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	p = icd_cmd_emit(cb, SWGPU_LEN_QUERY);
	if (p)
		swgpu_emit_query_begin(p, result_va(qp, query),
		                       flags & VK_QUERY_CONTROL_PRECISE_BIT ?
		                       SWGPU_QUERY_PRECISE : 0);
}

void
icd_CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                uint32_t query)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);
	uint32_t *p;

	if (qp->type != VK_QUERY_TYPE_OCCLUSION) {
		icd_log("vkCmdEndQuery: only occlusion queries are ended");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	p = icd_cmd_emit(cb, SWGPU_LEN_QUERY + SWGPU_LEN_SEM_SIGNAL);
	if (!p)
		return;
	p += swgpu_emit_query_end(p, result_va(qp, query));
	swgpu_emit_sem_signal(p, avail_va(qp, query), 1, 0);
	other_views_zero(cb, qp, query);
}

void
icd_CmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                      uint32_t firstQuery, uint32_t queryCount)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);

	/* One SEM_SIGNAL of 0 per availability word rather than one FILL:
	 * the host may be polling these words (vkGetQueryPoolResults), and
	 * SEM_SIGNAL is a single atomic 64-bit store where FILL is a plain
	 * memory write. */
	for (uint32_t i = 0; i < queryCount; i++) {
		uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_SEM_SIGNAL);

		if (!p)
			return;
		swgpu_emit_sem_signal(p, avail_va(qp, firstQuery + i), 0, 0);
	}
}

void
icd_CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer,
                            VkQueryPool queryPool, uint32_t firstQuery,
                            uint32_t queryCount, VkBuffer dstBuffer,
                            VkDeviceSize dstOffset, VkDeviceSize stride,
                            VkQueryResultFlags flags)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);
	struct icd_buffer *dst = icd_buffer_from_handle(dstBuffer);
	bool is64 = flags & VK_QUERY_RESULT_64_BIT;
	bool with_avail = flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
	uint64_t elem = is64 ? 8 : 4;
	uint64_t base = dst->va + dstOffset;
	uint32_t *p;

	/* WAIT: stall the engine on each availability word first; a query
	 * never made available then ends as a hang (device lost), which is
	 * what the spec leaves to the implementation. */
	if (flags & VK_QUERY_RESULT_WAIT_BIT) {
		for (uint32_t i = 0; i < queryCount; i++) {
			p = icd_cmd_emit(cb, SWGPU_LEN_SEM_WAIT);
			if (!p)
				return;
			swgpu_emit_sem_wait(p, avail_va(qp, firstQuery + i), 1);
		}
	}

	/* Densely packed 64-bit results are one copy of the result words. */
	if (is64 && !with_avail && (stride == 8 || queryCount == 1)) {
		p = icd_cmd_emit(cb, SWGPU_LEN_COPY);
		if (p)
			swgpu_emit_copy(p, base, result_va(qp, firstQuery),
			                (uint64_t)queryCount * 8);
		return;
	}

	/* Otherwise per query: COPY of the (low dword of the) result word,
	 * then COPY of the (low dword of the) availability word right
	 * after it. Words are little-endian and hold values < 2^32 for the
	 * availability, so the low dword is the 32-bit value; a 32-bit
	 * timestamp is truncated, as the spec allows. Without WAIT an
	 * unavailable query's result word is copied too (no predication on
	 * this engine): its value is then undefined, the availability
	 * written beside it says so. */
	for (uint32_t i = 0; i < queryCount; i++) {
		uint64_t d = base + (uint64_t)i * stride;

		p = icd_cmd_emit(cb, (with_avail ? 2 : 1) * SWGPU_LEN_COPY);
		if (!p)
			return;
		p += swgpu_emit_copy(p, d, result_va(qp, firstQuery + i), elem);
		if (with_avail)
			swgpu_emit_copy(p, d + elem,
			                avail_va(qp, firstQuery + i), elem);
	}
}

/* ------------------------------------------------------------------ */
/* Host access                                                         */
/* ------------------------------------------------------------------ */

void
icd_ResetQueryPool(VkDevice device, VkQueryPool queryPool,
                   uint32_t firstQuery, uint32_t queryCount)
{
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);

	for (uint32_t i = 0; i < queryCount; i++)
		icd_word_store(avail_cpu(qp, firstQuery + i), 0);
}

/*
 * How long a WAIT may last before we give up: generous, since a query can
 * legitimately sit behind a timeline wait in the scheduler, but bounded so
 * that a query that was never submitted does not hang the caller forever.
 * A job that hangs on the GPU is caught sooner by the watchdog, and the
 * device is lost.
 */
static uint64_t
wait_deadline(const struct icd_device *dev)
{
	uint64_t ms = (uint64_t)dev->pdev->info.hang_timeout_ms * 4;

	if (ms < 10000)
		ms = 10000;
	return swgpu_deadline_from_timeout(ms * 1000000ull);
}

/* Wait for one availability word. No swgpu object is tied to the word,
 * so poll it, backing off from 1 us to 1 ms between looks. */
static VkResult
wait_available(struct icd_device *dev, const uint64_t *avail,
               uint64_t deadline)
{
	long sleep_ns = 1000;

	while (!icd_word_load(avail)) {
		struct timespec ts = { 0, sleep_ns };
		VkResult lost = icd_device_check_lost(dev);

		if (lost != VK_SUCCESS)
			return lost;
		if (swgpu_now_ns() >= deadline) {
			icd_log("vkGetQueryPoolResults: query not available "
			        "after the wait deadline (never submitted?)");
			return VK_NOT_READY;
		}
		nanosleep(&ts, NULL);
		if (sleep_ns < 1000000)
			sleep_ns *= 2;
	}
	return VK_SUCCESS;
}

static void
put_value(uint8_t *dst, uint64_t v, bool is64)
{
	if (is64) {
		memcpy(dst, &v, 8);
	} else {
		uint32_t v32 = (uint32_t)v;

		memcpy(dst, &v32, 4);
	}
}

VkResult
icd_GetQueryPoolResults(VkDevice device, VkQueryPool queryPool,
                        uint32_t firstQuery, uint32_t queryCount,
                        size_t dataSize, void *pData, VkDeviceSize stride,
                        VkQueryResultFlags flags)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_query_pool *qp = icd_query_pool_from_handle(queryPool);
	bool is64 = flags & VK_QUERY_RESULT_64_BIT;
	size_t elem = is64 ? 8 : 4;
	uint64_t deadline = 0;
	VkResult res;

	res = icd_device_check_lost(dev);
	if (res != VK_SUCCESS)
		return res;
	if (flags & VK_QUERY_RESULT_WAIT_BIT)
		deadline = wait_deadline(dev);

	for (uint32_t i = 0; i < queryCount; i++) {
		uint32_t q = firstQuery + i;
		uint8_t *dst = (uint8_t *)pData + (size_t)i * stride;
		uint64_t avail;

		if (flags & VK_QUERY_RESULT_WAIT_BIT) {
			VkResult r = wait_available(dev, avail_cpu(qp, q),
			                            deadline);

			if (r == VK_ERROR_DEVICE_LOST)
				return r;
			if (r != VK_SUCCESS)
				res = r;
		}
		/* Acquire: pairs with the engine's SEM_SIGNAL after the
		 * TIMESTAMP, so the result read below is the final one. */
		avail = icd_word_load(avail_cpu(qp, q));
		if (avail || (flags & VK_QUERY_RESULT_PARTIAL_BIT))
			put_value(dst, icd_word_load(result_cpu(qp, q)), is64);
		else
			res = VK_NOT_READY;
		if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
			put_value(dst + elem, avail ? 1 : 0, is64);
	}
	(void)dataSize;
	return res;
}
