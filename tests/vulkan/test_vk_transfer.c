/* SPDX-License-Identifier: MIT */
/*
 * Transfer commands through the loader, each checked byte for byte against
 * a host model: vkCmdCopyBuffer/vkCmdCopyBuffer2 with many odd regions,
 * vkCmdFillBuffer (incl. VK_WHOLE_SIZE), vkCmdUpdateBuffer, secondary
 * command buffers, pipeline barriers (1 and 2) between dependent copies,
 * vkQueueSubmit2, queue/device wait idle, command pool reset/trim/reuse and
 * parallel copies on every queue.
 */
#include "vk_harness.h"

#include <stdlib.h>
#include <string.h>

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)

/* Upload (U), two device-local (A, B) and readback (R) buffers of one
 * size, plus the host model of what R must contain. */
struct bufs {
	VkDeviceSize size;
	struct vkh_buffer u, a, b, r;
	uint8_t *model;
};

static VkResult
bufs_create(struct vkh *h, struct vkh_device *d, VkDeviceSize size,
            uint32_t seed, struct bufs *s)
{
	VkResult r;

	memset(s, 0, sizeof(*s));
	s->size = size;
	s->model = malloc(size);
	if (!s->model)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	r = vkh_buffer_create(h, d, size, XFER, VKH_MEM_UPLOAD, -1, &s->u);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, d, size, XFER, VKH_MEM_DEVICE_LOCAL,
		                      -1, &s->a);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, d, size, XFER, VKH_MEM_DEVICE_LOCAL,
		                      -1, &s->b);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, d, size, XFER, VKH_MEM_READBACK, -1,
		                      &s->r);
	if (r != VK_SUCCESS)
		return r;
	for (VkDeviceSize i = 0; i < size; i++)
		((uint8_t *)s->u.map)[i] = vkh_pattern(seed, i);
	memset(s->r.map, 0xcd, size);
	return VK_SUCCESS;
}

static void
bufs_destroy(struct vkh_device *d, struct bufs *s)
{
	vkh_buffer_destroy(d, &s->u);
	vkh_buffer_destroy(d, &s->a);
	vkh_buffer_destroy(d, &s->b);
	vkh_buffer_destroy(d, &s->r);
	free(s->model);
}

/* Compare R with the model; report the first differing byte. */
static bool
bufs_match(struct vkh *h, struct vkh_device *d, struct bufs *s)
{
	const uint8_t *got = s->r.map;

	vkh_buffer_invalidate(h, d, &s->r);
	if (!memcmp(got, s->model, s->size))
		return true;
	for (VkDeviceSize i = 0; i < s->size; i++) {
		if (got[i] != s->model[i]) {
			fprintf(stderr, "  first mismatch at byte %llu: got "
			        "0x%02x want 0x%02x\n", (unsigned long long)i,
			        got[i], s->model[i]);
			break;
		}
	}
	return false;
}

static void
model_fill(uint8_t *m, VkDeviceSize off, VkDeviceSize size, uint32_t word)
{
	for (VkDeviceSize i = 0; i < size; i++)
		m[off + i] = (uint8_t)(word >> (8 * (i % 4)));
}

static void
copy_whole(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, VkDeviceSize size)
{
	VkBufferCopy c = { .size = size };

	vkCmdCopyBuffer(cb, src, dst, 1, &c);
}

/* 64 regions with odd offsets and sizes, half through vkCmdCopyBuffer and
 * half through vkCmdCopyBuffer2, into a buffer first filled on the GPU. */
