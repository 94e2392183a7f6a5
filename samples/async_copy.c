/* SPDX-License-Identifier: MIT */
/*
 * async_copy: a copy queue streams uploads while another queue consumes
 * them, the two overlapping on different engines.
 *
 * N chunks go through a ring of K host-visible staging slots and K
 * device-local slots. Two timeline semaphores link host, copy queue and
 * consumer queue, so no stage waits for more than it needs:
 *   host i:          waits UPLOADED >= i+1-K (staging slot free), writes
 *                    chunk i (a per-chunk pattern) into slot i % K
 *   upload i  (copy queue):  waits CONSUMED >= i+1-K (device slot free),
 *                    copies staging slot -> device slot, signals
 *                    UPLOADED = i+1
 *   consume i (other queue): waits UPLOADED >= i+1, copies the device slot
 *                    into chunk i of a readback buffer, signals
 *                    CONSUMED = i+1
 * So the host writes chunk i+1 while upload i and consume i-1 run
 * (SWGPU_TRACE shows it, docs/TRACING.md). Every byte of every chunk is
 * verified at the end (exit 1 if wrong). Overlap: from timestamps when
 * both queues have them (time both were busy / the shorter busy time),
 * else (or -H) from the host clock, re-running each queue's work alone.
 * Queues: a transfer-only family for uploads when there is one, else two
 * queues of other families or of one family, else (one queue, e.g.
 * lavapipe) both roles on it: no overlap, the data is still checked.
 *
 * usage: async_copy [-n CHUNKS (32)] [-s CHUNK_KIB (4096)] [-k SLOTS (3)]
 *                   [-H (host timing)]
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
	bool host_timing;
	VkDeviceSize chunk;
	struct vkh_buffer staging, slots, result;  /* K, K, N chunks */
	VkSemaphore uploaded, consumed;
	VkQueryPool ts;               /* 4 per chunk, or none */
	VkCommandBuffer cbs[2 * MAX_CHUNKS];   /* upload i, consume i */
	double write_ms;
};

/* Submit cb on queue q; a zero wait value or a null signal is no wait /
 * no signal. */
static VkResult
submit(struct run *r, uint32_t q, VkCommandBuffer cb, VkSemaphore wait,
       uint64_t wait_value, VkSemaphore signal, uint64_t signal_value)
{
	VkSemaphoreSubmitInfo w = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = wait, .value = wait_value,
		.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
	}, s = {
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
		.commandBufferInfoCount = 1, .pCommandBufferInfos = &c,
		.signalSemaphoreInfoCount = signal ? 1 : 0,
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

/* One copy, bracketed by timestamps q0, q0 + 1. Not ONE_TIME_SUBMIT: the
 * host-timing pass submits it again. The leading barrier orders it after
 * the previous copy of the same queue into the same slot when that pass
 * runs the copies without semaphores. */
static VkCommandBuffer
record_copy(struct run *r, uint32_t q, VkBuffer src, VkDeviceSize src_off,
            VkBuffer dst, VkDeviceSize dst_off, uint32_t q0, bool host)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = r->d.queues[q].pool, .commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkBufferCopy c = { src_off, dst_off, r->chunk };
	VkCommandBuffer cb = VK_NULL_HANDLE;

	if (vkAllocateCommandBuffers(r->d.device, &ai, &cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	vkBeginCommandBuffer(cb, &bi);
	if (r->ts)
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
		                    r->ts, q0);
	vkh_cmd_transfer_barrier(cb);
	vkCmdCopyBuffer(cb, src, dst, 1, &c);
	if (host)
		vkh_cmd_host_barrier(cb);
	if (r->ts)
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		                    r->ts, q0 + 1);
	return vkEndCommandBuffer(cb) == VK_SUCCESS ? cb : VK_NULL_HANDLE;
}

