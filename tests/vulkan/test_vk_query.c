/* SPDX-License-Identifier: MIT */
/*
 * Timestamp queries through the loader: vkCmdWriteTimestamp and
 * vkCmdWriteTimestamp2 around copies, vkCmdResetQueryPool and host
 * vkResetQueryPool, vkGetQueryPoolResults with WAIT | 64 |
 * WITH_AVAILABILITY (and without WAIT on unwritten queries),
 * vkCmdCopyQueryPoolResults into a buffer; values must be monotonic across
 * commands and submissions, fit timestampValidBits, and span no more GPU
 * time than the host measured.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define NQ 8

static VkQueryPool
make_pool(struct vkh_device *d, uint32_t count)
{
	VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = count,
	};
	VkQueryPool p = VK_NULL_HANDLE;

	vkCreateQueryPool(d->device, &qci, NULL, &p);
	return p;
}

static bool
have_timestamps(struct vkh *h, struct vkh_device *d)
{
	if (!d->queues[0].timestamp_valid_bits) {
		vkh_skip(h, "queue family %u has timestampValidBits 0",
		         d->queues[0].family);
		return false;
	}
	return true;
}

static bool
gc_queue(struct vkh_device *d)
{
	return d->queues[0].flags & (VK_QUEUE_GRAPHICS_BIT |
	                             VK_QUEUE_COMPUTE_BIT);
}

static uint64_t
valid_mask(struct vkh_device *d)
{
	uint32_t bits = d->queues[0].timestamp_valid_bits;

	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Record into cb: 4 timestamps around a copy and a fill (queries
 * first..first+3). */
static void
record_timed_work(VkCommandBuffer cb, VkQueryPool pool, uint32_t first,
                  struct vkh_buffer *src, struct vkh_buffer *dst)
{
	VkBufferCopy c = { .size = src->size };

	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool,
	                    first);
	vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 1, &c);
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, pool,
	                    first + 1);
	vkh_cmd_transfer_barrier(cb);
	vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_COPY_BIT, pool,
	                     first + 2);
	vkCmdFillBuffer(cb, dst->buffer, 0, 4096, 0x12345678);
	vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool,
	                     first + 3);
}

/* Results as (value, availability) pairs. */
struct ts_result {
	uint64_t value;
	uint64_t avail;
};