static void
test_copy_regions(struct vkh *h, struct vkh_device *d)
{
	enum { NREG = 64, SLOT = 4000 };
	struct bufs s;
	VkBufferCopy reg[NREG];
	VkBufferCopy2 reg2[NREG];
	VkCopyBufferInfo2 info2 = {
		.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2,
	};
	const uint8_t *u;
	VkCommandBuffer cb;

	VKH_CHECK_VK(h, bufs_create(h, d, 256 * 1024, 1, &s));
	u = s.u.map;
	memset(s.model, 0x5a, s.size);
	for (unsigned k = 0; k < NREG; k++) {
		VkDeviceSize size = 1 + (k * 997) % 3000;
		reg[k] = (VkBufferCopy){
			.srcOffset = (k * 3331 + 5) % (s.size - size),
			.dstOffset = k * SLOT + (k * 7) % 13,
			.size = size,
		};
		reg2[k] = (VkBufferCopy2){
			.sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2,
			.srcOffset = reg[k].srcOffset,
			.dstOffset = reg[k].dstOffset,
			.size = reg[k].size,
		};
		memcpy(s.model + reg[k].dstOffset, u + reg[k].srcOffset,
		       size);
	}
	info2.srcBuffer = s.u.buffer;
	info2.dstBuffer = s.a.buffer;
	info2.regionCount = NREG / 2;
	info2.pRegions = reg2 + NREG / 2;

	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	vkCmdFillBuffer(cb, s.a.buffer, 0, VK_WHOLE_SIZE, 0x5a5a5a5a);
	vkh_cmd_transfer_barrier(cb);
	vkCmdCopyBuffer(cb, s.u.buffer, s.a.buffer, NREG / 2, reg);
	vkCmdCopyBuffer2(cb, &info2);
	vkh_cmd_transfer_barrier(cb);
	copy_whole(cb, s.a.buffer, s.r.buffer, s.size);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK(h, bufs_match(h, d, &s));
	bufs_destroy(d, &s);
}

/* vkCmdFillBuffer: VK_WHOLE_SIZE from an offset on a buffer whose size is
 * not a multiple of 4 (rounds down, the tail survives), small fills, and
 * byte order of the 32-bit word. */
static void
test_fill(struct vkh *h, struct vkh_device *d)
{
	struct bufs s;
	VkCommandBuffer cb;
	VkDeviceSize whole;

	VKH_CHECK_VK(h, bufs_create(h, d, 4099, 2, &s));
	memcpy(s.model, s.u.map, s.size);
	whole = ((s.size - 4) / 4) * 4;
	model_fill(s.model, 4, whole, 0x11223344);
	model_fill(s.model, 100, 8, 0xaabbccdd);
	model_fill(s.model, 4092, 4, 0x01020304);
	model_fill(s.model, 0, 4, 0);

	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	copy_whole(cb, s.u.buffer, s.a.buffer, s.size);
	vkh_cmd_transfer_barrier(cb);
	vkCmdFillBuffer(cb, s.a.buffer, 4, VK_WHOLE_SIZE, 0x11223344);
	vkh_cmd_transfer_barrier(cb);
	vkCmdFillBuffer(cb, s.a.buffer, 100, 8, 0xaabbccdd);
	vkCmdFillBuffer(cb, s.a.buffer, 4092, 4, 0x01020304);
	vkCmdFillBuffer(cb, s.a.buffer, 0, 4, 0);
	vkh_cmd_transfer_barrier(cb);
	copy_whole(cb, s.a.buffer, s.r.buffer, s.size);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK(h, bufs_match(h, d, &s));
	printf("  whole-size fill from offset 4 covered %llu of %llu bytes\n",
	       (unsigned long long)whole, (unsigned long long)s.size);
	bufs_destroy(d, &s);
}

/* vkCmdUpdateBuffer copies its data at record time: the host array is
 * scribbled over between recording and submission. Sizes 65536 (the
 * maximum), 4 and 1000. */
static void
test_update(struct vkh *h, struct vkh_device *d)
{
	struct bufs s;
	VkCommandBuffer cb;
	uint8_t *data = malloc(65536);

	VKH_CHECK(h, data);
	VKH_CHECK_VK(h, bufs_create(h, d, 128 * 1024, 3, &s));
	memset(s.model, 0, s.size);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	vkCmdFillBuffer(cb, s.a.buffer, 0, VK_WHOLE_SIZE, 0);
	vkh_cmd_transfer_barrier(cb);
	for (unsigned i = 0; i < 65536; i++)
		data[i] = vkh_pattern(30, i);
	memcpy(s.model, data, 65536);
	vkCmdUpdateBuffer(cb, s.a.buffer, 0, 65536, data);
	for (unsigned i = 0; i < 4; i++)
		data[i] = (uint8_t)(0xf0 + i);
	memcpy(s.model + 65540, data, 4);
	vkCmdUpdateBuffer(cb, s.a.buffer, 65540, 4, data);
	for (unsigned i = 0; i < 1000; i++)
		data[i] = vkh_pattern(31, i);
	memcpy(s.model + 100000, data, 1000);
	vkCmdUpdateBuffer(cb, s.a.buffer, 100000, 1000, data);
	vkh_cmd_transfer_barrier(cb);
	copy_whole(cb, s.a.buffer, s.r.buffer, s.size);
	vkh_cmd_host_barrier(cb);
	memset(data, 0x77, 65536); /* must not reach the GPU */
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK(h, bufs_match(h, d, &s));
	free(data);
	bufs_destroy(d, &s);
}