/* Each queue's busy time and how long both were busy. Timestamps (one
 * clock for the device; a queue's own ranges never overlap): the sum of
 * the intersections. Host clock: each queue's copies run again alone,
 * and what the streamed run saved against running host writes, uploads
 * and consumes one after the other is work done in parallel. */
static VkResult
report_overlap(struct run *r, double wall)
{
	uint64_t *t = calloc(4u * r->n, sizeof(uint64_t));
	double ns = r->h.props.limits.timestampPeriod / 1e6;
	double busy[2] = { 0, 0 }, both = 0;
	VkResult res = t ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;

	if (r->ts && t)
		res = vkGetQueryPoolResults(r->d.device, r->ts, 0, 4 * r->n,
		                            4u * r->n * sizeof(uint64_t), t,
		                            sizeof(uint64_t),
		                            VK_QUERY_RESULT_64_BIT |
		                            VK_QUERY_RESULT_WAIT_BIT);
	for (uint32_t i = 0; r->ts && res == VK_SUCCESS && i < r->n; i++) {
		for (uint32_t s = 0; s < 2; s++)
			busy[s] += (double)(t[4 * i + 2 * s + 1] -
			                    t[4 * i + 2 * s]) * ns;
		for (uint32_t j = 0; j < r->n; j++) {
			uint64_t a0 = t[4 * i], a1 = t[4 * i + 1];
			uint64_t b0 = t[4 * j + 2], b1 = t[4 * j + 3];
			uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

			if (hi > lo)
				both += (double)(hi - lo) * ns;
		}
	}
	for (uint32_t s = 0; !r->ts && s < 2 && res == VK_SUCCESS; s++) {
		uint32_t q = s ? r->qc : r->qu;
		uint64_t t0 = vkh_now_ns();

		for (uint32_t i = 0; i < r->n && res == VK_SUCCESS; i++)
			res = submit(r, q, r->cbs[2 * i + s], VK_NULL_HANDLE,
			             0, VK_NULL_HANDLE, 0);
		if (res == VK_SUCCESS)
			res = vkQueueWaitIdle(r->d.queues[q].queue);
		busy[s] = (double)(vkh_now_ns() - t0) / 1e6;
	}
	if (!r->ts)
		both = busy[0] + busy[1] + r->write_ms - wall;
	double shorter = busy[0] < busy[1] ? busy[0] : busy[1];
	double p = shorter > 0 ? 100.0 * both / shorter : 0;
	if (res == VK_SUCCESS)
		printf("  copy queue busy %.2f ms, consumer busy %.2f ms, wall "
		       "%.2f ms, overlap %.0f%% (%s)\n", busy[0], busy[1],
		       wall, p < 0 ? 0 : p > 100 ? 100 : p, r->ts ?
		       "GPU timestamps: both busy / shorter" : "host clock: "
		       "each queue alone; (alone + host writes - wall) / "
		       "shorter");
	free(t);
	return res;
}

static bool
parse(struct run *r, int argc, char **argv)
{
	r->n = 32;
	r->k = 3;
	r->chunk = 4096 * 1024;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		long v = i + 1 < argc ? strtol(argv[i + 1], NULL, 10) : -1;

		if (!strcmp(a, "-H"))
			r->host_timing = true;
		else if (!strcmp(a, "-n") && v >= 1 && v <= MAX_CHUNKS)
			r->n = (uint32_t)v, i++;
		else if (!strcmp(a, "-s") && v >= 4 && v <= 65536 && !(v % 4))
			r->chunk = (VkDeviceSize)v * 1024, i++;
		else if (!strcmp(a, "-k") && v >= 1 && v <= MAX_SLOTS)
			r->k = (uint32_t)v, i++;
		else
			return false;
	}
	return true;
}

/* Uploads on a transfer-only family when there is one; the consumer on
 * another family if possible, else on another queue, else on the same. */
