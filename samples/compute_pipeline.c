/* SPDX-License-Identifier: MIT */
/*
 * compute_pipeline: frames of an image-processing pass fed by uploads on
 * a transfer queue, the two queues linked by ONE timeline semaphore T.
 *
 *   host      writes frame f (W x H gray pixels) into staging slot f % K
 *   transfer  waits T >= 2f       copies staging -> device-local input,
 *                                 signals 2f+1
 *   compute   waits T >= 2f+1     3x3 box filter + per-frame bias
 *                                 (push constants) input -> output slot,
 *                                 signals 2f+2
 *   host      waits T >= 2f+2 (before reusing slot f % K) and checks
 *             every output pixel against its own filter.
 *
 * Timeline values only grow, so the GPU side is the strict chain
 * U0 C0 U1 C1 ...; the K slots let the host prepare frame f+1 while the
 * GPU still works on frame f. The transfer queue comes from a family
 * without COMPUTE when the driver has one (a copy engine), else another
 * queue, else the compute queue itself (then the run says so).
 *
 * Exit status 77 (skip) when the device has no COMPUTE queue.
 *
 * usage: compute_pipeline [-f FRAMES] [-w WIDTH] [-h HEIGHT]
 */
#include "vkh_compute.h"

#include <stdlib.h>
#include <string.h>

#include "box_filter.spv.h"

#define K 2
/* Bound of the host's wait for a frame: generous for sanitizer builds. */
#define FRAME_TIMEOUT_NS (120ull * 1000000000)

struct frame_push {
	uint32_t width, height, bias;
};

struct slot {
	struct vkh_buffer staging, input, output;
	struct vkh_pipe pipe;
	VkCommandBuffer upload_cb, compute_cb;
	int frame; /* frame in flight in this slot, -1 if none */
};

static uint32_t
pixel(uint32_t x, uint32_t y, uint32_t f)
{
	return (x * 7 + y * 13 + f * 29 + (x * y) % 17) & 255;
}

static uint32_t
clampu(int v, int hi)
{
	return (uint32_t)(v < 0 ? 0 : v > hi ? hi : v);
}

/* The box filter of box_filter.comp, on the host. */
static uint32_t
model(uint32_t x, uint32_t y, uint32_t f, uint32_t w, uint32_t h)
{
	uint32_t sum = 0;

	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			sum += pixel(clampu((int)x + dx, (int)w - 1),
			             clampu((int)y + dy, (int)h - 1), f);
	return sum / 9 + f;
}

static VkResult
submit(VkQueue q, VkCommandBuffer cb, VkSemaphore t, uint64_t wait,
       VkPipelineStageFlags stage, uint64_t signal)
{
	VkTimelineSemaphoreSubmitInfo ti = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = 1,
		.pWaitSemaphoreValues = &wait,
		.signalSemaphoreValueCount = 1,
		.pSignalSemaphoreValues = &signal,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &ti,
		.waitSemaphoreCount = 1,
		.pWaitSemaphores = &t,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
		.signalSemaphoreCount = 1,
		.pSignalSemaphores = &t,
	};

	return vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE);
}

static void
flush(struct vkh *h, struct vkh_device *d, struct vkh_buffer *b)
{
	VkMappedMemoryRange mr = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.memory = b->memory,
		.size = VK_WHOLE_SIZE,
	};

	if (!(h->mem.memoryTypes[b->mem_type].propertyFlags &
	      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
		vkFlushMappedMemoryRanges(d->device, 1, &mr);
}

/* Wait for the frame in slot s and check it; frees its command buffers. */
static bool
retire(struct vkh *h, struct vkh_device *d, uint32_t qt, uint32_t qc,
       VkSemaphore t, struct slot *s, uint32_t w, uint32_t hh,
       unsigned *bad_frames)
{
	uint64_t want;
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.semaphoreCount = 1,
		.pSemaphores = &t,
		.pValues = &want,
	};
	const uint32_t *out = s->output.map;
	uint32_t f, bad = 0;
	VkResult r;

	if (s->frame < 0)
		return true;
	f = (uint32_t)s->frame;
	want = 2ull * f + 2;
	r = vkWaitSemaphores(d->device, &wi, FRAME_TIMEOUT_NS);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "compute_pipeline: frame %u: wait T >= %llu: "
		        "%s\n", f, (unsigned long long)want,
		        vkh_result_str(r));
		return false;
	}
	vkh_buffer_invalidate(h, d, &s->output);
	for (uint32_t y = 0; y < hh; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint32_t m = model(x, y, f, w, hh);
			if (out[y * w + x] != m && !bad++)
				printf("  frame %u: pixel (%u,%u) = %u, want "
				       "%u\n", f, x, y, out[y * w + x], m);
		}
	}
	if (bad) {
		printf("  frame %u: %u pixel(s) wrong\n", f, bad);
		(*bad_frames)++;
	}
	vkFreeCommandBuffers(d->device, d->queues[qt].pool, 1, &s->upload_cb);
	vkFreeCommandBuffers(d->device, d->queues[qc].pool, 1, &s->compute_cb);
	s->frame = -1;
	return true;
}