static VkCommandBuffer
begin_secondary(struct vkh_device *d, uint32_t qi)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = d->queues[qi].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferInheritanceInfo inh = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
		.pInheritanceInfo = &inh,
	};
	VkCommandBuffer cb = VK_NULL_HANDLE;

	if (vkAllocateCommandBuffers(d->device, &ai, &cb) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	if (vkBeginCommandBuffer(cb, &bi) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return cb;
}

/* Two secondaries executed by one vkCmdExecuteCommands between primary
 * commands; the second has its own barrier between a copy and a fill. */
static void
test_secondary(struct vkh *h, struct vkh_device *d)
{
	struct bufs s;
	VkCommandBuffer sec[2], cb;
	VkDeviceSize half;
	VkBufferCopy c;

	VKH_CHECK_VK(h, bufs_create(h, d, 64 * 1024, 4, &s));
	half = s.size / 2;
	/* A gets U with its halves swapped, then a fill inside the first. */
	memcpy(s.model + half, s.u.map, half);
	memcpy(s.model, (uint8_t *)s.u.map + half, half);
	model_fill(s.model, 1024, 512, 0xcafef00d);

	sec[0] = begin_secondary(d, 0);
	sec[1] = begin_secondary(d, 0);
	VKH_CHECK(h, sec[0] && sec[1]);
	c = (VkBufferCopy){ .srcOffset = 0, .dstOffset = half, .size = half };
	vkCmdCopyBuffer(sec[0], s.u.buffer, s.a.buffer, 1, &c);
	c = (VkBufferCopy){ .srcOffset = half, .dstOffset = 0, .size = half };
	vkCmdCopyBuffer(sec[1], s.u.buffer, s.a.buffer, 1, &c);
	vkh_cmd_transfer_barrier(sec[1]);
	vkCmdFillBuffer(sec[1], s.a.buffer, 1024, 512, 0xcafef00d);
	VKH_CHECK_VK(h, vkEndCommandBuffer(sec[0]));
	VKH_CHECK_VK(h, vkEndCommandBuffer(sec[1]));

	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	vkCmdFillBuffer(cb, s.a.buffer, 0, VK_WHOLE_SIZE, 0xdeaddead);
	vkh_cmd_transfer_barrier(cb);
	vkCmdExecuteCommands(cb, 2, sec);
	vkh_cmd_transfer_barrier(cb);
	copy_whole(cb, s.a.buffer, s.r.buffer, s.size);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK(h, bufs_match(h, d, &s));
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 2, sec);
	bufs_destroy(d, &s);
}

static void
barrier2_buffer(VkCommandBuffer cb, VkBuffer buf)
{
	VkBufferMemoryBarrier2 bb = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
		.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT |
		                VK_PIPELINE_STAGE_2_CLEAR_BIT,
		.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT |
		                VK_PIPELINE_STAGE_2_CLEAR_BIT,
		.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT |
		                 VK_ACCESS_2_TRANSFER_WRITE_BIT,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.buffer = buf,
		.size = VK_WHOLE_SIZE,
	};
	VkDependencyInfo dep = {
		.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
		.bufferMemoryBarrierCount = 1,
		.pBufferMemoryBarriers = &bb,
	};

	vkCmdPipelineBarrier2(cb, &dep);
}

static void
barrier1_buffer(VkCommandBuffer cb, VkBuffer buf)
{
	VkBufferMemoryBarrier bb = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
		                 VK_ACCESS_TRANSFER_WRITE_BIT,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.buffer = buf,
		.size = VK_WHOLE_SIZE,
	};

	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 1,
	                     &bb, 0, NULL);
}

/* A chain of 24 dependent 4 MiB copies ping-ponging between A and B, each
 * shifted by one byte and followed by a small fill, separated only by
 * pipeline barriers (alternating vkCmdPipelineBarrier and
 * vkCmdPipelineBarrier2). If an engine starts a copy before the previous
 * one finished, the result differs from the model. */
