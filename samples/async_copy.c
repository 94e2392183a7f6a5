/* SPDX-License-Identifier: MIT */
/*
 * async_copy: a copy queue streams uploads while another queue consumes
 * them, the two overlapping on different engines.
 *
 * The host writes N chunks into a host-visible staging buffer first;
 * then they stream through S device-local slots. Two timeline semaphores
 * link the queues, so neither waits for more than it needs:
 *   upload i   (copy queue):  waits CONSUMED >= i+1-S (its device slot is
 *              free), copies staging chunk i -> device slot i % S,
 *              signals UPLOADED = i+1
 *   consume i  (other queue): waits UPLOADED >= i+1, copies the device
 *              slot into chunk i of the result buffer, signals
 *              CONSUMED = i+1
 * All 2N submissions go in at once (the waits are on the GPU). Upload i+1
 * then runs while consume i runs: with
 * SWGPU_TRACE=trace.json the copy engine's and the other engine's slices
 * overlap, with dependency arrows between them (docs/TRACING.md).
 *
 * Every byte of every chunk is verified. Timestamps (when both queues
 * have them) give each queue's busy time and how much they overlapped.
 * Queues: the first transfer-only family for uploads when there is one;
 * on a driver with a single queue both roles share it (no overlap).
 *
 * usage: async_copy [-n CHUNKS (32)] [-s CHUNK_KIB (2048)] [-k SLOTS (3)]
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define MAX_SLOTS 8
#define MAX_CHUNKS 256

struct run {
	uint64_t *pattern;            /* chunk i is pattern ^ word(i) */
	struct vkh h;
	struct vkh_device d;
	uint32_t n, k, qu, qc;
	VkDeviceSize chunk;
	struct vkh_buffer staging, slots, result;
	VkSemaphore uploaded, consumed;
	VkQueryPool ts;               /* 4 per chunk, or none */
	VkCommandBuffer cbs[2 * MAX_CHUNKS];
};

static VkSemaphore
timeline(struct run *r)
{
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VkSemaphore s = VK_NULL_HANDLE;

	vkCreateSemaphore(r->d.device, &sci, NULL, &s);
	return s;
}

static VkResult
submit(struct run *r, uint32_t q, VkCommandBuffer cb, VkSemaphore wait,
       uint64_t wait_value, VkSemaphore signal, uint64_t signal_value)
{
	VkSemaphoreSubmitInfo w = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = wait, .value = wait_value,
		.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
	};
	VkSemaphoreSubmitInfo s = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = signal, .value = signal_value,
		.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
	};
	VkCommandBufferSubmitInfo c = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
		.commandBuffer = cb,
	};
	VkSubmitInfo2 si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
		.waitSemaphoreInfoCount = wait_value ? 1 : 0,
		.pWaitSemaphoreInfos = &w,
		.commandBufferInfoCount = 1,
		.pCommandBufferInfos = &c,
		.signalSemaphoreInfoCount = 1,
		.pSignalSemaphoreInfos = &s,
	};

	return vkQueueSubmit2(r->d.queues[q].queue, 1, &si, VK_NULL_HANDLE);
}

static VkResult
wait_value(struct run *r, VkSemaphore s, uint64_t v)
{
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.semaphoreCount = 1, .pSemaphores = &s, .pValues = &v,
	};

	return vkWaitSemaphores(r->d.device, &wi, VKH_TIMEOUT_NS);
}

/* One copy between two buffers, bracketed by timestamps q0, q0 + 1. */
static VkCommandBuffer
record_copy(struct run *r, uint32_t q, VkBuffer src, VkDeviceSize src_off,
            VkBuffer dst, VkDeviceSize dst_off, uint32_t q0, bool host)
{
	VkCommandBuffer cb = vkh_cmd_begin(&r->d, q);
	VkBufferCopy c = { src_off, dst_off, r->chunk };

	if (!cb)
		return NULL;
	if (r->ts)
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
		                    r->ts, q0);
	vkCmdCopyBuffer(cb, src, dst, 1, &c);
	if (host)
		vkh_cmd_host_barrier(cb);
	if (r->ts)
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		                    r->ts, q0 + 1);
	return vkEndCommandBuffer(cb) == VK_SUCCESS ? cb : NULL;
}