static bool
parse(int argc, char **argv, uint32_t *frames, uint32_t *w, uint32_t *hh)
{
	for (int i = 1; i + 1 < argc; i += 2) {
		long v = strtol(argv[i + 1], NULL, 0);
		if (v < 1 || v > 4096)
			return false;
		if (!strcmp(argv[i], "-f"))
			*frames = (uint32_t)v;
		else if (!strcmp(argv[i], "-w"))
			*w = (uint32_t)v;
		else if (!strcmp(argv[i], "-h"))
			*hh = (uint32_t)v;
		else
			return false;
	}
	return argc % 2 == 1;
}

int
main(int argc, char **argv)
{
	uint32_t frames = 8, w = 512, hh = 384, qc = 0, qt = 0;
	struct vkh h;
	struct vkh_device d;
	struct slot slots[K];
	VkSemaphore timeline = VK_NULL_HANDLE;
	VkResult r = VK_SUCCESS;
	VkDeviceSize bytes;
	unsigned bad_frames = 0;
	uint64_t t0, t_run;
	int status = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(slots, 0, sizeof(slots));
	if (!parse(argc, argv, &frames, &w, &hh)) {
		fprintf(stderr, "usage: %s [-f FRAMES] [-w WIDTH] [-h HEIGHT]"
		        "  (1..4096 each)\n", argv[0]);
		return 2;
	}
	bytes = (VkDeviceSize)w * hh * 4;
	r = vkh_init(&h, "compute_pipeline", VK_API_VERSION_1_3);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "compute_pipeline: init: %s\n",
		        vkh_result_str(r));
		vkh_finish(&h);
		return 1;
	}
	printf("compute_pipeline: device \"%s\" (driver %s), %u frames of "
	       "%ux%u, %u in flight\n", h.props.deviceName,
	       h.driver.driverName, frames, w, hh, K);
	if (!vkh_has_compute(&h) || !h.timeline_semaphore) {
		printf("compute_pipeline: SKIP: %s\n", !vkh_has_compute(&h) ?
		       "no queue family with COMPUTE" :
		       "no timelineSemaphore");
		vkh_finish(&h);
		return VKH_EXIT_SKIP;
	}
	/* Queues of every TRANSFER-capable family, round-robin; pick a
	 * COMPUTE one and, separately, a transfer one -- preferring a
	 * family without COMPUTE/GRAPHICS, then any other queue. */
	r = vkh_device_create(&h, VK_QUEUE_TRANSFER_BIT, VKH_MAX_QUEUES, NULL,
	                      &d);
	if (r != VK_SUCCESS)
		goto out;
	{
		int c = -1, dedicated = -1, other = -1;
		for (uint32_t i = 0; i < d.queue_count; i++) {
			VkQueueFlags fl = d.queues[i].flags;
			if (d.queues[i].aliased)
				continue;
			if (c < 0 && (fl & VK_QUEUE_COMPUTE_BIT))
				c = (int)i;
		}
		if (c < 0) {
			/* The COMPUTE family does not report TRANSFER (the
			 * spec allows that): use it for both. */
			vkh_device_destroy(&h, &d);
			r = vkh_device_create(&h, VK_QUEUE_COMPUTE_BIT, 1,
			                      NULL, &d);
			if (r != VK_SUCCESS)
				goto out;
			c = 0;
		}
		for (uint32_t i = 0; i < d.queue_count; i++) {
			VkQueueFlags fl = d.queues[i].flags;
			if (d.queues[i].aliased || (int)i == c)
				continue;
			if (dedicated < 0 && !(fl & (VK_QUEUE_COMPUTE_BIT |
			                             VK_QUEUE_GRAPHICS_BIT)))
				dedicated = (int)i;
			if (other < 0)
				other = (int)i;
		}
		qc = (uint32_t)c;
		qt = (uint32_t)(dedicated >= 0 ? dedicated :
		                other >= 0 ? other : c);
	}
	printf("  compute  queue: family %u index %u (flags 0x%x)\n",
	       d.queues[qc].family, d.queues[qc].index, d.queues[qc].flags);
	printf("  transfer queue: family %u index %u (flags 0x%x)%s\n",
	       d.queues[qt].family, d.queues[qt].index, d.queues[qt].flags,
	       qt == qc ? " -- the same queue: no overlap" : "");
	{
		VkSemaphoreTypeCreateInfo tci = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
			.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		};
		VkSemaphoreCreateInfo sci = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
			.pNext = &tci,
		};
		r = vkCreateSemaphore(d.device, &sci, NULL, &timeline);
		if (r != VK_SUCCESS)
			goto out_slots;
	}
	for (unsigned s = 0; s < K; s++) {
		struct slot *sl = &slots[s];
		sl->frame = -1;
		r = vkh_buffer_create(&h, &d, bytes,
		                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
		                      VKH_MEM_UPLOAD, -1, &sl->staging);
		if (r == VK_SUCCESS)
			r = vkh_buffer_create(&h, &d, bytes,
			                      VK_BUFFER_USAGE_TRANSFER_DST_BIT |
			                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
			                      VKH_MEM_DEVICE_LOCAL, -1,
			                      &sl->input);
		if (r == VK_SUCCESS)
			r = vkh_buffer_create(&h, &d, bytes,
			                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
			                      VKH_MEM_READBACK, -1, &sl->output);
		if (r == VK_SUCCESS)
			r = vkh_pipe_create_simple(&d, box_filter_spv,
			                           sizeof(box_filter_spv), 2,
			                           sizeof(struct frame_push),
			                           NULL, &sl->pipe);
		if (r != VK_SUCCESS || !sl->staging.map || !sl->output.map)
			goto out_slots;
		vkh_pipe_set_buffer(&d, &sl->pipe, 0, 0,
		                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		                    sl->input.buffer, 0, VK_WHOLE_SIZE);
		vkh_pipe_set_buffer(&d, &sl->pipe, 0, 1,
		                    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		                    sl->output.buffer, 0, VK_WHOLE_SIZE);
	}

	t0 = vkh_now_ns();
	for (uint32_t f = 0; f < frames; f++) {
		struct slot *sl = &slots[f % K];
		struct frame_push push = { w, hh, f };
		VkBufferCopy copy = { .size = bytes };
		uint32_t *px = sl->staging.map;

		if (!retire(&h, &d, qt, qc, timeline, sl, w, hh, &bad_frames))
			goto out_slots;
		for (uint32_t y = 0; y < hh; y++)
			for (uint32_t x = 0; x < w; x++)
				px[y * w + x] = pixel(x, y, f);
		flush(&h, &d, &sl->staging);

		sl->upload_cb = vkh_cmd_begin(&d, qt);
		sl->compute_cb = vkh_cmd_begin(&d, qc);
		if (!sl->upload_cb || !sl->compute_cb) {
			r = VK_ERROR_OUT_OF_HOST_MEMORY;
			goto out_slots;
		}
		vkCmdCopyBuffer(sl->upload_cb, sl->staging.buffer,
		                sl->input.buffer, 1, &copy);
		vkh_pipe_bind(sl->compute_cb, &sl->pipe, 0, NULL, &push);
		vkCmdDispatch(sl->compute_cb, (w + 15) / 16, (hh + 15) / 16,
		              1);
		vkh_cmd_compute_host_barrier(sl->compute_cb);
		r = vkEndCommandBuffer(sl->upload_cb);
		if (r == VK_SUCCESS)
			r = vkEndCommandBuffer(sl->compute_cb);
		/* The semaphore signal/wait pair orders the copy before the
		 * filter and makes its writes available and visible. */
		if (r == VK_SUCCESS)
			r = submit(d.queues[qt].queue, sl->upload_cb, timeline,
			           2ull * f, VK_PIPELINE_STAGE_TRANSFER_BIT,
			           2ull * f + 1);
		if (r == VK_SUCCESS)
			r = submit(d.queues[qc].queue, sl->compute_cb,
			           timeline, 2ull * f + 1,
			           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
			           2ull * f + 2);
		if (r != VK_SUCCESS)
			goto out_slots;
		sl->frame = (int)f;
	}
	for (uint32_t f = frames > K ? frames - K : 0; f < frames; f++)
		if (!retire(&h, &d, qt, qc, timeline, &slots[f % K], w, hh,
		            &bad_frames))
			goto out_slots;
	t_run = vkh_now_ns() - t0;
	if (bad_frames) {
		printf("  FAILED: %u of %u frames wrong\n", bad_frames, frames);
		goto out_slots;
	}
	printf("  %u frames in %.2f ms (%.2f ms/frame, host fill and check "
	       "included)\n", frames, (double)t_run / 1e6,
	       (double)t_run / 1e6 / frames);
	printf("  verified %u x %u pixels x %u frames: OK\n", w, hh, frames);
	status = 0;

out_slots:
	if (status) {
		/* Drain before tearing down what the GPU may still use. */
		vkDeviceWaitIdle(d.device);
	}
	for (unsigned s = 0; s < K; s++) {
		vkh_pipe_destroy(&d, &slots[s].pipe);
		vkh_buffer_destroy(&d, &slots[s].staging);
		vkh_buffer_destroy(&d, &slots[s].input);
		vkh_buffer_destroy(&d, &slots[s].output);
	}
	if (timeline)
		vkDestroySemaphore(d.device, timeline, NULL);
out:
	if (r != VK_SUCCESS)
		fprintf(stderr, "compute_pipeline: %s\n", vkh_result_str(r));
	if (vkh_finish(&h))
		status = 1;
	printf("compute_pipeline: %s\n", status ? "FAILED" : "PASSED");
	return status;
}