static void
test_write_timestamps(struct vkh *h, struct vkh_device *d)
{
	VkQueryPool pool = make_pool(d, NQ);
	struct vkh_buffer src, dst;
	struct ts_result res[NQ];
	VkCommandBuffer cb;
	uint64_t t0, t1;
	VkResult r;

	if (!have_timestamps(h, d))
		return;
	VKH_CHECK(h, pool);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 16 << 20, XFER,
	                                  VKH_MEM_UPLOAD, -1, &src));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 16 << 20, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &dst));
	/* vkCmdResetQueryPool needs a GRAPHICS or COMPUTE queue; on a
	 * TRANSFER-only queue the pool is reset from the host. */
	if (!gc_queue(d)) {
		VKH_CHECK(h, h->host_query_reset);
		vkResetQueryPool(d->device, pool, 0, NQ);
	}
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	if (gc_queue(d))
		vkCmdResetQueryPool(cb, pool, 0, NQ);
	record_timed_work(cb, pool, 0, &src, &dst);
	t0 = vkh_now_ns();
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	t1 = vkh_now_ns();

	memset(res, 0xff, sizeof(res));
	VKH_CHECK_VK(h, vkGetQueryPoolResults(d->device, pool, 0, 4,
	                sizeof(res), res, sizeof(res[0]),
	                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
	                VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	for (unsigned i = 0; i < 4; i++) {
		printf("  ts[%u] = %llu (avail %llu)\n", i,
		       (unsigned long long)res[i].value,
		       (unsigned long long)res[i].avail);
		VKH_CHECK_MSG(h, res[i].avail != 0, "query %u unavailable", i);
		VKH_CHECK_MSG(h, !(res[i].value & ~valid_mask(d)),
		              "query %u has bits above timestampValidBits", i);
		if (i)
			VKH_CHECK_MSG(h, res[i].value >= res[i - 1].value,
			              "timestamps not monotonic at %u", i);
	}
	{
		double gpu_ns = (double)(res[3].value - res[0].value) *
		                h->props.limits.timestampPeriod;
		printf("  GPU span %.3f ms, host span %.3f ms (period %g)\n",
		       gpu_ns / 1e6, (double)(t1 - t0) / 1e6,
		       h->props.limits.timestampPeriod);
		VKH_CHECK_MSG(h, gpu_ns <= (double)(t1 - t0) * 1.05 + 1e6,
		              "GPU span longer than the host wait around it");
	}

	/* Queries 4..7 were reset but never written: without WAIT they are
	 * unavailable and the call says VK_NOT_READY. */
	memset(res, 0xff, sizeof(res));
	r = vkGetQueryPoolResults(d->device, pool, 4, 4, 4 * sizeof(res[0]),
	                          res, sizeof(res[0]),
	                          VK_QUERY_RESULT_64_BIT |
	                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	VKH_CHECK_RESULT(h, r, VK_NOT_READY);
	for (unsigned i = 0; i < 4; i++)
		VKH_CHECK_MSG(h, res[i].avail == 0, "query %u available",
		              4 + i);

	/* 32-bit results, no availability, stride 4. */
	{
		uint32_t r32[4];
		VKH_CHECK_VK(h, vkGetQueryPoolResults(d->device, pool, 0, 4,
		                sizeof(r32), r32, sizeof(r32[0]),
		                VK_QUERY_RESULT_WAIT_BIT));
	}
	vkDestroyQueryPool(d->device, pool, NULL);
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &dst);
}

/* vkResetQueryPool on the host, then two submissions: the second one's
 * timestamps are not earlier than the first one's. */
static void
test_host_reset_monotonic(struct vkh *h, struct vkh_device *d)
{
	VkQueryPool pool = make_pool(d, NQ);
	struct vkh_buffer src, dst;
	struct ts_result res[NQ];

	if (!have_timestamps(h, d))
		return;
	VKH_CHECK(h, h->host_query_reset);
	VKH_CHECK(h, pool);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 1 << 20, XFER, VKH_MEM_UPLOAD,
	                                  -1, &src));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 1 << 20, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &dst));
	for (unsigned round = 0; round < 3; round++) {
		vkResetQueryPool(d->device, pool, 0, NQ);
		for (unsigned half = 0; half < 2; half++) {
			VkCommandBuffer cb = vkh_cmd_begin(d, 0);
			VKH_CHECK(h, cb);
			record_timed_work(cb, pool, 4 * half, &src, &dst);
			VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
		}
		VKH_CHECK_VK(h, vkGetQueryPoolResults(d->device, pool, 0, NQ,
		                sizeof(res), res, sizeof(res[0]),
		                VK_QUERY_RESULT_64_BIT |
		                VK_QUERY_RESULT_WAIT_BIT |
		                VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
		for (unsigned i = 0; i < NQ; i++) {
			VKH_CHECK_MSG(h, res[i].avail, "round %u query %u",
			              round, i);
			if (i)
				VKH_CHECK_MSG(h,
				              res[i].value >= res[i - 1].value,
				              "round %u: ts[%u] %llu < ts[%u] "
				              "%llu", round, i,
				              (unsigned long long)res[i].value,
				              i - 1, (unsigned long long)
				              res[i - 1].value);
		}
	}
	vkDestroyQueryPool(d->device, pool, NULL);
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &dst);
}

/* vkCmdCopyQueryPoolResults (WAIT | 64 | WITH_AVAILABILITY, and 32-bit)
 * into a readback buffer at an offset; equal to vkGetQueryPoolResults. */