/* Busy time of each queue and the time both were busy, from the
 * timestamps (ns). */
static void
report_overlap(struct run *r, double wall_ms)
{
	uint64_t *t = calloc(4u * r->n, sizeof(uint64_t));
	double period = r->h.props.limits.timestampPeriod;
	double busy[2] = { 0, 0 }, both = 0;

	if (!t || vkGetQueryPoolResults(r->d.device, r->ts, 0, 4 * r->n,
	                                4u * r->n * sizeof(uint64_t), t,
	                                sizeof(uint64_t),
	                                VK_QUERY_RESULT_64_BIT |
	                                VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS) {
		free(t);
		return;
	}
	for (uint32_t i = 0; i < r->n; i++) {
		for (uint32_t s = 0; s < 2; s++)
			busy[s] += (double)(t[4 * i + 2 * s + 1] -
			                    t[4 * i + 2 * s]) * period;
		/* upload i+1 against consume i: the overlap the pipeline
		 * allows (both are ranges on the common timestamp clock) */
		for (uint32_t j = 0; j < r->n; j++) {
			uint64_t a0 = t[4 * i], a1 = t[4 * i + 1];
			uint64_t b0 = t[4 * j + 2], b1 = t[4 * j + 3];
			uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

			if (hi > lo)
				both += (double)(hi - lo) * period;
		}
	}
	printf("  copy queue busy %.2f ms, consumer busy %.2f ms, wall "
	       "%.2f ms; both busy %.2f ms (%.0f%% of the shorter)\n",
	       busy[0] / 1e6, busy[1] / 1e6, wall_ms, both / 1e6,
	       100.0 * both / (busy[0] < busy[1] ? busy[0] : busy[1]));
	free(t);
}

static bool
parse(struct run *r, int argc, char **argv)
{
	r->n = 32;
	r->k = 3;
	r->chunk = 2048 * 1024;
	for (int i = 1; i < argc; i += 2) {
		long v = i + 1 < argc ? strtol(argv[i + 1], NULL, 10) : -1;
		if (!strcmp(argv[i], "-n") && v >= 1 && v <= MAX_CHUNKS)
			r->n = (uint32_t)v;
		else if (!strcmp(argv[i], "-s") && v >= 4 && v <= 65536 &&
		         v % 4 == 0)
			r->chunk = (VkDeviceSize)v * 1024;
		else if (!strcmp(argv[i], "-k") && v >= 1 && v <= MAX_SLOTS)
			r->k = (uint32_t)v;
		else
			return false;
	}
	return true;
}

/* Pick the upload queue: a transfer-only family if there is one. */
static void
pick_queues(struct run *r)
{
	r->qu = 0;
	r->qc = 1;
	if ((r->d.queues[0].flags & (VK_QUEUE_COMPUTE_BIT |
	                             VK_QUEUE_GRAPHICS_BIT)) &&
	    !(r->d.queues[1].flags & (VK_QUEUE_COMPUTE_BIT |
	                              VK_QUEUE_GRAPHICS_BIT))) {
		r->qu = 1;
		r->qc = 0;
	}
}

static uint64_t
chunk_word(uint32_t i)
{
	return 0x9e3779b97f4a7c15ull * (i + 1);
}

static void
fill_chunk(const struct run *r, uint32_t i, void *dst)
{
	uint64_t *d = dst, w = chunk_word(i);

	for (VkDeviceSize b = 0; b < r->chunk / 8; b++)
		d[b] = r->pattern[b] ^ w;
}

static bool
check_chunk(const struct run *r, uint32_t i, const void *src)
{
	const uint64_t *s = src, w = chunk_word(i);

	for (VkDeviceSize b = 0; b < r->chunk / 8; b++)
		if (s[b] != (r->pattern[b] ^ w)) {
			fprintf(stderr, "  chunk %u word %llu: 0x%016llx, "
			        "want 0x%016llx\n", i, (unsigned long long)b,
			        (unsigned long long)s[b],
			        (unsigned long long)(r->pattern[b] ^ w));
			return false;
		}
	return true;
}

static VkResult
stream(struct run *r, uint32_t *bad)
{
	VkDeviceSize c = r->chunk;
	VkResult res = VK_SUCCESS;
	uint64_t t0 = vkh_now_ns();

	for (uint32_t i = 0; i < r->n; i++)
		fill_chunk(r, i, (uint8_t *)r->staging.map + i * c);
	printf("  host wrote %u chunks in %.2f ms\n", r->n,
	       (double)(vkh_now_ns() - t0) / 1e6);
	{
		VkMappedMemoryRange mr = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = r->staging.memory, .size = VK_WHOLE_SIZE,
		};
		/* Needed only if the memory is not coherent; harmless. */
		vkFlushMappedMemoryRanges(r->d.device, 1, &mr);
	}
	t0 = vkh_now_ns();

	/* Record everything first, as a streaming application reuses its
	 * command buffers: submission is then only vkQueueSubmit2. */
	for (uint32_t i = 0; i < r->n; i++) {
		uint32_t s = i % r->k;

		r->cbs[2 * i] = record_copy(r, r->qu, r->staging.buffer, i * c,
		                            r->slots.buffer, s * c, 4 * i,
		                            false);
		r->cbs[2 * i + 1] = record_copy(r, r->qc, r->slots.buffer,
		                                s * c, r->result.buffer, i * c,
		                                4 * i + 2, true);
		if (!r->cbs[2 * i] || !r->cbs[2 * i + 1])
			return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	t0 = vkh_now_ns();
	for (uint32_t i = 0; i < r->n && res == VK_SUCCESS; i++) {
		res = submit(r, r->qu, r->cbs[2 * i], r->consumed,
		             i >= r->k ? i + 1 - r->k : 0, r->uploaded, i + 1);
		if (res == VK_SUCCESS)
			res = submit(r, r->qc, r->cbs[2 * i + 1], r->uploaded,
			             i + 1, r->consumed, i + 1);
	}
	if (res == VK_SUCCESS)
		res = wait_value(r, r->consumed, r->n);
	if (res != VK_SUCCESS)
		return res;
	double ms = (double)(vkh_now_ns() - t0) / 1e6;
	vkh_buffer_invalidate(&r->h, &r->d, &r->result);
	for (uint32_t i = 0; i < r->n; i++)
		*bad += !check_chunk(r, i, (const uint8_t *)r->result.map +
		                           i * c);
	printf("  %u chunks of %llu KiB through %u slots in %.2f ms: "
	       "%.2f GB/s, %u wrong\n", r->n,
	       (unsigned long long)(c >> 10), r->k, ms,
	       (double)c * r->n / (ms * 1e6), *bad);
	if (r->ts)
		report_overlap(r, ms);
	return VK_SUCCESS;
}

int
main(int argc, char **argv)
{
	static struct run r;
	uint32_t bad = 0;
	int status = 1;
	VkResult res;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!parse(&r, argc, argv)) {
		fprintf(stderr, "usage: %s [-n CHUNKS (1..%d, 32)] [-s "
		        "CHUNK_KIB (4..65536, 2048)] [-k SLOTS (1..%d, 3)]\n",
		        argv[0], MAX_CHUNKS, MAX_SLOTS);
		return 2;
	}
	res = vkh_init(&r.h, "async_copy", VK_API_VERSION_1_3);
	if (res != VK_SUCCESS)
		goto out;
	printf("async_copy: device \"%s\" (driver %s)\n", r.h.props.deviceName,
	       r.h.driver.driverName);
	if (!r.h.timeline_semaphore || !r.h.synchronization2) {
		fprintf(stderr, "async_copy: needs timelineSemaphore and "
		        "synchronization2\n");
		goto out;
	}
	res = vkh_device_create(&r.h, VK_QUEUE_TRANSFER_BIT, 2, NULL, &r.d);
	if (res != VK_SUCCESS)
		goto out;
	pick_queues(&r);
	printf("  uploads: family %u queue %u; consumer: family %u queue %u%s\n",
	       r.d.queues[r.qu].family, r.d.queues[r.qu].index,
	       r.d.queues[r.qc].family, r.d.queues[r.qc].index,
	       r.d.queues[1].aliased ? " (the driver has one queue: no "
	       "overlap)" : "");
	r.uploaded = timeline(&r);
	r.consumed = timeline(&r);
	res = vkh_buffer_create(&r.h, &r.d, r.n * r.chunk, XFER, VKH_MEM_UPLOAD,
	                        -1, &r.staging);
	if (res == VK_SUCCESS)
		res = vkh_buffer_create(&r.h, &r.d, r.k * r.chunk, XFER,
		                        VKH_MEM_DEVICE_LOCAL, -1, &r.slots);
	if (res == VK_SUCCESS)
		res = vkh_buffer_create(&r.h, &r.d, r.n * r.chunk, XFER,
		                        VKH_MEM_READBACK, -1, &r.result);
	r.pattern = malloc(r.chunk);
	if (res != VK_SUCCESS || !r.uploaded || !r.consumed || !r.pattern)
		goto out_dev;
	for (VkDeviceSize b = 0; b < r.chunk / 8; b++)
		r.pattern[b] = 0xbf58476d1ce4e5b9ull * (b + 1) ^ (b << 40);
	/* Fault the result pages and the device slots in now, as
	 * long-lived buffers would be: first-touch page faults are the
	 * kernel's time, not the queues'. */
	memset(r.result.map, 0, r.n * r.chunk);
	{
		VkCommandBuffer cb = vkh_cmd_begin(&r.d, r.qu);
		if (cb) {
			vkCmdFillBuffer(cb, r.slots.buffer, 0, VK_WHOLE_SIZE, 0);
			res = vkh_cmd_submit_wait(&r.d, r.qu, cb);
		}
		if (!cb || res != VK_SUCCESS)
			goto out_dev;
	}
	/* Reset from the host: vkCmdResetQueryPool is not allowed on a
	 * transfer-only queue. */
	if (r.h.host_query_reset && r.d.queues[r.qu].timestamp_valid_bits &&
	    r.d.queues[r.qc].timestamp_valid_bits) {
		VkQueryPoolCreateInfo qi = {
			.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			.queryType = VK_QUERY_TYPE_TIMESTAMP,
			.queryCount = 4 * r.n,
		};
		if (vkCreateQueryPool(r.d.device, &qi, NULL, &r.ts) ==
		    VK_SUCCESS)
			vkResetQueryPool(r.d.device, r.ts, 0, 4 * r.n);
	}
	res = stream(&r, &bad);
	status = res != VK_SUCCESS || bad;

out_dev:
	if (r.d.device)
		vkDeviceWaitIdle(r.d.device);
	for (uint32_t i = 0; i < 2 * r.n; i++)
		if (r.cbs[i])
			vkFreeCommandBuffers(r.d.device,
			                     r.d.queues[i & 1 ? r.qc : r.qu].pool,
			                     1, &r.cbs[i]);
	if (r.ts)
		vkDestroyQueryPool(r.d.device, r.ts, NULL);
	vkh_buffer_destroy(&r.d, &r.staging);
	vkh_buffer_destroy(&r.d, &r.slots);
	vkh_buffer_destroy(&r.d, &r.result);
	free(r.pattern);
	if (r.uploaded)
		vkDestroySemaphore(r.d.device, r.uploaded, NULL);
	if (r.consumed)
		vkDestroySemaphore(r.d.device, r.consumed, NULL);
out:
	if (res != VK_SUCCESS)
		fprintf(stderr, "async_copy: %s\n", vkh_result_str(res));
	if (vkh_finish(&r.h))
		status = 1;
	printf("async_copy: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
