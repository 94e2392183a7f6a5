/* SPDX-License-Identifier: MIT */
/*
 * timeline_pipeline: a producer queue and a consumer queue linked by ONE
 * timeline semaphore, N frames with K in flight, the consumer's work for a
 * frame submitted BEFORE the producer's (wait-before-signal).
 *
 * Values of the timeline T for frame f:
 *   producer f: waits T >= 2f      (consumer f-1 finished), signals 2f+1
 *   consumer f: waits T >= 2f+1    (producer f finished),   signals 2f+2
 * A timeline only moves forward, so each signal must come after the one
 * before it: that makes the GPU side a strict chain P0 C0 P1 C1 ... and
 * the "2f" wait is what keeps it legal (producer f+1 can never signal
 * 2f+3 before consumer f signals 2f+2).
 *
 * K frames in flight is the host side: frame f reuses slot f % K (a
 * device-local frame buffer and a readback region), so before submitting
 * frame f the host waits for T >= 2(f-K)+2 with vkWaitSemaphores and
 * checks frame f-K's data out of that slot; nothing else throttles it.
 *
 * Per frame the producer fills its slot with a frame word, writes a header
 * (vkCmdUpdateBuffer) and copies a frame-dependent window of a static
 * upload buffer into it; the consumer copies the slot into the readback
 * region. The host verifies every byte.
 *
 * Queues: different families when the driver has them (e.g. swgpu's
 * compute-class and copy-class engines), else two queues of one family,
 * else one queue -- then a wait submitted before its signal on the same
 * queue would block that queue forever, so the producer is submitted
 * first and the run says so.
 *
 * usage: timeline_pipeline [-n FRAMES] [-k IN_FLIGHT] [-s FRAME_KIB]
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define MAX_K 8
#define HEADER 64
#define WINDOW_OFF 4096

struct frame_cmds {
	VkCommandBuffer prod, cons;
	uint64_t submit_ns;
};

static uint32_t
frame_word(uint32_t f)
{
	return 0xf0000000u | (f * 0x01010101u & 0x0fffffffu);
}

static VkDeviceSize
window_size(VkDeviceSize frame)
{
	return frame / 4;
}

static VkDeviceSize
window_src(uint32_t f, VkDeviceSize frame)
{
	return (f * 977u) % (frame - window_size(frame));
}

static void
make_header(uint32_t f, uint8_t *hdr)
{
	memset(hdr, 0, HEADER);
	snprintf((char *)hdr, HEADER, "frame %u of timeline_pipeline", f);
}

/* Host model of frame f as the consumer copies it out. */
static void
model_frame(uint32_t f, VkDeviceSize frame, const uint8_t *upload,
            uint8_t *out)
{
	uint32_t w = frame_word(f);

	for (VkDeviceSize i = 0; i < frame; i++)
		out[i] = (uint8_t)(w >> (8 * (i % 4)));
	make_header(f, out);
	memcpy(out + WINDOW_OFF, upload + window_src(f, frame),
	       window_size(frame));
}

static VkResult
submit(struct vkh_device *d, uint32_t q, VkCommandBuffer cb, VkSemaphore s,
       uint64_t wait, uint64_t signal)
{
	VkSemaphoreSubmitInfo w = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = s,
		.value = wait,
		.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
	};
	VkSemaphoreSubmitInfo sg = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
		.semaphore = s,
		.value = signal,
		.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
	};
	VkCommandBufferSubmitInfo c = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
		.commandBuffer = cb,
	};
	VkSubmitInfo2 si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
		.waitSemaphoreInfoCount = 1,
		.pWaitSemaphoreInfos = &w,
		.commandBufferInfoCount = 1,
		.pCommandBufferInfos = &c,
		.signalSemaphoreInfoCount = 1,
		.pSignalSemaphoreInfos = &sg,
	};

	return vkQueueSubmit2(d->queues[q].queue, 1, &si, VK_NULL_HANDLE);
}

static void
usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-n FRAMES (1..1000, 16)] "
	        "[-k IN_FLIGHT (1..%d, 3)] [-s FRAME_KIB (8..65536, 256)]\n",
	        prog, MAX_K);
}