static void
test_barrier_chain(struct vkh *h, struct vkh_device *d)
{
	enum { HOPS = 24 };
	struct bufs s;
	VkCommandBuffer cb;
	struct vkh_buffer *from, *to, *t;
	uint8_t *ma, *mb, *mf, *mt, *mx;

	VKH_CHECK_VK(h, bufs_create(h, d, 4 << 20, 5, &s));
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	copy_whole(cb, s.u.buffer, s.a.buffer, s.size);
	vkCmdFillBuffer(cb, s.b.buffer, 0, VK_WHOLE_SIZE, 0);
	vkh_cmd_transfer_barrier(cb);
	from = &s.a;
	to = &s.b;
	for (unsigned hop = 0; hop < HOPS; hop++) {
		/* "to" receives "from" shifted by one byte; its byte 0 keeps
		 * what it held, which the model tracks too. */
		VkBufferCopy c = {
			.srcOffset = 0, .dstOffset = 1, .size = s.size - 1,
		};

		if (hop & 1)
			barrier2_buffer(cb, from->buffer);
		else
			barrier1_buffer(cb, from->buffer);
		vkCmdCopyBuffer(cb, from->buffer, to->buffer, 1, &c);
		if (hop & 1)
			barrier2_buffer(cb, to->buffer);
		else
			barrier1_buffer(cb, to->buffer);
		vkCmdFillBuffer(cb, to->buffer, 4 * hop, 4, 0x01010101 * hop);
		t = from;
		from = to;
		to = t;
	}
	vkh_cmd_transfer_barrier(cb);
	copy_whole(cb, from->buffer, s.r.buffer, s.size);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));

	/* Host model: two buffers, same operations. */
	ma = malloc(s.size);
	mb = calloc(1, s.size);
	VKH_CHECK(h, ma && mb);
	memcpy(ma, s.u.map, s.size);
	mf = ma;
	mt = mb;
	for (unsigned hop = 0; hop < HOPS; hop++) {
		memcpy(mt + 1, mf, s.size - 1);
		model_fill(mt, 4 * hop, 4, 0x01010101 * hop);
		mx = mf;
		mf = mt;
		mt = mx;
	}
	memcpy(s.model, mf, s.size);
	free(ma);
	free(mb);
	VKH_CHECK(h, bufs_match(h, d, &s));
	bufs_destroy(d, &s);
}

/* vkQueueSubmit2 with two command buffers in one submit: the second
 * starts with a barrier that orders it after the first (barriers apply
 * across command buffers in submission order). */
static void
test_submit2(struct vkh *h, struct vkh_device *d)
{
	struct bufs s;
	VkCommandBuffer cb[2];
	VkCommandBufferSubmitInfo cbi[2];
	VkSubmitInfo2 si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
		.commandBufferInfoCount = 2,
		.pCommandBufferInfos = cbi,
	};
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;

	VKH_CHECK(h, h->synchronization2);
	VKH_CHECK_VK(h, bufs_create(h, d, 1 << 20, 6, &s));
	memcpy(s.model, s.u.map, s.size);
	cb[0] = vkh_cmd_begin(d, 0);
	cb[1] = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb[0] && cb[1]);
	copy_whole(cb[0], s.u.buffer, s.a.buffer, s.size);
	vkh_cmd_transfer_barrier(cb[1]);
	copy_whole(cb[1], s.a.buffer, s.r.buffer, s.size);
	vkh_cmd_host_barrier(cb[1]);
	for (unsigned i = 0; i < 2; i++) {
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb[i]));
		cbi[i] = (VkCommandBufferSubmitInfo){
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
			.commandBuffer = cb[i],
		};
	}
	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
	VKH_CHECK_VK(h, vkQueueSubmit2(d->queues[0].queue, 1, &si, fence));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	VKH_CHECK(h, bufs_match(h, d, &s));
	/* An empty vkQueueSubmit2 only signals its fence. */
	VKH_CHECK_VK(h, vkResetFences(d->device, 1, &fence));
	VKH_CHECK_VK(h, vkQueueSubmit2(d->queues[0].queue, 0, NULL, fence));
	VKH_CHECK_VK(h, vkWaitForFences(d->device, 1, &fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	vkDestroyFence(d->device, fence, NULL);
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 2, cb);
	bufs_destroy(d, &s);
}

/* Work submitted without fences completes by vkQueueWaitIdle (each queue)
 * and vkDeviceWaitIdle (all queues at once). */