static void
test_copy_results(struct vkh *h, struct vkh_device *d)
{
	VkQueryPool pool = make_pool(d, NQ);
	struct vkh_buffer src, dst, rb;
	struct ts_result res[4];
	const struct ts_result *got;
	const uint32_t *got32;
	VkCommandBuffer cb;

	if (!have_timestamps(h, d))
		return;
	VKH_CHECK(h, pool);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 1 << 20, XFER, VKH_MEM_UPLOAD,
	                                  -1, &src));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 1 << 20, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &dst));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 4096, XFER, VKH_MEM_READBACK,
	                                  -1, &rb));
	memset(rb.map, 0xab, 4096);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	vkCmdResetQueryPool(cb, pool, 0, NQ);
	record_timed_work(cb, pool, 0, &src, &dst);
	vkCmdCopyQueryPoolResults(cb, pool, 0, 4, rb.buffer, 64,
	                          sizeof(struct ts_result),
	                          VK_QUERY_RESULT_64_BIT |
	                          VK_QUERY_RESULT_WAIT_BIT |
	                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkCmdCopyQueryPoolResults(cb, pool, 0, 4, rb.buffer, 1024, 8,
	                          VK_QUERY_RESULT_WAIT_BIT);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK_VK(h, vkGetQueryPoolResults(d->device, pool, 0, 4,
	                sizeof(res), res, sizeof(res[0]),
	                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
	                VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	got = (const struct ts_result *)((uint8_t *)rb.map + 64);
	got32 = (const uint32_t *)((uint8_t *)rb.map + 1024);
	VKH_CHECK(h, ((uint8_t *)rb.map)[63] == 0xab);
	for (unsigned i = 0; i < 4; i++) {
		VKH_CHECK_MSG(h, got[i].avail != 0, "copied avail %u", i);
		VKH_CHECK_MSG(h, got[i].value == res[i].value,
		              "copied ts[%u] %llu != %llu", i,
		              (unsigned long long)got[i].value,
		              (unsigned long long)res[i].value);
		/* A 32-bit result that overflows may wrap or saturate. */
		VKH_CHECK_MSG(h, got32[2 * i] == (uint32_t)res[i].value ||
		                 (got32[2 * i] == UINT32_MAX &&
		                  res[i].value > UINT32_MAX),
		              "32-bit ts[%u] = 0x%x, 64-bit 0x%llx", i,
		              got32[2 * i], (unsigned long long)res[i].value);
		/* The stride gap between 32-bit results is untouched. */
		VKH_CHECK_MSG(h, got32[2 * i + 1] == 0xabababab,
		              "32-bit stride gap %u written", i);
	}
	vkDestroyQueryPool(d->device, pool, NULL);
	vkh_buffer_destroy(d, &src);
	vkh_buffer_destroy(d, &dst);
	vkh_buffer_destroy(d, &rb);
}

/* 256 timestamps in one command buffer, between small fills: all
 * available and non-decreasing (at most 16 at a time per fill). */
static void
test_many_timestamps(struct vkh *h, struct vkh_device *d)
{
	enum { N = 256 };
	VkQueryPool pool = make_pool(d, N);
	struct vkh_buffer buf;
	struct ts_result *res = calloc(N, sizeof(*res));
	VkCommandBuffer cb;

	if (!have_timestamps(h, d)) {
		free(res);
		vkDestroyQueryPool(d->device, pool, NULL);
		return;
	}
	VKH_CHECK(h, pool && res);
	VKH_CHECK(h, h->host_query_reset);
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 64 * 1024, XFER,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &buf));
	vkResetQueryPool(d->device, pool, 0, N);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	for (uint32_t i = 0; i < N; i++) {
		vkCmdFillBuffer(cb, buf.buffer, 256 * (i % 256), 256, i);
		vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		                     pool, i);
	}
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK_VK(h, vkGetQueryPoolResults(d->device, pool, 0, N,
	                N * sizeof(*res), res, sizeof(*res),
	                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
	                VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	for (uint32_t i = 0; i < N; i++) {
		VKH_CHECK_MSG(h, res[i].avail, "query %u unavailable", i);
		if (i)
			VKH_CHECK_MSG(h, res[i].value >= res[i - 1].value,
			              "ts[%u] < ts[%u]", i, i - 1);
	}
	printf("  %u timestamps over %.3f ms of GPU time\n", N,
	       (double)(res[N - 1].value - res[0].value) *
	       h->props.limits.timestampPeriod / 1e6);
	free(res);
	vkh_buffer_destroy(d, &buf);
	vkDestroyQueryPool(d->device, pool, NULL);
}

static const struct vkh_test tests[] = {
	{ "write_timestamps", test_write_timestamps, 1, 0 },
	{ "host_reset_monotonic", test_host_reset_monotonic, 1, 0 },
	{ "many_timestamps", test_many_timestamps, 1, 0 },
	/* vkCmdResetQueryPool and vkCmdCopyQueryPoolResults are valid only
	 * on GRAPHICS or COMPUTE queues. */
	{ "copy_results", test_copy_results, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_query", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