static void
pick_queues(struct run *r)
{
	const struct vkh_queue *q = r->d.queues;
	VkQueueFlags gc = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
	uint32_t n = r->d.queue_count, i;
	int best;

	for (i = 0; i < n && (q[i].aliased || (q[i].flags & gc)); i++)
		;
	r->qu = i < n ? i : 0;
	r->qc = r->qu;
	for (i = 0, best = 0; i < n; i++) {
		int score = q[i].aliased || i == r->qu ? 0 :
		            q[i].family != q[r->qu].family ? 2 : 1;
		if (score > best)
			best = score, r->qc = i;
	}
	printf("  uploads: family %u queue %u; consumer: family %u queue "
	       "%u\n", q[r->qu].family, q[r->qu].index, q[r->qc].family,
	       q[r->qc].index);
	if (r->qc == r->qu)
		printf("  one queue only: both roles share it, no overlap\n");
	else if (q[r->qu].flags & gc)
		printf("  no transfer-only queue family: two queues of %s\n",
		       q[r->qc].family == q[r->qu].family ? "one family" :
		       "two families");
}

#define CHUNK_WORD(i) (0x9e3779b97f4a7c15ull * ((i) + 1))

static bool
check_chunk(const struct run *r, uint32_t i, const uint64_t *s)
{
	for (VkDeviceSize b = 0; b < r->chunk / 8; b++)
		if (s[b] != (r->pattern[b] ^ CHUNK_WORD(i))) {
			fprintf(stderr, "  chunk %u word %llu: 0x%016llx, "
			        "want 0x%016llx\n", i, (unsigned long long)b,
			        (unsigned long long)s[b], (unsigned long long)
			        (r->pattern[b] ^ CHUNK_WORD(i)));
			return false;
		}
	return true;
}