static void
test_wait_idle(struct vkh *h, struct vkh_device *d)
{
	struct bufs s[VKH_MAX_QUEUES];
	VkCommandBuffer cb[VKH_MAX_QUEUES];
	uint32_t n = d->queue_count;

	for (unsigned round = 0; round < 2; round++) {
		for (uint32_t q = 0; q < n; q++) {
			VkSubmitInfo si = {
				.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				.commandBufferCount = 1,
			};

			VKH_CHECK_VK(h, bufs_create(h, d, 2 << 20,
			                            40 + q + round * 10,
			                            &s[q]));
			memcpy(s[q].model, s[q].u.map, s[q].size);
			cb[q] = vkh_cmd_begin(d, q);
			VKH_CHECK(h, cb[q]);
			copy_whole(cb[q], s[q].u.buffer, s[q].a.buffer,
			           s[q].size);
			vkh_cmd_transfer_barrier(cb[q]);
			copy_whole(cb[q], s[q].a.buffer, s[q].r.buffer,
			           s[q].size);
			vkh_cmd_host_barrier(cb[q]);
			VKH_CHECK_VK(h, vkEndCommandBuffer(cb[q]));
			si.pCommandBuffers = &cb[q];
			VKH_CHECK_VK(h, vkQueueSubmit(d->queues[q].queue, 1,
			                              &si, VK_NULL_HANDLE));
			if (round == 0)
				VKH_CHECK_VK(h, vkQueueWaitIdle(
				                        d->queues[q].queue));
		}
		if (round == 1)
			VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
		for (uint32_t q = 0; q < n; q++) {
			VKH_CHECK_MSG(h, bufs_match(h, d, &s[q]),
			              "round %u queue %u", round, q);
			vkFreeCommandBuffers(d->device, d->queues[q].pool, 1,
			                     &cb[q]);
			bufs_destroy(d, &s[q]);
		}
	}
	printf("  %u queue(s) (%u distinct)\n", n, d->distinct_queues);
}

static VkResult
record_copy(VkCommandBuffer cb, struct bufs *s, VkDeviceSize off)
{
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkBufferCopy c = { .srcOffset = off, .dstOffset = 0,
	                   .size = s->size - off };
	VkResult r = vkBeginCommandBuffer(cb, &bi);

	if (r != VK_SUCCESS)
		return r;
	vkCmdFillBuffer(cb, s->r.buffer, 0, VK_WHOLE_SIZE, 0);
	vkh_cmd_transfer_barrier(cb);
	vkCmdCopyBuffer(cb, s->u.buffer, s->r.buffer, 1, &c);
	vkh_cmd_host_barrier(cb);
	memset(s->model, 0, s->size);
	memcpy(s->model, (uint8_t *)s->u.map + off, s->size - off);
	return vkEndCommandBuffer(cb);
}

static VkResult
submit_one(struct vkh_device *d, VkCommandBuffer cb, VkFence fence)
{
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VkResult r;

	r = vkResetFences(d->device, 1, &fence);
	if (r == VK_SUCCESS)
		r = vkQueueSubmit(d->queues[0].queue, 1, &si, fence);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(d->device, 1, &fence, VK_TRUE,
		                    VKH_TIMEOUT_NS);
	return r;
}

/* A pool without per-buffer reset: record, submit, vkResetCommandPool
 * (releasing resources), re-record the same handles, trim, free one and
 * allocate a new one; then a RESET_COMMAND_BUFFER pool with
 * vkResetCommandBuffer. Every recording is checked by its data. */