int
main(int argc, char **argv)
{
	uint32_t nframes = 16, k = 3;
	VkDeviceSize frame = 256 * 1024;
	struct vkh h;
	struct vkh_device d;
	struct vkh_buffer up, slot[MAX_K], rb;
	struct frame_cmds *fc = NULL;
	VkSemaphore tl = VK_NULL_HANDLE;
	uint8_t *want = NULL;
	uint32_t qp = 0, qc = 0, bad_frames = 0;
	bool same_queue;
	uint64_t t_start;
	VkResult r;
	int status = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i += 2) {
		long v = i + 1 < argc ? strtol(argv[i + 1], NULL, 10) : -1;
		if (!strcmp(argv[i], "-n") && v >= 1 && v <= 1000)
			nframes = (uint32_t)v;
		else if (!strcmp(argv[i], "-k") && v >= 1 && v <= MAX_K)
			k = (uint32_t)v;
		else if (!strcmp(argv[i], "-s") && v >= 8 && v <= 65536)
			frame = (VkDeviceSize)v * 1024;
		else {
			usage(argv[0]);
			return 2;
		}
	}

	r = vkh_init(&h, "timeline_pipeline", VK_API_VERSION_1_3);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "timeline_pipeline: init: %s\n",
		        vkh_result_str(r));
		vkh_finish(&h);
		return 1;
	}
	printf("timeline_pipeline: device \"%s\" (driver %s), %u frames of "
	       "%llu KiB, %u in flight\n", h.props.deviceName,
	       h.driver.driverName, nframes,
	       (unsigned long long)(frame >> 10), k);
	if (!h.timeline_semaphore || !h.synchronization2) {
		fprintf(stderr, "timeline_pipeline: needs timelineSemaphore "
		        "and synchronization2\n");
		goto out;
	}
	r = vkh_device_create(&h, VK_QUEUE_TRANSFER_BIT, 2, NULL, &d);
	if (r != VK_SUCCESS)
		goto out;
	qp = 0;
	qc = 1;
	same_queue = d.queues[1].aliased;
	printf("  producer: family %u queue %u\n  consumer: family %u queue "
	       "%u%s\n", d.queues[qp].family, d.queues[qp].index,
	       d.queues[qc].family, d.queues[qc].index,
	       same_queue ? "  (same queue: the driver has only one)" :
	       d.queues[qp].family != d.queues[qc].family ?
	       "  (different families)" : "  (same family)");
	if (same_queue)
		printf("  single queue: producer submitted before consumer "
		       "(a queue runs its submissions in order, so a wait "
		       "before its signal would deadlock it)\n");

	{
		VkSemaphoreTypeCreateInfo tci = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
			.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
			.initialValue = 0,
		};
		VkSemaphoreCreateInfo sci = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
			.pNext = &tci,
		};
		r = vkCreateSemaphore(d.device, &sci, NULL, &tl);
		if (r != VK_SUCCESS)
			goto out;
	}

	memset(&up, 0, sizeof(up));
	rb = up;
	for (uint32_t i = 0; i < MAX_K; i++)
		slot[i] = up;
	r = vkh_buffer_create(&h, &d, frame, XFER, VKH_MEM_UPLOAD, -1, &up);
	for (uint32_t i = 0; i < k && r == VK_SUCCESS; i++)
		r = vkh_buffer_create(&h, &d, frame, XFER,
		                      VKH_MEM_DEVICE_LOCAL, -1, &slot[i]);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(&h, &d, frame * k, XFER,
		                      VKH_MEM_READBACK, -1, &rb);
	fc = calloc(nframes, sizeof(*fc));
	want = malloc(frame);
	if (r != VK_SUCCESS || !fc || !want)
		goto out_bufs;
	for (VkDeviceSize i = 0; i < frame; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(0x7a11, i);

	printf("  frame slot  producer(wait->signal)  consumer(wait->signal)"
	       "  latency      data\n");
	t_start = vkh_now_ns();
	for (uint32_t f = 0; f < nframes + k; f++) {
		/* Retire frame f-K: its slot is about to be reused. */
		if (f >= k) {
			uint32_t g = f - k;
			uint64_t v = 2ull * g + 2;
			VkSemaphoreWaitInfo wi = {
				.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
				.semaphoreCount = 1,
				.pSemaphores = &tl,
				.pValues = &v,
			};
			const uint8_t *got;
			bool ok;

			r = vkWaitSemaphores(d.device, &wi, VKH_TIMEOUT_NS);
			if (r != VK_SUCCESS) {
				fprintf(stderr, "  frame %u: vkWaitSemaphores "
				        "-> %s\n", g, vkh_result_str(r));
				goto out_bufs;
			}
			got = (const uint8_t *)rb.map + (g % k) * frame;
			model_frame(g, frame, up.map, want);
			ok = !memcmp(got, want, frame);
			bad_frames += !ok;
			printf("  %5u %4u  %8llu -> %-8llu    %8llu -> %-8llu"
			       "  %8.3f ms  %s\n", g, g % k,
			       2ull * g, 2ull * g + 1, 2ull * g + 1,
			       2ull * g + 2,
			       (double)(vkh_now_ns() - fc[g].submit_ns) / 1e6,
			       ok ? "ok" : "WRONG");
		}
		if (f >= nframes)
			continue;

		/* Record frame f. */
		{
			VkBuffer s = slot[f % k].buffer;
			uint8_t hdr[HEADER];
			VkBufferCopy win = {
				.srcOffset = window_src(f, frame),
				.dstOffset = WINDOW_OFF,
				.size = window_size(frame),
			};
			VkBufferCopy out = {
				.srcOffset = 0,
				.dstOffset = (f % k) * frame,
				.size = frame,
			};

			fc[f].prod = vkh_cmd_begin(&d, qp);
			fc[f].cons = vkh_cmd_begin(&d, qc);
			if (!fc[f].prod || !fc[f].cons)
				goto out_bufs;
			vkCmdFillBuffer(fc[f].prod, s, 0, VK_WHOLE_SIZE,
			                frame_word(f));
			vkh_cmd_transfer_barrier(fc[f].prod);
			make_header(f, hdr);
			vkCmdUpdateBuffer(fc[f].prod, s, 0, HEADER, hdr);
			vkCmdCopyBuffer(fc[f].prod, up.buffer, s, 1, &win);
			vkCmdCopyBuffer(fc[f].cons, s, rb.buffer, 1, &out);
			vkh_cmd_host_barrier(fc[f].cons);
			if (vkEndCommandBuffer(fc[f].prod) != VK_SUCCESS ||
			    vkEndCommandBuffer(fc[f].cons) != VK_SUCCESS)
				goto out_bufs;
		}
		fc[f].submit_ns = vkh_now_ns();
		if (!same_queue) {
			/* Wait-before-signal: the consumer waits for 2f+1,
			 * which no submitted work signals yet. */
			r = submit(&d, qc, fc[f].cons, tl, 2ull * f + 1,
			           2ull * f + 2);
			if (r == VK_SUCCESS)
				r = submit(&d, qp, fc[f].prod, tl, 2ull * f,
				           2ull * f + 1);
		} else {
			r = submit(&d, qp, fc[f].prod, tl, 2ull * f,
			           2ull * f + 1);
			if (r == VK_SUCCESS)
				r = submit(&d, qc, fc[f].cons, tl,
				           2ull * f + 1, 2ull * f + 2);
		}
		if (r != VK_SUCCESS)
			goto out_bufs;
	}
	{
		double total = (double)(vkh_now_ns() - t_start) / 1e6;
		uint64_t v = ~0ull;

		vkGetSemaphoreCounterValue(d.device, tl, &v);
		printf("  %u frames in %.2f ms (%.3f ms/frame), final timeline "
		       "value %llu (want %llu)\n", nframes, total,
		       total / nframes, (unsigned long long)v,
		       2ull * nframes);
		if (v != 2ull * nframes)
			bad_frames++;
	}
	status = bad_frames ? 1 : 0;

out_bufs:
	if (d.device)
		vkDeviceWaitIdle(d.device);
	if (fc) {
		for (uint32_t f = 0; f < nframes; f++) {
			if (fc[f].prod)
				vkFreeCommandBuffers(d.device,
				                     d.queues[qp].pool, 1,
				                     &fc[f].prod);
			if (fc[f].cons)
				vkFreeCommandBuffers(d.device,
				                     d.queues[qc].pool, 1,
				                     &fc[f].cons);
		}
	}
	vkh_buffer_destroy(&d, &up);
	for (uint32_t i = 0; i < k; i++)
		vkh_buffer_destroy(&d, &slot[i]);
	vkh_buffer_destroy(&d, &rb);
	if (tl)
		vkDestroySemaphore(d.device, tl, NULL);
	free(fc);
	free(want);
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "timeline_pipeline: %s\n", vkh_result_str(r));
	if (vkh_finish(&h))
		status = 1;
	printf("timeline_pipeline: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