static VkResult
stream(struct run *r, uint32_t *bad)
{
	VkDeviceSize c = r->chunk;
	VkResult res = VK_SUCCESS;
	bool coherent = r->h.mem.memoryTypes[r->staging.mem_type]
	                .propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

	/* Recorded up front, as a streaming application reuses its command
	 * buffers: the timed loop is host writes and vkQueueSubmit2. */
	for (uint32_t i = 0; i < r->n; i++) {
		VkDeviceSize s = (i % r->k) * c;

		r->cbs[2 * i] = record_copy(r, r->qu, r->staging.buffer, s,
		                            r->slots.buffer, s, 4 * i, false);
		r->cbs[2 * i + 1] = record_copy(r, r->qc, r->slots.buffer, s,
		                                r->result.buffer, i * c,
		                                4 * i + 2, true);
		if (!r->cbs[2 * i] || !r->cbs[2 * i + 1])
			return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	uint64_t t0 = vkh_now_ns();
	for (uint32_t i = 0; i < r->n && res == VK_SUCCESS; i++) {
		uint64_t reuse = i >= r->k ? i + 1 - r->k : 0;
		uint64_t *d = (uint64_t *)((uint8_t *)r->staging.map +
		                           (i % r->k) * c), w = CHUNK_WORD(i);

		if (reuse)
			res = wait_value(r, r->uploaded, reuse);
		if (res != VK_SUCCESS)
			break;
		uint64_t tw = vkh_now_ns();
		for (VkDeviceSize b = 0; b < c / 8; b++)
			d[b] = r->pattern[b] ^ w;
		if (!coherent) {
			VkMappedMemoryRange mr = {
				.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
				.memory = r->staging.memory,
				.offset = (i % r->k) * c, .size = c,
			};
			vkFlushMappedMemoryRanges(r->d.device, 1, &mr);
		}
		r->write_ms += (double)(vkh_now_ns() - tw) / 1e6;
		res = submit(r, r->qu, r->cbs[2 * i], r->consumed, reuse,
		             r->uploaded, i + 1);
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
		*bad += !check_chunk(r, i, (const uint64_t *)r->result.map +
		                           i * c / 8);
	printf("  %u chunks of %llu KiB through %u slots in %.2f ms "
	       "(host writes %.2f ms of it): %.2f GB/s, %u wrong\n", r->n,
	       (unsigned long long)(c >> 10), r->k, ms, r->write_ms,
	       (double)c * r->n / (ms * 1e6), *bad);
	return report_overlap(r, ms);
}

static VkResult
setup(struct run *r)
{
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &tci,
	};
	VkResult res = vkCreateSemaphore(r->d.device, &sci, NULL,
	                                 &r->uploaded);

	if (res == VK_SUCCESS)
		res = vkCreateSemaphore(r->d.device, &sci, NULL, &r->consumed);
	r->pattern = malloc(r->chunk);
	if (res != VK_SUCCESS || !r->pattern)
		return res ? res : VK_ERROR_OUT_OF_HOST_MEMORY;
	for (VkDeviceSize b = 0; b < r->chunk / 8; b++)
		r->pattern[b] = 0xbf58476d1ce4e5b9ull * (b + 1) ^ (b << 40);
	res = vkh_buffer_create(&r->h, &r->d, r->k * r->chunk, XFER,
	                        VKH_MEM_UPLOAD, -1, &r->staging);
	if (res == VK_SUCCESS)
		res = vkh_buffer_create(&r->h, &r->d, r->k * r->chunk, XFER,
		                        VKH_MEM_DEVICE_LOCAL, -1, &r->slots);
	if (res == VK_SUCCESS)
		res = vkh_buffer_create(&r->h, &r->d, r->n * r->chunk, XFER,
		                        VKH_MEM_READBACK, -1, &r->result);
	if (res != VK_SUCCESS)
		return res;
	/* Touch every page now, as long-lived buffers would be: first-touch
	 * page faults are the kernel's time, not the queues'. Zero never
	 * matches a chunk's pattern, so a chunk never written is caught. */
	memset(r->staging.map, 0, r->k * r->chunk);
	memset(r->result.map, 0, r->n * r->chunk);
	VkCommandBuffer cb = vkh_cmd_begin(&r->d, r->qu);
	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	vkCmdFillBuffer(cb, r->slots.buffer, 0, VK_WHOLE_SIZE, 0);
	res = vkh_cmd_submit_wait(&r->d, r->qu, cb);
	/* Reset from the host: vkCmdResetQueryPool is not allowed on a
	 * transfer-only queue. */
	if (res == VK_SUCCESS && !r->host_timing && r->h.host_query_reset &&
	    r->d.queues[r->qu].timestamp_valid_bits &&
	    r->d.queues[r->qc].timestamp_valid_bits) {
		VkQueryPoolCreateInfo qi = {
			.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			.queryType = VK_QUERY_TYPE_TIMESTAMP,
			.queryCount = 4 * r->n,
		};
		if (vkCreateQueryPool(r->d.device, &qi, NULL, &r->ts) ==
		    VK_SUCCESS)
			vkResetQueryPool(r->d.device, r->ts, 0, 4 * r->n);
	}
	if (!r->ts)
		printf("  %s: overlap from the host clock\n", r->host_timing ?
		       "-H" : "no timestamps on these queues");
	return res;
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
		        "CHUNK_KIB (4..65536, 4096)] [-k SLOTS (1..%d, 3)] "
		        "[-H]\n", argv[0], MAX_CHUNKS, MAX_SLOTS);
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
	/* Up to 4 queues, spread over the families first: a transfer-only
	 * family is among them on common devices. */
	res = vkh_device_create(&r.h, VK_QUEUE_TRANSFER_BIT, 4, NULL, &r.d);
	if (res != VK_SUCCESS)
		goto out;
	pick_queues(&r);
	if (r.h.validation)
		printf("  (validation layers cost CPU time per submission: "
		       "VKH_NO_VALIDATION=1 for timing)\n");
	res = setup(&r);
	if (res == VK_SUCCESS)
		res = stream(&r, &bad);
	status = res != VK_SUCCESS || bad;

	/* The command buffers go with their pools (vkh_finish). */
	if (r.d.device)
		vkDeviceWaitIdle(r.d.device);
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