static void
test_pool_reset_trim(struct vkh *h, struct vkh_device *d)
{
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.queueFamilyIndex = d->queues[0].family,
	};
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 3,
	};
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkCommandPool pool;
	VkCommandBuffer cb[3];
	VkFence fence;
	struct bufs s;

	VKH_CHECK_VK(h, bufs_create(h, d, 256 * 1024, 7, &s));
	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &fence));
	VKH_CHECK_VK(h, vkCreateCommandPool(d->device, &pci, NULL, &pool));
	ai.commandPool = pool;
	VKH_CHECK_VK(h, vkAllocateCommandBuffers(d->device, &ai, cb));
	for (unsigned round = 0; round < 3; round++) {
		for (unsigned i = 0; i < 3; i++) {
			VKH_CHECK_VK(h, record_copy(cb[i], &s,
			                            round * 3 + i + 1));
			VKH_CHECK_VK(h, submit_one(d, cb[i], fence));
			VKH_CHECK_MSG(h, bufs_match(h, d, &s),
			              "round %u cb %u", round, i);
		}
		VKH_CHECK_VK(h, vkResetCommandPool(d->device, pool,
		                VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT));
		vkTrimCommandPool(d->device, pool, 0);
	}
	vkFreeCommandBuffers(d->device, pool, 1, &cb[1]);
	vkTrimCommandPool(d->device, pool, 0);
	ai.commandBufferCount = 1;
	VKH_CHECK_VK(h, vkAllocateCommandBuffers(d->device, &ai, &cb[1]));
	VKH_CHECK_VK(h, record_copy(cb[1], &s, 77));
	VKH_CHECK_VK(h, submit_one(d, cb[1], fence));
	VKH_CHECK(h, bufs_match(h, d, &s));
	vkDestroyCommandPool(d->device, pool, NULL);

	pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT |
	            VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
	VKH_CHECK_VK(h, vkCreateCommandPool(d->device, &pci, NULL, &pool));
	ai.commandPool = pool;
	VKH_CHECK_VK(h, vkAllocateCommandBuffers(d->device, &ai, &cb[0]));
	for (unsigned round = 0; round < 3; round++) {
		VKH_CHECK_VK(h, vkResetCommandBuffer(cb[0],
		                VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT));
		VKH_CHECK_VK(h, record_copy(cb[0], &s, 1000 + round));
		VKH_CHECK_VK(h, submit_one(d, cb[0], fence));
		VKH_CHECK_MSG(h, bufs_match(h, d, &s), "reset round %u",
		              round);
	}
	/* Implicit reset by vkBeginCommandBuffer on a RESET pool. */
	VKH_CHECK_VK(h, record_copy(cb[0], &s, 5));
	VKH_CHECK_VK(h, submit_one(d, cb[0], fence));
	VKH_CHECK(h, bufs_match(h, d, &s));
	vkDestroyCommandPool(d->device, pool, NULL);
	vkDestroyFence(d->device, fence, NULL);
	bufs_destroy(d, &s);
}

/* 32 MiB through upload -> device-local -> readback. */
static void
test_large_copy(struct vkh *h, struct vkh_device *d)
{
	struct bufs s;
	VkCommandBuffer cb;
	uint64_t t0, t1;

	VKH_CHECK_VK(h, bufs_create(h, d, 32 << 20, 8, &s));
	memcpy(s.model, s.u.map, s.size);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	copy_whole(cb, s.u.buffer, s.a.buffer, s.size);
	vkh_cmd_transfer_barrier(cb);
	copy_whole(cb, s.a.buffer, s.r.buffer, s.size);
	vkh_cmd_host_barrier(cb);
	t0 = vkh_now_ns();
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	t1 = vkh_now_ns();
	printf("  2 x 32 MiB copied in %.2f ms\n", (double)(t1 - t0) / 1e6);
	VKH_CHECK(h, bufs_match(h, d, &s));
	bufs_destroy(d, &s);
}

/* Independent copies on every distinct queue at once, each fenced. */
static void
test_parallel_queues(struct vkh *h, struct vkh_device *d)
{
	struct bufs s[VKH_MAX_QUEUES];
	VkCommandBuffer cb[VKH_MAX_QUEUES];
	VkFence fence[VKH_MAX_QUEUES] = { 0 };
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	uint32_t n = d->queue_count;

	for (uint32_t q = 0; q < n; q++) {
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb[q],
		};

		VKH_CHECK_VK(h, bufs_create(h, d, 8 << 20, 60 + q, &s[q]));
		memcpy(s[q].model, s[q].u.map, s[q].size);
		cb[q] = vkh_cmd_begin(d, q);
		VKH_CHECK(h, cb[q]);
		for (unsigned i = 0; i < 4; i++) {
			copy_whole(cb[q], s[q].u.buffer, s[q].a.buffer,
			           s[q].size);
			vkh_cmd_transfer_barrier(cb[q]);
			copy_whole(cb[q], s[q].a.buffer, s[q].b.buffer,
			           s[q].size);
			vkh_cmd_transfer_barrier(cb[q]);
		}
		copy_whole(cb[q], s[q].b.buffer, s[q].r.buffer, s[q].size);
		vkh_cmd_host_barrier(cb[q]);
		VKH_CHECK_VK(h, vkEndCommandBuffer(cb[q]));
		VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL,
		                              &fence[q]));
		VKH_CHECK_VK(h, vkQueueSubmit(d->queues[q].queue, 1, &si,
		                              fence[q]));
	}
	VKH_CHECK_VK(h, vkWaitForFences(d->device, n, fence, VK_TRUE,
	                                VKH_TIMEOUT_NS));
	for (uint32_t q = 0; q < n; q++) {
		VKH_CHECK_MSG(h, bufs_match(h, d, &s[q]), "queue %u", q);
		vkDestroyFence(d->device, fence[q], NULL);
		vkFreeCommandBuffers(d->device, d->queues[q].pool, 1, &cb[q]);
		bufs_destroy(d, &s[q]);
	}
	printf("  %u queue(s) (%u distinct, %u famil%s)\n", n,
	       d->distinct_queues, d->distinct_families,
	       d->distinct_families == 1 ? "y" : "ies");
}

/* One command buffer with 20000 small commands (fills, inline updates and
 * one-region copies): far more than one block of command memory, so the
 * driver must chain them; every word is then checked. Then a single
 * vkCmdCopyBuffer with 4096 one-word regions in reverse order. */
static void
test_many_commands(struct vkh *h, struct vkh_device *d)
{
	enum { WORDS = 8192, ROUNDS = 20000 };
	struct bufs s;
	VkCommandBuffer cb;
	uint32_t *model, *got;
	VkBufferCopy *reg;

	VKH_CHECK_VK(h, bufs_create(h, d, WORDS * 4, 9, &s));
	model = (uint32_t *)s.model;
	memset(model, 0, s.size);
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	vkCmdFillBuffer(cb, s.a.buffer, 0, VK_WHOLE_SIZE, 0);
	vkh_cmd_transfer_barrier(cb);
	/* Distinct words per command: no two commands touch the same word
	 * without a barrier between them. */
	for (uint32_t i = 0; i < ROUNDS; i++) {
		uint32_t w = (i * 2654435761u) % WORDS;
		if (i % WORDS == 0 && i)
			vkh_cmd_transfer_barrier(cb);
		switch (i % 3) {
		case 0:
			vkCmdFillBuffer(cb, s.a.buffer, 4 * w, 4, i);
			model[w] = i;
			break;
		case 1:
			vkCmdUpdateBuffer(cb, s.a.buffer, 4 * w, 4, &i);
			model[w] = i;
			break;
		default: {
			VkBufferCopy c = { .srcOffset = 4 * w,
			                   .dstOffset = 4 * w, .size = 4 };
			vkCmdCopyBuffer(cb, s.u.buffer, s.a.buffer, 1, &c);
			model[w] = ((uint32_t *)s.u.map)[w];
			break;
		}
		}
	}
	vkh_cmd_transfer_barrier(cb);
	vkCmdCopyBuffer(cb, s.a.buffer, s.r.buffer, 1,
	                &(VkBufferCopy){ .size = s.size });
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	VKH_CHECK(h, bufs_match(h, d, &s));

	/* 4096 regions reversing the first 4096 words of U into R. */
	reg = calloc(4096, sizeof(*reg));
	VKH_CHECK(h, reg);
	for (uint32_t i = 0; i < 4096; i++)
		reg[i] = (VkBufferCopy){ .srcOffset = 4 * i,
		                         .dstOffset = 4 * (4095 - i),
		                         .size = 4 };
	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	vkCmdCopyBuffer(cb, s.u.buffer, s.r.buffer, 4096, reg);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	got = s.r.map;
	for (uint32_t i = 0; i < 4096; i++)
		VKH_CHECK_MSG(h, got[4095 - i] == ((uint32_t *)s.u.map)[i],
		              "reversed word %u", i);
	free(reg);
	bufs_destroy(d, &s);
}

static const struct vkh_test tests[] = {
	{ "copy_regions", test_copy_regions, 1, 0 },
	{ "fill", test_fill, 1, 0 },
	{ "update", test_update, 1, 0 },
	{ "secondary", test_secondary, 1, 0 },
	{ "barrier_chain", test_barrier_chain, 1, 0 },
	{ "submit2", test_submit2, 1, 0 },
	{ "wait_idle", test_wait_idle, 4, 0 },
	{ "pool_reset_trim", test_pool_reset_trim, 1, 0 },
	{ "large_copy", test_large_copy, 1, 0 },
	{ "parallel_queues", test_parallel_queues, 4, 0 },
	{ "many_commands", test_many_commands, 1, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_transfer", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
